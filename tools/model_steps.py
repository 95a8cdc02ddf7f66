#!/usr/bin/env python3
"""Extrapolates a measured step trace (ADAMS_LOG=step) to a larger region.

For every measured row s, fits log(ms) = a_s + b_s n by least squares on its
steps with n >= NMIN (small stems are dominated by fixed costs), then writes a
synthetic trace for 0 <= s <= S, 0 <= n <= N: measured times where we have
them, the row's fit elsewhere (rows above the measured ones use the top
measured row's fit).  Feed the result to sched_sim.py.

Usage: model_steps.py TRACE N S OUT [--nmin 30]
"""
import math
import re
import sys


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def main():
    trace, N, S, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    nmin = int(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[5] == "--nmin" else 30
    pat = re.compile(r"event=step s=(\d+) t=(\d+) n=(-?\d+) .*ms=([\d.]+)")
    meas = {}
    for line in open(trace):
        m = pat.search(line)
        if m:
            meas[(int(m.group(1)), int(m.group(2)))] = float(m.group(4))
    smax = max(s for s, _ in meas)
    fits = {}
    for row in range(smax + 1):
        pts = [(t - s, math.log(ms)) for (s, t), ms in meas.items()
               if s == row and t - s >= nmin and ms > 0]
        if len(pts) < 5:
            continue
        k = len(pts)
        ata = [[k, sum(n for n, _ in pts)], [sum(n for n, _ in pts), sum(n * n for n, _ in pts)]]
        aty = [sum(y for _, y in pts), sum(n * y for n, y in pts)]
        fits[row] = solve(ata, aty)
    last = max(fits)
    for row in (0, 1, 2, 8, 16, last):
        if row in fits:
            sys.stderr.write("row %d: log ms = %.3f + %.4f n (x%.2f per 10 stems)\n"
                             % (row, fits[row][0], fits[row][1], math.exp(10 * fits[row][1])))
    with open(out, "w") as f:
        for s in range(S + 1):
            for n in range(N + 1):
                t = s + n
                if (s, t) in meas:
                    ms = meas[(s, t)]
                else:
                    c = fits.get(s) or fits[min(fits, key=lambda r: abs(r - s))]
                    ms = math.exp(c[0] + c[1] * n)
                f.write("event=step s=%d t=%d n=%d ms=%.3f\n" % (s, t, n, ms))


if __name__ == "__main__":
    main()
