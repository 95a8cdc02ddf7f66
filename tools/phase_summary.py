#!/usr/bin/env python3
"""Summarises a trace of Nassau steps (ADAMS_LOG=phase[,step]): where the time goes.

Reads 'event=phase' lines (one per Nassau step, s >= 2) and prints
  * the total of each phase over the run (step-seconds: with several threads
    the phases of concurrent steps overlap, so these add up to about threads x
    wall, not wall);
  * the same by block of ten stems (n = t - s) and by group of rows, with the
    share of the whole;
  * the peak of the corrections' cache (zcache_mb) and where it occurred.

Phases: build1 (d_{s-1} on T's zero-signature basis), rref1 (its reduction and
kernel), build2 (d_s on S's zero-signature basis), rref2 (reduction and the
image extended onto the kernel), boundaries (provisional d(x)), correct (step 3;
of which zblock: completing zero-signature blocks of lower degrees, apply: the
corrections' products).

Usage: phase_summary.py TRACE [--stems 10] [--rows 2-5,6-15,16-30,31-200]
"""
import argparse
import re
from collections import defaultdict

PHASES = ["build1", "rref1", "build2", "rref2", "boundaries", "correct", "zblock", "apply"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--stems", type=int, default=10)
    ap.add_argument("--rows", default="2-5,6-15,16-30,31-1000")
    a = ap.parse_args()
    groups = [tuple(int(x) for x in g.split("-")) for g in a.rows.split(",")]
    tot = defaultdict(float)
    by_n = defaultdict(lambda: defaultdict(float))
    by_g = defaultdict(lambda: defaultdict(float))
    peak = (0.0, None)
    for line in open(a.trace):
        if "event=phase" not in line:
            continue
        d = dict(kv.split("=", 1) for kv in line.split()[1:])
        s, t = int(d["s"]), int(d["t"])
        n = t - s
        step = sum(float(d[p]) for p in PHASES[:6])
        for p in PHASES:
            tot[p] += float(d[p])
            by_n[n // a.stems][p] += float(d[p])
        tot["step"] += step
        by_n[n // a.stems]["step"] += step
        for g in groups:
            if g[0] <= s <= g[1]:
                by_g[g]["step"] += step
                by_g[g]["correct"] += float(d["correct"])
                by_g[g]["builds"] += float(d["build1"]) + float(d["build2"])
        z = float(d.get("zcache_mb", 0))
        if z > peak[0]:
            peak = (z, (s, t))
    T = tot["step"]
    print("phase totals (step-seconds):")
    for p in PHASES:
        print(f"  {p:11s} {tot[p] / 1e3:9.1f} s  {100 * tot[p] / T:5.1f}%")
    print(f"  {'all':11s} {T / 1e3:9.1f} s")
    print(f"by stems ({a.stems} at a time): step-seconds, share, growth over the previous block")
    prev = None
    for k in sorted(by_n):
        v = by_n[k]["step"]
        g = f"{v / prev:5.2f}x" if prev else "     "
        parts = " ".join(f"{p}={100 * by_n[k][p] / v:4.1f}%" for p in ["build1", "build2", "zblock", "apply"] if v)
        print(f"  n {k * a.stems:3d}-{k * a.stems + a.stems - 1:3d} {v / 1e3:9.1f} s {100 * v / T:5.1f}% {g}  {parts}")
        prev = v if v > 0 else prev
    print("by rows:")
    for g in groups:
        v = by_g[g]
        if v["step"]:
            print(f"  s {g[0]:3d}-{g[1]:3d} {v['step'] / 1e3:9.1f} s {100 * v['step'] / T:5.1f}%  "
                  f"builds {100 * v['builds'] / v['step']:4.1f}% corrections {100 * v['correct'] / v['step']:4.1f}%")
    if peak[1]:
        print(f"cache peak {peak[0]:.1f} MB at (s, t) = {peak[1]}")


if __name__ == "__main__":
    main()
