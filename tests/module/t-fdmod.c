/*
 * t-fdmod.c -- finite modules: completing the action from the Sq^{2^k},
 * and refusing actions that are not modules.
 */
#include <string.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmod.h"
#include "sq_test.h"

static uint64_t unit(int64_t i)
{
    return 1ULL << i;
}

TEST(fdmod_sphere_basics)
{
    fdmod_t *M = fdmod_sphere();
    ASSERT_EQ(fdmod_dim(M, 0), 1);
    ASSERT_EQ(fdmod_dim(M, 1), 0);
    ASSERT_EQ(fdmod_bottom(M), 0);
    ASSERT_EQ(fdmod_top(M), 0);
    ASSERT_STR_EQ(fdmod_basis_name(M, 0, 0), "x0");
    int32_t d;
    int64_t i;
    ASSERT_EQ(fdmod_find(M, "x0", &d, &i), 0);
    ASSERT_EQ(fdmod_find(M, "y", &d, &i), -1);
    fdmod_free(M);
}

TEST(fdmod_complete_joker)
{
    /* The Joker: Sq1 x0 = x1, Sq2 x0 = x2, Sq2 x1 = x3, Sq2 x2 = x4, Sq1 x3 = x4.
     * Derived: Sq(3) x0 = Sq1 Sq2 x0 = Sq1 x2 = 0, and Sq(0,1) = Sq3 + Sq2 Sq1
     * acts as Sq2 Sq1 x0 = Sq2 x1 = x3.  Sq(4) x0 = Sq1Sq2Sq1 x0... Adem:
     * Sq2Sq2 = Sq3Sq1 so Sq(1,1) x0 = Sq2 Sq2 x0 = x4. */
    milnor_t *A = milnor_new(8);
    fdmod_t *M = fdmod_new("Joker", 0, 4);
    for (int k = 0; k < 5; k++)
        fdmod_add_basis(M, k, NULL);
    uint64_t v;
    v = unit(0);
    fdmod_set_sq(M, A, 1, 0, 0, &v);
    fdmod_set_sq(M, A, 2, 0, 0, &v);
    fdmod_set_sq(M, A, 2, 1, 0, &v);
    fdmod_set_sq(M, A, 2, 2, 0, &v);
    fdmod_set_sq(M, A, 1, 3, 0, &v);
    char err[256];
    ASSERT_EQ(fdmod_complete(M, A, err, sizeof err), 0);
    int32_t r3[] = {3}, r01[] = {0, 1}, r11[] = {1, 1};
    const uint64_t *w = fdmod_action(M, 3, milnor_index(A, r3, 1), 0, 0);
    ASSERT(w == NULL || w[0] == 0);
    w = fdmod_action(M, 3, milnor_index(A, r01, 2), 0, 0);
    ASSERT(w != NULL && w[0] == 1);
    w = fdmod_action(M, 4, milnor_index(A, r11, 2), 0, 0);
    ASSERT(w != NULL && w[0] == 1);
    fdmod_free(M);
    milnor_free(A);
}

TEST(fdmod_rejects_non_module)
{
    /* Sq1 Sq1 = 0, so Sq1 x0 = x1, Sq1 x1 = x2 is not a module. */
    milnor_t *A = milnor_new(4);
    fdmod_t *M = fdmod_new("bad", 0, 2);
    for (int k = 0; k < 3; k++)
        fdmod_add_basis(M, k, NULL);
    uint64_t v = 1;
    fdmod_set_sq(M, A, 1, 0, 0, &v);
    fdmod_set_sq(M, A, 1, 1, 0, &v);
    char err[256] = "";
    ASSERT_EQ(fdmod_complete(M, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL);
    ASSERT(strstr(err, "x0") != NULL);
    fdmod_free(M);
    /* Sq2 Sq2 = Sq3 Sq1: Sq2 x0 = x2, Sq2 x2 = x4 with Sq1 x0 = 0 violates it. */
    M = fdmod_new("bad2", 0, 4);
    fdmod_add_basis(M, 0, NULL);
    fdmod_add_basis(M, 2, NULL);
    fdmod_add_basis(M, 4, NULL);
    fdmod_set_sq(M, A, 2, 0, 0, &v);
    fdmod_set_sq(M, A, 2, 2, 0, &v);
    ASSERT_EQ(fdmod_complete(M, A, err, sizeof err), SQ_E_INVAL);
    fdmod_free(M);
    milnor_free(A);
}

TEST(fmod_offsets)
{
    /* Generators in degrees 0 (two) and 2 (one); degree 3 basis:
     * A_3 (2 elements) for each degree-0 generator, then A_1 (1 element). */
    milnor_t *A = milnor_new(10);
    fmod_t *F = fmod_new(A, 0, 10);
    ASSERT_EQ(fmod_set_gens(F, 0, 2), 0);
    ASSERT_EQ(fmod_set_gens(F, 2, 1), 2);
    ASSERT_EQ(fmod_gens_through(F), 2);
    ASSERT_EQ(fmod_num_gens(F, 1), 0);
    ASSERT_EQ(fmod_dim(F, 3), 2 * 2 + 1);
    ASSERT_EQ(fmod_dim_below(F, 3, 2), 4);
    ASSERT_EQ(fmod_block_offset(F, 3, 0, 1), 2);
    ASSERT_EQ(fmod_block_offset(F, 3, 2, 0), 4);
    ASSERT_EQ(fmod_gen_degree(F, 0), 0);
    ASSERT_EQ(fmod_gen_degree(F, 1), 0);
    ASSERT_EQ(fmod_gen_degree(F, 2), 2);
    ASSERT_EQ(fmod_gen_global(F, 2, 0), 2);
    fmod_free(F);
    milnor_free(A);
}

/* Three cells over a span of 2000 (the largest degree Sq(R) the algebra
 * reaches is 2047): only the pair the given Sq^1 connects carries an action;
 * the cell 2000 degrees away is reached by nothing, so no A_2000 block (of
 * 3.4 billion elements) is derived or stored. */
TEST(fdmod_sparse_wide_span)
{
    milnor_t *A = milnor_new(2000);
    fdmod_t *M = fdmod_new("wide", -1000, 1000);
    fdmod_add_basis(M, -1000, "a");
    fdmod_add_basis(M, -999, "b");
    fdmod_add_basis(M, 1000, "c");
    ASSERT_EQ(fdmod_bottom(M), -1000);
    ASSERT_EQ(fdmod_top(M), 1000);
    uint64_t one = 1;
    uint32_t *given = sq_calloc(2001, sizeof *given);
    given[0] = 1; /* Sq^1 out of degree -1000 */
    fdmod_cost_t c;
    fdmod_complete_cost(&c, M, A, given);
    ASSERT(c.table_bytes == 8.0); /* A_1 x M_{-1000} -> one limb */
    ASSERT(c.reduce_bytes == 0.0);
    sq_free(given);
    fdmod_set_sq(M, A, 1, -1000, 0, &one);
    char err[256];
    ASSERT_EQ(fdmod_complete(M, A, err, sizeof err), 0);
    const uint64_t *w = fdmod_action(M, 1, 0, -1000, 0);
    ASSERT(w != NULL && w[0] == 1);
    ASSERT(fdmod_action(M, 2000, 0, -1000, 0) == NULL);
    ASSERT(fdmod_action(M, 1999, 0, -999, 0) == NULL);
    uint64_t out = 0, x = 1;
    fdmod_act_add(M, &out, 0, 2000, 12345, -1000, &x);
    ASSERT_EQ(out, 0);
    /* A copy shifted by 47 has the same action. */
    fdmod_t *N = fdmod_new_shifted(M, 47, NULL);
    ASSERT_EQ(fdmod_bottom(N), -953);
    w = fdmod_action(N, 1, 0, -953, 0);
    ASSERT(w != NULL && w[0] == 1);
    ASSERT(fdmod_action(N, 2000, 0, -953, 0) == NULL);
    fdmod_free(N);
    fdmod_free(M);
    milnor_free(A);
}

/* The cost estimate of a two-step pair: Sq^2 Sq^1 reaches degree 3 from 0,
 * so A_3 is derived there from the products Sq^1 phi (phi in A_2) and
 * Sq^2 phi (phi in A_1): two rows; and the derived action agrees with the
 * composite. */
TEST(fdmod_complete_cost_two_steps)
{
    milnor_t *A = milnor_new(3);
    fdmod_t *M = fdmod_new("two", 0, 3);
    fdmod_add_basis(M, 0, "a");
    fdmod_add_basis(M, 1, "b");
    fdmod_add_basis(M, 3, "c");
    uint32_t given[4] = {1, 2, 0, 0}; /* Sq^1 out of 0, Sq^2 out of 1 */
    fdmod_cost_t c;
    fdmod_complete_cost(&c, M, A, given);
    ASSERT(c.table_bytes == 8.0 + 8.0 + 2 * 8.0); /* pairs (0,1), (1,3), (0,3) */
    ASSERT(c.reduce_bytes == 2 * 8.0 * 2);        /* 2 rows of 1 + 1 limbs */
    ASSERT_EQ(c.reduce_deg, 3);
    ASSERT_EQ(c.reduce_from, 0);
    uint64_t one = 1;
    fdmod_set_sq(M, A, 1, 0, 0, &one);
    fdmod_set_sq(M, A, 2, 1, 0, &one);
    char err[256];
    ASSERT_EQ(fdmod_complete(M, A, err, sizeof err), 0);
    /* Sq2 Sq1 = Sq(0,1) + Sq(3): Sq(3) a = Sq1 Sq2 a = 0, Sq(0,1) a = c. */
    int32_t r3[] = {3}, r01[] = {0, 1};
    const uint64_t *w = fdmod_action(M, 3, milnor_index(A, r3, 1), 0, 0);
    ASSERT(w == NULL || w[0] == 0);
    w = fdmod_action(M, 3, milnor_index(A, r01, 2), 0, 0);
    ASSERT(w != NULL && w[0] == 1);
    fdmod_free(M);
    milnor_free(A);
}

/* Profiles of up to FDMOD_MAX_PROFILE_LEN entries are accepted; entries
 * past MILNOR_MAX_LEN never matter and are dropped. */
TEST(fdmod_profile_long)
{
    int32_t h[FDMOD_MAX_PROFILE_LEN] = {2, 1}, got[FDMOD_MAX_PROFILE_LEN];
    fdmod_t *M = fdmod_sphere();
    fdmod_set_profile(M, h, FDMOD_MAX_PROFILE_LEN);
    ASSERT_EQ(fdmod_profile(M, got), MILNOR_MAX_LEN);
    ASSERT_EQ(got[0], 2);
    ASSERT_EQ(got[1], 1);
    ASSERT_EQ(got[MILNOR_MAX_LEN - 1], 0);
    fdmod_free(M);
}
