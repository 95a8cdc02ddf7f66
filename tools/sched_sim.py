#!/usr/bin/env python3
"""Simulates the wavefront scheduler on a step trace (ADAMS_LOG=step).

Reads 'event=step s=.. t=.. ms=..' lines, rebuilds the dependency graph of the
engine (Nassau: (s,t-1), (s-1,t-1), and (0,t) for row 1; classical:
(s,t-1), (s-1,t)), and list-schedules it on P workers with the scheduler's
priority (lowest t, then s).  Prints, per P, the makespan, the speedup, the
average busy workers, and the critical path (the longest chain of step times).
With --width FILE it also writes 'time ready running' samples for P workers.

Usage: sched_sim.py TRACE [--engine nassau|classical] [--workers 1,2,16,128,1000]
                          [--width FILE --width-workers P]
"""
import argparse
import heapq
import re
import sys


def load(path):
    steps = {}
    pat = re.compile(r"event=step s=(\d+) t=(\d+) .*ms=([\d.]+)")
    with open(path) as f:
        for line in f:
            m = pat.search(line)
            if m:
                steps[(int(m.group(1)), int(m.group(2)))] = float(m.group(3))
    return steps


def preds(s, t, engine, steps):
    cand = [(s, t - 1)]
    if engine == "classical" or s == 1:
        cand.append((s - 1, t))
    elif s >= 2:
        cand.append((s - 1, t - 1))
    return [p for p in cand if p in steps]


def simulate(steps, engine, workers, width_out=None):
    succ = {k: [] for k in steps}
    pending = {}
    for k in steps:
        ps = preds(k[0], k[1], engine, steps)
        pending[k] = len(ps)
        for p in ps:
            succ[p].append(k)
    ready = [(k[1], k[0]) for k in steps if pending[k] == 0]
    heapq.heapify(ready)
    running = []  # (finish, key)
    now = 0.0
    busy = 0.0
    free = workers
    samples = []
    while ready or running:
        while ready and free > 0:
            t, s = heapq.heappop(ready)
            heapq.heappush(running, (now + steps[(s, t)], (s, t)))
            busy += steps[(s, t)]
            free -= 1
        if width_out is not None:
            samples.append((now, len(ready), len(running)))
        fin, k = heapq.heappop(running)
        now = fin
        free += 1
        for q in succ[k]:
            pending[q] -= 1
            if pending[q] == 0:
                heapq.heappush(ready, (q[1], q[0]))
    return now, busy, samples


def critical_path(steps, engine):
    best = {}
    for k in sorted(steps, key=lambda k: (k[1], k[0])):
        ps = preds(k[0], k[1], engine, steps)
        best[k] = steps[k] + max((best[p] for p in ps), default=0.0)
    return max(best.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--engine", default="nassau")
    ap.add_argument("--workers", default="1,2,4,16,128,1000")
    ap.add_argument("--width")
    ap.add_argument("--width-workers", type=int, default=16)
    a = ap.parse_args()
    steps = load(a.trace)
    if not steps:
        sys.exit("no step events in " + a.trace)
    total = sum(steps.values())
    cp = critical_path(steps, a.engine)
    print(f"steps {len(steps)}  total {total/1e3:.2f} s  critical path {cp/1e3:.2f} s  "
          f"max speedup {total/cp:.1f}")
    print("workers\tmakespan_s\tspeedup\tavg_busy")
    for p in [int(x) for x in a.workers.split(",")]:
        span, busy, _ = simulate(steps, a.engine, p)
        print(f"{p}\t{span/1e3:.2f}\t{total/span:.2f}\t{busy/span:.2f}")
    if a.width:
        _, _, samples = simulate(steps, a.engine, a.width_workers, width_out=True)
        with open(a.width, "w") as f:
            f.write("time_ms\tready\trunning\n")
            for s in samples:
                f.write(f"{s[0]:.1f}\t{s[1]}\t{s[2]}\n")


if __name__ == "__main__":
    main()
