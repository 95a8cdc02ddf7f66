/*
 * resol_products.c -- products by h_i and by classes of the sphere (see
 * resol_products.h for the mathematics).
 */
#include "resol_products.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "resol_map_internal.h"
#include "sq_core.h"

/* ---- The filtration-one classes ------------------------------------------- */

int32_t resol_filt1_degree(const resol_t *R, int k)
{
    int32_t deg = fdmod_slot_degree(R->p, k); /* 2^k; 1, 2(p - 1)p^{k-1}; -1 past INT32_MAX */
    if (deg < 0 || deg > stalg_max_degree(R->S))
        return -1;
    return stalg_gen_index(R->S, deg) >= 0 ? deg : -1;
}

void resol_filt1_name(const resol_t *R, int k, char *buf, size_t n)
{
    if (R->p != 2 && k == 0)
        snprintf(buf, n, "a0");
    else
        snprintf(buf, n, "h%d", R->p == 2 ? k : k - 1);
}

/* Whether (s, t) is computed: s in range and degree t published in F_s. */
static int computed(const resol_t *R, int32_t s, int64_t t)
{
    return s >= 0 && s <= R->max_s && t <= fmod_gens_through(R->F[s]);
}

/* Entry j of a stored vector in the encoding of p (fmat.h). */
static uint32_t enc_get(const void *v, uint32_t p, int64_t j)
{
    if (p == 2)
        return (uint32_t)((((const uint64_t *)v)[j >> 6] >> (j & 63)) & 1);
    return ((const uint8_t *)v)[j];
}

int resol_filt1_matrix(const resol_t *R, int k, int32_t s, int32_t t, fmat_t *m)
{
    memset(m, 0, sizeof *m);
    int32_t deg = resol_filt1_degree(R, k);
    if (deg < 0 || s < 0 || !computed(R, s + 1, (int64_t)t + deg) || !computed(R, s, t))
        return SQ_E_RANGE;
    int64_t op = stalg_gen_index(R->S, deg);
    const fmod_t *F = R->F[s + 1], *T = R->F[s];
    int64_t rows = fmod_num_gens(F, t + deg), cols = fmod_num_gens(T, t);
    fmat_init(m, rows, cols, R->p);
    for (int64_t g = 0; g < rows; g++) {
        int64_t len;
        const void *v = fhom_image_enc(R->d[s + 1], fmod_gen_global(F, t + deg, g), &len);
        for (int64_t j = 0; j < cols; j++) {
            int64_t b = fmod_block_offset(T, t + deg, t, j) + op;
            uint32_t c = b < len ? enc_get(v, R->p, b) : 0;
            if (c)
                fmat_set(m, g, j, c);
        }
    }
    return 0;
}

int resol_filt1_product(const resol_t *R, int k, int32_t s, int32_t t, fvec_t x, fvec_t out)
{
    fmat_t m;
    int rc = resol_filt1_matrix(R, k, s, t, &m);
    if (rc)
        return rc;
    if (x.p != R->p || out.p != R->p || x.len < fmat_cols(&m) || out.len < fmat_rows(&m)) {
        fmat_clear(&m);
        return SQ_E_INVAL;
    }
    for (int64_t g = 0; g < fmat_rows(&m); g++) {
        uint32_t acc = 0;
        for (int64_t j = 0; j < fmat_cols(&m); j++)
            acc = (acc + fmat_get(&m, g, j) * fvec_get(x, j)) % R->p;
        fvec_set(out, g, acc);
    }
    fmat_clear(&m);
    return 0;
}

/* ---- The p = 2 names ---------------------------------------------------------- */

int resol_has_h(const resol_t *R, int i)
{
    return R->p == 2 && resol_filt1_degree(R, i) >= 0;
}

int resol_h_matrix(const resol_t *R, int i, int32_t s, int32_t t, f2mat_t *m)
{
    fmat_t fm;
    memset(m, 0, sizeof *m);
    if (R->p != 2)
        return SQ_E_RANGE;
    int rc = resol_filt1_matrix(R, i, s, t, &fm);
    if (!rc)
        *m = fm.f2; /* the matrix moves to the caller */
    return rc;
}


/* ---- Chain maps into the sphere's resolution ------------------------------ */

/* Lifts the class x of Ext^{s0,t0} of P to a chain map into T (the sphere's
 * resolution), levels 0..kmax, on the generators of degree <= emax - (kmax
 * - k) at level k: f_0(g) = x_g times the generator of T_0, and d f_k =
 * f_{k-1} d (resol_cmap_lift_level). */
static void cmap_lift_class(resol_cmap_t *C, resol_qis_t *Q, fvec_t x, int32_t emax)
{
    const fmod_t *F = C->P->F[C->s0];
    int64_t ngen = fmod_total_gens(F);
    for (int64_t g = 0; g < ngen; g++) {
        int32_t e = fmod_gen_degree(F, g);
        if (e > emax - C->kmax)
            break;
        uint32_t c = e == C->t0 ? fvec_get(x, g - fmod_gen_global(F, e, 0)) : 0;
        if (c) {
            fvec_init(&C->vals[0][g], 1, C->T->p); /* c times the generator of T_0 */
            fvec_set(C->vals[0][g], 0, c);
        }
    }
    for (int32_t k = 1; k <= C->kmax; k++)
        resol_cmap_lift_level(C, Q, k, emax - (C->kmax - k));
}

static int is_sphere_of(const resol_t *RS, const resol_t *R)
{
    return RS->p == R->p && fdmod_bottom(RS->M) == 0 && fdmod_top(RS->M) == 0 &&
           fdmod_dim(RS->M, 0) == 1;
}

/* Whether v is a class vector of Ext^{s,t} of R: R's prime, at least the
 * Ext dimension's entries. */
static int class_ok(const resol_t *R, int32_t s, int64_t t, fvec_t v)
{
    return v.p == R->p && v.len >= fmod_num_gens(R->F[s], (int32_t)t);
}

int resol_product(const resol_t *R, const resol_t *RS, int32_t s, int32_t t, fvec_t x,
                  int32_t s2, int32_t t2, fvec_t y, fvec_t out)
{
    if (s < 0 || s2 < 0 || !is_sphere_of(RS, R))
        return SQ_E_INVAL;
    int32_t tt = t + t2, st = s + s2;
    if (!computed(R, st, tt) || !computed(R, s, t) || s2 > RS->max_s || !computed(RS, s2, t2))
        return SQ_E_RANGE;
    for (int32_t k = 0; k <= s2; k++)
        if (!computed(RS, k, t2 - (s2 - k)) || !computed(R, s + k, tt - (s2 - k)))
            return SQ_E_RANGE;
    if (!class_ok(R, s, t, x) || !class_ok(RS, s2, t2, y))
        return SQ_E_INVAL;
    const fmod_t *FM = R->F[st];
    int64_t nout = fmod_num_gens(FM, tt);
    if (out.p != R->p || out.len < nout)
        return SQ_E_RANGE;
    resol_cmap_t C;
    resol_qis_t Q;
    resol_cmap_init(&C, R, RS, s, t, s2);
    resol_qis_init(&Q, RS, s2, 0, t2);
    cmap_lift_class(&C, &Q, x, tt);
    /* (y . x)(g) = y(f_{s2}(g)) on the generators g of F_{s+s2} in degree t + t2. */
    int bad = Q.bad;
    for (int64_t g = 0; g < nout && !bad; g++)
        fvec_set(out, g, resol_cmap_eval(RS, s2, t2, y, C.vals[s2][fmod_gen_global(FM, tt, g)]));
    resol_cmap_clear(&C);
    resol_qis_clear(&Q);
    return bad ? SQ_E_RANGE : 0;
}

/* ---- Massey products ------------------------------------------------------- */

/* Whether y . x is zero (x in Ext^{s,t} of R, y in Ext^{s2,t2} of RS);
 * returns 1, 0, or a negative error of resol_product. */
static int product_vanishes(const resol_t *R, const resol_t *RS, int32_t s, int32_t t, fvec_t x,
                            int32_t s2, int32_t t2, fvec_t y)
{
    fvec_t v;
    fvec_init(&v, fmod_num_gens(R->F[s + s2], t + t2), R->p);
    int rc = resol_product(R, RS, s, t, x, s2, t2, y, v);
    int zero = fvec_is_zero(v);
    fvec_clear(&v);
    return rc ? rc : zero;
}

/* H_k : F^M_{N+k-1} -> F^S_k of degree tb + tc for k = 1 .. sa, stored at
 * level k - 1 of H (s0 = N, tk0 = 1), with H_0 = 0 and
 *     d H_{k+1}(g) = G_k(g) - H_k(d g),   G_k = B_k C_{sb+k},
 * i.e. d H + H d = B C (header).  Generators of degree <= to - (sa - 1 - k)
 * at level k. */
static void null_homotopy(resol_cmap_t *H, resol_qis_t *Q, const resol_cmap_t *B, const resol_cmap_t *C, int32_t sa,
                          int32_t sb, int32_t to)
{
    const resol_t *R = H->P, *RS = H->T;
    int32_t N = H->s0, tbc = H->t0, tc = C->t0;
    uint32_t minus = RS->p - 1; /* -1 mod p */
    for (int32_t k = 0; k < sa; k++) {
        const fmod_t *F = R->F[N + k];
        int64_t ngen = fmod_total_gens(F);
        int32_t ek = to - (sa - 1 - k);
        for (int64_t g = 0; g < ngen; g++) {
            int32_t e = fmod_gen_degree(F, g);
            if (e > ek)
                break;
            int32_t es = e - tbc; /* degree in F^S_k */
            if (es < k + 1)
                continue; /* F^S_{k+1} is zero below degree k + 1 */
            fvec_t v;
            fvec_init(&v, fmod_dim(RS->F[k], es), RS->p);
            fvec_t cg = C->vals[sb + k][g];
            if (cg.len) /* G_k(g) = B_k(C_{sb+k}(g)) */
                resol_cmap_apply(B, k, e - tc, cg, 1, v);
            if (k >= 1) /* - H_k(d g) */
                resol_cmap_apply(H, k - 1, e, resol_dgen(R, N + k, g), minus, v);
            H->vals[k][g] = resol_qis_lift(Q, k + 1, es, v);
            fvec_clear(&v);
        }
    }
}

int resol_massey(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta, fvec_t a,
                 int32_t sb, int32_t tb, fvec_t b, int32_t sc, int32_t tc, fvec_t c, fvec_t out)
{
    if (sa < 1 || sb < 1 || sc < 0 || !is_sphere_of(RS, R))
        return SQ_E_INVAL;
    int32_t N = sb + sc, so = sa + sb + sc - 1, to = ta + tb + tc;
    /* Everything read must be computed: R through (so, to) and (N, tb + tc),
     * RS through (sa + sb, ta + tb). */
    if (!computed(R, so, to) || !computed(R, N, tb + tc) || !computed(RS, sa + sb, ta + tb) ||
        !computed(RS, sa, ta) || !computed(RS, sb, tb))
        return SQ_E_RANGE;
    for (int32_t k = 0; k <= sa + sb - 1; k++)
        if (!computed(RS, k, ta + tb - (sa + sb - 1 - k)) ||
            (k <= sa && !computed(R, N + k - 1 >= 0 ? N + k - 1 : 0, to - (sa - k))))
            return SQ_E_RANGE;
    if (!class_ok(RS, sa, ta, a) || !class_ok(RS, sb, tb, b) || !class_ok(R, sc, tc, c))
        return SQ_E_INVAL;
    const fmod_t *FM = R->F[so];
    int64_t nout = fmod_num_gens(FM, to);
    if (out.p != R->p || out.len < nout)
        return SQ_E_RANGE;
    /* The products must vanish: b c in Ext(M), a b in Ext(S). */
    int z = product_vanishes(R, RS, sc, tc, c, sb, tb, b);
    if (z == 1)
        z = product_vanishes(RS, RS, sb, tb, b, sa, ta, a);
    if (z != 1)
        return z == 0 ? SQ_E_INVAL : z;
    /* C lifts c (levels 0 .. sb + sa - 1), B lifts b (levels 0 .. sa - 1). */
    int32_t kc = sb + sa - 1, kb = sa - 1;
    /* The quasi-inverses are of d^S in degrees up to ta + tb: C lifts into
     * F^S in degrees e - tc <= to - tc, B and H into degrees
     * <= to - tc - tb.  (Not to: for a module below degree 0, tc < 0 and
     * to < ta + tb.) */
    int32_t emax = ta + tb > to ? ta + tb : to;
    resol_qis_t Q;
    resol_qis_init(&Q, RS, sa + sb, 0, emax);
    resol_cmap_t C, B, H;
    resol_cmap_init(&C, R, RS, sc, tc, kc);
    cmap_lift_class(&C, &Q, c, to);
    resol_cmap_init(&B, RS, RS, sb, tb, kb);
    cmap_lift_class(&B, &Q, b, to - tc);
    resol_cmap_init(&H, R, RS, N, tb + tc, sa - 1);
    H.tk0 = 1;
    null_homotopy(&H, &Q, &B, &C, sa, sb, to);
    /* <a, b, c> contains a(H_sa(g)) on the generators g of F^M_{so} in degree to. */
    int bad = Q.bad;
    for (int64_t g = 0; g < nout && !bad; g++)
        fvec_set(out, g, resol_cmap_eval(RS, sa, ta, a, H.vals[sa - 1][fmod_gen_global(FM, to, g)]));
    resol_cmap_clear(&H);
    resol_cmap_clear(&B);
    resol_cmap_clear(&C);
    resol_qis_clear(&Q);
    return bad ? SQ_E_RANGE : 0;
}

int resol_massey_indeterminacy(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta,
                               fvec_t a, int32_t sb, int32_t tb, int32_t sc, int32_t tc,
                               fvec_t c, fmat_t *m)
{
    memset(m, 0, sizeof *m);
    int32_t so = sa + sb + sc - 1, to = ta + tb + tc;
    if (!computed(R, so, to))
        return SQ_E_RANGE;
    int64_t cols = fmod_num_gens(R->F[so], to);
    /* a x: x runs over a basis of Ext^{sb+sc-1, tb+tc}(M). */
    int32_t sx = sb + sc - 1, tx = tb + tc;
    int64_t nx = sx >= 0 && computed(R, sx, tx) ? fmod_num_gens(R->F[sx], tx) : 0;
    /* y c: y runs over a basis of Ext^{sa+sb-1, ta+tb}(S). */
    int32_t sy = sa + sb - 1, ty = ta + tb;
    int64_t ny = computed(RS, sy, ty) ? fmod_num_gens(RS->F[sy], ty) : 0;
    fmat_t span;
    fmat_init(&span, nx + ny, cols, R->p);
    fvec_t e;
    fvec_init(&e, nx > ny ? nx : ny, R->p);
    int rc = 0;
    for (int64_t i = 0; i < nx && !rc; i++) {
        fvec_zero(e);
        fvec_set(e, i, 1);
        rc = resol_product(R, RS, sx, tx, e, sa, ta, a, fmat_row(&span, i));
    }
    for (int64_t i = 0; i < ny && !rc; i++) {
        fvec_zero(e);
        fvec_set(e, i, 1);
        rc = resol_product(R, RS, sc, tc, c, sy, ty, e, fmat_row(&span, nx + i));
    }
    fvec_clear(&e);
    if (rc) {
        fmat_clear(&span);
        return rc;
    }
    int64_t rank = fmat_rref(&span, NULL);
    fmat_init(m, rank, cols, R->p);
    for (int64_t i = 0; i < rank; i++)
        fvec_addmul(fmat_row(m, i), fmat_row(&span, i), 1);
    fmat_clear(&span);
    return 0;
}
