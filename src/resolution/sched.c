/*
 * sched.c -- the parallel wavefront: a coordinator that releases bidegrees
 * when their predecessors are done, run on an sq_pool.
 *
 * The coordinator's state (pending-predecessor counts, the ready heap, the
 * done count) is touched only in the pool source's next/done callbacks,
 * which the pool calls under its lock: one owner at a time, no locks of our
 * own.  Steps publish their results write-once (fmod/fhom), and a step's
 * successors are released only after it returned, so every read of a
 * predecessor's result happens after the write (the pool mutex orders
 * them).
 *
 * Resuming: steps published before the run (loaded from a store) are
 * marked done in the table from the start and never run; their successors
 * wait only for the predecessors that still have to run.  A stop request
 * (resol_request_stop) makes the source hand out no more jobs; the pool
 * returns when the running ones are done.
 */
#include <stdint.h>

#include "internal.h"
#include "sq_core.h"

typedef struct {
    resol_t *R;
    int32_t ns, nt;          /* table: s in [0, ns), t - t_min in [0, nt) */
    int32_t *pending;        /* predecessors not yet done, per slot; -1: not a step */
    int64_t *heap;           /* ready steps, min-heap on (s, t): prio() */
    int64_t nheap;
    int64_t done, total;
    const resol_observer_t *obs;
} sched_t;

static inline int64_t key(const sched_t *S, int32_t s, int32_t t)
{
    return (int64_t)(t - S->R->t_min) * S->ns + s;
}

/*
 * The order among ready steps: lowest s, then lowest t.  The rows are
 * chains, so this runs the rows as a pipeline, each a little behind the one
 * below, and finishes the low rows first: only the rows in the band hold
 * their caches (Nassau's blocks of the last degrees, a row's kernels),
 * where lowest (t, s) kept every row's cache alive to the end (S_2 through
 * (150, 78), 2 threads: peak RSS 673 MB -> 185 MB, 190.5 s -> 191.1 s;
 * (110, 58): 2.7% slower, bench/compare).  The model of the schedule
 * (tools/sched_sim.py --priority st) agrees: 2% slower on 2 workers, the
 * same on 16.  The output does not
 * depend on the order (every order respects the dependencies).
 */
static inline int64_t prio(const sched_t *S, int64_t k)
{
    return (k % S->ns) * S->nt + k / S->ns;
}

static inline int64_t slot_of(const sched_t *S, int64_t v)
{
    return (v % S->nt) * S->ns + v / S->nt;
}

/* The predecessors of (s, t) that are steps of the run; returns their count. */
static int preds(const resol_t *R, int32_t s, int32_t t, int32_t out[3][2])
{
    int32_t cand[3][2];
    int n = 0, k = 0;
    cand[n][0] = s, cand[n][1] = t - 1, n++;
    if (R->algo == RESOL_CLASSICAL || s == 1) {
        cand[n][0] = s - 1, cand[n][1] = t, n++;
    } else if (s >= 2) {
        cand[n][0] = s - 1, cand[n][1] = t - 1, n++;
    }
    for (int i = 0; i < n; i++) {
        int32_t ps = cand[i][0], pt = cand[i][1];
        if (ps < 0 || pt < R->t_min || pt > R->t_max || !resol_step_kind(R, ps, pt))
            continue;
        out[k][0] = ps, out[k][1] = pt, k++;
    }
    return k;
}

static void heap_push(sched_t *S, int64_t v)
{
    int64_t i = S->nheap++;
    while (i > 0 && S->heap[(i - 1) / 2] > v) {
        S->heap[i] = S->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    S->heap[i] = v;
}

static int64_t heap_pop(sched_t *S)
{
    int64_t top = S->heap[0], v = S->heap[--S->nheap], i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= S->nheap)
            break;
        if (c + 1 < S->nheap && S->heap[c + 1] < S->heap[c])
            c++;
        if (S->heap[c] >= v)
            break;
        S->heap[i] = S->heap[c];
        i = c;
    }
    if (S->nheap)
        S->heap[i] = v;
    return top;
}

static int src_next(void *ctx, void **job)
{
    sched_t *S = ctx;
    if (!S->nheap || resol_stop_requested(S->R))
        return 0;
    *job = (void *)(intptr_t)(slot_of(S, heap_pop(S)) + 1);
    return 1;
}

static void src_run(void *ctx, void *job, int thread)
{
    sched_t *S = ctx;
    int64_t k = (intptr_t)job - 1;
    (void)thread;
    resol_run_step(S->R, (int32_t)(k % S->ns), (int32_t)(k / S->ns) + S->R->t_min);
}

/* Releases the successors of a finished step: each step has at most the
 * successors (s, t + 1), (s + 1, t), (s + 1, t + 1); we test which of them
 * list (s, t) as a predecessor. */
static void src_done(void *ctx, void *job)
{
    sched_t *S = ctx;
    resol_t *R = S->R;
    int64_t k = (intptr_t)job - 1;
    int32_t s = (int32_t)(k % S->ns), t = (int32_t)(k / S->ns) + R->t_min;
    int32_t succ[3][2] = {{s, t + 1}, {s + 1, t}, {s + 1, t + 1}};
    for (int i = 0; i < 3; i++) {
        int32_t ss = succ[i][0], st = succ[i][1];
        if (ss >= S->ns || st > R->t_max || !resol_step_kind(R, ss, st) ||
            S->pending[key(S, ss, st)] < 0)
            continue; /* not a step, or done before the run */
        int32_t p[3][2];
        int np = preds(R, ss, st, p);
        for (int j = 0; j < np; j++)
            if (p[j][0] == s && p[j][1] == t && --S->pending[key(S, ss, st)] == 0)
                heap_push(S, prio(S, key(S, ss, st)));
    }
    S->done++;
    if (S->obs && S->obs->step_done)
        S->obs->step_done(S->obs->ctx, S->done, S->total, s, t);
}

int64_t resol_num_steps(resol_t *R, resol_algo_t algo)
{
    resol_prepare(R, algo);
    int64_t total = 0;
    for (int32_t t = R->t_min; t <= R->t_max; t++)
        for (int32_t s = 0; s <= R->max_s; s++)
            total += resol_step_kind(R, s, t) != 0;
    return total;
}

/* Whether every step of the region is done. */
static int region_done(const resol_t *R)
{
    for (int32_t t = R->t_min; t <= R->t_max; t++)
        for (int32_t s = 0; s <= R->max_s; s++)
            if (t - s <= R->max_n && resol_step_kind(R, s, t) && !resol_step_published(R, s, t))
                return 0;
    return 1;
}

int resol_run_pool(resol_t *R, resol_algo_t algo, sq_pool_t *pool, const resol_observer_t *obs)
{
    if (!pool) {
        resol_prepare(R, algo);
        if (!obs) {
            resol_run(R, algo);
            return region_done(R) ? 0 : 1;
        }
    }
    resol_prepare(R, algo);
    sched_t S = {0};
    S.R = R;
    S.obs = obs;
    S.ns = R->max_s + 1;
    S.nt = R->t_max - R->t_min + 1;
    size_t nslots = sq_mul_size((size_t)S.ns, (size_t)S.nt);
    S.pending = sq_malloc(sq_mul_size(nslots, sizeof *S.pending));
    S.heap = sq_malloc(sq_mul_size(nslots + 1, sizeof *S.heap));
    for (int32_t t = R->t_min; t <= R->t_max; t++)
        for (int32_t s = 0; s < S.ns; s++) {
            int64_t k = key(&S, s, t);
            if (!resol_step_kind(R, s, t)) {
                S.pending[k] = -1;
                continue;
            }
            S.total++;
            if (resol_step_preloaded(R, s, t)) {
                S.pending[k] = -1;
                S.done++;
                continue;
            }
            int32_t p[3][2];
            int np = preds(R, s, t, p);
            S.pending[k] = 0;
            for (int j = 0; j < np; j++)
                S.pending[k] += !resol_step_preloaded(R, p[j][0], p[j][1]);
            if (S.pending[k] == 0)
                heap_push(&S, prio(&S, k));
        }
    sq_pool_source_t src = {src_next, src_run, src_done, &S};
    sq_pool_t *own = pool ? NULL : sq_pool_new(1);
    R->pool = pool;
    sq_pool_run(pool ? pool : own, &src);
    R->pool = NULL;
    sq_pool_free(own);
    int stopped = S.done < S.total && resol_stop_requested(R);
    SQ_CHECK(stopped || S.done == S.total,
             "scheduler: %lld of %lld steps ran (dependency cycle?)", (long long)S.done,
             (long long)S.total);
    sq_free(S.pending);
    sq_free(S.heap);
    return stopped;
}
