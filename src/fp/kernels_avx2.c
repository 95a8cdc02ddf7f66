/*
 * kernels_avx2.c -- AVX2 versions of the kernels in f2_kernels.h.
 *
 * CMake compiles this file alone with -mavx2; nothing here may run unless
 * kernels.c has checked that the CPU supports AVX2.  Without __AVX2__ (a
 * compiler or target without it) the file provides no kernels.
 *
 * The hot loop is table_apply: for each row, the table entries selected by
 * its index word (one per group of k index bits) are XORed into the row up
 * to eight at a time, so each 32-byte piece of the row is loaded and stored
 * once per eight entries while the entries stream from L2.  Entry 0 of every
 * group is zero, so every group's entry is XORed, index 0 included: the loop
 * has no data-dependent branches.  Full panels (k = 8, 8 groups) take one
 * fully unrolled 8-source loop; other shapes go through the unrolled loops
 * for 1-8 sources (xor_srcs<n>).
 */
#include <stddef.h>

#include "internal.h"

#if defined(__AVX2__)

#include <immintrin.h>
#include <string.h>

#define LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

static void xor_avx2(uint64_t *restrict dst, const uint64_t *restrict src, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i a0 = _mm256_xor_si256(LOAD(dst + i), LOAD(src + i));
        __m256i a1 = _mm256_xor_si256(LOAD(dst + i + 4), LOAD(src + i + 4));
        STORE(dst + i, a0);
        STORE(dst + i + 4, a1);
    }
    for (; i + 4 <= n; i += 4)
        STORE(dst + i, _mm256_xor_si256(LOAD(dst + i), LOAD(src + i)));
    for (; i < n; i++)
        dst[i] ^= src[i];
}

static inline void xor3_avx2(uint64_t *restrict d, const uint64_t *restrict a,
                             const uint64_t *restrict b, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        STORE(d + i, _mm256_xor_si256(LOAD(a + i), LOAD(b + i)));
        STORE(d + i + 4, _mm256_xor_si256(LOAD(a + i + 4), LOAD(b + i + 4)));
    }
    for (; i + 4 <= n; i += 4)
        STORE(d + i, _mm256_xor_si256(LOAD(a + i), LOAD(b + i)));
    for (; i < n; i++)
        d[i] = a[i] ^ b[i];
}

static void table_build_avx2(uint64_t *T, int64_t estride, const uint64_t *prow, int64_t pstride,
                             int kk, int64_t w)
{
    memset(T, 0, (size_t)w * sizeof(uint64_t));
    for (int j = 0; j < kk; j++) {
        int64_t half = (int64_t)1 << j;
        const uint64_t *src = prow + j * pstride;
        for (int64_t x = 0; x < half; x++)
            xor3_avx2(T + (half + x) * estride, T + x * estride, src, w);
    }
}

/* d[0..w) ^= s[0][..] ^ ... ^ s[ns-1][..], ns a compile-time constant after
 * inlining, so the source loop unrolls completely. */
static inline __attribute__((always_inline)) void
xor_srcs(uint64_t *restrict d, const uint64_t *const *s, const int ns, int64_t w)
{
    const uint64_t *p[8];
    for (int j = 0; j < ns; j++)
        p[j] = s[j];
    int64_t i = 0;
    for (; i + 8 <= w; i += 8) {
        __m256i a0 = LOAD(d + i), a1 = LOAD(d + i + 4);
        for (int j = 0; j < ns; j++) {
            a0 = _mm256_xor_si256(a0, LOAD(p[j] + i));
            a1 = _mm256_xor_si256(a1, LOAD(p[j] + i + 4));
        }
        STORE(d + i, a0);
        STORE(d + i + 4, a1);
    }
    for (; i + 4 <= w; i += 4) {
        __m256i a0 = LOAD(d + i);
        for (int j = 0; j < ns; j++)
            a0 = _mm256_xor_si256(a0, LOAD(p[j] + i));
        STORE(d + i, a0);
    }
    for (; i < w; i++) {
        uint64_t a = d[i];
        for (int j = 0; j < ns; j++)
            a ^= p[j][i];
        d[i] = a;
    }
}

#define XOR_SRCS_N(n)                                                                              \
    static void xor_srcs##n(uint64_t *restrict d, const uint64_t *const *s, int64_t w)             \
    {                                                                                              \
        xor_srcs(d, s, n, w);                                                                      \
    }
XOR_SRCS_N(1)
XOR_SRCS_N(2)
XOR_SRCS_N(3)
XOR_SRCS_N(4)
XOR_SRCS_N(5)
XOR_SRCS_N(6)
XOR_SRCS_N(7)
XOR_SRCS_N(8)

/*
 * PREFETCH_ROWS: table_apply prefetches the row segment this many rows ahead.
 * The rows of a tile are a strided stream (one segment of W limbs per row,
 * rows stride limbs apart) that the hardware prefetchers follow poorly once
 * the matrix outgrows L3; measured on Zen 3 with bench/b-rref.c, 10000^2:
 * no prefetch 0.4, 2 rows 1.0, 4-8 rows 1.4-1.6 vector XORs per ns.
 */
#define PREFETCH_ROWS 4

typedef void (*xor_srcs_fn)(uint64_t *restrict, const uint64_t *const *, int64_t);
static const xor_srcs_fn xor_srcs_by_n[9] = {NULL,      xor_srcs1, xor_srcs2, xor_srcs3, xor_srcs4,
                                             xor_srcs5, xor_srcs6, xor_srcs7, xor_srcs8};

/* Prefetches for writing the w words of the row PREFETCH_ROWS below row r
 * (at d), when there is one. */
static inline void prefetch_ahead(const uint64_t *d, int64_t r, int64_t nrows, int64_t stride,
                                  int64_t w)
{
    if (r + PREFETCH_ROWS < nrows) {
        const char *nx = (const char *)(d + PREFETCH_ROWS * stride);
        for (int64_t b = 0; b < w * 8; b += 64)
            __builtin_prefetch(nx + b, 1, 3);
    }
}

/* Row r of rows (nrows rows, stride limbs apart) ^= the entry of each of
 * the ngroups tables of 2^k entries (estride limbs apart) that group g of
 * u[r]'s bits selects, over w limbs.  Inlined twice: with eight (k and
 * ngroups 8, constants, and the eight sources XORed inline, unrolled) and
 * without (the sources eight at a time, then the rest). */
static inline __attribute__((always_inline)) void
apply_rows(uint64_t *rows, int64_t stride, int64_t nrows, const uint64_t *u,
           const uint64_t *tables, int64_t estride, const int k, const int ngroups, int64_t w,
           const int eight)
{
    const uint64_t mask = ((uint64_t)1 << k) - 1;
    const uint64_t *src[64];
    const int64_t gstride = ((int64_t)1 << k) * estride;
    for (int64_t r = 0; r < nrows; r++) {
        uint64_t x = u[r];
        if (x == 0)
            continue;
        uint64_t *d = rows + r * stride;
        prefetch_ahead(d, r, nrows, stride, w);
        for (int g = 0; g < ngroups; g++)
            src[g] = tables + g * gstride + (int64_t)((x >> (g * k)) & mask) * estride;
        if (eight) {
            xor_srcs(d, src, 8, w);
            continue;
        }
        int s = 0;
        for (; ngroups - s >= 8; s += 8)
            xor_srcs8(d, src + s, w);
        if (ngroups > s)
            xor_srcs_by_n[ngroups - s](d, src + s, w);
    }
}

static void table_apply_avx2(uint64_t *rows, int64_t stride, int64_t nrows, const uint64_t *u,
                             const uint64_t *tables, int64_t estride, int k, int ngroups, int64_t w)
{
    if (ngroups == 8 && k == 8)
        apply_rows(rows, stride, nrows, u, tables, estride, 8, 8, w, 1);
    else
        apply_rows(rows, stride, nrows, u, tables, estride, k, ngroups, w, 0);
}

/* The four lanes in one register: per pair, a subtraction, a mask, a
 * comparison and the lanes' sign bits. */
static int64_t guard_scan4_avx2(uint32_t *hits, const uint64_t *c, const uint64_t *dg, int64_t n,
                                const uint64_t *sg, uint64_t guard)
{
    const __m256i S = LOAD(sg), G = _mm256_set1_epi64x((long long)guard);
    int64_t h = 0;
    /* Branch-free: every pair writes its entry at hits[h] (h <= k < n, in
     * room) and only a pair with a passing lane moves h on; about half the
     * pairs pass, so a branch here would be mispredicted often. */
    for (int64_t k = 0; k < n; k++) {
        __m256i x = _mm256_sub_epi64(S, _mm256_set1_epi64x((long long)c[k]));
        x = _mm256_and_si256(x, _mm256_set1_epi64x((long long)dg[k]));
        unsigned m = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, G)));
        hits[h] = ((uint32_t)k << 4) | m;
        h += m != 0;
    }
    return h;
}

static int64_t popcount_range_avx2(const uint64_t *v, int64_t off, int64_t len)
{
    return f2__popcount_range(v, off, len); /* popcnt where this file is built with it */
}

static const f2_kernels_t kernels_avx2 = {
    .name = "avx2",
    .xor_raw = xor_avx2,
    .table_build = table_build_avx2,
    .table_apply = table_apply_avx2,
    .guard_scan4 = guard_scan4_avx2,
    .popcount_range = popcount_range_avx2,
};

const f2_kernels_t *f2__kernels_avx2_compiled(void)
{
    return &kernels_avx2;
}

#else /* !__AVX2__ */

const f2_kernels_t *f2__kernels_avx2_compiled(void)
{
    return NULL;
}

#endif
