/*
 * resol_unstable.c -- unstable resolutions and their suspension maps (see
 * resol_unstable.h; the mathematics is docs/unstable.md).
 */
#include "resol_unstable.h"

#include <stdio.h>
#include <string.h>

#include "fdmap.h"
#include "internal.h"
#include "sq_core.h"

/* Whether op (degree k, index idx of S) acts nontrivially on basis
 * element i of M_d. */
static int acts(const fdmod_t *M, const stalg_t *S, int32_t k, int64_t idx, int32_t d, int64_t i)
{
    uint32_t p = stalg_prime(S);
    fvec_t in, out;
    fvec_init(&in, fdmod_dim(M, d), p);
    fvec_init(&out, fdmod_dim(M, d + k), p);
    fvec_set(in, i, 1);
    fdmod_act_addf(M, out, 0, 1, k, idx, d, in);
    int nz = !fvec_is_zero(out);
    fvec_clear(&in);
    fvec_clear(&out);
    return nz;
}

/* Whether the operation e (P-part r[0] = i, Q-part q: Sq^i at p = 2;
 * P^i or beta P^i at odd p) must vanish on a class of degree d: i > d at
 * p = 2; 2i > d for P^i, 2i + 1 > d for beta P^i at odd p. */
static int forbidden(uint32_t p, int32_t d, const stalg_elt_t *e)
{
    int64_t i = e->r[0];
    if (p == 2)
        return i > d;
    return e->q ? 2 * i + 1 > d : i > 0 && 2 * i > d;
}

/* The first class x and operation op with op x != 0 that the unstable
 * condition forbids, operations in increasing degree up to the module's
 * span: 1 with *deg, *idx and the operation's name as module files write
 * it (Sq3; P2, bP1), or 0. */
static int first_unstable_failure(const fdmod_t *M, const stalg_t *S, int32_t *deg, int64_t *idx,
                                  char *name, size_t n)
{
    uint32_t p = stalg_prime(S);
    int32_t top = fdmod_top(M), step = p == 2 ? 1 : 2 * ((int32_t)p - 1);
    for (int32_t d = fdmod_bottom(M); d <= top; d++)
        for (int64_t x = 0; x < fdmod_dim(M, d); x++)
            for (int32_t i = 0; (int64_t)i * step <= top - d; i++)
                for (uint32_t q = 0; q <= (p == 2 ? 0u : 1u); q++) {
                    stalg_elt_t e;
                    memset(&e, 0, sizeof e);
                    e.q = q;
                    e.r[0] = i;
                    e.len = 1;
                    int32_t k = i * step + (int32_t)q;
                    if (!forbidden(p, d, &e) || k == 0 || k > top - d)
                        continue;
                    int64_t op = stalg_index(S, &e);
                    if (op < 0 || fdmod_dim(M, d + k) == 0 || !acts(M, S, k, op, d, x))
                        continue;
                    if (p == 2)
                        snprintf(name, n, "Sq%d", (int)i);
                    else if (i)
                        snprintf(name, n, "%sP%d", q ? "b" : "", (int)i);
                    else
                        snprintf(name, n, "b");
                    *deg = d;
                    *idx = x;
                    return 1;
                }
    return 0;
}

int resol_unstable_check(const fdmod_t *M, const stalg_t *S, char *err, size_t errlen)
{
    int32_t h[16];
    uint32_t p = fdmod_prime(M);
    SQ_CHECK(stalg_prime(S) == p, "resol_unstable_check: the algebra is at another prime");
    if (p == 2 ? fdmod_profile(M, h) > 0 : !pmilnor_profile_is_full(fdmod_pprofile(M))) {
        snprintf(err, errlen,
                 "%s is over a subalgebra: unstable resolutions are over the whole Steenrod "
                 "algebra",
                 fdmod_name(M));
        return SQ_E_INVAL;
    }
    if (fdmod_top(M) >= fdmod_bottom(M) && fdmod_bottom(M) < 0) {
        snprintf(err, errlen,
                 "%s has a class in degree %d < 0: an unstable module lives in degrees >= 0",
                 fdmod_name(M), (int)fdmod_bottom(M));
        return SQ_E_INVAL;
    }
    int32_t d;
    int64_t i;
    char op[32];
    if (first_unstable_failure(M, S, &d, &i, op, sizeof op)) {
        snprintf(err, errlen, "%s is not unstable: %s %s != 0 (%s has degree %d)", fdmod_name(M),
                 op, fdmod_basis_name(M, d, i), fdmod_basis_name(M, d, i), (int)d);
        return SQ_E_INVAL;
    }
    return 0;
}

resol_t *resol_new_unstable(const fdmod_t *M, int32_t max_s, int32_t max_n)
{
    resol_t *R = resol_new_in(M, max_s, max_n, 1);
    char err[512];
    /* R's algebra reaches top - bottom (resol_algebra_degree). */
    SQ_CHECK(resol_unstable_check(M, R->S, err, sizeof err) == 0, "resol_new_unstable: %s", err);
    return R;
}

int resol_try_new_unstable(resol_t **out, const fdmod_t *M, int32_t max_s, int32_t max_n,
                           char *err, size_t errlen)
{
    *out = NULL;
    int32_t span = fdmod_top(M) - fdmod_bottom(M);
    stalg_t *S = stalg_new(fdmod_prime(M), span > 1 ? span : 1, NULL);
    int rc = resol_unstable_check(M, S, err, errlen);
    stalg_free(S);
    if (rc == 0 && resol_check_range(M, max_s, max_n, err, errlen) != 0)
        rc = SQ_E_INVAL;
    if (rc == 0)
        *out = resol_new_unstable(M, max_s, max_n);
    return rc;
}

int resol_is_unstable(const resol_t *R)
{
    return R->U != NULL;
}

/* Whether Sigma N = B: the same cells one degree up. */
static int is_suspension(const fdmod_t *N, const fdmod_t *B)
{
    if (fdmod_bottom(B) != fdmod_bottom(N) + 1 || fdmod_top(B) != fdmod_top(N) + 1)
        return 0;
    for (int32_t d = fdmod_bottom(N); d <= fdmod_top(N); d++)
        if (fdmod_dim(N, d) != fdmod_dim(B, d + 1))
            return 0;
    return 1;
}

int resol_suspension_new(resol_map_t **out, const resol_t *Ra, const resol_t *Rb, int32_t max_s,
                         int32_t max_n)
{
    *out = NULL;
    if (!Ra->U || !Rb->U || !is_suspension(Ra->M, Rb->M))
        return SQ_E_INVAL;
    /* sigma^{-1} : Sigma N -> N, degree -1, the identity on the basis. */
    fdmap_t *f = fdmap_new(Rb->M, Ra->M, -1);
    for (int32_t d = fdmod_bottom(Rb->M); d <= fdmod_top(Rb->M); d++) {
        int64_t n = fdmod_dim(Rb->M, d);
        fvec_t v;
        fvec_init(&v, n, fdmod_prime(Rb->M));
        for (int64_t i = 0; i < n; i++) {
            fvec_zero(v);
            fvec_set(v, i, 1);
            fdmap_set(f, d, i, v);
        }
        fvec_clear(&v);
    }
    int rc = resol_map_new(out, Rb, Ra, f, max_s, max_n);
    fdmap_free(f);
    return rc;
}
