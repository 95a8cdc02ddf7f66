/*
 * sq_pool.h -- a pool of worker threads for two kinds of work:
 *
 *   jobs      coarse units (one bidegree of a resolution) handed out by a
 *             job source (the scheduler), see sq_pool_run;
 *   sections  fine parallel loops inside a job (row blocks of a matrix
 *             build or a row reduction), see sq_pool_parallel_for.
 *
 * Idle threads help open sections first (they finish work already started,
 * which shortens the critical path), then take new jobs.  A thread that
 * opened a section and waits for it runs only chunks of that same section:
 * it never picks up another job while its own section is pending, which
 * would delay it (the priority inversion the peer fell into).
 *
 * One mutex guards the pool state.  Chunks and jobs run without it.
 */
#ifndef SQ_POOL_H
#define SQ_POOL_H

#include <stdint.h>

#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sq_pool sq_pool_t;

/* A source of jobs.  next and done are called with the pool lock held, so
 * they may update the source's tables without locks of their own; run is
 * called without it.  next returns 1 and sets *job when a job is ready,
 * 0 when none is ready now.  The run is over when next returns 0 and no
 * job is running. */
typedef struct {
    int (*next)(void *ctx, void **job);
    void (*run)(void *ctx, void *job, int thread);
    void (*done)(void *ctx, void *job);
    void *ctx;
} sq_pool_source_t;

/* A pool running work on `nthreads` threads in all: the thread calling
 * sq_pool_run or sq_pool_parallel_for plus nthreads - 1 background threads
 * (nthreads >= 1; 1 means everything runs on the caller).  Aborts if the
 * threads cannot be created. */
sq_pool_t *sq_pool_new(int nthreads);

/* As sq_pool_new, but a thread that cannot be created is an error, not an
 * abort: returns 0 and sets *out, or SQ_E_NOTHREAD with *out = NULL (the
 * threads already started are stopped and joined).  For programs, which
 * report it with a message and an exit status. */
int sq_pool_create(sq_pool_t **out, int nthreads) SQ_WARN_UNUSED;

/* Test hook: sq_pool_create fails when it starts background thread k
 * (1-based; 0 restores the default).  Call it before creating pools. */
void sq_pool_set_fault(int k);
/* Stops and joins the threads; NULL is a no-op.  No work may be pending. */
void sq_pool_free(sq_pool_t *pool);
/* The total thread count (1 for a NULL pool). */
int sq_pool_size(const sq_pool_t *pool);

/* Runs every job of src on all threads of the pool, the caller included,
 * and returns when the source is exhausted.  One source at a time. */
void sq_pool_run(sq_pool_t *pool, const sq_pool_source_t *src);

/* Tells the pool's idle threads that the running source may have a job
 * ready now: for a source fed from outside the pool's callbacks (a job that
 * receives work from another process, src/mpi).  Takes the pool lock:
 * never call it from a source's next or done. */
void sq_pool_wake(sq_pool_t *pool);

/* Calls fn(ctx, i) for every i in [0, n), spread over the idle threads of
 * the pool and the caller; returns when all calls are done.  Callable from
 * a job, from outside the pool, or with pool == NULL (serial, in order).
 * fn must not depend on which thread runs it or in what order. */
void sq_pool_parallel_for(sq_pool_t *pool, int64_t n, void (*fn)(void *ctx, int64_t i),
                          void *ctx);

/* Statistics since creation: seconds spent running jobs and chunks, summed
 * over threads (for the average number of busy cores). */
double sq_pool_busy_seconds(const sq_pool_t *pool);

/* The calling thread's totals, since it started, over the sections it
 * opened and ran split (sq_pool_parallel_for with 2 or more threads and
 * n >= 2), counted while the phase trace (SQ_TRACE_PHASE) is on: *work, CPU
 * seconds of their chunks summed over the threads that ran them; *own, CPU
 * seconds of the chunks it ran itself.  A section run in order on the caller
 * counts in neither.  For the phase trace: over a stretch of a job, the
 * thread's CPU time less the change of *own is its serial time, the change
 * of *work its parallel work. */
void sq_pool_section_totals(double *work, double *own);

/* The index (0 .. size - 1) of the calling thread within the pool running
 * it; 0 for the caller of sq_pool_run and for threads outside any pool. */
int sq_pool_thread_index(void);

#ifdef __cplusplus
}
#endif

#endif /* SQ_POOL_H */
