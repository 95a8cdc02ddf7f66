/*
 * t-products-odd.c -- products on Ext at an odd prime (issue 21 step 6),
 * checked against facts that do not come from adams:
 *   - the filtration-one classes of S_3: a_0 in stem 0 and h_i in stem
 *     2p^i(p - 1) - 1, each the only class of Ext^1 there;
 *   - h_i^2 = 0 (graded commutativity in odd total degree), a_0 h_0 = 0,
 *     a_0^k != 0 for every k the region holds;
 *   - the long exact sequence of the Moore spectrum C3 = S/3: the
 *     connecting map of 0 -> Sigma F_3 -> H^*(C3) -> F_3 -> 0 is the
 *     product by a_0, so dim Ext^{s,t}(C3) = dim coker(a_0 : Ext^{s-1,t-1}
 *     -> Ext^{s,t}) + dim ker(a_0 : Ext^{s,t-1} -> Ext^{s+1,t}) (of S_3),
 *     exactly, in every bidegree through stem 60;
 *   - the product by the class a_0 or h_0 (the chain-map lift) is the
 *     filtration-one matrix.
 */
#include <string.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_products.h"
#include "stalg.h"
#include "sq_test.h"

enum { MAX_N = 60, MAX_S = 20 };

/* S_3 resolved through (MAX_N, MAX_S + 1): the extra row holds the targets
 * of a_0 from filtration MAX_S. */
static resol_t *sphere3(fdmod_t **M)
{
    *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(*M, MAX_S + 1, MAX_N);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, NULL, NULL), 0);
    return R;
}

/* The Moore spectrum's cohomology: cells x0, x1 in degrees 0, 1 with
 * beta x0 = x1 (modules/C3.json, built here without the reader). */
static fdmod_t *moore3(void)
{
    fdmod_t *M = fdmod_new_p("C3", 3, 0, 1);
    ASSERT_EQ(fdmod_add_basis(M, 0, "x0"), 0);
    ASSERT_EQ(fdmod_add_basis(M, 1, "x1"), 0);
    stalg_t *S = stalg_new(3, 1, NULL);
    uint8_t one = 1;
    fdmod_set_genf(M, S, 1, 0, 0, fvec_view_bytes(&one, 1, 3));
    char err[256];
    if (fdmod_complete_alg(M, S, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    stalg_free(S);
    return M;
}

/* The rank of c_k on Ext^{s, s+n} (0 when either side is empty). */
static int64_t filt1_rank(const resol_t *R, int k, int32_t s, int32_t n)
{
    if (s < 0)
        return 0;
    fmat_t m;
    ASSERT_EQ(resol_filt1_matrix(R, k, s, s + n, &m), 0);
    int64_t r = fmat_rows(&m) && fmat_cols(&m) ? fmat_rank(&m) : 0;
    fmat_clear(&m);
    return r;
}

TEST(filt1_names_degrees)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    static const int32_t deg3[] = {1, 4, 12, 36};
    char name[16];
    for (int k = 0; k < 4; k++) {
        ASSERT_EQ(resol_filt1_degree(R, k), deg3[k]);
        resol_filt1_name(R, k, name, sizeof name);
        ASSERT_STR_EQ(name, k == 0 ? "a0" : k == 1 ? "h0" : k == 2 ? "h1" : "h2");
        /* The class is the only one of Ext^1 in its stem 2p^i(p - 1) - 1
         * (a_0: stem 0), and c_k . 1 is it. */
        int32_t n = deg3[k] - 1;
        ASSERT_EQ(resol_ext_dim(R, 1, n), 1);
        fmat_t m;
        ASSERT_EQ(resol_filt1_matrix(R, k, 0, 0, &m), 0);
        ASSERT_EQ(fmat_prime(&m), 3);
        ASSERT_EQ(fmat_rows(&m), 1);
        ASSERT_EQ(fmat_cols(&m), 1);
        ASSERT(fmat_get(&m, 0, 0) != 0);
        fmat_clear(&m);
    }
    /* h_3 (degree 108) lies beyond the algebra of a run through stem 60. */
    ASSERT_EQ(resol_filt1_degree(R, 4), -1);
    fmat_t m;
    ASSERT_EQ(resol_filt1_matrix(R, 4, 0, 0, &m), SQ_E_RANGE);
    ASSERT_EQ(fmat_rows(&m), 0);
    ASSERT_EQ(resol_filt1_degree(R, 31), -1);
    ASSERT_EQ(resol_filt1_degree(R, -1), -1);
    /* Ext^1 is a_0 and the h_i only. */
    for (int32_t n = 0; n <= MAX_N; n++)
        ASSERT_EQ(resol_ext_dim(R, 1, n), n == 0 || n == 3 || n == 11 || n == 35);
    /* The target row beyond the region: refused. */
    ASSERT_EQ(resol_filt1_matrix(R, 0, MAX_S + 1, MAX_S + 1, &m), SQ_E_RANGE);
    resol_free(R);
    fdmod_free(M);
    /* At p = 2 the names are h0, h1, ... and the degrees 2^k. */
    M = fdmod_sphere();
    R = resol_new(M, 2, 10);
    resol_run(R, RESOL_CLASSICAL);
    resol_filt1_name(R, 0, name, sizeof name);
    ASSERT_STR_EQ(name, "h0");
    resol_filt1_name(R, 3, name, sizeof name);
    ASSERT_STR_EQ(name, "h3");
    ASSERT_EQ(resol_filt1_degree(R, 3), 8);
    ASSERT_EQ(resol_filt1_degree(R, 4), -1);
    resol_free(R);
    fdmod_free(M);
}

/* h_i^2 = 0, a_0 h_0 = 0, a_0^k != 0 (k <= MAX_S + 1), by the matrices. */
TEST(filt1_relations)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    /* h_i^2 = 0: h_i . h_i, the matrix of h_i on Ext^{1, deg} is zero. */
    for (int k = 1; k <= 3; k++) {
        int32_t d = resol_filt1_degree(R, k);
        if (2 * d - 2 > MAX_N)
            continue;
        fmat_t m;
        ASSERT_EQ(resol_filt1_matrix(R, k, 1, d, &m), 0);
        ASSERT_EQ(fmat_cols(&m), 1);
        for (int64_t i = 0; i < fmat_rows(&m); i++)
            ASSERT_EQ(fmat_get(&m, i, 0), 0);
        fmat_clear(&m);
    }
    /* a_0 h_0 = 0 (both orders) and h_0 a_0 = 0: Ext^{2, 5}. */
    ASSERT_EQ(filt1_rank(R, 0, 1, 3), 0);
    ASSERT_EQ(filt1_rank(R, 1, 1, 0), 0);
    /* The a_0-tower on 1: a_0^k, k = 1 .. MAX_S + 1. */
    uint8_t x[1] = {1}, y[8];
    for (int32_t s = 0; s <= MAX_S; s++) {
        ASSERT_EQ(resol_ext_dim(R, s + 1, 0), 1);
        ASSERT_EQ(resol_filt1_product(R, 0, s, s, fvec_view_bytes(x, 1, 3),
                                      fvec_view_bytes(y, 1, 3)),
                  0);
        ASSERT(y[0] != 0);
        x[0] = y[0];
    }
    resol_free(R);
    fdmod_free(M);
}

/* The long exact sequence of C3 = S/3, bidegree by bidegree. */
TEST(filt1_moore_les)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    fdmod_t *C = moore3();
    resol_t *RC = resol_new(C, MAX_S, MAX_N);
    ASSERT_EQ(resol_run_pool(RC, RESOL_CLASSICAL, NULL, NULL), 0);
    int64_t nonzero = 0, kernels = 0;
    for (int32_t n = 0; n <= MAX_N; n++)
        for (int32_t s = 0; s <= MAX_S; s++) {
            int64_t coker = resol_ext_dim(R, s, n) - filt1_rank(R, 0, s - 1, n);
            int64_t ker = n >= 1 ? resol_ext_dim(R, s, n - 1) - filt1_rank(R, 0, s, n - 1) : 0;
            int64_t got = resol_ext_dim(RC, s, n);
            if (got != coker + ker)
                sq_test_fail(__FILE__, __LINE__,
                             "Ext^{%d,%d}(C3) = %lld, the sequence gives %lld + %lld", (int)s,
                             (int)(s + n), (long long)got, (long long)coker, (long long)ker);
            nonzero += got > 0;
            kernels += ker > 0;
        }
    ASSERT(nonzero > 100);
    ASSERT(kernels > 20);
    resol_free(RC);
    fdmod_free(C);
    resol_free(R);
    fdmod_free(M);
}
