/*
 * t-stalg.c -- the Steenrod algebra handle (stalg.h) against the algebras
 * it wraps, at p = 2, 3, 5, 7: dimensions, basis elements, names, profiles
 * and the generators agree with milnor_* / pmilnor_*; the products agree
 * with milnor_mul_vec_add / pmilnor_mul_vec_add on random inputs with fixed
 * seeds (offsets on and off limb boundaries); and the algebra's facts hold
 * through the handle alone: Sq^1 Sq^1 = 0, Sq^2 Sq^2 = Sq(1,1), beta beta =
 * 0, P^1 P^1 = 2 P^2, associativity on random triples.
 */
#include <string.h>

#include "stalg.h"
#include "sq_test.h"

static const uint32_t primes[] = {2, 3, 5, 7};
#define NPRIMES (sizeof primes / sizeof primes[0])

/* A degree bound per prime that keeps each test to a fraction of a second. */
static int32_t max_deg_of(uint32_t p)
{
    return p == 2 ? 64 : p == 3 ? 120 : p == 5 ? 200 : 300;
}

/* A random vector over F_p of n entries, about half of them nonzero. */
static void random_vec(fvec_t v, sq_rand_t *rng)
{
    for (int64_t j = 0; j < v.len; j++)
        if (sq_rand_below(rng, 2))
            fvec_set(v, j, (uint32_t)sq_rand_below(rng, v.p));
}

/* A random degree in 0..maxd where S has basis elements (degree 0 always
 * does; most degrees have none at odd p). */
static int32_t random_degree(const stalg_t *S, int32_t maxd, sq_rand_t *rng)
{
    for (int tries = 0; tries < 200; tries++) {
        int32_t d = (int32_t)sq_rand_below(rng, (uint64_t)maxd + 1);
        if (stalg_dim(S, d))
            return d;
    }
    return 0;
}

/* The index of e (given by q and a p-part) in S, checked to exist. */
static int64_t index_of(const stalg_t *S, uint32_t q, int len, const int32_t *r, int32_t *deg)
{
    stalg_elt_t e;
    memset(&e, 0, sizeof e);
    e.q = q;
    e.len = len;
    for (int i = 0; i < len; i++)
        e.r[i] = r[i];
    int64_t d = stalg_elt_degree(S, &e);
    ASSERT(d >= 0);
    *deg = (int32_t)d;
    int64_t idx = stalg_index(S, &e);
    ASSERT(idx >= 0);
    return idx;
}

/* Dimensions, get/index round trips and names against the algebra below. */
TEST(stalg_basis_vs_underlying)
{
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t top = max_deg_of(p);
        stalg_t *S = stalg_new(p, top, NULL);
        ASSERT_EQ(stalg_prime(S), p);
        ASSERT_EQ(stalg_max_degree(S), top);
        stalg_profile_t prof;
        stalg_profile(S, &prof);
        ASSERT_EQ(prof.truncated, 0);
        ASSERT_EQ(prof.len, 0);
        const milnor_t *A2 = stalg_milnor(S);
        const pmilnor_t *Ap = stalg_pmilnor(S);
        ASSERT((p == 2) == (A2 != NULL));
        ASSERT((p == 2) == (Ap == NULL));
        for (int32_t d = -1; d <= top + 1; d++) {
            int64_t n = stalg_dim(S, d);
            ASSERT_EQ(n, p == 2 ? milnor_dim(A2, d) : pmilnor_dim(Ap, d));
            for (int64_t i = 0; i < n; i++) {
                stalg_elt_t e;
                stalg_get(S, d, i, &e);
                ASSERT_EQ(stalg_elt_degree(S, &e), d);
                ASSERT_EQ(stalg_index(S, &e), i);
                char a[128], b[128];
                stalg_format(a, sizeof a, S, d, i);
                if (p == 2) {
                    int32_t r[MILNOR_MAX_LEN];
                    int len = milnor_get(A2, d, i, r, MILNOR_MAX_LEN);
                    ASSERT_EQ(e.q, 0);
                    ASSERT_EQ(e.len, len);
                    for (int k = 0; k < len; k++)
                        ASSERT_EQ(e.r[k], r[k]);
                    milnor_format(b, sizeof b, A2, d, i);
                } else {
                    pmilnor_elt_t x;
                    pmilnor_get(Ap, d, i, &x);
                    ASSERT_EQ(e.q, x.q);
                    ASSERT_EQ(e.len, x.len);
                    for (int k = 0; k < x.len; k++)
                        ASSERT_EQ(e.r[k], x.r[k]);
                    pmilnor_format(b, sizeof b, Ap, d, i);
                }
                ASSERT_STR_EQ(a, b);
                for (int k = e.len; k < STALG_MAX_LEN; k++)
                    ASSERT_EQ(e.r[k], 0);
            }
        }
        /* Elements that are not basis elements of S. */
        stalg_elt_t e;
        memset(&e, 0, sizeof e);
        e.len = 1;
        e.r[0] = top + 1; /* beyond the max degree */
        ASSERT_EQ(stalg_index(S, &e), -1);
        e.r[0] = -1;
        ASSERT_EQ(stalg_index(S, &e), -1);
        ASSERT_EQ(stalg_elt_degree(S, &e), -1);
        e.r[0] = 1;
        e.q = 1;
        ASSERT_EQ(stalg_index(S, &e) == -1, p == 2); /* no Q_0 at p = 2 */
        /* Trailing zeros are allowed. */
        memset(&e, 0, sizeof e);
        e.len = STALG_MAX_LEN;
        e.r[0] = 1;
        ASSERT_EQ(stalg_index(S, &e), 0);
        char buf[128];
        stalg_format(buf, sizeof buf, S, 0, 0);
        ASSERT_STR_EQ(buf, "1");
        stalg_free(S);
    }
    stalg_free(NULL);
}

/* A borrowed algebra: the handle answers as an owned one, and freeing it
 * leaves the algebra alone. */
TEST(stalg_wrap)
{
    milnor_t *A = milnor_new(40);
    stalg_t *S = stalg_new_milnor(A);
    ASSERT_EQ(stalg_prime(S), 2);
    ASSERT(stalg_milnor(S) == A);
    ASSERT_EQ(stalg_dim(S, 17), milnor_dim(A, 17));
    stalg_free(S);
    ASSERT_EQ(milnor_dim(A, 40), milnor_dim(A, 40)); /* still alive (ASan checks) */
    char buf[64];
    milnor_format(buf, sizeof buf, A, 6, 1);
    ASSERT_STR_EQ(buf, "Sq(3,1)");
    milnor_free(A);
    pmilnor_t *P = pmilnor_new(5, 100, NULL);
    S = stalg_new_pmilnor(P);
    ASSERT_EQ(stalg_prime(S), 5);
    ASSERT(stalg_pmilnor(S) == P);
    ASSERT(stalg_milnor(S) == NULL);
    for (int32_t d = 0; d <= 100; d++)
        ASSERT_EQ(stalg_dim(S, d), pmilnor_dim(P, d));
    stalg_free(S);
    ASSERT_EQ(pmilnor_dim(P, 8), 1);
    pmilnor_free(P);
}

/* Profiles: the sub-Hopf algebras are those of milnor_new_profile and of
 * pmilnor_new with the same profile, and the handle reports them back. */
TEST(stalg_profiles)
{
    /* A(1) at p = 2: dimension 8 in all, top degree 6. */
    stalg_profile_t prof;
    stalg_profile_full(&prof);
    prof.truncated = 1;
    prof.len = 2;
    prof.p_part[0] = 2;
    prof.p_part[1] = 1;
    stalg_t *S = stalg_new(2, 30, &prof);
    int32_t h[] = {2, 1};
    milnor_t *B = milnor_new_profile(30, h, 2);
    int64_t total = 0;
    for (int32_t d = 0; d <= 30; d++) {
        ASSERT_EQ(stalg_dim(S, d), milnor_dim(B, d));
        total += stalg_dim(S, d);
    }
    ASSERT_EQ(total, 8);
    ASSERT_EQ(stalg_dim(S, 6), 1);
    stalg_profile_t back;
    stalg_profile(S, &back);
    ASSERT_EQ(back.truncated, 1);
    ASSERT_EQ(back.len, 2);
    ASSERT_EQ(back.p_part[0], 2);
    ASSERT_EQ(back.p_part[1], 1);
    int32_t r4 = 4;
    stalg_elt_t e;
    memset(&e, 0, sizeof e);
    e.len = 1;
    e.r[0] = r4;
    ASSERT_EQ(stalg_index(S, &e), -1); /* Sq(4) is not in A(1) */
    milnor_free(B);
    stalg_free(S);

    /* Untruncated at p = 2: r_1 < 2, the rest unbounded. */
    stalg_profile_full(&prof);
    prof.len = 1;
    prof.p_part[0] = 1;
    S = stalg_new(2, 40, &prof);
    int32_t h2[MILNOR_MAX_LEN];
    for (int i = 0; i < MILNOR_MAX_LEN; i++)
        h2[i] = i ? 30 : 1;
    B = milnor_new_profile(40, h2, MILNOR_MAX_LEN);
    for (int32_t d = 0; d <= 40; d++)
        ASSERT_EQ(stalg_dim(S, d), milnor_dim(B, d));
    ASSERT(stalg_dim(S, 3) == 1); /* Sq(0,1) only */
    milnor_free(B);
    stalg_free(S);

    /* At p = 3: A(1), the algebra of beta and P^1 (q_part {Q_0, Q_1},
     * r_1 < 3). */
    stalg_profile_full(&prof);
    prof.truncated = 1;
    prof.q_part = 3;
    prof.len = 1;
    prof.p_part[0] = 1;
    pmilnor_profile_t q;
    memset(&q, 0, sizeof q);
    q.truncated = 1;
    q.q_part = 3;
    q.len = 1;
    q.p_part[0] = 1;
    char err[128];
    ASSERT_EQ(pmilnor_profile_check(3, &q, err, sizeof err), 0);
    S = stalg_new(3, 60, &prof);
    pmilnor_t *P = pmilnor_new(3, 60, &q);
    total = 0;
    for (int32_t d = 0; d <= 60; d++) {
        ASSERT_EQ(stalg_dim(S, d), pmilnor_dim(P, d));
        total += stalg_dim(S, d);
    }
    ASSERT_EQ(total, 12); /* E(Q_0, Q_1) x {1, P^1, P^2} */
    stalg_profile(S, &back);
    ASSERT_EQ(back.truncated, 1);
    ASSERT_EQ(back.q_part, 3);
    ASSERT_EQ(back.len, 1);
    ASSERT_EQ(back.p_part[0], 1);
    /* P^3 and Q_2 are outside. */
    memset(&e, 0, sizeof e);
    e.len = 1;
    e.r[0] = 3;
    ASSERT_EQ(stalg_index(S, &e), -1);
    memset(&e, 0, sizeof e);
    e.q = 4;
    ASSERT_EQ(stalg_index(S, &e), -1);
    ASSERT_EQ(stalg_gen_index(S, 12), -1);
    ASSERT(stalg_gen_index(S, 4) >= 0);
    ASSERT(stalg_gen_index(S, 1) >= 0);
    pmilnor_free(P);
    stalg_free(S);
}

/* The generators: Sq^{2^k}; beta and P^{p^k}; by name and by index. */
TEST(stalg_generators)
{
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t top = max_deg_of(p);
        stalg_t *S = stalg_new(p, top, NULL);
        int32_t degs[32];
        int64_t idxs[32];
        int n = stalg_gens(S, top, degs, idxs, 32);
        int expect = 0;
        if (p == 2) {
            for (int32_t d = 1; d <= top; d *= 2)
                expect++;
        } else {
            expect = 1;
            for (int64_t d = 2 * (int64_t)(p - 1); d <= top; d *= p)
                expect++;
        }
        ASSERT_EQ(n, expect);
        for (int k = 0; k < n; k++) {
            ASSERT(k == 0 || degs[k] > degs[k - 1]);
            ASSERT_EQ(stalg_gen_index(S, degs[k]), idxs[k]);
            char buf[128], want[128];
            stalg_format(buf, sizeof buf, S, degs[k], idxs[k]);
            if (p == 2)
                snprintf(want, sizeof want, "Sq(%d)", (int)degs[k]);
            else if (k == 0)
                snprintf(want, sizeof want, "Q_0");
            else
                snprintf(want, sizeof want, "P(%d)", (int)(degs[k] / (2 * (int32_t)(p - 1))));
            ASSERT_STR_EQ(buf, want);
            int32_t d2;
            if (p == 2) {
                int32_t r = degs[k];
                ASSERT_EQ(idxs[k], index_of(S, 0, 1, &r, &d2));
            } else if (k == 0) {
                ASSERT_EQ(idxs[k], pmilnor_beps_pn(stalg_pmilnor(S), 1, 0, &d2));
            } else {
                ASSERT_EQ(idxs[k], pmilnor_beps_pn(stalg_pmilnor(S), 0,
                                                   degs[k] / (2 * (int32_t)(p - 1)), &d2));
            }
            ASSERT_EQ(d2, degs[k]);
        }
        /* Degrees without a generator, and a short room. */
        ASSERT_EQ(stalg_gen_index(S, 0), -1);
        ASSERT_EQ(stalg_gen_index(S, -3), -1);
        ASSERT_EQ(stalg_gen_index(S, top + 1), -1);
        ASSERT_EQ(stalg_gen_index(S, 3), -1);
        ASSERT_EQ(stalg_gen_index(S, p == 2 ? 6 : 4 * (int32_t)(p - 1)), -1); /* P^2 */
        ASSERT_EQ(stalg_gens(S, top, degs, idxs, 2), n);
        ASSERT_EQ(stalg_gens(S, 1, degs, idxs, 32), 1);
        ASSERT_EQ(degs[0], 1);
        ASSERT_EQ(stalg_gens(S, 0, degs, idxs, 32), 0);
        stalg_free(S);
    }
    /* A(1) is generated by Sq^1 and Sq^2 only. */
    stalg_profile_t prof;
    stalg_profile_full(&prof);
    prof.truncated = 1;
    prof.len = 2;
    prof.p_part[0] = 2;
    prof.p_part[1] = 1;
    stalg_t *S = stalg_new(2, 30, &prof);
    int32_t degs[32];
    int64_t idxs[32];
    ASSERT_EQ(stalg_gens(S, 30, degs, idxs, 32), 2);
    ASSERT_EQ(degs[0], 1);
    ASSERT_EQ(degs[1], 2);
    stalg_free(S);
}

/* Products through the handle = the algebra's own, on random inputs. */
TEST(stalg_mul_vs_underlying)
{
    sq_rand_t *rng = sq_test_rand();
    static const int64_t offs[] = {0, 1, 63, 64, 65, 130};
    int64_t iters = sq_test_iters(150);
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t top = max_deg_of(p);
        stalg_t *S = stalg_new(p, top, NULL);
        int64_t nonzero = 0;
        for (int64_t it = 0; it < iters; it++) {
            int32_t rdeg = random_degree(S, top, rng);
            int32_t sdeg = random_degree(S, top - rdeg, rng);
            int64_t ridx = (int64_t)sq_rand_below(rng, (uint64_t)stalg_dim(S, rdeg));
            int64_t sidx = (int64_t)sq_rand_below(rng, (uint64_t)stalg_dim(S, sdeg));
            int64_t off = offs[it % 6];
            int64_t nout = stalg_dim(S, rdeg + sdeg), nv = stalg_dim(S, sdeg);
            uint32_t coef = (uint32_t)sq_rand_below(rng, 2 * p);
            fvec_t v = {0}, o1 = {0}, o2 = {0};
            fvec_init(&v, nv, p);
            fvec_init(&o1, off + nout, p);
            fvec_init(&o2, off + nout, p);
            random_vec(v, rng);
            random_vec(o1, rng);
            memcpy(p == 2 ? (void *)o2.limbs : (void *)o2.bytes,
                   p == 2 ? (void *)o1.limbs : (void *)o1.bytes, fvec_bytes_for(p, off + nout));
            stalg_mul_vec_add(S, o1, off, coef, rdeg, ridx, sdeg, v);
            nonzero += !fvec_equal(o1, o2);
            if (p == 2) {
                if (coef & 1)
                    milnor_mul_vec_add(stalg_milnor(S), o2.limbs, off, rdeg, ridx, sdeg,
                                       v.limbs);
            } else {
                pmilnor_mul_vec_add(stalg_pmilnor(S), o2.bytes + off, coef, rdeg, ridx, sdeg,
                                    v.bytes);
            }
            if (!fvec_equal(o1, o2))
                sq_test_fail(__FILE__, __LINE__,
                             "mul_vec_add p=%u (%d,%lld)*(%d) off=%lld coef=%u seed=%llu it=%lld",
                             p, (int)rdeg, (long long)ridx, (int)sdeg, (long long)off, coef,
                             (unsigned long long)sq_test_seed(), (long long)it);
            /* The entries before off are untouched: compare with a fresh
             * product into a zero vector. */
            fvec_zero(o1);
            fvec_zero(o2);
            stalg_mul_add(S, o1, off, coef, rdeg, ridx, sdeg, sidx);
            if (p == 2) {
                if (coef & 1)
                    milnor_mul_add(stalg_milnor(S), o2.limbs, off, rdeg, ridx, sdeg, sidx);
            } else {
                pmilnor_mul_add(stalg_pmilnor(S), o2.bytes + off, coef, rdeg, ridx, sdeg, sidx);
            }
            ASSERT(fvec_equal(o1, o2));
            for (int64_t j = 0; j < off; j++)
                ASSERT_EQ(fvec_get(o1, j), 0);
            fvec_clear(&v);
            fvec_clear(&o1);
            fvec_clear(&o2);
        }
        ASSERT(nonzero >= iters / 4); /* the products compared were not all zero */
        stalg_free(S);
    }
}

/* a * b as a vector of degree |a| + |b|, into a fresh vector. */
static void product(fvec_t *out, const stalg_t *S, int32_t ad, int64_t ai, int32_t bd, int64_t bi)
{
    fvec_init(out, stalg_dim(S, ad + bd), stalg_prime(S));
    stalg_mul_add(S, *out, 0, 1, ad, ai, bd, bi);
}

TEST(stalg_adem)
{
    /* p = 2: Sq^1 Sq^1 = 0; Sq^2 Sq^2 = Sq^3 Sq^1 = Sq(1,1). */
    stalg_t *S = stalg_new(2, 20, NULL);
    int64_t sq1 = stalg_gen_index(S, 1), sq2 = stalg_gen_index(S, 2);
    fvec_t v = {0};
    product(&v, S, 1, sq1, 1, sq1);
    ASSERT(fvec_is_zero(v));
    fvec_clear(&v);
    product(&v, S, 2, sq2, 2, sq2);
    int32_t r11[] = {1, 1}, deg;
    int64_t i11 = index_of(S, 0, 2, r11, &deg);
    ASSERT_EQ(deg, 4);
    for (int64_t k = 0; k < v.len; k++)
        ASSERT_EQ(fvec_get(v, k), k == i11);
    fvec_clear(&v);
    stalg_free(S);
    /* Odd p: beta beta = 0 and P^1 P^1 = 2 P^2. */
    for (size_t ip = 1; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t q = 2 * (int32_t)(p - 1);
        S = stalg_new(p, 2 * q + 2, NULL);
        int64_t beta = stalg_gen_index(S, 1), p1 = stalg_gen_index(S, q);
        ASSERT(beta >= 0 && p1 >= 0);
        product(&v, S, 1, beta, 1, beta);
        ASSERT_EQ(v.len, stalg_dim(S, 2));
        ASSERT(fvec_is_zero(v));
        fvec_clear(&v);
        product(&v, S, q, p1, q, p1);
        int32_t two = 2;
        int64_t i2 = index_of(S, 0, 1, &two, &deg);
        ASSERT_EQ(deg, 2 * q);
        for (int64_t k = 0; k < v.len; k++)
            ASSERT_EQ(fvec_get(v, k), k == i2 ? 2 : 0);
        fvec_clear(&v);
        /* beta P^1 - P^1 beta = Q_1 (Milnor): the two differ. */
        fvec_t w = {0};
        product(&v, S, 1, beta, q, p1);
        product(&w, S, q, p1, 1, beta);
        ASSERT(!fvec_equal(v, w));
        fvec_clear(&v);
        fvec_clear(&w);
        stalg_free(S);
    }
}

/* (a b) c = a (b c) on random triples, through the handle only. */
TEST(stalg_associative)
{
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(200);
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t top = p == 2 ? 48 : max_deg_of(p) / 2;
        stalg_t *S = stalg_new(p, top, NULL);
        int64_t nonzero = 0;
        for (int64_t it = 0; it < iters; it++) {
            int32_t d[3];
            int64_t x[3];
            int32_t left = top;
            for (int k = 0; k < 3; k++) {
                d[k] = random_degree(S, k < 2 ? left / 2 : left, rng);
                left -= d[k];
                x[k] = (int64_t)sq_rand_below(rng, (uint64_t)stalg_dim(S, d[k]));
            }
            fvec_t ab = {0}, bc = {0}, l = {0}, r = {0};
            product(&ab, S, d[0], x[0], d[1], x[1]);
            product(&bc, S, d[1], x[1], d[2], x[2]);
            int32_t tot = d[0] + d[1] + d[2];
            fvec_init(&l, stalg_dim(S, tot), p);
            fvec_init(&r, stalg_dim(S, tot), p);
            for (int64_t k = 0; k < ab.len; k++) {
                uint32_t c = fvec_get(ab, k);
                if (c)
                    stalg_mul_add(S, l, 0, c, d[0] + d[1], k, d[2], x[2]);
            }
            stalg_mul_vec_add(S, r, 0, 1, d[0], x[0], d[1] + d[2], bc);
            nonzero += !fvec_is_zero(l);
            if (!fvec_equal(l, r))
                sq_test_fail(__FILE__, __LINE__, "(ab)c != a(bc) at p=%u degrees %d %d %d seed=%llu",
                             p, (int)d[0], (int)d[1], (int)d[2],
                             (unsigned long long)sq_test_seed());
            fvec_clear(&ab);
            fvec_clear(&bc);
            fvec_clear(&l);
            fvec_clear(&r);
        }
        ASSERT(nonzero >= iters / 8); /* about a quarter of the triples multiply to nonzero */
        stalg_free(S);
    }
}

/* stalg_set_cache: the handle owns an odd-prime product cache (freed with
 * it; a second call replaces it); at p = 2 nothing is made. */
TEST(stalg_cache)
{
    stalg_t *S2 = stalg_new(2, 40, NULL), *S3 = stalg_new(3, 60, NULL);
    ASSERT(stalg_pcache(S2) == NULL && stalg_pcache(S3) == NULL);
    stalg_set_cache(S2, 1 << 20);
    ASSERT(stalg_pcache(S2) == NULL);
    stalg_set_cache(S3, 1 << 20);
    ASSERT(stalg_pcache(S3) != NULL);
    stalg_set_cache(S3, 1 << 16);
    pmilnor_col_t col;
    ASSERT(pmilnor_cache_col(stalg_pcache(S3), 4, 4, 0, &col));
    stalg_free(S2);
    stalg_free(S3);
}
