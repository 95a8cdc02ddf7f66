/*
 * resol_products.h -- products on Ext read off a minimal resolution, at
 * every prime p (R's, resol_prime): by the filtration-one classes, by any
 * class of Ext of the sphere, and Massey products.
 *
 * Classes.  A class of Ext^{s,t}(M, F_p) is a vector over the generators
 * of F_s in degree t, in the field's encoding (fmat.h's fvec_t: bits at
 * p = 2, residues 0..p-1 at odd p): entry i is the coefficient of the dual
 * of generator i, the class x_(t-s, s, i).  In a minimal resolution every
 * such vector is a cocycle F_s -> F_p and no nonzero one is a coboundary,
 * so classes and vectors are the same thing.  Ext(M) is a module over
 * Ext(S_p) (Yoneda composition); y . x below is that action.
 *
 * Filtration-one classes (resol_filt1_*): h_i at p = 2 (dual to Sq^{2^i});
 * a_0 (dual to beta = Q_0) and h_i (dual to P^{p^i}) at odd p.  For g a
 * generator of F_{s+1} with d(g) = sum_{g'} a_{g'} g',
 *     (c x)(g) = sum_{g'} x(g') <xi, a_{g'}>,
 * <xi, -> the coefficient of the class's operation in the Milnor basis
 * (Sq(2^i), Q_0, P(p^i): xi = xi_1^{2^i}, tau_0, xi_1^{p^i}, primitives of
 * the dual, so the functional vanishes on decomposables and picks out the
 * class).  The matrix of x -> c x is read straight off the stored
 * differentials: no lifting, and no sign: it is the Yoneda product below
 * with y = c (the same vector).
 *
 * Products by any class y of Ext^{s2,t2}(S_p): x is lifted to a chain map
 * f_k : F^M_{s+k} -> F^S_k (degree t), f_0(g) = x(g) times the generator of
 * F^S_0, f_k(g) a preimage under d^S_k of f_{k-1}(d g) (d f = f d: no
 * signs), built generator by generator with quasi-inverses recomputed from
 * the stored differentials of F^S (one row reduction per bidegree of F^S it
 * passes through); then (y . x)(g) = y(f_{s2}(g)) for the generators g of
 * F^M_{s+s2} in degree t + t2.  Another lift differs by a homotopy K
 * (f - f' = d K + K d), and y(d K + K d) = 0 (y d = 0; y K d vanishes on
 * generators, d g being decomposable by minimality).  Memory: the chain
 * map's values, a few times the differentials of the rows it crosses.
 *
 * Massey products <a, b, c>, a, b in Ext(S_p), c in Ext(M), a b = 0 = b c
 * (the signs, derived here, hold at every prime; at p = 2 they vanish).
 * C lifts c (C_k : F^M_{sc+k} -> F^S_k) and B lifts b (B_k : F^S_{sb+k} ->
 * F^S_k) as above; G_k = B_k C_{sb+k} : F^M_{N+k} -> F^S_k (N = sb + sc)
 * is a chain map lifting b c.  The null-homotopy H_k : F^M_{N+k-1} -> F^S_k
 * (degree tb + tc), H_0 = 0, satisfies
 *     d H_{k+1} + H_k d = G_k        (k >= 0),
 * built as H_{k+1}(g) = a preimage of G_k(g) - H_k(d g).  The argument is a
 * cycle: d(G_k g - H_k d g) = G_{k-1} d g - (G_{k-1} - H_{k-1} d) d g = 0,
 * and for k = 0 its augmentation is the cocycle b c = 0; so a preimage
 * exists (exactness).  The representative is
 *     <a, b, c>  contains  a H_sa   (a cochain on F^M_{sa+sb+sc-1}),
 * a cocycle: a H_sa d = a (G_sa - d H_{sa+1}) = (a B_sa) C_{sa+sb} = 0, as
 * a B_sa is the cocycle a b = 0 and a d = 0.  Other choices of H, B, C
 * change it by a x (x in Ext^{sb+sc-1}(M)) and y c (y in
 * Ext^{sa+sb-1}(S_p)): the indeterminacy.  With the other common
 * convention (d H = H d + G, or a sign (-1)^k on H_k) the representative
 * changes by a unit of F_p, which leaves whether it is zero and the set
 * modulo the indeterminacy up to that unit; the tests check the relations
 * that do not depend on it (x <y, b, c> within <x y, b, c>, the literature's
 * values up to a unit).
 *
 * Threads: all functions only read R (and RS); several may run at once.
 */
#ifndef RESOL_PRODUCTS_H
#define RESOL_PRODUCTS_H

#include <stddef.h>
#include <stdint.h>

#include "f2mat.h"
#include "fmat.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The filtration-one classes (every prime) ------------------------------ */

/* The filtration-one classes of R's algebra, k = 0, 1, 2, ...: at p = 2,
 * class k is h_k (dual to Sq^{2^k}, internal degree t = 2^k, stem
 * 2^k - 1); at an odd prime p, class 0 is a_0 (dual to the Bockstein beta,
 * t = 1, stem 0) and class k >= 1 is h_{k-1} (dual to P^{p^{k-1}},
 * t = 2(p - 1)p^{k-1}, stem t - 1).  0 <= k < 31. */

/* The internal degree t of class k, or -1 when it does not act in R (its
 * operation is not in R's (sub)algebra, or its degree exceeds the
 * algebra's degree, or the degree overflows). */
int32_t resol_filt1_degree(const resol_t *R, int k);

/* Its name, "h0", "h1", ... at p = 2; "a0", "h0", "h1", ... at odd p (buf
 * of n >= 8 bytes; any k < 31 is named, acting or not). */
void resol_filt1_name(const resol_t *R, int k, char *buf, size_t n);

/* The matrix of x -> c_k x from Ext^{s,t} to Ext^{s+1, t + deg},
 * deg = resol_filt1_degree(R, k): *m is initialised here at R's prime
 * (fmat_init; the caller fmat_clears it) with one row per generator of
 * F_{s+1} in degree t + deg and one column per generator of F_s in degree
 * t; the entry (i, j) is the coefficient (a residue 0..p-1, no sign) of
 * the class's operation (Sq(2^k), Q_0 = beta, P(p^{k-1}) in the Milnor
 * basis) in the differential of generator i on generator j.  The product
 * c_k . x of a class x (a vector over the generators of F_s in degree t)
 * is then the vector sum_j m(i, j) x_j, i.e. the Yoneda product computed
 * by resol_product with y = c_k (the same vector, no sign).  Returns 0,
 * or SQ_E_RANGE (m empty, 0 x 0, a zeroed struct) when the target
 * bidegree is not computed or the class does not act.  At p = 2 the same
 * bits as resol_h_matrix.  Threads: reads R only. */
int resol_filt1_matrix(const resol_t *R, int k, int32_t s, int32_t t, fmat_t *m) SQ_WARN_UNUSED;

/* out = c_k x for x in Ext^{s,t} (x.len >= the Ext dimension there, at R's
 * prime), out (at R's prime, out.len >= the generators of F_{s+1} in degree
 * t + deg) over those generators: its first that many entries are written.
 * Returns 0, SQ_E_RANGE as resol_filt1_matrix, or SQ_E_INVAL when x or
 * out is of another prime or too short. */
int resol_filt1_product(const resol_t *R, int k, int32_t s, int32_t t, fvec_t x,
                        fvec_t out) SQ_WARN_UNUSED;

/* ---- The p = 2 names (wrappers over the above, for the callers that hold
 * f2mat_t) ------------------------------------------------------------------- */

/* p = 2: resol_filt1_degree(R, i) >= 0 (0 at odd p).  Kept for the chart
 * until it moves to the names above. */
int resol_has_h(const resol_t *R, int i);

/* p = 2: resol_filt1_matrix's F_2 matrix (SQ_E_RANGE, m zeroed, at odd p). */
int resol_h_matrix(const resol_t *R, int i, int32_t s, int32_t t, f2mat_t *m) SQ_WARN_UNUSED;

/* ---- Products by classes of the sphere (every prime) ------------------------ */

/* out = y . x for x in Ext^{s,t}(M) (R resolves M) and y in
 * Ext^{s2,t2}(S_p) (RS resolves the sphere at R's prime, over the same
 * algebra), out over the generators of F^M_{s+s2} in degree t + t2.  x and
 * y are class vectors at R's prime with at least the Ext dimension of their
 * bidegree in entries (resol_ext_dim; entries beyond are ignored); out
 * (R's prime) has out.len >= the Ext dimension of (s + s2, t + t2), and
 * that many entries are written (size class vectors from resol_ext_dim,
 * never by a fixed bound).  Needs R computed through (s + s2, t + t2) and
 * RS through (s2, t2) -- rows 0..s2 of RS up to degree t2.  Returns 0,
 * SQ_E_RANGE when a needed bidegree is not computed or out is too short
 * or of another prime (out untouched), or when a vector to lift is not a
 * boundary (every lift is checked: a region short of what the lift reads,
 * or a bug, never gives a wrong class), SQ_E_INVAL when RS is not a
 * resolution of the sphere at R's prime, or x or y is too short or of
 * another prime.  Cost: one quasi-inverse per bidegree (k, e - t) of RS
 * crossed, k <= s2, e <= t + t2, and one product in the algebra per term
 * applied. */
int resol_product(const resol_t *R, const resol_t *RS, int32_t s, int32_t t, fvec_t x,
                  int32_t s2, int32_t t2, fvec_t y, fvec_t out) SQ_WARN_UNUSED;

/* ---- Massey products (every prime) ----------------------------------------- */

/* A representative of the Massey product <a, b, c> in
 * Ext^{sa+sb+sc-1, ta+tb+tc}(M), for a in Ext^{sa,ta}(S_p), b in
 * Ext^{sb,tb}(S_p) (RS resolves the sphere), c in Ext^{sc,tc}(M) (R
 * resolves M), with a b = 0 and b c = 0; the conventions and signs are in
 * the comment at the top.  a, b and c are class vectors as x in
 * resol_product; out (R's prime, out.len >= the Ext dimension of the
 * target) receives the representative over the generators of
 * F^M_{sa+sb+sc-1} in degree ta + tb + tc.  It is defined up to the
 * indeterminacy a Ext^{sb+sc-1, tb+tc}(M) + Ext^{sa+sb-1, ta+tb}(S_p) c
 * (resol_massey_indeterminacy).  sa, sb >= 1.  Returns 0, SQ_E_INVAL
 * when a b or b c is not zero (or RS is not the sphere's resolution at R's
 * prime, or a vector is too short or of another prime), SQ_E_RANGE when
 * out is too short (out untouched), a lift is not of a boundary (as in
 * resol_product; the sign of H is what makes them boundaries at odd p), or a
 * needed bidegree is not computed:
 * R through filtration sa + sb + sc - 1 and that stem, RS through
 * filtration sa + sb and stem (ta + tb) - (sa + sb) + 1. */
int resol_massey(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta, fvec_t a,
                 int32_t sb, int32_t tb, fvec_t b, int32_t sc, int32_t tc, fvec_t c,
                 fvec_t out) SQ_WARN_UNUSED;

/* The indeterminacy of <a, b, c> (as resol_massey): the span of a x for x
 * in Ext^{sb+sc-1, tb+tc}(M) and y c for y in Ext^{sa+sb-1, ta+tb}(S_p),
 * as the rows of *m (initialised here at R's prime, in canonical reduced
 * echelon form, one row per basis vector of the span; the caller
 * fmat_clears it), over the generators of F^M_{sa+sb+sc-1} in degree
 * ta + tb + tc.  Returns 0, or SQ_E_RANGE / SQ_E_INVAL as resol_product
 * (m a zeroed struct). */
int resol_massey_indeterminacy(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta,
                               fvec_t a, int32_t sb, int32_t tb, int32_t sc, int32_t tc,
                               fvec_t c, fmat_t *m) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_PRODUCTS_H */
