/*
 * fdmod_dual.h -- the Spanier-Whitehead dual DN of a finite module N
 * (p = 2 and odd p): the cohomology of the dual spectrum
 * (docs/modules.md, "Duals").
 *
 * Degrees and basis: (DN)^{-n} = Hom(N^n, F_p).  The basis element named
 * "x*" of degree -n is s(n) x^*, x^* the functional dual to the basis
 * element x of N^n (x^*(y) = 1 for y = x, 0 for the other basis elements),
 * s(n) = (-1)^{n(n-1)/2} at odd p and 1 at p = 2; the basis of degree -n
 * is in N^n's order.  A name that already ends in '*' loses it instead
 * ("x*" -> "x"), and the module D(X) is called X: so D(D(N)) is N's file
 * (tests/module/t-dual.c).
 *
 * Action: a acts on a functional f by
 *     (a f)(x) = (-1)^{|a||f|} f(chi(a) x),
 * chi the antipode (stalg_chi.h).  The sign is the Koszul rule's: it is the
 * one that makes the evaluation DN ⊗ N -> F_p, f ⊗ x -> f(x), A-linear
 * for the Cartan formula of fdmod_tensor.h: for beta, beta(f ⊗ x) =
 * beta f ⊗ x + (-1)^{|f|} f ⊗ beta x must evaluate to 0, so (beta f)(x) =
 * -(-1)^{|f|} f(beta x) = (-1)^{|f|} f(chi(beta) x) (chi(beta) = -beta; the
 * P^{p^k} are even, no sign).  It is an action since chi(ab) =
 * (-1)^{|a||b|} chi(b) chi(a).  On the
 * basis, for a generator a of degree k and x in N^n:
 *     a "x*" = sum_{z in N^{n-k}} (-1)^{kn} s(n)/s(n-k) [x in chi(a) z] "z*".
 * The factor s makes the double dual literally N: with the plain dual basis
 * D(D(N)) is N only up to x -> (-1)^{|x|} x^{**} (beta changes sign).  At
 * p = 2 every sign is 1.  The generators' actions are set by the formula and
 * every other Milnor basis element's derived by fdmod_complete_alg, which
 * checks every relation.
 *
 * A module over a sub-Hopf algebra B has its dual over B (chi maps B to B).
 */
#ifndef FDMOD_DUAL_H
#define FDMOD_DUAL_H

#include <stddef.h>

#include "fdmod.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds DN as above, called name (NULL: X when N is called "D(X)", else
 * "D(<N's name>)").  N must be complete (every Milnor basis element's
 * action set, as the module reader and fdmod_complete_alg leave it).
 * Returns 0 with *out set (the caller frees it), or a negative code with
 * *out NULL and one line in err (errlen bytes): SQ_E_INVAL (N has no
 * cells).  Cost: chi of each generator (stalg_chi_gen, Milnor's closed
 * form), then for each generator and degree the products chi(a) z (one
 * action per basis element of A in the generator's degree), then
 * fdmod_complete_alg;
 * DN's tables are as large as N's.  N is only read. */
int fdmod_dual(fdmod_t **out, const fdmod_t *N, const char *name, char *err,
               size_t errlen) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* FDMOD_DUAL_H */
