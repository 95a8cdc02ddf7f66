/*
 * resol_secondary_prod_internal.h -- what the secondary Massey products
 * (resol_secondary_massey.c) use of the secondary products'
 * machinery (resol_secondary_prod.c): the kept families of a lift, the
 * R_B-valued composites and their action, and the lift of a class to a
 * chain map.  Internal to the resolution layer.
 *
 * A composite set is one resol_sec_comp_t per generator of a free module
 * (g = 0 .. n - 1, global order): the nonzero R_B-valued coefficients of
 * a composite of two maps on the generators of the target.  An element of
 * degree 0 (a composite that hits a generator: 2 times it) is allowed.
 *
 * Threads: as resol_secondary_prod.h; the composite builders run on the
 * pool, one generator's slot per job.
 */
#ifndef RESOL_SECONDARY_PROD_INTERNAL_H
#define RESOL_SECONDARY_PROD_INTERNAL_H

#include <stdint.h>

#include "pair_algebra.h"
#include "resol_map_internal.h"
#include "resol_secondary_prod.h"

/* One generator's composite: tgt[j] (global generators of the target) and
 * e[j] (finished elements of R_B), j < n. */
typedef struct {
    int64_t n;
    int64_t *tgt;
    pair_elt_t *e;
} resol_sec_comp_t;

/* The families kept by P (borrowed, read-only): f (f_k : F_{s0+k} ->
 * G_k), H (vals[k - 1] = H_k : F_{s0+k} -> G_{k-1}, H_1 = 0), and the
 * canonical homotopies of the two resolutions (vals[s - 2] = h_s; the
 * same family for both when RS == RM). */
const resol_cmap_t *resol_sec_prod_f(const resol_sec_prod_t *P);
const resol_cmap_t *resol_sec_prod_H(const resol_sec_prod_t *P);
const resol_cmap_t *resol_sec_prod_hM(const resol_sec_prod_t *P);
const resol_cmap_t *resol_sec_prod_hS(const resol_sec_prod_t *P);

/* The values of a map on the generators of its source: a view over the
 * target in degree deg(g) - shift (zero-length for zero). */
typedef fvec_t (*resol_sec_val_fn)(const void *ctx, int64_t g);

/* acc[g2] += sigma(a) sigma(b) for every term a g1 of u (over X in degree
 * e, all its generators) and b g2 of val(g1) (over Y in degree deg(g1) -
 * shift); acc[g2] (degree e - shift - deg(g2), 0 allowed) is initialised
 * on first use (acc: fmod_total_gens(Y) zeroed slots). */
void resol_sec_compose_add(const pairalg_t *P, const fmod_t *X, int32_t e, fvec_t u,
                           resol_sec_val_fn val, const void *vctx, int32_t shift, const fmod_t *Y,
                           pair_elt_t *acc);
/* The values of a chain-map family's level as a resol_sec_val_fn: ctx is
 * the fvec_t array vals[k] of a resol_cmap_t. */
fvec_t resol_sec_cmap_val(const void *ctx, int64_t g);
/* The values of a resolution's differential d_s as a resol_sec_val_fn:
 * ctx is a resol_sec_dval_t. */
typedef struct {
    const resol_t *R;
    int32_t s;
} resol_sec_dval_t;
fvec_t resol_sec_dval(const void *ctx, int64_t g);

/* Finishes the accumulators acc[0 .. n) into c (the nonzero ones; acc's
 * elements move into c or are freed).  Returns 0, or 1 when one is not in
 * R_B (a bug). */
int resol_sec_comp_finish(resol_sec_comp_t *c, pair_elt_t *acc, int64_t n);
/* Frees c[0 .. n) and c; NULL is a no-op. */
void resol_sec_comps_clear(resol_sec_comp_t *c, int64_t n);

/* out (over T in degree e - shift - 1) += sum over the terms a g1 of u
 * (over X in degree e; generators g1 < ncomp of degree < e) of A(a,
 * comps[g1]). */
void resol_sec_act_add(const pairalg_t *P, const fmod_t *X, int32_t e, fvec_t u,
                       const resol_sec_comp_t *comps, int64_t ncomp, int32_t shift,
                       const fmod_t *T, fvec_t out);

/* The composites C_j of P's lift (j >= 1) on the first n generators of
 * F_{s0+j} (into G_{j-1}), and c^G of its sphere's G_k (k >= 2, into
 * G_{k-2}) on the first n generators of G_k: c (n slots, zeroed) filled on
 * the pool.  Return 0, or 1 when a composite is not in R_B (a bug). */
int resol_sec_prod_map_comps(const pairalg_t *A, const resol_sec_prod_t *P, int32_t j,
                             int64_t n, resol_sec_comp_t *c, sq_pool_t *pool);
int resol_sec_prod_unit_comps(const pairalg_t *A, const resol_sec_prod_t *P, int32_t k,
                              int64_t n, resol_sec_comp_t *c, sq_pool_t *pool);

/* Lifts the class x over the generators of C->P's F_{s0} in degree C->t0
 * to the chain map C (levels 0 .. kmax; level k on the generators of
 * degree <= emax - (kmax - k)), by Q's quasi-inverses. */
void resol_sec_lift_class(resol_cmap_t *C, resol_qis_t *Q, fvec_t x, int32_t emax);

/* resol_sec_prod_new for the zero class at (n0, s0) where Ext(M) is zero
 * (f = 0, H = 0; the lifts of the two resolutions): SQ_E_INVAL when Ext
 * there is not zero; otherwise returns as resol_sec_prod_new. */
int resol_sec_prod_new_zero(resol_sec_prod_t **out, const resol_t *RM, const resol_t *RS,
                            int32_t n0, int32_t s0, int32_t max_n, int32_t max_s, sq_pool_t *pool,
                            resol_sec_progress_fn prog, void *pctx, char *err, size_t errlen);

/* resol_sec_prod_new for a class x of the sphere (RM == RS == base's
 * sphere) with the secondary lift of the sphere and its homotopies
 * borrowed from base (not lifted again; base must outlive the result).
 * Returns as resol_sec_prod_new. */
int resol_sec_prod_new_on(resol_sec_prod_t **out, const resol_sec_prod_t *base, int32_t n0,
                          int32_t s0, fvec_t x, int32_t max_n, int32_t max_s, sq_pool_t *pool,
                          char *err, size_t errlen);

/* resol_sec_prod_eval without the reduction of lambda modulo the image of
 * d_2: the raw lambda part of [x][y].  Returns as resol_sec_prod_eval. */
int resol_sec_prod_eval_raw(const resol_sec_prod_t *P, int32_t n, int32_t s, fvec_t y,
                            fvec_t ext, fvec_t lambda);

/* The number of generators of F of degree <= e. */
int64_t resol_sec_gens_through(const fmod_t *F, int32_t e);

#endif /* RESOL_SECONDARY_PROD_INTERNAL_H */
