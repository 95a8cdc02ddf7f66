/*
 * t-aug.c -- augmented matrices [A | I]: rank, kernel, quasi-inverse; and the
 * image-extension helpers extend_to_surjection and extend_image.
 */
#include <string.h>

#include "f2_kernels.h"
#include "f2mat.h"
#include "fmat.h"
#include "sq_test.h"

#include "fp_test_util.h"

/* v * A for a row vector v of A->rows bits, into out (A->cols bits). */
static void vec_mul(uint64_t *out, const uint64_t *v, const f2mat_t *a)
{
    int64_t nl = f2_limbs(a->cols);
    memset(out, 0, sizeof(uint64_t) * (size_t)nl);
    for (int64_t i = 0; i < a->rows; i++)
        if ((v[i / 64] >> (i % 64)) & 1)
            f2_xor_raw(out, f2mat_row(a, i), nl);
}

/* Builds [A | I] for A and reduces it with f2mat_rref. */
static void reduce_aug(f2mat_t *m, int64_t *piv, const f2mat_t *a)
{
    f2mat_init_aug(m, a->rows, a->cols);
    for (int64_t i = 0; i < a->rows; i++)
        memcpy(f2mat_row(m, i), f2mat_row(a, i), sizeof(uint64_t) * (size_t)f2_limbs(a->cols));
    f2mat_rref(m, piv);
}

TEST(aug_init)
{
    f2mat_t m = {0};
    f2mat_init_aug(&m, 5, 70);
    ASSERT_EQ(m.rows, 5);
    ASSERT_EQ(m.cols, 128 + 5);
    for (int64_t i = 0; i < 5; i++)
        for (int64_t j = 0; j < m.cols; j++)
            ASSERT_EQ(f2mat_get(&m, i, j), j == 128 + i);
    ASSERT(f2mat_is_canonical(&m));
    f2mat_clear(&m);
    f2mat_init_aug(&m, 3, 0); /* A with no columns */
    ASSERT_EQ(m.cols, 3);
    ASSERT_EQ(f2mat_get(&m, 2, 2), 1);
    f2mat_clear(&m);
    f2mat_init_aug(&m, 0, 10);
    ASSERT_EQ(m.rows, 0);
    f2mat_clear(&m);
}

TEST(aug_small_known)
{
    /* A = [1 1] [1 1] [0 1]  (3 x 2): rank 2, kernel spanned by (1,1,0). */
    f2mat_t a = {0}, m = {0}, ker = {0};
    f2mat_init(&a, 3, 2);
    f2mat_set(&a, 0, 0, 1);
    f2mat_set(&a, 0, 1, 1);
    f2mat_set(&a, 1, 0, 1);
    f2mat_set(&a, 1, 1, 1);
    f2mat_set(&a, 2, 1, 1);
    int64_t piv[64 + 3];
    reduce_aug(&m, piv, &a);
    ASSERT_EQ(f2mat_aug_rank(&m, piv, 2), 2);
    f2mat_aug_kernel(&ker, &m, piv, 2);
    ASSERT_EQ(ker.rows, 1);
    ASSERT_EQ(ker.cols, 3);
    ASSERT_EQ(f2mat_get(&ker, 0, 0), 1);
    ASSERT_EQ(f2mat_get(&ker, 0, 1), 1);
    ASSERT_EQ(f2mat_get(&ker, 0, 2), 0);
    /* qi of v = (0, 1) = row 2 of A. */
    uint64_t v = 2, out = 0, chk = 0;
    f2mat_aug_qi_apply(&out, &m, piv, 2, &v);
    vec_mul(&chk, &out, &a);
    ASSERT_EQ(chk, 2);
    f2mat_clear(&a);
    f2mat_clear(&m);
    f2mat_clear(&ker);
}

/* Kernel and quasi-inverse on random matrices of all kinds: ker * A = 0,
 * ker is a canonical RREF of full rank, rank + nullity = rows, and
 * A * qi(v) = v for v in the image. */
TEST(aug_kernel_qi_random)
{
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(200);
    for (int64_t it = 0; it < iters; it++) {
        int64_t rows = (int64_t)sq_rand_below(rng, 300) + (it < 4 ? 0 : 1);
        int64_t cols = (int64_t)sq_rand_below(rng, 300) + (it % 7 == 0 ? 0 : 1);
        if (it % 5 == 0)
            rows += 64 - rows % 64; /* on a limb boundary */
        f2mat_t a = {0}, m = {0}, ker = {0};
        switch (it % 4) {
        case 0:
            f2mat_init(&a, rows, cols);
            f2mat_randomize(&a, rng);
            break;
        case 1: /* sparse, like the matrices of a resolution */
            if (cols > 0) {
                random_sparse(&a, rows, cols, 1 + (int)sq_rand_below(rng, 6), rng);
                break;
            }
            /* fall through */
        default:
            random_low_rank(&a, rows, cols, (int64_t)sq_rand_below(rng, 100), rng);
            break;
        }
        int64_t *piv = sq_malloc(sizeof(int64_t) * (size_t)(f2_seg_start(cols) + rows + 1));
        reduce_aug(&m, piv, &a);
        ASSERT(f2mat_is_canonical(&m));
        int64_t rank = f2mat_aug_rank(&m, piv, cols);
        ASSERT_EQ(rank, f2mat_rank(&a));
        f2mat_aug_kernel(&ker, &m, piv, cols);
        ASSERT_EQ(rank + ker.rows, rows);
        ASSERT_EQ(ker.cols, rows);
        ASSERT(f2mat_is_canonical(&ker));
        /* ker is in canonical RREF and has full rank. */
        {
            f2mat_t k2 = {0};
            f2mat_init_set(&k2, &ker);
            ASSERT_EQ(f2mat_rref_naive(&k2, NULL), ker.rows);
            ASSERT(f2mat_equal(&k2, &ker));
            f2mat_clear(&k2);
        }
        uint64_t *prod = sq_malloc(sizeof(uint64_t) * (size_t)(f2_limbs(cols) + 1));
        for (int64_t j = 0; j < ker.rows; j++) {
            vec_mul(prod, f2mat_row(&ker, j), &a);
            ASSERT_EQ(f2_first_bit(prod, cols), -1);
        }
        /* Quasi-inverse on random elements of the image. */
        int64_t nlr = f2_limbs(rows) + 1;
        uint64_t *x = sq_malloc(sizeof(uint64_t) * (size_t)nlr);
        uint64_t *out = sq_malloc(sizeof(uint64_t) * (size_t)nlr);
        uint64_t *v = sq_malloc(sizeof(uint64_t) * (size_t)(f2_limbs(cols) + 1));
        for (int rep = 0; rep < 5; rep++) {
            for (int64_t l = 0; l < nlr; l++)
                x[l] = sq_rand_u64(rng);
            if (rows % 64)
                x[f2_limbs(rows) - 1] &= ((uint64_t)1 << (rows % 64)) - 1;
            for (int64_t l = f2_limbs(rows); l < nlr; l++)
                x[l] = 0;
            vec_mul(v, x, &a); /* v = x * A is in the image */
            memset(out, 0, sizeof(uint64_t) * (size_t)nlr);
            f2mat_aug_qi_apply(out, &m, piv, cols, v);
            vec_mul(prod, out, &a);
            for (int64_t l = 0; l < f2_limbs(cols); l++)
                ASSERT(prod[l] == v[l]);
            /* out - x is in the kernel: reducing it by ker leaves zero. */
            for (int64_t l = 0; l < f2_limbs(rows); l++)
                out[l] ^= x[l];
            for (int64_t j = 0; j < ker.rows; j++) {
                int64_t p = f2_first_bit(f2mat_row(&ker, j), rows);
                if ((out[p / 64] >> (p % 64)) & 1)
                    f2_xor_raw(out, f2mat_row(&ker, j), f2_limbs(rows));
            }
            ASSERT_EQ(f2_first_bit(out, rows), -1);
        }
        sq_free(x);
        sq_free(out);
        sq_free(v);
        sq_free(prod);
        sq_free(piv);
        f2mat_clear(&a);
        f2mat_clear(&m);
        f2mat_clear(&ker);
    }
}

/* A larger augmented reduction through the M4RI path: 700 x 900. */
TEST(aug_large)
{
    sq_rand_t *rng = sq_test_rand();
    f2mat_t a = {0}, m = {0}, m2 = {0}, ker = {0};
    random_low_rank(&a, 700, 900, 450, rng);
    int64_t cols = f2_seg_start(900) + 700;
    int64_t *piv = sq_malloc(sizeof(int64_t) * (size_t)cols);
    int64_t *piv2 = sq_malloc(sizeof(int64_t) * (size_t)cols);
    reduce_aug(&m, piv, &a);
    f2mat_init_aug(&m2, 700, 900);
    for (int64_t i = 0; i < 700; i++)
        memcpy(f2mat_row(&m2, i), f2mat_row(&a, i), sizeof(uint64_t) * (size_t)f2_limbs(900));
    f2mat_rref_naive(&m2, piv2);
    ASSERT(f2mat_equal(&m, &m2));
    for (int64_t c = 0; c < cols; c++)
        ASSERT_EQ(piv[c], piv2[c]);
    ASSERT_EQ(f2mat_aug_rank(&m, piv, 900), 450);
    f2mat_aug_kernel(&ker, &m, piv, 900);
    ASSERT_EQ(ker.rows, 250);
    sq_free(piv);
    sq_free(piv2);
    f2mat_clear(&a);
    f2mat_clear(&m);
    f2mat_clear(&m2);
    f2mat_clear(&ker);
}

/* fmat_extend_image on a p = 2 matrix. */
static int64_t extend_image_f2(int64_t *out, const int64_t *image_pivots, const f2mat_t *sub)
{
    fmat_t v = fmat_view_f2(sub);
    return fmat_extend_image(out, image_pivots, &v);
}

TEST(extend_to_surjection_known)
{
    int64_t piv[8] = {0, -1, 1, -1, -1, 2, -1, 3};
    int64_t out[8];
    ASSERT_EQ(fmat_extend_to_surjection(out, piv, 0, 8), 4);
    ASSERT_EQ(out[0], 1);
    ASSERT_EQ(out[1], 3);
    ASSERT_EQ(out[2], 4);
    ASSERT_EQ(out[3], 6);
    ASSERT_EQ(fmat_extend_to_surjection(out, piv, 2, 5), 2);
    ASSERT_EQ(out[0], 3);
    ASSERT_EQ(out[1], 4);
    ASSERT_EQ(fmat_extend_to_surjection(out, piv, 5, 5), 0);
}

/* The image rows plus the unit vectors of the new columns span everything. */
TEST(extend_to_surjection_random)
{
    sq_rand_t *rng = sq_test_rand();
    for (int it = 0; it < 30; it++) {
        int64_t rows = 1 + (int64_t)sq_rand_below(rng, 200);
        int64_t cols = 1 + (int64_t)sq_rand_below(rng, 200);
        f2mat_t a = {0}, all = {0};
        random_low_rank(&a, rows, cols, (int64_t)sq_rand_below(rng, 150), rng);
        int64_t *piv = sq_malloc(sizeof(int64_t) * (size_t)cols);
        int64_t *nc = sq_malloc(sizeof(int64_t) * (size_t)cols);
        int64_t rank = f2mat_rref(&a, piv);
        int64_t n = fmat_extend_to_surjection(nc, piv, 0, cols);
        ASSERT_EQ(rank + n, cols);
        for (int64_t j = 1; j < n; j++)
            ASSERT(nc[j - 1] < nc[j]);
        f2mat_init(&all, rank + n, cols);
        for (int64_t i = 0; i < rank; i++)
            memcpy(f2mat_row(&all, i), f2mat_row(&a, i), sizeof(uint64_t) * (size_t)f2_limbs(cols));
        for (int64_t j = 0; j < n; j++)
            f2mat_set(&all, rank + j, nc[j], 1);
        ASSERT_EQ(f2mat_rank(&all), cols);
        sq_free(piv);
        sq_free(nc);
        f2mat_clear(&a);
        f2mat_clear(&all);
    }
}

TEST(extend_image_known)
{
    /* sub (RREF, 3 x 4): pivots 0, 1, 3; image pivots {1}. */
    f2mat_t sub = {0};
    f2mat_init(&sub, 4, 4);
    f2mat_set(&sub, 0, 0, 1);
    f2mat_set(&sub, 0, 2, 1);
    f2mat_set(&sub, 1, 1, 1);
    f2mat_set(&sub, 2, 3, 1); /* row 3 is zero and must be skipped */
    int64_t ip[4] = {-1, 0, -1, -1};
    int64_t out[4];
    ASSERT_EQ(extend_image_f2(out, ip, &sub), 2);
    ASSERT_EQ(out[0], 0);
    ASSERT_EQ(out[1], 2);
    int64_t none[4] = {-1, -1, -1, -1};
    ASSERT_EQ(extend_image_f2(out, none, &sub), 3);
    int64_t all[4] = {0, 1, 2, 3};
    ASSERT_EQ(extend_image_f2(out, all, &sub), 0);
    f2mat_clear(&sub);
}

/* image <= sub: the image rows plus the chosen rows of sub form a basis of
 * sub, and exactly dim sub - dim image rows are chosen. */
TEST(extend_image_random)
{
    sq_rand_t *rng = sq_test_rand();
    for (int it = 0; it < 30; it++) {
        int64_t cols = 1 + (int64_t)sq_rand_below(rng, 260);
        int64_t dsub = (int64_t)sq_rand_below(rng, (uint64_t)cols + 1);
        f2mat_t sub = {0}, img = {0}, c = {0}, all = {0};
        random_low_rank(&sub, dsub, cols, dsub, rng);
        int64_t rs = f2mat_rref(&sub, NULL);
        /* img = random combinations of the rows of sub. */
        int64_t nimg = (int64_t)sq_rand_below(rng, (uint64_t)dsub + 2);
        f2mat_init(&c, nimg, sub.rows);
        f2mat_randomize(&c, rng);
        f2mat_mul_naive(&img, &c, &sub);
        int64_t *ip = sq_malloc(sizeof(int64_t) * (size_t)cols);
        int64_t *out = sq_malloc(sizeof(int64_t) * (size_t)(sub.rows + 1));
        int64_t ri = f2mat_rref(&img, ip);
        int64_t n = extend_image_f2(out, ip, &sub);
        ASSERT_EQ(ri + n, rs);
        for (int64_t j = 1; j < n; j++)
            ASSERT(out[j - 1] < out[j]);
        f2mat_init(&all, ri + n, cols);
        for (int64_t i = 0; i < ri; i++)
            memcpy(f2mat_row(&all, i), f2mat_row(&img, i),
                   sizeof(uint64_t) * (size_t)f2_limbs(cols));
        for (int64_t j = 0; j < n; j++)
            memcpy(f2mat_row(&all, ri + j), f2mat_row(&sub, out[j]),
                   sizeof(uint64_t) * (size_t)f2_limbs(cols));
        ASSERT_EQ(f2mat_rank(&all), rs);
        sq_free(ip);
        sq_free(out);
        f2mat_clear(&sub);
        f2mat_clear(&img);
        f2mat_clear(&c);
        f2mat_clear(&all);
    }
}
