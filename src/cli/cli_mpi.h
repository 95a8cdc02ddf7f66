/*
 * cli_mpi.h -- `adams resolve --mpi` (cmd_resolve_mpi.c, docs/mpi.md).
 */
#ifndef CLI_MPI_H
#define CLI_MPI_H

#include "cli_opts.h"
#include "cli_run.h"

/* resolve with --mpi given: refuses what --mpi cannot do (a build without
 * MPI, --gpu, --coefficients, the cofiber of a class: one line, CLI_USAGE),
 * starts MPI, prepares the run on every rank (rank 0 first: its refusals
 * are said once), then rank 0 runs body(r) -- resolve's own run and
 * output, its steps distributed by the coordinator attached to its
 * resolution -- while the other ranks serve steps.  Returns the exit code
 * of this rank. */
int cli_mpi_resolve(const cli_opts_t *o, int (*body)(cli_run_t *r));

/* A run without a store that was stopped (a signal: mpirun sends SIGTERM
 * when a rank dies or it is interrupted; or a rank's failure): says so in
 * one line and returns the exit code (128 + the signal). */
int cli_mpi_stopped(void);

#endif /* CLI_MPI_H */
