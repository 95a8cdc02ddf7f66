/*
 * t-extmn.c -- Ext(M, N) for finite modules (resol_extmn.h), checked
 * against outside knowledge:
 *   - Ext(M, F_p) is the ordinary Ext of M, cell for cell (C2, Joker at
 *     p = 2, C3 at p = 3);
 *   - Ext(M, N) = Ext(M ⊗ DN, F_p) with DN the Spanier-Whitehead dual of
 *     N: Hom_A(M, N) = Hom_A(M ⊗ DN, F_p).  DC2 = C2[-1] (cells -1, 0,
 *     Sq^1), DCeta = Ceta[-2], DC3 = C3[-1]; so Ext(C2, C2) through
 *     (30, 15) equals Ext(C2 * C2[-1]), likewise Ceta and C3 (issue 24's
 *     done-when);
 *   - the long exact sequence of 0 -> S^1 -> C2 -> S^0 -> 0 in the second
 *     variable bounds dim Ext(C2, C2) by the sum of its neighbours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "fdmod_tensor.h"
#include "resol.h"
#include "resol_extmn.h"
#include "sq_modspec.h"
#include "sq_test.h"
#include "test_modules.h"

/* Ext(M, N) through (max_s, max_n), its resolution in *R (freed by the
 * caller). */
static resol_extmn_t *extmn(const fdmod_t *M, const fdmod_t *N, int32_t max_s, int32_t max_n,
                            resol_t **R)
{
    int32_t rs, rn;
    char err[512];
    resol_extmn_region(N, max_s, max_n, &rs, &rn);
    *R = resol_new(M, rs, rn);
    resol_run(*R, RESOL_CLASSICAL);
    resol_extmn_t *E = NULL;
    if (resol_extmn_new(&E, *R, N, max_s, max_n, 0, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    return E;
}

/* Every cell of Ext(M, N) through (max_s, max_n) equals that of the
 * resolution T's Ext (its region covering it; zero below its bottom). */
static void expect_same(const resol_extmn_t *E, const resol_t *T, int32_t max_s, int32_t max_n)
{
    int64_t total = 0;
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t n = resol_extmn_min_n(E); n <= max_n; n++) {
            int64_t a = resol_extmn_dim(E, s, n);
            int64_t b = n < resol_min_n(T) ? 0 : resol_ext_dim(T, s, n);
            if (a != b)
                sq_test_fail(__FILE__, __LINE__, "Ext at (n %d, s %d): %lld, expected %lld",
                             (int)n, (int)s, (long long)a, (long long)b);
            total += a;
        }
    ASSERT(total > 0);
}

/* Ext(M, F_p) is Ext(M) cell for cell. */
static void check_sphere(const char *name, uint32_t p, int32_t max_s, int32_t max_n)
{
    fdmod_t *M = test_module_shipped(name), *S = fdmod_sphere_p(p);
    resol_t *R;
    resol_extmn_t *E = extmn(M, S, max_s, max_n, &R);
    ASSERT(resol_extmn_min_n(E) == fdmod_bottom(M));
    expect_same(E, R, max_s, max_n);
    resol_extmn_free(E);
    resol_free(R);
    fdmod_free(S);
    fdmod_free(M);
}

TEST(extmn_sphere_coefficients)
{
    check_sphere("C2", 2, 10, 20);
    check_sphere("Joker", 2, 8, 16);
    check_sphere("C3", 3, 6, 30);
}

/* Ext(M, M) equals Ext(M ⊗ M[-k]) (M a two-cell complex with cells 0, k:
 * its dual is M[-k]). */
static void check_dual(const char *name, int32_t k, int32_t max_s, int32_t max_n)
{
    char err[512];
    fdmod_t *M = test_module_shipped(name), *D = fdmod_new_shifted(M, -k, NULL), *T = NULL;
    ASSERT(fdmod_tensor(&T, M, D, NULL, INT32_MAX, 0, err, sizeof err) == 0);
    resol_t *R, *RT = resol_new(T, max_s, max_n);
    resol_run(RT, RESOL_CLASSICAL);
    resol_extmn_t *E = extmn(M, M, max_s, max_n, &R);
    ASSERT(resol_extmn_min_n(E) == -k);
    expect_same(E, RT, max_s, max_n);
    resol_extmn_free(E);
    resol_free(R);
    resol_free(RT);
    fdmod_free(T);
    fdmod_free(D);
    fdmod_free(M);
}

TEST(extmn_c2_c2_dual)
{
    check_dual("C2", 1, 15, 30);
}

TEST(extmn_ceta_dual_and_c3)
{
    check_dual("Ceta", 2, 10, 24);
    check_dual("C3", 1, 8, 40);
}

/* Ext(C2, -) on 0 -> S^1 -> C2 -> S^0 -> 0 (cohomology: the top cell is
 * the submodule): ... -> Ext(C2, S^1) -> Ext(C2, C2) -> Ext(C2, S^0) -> ...
 * exact in the middle, so dim Ext(C2, C2) <= dim Ext(C2, S^1) + dim
 * Ext(C2, S^0) at every (s, t); and the Euler characteristics agree
 * along each t, through the stems where every term is computed. */
TEST(extmn_long_exact_bound)
{
    fdmod_t *M = test_module_shipped("C2"), *S = fdmod_sphere_p(2), *S1 = fdmod_new_shifted(S, 1, NULL);
    resol_t *R0, *R1, *R2;
    resol_extmn_t *E = extmn(M, M, 8, 16, &R0), *A = extmn(M, S1, 8, 16, &R1),
                  *B = extmn(M, S, 8, 16, &R2);
    for (int32_t s = 0; s <= 8; s++)
        for (int32_t n = 0; n <= 16; n++) {
            int64_t a = n - 1 >= resol_extmn_min_n(A) ? resol_extmn_dim(A, s, n) : 0;
            ASSERT(resol_extmn_dim(E, s, n) <= a + resol_extmn_dim(B, s, n));
        }
    resol_extmn_free(E);
    resol_extmn_free(A);
    resol_extmn_free(B);
    resol_free(R0);
    resol_free(R1);
    resol_free(R2);
    fdmod_free(S1);
    fdmod_free(S);
    fdmod_free(M);
}

TEST(extmn_refusals)
{
    char err[512];
    fdmod_t *M = test_module_shipped("C2"), *S3 = fdmod_sphere_p(3);
    ASSERT(resol_extmn_check(M, S3, err, sizeof err) == SQ_E_INVAL);
    ASSERT(strstr(err, "prime") != NULL);
    resol_t *R = resol_new(M, 3, 5);
    resol_run(R, RESOL_CLASSICAL);
    resol_extmn_t *E = NULL;
    ASSERT(resol_extmn_new(&E, R, M, 3, 5, 0, err, sizeof err) == SQ_E_RANGE && E == NULL);
    ASSERT(resol_extmn_new(&E, R, M, 2, 3, 1, err, sizeof err) == SQ_E_NOMEM && E == NULL);
    ASSERT(strstr(err, "more than 1 bytes") != NULL);
    ASSERT(resol_extmn_new(&E, R, M, 2, 3, 0, err, sizeof err) == 0 && E != NULL);
    resol_extmn_free(E);
    resol_free(R);
    fdmod_free(S3);
    fdmod_free(M);
}
