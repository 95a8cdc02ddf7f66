/*
 * t-fdmod-derive-odd.c -- finite modules at odd primes: actions derived from b and the
 * P^{p^k}, the module check, coefficients mod p, shifted copies.
 */
#include "podd_util.h"

static stalg_t *alg(uint32_t p)
{
    return stalg_new(p, 200, NULL);
}

/* C3v1 at p = 3: x0, x1, x5, x6 with b x0 = x1, P1 x1 = x5, b x5 = x6.
 * Q_1 = P^1 b - b P^1 acts on x0 as x5; Q_1 b = -b Q_1 + ... sends x0 to x6
 * up to sign. */
TEST(fdmod_odd_derive_C3v1)
{
    stalg_t *A = alg(3);
    fdmod_t *M = fdmod_new_p("C3v1", 3, 0, 6);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    fdmod_add_basis(M, 5, "x5");
    fdmod_add_basis(M, 6, "x6");
    uint8_t one = 1;
    podd_set_gen(M, A, 1, 0, 0, &one);
    podd_set_gen(M, A, 4, 1, 0, &one);
    podd_set_gen(M, A, 1, 5, 0, &one);
    char err[512];
    int rc = fdmod_complete_alg(M, A, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    ASSERT_EQ(fdmod_check_module_all(M, A, err, sizeof err), 0);
    pmilnor_elt_t q1 = {0};
    q1.q = 2;
    int64_t iq1 = pmilnor_index(stalg_pmilnor(A), &q1);
    const uint8_t *v = podd_action(M, 5, iq1, 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 1);
    /* Q_0 Q_1 x0 = b x5 = x6 */
    pmilnor_elt_t q01 = {0};
    q01.q = 3;
    v = podd_action(M, 6, pmilnor_index(stalg_pmilnor(A), &q01), 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 1);
    /* P^1 x0 = 0 */
    v = podd_action(M, 4, pmilnor_beps_pn(stalg_pmilnor(A), 0, 1, NULL), 0, 0);
    ASSERT(v == NULL || v[0] == 0);
    fdmod_t *N = fdmod_new_shifted(M, 7, "C3v1[7]");
    ASSERT_EQ(fdmod_bottom(N), 7);
    ASSERT_EQ(fdmod_top(N), 13);
    v = podd_action(N, 5, iq1, 7, 0);
    ASSERT(v != NULL && v[0] == 1);
    ASSERT_STR_EQ(fdmod_basis_name(N, 12, 0), "x5");
    fdmod_free(N);
    fdmod_free(M);
    stalg_free(A);
}

/* b x0 = x1, b x1 = x2: b b = 0 in the algebra, so not a module. */
TEST(fdmod_odd_not_module)
{
    stalg_t *A = alg(3);
    fdmod_t *M = fdmod_new_p("bad", 3, 0, 2);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    fdmod_add_basis(M, 2, "x2");
    uint8_t one = 1;
    podd_set_gen(M, A, 1, 0, 0, &one);
    podd_set_gen(M, A, 1, 1, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(M, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL);
    ASSERT(strstr(err, "x0") != NULL);
    fdmod_free(M);
    stalg_free(A);
}

/* p = 5: P1 x0 = 2 x8, P1 x8 = x16.  P^1 P^1 = 2 P^2, so P^2 x0 = x16;
 * P(2) is the Milnor element P^2. */
TEST(fdmod_odd_coefficients_p5)
{
    stalg_t *A = alg(5);
    fdmod_t *M = fdmod_new_p("X", 5, 0, 16);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 8, "x8");
    fdmod_add_basis(M, 16, "x16");
    uint8_t two = 2, one = 1;
    podd_set_gen(M, A, 8, 0, 0, &two);
    podd_set_gen(M, A, 8, 8, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(M, A, err, sizeof err), 0);
    const uint8_t *v = podd_action(M, 16, pmilnor_beps_pn(stalg_pmilnor(A), 0, 2, NULL), 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 1);
    uint8_t out[1] = {0}, in[1] = {3};
    podd_act_add(M, out, 2, 8, pmilnor_beps_pn(stalg_pmilnor(A), 0, 1, NULL), 0, in);
    ASSERT_EQ(out[0], (2 * 3 * 2) % 5);
    ASSERT_EQ(fdmod_check_module_all(M, A, err, sizeof err), 0);
    fdmod_free(M);
    stalg_free(A);
}

/* A table set directly that is not a module is caught by the full check. */
TEST(fdmod_odd_check_module_catches)
{
    stalg_t *A = alg(3);
    fdmod_t *M = fdmod_new_p("bad", 3, 0, 8);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 4, "x4");
    fdmod_add_basis(M, 8, "x8");
    uint8_t one = 1;
    fvec_t v = fvec_view_bytes(&one, 1, 3);
    /* P^1 x0 = x4, P^1 x4 = x8 but P^2 x0 = 0: P^1 P^1 = 2 P^2 fails. */
    int64_t P1 = pmilnor_beps_pn(stalg_pmilnor(A), 0, 1, NULL);
    fdmod_set_actionf(M, A, 4, P1, 0, 0, v);
    fdmod_set_actionf(M, A, 4, P1, 4, 0, v);
    char err[512];
    ASSERT_EQ(fdmod_check_module_all(M, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL);
    fdmod_free(M);
    stalg_free(A);
}

/* Over a subalgebra that its b and P^{p^k} do not generate, a module with
 * cells the missing operations would connect is refused; one cell is fine. */
TEST(fdmod_odd_profile_not_generated)
{
    pmilnor_profile_t pr;
    pmilnor_profile_full(&pr);
    pr.q_part = 4294967294u; /* no Q_0: Q_1 is indecomposable */
    pmilnor_t *Bp = pmilnor_new(3, 100, &pr);
    stalg_t *B = stalg_new_pmilnor(Bp);
    fdmod_t *M = fdmod_new_p("m", 3, 0, 5);
    fdmod_set_pprofile(M, &pr);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 5, "x5");
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(M, B, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not generated") != NULL);
    fdmod_t *P = fdmod_sphere_p(3);
    fdmod_set_pprofile(P, &pr);
    ASSERT_EQ(fdmod_complete_alg(P, B, err, sizeof err), 0);
    fdmod_free(P);
    fdmod_free(M);
    stalg_free(B);
    pmilnor_free(Bp);
}
