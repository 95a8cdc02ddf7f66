/*
 * pfhom.c -- homomorphisms out of free modules at odd primes (see pfhom.h).
 *
 * Building the matrix of d in degree t is the multiply-heavy part of every
 * step.  For each source generator g of degree e, the image d(g) is cut
 * once into its nonzero terms c * (a', h) (a' a basis element of A_{e -
 * deg h}, unpacked; h a target generator, its block offset in degree t
 * computed once); then the row of every basis element (a, g), a of degree
 * t - e, is the sum over the terms of c * (a a') placed at h's offset.
 */
#include "pfhom.h"

#include <string.h>

#include "sq_core.h"

/*
 * Images are stored per source degree: img[e - min][i] is d of generator i
 * of degree e.  The slot array of a degree is allocated by the step that
 * creates those generators (the only writer of that degree); readers only
 * look at degrees whose steps are done.
 */
struct pfhom {
    const pfmod_t *src;
    const pfmod_t *tgt;     /* NULL when the target is M */
    const pfdmod_t *M;
    const pmilnor_t *A;
    uint32_t p;
    int32_t min_deg, span;
    uint8_t ***img;
    pmilnor_cache_t *cache; /* products, or NULL */
};

static pfhom_t *pfhom_alloc(const pfmod_t *src)
{
    pfhom_t *d = sq_calloc(1, sizeof *d);
    d->src = src;
    d->A = pfmod_algebra(src);
    d->p = pmilnor_prime(d->A);
    d->min_deg = pfmod_min_degree(src);
    d->span = pfmod_max_degree(src) - d->min_deg + 1;
    d->img = sq_calloc((size_t)d->span + 1, sizeof *d->img);
    return d;
}

pfhom_t *pfhom_new_free(const pfmod_t *src, const pfmod_t *tgt)
{
    SQ_CHECK(pfmod_algebra(src) == pfmod_algebra(tgt), "pfhom_new_free: different algebras");
    pfhom_t *d = pfhom_alloc(src);
    d->tgt = tgt;
    return d;
}

pfhom_t *pfhom_new_fd(const pfmod_t *src, const pfdmod_t *M)
{
    SQ_CHECK(pfdmod_prime(M) == pmilnor_prime(pfmod_algebra(src)),
             "pfhom_new_fd: the module is at another prime");
    pfhom_t *d = pfhom_alloc(src);
    d->M = M;
    return d;
}

void pfhom_free(pfhom_t *d)
{
    if (!d)
        return;
    for (int32_t k = 0; k < d->span; k++) {
        if (!d->img[k])
            continue;
        for (int64_t i = 0; i < pfmod_num_gens(d->src, d->min_deg + k); i++)
            sq_free(d->img[k][i]);
        sq_free(d->img[k]);
    }
    sq_free(d->img);
    sq_free(d);
}

void pfhom_set_cache(pfhom_t *d, pmilnor_cache_t *C)
{
    d->cache = C;
}

const pfmod_t *pfhom_source(const pfhom_t *d)
{
    return d->src;
}

const pfmod_t *pfhom_target(const pfhom_t *d)
{
    return d->tgt;
}

int64_t pfhom_image_len(const pfhom_t *d, int32_t e)
{
    return d->tgt ? pfmod_dim_below(d->tgt, e, e) : pfdmod_dim(d->M, e);
}

int64_t pfhom_target_dim(const pfhom_t *d, int32_t t)
{
    return d->tgt ? pfmod_dim_below(d->tgt, t, t) : pfdmod_dim(d->M, t);
}

static uint8_t **slot(const pfhom_t *d, int64_t g, int32_t *deg)
{
    int32_t e = pfmod_gen_degree(d->src, g);
    int64_t i = g - pfmod_gen_global(d->src, e, 0);
    if (deg)
        *deg = e;
    if (!d->img[e - d->min_deg])
        return NULL;
    return &d->img[e - d->min_deg][i];
}

void pfhom_set_image(pfhom_t *d, int64_t g, const uint8_t *vec)
{
    SQ_CHECK(g >= 0 && g < pfmod_total_gens(d->src), "pfhom_set_image: no generator %lld",
             (long long)g);
    int32_t e = pfmod_gen_degree(d->src, g);
    if (!d->img[e - d->min_deg])
        d->img[e - d->min_deg] = sq_calloc((size_t)pfmod_num_gens(d->src, e), sizeof(uint8_t *));
    uint8_t **s = slot(d, g, NULL);
    SQ_CHECK(*s == NULL, "pfhom_set_image: generator %lld set twice", (long long)g);
    int64_t n = pfhom_image_len(d, e);
    *s = sq_malloc((size_t)(n ? n : 1));
    if (n)
        memcpy(*s, vec, (size_t)n);
}

const uint8_t *pfhom_image(const pfhom_t *d, int64_t g, int64_t *len)
{
    SQ_CHECK(g >= 0 && g < pfmod_total_gens(d->src), "pfhom_image: no generator %lld",
             (long long)g);
    int32_t e;
    uint8_t **s = slot(d, g, &e);
    SQ_CHECK(s && *s, "pfhom_image: generator %lld has no image", (long long)g);
    if (len)
        *len = pfhom_image_len(d, e);
    return *s;
}

/* One nonzero term of d(g): c * (a', h), landing at `off` in degree t. */
typedef struct {
    int64_t off;            /* offset of h's block in degree t */
    uint32_t c;
    int32_t deg;            /* a' is basis element idx of degree deg */
    int64_t idx;
    pmilnor_elt_t e;        /* a', unpacked */
} term_t;

typedef struct {
    term_t *terms;
    int64_t n, cap;
} terms_t;

/* Cuts d(g) (g of degree e, free target) into its nonzero terms. */
static void split_image(terms_t *T, const pfhom_t *d, int64_t g, int32_t e, int32_t t)
{
    const uint8_t *img = pfhom_image(d, g, NULL);
    T->n = 0;
    int64_t off_e = 0, off_t = 0;
    for (int32_t h = pfmod_min_degree(d->tgt); h < e; h++) {
        int64_t n = pfmod_num_gens(d->tgt, h);
        if (!n)
            continue;
        int64_t len = pmilnor_dim(d->A, e - h), len_t = pmilnor_dim(d->A, t - h);
        for (int64_t i = 0; i < n; i++, off_e += len, off_t += len_t)
            for (int64_t k = 0; k < len; k++) {
                if (!img[off_e + k])
                    continue;
                if (T->n == T->cap) {
                    T->cap = T->cap ? 2 * T->cap : 64;
                    T->terms = sq_realloc(T->terms, sq_mul_size((size_t)T->cap, sizeof *T->terms));
                }
                term_t *x = &T->terms[T->n++];
                x->off = off_t;
                x->c = img[off_e + k];
                x->deg = e - h;
                x->idx = k;
                pmilnor_get(d->A, e - h, k, &x->e);
            }
    }
}

/* The common walk of build_rows and apply_add: for each basis element
 * (a, g) of the source in degree t below bound, with row index r (from 0),
 * adds coef(r) * a d(g) into dst(r).  When v is NULL, dst(r) is row row0 + r
 * of m and coef 1; otherwise dst is out and coef v[r]. */
static void walk(const pfhom_t *d, fpmat_t *m, int64_t row0, uint8_t *out, const uint8_t *v,
                 int32_t t, int32_t bound, int64_t rlo, int64_t rhi)
{
    const pmilnor_t *A = d->A;
    int32_t top = pfmod_top_below(d->src, bound);
    if (top > t)
        top = t;
    terms_t T = {0};
    int64_t r = 0;
    for (int32_t e = pfmod_min_degree(d->src); e <= top; e++) {
        int64_t n = pfmod_num_gens(d->src, e);
        if (!n)
            continue;
        int64_t na = pmilnor_dim(A, t - e);
        for (int64_t i = 0; i < n; i++, r += na) {
            int64_t g = pfmod_gen_global(d->src, e, i);
            if (!na || r + na <= rlo || r >= rhi)
                continue;
            int64_t a0 = rlo > r ? rlo - r : 0, a1 = rhi - r < na ? rhi - r : na;
            if (!d->tgt) {
                const uint8_t *img = pfhom_image(d, g, NULL);
                for (int64_t a = a0; a < a1; a++) {
                    uint32_t c = v ? v[r + a] : 1;
                    if (!c)
                        continue;
                    uint8_t *dst = v ? out : fpmat_row(m, row0 + r + a);
                    pfdmod_act_add(d->M, dst, c, t - e, a, e, img);
                }
                continue;
            }
            split_image(&T, d, g, e, t);
            if (!T.n)
                continue;
            const uint32_t p = d->p;
            for (int64_t k = 0; k < T.n; k++) {
                const term_t *x = &T.terms[k];
                pmilnor_col_t col;
                if (d->cache && pmilnor_cache_col(d->cache, t - e, x->deg, x->idx, &col)) {
                    for (int64_t a = a0; a < a1; a++) {
                        uint32_t c = v ? v[r + a] : 1;
                        if (!c)
                            continue;
                        uint32_t cc = c * x->c % p;
                        uint8_t *o = (v ? out : fpmat_row(m, row0 + r + a)) + x->off;
                        for (int32_t j = col.off[a]; j < col.off[a + 1]; j++)
                            o[col.idx[j]] = (uint8_t)((o[col.idx[j]] + cc * col.coef[j]) % p);
                    }
                    continue;
                }
                for (int64_t a = a0; a < a1; a++) {
                    uint32_t c = v ? v[r + a] : 1;
                    if (!c)
                        continue;
                    pmilnor_elt_t ae;
                    pmilnor_get(A, t - e, a, &ae);
                    uint8_t *dst = v ? out : fpmat_row(m, row0 + r + a);
                    pmilnor_mul_elts_add(A, dst + x->off, c * x->c % p, &ae, &x->e);
                }
            }
        }
    }
    sq_free(T.terms);
}

void pfhom_build_rows(const pfhom_t *d, fpmat_t *m, int64_t row0, int32_t t, int32_t bound)
{
    walk(d, m, row0, NULL, NULL, t, bound, 0, INT64_MAX);
}

void pfhom_build_rows_part(const pfhom_t *d, fpmat_t *m, int64_t row0, int32_t t, int32_t bound,
                           int64_t rlo, int64_t rhi)
{
    walk(d, m, row0, NULL, NULL, t, bound, rlo, rhi);
}

void pfhom_apply_add(const pfhom_t *d, uint8_t *out, int32_t t, int32_t bound, const uint8_t *v)
{
    walk(d, NULL, 0, out, v, t, bound, 0, INT64_MAX);
}
