#!/usr/bin/env python3
"""The speedup of `adams resolve --mpi` on M machines of C cores (docs/parallelism.md,
"Across machines: MPI"), from a trace of the threaded run.

Input: ADAMS_LOG=step,chunk of a threaded run (--cpu: durations are CPU
times, see sched_sim.py) and, for the payloads, ADAMS_LOG=step of an --mpi run
of the same or a smaller region (rank 0's event=mpi_step lines carry each
step's message bytes).  Every step is split into its serial part S and the
work of its parallel sections P (sched_sim.build_phases).

Extrapolation (--stem N --max-s S beyond the trace): per row s, least squares
of log S, log P and log bytes against the stem n over the row's steps with
n >= --nmin; rows above the traced ones use the top traced row's fit; a traced
step without bytes (the --mpi trace covers a smaller region) takes the fit.  (The
same method as model_steps.py; docs/parallelism.md says what it ignores.)

The model of --mpi as built: rank 0 hands a ready step (lowest (s, t) first)
to an idle machine; the machine runs one step at a time, its sections on C
threads: T = S + P / C (sections re-split for C threads: an upper estimate of
the machine's speed).  The step message crosses the network (latency), the
result comes back (latency + bytes / bandwidth); rank 0 then forwards the
payload to the other M - 1 machines through its one link, in order (a FIFO:
a later step message to a machine waits behind the loads queued before it).
Reported: the makespan, the speedup against one machine of C cores running
the threaded scheduler (bounded below by max(work / C, critical path)), the
bytes rank 0 sends, and the bound with every step split perfectly over all
M * C cores (max(work / (M C), serial critical path)).

Usage: mpi_model.py TRACE [--cpu] [--bytes MPITRACE] [--stem N --max-s S] [--nmin K]
                   [--nmin-bytes K]
                   [--machines 1,4,16,64] [--cores 16] [--net NAME:GBps:us,...]
"""
import argparse
import heapq
import math
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_sim  # noqa: E402

MPISTEP = re.compile(r"event=mpi_step s=(\d+) t=(\d+) from=\d+ bytes=(\d+)")


def split_steps(trace, cpu):
    steps, secs, walls = sched_sim.load(trace, cpu)
    phases, _ = sched_sim.build_phases(steps, secs, walls)
    out = {}
    for k, ph in phases.items():
        ser = sum(v for kind, v in ph if kind == "serial")
        par = sum(sum(v) for kind, v in ph if kind == "section")
        out[k] = (ser, par)
    return out


def fit(points):
    """Least squares y = a + b n; None with fewer than 5 points."""
    if len(points) < 5:
        return None
    k = len(points)
    sn = sum(n for n, _ in points)
    sy = sum(y for _, y in points)
    snn = sum(n * n for n, _ in points)
    sny = sum(n * y for n, y in points)
    det = k * snn - sn * sn
    if det == 0:
        return None
    b = (k * sny - sn * sy) / det
    return ((sy - b * sn) / k, b)


def row_fits(meas, nmin, idx):
    """{row: (a, b)} for log(value idx) against n (values None: unknown)."""
    rows = defaultdict(list)
    for (s, t), v in meas.items():
        if t - s >= nmin and v[idx] is not None and v[idx] > 0:
            rows[s].append((t - s, math.log(v[idx])))
    return {s: f for s, p in rows.items() if (f := fit(p))}


def extrapolate(meas, N, S, nmin, nmin_bytes):
    """{(s, t): (serial, par, bytes)} over 0 <= s <= S, 0 <= n <= N (Nassau's
    region of S_2): measured values where present, the row fits elsewhere."""
    fits = [row_fits(meas, nmin, 0), row_fits(meas, nmin, 1), row_fits(meas, nmin_bytes, 2)]
    out = {}
    for s in range(S + 1):
        for n in range(N + 1):
            t = s + n
            known = meas.get((s, t), (None, None, None))
            v = []
            for i in range(3):
                if known[i] is not None:
                    v.append(known[i])
                    continue
                f = fits[i]
                if not f:
                    v.append(0.0)
                    continue
                row = s if s in f else max(r for r in f if r <= s) if any(r <= s for r in f) \
                    else min(f)
                a, b = f[row]
                v.append(math.exp(a + b * n))
            out[(s, t)] = tuple(v)
    return out


def simulate(steps, M, C, lat_ms, bw_bytes_ms, div):
    """Makespan (ms) of --mpi on M machines of C threads, and rank 0's bytes
    sent.  A machine runs up to C steps at once (its pool); a step takes
    S + P / div on its thread (div 1: its sections get no other thread,
    div C: they get the whole machine).  M = 1 is the threaded run: no
    network."""
    pend, succ = {}, defaultdict(list)
    for k in steps:
        p = sched_sim.preds(k[0], k[1], "nassau", steps)
        pend[k] = len(p)
        for q in p:
            succ[q].append(k)
    ready = [k for k in steps if pend[k] == 0]
    heapq.heapify(ready)
    free = [C] * M
    events = []  # (time, seq, machine, step)
    now, seq, link, sent = 0.0, 0, 0.0, 0.0
    net = M > 1
    while ready or events:
        while ready:
            m = max(range(M), key=lambda i: free[i])
            if free[m] == 0:
                break
            k = heapq.heappop(ready)
            free[m] -= 1
            ser, par, byt = steps[k]
            start = max(now, link) + lat_ms if net else now
            done = start + ser + par / div + (lat_ms + byt / bw_bytes_ms if net else 0.0)
            seq += 1
            heapq.heappush(events, (done, seq, m, k))
        if not events:
            break
        now, _, m, k = heapq.heappop(events)
        free[m] += 1
        byt = steps[k][2]
        if net:
            link = max(link, now) + (M - 1) * byt / bw_bytes_ms
            sent += (M - 1) * byt
        for q in succ[k]:
            pend[q] -= 1
            if pend[q] == 0:
                heapq.heappush(ready, q)
    return now, sent


def critical(steps, weight):
    memo = {}
    for k in sorted(steps, key=lambda x: (x[1], x[0])):
        p = sched_sim.preds(k[0], k[1], "nassau", steps)
        memo[k] = weight(steps[k]) + max((memo[q] for q in p), default=0.0)
    return max(memo.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("--bytes", help="an --mpi run's trace (event=mpi_step ... bytes=)")
    ap.add_argument("--stem", type=int)
    ap.add_argument("--max-s", type=int)
    ap.add_argument("--nmin", type=int, default=60)
    ap.add_argument("--nmin-bytes", type=int, default=60,
                    help="the fits of the bytes (the --mpi trace may cover fewer stems)")
    ap.add_argument("--machines", default="1,4,16,64")
    ap.add_argument("--cores", type=int, default=16)
    ap.add_argument("--net", default="loopback:2.0:1,10GbE:1.1:30,IB-HDR:11:3",
                    help="NAME:GB/s:latency us, comma-separated")
    a = ap.parse_args()
    sp = split_steps(a.trace, a.cpu)
    byt = {}
    if a.bytes:
        for line in open(a.bytes):
            m = MPISTEP.search(line)
            if m:
                byt[(int(m.group(1)), int(m.group(2)))] = float(m.group(3))
    meas = {k: (v[0], v[1], byt.get(k)) for k, v in sp.items()}
    if a.stem:  # the region of the trace is in it: unknown bytes come from the fits too
        steps = extrapolate(meas, a.stem, a.max_s, a.nmin, a.nmin_bytes)
    else:
        steps = {k: (v[0], v[1], 64.0 if v[2] is None else v[2]) for k, v in meas.items()}
    C = a.cores
    work = sum(v[0] + v[1] for v in steps.values())
    tbytes = sum(v[2] for v in steps.values())
    cp_inf = critical(steps, lambda v: v[0])
    print("steps %d; work %.0f s (%.0f%% in sections); payload %.1f MB (%.0f bytes a step, "
          "largest %.0f); critical path of the serial parts %.1f s"
          % (len(steps), work / 1e3,
             100 * sum(v[1] for v in steps.values()) / max(work, 1e-9),
             tbytes / 1e6, tbytes / len(steps), max(v[2] for v in steps.values()), cp_inf / 1e3))
    base = {}
    for div, name in ((1, "sections unsplit"), (C, "sections on the machine")):
        t1, _ = simulate(steps, 1, C, 0, 1, div)
        base[div] = max(t1, work / C)
        print("one machine, %d threads, %s: %.0f s" % (C, name, base[div] / 1e3))
    for net in a.net.split(","):
        name, gbps, us = net.split(":")
        bw = float(gbps) * 1e6  # bytes per ms
        lat = float(us) / 1e3
        for M in [int(x) for x in a.machines.split(",")]:
            if M == 1:
                continue
            lo, sent = simulate(steps, M, C, lat, bw, 1)
            hi, _ = simulate(steps, M, C, lat, bw, C)
            hi = max(hi, work / (M * C))
            ideal = max(work / (M * C), cp_inf)
            print("  %-8s M=%3d: %7.0f-%7.0f s, speedup %5.2f-%5.2fx; rank 0 sends %6.1f MB "
                  "(%.2f s of its link); bound %.0f s (%.1fx)"
                  % (name, M, hi / 1e3, lo / 1e3, base[1] / lo, base[C] / hi, sent / 1e6,
                     sent / bw / 1e3, ideal / 1e3, base[C] / ideal))


if __name__ == "__main__":
    main()
