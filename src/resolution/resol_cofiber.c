/*
 * resol_cofiber.c -- Ext of the cofiber of a class (see resol_cofiber.h for
 * the mathematics).
 *
 * How a run goes, for the class x_(t - s, s, idx) of M sent to M's class m0
 * in degree target, region through stem N and filtration S:
 *   1. F: the classical resolution of M through row s + 1 and stem N + 1
 *      (or further, to see every degree where f d_{s+1} can be nonzero).
 *      Rows <= s - 2 are Ext of the cofiber there; rows s - 1 and s give E,
 *      row s + 1 the cocycle check.
 *   2. E, the pushout of F_{s-1} <-d_s- F_s -f-> Sigma^D M, truncated to
 *      degrees <= N + s (E is resolved through stem N + s - 1, which needs
 *      degrees <= N + s): generators: every generator of F_{s-1} of degree
 *      <= N + s and every basis element of Sigma^D M there, merged in degree
 *      order; relations: d_s(g) (+ e_{m0} for g = g_idx) for every generator
 *      g of F_s, and the action of the presenting theta on Sigma^D M.  Each
 *      d_s(g) is split into one term per generator block of F_{s-1} (fmod's
 *      layout is fpmod's).
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
    fdmod_t *E;  /* the pushout E (resol_cofiber.h), or NULL */
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

/* The generators of E: those of F_{s-1}, then the basis of Sigma^D M
 * (D = t - target: M's target class sits in degree t), merged into one
 * non-decreasing order as fpmod_build wants.  fgen[g] and mgen[b] (b the
 * global basis index of M, degree-major) are the merged indices. */
typedef struct {
    int64_t ngen;
    int32_t *deg;   /* ngen degrees */
    int64_t *fgen;  /* generator of F_{s-1} -> merged index */
    int64_t *mgen;  /* basis element of M -> merged index (-1: above max_deg) */
    int64_t *mbase; /* mbase[e - bottom(M)]: global index of M's first basis element of degree e */
    int32_t D;
} egens_t;

static void egens_clear(egens_t *G)
{
    sq_free(G->deg);
    sq_free(G->fgen);
    sq_free(G->mgen);
    sq_free(G->mbase);
    memset(G, 0, sizeof *G);
}

static void egens_build(egens_t *G, const fmod_t *T, const fdmod_t *M, int32_t D, int32_t max_deg)
{
    memset(G, 0, sizeof *G);
    G->D = D;
    int32_t lo = fdmod_bottom(M), hi = fdmod_top(M);
    int64_t nf = 0, nm = 0;
    while (nf < fmod_total_gens(T) && fmod_gen_degree(T, nf) <= max_deg)
        nf++;
    int32_t nd = hi >= lo ? hi - lo + 1 : 0;
    G->mbase = sq_calloc((size_t)nd + 1, sizeof *G->mbase);
    for (int32_t e = lo; e <= hi; e++) {
        G->mbase[e - lo] = nm;
        nm += fdmod_dim(M, e);
    }
    G->mbase[nd] = nm;
    G->fgen = sq_calloc((size_t)nf + 1, sizeof *G->fgen);
    G->mgen = sq_calloc((size_t)nm + 1, sizeof *G->mgen);
    G->deg = sq_calloc((size_t)(nf + nm) + 1, sizeof *G->deg);
    int64_t f = 0, n = 0;
    int32_t e = lo;
    int64_t b = 0, mi = 0;
    for (;;) {
        while (e <= hi && b >= fdmod_dim(M, e)) {
            e++;
            b = 0;
        }
        int have_m = e <= hi && (int64_t)e + D <= max_deg;
        int have_f = f < nf;
        if (!have_m && !have_f)
            break;
        if (have_f && (!have_m || fmod_gen_degree(T, f) <= e + D)) {
            G->deg[n] = fmod_gen_degree(T, f);
            G->fgen[f++] = n++;
        } else {
            G->deg[n] = e + D;
            G->mgen[mi++] = n++;
            b++;
        }
    }
    for (; mi < nm; mi++)
        G->mgen[mi] = -1;
    G->ngen = n;
}

/* Appends an empty relation of degree deg with room for cap terms. */
static fpmod_rel_t *rel_new(rel_list_t *L, int32_t deg, int64_t cap)
{
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->rels = sq_realloc(L->rels, sq_mul_size((size_t)L->cap, sizeof *L->rels));
    }
    fpmod_rel_t *r = &L->rels[L->n++];
    r->deg = deg;
    r->nterms = 0;
    r->terms = sq_calloc((size_t)cap + 1, sizeof *r->terms);
    return r;
}

/* Appends the term op * gen (op: len bits, copied) to r. */
static void rel_term(fpmod_rel_t *r, int64_t gen, int32_t opdeg, const uint64_t *op, int64_t len)
{
    uint64_t *c = sq_calloc((size_t)f2_limbs(len) + 1, sizeof *c);
    memcpy(c, op, (size_t)f2_limbs(len) * sizeof *c);
    fpmod_term_t *t = (fpmod_term_t *)&r->terms[r->nterms++];
    t->gen = gen;
    t->opdeg = opdeg;
    t->op = c;
}

/* Appends v, an element of F_{s-1} in degree e (generator-major over the
 * generators of degree < e, as fhom stores d(g)), plus the unit on the
 * merged generator extra (when >= 0), as one relation. */
static void add_relation(rel_list_t *L, const fmod_t *T, const milnor_t *A, const egens_t *G,
                         int32_t e, const uint64_t *v, int64_t extra)
{
    fpmod_rel_t *r = rel_new(L, e, fmod_total_gens(T) + 1);
    for (int64_t g = 0; g < fmod_total_gens(T); g++) {
        int32_t dg = fmod_gen_degree(T, g);
        if (dg >= e)
            break;
        int64_t i = g - fmod_gen_global(T, dg, 0);
        int64_t off = fmod_block_offset(T, e, dg, i), len = milnor_dim(A, e - dg);
        uint64_t *op = sq_calloc((size_t)f2_limbs(len) + 1, sizeof *op);
        if (f2_copy_bits(op, v, off, len))
            rel_term(r, G->fgen[g], e - dg, op, len);
        sq_free(op);
    }
    if (extra >= 0) {
        uint64_t one = 1;
        rel_term(r, extra, 0, &one, 1);
    }
}

/* Whether A is the whole Steenrod algebra (no profile). */
static int is_whole_algebra(const milnor_t *A)
{
    int32_t h[MILNOR_MAX_LEN];
    return milnor_profile(A, h) == 0;
}

/* Whether basis element op of A_k is one of the generators used to present
 * Sigma^D M: the Sq^{2^j} over the whole algebra; every basis element of
 * positive degree over a subalgebra. */
static int is_presenting_op(const milnor_t *A, int whole, int32_t k, int64_t op)
{
    if (!whole)
        return 1;
    int32_t r[MILNOR_MAX_LEN];
    int len = milnor_get(A, k, op, r, MILNOR_MAX_LEN);
    return len == 1 && (k & (k - 1)) == 0;
}

/* Appends the relations presenting Sigma^D M on its generators e_b:
 * theta e_b = sum_c (theta b)_c e_c for every presenting theta, up to
 * degree max_deg.  Over A these generate every relation, since the
 * Sq^{2^j} generate A as an algebra. */
static void add_module_relations(rel_list_t *L, const fdmod_t *M, const milnor_t *A,
                                 const egens_t *G, int32_t max_deg)
{
    int whole = is_whole_algebra(A);
    int32_t lo = fdmod_bottom(M), hi = fdmod_top(M);
    for (int32_t e = lo; e <= hi; e++) {
        for (int32_t k = 1; (int64_t)e + G->D + k <= max_deg && k <= milnor_max_degree(A); k++) {
            int64_t nops = milnor_dim(A, k);
            for (int64_t op = 0; op < nops; op++) {
                if (!is_presenting_op(A, whole, k, op))
                    continue;
                for (int64_t b = 0; b < fdmod_dim(M, e); b++) {
                    fpmod_rel_t *r = rel_new(L, e + G->D + k, 1 + fdmod_dim(M, e + k));
                    uint64_t *bit = sq_calloc((size_t)f2_limbs(nops) + 1, sizeof *bit);
                    bit[op >> 6] = (uint64_t)1 << (op & 63);
                    rel_term(r, G->mgen[G->mbase[e - lo] + b], k, bit, nops);
                    sq_free(bit);
                    const uint64_t *img = fdmod_action(M, k, op, e, b);
                    uint64_t one = 1;
                    for (int64_t c = 0; img && c < fdmod_dim(M, e + k); c++)
                        if ((img[c >> 6] >> (c & 63)) & 1)
                            rel_term(r, G->mgen[G->mbase[e + k - lo] + c], 0, &one, 1);
                }
            }
        }
    }
}

/* Builds E (step 2) into C->E: the pushout of F_{s-1} <- F_s -> Sigma^D M,
 * d_s on the left and the cocycle f (g_idx -> the target class m0, every
 * other generator -> 0) on the right. */
static int build_quotient(resol_cofiber_t *C, const fdmod_t *M, int32_t t, int64_t idx,
                          int32_t target, int32_t max_deg, char *err, size_t errlen)
{
    const resol_t *F = C->F;
    int32_t s = C->s;
    const fmod_t *T = resol_free_module(F, s - 1), *S = resol_free_module(F, s);
    const fhom_t *d = resol_differential(F, s);
    const milnor_t *A = resol_algebra(F);
    egens_t G;
    egens_build(&G, T, M, t - target, max_deg);
    /* Over a finite subalgebra the algebra's tables stop at twice its top
     * degree, while E may span more degrees: build E over a larger copy
     * with the same profile (a degree's basis does not depend on the
     * degree the algebra is built to). */
    milnor_t *own = NULL;
    int32_t h[MILNOR_MAX_LEN];
    int hl = milnor_profile(A, h);
    if (hl && G.ngen > 0 && (int64_t)max_deg - G.deg[0] > milnor_max_degree(A) &&
        (int64_t)max_deg - G.deg[0] <= MILNOR_MAX_DEGREE) {
        own = milnor_new_profile(max_deg - G.deg[0], h, hl);
        A = own;
    }
    rel_list_t L = {0};
    int64_t gx = fmod_gen_global(S, t, idx);
    int64_t m0 = G.mgen[G.mbase[target - fdmod_bottom(M)]];
    for (int64_t g = 0; g < fmod_total_gens(S); g++) {
        int32_t e = fmod_gen_degree(S, g);
        if (e > max_deg)
            break;
        int64_t nbits;
        const uint64_t *v = fhom_image(d, g, &nbits);
        add_relation(&L, T, A, &G, e, v, g == gx ? m0 : -1);
    }
    add_module_relations(&L, M, A, &G, max_deg);
    char name[128];
    snprintf(name, sizeof name, "E(%s)", fdmod_name(resol_input(F)));
    int rc = fpmod_build(&C->E, A, name, G.ngen, G.deg, NULL, L.n, L.rels, max_deg,
                         SQ_MODULE_TABLE_LIMIT, err, errlen);
    rel_list_clear(&L);
    egens_clear(&G);
    if (!rc && hl)
        fdmod_set_profile(C->E, h, hl);
    milnor_free(own);
    return rc;
}

/* Whether f: F_s -> Sigma^D M (g_idx -> m0) is a cocycle: f(d_{s+1} h) = 0
 * for every generator h of F_{s+1} of degree <= t + top(M) - target (above,
 * the image lies beyond M).  f(d h) = a m0 for a the coefficient of g_idx
 * in d h.  On failure writes the offending generator's degree to *bad. */
static int is_cocycle(const resol_t *F, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t target, int32_t *bad)
{
    const fmod_t *S = resol_free_module(F, s), *U = resol_free_module(F, s + 1);
    const fhom_t *d = resol_differential(F, s + 1);
    const milnor_t *A = resol_algebra(F);
    int32_t lim = t + fdmod_top(M) - target;
    uint64_t one = 1;
    for (int64_t h = 0; h < fmod_total_gens(U); h++) {
        int32_t e = fmod_gen_degree(U, h);
        if (e > lim)
            break;
        if (e <= t)
            continue;
        int64_t nbits, len = milnor_dim(A, e - t), dim = fdmod_dim(M, target + e - t);
        const uint64_t *v = fhom_image(d, h, &nbits);
        int64_t off = fmod_block_offset(S, e, t, idx);
        if (dim == 0 || off >= nbits)
            continue;
        uint64_t *op = sq_calloc((size_t)f2_limbs(len) + 1, sizeof *op);
        uint64_t *out = sq_calloc((size_t)f2_limbs(dim) + 1, sizeof *out);
        int64_t n = off + len <= nbits ? len : nbits - off;
        int nz = 0;
        if (f2_copy_bits(op, v, off, n)) {
            for (int64_t i = 0; i < len; i++)
                if ((op[i >> 6] >> (i & 63)) & 1)
                    fdmod_act_add(M, out, 0, e - t, i, target, &one);
            for (int64_t w = 0; w < f2_limbs(dim); w++)
                nz |= out[w] != 0;
        }
        sq_free(op);
        sq_free(out);
        if (nz) {
            *bad = e;
            return 0;
        }
    }
    return 1;
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

/* Resolves F (the resolution of M through row s + 1) and checks the class:
 * that it exists and that it gives a cocycle F_s -> Sigma^D M. */
static int resolve_base(resol_cofiber_t *C, const fdmod_t *M, int32_t t, int64_t idx,
                        int32_t target, sq_pool_t *pool, char *err, size_t errlen)
{
    int32_t s = C->s;
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
    if (idx >= dim) {
        snprintf(err, errlen,
                 "\"cofiber\": the class x_(%d, %d, %lld) does not exist: Ext^{%d,%d} of %s has "
                 "dimension %lld",
                 (int)(t - s), (int)s, (long long)idx, (int)s, (int)t, fdmod_name(M),
                 (long long)(dim < 0 ? 0 : dim));
        return SQ_E_INVAL;
    }
    int32_t bad;
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

int resol_cofiber_new(resol_cofiber_t **out, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t target, int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err,
                      size_t errlen)
{
    *out = NULL;
    if (s < 1) {
        snprintf(err, errlen, "the cofiber of a class needs filtration s >= 1, not %d", (int)s);
        return SQ_E_INVAL;
    }
    int rc = check_target(M, target, err, errlen);
    if (rc)
        return rc;
    resol_cofiber_t *C = sq_calloc(1, sizeof *C);
    C->s = s;
    C->max_s = max_s;
    C->max_n = max_n;
    rc = resolve_base(C, M, t, idx, target, pool, err, errlen);
    if (!rc && max_s >= s - 1) {
        int32_t max_deg = max_n + s;
        rc = build_quotient(C, M, t, idx, target, max_deg, err, errlen);
        C->zero_top = !rc && (fdmod_top(C->E) < fdmod_bottom(C->E) ||
                              max_n + s - 1 < fdmod_bottom(C->E));
        if (!rc && !C->zero_top)
            rc = resol_check_range(C->E, max_s - s + 1, max_n + s - 1, err, errlen);
        if (!rc && !C->zero_top) {
            C->G = resol_new(C->E, max_s - s + 1, max_n + s - 1);
            resol_run_pool(C->G, RESOL_CLASSICAL, pool, NULL);
        }
    }
    if (rc) {
        resol_cofiber_free(C);
        return rc;
    }
    *out = C;
    return 0;
}
