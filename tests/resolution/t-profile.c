/*
 * t-profile.c -- Ext over sub-Hopf algebras (modules with a profile),
 * against hand-derivable answers: Ext_{A(1)}(F_2) (ko) in closed form,
 * and Ext_{A(2)}(F_2) (tmf) in its first stems.
 */
#include <string.h>

#include "resol.h"
#include "sq_test.h"

static fdmod_t *point_over(const char *name, const int32_t *h, int len)
{
    fdmod_t *M = fdmod_new(name, 0, 0);
    fdmod_add_basis(M, 0, "x0");
    fdmod_set_profile(M, h, len);
    return M;
}

/* Ext_{A(1)}^{s, s+n}(F_2): with n = 8k + r, a class in
 *   r = 0: s >= 4k (the h_0-tower on b^k);  r = 1: s = 4k + 1 (h_1 b^k);
 *   r = 2: s = 4k + 2 (h_1^2 b^k);          r = 4: s >= 4k + 3 (tower on a b^k);
 * and nothing else. */
static int64_t ko_dim(int32_t n, int32_t s)
{
    int32_t k = n / 8, r = n % 8;
    switch (r) {
    case 0: return s >= 4 * k;
    case 1: return s == 4 * k + 1;
    case 2: return s == 4 * k + 2;
    case 4: return s >= 4 * k + 3;
    default: return 0;
    }
}

TEST(profile_ko_closed_form)
{
    int32_t h[] = {2, 1};
    fdmod_t *M = point_over("ko", h, 2);
    resol_t *R = resol_new(M, 24, 40);
    resol_run(R, RESOL_AUTO);
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= 24; s++)
            if (resol_ext_dim(R, s, n) != ko_dim(n, s))
                sq_test_fail(__FILE__, __LINE__, "Ext_A(1)^{%d,%d}: got %lld, want %lld", s,
                             s + n, (long long)resol_ext_dim(R, s, n), (long long)ko_dim(n, s));
    resol_free(R);
    fdmod_free(M);
}

TEST(profile_tmf_low_stems)
{
    /* Ext_{A(2)}(F_2) through stem 7: the h_0-tower in stem 0, h_1 (1,1),
     * h_1^2 (2,2), h_2, h_0 h_2, h_0^2 h_2 = h_1^3 in stem 3, h_2^2 (6,2),
     * nothing in stems 4, 5, 7 (no h_3: Sq^8 is not in A(2)); c_0 at (8,3). */
    int32_t h[] = {3, 2, 1};
    fdmod_t *M = point_over("tmf2", h, 3);
    resol_t *R = resol_new(M, 12, 12);
    resol_run(R, RESOL_AUTO);
    int64_t want[9][13] = {{0}};
    for (int s = 0; s <= 12; s++)
        want[0][s] = 1;
    want[1][1] = 1;
    want[2][2] = 1;
    want[3][1] = want[3][2] = want[3][3] = 1;
    want[6][2] = 1;
    for (int32_t n = 0; n <= 7; n++)
        for (int32_t s = 0; s <= 12; s++)
            if (resol_ext_dim(R, s, n) != want[n][s])
                sq_test_fail(__FILE__, __LINE__, "Ext_A(2)^{%d,%d}: got %lld, want %lld", s,
                             s + n, (long long)resol_ext_dim(R, s, n), (long long)want[n][s]);
    ASSERT_EQ(resol_ext_dim(R, 3, 8), 1);
    resol_free(R);
    fdmod_free(M);
}

TEST(profile_engine_check)
{
    int32_t h[] = {3, 2, 1};
    fdmod_t *M = point_over("tmf2", h, 3), *S = fdmod_sphere();
    char err[256];
    ASSERT_EQ(resol_engine_check(M, RESOL_NASSAU, err, sizeof err), SQ_E_INVAL);
    ASSERT_EQ(resol_engine_check(M, RESOL_AUTO, err, sizeof err), 0);
    ASSERT_EQ(resol_engine_check(S, RESOL_NASSAU, err, sizeof err), 0);
    fdmod_free(M);
    fdmod_free(S);
}

/* The action of Sq1 and Sq2 on A(1) by left multiplication, set on M
 * (whose basis is that of B = A(1)) through the algebra A. */
static void set_left_action(fdmod_t *M, const milnor_t *A, const milnor_t *B)
{
    for (int32_t a = 1; a <= 2; a *= 2) {
        int32_t r = a;
        int64_t ia = milnor_index(B, &r, 1);
        for (int32_t d = 0; d + a <= 6; d++)
            for (int64_t i = 0; i < milnor_dim(B, d); i++) {
                uint64_t v[2] = {0, 0};
                milnor_mul_add(B, v, 0, a, ia, d, i);
                fdmod_set_sq(M, A, a, d, i, v);
            }
    }
}

TEST(profile_free_module_A1)
{
    /* A(1) as a module over itself (not a module over A: Sq4 would have to
     * act).  Completed inside A(1); it is free, so Ext_{A(1)}(A(1), F_2) is
     * F_2 in (s, n) = (0, 0) and zero elsewhere. */
    int32_t h[] = {2, 1};
    milnor_t *B = milnor_new_profile(12, h, 2);
    fdmod_t *M = fdmod_new("A(1)", 0, 6);
    for (int32_t d = 0; d <= 6; d++)
        for (int64_t i = 0; i < milnor_dim(B, d); i++) {
            char nm[32];
            milnor_format(nm, sizeof nm, B, d, i);
            fdmod_add_basis(M, d, nm);
        }
    ASSERT_EQ(fdmod_dim(M, 3), 2);
    set_left_action(M, B, B);
    fdmod_set_profile(M, h, 2);
    char err[512];
    if (fdmod_complete(M, B, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *R = resol_new(M, 6, 12);
    resol_run(R, RESOL_AUTO);
    for (int32_t n = 0; n <= 12; n++)
        for (int32_t s = 0; s <= 6; s++)
            ASSERT_EQ(resol_ext_dim(R, s, n), n == 0 && s == 0);
    resol_free(R);
    fdmod_free(M);
    /* Over the whole algebra the same action is not a module. */
    milnor_t *A = milnor_new(12);
    fdmod_t *N = fdmod_new("A(1) over A", 0, 6);
    for (int32_t d = 0; d <= 6; d++)
        for (int64_t i = 0; i < milnor_dim(B, d); i++)
            fdmod_add_basis(N, d, NULL);
    set_left_action(N, A, B);
    ASSERT_EQ(fdmod_complete(N, A, err, sizeof err), SQ_E_INVAL);
    fdmod_free(N);
    milnor_free(A);
    milnor_free(B);
}

TEST(profile_not_generated)
{
    /* E(1) = [1,1] contains Q_1 = Sq(0,1), which is not a sum of products of
     * the Sq^(2^k) in E(1) (only Sq1): refused with a clear message. */
    int32_t h[] = {1, 1};
    milnor_t *B = milnor_new_profile(8, h, 2);
    fdmod_t *M = fdmod_new("E1", 0, 3);
    fdmod_add_basis(M, 0, NULL);
    fdmod_add_basis(M, 3, NULL);
    char err[512] = "";
    ASSERT_EQ(fdmod_complete(M, B, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not generated") != NULL);
    fdmod_free(M);
    milnor_free(B);
}
