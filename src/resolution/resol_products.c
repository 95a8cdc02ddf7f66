/*
 * resol_products.c -- products by h_i and by classes of the sphere (see
 * resol_products.h for the mathematics).
 */
#include "resol_products.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "sq_core.h"

/* ---- The filtration-one classes ------------------------------------------- */

int32_t resol_filt1_degree(const resol_t *R, int k)
{
    if (k < 0 || k >= 31)
        return -1;
    int64_t deg = 1;
    if (R->p == 2)
        deg = (int64_t)1 << k;
    else if (k >= 1)
        for (deg = 2 * (int64_t)(R->p - 1); k > 1 && deg <= INT32_MAX; k--)
            deg *= R->p;
    if (deg > INT32_MAX || deg > stalg_max_degree(R->S))
        return -1;
    return stalg_gen_index(R->S, (int32_t)deg) >= 0 ? (int32_t)deg : -1;
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

int resol_h_product(const resol_t *R, int i, int32_t s, int32_t t, const uint64_t *x,
                    uint64_t *out)
{
    fmat_t m;
    int rc = resol_filt1_matrix(R, i, s, t, &m);
    if (rc)
        return rc;
    int64_t rows = fmat_rows(&m), cols = fmat_cols(&m);
    fmat_clear(&m);
    return resol_filt1_product(R, i, s, t, fvec_view_limbs((uint64_t *)x, cols),
                               fvec_view_limbs(out, rows));
}

/* ---- Chain maps into the sphere's resolution ------------------------------ */

/* Quasi-inverse of d_k of a resolution in one degree, built once and
 * applied to many vectors: the reduced [D | I] with its pivots. */
typedef struct {
    int built;
    f2mat_t m;
    int64_t *piv;
    int64_t rows, cols;
} qi_t;

static void qi_build(qi_t *q, const resol_t *T, int32_t k, int32_t e)
{
    const fhom_t *d = T->d[k];
    q->rows = fmod_dim(T->F[k], e);
    q->cols = fhom_target_dim(d, e);
    f2mat_init_aug(&q->m, q->rows, q->cols);
    fhom_build_rows(d, &q->m, 0, e, e + 1);
    q->piv = sq_malloc(sq_mul_size((size_t)q->m.cols + 1, sizeof *q->piv));
    f2mat_rref(&q->m, q->piv);
    q->built = 1;
}

static void qi_clear(qi_t *q)
{
    if (q->built) {
        f2mat_clear(&q->m);
        sq_free(q->piv);
    }
    memset(q, 0, sizeof *q);
}

/* The quasi-inverses of the target resolution, per (k, degree). */
typedef struct {
    const resol_t *T;
    int32_t kmax, emax;
    qi_t *q; /* [k * (emax + 1) + e] */
} qis_t;

static void qis_init(qis_t *Q, const resol_t *T, int32_t kmax, int32_t emax)
{
    Q->T = T;
    Q->kmax = kmax;
    Q->emax = emax < 0 ? 0 : emax;
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
 * degree e: a new vector, or NULL when v is zero. */
static uint64_t *qis_lift(qis_t *Q, int32_t k, int32_t e, const uint64_t *v, int64_t vbits)
{
    if (!v || f2_first_bit(v, vbits) < 0)
        return NULL;
    SQ_CHECK(k >= 1 && k <= Q->kmax && e >= 0 && e <= Q->emax, "qis_lift: (%d, %d)", (int)k,
             (int)e);
    qi_t *q = &Q->q[(int64_t)k * (Q->emax + 1) + e];
    if (!q->built)
        qi_build(q, Q->T, k, e);
    uint64_t *out = sq_calloc((size_t)f2_limbs(q->rows) + 1, sizeof *out);
    f2mat_aug_qi_apply(out, &q->m, q->piv, q->cols, v);
    return out;
}

/* A family of maps f_k : P_{s0+k} -> T_{k+tk0} of internal degree t0 (a
 * chain map, tk0 = 0, or a homotopy, tk0 = 1), given on generators:
 * vals[k][g] = f_k(g) over T_{k+tk0} in degree deg(g) - t0, NULL for
 * zero. */
typedef struct {
    const resol_t *P, *T;
    int32_t s0, t0, kmax, tk0;
    uint64_t ***vals;
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
            sq_free(C->vals[k][g]);
        sq_free(C->vals[k]);
    }
    sq_free(C->vals);
}

/* out (over T_k in degree e - t0, all generators) += a * w: a is a bit
 * vector over A_{da}, w a vector over T_k in degree e - t0 - da. */
static void act_add(const resol_t *T, int32_t k, int32_t eo, const uint64_t *a, int32_t da,
                    const uint64_t *w, uint64_t *out)
{
    const fmod_t *F = T->F[k];
    const milnor_t *A = T->A;
    int32_t ew = eo - da;
    int64_t na = milnor_dim(A, da), ngen = fmod_total_gens(F);
    for (int64_t h = 0; h < ngen; h++) {
        int32_t dh = fmod_gen_degree(F, h);
        if (dh > ew)
            break;
        int64_t ih = h - fmod_gen_global(F, dh, 0);
        int64_t woff = fmod_block_offset(F, ew, dh, ih), wlen = milnor_dim(A, ew - dh);
        uint64_t *b = sq_calloc((size_t)f2_limbs(wlen) + 1, sizeof *b);
        if (f2_copy_bits(b, w, woff, wlen)) {
            int64_t ooff = fmod_block_offset(F, eo, dh, ih);
            for (int64_t r = 0; r < na; r++)
                if (bit(a, r))
                    milnor_mul_vec_add(A, out, ooff, da, r, ew - dh, b);
        }
        sq_free(b);
    }
}

/* f_k applied to v, an element of P_{s0+k} in degree e (over its
 * generators of degree <= e, vbits bits), into out over T_{k+tk0} in
 * degree e - t0 (fmod_dim bits, XORed into).  Generators whose value is not set
 * count as zero. */
static void cmap_apply(const cmap_t *C, int32_t k, int32_t e, const uint64_t *v, int64_t vbits,
                       uint64_t *out)
{
    const fmod_t *F = C->P->F[C->s0 + k];
    const milnor_t *A = C->P->A;
    int64_t ngen = fmod_total_gens(F);
    for (int64_t g = 0; g < ngen; g++) {
        int32_t dg = fmod_gen_degree(F, g);
        if (dg > e)
            break;
        const uint64_t *w = C->vals[k][g];
        if (!w)
            continue;
        int64_t ig = g - fmod_gen_global(F, dg, 0);
        int64_t off = fmod_block_offset(F, e, dg, ig), len = milnor_dim(A, e - dg);
        if (off >= vbits)
            continue;
        uint64_t *a = sq_calloc((size_t)f2_limbs(len) + 1, sizeof *a);
        int64_t n = off + len <= vbits ? len : vbits - off;
        if (f2_copy_bits(a, v, off, n))
            act_add(C->T, k + C->tk0, e - C->t0, a, e - dg, w, out);
        sq_free(a);
    }
}

/* The element d(g) of P_{s0+k-1} for the generator g of P_{s0+k}. */
static const uint64_t *dgen(const cmap_t *C, int32_t k, int64_t g, int64_t *nbits)
{
    return fhom_image(C->P->d[C->s0 + k], g, nbits);
}

/* Lifts the class x of Ext^{s0,t0} of P to a chain map into T (the sphere's
 * resolution), levels 0..kmax, on the generators of degree <= emax - (kmax
 * - k) at level k. */
static void cmap_lift_class(cmap_t *C, qis_t *Q, const uint64_t *x, int32_t emax)
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
                if (e == C->t0 && bit(x, g - fmod_gen_global(F, e, 0))) {
                    C->vals[0][g] = sq_calloc(1, sizeof(uint64_t));
                    C->vals[0][g][0] = 1; /* the generator of T_0 in degree 0 */
                }
                continue;
            }
            int64_t nb, vdim = fmod_dim(T->F[k - 1], e - C->t0);
            const uint64_t *dg = dgen(C, k, g, &nb);
            uint64_t *v = sq_calloc((size_t)f2_limbs(vdim) + 1, sizeof *v);
            cmap_apply(C, k - 1, e, dg, nb, v);
            C->vals[k][g] = qis_lift(Q, k, e - C->t0, v, vdim);
            sq_free(v);
        }
    }
}

/* y(w) for w over T_k in degree e (all generators) and y a class over the
 * generators of T_k in degree e. */
static int evaluate(const resol_t *T, int32_t k, int32_t e, const uint64_t *y, const uint64_t *w)
{
    if (!w)
        return 0;
    int64_t ny = fmod_num_gens(T->F[k], e);
    int p = 0;
    for (int64_t h = 0; h < ny; h++)
        p ^= bit(y, h) & bit(w, fmod_block_offset(T->F[k], e, e, h));
    return p;
}

static int is_sphere(const resol_t *RS)
{
    return fdmod_bottom(RS->M) == 0 && fdmod_top(RS->M) == 0 && fdmod_dim(RS->M, 0) == 1;
}

int resol_product(const resol_t *R, const resol_t *RS, int32_t s, int32_t t, const uint64_t *x,
                  int32_t s2, int32_t t2, const uint64_t *y, uint64_t *out, size_t out_limbs)
{
    if (s < 0 || s2 < 0 || !is_sphere(RS))
        return SQ_E_INVAL;
    int32_t tt = t + t2, st = s + s2;
    if (!computed(R, st, tt) || !computed(R, s, t) || s2 > RS->max_s || !computed(RS, s2, t2))
        return SQ_E_RANGE;
    for (int32_t k = 0; k <= s2; k++)
        if (!computed(RS, k, t2 - (s2 - k)) || !computed(R, s + k, tt - (s2 - k)))
            return SQ_E_RANGE;
    if ((size_t)f2_limbs(fmod_num_gens(R->F[st], tt)) > out_limbs)
        return SQ_E_RANGE;
    cmap_t C;
    qis_t Q;
    cmap_init(&C, R, RS, s, t, s2);
    qis_init(&Q, RS, s2, t2);
    cmap_lift_class(&C, &Q, x, tt);
    /* (y . x)(g) = y(f_{s2}(g)) on the generators g of F_{s+s2} in degree t + t2. */
    const fmod_t *FM = R->F[st];
    int64_t nout = fmod_num_gens(FM, tt);
    memset(out, 0, (size_t)f2_limbs(nout) * sizeof *out);
    for (int64_t g = 0; g < nout; g++)
        if (evaluate(RS, s2, t2, y, C.vals[s2][fmod_gen_global(FM, tt, g)]))
            out[g >> 6] |= 1ULL << (g & 63);
    cmap_clear(&C);
    qis_clear(&Q);
    return 0;
}

/* ---- Massey products ------------------------------------------------------- */

/* Whether the vector v of n bits is zero. */
static int vzero(const uint64_t *v, int64_t n)
{
    return f2_first_bit(v, n) < 0;
}

int resol_massey(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta, const uint64_t *a,
                 int32_t sb, int32_t tb, const uint64_t *b, int32_t sc, int32_t tc,
                 const uint64_t *c, uint64_t *out, size_t out_limbs)
{
    if (sa < 1 || sb < 1 || sc < 0 || !is_sphere(RS))
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
    if ((size_t)f2_limbs(fmod_num_gens(R->F[so], to)) > out_limbs)
        return SQ_E_RANGE;
    /* The products must vanish: b c in Ext(M), a b in Ext(S). */
    int rc = 0;
    size_t nbc = (size_t)f2_limbs(fmod_num_gens(R->F[N], tb + tc)) + 1;
    size_t nab = (size_t)f2_limbs(fmod_num_gens(RS->F[sa + sb], ta + tb)) + 1;
    uint64_t *bc = sq_calloc(nbc, 8);
    uint64_t *ab = sq_calloc(nab, 8);
    rc = resol_product(R, RS, sc, tc, c, sb, tb, b, bc, nbc);
    if (!rc)
        rc = resol_product(RS, RS, sb, tb, b, sa, ta, a, ab, nab);
    if (!rc && (!vzero(bc, fmod_num_gens(R->F[N], tb + tc)) ||
                !vzero(ab, fmod_num_gens(RS->F[sa + sb], ta + tb))))
        rc = SQ_E_INVAL;
    sq_free(bc);
    sq_free(ab);
    if (rc)
        return rc;
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
    /* H_k : F^M_{N+k-1} -> F^S_k, degree tb + tc, with H_0 = 0 and
     * H_{k+1}(g) = lift(G_k(g) + H_k(d g)), G = B C, for k = 0 .. sa - 1;
     * stored at level k - 1 of a map with s0 = N. */
    cmap_init(&H, R, RS, N, tb + tc, sa - 1);
    H.tk0 = 1;
    for (int32_t k = 0; k < sa; k++) {
        const fmod_t *F = R->F[N + k];
        int64_t ngen = fmod_total_gens(F);
        int32_t ek = to - (sa - 1 - k);
        for (int64_t g = 0; g < ngen; g++) {
            int32_t e = fmod_gen_degree(F, g);
            if (e > ek)
                break;
            int32_t es = e - tb - tc; /* degree in F^S_k */
            if (es < k + 1)
                continue; /* F^S_{k+1} is zero below degree k + 1 */
            int64_t vdim = fmod_dim(RS->F[k], es);
            uint64_t *v = sq_calloc((size_t)f2_limbs(vdim) + 1, sizeof *v);
            /* G_k(g) = B_k(C_{sb+k}(g)) */
            const uint64_t *cg = C.vals[sb + k][g];
            if (cg) {
                int32_t ec = e - tc; /* degree of C(g) in F^S_{sb+k} */
                cmap_apply(&B, k, ec, cg, fmod_dim(RS->F[sb + k], ec), v);
            }
            /* + H_k(d g) */
            if (k >= 1) {
                int64_t nb;
                const uint64_t *dg = fhom_image(R->d[N + k], g, &nb);
                cmap_apply(&H, k - 1, e, dg, nb, v);
            }
            H.vals[k][g] = qis_lift(&Q, k + 1, es, v, vdim);
            sq_free(v);
        }
    }
    /* <a, b, c> contains a(H_sa(g)) on the generators g of F^M_{so} in degree to. */
    const fmod_t *FM = R->F[so];
    int64_t nout = fmod_num_gens(FM, to);
    memset(out, 0, (size_t)f2_limbs(nout) * sizeof *out);
    for (int64_t g = 0; g < nout; g++)
        if (evaluate(RS, sa, ta, a, H.vals[sa - 1][fmod_gen_global(FM, to, g)]))
            out[g >> 6] |= 1ULL << (g & 63);
    cmap_clear(&H);
    cmap_clear(&B);
    cmap_clear(&C);
    qis_clear(&Q);
    return 0;
}

int resol_massey_indeterminacy(const resol_t *R, const resol_t *RS, int32_t sa, int32_t ta,
                               const uint64_t *a, int32_t sb, int32_t tb, int32_t sc, int32_t tc,
                               const uint64_t *c, f2mat_t *m)
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
    f2mat_init(m, nx + ny, cols);
    uint64_t *e = sq_calloc((size_t)f2_limbs(nx > ny ? nx : ny) + 1, sizeof *e);
    int rc = 0;
    for (int64_t i = 0; i < nx && !rc; i++) {
        memset(e, 0, (size_t)(f2_limbs(nx) + 1) * sizeof *e);
        e[i >> 6] |= 1ULL << (i & 63);
        rc = resol_product(R, RS, sx, tx, e, sa, ta, a, f2mat_row(m, i), (size_t)m->stride);
    }
    for (int64_t i = 0; i < ny && !rc; i++) {
        memset(e, 0, (size_t)(f2_limbs(ny) + 1) * sizeof *e);
        e[i >> 6] |= 1ULL << (i & 63);
        rc = resol_product(R, RS, sc, tc, c, sy, ty, e, f2mat_row(m, nx + i),
                           (size_t)m->stride);
    }
    sq_free(e);
    if (rc) {
        f2mat_clear(m);
        return rc;
    }
    int64_t rank = f2mat_rref(m, NULL);
    f2mat_t r = {0};
    f2mat_init(&r, rank, cols);
    for (int64_t i = 0; i < rank; i++)
        memcpy(f2mat_row(&r, i), f2mat_row(m, i), (size_t)f2_limbs(cols) * sizeof(uint64_t));
    f2mat_clear(m);
    *m = r;
    return 0;
}
