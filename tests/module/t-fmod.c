/*
 * t-fmod.c -- free modules over the algebra handle (docs/architecture.md,
 * step 4 item 1): fmod_new_stalg at p = 2 and odd p, and fmod_new /
 * fmod_new_pmilnor, which make a handle on the caller's algebra.
 */
#include "fmod.h"
#include "sq_test.h"
#include "stalg.h"

/* dim F_t = sum over generators g of dim A_{t - deg g}, through the handle. */
static void check_dims(const fmod_t *F, const stalg_t *S)
{
    for (int32_t t = 0; t <= 40; t++) {
        int64_t want = 0;
        for (int32_t e = fmod_min_degree(F); e <= fmod_gens_through(F) && e <= t; e++)
            want += fmod_num_gens(F, e) * stalg_dim(S, t - e);
        ASSERT_EQ(fmod_dim(F, t), want);
    }
}

TEST(fmod_over_the_handle)
{
    for (uint32_t p = 2; p <= 5; p++) {
        if (p == 4)
            continue;
        stalg_t *S = stalg_new(p, 60, NULL);
        fmod_t *F = fmod_new_stalg(S, 0, 30);
        ASSERT(fmod_stalg(F) == S);
        ASSERT((fmod_algebra(F) != NULL) == (p == 2));
        fmod_set_gens(F, 0, 1);
        fmod_set_gens(F, 3, 2);
        fmod_set_gens(F, 7, 1);
        check_dims(F, S);
        ASSERT_EQ(fmod_block_offset(F, 20, 7, 0), stalg_dim(S, 20) + 2 * stalg_dim(S, 17));
        fmod_free(F);
        stalg_free(S);
    }
}

TEST(fmod_wrappers_make_a_handle)
{
    milnor_t *A = milnor_new(40);
    int64_t dim10 = milnor_dim(A, 10);
    fmod_t *F = fmod_new(A, 0, 20);
    ASSERT(stalg_prime(fmod_stalg(F)) == 2 && stalg_milnor(fmod_stalg(F)) == A);
    ASSERT(fmod_algebra(F) == A);
    fmod_set_gens(F, 2, 3);
    check_dims(F, fmod_stalg(F));
    fmod_free(F); /* frees the handle, not A */
    ASSERT_EQ(milnor_dim(A, 10), dim10); /* A still alive */
    milnor_free(A);

    pmilnor_t *P = pmilnor_new(3, 60, NULL);
    int64_t dim9 = pmilnor_dim(P, 9);
    fmod_t *G = fmod_new_pmilnor(P, 0, 20);
    ASSERT(stalg_pmilnor(fmod_stalg(G)) == P && stalg_prime(fmod_stalg(G)) == 3);
    ASSERT(fmod_algebra(G) == NULL);
    fmod_set_gens(G, 1, 2);
    check_dims(G, fmod_stalg(G));
    fmod_free(G);
    ASSERT_EQ(pmilnor_dim(P, 9), dim9);
    pmilnor_free(P);
}
