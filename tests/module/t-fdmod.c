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
