/*
 * resol_products.c -- products by h_i and by classes of the sphere (see
 * resol_products.h for the mathematics).
 */
#include "resol_products.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
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

/* ---- Vectors in the field's encoding ----------------------------------------- */

/* A read-only view of a stored vector (fhom_image_enc) of len entries. */
static fvec_t cview(const void *v, int64_t len, uint32_t p)
{
    if (p == 2)
        return fvec_view_limbs((uint64_t *)(uintptr_t)v, len);
    return fvec_view_bytes((uint8_t *)(uintptr_t)v, len, p);
}

/* Entries off .. off + len - 1 of v as a vector of its own: a view at odd
 * p, a copy into *tmp at p = 2 (the bits need not start on a limb; the
 * caller fvec_clears *tmp, a zeroed struct at odd p).  Returns 0 when they
 * are all zero (nothing to multiply). */
static int segment(fvec_t v, int64_t off, int64_t len, fvec_t *tmp, fvec_t *seg)
{
    memset(tmp, 0, sizeof *tmp);
    if (v.p == 2) {
        fvec_init(tmp, len, 2);
        *seg = *tmp;
        return f2_copy_bits(tmp->limbs, v.limbs, off, len);
    }
    *seg = fvec_view_bytes(v.bytes + off, len, v.p);
    return !fvec_is_zero(*seg);
}

/* ---- Chain maps into the sphere's resolution ------------------------------ */

/* Quasi-inverse of d_k of a resolution in one degree, built once and
 * applied to many vectors: the reduced [D | I] with its pivots. */
typedef struct {
    int built;
    fmat_t m;
    int64_t *piv;
    int64_t rows, cols;
} qi_t;

static void qi_build(qi_t *q, const resol_t *T, int32_t k, int32_t e)
{
    const fhom_t *d = T->d[k];
    q->rows = fmod_dim(T->F[k], e);
    q->cols = fhom_target_dim(d, e);
    fmat_init_aug(&q->m, q->rows, q->cols, T->p);
    fhom_build_rows_fm(d, &q->m, 0, e, e + 1, NULL, 0, NULL);
    q->piv = sq_malloc(sq_mul_size((size_t)fmat_cols(&q->m) + 1, sizeof *q->piv));
    fmat_rref(&q->m, q->piv);
    q->built = 1;
}

static void qi_clear(qi_t *q)
{
    if (q->built) {
        fmat_clear(&q->m);
        sq_free(q->piv);
    }
    memset(q, 0, sizeof *q);
}

/* Whether v (over F_{k-1} in degree e, all generators) is a boundary:
 * v less the pivot rows' D parts that the quasi-inverse combines is zero
 * (the rows are in canonical RREF, so each pivot entry of v is its
 * coefficient).  Cost O(rank * cols) entries. */
static int qi_is_boundary(const qi_t *q, fvec_t v)
{
    fvec_t r;
    fvec_init(&r, v.len, v.p);
    fvec_addmul(r, v, 1);
    for (int64_t c = 0; c < q->cols; c++) {
        uint32_t x = q->piv[c] >= 0 ? fvec_get(r, c) : 0;
        if (x)
            fvec_addmul(r, fvec_window(fmat_row(&q->m, q->piv[c]), 0, q->cols), v.p - x);
    }
    int ok = fvec_is_zero(r);
    fvec_clear(&r);
    return ok;
}

/* The quasi-inverses of the target resolution, per (k, degree).  bad: a
 * vector to lift was not a boundary (a region not computed, or a bug):
 * the caller returns SQ_E_RANGE rather than a wrong class. */
typedef struct {
    const resol_t *T;
    int32_t kmax, emax;
    int bad;
    qi_t *q; /* [k * (emax + 1) + e] */
} qis_t;

static void qis_init(qis_t *Q, const resol_t *T, int32_t kmax, int32_t emax)
{
    Q->T = T;
    Q->kmax = kmax;
    Q->emax = emax < 0 ? 0 : emax;
    Q->bad = 0;
    Q->q = sq_calloc(sq_mul_size((size_t)kmax + 1, (size_t)Q->emax + 1), sizeof *Q->q);
}

static void qis_clear(qis_t *Q)
{
    for (int64_t i = 0; i < (int64_t)(Q->kmax + 1) * (Q->emax + 1); i++)
        qi_clear(&Q->q[i]);
    sq_free(Q->q);
}

/* A preimage under d_k of v (a boundary over F_{k-1} in degree e, all
 * generators; its part on generators of degree e is zero), over F_k in
 * degree e: a new vector (the caller fvec_clears it), or a zeroed struct
 * when v is zero or (Q->bad set) not a boundary. */
static fvec_t qis_lift(qis_t *Q, int32_t k, int32_t e, fvec_t v)
{
    fvec_t out = {0};
    if (fvec_is_zero(v))
        return out;
    SQ_CHECK(k >= 1 && k <= Q->kmax && e >= 0 && e <= Q->emax, "qis_lift: (%d, %d)", (int)k,
             (int)e);
    qi_t *q = &Q->q[(int64_t)k * (Q->emax + 1) + e];
    if (!q->built)
        qi_build(q, Q->T, k, e);
    if (!qi_is_boundary(q, v)) {
        Q->bad = 1;
        return out;
    }
    fvec_init(&out, q->rows, Q->T->p);
    fmat_aug_qi_apply(out, &q->m, q->piv, q->cols, v);
    return out;
}

/* A family of maps f_k : P_{s0+k} -> T_{k+tk0} of internal degree t0 (a
 * chain map, tk0 = 0, or a homotopy, tk0 = 1), given on generators:
 * vals[k][g] = f_k(g) over T_{k+tk0} in degree deg(g) - t0, a zeroed
 * struct for zero. */
typedef struct {
    const resol_t *P, *T;
    int32_t s0, t0, kmax, tk0;
    fvec_t **vals;
} cmap_t;

static void cmap_init(cmap_t *C, const resol_t *P, const resol_t *T, int32_t s0, int32_t t0,
                      int32_t kmax)
{
    C->P = P;
    C->T = T;
    C->s0 = s0;
    C->t0 = t0;
    C->kmax = kmax;
    C->tk0 = 0;
    C->vals = sq_calloc((size_t)kmax + 1, sizeof *C->vals);
    for (int32_t k = 0; k <= kmax; k++)
        C->vals[k] = sq_calloc((size_t)fmod_total_gens(P->F[s0 + k]) + 1, sizeof *C->vals[k]);
}

static void cmap_clear(cmap_t *C)
{
    for (int32_t k = 0; k <= C->kmax; k++) {
        int64_t n = fmod_total_gens(C->P->F[C->s0 + k]);
        for (int64_t g = 0; g < n; g++)
            fvec_clear(&C->vals[k][g]);
        sq_free(C->vals[k]);
    }
    sq_free(C->vals);
}

/* out (over T_k in degree eo, all generators) += coef * a * w: a is a
 * vector over A_{da}, w a vector over T_k in degree eo - da. */
static void act_add(const resol_t *T, int32_t k, int32_t eo, fvec_t a, int32_t da, fvec_t w,
                    uint32_t coef, fvec_t out)
{
    const fmod_t *F = T->F[k];
    int32_t ew = eo - da;
    int64_t na = stalg_dim(T->S, da), ngen = fmod_total_gens(F);
    for (int64_t h = 0; h < ngen; h++) {
        int32_t dh = fmod_gen_degree(F, h);
        if (dh > ew)
            break;
        int64_t ih = h - fmod_gen_global(F, dh, 0);
        int64_t woff = fmod_block_offset(F, ew, dh, ih), wlen = stalg_dim(T->S, ew - dh);
        fvec_t tmp, b;
        if (segment(w, woff, wlen, &tmp, &b)) {
            int64_t ooff = fmod_block_offset(F, eo, dh, ih);
            for (int64_t r = 0; r < na; r++) {
                uint32_t c = fvec_get(a, r);
                if (c)
                    stalg_mul_vec_add(T->S, out, ooff, c * coef, da, r, ew - dh, b);
            }
        }
        fvec_clear(&tmp);
    }
}

/* out += coef * f_k(v), v an element of P_{s0+k} in degree e (over its
 * generators of degree <= e; entries past v.len count as zero), out over
 * T_{k+tk0} in degree e - t0 (fmod_dim entries).  Generators whose value
 * is not set count as zero. */
static void cmap_apply(const cmap_t *C, int32_t k, int32_t e, fvec_t v, uint32_t coef,
                       fvec_t out)
{
    const fmod_t *F = C->P->F[C->s0 + k];
    int64_t ngen = fmod_total_gens(F);
    for (int64_t g = 0; g < ngen; g++) {
        int32_t dg = fmod_gen_degree(F, g);
        if (dg > e)
            break;
        fvec_t w = C->vals[k][g];
        if (!w.len)
            continue;
        int64_t ig = g - fmod_gen_global(F, dg, 0);
        int64_t off = fmod_block_offset(F, e, dg, ig), len = stalg_dim(C->P->S, e - dg);
        if (off >= v.len)
            continue;
        fvec_t tmp, a;
        if (segment(v, off, off + len <= v.len ? len : v.len - off, &tmp, &a))
            act_add(C->T, k + C->tk0, e - C->t0, a, e - dg, w, coef, out);
        fvec_clear(&tmp);
    }
}

/* The element d(g) of P_{s0+k-1} for the generator g of P_{s0+k}. */
static fvec_t dgen(const resol_t *P, int32_t s, int64_t g)
{
    int64_t len;
    const void *v = fhom_image_enc(P->d[s], g, &len);
    return cview(v, v ? len : 0, P->p);
}

/* Lifts the class x of Ext^{s0,t0} of P to a chain map into T (the sphere's
 * resolution), levels 0..kmax, on the generators of degree <= emax - (kmax
 * - k) at level k: f_0(g) = x_g times the generator of T_0, and d f_k =
 * f_{k-1} d. */
static void cmap_lift_class(cmap_t *C, qis_t *Q, fvec_t x, int32_t emax)
{
    const resol_t *P = C->P, *T = C->T;
    for (int32_t k = 0; k <= C->kmax; k++) {
        const fmod_t *F = P->F[C->s0 + k];
        int64_t ngen = fmod_total_gens(F);
        int32_t ek = emax - (C->kmax - k);
        for (int64_t g = 0; g < ngen; g++) {
            int32_t e = fmod_gen_degree(F, g);
            if (e > ek)
                break;
            if (e - C->t0 < k)
                continue; /* T_k is zero below degree k */
            if (k == 0) {
                uint32_t c = e == C->t0 ? fvec_get(x, g - fmod_gen_global(F, e, 0)) : 0;
                if (c) {
                    fvec_init(&C->vals[0][g], 1, T->p); /* c times the generator of T_0 */
                    fvec_set(C->vals[0][g], 0, c);
                }
                continue;
            }
            fvec_t v;
            fvec_init(&v, fmod_dim(T->F[k - 1], e - C->t0), T->p);
            cmap_apply(C, k - 1, e, dgen(P, C->s0 + k, g), 1, v);
            C->vals[k][g] = qis_lift(Q, k, e - C->t0, v);
            fvec_clear(&v);
        }
    }
}

/* y(w) for w over T_k in degree e (all generators) and y a class over the
 * generators of T_k in degree e: sum_h y_h times the coefficient of the
 * generator h itself in w. */
static uint32_t evaluate(const resol_t *T, int32_t k, int32_t e, fvec_t y, fvec_t w)
{
    if (!w.len)
        return 0;
    int64_t ny = fmod_num_gens(T->F[k], e);
    uint32_t acc = 0;
    for (int64_t h = 0; h < ny; h++)
        acc = (acc + fvec_get(y, h) * fvec_get(w, fmod_block_offset(T->F[k], e, e, h))) % T->p;
    return acc;
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
    cmap_t C;
    qis_t Q;
    cmap_init(&C, R, RS, s, t, s2);
    qis_init(&Q, RS, s2, t2);
    cmap_lift_class(&C, &Q, x, tt);
    /* (y . x)(g) = y(f_{s2}(g)) on the generators g of F_{s+s2} in degree t + t2. */
    int bad = Q.bad;
    for (int64_t g = 0; g < nout && !bad; g++)
        fvec_set(out, g, evaluate(RS, s2, t2, y, C.vals[s2][fmod_gen_global(FM, tt, g)]));
    cmap_clear(&C);
    qis_clear(&Q);
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
static void null_homotopy(cmap_t *H, qis_t *Q, const cmap_t *B, const cmap_t *C, int32_t sa,
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
                cmap_apply(B, k, e - tc, cg, 1, v);
            if (k >= 1) /* - H_k(d g) */
                cmap_apply(H, k - 1, e, dgen(R, N + k, g), minus, v);
            H->vals[k][g] = qis_lift(Q, k + 1, es, v);
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
    qis_t Q;
    qis_init(&Q, RS, sa + sb, emax);
    cmap_t C, B, H;
    cmap_init(&C, R, RS, sc, tc, kc);
    cmap_lift_class(&C, &Q, c, to);
    cmap_init(&B, RS, RS, sb, tb, kb);
    cmap_lift_class(&B, &Q, b, to - tc);
    cmap_init(&H, R, RS, N, tb + tc, sa - 1);
    H.tk0 = 1;
    null_homotopy(&H, &Q, &B, &C, sa, sb, to);
    /* <a, b, c> contains a(H_sa(g)) on the generators g of F^M_{so} in degree to. */
    int bad = Q.bad;
    for (int64_t g = 0; g < nout && !bad; g++)
        fvec_set(out, g, evaluate(RS, sa, ta, a, H.vals[sa - 1][fmod_gen_global(FM, to, g)]));
    cmap_clear(&H);
    cmap_clear(&B);
    cmap_clear(&C);
    qis_clear(&Q);
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
