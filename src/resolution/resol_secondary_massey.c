/*
 * resol_secondary_massey.c -- Massey products in Mod_{C lambda^2}
 * (resol_secondary_massey.h has the mathematics).
 *
 * Steps: the secondary lifts of multiplication by a0 and b0
 * (resol_sec_prod_new: the lifted resolutions, f and H); the chain maps of
 * the lambda parts (resol_sec_lift_class); the preimage z under d_2 of the
 * lambda part of [a][b]; the null-homotopy K level by level; its secondary
 * lift HK level by level (the composites CK, c^G and C^b and the
 * right-hand sides on the pool, by generator; the preimages on the calling
 * thread).  Reading a bracket off: the kernel of [b] and the coefficients
 * of K, HK, f^a, f^b on the generators.
 */
#include "resol_secondary_massey.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "pair_algebra.h"
#include "resol_map_internal.h"
#include "resol_products.h"
#include "resol_secondary_prod.h"
#include "resol_secondary_prod_internal.h"
#include "sq_core.h"

struct resol_sec_massey {
    const resol_t *RM, *RS;
    resol_sec_prod_t *Pa, *Pb; /* Pb NULL when b0 = 0 */
    int32_t na, sa, ta, nb, sb, tb, S, T, max_n, max_s;
    int have_a1, have_b1;
    resol_cmap_t a1, b1; /* a1 : F_{sa+1+k} -> G_k, b1 : G_{sb+1+k} -> G_k */
    fvec_t b0v, b1v;     /* b's classes */
    resol_cmap_t K;      /* K.vals[k] : F_{S-1+k} -> G_k */
    resol_cmap_t HK;     /* HK.vals[k] : F_{S+k} -> G_k */
};

/* ---- Small readings ---------------------------------------------------------------- */

/* sum_i y_i (the coefficient of generator i of R's F_s in degree t in w),
 * over the integers (0 when w is zero). */
static uint32_t count(const resol_t *R, int32_t s, int32_t t, fvec_t y, fvec_t w)
{
    if (!w.len || s < 0 || s > R->max_s)
        return 0;
    int64_t ny = fmod_num_gens(R->F[s], t);
    uint32_t c = 0;
    for (int64_t i = 0; i < ny && i < y.len; i++) {
        if (!fvec_get(y, i))
            continue;
        int64_t off = fmod_block_offset(R->F[s], t, t, i);
        if (off < w.len)
            c += fvec_get(w, off);
    }
    return c;
}

/* dst[doff + i] = src[soff + i] for i < n (bit by bit: windows of fvec_t
 * start on limbs). */
static void copy_bits(fvec_t dst, int64_t doff, fvec_t src, int64_t soff, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        fvec_set(dst, doff + i, fvec_get(src, soff + i));
}

static const resol_cmap_t *fb_of(const resol_sec_massey_t *X)
{
    return X->Pb ? resol_sec_prod_f(X->Pb) : NULL;
}

/* out += C_k(v) when C is set and k in range (v over C's P_{s0+k} in degree e). */
static void cmap_add(const resol_cmap_t *C, int32_t k, int32_t e, fvec_t v, fvec_t out)
{
    if (C && C->vals && v.len && k >= 0 && k <= C->kmax)
        resol_cmap_apply(C, k, e, v, 1, out);
}

/* The value of level k of C on the generator g (zero-length outside). */
static fvec_t cval_at(const resol_cmap_t *C, int32_t k, int64_t g)
{
    fvec_t z = {0};
    if (!C || !C->vals || k < 0 || k > C->kmax || g < 0 ||
        g >= fmod_total_gens(C->P->F[C->s0 + k]))
        return z;
    return C->vals[k][g];
}

/* The image of d_2 into (n, s) of R in canonical RREF (*rank rows): *img
 * initialised here.  Returns 0, or SQ_E_RANGE when d_2 is not known. */
static int d2_image(const resol_sec_t *XR, const resol_t *R, int32_t n, int32_t s, fmat_t *img,
                    int64_t *rank)
{
    *rank = 0;
    if (s < 2 || resol_ext_dim(R, s - 2, n + 1) <= 0) {
        int64_t d = resol_ext_dim(R, s, n);
        fmat_init(img, 0, d > 0 ? d : 0, 2);
        return 0;
    }
    if (resol_sec_d2(XR, s - 2, n + 1, img) != 0)
        return SQ_E_RANGE;
    *rank = fmat_rref(img, NULL);
    return 0;
}

/* z (over Ext^s at stem n, zeroed and written) = the canonical preimage
 * under d_2 from (n, s) of v (over (n - 1, s + 2)): the quasi-inverse of
 * the RREF of [D | I] (the peer's Differential::quasi_inverse).  Returns
 * 0, SQ_E_INVAL when v is not in the image, SQ_E_RANGE when d_2 is not
 * known. */
static int d2_preimage(const resol_sec_t *XR, const resol_t *R, int32_t n, int32_t s, fvec_t v,
                       fvec_t z)
{
    int64_t ns = resol_ext_dim(R, s, n), nt = resol_ext_dim(R, s + 2, n - 1);
    if (ns > 0)
        fvec_zero(fvec_window(z, 0, ns));
    if (nt <= 0)
        return 0;
    if (ns <= 0)
        return fvec_is_zero(fvec_window(v, 0, nt)) ? 0 : SQ_E_INVAL;
    fmat_t D;
    if (resol_sec_d2(XR, s, n, &D) != 0)
        return SQ_E_RANGE;
    fmat_t m;
    fmat_init_aug(&m, ns, nt, 2);
    for (int64_t i = 0; i < ns; i++)
        fvec_addmul(fvec_window(fmat_row(&m, i), 0, nt), fmat_row(&D, i), 1);
    int64_t *piv = sq_malloc((size_t)(fmat_cols(&m) + 1) * sizeof *piv);
    fmat_rref(&m, piv);
    fvec_t zz = fvec_window(z, 0, ns);
    fmat_aug_qi_apply(zz, &m, piv, nt, fvec_window(v, 0, nt));
    fvec_t w;
    fvec_init(&w, nt, 2);
    fmat_vec_mul_add(w, zz, &D);
    int ok = fvec_equal(w, fvec_window(v, 0, nt));
    fvec_clear(&w);
    sq_free(piv);
    fmat_clear(&m);
    fmat_clear(&D);
    return ok ? 0 : SQ_E_INVAL;
}

/* ---- The null-homotopy K ------------------------------------------------------------ */

/* K_0 = z on the generators of F_{S-1} of degree T, and for k >= 1
 * K_k(g) = a preimage under d_k of f^b f^a (g) + K_{k-1}(d g) on the
 * generators of degree <= max_n + S - 1 + k. */
static void build_k(resol_sec_massey_t *X, resol_qis_t *Q, fvec_t z)
{
    const resol_t *F = X->RM, *G = X->RS;
    resol_cmap_t *K = &X->K;
    const resol_cmap_t *fa = resol_sec_prod_f(X->Pa), *fb = fb_of(X);
    const fmod_t *F0 = F->F[X->S - 1];
    for (int64_t i = 0; i < fmod_num_gens(F0, X->T); i++)
        if (fvec_get(z, i)) {
            fvec_t *v = &K->vals[0][fmod_gen_global(F0, X->T, i)];
            fvec_init(v, 1, 2);
            fvec_set(*v, 0, 1);
        }
    for (int32_t k = 1; k <= K->kmax && !Q->bad; k++) {
        const fmod_t *Fk = F->F[X->S - 1 + k];
        int32_t ek = X->max_n + X->S - 1 + k;
        for (int64_t g = 0; g < fmod_total_gens(Fk) && !Q->bad; g++) {
            int32_t e = fmod_gen_degree(Fk, g), es = e - X->T;
            if (e > ek)
                break;
            if (es < k)
                continue; /* G_k is zero below degree k */
            fvec_t v;
            fvec_init(&v, fmod_dim(G->F[k - 1], es), 2);
            cmap_add(fb, k - 1, e - X->ta, cval_at(fa, X->sb + k - 1, g), v);
            cmap_add(K, k - 1, e, resol_dgen(F, X->S - 1 + k, g), v);
            K->vals[k][g] = resol_qis_lift(Q, k, es, v);
            fvec_clear(&v);
        }
    }
}

/* ---- Its secondary lift HK ---------------------------------------------------------- */

typedef struct {
    const pairalg_t *P;
    const resol_sec_massey_t *X;
    int32_t k;                    /* the level: HK_k on F_{S+k} */
    resol_sec_comp_t *CK, *U, *Cb; /* CK_{S+k-1}, c^G of G_{k+1}, C^b_k */
    int64_t nck, nu, ncb;
    fvec_t *v;                    /* the right-hand sides */
    atomic_int bad;               /* a composite not in R_B: a bug */
} hk_level_t;

/* CK(g) for the generator g of F_{S+k-1} (into G_{k-1}):
 * 3 sigma(f^b)sigma(f^a) + sigma(d)sigma(K) + sigma(K)sigma(d). */
static void ck_one(void *ctx, int64_t g)
{
    hk_level_t *L = ctx;
    const resol_sec_massey_t *X = L->X;
    const resol_t *F = X->RM, *G = X->RS;
    int32_t k = L->k, s1 = X->S + k - 1;
    const fmod_t *Gt = G->F[k - 1];
    int64_t nt = fmod_total_gens(Gt);
    pair_elt_t *acc = sq_calloc((size_t)nt + 1, sizeof *acc);
    int32_t eg = fmod_gen_degree(F->F[s1], g);
    const resol_cmap_t *fb = fb_of(X);
    fvec_t ag = cval_at(resol_sec_prod_f(X->Pa), X->sb + k - 1, g);
    if (fb && ag.len) /* -sigma(b)sigma(a) = 3 sigma(b)sigma(a) mod 4 */
        for (int r = 0; r < 3; r++)
            resol_sec_compose_add(L->P, G->F[X->sb + k - 1], eg - X->ta, ag, resol_sec_cmap_val,
                                  fb->vals[k - 1], X->tb, Gt, acc);
    fvec_t kg = cval_at(&X->K, k, g);
    resol_sec_dval_t dv = {G, k};
    if (kg.len)
        resol_sec_compose_add(L->P, G->F[k], eg - X->T, kg, resol_sec_dval, &dv, 0, Gt, acc);
    resol_sec_compose_add(L->P, F->F[s1 - 1], eg, resol_dgen(F, s1, g), resol_sec_cmap_val,
                          X->K.vals[k - 1], X->T, Gt, acc);
    if (resol_sec_comp_finish(&L->CK[g], acc, nt))
        atomic_store(&L->bad, 1);
    sq_free(acc);
}

/* The right-hand side of d HK_k(g) = ... for the generator g of F_{S+k}
 * (into L->v[g]; zero-length when G_{k-1} is zero there). */
static void hk_rhs_one(void *ctx, int64_t g)
{
    hk_level_t *L = ctx;
    const resol_sec_massey_t *X = L->X;
    const resol_t *F = X->RM, *G = X->RS;
    int32_t k = L->k, s = X->S + k;
    int32_t e = fmod_gen_degree(F->F[s], g), et = e - X->T - 1;
    if (et < k - 1)
        return;
    fvec_t v;
    fvec_init(&v, fmod_dim(G->F[k - 1], et), 2);
    fvec_t dg = resol_dgen(F, s, g);
    resol_sec_act_add(L->P, F->F[s - 1], e, dg, L->CK, L->nck, X->T, G->F[k - 1], v);
    if (k >= 2)
        cmap_add(&X->HK, k - 1, e, dg, v);
    fvec_t kg = cval_at(&X->K, k + 1, g);
    if (kg.len) {
        resol_sec_act_add(L->P, G->F[k + 1], e - X->T, kg, L->U, L->nu, 0, G->F[k - 1], v);
        cmap_add(resol_sec_prod_hS(X->Pa), k - 1, e - X->T, kg, v);
    }
    cmap_add(&X->K, k - 1, e - 1, cval_at(resol_sec_prod_hM(X->Pa), s - 2, g), v);
    fvec_t ag = cval_at(resol_sec_prod_f(X->Pa), X->sb + k, g);
    if (ag.len && X->Pb) {
        resol_sec_act_add(L->P, G->F[X->sb + k], e - X->ta, ag, L->Cb, L->ncb, X->tb,
                          G->F[k - 1], v);
        cmap_add(resol_sec_prod_H(X->Pb), k - 1, e - X->ta, ag, v);
    }
    if (ag.len && X->have_b1)
        cmap_add(&X->b1, k - 1, e - X->ta, ag, v);
    const resol_cmap_t *fb = fb_of(X);
    cmap_add(fb, k - 1, e - X->ta - 1, cval_at(resol_sec_prod_H(X->Pa), X->sb + k - 1, g), v);
    if (X->have_a1)
        cmap_add(fb, k - 1, e - X->ta - 1, cval_at(&X->a1, X->sb + k - 1, g), v);
    L->v[g] = v;
}

/* HK_k on the generators of F_{S+k} of stem <= max_n - 1.  Returns 0, or 1
 * when a right-hand side is not a boundary (k = 1: [a][b] != 0 in
 * Mod_{C lambda^2}), 2 when a composite is not in R_B (a bug). */
static int hk_level(const pairalg_t *P, resol_sec_massey_t *X, resol_qis_t *Q, int32_t k,
                    sq_pool_t *pool)
{
    const resol_t *F = X->RM, *G = X->RS;
    int32_t s = X->S + k, ek = X->max_n - 1 + s;
    hk_level_t L;
    memset(&L, 0, sizeof L);
    atomic_init(&L.bad, 0);
    L.P = P;
    L.X = X;
    L.k = k;
    L.nck = resol_sec_gens_through(F->F[s - 1], ek - 1);
    L.nu = resol_sec_gens_through(G->F[k + 1], ek - X->T);
    L.CK = sq_calloc((size_t)L.nck + 1, sizeof *L.CK);
    L.U = sq_calloc((size_t)L.nu + 1, sizeof *L.U);
    sq_pool_parallel_for(pool, L.nck, ck_one, &L);
    int bad = atomic_load(&L.bad) || resol_sec_prod_unit_comps(P, X->Pa, k + 1, L.nu, L.U, pool);
    if (X->Pb) {
        L.ncb = resol_sec_gens_through(G->F[X->sb + k], ek - X->ta);
        L.Cb = sq_calloc((size_t)L.ncb + 1, sizeof *L.Cb);
        bad = bad || resol_sec_prod_map_comps(P, X->Pb, k, L.ncb, L.Cb, pool);
    }
    int rc = bad ? 2 : 0;
    int64_t ng = resol_sec_gens_through(F->F[s], ek);
    L.v = sq_calloc((size_t)ng + 1, sizeof *L.v);
    if (!rc)
        sq_pool_parallel_for(pool, ng, hk_rhs_one, &L);
    for (int64_t g = 0; g < ng; g++) {
        if (!rc && L.v[g].len && !fvec_is_zero(L.v[g])) {
            int32_t et = fmod_gen_degree(F->F[s], g) - X->T - 1;
            X->HK.vals[k][g] = resol_qis_lift(Q, k, et, L.v[g]);
            rc = Q->bad ? 1 : 0;
        }
        fvec_clear(&L.v[g]);
    }
    sq_free(L.v);
    resol_sec_comps_clear(L.CK, L.nck);
    resol_sec_comps_clear(L.U, L.nu);
    resol_sec_comps_clear(L.Cb, L.ncb);
    return rc;
}

/* ---- The object ----------------------------------------------------------------------- */

void resol_sec_massey_free(resol_sec_massey_t *X)
{
    if (!X)
        return;
    if (X->K.vals)
        resol_cmap_clear(&X->K);
    if (X->HK.vals)
        resol_cmap_clear(&X->HK);
    if (X->a1.vals)
        resol_cmap_clear(&X->a1);
    if (X->b1.vals)
        resol_cmap_clear(&X->b1);
    fvec_clear(&X->b0v);
    fvec_clear(&X->b1v);
    resol_sec_prod_free(X->Pb);
    resol_sec_prod_free(X->Pa);
    sq_free(X);
}

/* A copy of v's first n entries (n >= 0; one entry at least). */
static fvec_t copy_of(fvec_t v, int64_t n)
{
    fvec_t c;
    fvec_init(&c, n > 0 ? n : 1, 2);
    for (int64_t i = 0; i < n && i < v.len; i++)
        fvec_set(c, i, fvec_get(v, i));
    return c;
}

/* The lambda part of [a][b] (over Ext(M) at (nb + na, S + 1), nl entries):
 * [a0][b0] raw + a1 b0 + a0 b1; *ext_zero whether a0 b0 = 0.  Returns 0 or
 * an error of resol_sec_prod_eval_raw. */
static int ab_lambda(const resol_sec_massey_t *X, fvec_t lam, int64_t nl, int *ext_zero)
{
    const resol_t *F = X->RM, *G = X->RS;
    int64_t ne = resol_ext_dim(F, X->S, X->na + X->nb);
    fvec_t ext;
    fvec_init(&ext, ne + 1, 2);
    fvec_zero(lam);
    int rc = 0;
    if (X->Pb && ne >= 0)
        rc = resol_sec_prod_eval_raw(X->Pa, X->nb, X->sb, X->b0v, ext, lam);
    *ext_zero = fvec_is_zero(ext);
    fvec_clear(&ext);
    const resol_cmap_t *fa = resol_sec_prod_f(X->Pa);
    for (int64_t l = 0; rc == 0 && l < nl; l++) {
        int64_t g = fmod_gen_global(F->F[X->S + 1], X->T + 1, l);
        uint32_t c = 0;
        if (X->have_a1)
            c += count(G, X->sb, X->tb, X->b0v, cval_at(&X->a1, X->sb, g));
        if (X->have_b1)
            c += count(G, X->sb + 1, X->tb + 1, X->b1v, cval_at(fa, X->sb + 1, g));
        fvec_add_entry(lam, l, c & 1);
    }
    return rc;
}

static int refuse(resol_sec_massey_t *X, int rc, char *err, size_t errlen, const char *why)
{
    snprintf(err, errlen, "%s", why);
    resol_sec_massey_free(X);
    return rc;
}

/* The lambda parts' chain maps (x1 nonzero), on the generators of stem <=
 * top: C of the class x1 at (n, s + 1) of P. */
static void lift_lambda(resol_cmap_t *C, const resol_t *P, const resol_t *G, resol_qis_t *Q,
                        const resol_sec_class_t *x, int32_t kmax, int32_t top)
{
    resol_cmap_init(C, P, G, x->s + 1, x->n + x->s + 1, kmax);
    resol_sec_lift_class(C, Q, x->x1, top + x->s + 1 + kmax);
}

static int class_zero(const resol_sec_class_t *x)
{
    return fvec_is_zero(x->x0) && (x->x1.len == 0 || fvec_is_zero(x->x1));
}

int resol_sec_massey_new(resol_sec_massey_t **out, const resol_t *RM, const resol_t *RS,
                         const resol_sec_class_t *a, const resol_sec_class_t *b, int32_t max_n,
                         int32_t max_s, sq_pool_t *pool, resol_sec_progress_fn prog, void *pctx,
                         char *err, size_t errlen)
{
    *out = NULL;
    if (RM->p != 2 || RS->p != 2)
        return refuse(NULL, SQ_E_INVAL, err, errlen, "secondary Massey products are at p = 2");
    int32_t S = a->s + b->s, nab = a->n + b->n;
    if (a->s < 0 || b->s < 1 || S < 2)
        return refuse(NULL, SQ_E_INVAL, err, errlen,
                      "b must have filtration at least 1 and the filtrations of a and b must "
                      "add up to at least 2");
    if (S >= max_s || nab + 2 > max_n)
        return refuse(NULL, SQ_E_INVAL, err, errlen,
                      "a and b leave no bracket in the region: it needs s_a + s_b < --max-s "
                      "and n_a + n_b + 2 <= --stem");
    int32_t gn = max_n + 2 - (a->n < 0 ? a->n : 0);
    if (RM->max_n < max_n || RM->max_s < max_s || RS->max_n < gn || RS->max_s < max_s + 2)
        return refuse(NULL, SQ_E_RANGE, err, errlen,
                      "the region of the secondary Massey product is not computed");
    int64_t da = resol_ext_dim(RM, a->s, a->n), db = resol_ext_dim(RS, b->s, b->n);
    int64_t da1 = resol_ext_dim(RM, a->s + 1, a->n), db1 = resol_ext_dim(RS, b->s + 1, b->n);
    if (da < 0)
        return refuse(NULL, SQ_E_RANGE, err, errlen,
                      "the region of the secondary Massey product is not computed");
    if (db < 0 || da1 < 0 || db1 < 0 || a->x0.len < da || b->x0.len < db ||
        (a->x1.len && a->x1.len < da1) || (b->x1.len && b->x1.len < db1))
        return refuse(NULL, SQ_E_INVAL, err, errlen, "a class vector is too short");
    if (class_zero(a) || class_zero(b))
        return refuse(NULL, SQ_E_INVAL, err, errlen, "a or b is zero");
    resol_sec_massey_t *X = sq_calloc(1, sizeof *X);
    X->RM = RM;
    X->RS = RS;
    X->na = a->n;
    X->sa = a->s;
    X->ta = a->n + a->s;
    X->nb = b->n;
    X->sb = b->s;
    X->tb = b->n + b->s;
    X->S = S;
    X->T = X->ta + X->tb;
    X->max_n = max_n;
    X->max_s = max_s;
    X->b0v = copy_of(b->x0, db);
    X->b1v = copy_of(b->x1, b->x1.len ? db1 : 0);
    /* a0's lift (with the lifts of both resolutions); the zero map when Ext is
     * zero at a (lambda a1 alone) */
    int rc = da > 0 ? resol_sec_prod_new(&X->Pa, RM, RS, a->n, a->s, a->x0, max_n, max_s, pool,
                                         prog, pctx, err, errlen)
                    : resol_sec_prod_new_zero(&X->Pa, RM, RS, a->n, a->s, max_n, max_s, pool,
                                              prog, pctx, err, errlen);
    if (rc == 0 && db > 0 && !fvec_is_zero(X->b0v))
        rc = resol_sec_prod_new_on(&X->Pb, X->Pa, b->n, b->s, X->b0v, max_n - a->n,
                                   max_s - a->s + 1, pool, err, errlen);
    if (rc != 0) {
        resol_sec_massey_free(X);
        return rc;
    }
    resol_qis_t Q;
    resol_qis_init(&Q, RS, max_s + 1, 0, gn + max_s + 2);
    X->have_a1 = a->x1.len > 0 && !fvec_is_zero(a->x1);
    X->have_b1 = b->x1.len > 0 && !fvec_is_zero(X->b1v);
    if (X->have_a1)
        lift_lambda(&X->a1, RM, RS, &Q, a, max_s - a->s - 1, max_n);
    if (X->have_b1)
        lift_lambda(&X->b1, RS, RS, &Q, b, max_s - S, gn - 1);
    /* z: the preimage under d_2 of the lambda part of [a][b] */
    int64_t nl = resol_ext_dim(RM, S + 1, nab), nz = resol_ext_dim(RM, S - 1, nab + 1);
    fvec_t lam, z;
    fvec_init(&lam, nl > 0 ? nl : 1, 2);
    fvec_init(&z, nz > 0 ? nz : 1, 2);
    int ext_zero = 1;
    rc = Q.bad ? SQ_E_RANGE : ab_lambda(X, lam, nl > 0 ? nl : 0, &ext_zero);
    if (rc == 0 && !ext_zero) {
        rc = SQ_E_INVAL;
        snprintf(err, errlen, "a b is not zero in Ext: <a, b, -> is not defined");
    } else if (rc == 0) {
        rc = d2_preimage(resol_sec_prod_module(X->Pa), RM, nab + 1, S - 1, lam, z);
        if (rc == SQ_E_INVAL)
            snprintf(err, errlen,
                     "[a][b] is not zero in Mod_{C lambda^2} (its lambda part is not in the "
                     "image of d_2): <a, b, -> is not defined");
    }
    if (rc == 0) {
        resol_cmap_init(&X->K, RM, RS, S - 1, X->T, max_s - S + 1);
        build_k(X, &Q, z);
        if (Q.bad)
            rc = SQ_E_RANGE;
    }
    fvec_clear(&lam);
    fvec_clear(&z);
    if (rc == 0) {
        resol_cmap_init(&X->HK, RM, RS, S, X->T + 1, max_s - S);
        pairalg_t *P = pairalg_new(RM->A);
        for (int32_t k = 1; k <= max_s - S && rc == 0; k++) {
            int r = hk_level(P, X, &Q, k, pool);
            if (r == 1 && k == 1) {
                rc = SQ_E_INVAL;
                snprintf(err, errlen,
                         "the null-homotopy of [a][b] does not lift to Mod_{C lambda^2}: "
                         "<a, b, -> is not defined");
            } else if (r)
                rc = SQ_E_RANGE;
        }
        pairalg_free(P);
    }
    resol_qis_clear(&Q);
    if (rc == SQ_E_RANGE)
        snprintf(err, errlen, "secondary Massey product: a lift failed (a bug: please report)");
    if (rc != 0) {
        resol_sec_massey_free(X);
        return rc;
    }
    *out = X;
    return 0;
}

int resol_sec_massey_has(const resol_sec_massey_t *X, int32_t n, int32_t s)
{
    return s >= 0 && s + X->S <= X->max_s && n >= resol_min_n(X->RS) &&
           n + X->na + X->nb + 2 <= X->max_n;
}

/* ---- The kernel of [b] -------------------------------------------------------------- */

/* b0 y (primary, mod 2) into out over Ext(S) at (n + nb, s + sb); y over (n, s). */
static void b0_times(const resol_sec_massey_t *X, int32_t n, int32_t s, fvec_t y, fvec_t out,
                     int64_t nout)
{
    const resol_cmap_t *fb = fb_of(X);
    const fmod_t *Gp = X->RS->F[s + X->sb];
    int32_t t = n + s;
    for (int64_t j = 0; j < nout; j++)
        fvec_set(out, j,
                 count(X->RS, s, t, y, cval_at(fb, s, fmod_gen_global(Gp, t + X->tb, j))) & 1);
}

/* [b] y for y = (y0, y1): pe over (n + nb, s + sb), pl over the filtration
 * above (raw: not reduced); pe is b0 y0 (its carries in pl). */
static int b_times(const resol_sec_massey_t *X, int32_t n, int32_t s, fvec_t y0, fvec_t y1,
                   fvec_t pe, fvec_t pl, int64_t nl)
{
    const resol_t *G = X->RS;
    int32_t t = n + s;
    fvec_zero(pe);
    fvec_zero(pl);
    int rc = 0;
    if (X->Pb)
        rc = resol_sec_prod_eval_raw(X->Pb, n, s, y0, pe, pl);
    const resol_cmap_t *fb = fb_of(X);
    const fmod_t *Gl = G->F[s + X->sb + 1];
    for (int64_t l = 0; rc == 0 && l < nl; l++) {
        int64_t g = fmod_gen_global(Gl, t + X->tb + 1, l);
        uint32_t c = 0;
        if (X->have_b1)
            c += count(G, s, t, y0, cval_at(&X->b1, s, g));
        if (y1.len)
            c += count(G, s + 1, t + 1, y1, cval_at(fb, s + 1, g));
        fvec_add_entry(pl, l, c & 1);
    }
    return rc;
}

/* The rows of m whose first nonzero entry is at or after c0, restricted to
 * the columns from c0 on: *ker initialised here (m in RREF). */
static void tail_rows(const fmat_t *m, int64_t c0, int64_t w, fmat_t *ker)
{
    int64_t r = 0;
    for (int64_t i = 0; i < fmat_rows(m); i++) {
        int64_t f = fvec_first_nonzero(fmat_row(m, i));
        if (f >= c0)
            r++;
    }
    fmat_init(ker, r, w, 2);
    r = 0;
    for (int64_t i = 0; i < fmat_rows(m); i++) {
        fvec_t row = fmat_row(m, i);
        if (fvec_first_nonzero(row) >= c0)
            copy_bits(fmat_row(ker, r++), 0, row, c0, w);
    }
}

/* The cycles at (n, s) of the sphere with b0 y = 0, in canonical RREF. */
static int e2_kernel(const resol_sec_massey_t *X, int32_t n, int32_t s, fmat_t *ker)
{
    const resol_t *G = X->RS;
    int64_t ny = resol_ext_dim(G, s, n), np = resol_ext_dim(G, s + X->sb, n + X->nb);
    if (ny <= 0 || np < 0) {
        fmat_init(ker, 0, ny > 0 ? ny : 0, 2);
        return 0;
    }
    fmat_t reps, image;
    if (resol_sec_e3_basis(resol_sec_prod_unit(X->Pa), s, n, &reps, &image) != 0)
        return SQ_E_RANGE;
    int64_t nr = fmat_rows(&reps), ni = fmat_rows(&image);
    fmat_t m;
    fmat_init(&m, nr + ni, np + ny, 2);
    for (int64_t r = 0; r < nr + ni; r++) {
        fvec_t y = r < nr ? fmat_row(&reps, r) : fmat_row(&image, r - nr);
        fvec_t row = fmat_row(&m, r);
        b0_times(X, n, s, y, row, np);
        for (int64_t i = 0; i < ny; i++)
            fvec_set(row, np + i, fvec_get(y, i));
    }
    fmat_rref(&m, NULL);
    tail_rows(&m, np, ny, ker);
    fmat_clear(&m);
    fmat_clear(&reps);
    fmat_clear(&image);
    return 0;
}

int resol_sec_massey_kernel(const resol_sec_massey_t *X, int32_t n, int32_t s, fmat_t *ker)
{
    memset(ker, 0, sizeof *ker);
    if (!resol_sec_massey_has(X, n, s))
        return SQ_E_RANGE;
    const resol_t *G = X->RS;
    const resol_sec_t *XS = resol_sec_prod_unit(X->Pa);
    int64_t ny = resol_ext_dim(G, s, n), nyl = resol_ext_dim(G, s + 1, n);
    int64_t npe = resol_ext_dim(G, s + X->sb, n + X->nb);
    int64_t npl = resol_ext_dim(G, s + X->sb + 1, n + X->nb);
    if (ny < 0 || nyl < 0 || npe < 0 || npl < 0)
        return SQ_E_RANGE;
    fmat_t e2, qy, qp;
    int64_t ry, rp;
    if (e2_kernel(X, n, s, &e2) != 0)
        return SQ_E_RANGE;
    if (d2_image(XS, G, n, s + 1, &qy, &ry) != 0) {
        fmat_clear(&e2);
        return SQ_E_RANGE;
    }
    if (d2_image(XS, G, n + X->nb, s + X->sb + 1, &qp, &rp) != 0) {
        fmat_clear(&e2);
        fmat_clear(&qy);
        return SQ_E_RANGE;
    }
    int64_t c0 = npe + npl, w = ny + nyl, n2 = fmat_rows(&e2);
    fmat_t m;
    fmat_init(&m, n2 + nyl, c0 + w, 2);
    fvec_t none = {0}, pe, pl;
    fvec_init(&pe, npe + 1, 2);
    fvec_init(&pl, npl + 1, 2);
    int rc = 0;
    for (int64_t r = 0; r < n2 && rc == 0; r++) {
        fvec_t row = fmat_row(&m, r), y0 = fmat_row(&e2, r);
        rc = b_times(X, n, s, y0, none, pe, pl, npl);
        resol_sec_reduce_by(fvec_window(pl, 0, npl), &qp, rp);
        copy_bits(row, 0, pe, 0, npe);
        copy_bits(row, npe, pl, 0, npl);
        copy_bits(row, c0, y0, 0, ny);
    }
    /* lambda y1 for y1 the classes off the pivots of the image into (n, s + 1) */
    int64_t *piv = sq_calloc((size_t)nyl + 1, sizeof *piv);
    for (int64_t i = 0; i < ry; i++) {
        int64_t f = fvec_first_nonzero(fmat_row(&qy, i));
        if (f >= 0 && f < nyl)
            piv[f] = 1;
    }
    const resol_cmap_t *fb = fb_of(X);
    const fmod_t *Gl = G->F[s + X->sb + 1];
    fvec_t unit;
    fvec_init(&unit, nyl + 1, 2);
    for (int64_t i = 0, r = n2; i < nyl; i++) {
        if (piv[i])
            continue;
        fvec_t row = fmat_row(&m, r++);
        fvec_set(row, c0 + ny + i, 1);
        fvec_zero(unit);
        fvec_set(unit, i, 1);
        fvec_zero(pl);
        for (int64_t l = 0; l < npl; l++)
            fvec_set(pl, l,
                     count(G, s + 1, n + s + 1, unit,
                           cval_at(fb, s + 1, fmod_gen_global(Gl, n + s + X->tb + 1, l))) &
                         1);
        resol_sec_reduce_by(fvec_window(pl, 0, npl), &qp, rp);
        copy_bits(row, npe, pl, 0, npl);
    }
    fvec_clear(&unit);
    fvec_clear(&pe);
    fvec_clear(&pl);
    sq_free(piv);
    if (rc == 0) {
        fmat_rref(&m, NULL);
        tail_rows(&m, c0, w, ker);
    }
    fmat_clear(&m);
    fmat_clear(&e2);
    fmat_clear(&qy);
    fmat_clear(&qp);
    return rc;
}

/* ---- The bracket ------------------------------------------------------------------------- */

int resol_sec_massey_eval(const resol_sec_massey_t *X, int32_t n, int32_t s, fvec_t y,
                          fvec_t ext, fvec_t lambda)
{
    if (!resol_sec_massey_has(X, n, s))
        return SQ_E_RANGE;
    const resol_t *F = X->RM, *G = X->RS;
    int32_t t = n + s, se = s + X->S - 1, te = t + X->T, nsrc = te - se;
    int64_t ny = resol_ext_dim(G, s, n), nyl = resol_ext_dim(G, s + 1, n);
    int64_t ne = resol_ext_dim(F, se, nsrc), nl = resol_ext_dim(F, se + 1, nsrc);
    int64_t nz = resol_ext_dim(G, s + X->sb - 1, n + X->nb + 1);
    int64_t npe = resol_ext_dim(G, s + X->sb, n + X->nb);
    int64_t npl = resol_ext_dim(G, s + X->sb + 1, n + X->nb);
    if (ny < 0 || nyl < 0 || ne < 0 || nl < 0 || nz < 0 || npe < 0 || npl < 0 ||
        y.len < ny + nyl || ext.len < ne || lambda.len < nl)
        return SQ_E_RANGE;
    fvec_t y0 = fvec_window(y, 0, ny), y1;
    fvec_init(&y1, nyl, 2);
    copy_bits(y1, 0, y, ny, nyl);
    fvec_zero(fvec_window(ext, 0, ne));
    fvec_zero(fvec_window(lambda, 0, nl));
    /* z: the preimage under d_2 of the lambda part of [b] y */
    fvec_t pe, pl, z;
    fvec_init(&pe, npe + 1, 2);
    fvec_init(&pl, npl + 1, 2);
    fvec_init(&z, nz + 1, 2);
    int rc = b_times(X, n, s, y0, y1, pe, pl, npl);
    if (rc == 0 && nz > 0) {
        int r = d2_preimage(resol_sec_prod_unit(X->Pa), G, n + X->nb + 1, s + X->sb - 1, pl, z);
        rc = r == SQ_E_RANGE ? r : 0; /* not in the image: the peer's preimage anyway */
    }
    const resol_cmap_t *fa = resol_sec_prod_f(X->Pa), *fb = fb_of(X);
    fvec_t carry;
    fvec_init(&carry, ne + 1, 2);
    for (int64_t j = 0; rc == 0 && j < ne; j++) {
        int64_t g = fmod_gen_global(F->F[se], te, j);
        uint32_t c = count(G, s, t, y0, cval_at(&X->K, s, g));
        c += 3 * count(G, s + X->sb - 1, t + X->tb, z, cval_at(fa, s + X->sb - 1, g));
        fvec_set(ext, j, c & 1);
        fvec_set(carry, j, (c >> 1) & 1);
    }
    /* the carries of b0 y0 over Z: the generators j of G_{s+sb} in degree t + tb */
    const fmod_t *Gp = G->F[s + X->sb];
    int64_t ngp = fmod_num_gens(Gp, t + X->tb);
    for (int64_t l = 0; rc == 0 && l < nl; l++) {
        int64_t g = fmod_gen_global(F->F[se + 1], te + 1, l);
        uint32_t c = count(G, s, t, y0, cval_at(&X->HK, s, g));
        c += count(G, s + 1, t + 1, y1, cval_at(&X->K, s + 1, g));
        fvec_t ag = cval_at(fa, s + X->sb, g);
        for (int64_t j = 0; ag.len && j < ngp; j++) {
            uint32_t cb = count(G, s, t, y0, cval_at(fb, s, fmod_gen_global(Gp, t + X->tb, j)));
            if (!((cb >> 1) & 1))
                continue;
            /* the coefficient of Sq^1 g_j in f^a(g), both in G_{s+sb} (the peer
             * indexes G_{s+S} in degree t + T: the same only for a at (0, 0);
             * docs/secondary.md, secondary_massey_cli_carries) */
            int64_t off = fmod_block_offset(Gp, t + X->tb + 1, t + X->tb, j);
            if (off < ag.len)
                c += fvec_get(ag, off);
        }
        fvec_set(lambda, l, c & 1);
    }
    if (rc == 0 && nl > 0 && ne > 0 && !fvec_is_zero(carry)) {
        fmat_t h0;
        rc = resol_filt1_matrix(F, 0, se, te, &h0);
        for (int64_t l = 0; rc == 0 && l < nl; l++) {
            uint32_t c = 0;
            for (int64_t j = 0; j < ne; j++)
                c ^= fmat_get(&h0, l, j) & fvec_get(carry, j);
            fvec_add_entry(lambda, l, c);
        }
        if (rc == 0)
            fmat_clear(&h0);
    }
    fvec_clear(&carry);
    fvec_clear(&pe);
    fvec_clear(&pl);
    fvec_clear(&z);
    fvec_clear(&y1);
    return rc;
}
