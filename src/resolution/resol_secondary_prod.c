/*
 * resol_secondary_prod.c -- the secondary lift of multiplication by a
 * class (resol_secondary_prod.h has the mathematics).
 *
 * Steps: the two resolutions lifted with their homotopies kept
 * (resol_sec_new_kept, a copy of each row) and made canonical; the chain
 * map f of x (resol_cmap, the products' lifting); level by level k = 2 ..
 * kmax the composites C_{k-1} of F_{s0+k-1} and c^G of G_k and for each
 * generator of F_{s0+k} the right-hand side of d H_k = ... (by generator,
 * on the pool), then its preimage under d^G_{k-1} (the quasi-inverses the
 * chain map used, on the calling thread).
 */
#include "resol_secondary_prod.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "pair_algebra.h"
#include "resol_map_internal.h"
#include "resol_products.h"
#include "resol_secondary_prod_internal.h"
#include "sq_core.h"

/* The nonzero R_B-valued composites of one generator: target generators
 * (global) and elements (resol_secondary_prod_internal.h). */
typedef resol_sec_comp_t comp_t;

struct resol_sec_prod {
    const resol_t *RM, *RS;
    resol_sec_t *XM, *XS;    /* XS == XM when RS == RM (shared) */
    int shared;
    resol_cmap_t hM, hS;     /* kept homotopies: vals[s - 2][g] = h_s(g) */
    int32_t n0, s0, t0, kmax, max_n, max_s;
    resol_cmap_t f;          /* f_k : F_{s0+k} -> G_k */
    resol_cmap_t H;          /* vals[k - 1] = H_k : F_{s0+k} -> G_{k-1} */
    int borrowed;            /* XM, XS, hM, hS are another lift's (resol_sec_prod_new_on) */
};

/* ---- Keeping the homotopies ----------------------------------------------------- */

/* The rows of a lift as resol_sec_new_kept hands them over: h.vals[s - 2]
 * = h_s on its first ngen[s] generators. */
typedef struct {
    resol_cmap_t h;
    int64_t *ngen;
} kept_t;

static int keep_row(void *ctx, int32_t s, int32_t emax, const fvec_t *h, int64_t n0,
                    int64_t ngen, char *err, size_t errlen)
{
    (void)emax;
    (void)n0;
    (void)err;
    (void)errlen;
    kept_t *K = ctx;
    K->ngen[s] = ngen;
    for (int64_t g = 0; g < ngen; g++) {
        fvec_t *d = &K->h.vals[s - 2][g];
        fvec_clear(d);
        if (h[g].len && !fvec_is_zero(h[g])) {
            fvec_init(d, h[g].len, 2);
            fvec_addmul(*d, h[g], 1);
        }
    }
    return 0;
}

/* The homotopies made canonical: h_s(g) = Q(I_s(g) + h_{s-1}(d g)), Q the
 * quasi-inverse of d_{s-2} from the canonical echelon form of [D | I]
 * (resol_qis_lift, the products' and the peer's choice), row by row from
 * the kept ones: I_s(g) + h'_{s-1}(d g) = d h_s(g) + (h'_{s-1} + h_{s-1})(d
 * g).  Any solution gives the same d_2; this one makes the secondary
 * products a fixed function of the resolution, the peer's for the
 * classical engine.  Returns 0, or 1 when a lift fails (a bug). */
static int canonical_rows(kept_t *K, const resol_t *R)
{
    resol_cmap_t N;
    resol_cmap_init(&N, R, R, 2, 1, K->h.kmax);
    resol_qis_t Q;
    resol_qis_init(&Q, R, R->max_s, R->t_min, R->t_max);
    for (int32_t s = 3; s <= R->max_s && s - 2 <= K->h.kmax && !Q.bad; s++)
        for (int64_t g = 0; g < K->ngen[s] && !Q.bad; g++) {
            int32_t e = fmod_gen_degree(R->F[s], g);
            fvec_t v, hb = K->h.vals[s - 2][g];
            fvec_init(&v, fmod_dim(R->F[s - 3], e - 1), 2);
            if (hb.len)
                fhom_apply_add(R->d[s - 2], v.limbs, e - 1, e, hb.limbs);
            if (s >= 4) {
                fvec_t dg = resol_dgen(R, s, g);
                resol_cmap_apply(&N, s - 3, e, dg, 1, v);
                resol_cmap_apply(&K->h, s - 3, e, dg, 1, v);
            }
            N.vals[s - 2][g] = resol_qis_lift(&Q, s - 2, e - 1, v);
            fvec_clear(&v);
        }
    int bad = Q.bad;
    resol_qis_clear(&Q);
    resol_cmap_clear(&K->h);
    K->h = N;
    return bad;
}

/* Progress over the steps of resol_sec_prod_new: the caller's function
 * with the step counted from base. */
typedef struct {
    resol_sec_progress_fn fn;
    void *ctx;
    int32_t base, total;
} prog_t;

static void row_done(void *ctx, int32_t s, int32_t max_s)
{
    (void)max_s;
    const prog_t *p = ctx;
    if (p->fn)
        p->fn(p->ctx, p->base + s - 2, p->total);
}

/* Lifts R with its rows kept in *h (canonical_rows). */
static int lift_kept(resol_sec_t **X, resol_cmap_t *h, const resol_t *R, sq_pool_t *pool,
                     prog_t *pr, char *err, size_t errlen)
{
    kept_t K;
    resol_cmap_init(&K.h, R, R, 2, 1, R->max_s >= 2 ? R->max_s - 2 : 0);
    K.ngen = sq_calloc((size_t)R->max_s + 1, sizeof *K.ngen);
    resol_sec_keep_t keep = {&K, NULL, keep_row};
    int rc = resol_sec_new_kept(X, R, pool, &keep, row_done, pr, err, errlen);
    if (rc == 0 && canonical_rows(&K, R)) {
        snprintf(err, errlen, "secondary product: a canonical homotopy failed (a bug)");
        rc = SQ_E_RANGE;
    }
    sq_free(K.ngen);
    *h = K.h;
    return rc;
}

/* ---- Blocks and composites -------------------------------------------------------- */

/* The block of the generator g (global) of F in v (over F in degree e):
 * a new vector over A_{e - deg g} (zero-length when it is zero or past
 * v's end). */
static fvec_t block(const fmod_t *F, int32_t e, int64_t g, fvec_t v)
{
    fvec_t b = {0};
    int32_t dg = fmod_gen_degree(F, g);
    int64_t off = fmod_block_offset(F, e, dg, g - fmod_gen_global(F, dg, 0));
    int64_t len = fmod_block_dim(F, e, dg);
    if (off >= v.len || len <= 0)
        return b;
    int64_t n = off + len <= v.len ? len : v.len - off;
    fvec_init(&b, len, 2);
    if (!f2_copy_bits(b.limbs, v.limbs, off, n))
        fvec_clear(&b); /* zero: a zero-length block */
    return b;
}

/* The values of a map on the generators of its source: val(ctx, g) over
 * the target in degree deg(g) - shift (a view; zero-length for zero). */
typedef fvec_t (*val_fn)(const void *ctx, int64_t g);

typedef struct {
    const resol_t *R;
    int32_t s;
} dval_t;

static fvec_t dval(const void *ctx, int64_t g)
{
    const dval_t *d = ctx;
    return resol_dgen(d->R, d->s, g);
}

static fvec_t cval(const void *ctx, int64_t g)
{
    const fvec_t *vals = ctx;
    return vals[g];
}

/* acc[g2] += sigma(a) sigma(b) for every term a g1 of u (over X in degree
 * e) and b g2 of val(g1) (over Y in degree deg(g1) - shift); acc[g2] is
 * of degree e - shift - deg(g2), initialised on first use. */
static void compose_add(const pairalg_t *P, const fmod_t *X, int32_t e, fvec_t u, val_fn val,
                        const void *vctx, int32_t shift, const fmod_t *Y, pair_elt_t *acc)
{
    for (int64_t g1 = 0; g1 < fmod_total_gens(X); g1++) {
        int32_t e1 = fmod_gen_degree(X, g1);
        if (e1 > e)
            break;
        fvec_t a = block(X, e, g1, u);
        if (!a.len)
            continue;
        fvec_t w = val(vctx, g1);
        for (int64_t g2 = 0; w.len && g2 < fmod_total_gens(Y); g2++) {
            int32_t e2 = fmod_gen_degree(Y, g2);
            if (e2 > e1 - shift)
                break;
            fvec_t b = block(Y, e1 - shift, g2, w);
            if (!b.len)
                continue;
            if (!acc[g2].v)
                pair_elt_init(&acc[g2], P, e - shift - e2);
            pair_sigma_mul_vec_add(P, &acc[g2], e - e1, a.limbs, e1 - shift - e2, b.limbs);
            fvec_clear(&b);
        }
        fvec_clear(&a);
    }
}

/* Finishes the accumulators acc[0 .. n) into c (the nonzero ones); 0, or
 * 1 when one is not in R_B (its mod 2 part is not zero: a bug). */
static int comp_finish(comp_t *c, pair_elt_t *acc, int64_t n)
{
    int bad = 0;
    memset(c, 0, sizeof *c);
    c->tgt = sq_malloc((size_t)n * sizeof *c->tgt + 1);
    c->e = sq_malloc((size_t)n * sizeof *c->e + 1);
    for (int64_t g = 0; g < n; g++) {
        if (!acc[g].v)
            continue;
        if (pair_elt_finish(&acc[g]) != 0)
            bad = 1;
        if (acc[g].ones || pair_elt_is_zero(&acc[g])) {
            pair_elt_clear(&acc[g]);
            continue;
        }
        c->tgt[c->n] = g;
        c->e[c->n++] = acc[g];
    }
    return bad;
}

static void comps_clear(comp_t *c, int64_t n)
{
    for (int64_t i = 0; c && i < n; i++) {
        for (int64_t j = 0; j < c[i].n; j++)
            pair_elt_clear(&c[i].e[j]);
        sq_free(c[i].tgt);
        sq_free(c[i].e);
    }
    sq_free(c);
}

/* out (over T in degree e - shift - 1) += sum over the terms a g1 of u
 * (over X in degree e, deg a >= 1) of A(a, comps[g1]); comps[g1] are of
 * degree deg(g1) - shift - deg(g2) on T's generators g2. */
static void act_add(const pairalg_t *P, const fmod_t *X, int32_t e, fvec_t u, const comp_t *comps,
                    int64_t ncomp, int32_t shift, const fmod_t *T, fvec_t out)
{
    for (int64_t g1 = 0; g1 < ncomp; g1++) {
        int32_t e1 = fmod_gen_degree(X, g1);
        if (e1 >= e)
            break;
        const comp_t *c = &comps[g1];
        if (!c->n)
            continue;
        fvec_t a = block(X, e, g1, u);
        if (!a.len)
            continue;
        pair_aop_t op;
        pair_aop_init(P, &op, e - e1, a.limbs, 0);
        for (int64_t j = 0; j < c->n; j++) {
            int32_t e2 = fmod_gen_degree(T, c->tgt[j]);
            int64_t off = fmod_block_offset(T, e - shift - 1, e2,
                                            c->tgt[j] - fmod_gen_global(T, e2, 0));
            pair_aop_apply(P, &op, out.limbs, off, &c->e[j]);
        }
        pair_aop_clear(&op);
        fvec_clear(&a);
    }
}

/* Generators of F of degree <= e: their count. */
static int64_t gens_through(const fmod_t *F, int32_t e)
{
    int64_t n = 0, tot = fmod_total_gens(F);
    while (n < tot && fmod_gen_degree(F, n) <= e)
        n++;
    return n;
}

/* One level's work, shared by the jobs on the pool: every job writes only
 * its own generator's slot. */
typedef struct {
    const pairalg_t *P;
    const resol_sec_prod_t *X;
    int32_t k;          /* the level */
    comp_t *C, *U;      /* C_{k-1} of F_{s0+k-1}, c^G of G_k */
    int64_t nc, nu;
    fvec_t *v;          /* the right-hand sides of H_k */
    atomic_int bad;     /* a composite not in R_B: a bug */
} level_t;

/* c^G(g) for the generator g of G_k (k >= 2): sigma(d) sigma(d) into
 * G_{k-2}. */
static void unit_comp_one(void *ctx, int64_t g)
{
    level_t *L = ctx;
    const resol_t *G = L->X->RS;
    int32_t k = L->k;
    const fmod_t *Gk = G->F[k], *G1 = G->F[k - 1], *G2 = G->F[k - 2];
    int64_t n2 = fmod_total_gens(G2);
    pair_elt_t *acc = sq_calloc((size_t)n2 + 1, sizeof *acc);
    dval_t dv = {G, k - 1};
    compose_add(L->P, G1, fmod_gen_degree(Gk, g), resol_dgen(G, k, g), dval, &dv, 0, G2, acc);
    if (comp_finish(&L->U[g], acc, n2))
        atomic_store(&L->bad, 1);
    sq_free(acc);
}

/* C_j(g) for the generator g of F_{s0+j}, j = k - 1 >= 1:
 * -sigma(d)sigma(f_{j-1}) + sigma(f_j)sigma(d) into G_{j-1}, the minus
 * sign as + (the same) + 2 (the mod 2 composite f_{j-1} d). */
static void map_comp_one(void *ctx, int64_t g)
{
    level_t *L = ctx;
    const resol_sec_prod_t *X = L->X;
    const resol_t *F = X->RM, *G = X->RS;
    int32_t j = L->k - 1;
    const fmod_t *Fj = F->F[X->s0 + j], *F1 = F->F[X->s0 + j - 1];
    const fmod_t *Gj = G->F[j], *G1 = G->F[j - 1];
    int64_t n1 = fmod_total_gens(G1);
    pair_elt_t *acc = sq_calloc((size_t)n1 + 1, sizeof *acc);
    dval_t dv = {G, j};
    int32_t eg = fmod_gen_degree(Fj, g);
    fvec_t dg = resol_dgen(F, X->s0 + j, g);
    compose_add(L->P, F1, eg, dg, cval, X->f.vals[j - 1], X->t0, G1, acc);
    fvec_t fg = X->f.vals[j][g];
    if (fg.len)
        compose_add(L->P, Gj, eg - X->t0, fg, dval, &dv, 0, G1, acc);
    /* + 2 (f_{j-1} d g): the twos of each block */
    fvec_t two;
    fvec_init(&two, fmod_dim(G1, eg - X->t0), 2);
    resol_cmap_apply(&X->f, j - 1, eg, dg, 1, two);
    for (int64_t g2 = 0; g2 < n1; g2++) {
        int32_t e2 = fmod_gen_degree(G1, g2);
        if (e2 >= eg - X->t0)
            break;
        fvec_t b = block(G1, eg - X->t0, g2, two);
        if (!b.len)
            continue;
        if (!acc[g2].v)
            pair_elt_init(&acc[g2], L->P, eg - X->t0 - e2);
        fvec_addmul(fvec_view_limbs(acc[g2].v, b.len), b, 1);
        fvec_clear(&b);
    }
    fvec_clear(&two);
    if (comp_finish(&L->C[g], acc, n1))
        atomic_store(&L->bad, 1);
    sq_free(acc);
}

/* The right-hand side of d H_k(g) = ... for the generator g of F_{s0+k}
 * (into L->v[g]; zero-length when its degree leaves no room). */
static void rhs_one(void *ctx, int64_t g)
{
    level_t *L = ctx;
    const resol_sec_prod_t *X = L->X;
    const resol_t *F = X->RM, *G = X->RS;
    int32_t k = L->k, s = X->s0 + k, t0 = X->t0;
    const fmod_t *Fs = F->F[s], *G2 = G->F[k - 2];
    int32_t eg = fmod_gen_degree(Fs, g), et = eg - t0 - 1;
    if (et < 0)
        return;
    fvec_t v;
    fvec_init(&v, fmod_dim(G2, et), 2);
    fvec_t dg = resol_dgen(F, s, g);
    act_add(L->P, F->F[s - 1], eg, dg, L->C, L->nc, t0, G2, v);
    fvec_t fg = X->f.vals[k][g];
    if (fg.len) {
        act_add(L->P, G->F[k], eg - t0, fg, L->U, L->nu, 0, G2, v);
        if (k >= 3)
            resol_cmap_apply(&X->hS, k - 2, eg - t0, fg, 1, v);
    }
    if (s >= 3) {
        fvec_t hg = X->hM.vals[s - 2][g];
        if (hg.len)
            resol_cmap_apply(&X->f, k - 2, eg - 1, hg, 1, v);
    }
    if (k >= 3)
        resol_cmap_apply(&X->H, k - 2, eg, dg, 1, v);
    L->v[g] = v;
}

/* ---- The lift H ------------------------------------------------------------------- */

/* H_k on the generators of F_{s0+k} of degree <= e (k >= 2): the
 * composites and the right-hand sides on the pool, the preimages (the
 * quasi-inverses Q, built on first use) on the calling thread.  Returns 0,
 * or 1 when a right-hand side is not a boundary (k = 2: x does not lift;
 * later: a bug). */
static int lift_level(const pairalg_t *P, resol_sec_prod_t *X, resol_qis_t *Q, int32_t k,
                      int32_t e, sq_pool_t *pool)
{
    const resol_t *F = X->RM, *G = X->RS;
    int32_t s = X->s0 + k;
    level_t L = {P, X, k, NULL, NULL, 0, 0, NULL, 0};
    L.nc = gens_through(F->F[s - 1], e - 1);
    L.nu = gens_through(G->F[k], e - X->t0);
    L.C = sq_calloc((size_t)L.nc + 1, sizeof *L.C);
    L.U = sq_calloc((size_t)L.nu + 1, sizeof *L.U);
    sq_pool_parallel_for(pool, L.nc, map_comp_one, &L);
    sq_pool_parallel_for(pool, L.nu, unit_comp_one, &L);
    SQ_CHECK(!atomic_load(&L.bad), "secondary product: a composite is not in R_B at level %d",
             (int)k);
    int64_t ng = gens_through(F->F[s], e);
    L.v = sq_calloc((size_t)ng + 1, sizeof *L.v);
    sq_pool_parallel_for(pool, ng, rhs_one, &L);
    int bad = 0;
    for (int64_t g = 0; g < ng; g++) {
        if (!bad && L.v[g].len && !fvec_is_zero(L.v[g])) {
            int32_t et = fmod_gen_degree(F->F[s], g) - X->t0 - 1;
            X->H.vals[k - 1][g] = resol_qis_lift(Q, k - 1, et, L.v[g]);
            bad = Q->bad;
        }
        fvec_clear(&L.v[g]);
    }
    sq_free(L.v);
    comps_clear(L.C, L.nc);
    comps_clear(L.U, L.nu);
    return bad;
}

/* f_0 = x on the generators of F_{s0} of degree t0, then the levels. */
void resol_sec_lift_class(resol_cmap_t *C, resol_qis_t *Q, fvec_t x, int32_t emax)
{
    const fmod_t *F = C->P->F[C->s0];
    for (int64_t g = 0; g < fmod_total_gens(F); g++) {
        int32_t e = fmod_gen_degree(F, g);
        if (e > C->t0)
            break;
        if (e == C->t0 && fvec_get(x, g - fmod_gen_global(F, e, 0))) {
            fvec_init(&C->vals[0][g], 1, 2);
            fvec_set(C->vals[0][g], 0, 1);
        }
    }
    for (int32_t k = 1; k <= C->kmax; k++)
        resol_cmap_lift_level(C, Q, k, emax - (C->kmax - k));
}

static void lift_class(resol_sec_prod_t *X, resol_qis_t *Q, fvec_t x, int32_t emax)
{
    resol_sec_lift_class(&X->f, Q, x, emax);
}

/* ---- The object --------------------------------------------------------------------- */

void resol_sec_prod_free(resol_sec_prod_t *P)
{
    if (!P)
        return;
    if (!P->shared && !P->borrowed) {
        resol_sec_free(P->XS);
        if (P->hS.vals)
            resol_cmap_clear(&P->hS);
    }
    if (!P->borrowed) {
        resol_sec_free(P->XM);
        if (P->hM.vals)
            resol_cmap_clear(&P->hM);
    }
    if (P->f.vals)
        resol_cmap_clear(&P->f);
    if (P->H.vals)
        resol_cmap_clear(&P->H);
    sq_free(P);
}

const resol_sec_t *resol_sec_prod_module(const resol_sec_prod_t *P)
{
    return P->XM;
}

const resol_sec_t *resol_sec_prod_unit(const resol_sec_prod_t *P)
{
    return P->XS;
}

/* Whether x (at (n0, s0) of XM) has d_2 x = 0; -1 when it is not known. */
static int survives(const resol_sec_t *XM, const resol_t *R, int32_t n0, int32_t s0, fvec_t x)
{
    if (resol_ext_dim(R, s0 + 2, n0 - 1) == 0)
        return 1;
    fmat_t m;
    if (resol_sec_d2(XM, s0, n0, &m) != 0)
        return -1;
    int ok = 1;
    for (int64_t j = 0; j < fmat_cols(&m); j++) {
        uint32_t c = 0;
        for (int64_t i = 0; i < fmat_rows(&m); i++)
            c ^= fvec_get(x, i) & fmat_get(&m, i, j);
        if (c)
            ok = 0;
    }
    fmat_clear(&m);
    return ok;
}

static int region_ok(const resol_t *R, int32_t n, int32_t s)
{
    return s <= R->max_s && n <= R->max_n;
}

/* resol_sec_prod_new, with the lifts of the sphere borrowed from base
 * when base is not NULL (then RM == RS == base->RS). */
static int prod_new(resol_sec_prod_t **out, const resol_t *RM, const resol_t *RS,
                    const resol_sec_prod_t *base, int32_t n0, int32_t s0, fvec_t x, int32_t max_n,
                    int32_t max_s, sq_pool_t *pool, resol_sec_progress_fn prog, void *pctx,
                    char *err, size_t errlen)
{
    *out = NULL;
    int64_t dim = resol_ext_dim(RM, s0, n0);
    int zero_ok = !base && x.len == 0; /* resol_sec_prod_new_zero */
    if (RM->p != 2 || RS->p != 2 || s0 < 0 || dim < 0 || (dim == 0 && !zero_ok) || x.len < dim) {
        snprintf(err, errlen, "the class is not a class of Ext at (%d, %d) at p = 2", (int)n0,
                 (int)s0);
        return SQ_E_INVAL;
    }
    if (!region_ok(RM, max_n, max_s) || !region_ok(RS, max_n - n0, max_s - s0 + 1) ||
        max_s - s0 < 1) {
        snprintf(err, errlen, "the region of the secondary product is not computed");
        return SQ_E_RANGE;
    }
    resol_sec_prod_t *X = sq_calloc(1, sizeof *X);
    X->RM = RM;
    X->RS = RS;
    X->n0 = n0;
    X->s0 = s0;
    X->t0 = n0 + s0;
    X->max_n = max_n;
    X->max_s = max_s;
    X->kmax = max_s - s0;
    X->shared = RS == RM;
    int32_t rows_m = RM->max_s - 2, rows_s = X->shared ? 0 : RS->max_s - 2;
    prog_t pr = {prog, pctx, 0, rows_m + rows_s + X->kmax - 1};
    int rc = 0;
    if (base) {
        X->borrowed = 1;
        X->XM = base->XS;
        X->hM = base->hS;
    } else
        rc = lift_kept(&X->XM, &X->hM, RM, pool, &pr, err, errlen);
    pr.base = rows_m;
    if (rc == 0 && !X->shared)
        rc = lift_kept(&X->XS, &X->hS, RS, pool, &pr, err, errlen);
    else if (rc == 0) {
        X->XS = X->XM;
        X->hS = X->hM;
    }
    if (rc != 0) {
        if (rc > 0)
            rc = SQ_E_RANGE;
        resol_sec_prod_free(X);
        return rc;
    }
    int sv = survives(X->XM, RM, n0, s0, x);
    if (sv != 1) {
        snprintf(err, errlen,
                 sv < 0 ? "d_2 of the class at (%d, %d) is not computed"
                        : "the class at (%d, %d) supports a nonzero d_2: it has no lift to "
                          "Mod_{C lambda^2}",
                 (int)n0, (int)s0);
        resol_sec_prod_free(X);
        return sv < 0 ? SQ_E_RANGE : SQ_E_INVAL;
    }
    /* H on the generators of F_{s0+k} of degree <= max_n + s0 + k - 1; f on
     * all of F_{s0+k} (through max_n + s0 + k): f_{k-2} is applied to
     * h^F_{s0+k}(g), which has generators of F_{s0+k-2} of its degree (its
     * d_2 coefficients) */
    int32_t emax = max_n + s0 + X->kmax;
    resol_qis_t Q;
    resol_qis_init(&Q, RS, X->kmax, 0, emax - X->t0);
    resol_cmap_init(&X->f, RM, RS, s0, X->t0, X->kmax);
    lift_class(X, &Q, x, emax);
    resol_cmap_init(&X->H, RM, RS, s0 + 1, X->t0 + 1, X->kmax - 1);
    int bad = Q.bad;
    pairalg_t *P = pairalg_new(RM->A);
    for (int32_t k = 2; k <= X->kmax && !bad; k++) {
        bad = lift_level(P, X, &Q, k, max_n + s0 + k - 1, pool);
        if (prog)
            prog(pctx, rows_m + rows_s + k - 1, pr.total);
    }
    pairalg_free(P);
    resol_qis_clear(&Q);
    if (bad) {
        snprintf(err, errlen, "secondary product: a lift failed (a bug: please report)");
        resol_sec_prod_free(X);
        return SQ_E_RANGE;
    }
    *out = X;
    return 0;
}

int resol_sec_prod_new(resol_sec_prod_t **out, const resol_t *RM, const resol_t *RS, int32_t n0,
                       int32_t s0, fvec_t x, int32_t max_n, int32_t max_s, sq_pool_t *pool,
                       resol_sec_progress_fn prog, void *pctx, char *err, size_t errlen)
{
    return prod_new(out, RM, RS, NULL, n0, s0, x, max_n, max_s, pool, prog, pctx, err, errlen);
}

int resol_sec_prod_new_zero(resol_sec_prod_t **out, const resol_t *RM, const resol_t *RS,
                            int32_t n0, int32_t s0, int32_t max_n, int32_t max_s, sq_pool_t *pool,
                            resol_sec_progress_fn prog, void *pctx, char *err, size_t errlen)
{
    fvec_t none = {0};
    if (resol_ext_dim(RM, s0, n0) != 0) {
        snprintf(err, errlen, "Ext at (%d, %d) is not zero", (int)n0, (int)s0);
        return SQ_E_INVAL;
    }
    return prod_new(out, RM, RS, NULL, n0, s0, none, max_n, max_s, pool, prog, pctx, err,
                    errlen);
}

int resol_sec_prod_new_on(resol_sec_prod_t **out, const resol_sec_prod_t *base, int32_t n0,
                          int32_t s0, fvec_t x, int32_t max_n, int32_t max_s, sq_pool_t *pool,
                          char *err, size_t errlen)
{
    return prod_new(out, base->RS, base->RS, base, n0, s0, x, max_n, max_s, pool, NULL, NULL, err,
                    errlen);
}

/* ---- Reading products off ------------------------------------------------------------ */

/* The coefficient of generator i of R's F_s in degree t in w (over F_s in
 * degree t): 0 or 1. */
static uint32_t gen_coef(const resol_t *R, int32_t s, int32_t t, int64_t i, fvec_t w)
{
    int64_t off = fmod_block_offset(R->F[s], t, t, i);
    return off < w.len ? fvec_get(w, off) : 0;
}


/* lambda reduced modulo the image of d_2 from (n + 1, s - 2) of M. */
static int reduce_d2(const resol_sec_prod_t *X, int32_t n, int32_t s, fvec_t lambda)
{
    if (s < 2 || resol_ext_dim(X->RM, s - 2, n + 1) == 0 || lambda.len == 0)
        return 0;
    fmat_t m;
    if (resol_sec_d2(X->XM, s - 2, n + 1, &m) != 0)
        return SQ_E_RANGE;
    int64_t r = fmat_rref(&m, NULL);
    resol_sec_reduce_by(lambda, &m, r);
    fmat_clear(&m);
    return 0;
}

int resol_sec_prod_eval_raw(const resol_sec_prod_t *X, int32_t n, int32_t s, fvec_t y,
                            fvec_t ext, fvec_t lambda)
{
    const resol_t *F = X->RM, *G = X->RS;
    if (s < 0 || s > X->max_s - X->s0 - 1 || n > X->max_n - X->n0 - 1 || n < G->min_n)
        return SQ_E_RANGE;
    int32_t t = n + s, te = t + X->t0, se = s + X->s0;
    int64_t ny = resol_ext_dim(G, s, n), ne = resol_ext_dim(F, se, n + X->n0);
    int64_t nl = resol_ext_dim(F, se + 1, n + X->n0);
    if (ny < 0 || ne < 0 || nl < 0 || y.len < ny || ext.len < ne || lambda.len < nl)
        return SQ_E_RANGE;
    fvec_zero(fvec_window(ext, 0, ne));
    fvec_zero(fvec_window(lambda, 0, nl));
    uint32_t sign = (X->s0 * t) % 2 ? 3 : 1;
    /* the Ext part over Z/4: its carries times h_0 go to lambda */
    fvec_t carry;
    fvec_init(&carry, ne, 2);
    for (int64_t j = 0; j < ne; j++) {
        fvec_t w = X->f.vals[s][fmod_gen_global(F->F[se], te, j)];
        uint32_t c = 0;
        for (int64_t i = 0; i < ny; i++)
            c += fvec_get(y, i) & gen_coef(G, s, t, i, w);
        c = (c * sign) & 3;
        fvec_set(ext, j, c & 1);
        fvec_set(carry, j, c >> 1);
    }
    for (int64_t l = 0; l < nl; l++) {
        fvec_t w = X->H.vals[s][fmod_gen_global(F->F[se + 1], te + 1, l)];
        uint32_t c = 0;
        for (int64_t i = 0; i < ny; i++)
            c ^= fvec_get(y, i) & gen_coef(G, s, t, i, w);
        fvec_set(lambda, l, c);
    }
    int rc = 0;
    if (nl > 0 && ne > 0 && !fvec_is_zero(carry)) {
        fmat_t h0;
        rc = resol_filt1_matrix(F, 0, se, te, &h0);
        for (int64_t l = 0; rc == 0 && l < nl; l++) {
            uint32_t c = 0;
            for (int64_t j = 0; j < ne; j++)
                c ^= fmat_get(&h0, l, j) & fvec_get(carry, j);
            fvec_add_entry(lambda, l, c);
        }
        if (rc == 0)
            fmat_clear(&h0);
    }
    fvec_clear(&carry);
    return rc;
}

int resol_sec_prod_eval(const resol_sec_prod_t *X, int32_t n, int32_t s, fvec_t y, fvec_t ext,
                        fvec_t lambda)
{
    int rc = resol_sec_prod_eval_raw(X, n, s, y, ext, lambda);
    if (rc == 0) {
        int64_t nl = resol_ext_dim(X->RM, s + X->s0 + 1, n + X->n0);
        rc = reduce_d2(X, n + X->n0, s + X->s0 + 1, fvec_window(lambda, 0, nl));
    }
    return rc;
}

/* ---- For the secondary Massey products (resol_secondary_prod_internal.h) ---------- */

const resol_cmap_t *resol_sec_prod_f(const resol_sec_prod_t *P)
{
    return &P->f;
}

const resol_cmap_t *resol_sec_prod_H(const resol_sec_prod_t *P)
{
    return &P->H;
}

const resol_cmap_t *resol_sec_prod_hM(const resol_sec_prod_t *P)
{
    return &P->hM;
}

const resol_cmap_t *resol_sec_prod_hS(const resol_sec_prod_t *P)
{
    return &P->hS;
}

void resol_sec_compose_add(const pairalg_t *P, const fmod_t *X, int32_t e, fvec_t u,
                           resol_sec_val_fn val, const void *vctx, int32_t shift, const fmod_t *Y,
                           pair_elt_t *acc)
{
    compose_add(P, X, e, u, val, vctx, shift, Y, acc);
}

fvec_t resol_sec_cmap_val(const void *ctx, int64_t g)
{
    return cval(ctx, g);
}

fvec_t resol_sec_dval(const void *ctx, int64_t g)
{
    const resol_sec_dval_t *d = ctx;
    return resol_dgen(d->R, d->s, g);
}

int resol_sec_comp_finish(resol_sec_comp_t *c, pair_elt_t *acc, int64_t n)
{
    return comp_finish(c, acc, n);
}

void resol_sec_comps_clear(resol_sec_comp_t *c, int64_t n)
{
    comps_clear(c, n);
}

void resol_sec_act_add(const pairalg_t *P, const fmod_t *X, int32_t e, fvec_t u,
                       const resol_sec_comp_t *comps, int64_t ncomp, int32_t shift,
                       const fmod_t *T, fvec_t out)
{
    act_add(P, X, e, u, comps, ncomp, shift, T, out);
}

int resol_sec_prod_map_comps(const pairalg_t *A, const resol_sec_prod_t *P, int32_t j,
                             int64_t n, resol_sec_comp_t *c, sq_pool_t *pool)
{
    level_t L = {A, P, j + 1, c, NULL, n, 0, NULL, 0};
    sq_pool_parallel_for(pool, n, map_comp_one, &L);
    return atomic_load(&L.bad);
}

int resol_sec_prod_unit_comps(const pairalg_t *A, const resol_sec_prod_t *P, int32_t k,
                              int64_t n, resol_sec_comp_t *c, sq_pool_t *pool)
{
    level_t L = {A, P, k, NULL, c, 0, n, NULL, 0};
    sq_pool_parallel_for(pool, n, unit_comp_one, &L);
    return atomic_load(&L.bad);
}

int64_t resol_sec_gens_through(const fmod_t *F, int32_t e)
{
    return gens_through(F, e);
}
