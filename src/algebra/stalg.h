/*
 * stalg.h -- the Steenrod algebra handle: one interface over the mod 2
 * algebra in the Milnor basis (milnor.h) and the mod p algebra at an odd
 * prime (pmilnor.h), each possibly a sub-Hopf algebra given by a profile
 * (docs/architecture.md, "the algebra handle").
 *
 *      stalg_t { p = 2:  milnor_t  (Sq(R); owned, or borrowed)        }
 *      stalg_t { p odd:  pmilnor_t (Q(E) P(R); owned, or borrowed)     }
 *
 * Basis elements are named as in the algebra below: (degree, index within
 * the degree), in that algebra's order (milnor.h, pmilnor.h), which fixes
 * every output of the program.  Vectors over a degree are in the field's
 * encoding (fmat.h's fvec_t): bit k of uint64_t limbs at p = 2, byte k
 * (a residue) at odd p, entry k being basis element k of the degree.
 *
 * Dispatch: every function tests p once and calls the algebra's own
 * function (milnor_mul_vec_add, pmilnor_mul_vec_add, ...); nothing is
 * computed here per basis element.  The hot loops of the p = 2 engines
 * (the Nassau workspace, the product cache) stay behind stalg_milnor().
 *
 * Threads: a stalg_t is immutable after stalg_new* (and stalg_set_cache); every function may be
 * called concurrently on the same handle (as the algebras allow: scratch on
 * the stack, milnor_mul_vec_add uses about 110 KB of it).  Concurrent calls
 * must not write the same entries of an output vector.
 */
#ifndef STALG_H
#define STALG_H

#include <stddef.h>
#include <stdint.h>

#include "fmat.h"
#include "milnor.h"
#include "pmilnor.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest p-part of an element at any prime (MILNOR_MAX_LEN at p = 2, which
 * is more than PMILNOR_MAX_LEN). */
#define STALG_MAX_LEN MILNOR_MAX_LEN
/* Largest number of p_part entries of a profile. */
#define STALG_MAX_PROFILE PMILNOR_MAX_PROFILE

typedef struct stalg stalg_t;

/* A basis element, unpacked: the exterior part q (bit n: Q_n is a factor;
 * always 0 at p = 2, where the Milnor basis has no separate exterior part)
 * and the p-part r[0..len) = (r_1, ..., r_len), r[len..] zero. */
typedef struct {
    uint32_t q;
    int32_t len;
    int32_t r[STALG_MAX_LEN];
} stalg_elt_t;

/* A profile: the peer's "profile" object, the same fields as
 * pmilnor_profile_t.  The sub-Hopf algebra spanned by the elements with
 * r_i < p^{h_i}, h_i = p_part[i - 1] for i <= len and, for i > len, 0 when
 * truncated, unbounded otherwise; at odd p also every Q_n of the element
 * having bit n of q_part set.  The whole algebra is {truncated 0, q_part ~0,
 * len 0} (stalg_profile_full).  At p = 2, q_part is ignored (A's Milnor
 * basis has no exterior part) and a profile that is truncated with len 0 is
 * the algebra F_2; the classical h-lists of milnor_new_profile (A(1) = [2,
 * 1]) are {truncated 1, len, p_part = h}. */
typedef struct {
    int truncated;
    uint32_t q_part;
    int len;
    int32_t p_part[STALG_MAX_PROFILE];
} stalg_profile_t;

/* The profile of the whole algebra. */
void stalg_profile_full(stalg_profile_t *prof);

/* ---- Life cycle ---------------------------------------------------------------- */

/* Builds the algebra at p through degree max_degree over the sub-Hopf
 * algebra of prof (NULL or full: the whole algebra): milnor_new or
 * milnor_new_profile at p = 2 (an untruncated profile's unbounded entries
 * become h_i = 30, which bounds nothing below MILNOR_MAX_DEGREE), pmilnor_new
 * at odd p.  Preconditions (SQ_CHECK, those of the algebra): p = 2 or an
 * odd prime below 256; 0 <= max_degree <= MILNOR_MAX_DEGREE (p = 2) or
 * PMILNOR_MAX_DEGREE with pmilnor_size <= PMILNOR_MAX_ELEMENTS (odd p);
 * prof valid (pmilnor_profile_check at odd p; entries 0..30 at p = 2).
 * Cost: the algebra's.  Ownership: the handle owns the algebra; free both
 * with stalg_free. */
stalg_t *stalg_new(uint32_t p, int32_t max_degree, const stalg_profile_t *prof);

/* A handle on an existing algebra, borrowed (A must outlive the handle;
 * stalg_free frees the handle only).  A small allocation, no other cost. */
stalg_t *stalg_new_milnor(const milnor_t *A);
stalg_t *stalg_new_pmilnor(const pmilnor_t *A);

/* Frees S and, when S owns it, its algebra, and its product cache.  NULL
 * is a no-op. */
void stalg_free(stalg_t *S);

/* Gives S a product cache of at most max_bytes for the hot loops of the
 * homomorphisms (fhom.h): at odd p a pmilnor_cache_t that S owns (a second
 * call replaces it); at p = 2 nothing (the p = 2 tiles keep a workspace per
 * thread).  Call it before S is shared between threads: it is the one
 * function that changes a handle. */
void stalg_set_cache(stalg_t *S, size_t max_bytes);

/* The product cache of stalg_set_cache (odd p), or NULL.  The cache itself
 * may be used from several threads (pmilnor.h). */
pmilnor_cache_t *stalg_pcache(const stalg_t *S);

/* ---- Facts ------------------------------------------------------------------------ */

/* The prime (2 or odd). */
uint32_t stalg_prime(const stalg_t *S);

/* The largest degree the algebra was built for. */
int32_t stalg_max_degree(const stalg_t *S);

/* S's profile into *prof: at odd p pmilnor_profile's; at p = 2 the full
 * profile for the whole algebra, else {truncated 1, q_part ~0, len and
 * p_part as milnor_profile reports them}. */
void stalg_profile(const stalg_t *S, stalg_profile_t *prof);

/* The algebra below (NULL when S is at the other kind of prime), for the
 * p = 2 fast paths that need the Milnor algebra itself (workspaces, the
 * product cache, the GPU) and the odd-prime product cache. */
const milnor_t *stalg_milnor(const stalg_t *S);
const pmilnor_t *stalg_pmilnor(const stalg_t *S);

/* Number of basis elements of degree deg; 0 when deg < 0 or deg > max
 * degree.  O(1). */
int64_t stalg_dim(const stalg_t *S, int32_t deg);

/* ---- Basis elements ------------------------------------------------------------- */

/* Basis element idx of degree deg, unpacked into *e.  Preconditions
 * (SQ_CHECK): 0 <= deg <= max degree, 0 <= idx < stalg_dim(S, deg).
 * Cost: milnor_get / pmilnor_get. */
void stalg_get(const stalg_t *S, int32_t deg, int64_t idx, stalg_elt_t *e);

/* Degree of e at S's prime, or -1 when it does not fit an int32_t, when an
 * entry is negative, or (p = 2) when e->q is not 0. */
int64_t stalg_elt_degree(const stalg_t *S, const stalg_elt_t *e);

/* Index of e within its degree, or -1 when e is not a basis element of S
 * (degree beyond the max degree, outside the profile, a nonzero q at
 * p = 2, a negative entry).  0 <= e->len <= STALG_MAX_LEN (SQ_CHECK);
 * trailing zeros are allowed.  Cost: milnor_index / pmilnor_index. */
int64_t stalg_index(const stalg_t *S, const stalg_elt_t *e);

/* Writes basis element idx of degree deg as the algebra writes it:
 * "Sq(3,1)" at p = 2, "Q_0 P(1, 2)" at odd p, "1" for the unit; buf gets at
 * most n bytes, NUL-terminated when n > 0 (128 always suffice).
 * Preconditions as stalg_get. */
void stalg_format(char *buf, size_t n, const stalg_t *S, int32_t deg, int64_t idx);

/* ---- The algebra generators ----------------------------------------------------- */

/* The index of the algebra generator of degree deg, or -1 when there is
 * none in S: the generators are Sq^{2^k} = Sq(2^k) in degree 2^k at p = 2,
 * and beta = Q_0 in degree 1 and P^{p^k} = P(p^k) in degree 2(p - 1)p^k at
 * odd p; each degree has at most one.  Under a profile, only those in S
 * (which generate S for A(n) and the usual profiles; the module reader's
 * builders refuse the others).  Cost O(1) index computations. */
int64_t stalg_gen_index(const stalg_t *S, int32_t deg);

/* Lists the generators of S of degree <= max_deg (clamped to the max
 * degree), in increasing degree: degs[i], idxs[i] for i < the returned
 * count, at most room written (both arrays need room entries; 32 always
 * suffice).  Returns the number of generators, which may exceed room (then
 * only room are written). */
int stalg_gens(const stalg_t *S, int32_t max_deg, int32_t *degs, int64_t *idxs, int room);

/* ---- Products --------------------------------------------------------------------- */

/* out[off + k] += coef * (coefficient of basis element k of degree
 * rdeg + sdeg in a * b), for the basis elements a = (rdeg, ridx) and
 * b = (sdeg, sidx): milnor_mul_add at p = 2 (only when coef is odd),
 * pmilnor_mul_add on out's bytes from off at odd p.  Preconditions
 * (SQ_CHECK): out.p == p; rdeg, sdeg >= 0, rdeg + sdeg <= max degree,
 * indices in range; 0 <= off, off + stalg_dim(S, rdeg + sdeg) <= out.len.
 * Only those entries of out are touched. */
void stalg_mul_add(const stalg_t *S, fvec_t out, int64_t off, uint32_t coef, int32_t rdeg,
                   int64_t ridx, int32_t sdeg, int64_t sidx);

/* out[off + k] += coef * (a * v)_k for the basis element a = (rdeg, ridx)
 * and v a vector over the basis of degree sdeg (its first stalg_dim(S,
 * sdeg) entries are read): milnor_mul_vec_add at p = 2 (only when coef is
 * odd), pmilnor_mul_vec_add at odd p.  Preconditions (SQ_CHECK): out.p ==
 * v.p == p; degrees and index as stalg_mul_add; v.len >= stalg_dim(S,
 * sdeg); 0 <= off, off + stalg_dim(S, rdeg + sdeg) <= out.len.  v and out
 * must not overlap.  Cost: the algebra's (milnor.h: what depends on a is
 * enumerated once when v has >= 5 set bits). */
void stalg_mul_vec_add(const stalg_t *S, fvec_t out, int64_t off, uint32_t coef, int32_t rdeg,
                       int64_t ridx, int32_t sdeg, fvec_t v);

#ifdef __cplusplus
}
#endif

#endif /* STALG_H */
