/*
 * presol_cofiber.c -- Ext of the cofiber of a class at an odd prime (see
 * presol_cofiber.h for the mathematics).
 *
 * A run for the class x_(t - s, s, idx) of M, region through stem N and
 * filtration S:
 *   1. F: the resolution of M through row s + 1 and stem max(N + 1, t - s)
 *      (or further, to see every degree where f d_{s+1} can be nonzero).
 *      Rows <= s - 2 are Ext of the cofiber; rows s - 1 and s give E; row
 *      s + 1 the cocycle check.
 *   2. E, the pushout of F_{s-1} <-d_s- F_s -f-> Sigma^D M, degree d by
 *      degree d for d <= N + s (E is resolved through stem N + s - 1, which
 *      needs degrees <= N + s): the rows (d_s y, f y) for y in (F_s)_d over
 *      the columns (F_{s-1})_d then (Sigma^D M)_d, row reduced; the basis
 *      of E_d is the non-pivot columns, in order.  The action of a basis
 *      element theta of degree k on a basis element is computed in
 *      F_{s-1} + Sigma^D M in degree d + k, reduced by the pivot rows
 *      there and read on the non-pivot columns.
 *   3. G: the resolution of E through stem N + s - 1 and row S - s + 1.
 */
#include "presol_cofiber.h"

#include <stdio.h>
#include <string.h>

#include "fpmat.h"
#include "presol.h"

struct presol_cofiber {
    int32_t s, max_s, max_n, bottom;
    presol_t *F;      /* resolution of M */
    pfdmod_t *E;      /* the pushout E (resol_cofiber.h), or NULL */
    presol_t *G;      /* resolution of E, or NULL */
    int zero_top;     /* rows >= s - 1 are zero in the region (E is zero) */
};

void presol_cofiber_free(presol_cofiber_t *C)
{
    if (!C)
        return;
    presol_free(C->G);
    pfdmod_free(C->E);
    presol_free(C->F);
    sq_free(C);
}

const pfdmod_t *presol_cofiber_module(const presol_cofiber_t *C)
{
    return C->E;
}

int64_t presol_cofiber_ext_dim(const presol_cofiber_t *C, int32_t s, int32_t n)
{
    if (s < 0 || s > C->max_s || n > C->max_n || n < C->bottom)
        return -1;
    if (s <= C->s - 2)
        return presol_ext_dim(C->F, s, n);
    if (C->zero_top)
        return 0;
    if (!C->G)
        return -1;
    int32_t ne = n + C->s - 1;
    if (ne < presol_min_n(C->G))
        return 0;
    return presol_ext_dim(C->G, s - C->s + 1, ne);
}

/* One degree of E: the reduced relations and the column -> basis map. */
typedef struct {
    fpmat_t rel;       /* RREF of d_s((ker x)_d) over (F_{s-1})_d */
    int64_t *piv;      /* pivots of rel, rel.cols entries */
    int64_t *eidx;     /* column -> index in E_d, or -1 (a pivot) */
    int64_t dimE;
} edeg_t;

/* The generator of F1 (degree, index) and algebra index of column c of
 * (F1)_d. */
static void column_of(const pfmod_t *F1, const pmilnor_t *A, int32_t d, int64_t c, int32_t *ge,
                      int64_t *gi, int64_t *ai)
{
    int64_t off = 0;
    for (int32_t e = pfmod_min_degree(F1); e <= d; e++) {
        int64_t n = pfmod_num_gens(F1, e), len = pmilnor_dim(A, d - e);
        if (c < off + n * len) {
            *ge = e;
            *gi = (c - off) / len;
            *ai = (c - off) % len;
            return;
        }
        off += n * len;
    }
    SQ_CHECK(0, "presol_cofiber: column %lld beyond degree %d", (long long)c, (int)d);
}

/* f(d_{s+1} h) = 0 for every generator h of F_{s+1} of degree in
 * (t, t + top(M) - target]: the coefficient a of g_idx in d h applied to
 * m0.  On failure writes h's degree to *bad. */
static int is_cocycle(const presol_t *F, const pfdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t target, int32_t *bad)
{
    const pfmod_t *S = presol_free_module(F, s), *U = presol_free_module(F, s + 1);
    const pfhom_t *d = presol_differential(F, s + 1);
    const pmilnor_t *A = presol_algebra(F);
    uint32_t p = presol_prime(F);
    int32_t lim = t + pfdmod_top(M) - target;
    const uint8_t one = 1;
    for (int64_t h = 0; h < pfmod_total_gens(U); h++) {
        int32_t e = pfmod_gen_degree(U, h);
        if (e > lim)
            break;
        int64_t len, dim = pfdmod_dim(M, target + e - t);
        if (e <= t || dim == 0)
            continue;
        const uint8_t *v = pfhom_image(d, h, &len);
        int64_t off = pfmod_block_offset(S, e, t, idx), nops = pmilnor_dim(A, e - t);
        uint8_t *out = sq_calloc((size_t)dim + 1, 1);
        for (int64_t i = 0; i < nops && off + i < len; i++)
            if (v[off + i])
                pfdmod_act_add(M, out, v[off + i], e - t, i, target, &one);
        int nz = 0;
        for (int64_t k = 0; k < dim; k++)
            nz |= out[k] % p != 0;
        sq_free(out);
        if (nz) {
            *bad = e;
            return 0;
        }
    }
    return 1;
}

/* Resolves F through row s + 1 and checks the class (existence, target,
 * cocycle); a one-line message in err when it fails. */
static int resolve_base(presol_cofiber_t *C, const pfdmod_t *M, int32_t t, int64_t idx,
                        int32_t target, sq_pool_t *pool, char *err, size_t errlen)
{
    int32_t s = C->s;
    if (pfdmod_dim(M, target) != 1) {
        snprintf(err, errlen,
                 "\"cofiber\": %s has %lld classes in degree %d; the cofiber sends the class to "
                 "the module's single class in that degree (its degree 0 before any shift)",
                 pfdmod_name(M), (long long)pfdmod_dim(M, target), (int)target);
        return SQ_E_INVAL;
    }
    if (t - s < C->bottom) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: stem %d is below the "
                 "bottom degree %d of %s",
                 (int)(t - s), (int)s, (long long)idx, (int)(t - s), (int)C->bottom,
                 pfdmod_name(M));
        return SQ_E_INVAL;
    }
    int64_t n = C->max_n + 1 > t - s ? (int64_t)C->max_n + 1 : t - s;
    int64_t ncoc = (int64_t)t + pfdmod_top(M) - target - (s + 1);
    if (ncoc > n)
        n = ncoc;
    int rc = presol_check_range(M, s + 1, (int32_t)n, err, errlen);
    if (rc)
        return rc;
    C->F = presol_new(M, s + 1, (int32_t)n);
    presol_run_pool(C->F, pool, NULL);
    int64_t have = presol_ext_dim(C->F, s, t - s);
    if (idx < 0 || idx >= have) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: Ext^{%d,%d} of %s has "
                 "dimension %lld",
                 (int)(t - s), (int)s, (long long)idx, (int)s, (int)t, pfdmod_name(M),
                 (long long)have);
        return SQ_E_INVAL;
    }
    int32_t bad;
    if (!is_cocycle(C->F, M, s, t, idx, target, &bad)) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not give a map of %s to itself: "
                 "sent to the class in degree %d, it is not a cocycle (a generator of F_%d in "
                 "degree %d maps to a nonzero element)",
                 (int)(t - s), (int)s, (long long)idx, pfdmod_name(M), (int)target, (int)(s + 1),
                 (int)bad);
        return SQ_E_INVAL;
    }
    return 0;
}

/* The pushout's data: F_{s-1} <-d_s- F_s -f-> Sigma^D M, M's target class
 * m0 in degree target, D = t - target. */
typedef struct {
    const pmilnor_t *A;
    const pfmod_t *F0, *F1; /* F_s, F_{s-1} */
    const pfhom_t *ds;
    const pfdmod_t *M;
    uint32_t p;
    int32_t t, target, D;
    int64_t idx;
} pushout_t;

/* Relations of E in degree d: the rows (d_s y, f y) for y the basis of
 * (F_s)_d, columns (F_{s-1})_d then (Sigma^D M)_d, row reduced. */
static void build_degree(const pushout_t *P, edeg_t *x, int32_t d)
{
    int64_t rows = pfmod_dim(P->F0, d), nf = pfmod_dim(P->F1, d);
    int64_t cols = nf + pfdmod_dim(P->M, d - P->D);
    fpmat_init(&x->rel, rows, cols, P->p);
    if (rows && cols) {
        pfhom_build_rows(P->ds, &x->rel, 0, d, d + 1);
        int64_t dm = pfdmod_dim(P->M, P->target + d - P->t);
        if (d >= P->t && dm) {
            const uint8_t one = 1;
            int64_t r0 = pfmod_block_offset(P->F0, d, P->t, P->idx);
            for (int64_t i = 0; i < pmilnor_dim(P->A, d - P->t); i++)
                pfdmod_act_add(P->M, fpmat_row(&x->rel, r0 + i) + nf, 1, d - P->t, i, P->target,
                               &one);
        }
    }
    x->piv = sq_malloc(sizeof(int64_t) * (size_t)(cols + 1));
    for (int64_t c = 0; c < cols; c++)
        x->piv[c] = -1;
    if (x->rel.data)
        fpmat_rref(&x->rel, x->piv);
    x->eidx = sq_malloc(sizeof(int64_t) * (size_t)(cols + 1));
    for (int64_t c = 0; c < cols; c++)
        x->eidx[c] = x->piv[c] >= 0 ? -1 : x->dimE++;
}

/* Names basis element c (a non-pivot column) of E_d. */
static void column_name(const pushout_t *P, int32_t s, int32_t d, int64_t c, char *bn, size_t n)
{
    int64_t nf = pfmod_dim(P->F1, d);
    if (c >= nf) {
        snprintf(bn, n, "[%s]", pfdmod_basis_name(P->M, d - P->D, c - nf));
        return;
    }
    int32_t ge;
    int64_t gi, ai;
    column_of(P->F1, P->A, d, c, &ge, &gi, &ai);
    char op[128];
    pmilnor_format(op, sizeof op, P->A, d - ge, ai);
    if (d == ge)
        snprintf(bn, n, "x_(%d,%d,%lld)", (int)(ge - s + 1), (int)(s - 1), (long long)gi);
    else
        snprintf(bn, n, "%s x_(%d,%d,%lld)", op, (int)(ge - s + 1), (int)(s - 1), (long long)gi);
}

/* v = theta * (column c of degree d), in the columns of degree d + k. */
static void act_column(const pushout_t *P, uint8_t *v, int32_t d, int32_t k, int64_t th, int64_t c)
{
    int64_t nf = pfmod_dim(P->F1, d), nfk = pfmod_dim(P->F1, d + k);
    if (c >= nf) {
        int32_t e = d - P->D;
        int64_t dim = pfdmod_dim(P->M, e);
        uint8_t *u = sq_calloc((size_t)dim + 1, 1);
        u[c - nf] = 1;
        pfdmod_act_add(P->M, v + nfk, 1, k, th, e, u);
        sq_free(u);
        return;
    }
    int32_t ge;
    int64_t gi, ai;
    column_of(P->F1, P->A, d, c, &ge, &gi, &ai);
    pmilnor_mul_add(P->A, v + pfmod_block_offset(P->F1, d + k, ge, gi), 1, k, th, d - ge, ai);
}

/* Sets the action of every basis element theta of positive degree on E. */
static void set_actions(const pushout_t *P, pfdmod_t *E, const edeg_t *D, int32_t dlo,
                        int32_t ebot, int32_t etop)
{
    for (int32_t d = ebot; d <= etop; d++) {
        const edeg_t *x = &D[d - dlo];
        for (int32_t k = 1; d + k <= etop; k++) {
            const edeg_t *y = &D[d + k - dlo];
            if (!y->dimE)
                continue;
            int64_t ncol = y->rel.cols;
            uint8_t *v = sq_malloc((size_t)ncol + 1), *ev = sq_malloc((size_t)y->dimE);
            for (int64_t c = 0; c < x->rel.cols; c++) {
                if (x->eidx[c] < 0)
                    continue;
                for (int64_t th = 0; th < pmilnor_dim(P->A, k); th++) {
                    memset(v, 0, (size_t)ncol + 1);
                    act_column(P, v, d, k, th, c);
                    for (int64_t pc = 0; pc < ncol; pc++)
                        if (v[pc] && y->piv[pc] >= 0)
                            fpvec_addmul(v, fpmat_row(&y->rel, y->piv[pc]), ncol, P->p - v[pc],
                                         P->p);
                    memset(ev, 0, (size_t)y->dimE);
                    for (int64_t pc = 0; pc < ncol; pc++)
                        if (y->eidx[pc] >= 0)
                            ev[y->eidx[pc]] = v[pc];
                    pfdmod_set_action(E, P->A, k, th, d, x->eidx[c], ev);
                }
            }
            sq_free(v);
            sq_free(ev);
        }
    }
}

/* Builds E through degree N + s into C->E (NULL and zero_top when E is
 * zero there). */
static void build_pushout(presol_cofiber_t *C, const pfdmod_t *M, int32_t t, int64_t idx,
                          int32_t target)
{
    int32_t s = C->s;
    pushout_t P = {.A = presol_algebra(C->F),
                   .F0 = presol_free_module(C->F, s),
                   .F1 = presol_free_module(C->F, s - 1),
                   .ds = presol_differential(C->F, s),
                   .M = M,
                   .p = presol_prime(C->F),
                   .t = t,
                   .target = target,
                   .D = t - target,
                   .idx = idx};
    int32_t dlo = pfmod_min_degree(P.F1), dhi = C->max_n + s;
    if (pfdmod_bottom(M) + P.D < dlo)
        dlo = pfdmod_bottom(M) + P.D;
    int32_t ndeg = dhi - dlo + 1;
    edeg_t *D = sq_calloc((size_t)(ndeg > 0 ? ndeg : 1), sizeof *D);
    int32_t ebot = INT32_MAX, etop = INT32_MIN;
    for (int32_t d = dlo; d <= dhi; d++) {
        build_degree(&P, &D[d - dlo], d);
        if (D[d - dlo].dimE) {
            if (d < ebot)
                ebot = d;
            etop = d;
        }
    }
    if (ebot > etop) {
        C->zero_top = 1;
    } else {
        char name[256], bn[256];
        snprintf(name, sizeof name, "%s/x_(%d,%d,%lld)", pfdmod_name(M), (int)(t - s), (int)s,
                 (long long)idx);
        C->E = pfdmod_new(name, P.p, ebot, etop);
        pfdmod_set_profile(C->E, pfdmod_profile(M));
        for (int32_t d = ebot; d <= etop; d++)
            for (int64_t c = 0; c < D[d - dlo].rel.cols; c++)
                if (D[d - dlo].eidx[c] >= 0) {
                    column_name(&P, s, d, c, bn, sizeof bn);
                    pfdmod_add_basis(C->E, d, bn);
                }
        set_actions(&P, C->E, D, dlo, ebot, etop);
    }
    for (int32_t d = dlo; d <= dhi; d++) {
        fpmat_clear(&D[d - dlo].rel);
        sq_free(D[d - dlo].piv);
        sq_free(D[d - dlo].eidx);
    }
    sq_free(D);
}

int presol_cofiber_new(presol_cofiber_t **out, const pfdmod_t *M, int32_t s, int32_t t,
                       int64_t idx, int32_t target, int32_t max_s, int32_t max_n, sq_pool_t *pool,
                       char *err, size_t errlen)
{
    *out = NULL;
    if (s < 1) {
        snprintf(err, errlen, "\"cofiber\": \"s\" is %d; the class must have filtration >= 1",
                 (int)s);
        return SQ_E_INVAL;
    }
    presol_cofiber_t *C = sq_calloc(1, sizeof *C);
    C->s = s;
    C->max_s = max_s;
    C->max_n = max_n;
    C->bottom = pfdmod_bottom(M);
    int rc = resolve_base(C, M, t, idx, target, pool, err, errlen);
    if (!rc && max_s >= s - 1)
        build_pushout(C, M, t, idx, target);
    if (!rc && C->E) {
        int32_t gs = max_s - s + 1, gn = max_n + s - 1;
        if (gn < pfdmod_bottom(C->E)) {
            C->zero_top = 1;
        } else {
            rc = presol_check_range(C->E, gs, gn, err, errlen);
            if (!rc) {
                C->G = presol_new(C->E, gs, gn);
                presol_run_pool(C->G, pool, NULL);
            }
        }
    }
    if (rc) {
        presol_cofiber_free(C);
        return rc;
    }
    *out = C;
    return 0;
}
