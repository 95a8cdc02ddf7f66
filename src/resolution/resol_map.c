/*
 * resol_map.c -- chain maps between minimal resolutions (the lifting
 * machinery of resol_map_internal.h, shared with the products) and the map
 * on Ext induced by a module map (resol_map.h).
 */
#include "resol_map.h"

#include <stdint.h>
#include <string.h>

#include "resol_extmn.h"
#include "resol_map_internal.h"
#include "sq_core.h"

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

/* ---- Quasi-inverses ---------------------------------------------------------- */

/* Quasi-inverse of d_k of a resolution in one degree, built once and
 * applied to many vectors: the reduced [D | I] with its pivots. */
struct resol_qi {
    int built;
    fmat_t m;
    int64_t *piv;
    int64_t rows, cols;
};
typedef struct resol_qi qi_t;

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


void resol_qis_init(resol_qis_t *Q, const resol_t *T, int32_t kmax, int32_t emin, int32_t emax)
{
    Q->T = T;
    Q->kmax = kmax;
    Q->emin = emin;
    Q->emax = emax < emin ? emin : emax;
    Q->bad = 0;
    Q->q = sq_calloc(sq_mul_size((size_t)kmax + 1, (size_t)(Q->emax - emin) + 1), sizeof *Q->q);
}

void resol_qis_clear(resol_qis_t *Q)
{
    for (int64_t i = 0; i < (int64_t)(Q->kmax + 1) * (Q->emax - Q->emin + 1); i++)
        qi_clear(&Q->q[i]);
    sq_free(Q->q);
}

fvec_t resol_qis_lift(resol_qis_t *Q, int32_t k, int32_t e, fvec_t v)
{
    fvec_t out = {0};
    if (fvec_is_zero(v))
        return out;
    SQ_CHECK(k >= 0 && k <= Q->kmax && e >= Q->emin && e <= Q->emax, "qis_lift: (%d, %d)",
             (int)k, (int)e);
    qi_t *q = &Q->q[(int64_t)k * (Q->emax - Q->emin + 1) + (e - Q->emin)];
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

/* ---- Families of maps on generators --------------------------------------- */

void resol_cmap_init(resol_cmap_t *C, const resol_t *P, const resol_t *T, int32_t s0, int32_t t0,
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

void resol_cmap_clear(resol_cmap_t *C)
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
    /* Unstable: a is over F(deg g)'s block, products in F(dh) (ubasis.h). */
    int64_t na = T->U ? a.len : stalg_dim(T->S, da), ngen = fmod_total_gens(F);
    uint64_t *scr = T->U && T->p == 2 ? sq_calloc((size_t)ubasis_scratch_limbs(T->U), 8) : NULL;
    for (int64_t h = 0; h < ngen; h++) {
        int32_t dh = fmod_gen_degree(F, h);
        if (dh > ew)
            break;
        int64_t ih = h - fmod_gen_global(F, dh, 0);
        int64_t woff = fmod_block_offset(F, ew, dh, ih), wlen = fmod_block_dim(F, ew, dh);
        fvec_t tmp, b;
        if (segment(w, woff, wlen, &tmp, &b)) {
            int64_t ooff = fmod_block_offset(F, eo, dh, ih);
            for (int64_t r = 0; r < na; r++) {
                uint32_t c = fvec_get(a, r);
                if (c && scr)
                    ubasis_mul_vec_add(T->U, out.limbs, ooff, da, r, ew - dh, b.limbs, dh, scr);
                else if (c && T->U)
                    ubasis_mul_vec_addf(T->U, out, ooff, c * coef % T->p, da, r, ew - dh, b, dh);
                else if (c)
                    stalg_mul_vec_add(T->S, out, ooff, c * coef, da, r, ew - dh, b);
            }
        }
        fvec_clear(&tmp);
    }
    sq_free(scr);
}

void resol_cmap_apply(const resol_cmap_t *C, int32_t k, int32_t e, fvec_t v, uint32_t coef,
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
        int64_t off = fmod_block_offset(F, e, dg, ig), len = fmod_block_dim(F, e, dg);
        if (off >= v.len)
            continue;
        fvec_t tmp, a;
        if (segment(v, off, off + len <= v.len ? len : v.len - off, &tmp, &a))
            act_add(C->T, k + C->tk0, e - C->t0, a, e - dg, w, coef, out);
        fvec_clear(&tmp);
    }
}

fvec_t resol_dgen(const resol_t *P, int32_t s, int64_t g)
{
    int64_t len;
    const void *v = fhom_image_enc(P->d[s], g, &len);
    return cview(v, v ? len : 0, P->p);
}

void resol_cmap_lift_level(resol_cmap_t *C, resol_qis_t *Q, int32_t k, int32_t ek)
{
    const resol_t *P = C->P, *T = C->T;
    const fmod_t *F = P->F[C->s0 + k];
    int64_t ngen = fmod_total_gens(F);
    int32_t tbot = fdmod_bottom(T->M) + k; /* T_k is zero below this degree */
    for (int64_t g = 0; g < ngen; g++) {
        int32_t e = fmod_gen_degree(F, g);
        if (e > ek)
            break;
        if (e - C->t0 < tbot)
            continue;
        fvec_t v;
        fvec_init(&v, fmod_dim(T->F[k - 1], e - C->t0), T->p);
        resol_cmap_apply(C, k - 1, e, resol_dgen(P, C->s0 + k, g), 1, v);
        C->vals[k][g] = resol_qis_lift(Q, k, e - C->t0, v);
        fvec_clear(&v);
    }
}

uint32_t resol_cmap_eval(const resol_t *T, int32_t k, int32_t e, fvec_t y, fvec_t w)
{
    if (!w.len)
        return 0;
    int64_t ny = fmod_num_gens(T->F[k], e);
    uint32_t acc = 0;
    for (int64_t h = 0; h < ny; h++)
        acc = (acc + fvec_get(y, h) * fvec_get(w, fmod_block_offset(T->F[k], e, e, h))) % T->p;
    return acc;
}

/* ---- The map induced by a module map or a class of Ext(M, N) ------------------ */

struct resol_map {
    const resol_t *RM, *RN;
    int32_t max_s, max_n;
    resol_cmap_t C; /* Phi_k : F^M_{s0+k} -> F^N_k of internal degree -t0 */
};

/* Whether (s, t) of R is computed: s in range and degree t published. */
static int map_computed(const resol_t *R, int32_t s, int64_t t)
{
    return s >= 0 && s <= R->max_s && t <= fmod_gens_through(R->F[s]);
}

/* Whether RM and RN reach what the lift of a family on F^M_{s0..s0+max_s}
 * of internal degree -t0 through N's stem max_n reads. */
static int map_region_ok(const resol_t *RM, const resol_t *RN, int32_t s0, int32_t t0,
                         int32_t max_s, int32_t max_n)
{
    for (int32_t k = 0; k <= max_s; k++)
        if (!map_computed(RM, s0 + k, (int64_t)max_n + t0 + k) ||
            !map_computed(RN, k, (int64_t)max_n + k))
            return 0;
    return 1;
}

/* phi_0: a preimage under eps_N of f(eps_M(g)) for the generators g of
 * F^M_0 of degree <= e0. */
static void lift_level0(resol_cmap_t *C, resol_qis_t *Q, const fdmap_t *f, int32_t e0)
{
    const fmod_t *F = C->P->F[0];
    const fdmod_t *N = C->T->M;
    int32_t d = -C->t0;
    for (int64_t g = 0; g < fmod_total_gens(F); g++) {
        int32_t e = fmod_gen_degree(F, g);
        if (e > e0)
            break;
        int64_t n = fdmod_dim(N, e + d);
        if (n == 0)
            continue;
        fvec_t v;
        fvec_init(&v, n, C->T->p);
        fdmap_apply_add(f, e, resol_dgen(C->P, 0, g), 1, v);
        C->vals[0][g] = resol_qis_lift(Q, 0, e + d, v);
        fvec_clear(&v);
    }
}

/* Phi_0 of a class: for each generator g of F^M_{s0} of degree e (in the
 * cochain's order, resol_extmn.h), a preimage under eps_N of phi(g), the
 * block of phi in N_{e - t0}. */
static void lift_class0(resol_cmap_t *C, resol_qis_t *Q, fvec_t phi)
{
    const fmod_t *F = C->P->F[C->s0];
    const fdmod_t *N = C->T->M;
    int32_t t = C->t0;
    int64_t off = 0;
    for (int32_t e = t + fdmod_bottom(N); e <= t + fdmod_top(N); e++) {
        int64_t dn = fdmod_dim(N, e - t), ng = dn > 0 ? fmod_num_gens(F, e) : 0;
        for (int64_t i = 0; i < ng; i++, off += dn) {
            fvec_t v;
            fvec_init(&v, dn, C->T->p);
            for (int64_t j = 0; j < dn; j++)
                fvec_set(v, j, fvec_get(phi, off + j));
            C->vals[0][fmod_gen_global(F, e, i)] = resol_qis_lift(Q, 0, e - t, v);
            fvec_clear(&v);
        }
    }
}

/* A map with its family set up (values zero): RM's filtrations s0 ..
 * s0 + max_s into RN's 0 .. max_s, internal degree -t0. */
static resol_map_t *map_alloc(const resol_t *RM, const resol_t *RN, int32_t s0, int32_t t0,
                              int32_t max_s, int32_t max_n)
{
    resol_map_t *F = sq_calloc(1, sizeof *F);
    F->RM = RM;
    F->RN = RN;
    F->max_s = max_s;
    F->max_n = max_n;
    resol_cmap_init(&F->C, RM, RN, s0, t0, max_s);
    return F;
}

/* Lifts the levels 1 .. max_s of F's family (level 0 set through Q) and
 * frees Q.  Returns 0, or SQ_E_RANGE (F freed) when a lift failed. */
static int map_finish(resol_map_t *F, resol_qis_t *Q, resol_map_t **out)
{
    for (int32_t k = 1; k <= F->max_s && !Q->bad; k++)
        resol_cmap_lift_level(&F->C, Q, k, F->max_n + F->C.t0 + k);
    int bad = Q->bad;
    resol_qis_clear(Q);
    if (bad) {
        resol_map_free(F);
        return SQ_E_RANGE;
    }
    *out = F;
    return 0;
}

int resol_map_new(resol_map_t **out, const resol_t *RM, const resol_t *RN, const fdmap_t *f,
                  int32_t max_s, int32_t max_n)
{
    *out = NULL;
    const fdmod_t *src, *tgt;
    int32_t d;
    fdmap_ends(f, &src, &tgt, &d);
    if (RM->M != src || RN->M != tgt || RM->p != RN->p || max_s < 0)
        return SQ_E_INVAL;
    if (!map_region_ok(RM, RN, 0, -d, max_s, max_n))
        return SQ_E_RANGE;
    resol_map_t *F = map_alloc(RM, RN, 0, -d, max_s, max_n);
    resol_qis_t Q;
    resol_qis_init(&Q, RN, max_s, fdmod_bottom(RN->M), max_n + max_s);
    lift_level0(&F->C, &Q, f, max_n - d);
    return map_finish(F, &Q, out);
}

int resol_map_new_class(resol_map_t **out, const resol_t *RM, const resol_t *RN, int32_t s,
                        int32_t n, fvec_t phi, int32_t max_s, int32_t max_n)
{
    *out = NULL;
    int32_t t = n + s;
    char err[256];
    if (max_s < 0 || s < 0 || resol_extmn_check(RM->M, RN->M, err, sizeof err) != 0)
        return SQ_E_INVAL;
    if (!map_region_ok(RM, RN, s, t, max_s, max_n) ||
        !map_computed(RM, s + 1, (int64_t)t + fdmod_top(RN->M)))
        return SQ_E_RANGE;
    if (phi.len != resol_extmn_cochain_dim(RM, RN->M, s, t))
        return SQ_E_INVAL;
    if (resol_extmn_class_kind(RM, RN->M, s, t, phi) == RESOL_EXTMN_NOT_COCYCLE)
        return SQ_E_INVAL;
    resol_map_t *F = map_alloc(RM, RN, s, t, max_s, max_n);
    resol_qis_t Q;
    resol_qis_init(&Q, RN, max_s, fdmod_bottom(RN->M), max_n + max_s);
    lift_class0(&F->C, &Q, phi);
    return map_finish(F, &Q, out);
}

void resol_map_free(resol_map_t *F)
{
    if (!F)
        return;
    resol_cmap_clear(&F->C);
    sq_free(F);
}

int resol_map_matrix(const resol_map_t *F, int32_t s, int32_t n, fmat_t *m)
{
    memset(m, 0, sizeof *m);
    if (s < 0 || s > F->max_s || n > F->max_n)
        return SQ_E_RANGE;
    const fmod_t *FN = F->RN->F[s], *FM = F->RM->F[F->C.s0 + s];
    int32_t t = n + s, tm = t + F->C.t0;
    int64_t rows = fmod_num_gens(FN, t), cols = fmod_num_gens(FM, tm);
    fmat_init(m, rows, cols, F->RN->p);
    for (int64_t j = 0; j < cols; j++) {
        fvec_t w = F->C.vals[s][fmod_gen_global(FM, tm, j)];
        if (!w.len)
            continue;
        for (int64_t i = 0; i < rows; i++) {
            uint32_t c = fvec_get(w, fmod_block_offset(FN, t, t, i));
            if (c)
                fmat_set(m, i, j, c);
        }
    }
    return 0;
}
