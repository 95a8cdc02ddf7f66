/*
 * fp_test_util.h -- helpers shared by the fp tests: random matrices of a
 * given rank or density, an independent check that a matrix is a canonical
 * RREF of another, and the reducer cross-check.
 */
#ifndef FP_TEST_UTIL_H
#define FP_TEST_UTIL_H

#include "f2_kernels.h"
#include "f2mat.h"
#include "sq_test.h"

/* a = (rows x rank random) * (rank x cols random): rank <= min(rows, cols, rank),
 * almost always equal. */
static inline void random_low_rank(f2mat_t *a, int64_t rows, int64_t cols, int64_t rank,
                                   sq_rand_t *rng)
{
    f2mat_t x = {0}, y = {0};
    f2mat_init(&x, rows, rank);
    f2mat_init(&y, rank, cols);
    f2mat_randomize(&x, rng);
    f2mat_randomize(&y, rng);
    f2mat_mul_naive(a, &x, &y);
    f2mat_clear(&x);
    f2mat_clear(&y);
}

/* About per_row ones per row, at random places. */
static inline void random_sparse(f2mat_t *a, int64_t rows, int64_t cols, int per_row,
                                 sq_rand_t *rng)
{
    f2mat_init(a, rows, cols);
    for (int64_t i = 0; i < rows; i++)
        for (int j = 0; j < per_row; j++)
            f2mat_set(a, i, (int64_t)sq_rand_below(rng, (uint64_t)cols), 1);
}

/* Checks, without using any reducer, that r (rank `rank`, pivots piv) is a
 * canonical RREF: pivot rows first with increasing pivots equal to their
 * first set bits, pivot columns zero outside their row, zero rows last,
 * padding zero, and piv consistent.  When orig is not NULL, also that
 * every row of orig lies in the row space of r (with equal rank this means
 * the row spaces are equal). */
static inline void check_is_rref_of(const f2mat_t *r, int64_t rank, const int64_t *piv,
                                    const f2mat_t *orig)
{
    ASSERT(f2mat_is_canonical(r));
    ASSERT(rank >= 0 && rank <= r->rows && rank <= r->cols);
    int64_t npiv = 0, last = -1;
    for (int64_t c = 0; c < r->cols; c++)
        if (piv[c] >= 0)
            npiv++;
    ASSERT_EQ(npiv, rank);
    for (int64_t i = 0; i < r->rows; i++) {
        int64_t p = f2_first_bit(f2mat_row(r, i), r->cols);
        if (i < rank) {
            ASSERT(p > last);
            ASSERT_EQ(piv[p], i);
            last = p;
        } else {
            ASSERT_EQ(p, -1);
        }
    }
    for (int64_t c = 0; c < r->cols; c++)
        if (piv[c] >= 0)
            for (int64_t i = 0; i < rank; i++)
                ASSERT_EQ(f2mat_get(r, i, c), i == piv[c]);
    if (orig) {
        int64_t nl = f2_limbs(r->cols);
        uint64_t *v = sq_malloc(sizeof(uint64_t) * (size_t)(nl + 1));
        for (int64_t i = 0; i < orig->rows; i++) {
            for (int64_t l = 0; l < nl; l++)
                v[l] = f2mat_row(orig, i)[l];
            for (int64_t c = 0; c < r->cols; c++)
                if (piv[c] >= 0 && ((v[c / 64] >> (c % 64)) & 1))
                    f2_xor_raw(v, f2mat_row(r, piv[c]), nl);
            ASSERT_EQ(f2_first_bit(v, r->cols), -1);
        }
        sq_free(v);
    }
}

/* Runs the naive, M4RI and dispatching reducers on copies of a and checks
 * that they agree bit for bit (rank, matrix, pivots), that the result is a
 * canonical RREF of a (independently checked for small inputs), and that
 * reducing again changes nothing. */
static inline void check_reducers_agree(const f2mat_t *a)
{
    f2mat_t n = {0}, m = {0}, d = {0};
    f2mat_init_set(&n, a);
    f2mat_init_set(&m, a);
    f2mat_init_set(&d, a);
    size_t pc = (size_t)a->cols + 1;
    int64_t *pn = sq_malloc(sizeof(int64_t) * pc), *pm = sq_malloc(sizeof(int64_t) * pc);
    int64_t *pd = sq_malloc(sizeof(int64_t) * pc);
    int64_t rn = f2mat_rref_naive(&n, pn);
    int64_t rm = f2mat_rref_m4ri(&m, pm);
    int64_t rd = f2mat_rref(&d, pd);
    if (rn != rm || !f2mat_equal(&n, &m))
        sq_test_fail(__FILE__, __LINE__, "m4ri != naive on %lld x %lld (rank %lld vs %lld)",
                     (long long)a->rows, (long long)a->cols, (long long)rm, (long long)rn);
    ASSERT_EQ(rd, rn);
    ASSERT(f2mat_equal(&d, &n));
    for (int64_t c = 0; c < a->cols; c++) {
        ASSERT_EQ(pm[c], pn[c]);
        ASSERT_EQ(pd[c], pn[c]);
    }
    ASSERT(f2mat_is_canonical(&m));
    int small = (double)a->rows * (double)a->cols * (double)(rn + 1) < 2e9;
    check_is_rref_of(&m, rm, pm, small ? a : NULL);
    /* Idempotent. */
    ASSERT_EQ(f2mat_rref_m4ri(&m, pm), rn);
    ASSERT(f2mat_equal(&m, &n));
    for (int64_t c = 0; c < a->cols; c++)
        ASSERT_EQ(pm[c], pn[c]);
    sq_free(pn);
    sq_free(pm);
    sq_free(pd);
    f2mat_clear(&n);
    f2mat_clear(&m);
    f2mat_clear(&d);
}

#endif /* FP_TEST_UTIL_H */
