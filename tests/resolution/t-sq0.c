/*
 * t-sq0.c -- Sq^0 on Ext of the sphere (resol_sq0.h), checked against what
 * is known from outside adams (May, "A general algebraic approach to
 * Steenrod operations", 1970; Bruner's tables): Sq^0 h_i = h_{i+1},
 * Sq^0 c_0 = c_1, Sq^0 d_0 = d_1 (each the only class of its bidegree, so
 * no basis is involved), Sq^0 is a ring map (Sq^0(y x) = Sq^0 y Sq^0 x on
 * every pair of basis classes of the region, the products by
 * resol_product, an independent code path), and the engines agree up to
 * their bases (both are checked multiplicative and both give h_{i+1}).
 */
#include <stdio.h>
#include <string.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_products.h"
#include "resol_sq0.h"
#include "sq_core.h"
#include "sq_test.h"
#include "test_modules.h"

enum { MAX_N = 34, MAX_S = 12 };

static resol_t *sphere(resol_algo_t algo, int32_t max_n, int32_t max_s, fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, max_s, max_n);
    resol_run(R, algo);
    return R;
}

/* Sq^0 of the basis class x_(n, s, i) into out (a vector of the Ext
 * dimension at (2n + s, s)). */
static void sq0_of(const resol_sq0_t *Q, int32_t s, int32_t n, fvec_t x, fvec_t out)
{
    fmat_t m;
    ASSERT_EQ(resol_sq0_matrix(Q, s, n, &m), 0);
    fvec_zero(out);
    for (int64_t i = 0; i < fmat_rows(&m); i++)
        if (fvec_get(x, i))
            for (int64_t j = 0; j < fmat_cols(&m); j++)
                fvec_add_entry(out, j, fmat_get(&m, i, j));
    fmat_clear(&m);
}

/* The only class of Ext at (n, s) goes to the only class at (2n + s, s). */
static void unique_to_unique(const resol_t *R, const resol_sq0_t *Q, int32_t n, int32_t s)
{
    ASSERT_EQ(resol_ext_dim(R, s, n), 1);
    ASSERT_EQ(resol_ext_dim(R, s, 2 * n + s), 1);
    fmat_t m;
    ASSERT_EQ(resol_sq0_matrix(Q, s, n, &m), 0);
    ASSERT_EQ(fmat_get(&m, 0, 0), 1);
    fmat_clear(&m);
}

static void check_named(resol_algo_t algo)
{
    fdmod_t *M;
    resol_t *R = sphere(algo, MAX_N, MAX_S, &M);
    resol_sq0_t *Q;
    ASSERT_EQ(resol_sq0_new(&Q, R), 0);
    unique_to_unique(R, Q, 0, 0); /* Sq^0 1 = 1 */
    for (int i = 0; i <= 4; i++)  /* h_i at (2^i - 1, 1) -> h_{i+1} */
        unique_to_unique(R, Q, (1 << i) - 1, 1);
    unique_to_unique(R, Q, 8, 3);  /* c_0 -> c_1 at (19, 3) */
    unique_to_unique(R, Q, 14, 4); /* d_0 -> d_1 at (32, 4) */
    /* h_0^k -> h_1^k: h_0^4 goes to h_1^4 = 0 (the image bidegree (4, 4) is zero). */
    for (int32_t k = 1; k <= 3; k++)
        unique_to_unique(R, Q, 0, k);
    fmat_t m;
    ASSERT_EQ(resol_sq0_matrix(Q, 4, 0, &m), 0);
    ASSERT_EQ(fmat_cols(&m), 0);
    fmat_clear(&m);
    ASSERT_EQ(resol_sq0_matrix(Q, 1, 17, &m), SQ_E_RANGE); /* image at stem 35: outside */
    resol_sq0_free(Q);
    resol_free(R);
    fdmod_free(M);
}

TEST(sq0_named_classes_classical) { check_named(RESOL_CLASSICAL); }
TEST(sq0_named_classes_nassau) { check_named(RESOL_NASSAU); }

/* Sq^0(y x) = Sq^0(y) Sq^0(x) for every pair of basis classes x at (n, s)
 * and y at (n2, s2) with 2(n + n2) + s + s2 <= max_n, s2 <= 3. */
static void check_multiplicative(resol_algo_t algo, int32_t max_n)
{
    fdmod_t *M;
    resol_t *R = sphere(algo, max_n, MAX_S, &M);
    resol_sq0_t *Q;
    ASSERT_EQ(resol_sq0_new(&Q, R), 0);
    int64_t pairs = 0;
    for (int32_t s2 = 1; s2 <= 3; s2++)
        for (int32_t n2 = 0; 2 * n2 + s2 <= max_n; n2++)
            for (int32_t s = 0; s + s2 <= MAX_S; s++)
                for (int32_t n = 0; 2 * (n + n2) + s + s2 <= max_n; n++) {
                    int64_t dy = resol_ext_dim(R, s2, n2), dx = resol_ext_dim(R, s, n);
                    if (dy <= 0 || dx <= 0 || resol_ext_dim(R, s + s2, n + n2) <= 0)
                        continue;
                    int32_t t = n + s, t2 = n2 + s2;
                    int64_t dxy = resol_ext_dim(R, s + s2, n + n2);
                    int64_t dqx = resol_ext_dim(R, s, 2 * n + s);
                    int64_t dqy = resol_ext_dim(R, s2, 2 * n2 + s2);
                    int64_t dq = resol_ext_dim(R, s + s2, 2 * (n + n2) + s + s2);
                    for (int64_t i = 0; i < dx; i++)
                        for (int64_t j = 0; j < dy; j++) {
                            fvec_t x, y, xy, qxy, qx, qy, lhs, rhs;
                            fvec_init(&x, dx, 2);
                            fvec_init(&y, dy, 2);
                            fvec_init(&xy, dxy, 2);
                            fvec_init(&qxy, dq, 2);
                            fvec_init(&qx, dqx > 0 ? dqx : 1, 2);
                            fvec_init(&qy, dqy > 0 ? dqy : 1, 2);
                            fvec_init(&lhs, dq, 2);
                            fvec_init(&rhs, dq, 2);
                            fvec_set(x, i, 1);
                            fvec_set(y, j, 1);
                            ASSERT_EQ(resol_product(R, R, s, t, x, s2, t2, y, xy), 0);
                            sq0_of(Q, s + s2, n + n2, xy, lhs);
                            sq0_of(Q, s, n, x, qx);
                            sq0_of(Q, s2, n2, y, qy);
                            if (dqx > 0 && dqy > 0)
                                ASSERT_EQ(resol_product(R, R, s, 2 * t, qx, s2, 2 * t2, qy, rhs),
                                          0);
                            if (!fvec_equal(lhs, rhs))
                                sq_test_fail(__FILE__, __LINE__,
                                             "Sq0(x_(%d,%d,%lld) x_(%d,%d,%lld)) != Sq0 Sq0",
                                             (int)n, (int)s, (long long)i, (int)n2, (int)s2,
                                             (long long)j);
                            pairs++;
                            fvec_clear(&x);
                            fvec_clear(&y);
                            fvec_clear(&xy);
                            fvec_clear(&qxy);
                            fvec_clear(&qx);
                            fvec_clear(&qy);
                            fvec_clear(&lhs);
                            fvec_clear(&rhs);
                        }
                }
    ASSERT(pairs > 100);
    resol_sq0_free(Q);
    resol_free(R);
    fdmod_free(M);
}

TEST(sq0_multiplicative_classical) { check_multiplicative(RESOL_CLASSICAL, 40); }
TEST(sq0_multiplicative_nassau) { check_multiplicative(RESOL_NASSAU, 40); }
TEST(sq0_multiplicative_n60_slow) { check_multiplicative(RESOL_CLASSICAL, 60); }

/* Only the sphere at p = 2 over the whole algebra. */
TEST(sq0_refuses_other_modules)
{
    fdmod_t *M = test_module_C2();
    resol_t *R = resol_new(M, 3, 6);
    resol_run(R, RESOL_CLASSICAL);
    resol_sq0_t *Q = (resol_sq0_t *)1;
    ASSERT_EQ(resol_sq0_new(&Q, R), SQ_E_INVAL);
    ASSERT(Q == NULL);
    resol_free(R);
    fdmod_free(M);
}
