/*
 * gpu_stub.c -- the CUDA backend of a build without CUDA: it declines.
 *
 * CMake defines SQ_WITH_CUDA for the gpu layer when it compiles
 * gpu_cuda.cu (ADAMS_CUDA=ON, or AUTO with a CUDA compiler found); this
 * file is then empty.  Everything else in src/gpu is built either way, so
 * the API, the hooks and the emulator backend behave the same in both.
 */
#include <stdio.h>

#include "gpu_internal.h"

#ifndef SQ_WITH_CUDA

const sq_gpu_backend_t *sq_gpu_cuda_probe(char *why, size_t n)
{
    if (why && n)
        snprintf(why, n,
                 "adams was built without CUDA (configure with -DADAMS_CUDA=ON where "
                 "nvcc is installed)");
    return NULL;
}

#else

/* ISO C wants at least one declaration per translation unit. */
typedef int sq_gpu_stub_unused_t;

#endif
