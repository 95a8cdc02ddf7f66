/*
 * f2mat.h -- dense bit-packed matrices over F_2 and their row reduction.
 *
 * Layout of an f2mat_t with rows = 3, cols = 130, stride = 4 (limbs):
 *
 *            limb 0 (cols 0..63)   limb 1 (64..127)   limb 2 (128..129)   limb 3
 *   data -> [b63 ........... b0 ] [b63 ........ b0 ] [0 ... 0 b1 b0    ] [0 ... 0]  row 0
 *           [                   ] [                ] [0 ... 0 b1 b0    ] [0 ... 0]  row 1
 *           [                   ] [                ] [0 ... 0 b1 b0    ] [0 ... 0]  row 2
 *            \______________ f2_limbs(cols) = 3 ______________________/
 *            \______________________ stride = 4 limbs ___________________________/
 *
 *   - Entry (i, j) is bit (j % 64) of limb j / 64 of row i; row i starts at
 *     data + i * stride.  Column 0 is the least significant bit of limb 0.
 *   - stride >= f2_limbs(cols); data is 64-byte aligned (sq_aligned_calloc).
 *     f2mat_init rounds the stride up to a multiple of 4 limbs (32 bytes, one
 *     AVX2 register) once a row has more than 4 limbs.
 *
 * Invariants (every function keeps them, f2mat_is_canonical checks them):
 *   - every bit past column cols - 1 of every row, up to the end of the
 *     stride, is zero ("padding is zero");
 *   - a zeroed struct (rows = cols = stride = 0, data = NULL) is a valid empty
 *     matrix, and f2mat_clear on it is a no-op.
 *
 * Canonical RREF.  The reduced row echelon form of a matrix is unique.  Every
 * reducer here stores it the same way: the pivot rows first, in increasing
 * order of pivot column, each pivot column zero outside its pivot row, zero
 * rows last; pivots[c] = the row whose pivot is column c, or -1.  All
 * reducers (naive, M4RI, and any future threaded or GPU one) give identical
 * bits, which the tests check.
 *
 * Augmented matrices [A | I]: segments start on a limb boundary.  A has a_cols
 * columns; the identity block starts at column f2_seg_start(a_cols).
 *
 * Thread safety: functions touch only their arguments and per-call scratch;
 * different matrices may be used from different threads concurrently.
 */
#ifndef F2MAT_H
#define F2MAT_H

#include <stdint.h>

#include "sq_core.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

#define F2_LIMB_BITS 64

/* Number of 64-bit limbs needed for cols bits: ceil(cols / 64).  cols >= 0. */
static inline int64_t f2_limbs(int64_t cols)
{
    return (cols + F2_LIMB_BITS - 1) / F2_LIMB_BITS;
}

/* The first column of the limb-aligned segment that follows cols columns:
 * 64 * f2_limbs(cols). */
static inline int64_t f2_seg_start(int64_t cols)
{
    return F2_LIMB_BITS * f2_limbs(cols);
}

/* Dense matrix over F_2; see the picture above.  The struct is public so the
 * accessors below can be inline; treat the fields as read-only outside fp. */
typedef struct {
    int64_t rows, cols;
    int64_t stride; /* limbs between the starts of consecutive rows */
    uint64_t *data; /* rows * stride limbs, 64-byte aligned; NULL when empty */
} f2mat_t;

/* ---- Life cycle ----------------------------------------------------------- */

/* Initialises m as the rows x cols zero matrix (rows, cols >= 0).  m's old
 * contents are ignored (not freed).  Cost O(rows * cols / 64). */
void f2mat_init(f2mat_t *m, int64_t rows, int64_t cols);

/* Frees m's storage and leaves m as a zeroed struct.  A no-op on a zeroed or
 * already cleared struct. */
void f2mat_clear(f2mat_t *m);

/* Initialises m as a copy of src (same dimensions and bits; m gets its own
 * storage and the default stride).  m must not alias src. */
void f2mat_init_set(f2mat_t *m, const f2mat_t *src);

/* Exchanges the contents of a and b in O(1). */
void f2mat_swap(f2mat_t *a, f2mat_t *b);

/* Sets every entry of m to zero (dimensions unchanged). */
void f2mat_zero(f2mat_t *m);

/* ---- Entries ---------------------------------------------------------------- */

/* Pointer to limb 0 of row i (0 <= i < rows).  The row has f2_limbs(cols)
 * meaningful limbs; writers must keep the bits past cols zero. */
static inline uint64_t *f2mat_row(const f2mat_t *m, int64_t i)
{
    return m->data + i * m->stride;
}

/* Entry (i, j) as 0 or 1; 0 <= i < rows, 0 <= j < cols (unchecked). */
static inline int f2mat_get(const f2mat_t *m, int64_t i, int64_t j)
{
    return (int)((f2mat_row(m, i)[j / F2_LIMB_BITS] >> (j % F2_LIMB_BITS)) & 1);
}

/* Sets entry (i, j) to v & 1; indices unchecked. */
static inline void f2mat_set(f2mat_t *m, int64_t i, int64_t j, int v)
{
    uint64_t *w = &f2mat_row(m, i)[j / F2_LIMB_BITS];
    uint64_t bit = (uint64_t)1 << (j % F2_LIMB_BITS);
    *w = (v & 1) ? (*w | bit) : (*w & ~bit);
}

/* Adds 1 to entry (i, j); indices unchecked. */
static inline void f2mat_flip(f2mat_t *m, int64_t i, int64_t j)
{
    f2mat_row(m, i)[j / F2_LIMB_BITS] ^= (uint64_t)1 << (j % F2_LIMB_BITS);
}

/* ---- Comparison, checks, random matrices, products -------------------------- */

/* 1 when a and b have the same dimensions and entries (strides may differ),
 * else 0. */
int f2mat_equal(const f2mat_t *a, const f2mat_t *b);

/* 1 when every padding bit of m (past cols, up to the stride) is zero. */
int f2mat_is_canonical(const f2mat_t *m);

/* Fills m with uniformly random bits from r; padding stays zero. */
void f2mat_randomize(f2mat_t *m, sq_rand_t *r);

/* c = a * b by the schoolbook method (cost O(a.rows * a.cols * b.cols / 64)).
 * Requires a->cols == b->rows.  c must be a zeroed/cleared struct; it is
 * initialised here as a->rows x b->cols.  For tests and benchmarks. */
void f2mat_mul_naive(f2mat_t *c, const f2mat_t *a, const f2mat_t *b);

/* ---- Row reduction ----------------------------------------------------------- */

/* Reduces m in place to its canonical RREF (see above) and returns the rank.
 * pivots, when not NULL, has m->cols entries and receives pivots[c] = row or
 * -1.  All variants give identical bits and pivots.  Any stride >= the
 * limbs of a row is accepted; padding stays zero.
 *
 * f2mat_rref dispatches: the naive reducer for matrices of at most 48 rows
 * (NAIVE_MAX_ROWS in rref.c, where the measurement behind it is recorded),
 * the M4RI reducer otherwise.  Nothing global is touched, so concurrent
 * calls on different matrices are safe. */
int64_t f2mat_rref(f2mat_t *m, int64_t *pivots);

/* The schoolbook Gauss-Jordan reducer, O(rank * rows * cols / 64) limb
 * operations, no scratch.  Kept forever as the oracle for every faster
 * reducer. */
int64_t f2mat_rref_naive(f2mat_t *m, int64_t *pivots);

/* Method of Four Russians reducer (rref_m4ri.c): 64-column panels, up to
 * eight 2^8-entry tables per panel applied in one pass over the rows, then a
 * back-substitution that only touches limbs holding non-pivot columns.  For
 * dense input about rows * cols * rank / 1536 limb XORs forward plus
 * rank^2 * (non-pivot columns) / 1024 back.  Per-call scratch: 8 bytes per
 * row, ~40 KiB, and up to 0.75 MiB of tables and tiles (less for narrow
 * matrices). */
int64_t f2mat_rref_m4ri(f2mat_t *m, int64_t *pivots);

/* f2mat_rref with the table application of large reductions split into
 * column ranges and row blocks over the idle threads of pool (NULL:
 * serial; the split depends on the pool's size).  The same bits as
 * f2mat_rref: every row is updated by the same tables, whichever thread
 * does it.  Thread-safe for distinct m. */
int64_t f2mat_rref_pool(f2mat_t *m, int64_t *pivots, sq_pool_t *pool);
int64_t f2mat_rref_m4ri_pool(f2mat_t *m, int64_t *pivots, sq_pool_t *pool);

/* Rank of m (m is not modified; a copy is reduced). */
int64_t f2mat_rank(const f2mat_t *m);

/* ---- Augmented matrices [A | I] ------------------------------------------------ */

/* Initialises m as [0 | I]: rows x (f2_seg_start(a_cols) + rows), with the
 * rows x rows identity starting at column f2_seg_start(a_cols).  The caller
 * then fills the A part (columns < a_cols). */
void f2mat_init_aug(f2mat_t *m, int64_t rows, int64_t a_cols);

/* After f2mat_rref(m, pivots) of an augmented [A | I]: the rank of A, i.e. the
 * number of pivots in columns < a_cols (those are rows 0 .. rank-1). */
int64_t f2mat_aug_rank(const f2mat_t *m, const int64_t *pivots, int64_t a_cols);

/* After f2mat_rref(m, pivots) of an augmented [A | I]: the kernel of A, seen
 * as the map x -> x * A from F_2^rows to F_2^a_cols.  ker receives the
 * I-segments of the rows whose pivot lies in the I segment, in order: a
 * (rows - rank A) x rows matrix in canonical RREF.  ker must be a
 * zeroed/cleared struct; it is initialised here. */
void f2mat_aug_kernel(f2mat_t *ker, const f2mat_t *m, const int64_t *pivots, int64_t a_cols);

/* After f2mat_rref(m, pivots) of an augmented [A | I]: the quasi-inverse.
 * For v (a_cols bits) in the image of A, XORs into out (m->rows bits) the
 * I-segments of the rows pivots[c] for the columns c < a_cols with v[c] = 1;
 * then (out XOR old out) * A = v.  Columns c of v that are not pivots are
 * ignored (they are 0 when v is in the image).  out must not alias v or m. */
void f2mat_aug_qi_apply(uint64_t *out, const f2mat_t *m, const int64_t *pivots, int64_t a_cols,
                        const uint64_t *v);

/* ---- Bit vectors ------------------------------------------------------------------ */

/* Index of the first set bit among the first n bits of v, or -1. */
int64_t f2_first_bit(const uint64_t *v, int64_t n);

/* dst = bits off .. off + len - 1 of src (so bit k of dst is bit off + k of
 * src), f2_limbs(len) limbs written, bits past len zero.  src must hold
 * off + len bits; dst may not overlap it.  Returns 1 when a bit is set.
 * Cost: O(len / 64) (word shifts). */
int f2_copy_bits(uint64_t *dst, const uint64_t *src, int64_t off, int64_t len);

#ifdef __cplusplus
}
#endif

#endif /* F2MAT_H */
