/*
 * resol_sq0.h -- the algebraic Steenrod operation Sq^0 on Ext of the sphere
 * at p = 2 (docs/steenrod.md).
 *
 * The doubling.  The Frobenius of the dual Steenrod algebra (xi_i -> xi_i^2)
 * is dual to the "halving" map A -> A: Sq(R) -> Sq(R/2) when every r_i is
 * even, 0 otherwise, a map of algebras that halves degrees.  For an
 * A-module N let Phi N be N with its degrees doubled and a acting as
 * halve(a) (Sq(2R) acts as Sq(R), the other Milnor basis elements as 0).
 * Phi is exact, so Phi F is an exact (not free) complex over Phi F_2 = F_2,
 * and the identity of F_2 lifts to a chain map phi : F -> Phi F of the
 * minimal resolution F of F_2 (phi_k(g) = 0 on generators of odd degree).
 * The induced map on cochains, x -> x o phi, is Sq^0:
 *     Sq^0 : Ext^{s,t} -> Ext^{s,2t},  (Sq^0 x)(g) = x(phi_s(g)),
 * g a generator of F_s in degree 2t, phi_s(g) an element of F_s in degree
 * t whose coefficients on the generators of degree t are read by x.
 * Sq^0 h_i = h_{i+1}, and Sq^0 is a map of rings (it is the operation Sq^0
 * of the cup-i structure; resol_steenrod.h computes all Sq^i).
 *
 * phi_0 sends the generator of F_0 to that of Phi F_0 (degree 0); for
 * k >= 1 and g of degree 2e with d g = sum a_h h,
 *     phi_k(g) = a preimage under d_k (in degree e) of
 *                sum_h halve(a_h) phi_{k-1}(h),
 * built generator by generator with the quasi-inverses of the stored
 * differentials (resol_map_internal.h).  Another lift differs by a
 * homotopy and gives the same map on Ext (d g is decomposable).
 *
 * Threads: resol_sq0_new only reads R; a built map is read-only.
 */
#ifndef RESOL_SQ0_H
#define RESOL_SQ0_H

#include <stdint.h>

#include "fmat.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_sq0 resol_sq0_t;

/* Lifts phi on the whole computed region of R, a resolution of the sphere
 * S_2 over the whole Steenrod algebra: levels 0 .. resol_max_s(R), the
 * generators of every published degree.  Returns 0 and sets *out (free
 * with resol_sq0_free; it borrows R), or with *out = NULL: SQ_E_INVAL when
 * R does not resolve the sphere at p = 2 over the whole algebra,
 * SQ_E_RANGE when a lift fails (a bug: never a wrong map).  Cost: one
 * quasi-inverse of d_k per (k, degree) crossed and one Milnor product per
 * term applied: about what a product by a class of each filtration costs. */
int resol_sq0_new(resol_sq0_t **out, const resol_t *R) SQ_WARN_UNUSED;

/* Frees Q; NULL is a no-op. */
void resol_sq0_free(resol_sq0_t *Q);

/* The matrix of Sq^0 from Ext^s at stem n to Ext^s at stem 2n + s (the
 * bidegree (s, 2t)): *m is initialised here at p = 2 (the caller
 * fmat_clears it) with one row per class x_(n, s, i) and one column per
 * class x_(2n + s, s, j); row i is Sq^0 x_(n, s, i).  Returns 0, or
 * SQ_E_RANGE (m zeroed) when (s, 2t) or (s, t) is not computed. */
int resol_sq0_matrix(const resol_sq0_t *Q, int32_t s, int32_t n, fmat_t *m) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_SQ0_H */
