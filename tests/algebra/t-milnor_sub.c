/*
 * t-milnor_sub.c -- sub-Hopf algebras by profile: dimensions, order,
 * closure and agreement of products with the full algebra.
 */
#include <string.h>

#include "milnor.h"
#include "sq_test.h"

TEST(sub_dimensions)
{
    /* A(0), A(1), A(2), E(1) = [1,1]: total dimensions 2, 8, 64, 4. */
    int32_t p0[] = {1}, p1[] = {2, 1}, p2[] = {3, 2, 1}, e1[] = {1, 1};
    const int32_t *ps[] = {p0, p1, p2, e1};
    int lens[] = {1, 2, 3, 2};
    int64_t want[] = {2, 8, 64, 4}, top[] = {1, 6, 23, 4};
    for (int k = 0; k < 4; k++) {
        milnor_t *B = milnor_new_profile(40, ps[k], lens[k]);
        int64_t total = 0, hi = 0;
        for (int32_t d = 0; d <= 40; d++) {
            total += milnor_dim(B, d);
            if (milnor_dim(B, d))
                hi = d;
        }
        ASSERT_EQ(total, want[k]);
        ASSERT_EQ(hi, top[k]);
        int32_t h[16];
        ASSERT_EQ(milnor_profile(B, h), lens[k]);
        milnor_free(B);
    }
}

TEST(sub_products_match_full)
{
    /* For A(2): every product of basis elements, computed in B and mapped to
     * A's basis, equals the product in A; index/get round-trip in B. */
    int32_t h[] = {3, 2, 1};
    milnor_t *B = milnor_new_profile(46, h, 3), *A = milnor_new(46);
    int32_t r[MILNOR_MAX_LEN], s[MILNOR_MAX_LEN], q[MILNOR_MAX_LEN];
    int64_t checked = 0;
    for (int32_t d = 0; d <= 23; d++)
        for (int64_t i = 0; i < milnor_dim(B, d); i++) {
            int rl = milnor_get(B, d, i, r, MILNOR_MAX_LEN);
            ASSERT_EQ(milnor_index(B, r, rl), i);
            for (int32_t e = 0; e <= 23; e++)
                for (int64_t j = 0; j < milnor_dim(B, e); j++) {
                    int sl = milnor_get(B, e, j, s, MILNOR_MAX_LEN);
                    uint64_t wb[4] = {0}, wa[64] = {0}, wm[64] = {0};
                    milnor_mul_add(B, wb, 0, d, i, e, j);
                    milnor_mul_pparts_add(A, wa, 0, r, rl, s, sl);
                    for (int64_t k = 0; k < milnor_dim(B, d + e); k++)
                        if ((wb[k >> 6] >> (k & 63)) & 1) {
                            int ql = milnor_get(B, d + e, k, q, MILNOR_MAX_LEN);
                            int64_t a = milnor_index(A, q, ql);
                            wm[a >> 6] ^= 1ULL << (a & 63);
                        }
                    ASSERT(memcmp(wa, wm, sizeof wa) == 0);
                    checked++;
                }
        }
    ASSERT_EQ(checked, 64 * 64);
    /* Sq(4) is not in A(1). */
    int32_t h1[] = {2, 1}, r4[] = {4};
    milnor_t *B1 = milnor_new_profile(10, h1, 2);
    ASSERT_EQ(milnor_index(B1, r4, 1), -1);
    milnor_free(B1);
    milnor_free(A);
    milnor_free(B);
}
