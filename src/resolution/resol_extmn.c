/*
 * resol_extmn.c -- Ext(M, N) from the cochains Hom_A(F_s, N) of M's
 * resolution (resol_extmn.h).
 */
#include "resol_extmn.h"

#include <stdio.h>
#include <string.h>

#include "fmat.h"
#include "fmod.h"
#include "pmilnor.h"
#include "sq_core.h"
#include "stalg.h"

struct resol_extmn {
    int32_t max_s, min_n, max_n;
    int64_t *dim; /* [s * (max_n - min_n + 1) + n - min_n] */
};

/* The cochains C^{s,t}: the generators g of F_s with N_{|g| - t} nonzero,
 * each with the offset of its block N_{|g| - t}. */
typedef struct {
    int64_t n, len; /* generators kept; total dimension */
    int64_t *gen, *off;
    int32_t *deg;
} cochains_t;

void resol_extmn_region(const fdmod_t *N, int32_t max_s, int32_t max_n, int32_t *rs, int32_t *rn)
{
    *rs = max_s + 1;
    *rn = max_n + 1 + fdmod_top(N); /* delta_{s-1} at stem max_n reads F_{s-1} there */
}

/* Whether M and N are modules over the same algebra (their action tables
 * indexed alike). */
static int same_profile(const fdmod_t *M, const fdmod_t *N)
{
    if (fdmod_prime(M) == 2) {
        int32_t a[MILNOR_MAX_LEN], b[MILNOR_MAX_LEN];
        int la = fdmod_profile(M, a), lb = fdmod_profile(N, b);
        return la == lb && memcmp(a, b, (size_t)la * sizeof a[0]) == 0;
    }
    const pmilnor_profile_t *a = fdmod_pprofile(M), *b = fdmod_pprofile(N);
    return a->truncated == b->truncated && a->q_part == b->q_part && a->len == b->len &&
           memcmp(a->p_part, b->p_part, (size_t)a->len * sizeof a->p_part[0]) == 0;
}

int resol_extmn_check(const fdmod_t *M, const fdmod_t *N, char *err, size_t errlen)
{
    if (fdmod_prime(M) != fdmod_prime(N)) {
        snprintf(err, errlen, "Ext(M, N): %s is at the prime %u, %s at %u", fdmod_name(M),
                 fdmod_prime(M), fdmod_name(N), fdmod_prime(N));
        return SQ_E_INVAL;
    }
    if (fdmod_bottom(N) > fdmod_top(N)) {
        snprintf(err, errlen, "Ext(M, N): the coefficients %s are zero", fdmod_name(N));
        return SQ_E_INVAL;
    }
    if (!same_profile(M, N)) {
        snprintf(err, errlen, "Ext(M, N): %s and %s are modules over different algebras "
                 "(profiles)", fdmod_name(M), fdmod_name(N));
        return SQ_E_INVAL;
    }
    return 0;
}

static void cochains_free(cochains_t *c)
{
    sq_free(c->gen);
    sq_free(c->off);
    sq_free(c->deg);
    memset(c, 0, sizeof *c);
}

/* C^{s,t} of the free module F (F_s) with coefficients N. */
static void cochains_build(cochains_t *c, const fmod_t *F, const fdmod_t *N, int32_t t)
{
    memset(c, 0, sizeof *c);
    int32_t lo = t + fdmod_bottom(N), hi = t + fdmod_top(N);
    int64_t cap = 0;
    for (int32_t e = lo; e <= hi; e++)
        if (fdmod_dim(N, e - t) > 0)
            cap += fmod_num_gens(F, e);
    c->gen = sq_malloc((size_t)cap * sizeof *c->gen + 1);
    c->off = sq_malloc((size_t)cap * sizeof *c->off + 1);
    c->deg = sq_malloc((size_t)cap * sizeof *c->deg + 1);
    for (int32_t e = lo; e <= hi; e++) {
        int64_t d = fdmod_dim(N, e - t), k = d > 0 ? fmod_num_gens(F, e) : 0;
        for (int64_t i = 0; i < k; i++) {
            c->gen[c->n] = fmod_gen_global(F, e, i);
            c->deg[c->n] = e;
            c->off[c->n++] = c->len;
            c->len += d;
        }
    }
}

/* Adds into the column block at col of rows[..] the terms of d(h) (h of
 * degree eh, image vector img over F_s below eh) on the generators of src:
 * row (g, j) gets c * (a x_j) for each term c (a, g). */
static void add_image(fmat_t *m, const cochains_t *src, const fmod_t *F, const stalg_t *S,
                      const fdmod_t *N, int32_t t, int32_t eh, int64_t col, fvec_t img)
{
    uint32_t p = fmat_prime(m);
    for (int64_t k = 0; k < src->n; k++) {
        int32_t eg = src->deg[k];
        if (eg >= eh)
            break;
        int64_t gi = src->gen[k] - fmod_gen_global(F, eg, 0);
        int64_t base = fmod_block_offset(F, eh, eg, gi), na = stalg_dim(S, eh - eg);
        int64_t dn = fdmod_dim(N, eg - t);
        fvec_t x;
        fvec_init(&x, dn, p);
        for (int64_t a = 0; a < na; a++) {
            uint32_t c = fvec_get(img, base + a);
            if (!c)
                continue;
            for (int64_t j = 0; j < dn; j++) {
                fvec_zero(x);
                fvec_set(x, j, 1);
                fdmod_act_addf(N, fmat_row(m, src->off[k] + j), col, c, eh - eg, a, eg - t, x);
            }
        }
        fvec_clear(&x);
    }
}

/* The matrix of delta_s : C^{s,t} -> C^{s+1,t} (rows: src's entries,
 * columns: tgt's), built from the stored d(h); *m initialised here. */
static void delta_matrix(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t,
                         const cochains_t *src, const cochains_t *tgt, fmat_t *m)
{
    const fmod_t *F = resol_free_module(R, s);
    const fhom_t *d = resol_differential(R, s + 1);
    uint32_t p = resol_prime(R);
    fmat_init(m, src->len, tgt->len, p);
    for (int64_t k = 0; k < tgt->n; k++) {
        int64_t len;
        const void *enc = fhom_image_enc(d, tgt->gen[k], &len);
        fvec_t img = p == 2 ? fvec_view_limbs((uint64_t *)(uintptr_t)enc, len)
                            : fvec_view_bytes((uint8_t *)(uintptr_t)enc, len, p);
        add_image(m, src, F, resol_stalg(R), N, t, tgt->deg[k], tgt->off[k], img);
    }
}

/* rank of delta_s : C^{s,t} -> C^{s+1,t}, or -1 when its matrix would
 * take more than max_bytes. */
static int64_t delta_rank(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t,
                          double max_bytes)
{
    uint32_t p = resol_prime(R);
    cochains_t src, tgt;
    cochains_build(&src, resol_free_module(R, s), N, t);
    cochains_build(&tgt, resol_free_module(R, s + 1), N, t);
    int64_t rank = 0;
    if ((double)src.len * (double)fvec_bytes_for(p, tgt.len) > max_bytes)
        rank = -1;
    else if (src.len > 0 && tgt.len > 0) {
        fmat_t m;
        delta_matrix(R, N, s, t, &src, &tgt, &m);
        rank = fmat_rank(&m);
        fmat_clear(&m);
    }
    cochains_free(&src);
    cochains_free(&tgt);
    return rank;
}

/* dim C^{s,t}. */
static int64_t cochain_dim(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t)
{
    int64_t n = 0;
    for (int32_t e = t + fdmod_bottom(N); e <= t + fdmod_top(N); e++)
        n += fmod_num_gens(resol_free_module(R, s), e) * fdmod_dim(N, e - t);
    return n;
}

int resol_extmn_new(resol_extmn_t **out, const resol_t *R, const fdmod_t *N, int32_t max_s,
                    int32_t max_n, double max_bytes, char *err, size_t errlen)
{
    if (max_bytes <= 0)
        max_bytes = RESOL_EXTMN_MAX_BYTES;
    *out = NULL;
    const fdmod_t *M = resol_input(R);
    int rc = resol_extmn_check(M, N, err, errlen);
    if (rc)
        return rc;
    int32_t rs, rn, min_n = fdmod_bottom(M) - fdmod_top(N);
    resol_extmn_region(N, max_s, max_n, &rs, &rn);
    if (max_s < 0 || max_n < min_n || resol_max_s(R) < rs || resol_max_n(R) < rn ||
        resol_ext_dim(R, rs, rn) < 0) {
        snprintf(err, errlen, "Ext(M, N) through (%d, %d) needs the resolution of %s through "
                 "filtration %d and stem %d", (int)max_n, (int)max_s, fdmod_name(M), (int)rs,
                 (int)rn);
        return SQ_E_RANGE;
    }
    resol_extmn_t *E = sq_calloc(1, sizeof *E);
    E->max_s = max_s;
    E->min_n = min_n;
    E->max_n = max_n;
    int64_t w = (int64_t)max_n - min_n + 1;
    E->dim = sq_malloc((size_t)(w * (max_s + 1)) * sizeof *E->dim);
    /* rank[s][n' - min_n] = rank of delta_s at t = n' + s, for the stems n'
     * of C^s: min_n..max_n, and max_n + 1 where delta_s feeds row s + 1. */
    int64_t *rank = sq_malloc((size_t)((w + 1) * (max_s + 1)) * sizeof *rank);
    for (int32_t s = 0; s <= max_s; s++)
        for (int64_t k = 0; k <= w; k++) {
            int32_t t = (int32_t)(min_n + k + s);
            int64_t r = k < w || s < max_s ? delta_rank(R, N, s, t, max_bytes) : 0;
            if (r < 0) {
                snprintf(err, errlen, "Ext(M, N): the coboundary at filtration %d, t = %d "
                         "would take more than %.0f bytes", (int)s, (int)t, max_bytes);
                sq_free(rank);
                resol_extmn_free(E);
                return SQ_E_NOMEM;
            }
            rank[s * (w + 1) + k] = r;
        }
    for (int32_t s = 0; s <= max_s; s++)
        for (int64_t k = 0; k < w; k++) {
            int32_t t = (int32_t)(min_n + k + s);
            int64_t below = s > 0 ? rank[(s - 1) * (w + 1) + k + 1] : 0;
            E->dim[s * w + k] = cochain_dim(R, N, s, t) - rank[s * (w + 1) + k] - below;
        }
    sq_free(rank);
    *out = E;
    return 0;
}

void resol_extmn_free(resol_extmn_t *E)
{
    if (!E)
        return;
    sq_free(E->dim);
    sq_free(E);
}

int32_t resol_extmn_min_n(const resol_extmn_t *E)
{
    return E->min_n;
}

int64_t resol_extmn_dim(const resol_extmn_t *E, int32_t s, int32_t n)
{
    if (s < 0 || s > E->max_s || n < E->min_n || n > E->max_n)
        return -1;
    return E->dim[(int64_t)s * (E->max_n - E->min_n + 1) + (n - E->min_n)];
}

int64_t resol_extmn_cochain_dim(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t)
{
    return cochain_dim(R, N, s, t);
}

/* Whether phi * delta_s is zero (phi over C^{s,t}). */
static int is_cocycle(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t, fvec_t phi)
{
    cochains_t src, tgt;
    cochains_build(&src, resol_free_module(R, s), N, t);
    cochains_build(&tgt, resol_free_module(R, s + 1), N, t);
    int ok = 1;
    if (src.len > 0 && tgt.len > 0) {
        fmat_t m;
        fvec_t out;
        delta_matrix(R, N, s, t, &src, &tgt, &m);
        fvec_init(&out, tgt.len, resol_prime(R));
        fmat_vec_mul_add(out, phi, &m);
        ok = fvec_is_zero(out);
        fvec_clear(&out);
        fmat_clear(&m);
    }
    cochains_free(&src);
    cochains_free(&tgt);
    return ok;
}

/* Whether phi (over C^{s,t}, s >= 1) is delta_{s-1} of a cochain: the
 * rank of delta_{s-1} does not grow when phi joins its rows. */
static int is_coboundary(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t, fvec_t phi)
{
    cochains_t src, tgt;
    cochains_build(&src, resol_free_module(R, s - 1), N, t);
    cochains_build(&tgt, resol_free_module(R, s), N, t);
    fmat_t m, m1;
    if (src.len > 0)
        delta_matrix(R, N, s - 1, t, &src, &tgt, &m);
    else
        fmat_init(&m, 0, tgt.len, resol_prime(R));
    fmat_init(&m1, src.len + 1, tgt.len, resol_prime(R));
    for (int64_t i = 0; i < src.len; i++)
        fvec_addmul(fmat_row(&m1, i), fmat_row(&m, i), 1);
    fvec_addmul(fmat_row(&m1, src.len), phi, 1);
    int in = fmat_rank(&m1) == fmat_rank(&m);
    fmat_clear(&m);
    fmat_clear(&m1);
    cochains_free(&src);
    cochains_free(&tgt);
    return in;
}

int resol_extmn_class_kind(const resol_t *R, const fdmod_t *N, int32_t s, int32_t t, fvec_t phi)
{
    if (!is_cocycle(R, N, s, t, phi))
        return RESOL_EXTMN_NOT_COCYCLE;
    if (fvec_is_zero(phi) || (s > 0 && is_coboundary(R, N, s, t, phi)))
        return RESOL_EXTMN_ZERO;
    return RESOL_EXTMN_CLASS;
}
