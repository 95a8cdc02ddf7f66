/*
 * resol_cofiber.c -- Ext of the cofiber of a class, at every prime (see
 * resol_cofiber.h for the mathematics).
 *
 * A run for the class x_(t - s, s, idx) of M sent to M's class m0 in degree
 * target, region through stem N and filtration S:
 *   1. F: the classical resolution of M through row s + 1 and stem
 *      max(N + 1, t - s) (or further, to see every degree where f d_{s+1}
 *      can be nonzero).  Rows <= s - 2 are Ext of the cofiber there; rows
 *      s - 1 and s give E, row s + 1 the cocycle check.
 *   2. E, the pushout of F_{s-1} <-d_s- F_s -f-> Sigma^D M, degree d by
 *      degree d for d <= N + s (E is resolved through stem N + s - 1, which
 *      needs degrees <= N + s): the rows (d_s y, f y) for y the basis of
 *      (F_s)_d over the columns (F_{s-1})_d then (Sigma^D M)_d, row reduced
 *      (fmat_rref: M4RI at p = 2); the basis of E_d is the non-pivot
 *      columns, in order, and the table red_d gives the class in E_d of
 *      every column (a unit vector, or minus the pivot row's non-pivot
 *      part).  theta times a basis element of degree d is one product in
 *      F_{s-1} + Sigma^D M (on one generator's block, or in M), sent to
 *      E_{d+k} by red_{d+k}: E is a module by construction.
 *   3. G: the classical resolution of E through stem N + s - 1 and row
 *      S - s + 1; Ext^{sigma, tau}(C) = Ext^{sigma - s + 1, tau}(E).
 */
#include "resol_cofiber.h"

#include <stdio.h>
#include <string.h>

#include "fmat.h"
#include "fhom.h"
#include "fmod.h"
#include "resol.h"
#include "sq_core.h"
#include "stalg.h"

struct resol_cofiber {
    int32_t s, max_s, max_n, bottom;
    resol_t *F;   /* resolution of M */
    fdmod_t *E;   /* the pushout E (resol_cofiber.h), or NULL */
    resol_t *G;   /* resolution of E, or NULL */
    int zero_top; /* rows >= s - 1 are zero in the region (E is zero there) */
};

void resol_cofiber_free(resol_cofiber_t *C)
{
    if (!C)
        return;
    resol_free(C->G);
    fdmod_free(C->E);
    resol_free(C->F);
    sq_free(C);
}

const fdmod_t *resol_cofiber_module(const resol_cofiber_t *C)
{
    return C->E;
}

int64_t resol_cofiber_ext_dim(const resol_cofiber_t *C, int32_t s, int32_t n)
{
    if (s < 0 || s > C->max_s || n > C->max_n || n < C->bottom)
        return -1;
    if (s <= C->s - 2)
        return resol_ext_dim(C->F, s, n);
    if (C->zero_top)
        return 0;
    if (!C->G)
        return -1;
    int32_t ne = n + C->s - 1;
    if (ne < resol_min_n(C->G))
        return 0;
    return resol_ext_dim(C->G, s - C->s + 1, ne);
}

/* The stored image d(g) as a read-only view in the field's encoding. */
static fvec_t image_view(const fhom_t *d, int64_t g)
{
    int64_t len;
    const void *v = fhom_image_enc(d, g, &len);
    uint32_t p = fhom_prime(d);
    return p == 2 ? fvec_view_limbs((uint64_t *)(uintptr_t)v, len)
                  : fvec_view_bytes((uint8_t *)(uintptr_t)v, len, p);
}

/* Whether f: F_s -> Sigma^D M (g_idx -> m0) is a cocycle: f(d_{s+1} h) = 0
 * for every generator h of F_{s+1} of degree in (t, t + top(M) - target]
 * (above, the image lies beyond M; at t it is a multiple of the unit on
 * g_idx, which minimality excludes).  f(d h) = a m0 for a the coefficient
 * of g_idx in d h.  On failure writes h's degree to *bad. */
static int is_cocycle(const resol_t *F, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t target, int32_t *bad)
{
    const fmod_t *S = resol_free_module(F, s), *U = resol_free_module(F, s + 1);
    const fhom_t *d = resol_differential(F, s + 1);
    const stalg_t *A = resol_stalg(F);
    uint32_t p = resol_prime(F);
    int32_t lim = t + fdmod_top(M) - target;
    fvec_t unit;
    fvec_init(&unit, 1, p);
    fvec_set(unit, 0, 1);
    int ok = 1;
    for (int64_t h = 0; h < fmod_total_gens(U) && ok; h++) {
        int32_t e = fmod_gen_degree(U, h);
        if (e > lim)
            break;
        int64_t dim = fdmod_dim(M, target + e - t);
        if (e <= t || dim == 0)
            continue;
        fvec_t v = image_view(d, h), out;
        int64_t off = fmod_block_offset(S, e, t, idx), nops = stalg_dim(A, e - t);
        fvec_init(&out, dim, p);
        for (int64_t i = 0; i < nops && off + i < v.len; i++) {
            uint32_t c = fvec_get(v, off + i);
            if (c)
                fdmod_act_addf(M, out, 0, c, e - t, i, target, unit);
        }
        if (!fvec_is_zero(out)) {
            *bad = e;
            ok = 0;
        }
        fvec_clear(&out);
    }
    fvec_clear(&unit);
    return ok;
}

/* Refuses (SQ_E_INVAL, one line) a module whose target degree does not
 * hold exactly one class. */
static int check_target(const fdmod_t *M, int32_t target, char *err, size_t errlen)
{
    int64_t dim = fdmod_dim(M, target);
    if (dim == 1)
        return 0;
    snprintf(err, errlen,
             "\"cofiber\": %s has %lld classes in degree %d; the cofiber sends the class to "
             "the module's single class in that degree (its degree 0 before any shift)",
             fdmod_name(M), (long long)dim, (int)target);
    return SQ_E_INVAL;
}

/* Resolves F through row s + 1 and checks the class (it lies in the
 * module's stems, exists, and gives a cocycle F_s -> Sigma^D M); a
 * one-line message in err when it fails. */
static int resolve_base(resol_cofiber_t *C, const fdmod_t *M, int32_t t, int64_t idx,
                        int32_t target, sq_pool_t *pool, char *err, size_t errlen)
{
    int32_t s = C->s;
    if ((int64_t)t - s < C->bottom) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: stem %d is below the "
                 "bottom degree %d of %s",
                 (int)(t - s), (int)s, (long long)idx, (int)(t - s), (int)C->bottom,
                 fdmod_name(M));
        return SQ_E_INVAL;
    }
    int64_t n = C->max_n + 1 > t - s ? (int64_t)C->max_n + 1 : t - s;
    int64_t ncoc = (int64_t)t + fdmod_top(M) - target - (s + 1);
    if (ncoc > n)
        n = ncoc;
    int rc = resol_check_range(M, s + 1, (int32_t)n, err, errlen);
    if (rc)
        return rc;
    C->F = resol_new(M, s + 1, (int32_t)n);
    resol_run_pool(C->F, RESOL_CLASSICAL, pool, NULL);
    int64_t dim = resol_ext_dim(C->F, s, t - s);
    if (idx < 0 || idx >= dim) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: Ext^{%d,%d} of %s has "
                 "dimension %lld",
                 (int)(t - s), (int)s, (long long)idx, (int)s, (int)t, fdmod_name(M),
                 (long long)(dim < 0 ? 0 : dim));
        return SQ_E_INVAL;
    }
    int32_t bad = 0;
    if (!is_cocycle(C->F, M, s, t, idx, target, &bad)) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not give a map of %s to itself: "
                 "sent to the class in degree %d, it is not a cocycle (a generator of F_%d in "
                 "degree %d maps to a nonzero element)",
                 (int)(t - s), (int)s, (long long)idx, fdmod_name(M), (int)target, (int)(s + 1),
                 (int)bad);
        return SQ_E_INVAL;
    }
    return 0;
}

/* ---- The pushout, degree by degree ---------------------------------------- */

/* The pushout's data: F_{s-1} <-d_s- F_s -f-> Sigma^D M, M's target class
 * m0 in degree target (unit: the vector 1 on it), D = t - target. */
typedef struct {
    const stalg_t *A;
    const fmod_t *F0, *F1; /* F_s, F_{s-1} */
    const fhom_t *ds;
    const fdmod_t *M;
    uint32_t p;
    int32_t t, target, D;
    int64_t idx;
    fvec_t unit;
    int32_t *gdeg; /* gdeg[g]: the degree of generator g of F_{s-1} */
} pushout_t;

/* One degree d of E: columns (F_{s-1})_d (nf of them) then (Sigma^D M)_d. */
typedef struct {
    int64_t nf, ncols, dimE;
    int64_t ngen;  /* generators of F_{s-1} of degree <= d */
    int64_t *goff; /* goff[g]: first column of g's block (g < ngen), goff[ngen] = nf */
    int64_t *eidx; /* column -> index in E_d, or -1 (a pivot column) */
    fmat_t red;    /* ncols x dimE: row c is the class of column c in E_d */
} edeg_t;

static double mib(double bytes)
{
    return bytes / 1048576.0;
}

/* Adds f's part of the rows: f(theta g_idx) = theta m0 on the M columns,
 * for theta the basis of A_{d - t} (rows of g_idx's block of (F_s)_d). */
static void add_f_rows(const pushout_t *P, fmat_t *rel, int32_t d, int64_t nf)
{
    if (d < P->t || fdmod_dim(P->M, d - P->D) == 0)
        return;
    int64_t r0 = fmod_block_offset(P->F0, d, P->t, P->idx);
    for (int64_t i = 0; i < stalg_dim(P->A, d - P->t); i++)
        fdmod_act_addf(P->M, fmat_row(rel, r0 + i), nf, 1, d - P->t, i, P->target, P->unit);
}

/* red's row for the pivot column whose reduced row is r: minus r's entries
 * on the non-pivot columns (r is 1 on its pivot and 0 on the others). */
static void red_pivot_row(fvec_t out, fvec_t r, const int64_t *eidx, int64_t ncols)
{
    if (r.p == 2) {
        for (int64_t l = 0; l < f2_limbs(ncols); l++)
            for (uint64_t w = r.limbs[l]; w; w &= w - 1) {
                int64_t c = l * 64 + __builtin_ctzll(w);
                if (eidx[c] >= 0)
                    out.limbs[eidx[c] >> 6] |= (uint64_t)1 << (eidx[c] & 63);
            }
        return;
    }
    for (int64_t c = 0; c < ncols; c++)
        if (r.bytes[c] && eidx[c] >= 0)
            out.bytes[eidx[c]] = (uint8_t)(r.p - r.bytes[c]);
}

/* Sets x->ngen and x->goff: where the block of each generator of F_{s-1}
 * of degree <= d starts among the columns of degree d. */
static void block_offsets(const pushout_t *P, edeg_t *x, int32_t d)
{
    x->goff = sq_malloc(sizeof(int64_t) * (size_t)(fmod_total_gens(P->F1) + 1));
    while (x->ngen < fmod_total_gens(P->F1) && P->gdeg[x->ngen] <= d) {
        int32_t ge = P->gdeg[x->ngen];
        x->goff[x->ngen] =
            fmod_block_offset(P->F1, d, ge, x->ngen - fmod_gen_global(P->F1, ge, 0));
        x->ngen++;
    }
    x->goff[x->ngen] = x->nf;
}

/* Builds degree d of E into x: the relations, their RREF, E_d's basis and
 * red.  Returns 0, or SQ_E_RANGE when a matrix would take more than limit
 * bytes (*bytes: how much). */
static int build_degree(const pushout_t *P, edeg_t *x, int32_t d, double limit, double *bytes,
                        sq_pool_t *pool)
{
    int64_t rows = fmod_dim(P->F0, d);
    x->nf = fmod_dim(P->F1, d);
    x->ncols = x->nf + fdmod_dim(P->M, d - P->D);
    *bytes = (double)rows * (double)fvec_bytes_for(P->p, x->ncols);
    if (*bytes > limit)
        return SQ_E_RANGE;
    fmat_t rel;
    fmat_init(&rel, rows, x->ncols, P->p);
    if (rows && x->ncols) {
        fhom_build_rows_fm(P->ds, &rel, 0, d, d + 1, NULL, 0, pool);
        add_f_rows(P, &rel, d, x->nf);
    }
    int64_t *piv = sq_malloc(sizeof(int64_t) * (size_t)(x->ncols + 1));
    for (int64_t c = 0; c < x->ncols; c++)
        piv[c] = -1;
    if (rows && x->ncols)
        fmat_rref_pool(&rel, piv, pool);
    block_offsets(P, x, d);
    x->eidx = sq_malloc(sizeof(int64_t) * (size_t)(x->ncols + 1));
    for (int64_t c = 0; c < x->ncols; c++)
        x->eidx[c] = piv[c] >= 0 ? -1 : x->dimE++;
    *bytes = (double)x->ncols * (double)fvec_bytes_for(P->p, x->dimE);
    int rc = *bytes > limit ? SQ_E_RANGE : 0;
    if (!rc && x->dimE) {
        fmat_init(&x->red, x->ncols, x->dimE, P->p);
        for (int64_t c = 0; c < x->ncols; c++) {
            if (piv[c] < 0)
                fmat_set(&x->red, c, x->eidx[c], 1);
            else
                red_pivot_row(fmat_row(&x->red, c), fmat_row(&rel, piv[c]), x->eidx, x->ncols);
        }
    }
    sq_free(piv);
    fmat_clear(&rel);
    return rc;
}

/* ev = sum_j w_j red[off + j] (w.len entries of w; ev has red's columns);
 * returns whether ev is nonzero.  At p = 2 the rows are XORed limb by limb
 * (E's degrees are a few limbs wide: no call per row). */
static int reduce_to_e(fvec_t ev, fvec_t w, const fmat_t *red, int64_t off)
{
    int64_t n = fmat_cols(red);
    if (w.p == 2) {
        int64_t nl = f2_limbs(n);
        uint64_t any = 0;
        memset(ev.limbs, 0, (size_t)nl * sizeof *ev.limbs);
        for (int64_t l = 0; l < f2_limbs(w.len); l++)
            for (uint64_t b = w.limbs[l]; b; b &= b - 1) {
                const uint64_t *r = f2mat_row(&red->f2, off + l * 64 + __builtin_ctzll(b));
                for (int64_t i = 0; i < nl; i++)
                    ev.limbs[i] ^= r[i];
            }
        for (int64_t i = 0; i < nl; i++)
            any |= ev.limbs[i];
        return any != 0;
    }
    ev.len = n;
    fvec_zero(ev);
    for (int64_t j = 0; j < w.len; j++)
        if (w.bytes[j])
            fvec_addmul(ev, fmat_row(red, off + j), w.bytes[j]);
    return !fvec_is_zero(ev);
}

/* The product by one basis element theta = (k, th) of the algebra, on
 * unit vectors: at p = 2 through a Milnor workspace prepared once for
 * theta (what depends on theta is enumerated once for every degree); at
 * odd p one product of basis elements each.  w, ev, u: scratch (a
 * product's vector, its class in E, a unit vector over A or M). */
typedef struct {
    const stalg_t *A;
    milnor_ws_t *ws; /* p = 2 */
    int32_t k;
    int64_t th;
    fvec_t w, ev, u;
} theta_t;

/* Prepares T for theta = basis element th of A_k, applied to basis
 * elements of degree <= max_sdeg; nbits: how many (a hint). */
static void theta_prepare(theta_t *T, int32_t k, int64_t th, int32_t max_sdeg, int64_t nbits)
{
    T->k = k;
    T->th = th;
    if (T->ws && max_sdeg >= 0) {
        milnor_op_t op;
        milnor_op_init(&op, stalg_milnor(T->A), k, th);
        milnor_ws_prepare(T->ws, &op, max_sdeg, nbits);
    }
}

/* w = theta * a, a the basis element ai of degree sdeg (w.len entries:
 * those of degree k + sdeg). */
static void theta_mul(const theta_t *T, fvec_t w, int32_t sdeg, int64_t ai)
{
    fvec_zero(w);
    if (!T->ws) {
        stalg_mul_add(T->A, w, 0, 1, T->k, T->th, sdeg, ai);
        return;
    }
    T->u.limbs[ai >> 6] |= (uint64_t)1 << (ai & 63);
    milnor_ws_mul_vec_add(T->ws, w.limbs, 0, sdeg, T->u.limbs);
    T->u.limbs[ai >> 6] = 0;
}

/* Sets theta e = the class of w in E_{d+k} (y), for e the basis element
 * ie of E_d and w a vector over the columns off .. off + w.len of degree
 * d + k. */
static void emit(fdmod_t *E, const theta_t *T, const edeg_t *y, fvec_t w, int64_t off, int32_t d,
                 int64_t ie)
{
    fvec_t ev = T->ev;
    ev.len = y->dimE;
    if (reduce_to_e(ev, w, &y->red, off))
        fdmod_set_actionf(E, T->A, T->k, T->th, d, ie, ev);
}

/* Sets theta on E_d (x) into E_{d+k} (y).  A column of F_{s-1}, the basis
 * element a (degree d - deg g, index ai) on the generator g, goes to
 * theta a on g, in g's block of degree d + k; a column of M, to theta
 * times it in M. */
static void set_pair(const pushout_t *P, fdmod_t *E, const edeg_t *x, const edeg_t *y, int32_t d,
                     const theta_t *T)
{
    int32_t k = T->k;
    for (int64_t g = 0; g < x->ngen; g++) {
        int64_t off = x->goff[g], len = x->goff[g + 1] - off;
        fvec_t w = T->w;
        w.len = y->goff[g + 1] - y->goff[g];
        for (int64_t ai = 0; ai < len && w.len; ai++) {
            if (x->eidx[off + ai] < 0)
                continue;
            theta_mul(T, w, d - P->gdeg[g], ai);
            emit(E, T, y, w, y->goff[g], d, x->eidx[off + ai]);
        }
    }
    int32_t e = d - P->D;
    fvec_t w = T->w, u = T->u;
    w.len = fdmod_dim(P->M, e + k);
    u.len = fdmod_dim(P->M, e);
    for (int64_t b = 0; b < u.len && w.len; b++) {
        if (x->eidx[x->nf + b] < 0)
            continue;
        fvec_set(u, b, 1);
        fvec_zero(w);
        fdmod_act_addf(P->M, w, 0, 1, k, T->th, e, u);
        fvec_set(u, b, 0);
        emit(E, T, y, w, y->nf, d, x->eidx[x->nf + b]);
    }
}

/* Sets the action of every basis element of positive degree on E (degrees
 * ebot..etop of D, indexed from dlo), theta by theta. */
static void set_actions(const pushout_t *P, fdmod_t *E, const edeg_t *D, int32_t dlo,
                        int32_t ebot, int32_t etop)
{
    int64_t wmax = 1, emax = 1, nbits = 0;
    for (int32_t d = ebot; d <= etop; d++) {
        wmax = D[d - dlo].ncols > wmax ? D[d - dlo].ncols : wmax;
        emax = D[d - dlo].dimE > emax ? D[d - dlo].dimE : emax;
        nbits += D[d - dlo].dimE;
    }
    int32_t gbot = fmod_min_degree(P->F1), amax = stalg_max_degree(P->A);
    theta_t T = {.A = P->A, .ws = P->p == 2 ? milnor_ws_new() : NULL};
    fvec_init(&T.w, wmax, P->p);
    fvec_init(&T.ev, emax, P->p);
    fvec_init(&T.u, wmax, P->p);
    for (int32_t k = 1; k <= etop - ebot && k <= amax; k++) {
        int32_t max_sdeg = etop - k - gbot < amax - k ? etop - k - gbot : amax - k;
        for (int64_t th = 0; th < stalg_dim(P->A, k); th++) {
            theta_prepare(&T, k, th, max_sdeg, nbits);
            for (int32_t d = ebot; d + k <= etop; d++)
                if (D[d - dlo].dimE && D[d + k - dlo].dimE)
                    set_pair(P, E, &D[d - dlo], &D[d + k - dlo], d, &T);
        }
    }
    milnor_ws_free(T.ws);
    fvec_clear(&T.w);
    fvec_clear(&T.ev);
    fvec_clear(&T.u);
}

/* Names the basis element of E_d that column c is. */
static void column_name(const pushout_t *P, int32_t s, const edeg_t *x, int32_t d, int64_t c,
                        char *bn, size_t n)
{
    if (c >= x->nf) {
        snprintf(bn, n, "[%s]", fdmod_basis_name(P->M, d - P->D, c - x->nf));
        return;
    }
    for (int64_t g = 0; g < fmod_total_gens(P->F1); g++) {
        int32_t ge = fmod_gen_degree(P->F1, g);
        int64_t gi = g - fmod_gen_global(P->F1, ge, 0);
        int64_t off = fmod_block_offset(P->F1, d, ge, gi), len = stalg_dim(P->A, d - ge);
        if (c >= off + len)
            continue;
        char op[128];
        stalg_format(op, sizeof op, P->A, d - ge, c - off);
        snprintf(bn, n, "%s%sx_(%d,%d,%lld)", d == ge ? "" : op, d == ge ? "" : " ",
                 (int)(ge - s + 1), (int)(s - 1), (long long)gi);
        return;
    }
    SQ_CHECK(0, "resol_cofiber: column %lld beyond degree %d", (long long)c, (int)d);
}

/* The new module E over the degrees ebot..etop of D (indexed from dlo):
 * its basis, named, and M's profile. */
static fdmod_t *new_module(const pushout_t *P, int32_t s, const edeg_t *D, int32_t dlo,
                           int32_t ebot, int32_t etop)
{
    char name[256], bn[256];
    snprintf(name, sizeof name, "%s/x_(%d,%d,%lld)", fdmod_name(P->M), (int)(P->t - s), (int)s,
             (long long)P->idx);
    fdmod_t *E = fdmod_new_p(name, P->p, ebot, etop);
    if (P->p == 2) {
        int32_t h[MILNOR_MAX_LEN];
        int hl = fdmod_profile(P->M, h);
        if (hl)
            fdmod_set_profile(E, h, hl);
    } else {
        fdmod_set_pprofile(E, fdmod_pprofile(P->M));
    }
    for (int32_t d = ebot; d <= etop; d++)
        for (int64_t c = 0; c < D[d - dlo].ncols; c++)
            if (D[d - dlo].eidx[c] >= 0) {
                column_name(P, s, &D[d - dlo], d, c, bn, sizeof bn);
                fdmod_add_basis(E, d, bn);
            }
    return E;
}

/* The bytes of E's action tables (as fdmod stores them: a vector per
 * basis element of the algebra and of E_e, for every pair e < f). */
static double table_bytes(const pushout_t *P, const edeg_t *D, int32_t dlo, int32_t ebot,
                          int32_t etop)
{
    double table = 0;
    for (int32_t f = ebot; f <= etop; f++)
        for (int32_t e = ebot; e < f; e++)
            table += (double)stalg_dim(P->A, f - e) * (double)D[e - dlo].dimE *
                     (double)fvec_bytes_for(P->p, D[f - dlo].dimE);
    return table;
}

/* Builds E through degree max_deg into C->E (NULL and zero_top when E is
 * zero there).  Returns 0, or SQ_E_RANGE with one line in err when E's
 * matrices or tables would take more than SQ_MODULE_TABLE_LIMIT. */
static int build_pushout(resol_cofiber_t *C, const fdmod_t *M, int32_t t, int64_t idx,
                         int32_t target, int32_t max_deg, sq_pool_t *pool, char *err,
                         size_t errlen)
{
    int32_t s = C->s;
    pushout_t P = {.A = resol_stalg(C->F),
                   .F0 = resol_free_module(C->F, s),
                   .F1 = resol_free_module(C->F, s - 1),
                   .ds = resol_differential(C->F, s),
                   .M = M,
                   .p = resol_prime(C->F),
                   .t = t,
                   .target = target,
                   .D = t - target,
                   .idx = idx};
    fvec_init(&P.unit, 1, P.p);
    fvec_set(P.unit, 0, 1);
    P.gdeg = sq_malloc(sizeof(int32_t) * (size_t)(fmod_total_gens(P.F1) + 1));
    for (int64_t g = 0; g < fmod_total_gens(P.F1); g++)
        P.gdeg[g] = fmod_gen_degree(P.F1, g);
    int32_t dlo = fmod_min_degree(P.F1);
    if (fdmod_bottom(M) + P.D < dlo)
        dlo = fdmod_bottom(M) + P.D;
    int32_t ndeg = max_deg >= dlo ? max_deg - dlo + 1 : 0;
    edeg_t *D = sq_calloc((size_t)ndeg + 1, sizeof *D);
    int32_t ebot = INT32_MAX, etop = INT32_MIN;
    double limit = (double)SQ_MODULE_TABLE_LIMIT, bytes = 0, held = 0;
    int rc = 0;
    const char *what = "relations";
    for (int32_t d = dlo; d <= max_deg && !rc; d++) {
        rc = build_degree(&P, &D[d - dlo], d, limit, &bytes, pool);
        held += (double)D[d - dlo].ncols * (double)fvec_bytes_for(P.p, D[d - dlo].dimE);
        if (!rc && held > limit) {
            rc = SQ_E_RANGE;
            what = "reduction tables";
            bytes = held;
        }
        if (!rc && D[d - dlo].dimE) {
            ebot = ebot < d ? ebot : d;
            etop = d;
        }
    }
    if (!rc && ebot <= etop) {
        bytes = table_bytes(&P, D, dlo, ebot, etop);
        if (bytes > limit || etop - ebot >= FDMOD_MAX_RANGE) {
            rc = SQ_E_RANGE;
            what = "action tables";
        }
    }
    if (rc) {
        snprintf(err, errlen,
                 "the module truncated to degree %d is too large: its %s would take %.1f MiB "
                 "(at most %.1f)",
                 (int)max_deg, what, mib(bytes), mib(limit));
    } else if (ebot > etop) {
        C->zero_top = 1;
    } else {
        C->E = new_module(&P, s, D, dlo, ebot, etop);
        set_actions(&P, C->E, D, dlo, ebot, etop);
    }
    for (int32_t i = 0; i < ndeg; i++) {
        fmat_clear(&D[i].red);
        sq_free(D[i].goff);
        sq_free(D[i].eidx);
    }
    sq_free(D);
    sq_free(P.gdeg);
    fvec_clear(&P.unit);
    return rc;
}

int resol_cofiber_new(resol_cofiber_t **out, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t target, int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err,
                      size_t errlen)
{
    *out = NULL;
    if (s < 1) {
        snprintf(err, errlen, "\"cofiber\": \"s\" is %d; the class must have filtration >= 1",
                 (int)s);
        return SQ_E_INVAL;
    }
    int rc = check_target(M, target, err, errlen);
    if (rc)
        return rc;
    resol_cofiber_t *C = sq_calloc(1, sizeof *C);
    C->s = s;
    C->max_s = max_s;
    C->max_n = max_n;
    C->bottom = fdmod_bottom(M);
    rc = resolve_base(C, M, t, idx, target, pool, err, errlen);
    if (!rc && max_s >= s - 1)
        rc = build_pushout(C, M, t, idx, target, max_n + s, pool, err, errlen);
    if (!rc && C->E) {
        int32_t gs = max_s - s + 1, gn = max_n + s - 1;
        if (gn < fdmod_bottom(C->E)) {
            C->zero_top = 1;
        } else {
            rc = resol_check_range(C->E, gs, gn, err, errlen);
            if (!rc) {
                C->G = resol_new(C->E, gs, gn);
                resol_run_pool(C->G, RESOL_CLASSICAL, pool, NULL);
            }
        }
    }
    if (rc) {
        resol_cofiber_free(C);
        return rc;
    }
    *out = C;
    return 0;
}
