/*
 * resol_steenrod.h -- the algebraic Steenrod operations Sq^j on Ext of the
 * sphere at p = 2 (docs/steenrod.md): Sq^j : Ext^{s,t} -> Ext^{s+j,2t},
 * 0 <= j <= s, with Sq^s x = x^2 and Sq^0 the doubling of resol_sq0.h.
 *
 * The method is Steenrod's cup-i construction on the minimal resolution F
 * of F_2, the one the peer's steenrod example uses (and May's "A general
 * algebraic approach to Steenrod operations", 1970): A-linear maps
 *     Delta_i : F -> F (x) F   (diagonal action, homological degree +i)
 * with Delta_0 a diagonal (Delta_0(g_0) = g_0 (x) g_0) and
 *     d Delta_i + Delta_i d = (1 + tau) Delta_{i-1}
 * (tau the swap; signs vanish at p = 2).  For x in Ext^{s,t}, a cocycle on
 * the generators of F_s in degree t,
 *     (Sq^{s-i} x)(g) = (x (x) x)(Delta_i(g))
 * on the generators g of F_{2s-i} in degree 2t.  Delta_i is built
 * generator by generator: Delta_i(g) = H(z), z = (1 + tau)Delta_{i-1}(g) +
 * Delta_i(d g), a cycle of F (x) F, and H = h (x) 1 + i eps (x) h the
 * contraction of F (x) F made from a contraction h of F (the Kunneth
 * contraction: d H + H d = 1 - i eps (x) i eps).  h comes from the
 * quasi-inverses of F's stored differentials: h(c) = q_{a+1}(c -
 * q_a(d c)), q_a the quasi-inverse of d_a (resol_map_internal.h).  The
 * A-action on F (x) F is through the Milnor coproduct, Sq(R) -> sum over
 * R' + R'' = R of Sq(R') (x) Sq(R'').
 *
 * Two constructions, the same values (checked against each other).  By
 * default, as the peer does, F (x) F is replaced by E (x) E for E a Yoneda
 * representative of the class (resol_yoneda.h: an exact complex of small
 * finite modules 0 -> F_2[t] -> E_{s-1} -> ... -> E_0 -> F_2 -> 0 through
 * which x factors); the contraction of E comes from quasi-inverses of its
 * maps degree by degree, and the value is read on E_s (x) E_s = F_2.  One
 * representative per basis class; Sq^j is additive, so the rest follows.
 * Where no representative can be built (too large) the construction runs
 * on F itself for every class of the bidegree at once: H, tau and the
 * action never lower either factor's filtration a, b or internal degree
 * e1, e2, so only the blocks F_a(e1) (x) F_b(e2) with a, b <= s and
 * e1, e2 <= t (and at a = s only e1 = t) carry the answer, dense bit
 * blocks whose cost grows steeply with t.
 *
 * Threads: resol_steenrod_new only reads R; a built object is read-only.
 */
#ifndef RESOL_STEENROD_H
#define RESOL_STEENROD_H

#include <stdint.h>

#include "fmat.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_steenrod resol_steenrod_t;

/* How the cup-i maps are built: AUTO (the Yoneda representatives, and the
 * free resolution where one is refused as too large), FREE (on F itself,
 * for every class of the bidegree at once), YONEDA (one representative
 * per basis class; SQ_E_NOMEM when one is too large). */
typedef enum { RESOL_STEENROD_AUTO, RESOL_STEENROD_FREE, RESOL_STEENROD_YONEDA } resol_steenrod_method_t;

/* The operations on Ext^{s,t} of R (a resolution of S_2 over the whole
 * algebra): the quadratic forms (x (x) x) o Delta_i for i = 0..s on the
 * generators of F_{2s-i} in degree 2t.  Needs R computed through
 * filtration 2s and degree 2t in every filtration a <= 2s (stem 2t - a),
 * and, for s >= 1, (s + 1, t).  Returns 0 and sets *out (free with resol_steenrod_free;
 * it borrows R), or with *out = NULL: SQ_E_INVAL when R does not resolve
 * S_2 at p = 2 over the whole algebra or s < 0, SQ_E_RANGE when the region
 * is not computed or a lift fails (never a wrong class). */
int resol_steenrod_new(resol_steenrod_t **out, const resol_t *R, int32_t s,
                       int32_t t) SQ_WARN_UNUSED;

/* resol_steenrod_new by the given method (the results are the same), the
 * construction on F refused (SQ_E_NOMEM, *out = NULL) when max_bytes > 0
 * and resol_steenrod_estimate exceeds it. */
int resol_steenrod_new_by(resol_steenrod_t **out, const resol_t *R, int32_t s, int32_t t,
                          resol_steenrod_method_t method, double max_bytes) SQ_WARN_UNUSED;

/* An upper estimate of the bytes resol_steenrod_new(R, s, t) holds at its
 * peak (two levels of values of the Delta_i, whole blocks, and the
 * matrices of h and of the action), from the dimensions of R's free
 * modules only: for refusing a bidegree that cannot fit before it starts.
 * 0 when the region is not R's.  Cost: one pass over the generators. */
double resol_steenrod_estimate(const resol_t *R, int32_t s, int32_t t);

/* Frees Q; NULL is a no-op. */
void resol_steenrod_free(resol_steenrod_t *Q);

/* out = Sq^j x for x in Ext^{s,t} (x.len >= the Ext dimension there, p = 2)
 * over the generators of F_{s+j} in degree 2t (out.len >= their number,
 * that many entries written), 0 <= j <= s.  The form is quadratic, yet Sq^j
 * is additive: the cross term (x (x) y)(1 + tau) Delta_i is a coboundary,
 * zero on the generators of a minimal resolution.  Returns 0, or SQ_E_RANGE for j outside 0..s or out
 * too short, SQ_E_INVAL for x too short or not at p = 2. */
int resol_steenrod_apply(const resol_steenrod_t *Q, int32_t j, fvec_t x,
                         fvec_t out) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_STEENROD_H */
