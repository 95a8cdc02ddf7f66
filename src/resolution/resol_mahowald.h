/*
 * resol_mahowald.h -- the algebraic Mahowald (root) invariant on Ext of the
 * sphere at p = 2 (docs/steenrod.md), through the stunted projective
 * spaces RP_{-k}^inf (Mahowald--Ravenel, "The root invariant in homotopy
 * theory", Topology 32 (1993); Bruner--Greenlees, "The Bredon--Loffler
 * conjecture", Exp. Math. 4 (1995)).
 *
 * M_k = H^*(RP_{-k}^inf) has one class x_j in each degree j >= -k.  Two
 * classes of Ext^0(M_k) give chain maps of minimal resolutions
 * F^{M_k} -> F^{S_2} (resol_map_internal.h): the bottom cell, dual to
 * x_{-k} (the map RP_{-k}^inf -> S^{-k} pinching to the bottom cell), and
 * the (-1)-cell, dual to x_{-1} (indecomposable for every k: the transfer
 * S^{-1} -> RP_{-k}^inf), so that on Ext
 *     b_k : Ext^{s,t+k-1}(S_2) -> Ext^{s,t-1}(M_k),
 *     c_k : Ext^{s,t}(S_2)     -> Ext^{s,t-1}(M_k)
 * (y -> y o B_s, y o C_s: the class times the chain map).  The maps c_k
 * induce Ext^{s,t}(S_2) = lim_k Ext^{s,t-1}(M_k) (Lin's theorem,
 * algebraically).  For x in Ext^{s,t} let k be least with c_k(x) != 0;
 * then c_{k-1}(x) = 0 and by the long exact sequence of
 * S^{-k} -> RP_{-k}^inf -> RP_{-k+1}^inf, c_k(x) = b_k(y) for some y in
 * Ext^{s,t+k-1}(S_2): M(x) = y, defined modulo ker b_k (the
 * indeterminacy).  Conversely c_k(x) != 0 and in the image of b_k means k
 * is the least.  This is what the peer's mahowald_invariant computes, and
 * its conventions (the basis of y: the quasi-inverse of the reduced
 * [rows of b_k | I], the indeterminacy in reduced echelon form).
 *
 * Threads: everything here only reads RS and RP.
 */
#ifndef RESOL_MAHOWALD_H
#define RESOL_MAHOWALD_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The module H^*(RP_{-k}^inf) truncated to degrees <= max_degree (k >= 1,
 * max_degree >= -k), named "RP_-k_inf", or NULL with a one-line reason in
 * err (errlen bytes) when it cannot be built (its span beyond the limits of
 * rpmod_build).  The caller fdmod_frees it. */
fdmod_t *resol_mahowald_module(int32_t k, int32_t max_degree, char *err, size_t errlen);

/* The region of the computation for the peer's "Max k" = kmax: S_2 through
 * stem *sn = 2 kmax - 2 and filtration *ss = kmax / 2 + 1; RP_{-k}^inf
 * through stem k - 2 and filtration k / 2 + 1 (resol_mahowald_region_k). */
void resol_mahowald_region(int32_t kmax, int32_t *sn, int32_t *ss);
void resol_mahowald_region_k(int32_t k, int32_t *pn, int32_t *ps);

/* One invariant: M(x_(n, s, i)) = y at (out_n, s), y over the basis of Ext
 * there, modulo the rows of indet (reduced echelon form; 0 rows: none). */
typedef struct {
    int32_t n, s;
    int64_t i;
    int32_t out_n;
    fvec_t y;
    const fmat_t *indet;
} resol_mahowald_t;

/* Calls fn(ctx, m) for every basis class x_(n, s, i) of Ext(S_2) (RS, the
 * sphere's resolution) first detected in RP_{-k}^inf (RP, a resolution of
 * resol_mahowald_module(k, ...)), in the peer's order (stems, then s, then
 * i), over the bidegrees both regions hold: (s, t - 1) computed in RP and
 * (s, t + k - 1) in RS.  m and what it points to live for the call only.
 * fn returns 0 to go on, nonzero to stop (then returned).  Returns 0,
 * SQ_E_INVAL when RS is not S_2's resolution at p = 2 over the whole
 * algebra or RP's module has not its bottom cell in degree -k, SQ_E_RANGE
 * when a lift fails (never a wrong class). */
int resol_mahowald_k(const resol_t *RS, const resol_t *RP, int32_t k,
                     int (*fn)(void *ctx, const resol_mahowald_t *m), void *ctx) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_MAHOWALD_H */
