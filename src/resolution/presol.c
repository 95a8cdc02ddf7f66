/*
 * presol.c -- the odd-prime names of the one resolution (presol.h): thin
 * wrappers over resol_* (resol.c, resol_classical.c, sched.c), and
 * presol_verify.
 */
#include "presol.h"

#include <stdio.h>
#include <string.h>

#include "fpmat.h"

int64_t presol_algebra_degree(int32_t bottom, int32_t top, int32_t max_n)
{
    return resol_algebra_degree(bottom, top, max_n);
}

int presol_check_range(const pfdmod_t *M, int32_t max_s, int32_t max_n, char *err, size_t errlen)
{
    return resol_check_range(M, max_s, max_n, err, errlen);
}

presol_t *presol_new(const pfdmod_t *M, int32_t max_s, int32_t max_n)
{
    SQ_CHECK(fdmod_prime(M) != 2, "presol_new: %s is at p = 2", fdmod_name(M));
    return resol_new(M, max_s, max_n);
}

void presol_free(presol_t *R)
{
    resol_free(R);
}

uint32_t presol_prime(const presol_t *R)
{
    return resol_prime(R);
}

int32_t presol_max_s(const presol_t *R)
{
    return resol_max_s(R);
}

int32_t presol_max_n(const presol_t *R)
{
    return resol_max_n(R);
}

int32_t presol_min_n(const presol_t *R)
{
    return resol_min_n(R);
}

const pmilnor_t *presol_algebra(const presol_t *R)
{
    return resol_palgebra(R);
}

const pfdmod_t *presol_input(const presol_t *R)
{
    return resol_input(R);
}

const pfmod_t *presol_free_module(const presol_t *R, int32_t s)
{
    return resol_free_module(R, s);
}

const pfhom_t *presol_differential(const presol_t *R, int32_t s)
{
    return resol_differential(R, s);
}

void presol_run(presol_t *R)
{
    resol_run(R, RESOL_CLASSICAL);
}

void presol_run_pool(presol_t *R, sq_pool_t *pool, const presol_observer_t *obs)
{
    resol_run_pool(R, RESOL_CLASSICAL, pool, obs);
}

int64_t presol_num_steps(const presol_t *R)
{
    return resol_num_steps((presol_t *)R, RESOL_CLASSICAL);
}

int64_t presol_ext_dim(const presol_t *R, int32_t s, int32_t n)
{
    if (n < resol_min_n(R) || n > resol_max_n(R))
        return -1;
    return resol_ext_dim(R, s, n);
}

int presol_verify(const presol_t *R, char *err, size_t errlen)
{
    const pfmod_t *F0 = presol_free_module(R, 0);
    uint32_t p = presol_prime(R);
    int32_t t_min = presol_min_n(R);
    /* d_{s-1} d_s (g) = 0: apply d_{s-1} to d_s(g), a vector over F_{s-1} in
     * degree e = deg g spanned by generators below e. */
    for (int32_t s = 1; s <= presol_max_s(R); s++) {
        int32_t through = pfmod_gens_through(presol_free_module(R, s));
        for (int32_t e = t_min; e <= through; e++)
            for (int64_t i = 0; i < pfmod_num_gens(presol_free_module(R, s), e); i++) {
                int64_t g = pfmod_gen_global(presol_free_module(R, s), e, i);
                const uint8_t *img = pfhom_image(presol_differential(R, s), g, NULL);
                int64_t n = pfhom_target_dim(presol_differential(R, s - 1), e);
                uint8_t *out = sq_calloc((size_t)n + 1, 1);
                pfhom_apply_add(presol_differential(R, s - 1), out, e, e, img);
                int bad = !fpvec_is_zero(out, n);
                sq_free(out);
                if (bad) {
                    snprintf(err, errlen, "d_%d d_%d is not zero on x_(%d, %d, %lld)",
                             (int)(s - 1), (int)s, (int)(e - s), (int)s, (long long)i);
                    return SQ_E_INVAL;
                }
            }
    }
    /* The augmentation is onto: F_0 -> M_t has rank dim M_t. */
    int32_t through = pfmod_gens_through(F0);
    for (int32_t t = t_min; t <= through && t <= pfdmod_top(presol_input(R)); t++) {
        int64_t rows = pfmod_dim(F0, t), cols = pfdmod_dim(presol_input(R), t);
        if (!cols)
            continue;
        fpmat_t m = {0};
        fpmat_init(&m, rows, cols, p);
        pfhom_build_rows(presol_differential(R, 0), &m, 0, t, t + 1);
        int64_t rank = m.data ? fpmat_rref(&m, NULL) : 0;
        fpmat_clear(&m);
        if (rank != cols) {
            snprintf(err, errlen, "the augmentation misses M in degree %d (rank %lld of %lld)",
                     (int)t, (long long)rank, (long long)cols);
            return SQ_E_INVAL;
        }
    }
    return 0;
}
