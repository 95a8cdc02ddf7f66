/*
 * milnor.h -- the mod 2 Steenrod algebra A in the Milnor basis.
 *
 * A basis element is Sq(R) for a p-part R = (r_1, ..., r_k) of non-negative
 * integers with r_k > 0 (trailing zeros trimmed; Sq() is the unit, written
 * "1").  Its degree is |R| = sum_i r_i (2^i - 1).
 *
 * Basis order within a degree d (fixed by the spec, system.md section 3; it
 * fixes every output of the program).  Equivalently to the spec's
 * degree-by-degree construction, the elements of degree d are sorted
 * lexicographically on (..., r_3, r_2, r_1), highest position first (so by
 * length first); degree 6 and 7 are
 *
 *      index:     0       1         2         3
 *      degree 6:  Sq(6)   Sq(3,1)   Sq(0,2)
 *      degree 7:  Sq(7)   Sq(4,1)   Sq(1,2)   Sq(0,0,1)
 *
 * Nothing is stored per basis element: a milnor_t holds only coin-change
 * tables (number of p-parts of degree d using positions 1..k) from which
 * the index of a p-part (milnor_index) and the p-part of an index
 * (milnor_get) are computed in O(length) and O(length * log d) steps.
 * milnor_new(2047) takes ~200 KB, milnor_new(300) ~30 KB.
 *
 * Bit vectors over a degree: bit k (limb k / 64, bit k % 64 of a uint64_t
 * array) is basis element k of that degree, as in the fp layer.
 *
 * Threads: a milnor_t is immutable after milnor_new; every function below
 * may be called concurrently on the same milnor_t.  Scratch lives on the
 * stack: milnor_mul_vec_add / milnor_op_mul_vec_add use about 110 KB of it
 * (thread stacks of 512 KB or more are fine), the rest under 4 KB.
 * Concurrent calls must of course not write the same `out` words.
 *
 * The product (milnor_mul.c, milnor_op.c and docs/algebra.md): Milnor
 * matrices whose anti-diagonals have pairwise disjoint binary digits,
 * enumerated depth first with the "next value with disjoint bits" step; for
 * a vector, the part of the matrices that depends on R alone is enumerated
 * once and each S of the vector is tested against it with a few word
 * operations.
 */
#ifndef MILNOR_H
#define MILNOR_H

#include <stddef.h>
#include <stdint.h>

#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest supported degree.  A p-part of degree <= 2047 has length <= 11
 * (only Sq(0,...,0,1) of degree 2047 reaches 11; below 2047 it is <= 10). */
#define MILNOR_MAX_DEGREE 2047
/* Longest p-part of degree <= MILNOR_MAX_DEGREE; maxlen arguments of this
 * size always suffice. */
#define MILNOR_MAX_LEN 11

typedef struct milnor milnor_t;

/* Builds the basis tables for degrees 0..max_degree.
 * Precondition (SQ_CHECK): 0 <= max_degree <= MILNOR_MAX_DEGREE.
 * Cost: O(max_degree * 11) time and 8 * 12 * (max_degree + 1) bytes.
 * Ownership: the caller frees the result with milnor_free. */
milnor_t *milnor_new(int32_t max_degree);

/* The sub-Hopf algebra B of A with profile h[0..len) (the peer's truncated
 * "p_part"): spanned by the Sq(R) with r_i < 2^{h_i}, r_i = 0 for i > len
 * ([2,1] = A(1), [3,2,1] = A(2)).  Every function of this header works on
 * the result in B's basis (A's basis filtered, in A's order): milnor_dim
 * gives B's dimensions, milnor_index returns -1 for elements outside B, and
 * products stay in B.  Products go through the full algebra (slower; meant
 * for the small subalgebras the classical engine resolves over).
 * Preconditions (SQ_CHECK): as milnor_new; 0 <= len <= MILNOR_MAX_LEN,
 * 0 <= h_i <= 30.  Ownership: free with milnor_free. */
milnor_t *milnor_new_profile(int32_t max_degree, const int32_t *h, int len);

/* The profile of A into h (room for MILNOR_MAX_LEN); 0 for the full algebra. */
int milnor_profile(const milnor_t *A, int32_t *h);

/* Frees A; NULL is a no-op. */
void milnor_free(milnor_t *A);

/* The max_degree A was built for. */
int32_t milnor_max_degree(const milnor_t *A);

/* Number of basis elements of degree deg: the number of partitions of deg
 * into parts 2^i - 1.  0 if deg < 0 or deg > max degree.  O(1). */
int64_t milnor_dim(const milnor_t *A, int32_t deg);

/* The p-part of basis element idx of degree deg: writes r_1..r_len (trailing
 * zeros trimmed) into r[0..len-1] and returns len (0 for the unit).
 * Preconditions (SQ_CHECK): 0 <= deg <= max, 0 <= idx < milnor_dim(A, deg),
 * len <= maxlen (maxlen >= MILNOR_MAX_LEN always suffices).
 * Cost: O(len * log deg) table look-ups. */
int milnor_get(const milnor_t *A, int32_t deg, int64_t idx, int32_t *r, int maxlen);

/* Index within its degree of the p-part r[0..len-1] (trailing zeros
 * allowed, len >= 0), or -1 if its degree exceeds the max degree of A.
 * Precondition (SQ_CHECK): every r[i] >= 0.  Cost: O(len). */
int64_t milnor_index(const milnor_t *A, const int32_t *r, int len);

/* Degree of the p-part r[0..len-1] (sum r_i (2^i - 1)), saturating at
 * INT32_MAX when it does not fit.  Precondition: every r[i] >= 0. */
int32_t milnor_pdegree(const int32_t *r, int len);

/* Writes the basis element as text, "Sq(3,1)", and "1" for the unit, into
 * buf (always NUL-terminated when n > 0, truncated if n is too small; 64
 * bytes always suffice).  Preconditions as milnor_get. */
void milnor_format(char *buf, size_t n, const milnor_t *A, int32_t deg, int64_t idx);

/* out ^= Sq(R) * Sq(S), where R is basis element ridx of degree rdeg and S
 * basis element sidx of degree sdeg; bit (off + k) of out is basis element k
 * of degree rdeg + sdeg.
 * Preconditions (SQ_CHECK): rdeg, sdeg >= 0, rdeg + sdeg <= max, indices in
 * range; off >= 0.  out must hold off + milnor_dim(A, rdeg + sdeg) bits; only
 * those bits are touched.  Cost: proportional to the number of Milnor
 * matrices with disjoint anti-diagonals visited; no allocation. */
void milnor_mul_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                    int32_t sdeg, int64_t sidx);

/* out ^= Sq(R) * v, where R is basis element ridx of degree rdeg and v a bit
 * vector over the basis of degree sdeg (milnor_dim(A, sdeg) bits; bits beyond
 * are ignored).  Output layout and preconditions as milnor_mul_add.  v and
 * out must not overlap.  This is the hot path of the resolution ("operation
 * by element"): what depends on R is enumerated once (when v has >= 5 set
 * bits and rdeg + sdeg <= 511), then each set bit of v costs a scan of cheap
 * word tests; otherwise each costs one milnor_mul_add.  No allocation,
 * except one heap buffer (~1.6 MB, freed before returning) in rare very
 * heavy calls whose R-side lists outgrow the stack buffers.
 * Equivalent to milnor_op_init + milnor_op_mul_vec_add. */
void milnor_mul_vec_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                        int32_t sdeg, const uint64_t *v);

/* ---- Left multiplication by one element, prepared once ------------------
 *
 * A milnor_op_t holds Sq(R) unpacked, so that a caller applying one Sq(R)
 * to several vectors pays the unranking once (to share the rest of the
 * R-side work between vectors too, use a workspace, below).  Value type:
 * lives on the caller's stack, no allocation, nothing to clear; it borrows
 * A, which must outlive it.  Fields are private. */
typedef struct {
    const milnor_t *A;
    int32_t deg;
    int32_t len;
    int32_t r[MILNOR_MAX_LEN + 1]; /* r[i] = r_i, 1-based; r[0] unused */
} milnor_op_t;

/* Prepares op = Sq(R), R = basis element ridx of degree rdeg.
 * Preconditions (SQ_CHECK) as milnor_get.  Cost: one milnor_get. */
void milnor_op_init(milnor_op_t *op, const milnor_t *A, int32_t rdeg, int64_t ridx);

/* out ^= Sq(R) * v as milnor_mul_vec_add, for the R held by op. */
void milnor_op_mul_vec_add(const milnor_op_t *op, uint64_t *out, int64_t off, int32_t sdeg,
                           const uint64_t *v);

/* ---- One element, many vectors: a reusable workspace -------------------
 *
 * In a resolution one Sq(R) multiplies the several blocks of d(g) (one per
 * target generator, of various degrees, often with one to four set bits
 * each).  Per block, milnor_op_mul_vec_add walks such products one by one;
 * a workspace instead enumerates what depends on R once for all the blocks
 * (the R-configurations, docs/algebra.md) and keeps its buffers from one R
 * to the next, so that after warm-up nothing is allocated.
 *
 *      milnor_ws_t *W = milnor_ws_new();              one per thread
 *      for each R:  milnor_op_init(&op, A, rdeg, ridx);
 *                   milnor_ws_prepare(W, &op, max block degree, total set bits);
 *                   for each block:  milnor_ws_mul_vec_add(W, out, off, deg, bits);
 *      milnor_ws_free(W);
 *
 * Engine object (opaque, _new / _free).  Not shared between threads while
 * being prepared; once prepared, milnor_ws_mul_vec_add only reads it. */
typedef struct milnor_ws milnor_ws_t;

/* A new, empty workspace (a few bytes; buffers come with the first
 * milnor_ws_prepare that needs them, ~100 KB, growing for larger lists). */
milnor_ws_t *milnor_ws_new(void);

/* Frees W; NULL is a no-op. */
void milnor_ws_free(milnor_ws_t *W);

/* Prepares W to multiply op's Sq(R) into vectors of degrees <= max_sdeg
 * carrying nbits set bits in all (a hint: the R-configurations are built
 * when nbits >= 5 and |R| + max_sdeg <= 511, else the products are walked).
 * Copies *op.  Preparing again for the same element and a bound <= the
 * previous one is free.  Precondition (SQ_CHECK): 0 <= max_sdeg,
 * |R| + max_sdeg <= max degree. */
void milnor_ws_prepare(milnor_ws_t *W, const milnor_op_t *op, int32_t max_sdeg, int64_t nbits);

/* out ^= Sq(R) * v for the element W was prepared for, as
 * milnor_op_mul_vec_add.  Precondition (SQ_CHECK): W prepared,
 * sdeg <= its max_sdeg.  No allocation; W is only read. */
void milnor_ws_mul_vec_add(const milnor_ws_t *W, uint64_t *out, int64_t off, int32_t sdeg,
                           const uint64_t *v);

/* One vector of a milnor_ws_mul_blocks_add: the bits from limb limb0 of
 * the caller's array, of degree deg, land at offset off. */
typedef struct {
    int64_t off;
    int32_t deg;
    int64_t limb0;
} milnor_block_t;

/* out ^= Sq(R) * v_b at blk[b].off for every block b < nb (v_b = bits +
 * blk[b].limb0, of degree blk[b].deg): the same bits as
 * milnor_ws_mul_vec_add block by block, with the S's of all the blocks
 * tested four at a time against the configurations.  Preconditions as
 * milnor_ws_mul_vec_add's, for every block. */
void milnor_ws_mul_blocks_add(const milnor_ws_t *W, uint64_t *out, const milnor_block_t *blk,
                              int64_t nb, const uint64_t *bits);

/* 1 when W was prepared with its R-configurations (full algebra, enough set
 * bits, degrees <= 511): then milnor_ws_mul_bitblocks_add applies. */
int milnor_ws_scans(const milnor_ws_t *W);

/* One vector of a milnor_ws_mul_bitblocks_add: bits [bit0, bit0 + len) of
 * the caller's array (bit bit0 + k the k-th basis element of degree deg;
 * zero past len), landing at offset off. */
typedef struct {
    int64_t off;
    int32_t deg;
    int64_t bit0, len;
} milnor_bitblock_t;

/* out ^= Sq(R) * v_b at blk[b].off for every block b < nb, v_b read in
 * place at any bit offset of v: the same bits as copying each block out
 * and milnor_ws_mul_vec_add, with the S's of all the blocks tested four at
 * a time.  Preconditions (SQ_CHECK): milnor_ws_scans(W), and
 * milnor_ws_mul_vec_add's for every block. */
void milnor_ws_mul_bitblocks_add(const milnor_ws_t *W, uint64_t *out, const milnor_bitblock_t *blk,
                                 int64_t nb, const uint64_t *v);

/* out ^= Sq(R) * Sq(S) for arbitrary p-parts r[0..rlen-1], s[0..slen-1]
 * (trailing zeros allowed); output bits as milnor_mul_add, in the degree
 * |R| + |S|.  Preconditions (SQ_CHECK): entries >= 0, |R| + |S| <= max.
 * Useful for callers that hold p-parts rather than indices. */
void milnor_mul_pparts_add(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r,
                           int rlen, const int32_t *s, int slen);

#ifdef __cplusplus
}
#endif

#endif /* MILNOR_H */
