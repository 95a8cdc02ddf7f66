/*
 * internal.h -- declarations shared by the files of the fp layer only (not
 * installed).
 */
#ifndef F2_INTERNAL_H
#define F2_INTERNAL_H

#include "f2_kernels.h"

/* The portable kernels (kernels_generic.c). */
extern const f2_kernels_t f2__kernels_generic;

/* The AVX2 kernels (kernels_avx2.c), or NULL when the file was compiled
 * without AVX2 support.  Whether the CPU has AVX2 is checked by the caller. */
const f2_kernels_t *f2__kernels_avx2_compiled(void);

/* The number of set bits of v in bit positions off .. off + len - 1 (0
 * when len <= 0): the body of both kernel tables' popcount_range, inline
 * so that each file compiles it with its own flags (popcnt in the AVX2
 * build, a library call per limb in the portable one). */
static inline int64_t f2__popcount_range(const uint64_t *v, int64_t off, int64_t len)
{
    if (len <= 0)
        return 0;
    int64_t la = off >> 6, le = (off + len - 1) >> 6;
    uint64_t lo = ~UINT64_C(0) << (off & 63), hi = ~UINT64_C(0) >> (63 - ((off + len - 1) & 63));
    if (la == le)
        return __builtin_popcountll(v[la] & lo & hi);
    int64_t n = __builtin_popcountll(v[la] & lo) + __builtin_popcountll(v[le] & hi);
    for (int64_t l = la + 1; l < le; l++)
        n += __builtin_popcountll(v[l]);
    return n;
}

#endif /* F2_INTERNAL_H */
