/*
 * ubasis.h -- the unstable bases of the Steenrod algebra: the basis of the
 * free unstable module F(n) on a class of degree n (docs/unstable.md); at
 * p = 2 below, the odd primes at ubasis_new_stalg.
 *
 * F(n) = A / (the span of the Sq(R) of excess > n), where the excess of a
 * Milnor basis element Sq(r_1, r_2, ...) is r_1 + r_2 + ... (Kraines: those
 * elements span the same subspace as the admissible monomials of excess
 * > n, the kernel of A -> F(n), a -> a i_n; it is a left ideal).  So F(n)
 * in degree n + k has the basis {Sq(R) i_n : |R| = k, excess(R) <= n}.
 *
 * The order: A_k's Milnor basis sorted by excess, stably (elements of the
 * same excess keep the algebra's order).  Then F(n)'s block in degree
 * n + k is a prefix, of length ubasis_dim(U, k, n), of that order, for
 * every n; position i of the order is Milnor index ubasis_milnor(U, k, i).
 * When n >= k every element qualifies and the block is all of A_k (in the
 * excess order, not the algebra's).
 *
 * Immutable after ubasis_new: every function may be called concurrently.
 */
#ifndef UBASIS_H
#define UBASIS_H

#include <stdint.h>

#include "fmat.h"
#include "milnor.h"
#include "stalg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ubasis ubasis_t;

/* The unstable bases of the algebra of S (any prime; borrowed, must
 * outlive U; the whole algebra, no profile: SQ_CHECK) through its max
 * degree.  At odd p the excess of Q(E) P(R) is |E| + 2 (r_1 + r_2 + ...),
 * and F(n) is the free unstable module on a class of degree n (P^i x = 0
 * for 2i > |x|, beta P^i x = 0 for 2i + 1 > |x|).  Cost: one stalg_get per
 * basis element, tables of O(sum over k of dim A_k + k) entries. */
ubasis_t *ubasis_new_stalg(const stalg_t *S);
/* The same over the mod 2 algebra A (a handle U makes and frees). */
ubasis_t *ubasis_new(const milnor_t *A);
/* Frees U; NULL is a no-op. */
void ubasis_free(ubasis_t *U);

/* The mod 2 algebra below U (NULL at an odd prime), and U's handle. */
const milnor_t *ubasis_algebra(const ubasis_t *U);
const stalg_t *ubasis_stalg(const ubasis_t *U);
/* The largest dim A_k of U's degrees. */
int64_t ubasis_max_dim(const ubasis_t *U);

/* dim F(n)_{n + k}: the number of Sq(R) of degree k with excess <= n; 0
 * when k < 0, n < 0 or k beyond the algebra.  O(1). */
int64_t ubasis_dim(const ubasis_t *U, int32_t k, int32_t n);

/* Milnor index (milnor.h's order) of position i of degree k's excess
 * order, and the position of Milnor index idx.  0 <= i, idx < dim A_k
 * (SQ_CHECK).  O(1). */
int64_t ubasis_milnor(const ubasis_t *U, int32_t k, int64_t i);
int64_t ubasis_pos(const ubasis_t *U, int32_t k, int64_t idx);
/* The excess of position i of degree k. */
int32_t ubasis_excess(const ubasis_t *U, int32_t k, int64_t i);

/* p = 2 (SQ_CHECK), like ubasis_gather_add and ubasis_mul_vec_add: dst = v
 * in the Milnor order: v over F(n)'s block in degree n + k (the
 * first ubasis_dim(U, k, n) positions of the excess order), dst over A_k
 * (f2_limbs(dim A_k) limbs, overwritten).  O(dim A_k). */
void ubasis_scatter(const ubasis_t *U, uint64_t *dst, int32_t k, int32_t n, const uint64_t *v);

/* out[off + j] ^= v's entry at ubasis_milnor(U, k, j), for each position j
 * of F(n)'s block in degree n + k: v over A_k in the Milnor order, its
 * terms of excess > n dropped.  O(dim A_k / 64 + set bits of v). */
void ubasis_gather_add(const ubasis_t *U, uint64_t *out, int64_t off, int32_t k, int32_t n,
                       const uint64_t *v);

/* Limbs of the scratch ubasis_mul_vec_add needs: 2 f2_limbs(the largest
 * dim A_k) + 2. */
int64_t ubasis_scratch_limbs(const ubasis_t *U);

/* In F(n): out ^= Sq(R) * v, with Sq(R) the element at position r of
 * degree rdeg's excess order (r < ubasis_dim(U, rdeg, n + sdeg)), and v a
 * vector over F(n)'s block in degree n + sdeg (ubasis_dim(U, sdeg, n)
 * bits); bit off + j of out is position j of F(n)'s block in degree
 * n + rdeg + sdeg (the terms of excess > n are dropped).  scratch holds
 * ubasis_scratch_limbs(U) limbs.  Cost: one milnor_mul_vec_add and two
 * passes over dim A_{rdeg + sdeg}. */
void ubasis_mul_vec_add(const ubasis_t *U, uint64_t *out, int64_t off, int32_t rdeg, int64_t r,
                        int32_t sdeg, const uint64_t *v, int32_t n, uint64_t *scratch);

/* Every prime: out[off + j] += coef * v's entry at ubasis_milnor(U, k, j)
 * for each position j of F(n)'s block in degree n + k (v over A_k in the
 * algebra's order, in the field's encoding). */
void ubasis_gather_addf(const ubasis_t *U, fvec_t out, int64_t off, int32_t k, int32_t n,
                        uint32_t coef, fvec_t v);

/* Every prime: in F(n), out[off ..] += coef * a * v, a the element at
 * position r of degree rdeg's excess order, v over F(n)'s block in degree
 * n + sdeg (its first ubasis_dim(U, sdeg, n) entries), out over F(n)'s
 * block in degree n + rdeg + sdeg.  Allocates two vectors per call (for
 * the chain-map lifts, not the hot loops). */
void ubasis_mul_vec_addf(const ubasis_t *U, fvec_t out, int64_t off, uint32_t coef, int32_t rdeg,
                         int64_t r, int32_t sdeg, fvec_t v, int32_t n);

#ifdef __cplusplus
}
#endif

#endif /* UBASIS_H */
