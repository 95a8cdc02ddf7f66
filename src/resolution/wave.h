/*
 * wave.h -- the one scheduler of every engine (sched.c): the drivers that
 * run the steps (s, t) of a region, serially or as a wavefront on a thread
 * pool, for resol_t at every prime (classical steps; Nassau's at p = 2).  Internal to src/resolution.
 *
 * An engine describes its run by a wave_t: the table of bidegrees, which of
 * them are steps, which were done before the run, a step's predecessors, how
 * to run a step.  The coordinator knows nothing else of the engine.
 */
#ifndef RESOL_WAVE_H
#define RESOL_WAVE_H

#include <stdatomic.h>
#include <stdint.h>

#include "resol.h"
#include "sq_pool.h"

/* At most this many predecessors per step. */
#define WAVE_MAX_PREDS 3

/* What the coordinator asks of an engine; ctx is the engine's resolution. */
typedef struct {
    /* Whether (s, t) of the table is a step of the run. */
    int (*is_step)(const void *ctx, int32_t s, int32_t t);
    /* Whether the step (s, t) was done before the run (never run, counted
     * done from the start); NULL: none was. */
    int (*preloaded)(const void *ctx, int32_t s, int32_t t);
    /* The predecessors of the step (s, t) that are steps of the run, into
     * out; returns their count (<= WAVE_MAX_PREDS).  Each predecessor is one
     * of (s, t - 1), (s - 1, t), (s - 1, t - 1). */
    int (*preds)(const void *ctx, int32_t s, int32_t t, int32_t out[WAVE_MAX_PREDS][2]);
    /* Runs the step (s, t); its predecessors are done. */
    void (*run)(void *ctx, int32_t s, int32_t t);
} wave_ops_t;

/* The order in which wave_run hands out ready steps (wave_priority): a
 * property of the engine's step, not of the prime.
 *   WAVE_ORDER_ROWS     lowest s, then lowest t: the rows run as a
 *                       pipeline and the low rows finish first, freeing
 *                       per-row caches (Nassau's blocks of the last
 *                       degrees: S_2 (150, 78) peak 673 MB -> 185 MB);
 *   WAVE_ORDER_DEGREES  lowest t, then lowest s: a degree is finished
 *                       across the rows before the next starts, so the
 *                       kernel a classical step leaves for (s + 1, t) is
 *                       consumed soon (docs/benchmarks.md, "One
 *                       scheduler": the classical engine's peak memory is
 *                       about halved against the rows order). */
typedef enum { WAVE_ORDER_ROWS = 0, WAVE_ORDER_DEGREES = 1 } wave_order_t;

/* One run: the engine, its resolution and its region. */
typedef struct {
    const wave_ops_t *ops;
    void *ctx;                      /* the engine's resolution, passed to every callback */
    int32_t max_s, t_min, t_max;    /* the table: 0 <= s <= max_s, t_min <= t <= t_max */
    /* Nonzero: no new step starts (the engine's stop request); NULL: never. */
    atomic_int *stop;
    /* Set to the pool for the time of wave_run (the steps' parallel
     * sections), NULL after; NULL: not kept. */
    sq_pool_t **pool_slot;
    const resol_observer_t *obs;    /* progress, or NULL */
    wave_order_t order;             /* how ready steps are ordered */
} wave_t;

/* Runs every step of W not preloaded on the threads of pool (NULL: one
 * worker thread of its own): a coordinator releases a step when its
 * predecessors are done, and hands out the ready step of lowest priority
 * (wave_priority: lowest s, then lowest t); obs->step_done is called once
 * per finished step, under the pool's lock.  Returns 0 when every step ran,
 * 1 when a stop request ended the run early (the steps in flight finished).
 * SQ_CHECK fails if steps are left with no stop request (a cycle). */
int wave_run(const wave_t *W, sq_pool_t *pool);

/* Runs every step of W not preloaded on the calling thread, t increasing
 * and, within a degree, s increasing (so every predecessor (s, t - 1),
 * (s - 1, t), (s - 1, t - 1) runs first); checks the stop request before
 * each step.  No observer. */
void wave_run_serial(const wave_t *W);

/* The coordinator of wave_run driven by a caller instead of a pool (a
 * distributed run, resol_sched_*): the same table, heap and order.
 * wave_sched_next pops the ready step of lowest priority into (*s, *t)
 * and returns 1, or returns 0 when none is ready now or a stop was
 * requested; wave_sched_done releases the successors of a finished step
 * and reports it to W->obs.  W must outlive the scheduler. */
typedef struct wave_sched wave_sched_t;
wave_sched_t *wave_sched_new(const wave_t *W);
int wave_sched_next(wave_sched_t *S, int32_t *s, int32_t *t);
void wave_sched_done(wave_sched_t *S, int32_t s, int32_t t);
/* Steps done (preloaded ones included) and in all. */
void wave_sched_counts(const wave_sched_t *S, int64_t *done, int64_t *total);
void wave_sched_free(wave_sched_t *S);

/* Number of steps of W (preloaded ones included). */
int64_t wave_num_steps(const wave_t *W);

/* The rank of (s, t) in the order in which wave_run hands out ready steps:
 * W->order (lowest s, then t; or lowest t, then s). */
int64_t wave_priority(const wave_t *W, int32_t s, int32_t t);

#endif /* RESOL_WAVE_H */
