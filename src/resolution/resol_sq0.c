/*
 * resol_sq0.c -- Sq^0 on Ext of the sphere by the doubling chain map
 * phi : F -> Phi F (resol_sq0.h for the mathematics).
 */
#include "resol_sq0.h"

#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "milnor.h"
#include "resol_map_internal.h"
#include "sq_core.h"

struct resol_sq0 {
    const resol_t *R;
    int32_t max_s;
    fvec_t **vals; /* vals[k][g] = phi_k(g) over F_k in degree deg(g)/2; zeroed for 0 */
};

/* Whether (s, t) of R is computed: s in range and degree t published. */
static int sq0_computed(const resol_t *R, int32_t s, int64_t t)
{
    return s >= 0 && s <= R->max_s && t <= fmod_gens_through(R->F[s]);
}

/* Whether R resolves S_2 over the whole algebra. */
static int is_sphere2(const resol_t *R)
{
    int32_t h[MILNOR_MAX_LEN];
    return R->p == 2 && fdmod_bottom(R->M) == 0 && fdmod_top(R->M) == 0 &&
           fdmod_dim(R->M, 0) == 1 && fdmod_profile(R->M, h) == 0;
}

/* The halving of a (a vector over A_{2da}) into half (over A_da, zeroed by
 * the caller): Sq(R) -> Sq(R/2) when every r_i is even.  Returns whether
 * half is nonzero. */
static int halve(const milnor_t *A, fvec_t a, int32_t da, fvec_t half)
{
    int any = 0;
    int64_t n = milnor_dim(A, 2 * da);
    for (int64_t r = 0; r < n; r++) {
        if (!fvec_get(a, r))
            continue;
        int32_t R[MILNOR_MAX_LEN];
        int len = milnor_get(A, 2 * da, r, R, MILNOR_MAX_LEN), even = 1;
        for (int i = 0; i < len; i++) {
            even &= (R[i] & 1) == 0;
            R[i] /= 2;
        }
        if (even) {
            fvec_add_entry(half, milnor_index(A, R, len), 1);
            any = 1;
        }
    }
    return any;
}

/* out (over F_k in degree eo) += a w for a over A_da and w over F_k in
 * degree eo - da (all generators of F_k). */
static void act_add(const resol_t *R, int32_t k, int32_t eo, fvec_t a, int32_t da, fvec_t w,
                    fvec_t out)
{
    const fmod_t *F = R->F[k];
    int32_t ew = eo - da;
    int64_t na = stalg_dim(R->S, da);
    for (int64_t h = 0; h < fmod_total_gens(F); h++) {
        int32_t dh = fmod_gen_degree(F, h);
        if (dh > ew)
            break;
        int64_t ih = h - fmod_gen_global(F, dh, 0);
        int64_t woff = fmod_block_offset(F, ew, dh, ih), wlen = stalg_dim(R->S, ew - dh);
        fvec_t b;
        fvec_init(&b, wlen, 2);
        for (int64_t j = 0; j < wlen; j++)
            fvec_set(b, j, fvec_get(w, woff + j));
        if (!fvec_is_zero(b)) {
            int64_t ooff = fmod_block_offset(F, eo, dh, ih);
            for (int64_t r = 0; r < na; r++)
                if (fvec_get(a, r))
                    stalg_mul_vec_add(R->S, out, ooff, 1, da, r, ew - dh, b);
        }
        fvec_clear(&b);
    }
}

/* phi_k(g) for the generator g of F_k of even degree 2e, k >= 1: the lift
 * of sum_h halve(a_h) phi_{k-1}(h). */
static fvec_t lift_gen(resol_sq0_t *Q, resol_qis_t *Qi, int32_t k, int64_t g, int32_t e)
{
    const resol_t *R = Q->R;
    const fmod_t *P = R->F[k - 1];
    fvec_t dg = resol_dgen(R, k, g), v;
    fvec_init(&v, fmod_dim(P, e), 2);
    for (int64_t h = 0; h < fmod_total_gens(P); h++) {
        int32_t dh = fmod_gen_degree(P, h);
        if (dh > 2 * e)
            break;
        fvec_t w = Q->vals[k - 1][h];
        if (!w.len || (dh & 1))
            continue;
        int32_t da = e - dh / 2;
        int64_t off = fmod_block_offset(P, 2 * e, dh, h - fmod_gen_global(P, dh, 0));
        int64_t len = stalg_dim(R->S, 2 * da);
        if (off >= dg.len)
            continue;
        fvec_t a, half;
        fvec_init(&a, len, 2);
        for (int64_t j = 0; j < len && off + j < dg.len; j++)
            fvec_set(a, j, fvec_get(dg, off + j));
        fvec_init(&half, stalg_dim(R->S, da), 2);
        if (halve(R->A, a, da, half))
            act_add(R, k - 1, e, half, da, w, v);
        fvec_clear(&a);
        fvec_clear(&half);
    }
    fvec_t out = resol_qis_lift(Qi, k, e, v);
    fvec_clear(&v);
    return out;
}

int resol_sq0_new(resol_sq0_t **out, const resol_t *R)
{
    *out = NULL;
    if (!is_sphere2(R))
        return SQ_E_INVAL;
    resol_sq0_t *Q = sq_calloc(1, sizeof *Q);
    Q->R = R;
    Q->max_s = R->max_s;
    Q->vals = sq_calloc((size_t)Q->max_s + 1, sizeof *Q->vals);
    int32_t emax = 0;
    for (int32_t k = 0; k <= Q->max_s; k++) {
        Q->vals[k] = sq_calloc((size_t)fmod_total_gens(R->F[k]) + 1, sizeof *Q->vals[k]);
        int32_t top = fmod_gens_through(R->F[k]);
        emax = top / 2 > emax ? top / 2 : emax;
    }
    /* phi_0: the generator of F_0 (degree 0) to the generator of Phi F_0. */
    fvec_init(&Q->vals[0][0], 1, 2);
    fvec_set(Q->vals[0][0], 0, 1);
    resol_qis_t Qi;
    resol_qis_init(&Qi, R, Q->max_s, 0, emax);
    for (int32_t k = 1; k <= Q->max_s && !Qi.bad; k++) {
        const fmod_t *F = R->F[k];
        for (int64_t g = 0; g < fmod_total_gens(F) && !Qi.bad; g++) {
            int32_t d = fmod_gen_degree(F, g);
            if ((d & 1) == 0 && d / 2 >= k) /* F_k is zero below degree k */
                Q->vals[k][g] = lift_gen(Q, &Qi, k, g, d / 2);
        }
    }
    int bad = Qi.bad;
    resol_qis_clear(&Qi);
    if (bad) {
        resol_sq0_free(Q);
        return SQ_E_RANGE;
    }
    *out = Q;
    return 0;
}

void resol_sq0_free(resol_sq0_t *Q)
{
    if (!Q)
        return;
    for (int32_t k = 0; k <= Q->max_s; k++) {
        int64_t n = fmod_total_gens(Q->R->F[k]);
        for (int64_t g = 0; g < n; g++)
            fvec_clear(&Q->vals[k][g]);
        sq_free(Q->vals[k]);
    }
    sq_free(Q->vals);
    sq_free(Q);
}

int resol_sq0_matrix(const resol_sq0_t *Q, int32_t s, int32_t n, fmat_t *m)
{
    memset(m, 0, sizeof *m);
    const resol_t *R = Q->R;
    int64_t t = (int64_t)n + s;
    if (s < 0 || s > Q->max_s || t < 0 || !sq0_computed(R, s, t) || !sq0_computed(R, s, 2 * t))
        return SQ_E_RANGE;
    const fmod_t *F = R->F[s];
    int64_t rows = fmod_num_gens(F, (int32_t)t), cols = fmod_num_gens(F, (int32_t)(2 * t));
    fmat_init(m, rows, cols, 2);
    for (int64_t j = 0; j < cols; j++) {
        fvec_t w = Q->vals[s][fmod_gen_global(F, (int32_t)(2 * t), j)];
        if (!w.len)
            continue;
        for (int64_t i = 0; i < rows; i++)
            if (fvec_get(w, fmod_block_offset(F, (int32_t)t, (int32_t)t, i)))
                fmat_set(m, i, j, 1);
    }
    return 0;
}
