/*
 * t-pfdmod.c -- odd-prime finite modules: actions derived from b and the
 * P^{p^k}, the module check, coefficients mod p, shifted copies.
 */
#include "pfdmod.h"
#include "sq_test.h"

static pmilnor_t *alg(uint32_t p)
{
    return pmilnor_new(p, 200, NULL);
}

/* C3v1 at p = 3: x0, x1, x5, x6 with b x0 = x1, P1 x1 = x5, b x5 = x6.
 * Q_1 = P^1 b - b P^1 acts on x0 as x5; Q_1 b = -b Q_1 + ... sends x0 to x6
 * up to sign. */
TEST(pfdmod_derive_C3v1)
{
    pmilnor_t *A = alg(3);
    pfdmod_t *M = pfdmod_new("C3v1", 3, 0, 6);
    pfdmod_add_basis(M, 0, "x0");
    pfdmod_add_basis(M, 1, "x1");
    pfdmod_add_basis(M, 5, "x5");
    pfdmod_add_basis(M, 6, "x6");
    uint8_t one = 1;
    pfdmod_set_gen(M, A, 1, 0, 0, &one);
    pfdmod_set_gen(M, A, 4, 1, 0, &one);
    pfdmod_set_gen(M, A, 1, 5, 0, &one);
    char err[512];
    int rc = pfdmod_complete(M, A, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    ASSERT_EQ(pfdmod_check_module(M, A, err, sizeof err), 0);
    pmilnor_elt_t q1 = {0};
    q1.q = 2;
    int64_t iq1 = pmilnor_index(A, &q1);
    const uint8_t *v = pfdmod_action(M, 5, iq1, 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 1);
    /* Q_0 Q_1 x0 = b x5 = x6 */
    pmilnor_elt_t q01 = {0};
    q01.q = 3;
    v = pfdmod_action(M, 6, pmilnor_index(A, &q01), 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 1);
    /* P^1 x0 = 0 */
    v = pfdmod_action(M, 4, pmilnor_beps_pn(A, 0, 1, NULL), 0, 0);
    ASSERT(v == NULL || v[0] == 0);
    pfdmod_t *N = pfdmod_new_shifted(M, 7, "C3v1[7]");
    ASSERT_EQ(pfdmod_bottom(N), 7);
    ASSERT_EQ(pfdmod_top(N), 13);
    v = pfdmod_action(N, 5, iq1, 7, 0);
    ASSERT(v != NULL && v[0] == 1);
    ASSERT_STR_EQ(pfdmod_basis_name(N, 12, 0), "x5");
    pfdmod_free(N);
    pfdmod_free(M);
    pmilnor_free(A);
}

/* b x0 = x1, b x1 = x2: b b = 0 in the algebra, so not a module. */
TEST(pfdmod_not_module)
{
    pmilnor_t *A = alg(3);
    pfdmod_t *M = pfdmod_new("bad", 3, 0, 2);
    pfdmod_add_basis(M, 0, "x0");
    pfdmod_add_basis(M, 1, "x1");
    pfdmod_add_basis(M, 2, "x2");
    uint8_t one = 1;
    pfdmod_set_gen(M, A, 1, 0, 0, &one);
    pfdmod_set_gen(M, A, 1, 1, 0, &one);
    char err[512];
    ASSERT_EQ(pfdmod_complete(M, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL);
    ASSERT(strstr(err, "x0") != NULL);
    pfdmod_free(M);
    pmilnor_free(A);
}

/* p = 5: P1 x0 = 2 x8, P1 x8 = x16.  P^1 P^1 = 2 P^2, so P^2 x0 = x16;
 * P(2) is the Milnor element P^2. */
TEST(pfdmod_coefficients_p5)
{
    pmilnor_t *A = alg(5);
    pfdmod_t *M = pfdmod_new("X", 5, 0, 16);
    pfdmod_add_basis(M, 0, "x0");
    pfdmod_add_basis(M, 8, "x8");
    pfdmod_add_basis(M, 16, "x16");
    uint8_t two = 2, one = 1;
    pfdmod_set_gen(M, A, 8, 0, 0, &two);
    pfdmod_set_gen(M, A, 8, 8, 0, &one);
    char err[512];
    ASSERT_EQ(pfdmod_complete(M, A, err, sizeof err), 0);
    const uint8_t *v = pfdmod_action(M, 16, pmilnor_beps_pn(A, 0, 2, NULL), 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 1);
    uint8_t out[1] = {0}, in[1] = {3};
    pfdmod_act_add(M, out, 2, 8, pmilnor_beps_pn(A, 0, 1, NULL), 0, in);
    ASSERT_EQ(out[0], (2 * 3 * 2) % 5);
    ASSERT_EQ(pfdmod_check_module(M, A, err, sizeof err), 0);
    pfdmod_free(M);
    pmilnor_free(A);
}

/* A table set directly that is not a module is caught by the full check. */
TEST(pfdmod_check_module_catches)
{
    pmilnor_t *A = alg(3);
    pfdmod_t *M = pfdmod_new("bad", 3, 0, 8);
    pfdmod_add_basis(M, 0, "x0");
    pfdmod_add_basis(M, 4, "x4");
    pfdmod_add_basis(M, 8, "x8");
    uint8_t one = 1;
    /* P^1 x0 = x4, P^1 x4 = x8 but P^2 x0 = 0: P^1 P^1 = 2 P^2 fails. */
    pfdmod_set_action(M, A, 4, pmilnor_beps_pn(A, 0, 1, NULL), 0, 0, &one);
    pfdmod_set_action(M, A, 4, pmilnor_beps_pn(A, 0, 1, NULL), 4, 0, &one);
    char err[512];
    ASSERT_EQ(pfdmod_check_module(M, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL);
    pfdmod_free(M);
    pmilnor_free(A);
}

/* Over a subalgebra that its b and P^{p^k} do not generate, a module with
 * cells the missing operations would connect is refused; one cell is fine. */
TEST(pfdmod_profile_not_generated)
{
    pmilnor_profile_t pr;
    pmilnor_profile_full(&pr);
    pr.q_part = 4294967294u; /* no Q_0: Q_1 is indecomposable */
    pmilnor_t *B = pmilnor_new(3, 100, &pr);
    pfdmod_t *M = pfdmod_new("m", 3, 0, 5);
    pfdmod_set_profile(M, &pr);
    pfdmod_add_basis(M, 0, "x0");
    pfdmod_add_basis(M, 5, "x5");
    char err[512];
    ASSERT_EQ(pfdmod_complete(M, B, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not generated") != NULL);
    pfdmod_t *P = pfdmod_sphere(3);
    pfdmod_set_profile(P, &pr);
    ASSERT_EQ(pfdmod_complete(P, B, err, sizeof err), 0);
    pfdmod_free(P);
    pfdmod_free(M);
    pmilnor_free(B);
}
