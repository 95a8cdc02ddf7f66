/*
 * sq_mpi_none.c -- sq_mpi.h in a build without MPI (ADAMS_MPI=OFF, or AUTO
 * without an MPI found): sq_mpi_built says 0 and the program refuses --mpi
 * before calling anything else here.
 */
#include "sq_mpi.h"

#include <stdio.h>

#include "sq_core.h"

int sq_mpi_built(void)
{
    return 0;
}

int sq_mpi_start(char *err, size_t errlen)
{
    snprintf(err, errlen, "this adams was built without MPI");
    return -1;
}

int sq_mpi_rank(void)
{
    return 0;
}

int sq_mpi_size(void)
{
    return 1;
}

int sq_mpi_ready(int code)
{
    return code;
}

int sq_mpi_share(int code)
{
    return code;
}

void sq_mpi_set_depth(int steps)
{
    (void)steps;
}

void sq_mpi_attach(resol_t *R)
{
    (void)R;
}

void sq_mpi_catch_signals(resol_t *R)
{
    (void)R;
}

int sq_mpi_signal_caught(void)
{
    return 0;
}

int sq_mpi_serve(resol_t *R, sq_pool_t *pool)
{
    (void)R, (void)pool;
    return 0;
}

int sq_mpi_failed(void)
{
    return 0;
}

int sq_mpi_finish(int code)
{
    return code;
}
