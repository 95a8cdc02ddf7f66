/*
 * presol_cofiber.c -- Ext of the cofiber of a class at an odd prime (see
 * presol_cofiber.h for the mathematics).
 *
 * A run for the class x_(t - s, s, idx) of M, region through stem N and
 * filtration S:
 *   1. F: the resolution of M through row s and stem max(N + 1, t - s).
 *      Rows <= s - 2 are Ext of the cofiber; rows s - 1 and s give E.
 *   2. E, degree d by degree d for d <= N + s (E is resolved through stem
 *      N + s - 1, which needs degrees <= N + s): the matrix of d_s on
 *      (F_s)_d, with the row of (1, g_idx) zeroed when d = t, row reduced;
 *      the basis of E_d is the non-pivot columns of (F_{s-1})_d, in order.
 *      The action of a basis element theta of degree k on the basis element
 *      (a, g) of E_d is (theta a, g) in (F_{s-1})_{d+k}, reduced by the
 *      pivot rows of degree d + k and read on the non-pivot columns.
 *   3. G: the resolution of E through stem N + s - 1 and row S - s + 1.
 */
#include "presol_cofiber.h"

#include <stdio.h>
#include <string.h>

#include "presol_internal.h"

struct presol_cofiber {
    int32_t s, max_s, max_n, bottom;
    presol_t *F;      /* resolution of M */
    pfdmod_t *E;      /* F_{s-1} / d_s(ker x), or NULL */
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

int presol_cofiber_new(presol_cofiber_t **out, const pfdmod_t *M, int32_t s, int32_t t,
                       int64_t idx, int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err,
                       size_t errlen)
{
    *out = NULL;
    if (s < 1) {
        snprintf(err, errlen, "\"cofiber\": \"s\" is %d; the class must have filtration >= 1",
                 (int)s);
        return SQ_E_INVAL;
    }
    int32_t bottom = pfdmod_bottom(M);
    if (t - s < bottom) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: stem %d is below the "
                 "bottom degree %d of %s",
                 (int)(t - s), (int)s, (long long)idx, (int)(t - s), (int)bottom, pfdmod_name(M));
        return SQ_E_INVAL;
    }
    int32_t fstem = max_n + 1 > t - s ? max_n + 1 : t - s;
    int rc = presol_check_range(M, s, fstem, err, errlen);
    if (rc)
        return rc;
    presol_cofiber_t *C = sq_calloc(1, sizeof *C);
    C->s = s;
    C->max_s = max_s;
    C->max_n = max_n;
    C->bottom = bottom;
    C->F = presol_new(M, s, fstem);
    presol_run_pool(C->F, pool, NULL);
    int64_t have = presol_ext_dim(C->F, s, t - s);
    if (idx < 0 || idx >= have) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: Ext^{%d,%d} of %s has "
                 "dimension %lld",
                 (int)(t - s), (int)s, (long long)idx, (int)s, (int)t, pfdmod_name(M),
                 (long long)have);
        presol_cofiber_free(C);
        return SQ_E_INVAL;
    }
    if (max_s < s - 1) {
        *out = C;
        return 0;
    }
    /* 2. E through degree N + s. */
    const pmilnor_t *A = presol_algebra(C->F);
    const pfmod_t *F0 = presol_free_module(C->F, s), *F1 = presol_free_module(C->F, s - 1);
    const pfhom_t *ds = presol_differential(C->F, s);
    uint32_t p = presol_prime(C->F);
    int32_t dlo = pfmod_min_degree(F1), dhi = max_n + s;
    int32_t ndeg = dhi - dlo + 1;
    edeg_t *D = sq_calloc((size_t)(ndeg > 0 ? ndeg : 1), sizeof *D);
    int32_t ebot = INT32_MAX, etop = INT32_MIN;
    for (int32_t d = dlo; d <= dhi; d++) {
        edeg_t *x = &D[d - dlo];
        int64_t rows = pfmod_dim(F0, d), cols = pfmod_dim(F1, d);
        fpmat_init(&x->rel, rows, cols, p);
        if (rows && cols) {
            pfhom_build_rows(ds, &x->rel, 0, d, d + 1);
            if (d == t) {
                int64_t r = pfmod_block_offset(F0, t, t, idx);
                memset(fpmat_row(&x->rel, r), 0, (size_t)x->rel.stride);
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
        if (x->dimE) {
            if (d < ebot)
                ebot = d;
            etop = d;
        }
    }
    if (ebot > etop) {
        C->zero_top = 1;
    } else {
        char name[256];
        snprintf(name, sizeof name, "%s/x_(%d,%d,%lld)", pfdmod_name(M), (int)(t - s), (int)s,
                 (long long)idx);
        C->E = pfdmod_new(name, p, ebot, etop);
        pfdmod_set_profile(C->E, pfdmod_profile(M));
        for (int32_t d = ebot; d <= etop; d++) {
            edeg_t *x = &D[d - dlo];
            for (int64_t c = 0; c < x->rel.cols; c++) {
                if (x->eidx[c] < 0)
                    continue;
                int32_t ge;
                int64_t gi, ai;
                column_of(F1, A, d, c, &ge, &gi, &ai);
                char op[128], bn[200];
                pmilnor_format(op, sizeof op, A, d - ge, ai);
                if (d == ge)
                    snprintf(bn, sizeof bn, "x_(%d,%d,%lld)", (int)(ge - s + 1), (int)(s - 1),
                             (long long)gi);
                else
                    snprintf(bn, sizeof bn, "%s x_(%d,%d,%lld)", op, (int)(ge - s + 1),
                             (int)(s - 1), (long long)gi);
                pfdmod_add_basis(C->E, d, bn);
            }
        }
        /* The action of every basis element theta of positive degree. */
        for (int32_t d = ebot; d <= etop; d++) {
            edeg_t *x = &D[d - dlo];
            for (int32_t k = 1; d + k <= etop; k++) {
                edeg_t *y = &D[d + k - dlo];
                if (!y->dimE)
                    continue;
                int64_t ncol = y->rel.cols;
                uint8_t *v = sq_malloc((size_t)ncol + 1), *ev = sq_malloc((size_t)y->dimE);
                for (int64_t c = 0; c < x->rel.cols; c++) {
                    if (x->eidx[c] < 0)
                        continue;
                    int32_t ge;
                    int64_t gi, ai;
                    column_of(F1, A, d, c, &ge, &gi, &ai);
                    int64_t off = pfmod_block_offset(F1, d + k, ge, gi);
                    for (int64_t th = 0; th < pmilnor_dim(A, k); th++) {
                        memset(v, 0, (size_t)ncol + 1);
                        pmilnor_mul_add(A, v + off, 1, k, th, d - ge, ai);
                        for (int64_t pc = 0; pc < ncol; pc++)
                            if (v[pc] && y->piv[pc] >= 0) {
                                uint32_t a = v[pc];
                                fpvec_addmul(v, fpmat_row(&y->rel, y->piv[pc]), ncol, p - a, p);
                            }
                        memset(ev, 0, (size_t)y->dimE);
                        for (int64_t pc = 0; pc < ncol; pc++)
                            if (y->eidx[pc] >= 0)
                                ev[y->eidx[pc]] = v[pc];
                        pfdmod_set_action(C->E, A, k, th, d, x->eidx[c], ev);
                    }
                }
                sq_free(v);
                sq_free(ev);
            }
        }
    }
    for (int32_t d = dlo; d <= dhi; d++) {
        fpmat_clear(&D[d - dlo].rel);
        sq_free(D[d - dlo].piv);
        sq_free(D[d - dlo].eidx);
    }
    sq_free(D);
    /* 3. G. */
    if (C->E) {
        int32_t gs = max_s - s + 1, gn = max_n + s - 1;
        if (gn < pfdmod_bottom(C->E)) {
            C->zero_top = 1;
        } else {
            rc = presol_check_range(C->E, gs, gn, err, errlen);
            if (rc) {
                presol_cofiber_free(C);
                return rc;
            }
            C->G = presol_new(C->E, gs, gn);
            presol_run_pool(C->G, pool, NULL);
        }
    }
    *out = C;
    return 0;
}
