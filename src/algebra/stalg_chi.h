/*
 * stalg_chi.h -- the antipode (conjugation) chi of the Steenrod algebra in
 * the Milnor basis, at p = 2 and odd p, over the algebra of a handle
 * (a sub-Hopf algebra given by a profile is closed under chi).
 *
 * chi is the anti-automorphism with sum a' chi(a'') = epsilon(a) for the
 * coproduct psi(a) = sum a' ⊗ a''; so for a basis element x of positive
 * degree, the term 1 ⊗ x of psi(x) gives
 *     chi(x) = - sum_{x' != 1} x' chi(x''),
 * a recursion in the degree of x''.  The Milnor coproduct is
 *     psi(Q(E) P(R)) = sum_{E' ⊔ E'' = E, R' + R'' = R}
 *                      (-1)^{s(E', E'')} Q(E') P(R') ⊗ Q(E'') P(R''),
 * s(E', E'') the number of pairs b in E'', a in E' with b < a (moving the
 * odd 1 ⊗ Q_b past Q_a ⊗ 1 in the product of psi(Q_n) = Q_n ⊗ 1 + 1 ⊗ Q_n;
 * the P(R) are even: no further sign).  At p = 2 the same with no Q(E) and
 * no sign.  Checked (tests/algebra/t-stalg-chi.c): chi^2 = 1, chi(Sq^n)
 * by the recursion sum Sq^i chi(Sq^{n-i}) = 0 and as Milnor's sum of every
 * Sq(R) of degree n, chi(P^n) = (-1)^n sum_{|P(R)| = |P^n|} P(R), and
 * chi(ab) = (-1)^{|a||b|} chi(b) chi(a).
 */
#ifndef STALG_CHI_H
#define STALG_CHI_H

#include <stdint.h>

#include "fmat.h"
#include "stalg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stalg_chi stalg_chi_t;

/* chi of every basis element of S in degrees 0..deg (clamped to S's max
 * degree).  S must outlive the table.  Cost: for each basis element x =
 * Q(E) P(R), 2^|E| prod (r_i + 1) products of a basis element by a vector
 * (stalg_mul_vec_add); memory sum_d dim(A_d)^2 entries.  Free with
 * stalg_chi_free. */
stalg_chi_t *stalg_chi_new(const stalg_t *S, int32_t deg);

/* Frees X; NULL is a no-op. */
void stalg_chi_free(stalg_chi_t *X);

/* The largest degree X covers. */
int32_t stalg_chi_max_degree(const stalg_chi_t *X);

/* chi of the basis element (deg, idx) as a vector over the basis of degree
 * deg (a view owned by X).  Preconditions (SQ_CHECK): 0 <= deg <=
 * stalg_chi_max_degree(X), 0 <= idx < stalg_dim(S, deg). */
fvec_t stalg_chi(const stalg_chi_t *X, int32_t deg, int64_t idx);

/* out (zeroed by the caller, at S's prime, stalg_dim(S, deg) entries) =
 * chi of the algebra generator of degree deg, by Milnor's closed form
 * (Milnor 1958, Cor. 6; checked against the recursion above in
 * tests/algebra/t-stalg-chi.c): chi(Sq^n) = sum of every Sq(R) of degree
 * n; at odd p chi(beta) = -beta and chi(P^n) = (-1)^n sum of every P(R) of
 * degree |P^n| (no Q(E)).  Under a profile every such element lies in S
 * when the generator does (chi maps S to S).  Preconditions (SQ_CHECK):
 * stalg_gen_index(S, deg) >= 0.  Cost O(dim S_deg) reads of the basis: for
 * a module's dual (fdmod_dual.h), where the table would cost sum_d dim
 * A_d^2 and more. */
void stalg_chi_gen(const stalg_t *S, int32_t deg, fvec_t out);

#ifdef __cplusplus
}
#endif

#endif /* STALG_CHI_H */
