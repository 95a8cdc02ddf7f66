#!/usr/bin/env python3
"""d2-laws.py -- check the laws of the Adams d_2 on a whole `adams d2` output.

    d2-laws.py [--adams BIN] (--from STORE | --module MODULE [--algorithm A])
               [--stem N] [--max-s S] [--first K] D2FILE

D2FILE holds the lines `d_2 x_(n, s, i) = [v]` of `adams d2` (docs/cli.md,
"adams d2"; v in the basis of Ext at (n - 1, s + 2)).  Everything else is read
from adams' own command-line outputs, never from its internals:

  adams ext STORE --format csv            the dimension of every cell
  adams products --from STORE             h_i x_(n, s, k) = [v], every i, k
  adams products --from STORE S_2 ...     whether the store's module is S_2

With --module MODULE the same come from `adams resolve MODULE --format csv` and
`adams products MODULE` (the resolution is computed again; give the d2 run's
--algorithm so that both use the same minimal resolution, hence the same basis).
With --from the store is the one `adams d2 --save` (or `resolve --save`) wrote
for this output: the d2 lines and the products are then in one basis by
construction, the dual basis of the minimal resolution's generators.

The region is sources through stem N, targets through filtration S (the d2
run's --stem/--max-s; by default the largest stem of a line and the largest
target filtration of a line).  Checked on all of it:

  lines      one line per class of every cell (n, s), 1 <= s <= S - 2, n <= N,
             whose target (n - 1, s + 2) is not zero, with dim (n - 1, s + 2)
             entries, and no line outside the region;
  d2 d2 = 0  at every (n, s) where both d_2 (n, s) -> (n - 1, s + 2) and
             d_2 (n - 1, s + 2) -> (n - 2, s + 4) are known: the composite is 0;
  leibniz    d_2(h_i x) = h_i d_2(x) for i = 0..3 on every basis class x where
             both sides are in the region, and for i >= 4
             d_2(h_i x) = h_i d_2(x) + h_0 h_{i-1}^2 x  (d_2 h_i = h_0 h_{i-1}^2,
             Adams 1960), the products from `adams products`;
  known      on S_2: d_2 h_4 = h_0 h_3^2 at (15, 1), d_2 e_0 = h_1^2 d_0 at
             (17, 4), the image of d_2 at (18, 4) is h_0^2 e_0 (f_0), where the
             region holds them (anchors the bases: a basis that differed between
             the d2 lines and the products would not give these).

d_2 of a cell is known where its line exists, or where the cell or its target
is zero (a target below the module's bottom stem included), and unknown outside
the region.  One summary line per law (cells or classes checked, failures, the
first failures; "with a nonzero side" counts the cells with a nonzero line,
the cells where both d_2 of the composite are nonzero, the classes where
either side of the Leibniz rule is nonzero: the checks that are not 0 = 0),
then `ok` (exit 0) or `FAILED` (exit 1); bad usage, an
unreadable file or a failing adams: one line, exit 2.  Plain Python (no numpy):
vectors are ints, bit k the coefficient of x_(n, s, k).
"""

import argparse
import re
import subprocess
import sys

LINE_D2 = re.compile(r"^d_2 x_\((-?\d+), (\d+), (\d+)\) = \[([0-9, ]*)\]$")
LINE_H = re.compile(r"^h_(\d+) x_\((-?\d+), (\d+), (\d+)\) = \[([0-9, ]*)\]$")


class Usage(Exception):
    """A bad input or a failing adams: one line, exit 2."""


def parse_vec(text, where):
    """The int of the vector text '1, 0, 1' (bit k = entry k) and its length."""
    parts = [p.strip() for p in text.split(",")] if text.strip() else []
    bits = 0
    for k, p in enumerate(parts):
        if p == "1":
            bits |= 1 << k
        elif p != "0":
            raise Usage(f"{where}: entry {p!r} is not 0 or 1")
    return bits, len(parts)


def read_table(lines, pattern, what, keyed):
    """{key: {k: (bits, length)}} from lines matching pattern; keyed(m) -> key."""
    table = {}
    for num, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = pattern.match(line)
        if not m:
            raise Usage(f"{what} line {num}: not a line of the expected form: {line[:80]!r}")
        key, k = keyed(m)
        bits, length = parse_vec(m.group(5 if pattern is LINE_H else 4), f"{what} line {num}")
        cell = table.setdefault(key, {})
        if k in cell:
            raise Usage(f"{what} line {num}: a second line for the same class")
        cell[k] = (bits, length)
    return table


def run_adams(argv):
    """stdout of adams argv (a list), or Usage naming the command on failure."""
    try:
        res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, check=False)
    except OSError as err:
        raise Usage(f"cannot run {argv[0]}: {err}") from err
    if res.returncode != 0:
        last = res.stderr.strip().splitlines()[-1:] or [""]
        raise Usage(f"`{' '.join(argv)}` exited {res.returncode}: {last[0]}")
    return res.stdout


class Region:
    """The dimensions of Ext over the region and the known matrices."""

    def __init__(self, dims, stem, max_s, d2, prods):
        self.dims = dims                  # {(n, s): dim}
        self.stem = stem
        self.max_s = max_s
        self.bottom = min(n for n, _ in dims) if dims else 0
        self.d2 = d2                      # {(n, s): {k: (bits, len)}}
        self.prods = prods                # {(i, n, s): {k: (bits, len)}}

    def dim(self, n, s):
        """dim Ext at (n, s); 0 below the bottom stem or s < 0; None outside."""
        if s < 0 or n < self.bottom:
            return 0
        return self.dims.get((n, s))

    def _rows(self, n, s, tn, ts, cell, known):
        """The images of the classes of (n, s) in (tn, ts) as a list of ints
        (cell: the table's entry, known: whether the region holds it), or None."""
        src, tgt = self.dim(n, s), self.dim(tn, ts)
        if src == 0:
            return []
        if src is None or tgt is None:
            return None
        if tgt == 0:
            return [0] * src
        if not known or cell is None or len(cell) != src:
            return None
        return [cell[k][0] for k in range(src)]

    def d2_rows(self, n, s):
        """d_2 of the classes of (n, s) as a list of ints, or None if unknown."""
        known = n <= self.stem and s + 2 <= self.max_s and s >= 1
        return self._rows(n, s, n - 1, s + 2, self.d2.get((n, s)), known)

    def prod_rows(self, i, n, s):
        """h_i times the classes of (n, s) as a list of ints, or None if unknown."""
        return self._rows(n, s, n + (1 << i) - 1, s + 1, self.prods.get((i, n, s)), True)


def apply(rows, vec):
    """The image of vec (an int over a basis) under the matrix rows."""
    out = 0
    k = 0
    while vec:
        if vec & 1:
            out ^= rows[k]
        vec >>= 1
        k += 1
    return out


def vec_text(bits, length):
    return "[" + ", ".join("1" if bits >> k & 1 else "0" for k in range(length)) + "]"


class Law:
    """One law's counts and its first failures."""

    def __init__(self, name, unit, first):
        self.name, self.unit, self.first = name, unit, first
        self.checked = 0
        self.nonzero = 0
        self.failures = []
        self.failed = 0

    def fail(self, text):
        self.failed += 1
        if len(self.failures) < self.first:
            self.failures.append(text)

    def line(self):
        head = (f"{self.name}: {self.checked} {self.unit} checked ({self.nonzero} with a "
                f"nonzero side), {self.failed} failed")
        if self.failures:
            head += "; first: " + "; ".join(self.failures)
        return head


def check_lines(reg, first):
    """Every class of the region with a nonzero target has its line, and no other."""
    law = Law("lines", "cells", first)
    for (n, s), cell in sorted(reg.d2.items()):
        tgt = reg.dim(n - 1, s + 2)
        src = reg.dim(n, s)
        if n > reg.stem or s < 1 or s + 2 > reg.max_s or src is None or tgt is None:
            law.fail(f"a line of ({n}, {s}) outside the region")
            continue
        bad = [k for k, (_, length) in cell.items() if k >= src or length != tgt]
        if bad:
            law.fail(f"({n}, {s}): class {bad[0]} not in the cell (dim {src}) or not "
                     f"{tgt} entries")
    for (n, s), src in sorted(reg.dims.items()):
        if src == 0 or s < 1 or n > reg.stem or s + 2 > reg.max_s:
            continue
        tgt = reg.dim(n - 1, s + 2)
        if not tgt:
            continue
        law.checked += 1
        have = reg.d2.get((n, s), {})
        if any(b for b, _ in have.values()):
            law.nonzero += 1
        if len(have) != src:
            law.fail(f"({n}, {s}): {len(have)} lines for {src} classes")
    return law


def check_d2d2(reg, first):
    """d_2 d_2 = 0 on every cell where both are known."""
    law = Law("d2 d2 = 0", "cells", first)
    for (n, s) in sorted(reg.dims):
        if not reg.dims[(n, s)] or not reg.dim(n - 1, s + 2) or not reg.dim(n - 2, s + 4):
            continue
        a = reg.d2_rows(n, s)
        b = reg.d2_rows(n - 1, s + 2)
        if a is None or b is None:
            continue
        law.checked += 1
        if any(a) and any(b):
            law.nonzero += 1
        for k, v in enumerate(a):
            w = apply(b, v)
            if w:
                law.fail(f"d_2 d_2 x_({n}, {s}, {k}) = {vec_text(w, reg.dim(n - 2, s + 4))} "
                         f"(cells ({n}, {s}) and ({n - 1}, {s + 2}))")
    return law


def h0_hm1_sq(reg, i, n, s):
    """h_0 h_{i-1}^2 times the classes of (n, s), or None if unknown."""
    step = (1 << (i - 1)) - 1
    a = reg.prod_rows(i - 1, n, s)
    b = reg.prod_rows(i - 1, n + step, s + 1)
    c = reg.prod_rows(0, n + 2 * step, s + 2)
    if a is None or b is None or c is None:
        return None
    return [apply(c, apply(b, v)) for v in a]


def check_leibniz(reg, i, first):
    """d_2(h_i x) = h_i d_2(x) (+ h_0 h_{i-1}^2 x for i >= 4) on every basis class."""
    extra = f" + h_0 h_{i - 1}^2 x" if i >= 4 else ""
    law = Law(f"leibniz d_2(h_{i} x) = h_{i} d_2(x){extra}", "classes", first)
    step = (1 << i) - 1
    for (n, s) in sorted(reg.dims):
        if not reg.dims[(n, s)]:
            continue
        hx = reg.prod_rows(i, n, s)
        dx = reg.d2_rows(n, s)
        d_hx = reg.d2_rows(n + step, s + 1)
        h_dx = reg.prod_rows(i, n - 1, s + 2)
        if hx is None or dx is None or d_hx is None or h_dx is None:
            continue
        corr = h0_hm1_sq(reg, i, n, s) if i >= 4 else [0] * len(hx)
        if corr is None:
            continue
        tgt = reg.dim(n + step - 1, s + 3)
        for k in range(len(hx)):
            left = apply(d_hx, hx[k])
            right = apply(h_dx, dx[k]) ^ corr[k]
            law.checked += 1
            if left or right:
                law.nonzero += 1
            if left != right:
                law.fail(f"x_({n}, {s}, {k}): d_2(h_{i} x) = {vec_text(left, tgt)} but "
                         f"h_{i} d_2(x){extra} = {vec_text(right, tgt)} (d_2 cells "
                         f"({n}, {s}) and ({n + step}, {s + 1}))")
    return law


def check_known(reg, first):
    """d_2 h_4, d_2 e_0, d_2 f_0 on S_2, where the region holds them."""
    law = Law("known values of S_2 (d_2 h_4, d_2 e_0, d_2 f_0)", "cells", first)

    def one(n, s):
        return reg.dim(n, s) == 1

    def h(i, n, s, v):
        rows = reg.prod_rows(i, n, s)
        return None if rows is None or v is None else apply(rows, v)

    def show(v, n, s):
        return "unknown" if v is None else vec_text(v, reg.dim(n, s) or 0)

    def product_of_one(cell, lhs, i, j, base, rhs):
        """d_2 of the one class at cell is h_i h_j of the one class at base."""
        (n, s), (bn, bs) = cell, base
        d = reg.d2_rows(n, s)
        if d is None or not one(n, s) or not one(bn, bs):
            return
        law.checked += 1
        want = h(i, bn + (1 << j) - 1, bs + 1, h(j, bn, bs, 1))
        if not want or d[0] != want:
            law.fail(f"{lhs} = {show(d[0], n - 1, s + 2)}, {rhs} = {show(want, n - 1, s + 2)} "
                     f"(cell ({n}, {s}))")
        else:
            law.nonzero += 1

    product_of_one((15, 1), "d_2 h_4", 0, 3, (7, 1), "h_0 h_3^2")    # x_(7, 1, 0) = h_3
    product_of_one((17, 4), "d_2 e_0", 1, 1, (14, 4), "h_1^2 d_0")   # x_(14, 4, 0) = d_0
    d = reg.d2_rows(18, 4)
    if d is not None and one(17, 4):
        law.checked += 1
        want = h(0, 17, 5, h(0, 17, 4, 1))       # x_(17, 4, 0) = e_0
        image = {v for v in d if v}
        if not want or image != {want}:
            law.fail(f"d_2 of (18, 4) = {', '.join(show(v, 17, 6) for v in d)}, not f_0 -> "
                     f"h_0^2 e_0 = {show(want, 17, 6)} (cell (18, 4))")
        else:
            law.nonzero += 1
    return law


def load(args):
    """The Region of the d2 file and adams' outputs."""
    try:
        with open(args.d2file, encoding="utf-8") as fh:
            d2 = read_table(fh, LINE_D2, args.d2file,
                            lambda m: ((int(m.group(1)), int(m.group(2))), int(m.group(3))))
    except OSError as err:
        raise Usage(f"cannot read {args.d2file}: {err.strerror}") from err
    if not d2 and (args.stem is None or args.max_s is None):
        raise Usage(f"{args.d2file}: no d_2 line; give --stem and --max-s")
    stem = args.stem if args.stem is not None else max(n for n, _ in d2)
    max_s = args.max_s if args.max_s is not None else max(s for _, s in d2) + 2
    region = ["--stem", str(stem), "--max-s", str(max_s)]
    if args.store:
        csv = run_adams([args.adams, "ext", args.store, "--format", "csv"] + region)
        prods = run_adams([args.adams, "products", "--from", args.store] + region)
    else:
        algo = ["--algorithm", args.algorithm] if args.algorithm else []
        csv = run_adams([args.adams, "resolve", args.module, "--format", "csv", "--quiet"]
                        + region + algo)
        prods = run_adams([args.adams, "products", args.module, "--quiet"] + region + algo)
    dims = {}
    for line in csv.splitlines():
        parts = line.split(",")
        if len(parts) == 3 and all(re.fullmatch(r"-?\d+", p) for p in parts):
            dims[(int(parts[0]), int(parts[1]))] = int(parts[2])
    if not dims:
        raise Usage("adams printed no dimensions for the region")
    table = read_table(prods.splitlines(), LINE_H, "adams products",
                       lambda m: ((int(m.group(1)), int(m.group(2)), int(m.group(3))),
                                  int(m.group(4))))
    return Region(dims, stem, max_s, d2, table)


def is_sphere(args):
    """Whether the module is S_2 (the store's module is S_2: adams accepts the name)."""
    if args.module:
        return args.module == "S_2"
    res = subprocess.run([args.adams, "products", "--from", args.store, "S_2", "--stem", "0",
                          "--max-s", "0"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, check=False)
    return res.returncode == 0


def main():
    ap = argparse.ArgumentParser(description="Check d_2 d_2 = 0 and the Leibniz rule on a "
                                 "whole `adams d2` output, from adams' command-line outputs.")
    ap.add_argument("d2file", help="the output of `adams d2` (lines d_2 x_(n, s, i) = [v])")
    ap.add_argument("--adams", default="adams", help="the adams program (default: adams)")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--from", dest="store", help="the store of the d2 run (d2/resolve --save)")
    src.add_argument("--module", help="the module, resolved again (give --algorithm)")
    ap.add_argument("--algorithm", help="with --module: the d2 run's engine")
    ap.add_argument("--stem", type=int, help="the d2 run's --stem (default: from the lines)")
    ap.add_argument("--max-s", type=int, help="the d2 run's --max-s (default: from the lines)")
    ap.add_argument("--first", type=int, default=3, help="failures shown per law (3)")
    args = ap.parse_args()
    try:
        reg = load(args)
        sphere = is_sphere(args)
    except Usage as err:
        print(f"d2-laws: {err}", file=sys.stderr)
        return 2
    print(f"d2-laws: {sum(len(c) for c in reg.d2.values())} lines, region stems "
          f"{reg.bottom}..{reg.stem}, targets through s = {reg.max_s}"
          f"{' (S_2)' if sphere else ''}")
    laws = [check_lines(reg, args.first), check_d2d2(reg, args.first)]
    top_i = max((i for i, _, _ in reg.prods), default=-1)
    laws += [check_leibniz(reg, i, args.first) for i in range(top_i + 1)]
    if sphere:
        laws.append(check_known(reg, args.first))
    bad = 0
    for law in laws:
        print(law.line())
        bad += law.failed
    print("ok" if bad == 0 else f"FAILED ({bad} failure{'' if bad == 1 else 's'})")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
