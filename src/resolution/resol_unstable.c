/*
 * resol_unstable.c -- unstable resolutions and their suspension maps (see
 * resol_unstable.h; the mathematics is docs/unstable.md).
 */
#include "resol_unstable.h"

#include <stdio.h>

#include "fdmap.h"
#include "internal.h"
#include "sq_core.h"

/* The first k > |x| with Sq^k x != 0 for a basis element x of M, or 0:
 * the class in *deg, *idx. */
static int32_t first_unstable_failure(const fdmod_t *M, const milnor_t *A, int32_t *deg,
                                      int64_t *idx)
{
    int32_t top = fdmod_top(M);
    for (int32_t d = fdmod_bottom(M); d <= top; d++) {
        int64_t n = fdmod_dim(M, d);
        for (int64_t i = 0; i < n; i++)
            for (int32_t k = d + 1; k <= top - d; k++) {
                int64_t op = milnor_index(A, &k, 1);
                int64_t m = fdmod_dim(M, d + k);
                if (op < 0 || m == 0)
                    continue;
                int64_t limbs = (n + 63) / 64, olimbs = (m + 63) / 64;
                uint64_t *in = sq_calloc((size_t)limbs, 8), *out = sq_calloc((size_t)olimbs, 8);
                in[i >> 6] = 1ULL << (i & 63);
                fdmod_act_add(M, out, 0, k, op, d, in);
                int nz = 0;
                for (int64_t w = 0; w < olimbs; w++)
                    nz |= out[w] != 0;
                sq_free(in);
                sq_free(out);
                if (nz) {
                    *deg = d;
                    *idx = i;
                    return k;
                }
            }
    }
    return 0;
}

int resol_unstable_check(const fdmod_t *M, const milnor_t *A, char *err, size_t errlen)
{
    int32_t h[16];
    if (fdmod_prime(M) != 2) {
        snprintf(err, errlen, "%s is at the prime %u: unstable resolutions are at p = 2 only",
                 fdmod_name(M), (unsigned)fdmod_prime(M));
        return SQ_E_INVAL;
    }
    if (fdmod_profile(M, h) > 0) {
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
    int32_t k = first_unstable_failure(M, A, &d, &i);
    if (k) {
        snprintf(err, errlen, "%s is not unstable: Sq%d %s != 0 (%s has degree %d < %d)",
                 fdmod_name(M), (int)k, fdmod_basis_name(M, d, i), fdmod_basis_name(M, d, i),
                 (int)d, (int)k);
        return SQ_E_INVAL;
    }
    return 0;
}

resol_t *resol_new_unstable(const fdmod_t *M, int32_t max_s, int32_t max_n)
{
    return resol_new_in(M, max_s, max_n, 1);
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
        fvec_init(&v, n, 2);
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
