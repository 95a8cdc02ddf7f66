/*
 * resol_steenrod.c -- Sq^j on Ext of the sphere by the cup-i maps
 * Delta_i : F -> C (x) C, C = F or a Yoneda representative E of the class
 * (resol_steenrod.h for the mathematics).
 *
 * An element of (F (x) F)_K in degree D is kept as blocks: for a = 0..s
 * and e1 = 0..t, the bit matrix of its component in F_a(e1) (x) F_b(e2),
 * b = K - a, e2 = D - e1, rows over the basis of F_a(e1) and columns over
 * that of F_b(e2); only a, b <= s and e1, e2 <= t are kept (header), and
 * of a factor at filtration s only degree t (blk).
 */
#include "resol_steenrod.h"

#include <stdint.h>
#include <string.h>

#include "f2mat.h"
#include "internal.h"
#include "milnor.h"
#include "resol_map_internal.h"
#include "resol_yoneda.h"
#include "sq_core.h"

/* An element of F (x) F: blocks [a * (t + 1) + e1], zeroed when zero. */
typedef struct {
    int32_t K, D;
    fmat_t *b;
} welt_t;

struct resol_steenrod {
    const resol_t *R;
    int32_t s, t;
    int64_t nx;      /* generators of F_s in degree t */
    int64_t *ngen;   /* [i]: generators of F_{2s-i} in degree 2t */
    uint8_t **forms; /* [i][g * nx * nx + u * nx + v]: the (g_u, g_v) entry of Delta_i(g) */
};

/* The work of a build: the contraction's matrices, built on first use. */
typedef struct {
    const resol_t *R;
    int32_t s, t;
    resol_qis_t Q;
    fmat_t *hm; /* [a * (t + 1) + e]: rows h(basis of F_a(e)) over F_{a+1}(e) */
    uint8_t *hset;
    int64_t *aoff;  /* [d]: the index of the first Milnor basis element of degree d */
    int64_t nalg;   /* Milnor basis elements of degree 0..t */
    fmat_t **lm;    /* [a * (t + 1) + e][aoff[d] + r]: rows Sq(d, r) (basis of F_a(e)) */
    int64_t *dims;  /* [a * (t + 1) + e]: dim F_a(e), a <= s + 1 */
    /* The Yoneda backend (Y != NULL): the factors are the terms E_a of a
     * representative of one class instead of F_a, E_s = F_2[t]. */
    const resol_yoneda_t *Y;
    struct yqi *yq; /* [a * (t + 1) + e]: quasi-inverse of E_a -> E_{a-1} in degree e */
    fvec_t e0;      /* i(1): an element of E_0 (F_0) in degree 0 with eps = 1 */
} sctx_t;

/* A quasi-inverse of the map out of E_a in one degree: the reduced
 * [D | I] and its pivots. */
struct yqi {
    int built;
    fmat_t m;
    int64_t *piv, cols;
};

static int64_t fmdim(const sctx_t *C, int32_t a, int32_t e)
{
    if (C->Y)
        return a >= 0 && a <= C->s && e >= 0 && e <= C->t
                   ? fdmod_dim(resol_yoneda_module(C->Y, a), e)
                   : 0;
    if (a < 0 || a > C->R->max_s || e < 0)
        return 0;
    return a <= C->s + 1 && e <= C->t ? C->dims[(int64_t)a * (C->t + 1) + e]
                                      : fmod_dim(C->R->F[a], e);
}

static int64_t bidx(const sctx_t *C, int32_t a, int32_t e1)
{
    return (int64_t)a * (C->t + 1) + e1;
}

static void welt_init(welt_t *w, const sctx_t *C, int32_t K, int32_t D)
{
    w->K = K;
    w->D = D;
    w->b = sq_calloc(sq_mul_size((size_t)C->s + 1, (size_t)C->t + 1), sizeof *w->b);
}

static void welt_clear(welt_t *w, const sctx_t *C)
{
    if (!w->b)
        return;
    for (int64_t i = 0; i < (int64_t)(C->s + 1) * (C->t + 1); i++)
        if (fmat_rows(&w->b[i]) || fmat_cols(&w->b[i]))
            fmat_clear(&w->b[i]);
    sq_free(w->b);
    w->b = NULL;
}

/* The block (a, e1) of w, allocated (zero) on first use; NULL when it is
 * outside the kept part or empty. */
static fmat_t *blk(const sctx_t *C, welt_t *w, int32_t a, int32_t e1)
{
    int32_t b = w->K - a, e2 = w->D - e1;
    if (a < 0 || a > C->s || b < 0 || b > C->s || e1 < 0 || e1 > C->t || e2 < 0 || e2 > C->t)
        return NULL;
    /* A factor already at filtration s can no longer be raised by h, and an
     * action of positive degree makes it decomposable, where x reads
     * nothing: it counts only at degree t. */
    if ((a == C->s && e1 != C->t) || (b == C->s && e2 != C->t))
        return NULL;
    int64_t r = fmdim(C, a, e1), c = fmdim(C, b, e2);
    if (r == 0 || c == 0)
        return NULL;
    fmat_t *m = &w->b[bidx(C, a, e1)];
    if (!fmat_rows(m))
        fmat_init(m, r, c, 2);
    return m;
}

/* The block (a, e1) of w if it holds anything, else NULL. */
static const fmat_t *blk_get(const sctx_t *C, const welt_t *w, int32_t a, int32_t e1)
{
    const fmat_t *m = &w->b[bidx(C, a, e1)];
    return fmat_rows(m) ? m : NULL;
}

/* The set bits of v (p = 2) in increasing order: FOR_BITS(v, q) { ... }. */
#define FOR_BITS(v, q)                                                                           \
    for (int64_t w_ = 0, q = 0; w_ * 64 < (v).len; w_++)                                         \
        for (uint64_t x_ = (v).limbs[w_]; x_ && (q = w_ * 64 + __builtin_ctzll(x_)) < (v).len;   \
             x_ &= x_ - 1)

/* ---- The free modules ---------------------------------------------------------- */

/* out (over F_a(e + d)) += Sq(d, r) v for v over F_a(e). */
static void fm_act(const sctx_t *C, int32_t a, int32_t e, int32_t d, int64_t r, fvec_t v,
                   fvec_t out)
{
    if (C->Y) { /* E_a is finite, with every Milnor basis element in its table */
        fdmod_act_addf(resol_yoneda_module(C->Y, a), out, 0, 1, d, r, e, v);
        return;
    }
    const fmod_t *F = C->R->F[a];
    int64_t n = fmod_total_gens(F);
    for (int64_t h = 0; h < n; h++) {
        int32_t dh = fmod_gen_degree(F, h);
        if (dh > e)
            break;
        int64_t ih = h - fmod_gen_global(F, dh, 0), len = stalg_dim(C->R->S, e - dh);
        fvec_t seg;
        fvec_init(&seg, len, 2);
        if (f2_copy_bits(seg.limbs, v.limbs, fmod_block_offset(F, e, dh, ih), len))
            stalg_mul_vec_add(C->R->S, out, fmod_block_offset(F, e + d, dh, ih), 1, d, r, e - dh,
                              seg);
        fvec_clear(&seg);
    }
}

/* The matrix of h on F_a(e) (rows: the images of the basis, over
 * F_{a+1}(e)), a < s + 1, built on first use: h(c) = q_{a+1}(c - q_a(d c)). */
static const fmat_t *hmat_yoneda(sctx_t *C, int32_t a, int32_t e);

static const fmat_t *hmat(sctx_t *C, int32_t a, int32_t e)
{
    if (C->Y)
        return hmat_yoneda(C, a, e);
    int64_t i = bidx(C, a, e);
    if (C->hset[i])
        return &C->hm[i];
    const resol_t *R = C->R;
    int64_t rows = fmdim(C, a, e), cols = fmdim(C, a + 1, e);
    fmat_init(&C->hm[i], rows, cols, 2);
    C->hset[i] = 1;
    fmat_t dm;
    int64_t dcols = fhom_target_dim(R->d[a], e);
    fmat_init(&dm, rows, dcols, 2);
    fhom_build_rows_fm(R->d[a], &dm, 0, e, e + 1, NULL, 0, NULL);
    for (int64_t p = 0; p < rows; p++) {
        fvec_t c, q = resol_qis_lift(&C->Q, a, e, fmat_row(&dm, p));
        fvec_init(&c, rows, 2);
        fvec_set(c, p, 1);
        if (q.len)
            fvec_addmul(c, q, 1);
        fvec_t hc = resol_qis_lift(&C->Q, a + 1, e, c);
        if (hc.len)
            fvec_addmul(fmat_row(&C->hm[i], p), hc, 1);
        fvec_clear(&hc);
        fvec_clear(&q);
        fvec_clear(&c);
    }
    fmat_clear(&dm);
    return &C->hm[i];
}

/* The quasi-inverse of d_a : E_a -> E_{a-1} (E_{-1} = F_2) in degree e,
 * 0 <= a <= s, built on first use. */
static struct yqi *yqi_get(sctx_t *C, int32_t a, int32_t e)
{
    struct yqi *q = &C->yq[bidx(C, a, e)];
    if (q->built)
        return q;
    fmat_t d;
    fdmap_matrix(resol_yoneda_map(C->Y, a), e, &d);
    q->cols = fmat_cols(&d);
    fmat_init_aug(&q->m, fmat_rows(&d), q->cols, 2);
    for (int64_t p = 0; p < fmat_rows(&d); p++)
        fvec_addmul(fvec_window(fmat_row(&q->m, p), 0, q->cols), fmat_row(&d, p), 1);
    fmat_clear(&d);
    q->piv = sq_malloc(sq_mul_size((size_t)fmat_cols(&q->m) + 1, sizeof *q->piv));
    fmat_rref(&q->m, q->piv);
    q->built = 1;
    return q;
}

/* A preimage under d_a (degree e) of v, over E_a(e) (a new vector, zero
 * when v is); sets C->Q.bad when v is not in the image. */
static fvec_t yqi_lift(sctx_t *C, int32_t a, int32_t e, fvec_t v)
{
    fvec_t out;
    fvec_init(&out, fmdim(C, a, e), 2);
    if (fvec_is_zero(v))
        return out;
    struct yqi *q = yqi_get(C, a, e);
    fvec_t r;
    fvec_init(&r, q->cols, 2);
    fvec_addmul(r, v, 1);
    for (int64_t c = 0; c < q->cols; c++)
        if (q->piv[c] >= 0 && fvec_get(r, c))
            fvec_addmul(r, fvec_window(fmat_row(&q->m, q->piv[c]), 0, q->cols), 1);
    if (!fvec_is_zero(r))
        C->Q.bad = 1;
    else
        fmat_aug_qi_apply(out, &q->m, q->piv, q->cols, v);
    fvec_clear(&r);
    return out;
}

/* hmat for the Yoneda backend: h(c) = q_{a+1}(c - q_a(d_a c)), zero on E_s. */
static const fmat_t *hmat_yoneda(sctx_t *C, int32_t a, int32_t e)
{
    int64_t i = bidx(C, a, e);
    if (C->hset[i])
        return &C->hm[i];
    int64_t rows = fmdim(C, a, e), cols = fmdim(C, a + 1, e);
    fmat_init(&C->hm[i], rows, cols, 2);
    C->hset[i] = 1;
    if (a >= C->s || cols == 0)
        return &C->hm[i];
    const fdmod_t *T = resol_yoneda_module(C->Y, a - 1);
    for (int64_t p = 0; p < rows; p++) {
        fvec_t c, dc;
        fvec_init(&c, rows, 2);
        fvec_set(c, p, 1);
        fvec_init(&dc, fdmod_dim(T, e), 2);
        fdmap_apply_add(resol_yoneda_map(C->Y, a), e, c, 1, dc);
        fvec_t q = yqi_lift(C, a, e, dc);
        fvec_addmul(c, q, 1);
        fvec_t hc = yqi_lift(C, a + 1, e, c);
        fvec_addmul(fmat_row(&C->hm[i], p), hc, 1);
        fvec_clear(&hc);
        fvec_clear(&q);
        fvec_clear(&dc);
        fvec_clear(&c);
    }
    return &C->hm[i];
}

/* The matrix of Sq(d, r) on F_a(e) (rows: the images of the basis, over
 * F_a(e + d)), e + d <= t, built on first use. */
static const fmat_t *lmat(sctx_t *C, int32_t a, int32_t e, int32_t d, int64_t r)
{
    int64_t i = bidx(C, a, e);
    if (!C->lm[i])
        C->lm[i] = sq_calloc((size_t)C->nalg, sizeof *C->lm[i]);
    fmat_t *m = &C->lm[i][C->aoff[d] + r];
    if (fmat_rows(m))
        return m;
    int64_t rows = fmdim(C, a, e);
    fmat_init(m, rows, fmdim(C, a, e + d), 2);
    fvec_t v;
    fvec_init(&v, rows, 2);
    for (int64_t p = 0; p < rows; p++) {
        fvec_zero(v);
        fvec_set(v, p, 1);
        fm_act(C, a, e, d, r, v, fmat_row(m, p));
    }
    fvec_clear(&v);
    return m;
}

/* ---- Operations on F (x) F ------------------------------------------------------ */

/* eps of basis element p of the degree-0 part of the first factor (F_0 or
 * E_0): the augmentation to F_2. */
static int yq_eps(const sctx_t *C, int64_t p)
{
    if (!C->Y)
        return p == 0; /* F_0(0) is the generator g_0 */
    fvec_t v, out;
    fvec_init(&v, fmdim(C, 0, 0), 2);
    fvec_init(&out, 1, 2);
    fvec_set(v, p, 1);
    fdmap_apply_add(resol_yoneda_map(C->Y, 0), 0, v, 1, out);
    int x = (int)fvec_get(out, 0);
    fvec_clear(&v);
    fvec_clear(&out);
    return x;
}

/* out += H w = (h (x) 1) w + (i eps (x) h) w; out in (K + 1, D). */
static void w_contract(sctx_t *C, const welt_t *w, welt_t *out)
{
    for (int32_t a = 0; a <= C->s; a++)
        for (int32_t e1 = 0; e1 <= C->t; e1++) {
            const fmat_t *m = blk_get(C, w, a, e1);
            if (!m)
                continue;
            int32_t b = w->K - a, e2 = w->D - e1;
            fmat_t *o = blk(C, out, a + 1, e1);
            if (o) { /* rows p' of the new block: sum over p of h(p)_{p'} m_p */
                const fmat_t *hm = hmat(C, a, e1);
                for (int64_t p = 0; p < fmat_rows(m); p++) {
                    fvec_t mr = fmat_row(m, p);
                    if (fvec_is_zero(mr))
                        continue;
                    fvec_t hr = fmat_row(hm, p);
                    FOR_BITS(hr, q)
                    fvec_addmul(fmat_row(o, q), mr, 1);
                }
            }
            if (a == 0 && e1 == 0 && (o = blk(C, out, 0, 0)) != NULL) { /* i eps (x) h */
                fvec_t v, vh; /* v = (eps (x) 1) m, then e0 (x) v h */
                fvec_init(&v, fmat_cols(m), 2);
                fvec_init(&vh, fmat_cols(o), 2);
                for (int64_t p = 0; p < fmat_rows(m); p++)
                    if (yq_eps(C, p))
                        fvec_addmul(v, fmat_row(m, p), 1);
                fmat_vec_mul_add(vh, v, hmat(C, b, e2));
                FOR_BITS(C->e0, p)
                fvec_addmul(fmat_row(o, p), vh, 1);
                fvec_clear(&v);
                fvec_clear(&vh);
            }
        }
}

/* out += tau w (out in the same (K, D)). */
static void w_swap_add(const sctx_t *C, const welt_t *w, welt_t *out)
{
    for (int32_t a = 0; a <= C->s; a++)
        for (int32_t e1 = 0; e1 <= C->t; e1++) {
            const fmat_t *m = blk_get(C, w, a, e1);
            if (!m)
                continue;
            fmat_t *o = blk(C, out, w->K - a, w->D - e1);
            for (int64_t p = 0; p < fmat_rows(m); p++) {
                fvec_t mr = fmat_row(m, p);
                FOR_BITS(mr, q)
                fvec_add_entry(fmat_row(o, q), p, 1);
            }
        }
}

/* out += w (same (K, D)). */
static void w_add(const sctx_t *C, const welt_t *w, welt_t *out)
{
    for (int32_t a = 0; a <= C->s; a++)
        for (int32_t e1 = 0; e1 <= C->t; e1++) {
            const fmat_t *m = blk_get(C, w, a, e1);
            if (!m)
                continue;
            fmat_t *o = blk(C, out, a, e1);
            for (int64_t p = 0; p < fmat_rows(m); p++)
                fvec_addmul(fmat_row(o, p), fmat_row(m, p), 1);
        }
}

/* The block m (rows over F_a(e1), columns over F_b(e2)) acted on by
 * Sq(R1) (x) Sq(R2) (degrees d1, d2, indices r1, r2), added into o (rows
 * over F_a(e1 + d1), columns over F_b(e2 + d2)): o += L1^T m L2. */
static void blk_act(sctx_t *C, const fmat_t *m, int32_t a, int32_t e1, int32_t b, int32_t e2,
                    int32_t d1, int64_t r1, int32_t d2, int64_t r2, fmat_t *o)
{
    const fmat_t *l1 = d1 ? lmat(C, a, e1, d1, r1) : NULL, *l2 = d2 ? lmat(C, b, e2, d2, r2) : NULL;
    fvec_t v;
    fvec_init(&v, fmat_cols(o), 2);
    for (int64_t p = 0; p < fmat_rows(m); p++) {
        fvec_t mr = fmat_row(m, p);
        if (fvec_is_zero(mr))
            continue;
        fvec_t row = v; /* row p of m L2 */
        if (l2) {
            fvec_zero(v);
            fmat_vec_mul_add(v, mr, l2);
        } else {
            row = mr;
        }
        if (!l1) {
            fvec_addmul(fmat_row(o, p), row, 1);
            continue;
        }
        fvec_t lr = fmat_row(l1, p);
        FOR_BITS(lr, q)
        fvec_addmul(fmat_row(o, q), row, 1);
    }
    fvec_clear(&v);
}

/* out (K, D + d) += Sq(d, r) w by the coproduct: every split R = R1 + R2. */
static void w_act(sctx_t *C, int32_t d, int64_t r, const welt_t *w, welt_t *out)
{
    const milnor_t *A = C->R->A;
    int32_t R[MILNOR_MAX_LEN], R1[MILNOR_MAX_LEN], R2[MILNOR_MAX_LEN];
    int len = milnor_get(A, d, r, R, MILNOR_MAX_LEN);
    int64_t splits = 1;
    for (int i = 0; i < len; i++)
        splits *= R[i] + 1;
    for (int64_t sp = 0; sp < splits; sp++) {
        int64_t x = sp;
        for (int i = 0; i < len; i++) {
            R1[i] = (int32_t)(x % (R[i] + 1));
            x /= R[i] + 1;
            R2[i] = R[i] - R1[i];
        }
        int32_t d1 = milnor_pdegree(R1, len), d2 = d - d1;
        int64_t r1 = milnor_index(A, R1, len), r2 = milnor_index(A, R2, len);
        for (int32_t a = 0; a <= C->s; a++)
            for (int32_t e1 = 0; e1 + d1 <= C->t; e1++) {
                const fmat_t *m = blk_get(C, w, a, e1);
                if (!m)
                    continue;
                int32_t b = w->K - a, e2 = w->D - e1;
                fmat_t *o = blk(C, out, a, e1 + d1);
                if (o && e2 + d2 <= C->t)
                    blk_act(C, m, a, e1, b, e2, d1, r1, d2, r2, o);
            }
    }
}

/* ---- The cup-i maps ------------------------------------------------------------- */

/* out (k - 1 + i, deg g) += Delta_i(d g), prev[h] = Delta_i(h) on F_{k-1}. */
static void apply_dg(sctx_t *C, int32_t k, int64_t g, welt_t *const *prev, welt_t *out)
{
    const resol_t *R = C->R;
    const fmod_t *P = R->F[k - 1];
    int32_t D = fmod_gen_degree(R->F[k], g);
    fvec_t dg = resol_dgen(R, k, g);
    for (int64_t h = 0; h < fmod_total_gens(P); h++) {
        int32_t dh = fmod_gen_degree(P, h);
        if (dh >= D)
            break;
        if (!prev[h])
            continue;
        int64_t off = fmod_block_offset(P, D, dh, h - fmod_gen_global(P, dh, 0));
        int64_t n = stalg_dim(R->S, D - dh);
        for (int64_t r = 0; r < n && off + r < dg.len; r++)
            if (fvec_get(dg, off + r))
                w_act(C, D - dh, r, prev[h], out);
    }
}

/* Delta_i on the generators of F_k of degree <= bound: cur[g] (NULL beyond
 * the bound or for zero), from last = Delta_{i-1} on F_k (NULL for i = 0)
 * and below = Delta_i on F_{k-1} (NULL for k = 0). */
static void delta_level(sctx_t *C, int32_t i, int32_t k, int32_t bound, welt_t *const *last,
                        welt_t *const *below, welt_t **cur)
{
    const fmod_t *F = C->R->F[k];
    for (int64_t g = 0; g < fmod_total_gens(F) && !C->Q.bad; g++) {
        int32_t D = fmod_gen_degree(F, g);
        if (D > bound)
            break;
        welt_t z;
        welt_init(&z, C, k + i - 1, D);
        if (last && last[g]) {
            w_add(C, last[g], &z);
            w_swap_add(C, last[g], &z);
        }
        if (below)
            apply_dg(C, k, g, below, &z);
        cur[g] = sq_calloc(1, sizeof *cur[g]);
        welt_init(cur[g], C, k + i, D);
        w_contract(C, &z, cur[g]);
        welt_clear(&z, C);
    }
}

static int sphere2(const resol_t *R)
{
    int32_t h[MILNOR_MAX_LEN];
    return R->p == 2 && fdmod_bottom(R->M) == 0 && fdmod_top(R->M) == 0 &&
           fdmod_dim(R->M, 0) == 1 && fdmod_profile(R->M, h) == 0;
}

static int computed(const resol_t *R, int32_t a, int64_t e)
{
    return a >= 0 && a <= R->max_s && e <= fmod_gens_through(R->F[a]);
}

/* Frees a level of values (n generators). */
static void level_free(const sctx_t *C, welt_t **v, int64_t n)
{
    if (!v)
        return;
    for (int64_t g = 0; g < n; g++)
        if (v[g]) {
            welt_clear(v[g], C);
            sq_free(v[g]);
        }
    sq_free(v);
}

/* Reads the forms of Delta_i off its values on F_{2s-i} in degree 2t. */
static void read_forms(resol_steenrod_t *Q, const sctx_t *C, int32_t i, welt_t *const *vals,
                       int64_t u0)
{
    const fmod_t *F = C->R->F[2 * C->s - i], *Fs = C->R->F[C->s];
    int32_t T = 2 * C->t;
    int64_t ng = fmod_num_gens(F, T), nx = Q->nx;
    Q->ngen[i] = ng;
    if (!Q->forms[i])
        Q->forms[i] = sq_calloc((size_t)(ng * nx * nx) + 1, 1);
    for (int64_t j = 0; j < ng; j++) {
        const welt_t *w = vals[fmod_gen_global(F, T, j)];
        const fmat_t *m = w ? blk_get(C, w, C->s, C->t) : NULL;
        if (!m)
            continue;
        if (C->Y) { /* E_s = F_2[t]: the value for the class u0 alone */
            Q->forms[i][(j * nx + u0) * nx + u0] = (uint8_t)fmat_get(m, 0, 0);
            continue;
        }
        for (int64_t u = 0; u < nx; u++)
            for (int64_t v = 0; v < nx; v++)
                Q->forms[i][(j * nx + u) * nx + v] = (uint8_t)fmat_get(
                    m, fmod_block_offset(Fs, C->t, C->t, u), fmod_block_offset(Fs, C->t, C->t, v));
    }
}

/* Bytes of the blocks of one value in (K, D) (the kept ones), from dims
 * (dim F_a(e), a <= s + 1, e <= t). */
static double value_bytes(const int64_t *dims, int32_t s, int32_t t, int32_t K, int32_t D)
{
    double bytes = 0;
    for (int32_t a = 0; a <= s; a++)
        for (int32_t e1 = 0; e1 <= t; e1++) {
            int32_t b = K - a, e2 = D - e1;
            if (b < 0 || b > s || e2 < 0 || e2 > t || (a == s && e1 != t) || (b == s && e2 != t))
                continue;
            int64_t r = dims[(int64_t)a * (t + 1) + e1], c = dims[(int64_t)b * (t + 1) + e2];
            if (r && c)
                bytes += (double)r * (double)((c + 63) / 64 * 8) + 64;
        }
    return bytes;
}

double resol_steenrod_estimate(const resol_t *R, int32_t s, int32_t t)
{
    if (s < 0 || t < s || 2 * s > R->max_s)
        return 0;
    int64_t *dims = sq_calloc(sq_mul_size((size_t)s + 2, (size_t)t + 1), sizeof *dims);
    for (int32_t a = 0; a <= s + 1 && a <= R->max_s; a++)
        for (int32_t e = 0; e <= t && e <= fmod_gens_through(R->F[a]); e++)
            dims[(int64_t)a * (t + 1) + e] = fmod_dim(R->F[a], e);
    double worst = 0, prev = 0, caches = 0;
    for (int32_t i = 0; i <= s; i++) { /* two consecutive i are held at once */
        double cur = 0;
        for (int32_t k = 0; k <= 2 * s - i; k++) {
            const fmod_t *F = R->F[k];
            int32_t bound = 2 * t - (s > k ? s - k : 0);
            for (int64_t g = 0; g < fmod_total_gens(F); g++) {
                int32_t D = fmod_gen_degree(F, g);
                if (D > bound)
                    break;
                cur += value_bytes(dims, s, t, k + i, D) +
                       (double)(s + 1) * (t + 1) * sizeof(fmat_t) + sizeof(welt_t) + 64;
            }
        }
        worst = cur + prev > worst ? cur + prev : worst;
        prev = cur;
    }
    for (int32_t a = 0; a <= s; a++) /* the matrices of h and of the action */
        for (int32_t e = 0; e <= t; e++) {
            double r = (double)dims[(int64_t)a * (t + 1) + e];
            caches += r * (double)dims[(int64_t)(a + 1) * (t + 1) + e] / 8;
            for (int32_t d = 1; e + d <= t; d++)
                caches += (double)stalg_dim(R->S, d) * r *
                          (double)dims[(int64_t)a * (t + 1) + e + d] / 8;
        }
    sq_free(dims);
    return 2 * (worst + caches); /* allocator overhead, the temporaries z */
}

/* Sets up C for the operations on Ext^{s,t} of R (nothing built yet). */
static void ctx_init(sctx_t *C, const resol_t *R, int32_t s, int32_t t, const resol_yoneda_t *Y)
{
    memset(C, 0, sizeof *C);
    C->R = R;
    C->s = s;
    C->t = t;
    C->Y = Y;
    size_t cells = sq_mul_size((size_t)s + 2, (size_t)t + 1);
    C->dims = sq_calloc(cells, sizeof *C->dims);
    for (int32_t a = 0; a <= s + 1 && a <= R->max_s; a++)
        for (int32_t e = 0; e <= t; e++)
            C->dims[(int64_t)a * (t + 1) + e] = Y ? fmdim(C, a, e) : fmod_dim(R->F[a], e);
    resol_qis_init(&C->Q, R, s + 1, 0, t);
    C->aoff = sq_calloc((size_t)t + 2, sizeof *C->aoff);
    for (int32_t d = 0; d <= t; d++)
        C->aoff[d + 1] = C->aoff[d] + stalg_dim(R->S, d);
    C->nalg = C->aoff[t + 1];
    C->lm = sq_calloc(cells, sizeof *C->lm);
    C->hm = sq_calloc(cells, sizeof *C->hm);
    C->hset = sq_calloc(cells, 1);
    C->yq = sq_calloc(cells, sizeof *C->yq);
    if (Y) { /* e0 = a preimage of 1 under E_0 -> F_2 */
        fvec_t one;
        fvec_init(&one, 1, 2);
        fvec_set(one, 0, 1);
        C->e0 = yqi_lift(C, 0, 0, one);
        fvec_clear(&one);
    } else {
        fvec_init(&C->e0, 1, 2);
        fvec_set(C->e0, 0, 1);
    }
}

/* Frees what C built. */
static void ctx_clear(sctx_t *C)
{
    int64_t cells = (int64_t)(C->s + 2) * (C->t + 1);
    resol_qis_clear(&C->Q);
    for (int64_t i = 0; i < cells; i++) {
        if (C->hset[i])
            fmat_clear(&C->hm[i]);
        for (int64_t j = 0; C->lm[i] && j < C->nalg; j++)
            if (fmat_rows(&C->lm[i][j]))
                fmat_clear(&C->lm[i][j]);
        sq_free(C->lm[i]);
        if (C->yq[i].built) {
            fmat_clear(&C->yq[i].m);
            sq_free(C->yq[i].piv);
        }
    }
    fvec_clear(&C->e0);
    sq_free(C->yq);
    sq_free(C->hm);
    sq_free(C->hset);
    sq_free(C->lm);
    sq_free(C->aoff);
    sq_free(C->dims);
}

/* Delta_i for i = 0 .. s, level by level (two i at a time), reading the
 * forms of each off its last level into Q. */
static void build_forms(resol_steenrod_t *Q, sctx_t *C, int64_t u0)
{
    const resol_t *R = C->R;
    int32_t s = C->s, t = C->t, kmax = 2 * s;
    welt_t ***last = sq_calloc((size_t)kmax + 1, sizeof *last); /* Delta_{i-1} by level */
    for (int32_t i = 0; i <= s && !C->Q.bad; i++) {
        welt_t ***cur = sq_calloc((size_t)kmax + 1, sizeof *cur);
        for (int32_t k = 0; k <= 2 * s - i && !C->Q.bad; k++) {
            cur[k] = sq_calloc((size_t)fmod_total_gens(R->F[k]) + 1, sizeof *cur[k]);
            if (i == 0 && k == 0) { /* Delta_0(g_0) = e0 (x) e0 */
                cur[0][0] = sq_calloc(1, sizeof *cur[0][0]);
                welt_init(cur[0][0], C, 0, 0);
                fmat_t *b0 = blk(C, cur[0][0], 0, 0);
                FOR_BITS(C->e0, p)
                fvec_addmul(fmat_row(b0, p), C->e0, 1);
                continue;
            }
            int32_t bound = 2 * t - (s > k ? s - k : 0);
            delta_level(C, i, k, bound, i ? last[k] : NULL, k ? cur[k - 1] : NULL, cur[k]);
        }
        if (!C->Q.bad)
            read_forms(Q, C, i, cur[2 * s - i], u0);
        for (int32_t k = 0; k <= kmax; k++)
            level_free(C, last[k], fmod_total_gens(R->F[k]));
        sq_free(last);
        last = cur;
    }
    for (int32_t k = 0; k <= kmax; k++)
        level_free(C, last[k], fmod_total_gens(R->F[k]));
    sq_free(last);
}

/* The forms of every basis class of Ext^{s,t} through its own Yoneda
 * representative (s >= 1).  Returns 0, or SQ_E_NOMEM when a representative
 * is refused (too large), SQ_E_RANGE when a lift fails. */
static int forms_by_yoneda(resol_steenrod_t *Q, const resol_t *R, int32_t s, int32_t t)
{
    for (int64_t u = 0; u < Q->nx; u++) {
        fvec_t x;
        fvec_init(&x, Q->nx, 2);
        fvec_set(x, u, 1);
        resol_yoneda_t *Y = NULL;
        char err[256];
        int rc = resol_yoneda_new(&Y, R, s, t - s, x, err, sizeof err);
        fvec_clear(&x);
        if (rc != 0)
            return rc == SQ_E_NOMEM ? SQ_E_NOMEM : SQ_E_RANGE;
        sctx_t C;
        ctx_init(&C, R, s, t, Y);
        if (!C.Q.bad)
            build_forms(Q, &C, u);
        int bad = C.Q.bad;
        ctx_clear(&C);
        resol_yoneda_free(Y);
        if (bad)
            return SQ_E_RANGE;
    }
    return 0;
}

int resol_steenrod_new_by(resol_steenrod_t **out, const resol_t *R, int32_t s, int32_t t,
                          resol_steenrod_method_t method, double max_bytes)
{
    *out = NULL;
    if (s < 0 || !sphere2(R))
        return SQ_E_INVAL;
    if (t < s || (s > 0 && !computed(R, s + 1, t))) /* h on F_s(t) reads d_{s+1} */
        return SQ_E_RANGE;
    for (int32_t a = 0; a <= 2 * s; a++)
        if (!computed(R, a, 2 * (int64_t)t))
            return SQ_E_RANGE;
    resol_steenrod_t *Q = sq_calloc(1, sizeof *Q);
    Q->R = R;
    Q->s = s;
    Q->t = t;
    Q->nx = fmod_num_gens(R->F[s], t);
    Q->ngen = sq_calloc((size_t)s + 1, sizeof *Q->ngen);
    Q->forms = sq_calloc((size_t)s + 1, sizeof *Q->forms);
    int rc = SQ_E_NOMEM;
    if (method != RESOL_STEENROD_FREE && s >= 1 && Q->nx > 0)
        rc = forms_by_yoneda(Q, R, s, t);
    if (rc == SQ_E_NOMEM && method == RESOL_STEENROD_YONEDA) {
        resol_steenrod_free(Q);
        return SQ_E_NOMEM;
    }
    if (rc == SQ_E_NOMEM && max_bytes > 0 && resol_steenrod_estimate(R, s, t) > max_bytes) {
        resol_steenrod_free(Q);
        return SQ_E_NOMEM;
    }
    if (rc == SQ_E_NOMEM) { /* the free resolution itself */
        for (int32_t i = 0; i <= s; i++) {
            sq_free(Q->forms[i]);
            Q->forms[i] = NULL;
        }
        sctx_t C;
        ctx_init(&C, R, s, t, NULL);
        build_forms(Q, &C, -1);
        rc = C.Q.bad ? SQ_E_RANGE : 0;
        ctx_clear(&C);
    }
    if (rc != 0) {
        resol_steenrod_free(Q);
        return rc;
    }
    *out = Q;
    return 0;
}

int resol_steenrod_new(resol_steenrod_t **out, const resol_t *R, int32_t s, int32_t t)
{
    return resol_steenrod_new_by(out, R, s, t, RESOL_STEENROD_AUTO, 0);
}

void resol_steenrod_free(resol_steenrod_t *Q)
{
    if (!Q)
        return;
    for (int32_t i = 0; i <= Q->s; i++)
        sq_free(Q->forms[i]);
    sq_free(Q->forms);
    sq_free(Q->ngen);
    sq_free(Q);
}

int resol_steenrod_apply(const resol_steenrod_t *Q, int32_t j, fvec_t x, fvec_t out)
{
    if (j < 0 || j > Q->s)
        return SQ_E_RANGE;
    int32_t i = Q->s - j;
    int64_t nx = Q->nx, ng = Q->ngen[i];
    if (x.p != 2 || x.len < nx)
        return SQ_E_INVAL;
    if (out.p != 2 || out.len < ng)
        return SQ_E_RANGE;
    for (int64_t g = 0; g < ng; g++) {
        uint32_t acc = 0;
        for (int64_t u = 0; u < nx; u++)
            for (int64_t v = 0; v < nx; v++)
                acc ^= Q->forms[i][(g * nx + u) * nx + v] & fvec_get(x, u) & fvec_get(x, v);
        fvec_set(out, g, acc);
    }
    return 0;
}
