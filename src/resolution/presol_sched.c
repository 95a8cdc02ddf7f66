/*
 * presol_sched.c -- the odd-prime engine's description of its run for the
 * one scheduler of sched.c (wave.h): its steps, their predecessors (s, t - 1)
 * and (s - 1, t), and the drivers presol_run and presol_run_pool; and a
 * step's matrix build (the row split is fhom.c's, at every prime).
 *
 * Within a step nothing depends on the thread count: every row is built by
 * the same code whichever thread runs it, and the reduction is serial.
 */
#include <stdint.h>

#include "presol_internal.h"
#include "wave.h"

/* The rows of a step's matrix, split over the pool by the one walk of
 * fhom.c (any split gives the same bytes). */
void presol_build_rows(presol_t *R, int32_t s, fpmat_t *m, int32_t t)
{
    if (m->data)
        pfhom_build_rows_par(R->d[s], m, 0, t, t, R->pool);
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
