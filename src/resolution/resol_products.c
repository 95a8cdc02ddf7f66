/*
 * resol_products.c -- products by h_i and by classes of the sphere (see
 * resol_products.h for the mathematics).
 */
#include "resol_products.h"

#include <string.h>

#include "internal.h"
#include "sq_core.h"

/* ---- Products by h_i ------------------------------------------------------- */

/* Index of Sq(2^i) in degree 2^i of A, or -1. */
static int64_t sq_index(const milnor_t *A, int i)
{
    int32_t k = (int32_t)1 << i;
    if (k > milnor_max_degree(A))
        return -1;
    return milnor_index(A, &k, 1);
}

int resol_has_h(const resol_t *R, int i)
{
    return i >= 0 && i < 31 && sq_index(R->A, i) >= 0;
}

/* Whether (s, t) is computed: s in range and degree t published in F_s. */
static int computed(const resol_t *R, int32_t s, int32_t t)
{
    return s >= 0 && s <= R->max_s && t <= fmod_gens_through(R->F[s]);
}

int resol_h_matrix(const resol_t *R, int i, int32_t s, int32_t t, f2mat_t *m)
{
    memset(m, 0, sizeof *m);
    int32_t k = (int32_t)1 << (i < 31 ? i : 0);
    if (!resol_has_h(R, i) || s < 0 || !computed(R, s + 1, t + k) || !computed(R, s, t))
        return SQ_E_RANGE;
    int64_t op = sq_index(R->A, i);
    const fmod_t *F = R->F[s + 1], *T = R->F[s];
    int64_t rows = fmod_num_gens(F, t + k), cols = fmod_num_gens(T, t);
    f2mat_init(m, rows, cols);
    for (int64_t g = 0; g < rows; g++) {
        int64_t nbits;
        const uint64_t *v = fhom_image(R->d[s + 1], fmod_gen_global(F, t + k, g), &nbits);
        for (int64_t j = 0; j < cols; j++) {
            int64_t b = fmod_block_offset(T, t + k, t, j) + op;
            if (b < nbits && bit(v, b))
                f2mat_set(m, g, j, 1);
        }
    }
    return 0;
}

int resol_h_product(const resol_t *R, int i, int32_t s, int32_t t, const uint64_t *x,
                    uint64_t *out)
{
    f2mat_t m;
    int rc = resol_h_matrix(R, i, s, t, &m);
    if (rc)
        return rc;
    memset(out, 0, (size_t)f2_limbs(m.rows) * sizeof *out);
    for (int64_t g = 0; g < m.rows; g++) {
        int p = 0;
        for (int64_t j = 0; j < m.cols; j++)
            p ^= f2mat_get(&m, g, j) & bit(x, j);
        if (p)
            out[g >> 6] |= 1ULL << (g & 63);
    }
    f2mat_clear(&m);
    return 0;
}

/* ---- Products by classes of the sphere: the chain map ---------------------- */

/* Quasi-inverse of d^S_k in one degree, built once and applied to many
 * vectors: the reduced [D | I] with its pivots. */
typedef struct {
    int built;
    f2mat_t m;
    int64_t *piv;
    int64_t rows, cols;
} qi_t;

static void qi_build(qi_t *q, const resol_t *RS, int32_t k, int32_t e)
{
    const fhom_t *d = RS->d[k];
    q->rows = fmod_dim(RS->F[k], e);
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

/* The chain map lifting x: vals[k][j] = f_k(g) for generator j (global
 * index) of F^M_{s+k}, a vector over F^S_k in degree deg(g) - t, or NULL
 * when zero or not needed. */
typedef struct {
    const resol_t *R, *RS;
    int32_t s, t, s2, t2;
    uint64_t ***vals;
    qi_t **qi; /* [k][e - t] */
} chain_t;

/* out (over F^S_{k-1} in degree e - t, all generators) += a * w, where a
 * is a bit vector over A_{da} and w = f_{k-1}(g'') lies over F^S_{k-1} in
 * degree e - t - da. */
static void apply_block(const chain_t *C, int32_t k, int32_t e, const uint64_t *a, int32_t da,
                        const uint64_t *w, uint64_t *out)
{
    const fmod_t *FS = C->RS->F[k - 1];
    const milnor_t *A = C->RS->A;
    int32_t ew = e - C->t - da; /* degree of w */
    int64_t na = milnor_dim(A, da);
    int64_t ngen = fmod_total_gens(FS);
    for (int64_t h = 0; h < ngen; h++) {
        int32_t dh = fmod_gen_degree(FS, h);
        if (dh > ew)
            break;
        int64_t ih = h - fmod_gen_global(FS, dh, 0);
        int64_t woff = fmod_block_offset(FS, ew, dh, ih), wlen = milnor_dim(A, ew - dh);
        uint64_t *b = sq_calloc((size_t)f2_limbs(wlen) + 1, sizeof *b);
        int any = 0;
        for (int64_t q = 0; q < wlen; q++)
            if (bit(w, woff + q)) {
                b[q >> 6] |= 1ULL << (q & 63);
                any = 1;
            }
        if (any) {
            int64_t ooff = fmod_block_offset(FS, e - C->t, dh, ih);
            for (int64_t r = 0; r < na; r++)
                if (bit(a, r))
                    milnor_mul_vec_add(A, out, ooff, da, r, ew - dh, b);
        }
        sq_free(b);
    }
}

/* f_k(g) for the generator g (global index j, degree e) of F^M_{s+k}. */
static uint64_t *chain_value(chain_t *C, int32_t k, int64_t j, int32_t e)
{
    const resol_t *R = C->R, *RS = C->RS;
    int32_t es = e - C->t; /* degree in F^S; k >= 1 (f_0 comes from x) */
    const fmod_t *FM = R->F[C->s + k - 1];
    int64_t nbits;
    const uint64_t *dg = fhom_image(R->d[C->s + k], j, &nbits);
    int64_t vdim = fmod_dim(RS->F[k - 1], es);
    uint64_t *v = sq_calloc((size_t)f2_limbs(vdim) + 1, sizeof *v);
    int any = 0;
    int64_t ngen = fmod_total_gens(FM);
    for (int64_t g2 = 0; g2 < ngen; g2++) {
        int32_t d2 = fmod_gen_degree(FM, g2);
        if (d2 >= e)
            break;
        const uint64_t *w = C->vals[k - 1][g2];
        if (!w)
            continue;
        int64_t i2 = g2 - fmod_gen_global(FM, d2, 0);
        int64_t off = fmod_block_offset(FM, e, d2, i2), len = milnor_dim(R->A, e - d2);
        uint64_t *a = sq_calloc((size_t)f2_limbs(len) + 1, sizeof *a);
        int nz = 0;
        for (int64_t q = 0; q < len && off + q < nbits; q++)
            if (bit(dg, off + q)) {
                a[q >> 6] |= 1ULL << (q & 63);
                nz = 1;
            }
        if (nz) {
            apply_block(C, k, e, a, e - d2, w, v);
            any = 1;
        }
        sq_free(a);
    }
    if (!any || f2_first_bit(v, vdim) < 0) {
        sq_free(v);
        return NULL;
    }
    /* Lift through d^S_k in degree es. */
    qi_t *q = &C->qi[k][es];
    if (!q->built)
        qi_build(q, RS, k, es);
    uint64_t *out = sq_calloc((size_t)f2_limbs(q->rows) + 1, sizeof *out);
    f2mat_aug_qi_apply(out, &q->m, q->piv, q->cols, v);
    sq_free(v);
    return out;
}

int resol_product(const resol_t *R, const resol_t *RS, int32_t s, int32_t t, const uint64_t *x,
                  int32_t s2, int32_t t2, const uint64_t *y, uint64_t *out)
{
    if (s < 0 || s2 < 0 || fdmod_top(RS->M) != 0 || fdmod_bottom(RS->M) != 0 ||
        fdmod_dim(RS->M, 0) != 1)
        return SQ_E_INVAL;
    int32_t tt = t + t2, st = s + s2;
    if (!computed(R, st, tt) || !computed(R, s, t) || s2 > RS->max_s || !computed(RS, s2, t2))
        return SQ_E_RANGE;
    for (int32_t k = 0; k <= s2; k++)
        if (!computed(RS, k, t2 - (s2 - k)) || !computed(R, s + k, tt - (s2 - k)))
            return SQ_E_RANGE;
    chain_t C = {R, RS, s, t, s2, t2, NULL, NULL};
    C.vals = sq_calloc((size_t)s2 + 1, sizeof *C.vals);
    C.qi = sq_calloc((size_t)s2 + 1, sizeof *C.qi);
    for (int32_t k = 0; k <= s2; k++) {
        const fmod_t *FM = R->F[s + k];
        int64_t ngen = fmod_total_gens(FM);
        C.vals[k] = sq_calloc((size_t)ngen + 1, sizeof *C.vals[k]);
        C.qi[k] = sq_calloc((size_t)t2 + 2, sizeof *C.qi[k]);
        int32_t emax = tt - (s2 - k);
        for (int64_t j = 0; j < ngen; j++) {
            int32_t e = fmod_gen_degree(FM, j);
            if (e > emax)
                break;
            if (e - t < k)
                continue; /* F^S_k is zero below degree k */
            if (k == 0) {
                if (e == t && bit(x, j - fmod_gen_global(FM, t, 0))) {
                    C.vals[0][j] = sq_calloc(1, sizeof(uint64_t));
                    C.vals[0][j][0] = 1; /* the generator of F^S_0, degree 0 */
                }
                continue;
            }
            C.vals[k][j] = chain_value(&C, k, j, e);
        }
    }
    /* (y . x)(g) = y(f_{s2}(g)): the coefficients on the generators of
     * F^S_{s2} in degree t2. */
    const fmod_t *FM = R->F[st], *FS = RS->F[s2];
    int64_t nout = fmod_num_gens(FM, tt), ny = fmod_num_gens(FS, t2);
    memset(out, 0, (size_t)f2_limbs(nout) * sizeof *out);
    for (int64_t g = 0; g < nout; g++) {
        const uint64_t *f = C.vals[s2][fmod_gen_global(FM, tt, g)];
        if (!f)
            continue;
        int p = 0;
        for (int64_t h = 0; h < ny; h++)
            p ^= bit(y, h) & bit(f, fmod_block_offset(FS, t2, t2, h));
        if (p)
            out[g >> 6] |= 1ULL << (g & 63);
    }
    for (int32_t k = 0; k <= s2; k++) {
        int64_t ngen = fmod_total_gens(R->F[s + k]);
        for (int64_t j = 0; j < ngen; j++)
            sq_free(C.vals[k][j]);
        sq_free(C.vals[k]);
        for (int32_t e = 0; e <= t2 + 1; e++)
            qi_clear(&C.qi[k][e]);
        sq_free(C.qi[k]);
    }
    sq_free(C.vals);
    sq_free(C.qi);
    return 0;
}
