/*
 * t-fmat.c -- the field handle (fmat.h) against the matrices it wraps: every
 * operation at p = 2, 3, 5, 7 on random inputs with fixed seeds, compared
 * bit for bit (or byte for byte) with the f2mat_* / fpmat_* call it
 * dispatches to, on edge sizes (0 rows, 1 column, 63/64/65), plus the facts
 * the operations promise (kernel * A = 0, qi(v) * A = v, RREF idempotent).
 */
#include <string.h>

#include "fmat.h"
#include "sq_pool.h"
#include "sq_test.h"

static const uint32_t primes[] = {2, 3, 5, 7};
#define NPRIMES (sizeof primes / sizeof primes[0])
static const int64_t sizes[] = {0, 1, 2, 31, 63, 64, 65, 100};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* A random rows x cols matrix over F_p; every other one of low rank (a
 * product through rank_cap = cols / 3 + 1 columns), so kernels and images
 * are both nontrivial. */
static void random_mat(fmat_t *m, int64_t rows, int64_t cols, uint32_t p, sq_rand_t *rng)
{
    if (sq_rand_below(rng, 2) && rows > 1 && cols > 1) {
        fmat_t x = {0}, y = {0};
        int64_t k = cols / 3 + 1;
        fmat_init(&x, rows, k, p);
        fmat_init(&y, k, cols, p);
        fmat_randomize(&x, rng);
        fmat_randomize(&y, rng);
        fmat_mul_naive(m, &x, &y);
        fmat_clear(&x);
        fmat_clear(&y);
    } else {
        fmat_init(m, rows, cols, p);
        fmat_randomize(m, rng);
    }
}

/* 1 when m's inner matrix equals the f2mat / fpmat u (of m's prime). */
static int same_f2(const fmat_t *m, const f2mat_t *u)
{
    return m->p == 2 && f2mat_equal(&m->f2, u);
}
static int same_fp(const fmat_t *m, const fpmat_t *u)
{
    return m->p > 2 && fpmat_equal(&m->fp, u);
}

static void assert_pivots_eq(const int64_t *a, const int64_t *b, int64_t n)
{
    for (int64_t c = 0; c < n; c++)
        if (a[c] != b[c])
            sq_test_fail(__FILE__, __LINE__, "pivots[%lld]: %lld vs %lld (seed %llu)",
                         (long long)c, (long long)a[c], (long long)b[c],
                         (unsigned long long)sq_test_seed());
}

static int64_t *pivots_new(int64_t n)
{
    int64_t *p = sq_malloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int64_t c = 0; c <= n; c++)
        p[c] = -7; /* every entry must be written */
    return p;
}

TEST(fmat_life_cycle)
{
    fmat_t z = {0};
    ASSERT_EQ(fmat_rows(&z), 0);
    ASSERT_EQ(fmat_cols(&z), 0);
    ASSERT(fmat_is_canonical(&z));
    ASSERT_EQ(fmat_rank(&z), 0);
    fmat_clear(&z); /* no-op on a zeroed struct */
    fmat_clear(&z);
    ASSERT_EQ(fmat_prime(&z), 0);
    ASSERT(fmat_prime_ok(2) && fmat_prime_ok(3) && fmat_prime_ok(251));
    ASSERT(!fmat_prime_ok(0) && !fmat_prime_ok(1) && !fmat_prime_ok(4) && !fmat_prime_ok(257));
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t a = 0; a < NSIZES; a++)
            for (size_t b = 0; b < NSIZES; b++) {
                uint32_t p = primes[ip];
                fmat_t m = {0}, c = {0};
                fmat_init(&m, sizes[a], sizes[b], p);
                ASSERT_EQ(fmat_prime(&m), p);
                ASSERT_EQ(fmat_rows(&m), sizes[a]);
                ASSERT_EQ(fmat_cols(&m), sizes[b]);
                ASSERT(fmat_is_canonical(&m));
                for (int64_t i = 0; i < sizes[a]; i++)
                    ASSERT(fvec_is_zero(fmat_row(&m, i)));
                fmat_randomize(&m, rng);
                ASSERT(fmat_is_canonical(&m));
                fmat_init_set(&c, &m);
                ASSERT(fmat_equal(&c, &m));
                if (p == 2)
                    ASSERT(same_f2(&c, &m.f2));
                else
                    ASSERT(same_fp(&c, &m.fp));
                fmat_zero(&c);
                ASSERT(fmat_is_canonical(&c));
                ASSERT(sizes[a] * sizes[b] == 0 || fmat_equal(&c, &m) == (fmat_rank(&m) == 0));
                fmat_t s = c;
                fmat_swap(&c, &m);
                ASSERT(fmat_equal(&m, &s));
                fmat_clear(&m);
                fmat_clear(&c);
                ASSERT_EQ(c.p, 0);
            }
    /* Different primes never compare equal. */
    fmat_t x = {0}, y = {0};
    fmat_init(&x, 2, 2, 3);
    fmat_init(&y, 2, 2, 5);
    ASSERT(!fmat_equal(&x, &y));
    fmat_clear(&x);
    fmat_clear(&y);
}

/* Entry access through fmat_get/set and row views, against the inner
 * matrix's own accessors. */
TEST(fmat_entries_vs_underlying)
{
    sq_rand_t *rng = sq_test_rand();
    static const int64_t cols_[] = {1, 63, 64, 65, 130};
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t b = 0; b < sizeof cols_ / sizeof cols_[0]; b++) {
            uint32_t p = primes[ip];
            int64_t rows = 5, cols = cols_[b];
            fmat_t m = {0};
            fmat_init(&m, rows, cols, p);
            for (int it = 0; it < 200; it++) {
                int64_t i = (int64_t)sq_rand_below(rng, (uint64_t)rows);
                int64_t j = (int64_t)sq_rand_below(rng, (uint64_t)cols);
                uint32_t x = (uint32_t)sq_rand_below(rng, 1000);
                switch (it % 3) {
                case 0:
                    fmat_set(&m, i, j, x);
                    break;
                case 1:
                    fvec_set(fmat_row(&m, i), j, x);
                    break;
                default: {
                    uint32_t old = fmat_get(&m, i, j);
                    fvec_add_entry(fmat_row(&m, i), j, x);
                    ASSERT_EQ(fmat_get(&m, i, j), (old + x) % p);
                    continue;
                }
                }
                ASSERT_EQ(fmat_get(&m, i, j), x % p);
                ASSERT_EQ(fvec_get(fmat_row(&m, i), j), x % p);
                if (p == 2)
                    ASSERT_EQ(f2mat_get(&m.f2, i, j), (int)(x & 1));
                else
                    ASSERT_EQ(fpmat_get(&m.fp, i, j), x % p);
            }
            ASSERT(fmat_is_canonical(&m));
            /* Row views point at the inner rows. */
            for (int64_t i = 0; i < rows; i++) {
                fvec_t v = fmat_row(&m, i);
                ASSERT_EQ(v.len, cols);
                ASSERT_EQ(v.p, p);
                if (p == 2)
                    ASSERT(v.limbs == f2mat_row(&m.f2, i));
                else
                    ASSERT(v.bytes == fpmat_row(&m.fp, i));
            }
            fmat_clear(&m);
        }
}

/* fvec helpers against entrywise arithmetic. */
TEST(fvec_ops)
{
    sq_rand_t *rng = sq_test_rand();
    static const int64_t lens[] = {0, 1, 63, 64, 65, 127, 128, 129, 300};
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
            uint32_t p = primes[ip];
            int64_t n = lens[k];
            fvec_t a = {0}, b = {0}, c = {0};
            fvec_init(&a, n, p);
            fvec_init(&b, n, p);
            fvec_init(&c, n, p);
            ASSERT(a.limbs != NULL);
            ASSERT(fvec_is_zero(a));
            ASSERT_EQ(fvec_first_nonzero(a), -1);
            for (int64_t j = 0; j < n; j++) {
                fvec_set(a, j, (uint32_t)sq_rand_below(rng, p));
                fvec_set(b, j, (uint32_t)sq_rand_below(rng, p));
            }
            uint32_t coef = (uint32_t)sq_rand_below(rng, 3 * p);
            /* c = a + coef * b, entry by entry. */
            for (int64_t j = 0; j < n; j++)
                fvec_set(c, j, (fvec_get(a, j) + coef * fvec_get(b, j)) % p);
            fvec_addmul(a, b, coef);
            ASSERT(fvec_equal(a, c));
            /* scale */
            uint32_t s = (uint32_t)sq_rand_below(rng, 2 * p);
            for (int64_t j = 0; j < n; j++)
                fvec_set(c, j, fvec_get(a, j) * s % p);
            fvec_scale(a, s);
            ASSERT(fvec_equal(a, c));
            /* first nonzero */
            fvec_zero(a);
            ASSERT(fvec_is_zero(a));
            if (n) {
                int64_t j = (int64_t)sq_rand_below(rng, (uint64_t)n);
                fvec_set(a, j, 1);
                ASSERT_EQ(fvec_first_nonzero(a), j);
                ASSERT(!fvec_is_zero(a));
                ASSERT(!fvec_equal(a, c) || fvec_get(c, j) == 1);
            }
            /* windows on segment boundaries */
            if (n >= 128) {
                fvec_t w = fvec_window(b, 64, 64);
                ASSERT_EQ(w.len, 64);
                for (int64_t j = 0; j < 64; j++)
                    ASSERT_EQ(fvec_get(w, j), fvec_get(b, 64 + j));
                fvec_set(w, 3, 1);
                ASSERT_EQ(fvec_get(b, 67), 1);
            }
            fvec_clear(&a);
            fvec_clear(&b);
            fvec_clear(&c);
            fvec_clear(&c); /* no-op once cleared */
        }
    /* Views over caller storage. */
    uint64_t limbs[2] = {5, 0};
    fvec_t v = fvec_view_limbs(limbs, 70);
    ASSERT_EQ(fvec_get(v, 0), 1);
    ASSERT_EQ(fvec_get(v, 2), 1);
    fvec_set(v, 69, 1);
    ASSERT_EQ(limbs[1], (uint64_t)1 << 5);
    uint8_t bytes[4] = {0, 2, 1, 0};
    fvec_t u = fvec_view_bytes(bytes, 4, 3);
    ASSERT_EQ(fvec_first_nonzero(u), 1);
    fvec_add_entry(u, 1, 2);
    ASSERT_EQ(bytes[1], 1);
}

/* RREF through the handle = RREF of the inner matrix, whatever the route
 * (dispatching, naive, pool). */
TEST(fmat_rref_vs_underlying)
{
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(2);
    for (int64_t it = 0; it < iters; it++)
        for (size_t ip = 0; ip < NPRIMES; ip++)
            for (size_t a = 0; a < NSIZES; a++)
                for (size_t b = 0; b < NSIZES; b++) {
                    uint32_t p = primes[ip];
                    int64_t rows = sizes[a], cols = sizes[b];
                    fmat_t m = {0}, n = {0}, q = {0};
                    random_mat(&m, rows, cols, p, rng);
                    fmat_init_set(&n, &m);
                    fmat_init_set(&q, &m);
                    int64_t rank = fmat_rank(&m);
                    int64_t *pm = pivots_new(cols), *pu = pivots_new(cols),
                            *pn = pivots_new(cols);
                    int64_t ru;
                    if (p == 2) {
                        f2mat_t u = {0};
                        f2mat_init_set(&u, &m.f2);
                        ru = f2mat_rref(&u, pu);
                        ASSERT_EQ(fmat_rref(&m, pm), ru);
                        ASSERT(same_f2(&m, &u));
                        f2mat_clear(&u);
                    } else {
                        fpmat_t u = {0};
                        fpmat_init_set(&u, &m.fp);
                        ru = fpmat_rref(&u, pu);
                        ASSERT_EQ(fmat_rref(&m, pm), ru);
                        ASSERT(same_fp(&m, &u));
                        fpmat_clear(&u);
                    }
                    assert_pivots_eq(pm, pu, cols);
                    ASSERT_EQ(rank, ru);
                    ASSERT_EQ(fmat_rref_naive(&n, pn), ru);
                    ASSERT(fmat_equal(&n, &m));
                    assert_pivots_eq(pn, pu, cols);
                    ASSERT_EQ(fmat_rref_pool(&q, pn, NULL), ru);
                    ASSERT(fmat_equal(&q, &m));
                    assert_pivots_eq(pn, pu, cols);
                    /* Idempotent, and NULL pivots accepted. */
                    ASSERT_EQ(fmat_rref(&q, NULL), ru);
                    ASSERT(fmat_equal(&q, &m));
                    ASSERT(fmat_is_canonical(&m));
                    sq_free(pm);
                    sq_free(pu);
                    sq_free(pn);
                    fmat_clear(&m);
                    fmat_clear(&n);
                    fmat_clear(&q);
                }
}

/* The pool route on matrices large enough that f2mat_rref_pool splits its
 * row blocks, and at odd p (serial behind the same call). */
TEST(fmat_rref_pool_threads)
{
    sq_rand_t *rng = sq_test_rand();
    sq_pool_t *pool = sq_pool_new(2);
    static const struct {
        uint32_t p;
        int64_t rows, cols;
    } cases[] = {{2, 2500, 2600}, {2, 1200, 3000}, {3, 300, 400}, {5, 200, 250}, {7, 150, 90}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fmat_t m = {0}, n = {0}, ker1 = {0}, ker2 = {0};
        random_mat(&m, cases[k].rows, cases[k].cols, cases[k].p, rng);
        fmat_init_set(&n, &m);
        int64_t *pa = pivots_new(cases[k].cols), *pb = pivots_new(cases[k].cols);
        int64_t r1 = fmat_rref_pool(&m, pa, pool), r2 = fmat_rref(&n, pb);
        ASSERT_EQ(r1, r2);
        ASSERT(fmat_equal(&m, &n));
        assert_pivots_eq(pa, pb, cases[k].cols);
        /* fmat_kernel over the pool = serial. */
        fmat_clear(&m);
        fmat_clear(&n);
        random_mat(&m, cases[k].rows, cases[k].cols, cases[k].p, rng);
        int64_t k1 = fmat_kernel(&ker1, pa, &m, pool), k2 = fmat_kernel(&ker2, pb, &m, NULL);
        ASSERT_EQ(k1, k2);
        ASSERT(fmat_equal(&ker1, &ker2));
        assert_pivots_eq(pa, pb, cases[k].cols);
        sq_free(pa);
        sq_free(pb);
        fmat_clear(&m);
        fmat_clear(&ker1);
        fmat_clear(&ker2);
    }
    sq_pool_free(pool);
}

/* [A | I]: init, rank, kernel and quasi-inverse against the inner calls,
 * and the facts: ker * A = 0, rank + nullity = rows, qi(v) * A = v. */
TEST(fmat_aug_vs_underlying)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t a = 0; a < NSIZES; a++)
            for (size_t b = 0; b < NSIZES; b++) {
                uint32_t p = primes[ip];
                int64_t rows = sizes[a], acols = sizes[b];
                fmat_t A = {0}, m = {0}, ker = {0}, ku = {0};
                random_mat(&A, rows, acols, p, rng);
                fmat_init_aug(&m, rows, acols, p);
                int64_t seg = fmat_seg_start(p, acols);
                ASSERT_EQ(fmat_cols(&m), seg + rows);
                ASSERT(seg >= acols && seg % (p == 2 ? 64 : FP_ALIGN) == 0);
                if (p == 2) {
                    f2mat_t u = {0};
                    f2mat_init_aug(&u, rows, acols);
                    ASSERT(same_f2(&m, &u));
                    f2mat_clear(&u);
                } else {
                    fpmat_t u = {0};
                    fpmat_init_aug(&u, rows, acols, p);
                    ASSERT(same_fp(&m, &u));
                    fpmat_clear(&u);
                }
                for (int64_t i = 0; i < rows; i++)
                    fvec_addmul(fmat_row(&m, i), fmat_row(&A, i), 1);
                ASSERT(fmat_is_canonical(&m));
                int64_t *piv = pivots_new(fmat_cols(&m));
                fmat_rref(&m, piv);
                int64_t rank = fmat_aug_rank(&m, piv, acols);
                ASSERT_EQ(rank, fmat_rank(&A));
                fmat_aug_kernel(&ker, &m, piv, acols);
                ASSERT_EQ(fmat_prime(&ker), p);
                ASSERT_EQ(fmat_rows(&ker), rows - rank);
                ASSERT_EQ(fmat_cols(&ker), rows);
                ku.p = p;
                if (p == 2) {
                    ASSERT_EQ(f2mat_aug_rank(&m.f2, piv, acols), rank);
                    f2mat_aug_kernel(&ku.f2, &m.f2, piv, acols);
                } else {
                    fpmat_aug_kernel(&ku.fp, &m.fp, piv, acols);
                }
                ASSERT(fmat_equal(&ker, &ku));
                /* ker * A = 0. */
                if (rows && acols) {
                    fmat_t z = {0};
                    fmat_mul_naive(&z, &ker, &A);
                    ASSERT_EQ(fmat_rank(&z), 0);
                    fmat_clear(&z);
                }
                /* qi: v = x * A for a random x; out * A = v, and out equals
                 * what the inner call gives. */
                fvec_t x = {0}, v = {0}, out = {0}, outu = {0}, back = {0};
                fvec_init(&x, rows, p);
                fvec_init(&v, acols, p);
                fvec_init(&out, rows, p);
                fvec_init(&outu, rows, p);
                fvec_init(&back, acols, p);
                for (int64_t i = 0; i < rows; i++)
                    fvec_set(x, i, (uint32_t)sq_rand_below(rng, p));
                fmat_vec_mul_add(v, x, &A);
                fmat_aug_qi_apply(out, &m, piv, acols, v);
                if (p == 2)
                    f2mat_aug_qi_apply(outu.limbs, &m.f2, piv, acols, v.limbs);
                else
                    fpmat_aug_qi_apply(outu.bytes, &m.fp, piv, acols, v.bytes);
                ASSERT(fvec_equal(out, outu));
                fmat_vec_mul_add(back, out, &A);
                ASSERT(fvec_equal(back, v));
                fvec_clear(&x);
                fvec_clear(&v);
                fvec_clear(&out);
                fvec_clear(&outu);
                fvec_clear(&back);
                sq_free(piv);
                fmat_clear(&A);
                fmat_clear(&m);
                fmat_clear(&ker);
                fmat_clear(&ku);
            }
}

/* fmat_kernel = the augmented route through the handle, and at odd p =
 * fpmat_kernel. */
TEST(fmat_kernel_vs_aug)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t a = 0; a < NSIZES; a++)
            for (size_t b = 0; b < NSIZES; b++) {
                uint32_t p = primes[ip];
                int64_t rows = sizes[a], cols = sizes[b];
                fmat_t A = {0}, m = {0}, k1 = {0}, k2 = {0};
                random_mat(&A, rows, cols, p, rng);
                int64_t *p1 = pivots_new(cols), *p2 = NULL;
                int64_t r1 = fmat_kernel(&k1, p1, &A, NULL);
                fmat_init_aug(&m, rows, cols, p);
                for (int64_t i = 0; i < rows; i++)
                    fvec_addmul(fmat_row(&m, i), fmat_row(&A, i), 1);
                p2 = pivots_new(fmat_cols(&m));
                fmat_rref(&m, p2);
                ASSERT_EQ(r1, fmat_aug_rank(&m, p2, cols));
                fmat_aug_kernel(&k2, &m, p2, cols);
                ASSERT(fmat_equal(&k1, &k2));
                assert_pivots_eq(p1, p2, cols);
                if (p > 2) {
                    fpmat_t ku = {0};
                    int64_t *pu = pivots_new(cols);
                    ASSERT_EQ(fpmat_kernel(&ku, pu, &A.fp), r1);
                    ASSERT(same_fp(&k1, &ku));
                    assert_pivots_eq(p1, pu, cols);
                    sq_free(pu);
                    fpmat_clear(&ku);
                }
                /* NULL pivots accepted. */
                fmat_t k3 = {0};
                ASSERT_EQ(fmat_kernel(&k3, NULL, &A, NULL), r1);
                ASSERT(fmat_equal(&k3, &k1));
                fmat_clear(&k3);
                /* The copy-free form (the classical step's): built in place. */
                fmat_t mb = {0};
                fmat_init_for_kernel(&mb, rows, cols, p);
                ASSERT_EQ(fmat_rows(&mb), rows);
                for (int64_t i = 0; i < rows; i++)
                    for (int64_t j = 0; j < cols; j++)
                        fmat_set(&mb, i, j, fmat_get(&A, i, j));
                int64_t *p4 = pivots_new(fmat_seg_start(p, cols) + rows);
                ASSERT_EQ(fmat_kernel_built(&k3, p4, &mb, cols, NULL), r1);
                ASSERT(fmat_equal(&k3, &k1));
                assert_pivots_eq(p1, p4, cols);
                sq_free(p4);
                fmat_clear(&k3);
                fmat_clear(&mb);
                sq_free(p1);
                sq_free(p2);
                fmat_clear(&A);
                fmat_clear(&m);
                fmat_clear(&k1);
                fmat_clear(&k2);
            }
}

/* extend_to_surjection and extend_image against their definitions: the
 * non-pivot columns in order; the rows whose first nonzero entry (read
 * with fmat_get) is not an image pivot. */
TEST(fmat_extend_vs_definition)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t a = 0; a < NSIZES; a++)
            for (size_t b = 0; b < NSIZES; b++) {
                uint32_t p = primes[ip];
                int64_t rows = sizes[a], cols = sizes[b];
                /* An image: the pivots of a random matrix. */
                fmat_t img = {0}, sub = {0};
                random_mat(&img, (int64_t)sq_rand_below(rng, (uint64_t)cols + 1), cols, p, rng);
                int64_t *ip_ = pivots_new(cols);
                fmat_rref(&img, ip_);
                int64_t *o1 = pivots_new(cols), *o2 = pivots_new(cols);
                int64_t lo = cols ? (int64_t)sq_rand_below(rng, (uint64_t)cols) : 0;
                int64_t n1 = fmat_extend_to_surjection(o1, ip_, lo, cols);
                int64_t n2 = 0;
                for (int64_t c = lo; c < cols; c++)
                    if (ip_[c] < 0)
                        o2[n2++] = c;
                ASSERT_EQ(n1, n2);
                assert_pivots_eq(o1, o2, n1);
                ASSERT_EQ(n1 + fmat_aug_rank(&img, ip_, cols) -
                              fmat_aug_rank(&img, ip_, lo),
                          cols - lo);
                /* A subspace in RREF and the rows extending the image. */
                random_mat(&sub, rows, cols, p, rng);
                fmat_rref(&sub, NULL);
                int64_t *r1 = pivots_new(rows), *r2 = pivots_new(rows);
                int64_t m1 = fmat_extend_image(r1, ip_, &sub);
                int64_t m2 = 0;
                for (int64_t i = 0; i < rows; i++) {
                    int64_t c = 0;
                    while (c < cols && !fmat_get(&sub, i, c))
                        c++;
                    if (c < cols && ip_[c] < 0)
                        r2[m2++] = i;
                }
                ASSERT_EQ(m1, m2);
                assert_pivots_eq(r1, r2, m1);
                for (int64_t k = 0; k < m1; k++) {
                    int64_t c = fvec_first_nonzero(fmat_row(&sub, r1[k]));
                    ASSERT(c >= 0 && ip_[c] < 0);
                }
                sq_free(ip_);
                sq_free(o1);
                sq_free(o2);
                sq_free(r1);
                sq_free(r2);
                fmat_clear(&img);
                fmat_clear(&sub);
            }
}

/* fmat_mul_naive = the inner product; fmat_vec_mul_add = a one-row product. */
TEST(fmat_mul_vs_underlying)
{
    sq_rand_t *rng = sq_test_rand();
    static const int64_t d[] = {1, 2, 63, 64, 65};
    for (size_t ip = 0; ip < NPRIMES; ip++)
        for (size_t i = 0; i < 5; i++)
            for (size_t j = 0; j < 5; j++) {
                uint32_t p = primes[ip];
                fmat_t a = {0}, b = {0}, c = {0}, row = {0}, rc = {0};
                fmat_init(&a, d[i], d[j], p);
                fmat_init(&b, d[j], d[(i + j) % 5], p);
                fmat_randomize(&a, rng);
                fmat_randomize(&b, rng);
                fmat_mul_naive(&c, &a, &b);
                if (p == 2) {
                    f2mat_t u = {0};
                    f2mat_mul_naive(&u, &a.f2, &b.f2);
                    ASSERT(same_f2(&c, &u));
                    f2mat_clear(&u);
                } else {
                    fpmat_t u = {0};
                    fpmat_mul_naive(&u, &a.fp, &b.fp);
                    ASSERT(same_fp(&c, &u));
                    fpmat_clear(&u);
                }
                /* row 0 of a times b, as a vector and as a 1-row matrix */
                fmat_init(&row, 1, d[j], p);
                fvec_addmul(fmat_row(&row, 0), fmat_row(&a, 0), 1);
                fmat_mul_naive(&rc, &row, &b);
                fvec_t out = {0};
                fvec_init(&out, fmat_cols(&b), p);
                fmat_vec_mul_add(out, fmat_row(&a, 0), &b);
                ASSERT(fvec_equal(out, fmat_row(&rc, 0)));
                ASSERT(fvec_equal(out, fmat_row(&c, 0)));
                fvec_clear(&out);
                fmat_clear(&a);
                fmat_clear(&b);
                fmat_clear(&c);
                fmat_clear(&row);
                fmat_clear(&rc);
            }
}

/* Views of existing matrices: reductions through the view reach the
 * matrix, with the bits of the direct call. */
TEST(fmat_views)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        fmat_t a = {0}, b = {0};
        random_mat(&a, 65, 64, p, rng);
        fmat_init_set(&b, &a);
        int64_t *pa = pivots_new(64), *pb = pivots_new(64);
        int64_t ra = fmat_rref(&a, pa), rb;
        if (p == 2) {
            f2mat_t u = {0};
            f2mat_init_set(&u, &b.f2);
            fmat_t v = fmat_view_f2(&u);
            ASSERT_EQ(fmat_rows(&v), 65);
            rb = fmat_rref(&v, pb);
            ASSERT(same_f2(&a, &u));
            f2mat_clear(&u);
        } else {
            fpmat_t u = {0};
            fpmat_init_set(&u, &b.fp);
            fmat_t v = fmat_view_fp(&u);
            ASSERT_EQ(fmat_prime(&v), p);
            rb = fmat_rref(&v, pb);
            ASSERT(same_fp(&a, &u));
            fpmat_clear(&u);
        }
        ASSERT_EQ(ra, rb);
        assert_pivots_eq(pa, pb, 64);
        sq_free(pa);
        sq_free(pb);
        fmat_clear(&a);
        fmat_clear(&b);
    }
    fpmat_t z = {0};
    fmat_t zv = fmat_view_fp(&z);
    ASSERT_EQ(fmat_prime(&zv), 0);
    ASSERT_EQ(fmat_rows(&zv), 0);
}
