/*
 * gpu_backend.h -- what a device backend provides (internal to src/gpu).
 *
 * The orchestration (gpu_build.c, gpu_rref.c) is plain C and talks to the
 * device only through this table, so it runs unchanged on two backends:
 *
 *   cuda      gpu_cuda.cu: device memory, one CUDA stream per lane, the
 *             kernels of gpu_kernels.h launched with 64-bit grid arithmetic;
 *             only in builds with CUDA (gpu_stub.c declines otherwise);
 *   emulator  gpu_emu.c: host memory, and each "launch" walks the same grid
 *             (every block, every thread) on the calling thread, calling the
 *             same per-thread functions.  For tests (ADAMS_GPU_EMULATE=1):
 *             it exercises every line of the orchestration without a GPU.
 *
 * A stream is a backend handle for one lane (gpu_internal.h): operations on
 * one stream run in order; h2d may return before the copy is done (the host
 * buffer must stay untouched until the next d2h or sync on that stream);
 * d2h returns when the data is on the host.  Every function returns 0 or a
 * negative SQ_E_* code (the caller then declines and the CPU runs); no
 * function aborts on a device error.  This header is included by the .cu
 * file: plain C types only.
 */
#ifndef SQ_GPU_BACKEND_H
#define SQ_GPU_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sq_gpu_backend {
    const char *name; /* "cuda" or "emulator" */
    char device[160]; /* device description, one line */
    size_t mem_total; /* device memory in bytes */
    int (*stream_new)(void **st);
    void (*stream_free)(void *st);
    void *(*dev_alloc)(size_t n); /* NULL on failure */
    void (*dev_free)(void *p);
    void *(*host_alloc)(size_t n); /* staging memory (pinned on CUDA); NULL on failure */
    void (*host_free)(void *p);
    int (*h2d)(void *st, void *dst, const void *src, size_t n);
    int (*d2h)(void *st, void *dst, const void *src, size_t n);
    int (*d2d)(void *st, void *dst, const void *src, size_t n);
    int (*zero)(void *st, void *dst, size_t n);
    int (*sync)(void *st);
    /* Kernel launches (parameters by value; the pointers are device pointers). */
    int (*mul)(void *st, const sq_gk_mul_t *p);
    int (*rr_panel)(void *st, const sq_gk_panel_t *p);
    int (*rr_prow)(void *st, const sq_gk_prow_t *p);
    int (*rr_tab)(void *st, const sq_gk_tab_t *p);
    int (*rr_apply)(void *st, const sq_gk_apply_t *p);
    /* Releases what the backend itself holds (not the lanes' memory). */
    void (*shutdown)(void);
} sq_gpu_backend_t;

/* The CUDA backend, or NULL with a one-line reason in why[0..n) (no device,
 * a driver error, a device this build has no code for, or a build without
 * CUDA: gpu_stub.c).  Probing runs one tiny kernel to prove the code runs. */
const sq_gpu_backend_t *sq_gpu_cuda_probe(char *why, size_t n);

/* The emulator backend (never fails). */
const sq_gpu_backend_t *sq_gpu_emu_backend(void);

/* Emulator grid shape: threads per block and the most blocks per launch
 * (then threads loop with the grid's stride), so tests can force
 * grid-stride loops and uneven last blocks.  0 keeps a value; defaults
 * 128 and 1 << 20.  Not synchronised: call before work starts. */
void sq_gpu_emu_set_grid(int64_t bdim, int64_t max_blocks);

/* Emulator fault injection for the tests of verify mode: when on, every
 * multiply launch flips one output bit of its first item's row. */
void sq_gpu_emu_set_corrupt(int on);

#ifdef __cplusplus
}
#endif

#endif /* SQ_GPU_BACKEND_H */
