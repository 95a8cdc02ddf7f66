/*
 * t-fpmod.c -- finitely presented modules truncated to finitely many
 * degrees: dimensions of A//A(0), A//A(1) and F_2 from their dual Hopf
 * algebras, the Joker as A(1)/A(1)Sq^3, the layout shared with fmod.h,
 * comparing presentations, refusals, and the module-axiom checker.
 */
#include <string.h>

#include "f2mat.h"
#include "fdmod.h"
#include "fmod.h"
#include "fpmod.h"
#include "sq_test.h"

/* A relation under construction: terms and their op vectors live here, so
 * a trel_t must stay in place once a term is added. */
typedef struct {
    uint64_t op[8][8];
    fpmod_term_t terms[8];
    fpmod_rel_t rel;
} trel_t;

/* Adds the term Sq(r) g (r = r[0..len), a Milnor basis element of A). */
static void trel_add(trel_t *R, const milnor_t *A, const int32_t *gen_deg, int64_t g,
                     const int32_t *r, int len)
{
    int64_t t = R->rel.nterms++;
    int32_t opdeg = milnor_pdegree(r, len);
    int64_t idx = milnor_index(A, r, len);
    ASSERT(t < 8 && idx >= 0 && idx < 512);
    memset(R->op[t], 0, sizeof R->op[t]);
    R->op[t][idx >> 6] |= 1ULL << (idx & 63);
    R->terms[t] = (fpmod_term_t){g, opdeg, R->op[t]};
    R->rel.deg = opdeg + gen_deg[g];
    R->rel.terms = R->terms;
}

/* The relations Sq(r_i) x0 on one generator of degree 0. */
static void cyclic_rels(trel_t *T, fpmod_rel_t *rels, const milnor_t *A, int n, const int32_t *r)
{
    static const int32_t zero = 0;
    for (int i = 0; i < n; i++) {
        memset(&T[i], 0, sizeof T[i]);
        trel_add(&T[i], A, &zero, 0, &r[i], 1);
        rels[i] = T[i].rel;
    }
}

static fdmod_t *cyclic(const milnor_t *A, int n, const int32_t *r, int32_t max_degree)
{
    trel_t T[8];
    fpmod_rel_t rels[8];
    int32_t gd = 0;
    cyclic_rels(T, rels, A, n, r);
    fdmod_t *M = NULL;
    char err[256];
    ASSERT_EQ(
        fpmod_build(&M, A, "cyclic", 1, &gd, NULL, n, rels, max_degree, 1 << 30, err, sizeof err),
        0);
    return M;
}

/* Number of Milnor basis elements of degree d with r_1 = 0 mod m1 and
 * r_2 = 0 mod m2: dim F_2[xi_1^m1, xi_2^m2, xi_3, ...] in degree d. */
static int64_t count_dual(const milnor_t *A, int32_t d, int32_t m1, int32_t m2)
{
    int64_t n = 0;
    for (int64_t i = 0; i < milnor_dim(A, d); i++) {
        int32_t r[MILNOR_MAX_LEN] = {0};
        milnor_get(A, d, i, r, MILNOR_MAX_LEN);
        n += r[0] % m1 == 0 && r[1] % m2 == 0;
    }
    return n;
}

/* The unique basis vector of a one-dimensional degree, as a limb. */
static uint64_t act1(const fdmod_t *M, const milnor_t *A, int32_t k, int32_t e)
{
    int32_t r = k;
    const uint64_t *w = fdmod_action(M, k, milnor_index(A, &r, 1), e, 0);
    return w ? w[0] : 0;
}

TEST(fpmod_quotients_of_A)
{
    /* A//A(0) = A/A Sq1 and A//A(1) = A/A(Sq1, Sq2): their duals are
     * F_2[xi_1^2, xi_2, ...] and F_2[xi_1^4, xi_2^2, xi_3, ...]. */
    milnor_t *A = milnor_new(60);
    const int32_t r12[] = {1, 2};
    fdmod_t *M0 = cyclic(A, 1, r12, 60), *M1 = cyclic(A, 2, r12, 60);
    for (int32_t d = 0; d <= 60; d++) {
        ASSERT_EQ(fdmod_dim(M0, d), count_dual(A, d, 2, 1));
        ASSERT_EQ(fdmod_dim(M1, d), count_dual(A, d, 4, 2));
    }
    ASSERT_STR_EQ(fdmod_basis_name(M1, 0, 0), "x0");
    ASSERT_STR_EQ(fdmod_basis_name(M0, 2, 0), "Sq(2) x0");
    /* H^*(ko) = A//A(1) in low degrees: 1, Sq4, Sq6 = Sq2 Sq4, Sq7 = Sq1 Sq6. */
    ASSERT_EQ(act1(M1, A, 1, 0), 0);
    ASSERT_EQ(act1(M1, A, 2, 0), 0);
    ASSERT_EQ(act1(M1, A, 4, 0), 1);
    ASSERT_EQ(act1(M1, A, 2, 4), 1);
    ASSERT_EQ(act1(M1, A, 1, 6), 1);
    ASSERT_EQ(act1(M1, A, 1, 4), 0);
    char err[512];
    ASSERT_EQ(fdmod_check_module(M1, A, err, sizeof err), 0);
    fdmod_free(M0);
    fdmod_free(M1);
    milnor_free(A);
}

TEST(fpmod_ground_field)
{
    /* A / (Sq1, Sq2, Sq4, ..., Sq32) = F_2 through degree 40; over A(1),
     * A(1) / (Sq1, Sq2) = F_2, and the module carries the profile. */
    milnor_t *A = milnor_new(40);
    const int32_t r[] = {1, 2, 4, 8, 16, 32};
    fdmod_t *M = cyclic(A, 6, r, 40);
    ASSERT_EQ(fdmod_dim(M, 0), 1);
    for (int32_t d = 1; d <= 40; d++)
        ASSERT_EQ(fdmod_dim(M, d), 0);
    fdmod_free(M);
    const int32_t h[] = {2, 1};
    milnor_t *B = milnor_new_profile(10, h, 2);
    M = cyclic(B, 2, r, 10);
    ASSERT_EQ(fdmod_top(M), 0);
    int32_t hp[16];
    ASSERT_EQ(fdmod_profile(M, hp), 2);
    ASSERT(hp[0] == 2 && hp[1] == 1);
    fdmod_free(M);
    milnor_free(B);
    milnor_free(A);
}

TEST(fpmod_joker)
{
    /* The Joker is the cyclic A(1)-module A(1)/A(1)Sq^3: cells 0..4 with
     * Sq1 x0 = x1, Sq2 x0 = x2, Sq2 x1 = x3, Sq2 x2 = x4, Sq1 x3 = x4.
     * Built here from that action (fdmod_complete) and compared table for
     * table with the presentation. */
    const int32_t h[] = {2, 1}, r3 = 3;
    milnor_t *B = milnor_new_profile(12, h, 2);
    fdmod_t *P = cyclic(B, 1, &r3, 12);
    fdmod_t *J = fdmod_new("Joker", 0, 4);
    for (int k = 0; k < 5; k++)
        fdmod_add_basis(J, k, NULL);
    uint64_t one = 1;
    fdmod_set_sq(J, B, 1, 0, 0, &one);
    fdmod_set_sq(J, B, 2, 0, 0, &one);
    fdmod_set_sq(J, B, 2, 1, 0, &one);
    fdmod_set_sq(J, B, 2, 2, 0, &one);
    fdmod_set_sq(J, B, 1, 3, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete(J, B, err, sizeof err), 0);
    for (int32_t d = 0; d <= 12; d++)
        ASSERT_EQ(fdmod_dim(P, d), d <= 4);
    for (int32_t e = 0; e <= 4; e++)
        for (int32_t k = 1; e + k <= 4; k++)
            for (int64_t op = 0; op < milnor_dim(B, k); op++) {
                const uint64_t *a = fdmod_action(P, k, op, e, 0), *b = fdmod_action(J, k, op, e, 0);
                ASSERT_EQ(a ? a[0] : 0, b ? b[0] : 0);
            }
    ASSERT_EQ(fdmod_check_module(P, B, err, sizeof err), 0);
    fdmod_free(J);
    fdmod_free(P);
    milnor_free(B);
}

TEST(fpmod_free_layout_matches_fmod)
{
    /* No relations: the truncated free module, basis generator-major as in
     * fmod.h, and Sq(Q) acting by the Milnor product. */
    milnor_t *A = milnor_new(12);
    const int32_t gd[] = {0, 0, 2};
    fdmod_t *M = NULL;
    char err[256];
    ASSERT_EQ(fpmod_build(&M, A, "free", 3, gd, NULL, 0, NULL, 8, 1 << 30, err, sizeof err), 0);
    fmod_t *F = fmod_new(A, 0, 8);
    fmod_set_gens(F, 0, 2);
    fmod_set_gens(F, 2, 1);
    for (int32_t t = 0; t <= 8; t++) {
        ASSERT_EQ(fdmod_dim(M, t), fmod_dim(F, t));
        for (int64_t g = 0; g < 3; g++) {
            int32_t q = t - gd[g];
            for (int64_t i = 0; i < milnor_dim(A, q); i++) {
                int64_t col = fmod_block_offset(F, t, gd[g], g == 1) + i;
                char want[96], op[64];
                milnor_format(op, sizeof op, A, q, i);
                if (q == 0)
                    snprintf(want, sizeof want, "x%lld", (long long)g);
                else
                    snprintf(want, sizeof want, "%s x%lld", op, (long long)g);
                ASSERT_STR_EQ(fdmod_basis_name(M, t, col), want);
                for (int32_t k = 1; t + k <= 8; k++)
                    for (int64_t Q = 0; Q < milnor_dim(A, k); Q++) {
                        uint64_t prod[4] = {0};
                        milnor_mul_add(A, prod, fmod_block_offset(F, t + k, gd[g], g == 1), k, Q, q,
                                       i);
                        const uint64_t *w = fdmod_action(M, k, Q, t, col);
                        for (int l = 0; l < f2_limbs(fmod_dim(F, t + k)); l++)
                            ASSERT_EQ(w ? w[l] : 0, prod[l]);
                    }
            }
        }
    }
    fmod_free(F);
    fdmod_free(M);
    milnor_free(A);
}

TEST(fpmod_two_generators)
{
    /* A{x0, y} / (Sq1 x0, Sq2 x0 + y, Sq1 y) = A / A(Sq1, Sq3): y takes the
     * place of Sq(2) x0 (the pivot falls on the earlier column). */
    milnor_t *A = milnor_new(40);
    const int32_t gd[] = {0, 2}, r1 = 1, r2 = 2, none = 0;
    const char *names[] = {"x0", "y"};
    trel_t T[3];
    memset(T, 0, sizeof T);
    trel_add(&T[0], A, gd, 0, &r1, 1);
    trel_add(&T[1], A, gd, 0, &r2, 1);
    trel_add(&T[1], A, gd, 1, &none, 0);
    trel_add(&T[2], A, gd, 1, &r1, 1);
    fpmod_rel_t rels[] = {T[0].rel, T[1].rel, T[2].rel};
    fdmod_t *M = NULL;
    char err[512];
    ASSERT_EQ(fpmod_build(&M, A, "two", 2, gd, names, 3, rels, 30, 1 << 30, err, sizeof err), 0);
    const int32_t r13[] = {1, 3};
    fdmod_t *C = cyclic(A, 2, r13, 30);
    for (int32_t d = 0; d <= 30; d++)
        ASSERT_EQ(fdmod_dim(M, d), fdmod_dim(C, d));
    ASSERT_STR_EQ(fdmod_basis_name(M, 2, 0), "y");
    ASSERT_EQ(act1(M, A, 2, 0), 1);
    ASSERT_EQ(fdmod_check_module(M, A, err, sizeof err), 0);
    ASSERT_EQ(fdmod_check_module(C, A, err, sizeof err), 0);
    fdmod_free(C);
    fdmod_free(M);
    milnor_free(A);
}

TEST(fpmod_same_submodule)
{
    milnor_t *A = milnor_new(20);
    const int32_t gd = 0, r1 = 1, r2 = 2, r3 = 3, r11[] = {1, 1};
    trel_t a[2], b[3], c[1], d[2];
    fpmod_rel_t ra[2], rb[3], rc[1], rd[2];
    memset(b, 0, sizeof b);
    memset(d, 0, sizeof d);
    const int32_t a12[] = {1, 2};
    cyclic_rels(a, ra, A, 2, a12);
    /* {Sq(2), Sq(1), Sq(3)}: Sq3 = Sq1 Sq2 adds nothing. */
    trel_add(&b[0], A, &gd, 0, &r2, 1);
    trel_add(&b[1], A, &gd, 0, &r1, 1);
    trel_add(&b[2], A, &gd, 0, &r3, 1);
    for (int i = 0; i < 3; i++)
        rb[i] = b[i].rel;
    cyclic_rels(c, rc, A, 1, &r1);
    int64_t list = -1, idx = -1;
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 2, ra, 3, rb, &list, &idx), 1);
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 2, ra, 2, ra, &list, &idx), 1);
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 2, ra, 1, rc, &list, &idx), 0);
    ASSERT(list == 0 && idx == 1);
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 1, rc, 3, rb, &list, &idx), 0);
    ASSERT(list == 1 && idx == 0); /* Sq(2) x0 is not a multiple of Sq1 x0 */
    /* {Sq1, Sq(1,1)}: Sq(1,1) = Sq2 Sq2 is in A(Sq1, Sq2) but not conversely. */
    trel_add(&d[0], A, &gd, 0, &r1, 1);
    trel_add(&d[1], A, &gd, 0, r11, 2);
    rd[0] = d[0].rel;
    rd[1] = d[1].rel;
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 2, rd, 2, ra, &list, &idx), 0);
    ASSERT(list == 1 && idx == 1);
    fpmod_rel_t bad = ra[1];
    bad.deg = 3; /* Sq(2) x0 claimed in degree 3 */
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 1, &bad, 1, rc, &list, &idx), SQ_E_INVAL);
    milnor_free(A);
}

TEST(fpmod_same_submodule_beyond_algebra)
{
    /* Relations above the degree A was built to are compared in a larger
     * copy: Sq9 = Sq1 Sq8 lies in A(Sq1, Sq2, Sq4, Sq8), Sq8 is not in
     * A(Sq1, Sq2, Sq4) (it is indecomposable). */
    milnor_t *big = milnor_new(16), *A = milnor_new(3);
    const int32_t gd = 0, r[] = {1, 2, 4, 8, 9};
    trel_t a[5];
    fpmod_rel_t ra[5];
    cyclic_rels(a, ra, big, 5, r);
    int64_t list = -1, idx = -1;
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 4, ra, 5, ra, &list, &idx), 1);
    ASSERT_EQ(fpmod_same_submodule(A, 1, &gd, 4, ra, 3, ra, &list, &idx), 0);
    ASSERT(list == 0 && idx == 3);
    ASSERT_EQ(milnor_max_degree(A), 3);
    milnor_free(A);
    milnor_free(big);
}

TEST(fpmod_refusals)
{
    milnor_t *A = milnor_new(60);
    const int32_t r12[] = {1, 2};
    trel_t T[2];
    fpmod_rel_t rels[2];
    cyclic_rels(T, rels, A, 2, r12);
    int32_t gd = 0;
    fdmod_t *M = NULL;
    char err[512] = "";
    ASSERT_EQ(fpmod_build(&M, A, "ko", 1, &gd, NULL, 2, rels, 60, 4096, err, sizeof err),
              SQ_E_RANGE);
    ASSERT(strstr(err, "too large") != NULL && M == NULL);
    /* The algebra must reach the truncation. */
    ASSERT_EQ(fpmod_build(&M, A, "ko", 1, &gd, NULL, 2, rels, 61, 1 << 30, err, sizeof err),
              SQ_E_RANGE);
    /* Unsorted generators; a term of the wrong degree. */
    const int32_t gd2[] = {3, 1};
    ASSERT_EQ(fpmod_build(&M, A, "x", 2, gd2, NULL, 0, NULL, 10, 1 << 30, err, sizeof err),
              SQ_E_INVAL);
    fpmod_rel_t bad = rels[1];
    bad.deg = 3;
    ASSERT_EQ(fpmod_build(&M, A, "x", 1, &gd, NULL, 1, &bad, 10, 1 << 30, err, sizeof err),
              SQ_E_INVAL);
    ASSERT(M == NULL);
    /* Truncated below the bottom generator, and no generators: zero. */
    gd = 5;
    ASSERT_EQ(fpmod_build(&M, A, "z", 1, &gd, NULL, 0, NULL, 4, 1 << 30, err, sizeof err), 0);
    ASSERT(M != NULL && fdmod_top(M) < fdmod_bottom(M));
    fdmod_free(M);
    M = NULL;
    ASSERT_EQ(fpmod_build(&M, A, "z", 0, NULL, NULL, 0, NULL, 4, 1 << 30, err, sizeof err), 0);
    ASSERT(M != NULL && fdmod_top(M) < fdmod_bottom(M));
    fdmod_free(M);
    milnor_free(A);
}

TEST(fpmod_check_detects_broken_table)
{
    /* Sq2 Sq2 = Sq3 Sq1 = Sq(1,1): in A//A(1), Sq(1,1) x0 = Sq2 (Sq2 x0) = 0.
     * Setting Sq(1,1) x0 to the degree-4 class breaks that relation. */
    milnor_t *A = milnor_new(20);
    const int32_t r12[] = {1, 2}, r11[] = {1, 1};
    fdmod_t *M = cyclic(A, 2, r12, 20);
    char err[512] = "";
    ASSERT_EQ(fdmod_check_module(M, A, err, sizeof err), 0);
    ASSERT_EQ(fdmod_dim(M, 4), 1);
    uint64_t one = 1;
    fdmod_set_action(M, A, 4, milnor_index(A, r11, 2), 0, 0, &one);
    ASSERT_EQ(fdmod_check_module(M, A, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "not a module") != NULL && strstr(err, "x0") != NULL);
    fdmod_free(M);
    milnor_free(A);
}
