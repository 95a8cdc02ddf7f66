#!/usr/bin/python3
"""Compares an adams Ext CSV (`adams resolve --format csv`: n,s,dim lines)
with SSeqCpp's table (tests/data/ext-S2-t236-sseqcpp.csv: stem,s,t,dim, zero
groups omitted) on every cell both cover: the adams region with t = n + s at
most the table's largest t.  Prints the counts and each disagreement; exit 1
if any.  Used for the stem-200 run (docs/benchmarks.md, "Stem 200").

    bench/ext-vs-sseqcpp.py s200.csv [tests/data/ext-S2-t236-sseqcpp.csv]
"""
import os
import sys


def read_adams(path):
    cells = {}
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) != 3 or not parts[0].lstrip("-").isdigit():
                continue
            n, s, dim = map(int, parts)
            cells[(n, s)] = dim
    return cells


def read_table(path):
    cells = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("stem,"):
                continue
            n, s, t, dim = map(int, line.strip().split(","))
            if t != n + s:
                sys.exit(f"{path}: bad row {line.strip()}")
            cells[(n, s)] = dim
    return cells


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    table_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        here, "..", "tests", "data", "ext-S2-t236-sseqcpp.csv")
    ours, table = read_adams(sys.argv[1]), read_table(table_path)
    t_max = max(n + s for n, s in table)
    compared = nonzero = 0
    bad = []
    for (n, s), dim in sorted(ours.items()):
        if n + s > t_max:
            continue
        compared += 1
        nonzero += dim > 0
        if table.get((n, s), 0) != dim:
            bad.append((n, s, dim, table.get((n, s), 0)))
    beyond = sum(1 for n, s in ours if n + s > t_max)
    print(f"compared {compared} cells with t <= {t_max} ({nonzero} nonzero): "
          f"{len(bad)} differ; {beyond} cells of the CSV lie beyond the table")
    for n, s, a, b in bad:
        print(f"  (n, s) = ({n}, {s}): adams {a}, SSeqCpp {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
