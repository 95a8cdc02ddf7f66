/*
 * resol_extmn.h -- Ext_A^{s,t}(M, N) for two finite modules M, N at the
 * same prime, from the minimal resolution F of M alone.
 *
 * An A-map phi : F_s -> N lowering degrees by t is fixed by the image of
 * each generator g of F_s, an element of N_{|g| - t}; the cochains
 *     C^{s,t} = Hom_A^t(F_s, N) = sum over generators g of F_s of N_{|g| - t}
 * form a complex with (delta phi)(h) = phi(d h) for h a generator of
 * F_{s+1}, phi extended A-linearly (phi(a g) = a phi(g)), and
 *     Ext^{s,t}(M, N) = ker delta / im delta,
 * its dimension dim C^{s,t} - rank delta_s - rank delta_{s-1} (ranks over
 * the prime's field, fmat_t).  Stem n = t - s, as for Ext(M, F_p): with N
 * the sphere (F_p in degree 0) C^{s,t} is spanned by the generators of
 * F_s in degree t and delta is zero (minimality), so Ext(M, F_p) is the
 * ordinary Ext of M cell for cell.  For M = H^*X and N = H^*Y it is the
 * E_2 page of the Adams spectral sequence of [Sigma^n Y, X]; since
 * Hom_A(M, N) = Hom_A(M ⊗ DN, F_p) with DN the dual of N (degrees
 * negated), Ext^{s,t}(M, N) = Ext^{s,t}(M ⊗ DN, F_p) (tests/resolution/t-extmn.c
 * checks it: C2 ⊗ DC2 = C2 * C2[-1]).  The signs of graded A-linearity at an
 * odd prime change delta by a diagonal change of basis, not its ranks.
 *
 * Stems run from bottom(M) - top(N) (below that every C^{s,t} is zero)
 * to max_n.  The resolution must reach filtration max_s + 1 and stem
 * max_n + top(N) (resol_extmn_region).
 */
#ifndef RESOL_EXTMN_H
#define RESOL_EXTMN_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_extmn resol_extmn_t;

/* The region (max_s, max_n) a resolution of M must be computed through
 * for Ext(M, N) through (max_s, max_n): (max_s + 1, max_n + top(N)), in
 * *rs and *rn.  N nonzero. */
void resol_extmn_region(const fdmod_t *N, int32_t max_s, int32_t max_n, int32_t *rs, int32_t *rn);

/* Whether Ext(M, N) can be computed: the same prime and the same profile
 * (N's action indexed by the resolution's algebra), N nonzero.  Returns 0,
 * or SQ_E_INVAL with one line in err (errlen bytes). */
int resol_extmn_check(const fdmod_t *M, const fdmod_t *N, char *err, size_t errlen);

/* The most bytes one coboundary matrix may take by default (max_bytes 0
 * of resol_extmn_new). */
#define RESOL_EXTMN_MAX_BYTES 2e9

/* Computes Ext^{s,t}(M, N) for 0 <= s <= max_s and stems
 * bottom(M) - top(N) <= t - s <= max_n, M being R's input (R computed
 * through resol_extmn_region; N borrowed, only read during the call).
 * Returns 0 with *out set (free with resol_extmn_free), or with *out NULL:
 * SQ_E_INVAL (resol_extmn_check), SQ_E_RANGE (R not computed that far),
 * SQ_E_NOMEM (a coboundary matrix beyond max_bytes, 0: RESOL_EXTMN_MAX_BYTES;
 * refused before it is allocated), with one line in err.  Cost: per (s, t) one matrix of dim C^{s,t} rows
 * and dim C^{s+1,t} columns built from the stored d(h), and its rank. */
int resol_extmn_new(resol_extmn_t **out, const resol_t *R, const fdmod_t *N, int32_t max_s,
                    int32_t max_n, double max_bytes, char *err, size_t errlen) SQ_WARN_UNUSED;

/* Frees E; NULL is a no-op. */
void resol_extmn_free(resol_extmn_t *E);

/* The lowest stem of E's region: bottom(M) - top(N). */
int32_t resol_extmn_min_n(const resol_extmn_t *E);

/* dim Ext^{s, s+n}(M, N), or -1 outside the computed region. */
int64_t resol_extmn_dim(const resol_extmn_t *E, int32_t s, int32_t n);

/* dim C^{s,t} = Hom_A^t(F_s, N), F_s the resolution's: the length of a
 * cochain.  A cochain phi is a vector over C^{s,t} in this order: the
 * generators g of F_s by degree e = t + bottom(N) .. t + top(N), then by
 * index within the degree, each followed by the dim N_{e - t} entries of
 * phi(g) in N's basis (degrees where N is zero contribute nothing).  R
 * computed through filtration s and degree t + top(N). */
int64_t resol_extmn_cochain_dim(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t);

/* What a cochain is (resol_extmn_class_kind). */
enum {
    RESOL_EXTMN_CLASS = 0,      /* a cocycle, not a coboundary: a nonzero class */
    RESOL_EXTMN_ZERO = 1,       /* a coboundary (zero included): the zero class */
    RESOL_EXTMN_NOT_COCYCLE = 2 /* phi(d h) != 0 for some generator h of F_{s+1} */
};

/* Classifies phi (resol_extmn_cochain_dim entries, N at R's prime and
 * profile: resol_extmn_check) as a class of Ext^{s,t}(M, N).  R must be
 * computed through filtration s + 1 and degree t + top(N).  Cost: the
 * coboundary matrices delta_s and delta_{s-1} at t and a rank each. */
int resol_extmn_class_kind(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t, fvec_t phi);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_EXTMN_H */
