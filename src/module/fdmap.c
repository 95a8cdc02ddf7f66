/*
 * fdmap.c -- maps of finite modules (fdmap.h).
 */
#include "fdmap.h"

#include <stdio.h>
#include <string.h>

#include "sq_core.h"

struct fdmap {
    const fdmod_t *src, *tgt;
    int32_t d, lo, span; /* src's degrees lo .. lo + span - 1 */
    fvec_t **img;        /* img[deg - lo][idx]: f(x) over tgt_{deg+d} (len 0: zero) */
};

fdmap_t *fdmap_new(const fdmod_t *src, const fdmod_t *tgt, int32_t d)
{
    SQ_CHECK(fdmod_prime(src) == fdmod_prime(tgt), "fdmap_new: modules at different primes");
    fdmap_t *f = sq_calloc(1, sizeof *f);
    f->src = src;
    f->tgt = tgt;
    f->d = d;
    f->lo = fdmod_min_degree(src);
    f->span = fdmod_max_degree(src) - f->lo + 1;
    f->img = sq_calloc((size_t)f->span, sizeof *f->img);
    for (int32_t i = 0; i < f->span; i++)
        f->img[i] = sq_calloc((size_t)fdmod_dim(src, f->lo + i) + 1, sizeof *f->img[i]);
    return f;
}

void fdmap_free(fdmap_t *f)
{
    if (!f)
        return;
    for (int32_t i = 0; i < f->span; i++) {
        for (int64_t j = 0; j < fdmod_dim(f->src, f->lo + i); j++)
            fvec_clear(&f->img[i][j]);
        sq_free(f->img[i]);
    }
    sq_free(f->img);
    sq_free(f);
}

void fdmap_ends(const fdmap_t *f, const fdmod_t **src, const fdmod_t **tgt, int32_t *d)
{
    *src = f->src;
    *tgt = f->tgt;
    *d = f->d;
}

void fdmap_set(fdmap_t *f, int32_t deg, int64_t idx, fvec_t img)
{
    SQ_CHECK(deg >= f->lo && deg - f->lo < f->span && idx >= 0 && idx < fdmod_dim(f->src, deg),
             "fdmap_set: (%d, %lld)", (int)deg, (long long)idx);
    int64_t n = fdmod_dim(f->tgt, deg + f->d);
    fvec_t *v = &f->img[deg - f->lo][idx];
    fvec_clear(v);
    if (n == 0)
        return;
    fvec_init(v, n, fdmod_prime(f->tgt));
    fvec_addmul(*v, fvec_window(img, 0, n), 1);
}

void fdmap_apply_add(const fdmap_t *f, int32_t deg, fvec_t v, uint32_t coef, fvec_t out)
{
    if (deg < f->lo || deg - f->lo >= f->span)
        return;
    uint32_t p = fdmod_prime(f->src);
    for (int64_t j = 0; j < fdmod_dim(f->src, deg); j++) {
        uint32_t c = fvec_get(v, j) * coef % p;
        fvec_t w = f->img[deg - f->lo][j];
        if (c && w.len)
            fvec_addmul(fvec_window(out, 0, w.len), w, c);
    }
}

/* The module files' name of the generator of degree gdeg at p: Sq^{2^k}
 * as "Sq2", the Bockstein as "b", P^{p^k} as "P3". */
static void gen_name(char *buf, size_t n, uint32_t p, int32_t gdeg)
{
    int odd = p != 2;
    if (odd && gdeg == 1) {
        snprintf(buf, n, "b");
        return;
    }
    snprintf(buf, n, "%s%d", odd ? "P" : "Sq", (int)(odd ? gdeg / (2 * ((int32_t)p - 1)) : gdeg));
}

/* Whether f(g x) = g f(x) for g the generator of degree gdeg (index gi in
 * S) and x basis element j of src_deg. */
static int commutes(const fdmap_t *f, int32_t gdeg, int64_t gi, int32_t deg, int64_t j)
{
    uint32_t p = fdmod_prime(f->src);
    int64_t n = fdmod_dim(f->tgt, deg + gdeg + f->d);
    if (n == 0)
        return 1;
    fvec_t lhs, rhs;
    fvec_init(&lhs, n, p);
    fvec_init(&rhs, n, p);
    fvec_t gx = fdmod_actionf(f->src, gdeg, gi, deg, j); /* g x in src_{deg+gdeg} */
    if (gx.len)
        fdmap_apply_add(f, deg + gdeg, gx, 1, lhs);
    fvec_t fx = f->img[deg - f->lo][j];
    if (fx.len)
        fdmod_act_addf(f->tgt, rhs, 0, 1, gdeg, gi, deg + f->d, fx);
    int ok = fvec_equal(lhs, rhs);
    fvec_clear(&lhs);
    fvec_clear(&rhs);
    return ok;
}

int fdmap_check_linear(const fdmap_t *f, const stalg_t *S, char *err, size_t errlen)
{
    uint32_t p = fdmod_prime(f->src);
    for (int32_t i = 0; i < f->span; i++) {
        int32_t deg = f->lo + i;
        for (int64_t j = 0; j < fdmod_dim(f->src, deg); j++)
            for (int k = 0; k < FDMOD_MAX_SLOTS; k++) {
                int32_t gdeg = fdmod_slot_degree(p, k);
                if (gdeg < 0 || gdeg > stalg_max_degree(S))
                    break;
                int64_t gi = stalg_gen_index(S, gdeg);
                if (gi < 0 || commutes(f, gdeg, gi, deg, j))
                    continue;
                char g[24];
                gen_name(g, sizeof g, p, gdeg);
                const char *x = fdmod_basis_name(f->src, deg, j);
                snprintf(err, errlen, "not A-linear: f(%s %s) != %s f(%s)", g, x, g, x);
                return SQ_E_INVAL;
            }
    }
    return 0;
}

void fdmap_matrix(const fdmap_t *f, int32_t e, fmat_t *m)
{
    uint32_t p = fdmod_prime(f->src);
    int64_t ns = fdmod_dim(f->src, e), nt = fdmod_dim(f->tgt, e + f->d);
    fmat_init(m, ns, nt, p);
    fvec_t u;
    fvec_init(&u, ns, p);
    for (int64_t j = 0; j < ns; j++) {
        fvec_zero(u);
        fvec_set(u, j, 1);
        fdmap_apply_add(f, e, u, 1, fmat_row(m, j));
    }
    fvec_clear(&u);
}
