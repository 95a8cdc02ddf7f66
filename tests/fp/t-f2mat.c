/*
 * t-f2mat.c -- tests of f2mat_t basics and of the row reducers.
 *
 * The naive reducer is the oracle: every faster reducer must give the same
 * bits and pivots, on random matrices whose dimensions sit around limb
 * boundaries, on rank-deficient ones (products of thin random matrices), and
 * on flat and tall shapes.  Where libm4ri is installed, its
 * mzd_echelonize(.., 1) is a second, independent oracle.
 */
#include "f2mat.h"
#include "sq_test.h"

#include "fp_test_util.h"

/* Dimensions around limb boundaries. */
static const int64_t edge_dims[] = {0,   1,   2,   63,  64,  65,  127, 128,
                                    129, 191, 192, 193, 255, 256, 257};
#define N_EDGE ((int)(sizeof edge_dims / sizeof edge_dims[0]))

TEST(f2mat_basics)
{
    f2mat_t z = {0};
    f2mat_clear(&z); /* zeroed struct: no-op */
    ASSERT(z.data == NULL && z.rows == 0);

    f2mat_t a = {0}, b = {0};
    f2mat_init(&a, 3, 130);
    ASSERT_EQ(f2_limbs(130), 3);
    ASSERT_EQ(f2_seg_start(130), 192);
    ASSERT_EQ(f2_seg_start(128), 128);
    ASSERT_EQ(f2_seg_start(0), 0);
    ASSERT(a.stride >= f2_limbs(130));
    ASSERT(((uintptr_t)a.data & 63) == 0);
    ASSERT(f2mat_is_canonical(&a));
    f2mat_set(&a, 2, 129, 1);
    f2mat_set(&a, 0, 0, 1);
    f2mat_flip(&a, 1, 64);
    ASSERT_EQ(f2mat_get(&a, 2, 129), 1);
    ASSERT_EQ(f2mat_get(&a, 0, 0), 1);
    ASSERT_EQ(f2mat_get(&a, 1, 64), 1);
    ASSERT_EQ(f2mat_get(&a, 1, 63), 0);
    f2mat_flip(&a, 1, 64);
    ASSERT_EQ(f2mat_get(&a, 1, 64), 0);
    f2mat_set(&a, 0, 0, 0);
    ASSERT_EQ(f2mat_get(&a, 0, 0), 0);
    ASSERT(f2mat_is_canonical(&a));

    f2mat_init_set(&b, &a);
    ASSERT(f2mat_equal(&a, &b));
    f2mat_flip(&b, 0, 5);
    ASSERT(!f2mat_equal(&a, &b));
    f2mat_t c = {0};
    f2mat_init(&c, 3, 131);
    ASSERT(!f2mat_equal(&a, &c));
    f2mat_clear(&c);

    /* A set padding bit is detected. */
    f2mat_row(&b, 1)[2] |= (uint64_t)1 << 5;
    ASSERT(!f2mat_is_canonical(&b));

    f2mat_t s1 = a, s2 = b;
    f2mat_swap(&a, &b);
    ASSERT(a.data == s2.data && b.data == s1.data);
    f2mat_zero(&b);
    ASSERT_EQ(f2mat_get(&b, 2, 129), 0);

    for (int i = 0; i < N_EDGE; i++) {
        f2mat_t r = {0};
        f2mat_init(&r, 5, edge_dims[i]);
        f2mat_randomize(&r, sq_test_rand());
        ASSERT(f2mat_is_canonical(&r));
        f2mat_clear(&r);
    }
    f2mat_clear(&a);
    f2mat_clear(&b);
    ASSERT(a.data == NULL);
}

TEST(f2mat_first_bit)
{
    uint64_t v[4] = {0, 0, 0, 0};
    ASSERT_EQ(f2_first_bit(v, 256), -1);
    ASSERT_EQ(f2_first_bit(v, 0), -1);
    v[2] = (uint64_t)1 << 7;
    ASSERT_EQ(f2_first_bit(v, 256), 135);
    ASSERT_EQ(f2_first_bit(v, 136), 135);
    ASSERT_EQ(f2_first_bit(v, 135), -1);
    ASSERT_EQ(f2_first_bit(v, 130), -1);
    v[0] = 1;
    ASSERT_EQ(f2_first_bit(v, 1), 0);
    v[0] = (uint64_t)1 << 63;
    ASSERT_EQ(f2_first_bit(v, 64), 63);
    ASSERT_EQ(f2_first_bit(v, 63), -1);
}

TEST(f2mat_mul_naive)
{
    /* (A B) C == A (B C) and I A == A on random matrices. */
    sq_rand_t *rng = sq_test_rand();
    for (int it = 0; it < 20; it++) {
        int64_t n1 = (int64_t)sq_rand_below(rng, 150), n2 = (int64_t)sq_rand_below(rng, 150);
        int64_t n3 = (int64_t)sq_rand_below(rng, 150), n4 = (int64_t)sq_rand_below(rng, 150);
        f2mat_t a = {0}, b = {0}, c = {0}, ab = {0}, bc = {0}, x = {0}, y = {0}, id = {0}, ia = {0};
        f2mat_init(&a, n1, n2);
        f2mat_init(&b, n2, n3);
        f2mat_init(&c, n3, n4);
        f2mat_randomize(&a, rng);
        f2mat_randomize(&b, rng);
        f2mat_randomize(&c, rng);
        f2mat_mul_naive(&ab, &a, &b);
        f2mat_mul_naive(&bc, &b, &c);
        f2mat_mul_naive(&x, &ab, &c);
        f2mat_mul_naive(&y, &a, &bc);
        ASSERT(f2mat_equal(&x, &y));
        ASSERT(f2mat_is_canonical(&x));
        f2mat_init(&id, n1, n1);
        for (int64_t i = 0; i < n1; i++)
            f2mat_set(&id, i, i, 1);
        f2mat_mul_naive(&ia, &id, &a);
        ASSERT(f2mat_equal(&ia, &a));
        f2mat_clear(&a);
        f2mat_clear(&b);
        f2mat_clear(&c);
        f2mat_clear(&ab);
        f2mat_clear(&bc);
        f2mat_clear(&x);
        f2mat_clear(&y);
        f2mat_clear(&id);
        f2mat_clear(&ia);
    }
}

TEST(rref_naive_small_known)
{
    /* [1 1 0]      [1 0 1]
     * [0 1 1]  ->  [0 1 1]
     * [1 0 1]      [0 0 0]   rank 2, pivots {0: 0, 1: 1, 2: -1} */
    f2mat_t m = {0};
    f2mat_init(&m, 3, 3);
    f2mat_set(&m, 0, 0, 1);
    f2mat_set(&m, 0, 1, 1);
    f2mat_set(&m, 1, 1, 1);
    f2mat_set(&m, 1, 2, 1);
    f2mat_set(&m, 2, 0, 1);
    f2mat_set(&m, 2, 2, 1);
    f2mat_t m2 = {0};
    f2mat_init_set(&m2, &m);
    int64_t piv[3];
    ASSERT_EQ(f2mat_rref_naive(&m, piv), 2);
    ASSERT_EQ(piv[0], 0);
    ASSERT_EQ(piv[1], 1);
    ASSERT_EQ(piv[2], -1);
    ASSERT_EQ(f2mat_get(&m, 0, 0), 1);
    ASSERT_EQ(f2mat_get(&m, 0, 1), 0);
    ASSERT_EQ(f2mat_get(&m, 0, 2), 1);
    ASSERT_EQ(f2mat_get(&m, 1, 0), 0);
    ASSERT_EQ(f2mat_get(&m, 1, 1), 1);
    ASSERT_EQ(f2mat_get(&m, 1, 2), 1);
    for (int j = 0; j < 3; j++)
        ASSERT_EQ(f2mat_get(&m, 2, j), 0);
    ASSERT_EQ(f2mat_rref_m4ri(&m2, piv), 2);
    ASSERT(f2mat_equal(&m, &m2));
    f2mat_clear(&m);
    f2mat_clear(&m2);
}

/* m4ri == naive (bits and pivots), the result is a canonical RREF, it is
 * idempotent, and the dispatcher agrees; all dimension pairs from edge_dims. */
TEST(rref_m4ri_vs_naive_edges)
{
    sq_rand_t *rng = sq_test_rand();
    for (int i = 0; i < N_EDGE; i++)
        for (int j = 0; j < N_EDGE; j++) {
            f2mat_t a = {0};
            f2mat_init(&a, edge_dims[i], edge_dims[j]);
            f2mat_randomize(&a, rng);
            check_reducers_agree(&a);
            f2mat_clear(&a);
        }
}

/* Random sizes up to ~700, dense, sparse and rank-deficient. */
TEST(rref_m4ri_vs_naive_random)
{
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(400);
    for (int64_t it = 0; it < iters; it++) {
        int64_t rows = (int64_t)sq_rand_below(rng, 700) + 1;
        int64_t cols = (int64_t)sq_rand_below(rng, 700) + 1;
        f2mat_t a = {0};
        switch (it % 4) {
        case 0:
            f2mat_init(&a, rows, cols);
            f2mat_randomize(&a, rng);
            break;
        case 1:
            random_low_rank(&a, rows, cols, (int64_t)sq_rand_below(rng, 130), rng);
            break;
        case 2:
            random_sparse(&a, rows, cols, 1 + (int)sq_rand_below(rng, 4), rng);
            break;
        default:
            random_low_rank(&a, rows, cols, (int64_t)sq_rand_below(rng, 600), rng);
            break;
        }
        check_reducers_agree(&a);
        f2mat_clear(&a);
    }
}

/* Flat, tall and larger shapes. */
TEST(rref_m4ri_vs_naive_shapes)
{
    sq_rand_t *rng = sq_test_rand();
    static const int64_t shapes[][3] = {
        /* rows, cols, rank (0: full random) */
        {100, 20000, 0},   {100, 20000, 50}, {3, 5000, 0},      {64, 4097, 0},   {65, 9000, 0},
        {20000, 100, 0},   {5000, 3, 0},     {4097, 64, 0},     {3000, 200, 70}, {1500, 1500, 0},
        {1500, 1500, 700}, {2049, 2047, 0},  {1000, 3000, 900}, {257, 129, 100},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        f2mat_t a = {0};
        if (shapes[s][2] == 0) {
            f2mat_init(&a, shapes[s][0], shapes[s][1]);
            f2mat_randomize(&a, rng);
        } else {
            random_low_rank(&a, shapes[s][0], shapes[s][1], shapes[s][2], rng);
        }
        check_reducers_agree(&a);
        f2mat_clear(&a);
    }
}

/* Structured inputs: matrices already in RREF with scattered non-pivot
 * columns, permuted identity blocks, unit vectors, all-ones. */
TEST(rref_m4ri_structured)
{
    sq_rand_t *rng = sq_test_rand();
    for (int it = 0; it < 12; it++) {
        int64_t n = 50 + (int64_t)sq_rand_below(rng, 400);
        int64_t cols = n + (int64_t)sq_rand_below(rng, 300);
        f2mat_t a = {0};
        f2mat_init(&a, n, cols);
        switch (it % 4) {
        case 0: /* all ones */
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < cols; j++)
                    f2mat_set(&a, i, j, 1);
            break;
        case 1: /* shuffled unit vectors with repeats */
            for (int64_t i = 0; i < n; i++)
                f2mat_set(&a, i, (int64_t)sq_rand_below(rng, (uint64_t)cols), 1);
            break;
        case 2: /* upper triangular, full diagonal */
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = i; j < cols; j++)
                    f2mat_set(&a, i, j, (int)(sq_rand_u64(rng) & 1) | (j == i));
            break;
        default: /* lower triangular in reverse row order */
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j <= i && j < cols; j++)
                    f2mat_set(&a, n - 1 - i, j, (int)(sq_rand_u64(rng) & 1) | (j == i));
            break;
        }
        check_reducers_agree(&a);
        f2mat_clear(&a);
    }
}

/* A larger case, once: 2500 x 2500 dense and half rank. */
TEST(rref_m4ri_large)
{
    sq_rand_t *rng = sq_test_rand();
    f2mat_t a = {0};
    f2mat_init(&a, 2500, 2600);
    f2mat_randomize(&a, rng);
    check_reducers_agree(&a);
    f2mat_clear(&a);
    random_low_rank(&a, 2600, 2500, 1250, rng);
    check_reducers_agree(&a);
    f2mat_clear(&a);
}

/* Odd strides: a matrix whose stride is larger than needed (as a caller
 * might build by hand) reduces the same, and its padding stays zero. */
TEST(rref_odd_stride)
{
    sq_rand_t *rng = sq_test_rand();
    for (int it = 0; it < 6; it++) {
        int64_t rows = 30 + (int64_t)sq_rand_below(rng, 300);
        int64_t cols = 1 + (int64_t)sq_rand_below(rng, 500);
        f2mat_t a = {0}, w = {0};
        random_low_rank(&a, rows, cols, (int64_t)sq_rand_below(rng, 200), rng);
        w.rows = rows;
        w.cols = cols;
        w.stride = f2_limbs(cols) + 1 + (int64_t)sq_rand_below(rng, 5);
        w.data = sq_aligned_calloc((size_t)(rows * w.stride), sizeof(uint64_t));
        for (int64_t i = 0; i < rows; i++)
            for (int64_t l = 0; l < f2_limbs(cols); l++)
                f2mat_row(&w, i)[l] = f2mat_row(&a, i)[l];
        int64_t *p1 = sq_malloc(sizeof(int64_t) * (size_t)(cols + 1));
        int64_t *p2 = sq_malloc(sizeof(int64_t) * (size_t)(cols + 1));
        int64_t r1 = f2mat_rref_naive(&a, p1);
        int64_t r2 = f2mat_rref_m4ri(&w, p2);
        ASSERT_EQ(r1, r2);
        ASSERT(f2mat_equal(&a, &w));
        ASSERT(f2mat_is_canonical(&w));
        for (int64_t c = 0; c < cols; c++)
            ASSERT_EQ(p1[c], p2[c]);
        sq_free(p1);
        sq_free(p2);
        f2mat_clear(&a);
        f2mat_clear(&w);
    }
}

TEST(rref_pivots_null_and_rank)
{
    sq_rand_t *rng = sq_test_rand();
    f2mat_t a = {0}, b = {0};
    random_low_rank(&a, 300, 400, 123, rng);
    f2mat_init_set(&b, &a);
    ASSERT_EQ(f2mat_rank(&a), 123);
    ASSERT_EQ(f2mat_rref(&a, NULL), 123);
    ASSERT_EQ(f2mat_rref_naive(&b, NULL), 123);
    ASSERT(f2mat_equal(&a, &b));
    f2mat_clear(&a);
    f2mat_clear(&b);
}

/* Non-pivot columns scattered through every panel (zero columns and copies
 * of earlier columns), so panels have non-contiguous pivot masks and the
 * back-substitution has to skip and merge runs of limbs. */
TEST(rref_m4ri_scattered_nonpivots)
{
    sq_rand_t *rng = sq_test_rand();
    for (int it = 0; it < 10; it++) {
        int64_t rows = 64 + (int64_t)sq_rand_below(rng, 1200);
        int64_t cols = 64 + (int64_t)sq_rand_below(rng, 1500);
        f2mat_t a = {0};
        f2mat_init(&a, rows, cols);
        f2mat_randomize(&a, rng);
        int per = 2 + it % 4; /* one column in `per` is dependent */
        for (int64_t j = 1; j < cols; j++) {
            if (sq_rand_below(rng, (uint64_t)per) != 0)
                continue;
            int64_t src = (int64_t)sq_rand_below(rng, (uint64_t)j);
            int zero = (it % 3 == 0);
            for (int64_t i = 0; i < rows; i++)
                f2mat_set(&a, i, j, zero ? 0 : f2mat_get(&a, i, src));
        }
        /* Every few panels, a long stretch of dependent columns. */
        if (it % 2 && cols > 700)
            for (int64_t j = 300; j < 700; j++)
                for (int64_t i = 0; i < rows; i++)
                    f2mat_set(&a, i, j, f2mat_get(&a, i, j % 5));
        check_reducers_agree(&a);
        f2mat_clear(&a);
    }
}

/* Dimensions around larger powers of two. */
TEST(rref_m4ri_vs_naive_big_edges)
{
    sq_rand_t *rng = sq_test_rand();
    static const int64_t d[][2] = {
        {1023, 1025}, {1024, 1024}, {1025, 1023}, {2047, 129},
        {129, 2049},  {2049, 2048}, {4095, 64},
    };
    for (size_t s = 0; s < sizeof d / sizeof d[0]; s++) {
        f2mat_t a = {0};
        if (s % 2)
            random_low_rank(&a, d[s][0], d[s][1], d[s][1] / 3 + 1, rng);
        else {
            f2mat_init(&a, d[s][0], d[s][1]);
            f2mat_randomize(&a, rng);
        }
        check_reducers_agree(&a);
        f2mat_clear(&a);
    }
}

/* f2_copy_bits against a bit-by-bit copy, on every offset and length
 * around limb boundaries. */
TEST(f2_copy_bits_matches_naive)
{
    sq_rand_t *rng = sq_test_rand();
    uint64_t src[8], dst[8], want[8];
    for (int iter = 0; iter < 4; iter++) {
        for (int l = 0; l < 8; l++)
            src[l] = sq_rand_u64(rng) & (iter == 3 ? 0 : ~0ULL);
        for (int64_t off = 0; off <= 200; off++)
            for (int64_t len = 0; off + len <= 8 * 64; len += len < 130 ? 1 : 37) {
                memset(want, 0, sizeof want);
                int any = 0;
                for (int64_t k = 0; k < len; k++)
                    if ((src[(off + k) >> 6] >> ((off + k) & 63)) & 1) {
                        want[k >> 6] |= 1ULL << (k & 63);
                        any = 1;
                    }
                memset(dst, 0xa5, sizeof dst);
                ASSERT_EQ(f2_copy_bits(dst, src, off, len), any);
                for (int64_t l = 0; l < f2_limbs(len); l++)
                    ASSERT_EQ(dst[l], want[l]);
            }
    }
}
