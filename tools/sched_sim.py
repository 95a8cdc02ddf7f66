#!/usr/bin/env python3
"""Simulates the pool on a trace: bidegree steps and the chunks of their sections.

Reads 'event=step s=.. t=.. ms=..' lines (ADAMS_LOG=step) and, if present,
'event=chunk s=.. t=.. section=.. chunk=.. chunks=.. at=.. ms=..' lines
(ADAMS_LOG=chunk, one per chunk of a parallel section).  It rebuilds the
dependency graph of the engine (Nassau, relaxed: (s,t-1), (s-1,t-1), and (0,t)
for row 1; classical, strict: (s,t-1), (s-1,t)) and simulates P workers the way
sq_pool does:

  * a step is a sequence of phases: serial parts (run by the step's worker) and
    sections (its chunks, with their measured times).  The serial part is the
    step's time less the wall time its sections spanned; the measured gaps
    between sections stay between them, the rest comes first;
  * an idle worker takes a chunk of an open section first (the newest section
    first, as the pool's open list), else the ready step with the lowest s,
    then t (the scheduler's priority; --priority chooses others);
  * a step's worker runs chunks of its own section only, then waits for the
    section's last chunk before going on.

Without chunk events every step is one serial phase (the bidegree-only model).

The code splits a section by the pool size (2P or 4P chunks), so a trace
recorded on few threads has coarse sections.  --resplit R (R: the threads of
the recorded run) also models each section re-split for P workers: n P / R
equal chunks of the section's total time (perfect balance, no overhead: an
upper estimate of what sections give).
Prints, per P, the makespan, the speedup over P = 1, the average busy
workers; and the work, the critical path (serial parts plus the longest chunk
of each section, along the longest chain) and the bound total / critical path.
With --width FILE it also writes 'time ready running' samples for P workers.

--cpu takes durations from the threads' CPU times instead (cpu_ms of step and
chunk events): for a trace recorded with more threads than cores, e.g. 16 on
this 2-core machine, whose sections are split 16 ways as on 16 cores but whose
wall times are stretched by time-slicing.

Usage: sched_sim.py TRACE [--engine nassau|classical] [--workers 1,2,16,64,128]
                          [--measured SECONDS] [--cpu] [--width FILE --width-workers P]
"""
import argparse
import heapq
import re
import sys
from collections import defaultdict

STEP = re.compile(r"event=step s=(\d+) t=(\d+) .* ms=([\d.]+) thread=(\d+)(?: cpu_ms=([\d.]+))?")
CHUNK = re.compile(r"event=chunk s=(-?\d+) t=(-?\d+) section=(\d+) chunk=(\d+) chunks=(\d+) "
                   r"at=([\d.]+) ms=([\d.]+)(?: thread=(\d+))?(?: cpu_ms=([\d.]+))?")


def load(path, cpu=False):
    """Returns ({(s, t): ms}, {section id: ((s, t), [(chunk, at, ms)])}).

    With cpu, durations are the threads' CPU times (cpu_ms): a trace recorded
    with more threads than cores (so that sections are split as they would be
    on a larger machine) has its wall times stretched by time-slicing, its CPU
    times not.  A step's CPU time includes the chunks its own thread ran; they
    are taken out, so that the step's serial part is what remains; the wall
    positions of its sections (their order and the gaps between them) are
    kept, the gaps scaled to the serial CPU time."""
    steps, secs, own = {}, {}, defaultdict(float)
    step_thread = {}
    with open(path) as f:
        for line in f:
            m = STEP.search(line)
            if m:
                key = (int(m.group(1)), int(m.group(2)))
                if cpu and m.group(5) is None:
                    sys.exit("--cpu: step events without cpu_ms in " + path)
                steps[key] = float(m.group(5) if cpu else m.group(3))
                step_thread[key] = (int(m.group(4)), float(m.group(3)))
                continue
            m = CHUNK.search(line)
            if m:
                sid = int(m.group(3))
                key = (int(m.group(1)), int(m.group(2)))
                if cpu and m.group(9) is None:
                    sys.exit("--cpu: chunk events without cpu_ms in " + path)
                ms = float(m.group(9) if cpu else m.group(7))
                secs.setdefault(sid, (key, []))[1].append((int(m.group(4)), float(m.group(6)), ms,
                                                           int(m.group(8) or -1),
                                                           float(m.group(7))))
    if cpu:
        # CPU of chunks run on the step's own thread is inside the step's CPU time.
        for sid, (key, chunks) in secs.items():
            if key in step_thread:
                own[key] += sum(c[2] for c in chunks if c[3] == step_thread[key][0])
        for key in steps:
            steps[key] = max(0.0, steps[key] - own[key])
    return steps, secs, ({k: v[1] for k, v in step_thread.items()} if cpu else None)


def build_phases(steps, secs, walls=None):
    """{(s, t): [('serial', ms) | ('section', [chunk ms])]}, and the chunk
    time outside any traced step (not modelled).  With walls (the steps' wall
    ms; --cpu), steps[k] is already the serial CPU time: it is split into the
    same phases, the wall gaps between sections scaled to it."""
    by_step = defaultdict(list)
    outside = 0.0
    for sid, (key, chunks) in secs.items():
        if key not in steps:
            outside += sum(c[2] for c in chunks)
            continue
        start = min(c[1] for c in chunks)
        end = max(c[1] + c[4] for c in chunks)  # wall
        by_step[key].append((start, end, sid, [c[2] for c in sorted(chunks)]))
    phases = {}
    for k, ms in steps.items():
        lst = sorted(by_step.get(k, []))
        if not lst:
            phases[k] = [("serial", ms)]
            continue
        gaps, prev = [], None
        for start, end, _, _ in lst:
            gaps.append(0.0 if prev is None else max(0.0, start - prev))
            prev = max(end, prev or end)
        if walls is not None:
            # ms is the serial CPU time: gaps in proportion to their wall times.
            wall_serial = max(1e-9, walls[k] - sum(e - s for s, e, _, _ in lst))
            f = min(1.0, ms / wall_serial) if sum(gaps) > 0 else 0.0
            gaps = [g * f for g in gaps]
            ph = [("serial", max(0.0, ms - sum(gaps)))]
            for gap, (_, _, _, chunks) in zip(gaps, lst):
                if gap > 0:
                    ph.append(("serial", gap))
                ph.append(("section", chunks))
            phases[k] = ph
            continue
        spanned = sum(e - s for s, e, _, _ in lst) + sum(gaps)
        ph = [("serial", max(0.0, ms - spanned))]
        for gap, (_, _, _, chunks) in zip(gaps, lst):
            if gap > 0:
                ph.append(("serial", gap))
            ph.append(("section", chunks))
        phases[k] = ph
    return phases, outside


def work(ph):
    return sum(v if k == "serial" else sum(v) for k, v in ph)


def span(ph):
    return sum(v if k == "serial" else max(v) for k, v in ph)


def preds(s, t, engine, steps):
    cand = [(s, t - 1)]
    if engine == "classical" or s == 1:
        cand.append((s - 1, t))
    elif s >= 2:
        cand.append((s - 1, t - 1))
    return [p for p in cand if p in steps]


class Section:
    __slots__ = ("chunks", "claimed", "finished", "owner", "key")

    def __init__(self, chunks, owner, key):
        self.chunks, self.claimed, self.finished = chunks, 0, 0
        self.owner, self.key = owner, key


def resplit(phases, factor):
    """Each section of n chunks becomes max(n, round(n * factor)) equal chunks."""
    out = {}
    for k, ph in phases.items():
        new = []
        for kind, v in ph:
            if kind == "section":
                n = max(len(v), round(len(v) * factor))
                new.append((kind, [sum(v) / n] * n))
            else:
                new.append((kind, v))
        out[k] = new
    return out


def bottom_levels(phases, engine):
    """Longest path (span) from each step to the end of the graph, itself included."""
    succ = {k: [] for k in phases}
    for k in phases:
        for p in preds(k[0], k[1], engine, phases):
            succ[p].append(k)
    level = {}
    for k in sorted(phases, key=lambda k: (-k[1], -k[0])):  # successors have larger t
        level[k] = span(phases[k]) + max((level[q] for q in succ[k]), default=0.0)
    return level


def simulate(phases, engine, workers, width_out=None, priority="st"):
    succ = {k: [] for k in phases}
    pending = {}
    for k in phases:
        ps = preds(k[0], k[1], engine, phases)
        pending[k] = len(ps)
        for p in ps:
            succ[p].append(k)
    if priority == "st":
        prio = lambda k: (k[0], k[1])
    elif priority == "cp":
        lv = bottom_levels(phases, engine)
        prio = lambda k: (-lv[k], k[1], k[0])
    else:
        prio = lambda k: (k[1], k[0])
    ready = [(prio(k), k) for k in phases if pending[k] == 0]
    heapq.heapify(ready)
    phase = {}            # step -> index of its current phase
    state = [None] * workers  # None idle; ('serial', key); ('chunk', sec); ('wait', sec)
    idle = list(range(workers - 1, -1, -1))
    opened = []           # open sections with unclaimed chunks, newest last
    events = []           # (time, seq, worker)
    seq = 0
    now = busy = 0.0
    running = 0           # steps started and not finished
    samples = []

    def push(w, dt):
        nonlocal seq, busy
        heapq.heappush(events, (now + dt, seq, w))
        seq += 1
        busy += dt

    def claim(w, sec):
        i = sec.claimed
        sec.claimed += 1
        if sec.claimed == len(sec.chunks):
            opened.remove(sec)
        state[w] = ("chunk", sec)
        push(w, sec.chunks[i])

    def advance(w, key):
        """Worker w runs step key from its current phase on."""
        nonlocal running
        while True:
            i = phase[key]
            if i == len(phases[key]):
                running -= 1
                for q in succ[key]:
                    pending[q] -= 1
                    if pending[q] == 0:
                        heapq.heappush(ready, (prio(q), q))
                state[w] = None
                idle.append(w)
                return
            kind, v = phases[key][i]
            if kind == "serial":
                if v <= 0:
                    phase[key] = i + 1
                    continue
                state[w] = ("serial", key)
                push(w, v)
                return
            sec = Section(v, w, key)
            opened.append(sec)
            claim(w, sec)
            return

    def dispatch():
        nonlocal running
        while idle and (opened or ready):
            w = idle.pop()
            if opened:
                claim(w, opened[-1])
            else:
                _, (s, t) = heapq.heappop(ready)
                phase[(s, t)] = 0
                running += 1
                advance(w, (s, t))

    dispatch()
    while events:
        if width_out is not None:
            samples.append((now, len(ready), running))
        now, _, w = heapq.heappop(events)
        st = state[w]
        if st[0] == "serial":
            phase[st[1]] += 1
            advance(w, st[1])
        else:
            sec = st[1]
            sec.finished += 1
            if w != sec.owner:
                state[w] = None
                idle.append(w)
            elif sec.claimed < len(sec.chunks):
                claim(w, sec)
            else:
                state[w] = ("wait", sec)
            if sec.finished == len(sec.chunks):
                phase[sec.key] += 1
                advance(sec.owner, sec.key)
        dispatch()
    return now, busy, samples


def critical_path(phases, engine):
    best = {}
    for k in sorted(phases, key=lambda k: (k[1], k[0])):
        ps = preds(k[0], k[1], engine, phases)
        best[k] = span(phases[k]) + max((best[p] for p in ps), default=0.0)
    return max(best.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--engine", default="nassau")
    ap.add_argument("--workers", default="1,2,16,64,128")
    ap.add_argument("--measured", type=float,
                    help="measured wall seconds of the traced run, compared with the model "
                         "at --measured-workers")
    ap.add_argument("--measured-workers", type=int, default=2)
    ap.add_argument("--no-chunks", action="store_true", help="ignore chunk events")
    ap.add_argument("--resplit", type=int, metavar="R",
                    help="also model sections re-split for P workers (R: recorded threads)")
    ap.add_argument("--cpu", action="store_true",
                    help="durations from the threads' CPU times (cpu_ms), for a trace recorded "
                         "with more threads than cores")
    ap.add_argument("--priority", choices=["st", "ts", "cp"], default="st",
                    help="ready steps by lowest (s, t), the scheduler's rule since issue 14 (st); "
                         "by lowest (t, s), the rule before (ts); or by the longest modelled "
                         "path to the end first (cp: list scheduling with known durations)")
    ap.add_argument("--width")
    ap.add_argument("--width-workers", type=int, default=16)
    a = ap.parse_args()
    steps, secs, walls = load(a.trace, a.cpu)
    if not steps:
        sys.exit("no step events in " + a.trace)
    if a.no_chunks:
        secs = {}
    phases, outside = build_phases(steps, secs, walls)
    total = sum(work(ph) for ph in phases.values())
    nchunks = sum(len(v) for ph in phases.values() for k, v in ph if k == "section")
    chunk_ms = sum(sum(v) for ph in phases.values() for k, v in ph if k == "section")
    cp = critical_path(phases, a.engine)
    print(f"steps {len(steps)}  sections {len(secs)}  chunks {nchunks} ({chunk_ms/1e3:.2f} s, "
          f"{100*chunk_ms/total:.0f}% of the work)  chunk time outside steps {outside/1e3:.2f} s")
    print(f"work {total/1e3:.2f} s  critical path {cp/1e3:.2f} s  bound {total/cp:.1f}x")
    print("workers\tmakespan_s\tspeedup\tavg_busy" +
          ("\tresplit_s\tresplit_speedup\tresplit_cp_s" if a.resplit else ""))
    spans = {}
    t1 = None
    for p in sorted({int(x) for x in a.workers.split(",")} | {1}):
        sp, busy, _ = simulate(phases, a.engine, p, priority=a.priority)
        spans[p] = sp
        t1 = t1 or sp
        if str(p) in a.workers.split(","):
            line = f"{p}\t{sp/1e3:.2f}\t{t1/sp:.2f}\t{busy/sp:.2f}"
            if a.resplit:
                rp = resplit(phases, p / a.resplit)
                rsp = simulate(rp, a.engine, p, priority=a.priority)[0]
                line += f"\t{rsp/1e3:.2f}\t{t1/rsp:.2f}\t{critical_path(rp, a.engine)/1e3:.2f}"
            print(line)
    if a.measured:
        p = a.measured_workers
        sp = spans.get(p) or simulate(phases, a.engine, p)[0]
        print(f"model at {p} workers {sp/1e3:.2f} s, measured {a.measured:.2f} s: "
              f"{100*(sp/1e3 - a.measured)/a.measured:+.1f}%")
    if a.width:
        _, _, samples = simulate(phases, a.engine, a.width_workers, width_out=True)
        with open(a.width, "w") as f:
            f.write("time_ms\tready\trunning\n")
            for s in samples:
                f.write(f"{s[0]:.1f}\t{s[1]}\t{s[2]}\n")


if __name__ == "__main__":
    main()
