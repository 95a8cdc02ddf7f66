/*
 * t-tensor.c -- the tensor product of modules (fdmod_tensor.h) and the
 * module file it is written as (sq_modspec_write.h): a module at p = 2, 3
 * and 5 by the full check (every (a b) x = a (b x)), the Koszul sign of the
 * Bockstein, dimensions, S ⊗ M = M, the round trip through the file, the
 * refusals, and Ext: C2 ⊗ C2 and C3 ⊗ C3 fit the long exact sequence of h_0
 * (a_0) on Ext(C2) (Ext(C3)), ranks from the products machinery.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod_tensor.h"
#include "resol.h"
#include "resol_products.h"
#include "sq_core.h"
#include "sq_modspec.h"
#include "sq_modspec_write.h"
#include "sq_test.h"

/* A module from JSON text (any prime). */
static fdmod_t *from_text(const char *text, const char *name)
{
    sq_modspec_module_t m;
    char err[1024];
    if (sq_modspec_load_module(&m, text, strlen(text), name, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    return m.p == 2 ? m.m2 : m.modd;
}

/* A shipped module (modules/NAME.json). */
static fdmod_t *shipped(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, name);
    sq_modspec_module_t m;
    if (sq_modspec_load_module_file(&m, path, name, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    return m.p == 2 ? m.m2 : m.modd;
}

static fdmod_t *tensor(const fdmod_t *M, const fdmod_t *N)
{
    fdmod_t *P = NULL;
    char err[1024];
    if (fdmod_tensor(&P, M, N, NULL, INT32_MAX, 0, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s * %s: %s", fdmod_name(M), fdmod_name(N), err);
    return P;
}

/* The full check over the algebra of P's profile. */
static void check_full(const fdmod_t *P)
{
    stalg_t *S = fdmod_new_algebra(P, fdmod_top(P) - fdmod_bottom(P));
    char err[1024];
    if (fdmod_check_module_all(P, S, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s is not a module: %s", fdmod_name(P), err);
    stalg_free(S);
}

/* dim (M ⊗ N)_d = sum_e dim M_e dim N_{d-e} in every degree. */
static void check_dims(const fdmod_t *P, const fdmod_t *M, const fdmod_t *N)
{
    for (int32_t d = fdmod_bottom(M) + fdmod_bottom(N); d <= fdmod_top(M) + fdmod_top(N); d++) {
        int64_t want = 0;
        for (int32_t e = fdmod_bottom(M); e <= fdmod_top(M); e++)
            want += fdmod_dim(M, e) * fdmod_dim(N, d - e);
        ASSERT_EQ(fdmod_dim(P, d), want);
    }
}

/* M and N have the same basis degrees and the same action of every basis
 * element of the algebra (names not compared). */
static void check_same_action(const fdmod_t *M, const fdmod_t *N)
{
    ASSERT_EQ(fdmod_prime(M), fdmod_prime(N));
    ASSERT_EQ(fdmod_bottom(M), fdmod_bottom(N));
    ASSERT_EQ(fdmod_top(M), fdmod_top(N));
    int32_t lo = fdmod_bottom(M), hi = fdmod_top(M);
    stalg_t *S = fdmod_new_algebra(M, hi - lo);
    for (int32_t d = lo; d <= hi; d++) {
        ASSERT_EQ(fdmod_dim(M, d), fdmod_dim(N, d));
        for (int32_t k = 1; d + k <= hi; k++)
            for (int64_t op = 0; op < stalg_dim(S, k); op++)
                for (int64_t x = 0; x < fdmod_dim(M, d); x++) {
                    fvec_t a = fdmod_actionf(M, k, op, d, x), b = fdmod_actionf(N, k, op, d, x);
                    int za = !a.len || fvec_is_zero(a), zb = !b.len || fvec_is_zero(b);
                    ASSERT(za == zb);
                    if (!za)
                        ASSERT(fvec_equal(a, b));
                }
    }
    stalg_free(S);
}

/* Writes P, loads it back: the same module, names included. */
static void check_round_trip(const fdmod_t *P)
{
    char *text = sq_modspec_write_text(P, "a test product");
    ASSERT(text != NULL);
    fdmod_t *Q = from_text(text, fdmod_name(P));
    check_same_action(P, Q);
    for (int32_t d = fdmod_bottom(P); d <= fdmod_top(P); d++)
        for (int64_t x = 0; x < fdmod_dim(P, d); x++)
            ASSERT_STR_EQ(fdmod_basis_name(P, d, x), fdmod_basis_name(Q, d, x));
    /* Written again: the same bytes. */
    char *again = sq_modspec_write_text(Q, "a test product");
    ASSERT_STR_EQ(again, text);
    sq_free(again);
    sq_free(text);
    fdmod_free(Q);
}

TEST(tensor_p2_is_a_module)
{
    const char *names[] = {"C2", "Ceta", "Joker", "RP4", "Cnu"};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            fdmod_t *M = shipped(names[i]), *N = shipped(names[j]);
            fdmod_t *P = tensor(M, N);
            check_full(P);
            check_dims(P, M, N);
            if (i <= j)
                check_round_trip(P);
            fdmod_free(P);
            fdmod_free(M);
            fdmod_free(N);
        }
}

TEST(tensor_basis_order_and_names)
{
    fdmod_t *M = shipped("C2"), *N = shipped("Ceta");
    fdmod_t *P = tensor(M, N);
    ASSERT_STR_EQ(fdmod_name(P), "C2*Ceta");
    /* Degree 2: x0*x2 (|x| = 0) before nothing else; degree 1: x1*x0. */
    ASSERT_STR_EQ(fdmod_basis_name(P, 0, 0), "x0*x0");
    ASSERT_STR_EQ(fdmod_basis_name(P, 1, 0), "x1*x0");
    ASSERT_STR_EQ(fdmod_basis_name(P, 2, 0), "x0*x2");
    ASSERT_STR_EQ(fdmod_basis_name(P, 3, 0), "x1*x2");
    /* The peer's C2_sm_Ceta: the same module. */
    fdmod_t *Q = from_text("{\"p\": 2, \"gens\": {\"x0*x0\": 0, \"x1*x0\": 1, \"x0*x2\": 2, "
                           "\"x1*x2\": 3}, \"actions\": [\"Sq1 x0*x0 = x1*x0\", \"Sq2 x0*x0 = "
                           "x0*x2\", \"Sq2 x1*x0 = x1*x2\", \"Sq1 x0*x2 = x1*x2\"]}",
                           "C2_sm_Ceta");
    check_same_action(P, Q);
    /* Degree 1 of C2 ⊗ C2: x0*x1 (|x| = 0) before x1*x0 (|x| = 1). */
    fdmod_t *C = tensor(M, M);
    ASSERT_STR_EQ(fdmod_basis_name(C, 1, 0), "x0*x1");
    ASSERT_STR_EQ(fdmod_basis_name(C, 1, 1), "x1*x0");
    fdmod_free(C);
    fdmod_free(Q);
    fdmod_free(P);
    fdmod_free(M);
    fdmod_free(N);
}

TEST(tensor_sphere_is_unit)
{
    const char *names[] = {"Joker", "RP4", "tmf2", "C3"};
    for (int i = 0; i < 4; i++) {
        fdmod_t *M = shipped(names[i]);
        fdmod_t *S = fdmod_sphere_p(fdmod_prime(M));
        fdmod_t *L = tensor(S, M), *R = tensor(M, S);
        check_same_action(L, M);
        check_same_action(R, M);
        int32_t h[MILNOR_MAX_LEN], g[MILNOR_MAX_LEN];
        ASSERT_EQ(fdmod_profile(L, h), fdmod_profile(M, g));
        /* The file of S ⊗ M is M's with the names "x0*y" (and R's "y*x0"). */
        char *a = sq_modspec_write_text(L, NULL), *b = sq_modspec_write_text(M, NULL);
        int64_t stars = 0;
        for (const char *c = a; *c; c++)
            stars += *c == '*';
        ASSERT_EQ((int64_t)strlen(a), (int64_t)strlen(b) + 3 * stars);
        sq_free(a);
        sq_free(b);
        fdmod_free(L);
        fdmod_free(R);
        fdmod_free(S);
        fdmod_free(M);
    }
}

/* The sign: beta (x ⊗ y) = beta x ⊗ y + (-1)^{|x|} x ⊗ beta y. */
TEST(tensor_odd_koszul_sign)
{
    fdmod_t *C3 = shipped("C3");
    fdmod_t *P = tensor(C3, C3);
    check_full(P);
    check_dims(P, C3, C3);
    check_round_trip(P);
    stalg_t *S = fdmod_new_algebra(P, 2);
    int64_t b = stalg_gen_index(S, 1);
    ASSERT(b >= 0);
    /* Degree 1: x0*x1 (0), x1*x0 (1). */
    ASSERT_STR_EQ(fdmod_basis_name(P, 1, 0), "x0*x1");
    fvec_t v = fdmod_actionf(P, 1, b, 0, 0); /* beta(x0*x0) = x0*x1 + x1*x0 */
    ASSERT(v.len == 2 && fvec_get(v, 0) == 1 && fvec_get(v, 1) == 1);
    v = fdmod_actionf(P, 1, b, 1, 0); /* beta(x0*x1) = beta x0 * x1 = x1*x1 */
    ASSERT(v.len == 1 && fvec_get(v, 0) == 1);
    v = fdmod_actionf(P, 1, b, 1, 1); /* beta(x1*x0) = -x1*x1 */
    ASSERT(v.len == 1 && fvec_get(v, 0) == 2);
    stalg_free(S);
    fdmod_free(P);
    fdmod_free(C3);
}

TEST(tensor_p5_is_a_module)
{
    /* Cells 0, 1, 8, 9 joined by beta and P^1, a C5, and their shifts. */
    const char *four = "{\"p\": 5, \"gens\": {\"x0\": 0, \"x1\": 1, \"x8\": 8, \"x9\": 9}, "
                       "\"actions\": [\"b x0 = x1\", \"P1 x0 = x8\", \"P1 x1 = 2 x9\", "
                       "\"b x8 = x9\"]}";
    const char *c5 = "{\"p\": 5, \"gens\": {\"y0\": 0, \"y1\": 1}, \"actions\": [\"b y0 = y1\"]}";
    fdmod_t *F = from_text(four, "F"), *C = from_text(c5, "C5");
    fdmod_t *C1 = fdmod_new_shifted(C, 1, "C5[1]"), *F3 = fdmod_new_shifted(F, 3, "F[3]");
    const fdmod_t *ms[] = {F, C, C1, F3};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            fdmod_t *P = tensor(ms[i], ms[j]);
            check_full(P);
            check_dims(P, ms[i], ms[j]);
            if (i <= j)
                check_round_trip(P);
            fdmod_free(P);
        }
    fdmod_free(F3);
    fdmod_free(C1);
    fdmod_free(C);
    fdmod_free(F);
}

TEST(tensor_profiles)
{
    /* ko (F_2 over A(1)) ⊗ Joker: the Joker restricted to A(1). */
    fdmod_t *ko = shipped("ko"), *J = shipped("Joker"), *t = shipped("tmf2");
    fdmod_t *P = tensor(ko, J);
    int32_t h[MILNOR_MAX_LEN];
    ASSERT_EQ(fdmod_profile(P, h), 2);
    ASSERT(h[0] == 2 && h[1] == 1);
    check_full(P);
    check_round_trip(P);
    fdmod_free(P);
    P = tensor(t, ko); /* A(1) lies in A(2) */
    ASSERT_EQ(fdmod_profile(P, h), 2);
    fdmod_free(P);
    /* [0] untruncated (no Sq1) and A(1): neither contains the other. */
    fdmod_t *Y = from_text("{\"p\": 2, \"profile\": {\"truncated\": false, \"p_part\": [0]}, "
                           "\"gens\": {\"x0\": 0}, \"actions\": []}",
                           "y1");
    char err[1024];
    ASSERT_EQ(fdmod_tensor(&P, Y, ko, NULL, INT32_MAX, 0, err, sizeof err), SQ_E_INVAL);
    ASSERT(P == NULL);
    ASSERT(strstr(err, "different subalgebras") != NULL);
    P = tensor(Y, Y); /* an untruncated profile written back as one */
    check_round_trip(P);
    fdmod_free(P);
    /* A finitely presented module's basis ("Sq(4) x0") is written with '_'. */
    fdmod_t *A1 = shipped("C2"), *AA = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/../../modules/A_mod_A1.json", SQ_TEST_DATA_DIR);
    sq_modspec_opts_t mo = {.have_max_degree = 1, .max_degree = 8};
    ASSERT_EQ(sq_modspec_load_file(&AA, path, NULL, &mo, err, sizeof err), 0);
    P = tensor(A1, AA);
    char *text = sq_modspec_write_text(P, NULL);
    ASSERT(strstr(text, "x0*Sq(4)_x0") != NULL);
    fdmod_t *Q = from_text(text, "C2*A_mod_A1");
    check_same_action(P, Q);
    sq_free(text);
    fdmod_free(Q);
    fdmod_free(P);
    fdmod_free(AA);
    fdmod_free(A1);
    fdmod_free(Y);
    fdmod_free(t);
    fdmod_free(J);
    fdmod_free(ko);
}

TEST(tensor_refusals)
{
    fdmod_t *C2 = shipped("C2"), *C3 = shipped("C3"), *J = shipped("Joker"), *P = NULL;
    char err[1024];
    ASSERT_EQ(fdmod_tensor(&P, C2, C3, NULL, INT32_MAX, 0, err, sizeof err), SQ_E_INVAL);
    ASSERT_STR_EQ(err, "C2 is at the prime 2 and C3 at the prime 3: a tensor product needs one "
                       "prime");
    ASSERT(P == NULL);
    /* Beyond the table limit: refused before any action is set. */
    ASSERT_EQ(fdmod_tensor(&P, J, J, NULL, INT32_MAX, 1024, err, sizeof err), SQ_E_RANGE);
    ASSERT(strstr(err, "too large") != NULL && P == NULL);
    /* Nothing in the degrees kept. */
    fdmod_t *J9 = fdmod_new_shifted(J, 9, NULL);
    ASSERT_EQ(fdmod_tensor(&P, J9, J, NULL, 5, 0, err, sizeof err), SQ_E_INVAL);
    ASSERT(P == NULL);
    /* Truncated: the degrees <= 5 of Joker ⊗ Joker, a quotient module. */
    ASSERT_EQ(fdmod_tensor(&P, J, J, NULL, 5, 0, err, sizeof err), 0);
    ASSERT_EQ(fdmod_top(P), 5);
    check_full(P);
    fdmod_free(P);
    fdmod_free(J9);
    fdmod_free(J);
    fdmod_free(C3);
    fdmod_free(C2);
}

/* dim Ext of C ⊗ C for the two-cell C with extension class c_0 (h_0 at
 * p = 2, a_0 at odd p): 0 -> Sigma C -> C ⊗ C -> C -> 0 has the connecting
 * map c_0 on Ext(C), so
 *   dim E^{s,t} = dim C^{s,t} - rank c_0 (C^{s-1,t-1}) + dim C^{s,t-1} - rank c_0 (C^{s,t-1}). */
static int64_t rank_c0(const resol_t *R, int32_t s, int32_t t)
{
    if (s < 0 || t < 0)
        return 0;
    fmat_t m;
    if (resol_filt1_matrix(R, 0, s, t, &m))
        return 0;
    int64_t r = fmat_rank(&m);
    fmat_clear(&m);
    return r;
}

/* The modules here start in degree 0. */
static int64_t ext_or0(const resol_t *R, int32_t s, int32_t n)
{
    return s < 0 || n < 0 ? 0 : resol_ext_dim(R, s, n);
}

static void check_les(const char *name, int32_t max_n, int32_t max_s)
{
    fdmod_t *C = shipped(name);
    fdmod_t *P = tensor(C, C);
    resol_t *RC = resol_new(C, max_s + 1, max_n + 1), *RP = resol_new(P, max_s, max_n);
    resol_run(RC, RESOL_CLASSICAL);
    resol_run(RP, RESOL_CLASSICAL);
    int64_t nonzero = 0;
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            int32_t t = s + n;
            int64_t want = ext_or0(RC, s, n) - rank_c0(RC, s - 1, t - 1) + ext_or0(RC, s, n - 1) -
                           rank_c0(RC, s, t - 1);
            int64_t got = resol_ext_dim(RP, s, n);
            if (got != want)
                sq_test_fail(__FILE__, __LINE__, "%s*%s at (n, s) = (%d, %d): %lld, the long exact "
                             "sequence says %lld",
                             name, name, (int)n, (int)s, (long long)got, (long long)want);
            nonzero += got > 0;
        }
    ASSERT(nonzero > max_n);
    resol_free(RP);
    resol_free(RC);
    fdmod_free(P);
    fdmod_free(C);
}

TEST(tensor_c2_c2_h0_long_exact_sequence)
{
    check_les("C2", 30, 15);
}

TEST(tensor_c3_c3_a0_long_exact_sequence)
{
    check_les("C3", 40, 10);
}
