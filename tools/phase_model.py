#!/usr/bin/env python3
"""Models P workers on a phase trace of Nassau steps (ADAMS_LOG=phase), such as
the stem-200 run's, that has no chunk events.

Every step's phases (build1, rref1, build2, rref2, boundaries, correct) are
split into a serial part and a parallel section with the parallel fractions
measured on another, smaller run traced with the per-phase split
(`serial=` and `sections=` fields of event=phase: each phase's serial CPU time
and its sections' CPU work, recorded with --threads 2):

  * the fractions are binned by phase, by row group (ROW_GROUPS; --all-rows:
    one group) and by the phase's size (its CPU ms, bins of a factor 2, at
    least MIN_SAMPLES phases each); a phase of the modelled trace takes the
    fraction of its bin, and beyond the largest bin measured the fraction of
    the largest (so the sizes not measured are not credited with more
    parallelism than the largest measured);
  * the modelled trace's phase times are wall times; they are scaled to CPU
    time by --scale (default: its total of user CPU seconds given by --cpu
    over the sum of its phase times) before the bins are looked up, and the
    model runs on those CPU times;
  * each parallel part becomes a section of --chunks-per-worker x P equal
    chunks (perfect balance, no per-chunk cost: an upper estimate of what the
    sections give), the serial part of each phase runs before its section;
  * the steps are scheduled by tools/sched_sim.py's pool simulation (the
    engine's relaxed dependency graph, lowest (s, t) first, idle workers help
    open sections first).

Prints the measured fractions, the work, the critical path (serial parts plus
the sections at P chunks along the longest chain) and, per P, the modelled
time and speedup over one worker.

--own-cpu sizes the phases by the trace's own serial= and sections= (a trace
with the split), to check the method against sched_sim.py on a trace with
chunk events (docs/parallelism.md: 1.1-1.2x optimistic at (130, 68)).

When the fractions trace has event=correct lines (one a step: step 3's serial
CPU and section work in its parts: the blocks, the translations and
quasi-inverses, the XORs of kept rows and products, the rest), it also prints
step 3's serial time by part over the steps whose step 3 is at least
--big-ms of CPU (what binds step 3 on the large steps), and by row group over
the steps of at least --group-ms (the bins the stem-200 steps take).

--fractions takes one or more traces, their phases binned together (for
instance a (150, 78) run for every row and the first rows of a stem-200 run
recorded with the split, for the sizes only stem 200 reaches); FILE:N takes
only the steps of rows s <= N of FILE.

Usage: phase_model.py TRACE [TRACE ...] --fractions FRAC_TRACE[:N] [FRAC_TRACE[:N] ...]
                      [--cpu SECONDS]
                      [--workers 1,2,16,64,128] [--chunks-per-worker 1]
                      [--what-if PHASE=FRACTION,...] [--all-rows] [--own-cpu]
"""
import argparse
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_sim  # noqa: E402

PHASES = ["build1", "rref1", "build2", "rref2", "boundaries", "correct"]


def parse(line):
    i = line.find("event=phase")
    if i < 0:
        return None
    return dict(kv.split("=", 1) for kv in line[i:].split()[1:] if "=" in kv)


def load_steps(paths, own_cpu=False):
    """{(s, t): [ms per phase]}: wall times, or with own_cpu each phase's CPU
    time (serial + sections) where the trace has the split; a later file's
    step replaces an earlier's."""
    steps = {}
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                d = parse(line)
                if not d:
                    continue
                if own_cpu:
                    if "serial" not in d:
                        sys.exit("--own-cpu: a phase line without serial= in " + path)
                    ser = [float(x) for x in d["serial"].split(",")]
                    par = [float(x) for x in d["sections"].split(",")]
                    steps[(int(d["s"]), int(d["t"]))] = [max(0.0, a) + b for a, b in zip(ser, par)]
                else:
                    steps[(int(d["s"]), int(d["t"]))] = [float(d[p]) for p in PHASES]
    return steps


CORRECT_PARTS = ["blocks", "translations", "xors+products", "rest"]


def correct_parts(paths, big_ms):
    """Step 3's serial and section CPU ms by part (event=correct lines) over
    the steps whose step 3 takes at least big_ms of CPU in all; None if the
    trace has no such lines."""
    ser, par, n, seen = [0.0] * 4, [0.0] * 4, 0, False
    for d in trace_lines(paths, "event=correct"):
        seen = True
        a = [max(0.0, float(x)) for x in d["serial"].split(",")]
        b = [float(x) for x in d["sections"].split(",")]
        if sum(a) + sum(b) < big_ms:
            continue
        n += 1
        for k in range(4):
            ser[k] += a[k]
            par[k] += b[k]
    return (ser, par, n) if seen else None


def correct_parts_by_row(paths, min_ms):
    """{row group: (serial ms by part, section ms by part, steps)} over the
    steps whose step 3 takes at least min_ms of CPU (event=correct lines)."""
    acc = {}
    for d in trace_lines(paths, "event=correct"):
        a = [max(0.0, float(x)) for x in d["serial"].split(",")]
        b = [float(x) for x in d["sections"].split(",")]
        if sum(a) + sum(b) < min_ms:
            continue
        ser, par, n = acc.setdefault(row_group(int(d["s"])), ([0.0] * 4, [0.0] * 4, [0]))
        n[0] += 1
        for k in range(4):
            ser[k] += a[k]
            par[k] += b[k]
    return acc


def size_bin(ms):
    return int(math.floor(math.log2(max(ms, 1e-3))))


MIN_SAMPLES = 20


def merge_sparse(bins):
    """Bins with fewer than MIN_SAMPLES phases are merged into the bin below
    (from the top), so that the largest sizes rest on enough steps."""
    out = {}
    carry = [0.0, 0.0, 0]
    for b in sorted(bins, reverse=True):
        s, q, n = bins[b]
        carry = [carry[0] + s, carry[1] + q, carry[2] + n]
        if carry[2] >= MIN_SAMPLES:
            out[b] = carry
            carry = [0.0, 0.0, 0]
    if carry[2] and bins:
        lo = min(bins)
        prev = out.get(lo, [0.0, 0.0, 0])
        out[lo] = [prev[0] + carry[0], prev[1] + carry[1], prev[2] + carry[2]]
    return out


ROW_GROUPS = [(2, 4), (5, 7), (8, 10), (11, 13), (14, 17), (18, 24), (25, 10**6)]


def row_group(s):
    for g in ROW_GROUPS:
        if g[0] <= s <= g[1]:
            return g
    return ROW_GROUPS[-1]


def trace_lines(specs, event):
    """The fields of the lines of `event` in the traces specs (FILE or
    FILE:N, the rows s <= N only)."""
    for spec in specs:
        path, max_row = spec, None
        head, _, tail = spec.rpartition(":")
        if head and tail.isdigit():
            path, max_row = head, int(tail)
        with open(path, errors="replace") as f:
            for line in f:
                i = line.find(event)
                if i < 0:
                    continue
                d = dict(kv.split("=", 1) for kv in line[i:].split()[1:] if "=" in kv)
                if max_row is None or int(d["s"]) <= max_row:
                    yield d


def load_fractions(paths, by_row=True):
    """{(phase, row group): {bin: [serial ms, section ms, phases]}} from
    traces with the split (trace_lines; one group for all rows unless
    by_row)."""
    acc = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0]))
    n = 0
    for d in trace_lines(paths, "event=phase"):
        if "serial" not in d:
            continue
        n += 1
        ser = [float(x) for x in d["serial"].split(",")]
        par = [float(x) for x in d["sections"].split(",")]
        g = row_group(int(d["s"])) if by_row else ROW_GROUPS[-1]
        for k, p in enumerate(PHASES):
            w = ser[k] + par[k]
            if w <= 0:
                continue
            b = acc[(p, g)][size_bin(w)]
            b[0] += max(0.0, ser[k])
            b[1] += par[k]
            b[2] += 1
    if n == 0:
        sys.exit("no event=phase lines with serial= and sections= in " + " ".join(paths))
    return {key: merge_sparse(bins) for key, bins in acc.items()}


def fraction(acc, p, ms, s=None):
    """The measured fraction of phase p at size ms (CPU) on row s: its row
    group's bins (with by_row), the size's bin, else the nearest below, and
    beyond the largest the largest."""
    bins = acc.get((p, row_group(s) if s is not None else ROW_GROUPS[-1]))
    if not bins:
        bins = {}
        for (q, _), bq in acc.items():  # the row group has none: all rows
            if q == p:
                for b, v in bq.items():
                    c = bins.setdefault(b, [0.0, 0.0, 0])
                    c[0] += v[0]
                    c[1] += v[1]
                    c[2] += v[2]
    if not bins:
        return 0.0
    b = min(size_bin(ms), max(bins))
    while b not in bins and b > min(bins):
        b -= 1
    if b not in bins:
        b = min(bins)
    sm, q, _ = bins[b]
    return q / (sm + q) if sm + q > 0 else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace", nargs="+")
    ap.add_argument("--fractions", required=True, nargs="+",
                    help="traces with the split, FILE or FILE:N (rows s <= N only)")
    ap.add_argument("--cpu", type=float, help="user CPU seconds of the modelled run")
    ap.add_argument("--scale", type=float, help="CPU ms per phase wall ms (default from --cpu)")
    ap.add_argument("--own-cpu", action="store_true",
                    help="phase sizes from the trace's own serial= and sections= CPU times "
                         "(a trace with the split: to check the method against sched_sim.py)")
    ap.add_argument("--all-rows", action="store_true",
                    help="one set of fractions for all rows (default: by row group)")
    ap.add_argument("--workers", default="1,2,16,64,128")
    ap.add_argument("--chunks-per-worker", type=int, default=1)
    ap.add_argument("--big-ms", type=float, default=1000.0,
                    help="step 3's parts are summed over steps whose step 3 takes this many "
                         "CPU ms or more (event=correct lines of the fractions trace)")
    ap.add_argument("--group-ms", type=float, default=128.0,
                    help="step 3's serial share by part and row group over steps whose step 3 "
                         "takes this many CPU ms or more (event=correct lines)")
    ap.add_argument("--what-if", default="",
                    help="PHASE=FRACTION,...: replace the measured fraction of these phases")
    a = ap.parse_args()
    steps = load_steps(a.trace, a.own_cpu)
    if not steps:
        sys.exit("no event=phase lines in " + " ".join(a.trace))
    wall = sum(sum(v) for v in steps.values())
    scale = 1.0 if a.own_cpu else a.scale or (1e3 * a.cpu / wall if a.cpu else 1.0)
    acc = load_fractions(a.fractions, not a.all_rows)
    whatif = {}
    for kv in filter(None, a.what_if.split(",")):
        p, v = kv.split("=")
        whatif[p] = float(v)

    print("measured parallel fractions (of CPU work) by phase, rows and size bin (ms):")
    for (p, g), bins in sorted(acc.items(), key=lambda kv: (PHASES.index(kv[0][0]), kv[0][1])):
        cells = [f"{2**b:g}:{q / (s + q):.2f}" for b, (s, q, _) in sorted(bins.items())
                 if s + q > 0 and 2**b >= 0.1]
        if cells:
            print(f"  {p:10s} s {g[0]}-{min(g[1], 999)}: " + " ".join(cells))

    cp_parts = correct_parts(a.fractions, a.big_ms)
    if cp_parts:
        ser, par, n = cp_parts
        tot = sum(ser) + sum(par)
        if n and tot > 0:
            print(f"step 3 by part over the {n} steps of the fractions trace whose step 3 takes "
                  f">= {a.big_ms:g} CPU ms ({tot / 1e3:.1f} s, {100 * sum(par) / tot:.1f}% "
                  f"parallel): serial " +
                  ", ".join(f"{p} {100 * v / tot:.1f}%" for p, v in zip(CORRECT_PARTS, ser)) +
                  "; sections " +
                  ", ".join(f"{p} {100 * v / tot:.1f}%" for p, v in zip(CORRECT_PARTS, par)))

    by_row = correct_parts_by_row(a.fractions, a.group_ms)
    if by_row:
        print(f"step 3's serial share by part and rows, steps whose step 3 takes >= "
              f"{a.group_ms:g} CPU ms:")
        for g in sorted(by_row):
            ser, par, n = by_row[g]
            tot = sum(ser) + sum(par)
            if tot > 0:
                print(f"  s {g[0]}-{min(g[1], 999)}: {n[0]} steps, {tot / 1e3:.1f} s, "
                      f"{100 * sum(par) / tot:.1f}% parallel; serial " +
                      ", ".join(f"{p} {100 * v / tot:.1f}%" for p, v in zip(CORRECT_PARTS, ser)))

    # Serial and parallel CPU ms per step and phase.
    split = {}
    tot_ser = tot_par = 0.0
    by_phase = defaultdict(lambda: [0.0, 0.0])
    for k, ph in steps.items():
        lst = []
        for p, ms in zip(PHASES, ph):
            w = ms * scale
            f = whatif.get(p, fraction(acc, p, w, k[0]))
            lst.append((w * (1 - f), w * f))
            by_phase[p][0] += w * (1 - f)
            by_phase[p][1] += w * f
            tot_ser += w * (1 - f)
            tot_par += w * f
        split[k] = lst
    total = tot_ser + tot_par
    print(f"steps {len(steps)}  phase wall {wall / 1e3:.0f} s  scale {scale:.3f}  "
          f"work {total / 1e3:.0f} CPU s, {100 * tot_par / total:.1f}% parallel")
    for p in PHASES:
        s, q = by_phase[p]
        print(f"  {p:10s} {(s + q) / 1e3:8.0f} s  serial {s / 1e3:8.0f} s  "
              f"parallel {100 * q / max(s + q, 1e-9):5.1f}%")

    def phases_for(P):
        n = max(1, a.chunks_per_worker * P)
        out = {}
        for k, lst in split.items():
            ph = []
            for s, q in lst:
                if s > 0:
                    ph.append(("serial", s))
                if q > 0:
                    ph.append(("section", [q / n] * n))
            out[k] = ph or [("serial", 0.0)]
        return out

    def path_parts(P):
        """The chain of steps with the longest sum of serial + parallel / P, and
        its serial ms per phase and its parallel ms / P in all."""
        span = {k: sum(s + q / P for s, q in lst) for k, lst in split.items()}
        best, arg = {}, {}
        for k in sorted(split, key=lambda k: (k[1], k[0])):
            ps = sched_sim.preds(k[0], k[1], "nassau", split)
            b = max(ps, key=lambda p: best[p], default=None)
            best[k] = span[k] + (best[b] if b else 0.0)
            arg[k] = b
        k = max(best, key=best.get)
        ser, par, n, rows = [0.0] * len(PHASES), 0.0, 0, defaultdict(float)
        while k:
            for i, (s, q) in enumerate(split[k]):
                ser[i] += s
                par += q / P
            rows[k[0]] += split[k][PHASES.index("correct")][0]
            n += 1
            k = arg[k]
        return ser, par, n, rows

    t1 = None
    print("workers\tmodelled_s\tspeedup\tcritical_path_s\tbound")
    for P in sorted({int(x) for x in a.workers.split(",")} | {1}):
        ph = phases_for(P)
        sp = sched_sim.simulate(ph, "nassau", P)[0]
        t1 = t1 or sp
        cp = sched_sim.critical_path(ph, "nassau")
        print(f"{P}\t{sp / 1e3:.1f}\t{t1 / sp:.2f}\t{cp / 1e3:.1f}\t{total / cp:.1f}")
        sys.stdout.flush()
    P = max(int(x) for x in a.workers.split(","))
    ser, par, n, rows = path_parts(P)
    print(f"the critical path at {P} workers: {n} steps, "
          f"{(sum(ser) + par) / 1e3:.1f} s = serial " +
          ", ".join(f"{p} {v / 1e3:.1f}" for p, v in zip(PHASES, ser)) +
          f" + sections / {P} {par / 1e3:.1f} s")
    print("  its serial step 3 by row: " +
          ", ".join(f"s={r} {v / 1e3:.1f}" for r, v in sorted(rows.items()) if v >= 50))


if __name__ == "__main__":
    main()
