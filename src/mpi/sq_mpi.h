/*
 * sq_mpi.h -- the program's MPI layer: `adams resolve --mpi` (docs/mpi.md).
 *
 * Rank 0 runs the resolution's own scheduler (resol_sched_*) as the
 * coordinator of resol_run_pool (installed with sq_mpi_attach): it sends
 * every ready step to an idle worker, publishes the result with
 * resol_load_step and forwards it to the other workers.  Ranks 1..K-1
 * serve steps (sq_mpi_serve).  Built with MPI when ADAMS_MPI finds it
 * (sq_mpi.c); otherwise sq_mpi_none.c, where sq_mpi_built is 0 and the CLI
 * refuses --mpi.  The library never links MPI: this folder is the
 * program's, above every layer of libadams.
 */
#ifndef SQ_MPI_H
#define SQ_MPI_H

#include <stddef.h>
#include <stdint.h>

#include "resol.h"
#include "sq_pool.h"

/* 1 when the program was built with MPI, else 0. */
int sq_mpi_built(void);

/* Starts MPI (MPI_Init_thread, funneled: only the main thread calls MPI).
 * Returns 0, or -1 with a one-line reason in err (errlen bytes). */
int sq_mpi_start(char *err, size_t errlen);

/* This process's rank and the number of ranks (after sq_mpi_start). */
int sq_mpi_rank(void);
int sq_mpi_size(void);

/* Every rank calls it with its own code; returns the largest (a
 * collective: all ranks must call it, in the same order).  When it
 * returns 0 the workers serve (sq_mpi_serve) and rank 0's sq_mpi_finish
 * stops them. */
int sq_mpi_ready(int code);
/* Rank 0's code given to every rank (a collective). */
int sq_mpi_share(int code);

/* Rank 0: the steps each worker is given at most at once (default 2):
 * its threads and one more, so that a step waits there while the others
 * run (the round trip to rank 0 is hidden). */
void sq_mpi_set_depth(int steps);

/* Rank 0: makes resol_run_pool(R, ...) distribute R's steps over the
 * workers (resol_set_runner).  The runner returns 1 when R's stop was
 * requested (resol_request_stop: a signal), leaving the steps in flight. */
void sq_mpi_attach(resol_t *R);

/* Rank 0, a run without a store: catches SIGINT and SIGTERM (mpirun sends
 * SIGTERM to every rank when a rank dies or it is interrupted) as a stop
 * request of R.  sq_mpi_signal_caught: the signal caught, or 0. */
void sq_mpi_catch_signals(resol_t *R);
int sq_mpi_signal_caught(void);

/* A worker: receives the engine and the steps of R's run from rank 0,
 * runs them on pool (several at once; one thread of pool receives and
 * sends), sends the results back, until rank 0 says stop.
 * Returns 0, or the exit code after one line (a step rank 0 sent could
 * not be loaded: a bug). */
int sq_mpi_serve(resol_t *R, sq_pool_t *pool);

/* Rank 0: the exit code a worker's FAIL asked for (it said its line), or
 * 0. */
int sq_mpi_failed(void);

/* Ends the distributed run with exit code code: rank 0 tells the workers
 * to stop (when sq_mpi_serve still waits) and collects their goodbyes
 * (a bounded wait: a dead rank is not waited for), every rank leaves MPI.
 * Returns code. */
int sq_mpi_finish(int code);

#endif /* SQ_MPI_H */
