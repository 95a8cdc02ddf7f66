/*
 * t-classical.c -- the classical minimal resolution against reference
 * tables, and structural properties (d o d = 0, augmentation onto).
 */
#include <stdio.h>
#include <string.h>

#include "resol.h"
#include "sq_test.h"
#include "sq_test_resol.h"


/* d_{s-1}(d_s(g)) = 0 for every generator g of F_s, s >= 1. */
static void check_dd_zero(const resol_t *R)
{
    for (int32_t s = 1; s <= resol_max_s(R); s++) {
        const fmod_t *F = resol_free_module(R, s);
        const fhom_t *d = resol_differential(R, s);
        const fhom_t *d1 = resol_differential(R, s - 1);
        for (int64_t g = 0; g < fmod_total_gens(F); g++) {
            int32_t e = fmod_gen_degree(F, g);
            int64_t nbits;
            const uint64_t *img = fhom_image(d, g, &nbits);
            ASSERT(nbits == fhom_image_bits(d, e));
            int64_t out_bits = fhom_target_dim(d1, e);
            uint64_t *out = sq_calloc((size_t)f2_limbs(out_bits) + 1, 8);
            fhom_apply_add(d1, out, e, e, img);
            for (int64_t k = 0; k < f2_limbs(out_bits); k++)
                if (out[k])
                    sq_test_fail(__FILE__, __LINE__, "d o d != 0 on generator %lld of F_%d",
                                 (long long)g, s);
            /* And d(g) != 0: a minimal resolution has no zero differentials. */
            ASSERT(f2_first_bit(img, nbits) >= 0);
            sq_free(out);
        }
    }
}

TEST(classical_S2_n40_s25)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 25, 40);
    resol_run(R, RESOL_CLASSICAL);
    sq_test_check_s2_table(R, 40, 25);
    check_dd_zero(R);
    resol_free(R);
    fdmod_free(M);
}

TEST(classical_S2_n60_s40_slow)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 40, 60);
    resol_run(R, RESOL_CLASSICAL);
    sq_test_check_s2_table(R, 60, 40);
    resol_free(R);
    fdmod_free(M);
}

TEST(classical_small_regions)
{
    /* Runs that stop early must agree with the big table on their region
     * (the top row and the kernel-only edge are handled separately). */
    int32_t regions[][2] = {{0, 0}, {1, 0}, {0, 3}, {5, 1}, {7, 4}, {15, 2}, {20, 9}};
    for (size_t i = 0; i < sizeof regions / sizeof regions[0]; i++) {
        fdmod_t *M = fdmod_sphere();
        resol_t *R = resol_new(M, regions[i][1], regions[i][0]);
        resol_run(R, RESOL_CLASSICAL);
        sq_test_check_s2_table(R, regions[i][0], regions[i][1]);
        resol_free(R);
        fdmod_free(M);
    }
}

TEST(range_check)
{
    fdmod_t *M = fdmod_sphere();
    char err[256];
    ASSERT_EQ(resol_check_range(M, 10, 40, err, sizeof err), 0);
    ASSERT_EQ(resol_check_range(M, 3000, 5000, err, sizeof err), SQ_E_RANGE);
    ASSERT(strstr(err, "beyond the supported") != NULL);
    ASSERT_EQ(resol_check_range(M, 3, -1, err, sizeof err), SQ_E_RANGE);
    fdmod_free(M);
}
