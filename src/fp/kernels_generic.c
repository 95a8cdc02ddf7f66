/*
 * kernels_generic.c -- the portable reference kernels (see f2_kernels.h).
 *
 * Plain C on uint64_t limbs.  The compiler may vectorise them for the
 * baseline ISA; they must never use ISA-specific intrinsics.  Every SIMD
 * kernel is tested against these.
 */
#include <string.h>

#include "internal.h"

static void xor_generic(uint64_t *restrict dst, const uint64_t *restrict src, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i] ^= src[i];
}

static void table_build_generic(uint64_t *T, int64_t estride, const uint64_t *prow, int64_t pstride,
                                int kk, int64_t w)
{
    memset(T, 0, (size_t)w * sizeof(uint64_t));
    for (int j = 0; j < kk; j++) {
        int64_t half = (int64_t)1 << j;
        const uint64_t *restrict src = prow + j * pstride;
        for (int64_t x = 0; x < half; x++) {
            const uint64_t *restrict a = T + x * estride;
            uint64_t *restrict d = T + (half + x) * estride;
            for (int64_t i = 0; i < w; i++)
                d[i] = a[i] ^ src[i];
        }
    }
}

static void table_apply_generic(uint64_t *rows, int64_t stride, int64_t nrows, const uint64_t *u,
                                const uint64_t *tables, int64_t estride, int k, int ngroups,
                                int64_t w)
{
    const uint64_t mask = ((uint64_t)1 << k) - 1;
    const uint64_t *src[64];
    for (int64_t r = 0; r < nrows; r++) {
        uint64_t x = u[r];
        if (x == 0)
            continue;
        int ns = 0;
        for (int g = 0; g < ngroups; g++) {
            uint64_t idx = (x >> (g * k)) & mask;
            if (idx)
                src[ns++] = tables + (((int64_t)g << k) + (int64_t)idx) * estride;
        }
        uint64_t *restrict d = rows + r * stride;
        int s = 0;
        for (; s + 4 <= ns; s += 4) {
            const uint64_t *s0 = src[s], *s1 = src[s + 1], *s2 = src[s + 2], *s3 = src[s + 3];
            for (int64_t i = 0; i < w; i++)
                d[i] ^= s0[i] ^ s1[i] ^ s2[i] ^ s3[i];
        }
        for (; s < ns; s++)
            xor_generic(d, src[s], w);
    }
}

static int64_t guard_scan4_generic(uint32_t *hits, const uint64_t *c, const uint64_t *dg,
                                   int64_t n, const uint64_t *sg, uint64_t guard)
{
    int64_t h = 0;
    for (int64_t k = 0; k < n; k++) {
        uint32_t m = 0;
        for (int i = 0; i < 4; i++)
            m |= (uint32_t)(((sg[i] - c[k]) & dg[k]) == guard) << i;
        if (m)
            hits[h++] = ((uint32_t)k << 4) | m;
    }
    return h;
}


static int64_t popcount_range_generic(const uint64_t *v, int64_t off, int64_t len)
{
    return f2__popcount_range(v, off, len); /* popcnt where this file is built with it */
}

const f2_kernels_t f2__kernels_generic = {
    .name = "generic",
    .xor_raw = xor_generic,
    .table_build = table_build_generic,
    .table_apply = table_apply_generic,
    .guard_scan4 = guard_scan4_generic,
    .popcount_range = popcount_range_generic,
};
