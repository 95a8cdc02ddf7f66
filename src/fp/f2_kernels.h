/*
 * f2_kernels.h -- the raw inner loops of F_2 linear algebra, one
 * implementation per instruction set, chosen once at run time.
 *
 * kernels_generic.c is the portable reference; kernels_avx2.c is compiled
 * with -mavx2 and used when the CPU has AVX2.  The choice is made once, on
 * first use, under pthread_once, and never changes; the environment variable
 * SQ_SIMD=generic forces the portable kernels.  ISA #ifdefs live only in the
 * kernels_*.c files.
 *
 * "raw" functions take limb pointers and lengths; they do no allocation and
 * no aliasing checks.  Unless stated otherwise, destination and sources must
 * not overlap (identical pointers are not allowed either).  No alignment is
 * required.  All are safe to call from several threads at once.
 */
#ifndef F2_KERNELS_H
#define F2_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] ^= src[i] for 0 <= i < nlimbs (dispatched). */
void f2_xor_raw(uint64_t *dst, const uint64_t *src, int64_t nlimbs);

/*
 * The M4RI table kernels.  A table group of k index bits is 2^k entries of
 * `estride` limbs each, entry x being the XOR of the source rows selected by
 * the bits of x.  A table block holds ngroups groups back to back (group g
 * starts at entry g << k).
 *
 * table_build: builds one group from kk <= 8 source rows (row j at
 * prow + j * pstride, w limbs each) into T: entry x (x < 2^kk) gets the XOR of
 * the rows j with bit j of x set, on its first w limbs.  Entry 0 is zeroed.
 *
 * table_apply: for each row i < nrows (row i at rows + i * stride) with
 * u[i] != 0, XORs into its first w limbs the entries ((u[i] >> g*k) & (2^k-1))
 * of group g, for every g < ngroups.  ngroups * k <= 64.  Entry 0 of every
 * group must be zero (table_build makes it so): the kernel may XOR it in
 * rather than test for it.  Rows with u[i] == 0 are not touched.  Tables must
 * not overlap the rows.
 */
typedef struct {
    const char *name; /* "generic" or "avx2" */
    void (*xor_raw)(uint64_t *dst, const uint64_t *src, int64_t nlimbs);
    void (*table_build)(uint64_t *T, int64_t estride, const uint64_t *prow, int64_t pstride, int kk,
                        int64_t w);
    void (*table_apply)(uint64_t *rows, int64_t stride, int64_t nrows, const uint64_t *u,
                        const uint64_t *tables, int64_t estride, int k, int ngroups, int64_t w);
} f2_kernels_t;

/* The kernels in use (chosen once; never NULL). */
const f2_kernels_t *f2_kernels(void);
/* The portable reference kernels (never NULL). */
const f2_kernels_t *f2_kernels_generic(void);
/* The AVX2 kernels, or NULL when not compiled in or the CPU lacks AVX2. */
const f2_kernels_t *f2_kernels_avx2(void);

#ifdef __cplusplus
}
#endif

#endif /* F2_KERNELS_H */
