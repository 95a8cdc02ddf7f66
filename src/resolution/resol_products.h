/*
 * resol_products.h -- products on Ext read off a minimal resolution: by the
 * filtration-one classes h_i, and by any class of Ext of the sphere.
 *
 * A class of Ext^{s,t}(M, F_2) is a vector over the generators of F_s in
 * degree t (bit i = the dual of generator i, i.e. the class x_(t-s, s, i)).
 * Ext(M) is a module over Ext(S_2) (Yoneda composition); y . x below is
 * that action.
 *
 * Products by h_i (the class dual to Sq^{2^i}): for g a generator of
 * F_{s+1} in degree t + 2^i with d(g) = sum_{g'} a_{g'} g',
 *     (h_i x)(g) = sum_{g'} x(g') <xi_1^{2^i}, a_{g'}>,
 * the coefficient of Sq(2^i) in the Milnor basis (this functional vanishes
 * on decomposables, so it picks out h_i).  The matrix of x -> h_i x is read
 * straight off the stored differentials: no lifting.
 *
 * Products by any class y of Ext^{s2,t2}(S_2): x is lifted to a chain map
 * f_k : F^M_{s+k} -> F^S_k (degree t), f_0(g) = x(g) times the generator of
 * F^S_0, f_k(g) a preimage under d^S_k of f_{k-1}(d g), built generator by
 * generator with quasi-inverses recomputed from the stored differentials of
 * F^S (one row reduction per bidegree of F^S it passes through); then
 * (y . x)(g) = y(f_{s2}(g)) for the generators g of F^M_{s+s2} in degree
 * t + t2.  Memory: the chain map's values, a few times the differentials of
 * the rows it crosses.
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

/* Whether h_i acts: Sq^{2^i} lies in R's algebra (over a subalgebra some
 * h_i do not exist) and 2^i <= the algebra's degree.  0 <= i < 31. */
int resol_has_h(const resol_t *R, int i);

/* The matrix of x -> h_i x from Ext^{s,t} to Ext^{s+1, t+2^i}: *m is
 * initialised (the caller clears it) with one row per generator of F_{s+1}
 * in degree t + 2^i and one column per generator of F_s in degree t.
 * Returns 0, or SQ_E_RANGE (m empty) when (s + 1, t + 2^i) is not computed
 * or h_i does not act. */
int resol_h_matrix(const resol_t *R, int i, int32_t s, int32_t t, f2mat_t *m) SQ_WARN_UNUSED;

/* out = h_i x for x in Ext^{s,t} (resol_ext_dim bits), out over the
 * generators of F_{s+1} in degree t + 2^i.  Returns 0 or SQ_E_RANGE. */
int resol_h_product(const resol_t *R, int i, int32_t s, int32_t t, const uint64_t *x,
                    uint64_t *out) SQ_WARN_UNUSED;

/* out = y . x for x in Ext^{s,t}(M) (R resolves M) and y in
 * Ext^{s2,t2}(S_2) (RS resolves the sphere, over the same algebra), out
 * over the generators of F^M_{s+s2} in degree t + t2.  x holds
 * resol_ext_dim(R, s, t - s) bits and y resol_ext_dim(RS, s2, t2 - s2)
 * (bits beyond are ignored); out has out_limbs limbs, of which the first
 * f2_limbs(resol_ext_dim(R, s + s2, t + t2 - s - s2)) are written (the
 * class vectors of a bidegree have as many bits as Ext there: size them
 * from resol_ext_dim, never by a fixed bound).  Needs R computed
 * through (s + s2, t + t2) and RS through (s2, t2) -- rows 0..s2 of RS up
 * to degree t2.  Returns 0, SQ_E_RANGE when a needed bidegree is not
 * computed or out_limbs is too small for the product (out untouched),
 * SQ_E_INVAL when RS is not a resolution of the sphere over R's algebra.  Cost: one quasi-inverse per bidegree (k, e - t) of RS crossed,
 * k <= s2, e <= t + t2, and one Milnor product per term applied. */
int resol_product(const resol_t *R, const resol_t *RS, int32_t s, int32_t t, const uint64_t *x,
                  int32_t s2, int32_t t2, const uint64_t *y, uint64_t *out,
                  size_t out_limbs) SQ_WARN_UNUSED;

/* A representative of the Massey product <a, b, c> in
 * Ext^{sa+sb+sc-1, ta+tb+tc}(M), for a in Ext^{sa,ta}(S_2), b in
 * Ext^{sb,tb}(S_2) (RS resolves the sphere), c in Ext^{sc,tc}(M) (R
 * resolves M), with a b = 0 and b c = 0.  With C the chain map lifting c
 * and B the one lifting b, B C lifts b c = 0 and is null-homotopic:
 * H_{k+1} = lift(B_k C_{sb+k} + H_k d) from H_0 = 0; then a H_sa is the
 * representative written to out (over the generators of F^M_{sa+sb+sc-1}
 * in degree ta + tb + tc: f2_limbs of resol_ext_dim there, at most
 * out_limbs limbs).  a, b and c hold the Ext dimension of their bidegree in
 * bits, as x in resol_product.  It is defined up to the indeterminacy
 * a Ext^{sb+sc-1, tb+tc}(M) + Ext^{sa+sb-1, ta+tb}(S_2) c
 * (resol_massey_indeterminacy).  sa, sb >= 1.
 * Returns 0, SQ_E_INVAL when a b or b c is not zero (or RS is not the
 * sphere's resolution), SQ_E_RANGE when out_limbs is too small (out
 * untouched) or a needed bidegree is not computed:
 * R through filtration sa + sb + sc - 1 and that stem, RS through
 * filtration sa + sb and stem (ta + tb) - (sa + sb) + 1. */
int resol_massey(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta, const uint64_t *a,
                 int32_t sb, int32_t tb, const uint64_t *b, int32_t sc, int32_t tc,
                 const uint64_t *c, uint64_t *out, size_t out_limbs) SQ_WARN_UNUSED;

/* The indeterminacy of <a, b, c> (as resol_massey): the span of
 * a x for x in Ext^{sb+sc-1, tb+tc}(M) and y c for y in
 * Ext^{sa+sb-1, ta+tb}(S_2), as the rows of *m (initialised here, in
 * reduced echelon form, one row per basis vector of the span; the caller
 * clears it), over the generators of F^M_{sa+sb+sc-1} in degree
 * ta + tb + tc.  Returns 0 or SQ_E_RANGE. */
int resol_massey_indeterminacy(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta,
                               const uint64_t *a, int32_t sb, int32_t tb, int32_t sc, int32_t tc,
                               const uint64_t *c, f2mat_t *m) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_PRODUCTS_H */
