/*
 * t-rref-pool.c -- the threaded M4RI reducer gives the same bits and pivots
 * as the serial one (large matrices, so the row blocks really are split).
 */
#include "f2mat.h"
#include "sq_pool.h"
#include "sq_test.h"

static void check(int64_t rows, int64_t cols, int64_t rank_cap, sq_pool_t *pool)
{
    sq_rand_t *r = sq_test_rand();
    f2mat_t a = {0}, b = {0};
    if (rank_cap < rows) {
        /* A product of thin random matrices: rank <= rank_cap. */
        f2mat_t x = {0}, y = {0};
        f2mat_init(&x, rows, rank_cap);
        f2mat_init(&y, rank_cap, cols);
        f2mat_randomize(&x, r);
        f2mat_randomize(&y, r);
        f2mat_mul_naive(&a, &x, &y);
        f2mat_clear(&x);
        f2mat_clear(&y);
    } else {
        f2mat_init(&a, rows, cols);
        f2mat_randomize(&a, r);
    }
    f2mat_init_set(&b, &a);
    int64_t *pa = sq_malloc((size_t)cols * sizeof *pa), *pb = sq_malloc((size_t)cols * sizeof *pb);
    int64_t ra = f2mat_rref(&a, pa), rb = f2mat_rref_pool(&b, pb, pool);
    ASSERT_EQ(ra, rb);
    ASSERT(f2mat_equal(&a, &b));
    for (int64_t c = 0; c < cols; c++)
        ASSERT_EQ(pa[c], pb[c]);
    ASSERT(f2mat_is_canonical(&b));
    sq_free(pa);
    sq_free(pb);
    f2mat_clear(&a);
    f2mat_clear(&b);
}

TEST(rref_pool_threads)
{
    int sizes[] = {2, 3};
    for (int k = 0; k < 2; k++) {
        sq_pool_t *pool = sq_pool_new(sizes[k]);
        check(2500, 2600, 2500, pool);
        check(3000, 1500, 700, pool);
        check(1200, 9000, 1200, pool);
        check(5000, 7000, 5000, pool); /* >= PAR_MIN_WORK limbs per panel: the split path */
        sq_pool_free(pool);
    }
}

/* A sparse [A | I] as Nassau's steps reduce (rows x (f2_seg_start(acols) +
 * rows), about 2% ones in A), from a fixed seed; the serial M4RI reducer
 * (itself checked against the naive one in t-f2mat.c) as the oracle. */
static void check_aug(int64_t rows, int64_t acols, uint64_t seed, sq_pool_t *pool)
{
    sq_rand_t r;
    sq_rand_init(&r, seed);
    f2mat_t a = {0}, b = {0};
    f2mat_init_aug(&a, rows, acols);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < acols; j++)
            if (sq_rand_below(&r, 50) == 0)
                f2mat_flip(&a, i, j);
    f2mat_init_set(&b, &a);
    int64_t *pa = sq_malloc((size_t)a.cols * sizeof *pa), *pb = sq_malloc((size_t)a.cols * sizeof *pb);
    int64_t ra = f2mat_rref(&a, pa), rb = f2mat_rref_pool(&b, pb, pool);
    ASSERT_EQ(ra, rb);
    ASSERT(f2mat_aug_rank(&a, pa, acols) < rows); /* a kernel: pivots in I too */
    ASSERT(f2mat_equal(&a, &b));
    for (int64_t c = 0; c < a.cols; c++)
        ASSERT_EQ(pa[c], pb[c]);
    sq_free(pa);
    sq_free(pb);
    f2mat_clear(&a);
    f2mat_clear(&b);
}

/* The split of a panel update into column ranges and row blocks depends on
 * the pool's size; the bits must not.  Shapes above the split's cutoff
 * (2^17 limbs) that take each cut: wide rows (column ranges only), tall
 * rows of 32 limbs (column ranges and row blocks), and sparse [A | I] with
 * a kernel, on 2, 3 and 8 threads. */
TEST(rref_pool_column_row_split_threads)
{
    int sizes[] = {2, 3, 8};
    for (int k = 0; k < 3; k++) {
        sq_pool_t *pool = sq_pool_new(sizes[k]);
        check(600, 16000, 600, pool);
        check(4200, 2048, 2048, pool);
        check_aug(2600, 2300, 23, pool);
        sq_pool_free(pool);
    }
}

/* A banded matrix: row i has ones near column i * cols / rows and one at
 * random, and every eighth column repeats the one before it, so that no
 * panel reaches full rank and its pivots lie in the blocks of its band,
 * not in the first block of rows; the serial reducer as the oracle. */
static void check_band(int64_t rows, int64_t cols, uint64_t seed, sq_pool_t *pool)
{
    sq_rand_t r;
    sq_rand_init(&r, seed);
    f2mat_t a = {0}, b = {0};
    f2mat_init(&a, rows, cols);
    for (int64_t i = 0; i < rows; i++) {
        int64_t c = i * cols / rows;
        f2mat_flip(&a, i, c);
        f2mat_flip(&a, i, (c + 3) % cols);
        f2mat_flip(&a, i, (int64_t)sq_rand_below(&r, (uint64_t)cols));
        for (int64_t j = 7; j < cols; j += 8)
            if (f2mat_get(&a, i, j) != f2mat_get(&a, i, j - 1))
                f2mat_flip(&a, i, j);
    }
    f2mat_init_set(&b, &a);
    int64_t *pa = sq_malloc((size_t)cols * sizeof *pa), *pb = sq_malloc((size_t)cols * sizeof *pb);
    int64_t ra = f2mat_rref(&a, pa), rb = f2mat_rref_pool(&b, pb, pool);
    ASSERT_EQ(ra, rb);
    ASSERT(ra < cols);
    ASSERT(f2mat_equal(&a, &b));
    for (int64_t c = 0; c < cols; c++)
        ASSERT_EQ(pa[c], pb[c]);
    sq_free(pa);
    sq_free(pb);
    f2mat_clear(&a);
    f2mat_clear(&b);
}

/* The panel scan and the back-substitution's index words split into
 * blocks of rows from 4096 rows (rref_m4ri.c: candidate pivots per block,
 * merged in row order), against the serial reducer (the same bits and
 * pivots): a random matrix of rank 300 and 9000 rows (every panel spans
 * within the first block) and a banded rank-deficient one (check_band: no
 * panel spans, the pivots lie in the blocks of the band) on 2, 3 and 8
 * threads; on 3 threads also a sparse [A | I] of 6000 rows and a banded
 * matrix of rank above 4096 (back-substitutions over 4096 rows and more,
 * pivot bits a prefix or not, by byte tables and by bit loops). */
TEST(rref_pool_scan_split_threads)
{
    int sizes[] = {2, 3, 8};
    for (int k = 0; k < 3; k++) {
        sq_pool_t *pool = sq_pool_new(sizes[k]);
        check(9000, 700, 300, pool);
        check_band(9000, 1024, 31, pool);
        if (sizes[k] == 3) { /* the larger shapes once */
            check_aug(6000, 3000, 29, pool);
            check_band(14000, 4800, 37, pool);
        }
        sq_pool_free(pool);
    }
}
