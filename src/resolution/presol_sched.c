/*
 * presol_sched.c -- the parallel wavefront of the odd-prime classical
 * engine (the coordinator of sched.c, specialised to the classical
 * dependencies), and the row-block split of a step's matrix build.
 *
 * The coordinator's state (pending-predecessor counts, the ready heap, the
 * done count) is touched only in the pool source's next/done callbacks,
 * which the pool calls under its lock.  Steps publish their results
 * write-once (pfmod/pfhom), and a step's successors are released only after
 * it returned, so every read of a predecessor's result happens after the
 * write (the pool mutex orders them).  Within a step nothing depends on the
 * thread count: every row is built by the same code whichever thread runs
 * it, and the reduction is serial.
 */
#include <stdint.h>

#include "presol_internal.h"

/* Row blocks of a matrix build: at least this many rows per chunk (a row
 * costs one product per term of the generator's image, microseconds), and
 * at most 4 chunks per thread so that uneven rows still balance. */
#define BUILD_MIN_ROWS 32

typedef struct {
    const pfhom_t *d;
    fpmat_t *m;
    int32_t t;
    int64_t rows, chunk;
} build_job_t;

static void build_chunk(void *ctx, int64_t i)
{
    build_job_t *J = ctx;
    int64_t lo = i * J->chunk, hi = lo + J->chunk;
    if (hi > J->rows)
        hi = J->rows;
    pfhom_build_rows_part(J->d, J->m, 0, J->t, J->t, lo, hi);
}

void presol_build_rows(presol_t *R, int32_t s, fpmat_t *m, int32_t t)
{
    int64_t rows = m->rows;
    int threads = sq_pool_size(R->pool);
    if (!m->data || !R->pool || threads < 2 || rows < 2 * BUILD_MIN_ROWS) {
        if (m->data)
            pfhom_build_rows(R->d[s], m, 0, t, t);
        return;
    }
    int64_t chunk = rows / (4 * (int64_t)threads);
    if (chunk < BUILD_MIN_ROWS)
        chunk = BUILD_MIN_ROWS;
    build_job_t J = {R->d[s], m, t, rows, chunk};
    sq_pool_parallel_for(R->pool, (rows + chunk - 1) / chunk, build_chunk, &J);
}

typedef struct {
    presol_t *R;
    int32_t ns, nt;          /* table: s in [0, ns), t - t_min in [0, nt) */
    int32_t *pending;        /* predecessors not yet done, per slot; -1: not a step */
    int64_t *heap;           /* ready slots, min-heap on (t, s) */
    int64_t nheap;
    int64_t done, total;
    const presol_observer_t *obs;
} sched_t;

static inline int64_t key(const sched_t *S, int32_t s, int32_t t)
{
    return (int64_t)(t - S->R->t_min) * S->ns + s;
}

/* The predecessors of (s, t) that are steps: (s, t - 1) and (s - 1, t). */
static int preds(const presol_t *R, int32_t s, int32_t t)
{
    return presol_is_step(R, s, t - 1) + presol_is_step(R, s - 1, t);
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
    if (!S->nheap)
        return 0;
    *job = (void *)(intptr_t)(heap_pop(S) + 1);
    return 1;
}

static void src_run(void *ctx, void *job, int thread)
{
    sched_t *S = ctx;
    int64_t k = (intptr_t)job - 1;
    (void)thread;
    presol_step(S->R, (int32_t)(k % S->ns), (int32_t)(k / S->ns) + S->R->t_min);
}

/* Releases the successors (s, t + 1) and (s + 1, t) of a finished step. */
static void src_done(void *ctx, void *job)
{
    sched_t *S = ctx;
    presol_t *R = S->R;
    int64_t k = (intptr_t)job - 1;
    int32_t s = (int32_t)(k % S->ns), t = (int32_t)(k / S->ns) + R->t_min;
    int32_t succ[2][2] = {{s, t + 1}, {s + 1, t}};
    for (int i = 0; i < 2; i++) {
        int32_t ss = succ[i][0], st = succ[i][1];
        if (!presol_is_step(R, ss, st))
            continue;
        if (--S->pending[key(S, ss, st)] == 0)
            heap_push(S, key(S, ss, st));
    }
    S->done++;
    if (S->obs && S->obs->step_done)
        S->obs->step_done(S->obs->ctx, S->done, S->total, s, t);
}

void presol_run_pool(presol_t *R, sq_pool_t *pool, const presol_observer_t *obs)
{
    if (!pool && !obs) {
        presol_run(R);
        return;
    }
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
            if (!presol_is_step(R, s, t)) {
                S.pending[k] = -1;
                continue;
            }
            S.pending[k] = preds(R, s, t);
            S.total++;
            if (S.pending[k] == 0)
                heap_push(&S, k);
        }
    sq_pool_source_t src = {src_next, src_run, src_done, &S};
    sq_pool_t *own = pool ? NULL : sq_pool_new(1);
    R->pool = pool;
    sq_pool_run(pool ? pool : own, &src);
    R->pool = NULL;
    sq_pool_free(own);
    SQ_CHECK(S.done == S.total, "presol scheduler: %lld of %lld steps ran", (long long)S.done,
             (long long)S.total);
    sq_free(S.pending);
    sq_free(S.heap);
}
