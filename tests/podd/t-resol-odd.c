/*
 * t-resol-odd.c -- the one resolution (resol.h) at an odd prime (issue 21
 * step 5): resol_new takes a module of any prime, the classical step and
 * the drivers run it, resol_ext_dim answers; Nassau's engine is refused at
 * odd p with one line.
 */
#include "podd_util.h"

TEST(resol_odd_S3_table)
{
    podd_table_t T;
    podd_table_load(&T, "ext-S3-n100-s30.csv", 100, 30);
    fdmod_t *M = fdmod_sphere_p(3);
    char err[256];
    ASSERT_EQ(resol_check_range(M, 20, 60, err, sizeof err), 0);
    resol_t *R = resol_new(M, 20, 60);
    ASSERT_EQ(resol_prime(R), 3);
    ASSERT_EQ(stalg_prime(resol_stalg(R)), 3);
    ASSERT_EQ(resol_run_pool(R, RESOL_AUTO, NULL, NULL), 0);
    for (int32_t n = 0; n <= 60; n++)
        for (int32_t s = 0; s <= 20; s++)
            if (resol_ext_dim(R, s, n) != podd_table_get(&T, n, s))
                sq_test_fail(__FILE__, __LINE__, "Ext^{%d, %d} of S_3: %lld, want %lld", s, s + n,
                             (long long)resol_ext_dim(R, s, n),
                             (long long)podd_table_get(&T, n, s));
    ASSERT_EQ(resol_ext_dim(R, 21, 0), -1);
    ASSERT(podd_verify(R, err, sizeof err) == 0);
    resol_free(R);
    fdmod_free(M);
    podd_table_clear(&T);
}

TEST(resol_odd_engines)
{
    fdmod_t *M = fdmod_sphere_p(5);
    char err[256];
    ASSERT_EQ(resol_auto_engine(M, 500), RESOL_CLASSICAL);
    ASSERT_EQ(resol_engine_check(M, RESOL_CLASSICAL, err, sizeof err), 0);
    ASSERT(resol_engine_check(M, RESOL_NASSAU, err, sizeof err) != 0);
    ASSERT(strstr(err, "prime 2 only") != NULL && strchr(err, '\n') == NULL);
    /* The odd prime's limits and messages. */
    ASSERT(resol_check_range(M, 10, 200000, err, sizeof err) == SQ_E_RANGE);
    ASSERT(strstr(err, "beyond the supported 100000") != NULL);
    /* Ext^{1, 2(p-1)} of S_5: h_0, by one thread on a pool. */
    resol_t *R = resol_new(M, 2, 10);
    sq_pool_t *pool = sq_pool_new(2);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, pool, NULL), 0);
    ASSERT_EQ(resol_ext_dim(R, 1, 7), 1);
    ASSERT_EQ(resol_ext_dim(R, 1, 0), 1);
    ASSERT_EQ(resol_ext_dim(R, 1, 1), 0);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
}
