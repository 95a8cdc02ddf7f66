/*
 * gpu_emu.c -- the emulator backend: "device" memory is host memory, and a
 * launch walks the whole grid on the calling thread, block by block and
 * thread by thread, calling the kernel's per-thread function of
 * gpu_kernels.h with the same (block, thread, grid) indices a CUDA launch
 * would give it.  The grid is sized as gpu_cuda.cu sizes it (sq_gk_blocks),
 * but with a settable block size and block cap (sq_gpu_emu_set_grid), so
 * the tests also run grid-stride loops and partial last blocks.
 *
 * It is the GPU path without a GPU: slow (one thread), exact, and what the
 * tests of tests/gpu run the orchestration (gpu_build.c, gpu_rref.c), the
 * hooks and verify mode on.  ADAMS_GPU_EMULATE=1 selects it.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

static int64_t emu_bdim = 128, emu_max_blocks = INT64_C(1) << 20;
static int emu_corrupt;

void sq_gpu_emu_set_grid(int64_t bdim, int64_t max_blocks)
{
    if (bdim > 0)
        emu_bdim = bdim;
    if (max_blocks > 0)
        emu_max_blocks = max_blocks;
}

void sq_gpu_emu_set_corrupt(int on)
{
    emu_corrupt = on;
}

static int emu_stream_new(void **st)
{
    *st = sq_malloc(1);
    return 0;
}

static void emu_stream_free(void *st)
{
    sq_free(st);
}

/* 64-byte aligned like device allocations (and like f2mat rows). */
static void *emu_alloc(size_t n)
{
    return sq_aligned_calloc(n ? n : 1, 1);
}

static void emu_free(void *p)
{
    sq_aligned_free(p);
}

static int emu_copy(void *st, void *dst, const void *src, size_t n)
{
    (void)st;
    if (n)
        memmove(dst, src, n);
    return 0;
}

static int emu_zero(void *st, void *dst, size_t n)
{
    (void)st;
    memset(dst, 0, n);
    return 0;
}

static int emu_sync(void *st)
{
    (void)st;
    return 0;
}

/* The grid of a launch over n items: every block, every thread. */
#define EMU_GRID(n, call)                                                                          \
    do {                                                                                           \
        const int64_t bdim_ = emu_bdim;                                                            \
        const int64_t gdim_ = sq_gk_blocks((n), bdim_, emu_max_blocks);                            \
        for (int64_t bx_ = 0; bx_ < gdim_; bx_++)                                                  \
            for (int64_t tx_ = 0; tx_ < bdim_; tx_++)                                              \
                call(p, bx_, bdim_, tx_, gdim_);                                                   \
    } while (0)

static int emu_mul(void *st, const sq_gk_mul_t *p)
{
    (void)st;
    EMU_GRID(p->nitems, sq_gk_mul_thread);
    if (emu_corrupt && p->nitems > 0) {
        int64_t row = sq_gk_find(p->row_item0, p->row_lo, p->row_hi, p->item_lo);
        p->out[(row - p->row_lo) * p->out_stride] ^= 1;
    }
    return 0;
}

static int emu_panel(void *st, const sq_gk_panel_t *p)
{
    (void)st;
    EMU_GRID(p->rows, sq_gk_panel_thread);
    return 0;
}

static int emu_prow(void *st, const sq_gk_prow_t *p)
{
    (void)st;
    EMU_GRID(p->P * p->width, sq_gk_prow_thread);
    return 0;
}

static int emu_tab(void *st, const sq_gk_tab_t *p)
{
    (void)st;
    EMU_GRID((p->P + 7) / 8 * 256 * p->width, sq_gk_tab_thread);
    return 0;
}

static int emu_apply(void *st, const sq_gk_apply_t *p)
{
    (void)st;
    EMU_GRID(p->rows * p->width, sq_gk_apply_thread);
    return 0;
}

static sq_gpu_backend_t emu = {
    .name = "emulator",
    .device = "emulator (the kernels' code run on the CPU)",
    .mem_total = (size_t)4 << 30,
    .stream_new = emu_stream_new,
    .stream_free = emu_stream_free,
    .dev_alloc = emu_alloc,
    .dev_free = emu_free,
    .host_alloc = emu_alloc,
    .host_free = emu_free,
    .h2d = emu_copy,
    .d2h = emu_copy,
    .d2d = emu_copy,
    .zero = emu_zero,
    .sync = emu_sync,
    .mul = emu_mul,
    .rr_panel = emu_panel,
    .rr_prow = emu_prow,
    .rr_tab = emu_tab,
    .rr_apply = emu_apply,
    .shutdown = NULL,
};

const sq_gpu_backend_t *sq_gpu_emu_backend(void)
{
    return &emu;
}
