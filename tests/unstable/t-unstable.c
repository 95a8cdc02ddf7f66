/*
 * t-unstable.c -- unstable resolutions (resol_unstable.h, docs/unstable.md)
 * against outside knowledge:
 *   - the E_2 page of the unstable Adams spectral sequence of S^n,
 *     Ext_U^{s, n + stem + s}(Sigma^n F_2, F_2), equals the homology of the
 *     Lambda algebra's subcomplex Lambda(n) (lambda.c, an independent
 *     oracle: Curtis's algebra from its relations and differential), for
 *     n = 1..8 through stem 20, cell by cell;
 *   - in the stable range (stem < n - 1) it is Ext_A of the sphere: S^22
 *     through stem 20 equals the stable resolution of S_2 and H(Lambda);
 *   - the unstable basis: dim F(n) in degree n + k is the number of
 *     admissible monomials Sq^I of degree k and excess <= n (counted
 *     straight from the definition);
 *   - the suspension E : Ext_U(S^n) -> Ext_U(S^{n+1}) (resol_suspension_new)
 *     has, cell by cell, the rank of H(Lambda(n)) -> H(Lambda(n + 1)), the
 *     map the inclusion induces (computed by the oracle), n = 1..6 through
 *     stem 14;
 *   - odd primes: the unstable E_2 page of S^3 at p = 3 through stem 19 has
 *     one class exactly in the stems where Toda's table puts a Z/3 in
 *     pi_{3+k}(S^3) (tests/data/unstable/toda-S3-p3.txt; E_2 = E_infinity
 *     there), S^1 only the a_0-tower, and S^40 is stable Ext of S_3 through
 *     stem 30;
 *   - a module that is not unstable is refused, naming the class and the
 *     operation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "lambda.h"
#include "milnor.h"
#include "fmat.h"
#include "resol.h"
#include "resol_map.h"
#include "resol_unstable.h"
#include "sq_test.h"
#include "ubasis.h"

/* The unstable resolution of S^n = Sigma^n F_2 through (max_s, stem n + m). */
static resol_t *sphere(int32_t n, int32_t max_s, int32_t m, fdmod_t **M)
{
    fdmod_t *S0 = fdmod_sphere();
    *M = fdmod_new_shifted(S0, n, NULL);
    fdmod_free(S0);
    resol_t *R = resol_new_unstable(*M, max_s, n + m);
    resol_run(R, RESOL_CLASSICAL);
    return R;
}

/* Every cell (s <= max_s, stem <= max_stem) of R (bottom n) against h. */
static void expect_cells(const resol_t *R, int32_t n, int32_t max_s, int32_t max_stem,
                         const int64_t *h, const char *what)
{
    int64_t total = 0;
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t m = 0; m <= max_stem; m++) {
            int64_t a = resol_ext_dim(R, s, n + m), b = h[s * (max_stem + 1) + m];
            if (a != b)
                sq_test_fail(__FILE__, __LINE__, "S^%d (stem %d, s %d): %lld, %s %lld", (int)n,
                             (int)m, (int)s, (long long)a, what, (long long)b);
            total += a;
        }
    ASSERT(total > 0);
}

static void lambda_check(int32_t max_s)
{
    int32_t M = 20;
    int64_t *h = sq_calloc((size_t)(max_s + 1) * (size_t)(M + 1), sizeof *h);
    for (int32_t n = 1; n <= 8; n++) {
        lambda_homology(n, max_s, M, h);
        fdmod_t *Sn;
        resol_t *R = sphere(n, max_s, M, &Sn);
        expect_cells(R, n, max_s, M, h, "H(Lambda(n))");
        resol_free(R);
        fdmod_free(Sn);
    }
    sq_free(h);
}

TEST(unstable_spheres_lambda_n1_8_stem20)
{
    lambda_check(7);
}

TEST(unstable_spheres_lambda_n1_8_stem20_s9_slow)
{
    lambda_check(9);
}

/* The stable range: S^22 through stem 20 is Ext_A(F_2) there (H(Lambda)
 * and the stable resolution of S_2 both). */
TEST(unstable_stable_limit)
{
    int32_t max_s = 7, M = 20, n = 22;
    int64_t *h = sq_calloc((size_t)(max_s + 1) * (size_t)(M + 1), sizeof *h);
    lambda_homology(-1, max_s, M, h);
    fdmod_t *Sn;
    resol_t *R = sphere(n, max_s, M, &Sn);
    expect_cells(R, n, max_s, M, h, "H(Lambda)");
    fdmod_t *S0 = fdmod_sphere();
    resol_t *T = resol_new(S0, max_s, M);
    resol_run(T, RESOL_CLASSICAL);
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t m = 0; m <= M; m++)
            ASSERT(resol_ext_dim(R, s, n + m) == resol_ext_dim(T, s, m));
    resol_free(T);
    fdmod_free(S0);
    resol_free(R);
    fdmod_free(Sn);
    sq_free(h);
}

/* Admissible sequences (i_1, ..., i_l), i_j >= 2 i_{j+1}, i_l >= 1, of
 * degree k and excess (2 i_1 - degree) <= n, counted by recursion: a
 * sequence starting with i has excess i - (the rest's degree). */
static int64_t count_adm(int32_t k, int32_t n, int32_t max_first)
{
    if (k == 0)
        return 1;
    int64_t c = 0;
    for (int32_t i = 1; i <= k && i <= max_first; i++)
        if (i - (k - i) <= n) /* excess of Sq^i Sq^J: i - |J| */
            c += count_adm(k - i, INT32_MAX / 4, i / 2);
    return c;
}

TEST(unstable_basis_counts)
{
    milnor_t *A = milnor_new(40);
    ubasis_t *U = ubasis_new(A);
    for (int32_t k = 0; k <= 40; k++)
        for (int32_t n = 0; n <= 42; n++)
            if (ubasis_dim(U, k, n) != count_adm(k, n, k))
                sq_test_fail(__FILE__, __LINE__, "dim F(%d) in degree %d: %lld, admissible %lld",
                             (int)n, (int)(n + k), (long long)ubasis_dim(U, k, n),
                             (long long)count_adm(k, n, k));
    /* The order is a permutation, sorted by excess. */
    for (int32_t k = 0; k <= 40; k++)
        for (int64_t i = 0; i < milnor_dim(A, k); i++) {
            ASSERT(ubasis_pos(U, k, ubasis_milnor(U, k, i)) == i);
            ASSERT(i == 0 || ubasis_excess(U, k, i - 1) <= ubasis_excess(U, k, i));
        }
    ubasis_free(U);
    milnor_free(A);
}

TEST(unstable_check_refuses)
{
    char err[256];
    milnor_t *A = milnor_new(8);
    /* C2[0]: Sq1 on the class of degree 0 is not unstable. */
    fdmod_t *C = fdmod_new("C2", 0, 1);
    fdmod_add_basis(C, 0, "x0");
    fdmod_add_basis(C, 1, "x1");
    fdmod_set_sq(C, A, 1, 0, 0, (const uint64_t[]){1});
    ASSERT(fdmod_complete(C, A, err, sizeof err) == 0);
    stalg_t *S = stalg_new_milnor(A);
    ASSERT(resol_unstable_check(C, S, err, sizeof err) == SQ_E_INVAL);
    ASSERT(strstr(err, "Sq1 x0 != 0") != NULL);
    /* C2[1] is unstable (Sq1 on a class of degree 1). */
    fdmod_t *C1 = fdmod_new_shifted(C, 1, NULL);
    ASSERT(resol_unstable_check(C1, S, err, sizeof err) == 0);
    stalg_free(S);
    fdmod_free(C1);
    fdmod_free(C);
    milnor_free(A);
}

/* The rank over F_2 of m (lambda_rank on its rows). */
static int64_t rank2(const fmat_t *m)
{
    int64_t rows = fmat_rows(m), cols = fmat_cols(m), limbs = (cols + 63) / 64 + 1;
    uint64_t *a = sq_calloc((size_t)(rows * limbs + 1), 8);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            if (fmat_get(m, i, j))
                a[i * limbs + j / 64] |= 1ULL << (j % 64);
    int64_t rank = lambda_rank(a, rows, limbs, cols);
    sq_free(a);
    return rank;
}

TEST(unstable_suspension_rank_lambda)
{
    int32_t S = 6, M = 14;
    int64_t *rk = sq_calloc((size_t)(S + 1) * (size_t)(M + 1), sizeof *rk);
    for (int32_t n = 1; n <= 6; n++) {
        lambda_suspension_rank(n, S, M, rk);
        fdmod_t *Ma, *Mb;
        resol_t *Ra = sphere(n, S, M, &Ma), *Rb = sphere(n + 1, S, M, &Mb);
        resol_map_t *F;
        ASSERT(resol_suspension_new(&F, Ra, Rb, S, n + M) == 0);
        int64_t total = 0;
        for (int32_t s = 0; s <= S; s++)
            for (int32_t m = 0; m <= M; m++) {
                fmat_t mat;
                ASSERT(resol_map_matrix(F, s, n + m, &mat) == 0);
                int64_t r = rank2(&mat);
                fmat_clear(&mat);
                if (r != rk[s * (M + 1) + m])
                    sq_test_fail(__FILE__, __LINE__,
                                 "E : S^%d -> S^%d at (stem %d, s %d): rank %lld, Lambda %lld",
                                 (int)n, (int)n + 1, (int)m, (int)s, (long long)r,
                                 (long long)rk[s * (M + 1) + m]);
                total += r;
            }
        ASSERT(total > 0);
        resol_map_free(F);
        resol_free(Ra);
        resol_free(Rb);
        fdmod_free(Ma);
        fdmod_free(Mb);
    }
    sq_free(rk);
}

/* S_p[n] resolved in U through (max_s, stem n + m). */
static resol_t *sphere_p(uint32_t p, int32_t n, int32_t max_s, int32_t m, fdmod_t **M)
{
    fdmod_t *S0 = fdmod_sphere_p(p);
    *M = fdmod_new_shifted(S0, n, NULL);
    fdmod_free(S0);
    resol_t *R = resol_new_unstable(*M, max_s, n + m);
    resol_run(R, RESOL_CLASSICAL);
    return R;
}

TEST(unstable_odd_S3_toda)
{
    int32_t S = 8, K = 19;
    fdmod_t *M;
    resol_t *R = sphere_p(3, 3, S, K, &M);
    char *text = sq_test_slurp(sq_test_data_path("unstable/toda-S3-p3.txt"));
    int64_t order[20] = {0};
    int lines = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
        int k, o;
        if (l[0] != '#' && sscanf(l, "%d %d", &k, &o) == 2 && k >= 1 && k <= K) {
            order[k] = o;
            lines++;
        }
    }
    ASSERT(lines == K);
    for (int32_t k = 1; k <= K; k++) {
        int64_t classes = 0;
        for (int32_t s = 0; s <= S; s++)
            classes += resol_ext_dim(R, s, 3 + k);
        if (classes != (order[k] == 3))
            sq_test_fail(__FILE__, __LINE__, "S^3 at p = 3, stem %d: %lld classes, Toda's order %lld",
                         (int)k, (long long)classes, (long long)order[k]);
    }
    for (int32_t s = 0; s <= S; s++)
        ASSERT(resol_ext_dim(R, s, 3) == 1); /* the a_0-tower */
    sq_free(text);
    resol_free(R);
    fdmod_free(M);
    /* S^1: the a_0-tower only. */
    R = sphere_p(3, 1, 6, 21, &M);
    for (int32_t s = 0; s <= 6; s++)
        for (int32_t k = 0; k <= 21; k++)
            ASSERT(resol_ext_dim(R, s, 1 + k) == (k == 0));
    resol_free(R);
    fdmod_free(M);
}

TEST(unstable_odd_stable_limit)
{
    fdmod_t *M;
    resol_t *R = sphere_p(3, 40, 8, 30, &M);
    fdmod_t *S0 = fdmod_sphere_p(3);
    resol_t *T = resol_new(S0, 8, 30);
    resol_run(T, RESOL_CLASSICAL);
    int64_t total = 0;
    for (int32_t s = 0; s <= 8; s++)
        for (int32_t m = 0; m <= 30; m++) {
            ASSERT(resol_ext_dim(R, s, 40 + m) == resol_ext_dim(T, s, m));
            total += resol_ext_dim(T, s, m);
        }
    ASSERT(total > 9);
    resol_free(T);
    fdmod_free(S0);
    resol_free(R);
    fdmod_free(M);
}
