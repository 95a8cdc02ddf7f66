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
 *
 * guard_scan4: the packed-field test of milnor_op.c (Milnor products by
 * configurations), four words sg[0..3] against n pairs (c[k], dg[k]): lane i
 * of pair k passes iff ((sg[i] - c[k]) & dg[k]) == guard (with guard bits
 * above packed fields: c[k] fits under sg[i] field by field and sg[i] - c[k]
 * misses dg[k]).  Writes hits[j] = (k << 4) | m, m the 4-bit mask of the
 * lanes that pass (bit i for lane i), for each k with m != 0, in increasing
 * k, and returns their number.  hits has room for n entries; n < 2^28.
 *
 * popcount_range: the number of set bits of v in bit positions
 * [off, off + len) (0 when len <= 0).  The AVX2 build counts with the popcnt
 * instruction (every AVX2 CPU has it); the portable one with the compiler's
 * builtin, a library call where the baseline ISA has no popcnt.
 */
typedef struct {
    const char *name; /* "generic" or "avx2" */
    void (*xor_raw)(uint64_t *dst, const uint64_t *src, int64_t nlimbs);
    void (*table_build)(uint64_t *T, int64_t estride, const uint64_t *prow, int64_t pstride, int kk,
                        int64_t w);
    void (*table_apply)(uint64_t *rows, int64_t stride, int64_t nrows, const uint64_t *u,
                        const uint64_t *tables, int64_t estride, int k, int ngroups, int64_t w);
    int64_t (*guard_scan4)(uint32_t *hits, const uint64_t *c, const uint64_t *dg, int64_t n,
                           const uint64_t *sg, uint64_t guard);
    int64_t (*popcount_range)(const uint64_t *v, int64_t off, int64_t len);
} f2_kernels_t;

/* The kernels in use (chosen once; never NULL). */
const f2_kernels_t *f2_kernels(void);
/* The portable reference kernels (never NULL). */
const f2_kernels_t *f2_kernels_generic(void);
/* The AVX2 kernels, or NULL when not compiled in or the CPU lacks AVX2. */
const f2_kernels_t *f2_kernels_avx2(void);

/*
 * One limb of a panel (rref_m4ri.c's forward step, the GPU path's host scan
 * in gpu_rref.c): a reduced basis of up to 64 words, word t with the pivot
 * bit pcol[t] (t_of_bit[pcol[t]] = t, pivmask the pivot bits) and zero on
 * every other pivot bit; comb[t] the combination of the rows that gives it,
 * bit s for the row of pivot s (ppos[s]).
 */
typedef struct {
    uint64_t basis[64], comb[64], pivmask;
    int pcol[64], t_of_bit[64], P;
    int64_t ppos[64];
} f2_panel_t;

/* An empty basis. */
static inline void f2_panel_init(f2_panel_t *pb)
{
    pb->pivmask = 0;
    pb->P = 0;
}

/* *w ^= the basis words at its pivot bits, *c ^= their combinations: since
 * the basis is reduced, each pivot bit of *w is read once. */
static inline void f2_panel_reduce(const f2_panel_t *pb, uint64_t *w, uint64_t *c)
{
    for (uint64_t x = *w & pb->pivmask; x; x &= x - 1) {
        int t = pb->t_of_bit[__builtin_ctzll(x)];
        *w ^= pb->basis[t];
        *c ^= pb->comb[t];
    }
}

/* Adds the reduced nonzero word w (the combination c of earlier rows) of
 * row i as pivot P at its lowest bit, cleared from the other basis words
 * (branch-free). */
static inline void f2_panel_add(f2_panel_t *pb, uint64_t w, uint64_t c, int64_t i)
{
    const int P = pb->P, b = __builtin_ctzll(w);
    const uint64_t nc = c ^ ((uint64_t)1 << P);
    for (int s = 0; s < P; s++) {
        uint64_t sel = (uint64_t)0 - ((pb->basis[s] >> b) & 1);
        pb->basis[s] ^= w & sel;
        pb->comb[s] ^= nc & sel;
    }
    pb->basis[P] = w;
    pb->comb[P] = nc;
    pb->pcol[P] = b;
    pb->ppos[P] = i;
    pb->t_of_bit[b] = P;
    pb->pivmask |= (uint64_t)1 << b;
    pb->P = P + 1;
}

/* Byte tables of the words vec[0..nbits): tab[b][x] = XOR of vec[8b + j]
 * over the bits j of x (vec[bit] = 0 from nbits on), for the bytes b with
 * 8b < nbits. */
static inline void f2_byte_tables(uint64_t (*tab)[256], const uint64_t *vec, int nbits)
{
    for (int b = 0; b * 8 < nbits; b++) {
        uint64_t *T = tab[b];
        T[0] = 0;
        for (int j = 0; j < 8; j++) {
            int bit = 8 * b + j;
            uint64_t v = bit < nbits ? vec[bit] : 0;
            int half = 1 << j;
            for (int x = 0; x < half; x++)
                T[half + x] = T[x] ^ v;
        }
    }
}

/* The XOR of the words of vec at the bits of w, through its byte tables
 * (the low nbytes bytes of w). */
static inline uint64_t f2_byte_lookup(const uint64_t (*tab)[256], uint64_t w, int nbytes)
{
    uint64_t c = 0;
    for (int b = 0; b < nbytes; b++)
        c ^= tab[b][(w >> (8 * b)) & 255];
    return c;
}

#ifdef __cplusplus
}
#endif

#endif /* F2_KERNELS_H */
