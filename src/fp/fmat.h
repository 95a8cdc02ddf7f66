/*
 * fmat.h -- vectors and matrices over a prime field F_p, tagged with their
 * field: one interface over the bit-packed F_2 matrices of f2mat.h and the
 * byte matrices of fpmat.h (docs/architecture.md, "the field handle").
 *
 * Layout.  An fmat_t is a tag and one of the two existing matrices:
 *
 *      fmat_t { p = 2  | f2 : f2mat_t (bit-packed limbs, f2mat.h's picture) }
 *      fmat_t { p odd  | fp : fpmat_t (one byte per entry, fpmat.h's picture) }
 *      fmat_t { p = 0  | nothing: the zeroed struct, a valid empty matrix }
 *
 * The field's encoding of a vector ("the encoding" below): at p = 2 a
 * uint64_t array, entry k being bit k % 64 of limb k / 64; at odd p a
 * uint8_t array, entry k being byte k (its residue 0..p-1).  A row of an
 * fmat_t is such a vector; so are the vectors of the algebra (stalg.h) and
 * of the modules above.
 *
 * An fvec_t is a view of a vector in the encoding: the prime, the length in
 * entries and a pointer (limbs or bytes).  fmat_row() makes one for a row of
 * a matrix (borrowed: the matrix outlives it); fvec_init() allocates one
 * that the caller frees with fvec_clear().
 *
 * Invariants: those of f2mat.h / fpmat.h (entries < p, padding zero past
 * the last column of every row); every function keeps them.  A vector's
 * storage past its length (the rest of the last limb) is zero as well.
 *
 * Dispatch.  Every matrix operation here tests p once and calls the
 * existing f2mat_* or fpmat_* function: the F_2 path is today's (M4RI
 * tables, AVX2 kernels), nothing is copied, and no inner loop tests p.  The
 * entry accessors (fmat_get, fvec_set, ...) test p per call: they are for
 * setting up and checking, never for a hot loop (which takes the limbs or
 * bytes of the view and runs the field's own loop).
 *
 * Canonical RREF and augmented matrices [A | I]: as in f2mat.h and fpmat.h
 * (the same conventions at every prime); the identity segment starts at
 * column fmat_seg_start(p, a_cols): a limb boundary at p = 2, a multiple of
 * FP_ALIGN at odd p.
 *
 * Thread safety: functions touch only their arguments and per-call scratch;
 * different matrices may be used from different threads concurrently.
 */
#ifndef FMAT_H
#define FMAT_H

#include <stdint.h>
#include <string.h>

#include "f2mat.h"
#include "fpmat.h"
#include "sq_core.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when p is a field fmat supports: 2 (bit-packed) or an odd prime below
 * 256 (bytes). */
int fmat_prime_ok(uint32_t p);

/* ---- Vectors in the field's encoding -------------------------------------- */

/* A vector of len entries over F_p; see the picture above.  limbs is used at
 * p = 2, bytes at odd p.  A zeroed struct (p = 0, len = 0) is an empty
 * vector. */
typedef struct {
    uint32_t p;
    int64_t len;
    union {
        uint64_t *limbs; /* p = 2: f2_limbs(len) limbs */
        uint8_t *bytes;  /* odd p: len bytes */
    };
} fvec_t;

/* Number of bytes the encoding of len entries takes at p (p = 2: 8 bytes a
 * limb, whole limbs; odd p: len).  len >= 0. */
static inline size_t fvec_bytes_for(uint32_t p, int64_t len)
{
    return p == 2 ? (size_t)f2_limbs(len) * sizeof(uint64_t) : (size_t)len;
}

/* Initialises v as the zero vector of len entries over F_p, with its own
 * storage (at least one limb or byte, so the pointer is never NULL).
 * Preconditions (SQ_CHECK): fmat_prime_ok(p), len >= 0.  Ownership: the
 * caller frees it with fvec_clear.  Cost O(len) bytes zeroed. */
void fvec_init(fvec_t *v, int64_t len, uint32_t p);

/* Frees the storage of a vector from fvec_init and zeroes v; a no-op on a
 * zeroed struct.  Never call it on a view (fmat_row, fvec_view_*). */
void fvec_clear(fvec_t *v);

/* A view of len entries at limbs (p = 2), borrowed: limbs must hold
 * f2_limbs(len) limbs with zero padding and outlive the view. */
static inline fvec_t fvec_view_limbs(uint64_t *limbs, int64_t len)
{
    fvec_t v = {.p = 2, .len = len};
    v.limbs = limbs;
    return v;
}

/* A view of len entries at bytes (odd p), borrowed as fvec_view_limbs. */
static inline fvec_t fvec_view_bytes(uint8_t *bytes, int64_t len, uint32_t p)
{
    fvec_t v = {.p = p, .len = len};
    v.bytes = bytes;
    return v;
}

/* The view of entries start .. start + len - 1 of v.  Preconditions
 * (SQ_CHECK): 0 <= start, start + len <= v.len, and at p = 2 start a
 * multiple of 64 (a limb boundary: the augmented segments are).  At p = 2
 * the bits past len in the last limb are those of v: a window that ends
 * inside a limb is for reading, or for writing through functions that keep
 * those bits (fvec_set, fvec_add_entry). */
fvec_t fvec_window(fvec_t v, int64_t start, int64_t len);

/* Entry j of v as a residue 0..p-1; 0 <= j < v.len (unchecked).  Per-entry
 * dispatch: not for inner loops. */
static inline uint32_t fvec_get(fvec_t v, int64_t j)
{
    if (v.p == 2)
        return (uint32_t)((v.limbs[j / F2_LIMB_BITS] >> (j % F2_LIMB_BITS)) & 1);
    return v.bytes[j];
}

/* Sets entry j of v to x mod p; 0 <= j < v.len (unchecked). */
static inline void fvec_set(fvec_t v, int64_t j, uint32_t x)
{
    if (v.p == 2) {
        uint64_t *w = &v.limbs[j / F2_LIMB_BITS];
        uint64_t bit = (uint64_t)1 << (j % F2_LIMB_BITS);
        *w = (x & 1) ? (*w | bit) : (*w & ~bit);
    } else {
        v.bytes[j] = (uint8_t)(x % v.p);
    }
}

/* Adds x (any value; reduced mod p) to entry j of v; 0 <= j < v.len
 * (unchecked). */
static inline void fvec_add_entry(fvec_t v, int64_t j, uint32_t x)
{
    if (v.p == 2)
        v.limbs[j / F2_LIMB_BITS] ^= (uint64_t)(x & 1) << (j % F2_LIMB_BITS);
    else
        v.bytes[j] = (uint8_t)(((uint32_t)v.bytes[j] + x % v.p) % v.p);
}

/* Sets every entry of v to zero.  Cost O(len). */
void fvec_zero(fvec_t v);

/* 1 when every entry of v is zero.  Cost O(len). */
int fvec_is_zero(fvec_t v);

/* 1 when a and b have the same prime, length and entries. */
int fvec_equal(fvec_t a, fvec_t b);

/* Index of the first nonzero entry of v, or -1.  Cost O(len). */
int64_t fvec_first_nonzero(fvec_t v);

/* dst += c * src, entrywise mod p (c any value, reduced mod p; at p = 2 an
 * XOR of the limbs when c is odd).  Preconditions (SQ_CHECK): same prime,
 * src.len <= dst.len (only the first src.len entries of dst change; at p =
 * 2 src's padding bits must be zero).  dst and src must not overlap.  Cost
 * O(src.len / 64) word XORs (p = 2, AVX2 when available) or O(src.len)
 * vectorised byte operations (odd p). */
void fvec_addmul(fvec_t dst, fvec_t src, uint32_t c);

/* v = c * v (c reduced mod p; at p = 2 zero when c is even).  Cost O(len). */
void fvec_scale(fvec_t v, uint32_t c);

/* ---- Matrices --------------------------------------------------------------- */

/* A matrix over F_p: the tag and the matrix of the field.  The struct is
 * public so the accessors can be inline; treat the fields as read-only
 * outside fp.  The f2 / fp members may be handed to the f2mat_* / fpmat_*
 * functions that read or write entries (fmat_f2 / fmat_fp), not to those
 * that (re)initialise them. */
typedef struct {
    uint32_t p; /* 0 for a zeroed struct */
    union {
        f2mat_t f2; /* p = 2 */
        fpmat_t fp; /* odd p */
    };
} fmat_t;

/* The prime of m (0 for a zeroed struct). */
static inline uint32_t fmat_prime(const fmat_t *m)
{
    return m->p;
}

/* Number of rows of m (0 for a zeroed struct). */
static inline int64_t fmat_rows(const fmat_t *m)
{
    return m->p == 2 ? m->f2.rows : m->fp.rows;
}

/* Number of columns of m (0 for a zeroed struct). */
static inline int64_t fmat_cols(const fmat_t *m)
{
    return m->p == 2 ? m->f2.cols : m->fp.cols;
}

/* The F_2 matrix inside m.  Precondition (SQ_ASSERT): m->p == 2. */
static inline f2mat_t *fmat_f2(fmat_t *m)
{
    SQ_ASSERT(m->p == 2);
    return &m->f2;
}

/* The F_p matrix inside m.  Precondition (SQ_ASSERT): m->p odd. */
static inline fpmat_t *fmat_fp(fmat_t *m)
{
    SQ_ASSERT(m->p > 2);
    return &m->fp;
}

/* A view of an existing F_2 matrix as an fmat_t (a copy of its header
 * sharing its storage), for callers that hold an f2mat_t while the layers
 * above move to fmat_t.  Entries written through the view are m's.  Never
 * fmat_clear, fmat_swap or re-initialise a view, and do not re-initialise m
 * while the view is in use.  O(1). */
static inline fmat_t fmat_view_f2(const f2mat_t *m)
{
    fmat_t v;
    memset(&v, 0, sizeof v);
    v.p = 2;
    v.f2 = *m;
    return v;
}

/* The same for an F_p matrix at an odd prime (m->p odd, or m zeroed: then
 * the view is zeroed as well). */
static inline fmat_t fmat_view_fp(const fpmat_t *m)
{
    fmat_t v;
    memset(&v, 0, sizeof v);
    v.p = m->p;
    v.fp = *m;
    return v;
}

/* Initialises m as the rows x cols zero matrix over F_p: f2mat_init at
 * p = 2, fpmat_init at odd p.  Preconditions (SQ_CHECK): fmat_prime_ok(p),
 * rows, cols >= 0.  m's old contents are ignored (not freed).  Ownership:
 * free with fmat_clear.  Cost O(rows * cols / 64) or O(rows * cols) bytes. */
void fmat_init(fmat_t *m, int64_t rows, int64_t cols, uint32_t p);

/* Frees m's storage and leaves a zeroed struct; a no-op on a zeroed or
 * cleared struct. */
void fmat_clear(fmat_t *m);

/* Initialises m as a copy of src (same prime, dimensions, entries; m gets
 * its own storage).  m must not alias src.  A zeroed src gives a zeroed m. */
void fmat_init_set(fmat_t *m, const fmat_t *src);

/* Exchanges a and b in O(1) (primes included). */
void fmat_swap(fmat_t *a, fmat_t *b);

/* Sets every entry of m to zero (dimensions unchanged). */
void fmat_zero(fmat_t *m);

/* A view of row i of m (0 <= i < rows, unchecked), cols entries, borrowed:
 * m outlives it and is not re-initialised meanwhile.  Writers keep the
 * padding zero (fvec_set and fvec_addmul do). */
static inline fvec_t fmat_row(const fmat_t *m, int64_t i)
{
    fvec_t v = {.p = m->p, .len = fmat_cols(m)};
    if (m->p == 2)
        v.limbs = f2mat_row(&m->f2, i);
    else
        v.bytes = fpmat_row(&m->fp, i);
    return v;
}

/* Entry (i, j) as a residue; indices unchecked.  Per-entry dispatch. */
static inline uint32_t fmat_get(const fmat_t *m, int64_t i, int64_t j)
{
    return m->p == 2 ? (uint32_t)f2mat_get(&m->f2, i, j) : fpmat_get(&m->fp, i, j);
}

/* Sets entry (i, j) to x mod p; indices unchecked.  Per-entry dispatch. */
static inline void fmat_set(fmat_t *m, int64_t i, int64_t j, uint32_t x)
{
    if (m->p == 2)
        f2mat_set(&m->f2, i, j, (int)(x & 1));
    else
        fpmat_set(&m->fp, i, j, x);
}

/* 1 when a and b have the same prime, dimensions and entries (strides may
 * differ), else 0. */
int fmat_equal(const fmat_t *a, const fmat_t *b);

/* 1 when m keeps its field's invariants (entries < p, padding zero); 1 for
 * a zeroed struct. */
int fmat_is_canonical(const fmat_t *m);

/* Fills m with uniformly random entries from r (f2mat_randomize;
 * fpmat_randomize with density 256).  For tests and benchmarks. */
void fmat_randomize(fmat_t *m, sq_rand_t *r);

/* c = a * b by the schoolbook method (f2mat_mul_naive / fpmat_mul_naive).
 * Preconditions (SQ_CHECK): same prime, a's cols == b's rows; c a zeroed
 * struct, initialised here.  For tests. */
void fmat_mul_naive(fmat_t *c, const fmat_t *a, const fmat_t *b);

/* out += v * a: the row vector v (a's rows entries) times a, added into
 * out (a's cols entries).  Preconditions (SQ_CHECK): same prime, v.len ==
 * rows, out.len == cols.  out must not overlap v or a.  Cost: one
 * fvec_addmul per nonzero entry of v. */
void fmat_vec_mul_add(fvec_t out, fvec_t v, const fmat_t *a);

/* ---- Row reduction ------------------------------------------------------------ */

/* Reduces m in place to its canonical RREF and returns the rank; pivots,
 * when not NULL, has cols entries and receives pivots[c] = row or -1.
 * f2mat_rref at p = 2 (naive up to 48 rows, M4RI beyond), fpmat_rref at odd
 * p (bitsliced at p = 3, bytes otherwise).  Any size, 0 rows or columns
 * included. */
int64_t fmat_rref(fmat_t *m, int64_t *pivots);

/* fmat_rref with the work of large reductions over the idle threads of
 * pool (NULL: serial): f2mat_rref_pool at p = 2; at odd p fpmat has no
 * parallel reducer, so fpmat_rref, serial (pool unused).  The same bits as
 * fmat_rref whatever the pool.  Thread-safe for distinct m. */
int64_t fmat_rref_pool(fmat_t *m, int64_t *pivots, sq_pool_t *pool);

/* The schoolbook reducer of the field (f2mat_rref_naive / fpmat_rref_naive):
 * the oracle, the same bits as fmat_rref. */
int64_t fmat_rref_naive(fmat_t *m, int64_t *pivots);

/* Rank of m (m is not modified: a copy is reduced). */
int64_t fmat_rank(const fmat_t *m);

/* ---- Augmented matrices [A | I] ----------------------------------------------------- */

/* The first column of the identity segment after a_cols columns of A:
 * f2_seg_start(a_cols) at p = 2, fp_seg_start(a_cols) at odd p. */
static inline int64_t fmat_seg_start(uint32_t p, int64_t a_cols)
{
    return p == 2 ? f2_seg_start(a_cols) : fp_seg_start(a_cols);
}

/* Initialises m as [0 | I]: rows x (fmat_seg_start(p, a_cols) + rows), the
 * identity starting at fmat_seg_start(p, a_cols); the caller fills the A
 * part (columns < a_cols, e.g. through fmat_row).  Preconditions as
 * fmat_init; rows, a_cols >= 0. */
void fmat_init_aug(fmat_t *m, int64_t rows, int64_t a_cols, uint32_t p);

/* After fmat_rref(m, pivots) of an augmented [A | I]: the rank of A (the
 * pivots in columns < a_cols). */
int64_t fmat_aug_rank(const fmat_t *m, const int64_t *pivots, int64_t a_cols);

/* After fmat_rref(m, pivots) of an augmented [A | I]: the kernel of x -> x A
 * (F_p^rows -> F_p^a_cols), a (rows - rank A) x rows matrix in canonical
 * RREF over m's field.  ker must be a zeroed struct; it is initialised
 * here.  Cost O(nullity * rows) entries copied. */
void fmat_aug_kernel(fmat_t *ker, const fmat_t *m, const int64_t *pivots, int64_t a_cols);

/* After fmat_rref(m, pivots) of an augmented [A | I]: the quasi-inverse.
 * For v (a_cols entries) in the image of A, adds into out (rows entries)
 * v[c] times the I-segment of row pivots[c], for each pivot column
 * c < a_cols; then (out - old out) * A = v.  Non-pivot columns of v are
 * ignored.  Preconditions (SQ_CHECK): out, v and m over one prime,
 * v.len >= a_cols, out.len >= rows.  out must not alias v or m. */
void fmat_aug_qi_apply(fvec_t out, const fmat_t *m, const int64_t *pivots, int64_t a_cols,
                       fvec_t v);

/* The kernel and the image pivots of a at once, as fmat_init_aug +
 * fmat_rref + fmat_aug_kernel would give them: pivots (a's cols entries,
 * may be NULL) the first a_cols entries of the pivots of the RREF of
 * [A | I]; ker (a zeroed struct, initialised here) the kernel of x -> x A in
 * canonical RREF.  Returns the rank of a; a is not modified.  At p = 2:
 * [A | I] formed and reduced by f2mat_rref_pool over pool (NULL: serial),
 * then f2mat_aug_kernel; at odd p fpmat_kernel (bitsliced at p = 3; pool
 * unused).  Scratch: the augmented matrix. */
int64_t fmat_kernel(fmat_t *ker, int64_t *pivots, const fmat_t *a, sq_pool_t *pool);

/* fmat_kernel for a matrix the caller builds in place, without the copy:
 * fmat_init_for_kernel makes m, rows x a_cols to fill (columns < a_cols,
 * e.g. through fmat_row): at p = 2 the augmented [0 | I] of fmat_init_aug,
 * at odd p a plain fmat_init matrix.  fmat_kernel_built then gives what
 * fmat_kernel(ker, pivots, A, pool) gives for A = m's first a_cols
 * columns: ker (a zeroed struct) the kernel of x -> x A in canonical RREF,
 * pivots (room for fmat_seg_start(p, a_cols) + rows entries) the image
 * pivots in its first a_cols entries; returns the rank of A.  At p = 2 m
 * is reduced in place (f2mat_rref_pool over pool, f2mat_aug_kernel: the
 * classical step's path); at odd p fpmat_kernel (pool unused), m
 * unchanged.  The caller clears m. */
void fmat_init_for_kernel(fmat_t *m, int64_t rows, int64_t a_cols, uint32_t p);
int64_t fmat_kernel_built(fmat_t *ker, int64_t *pivots, fmat_t *m, int64_t a_cols,
                          sq_pool_t *pool);

/* ---- Extending images (the conventions that name generators) ---------------------- */

/* Writes into new_cols, in increasing order, the columns c in [start, end)
 * with pivots[c] == -1, and returns their count (new_cols needs room for
 * end - start entries): the unit vectors that extend the image to a
 * surjection.  Nothing in it depends on the prime. */
int64_t fmat_extend_to_surjection(int64_t *new_cols, const int64_t *pivots, int64_t start,
                                  int64_t end);

/* Given the pivot table of an image (image_pivots[c] >= 0: column c is a
 * pivot; sub's cols entries) and a subspace sub in canonical RREF, writes
 * into rows_out, in increasing order, the indices of the nonzero rows of sub
 * whose pivot (first nonzero entry) is not an image pivot, and returns
 * their count (rows_out needs room for sub's rows).  Zero rows are
 * skipped. */
int64_t fmat_extend_image(int64_t *rows_out, const int64_t *image_pivots, const fmat_t *sub);

#ifdef __cplusplus
}
#endif

#endif /* FMAT_H */
