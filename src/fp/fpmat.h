/*
 * fpmat.h -- dense vectors and matrices over F_p (p a prime below 256) and
 * their row reduction: the odd-prime counterpart of f2mat.h.
 *
 * Layout of an fpmat_t with rows = 3, cols = 40, stride = 64 (bytes):
 *
 *            byte 0   1   2  ...  39   40 ... 63
 *   data -> [e00 e01 e02 ... e0,39 | 0 ...... 0 ]  row 0
 *           [e10 e11 e12 ... e1,39 | 0 ...... 0 ]  row 1
 *           [e20 e21 e22 ... e2,39 | 0 ...... 0 ]  row 2
 *            \________ cols ______/
 *            \___________ stride = 64 __________/
 *
 *   - One byte per entry, the entry's residue 0..p-1.  Entry (i, j) is byte
 *     j of row i; row i starts at data + i * stride.
 *   - stride is cols rounded up to a multiple of FP_ALIGN (32 bytes, one
 *     AVX2 register); data is 64-byte aligned (sq_aligned_calloc).
 *
 * Invariants (every function keeps them; fpmat_is_canonical checks them):
 *   - every entry is < p;
 *   - every byte past column cols - 1 of every row, up to the stride, is
 *     zero ("padding is zero");
 *   - a zeroed struct (rows = cols = stride = 0, p = 0, data = NULL) is a
 *     valid empty matrix, and fpmat_clear on it is a no-op.
 *
 * Why one byte per entry: it is the simple start the spec names, every
 * prime p < 256 fits, and the one inner loop (row -= a * pivot row) becomes
 * a byte-wise "subtract mod p" against a precomputed multiple of the pivot
 * row, which the compiler vectorises (16 or 32 entries per instruction)
 * with no division.  docs/odd-primes.md has the measurements.
 *
 * Canonical RREF (the same conventions as f2mat.h).  The reduced row
 * echelon form is unique once pivots are normalised to 1.  Every reducer
 * stores it the same way: the pivot rows first, in increasing order of
 * pivot column, each pivot entry 1 and each pivot column zero outside its
 * pivot row, zero rows last; pivots[c] = the row whose pivot is column c, or
 * -1.  The fast reducer and the naive oracle give identical bytes.
 *
 * Augmented matrices [A | I]: the identity segment starts at column
 * fp_seg_start(a_cols), the first multiple of FP_ALIGN at or after a_cols.
 *
 * Thread safety: functions touch only their arguments and per-call scratch.
 */
#ifndef FPMAT_H
#define FPMAT_H

#include <stdint.h>

#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Row strides and segment starts are multiples of FP_ALIGN bytes. */
#define FP_ALIGN 32
/* Largest prime supported (entries are bytes). */
#define FP_MAX_PRIME 251

/* 1 when p is a prime with 2 <= p < 256, else 0. */
int fp_prime_ok(uint32_t p);

/* The inverse of a mod p; a must be nonzero mod p (SQ_CHECK). */
uint32_t fp_inv(uint32_t a, uint32_t p);

/* n rounded up to a multiple of FP_ALIGN. */
static inline int64_t fp_seg_start(int64_t n)
{
    return (n + FP_ALIGN - 1) / FP_ALIGN * FP_ALIGN;
}

/* ---- Vectors: plain byte arrays of residues ------------------------------ */

/* dst[k] = (dst[k] + c * src[k]) mod p for k < n; c any integer >= 0.
 * Entries of dst and src must be < p.  dst and src must not overlap unless
 * equal (then dst = (1 + c) dst). */
void fpvec_addmul(uint8_t *dst, const uint8_t *src, int64_t n, uint32_t c, uint32_t p);

/* v[k] = c * v[k] mod p for k < n. */
void fpvec_scale(uint8_t *v, int64_t n, uint32_t c, uint32_t p);

/* dst[k] = (dst[k] - src[k]) mod p for k < n: the inner loop of the
 * reducer (src is a multiple of a pivot row).  Entries must be < p. */
void fpvec_sub_raw(uint8_t *restrict dst, const uint8_t *restrict src, int64_t n, uint32_t p);

/* Index of the first nonzero entry of v[0..n), or -1. */
int64_t fpvec_first_nonzero(const uint8_t *v, int64_t n);

/* 1 when v[0..n) is zero. */
int fpvec_is_zero(const uint8_t *v, int64_t n);

/* ---- Matrices ----------------------------------------------------------------- */

/* Dense matrix over F_p; see the picture above.  The struct is public so
 * the accessors can be inline; treat the fields as read-only outside fp. */
typedef struct {
    int64_t rows, cols;
    int64_t stride; /* bytes between the starts of consecutive rows */
    uint32_t p;
    uint8_t *data;  /* rows * stride bytes, 64-byte aligned; NULL when empty */
} fpmat_t;

/* Initialises m as the rows x cols zero matrix over F_p (rows, cols >= 0,
 * fp_prime_ok(p)).  m's old contents are ignored (not freed). */
void fpmat_init(fpmat_t *m, int64_t rows, int64_t cols, uint32_t p);

/* Frees m's storage and leaves a zeroed struct.  No-op on a zeroed struct. */
void fpmat_clear(fpmat_t *m);

/* Initialises m as a copy of src (m must not alias src). */
void fpmat_init_set(fpmat_t *m, const fpmat_t *src);

/* Sets every entry to zero. */
void fpmat_zero(fpmat_t *m);

/* Pointer to entry 0 of row i (0 <= i < rows; unchecked). */
static inline uint8_t *fpmat_row(const fpmat_t *m, int64_t i)
{
    return m->data + i * m->stride;
}

/* Entry (i, j), 0 <= i < rows, 0 <= j < cols (unchecked). */
static inline uint32_t fpmat_get(const fpmat_t *m, int64_t i, int64_t j)
{
    return fpmat_row(m, i)[j];
}

/* Sets entry (i, j) to v mod p (unchecked indices). */
static inline void fpmat_set(fpmat_t *m, int64_t i, int64_t j, uint32_t v)
{
    fpmat_row(m, i)[j] = (uint8_t)(v % m->p);
}

/* 1 when a and b have the same prime, dimensions and entries. */
int fpmat_equal(const fpmat_t *a, const fpmat_t *b);

/* 1 when every entry is < p and every padding byte is zero. */
int fpmat_is_canonical(const fpmat_t *m);

/* Fills m with uniformly random residues from r (padding stays zero).
 * density_256 / 256 is the chance that an entry is nonzero (256: uniform). */
void fpmat_randomize(fpmat_t *m, sq_rand_t *r, uint32_t density_256);

/* c = a * b by the schoolbook method; c must be a zeroed struct.  For tests. */
void fpmat_mul_naive(fpmat_t *c, const fpmat_t *a, const fpmat_t *b);

/* ---- Row reduction --------------------------------------------------------------- */

/* Reduces m in place to its canonical RREF (above) and returns the rank.
 * pivots, when not NULL, has m->cols entries and receives pivots[c] = row
 * or -1.  Dispatches: p = 3 to the bitsliced reducer (two bit planes per
 * row, 64 entries per six word operations; scratch rows * cols / 4 bytes),
 * every other prime to fpmat_rref_bytes.  All give identical results. */
int64_t fpmat_rref(fpmat_t *m, int64_t *pivots);

/* The byte reducer: Gauss-Jordan by columns; each pivot row is normalised,
 * its multiples a * row (a = 2..p-1, those needed) are formed once, and
 * every other row with a nonzero entry a in the pivot column subtracts the
 * multiple a from the pivot column on (fpvec_sub_raw).  Cost about
 * rank * rows * cols / 2 byte operations, vectorised; scratch p * stride
 * bytes. */
int64_t fpmat_rref_bytes(fpmat_t *m, int64_t *pivots);

/* The schoolbook Gauss-Jordan reducer, entry by entry with '%': the
 * oracle for fpmat_rref (same bytes, same pivots). */
int64_t fpmat_rref_naive(fpmat_t *m, int64_t *pivots);

/* Rank of m (m is not modified). */
int64_t fpmat_rank(const fpmat_t *m);

/* ---- Augmented matrices [A | I] ---------------------------------------------------- */

/* Initialises m as [0 | I]: rows x (fp_seg_start(a_cols) + rows), with the
 * identity starting at column fp_seg_start(a_cols).  The caller fills the A
 * part (columns < a_cols). */
void fpmat_init_aug(fpmat_t *m, int64_t rows, int64_t a_cols, uint32_t p);

/* After fpmat_rref of [A | I]: the kernel of x -> x * A (F_p^rows ->
 * F_p^a_cols): the I-segments of the rows whose pivot lies in the I
 * segment, in order, as a (rows - rank A) x rows matrix in canonical RREF.
 * ker must be a zeroed struct. */
void fpmat_aug_kernel(fpmat_t *ker, const fpmat_t *m, const int64_t *pivots, int64_t a_cols);

/* After fpmat_rref of [A | I]: the quasi-inverse.  For v (a_cols entries)
 * in the image of A, adds into out (m->rows entries) v[c] times the
 * I-segment of row pivots[c], for every pivot column c < a_cols; then
 * (out - old out) * A = v.  Non-pivot columns of v are ignored (zero when v
 * is in the image).  out must not alias v or m. */
void fpmat_aug_qi_apply(uint8_t *out, const fpmat_t *m, const int64_t *pivots, int64_t a_cols,
                        const uint8_t *v);

/* The kernel and the image pivots of A at once, as fpmat_init_aug + fpmat_rref
 * + fpmat_aug_kernel would give them, without forming [A | I] as bytes:
 * pivots[c] (A->cols entries, may be NULL) as the first A->cols entries of
 * the pivots of the RREF of [A | I] (the row of column c among the pivot
 * rows of A, or -1), ker (a zeroed struct, initialised here) the kernel of
 * x -> x A in canonical RREF.  Returns the rank of A; A is not modified.
 * At p = 3 a bitsliced elimination that reduces back only the kernel rows
 * (the resolution's step needs nothing else); elsewhere the generic path. */
int64_t fpmat_kernel(fpmat_t *ker, int64_t *pivots, const fpmat_t *a);

#ifdef __cplusplus
}
#endif

#endif /* FPMAT_H */
