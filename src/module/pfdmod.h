/*
 * pfdmod.h -- the odd-prime names of the one finite-module type (fdmod.h):
 * thin wrappers, kept so that the odd-prime callers (pfhom, presol*, the
 * module reader's odd builder, tests/podd) compile unchanged until the one
 * resolution calls the generic names (docs/architecture.md, step 5, when
 * this header goes).
 *
 * pfdmod_t is fdmod_t (a typedef, not a distinct struct): a module is one
 * object whatever its prime, so a caller can move from a pfdmod_* name to
 * the fdmod_* one function at a time with no conversion; the prime is a
 * field of the module (fdmod_prime), checked (SQ_CHECK) by every function
 * that takes an algebra, as the odd-prime functions always did.
 *
 * A module is a graded F_p-vector space with finitely many nonzero degrees,
 * a named basis in each degree and the action of every Milnor basis
 * element Q(E) P(R) of positive degree: action(k, i, d, j) = Q(E_i)P(R_i) x_j
 * in M_{d+k}, a byte vector of dim M_{d+k} residues, for op index i in
 * degree k of the algebra's basis (pmilnor.h order) and basis index j of
 * M_d.  Indices of operations are those of the module's algebra; they do
 * not depend on the algebra's max degree, so a resolution may use a larger
 * algebra with the same prime and profile.
 */
#ifndef PFDMOD_H
#define PFDMOD_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "pmilnor.h"
#include "stalg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef fdmod_t pfdmod_t;

/* New empty module called name (copied; NULL: "module") over F_p (an odd
 * prime < 256), degrees in [min_deg, max_deg] (span < 4096), over the whole
 * algebra (pfdmod_set_profile changes that). */
static inline pfdmod_t *pfdmod_new(const char *name, uint32_t p, int32_t min_deg, int32_t max_deg)
{
    SQ_CHECK(p >= 3, "pfdmod_new: %u is not an odd prime below 256", (unsigned)p);
    return fdmod_new_p(name, p, min_deg, max_deg);
}
/* The same functions under their odd-prime names (fdmod.h says what each
 * does): free, name, prime, the degree range, bottom and top, the basis
 * (add, dim, name, find; default names "x<degree>_<index>"), the profile
 * (pmilnor.h's, the whole algebra by default). */
#define pfdmod_free fdmod_free
#define pfdmod_name fdmod_name
#define pfdmod_prime fdmod_prime
#define pfdmod_min_degree fdmod_min_degree
#define pfdmod_max_degree fdmod_max_degree
#define pfdmod_bottom fdmod_bottom
#define pfdmod_top fdmod_top
#define pfdmod_add_basis fdmod_add_basis
#define pfdmod_dim fdmod_dim
#define pfdmod_basis_name fdmod_basis_name
#define pfdmod_find fdmod_find
#define pfdmod_set_profile fdmod_set_pprofile
#define pfdmod_profile fdmod_pprofile
/* The sphere S_p ("S_<p>", basis element "x0"); a copy of M with every
 * degree raised by k, named name (NULL: M's name). */
#define pfdmod_sphere fdmod_sphere_p
#define pfdmod_new_shifted fdmod_new_shifted

/* Sets the action of basis element op_idx of degree op_deg > 0 of A (an
 * algebra with M's prime and profile) on basis element in_idx of M_in_deg
 * to vec (dim M_{in_deg + op_deg} residues, copied; ignored when that
 * degree is zero). */
static inline void pfdmod_set_action(pfdmod_t *M, const pmilnor_t *A, int32_t op_deg,
                                     int64_t op_idx, int32_t in_deg, int64_t in_idx,
                                     const uint8_t *vec)
{
    stalg_t *S = stalg_new_pmilnor(A);
    fvec_t v = fvec_view_bytes((uint8_t *)(uintptr_t)vec, fdmod_dim(M, in_deg + op_deg),
                               fdmod_prime(M));
    fdmod_set_actionf(M, S, op_deg, op_idx, in_deg, in_idx, v);
    stalg_free(S);
}
/* The stored vector, or NULL when it is zero (nothing set or no target). */
static inline const uint8_t *pfdmod_action(const pfdmod_t *M, int32_t op_deg, int64_t op_idx,
                                           int32_t in_deg, int64_t in_idx)
{
    return fdmod_actionf(M, op_deg, op_idx, in_deg, in_idx).bytes;
}
/* out[k] += coef * (op v)[k], for v a vector of M_in_deg and op basis
 * element op_idx of degree op_deg >= 0 (the unit adds coef * v).  out has
 * dim M_{in_deg + op_deg} entries. */
static inline void pfdmod_act_add(const pfdmod_t *M, uint8_t *out, uint32_t coef,
                                  int32_t op_deg, int64_t op_idx, int32_t in_deg,
                                  const uint8_t *v)
{
    uint32_t p = fdmod_prime(M);
    fdmod_act_addf(M, fvec_view_bytes(out, fdmod_dim(M, in_deg + op_deg), p), 0, coef, op_deg,
                   op_idx, in_deg, fvec_view_bytes((uint8_t *)(uintptr_t)v, fdmod_dim(M, in_deg), p));
}

/* ---- Building from the algebra generators (fdmod_set_genf, fdmod_complete_alg) */

/* Sets g x = vec for the generator g of degree gen_deg (1 for beta,
 * 2(p-1)p^k for P^{p^k}); x = basis element in_idx of M_in_deg; vec has
 * dim M_{in_deg + gen_deg} entries.  A generator not in A acts as zero. */
static inline void pfdmod_set_gen(pfdmod_t *M, const pmilnor_t *A, int32_t gen_deg,
                                  int32_t in_deg, int64_t in_idx, const uint8_t *vec)
{
    stalg_t *S = stalg_new_pmilnor(A);
    fvec_t v = fvec_view_bytes((uint8_t *)(uintptr_t)vec, fdmod_dim(M, in_deg + gen_deg),
                               fdmod_prime(M));
    fdmod_set_genf(M, S, gen_deg, in_deg, in_idx, v);
    stalg_free(S);
}

/* 1 when gen_deg is the degree of an algebra generator at p (beta or some
 * P^{p^k}), else 0. */
static inline int pfdmod_is_gen_degree(uint32_t p, int32_t gen_deg)
{
    return fdmod_gen_slot(p, gen_deg) >= 0;
}

/* fdmod_complete_alg over A (M's prime and profile, reaching top -
 * bottom): derives every action from the generators and checks the module
 * axioms; 0 or SQ_E_INVAL with a one-line message. */
static inline int pfdmod_complete(pfdmod_t *M, const pmilnor_t *A, char *err,
                                  size_t errlen) SQ_WARN_UNUSED;
static inline int pfdmod_complete(pfdmod_t *M, const pmilnor_t *A, char *err, size_t errlen)
{
    stalg_t *S = stalg_new_pmilnor(A);
    int rc = fdmod_complete_alg(M, S, err, errlen);
    stalg_free(S);
    return rc;
}

/* fdmod_check_module_all: (a b) x = a (b x) for every pair of basis
 * elements of positive degree and every x.  0 or SQ_E_INVAL. */
static inline int pfdmod_check_module(const pfdmod_t *M, const pmilnor_t *A, char *err,
                                      size_t errlen) SQ_WARN_UNUSED;
static inline int pfdmod_check_module(const pfdmod_t *M, const pmilnor_t *A, char *err,
                                      size_t errlen)
{
    stalg_t *S = stalg_new_pmilnor(A);
    int rc = fdmod_check_module_all(M, S, err, errlen);
    stalg_free(S);
    return rc;
}

#ifdef __cplusplus
}
#endif

#endif /* PFDMOD_H */
