/*
 * t-profile.c -- Ext over sub-Hopf algebras (modules with a profile),
 * against hand-derivable answers: Ext_{A(1)}(F_2) (ko) in closed form,
 * and Ext_{A(2)}(F_2) (tmf) in its first stems.
 */
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
