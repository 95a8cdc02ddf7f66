/*
 * t-nassau.c -- Nassau's algorithm: the ladder, the choice of subalgebra,
 * agreement with the classical engine cell by cell, d o d = 0, and lifts.
 */
#include <stdio.h>
#include <string.h>

#include "nassau.h"
#include "resol.h"
#include "sq_test.h"
#include "sq_test_resol.h"
#include "test_modules.h"

static int bit(const uint64_t *v, int64_t k)
{
    return (int)((v[k >> 6] >> (k & 63)) & 1);
}

TEST(nassau_ladder)
{
    static const char *want[] = {"1",       "1,1",     "2,1",     "2,1,1",   "2,2,1",
                                 "3,2,1",   "3,2,1,1", "3,2,2,1", "3,3,2,1", "4,3,2,1",
                                 "4,3,2,1,1"};
    int32_t h[NASSAU_MAX_LEN];
    int len = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ASSERT_EQ(nassau_ladder_next(h, &len), 0);
        char buf[64] = "";
        for (int k = 0; k < len; k++)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), k ? ",%d" : "%d", (int)h[k]);
        ASSERT_STR_EQ(buf, want[i]);
    }
    int32_t a1[] = {2, 1}, a2[] = {3, 2, 1}, a3[] = {4, 3, 2, 1};
    ASSERT_EQ(nassau_top_degree(a1, 2), 6);
    ASSERT_EQ(nassau_top_degree(a2, 3), 23);
    ASSERT_EQ(nassau_top_degree(a3, 4), 72);
}

TEST(nassau_signature_order)
{
    /* Profile [2,1], degree 6: the nonzero signatures in the spec's order
     * [1,0],[2,0],[3,0],[0,1],[1,1],[2,1],[3,1] have increasing ordinals. */
    int32_t h[] = {2, 1};
    int32_t sig[][2] = {{1, 0}, {2, 0}, {3, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}};
    uint32_t prev = 0;
    for (int i = 0; i < 7; i++) {
        uint32_t o = nassau_signature(h, 2, sig[i], 2);
        ASSERT(o > prev);
        prev = o;
    }
    /* Signatures are residues: Sq(4, 3) has signature [0, 1]; Sq(8) zero. */
    int32_t r1[] = {4, 3}, r2[] = {8};
    ASSERT_EQ(nassau_signature(h, 2, r1, 2), nassau_signature(h, 2, sig[3], 2));
    ASSERT_EQ(nassau_signature(h, 2, r2, 1), 0);
    ASSERT_EQ(nassau_num_signatures(h, 2), 8);
}

/* The profile chosen at (s, t) as a string ("" for none). */
static const char *chosen(const resol_t *R, int32_t s, int32_t t, char *buf, size_t n)
{
    int32_t h[NASSAU_MAX_LEN];
    int len = resol_nassau_subalgebra(R, s, t, h, NASSAU_MAX_LEN);
    buf[0] = 0;
    for (int k = 0; k < len; k++)
        snprintf(buf + strlen(buf), n - strlen(buf), k ? ",%d" : "%d", (int)h[k]);
    return buf;
}

TEST(nassau_subalgebra_choice)
{
    /* For S_2 (resolution.md, "Which subalgebra"): B is usable at (s, t)
     * when t >= c s + 1 and t >= c (s - 2) + top(B) + 1, c the slope of B's
     * vanishing line: A(0) from t = s + 1; A(1) from 3s + 1; [2,1,1] from
     * 7s + 1, [2,2,1] from 7s + 6, A(2) from 7s + 10; [3,2,1,1] from
     * 15s + 9, [3,2,2,1] from 15s + 23, [3,3,2,1] from 15s + 35, A(3) from
     * 15s + 43.  The last usable profile of the ladder is taken. */
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 12, 130);
    resol_prepare(R, RESOL_NASSAU);
    char b[64];
    for (int32_t s = 2; s <= 6; s++) {
        ASSERT_STR_EQ(chosen(R, s, s, b, sizeof b), "");
        ASSERT_STR_EQ(chosen(R, s, s + 1, b, sizeof b), "1");
        ASSERT_STR_EQ(chosen(R, s, 3 * s, b, sizeof b), "1");
        ASSERT_STR_EQ(chosen(R, s, 3 * s + 1, b, sizeof b), "2,1");
        ASSERT_STR_EQ(chosen(R, s, 7 * s, b, sizeof b), "2,1");
        ASSERT_STR_EQ(chosen(R, s, 7 * s + 1, b, sizeof b), "2,1,1");
        ASSERT_STR_EQ(chosen(R, s, 7 * s + 5, b, sizeof b), "2,1,1");
        ASSERT_STR_EQ(chosen(R, s, 7 * s + 6, b, sizeof b), "2,2,1");
        ASSERT_STR_EQ(chosen(R, s, 7 * s + 9, b, sizeof b), "2,2,1");
        ASSERT_STR_EQ(chosen(R, s, 7 * s + 10, b, sizeof b), "3,2,1");
        ASSERT_STR_EQ(chosen(R, s, 15 * s + 8, b, sizeof b), "3,2,1");
        ASSERT_STR_EQ(chosen(R, s, 15 * s + 9, b, sizeof b), "3,2,1,1");
        ASSERT_STR_EQ(chosen(R, s, 15 * s + 23, b, sizeof b), "3,2,2,1");
        ASSERT_STR_EQ(chosen(R, s, 15 * s + 35, b, sizeof b), "3,3,2,1");
        ASSERT_STR_EQ(chosen(R, s, 15 * s + 42, b, sizeof b), "3,3,2,1");
        if (15 * s + 43 <= 12 + 130 + 1)
            ASSERT_STR_EQ(chosen(R, s, 15 * s + 43, b, sizeof b), "4,3,2,1");
    }
    int32_t a2[] = {3, 2, 1}, b4[] = {3, 2, 2, 1}, a3[] = {4, 3, 2, 1};
    ASSERT_EQ(nassau_slope(a2, 3), 7);
    ASSERT_EQ(nassau_slope(b4, 4), 15);
    ASSERT_EQ(nassau_slope(a3, 4), 15);
    resol_free(R);
    fdmod_free(M);
}

/*
 * The lemma behind step 3's corrections (nassau_correct.c): for sigma a
 * nonzero signature of B (so Sq(sigma) is in B) and any S, the terms of
 * Sq(sigma) Sq(S) have signatures >= sigma (as ordinals); those of
 * signature sigma are exactly Sq(sigma + S) if S has signature 0, and there
 * are none otherwise.  Checked for every profile of the ladder through
 * [3,2,1,1], |sigma| <= 30 and |S| <= 40.
 */
TEST(nassau_left_triangular)
{
    milnor_t *A = milnor_new(80);
    int32_t h[NASSAU_MAX_LEN];
    int len = 0;
    int64_t checked = 0;
    for (int p = 0; p < 7; p++) {
        ASSERT_EQ(nassau_ladder_next(h, &len), 0);
        for (uint32_t o = 1; o < nassau_num_signatures(h, len); o++) {
            int32_t sig[NASSAU_MAX_LEN], sd = 0;
            uint32_t x = o;
            for (int i = 0; i < len; i++) {
                sig[i] = (int32_t)(x & ((1u << h[i]) - 1));
                x >>= h[i];
                sd += sig[i] * ((1 << (i + 1)) - 1);
            }
            if (sd > 30)
                continue;
            int64_t sidx = milnor_index(A, sig, len);
            for (int32_t d = 0; d <= 40; d++) {
                int64_t odim = milnor_dim(A, d + sd);
                uint64_t *out = sq_calloc((size_t)f2_limbs(odim) + 1, 8);
                for (int64_t k = 0; k < milnor_dim(A, d); k++) {
                    memset(out, 0, (size_t)(f2_limbs(odim) + 1) * 8);
                    milnor_mul_add(A, out, 0, sd, sidx, d, k);
                    int32_t r[MILNOR_MAX_LEN + NASSAU_MAX_LEN] = {0};
                    int rl = milnor_get(A, d, k, r, MILNOR_MAX_LEN);
                    uint32_t tau = nassau_signature(h, len, r, rl);
                    int64_t up = -1;
                    if (tau == 0) {
                        for (int i = 0; i < len; i++)
                            r[i] += sig[i];
                        up = milnor_index(A, r, rl > len ? rl : len);
                        ASSERT(bit(out, up));
                    }
                    for (int64_t j = 0; j < odim; j++) {
                        if (!bit(out, j))
                            continue;
                        int32_t q[MILNOR_MAX_LEN];
                        int ql = milnor_get(A, d + sd, j, q, MILNOR_MAX_LEN);
                        uint32_t so = nassau_signature(h, len, q, ql);
                        ASSERT(so >= o);
                        ASSERT(so != o || j == up);
                    }
                    checked++;
                }
                sq_free(out);
            }
        }
    }
    ASSERT(checked > 100000);
    milnor_free(A);
}

/* d_{s-1} d_s = 0 on every generator, and no zero differentials. */
static void check_dd_zero(const resol_t *R)
{
    for (int32_t s = 1; s <= resol_max_s(R); s++) {
        const fmod_t *F = resol_free_module(R, s);
        const fhom_t *d = resol_differential(R, s), *d1 = resol_differential(R, s - 1);
        for (int64_t g = 0; g < fmod_total_gens(F); g++) {
            int32_t e = fmod_gen_degree(F, g);
            int64_t nbits;
            const uint64_t *img = fhom_image(d, g, &nbits);
            ASSERT(f2_first_bit(img, nbits) >= 0);
            int64_t ob = fhom_target_dim(d1, e);
            uint64_t *out = sq_calloc((size_t)f2_limbs(ob) + 1, 8);
            fhom_apply_add(d1, out, e, e, img);
            if (f2_first_bit(out, ob) >= 0)
                sq_test_fail(__FILE__, __LINE__, "%s: d o d != 0 on generator %lld of F_%d",
                             fdmod_name(resol_input(R)), (long long)g, s);
            sq_free(out);
        }
    }
}

/* Nassau and classical agree on every cell of the region; d o d = 0. */
static void compare_engines(fdmod_t *M, int32_t max_n, int32_t max_s)
{
    resol_t *N;
    int64_t nonzero = sq_test_engines_agree(M, max_n, max_s, &N);
    ASSERT(nonzero > max_n / 2); /* a real chart, not an empty one */
    check_dd_zero(N);
    resol_free(N);
    fdmod_free(M);
}

TEST(nassau_vs_classical_C2)
{
    compare_engines(test_module_C2(), 40, 30);
}

TEST(nassau_vs_classical_Joker)
{
    compare_engines(test_module_Joker(), 40, 30);
}

TEST(nassau_vs_classical_Csigma)
{
    compare_engines(test_module_Csigma(), 40, 30);
}

TEST(nassau_vs_classical_Ceta_Cnu_RP4)
{
    compare_engines(test_module_Ceta(), 40, 30);
    compare_engines(test_module_Cnu(), 40, 30);
    compare_engines(test_module_RP4(), 40, 30);
}

TEST(nassau_vs_classical_S2_n60_s40_slow)
{
    compare_engines(fdmod_sphere(), 60, 40);
}

TEST(nassau_S2_n40_s25)
{
    compare_engines(fdmod_sphere(), 40, 25);
}

TEST(lift_random_boundaries)
{
    /* Lifting d(w) for random w and applying d gives d(w) back. */
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 8, 30);
    resol_run(R, RESOL_NASSAU);
    sq_rand_t *rng = sq_test_rand();
    int64_t tried = 0;
    for (int it = 0; it < 60; it++) {
        int32_t s = 1 + (int32_t)sq_rand_below(rng, 8);
        int32_t t = s + (int32_t)sq_rand_below(rng, 31);
        const fmod_t *F = resol_free_module(R, s);
        const fhom_t *d = resol_differential(R, s);
        int64_t dim = fmod_dim(F, t), tgt = fhom_target_dim(d, t);
        if (dim == 0)
            continue;
        uint64_t *w = sq_calloc((size_t)f2_limbs(dim) + 1, 8);
        uint64_t *v = sq_calloc((size_t)f2_limbs(tgt) + 1, 8);
        uint64_t *u = sq_calloc((size_t)f2_limbs(dim) + 1, 8);
        uint64_t *v2 = sq_calloc((size_t)f2_limbs(tgt) + 1, 8);
        for (int64_t k = 0; k < dim; k++)
            if (sq_rand_u64(rng) & 1)
                w[k >> 6] |= 1ULL << (k & 63);
        fhom_apply_add(d, v, t, t + 1, w);
        ASSERT_EQ(resol_lift(R, s, t, v, u), 0);
        fhom_apply_add(d, v2, t, t + 1, u);
        ASSERT(memcmp(v, v2, (size_t)f2_limbs(tgt) * 8) == 0);
        tried++;
        sq_free(w);
        sq_free(v);
        sq_free(u);
        sq_free(v2);
    }
    ASSERT(tried > 30);
    /* A non-boundary is refused: Sq(2) h_0 in F_1 (degree 3, the first basis
     * element) is not even a cycle, and d_2 is zero in degree 3. */
    ASSERT_EQ(fhom_target_dim(resol_differential(R, 2), 3), 2);
    uint64_t v[2] = {1, 0}, out[2] = {0, 0};
    ASSERT_EQ(resol_lift(R, 2, 3, v, out), SQ_E_INVAL);
    resol_free(R);
    fdmod_free(M);
}

/* The fact Nassau's step 3 relies on: the diagonal block of d_{s-1} on a
 * nonzero signature sigma in degree t is the zero-signature block in degree
 * t - |sigma|, through (Sq(sigma + R0), g) <-> (Sq(R0), g).  Checked entry by
 * entry on a computed resolution of S_2 for several subalgebras. */
static int64_t check_diagonal_blocks(const resol_t *R, const int32_t *h, int hl, int32_t s,
                                     int32_t t)
{
    const milnor_t *A = resol_algebra(R);
    const fhom_t *d = resol_differential(R, s - 1);
    const fmod_t *T = resol_free_module(R, s - 1), *N = resol_free_module(R, s - 2);
    int64_t checked = 0;
    f2mat_t full = {0};
    f2mat_init(&full, fmod_dim_below(T, t, t), fmod_dim_below(N, t, t - 1));
    fhom_build_rows(d, &full, 0, t, t);
    for (uint32_t ord = 1; ord < nassau_num_signatures(h, hl); ord++) {
        int32_t sg[NASSAU_MAX_LEN] = {0}, sd = 0;
        uint32_t o = ord;
        for (int q = 0; q < hl; q++) {
            sg[q] = (int32_t)(o & ((1u << h[q]) - 1));
            o >>= h[q];
            sd += sg[q] * ((1 << (q + 1)) - 1);
        }
        int32_t t0 = t - sd;
        if (t0 < 0)
            continue;
        f2mat_t z = {0};
        f2mat_init(&z, fmod_dim_below(T, t0, t0 + 1), fmod_dim_below(N, t0, t0));
        fhom_build_rows(d, &z, 0, t0, t0 + 1);
        int64_t pos = 0;
        for (int32_t e = 0; e < t; e++)
            for (int64_t i = 0; i < fmod_num_gens(T, e); i++)
                for (int64_t k = 0; k < milnor_dim(A, t - e); k++, pos++) {
                    int32_t r[24] = {0};
                    int len = milnor_get(A, t - e, k, r, MILNOR_MAX_LEN);
                    if (nassau_signature(h, hl, r, len > hl ? len : hl) != ord)
                        continue;
                    for (int q = 0; q < hl; q++)
                        r[q] -= sg[q];
                    int64_t row0 = fmod_block_offset(T, t0, e, i) +
                                   milnor_index(A, r, len > hl ? len : hl);
                    int64_t cpos = 0;
                    for (int32_t e2 = 0; e2 < t - 1; e2++)
                        for (int64_t j = 0; j < fmod_num_gens(N, e2); j++)
                            for (int64_t c = 0; c < milnor_dim(A, t - e2); c++, cpos++) {
                                int32_t q[24] = {0};
                                int l2 = milnor_get(A, t - e2, c, q, MILNOR_MAX_LEN);
                                if (nassau_signature(h, hl, q, l2 > hl ? l2 : hl) != ord)
                                    continue;
                                for (int u = 0; u < hl; u++)
                                    q[u] -= sg[u];
                                int b = 0;
                                if (e2 < t0)
                                    b = f2mat_get(&z, row0,
                                                  fmod_block_offset(N, t0, e2, j) +
                                                      milnor_index(A, q, l2 > hl ? l2 : hl));
                                if (f2mat_get(&full, pos, cpos) != b)
                                    sq_test_fail(__FILE__, __LINE__,
                                                 "diagonal block differs: s=%d t=%d ord=%u", s,
                                                 t, ord);
                                checked++;
                            }
                }
        f2mat_clear(&z);
    }
    f2mat_clear(&full);
    return checked;
}

TEST(nassau_diagonal_blocks)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 8, 36);
    resol_run(R, RESOL_NASSAU);
    int32_t p1[] = {1}, p11[] = {1, 1}, p21[] = {2, 1}, p321[] = {3, 2, 1};
    int64_t checked = 0;
    for (int32_t s = 2; s <= 6; s += 2)
        for (int32_t t = s + 14; t <= s + 36; t += 5) {
            checked += check_diagonal_blocks(R, p1, 1, s, t);
            checked += check_diagonal_blocks(R, p11, 2, s, t);
            checked += check_diagonal_blocks(R, p21, 2, s, t);
            checked += check_diagonal_blocks(R, p321, 3, s, t);
        }
    ASSERT(checked > 100000);
    resol_free(R);
    fdmod_free(M);
}

/* Against a table from outside adams: SSeqCpp (Weinan Lin's program,
 * Groebner bases over A; tests/data/ext-S2-t236-sseqcpp.csv) for every cell
 * of the region.  The stem-200 run (docs/benchmarks.md) equals the whole
 * table, 18,626 cells with t <= 236; these keep the engine to it. */
static void sseqcpp_region(int32_t max_n, int32_t max_s)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, max_s, max_n);
    resol_run(R, RESOL_NASSAU);
    ASSERT_EQ(sq_test_check_s2_sseqcpp(R, max_n, max_s), (int64_t)(max_n + 1) * (max_s + 1));
    resol_free(R);
    fdmod_free(M);
}

TEST(nassau_S2_equals_sseqcpp_n70_s36)
{
    sseqcpp_region(70, 36);
}

TEST(nassau_S2_equals_sseqcpp_n120_s62_slow)
{
    sseqcpp_region(120, 62);
}

TEST(nassau_S2_n80_s43_slow)
{
    /* Issue 3's acceptance run: S_2 through (80, 43) with Nassau's
     * algorithm finishes and agrees with the reference table through stem
     * 60 (filtration 40). */
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 43, 80);
    resol_run(R, RESOL_AUTO);
    sq_test_check_s2_table(R, 60, 40);
    for (int32_t n = 61; n <= 80; n++)
        for (int32_t s = 0; s <= 43; s++)
            ASSERT(resol_ext_dim(R, s, n) >= 0);
    resol_free(R);
    fdmod_free(M);
}
