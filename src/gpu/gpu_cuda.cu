/*
 * gpu_cuda.cu -- the CUDA backend (built when CMake finds a CUDA compiler:
 * ADAMS_CUDA=ON, or AUTO; see src/gpu/gpu.cmake and docs/gpu.md).
 *
 * Each kernel is one line: the per-thread function of gpu_kernels.h with
 * the thread's indices widened to 64 bits, so the code that runs here is
 * the code the CPU tests run over the same grids.  Launches use 256 threads
 * per block and at most 32 blocks per multiprocessor; beyond that the
 * threads loop with the grid's stride, so a launch covers any number of
 * items without a 32-bit grid size.  Nothing synchronises across blocks:
 * there is no cooperative launch and no grid barrier, and the steps of an
 * algorithm are successive launches on one stream.
 *
 * Each lane of gpu_internal.h is one non-blocking stream; the runtime is
 * thread-safe, and lanes never wait for one another except through the
 * device itself.  Every error is returned as SQ_E_NOGPU (the caller
 * declines and the CPU runs), never aborts.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

#include "gpu_backend.h"
#include "sq_core.h"

static const int64_t BDIM = 256;
static int64_t max_blocks = 1;

/* The kernel k_NAME runs sq_gk_NAME_thread (gpu_kernels.h, shared with the
 * emulator) on its parameters, with the thread's grid coordinates. */
#define SQ_GK_KERNEL(name)                                                                         \
    static __global__ void k_##name(sq_gk_##name##_t p)                                            \
    {                                                                                              \
        sq_gk_##name##_thread(&p, (int64_t)blockIdx.x, (int64_t)blockDim.x,                        \
                              (int64_t)threadIdx.x, (int64_t)gridDim.x);                           \
    }
SQ_GK_KERNEL(mul)
SQ_GK_KERNEL(panel)
SQ_GK_KERNEL(prow)
SQ_GK_KERNEL(tab)
SQ_GK_KERNEL(apply)

static __global__ void k_probe(int *out, int64_t big)
{
    /* A grid index past 2^32 computed in 64 bits: the probe checks the
     * device's arithmetic agrees with the host's. */
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *out = sq_gk_lin(big, 1024, 7) == big * 1024 + 7 ? 0x5eed : 1;
}

static int ck(cudaError_t e)
{
    if (e == cudaSuccess)
        return 0;
    (void)cudaGetLastError(); /* clear a non-sticky error */
    return SQ_E_NOGPU;
}

static unsigned grid_for(int64_t n)
{
    return (unsigned)sq_gk_blocks(n, BDIM, max_blocks);
}

static cudaStream_t S(void *st)
{
    return (cudaStream_t)st;
}

static int c_stream_new(void **st)
{
    cudaStream_t s;
    if (ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) < 0)
        return SQ_E_NOGPU;
    *st = (void *)s;
    return 0;
}

static void c_stream_free(void *st)
{
    cudaStreamDestroy(S(st));
}

static void *c_dev_alloc(size_t n)
{
    void *p = NULL;
    if (ck(cudaMalloc(&p, n ? n : 1)) < 0)
        return NULL;
    return p;
}

static void c_dev_free(void *p)
{
    cudaFree(p);
}

static void *c_host_alloc(size_t n)
{
    void *p = NULL;
    if (ck(cudaHostAlloc(&p, n ? n : 1, cudaHostAllocDefault)) < 0)
        return NULL;
    return p;
}

static void c_host_free(void *p)
{
    cudaFreeHost(p);
}

static int c_h2d(void *st, void *dst, const void *src, size_t n)
{
    return n ? ck(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, S(st))) : 0;
}

static int c_d2h(void *st, void *dst, const void *src, size_t n)
{
    if (n && ck(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, S(st))) < 0)
        return SQ_E_NOGPU;
    return ck(cudaStreamSynchronize(S(st)));
}

static int c_d2d(void *st, void *dst, const void *src, size_t n)
{
    return n ? ck(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, S(st))) : 0;
}

static int c_zero(void *st, void *dst, size_t n)
{
    return n ? ck(cudaMemsetAsync(dst, 0, n, S(st))) : 0;
}

static int c_sync(void *st)
{
    return ck(cudaStreamSynchronize(S(st)));
}

static int c_mul(void *st, const sq_gk_mul_t *p)
{
    if (p->nitems <= 0)
        return 0;
    k_mul<<<grid_for(p->nitems), (unsigned)BDIM, 0, S(st)>>>(*p);
    return ck(cudaGetLastError());
}

static int c_panel(void *st, const sq_gk_panel_t *p)
{
    k_panel<<<grid_for(p->rows), (unsigned)BDIM, 0, S(st)>>>(*p);
    return ck(cudaGetLastError());
}

static int c_prow(void *st, const sq_gk_prow_t *p)
{
    k_prow<<<grid_for(p->P * p->width), (unsigned)BDIM, 0, S(st)>>>(*p);
    return ck(cudaGetLastError());
}

static int c_tab(void *st, const sq_gk_tab_t *p)
{
    k_tab<<<grid_for((p->P + 7) / 8 * 256 * p->width), (unsigned)BDIM, 0, S(st)>>>(*p);
    return ck(cudaGetLastError());
}

static int c_apply(void *st, const sq_gk_apply_t *p)
{
    k_apply<<<grid_for(p->rows * p->width), (unsigned)BDIM, 0, S(st)>>>(*p);
    return ck(cudaGetLastError());
}

/* Filled by sq_gpu_cuda_probe (C++17 has no designated initializers). */
static sq_gpu_backend_t cuda_be;

extern "C" const sq_gpu_backend_t *sq_gpu_cuda_probe(char *why, size_t n)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (why && n)
            snprintf(why, n, "no CUDA device (%s)",
                     e != cudaSuccess ? cudaGetErrorString(e) : "the driver sees none");
        (void)cudaGetLastError();
        return NULL;
    }
    cudaDeviceProp prop;
    if (ck(cudaSetDevice(0)) < 0 || ck(cudaGetDeviceProperties(&prop, 0)) < 0) {
        if (why && n)
            snprintf(why, n, "CUDA device 0 cannot be opened");
        return NULL;
    }
    /* Run one kernel: proves this build carries code the device can run
     * (sm_90 code plus PTX for later architectures). */
    int *d = NULL, h = 0;
    e = cudaMalloc(&d, sizeof *d);
    if (e == cudaSuccess) {
        k_probe<<<1, 1>>>(d, (int64_t)1 << 24);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
        cudaFree(d);
    }
    if (e != cudaSuccess || h != 0x5eed) {
        if (why && n)
            snprintf(why, n, "cannot run kernels on %.100s (sm_%d%d): %s", prop.name, prop.major,
                     prop.minor,
                     e != cudaSuccess ? cudaGetErrorString(e) : "64-bit index check failed");
        (void)cudaGetLastError();
        return NULL;
    }
    max_blocks = (int64_t)prop.multiProcessorCount * 32;
    cuda_be.name = "cuda";
    cuda_be.mem_total = prop.totalGlobalMem;
    cuda_be.stream_new = c_stream_new;
    cuda_be.stream_free = c_stream_free;
    cuda_be.dev_alloc = c_dev_alloc;
    cuda_be.dev_free = c_dev_free;
    cuda_be.host_alloc = c_host_alloc;
    cuda_be.host_free = c_host_free;
    cuda_be.h2d = c_h2d;
    cuda_be.d2h = c_d2h;
    cuda_be.d2d = c_d2d;
    cuda_be.zero = c_zero;
    cuda_be.sync = c_sync;
    cuda_be.mul = c_mul;
    cuda_be.rr_panel = c_panel;
    cuda_be.rr_prow = c_prow;
    cuda_be.rr_tab = c_tab;
    cuda_be.rr_apply = c_apply;
    cuda_be.shutdown = NULL;
    snprintf(cuda_be.device, sizeof cuda_be.device, "%.100s (sm_%d%d, %.0f GiB, %d SMs)", prop.name,
             prop.major, prop.minor, (double)prop.totalGlobalMem / (1 << 30),
             prop.multiProcessorCount);
    return &cuda_be;
}
