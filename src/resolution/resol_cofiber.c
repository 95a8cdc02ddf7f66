/*
 * resol_cofiber.c -- Ext of the cofiber of a class (see resol_cofiber.h for
 * the mathematics).
 *
 * How a run goes, for the class x_(t - s, s, idx) of M, region through stem
 * N and filtration S:
 *   1. F: the classical resolution of M through row s and stem N + 1.  Rows
 *      <= s - 2 are Ext of the cofiber there; rows s - 1 and s give E.
 *   2. E = F_{s-1} / d_s(ker x), truncated to degrees <= N + s (E is
 *      resolved through stem N + s - 1, which needs degrees <= N + s):
 *      generators: every generator of F_{s-1} of degree <= N + s, in F's
 *      order; relations: d_s(g) for every generator g of F_s of degree
 *      <= N + s except g_idx, and theta d_s(g_idx) for theta running over
 *      the Sq^{2^k} (over A; over a subalgebra B, every basis element of B
 *      of positive degree, which generate its augmentation ideal as a left
 *      module).  Each d_s(g) is split into one term per generator block of
 *      F_{s-1} (fmod's layout is fpmod's).
 *   3. G: the classical resolution of E through stem N + s - 1 and row
 *      S - s + 1; Ext^{sigma, tau}(C) = Ext^{sigma - s + 1, tau}(E).
 */
#include "resol_cofiber.h"

#include <stdio.h>
#include <string.h>

#include "fpmod.h"
#include "internal.h"
#include "sq_core.h"

struct resol_cofiber {
    int32_t s, max_s, max_n;
    resol_t *F;  /* resolution of M */
    fdmod_t *E;  /* F_{s-1} / d_s(ker x), or NULL */
    resol_t *G;  /* resolution of E, or NULL */
    int zero_top; /* rows >= s - 1 are zero (E is zero in the region) */
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
    if (s < 0 || s > C->max_s || n > C->max_n)
        return -1;
    if (s <= C->s - 2)
        return resol_ext_dim(C->F, s, n);
    if (C->zero_top)
        return 0;
    if (!C->G)
        return -1;
    return resol_ext_dim(C->G, s - C->s + 1, n + C->s - 1);
}

/* A growing list of relations whose terms and op vectors it owns. */
typedef struct {
    fpmod_rel_t *rels;
    int64_t n, cap;
} rel_list_t;

static void rel_list_clear(rel_list_t *L)
{
    for (int64_t i = 0; i < L->n; i++) {
        for (int64_t k = 0; k < L->rels[i].nterms; k++)
            sq_free((void *)L->rels[i].terms[k].op);
        sq_free((void *)L->rels[i].terms);
    }
    sq_free(L->rels);
    memset(L, 0, sizeof *L);
}

/* Appends the element v of F_{s-1} in degree e (generator-major over the
 * generators of degree < e, as fhom stores d(g)) as a relation: one term
 * per generator of F_{s-1} whose block of v is nonzero.  Generator indices
 * are global indices of F_{s-1} (the fpmod generator order). */
static void add_relation(rel_list_t *L, const fmod_t *T, const milnor_t *A, int32_t e,
                         const uint64_t *v)
{
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->rels = sq_realloc(L->rels, sq_mul_size((size_t)L->cap, sizeof *L->rels));
    }
    int64_t ngen = fmod_total_gens(T), nterms = 0;
    fpmod_term_t *terms = sq_calloc((size_t)ngen + 1, sizeof *terms);
    for (int64_t g = 0; g < ngen; g++) {
        int32_t dg = fmod_gen_degree(T, g);
        if (dg >= e)
            break;
        int64_t i = g - fmod_gen_global(T, dg, 0);
        int64_t off = fmod_block_offset(T, e, dg, i), len = milnor_dim(A, e - dg);
        uint64_t *op = sq_calloc((size_t)f2_limbs(len) + 1, sizeof *op);
        if (!f2_copy_bits(op, v, off, len)) {
            sq_free(op);
            continue;
        }
        terms[nterms].gen = g;
        terms[nterms].opdeg = e - dg;
        terms[nterms].op = op;
        nterms++;
    }
    L->rels[L->n].deg = e;
    L->rels[L->n].nterms = nterms;
    L->rels[L->n].terms = terms;
    L->n++;
}

/* Whether A is the whole Steenrod algebra (no profile). */
static int is_whole_algebra(const milnor_t *A)
{
    int32_t h[MILNOR_MAX_LEN];
    return milnor_profile(A, h) == 0;
}

/* Appends theta * d(g_idx) for every theta of step 2 (the Sq^{2^k} over
 * the whole algebra; every basis element of positive degree over a
 * subalgebra), up to degree max_deg. */
static void add_ideal_relations(rel_list_t *L, const fmod_t *T, const milnor_t *A, int32_t t,
                                const uint64_t *dx, int64_t dx_bits, int32_t max_deg)
{
    int whole = is_whole_algebra(A);
    for (int32_t k = 1; t + k <= max_deg; k++) {
        int64_t nops = milnor_dim(A, k);
        for (int64_t op = 0; op < nops; op++) {
            if (whole) {
                int32_t r[MILNOR_MAX_LEN];
                int len = milnor_get(A, k, op, r, MILNOR_MAX_LEN);
                if (len != 1 || (k & (k - 1)) != 0)
                    continue; /* not Sq^{2^j} = Sq(2^j) */
            }
            /* add_relation reads every block below degree t + k. */
            int64_t bits = fmod_dim_below(T, t + k, t + k);
            uint64_t *v = sq_calloc((size_t)f2_limbs(bits) + 1, sizeof *v);
            /* theta * (Sq(R) h) for each block of dx. */
            int64_t ngen = fmod_total_gens(T);
            for (int64_t g = 0; g < ngen; g++) {
                int32_t dg = fmod_gen_degree(T, g);
                if (dg >= t)
                    break;
                int64_t i = g - fmod_gen_global(T, dg, 0);
                int64_t in_off = fmod_block_offset(T, t, dg, i);
                int64_t in_len = milnor_dim(A, t - dg);
                uint64_t *blk = sq_calloc((size_t)f2_limbs(in_len) + 1, sizeof *blk);
                int64_t n = in_off + in_len <= dx_bits ? in_len : dx_bits - in_off;
                if (n > 0 && f2_copy_bits(blk, dx, in_off, n))
                    milnor_mul_vec_add(A, v, fmod_block_offset(T, t + k, dg, i), k, op, t - dg,
                                       blk);
                sq_free(blk);
            }
            add_relation(L, T, A, t + k, v);
            sq_free(v);
        }
    }
}

/* Builds E (step 2) into C->E. */
static int build_quotient(resol_cofiber_t *C, int32_t t, int64_t idx, int32_t max_deg, char *err,
                          size_t errlen)
{
    const resol_t *F = C->F;
    int32_t s = C->s;
    const fmod_t *T = resol_free_module(F, s - 1), *S = resol_free_module(F, s);
    const fhom_t *d = resol_differential(F, s);
    const milnor_t *A = resol_algebra(F);
    /* Generators of E: those of F_{s-1} of degree <= max_deg. */
    int64_t ngen = 0;
    while (ngen < fmod_total_gens(T) && fmod_gen_degree(T, ngen) <= max_deg)
        ngen++;
    int32_t *gdeg = sq_calloc((size_t)ngen + 1, sizeof *gdeg);
    for (int64_t g = 0; g < ngen; g++)
        gdeg[g] = fmod_gen_degree(T, g);
    rel_list_t L = {0};
    int64_t gx = fmod_gen_global(S, t, idx);
    for (int64_t g = 0; g < fmod_total_gens(S); g++) {
        int32_t e = fmod_gen_degree(S, g);
        if (e > max_deg)
            break;
        int64_t nbits;
        const uint64_t *v = fhom_image(d, g, &nbits);
        if (g == gx)
            add_ideal_relations(&L, T, A, e, v, nbits, max_deg);
        else
            add_relation(&L, T, A, e, v);
    }
    char name[128];
    snprintf(name, sizeof name, "E(%s)", fdmod_name(resol_input(F)));
    int rc = fpmod_build(&C->E, A, name, ngen, gdeg, NULL, L.n, L.rels, max_deg,
                         SQ_MODULE_TABLE_LIMIT, err, errlen);
    rel_list_clear(&L);
    sq_free(gdeg);
    if (!rc) {
        int32_t h[MILNOR_MAX_LEN];
        int hl = milnor_profile(A, h);
        if (hl)
            fdmod_set_profile(C->E, h, hl);
    }
    return rc;
}

int resol_cofiber_new(resol_cofiber_t **out, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err, size_t errlen)
{
    *out = NULL;
    if (s < 1) {
        snprintf(err, errlen, "the cofiber of a class needs filtration s >= 1, not %d", (int)s);
        return SQ_E_INVAL;
    }
    int32_t base_n = max_n + 1 > t - s ? max_n + 1 : t - s;
    int rc = resol_check_range(M, s, base_n, err, errlen);
    if (rc)
        return rc;
    resol_cofiber_t *C = sq_calloc(1, sizeof *C);
    C->s = s;
    C->max_s = max_s;
    C->max_n = max_n;
    C->F = resol_new(M, s, base_n);
    resol_run_pool(C->F, RESOL_CLASSICAL, pool, NULL);
    int64_t dim = resol_ext_dim(C->F, s, t - s);
    if (idx >= dim) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: Ext^{%d,%d} of %s has "
                 "dimension %lld",
                 (int)(t - s), (int)s, (long long)idx, (int)s, (int)t, fdmod_name(M),
                 (long long)(dim < 0 ? 0 : dim));
        resol_cofiber_free(C);
        return SQ_E_INVAL;
    }
    if (max_s >= s - 1) {
        int32_t max_deg = max_n + s;
        rc = build_quotient(C, t, idx, max_deg, err, errlen);
        C->zero_top = !rc && (fdmod_top(C->E) < fdmod_bottom(C->E) ||
                              max_n + s - 1 < fdmod_bottom(C->E));
        if (!rc && !C->zero_top)
            rc = resol_check_range(C->E, max_s - s + 1, max_n + s - 1, err, errlen);
        if (rc) {
            resol_cofiber_free(C);
            return rc;
        }
        if (!C->zero_top) {
            C->G = resol_new(C->E, max_s - s + 1, max_n + s - 1);
            resol_run_pool(C->G, RESOL_CLASSICAL, pool, NULL);
        }
    }
    *out = C;
    return 0;
}
