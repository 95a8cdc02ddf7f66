/*
 * presol_sched.c -- the odd-prime engine's description of its run for the
 * one scheduler of sched.c (wave.h): its steps, their predecessors (s, t - 1)
 * and (s - 1, t), and the drivers presol_run and presol_run_pool; and the
 * row-block split of a step's matrix build.
 *
 * Within a step nothing depends on the thread count: every row is built by
 * the same code whichever thread runs it, and the reduction is serial.
 */
#include <stdint.h>

#include "presol_internal.h"
#include "wave.h"

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

static int presol_is_step_cb(const void *ctx, int32_t s, int32_t t)
{
    return presol_is_step(ctx, s, t);
}

/* The predecessors of (s, t) that are steps: (s, t - 1) and (s - 1, t). */
static int presol_preds(const void *ctx, int32_t s, int32_t t, int32_t out[WAVE_MAX_PREDS][2])
{
    int32_t cand[2][2] = {{s, t - 1}, {s - 1, t}};
    int k = 0;
    for (int i = 0; i < 2; i++)
        if (presol_is_step(ctx, cand[i][0], cand[i][1]))
            out[k][0] = cand[i][0], out[k][1] = cand[i][1], k++;
    return k;
}

static void presol_run_one(void *ctx, int32_t s, int32_t t)
{
    presol_step(ctx, s, t);
}

static const wave_ops_t presol_ops = {presol_is_step_cb, NULL, presol_preds, presol_run_one};

/* The wave of R's run: every step runs (nothing is loaded at odd primes),
 * no stop request. */
static wave_t presol_wave(presol_t *R, const presol_observer_t *obs)
{
    return (wave_t){&presol_ops, R, R->max_s, R->t_min, R->t_max, NULL, &R->pool, obs,
                    WAVE_ORDER_DEGREES};
}

/*
 * The serial driver: degree by degree, and within a degree s increasing,
 * so that (s, t - 1) and (s - 1, t) are always done before (s, t).
 */
void presol_run(presol_t *R)
{
    wave_t W = presol_wave(R, NULL);
    wave_run_serial(&W);
}

int64_t presol_num_steps(const presol_t *R)
{
    wave_t W = presol_wave((presol_t *)R, NULL);
    return wave_num_steps(&W);
}

void presol_run_pool(presol_t *R, sq_pool_t *pool, const presol_observer_t *obs)
{
    wave_t W = presol_wave(R, obs);
    if (!pool && !obs)
        wave_run_serial(&W);
    else
        wave_run(&W, pool);
}
