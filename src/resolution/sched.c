/*
 * sched.c -- the one scheduler of every engine (wave.h): a coordinator that
 * releases bidegrees when their predecessors are done, run on an sq_pool,
 * and the serial driver; and the one resolution's description of its run
 * (resol_run, resol_run_pool), at every prime.
 *
 * The coordinator's state (pending-predecessor counts, the ready heap, the
 * done count) is touched only in the pool source's next/done callbacks,
 * which the pool calls under its lock: one owner at a time, no locks of our
 * own.  Steps publish their results write-once (fmod/fhom at every prime),
 * and a step's successors are released only after it returned, so every
 * read of a predecessor's result happens after the write (the pool mutex
 * orders them).
 *
 * Resuming: steps done before the run (loaded from a store) are marked done
 * in the table from the start and never run; their successors wait only for
 * the predecessors that still have to run.  A stop request makes the source
 * hand out no more jobs; the pool returns when the running ones are done.
 */
#include <stdint.h>

#include "internal.h"
#include "sq_core.h"
#include "wave.h"

typedef struct {
    const wave_t *W;
    int32_t ns, nt;          /* table: s in [0, ns), t - t_min in [0, nt) */
    int32_t *pending;        /* predecessors not yet done, per slot; -1: not to run */
    int64_t *heap;           /* ready steps, min-heap on wave_priority */
    int64_t nheap;
    int64_t done, total;
} sched_t;

static inline int64_t key(const sched_t *S, int32_t s, int32_t t)
{
    return (int64_t)(t - S->W->t_min) * S->ns + s;
}

/*
 * The order among ready steps is the engine's (wave.h).  Nassau's steps:
 * lowest s, then lowest t.  The rows are chains, so this runs the rows as a
 * pipeline, each a little behind the one below, and finishes the low rows
 * first: only the rows in the band hold Nassau's blocks of the last
 * degrees, where lowest (t, s) kept every row's cache alive to the end
 * (S_2 through (150, 78), 2 threads: peak RSS 673 MB -> 185 MB, 190.5 s ->
 * 191.1 s; (110, 58): 2.7% slower, bench/compare; tools/sched_sim.py
 * --priority st: 2% slower on 2 workers, the same on 16).  Classical steps
 * (both primes): lowest t, then lowest s.  A classical step keeps its
 * kernel for (s + 1, t); by rows, row 0 runs ahead to the end and a whole
 * row of kernels waits, by degrees each is consumed soon: S_3 (200, 50)
 * 110 MB -> 51 MB, S_2 classical (90, 48) 87 MB -> 52 MB, times within 3%
 * (docs/benchmarks.md, "One scheduler").  The output does not depend on
 * the order (every order respects the dependencies).
 */
int64_t wave_priority(const wave_t *W, int32_t s, int32_t t)
{
    if (W->order == WAVE_ORDER_DEGREES)
        return (int64_t)(t - W->t_min) * (W->max_s + 1) + s;
    return (int64_t)s * (W->t_max - W->t_min + 1) + (t - W->t_min);
}

/* The slot key(s, t) of the priority v = wave_priority(s, t). */
static inline int64_t slot_of(const sched_t *S, int64_t v)
{
    if (S->W->order == WAVE_ORDER_DEGREES)
        return v; /* key(s, t) itself */
    return (v % S->nt) * S->ns + v / S->nt;
}

static int stop_requested(const wave_t *W)
{
    return W->stop && atomic_load_explicit(W->stop, memory_order_relaxed);
}

static int to_run(const wave_t *W, int32_t s, int32_t t)
{
    return W->ops->is_step(W->ctx, s, t) && !(W->ops->preloaded && W->ops->preloaded(W->ctx, s, t));
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
    if (!S->nheap || stop_requested(S->W))
        return 0;
    *job = (void *)(intptr_t)(slot_of(S, heap_pop(S)) + 1);
    return 1;
}

static void src_run(void *ctx, void *job, int thread)
{
    sched_t *S = ctx;
    int64_t k = (intptr_t)job - 1;
    (void)thread;
    S->W->ops->run(S->W->ctx, (int32_t)(k % S->ns), (int32_t)(k / S->ns) + S->W->t_min);
}

/* Releases the successors of a finished step: each step has at most the
 * successors (s, t + 1), (s + 1, t), (s + 1, t + 1); we test which of them
 * list (s, t) as a predecessor. */
static void src_done(void *ctx, void *job)
{
    sched_t *S = ctx;
    const wave_t *W = S->W;
    int64_t k = (intptr_t)job - 1;
    int32_t s = (int32_t)(k % S->ns), t = (int32_t)(k / S->ns) + W->t_min;
    int32_t succ[3][2] = {{s, t + 1}, {s + 1, t}, {s + 1, t + 1}};
    for (int i = 0; i < 3; i++) {
        int32_t ss = succ[i][0], st = succ[i][1];
        if (ss >= S->ns || st > W->t_max || !W->ops->is_step(W->ctx, ss, st) ||
            S->pending[key(S, ss, st)] < 0)
            continue; /* not a step, or done before the run */
        int32_t p[WAVE_MAX_PREDS][2];
        int np = W->ops->preds(W->ctx, ss, st, p);
        for (int j = 0; j < np; j++)
            if (p[j][0] == s && p[j][1] == t && --S->pending[key(S, ss, st)] == 0)
                heap_push(S, wave_priority(W, ss, st));
    }
    S->done++;
    if (W->obs && W->obs->step_done)
        W->obs->step_done(W->obs->ctx, S->done, S->total, s, t);
}

/* The table: every step's count of predecessors still to run, the steps
 * with none on the heap. */
static void sched_init(sched_t *S, const wave_t *W)
{
    *S = (sched_t){0};
    S->W = W;
    S->ns = W->max_s + 1;
    S->nt = W->t_max - W->t_min + 1;
    size_t nslots = sq_mul_size((size_t)S->ns, (size_t)S->nt);
    S->pending = sq_malloc(sq_mul_size(nslots, sizeof *S->pending));
    S->heap = sq_malloc(sq_mul_size(nslots + 1, sizeof *S->heap));
    for (int32_t t = W->t_min; t <= W->t_max; t++)
        for (int32_t s = 0; s < S->ns; s++) {
            int64_t k = key(S, s, t);
            S->pending[k] = -1;
            if (!W->ops->is_step(W->ctx, s, t))
                continue;
            S->total++;
            if (!to_run(W, s, t)) {
                S->done++;
                continue;
            }
            int32_t p[WAVE_MAX_PREDS][2];
            int np = W->ops->preds(W->ctx, s, t, p);
            S->pending[k] = 0;
            for (int j = 0; j < np; j++)
                S->pending[k] += to_run(W, p[j][0], p[j][1]);
            if (S->pending[k] == 0)
                heap_push(S, wave_priority(W, s, t));
        }
}

int wave_run(const wave_t *W, sq_pool_t *pool)
{
    sched_t S;
    sched_init(&S, W);
    sq_pool_source_t src = {src_next, src_run, src_done, &S};
    sq_pool_t *own = pool ? NULL : sq_pool_new(1);
    if (W->pool_slot)
        *W->pool_slot = pool;
    sq_pool_run(pool ? pool : own, &src);
    if (W->pool_slot)
        *W->pool_slot = NULL;
    sq_pool_free(own);
    int stopped = S.done < S.total && stop_requested(W);
    SQ_CHECK(stopped || S.done == S.total,
             "scheduler: %lld of %lld steps ran (dependency cycle?)", (long long)S.done,
             (long long)S.total);
    sq_free(S.pending);
    sq_free(S.heap);
    return stopped;
}

/* ---- The coordinator driven by a caller (a distributed run) ------------- */

struct wave_sched {
    sched_t S;
};

wave_sched_t *wave_sched_new(const wave_t *W)
{
    wave_sched_t *X = sq_malloc(sizeof *X);
    sched_init(&X->S, W);
    return X;
}

int wave_sched_next(wave_sched_t *X, int32_t *s, int32_t *t)
{
    void *job;
    if (!src_next(&X->S, &job))
        return 0;
    int64_t k = (intptr_t)job - 1;
    *s = (int32_t)(k % X->S.ns);
    *t = (int32_t)(k / X->S.ns) + X->S.W->t_min;
    return 1;
}

void wave_sched_done(wave_sched_t *X, int32_t s, int32_t t)
{
    src_done(&X->S, (void *)(intptr_t)(key(&X->S, s, t) + 1));
}

void wave_sched_counts(const wave_sched_t *X, int64_t *done, int64_t *total)
{
    *done = X->S.done;
    *total = X->S.total;
}

void wave_sched_free(wave_sched_t *X)
{
    if (!X)
        return;
    sq_free(X->S.pending);
    sq_free(X->S.heap);
    sq_free(X);
}

void wave_run_serial(const wave_t *W)
{
    for (int32_t t = W->t_min; t <= W->t_max; t++)
        for (int32_t s = 0; s <= W->max_s; s++) {
            if (stop_requested(W))
                return;
            if (to_run(W, s, t))
                W->ops->run(W->ctx, s, t);
        }
}

int64_t wave_num_steps(const wave_t *W)
{
    int64_t total = 0;
    for (int32_t t = W->t_min; t <= W->t_max; t++)
        for (int32_t s = 0; s <= W->max_s; s++)
            total += W->ops->is_step(W->ctx, s, t) != 0;
    return total;
}

/* ---- The p = 2 engine's run ---------------------------------------------- */

static int resol_is_step(const void *ctx, int32_t s, int32_t t)
{
    return resol_step_kind(ctx, s, t) != 0;
}

static int resol_preloaded(const void *ctx, int32_t s, int32_t t)
{
    return resol_step_preloaded(ctx, s, t);
}

/* The predecessors of (s, t) that are steps of the run -- classical:
 * (s, t - 1) and (s - 1, t); Nassau: (s, t - 1) and (s - 1, t - 1), plus
 * (0, t) for row 1 (a classical row). */
static int resol_preds(const void *ctx, int32_t s, int32_t t, int32_t out[WAVE_MAX_PREDS][2])
{
    const resol_t *R = ctx;
    int32_t cand[2][2];
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

static void resol_run_one(void *ctx, int32_t s, int32_t t)
{
    resol_run_step(ctx, s, t);
}

static const wave_ops_t resol_ops = {resol_is_step, resol_preloaded, resol_preds, resol_run_one};

/* The wave of R's run (the engine fixed by resol_prepare). */
static wave_t resol_wave(resol_t *R, const resol_observer_t *obs)
{
    wave_order_t order = R->algo == RESOL_NASSAU ? WAVE_ORDER_ROWS : WAVE_ORDER_DEGREES;
    return (wave_t){&resol_ops, R, R->max_s, R->t_min, R->t_max, &R->stop, &R->pool, obs, order};
}

/*
 * The serial driver: degree by degree, and within a degree s increasing,
 * so that (s, t - 1) and (s - 1, t) are always done before (s, t) (which
 * covers the relaxed dependencies of Nassau's step too).
 */
void resol_run(resol_t *R, resol_algo_t algo)
{
    resol_prepare(R, algo);
    wave_t W = resol_wave(R, NULL);
    wave_run_serial(&W);
}

int64_t resol_num_steps(resol_t *R, resol_algo_t algo)
{
    resol_prepare(R, algo);
    wave_t W = resol_wave(R, NULL);
    return wave_num_steps(&W);
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
    resol_prepare(R, algo);
    if (R->runner) /* a distributed run (resol_set_runner): its coordinator drives the steps */
        return R->runner(R->runner_ctx, R, obs);
    wave_t W = resol_wave(R, obs);
    if (!pool && !obs) {
        wave_run_serial(&W);
        return region_done(R) ? 0 : 1;
    }
    return wave_run(&W, pool);
}

/* ---- Driving the scheduler from outside (resol.h) ------------------------ */

struct resol_sched {
    wave_t W;
    wave_sched_t *X;
};

resol_sched_t *resol_sched_new(resol_t *R, const resol_observer_t *obs)
{
    resol_sched_t *S = sq_malloc(sizeof *S);
    S->W = resol_wave(R, obs);
    S->X = wave_sched_new(&S->W);
    return S;
}

int resol_sched_next(resol_sched_t *S, int32_t *s, int32_t *t)
{
    return wave_sched_next(S->X, s, t);
}

void resol_sched_done(resol_sched_t *S, int32_t s, int32_t t)
{
    wave_sched_done(S->X, s, t);
}

int resol_sched_finished(const resol_sched_t *S)
{
    int64_t done, total;
    wave_sched_counts(S->X, &done, &total);
    return done == total;
}

void resol_sched_free(resol_sched_t *S)
{
    if (!S)
        return;
    wave_sched_free(S->X);
    sq_free(S);
}
