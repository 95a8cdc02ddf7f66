/*
 * pmilnor.h -- the mod p Steenrod algebra A_p at an odd prime p in the
 * Milnor basis (and its sub-Hopf algebras given by profiles): the
 * odd-prime counterpart of milnor.h.
 *
 * A basis element is Q(E) P(R): E = {e_0 < e_1 < ...} a set of exterior
 * indices, stored as the bit mask q = sum 2^{e_k} (bit n: Q_n is a factor),
 * Q(E) = Q_{e_0} Q_{e_1} ... in increasing order, and R = (r_1, ..., r_k) a
 * p-part with trailing zeros trimmed.  Degrees: |Q_n| = 2p^n - 1 and
 * |P(R)| = sum_i r_i * 2(p^i - 1).  The Bockstein beta is Q_0, P^n is P(n);
 * the unit is written "1".
 *
 * Basis order within a degree d (the peer's, so that generator names
 * agree): first by the mask q as an integer, increasing (which is also by
 * the degree of Q(E): |Q_n| exceeds the sum of all lower |Q_m|), then, for
 * one q, by the p-part in the order of the peer's p-part lists: built
 * degree by degree exactly as at p = 2 (milnor.h), which is lexicographic
 * on (..., r_3, r_2, r_1) read from the highest position, increasing.  At
 * p = 3, degree 17 is
 *
 *      index:  0              1              2           3
 *              Q_0 P(4)       Q_0 P(0, 1)    Q_1 P(3)    Q_2
 *
 * (Q_0 = 1 plus 16; Q_1 = 5 plus 12; Q_2 = 17.)
 *
 * Storage: the p-parts of each reduced degree n (|P(R)| = 2(p - 1) n) are
 * listed once; a degree is a list of blocks (a mask q and the p-parts of
 * reduced degree (d - |Q(E)|) / (2p - 2)).  The index of an element is
 * computed (block offset + rank of the p-part from counting tables), so no
 * hash map is needed.  The algebra is small at odd primes (sum of the
 * dimensions through degree 200 at p = 3: 6,682); pmilnor_size tells the
 * element count before building.
 *
 * Threads: immutable after pmilnor_new; every function may be called
 * concurrently (scratch on the stack, a few KB).
 */
#ifndef PMILNOR_H
#define PMILNOR_H

#include <stddef.h>
#include <stdint.h>

#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest degree supported (p-parts and masks fit PMILNOR_MAX_LEN below
 * 2 * 3^8 - 1; in practice the element count, pmilnor_size, binds first). */
#define PMILNOR_MAX_DEGREE 8191
/* Longest p-part and number of exterior indices within PMILNOR_MAX_DEGREE. */
#define PMILNOR_MAX_LEN 8
/* Largest number of basis elements (all degrees) an algebra may have. */
#define PMILNOR_MAX_ELEMENTS ((int64_t)1 << 25)
/* Largest number of p_part entries in a profile. */
#define PMILNOR_MAX_PROFILE 16

typedef struct pmilnor pmilnor_t;

/* A basis element, unpacked.  len is the length of the p-part (r[len..]
 * are zero); q the mask of exterior indices. */
typedef struct {
    uint32_t q;
    int32_t len;
    int32_t r[PMILNOR_MAX_LEN]; /* r[i] = r_{i+1} */
} pmilnor_elt_t;

/* A profile (the peer's "profile" object): the sub-Hopf algebra B spanned
 * by the Q(E) P(R) with every Q_n of E having bit n of q_part set and
 * r_i < p^{h_i}, where h_i = p_part[i - 1] for i <= len, and for i > len
 * h_i = 0 (truncated) or infinite (not truncated).  The whole algebra is
 * {truncated 0, q_part ~0, len 0}. */
typedef struct {
    int truncated;
    uint32_t q_part;
    int len;
    int32_t p_part[PMILNOR_MAX_PROFILE];
} pmilnor_profile_t;

/* The profile of the whole algebra. */
void pmilnor_profile_full(pmilnor_profile_t *prof);

/* 1 when prof is the whole algebra's profile. */
int pmilnor_profile_is_full(const pmilnor_profile_t *prof);

/* Checks that prof is the profile of a sub-Hopf algebra at p: entries in
 * 0..30, 0 <= len <= PMILNOR_MAX_PROFILE, and the dual quotient of A_* is a
 * Hopf algebra quotient: for all i, j >= 1, h_i <= j + h_{i+j} or
 * h_j <= h_{i+j}; with truncated, h_i <= len - i + 1; and for every Q_n
 * left out and Q_m kept with m < n, h_{n-m} <= m.  Returns 0, or
 * SQ_E_INVAL with a one-line reason in err. */
int pmilnor_profile_check(uint32_t p, const pmilnor_profile_t *prof, char *err, size_t errlen);

/* Number of basis elements of A_p (or of B for prof, NULL = A_p) in all
 * degrees 0..max_degree: the size pmilnor_new would allocate (about 12
 * bytes each).  Cost O(max_degree * PMILNOR_MAX_LEN). */
int64_t pmilnor_size(uint32_t p, int32_t max_degree, const pmilnor_profile_t *prof);

/* Builds the basis for degrees 0..max_degree at the odd prime p (3 <= p <
 * 256), over the sub-Hopf algebra of prof (NULL: the whole algebra).
 * Preconditions (SQ_CHECK): p an odd prime, 0 <= max_degree <=
 * PMILNOR_MAX_DEGREE, pmilnor_size <= PMILNOR_MAX_ELEMENTS, prof valid.
 * Ownership: free with pmilnor_free. */
pmilnor_t *pmilnor_new(uint32_t p, int32_t max_degree, const pmilnor_profile_t *prof);

/* Frees A; NULL is a no-op. */
void pmilnor_free(pmilnor_t *A);

uint32_t pmilnor_prime(const pmilnor_t *A);
int32_t pmilnor_max_degree(const pmilnor_t *A);
/* A's profile (the whole algebra's when built with NULL). */
const pmilnor_profile_t *pmilnor_profile(const pmilnor_t *A);

/* Number of basis elements of degree deg; 0 outside 0..max.  O(1). */
int64_t pmilnor_dim(const pmilnor_t *A, int32_t deg);

/* Basis element idx of degree deg.  Preconditions (SQ_CHECK): deg in range,
 * 0 <= idx < dim.  Cost: a binary search over the blocks of the degree. */
void pmilnor_get(const pmilnor_t *A, int32_t deg, int64_t idx, pmilnor_elt_t *e);

/* Degree of e at the prime p, or -1 when it exceeds INT32_MAX. */
int64_t pmilnor_elt_degree(uint32_t p, const pmilnor_elt_t *e);

/* Index of e within its degree, or -1 when e is not in A (degree beyond
 * max, or outside the profile).  Trailing zeros of e->r past len are
 * ignored; len may exceed the trimmed length. */
int64_t pmilnor_index(const pmilnor_t *A, const pmilnor_elt_t *e);

/* Writes the element as the peer does: "1", "Q_0", "P(1, 2)",
 * "Q_0 Q_1 P(3)".  buf gets at most n bytes, NUL-terminated when n > 0
 * (128 bytes always suffice). */
void pmilnor_format_elt(char *buf, size_t n, const pmilnor_elt_t *e);
void pmilnor_format(char *buf, size_t n, const pmilnor_t *A, int32_t deg, int64_t idx);

/* Index of Q_0^e P(n) (e = 0 or 1) in its degree e + 2(p-1)n, written to
 * *deg; -1 when outside A. */
int64_t pmilnor_beps_pn(const pmilnor_t *A, int e, int32_t n, int32_t *deg);

/* ---- Products ------------------------------------------------------------
 *
 * Milnor's product formula (docs/odd-primes.md): Q(E) P(R) * Q(F) P(S) is
 * computed by moving P(R) past each Q_k of F, k increasing, with
 *     P(R) Q_k = Q_k P(R) + sum_{j >= 1} Q_{k+j} P(R - p^k e_j)
 * (terms with a negative entry dropped), sorting each new Q into Q(E) with
 * the sign (-1)^(number of indices of E above it) (0 if already there),
 * then multiplying the P-parts by Milnor matrices with the coefficient
 * prod_n multinomial(t_n; x_{0n}, x_{1,n-1}, ..., x_{n0}) mod p (Lucas:
 * zero unless the base-p digits add without carry). */

/* out[k] += coef * (coefficient of basis element k of degree |r| + |s| in
 * r * s), mod p, for elements r, s of A.  out has pmilnor_dim entries of
 * the product's degree; entries must be < p and stay so.
 * Precondition (SQ_CHECK): |r| + |s| <= max degree. */
void pmilnor_mul_elts_add(const pmilnor_t *A, uint8_t *out, uint32_t coef, const pmilnor_elt_t *r,
                          const pmilnor_elt_t *s);

/* The same for basis elements (rdeg, ridx) and (sdeg, sidx). */
void pmilnor_mul_add(const pmilnor_t *A, uint8_t *out, uint32_t coef, int32_t rdeg, int64_t ridx,
                     int32_t sdeg, int64_t sidx);

/* out += coef * a * v for the basis element a = (rdeg, ridx) and v a vector
 * over the basis of degree sdeg (pmilnor_dim(A, sdeg) entries < p).  v and
 * out must not overlap. */
void pmilnor_mul_vec_add(const pmilnor_t *A, uint8_t *out, uint32_t coef, int32_t rdeg,
                         int64_t ridx, int32_t sdeg, const uint8_t *v);

/* ---- A cache of products of basis elements -------------------------------
 *
 * A resolution multiplies the same pairs of basis elements many times (for
 * S_3 through stem 200, s <= 50: 19 million products of 0.95 million
 * distinct pairs).  The cache keeps, per basis element b and degree d, the
 * column of products a * b for every basis element a of degree d, as
 * merged lists of terms.  Engine object; thread-safe (64 locked shards; the
 * products are computed outside the lock); columns are immutable and live
 * until the cache is freed. */
typedef struct pmilnor_cache pmilnor_cache_t;

/* A column: for 0 <= a < na, the product (basis element a of degree d) * b
 * is sum over off[a] <= k < off[a + 1] of coef[k] * (basis element idx[k]
 * of degree d + |b|); indices increase within a product, coefficients are
 * in 1..p-1.  Borrowed from the cache. */
typedef struct {
    int64_t na;
    const int32_t *off;
    const uint32_t *idx;
    const uint8_t *coef;
} pmilnor_col_t;

/* A new empty cache for products in A (borrowed; must outlive it) that
 * stops storing new columns once it holds max_bytes (then
 * pmilnor_cache_col declines and the caller multiplies itself). */
pmilnor_cache_t *pmilnor_cache_new(const pmilnor_t *A, size_t max_bytes);
/* Frees C; NULL is a no-op. */
void pmilnor_cache_free(pmilnor_cache_t *C);

/* The column of products (every basis element of degree adeg) * (basis
 * element bidx of degree bdeg): returns 1 and fills *out, or 0 when it is
 * not cached and the cache is full (or the degrees or index exceed 8191 or
 * 2^19).  Precondition: adeg + bdeg <= the algebra's max degree. */
int pmilnor_cache_col(pmilnor_cache_t *C, int32_t adeg, int32_t bdeg, int64_t bidx,
                      pmilnor_col_t *out);

/* Bytes held (tables and stored products). */
size_t pmilnor_cache_bytes(const pmilnor_cache_t *C);
/* Lookups answered from the cache and columns computed (for benchmarks). */
void pmilnor_cache_stats(const pmilnor_cache_t *C, int64_t *hits, int64_t *misses);

#ifdef __cplusplus
}
#endif

#endif /* PMILNOR_H */
