/*
 * t-fpmat.c -- F_p matrices: the fast reducer against the naive oracle,
 * canonical form, kernels, quasi-inverses and the extend conventions.
 */
#include "fmat.h"
#include "fpmat.h"
#include "sq_test.h"

static const uint32_t primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 251};
#define NPRIMES (sizeof primes / sizeof primes[0])
static const int64_t sizes[] = {0, 1, 2, 31, 33, 63, 64, 65, 100, 129};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Checks that m (rank r, pivots piv) is in canonical RREF. */
static void check_canonical_rref(const fpmat_t *m, int64_t r, const int64_t *piv)
{
    ASSERT(fpmat_is_canonical(m));
    int64_t last = -1, seen = 0;
    for (int64_t i = 0; i < m->rows; i++) {
        int64_t c = fpvec_first_nonzero(fpmat_row(m, i), m->cols);
        if (i < r) {
            ASSERT(c > last);
            ASSERT_EQ(fpmat_get(m, i, c), 1);
            ASSERT_EQ(piv[c], i);
            for (int64_t q = 0; q < m->rows; q++)
                if (q != i)
                    ASSERT_EQ(fpmat_get(m, q, c), 0);
            last = c;
        } else {
            ASSERT_EQ(c, -1);
        }
    }
    for (int64_t c = 0; c < m->cols; c++)
        seen += piv[c] >= 0;
    ASSERT_EQ(seen, r);
}

TEST(fpmat_rref_vs_naive)
{
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(2);
    for (int64_t it = 0; it < iters; it++)
        for (size_t ip = 0; ip < NPRIMES; ip++)
            for (size_t a = 0; a < NSIZES; a++)
                for (size_t b = 0; b < NSIZES; b++) {
                    uint32_t dens[] = {256, 40, 8};
                    for (int di = 0; di < 3; di++) {
                        fpmat_t m = {0}, n = {0};
                        fpmat_init(&m, sizes[a], sizes[b], primes[ip]);
                        fpmat_randomize(&m, rng, dens[di]);
                        /* Low-rank variety: duplicate some rows. */
                        for (int64_t i = 1; i < m.rows; i += 3)
                            if (sq_rand_below(rng, 2))
                                fpvec_addmul(fpmat_row(&m, i), fpmat_row(&m, i - 1), m.cols,
                                             (uint32_t)sq_rand_below(rng, m.p), m.p);
                        fpmat_init_set(&n, &m);
                        fpmat_t b3 = {0};
                        fpmat_init_set(&b3, &m);
                        int64_t *p3 = sq_malloc(sizeof(int64_t) * (size_t)(m.cols + 1));
                        int64_t rb = fpmat_rref_bytes(&b3, p3);
                        int64_t *p1 = sq_malloc(sizeof(int64_t) * (size_t)(m.cols + 1));
                        int64_t *p2 = sq_malloc(sizeof(int64_t) * (size_t)(m.cols + 1));
                        int64_t r1 = fpmat_rref(&m, p1);
                        int64_t r2 = fpmat_rref_naive(&n, p2);
                        if (r1 != r2 || !fpmat_equal(&m, &n))
                            sq_test_fail(__FILE__, __LINE__,
                                         "fast != naive: p=%u %lldx%lld dens=%u seed=%llu iter=%lld",
                                         m.p, (long long)m.rows, (long long)m.cols, dens[di],
                                         (unsigned long long)sq_test_seed(), (long long)it);
                        ASSERT_EQ(rb, r1);
                        ASSERT(fpmat_equal(&b3, &m));
                        for (int64_t c = 0; c < m.cols; c++) {
                            ASSERT_EQ(p1[c], p2[c]);
                            ASSERT_EQ(p3[c], p2[c]);
                        }
                        sq_free(p3);
                        fpmat_clear(&b3);
                        check_canonical_rref(&m, r1, p1);
                        /* Idempotent. */
                        int64_t r3 = fpmat_rref(&n, p2);
                        ASSERT_EQ(r3, r1);
                        ASSERT(fpmat_equal(&m, &n));
                        sq_free(p1);
                        sq_free(p2);
                        fpmat_clear(&m);
                        fpmat_clear(&n);
                    }
                }
}

TEST(fpmat_aug_kernel_qi)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t a = 0; a < NSIZES; a++)
            for (size_t b = 0; b < NSIZES; b++) {
                uint32_t p = primes[ip];
                int64_t rows = sizes[a], cols = sizes[b];
                fpmat_t A = {0}, m = {0}, K = {0};
                fpmat_init(&A, rows, cols, p);
                fpmat_randomize(&A, rng, 60);
                fpmat_init_aug(&m, rows, cols, p);
                for (int64_t i = 0; i < rows; i++)
                    for (int64_t j = 0; j < cols; j++)
                        fpmat_set(&m, i, j, fpmat_get(&A, i, j));
                int64_t *piv = sq_malloc(sizeof(int64_t) * (size_t)(m.cols + 1));
                fpmat_rref(&m, piv);
                fmat_t mv = fmat_view_fp(&m);
                int64_t rank = fmat_aug_rank(&mv, piv, cols);
                ASSERT_EQ(rank, fpmat_rank(&A));
                fpmat_aug_kernel(&K, &m, piv, cols);
                ASSERT_EQ(K.rows + rank, rows); /* rank + nullity */
                if (K.rows && K.cols && cols) {
                    fpmat_t KA = {0};
                    fpmat_mul_naive(&KA, &K, &A);
                    for (int64_t i = 0; i < KA.rows; i++)
                        ASSERT(fpvec_is_zero(fpmat_row(&KA, i), KA.cols));
                    fpmat_clear(&KA);
                    /* The kernel is in canonical RREF. */
                    fpmat_t K2 = {0};
                    fpmat_init_set(&K2, &K);
                    fpmat_rref_naive(&K2, NULL);
                    ASSERT(fpmat_equal(&K, &K2));
                    fpmat_clear(&K2);
                }
                /* Quasi-inverse: v = x A for random x; qi(v) A = v. */
                if (rows && cols) {
                    uint8_t *x = sq_calloc((size_t)rows, 1), *v = sq_calloc((size_t)cols, 1);
                    uint8_t *y = sq_calloc((size_t)rows, 1), *w = sq_calloc((size_t)cols, 1);
                    for (int64_t i = 0; i < rows; i++)
                        x[i] = (uint8_t)sq_rand_below(rng, p);
                    for (int64_t i = 0; i < rows; i++)
                        fpvec_addmul(v, fpmat_row(&A, i), cols, x[i], p);
                    fpmat_aug_qi_apply(y, &m, piv, cols, v);
                    for (int64_t i = 0; i < rows; i++)
                        fpvec_addmul(w, fpmat_row(&A, i), cols, y[i], p);
                    ASSERT(memcmp(v, w, (size_t)cols) == 0);
                    sq_free(x);
                    sq_free(v);
                    sq_free(y);
                    sq_free(w);
                }
                sq_free(piv);
                fpmat_clear(&A);
                fpmat_clear(&m);
                fpmat_clear(&K);
            }
}

TEST(fpmat_extend_conventions)
{
    /* pivots of an image in F_3^6: columns 1 and 4. */
    int64_t piv[6] = {-1, 0, -1, -1, 1, -1};
    int64_t out[6];
    ASSERT_EQ(fmat_extend_to_surjection(out, piv, 0, 6), 4);
    ASSERT_EQ(out[0], 0);
    ASSERT_EQ(out[1], 2);
    ASSERT_EQ(out[2], 3);
    ASSERT_EQ(out[3], 5);
    ASSERT_EQ(fmat_extend_to_surjection(out, piv, 3, 6), 2);
    ASSERT_EQ(out[0], 3);
    /* A subspace in RREF with pivots 1, 2, 4 and a zero row: rows 1 (pivot 2)
     * is the only one whose pivot is not an image pivot. */
    fpmat_t sub = {0};
    fpmat_init(&sub, 4, 6, 3);
    fpmat_set(&sub, 0, 1, 1);
    fpmat_set(&sub, 0, 3, 2);
    fpmat_set(&sub, 1, 2, 1);
    fpmat_set(&sub, 2, 4, 1);
    fmat_t v = fmat_view_fp(&sub);
    ASSERT_EQ(fmat_extend_image(out, piv, &v), 1);
    ASSERT_EQ(out[0], 1);
    fpmat_clear(&sub);
}

TEST(fpmat_arith)
{
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        for (uint32_t a = 1; a < p; a++)
            ASSERT_EQ(a * fp_inv(a, p) % p, 1);
        uint8_t d[300], s[300], e[300];
        for (uint32_t k = 0; k < 300; k++) {
            d[k] = (uint8_t)((k * 7 + 3) % p);
            s[k] = (uint8_t)((k * 13 + 1) % p);
            e[k] = d[k];
        }
        fpvec_sub_raw(d, s, 300, p);
        for (int k = 0; k < 300; k++)
            ASSERT_EQ(d[k], (e[k] + p - s[k]) % p);
    }
    ASSERT(fp_prime_ok(3) && fp_prime_ok(251) && !fp_prime_ok(9) && !fp_prime_ok(1) &&
           !fp_prime_ok(257));
}

/* fpmat_kernel equals fpmat_init_aug + fpmat_rref + fpmat_aug_kernel (the
 * bitsliced p = 3 path and the generic one). */
TEST(fpmat_kernel_vs_aug)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t a = 0; a < NSIZES; a++)
            for (size_t b = 0; b < NSIZES; b++)
                for (int di = 0; di < 2; di++) {
                    uint32_t p = primes[ip];
                    int64_t rows = sizes[a], cols = sizes[b];
                    fpmat_t A = {0}, m = {0}, K1 = {0}, K2 = {0};
                    fpmat_init(&A, rows, cols, p);
                    fpmat_randomize(&A, rng, di ? 20 : 256);
                    for (int64_t i = 1; i < rows; i += 2)
                        if (sq_rand_below(rng, 3) == 0)
                            fpvec_addmul(fpmat_row(&A, i), fpmat_row(&A, i - 1), cols, 1, p);
                    fpmat_init_aug(&m, rows, cols, p);
                    for (int64_t i = 0; i < rows; i++)
                        for (int64_t j = 0; j < cols; j++)
                            fpmat_set(&m, i, j, fpmat_get(&A, i, j));
                    int64_t *p1 = sq_malloc(sizeof(int64_t) * (size_t)(m.cols + 1));
                    int64_t *p2 = sq_malloc(sizeof(int64_t) * (size_t)(cols + 1));
                    for (int64_t c = 0; c < m.cols; c++)
                        p1[c] = -1;
                    if (m.data)
                        fpmat_rref_naive(&m, p1);
                    fpmat_aug_kernel(&K1, &m, p1, cols);
                    int64_t r2 = fpmat_kernel(&K2, p2, &A);
                    fmat_t mv = fmat_view_fp(&m);
                    ASSERT_EQ(r2, fmat_aug_rank(&mv, p1, cols));
                    ASSERT(fpmat_equal(&K1, &K2));
                    for (int64_t c = 0; c < cols; c++)
                        ASSERT_EQ(p2[c], p1[c]);
                    sq_free(p1);
                    sq_free(p2);
                    fpmat_clear(&A);
                    fpmat_clear(&m);
                    fpmat_clear(&K1);
                    fpmat_clear(&K2);
                }
}
