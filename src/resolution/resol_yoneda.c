/*
 * resol_yoneda.c -- a Yoneda representative of a class of Ext(M, F_p) as an
 * exact sequence of finite modules (resol_yoneda.h).
 */
#include "resol_yoneda.h"

#include <stdio.h>
#include <string.h>

#include "fhom.h"
#include "fmod.h"
#include "sq_core.h"
#include "stalg.h"

struct resol_yoneda {
    int32_t s, t, T;
    const fdmod_t *M;
    fdmod_t **E; /* E[0..s-1], E[s] = F_p[t] */
    fdmap_t **f; /* f[i] : term i -> term i - 1 */
};

/* The quotient of V_e = (F_{s-1})_e (+ F_p when e = t, the last column) by
 * the image W_e of (F_s)_e in one degree: W_e in canonical RREF, its pivots,
 * and the free (non-pivot) columns, the basis of the quotient. */
typedef struct {
    int64_t cols, rows, nfree;
    fmat_t m;
    int64_t *piv, *free;
} quot_t;

/* The data of one construction. */
typedef struct {
    const resol_t *R;
    const stalg_t *S;
    uint32_t p;
    int32_t s, t, T, lo; /* lo: the bottom of F_{s-1} */
    fvec_t x;
    quot_t *q; /* [e - lo], e = lo .. T */
    int32_t gdeg[32];
    int64_t gidx[32];
    int ngens;
    struct sub **red; /* [i][e - lo_i]: the killed subspace R_i(e), 0 <= i < s */
} build_t;

/* A subspace R of a space of dimension dim (the part of a term killed in
 * one degree), in canonical RREF: its rank, pivots and free columns (the
 * basis of the quotient). */
typedef struct sub {
    int64_t dim, rank, nfree;
    fmat_t m; /* dim x dim once something is added */
    int64_t *piv, *freec;
} sub_t;

/* A read-only encoding of v for fhom (limbs at p = 2, bytes at odd p). */
static const void *enc(fvec_t v)
{
    return v.p == 2 ? (const void *)v.limbs : (const void *)v.bytes;
}

static void *enc_mut(fvec_t v)
{
    return v.p == 2 ? (void *)v.limbs : (void *)v.bytes;
}

/* out += g * (basis element j of F in degree e), g the algebra generator
 * (gd, gi); out over F in degree e + gd. */
static void act_free(const fmod_t *F, const stalg_t *S, int32_t gd, int64_t gi, int32_t e,
                     int64_t j, fvec_t out)
{
    for (int64_t g = 0; g < fmod_total_gens(F); g++) {
        int32_t eg = fmod_gen_degree(F, g);
        if (eg > e)
            break;
        int64_t ig = g - fmod_gen_global(F, eg, 0);
        int64_t off = fmod_block_offset(F, e, eg, ig), len = stalg_dim(S, e - eg);
        if (j >= off && j < off + len) {
            stalg_mul_add(S, out, fmod_block_offset(F, e + gd, eg, ig), 1, gd, gi, e - eg,
                          j - off);
            return;
        }
    }
}

/* ---- The pushout P = E_{s-1} ------------------------------------------------- */

static void quot_build(build_t *b, quot_t *q, int32_t e)
{
    const resol_t *R = b->R;
    const fmod_t *Fs = resol_free_module(R, b->s);
    int64_t dimF = fmod_dim(resol_free_module(R, b->s - 1), e);
    q->cols = dimF + (e == b->t);
    q->rows = fmod_dim(Fs, e);
    q->piv = sq_malloc(((size_t)q->cols + 1) * sizeof *q->piv);
    for (int64_t c = 0; c < q->cols; c++)
        q->piv[c] = -1;
    if (q->rows > 0 && q->cols > 0) {
        fmat_init(&q->m, q->rows, q->cols, b->p);
        fhom_build_rows_fm(resol_differential(R, b->s), &q->m, 0, e, e + 1, NULL, 0, NULL);
        if (e == b->t)
            for (int64_t i = 0; i < fmod_num_gens(Fs, e); i++) {
                uint32_t xi = fvec_get(b->x, i);
                if (xi)
                    fmat_set(&q->m, fmod_block_offset(Fs, e, e, i), q->cols - 1, b->p - xi);
            }
        fmat_rref(&q->m, q->piv);
    }
    q->free = sq_malloc(((size_t)q->cols + 1) * sizeof *q->free);
    q->nfree = 0;
    for (int64_t c = 0; c < q->cols; c++)
        if (q->piv[c] < 0)
            q->free[q->nfree++] = c;
}

static void quot_clear(quot_t *q)
{
    if (q->rows > 0 && q->cols > 0)
        fmat_clear(&q->m);
    sq_free(q->piv);
    sq_free(q->free);
}

/* The coordinates in P_e of v (over V_e; v is reduced in place) into out
 * (q->nfree entries). */
static void quot_coords(const quot_t *q, fvec_t v, fvec_t out)
{
    for (int64_t c = 0; c < q->cols; c++) {
        uint32_t a = q->piv[c] >= 0 ? fvec_get(v, c) : 0;
        if (a)
            fvec_addmul(v, fmat_row(&q->m, q->piv[c]), v.p - a);
    }
    for (int64_t j = 0; j < q->nfree; j++)
        fvec_set(out, j, fvec_get(v, q->free[j]));
}

static const quot_t *quot_at(const build_t *b, int32_t e)
{
    return &b->q[e - b->lo];
}

/* ---- The modules ---------------------------------------------------------------- */

/* The dimension of term i (0 <= i < s) in degree e, before the reduction. */
static int64_t raw_dim(const build_t *b, int32_t i, int32_t e)
{
    if (e < b->lo - (b->s - 1 - i) || e > b->T)
        return 0;
    if (i == b->s - 1)
        return quot_at(b, e)->nfree;
    return fmod_dim(resol_free_module(b->R, i), e);
}

/* out = g * (basis element j of term i in degree e), out over term i in
 * degree e + gd (zeroed first), before the reduction. */
static void raw_act(const build_t *b, int32_t i, int32_t gd, int64_t gi, int32_t e, int64_t j,
                    fvec_t out)
{
    const fmod_t *F = resol_free_module(b->R, i);
    fvec_zero(out);
    if (i < b->s - 1) {
        act_free(F, b->S, gd, gi, e, j, out);
        return;
    }
    const quot_t *q = quot_at(b, e), *q2 = quot_at(b, e + gd);
    int64_t c = q->free[j];
    if (c >= fmod_dim(F, e))
        return; /* the class of F_p[t]: the algebra acts by zero */
    fvec_t v;
    fvec_init(&v, q2->cols, b->p);
    act_free(F, b->S, gd, gi, e, c, v);
    quot_coords(q2, v, out);
    fvec_clear(&v);
}

/* out = the image of basis element j of term i (0 <= i < s) in degree e
 * under the map into term i - 1 (M for i = 0), before the reduction (out
 * over that term in degree e, zeroed first). */
static void raw_map(const build_t *b, int32_t i, int32_t e, int64_t j, fvec_t out)
{
    fvec_zero(out);
    int64_t c = i == b->s - 1 ? quot_at(b, e)->free[j] : j;
    const fmod_t *F = resol_free_module(b->R, i);
    if (c >= fmod_dim(F, e))
        return; /* F_p[t] lies in the kernel */
    fvec_t u;
    fvec_init(&u, fmod_dim(F, e), b->p);
    fvec_set(u, c, 1);
    fhom_apply_add_enc(resol_differential(b->R, i), enc_mut(out), e, e + 1, enc(u));
    fvec_clear(&u);
}

/* ---- The reduction ------------------------------------------------------------------ */

static void sub_init(sub_t *r, int64_t dim)
{
    memset(r, 0, sizeof *r);
    r->dim = dim;
    r->nfree = dim;
    r->piv = sq_malloc(((size_t)dim + 1) * sizeof *r->piv);
    r->freec = sq_malloc(((size_t)dim + 1) * sizeof *r->freec);
    for (int64_t c = 0; c < dim; c++) {
        r->piv[c] = -1;
        r->freec[c] = c;
    }
}

static void sub_clear(sub_t *r)
{
    fmat_clear(&r->m);
    sq_free(r->piv);
    sq_free(r->freec);
}

/* v less its part in R (v over the whole space; reduced in place). */
static void sub_reduce(const sub_t *r, fvec_t v)
{
    for (int64_t c = 0; r->rank && c < r->dim; c++) {
        uint32_t a = r->piv[c] >= 0 ? fvec_get(v, c) : 0;
        if (a)
            fvec_addmul(v, fmat_row(&r->m, r->piv[c]), v.p - a);
    }
}

/* R += span of the n rows of vs (each over the whole space, independent
 * modulo R: kill_pairs's are, so rank + n <= dim, SQ_CHECK). */
static void sub_add(sub_t *r, const fmat_t *vs, int64_t n)
{
    if (n == 0)
        return;
    SQ_CHECK(r->rank + n <= r->dim, "yoneda: %lld + %lld vectors in dimension %lld",
             (long long)r->rank, (long long)n, (long long)r->dim);
    if (!fmat_prime(&r->m))
        fmat_init(&r->m, r->dim, r->dim, fmat_prime(vs));
    for (int64_t k = 0; k < n; k++) {
        fvec_t row = fmat_row(&r->m, r->rank + k);
        fvec_zero(row);
        fvec_addmul(row, fmat_row(vs, k), 1);
    }
    r->rank = fmat_rref(&r->m, r->piv);
    r->nfree = 0;
    for (int64_t c = 0; c < r->dim; c++)
        if (r->piv[c] < 0)
            r->freec[r->nfree++] = c;
}

static sub_t *red_at(const build_t *b, int32_t i, int32_t e)
{
    return &b->red[i][e - (b->lo - (b->s - 1 - i))];
}

/* The dimension of term i in degree e after the reduction (M's for i = -1). */
static int64_t term_dim(const build_t *b, int32_t i, int32_t e)
{
    if (i < 0)
        return fdmod_dim(resol_input(b->R), e);
    if (e < b->lo - (b->s - 1 - i) || e > b->T)
        return 0;
    return red_at(b, i, e)->nfree;
}

/* The coordinates after the reduction of v (before it, over term i in
 * degree e; reduced in place) into out (term_dim entries). */
static void red_coords(const build_t *b, int32_t i, int32_t e, fvec_t v, fvec_t out)
{
    if (i < 0) {
        fvec_zero(out);
        fvec_addmul(out, v, 1);
        return;
    }
    const sub_t *r = red_at(b, i, e);
    sub_reduce(r, v);
    for (int64_t j = 0; j < r->nfree; j++)
        fvec_set(out, j, fvec_get(v, r->freec[j]));
}

/* The vector before the reduction of coordinates x after it (term i,
 * degree e) into v (raw_dim entries, zeroed first). */
static void red_lift(const build_t *b, int32_t i, int32_t e, fvec_t x, fvec_t v)
{
    fvec_zero(v);
    if (i < 0) {
        fvec_addmul(v, x, 1);
        return;
    }
    const sub_t *r = red_at(b, i, e);
    for (int64_t j = 0; j < r->nfree; j++)
        fvec_set(v, r->freec[j], fvec_get(x, j));
}

static int64_t any_dim(const build_t *b, int32_t i, int32_t e)
{
    return i < 0 ? fdmod_dim(resol_input(b->R), e) : raw_dim(b, i, e);
}

/* out = g * (basis element j of term i in degree e) after the reduction. */
static void term_act(const build_t *b, int32_t i, int32_t gd, int64_t gi, int32_t e, int64_t j,
                     fvec_t out)
{
    fvec_t v;
    fvec_init(&v, raw_dim(b, i, e + gd), b->p);
    raw_act(b, i, gd, gi, e, red_at(b, i, e)->freec[j], v);
    red_coords(b, i, e + gd, v, out);
    fvec_clear(&v);
}

/* out = the map out of term i on its basis element j in degree e, after
 * the reduction (over term i - 1). */
static void term_map(const build_t *b, int32_t i, int32_t e, int64_t j, fvec_t out)
{
    fvec_t v;
    fvec_init(&v, any_dim(b, i - 1, e), b->p);
    raw_map(b, i, e, red_at(b, i, e)->freec[j], v);
    red_coords(b, i - 1, e, v, out);
    fvec_clear(&v);
}

/* Kills in term i (1 <= i < s), degree e, what the algebra sends into the
 * killed part above and the map does not send to zero, with its image in
 * term i - 1: the two-term complex span(z) -> span(d z) is an exact
 * subcomplex of A-submodules (A^+ z lies in the killed part above, so does
 * A^+ d z = d(A^+ z)), away from F_p[t] (d is injective on span(z)) and M
 * (i >= 1); the quotient is exact with the same ends, the same class.
 * One matrix [actions | d | I] over the basis after the reduction, in
 * canonical RREF: its rows with a pivot in the d part are the z, with
 * d z beside them. */
static void kill_pairs(build_t *b, int32_t i, int32_t e)
{
    int64_t m = term_dim(b, i, e), nd = term_dim(b, i - 1, e), na = 0;
    if (m == 0 || nd == 0)
        return;
    for (int k = 0; k < b->ngens; k++)
        if (e + b->gdeg[k] <= b->T)
            na += term_dim(b, i, e + b->gdeg[k]);
    fmat_t w;
    fmat_init(&w, m, na + nd + m, b->p);
    for (int64_t j = 0; j < m; j++) {
        fvec_t row = fmat_row(&w, j);
        int64_t off = 0;
        for (int k = 0; k < b->ngens; k++) {
            int32_t gd = b->gdeg[k];
            if (e + gd > b->T)
                continue;
            int64_t n2 = term_dim(b, i, e + gd);
            fvec_t out;
            fvec_init(&out, n2 ? n2 : 1, b->p);
            if (n2)
                term_act(b, i, gd, b->gidx[k], e, j, out);
            for (int64_t c = 0; c < n2; c++)
                fvec_set(row, off + c, fvec_get(out, c));
            fvec_clear(&out);
            off += n2;
        }
        fvec_t out;
        fvec_init(&out, nd, b->p);
        term_map(b, i, e, j, out);
        for (int64_t c = 0; c < nd; c++)
            fvec_set(row, na + c, fvec_get(out, c));
        fvec_clear(&out);
        fvec_set(row, na + nd + j, 1);
    }
    int64_t *piv = sq_malloc(((size_t)(na + nd + m) + 1) * sizeof *piv);
    (void)fmat_rref(&w, piv);
    fmat_t z, dz;
    fmat_init(&z, m, raw_dim(b, i, e), b->p);
    fmat_init(&dz, m, raw_dim(b, i - 1, e), b->p);
    int64_t n = 0;
    fvec_t x, y;
    fvec_init(&x, m, b->p);
    fvec_init(&y, nd, b->p);
    for (int64_t c = na; c < na + nd; c++) {
        if (piv[c] < 0)
            continue;
        fvec_t row = fmat_row(&w, piv[c]);
        for (int64_t j = 0; j < m; j++)
            fvec_set(x, j, fvec_get(row, na + nd + j));
        for (int64_t j = 0; j < nd; j++)
            fvec_set(y, j, fvec_get(row, na + j));
        red_lift(b, i, e, x, fmat_row(&z, n));
        red_lift(b, i - 1, e, y, fmat_row(&dz, n));
        n++;
    }
    sub_add(red_at(b, i, e), &z, n);
    sub_add(red_at(b, i - 1, e), &dz, n);
    fvec_clear(&x);
    fvec_clear(&y);
    fmat_clear(&z);
    fmat_clear(&dz);
    fmat_clear(&w);
    sq_free(piv);
}

/* The reduction: degree by degree from the top, term by term from s - 1
 * down to 1, kill_pairs. */
static void reduce(build_t *b)
{
    b->red = sq_calloc((size_t)b->s, sizeof *b->red);
    for (int32_t i = 0; i < b->s; i++) {
        int32_t lo = b->lo - (b->s - 1 - i);
        b->red[i] = sq_calloc((size_t)(b->T - lo + 1), sizeof *b->red[i]);
        for (int32_t e = lo; e <= b->T; e++)
            sub_init(&b->red[i][e - lo], raw_dim(b, i, e));
    }
    for (int32_t e = b->T; e >= b->lo - (b->s - 1); e--)
        for (int32_t i = b->s - 1; i >= 1; i--)
            if (e >= b->lo - (b->s - 1 - i))
                kill_pairs(b, i, e);
}

static void reduce_clear(build_t *b)
{
    for (int32_t i = 0; b->red && i < b->s; i++) {
        int32_t lo = b->lo - (b->s - 1 - i);
        for (int32_t e = lo; e <= b->T; e++)
            sub_clear(&b->red[i][e - lo]);
        sq_free(b->red[i]);
    }
    sq_free(b->red);
}

/* ---- The modules and maps after the reduction ----------------------------------- */

/* Builds term i (0 <= i < s) and completes it.  Returns it, or NULL with
 * the error in err. */
static fdmod_t *term_build(const build_t *b, int32_t i, char *err, size_t errlen)
{
    int32_t lo = b->lo - (b->s - 1 - i);
    char name[32];
    snprintf(name, sizeof name, "E%d", (int)i);
    fdmod_t *E = fdmod_new_p(name, b->p, lo, b->T);
    for (int32_t e = lo; e <= b->T; e++)
        for (int64_t j = 0; j < term_dim(b, i, e); j++)
            (void)fdmod_add_basis(E, e, NULL);
    for (int k = 0; k < b->ngens; k++) {
        int32_t gd = b->gdeg[k];
        for (int32_t e = lo; e + gd <= b->T; e++) {
            int64_t n = term_dim(b, i, e), n2 = term_dim(b, i, e + gd);
            if (n == 0 || n2 == 0)
                continue;
            fvec_t out;
            fvec_init(&out, n2, b->p);
            for (int64_t j = 0; j < n; j++) {
                term_act(b, i, gd, b->gidx[k], e, j, out);
                if (!fvec_is_zero(out))
                    fdmod_set_genf(E, b->S, gd, e, j, out);
            }
            fvec_clear(&out);
        }
    }
    if (fdmod_complete_alg(E, b->S, err, errlen) != 0) {
        fdmod_free(E);
        return NULL;
    }
    return E;
}

/* The map out of term i (0 <= i < s) into term i - 1 (M for i = 0). */
static fdmap_t *map_build(const build_t *b, const fdmod_t *src, const fdmod_t *tgt, int32_t i)
{
    fdmap_t *f = fdmap_new(src, tgt, 0);
    for (int32_t e = fdmod_bottom(src); e <= fdmod_top(src); e++) {
        int64_t nt = fdmod_dim(tgt, e), ns = fdmod_dim(src, e);
        if (nt == 0)
            continue;
        fvec_t out;
        fvec_init(&out, nt, b->p);
        for (int64_t j = 0; j < ns; j++) {
            term_map(b, i, e, j, out);
            if (!fvec_is_zero(out))
                fdmap_set(f, e, j, out);
        }
        fvec_clear(&out);
    }
    return f;
}

/* F_p[t] -> P: its basis element to the class of (0, 1). */
static fdmap_t *map_bottom(const build_t *b, const fdmod_t *K, const fdmod_t *P)
{
    fdmap_t *f = fdmap_new(K, P, 0);
    const quot_t *q = quot_at(b, b->t);
    fvec_t v, w, out;
    fvec_init(&v, q->cols, b->p);
    fvec_init(&w, q->nfree, b->p);
    fvec_init(&out, term_dim(b, b->s - 1, b->t), b->p);
    fvec_set(v, q->cols - 1, 1);
    quot_coords(q, v, w);
    red_coords(b, b->s - 1, b->t, w, out);
    fdmap_set(f, b->t, 0, out);
    fvec_clear(&v);
    fvec_clear(&w);
    fvec_clear(&out);
    return f;
}

/* ---- The check ---------------------------------------------------------------------- */

static int64_t rank_of(const fmat_t *m)
{
    return fmat_rows(m) && fmat_cols(m) ? fmat_rank(m) : 0;
}

/* Whether the sequence is exact in degree e: each composite zero and each
 * term's dimension the sum of the ranks of the maps into and out of it. */
static int exact_at(const resol_yoneda_t *Y, int32_t e)
{
    int ok = 1;
    int64_t rank_out = 0; /* rank of the map out of term i - 1 (f[i - 1]) */
    fmat_t prev;          /* f[i - 1] in degree e */
    memset(&prev, 0, sizeof prev);
    for (int32_t i = 0; i <= Y->s + 1; i++) {
        fmat_t m; /* f[i] : term i -> term i - 1; none past s */
        int64_t rank_in = 0;
        memset(&m, 0, sizeof m);
        if (i <= Y->s) {
            fdmap_matrix(Y->f[i], e, &m);
            rank_in = rank_of(&m);
            if (i > 0 && fmat_rows(&m) && fmat_cols(&m) && fmat_cols(&prev)) {
                fmat_t c;
                fmat_mul_naive(&c, &m, &prev);
                ok = ok && rank_of(&c) == 0;
                fmat_clear(&c);
            }
        }
        ok = ok && fdmod_dim(resol_yoneda_module(Y, i - 1), e) == rank_in + rank_out;
        rank_out = rank_in;
        if (i > 0)
            fmat_clear(&prev);
        prev = m;
    }
    return ok;
}

/* Whether Y is exact in every degree, its modules' axioms hold (checked by
 * the completion) and its maps are A-linear. */
static int check(const resol_yoneda_t *Y, const stalg_t *S, char *err, size_t errlen)
{
    for (int32_t i = 0; i <= Y->s; i++)
        if (fdmap_check_linear(Y->f[i], S, err, errlen) != 0)
            return SQ_E_RANGE;
    for (int32_t e = fdmod_bottom(Y->M); e <= Y->T; e++)
        if (!exact_at(Y, e)) {
            snprintf(err, errlen, "yoneda: the representative is not exact in degree %d (a bug: "
                     "please report)", (int)e);
            return SQ_E_RANGE;
        }
    return 0;
}

/* ---- The whole ---------------------------------------------------------------------- */

int32_t resol_yoneda_top(const fdmod_t *M, int32_t t)
{
    return t > fdmod_top(M) ? t : fdmod_top(M);
}

int resol_yoneda_fits(const fdmod_t *M, int32_t t, char *err, size_t errlen)
{
    int32_t D = resol_yoneda_top(M, t) - fdmod_bottom(M);
    if (D > 512)
        D = 512;
    if (D < 0)
        return 1;
    stalg_t *S = stalg_new(fdmod_prime(M), D, NULL);
    int64_t cells = 0;
    for (int32_t d = 0; d <= D && cells <= RESOL_YONEDA_MAX_CELLS; d++)
        cells += stalg_dim(S, d);
    stalg_free(S);
    if (cells <= RESOL_YONEDA_MAX_CELLS)
        return 1;
    snprintf(err, errlen, "yoneda: a class of internal degree %d of %s needs a term E_0 of more "
             "than %d cells (the algebra through degree %d on the bottom cell): choose a class "
             "of lower degree", (int)t, fdmod_name(M), RESOL_YONEDA_MAX_CELLS, (int)D);
    return 0;
}

/* The inputs: 0, or an error code with one line in err. */
static int check_inputs(const resol_t *R, int32_t s, int32_t n, fvec_t x, char *err,
                        size_t errlen)
{
    const fdmod_t *M = resol_input(R);
    int32_t t = n + s, T = resol_yoneda_top(M, t);
    int32_t h[MILNOR_MAX_LEN];
    if (s < 1) {
        snprintf(err, errlen, "yoneda: s = %d: a class of Ext^0 is a module map, not an "
                 "extension (s >= 1)", (int)s);
        return SQ_E_INVAL;
    }
    if ((fdmod_prime(M) == 2 && fdmod_profile(M, h) > 0) ||
        (fdmod_prime(M) != 2 && !pmilnor_profile_is_full(fdmod_pprofile(M)))) {
        snprintf(err, errlen, "yoneda: %s is a module over a subalgebra (a profile)",
                 fdmod_name(M));
        return SQ_E_INVAL;
    }
    if (s > resol_max_s(R))
        goto range;
    for (int32_t i = 0; i <= s; i++)
        if (fmod_gens_through(resol_free_module(R, i)) < T)
            goto range;
    int64_t dim = fmod_num_gens(resol_free_module(R, s), t);
    if (x.p != fdmod_prime(M) || x.len != dim || fvec_is_zero(x)) {
        snprintf(err, errlen, "yoneda: the class must be a nonzero vector of %lld entries at "
                 "p = %u", (long long)dim, fdmod_prime(M));
        return SQ_E_INVAL;
    }
    return 0;
range:
    snprintf(err, errlen, "yoneda: the resolution of %s is not computed through filtration %d "
             "and degree %d", fdmod_name(M), (int)s, (int)T);
    return SQ_E_RANGE;
}

/* Whether each term fits RESOL_YONEDA_MAX_CELLS (the pushout's bound: F_{s-1}'s
 * dimension plus one). */
static int fits(const build_t *b, char *err, size_t errlen)
{
    for (int32_t i = 0; i < b->s; i++) {
        int64_t cells = i == b->s - 1;
        for (int32_t e = b->lo - (b->s - 1 - i); e <= b->T; e++)
            cells += fmod_dim(resol_free_module(b->R, i), e);
        if (cells > RESOL_YONEDA_MAX_CELLS) {
            snprintf(err, errlen, "yoneda: the term E_%d would have up to %lld cells (at most "
                     "%d): choose a class of lower degree", (int)i, (long long)cells,
                     RESOL_YONEDA_MAX_CELLS);
            return 0;
        }
    }
    return 1;
}

int resol_yoneda_new(resol_yoneda_t **out, const resol_t *R, int32_t s, int32_t n, fvec_t x,
                     char *err, size_t errlen)
{
    *out = NULL;
    int rc = check_inputs(R, s, n, x, err, errlen);
    if (rc)
        return rc;
    build_t b;
    memset(&b, 0, sizeof b);
    b.R = R;
    b.S = resol_stalg(R);
    b.p = resol_prime(R);
    b.s = s;
    b.t = n + s;
    b.x = x;
    const fdmod_t *M = resol_input(R);
    b.T = resol_yoneda_top(M, b.t);
    b.lo = fdmod_bottom(M) + s - 1;
    if (!fits(&b, err, errlen))
        return SQ_E_NOMEM;
    b.ngens = stalg_gens(b.S, b.T - fdmod_bottom(M), b.gdeg, b.gidx, 32);
    if (b.ngens > 32)
        b.ngens = 32;
    b.q = sq_calloc((size_t)(b.T - b.lo + 1), sizeof *b.q);
    for (int32_t e = b.lo; e <= b.T; e++)
        quot_build(&b, &b.q[e - b.lo], e);
    reduce(&b);
    resol_yoneda_t *Y = sq_calloc(1, sizeof *Y);
    Y->s = s;
    Y->t = b.t;
    Y->T = b.T;
    Y->M = M;
    Y->E = sq_calloc((size_t)s + 1, sizeof *Y->E);
    Y->f = sq_calloc((size_t)s + 1, sizeof *Y->f);
    for (int32_t i = 0; i < s && rc == 0; i++) {
        Y->E[i] = term_build(&b, i, err, errlen);
        if (!Y->E[i])
            rc = SQ_E_RANGE;
    }
    if (rc == 0) {
        char name[48];
        snprintf(name, sizeof name, "S_%u[%d]", b.p, (int)b.t);
        fdmod_t *K = fdmod_sphere_p(b.p);
        Y->E[s] = fdmod_new_shifted(K, b.t, name);
        fdmod_free(K);
        for (int32_t i = 0; i < s; i++)
            Y->f[i] = map_build(&b, Y->E[i], resol_yoneda_module(Y, i - 1), i);
        Y->f[s] = map_bottom(&b, Y->E[s], Y->E[s - 1]);
        rc = check(Y, b.S, err, errlen);
    }
    reduce_clear(&b);
    for (int32_t e = b.lo; e <= b.T; e++)
        quot_clear(&b.q[e - b.lo]);
    sq_free(b.q);
    if (rc) {
        resol_yoneda_free(Y);
        return rc;
    }
    *out = Y;
    return 0;
}

void resol_yoneda_free(resol_yoneda_t *Y)
{
    if (!Y)
        return;
    for (int32_t i = 0; i <= Y->s; i++) {
        fdmap_free(Y->f[i]);
        fdmod_free(Y->E[i]);
    }
    sq_free(Y->f);
    sq_free(Y->E);
    sq_free(Y);
}

int32_t resol_yoneda_length(const resol_yoneda_t *Y)
{
    return Y->s;
}

const fdmod_t *resol_yoneda_module(const resol_yoneda_t *Y, int32_t i)
{
    return i < 0 ? Y->M : Y->E[i];
}

const fdmap_t *resol_yoneda_map(const resol_yoneda_t *Y, int32_t i)
{
    return Y->f[i];
}
