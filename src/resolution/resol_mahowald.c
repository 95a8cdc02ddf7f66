/*
 * resol_mahowald.c -- algebraic Mahowald invariants through RP_{-k}^inf
 * (resol_mahowald.h for the mathematics).
 */
#include "resol_mahowald.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "milnor.h"
#include "resol_map_internal.h"
#include "rpmod.h"
#include "sq_core.h"

/* The largest action tables resol_mahowald_module builds (rpmod_build's
 * estimate): far above what the stems of a run need. */
#define MAHOWALD_MAX_TABLES ((int64_t)1 << 31)

fdmod_t *resol_mahowald_module(int32_t k, int32_t max_degree, char *err, size_t errlen)
{
    if (k < 1 || max_degree < -k) {
        snprintf(err, errlen, "RP_-%d_inf: k must be >= 1 and the degree >= -k", (int)k);
        return NULL;
    }
    int64_t span = (int64_t)max_degree + k;
    if (span > INT32_MAX / 2) {
        snprintf(err, errlen, "RP_-%d_inf: the span %lld is too large", (int)k, (long long)span);
        return NULL;
    }
    char name[32];
    snprintf(name, sizeof name, "RP_-%d_inf", (int)k);
    milnor_t *A = milnor_new(span > 1 ? (int32_t)span : 1);
    fdmod_t *M = NULL;
    int rc = rpmod_build(&M, A, name, -k, 0, 0, 0, max_degree, MAHOWALD_MAX_TABLES, err, errlen);
    milnor_free(A);
    return rc ? NULL : M;
}

void resol_mahowald_region(int32_t kmax, int32_t *sn, int32_t *ss)
{
    *sn = 2 * kmax - 2;
    *ss = kmax / 2 + 1;
}

void resol_mahowald_region_k(int32_t k, int32_t *pn, int32_t *ps)
{
    *pn = k - 2;
    *ps = k / 2 + 1;
}

/* Whether (s, t) of R is computed. */
static int mw_computed(const resol_t *R, int32_t s, int64_t t)
{
    return s >= 0 && s <= R->max_s && t <= fmod_gens_through(R->F[s]);
}

/* The chain map RP -> RS lifting the dual of RP's generator of F_0 in
 * degree -c (its only one there), of internal degree c, on every computed
 * generator of RP.  Returns 0 or SQ_E_RANGE (a lift failed; C cleared). */
static int lift_cell(resol_cmap_t *C, const resol_t *RP, const resol_t *RS, int32_t c)
{
    resol_cmap_init(C, RP, RS, 0, -c, RP->max_s);
    int32_t emax = 0;
    for (int32_t j = 0; j <= RP->max_s; j++) {
        int32_t e = fmod_gens_through(RP->F[j]) + c;
        emax = e > emax ? e : emax;
    }
    const fmod_t *F0 = RP->F[0];
    int64_t g = fmod_gen_global(F0, -c, 0);
    fvec_init(&C->vals[0][g], 1, 2);
    fvec_set(C->vals[0][g], 0, 1);
    resol_qis_t Q;
    resol_qis_init(&Q, RS, RP->max_s, 0, emax);
    for (int32_t j = 1; j <= RP->max_s && !Q.bad; j++)
        resol_cmap_lift_level(C, &Q, j, fmod_gens_through(RP->F[j]));
    int bad = Q.bad;
    resol_qis_clear(&Q);
    if (bad) {
        resol_cmap_clear(C);
        return SQ_E_RANGE;
    }
    return 0;
}

/* Whether the region of RS holds what the lifts of the cells of RP_{-k}
 * reach: every computed generator of RP_j, moved up by k, in RS_j. */
static int mw_region_ok(const resol_t *RS, const resol_t *RP, int32_t k)
{
    for (int32_t j = 0; j <= RP->max_s; j++)
        if (!mw_computed(RS, j, (int64_t)fmod_gens_through(RP->F[j]) + k))
            return 0;
    return 1;
}

/* The coefficient of RS's generator i of F_s in degree e in w (a value of
 * a chain map over RS_s in degree e), 0 for an unset value. */
static uint32_t coef_of(const resol_t *RS, int32_t s, int32_t e, int64_t i, fvec_t w)
{
    return w.len ? fvec_get(w, fmod_block_offset(RS->F[s], e, e, i)) : 0;
}

/* Whether v (a_cols entries) is in the row space of A, m the reduced
 * [A | I] with its pivots. */
static int in_image(const fmat_t *m, const int64_t *piv, int64_t a_cols, fvec_t v)
{
    fvec_t r;
    fvec_init(&r, a_cols, 2);
    fvec_addmul(r, v, 1);
    for (int64_t c = 0; c < a_cols; c++)
        if (piv[c] >= 0 && fvec_get(r, c))
            fvec_addmul(r, fvec_window(fmat_row(m, piv[c]), 0, a_cols), 1);
    int ok = fvec_is_zero(r);
    fvec_clear(&r);
    return ok;
}

typedef struct {
    const resol_t *RS, *RP;
    int32_t k;
    const resol_cmap_t *B, *C;
    int (*fn)(void *ctx, const resol_mahowald_t *m);
    void *ctx;
} mw_t;

/* The invariants of the classes of (n, s): see the header.  Returns fn's
 * nonzero value or 0. */
static int mw_bidegree(const mw_t *W, int32_t n, int32_t s)
{
    const resol_t *RS = W->RS, *RP = W->RP;
    int32_t t = n + s, tb = t - 1 + W->k;
    if (!mw_computed(RP, s, t - 1) || !mw_computed(RS, s, tb) || !mw_computed(RS, s, t))
        return 0;
    const fmod_t *FP = RP->F[s];
    int64_t nb = fmod_num_gens(RS->F[s], tb), nx = fmod_num_gens(RS->F[s], t);
    int64_t np = fmod_num_gens(FP, t - 1);
    if (nb == 0 || nx == 0 || np == 0)
        return 0;
    fmat_t m, ker = {0};
    fmat_init_aug(&m, nb, np, 2);
    for (int64_t j = 0; j < np; j++) {
        fvec_t w = W->B->vals[s][fmod_gen_global(FP, t - 1, j)];
        for (int64_t i = 0; i < nb; i++)
            if (coef_of(RS, s, tb, i, w))
                fmat_set(&m, i, j, 1);
    }
    int64_t *piv = sq_malloc(sq_mul_size((size_t)fmat_cols(&m) + 1, sizeof *piv));
    fmat_rref(&m, piv);
    int rc = 0;
    if (fmat_aug_rank(&m, piv, np) > 0) {
        fmat_aug_kernel(&ker, &m, piv, np);
        for (int64_t i = 0; i < nx && rc == 0; i++) {
            fvec_t c, y;
            fvec_init(&c, np, 2);
            for (int64_t j = 0; j < np; j++)
                fvec_set(c, j, coef_of(RS, s, t, i, W->C->vals[s][fmod_gen_global(FP, t - 1, j)]));
            if (!fvec_is_zero(c) && in_image(&m, piv, np, c)) {
                fvec_init(&y, nb, 2);
                fmat_aug_qi_apply(y, &m, piv, np, c);
                resol_mahowald_t mi = {n, s, i, tb - s, y, &ker};
                rc = W->fn(W->ctx, &mi);
                fvec_clear(&y);
            }
            fvec_clear(&c);
        }
        fmat_clear(&ker);
    }
    sq_free(piv);
    fmat_clear(&m);
    return rc;
}

int resol_mahowald_k(const resol_t *RS, const resol_t *RP, int32_t k,
                     int (*fn)(void *ctx, const resol_mahowald_t *m), void *ctx)
{
    int32_t h[MILNOR_MAX_LEN];
    if (RS->p != 2 || fdmod_bottom(RS->M) != 0 || fdmod_top(RS->M) != 0 ||
        fdmod_dim(RS->M, 0) != 1 || fdmod_profile(RS->M, h) != 0 || RP->p != 2 || k < 1 ||
        fdmod_bottom(RP->M) != -k || fdmod_profile(RP->M, h) != 0 ||
        fmod_num_gens(RP->F[0], -k) != 1 || fmod_num_gens(RP->F[0], -1) != 1)
        return SQ_E_INVAL;
    if (!mw_region_ok(RS, RP, k))
        return SQ_E_RANGE;
    resol_cmap_t B, C;
    if (lift_cell(&B, RP, RS, k) != 0)
        return SQ_E_RANGE;
    if (lift_cell(&C, RP, RS, 1) != 0) {
        resol_cmap_clear(&B);
        return SQ_E_RANGE;
    }
    mw_t W = {RS, RP, k, &B, &C, fn, ctx};
    int rc = 0;
    int32_t top = fmod_gens_through(RS->F[0]);
    for (int32_t n = 0; n <= top && rc == 0; n++)
        for (int32_t s = 0; s <= RS->max_s && rc == 0; s++)
            rc = mw_bidegree(&W, n, s);
    resol_cmap_clear(&B);
    resol_cmap_clear(&C);
    return rc;
}
