/*
 * pfdmod.h -- finite-dimensional modules over the mod p Steenrod algebra at
 * an odd prime p (or over a sub-Hopf algebra given by a profile): the
 * odd-prime counterpart of fdmod.h.
 *
 * A module M is a graded F_p-vector space with finitely many nonzero
 * degrees min_deg..max_deg, a named basis in each degree, and the action of
 * every Milnor basis element Q(E) P(R) of positive degree:
 *
 *     action(k, i, d, j) = Q(E_i)P(R_i) x_j in M_{d+k}, a byte vector of
 *                          dim M_{d+k} residues,
 *
 * for op index i in degree k of the algebra's basis (pmilnor.h order) and
 * basis index j of M_d.  The unit acts as the identity and is not stored.
 * A module is built (add basis elements, set actions), then read-only:
 * several threads may call the const functions at once.
 *
 * Indices of operations are those of the module's algebra; they do not
 * depend on the algebra's max degree, so a resolution may use a larger
 * algebra with the same prime and profile.
 */
#ifndef PFDMOD_H
#define PFDMOD_H

#include <stddef.h>
#include <stdint.h>

#include "pmilnor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pfdmod pfdmod_t;

/* New empty module called name (copied; NULL: "module") over F_p (an odd
 * prime < 256), degrees in [min_deg, max_deg] (span < 4096), over the whole
 * algebra (pfdmod_set_profile changes that). */
pfdmod_t *pfdmod_new(const char *name, uint32_t p, int32_t min_deg, int32_t max_deg);
/* Frees M; NULL is a no-op. */
void pfdmod_free(pfdmod_t *M);

const char *pfdmod_name(const pfdmod_t *M);
uint32_t pfdmod_prime(const pfdmod_t *M);
int32_t pfdmod_min_degree(const pfdmod_t *M);
int32_t pfdmod_max_degree(const pfdmod_t *M);
/* Lowest and highest degree with a nonzero basis (min > max if M = 0). */
int32_t pfdmod_bottom(const pfdmod_t *M);
int32_t pfdmod_top(const pfdmod_t *M);

/* Appends a basis element of degree deg named name (copied; NULL gives
 * "x<degree>_<index>").  Must precede every action.  Returns its index
 * within the degree. */
int64_t pfdmod_add_basis(pfdmod_t *M, int32_t deg, const char *name);
/* dim M_deg (0 outside the range). */
int64_t pfdmod_dim(const pfdmod_t *M, int32_t deg);
const char *pfdmod_basis_name(const pfdmod_t *M, int32_t deg, int64_t idx);
/* Finds a basis element by name: 0 and *deg, *idx, or -1. */
int pfdmod_find(const pfdmod_t *M, const char *name, int32_t *deg, int64_t *idx);

/* The algebra M lives over: the whole algebra by default.  The profile is
 * copied; it must be valid (pmilnor_profile_check). */
void pfdmod_set_profile(pfdmod_t *M, const pmilnor_profile_t *prof);
const pmilnor_profile_t *pfdmod_profile(const pfdmod_t *M);

/* Sets the action of basis element op_idx of degree op_deg > 0 of A (an
 * algebra with M's prime and profile) on basis element in_idx of M_in_deg
 * to vec (dim M_{in_deg + op_deg} residues, copied; ignored when that
 * degree is zero). */
void pfdmod_set_action(pfdmod_t *M, const pmilnor_t *A, int32_t op_deg, int64_t op_idx,
                       int32_t in_deg, int64_t in_idx, const uint8_t *vec);
/* The stored vector, or NULL when it is zero (nothing set or no target). */
const uint8_t *pfdmod_action(const pfdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                             int64_t in_idx);

/* out[k] += coef * (op v)[k], for v a vector of M_in_deg and op basis
 * element op_idx of degree op_deg >= 0 (the unit adds coef * v).  out has
 * dim M_{in_deg + op_deg} entries. */
void pfdmod_act_add(const pfdmod_t *M, uint8_t *out, uint32_t coef, int32_t op_deg,
                    int64_t op_idx, int32_t in_deg, const uint8_t *v);

/* ---- Building from the algebra generators -----------------------------------
 *
 * Module files give the action of the generators beta = Q_0 (degree 1) and
 * P^{p^k} = P(p^k) (degree 2(p - 1) p^k).  pfdmod_set_gen records one;
 * pfdmod_complete derives the action of every Milnor basis element and
 * checks the module axioms.  A generator never set acts as zero. */

/* Sets g x = vec for the generator g of degree gen_deg (1 for beta,
 * 2(p-1)p^k for P^{p^k}); x = basis element in_idx of M_in_deg; vec has
 * dim M_{in_deg + gen_deg} entries. */
void pfdmod_set_gen(pfdmod_t *M, const pmilnor_t *A, int32_t gen_deg, int32_t in_deg,
                    int64_t in_idx, const uint8_t *vec);

/* 1 when gen_deg is the degree of an algebra generator at p (beta or some
 * P^{p^k}), else 0. */
int pfdmod_is_gen_degree(uint32_t p, int32_t gen_deg);

/* Derives every action from the generators: degree by degree, each basis
 * element a of A_k is written a = sum c g phi (g a generator in A, phi of
 * lower degree; one fixed solution from a row reduction) and a x = sum c g
 * (phi x).  Then checks (g phi) x = g (phi x) for every generator g, basis
 * element phi and x, which holds exactly when M is an A-module.  A must
 * have M's prime and profile and reach degree top - bottom.  Returns 0, or
 * SQ_E_INVAL with a one-line message: the first violated relation, or (over
 * a subalgebra not generated by its beta and P^{p^k}) the first operation
 * whose action cannot be derived although M has cells it would connect. */
int pfdmod_complete(pfdmod_t *M, const pmilnor_t *A, char *err, size_t errlen) SQ_WARN_UNUSED;

/* Checks that the stored table is a module over A: (a b) x = a (b x) for
 * every pair of basis elements a, b of positive degree (all pairs: no
 * assumption on generators) and every x.  For tests and for tables set
 * directly.  Returns 0 or SQ_E_INVAL with the first failure. */
int pfdmod_check_module(const pfdmod_t *M, const pmilnor_t *A, char *err,
                        size_t errlen) SQ_WARN_UNUSED;

/* The sphere S_p: F_p in degree 0, basis element "x0". */
pfdmod_t *pfdmod_sphere(uint32_t p);

/* A copy of M with every degree raised by k, named name (NULL: M's name). */
pfdmod_t *pfdmod_new_shifted(const pfdmod_t *M, int32_t k, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* PFDMOD_H */
