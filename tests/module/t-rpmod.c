/*
 * t-rpmod.c -- stunted real projective spaces: RP^4 against its action by
 * the Sq^{2^k} (the shipped modules/RP4.json), negative cells against
 * hand-computed binomial coefficients, the clear_bottom convention over
 * A(2), refusals, and the module-axiom checker.
 */
#include <string.h>

#include "fdmod.h"
#include "rpmod.h"
#include "sq_test.h"

/* The entry of Sq(R) x_n (R = r[0..len)) in a module with one basis element
 * per degree, 0 or 1. */
static int act(const fdmod_t *M, const milnor_t *A, int32_t n, const int32_t *r, int len)
{
    int32_t k = milnor_pdegree(r, len);
    const uint64_t *w = fdmod_action(M, k, milnor_index(A, r, len), n, 0);
    return w ? (int)(w[0] & 1) : 0;
}

static int sq(const fdmod_t *M, const milnor_t *A, int32_t i, int32_t n)
{
    return act(M, A, n, &i, 1);
}

static fdmod_t *rp(const milnor_t *A, int32_t min, int have_max, int32_t max, int clear,
                   int32_t max_degree)
{
    fdmod_t *M = NULL;
    char err[512] = "";
    int rc =
        rpmod_build(&M, A, "RP", min, have_max, max, clear, max_degree, 1 << 30, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "rpmod_build: %s", err);
    return M;
}

TEST(rpmod_rp4_matches_shipped)
{
    /* modules/RP4.json: Sq1 x1 = x2, Sq1 x3 = x4, Sq2 x2 = x4, the other
     * Sq^{2^k} zero (Sq2 x1: binom(1,2) = 0), completed by fdmod_complete;
     * every Milnor basis element must act the same way in both. */
    milnor_t *A = milnor_new(8);
    fdmod_t *R = rp(A, 1, 1, 4, 0, 10);
    fdmod_t *S = fdmod_new("RP4", 1, 4);
    for (int k = 1; k <= 4; k++)
        fdmod_add_basis(S, k, NULL);
    uint64_t one = 1;
    fdmod_set_sq(S, A, 1, 1, 0, &one);
    fdmod_set_sq(S, A, 1, 3, 0, &one);
    fdmod_set_sq(S, A, 2, 2, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete(S, A, err, sizeof err), 0);
    ASSERT_EQ(fdmod_bottom(R), 1);
    ASSERT_EQ(fdmod_top(R), 4);
    for (int32_t n = 1; n <= 4; n++) {
        ASSERT_EQ(fdmod_dim(R, n), 1);
        char name[8];
        snprintf(name, sizeof name, "x%d", (int)n);
        ASSERT_STR_EQ(fdmod_basis_name(R, n, 0), name);
        for (int32_t k = 1; n + k <= 4; k++)
            for (int64_t op = 0; op < milnor_dim(A, k); op++) {
                const uint64_t *a = fdmod_action(R, k, op, n, 0), *b = fdmod_action(S, k, op, n, 0);
                ASSERT_EQ(a ? a[0] : 0, b ? b[0] : 0);
            }
    }
    ASSERT_EQ(sq(R, A, 2, 1), 0);
    ASSERT_EQ(sq(R, A, 3, 1), 0);
    ASSERT_EQ(sq(R, A, 2, 2), 1);
    const int32_t q[] = {0, 1};
    ASSERT_EQ(act(R, A, 1, q, 2), 1); /* Q1 x = x^4 */
    fdmod_free(S);
    fdmod_free(R);
    milnor_free(A);
}

TEST(rpmod_negative_cells)
{
    /* Sq^i x_n = binom(n, i) x_{n+i}, binom(-m, i) = (-1)^i binom(m+i-1, i):
     * binom(-4,1) = -4, binom(-3,1) = -3, binom(-3,2) = 6, binom(-2,2) = 3,
     * binom(-4,2) = 10, binom(-4,4) = 35, binom(-3,4) = 15, binom(-4,3) =
     * -20, binom(-1,3) = -1, binom(-2,3) = -4; and Q1 x_n = n x_{n+3}. */
    milnor_t *A = milnor_new(16);
    fdmod_t *M = rp(A, -4, 0, 0, 0, 4);
    ASSERT_EQ(fdmod_bottom(M), -4);
    ASSERT_EQ(fdmod_top(M), 4);
    ASSERT_STR_EQ(fdmod_basis_name(M, -4, 0), "x-4");
    ASSERT_EQ(sq(M, A, 1, -4), 0);
    ASSERT_EQ(sq(M, A, 1, -3), 1);
    ASSERT_EQ(sq(M, A, 2, -3), 0);
    ASSERT_EQ(sq(M, A, 2, -2), 1);
    ASSERT_EQ(sq(M, A, 2, -4), 0);
    ASSERT_EQ(sq(M, A, 4, -4), 1);
    ASSERT_EQ(sq(M, A, 4, -3), 1);
    ASSERT_EQ(sq(M, A, 3, -4), 0);
    ASSERT_EQ(sq(M, A, 3, -1), 1);
    ASSERT_EQ(sq(M, A, 3, -2), 0);
    const int32_t q1[] = {0, 1};
    ASSERT_EQ(act(M, A, -1, q1, 2), 1);
    ASSERT_EQ(act(M, A, -4, q1, 2), 0);
    /* x^0 = 1: nothing acts on x_0. */
    for (int32_t k = 1; k <= 4; k++)
        for (int64_t op = 0; op < milnor_dim(A, k); op++)
            ASSERT(fdmod_action(M, k, op, 0, 0) == NULL);
    char err[512];
    ASSERT_EQ(fdmod_check_module(M, A, err, sizeof err), 0);
    /* The coefficient itself: (n; n - sum r, r_1, r_2) mod 2. */
    const int32_t r21[] = {2, 1}, r11[] = {1, 1};
    ASSERT_EQ(rpmod_coeff(3, r21, 2), 1);  /* 3! / (0! 2! 1!) = 3 */
    ASSERT_EQ(rpmod_coeff(5, r21, 2), 0);  /* 5! / (2! 2! 1!) = 30 */
    ASSERT_EQ(rpmod_coeff(7, r11, 2), 0);  /* 7! / (5! 1! 1!) = 42 */
    ASSERT_EQ(rpmod_coeff(-1, r21, 2), 1); /* the 2-adic limit: -1 has every bit */
    fdmod_free(M);
    milnor_free(A);
}

TEST(rpmod_clear_bottom_over_A2)
{
    /* min = -16 rises to -9 (-9 + 1 = -8); -8, -7, -6, -4 are dropped
     * (and 0, above max). */
    const int32_t h[] = {3, 2, 1};
    milnor_t *B = milnor_new_profile(20, h, 3);
    fdmod_t *M = rp(B, -16, 1, -1, 1, 10);
    const int32_t want[] = {-9, -5, -3, -2, -1};
    int64_t total = 0;
    for (int32_t d = -16; d <= 10; d++)
        total += fdmod_dim(M, d);
    ASSERT_EQ(total, 5);
    for (int i = 0; i < 5; i++)
        ASSERT_EQ(fdmod_dim(M, want[i]), 1);
    ASSERT_STR_EQ(fdmod_basis_name(M, -9, 0), "x-9");
    ASSERT_EQ(sq(M, B, 4, -9), 1); /* -9 = ...10111 */
    ASSERT_EQ(sq(M, B, 2, -5), 1); /* -5 = ...11011 */
    ASSERT_EQ(sq(M, B, 1, -3), 1);
    char err[512];
    ASSERT_EQ(fdmod_check_module(M, B, err, sizeof err), 0);
    int32_t hp[16];
    ASSERT_EQ(fdmod_profile(M, hp), 3);
    fdmod_free(M);
    /* A minimum already one below a multiple of 8 stays. */
    M = rp(B, 7, 0, 0, 1, 20);
    ASSERT_EQ(fdmod_bottom(M), 7);
    ASSERT_EQ(fdmod_dim(M, 8) + fdmod_dim(M, 12) + fdmod_dim(M, 16), 0);
    ASSERT_EQ(fdmod_dim(M, 11), 1);
    fdmod_free(M);
    milnor_free(B);
}

/* rpmod_build checks only clear_bottom tables (its header): every other
 * stunted space must be a module by the formula.  The full check on
 * bottoms of each residue mod 8, negative and positive, finite and
 * truncated tops, over A and over the profiles of A(1) and A(2). */
TEST(rpmod_stunted_spaces_are_modules)
{
    const int32_t h1[] = {2, 1}, h2[] = {3, 2, 1};
    milnor_t *alg[3] = {milnor_new(48), milnor_new_profile(48, h1, 2),
                        milnor_new_profile(48, h2, 3)};
    const int32_t mins[] = {-33, -24, -17, -9, -6, -1, 0, 1, 2, 7, 11};
    char err[512];
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++)
            for (int32_t len = 0; len <= 40; len += 9) {
                fdmod_t *M = rp(alg[a], mins[i], len < 36, mins[i] + len, 0, mins[i] + 38);
                if (fdmod_check_module(M, alg[a], err, sizeof err))
                    sq_test_fail(__FILE__, __LINE__, "RP_%d^%d over algebra %d: %s", (int)mins[i],
                                 (int)(mins[i] + len), a, err);
                fdmod_free(M);
            }
    for (int a = 0; a < 3; a++)
        milnor_free(alg[a]);
}

TEST(rpmod_refusals)
{
    milnor_t *A = milnor_new(64);
    fdmod_t *M = NULL;
    char err[512] = "";
    ASSERT_EQ(rpmod_build(&M, A, "RP", -20, 0, 0, 0, 40, 1024, err, sizeof err), SQ_E_RANGE);
    ASSERT(strstr(err, "too large") != NULL && M == NULL);
    ASSERT_EQ(rpmod_build(&M, A, "RP", 0, 0, 0, 0, 65, 1 << 30, err, sizeof err), SQ_E_RANGE);
    /* The clear_bottom convention over the whole algebra is not a module:
     * Sq1 x_{-5} = x_{-4} is dropped, yet the product Sq8 Sq1 (beyond A(2))
     * sends x_{-5} to x4. */
    int rc = rpmod_build(&M, A, "RP", -16, 0, 0, 1, 30, 1 << 30, err, sizeof err);
    ASSERT_EQ(rc, SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL && M == NULL);
    /* Empty: max below min. */
    ASSERT_EQ(rpmod_build(&M, A, "RP", 5, 1, 3, 0, 30, 1 << 30, err, sizeof err), 0);
    ASSERT(M != NULL && fdmod_top(M) < fdmod_bottom(M));
    fdmod_free(M);
    milnor_free(A);
}

TEST(rpmod_check_detects_broken_table)
{
    /* Sq3 = Sq1 Sq2, so Sq3 x1 = Sq1 (Sq2 x1) = 0 in RP^4; a table that says
     * Sq(3) x1 = x4 is not a module. */
    milnor_t *A = milnor_new(8);
    fdmod_t *R = rp(A, 1, 1, 4, 0, 4);
    fdmod_t *N = fdmod_new("broken", 1, 4);
    for (int32_t n = 1; n <= 4; n++)
        fdmod_add_basis(N, n, NULL);
    for (int32_t n = 1; n <= 4; n++)
        for (int32_t k = 1; n + k <= 4; k++)
            for (int64_t op = 0; op < milnor_dim(A, k); op++) {
                const uint64_t *w = fdmod_action(R, k, op, n, 0);
                if (w)
                    fdmod_set_action(N, A, k, op, n, 0, w);
            }
    char err[512] = "";
    ASSERT_EQ(fdmod_check_module(N, A, err, sizeof err), 0);
    uint64_t one = 1;
    int32_t r3 = 3;
    fdmod_set_action(N, A, 3, milnor_index(A, &r3, 1), 1, 0, &one);
    ASSERT_EQ(fdmod_check_module(N, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL);
    fdmod_free(N);
    fdmod_free(R);
    milnor_free(A);
}
