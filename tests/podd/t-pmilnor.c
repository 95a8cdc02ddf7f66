/*
 * t-pmilnor.c -- the Milnor algebra at odd primes: dimensions against the
 * generating function, the basis order against the peer's construction,
 * ranking, the product (unit, associativity, Adem relations, Milnor's
 * commutation formula), profiles.
 */
#include "pmilnor.h"
#include "sq_test.h"

static const uint32_t primes[] = {3, 5, 7, 11, 13, 17, 19, 131, 251};
#define NPRIMES (sizeof primes / sizeof primes[0])

/* Coefficients of prod_k (1 + x^{2p^k - 1}) prod_i 1/(1 - x^{2(p^i - 1)})
 * through degree D (int64: exact for the sizes used here). */
static int64_t *genfun_dims(uint32_t p, int32_t D, const pmilnor_profile_t *prof)
{
    int64_t *a = sq_calloc((size_t)D + 1, sizeof *a);
    a[0] = 1;
    int64_t pk = p;
    for (int i = 1; 2 * (pk - 1) <= D; i++, pk *= p) {
        int64_t d = 2 * (pk - 1);
        int64_t bound = -1; /* r_i <= bound; -1 unbounded */
        if (prof) {
            int32_t h = i <= prof->len ? prof->p_part[i - 1] : (prof->truncated ? 0 : -1);
            if (h >= 0) {
                bound = 1;
                for (int k = 0; k < h; k++)
                    bound *= p;
                bound -= 1;
            }
        }
        /* multiply by (1 - x^{d (bound+1)}) / (1 - x^d) */
        for (int64_t n = d; n <= D; n++)
            a[n] += a[n - d];
        if (bound >= 0) {
            int64_t e = d * (bound + 1);
            for (int64_t n = D; n >= e; n--) {
                /* a = a_old * 1/(1-x^d); we need a_old*(1 - x^e)/(1 - x^d): subtract shifted */
                (void)n;
            }
            /* Redo exactly: divide back then multiply by the truncated sum. */
            for (int64_t n = D; n >= d; n--)
                a[n] -= a[n - d];
            int64_t *b = sq_calloc((size_t)D + 1, sizeof *b);
            for (int64_t n = 0; n <= D; n++)
                for (int64_t v = 0; v <= bound && n + v * d <= D; v++)
                    b[n + v * d] += a[n];
            memcpy(a, b, ((size_t)D + 1) * sizeof *a);
            sq_free(b);
        }
    }
    pk = 1;
    for (int k = 0; 2 * pk - 1 <= D; k++, pk *= p) {
        if (prof && !((prof->q_part >> k) & 1))
            continue;
        int64_t d = 2 * pk - 1;
        for (int64_t n = D; n >= d; n--)
            a[n] += a[n - d];
    }
    return a;
}

TEST(pmilnor_dims_genfun)
{
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t D = p == 3 ? 400 : 600;
        pmilnor_t *A = pmilnor_new(p, D, NULL);
        int64_t *a = genfun_dims(p, D, NULL), total = 0;
        for (int32_t d = 0; d <= D; d++) {
            ASSERT_EQ(pmilnor_dim(A, d), a[d]);
            total += a[d];
        }
        ASSERT_EQ(pmilnor_size(p, D, NULL), total);
        sq_free(a);
        pmilnor_free(A);
    }
    /* Known values at p = 3 (the generating function computed apart). */
    pmilnor_t *A = pmilnor_new(3, 200, NULL);
    ASSERT_EQ(pmilnor_dim(A, 100), 13);
    ASSERT_EQ(pmilnor_dim(A, 200), 53);
    ASSERT_EQ(pmilnor_size(3, 200, NULL), 6682);
    pmilnor_free(A);
}

/* ---- The peer's basis order, rebuilt here from its description ------------- */

typedef struct {
    int len;
    int32_t r[8];
} pp_t;

/* ppart lists per reduced degree, as the peer builds them: for degree d,
 * for i = 0, 1, ... with w_{i+1} <= d, take each element of the list of
 * d - w_{i+1} of length <= i + 1 (stopping at the first longer one),
 * skipping those whose entry i is already at its bound, and add 1 to
 * entry i. */
static pp_t **peer_pparts(uint32_t p, int32_t N, const int32_t *bound, int64_t **count)
{
    pp_t **T = sq_calloc((size_t)N + 1, sizeof *T);
    int64_t *cnt = sq_calloc((size_t)N + 1, sizeof *cnt);
    T[0] = sq_calloc(1, sizeof(pp_t));
    cnt[0] = 1;
    int32_t w[9];
    int64_t x = 1, pk = p;
    for (int i = 0; i < 9; i++) {
        w[i] = (int32_t)x;
        x += pk;
        pk *= p;
    }
    for (int32_t d = 1; d <= N; d++) {
        int64_t cap = 16, n = 0;
        pp_t *row = sq_malloc((size_t)cap * sizeof *row);
        for (int i = 0; i < 8 && w[i] <= d; i++) {
            if (bound[i] == 0)
                continue;
            int32_t rem = d - w[i];
            for (int64_t k = 0; k < cnt[rem]; k++) {
                pp_t old = T[rem][k];
                if (old.len > i + 1)
                    break;
                if (old.len == i + 1 && old.r[i] == bound[i])
                    continue;
                pp_t nw = old;
                if (nw.len < i + 1) {
                    for (int z = nw.len; z < i + 1; z++)
                        nw.r[z] = 0;
                    nw.len = i + 1;
                }
                nw.r[i]++;
                if (n == cap) {
                    cap *= 2;
                    row = sq_realloc(row, (size_t)cap * sizeof *row);
                }
                row[n++] = nw;
            }
        }
        T[d] = row;
        cnt[d] = n;
    }
    *count = cnt;
    return T;
}

static void check_peer_order(uint32_t p, int32_t D, const pmilnor_profile_t *prof)
{
    pmilnor_t *A = pmilnor_new(p, D, prof);
    uint32_t q = 2 * p - 2;
    int32_t bound[8];
    for (int i = 0; i < 8; i++) {
        int32_t h = -1;
        if (prof)
            h = i < prof->len ? prof->p_part[i] : (prof->truncated ? 0 : -1);
        if (h < 0)
            bound[i] = INT32_MAX;
        else {
            int64_t b = 1;
            for (int k = 0; k < h; k++)
                b *= p;
            bound[i] = (int32_t)(b - 1);
        }
    }
    int64_t *cnt;
    pp_t **T = peer_pparts(p, D / (int32_t)q, bound, &cnt);
    int32_t qd[9];
    int64_t pk = 1;
    for (int k = 0; k < 9; k++, pk *= p)
        qd[k] = (int32_t)(2 * pk - 1);
    for (int32_t d = 0; d <= D; d++) {
        int64_t idx = 0;
        for (uint32_t m = 0; m < 256; m++) {
            if (prof && (m & ~prof->q_part))
                continue;
            int32_t md = 0;
            for (int k = 0; k < 8; k++)
                if ((m >> k) & 1)
                    md += qd[k];
            if ((uint32_t)__builtin_popcount(m) % q != (uint32_t)d % q || md > d)
                continue;
            int32_t n = (d - md) / (int32_t)q;
            for (int64_t k = 0; k < cnt[n]; k++) {
                pmilnor_elt_t e;
                pmilnor_get(A, d, idx, &e);
                ASSERT_EQ(e.q, m);
                const pp_t *x = &T[n][k];
                int len = x->len;
                while (len && !x->r[len - 1])
                    len--;
                ASSERT_EQ(e.len, len);
                for (int i = 0; i < len; i++)
                    ASSERT_EQ(e.r[i], x->r[i]);
                ASSERT_EQ(pmilnor_index(A, &e), idx);
                ASSERT_EQ(pmilnor_elt_degree(p, &e), d);
                idx++;
            }
        }
        ASSERT_EQ(idx, pmilnor_dim(A, d));
    }
    for (int32_t n = 0; n <= D / (int32_t)q; n++)
        sq_free(T[n]);
    sq_free(T);
    sq_free(cnt);
    pmilnor_free(A);
}

TEST(pmilnor_peer_order)
{
    check_peer_order(3, 300, NULL);
    check_peer_order(5, 500, NULL);
    check_peer_order(7, 400, NULL);
    pmilnor_profile_t pr;
    pmilnor_profile_full(&pr);
    pr.q_part = ~(uint32_t)1; /* C3.json */
    check_peer_order(3, 300, &pr);
    pr.q_part = ~(uint32_t)3; /* l.json, y2_3 */
    pr.len = 2;
    pr.p_part[0] = 0;
    pr.p_part[1] = 0;
    check_peer_order(3, 300, &pr);
    pmilnor_profile_full(&pr); /* A(1) at p = 3: truncated [2, 1], Q_0..Q_2 */
    pr.truncated = 1;
    pr.len = 2;
    pr.p_part[0] = 2;
    pr.p_part[1] = 1;
    pr.q_part = 7;
    check_peer_order(3, 300, &pr);
}

TEST(pmilnor_degree17_p3)
{
    pmilnor_t *A = pmilnor_new(3, 40, NULL);
    ASSERT_EQ(pmilnor_dim(A, 17), 4);
    const char *want[] = {"Q_0 P(4)", "Q_0 P(0, 1)", "Q_1 P(3)", "Q_2"};
    for (int i = 0; i < 4; i++) {
        char buf[128];
        pmilnor_format(buf, sizeof buf, A, 17, i);
        ASSERT_STR_EQ(buf, want[i]);
    }
    char buf[128];
    pmilnor_format(buf, sizeof buf, A, 0, 0);
    ASSERT_STR_EQ(buf, "1");
    pmilnor_format(buf, sizeof buf, A, 1, 0);
    ASSERT_STR_EQ(buf, "Q_0");
    pmilnor_free(A);
}

/* ---- Products ------------------------------------------------------------------ */

/* v (degree a) * w (degree b) into out (degree a + b), all vectors. */
static void vmul(const pmilnor_t *A, uint8_t *out, int32_t a, const uint8_t *v, int32_t b,
                 const uint8_t *w)
{
    for (int64_t i = 0; i < pmilnor_dim(A, a); i++)
        if (v[i])
            pmilnor_mul_vec_add(A, out, v[i], a, i, b, w);
}

TEST(pmilnor_unit_and_small)
{
    for (size_t ip = 0; ip < NPRIMES; ip++) {
        uint32_t p = primes[ip];
        int32_t q = 2 * (int32_t)p - 2;
        int32_t D = 6 * q + 3;
        pmilnor_t *A = pmilnor_new(p, D, NULL);
        for (int32_t d = 0; d <= D; d++)
            for (int64_t i = 0; i < pmilnor_dim(A, d); i++) {
                uint8_t out[4096] = {0};
                pmilnor_mul_add(A, out, 1, 0, 0, d, i);
                for (int64_t k = 0; k < pmilnor_dim(A, d); k++)
                    ASSERT_EQ(out[k], k == i);
                memset(out, 0, sizeof out);
                pmilnor_mul_add(A, out, 1, d, i, 0, 0);
                for (int64_t k = 0; k < pmilnor_dim(A, d); k++)
                    ASSERT_EQ(out[k], k == i);
            }
        int32_t d1, d2;
        int64_t P1 = pmilnor_beps_pn(A, 0, 1, &d1), P2 = pmilnor_beps_pn(A, 0, 2, &d2);
        int64_t b = pmilnor_beps_pn(A, 1, 0, NULL);
        ASSERT_EQ(d1, q);
        ASSERT_EQ(b, 0);
        /* P^1 P^1 = 2 P^2. */
        uint8_t out[4096] = {0};
        pmilnor_mul_add(A, out, 1, q, P1, q, P1);
        for (int64_t k = 0; k < pmilnor_dim(A, d2); k++)
            ASSERT_EQ(out[k], k == P2 ? 2 : 0);
        /* beta beta = 0. */
        memset(out, 0, sizeof out);
        pmilnor_mul_add(A, out, 1, 1, 0, 1, 0);
        ASSERT_EQ(out[0], 0);
        /* Q_1 = P^1 beta - beta P^1 (Milnor), and P^1 beta P^1 = beta P^2 + P^2 beta. */
        pmilnor_elt_t e = {0};
        e.q = 2;
        int64_t Q1 = pmilnor_index(A, &e);
        memset(out, 0, sizeof out);
        pmilnor_mul_add(A, out, 1, q, P1, 1, 0);
        pmilnor_mul_add(A, out, p - 1, 1, 0, q, P1);
        for (int64_t k = 0; k < pmilnor_dim(A, q + 1); k++)
            ASSERT_EQ(out[k], k == Q1);
        pmilnor_free(A);
    }
}

TEST(pmilnor_associative)
{
    sq_rand_t *rng = sq_test_rand();
    for (size_t ip = 0; ip < 4; ip++) {
        uint32_t p = primes[ip];
        int32_t D = p == 3 ? 130 : (int32_t)(2 * p - 2) * 12 + 6;
        pmilnor_t *A = pmilnor_new(p, D, NULL);
        int64_t iters = sq_test_iters(p == 3 ? 400 : 150);
        for (int64_t it = 0; it < iters; it++) {
            int32_t a, b, c;
            do {
                a = (int32_t)sq_rand_below(rng, (uint64_t)D / 2 + 1);
                b = (int32_t)sq_rand_below(rng, (uint64_t)D / 2 + 1);
                c = (int32_t)sq_rand_below(rng, (uint64_t)D / 2 + 1);
            } while (a + b + c > D || !pmilnor_dim(A, a) || !pmilnor_dim(A, b) ||
                     !pmilnor_dim(A, c));
            int64_t na = pmilnor_dim(A, a), nb = pmilnor_dim(A, b), nc = pmilnor_dim(A, c);
            uint8_t *x = sq_calloc((size_t)na, 1), *y = sq_calloc((size_t)nb, 1),
                    *z = sq_calloc((size_t)nc, 1);
            /* random elements (sums of a few basis elements) */
            for (int k = 0; k < 2; k++) {
                x[sq_rand_below(rng, (uint64_t)na)] = (uint8_t)(1 + sq_rand_below(rng, p - 1));
                y[sq_rand_below(rng, (uint64_t)nb)] = (uint8_t)(1 + sq_rand_below(rng, p - 1));
                z[sq_rand_below(rng, (uint64_t)nc)] = (uint8_t)(1 + sq_rand_below(rng, p - 1));
            }
            uint8_t *xy = sq_calloc((size_t)pmilnor_dim(A, a + b) + 1, 1);
            uint8_t *yz = sq_calloc((size_t)pmilnor_dim(A, b + c) + 1, 1);
            int64_t n3 = pmilnor_dim(A, a + b + c);
            uint8_t *l = sq_calloc((size_t)n3 + 1, 1), *r = sq_calloc((size_t)n3 + 1, 1);
            vmul(A, xy, a, x, b, y);
            vmul(A, l, a + b, xy, c, z);
            vmul(A, yz, b, y, c, z);
            vmul(A, r, a, x, b + c, yz);
            if (memcmp(l, r, (size_t)n3) != 0)
                sq_test_fail(__FILE__, __LINE__,
                             "not associative: p=%u degrees %d %d %d seed=%llu iter=%lld", p, a,
                             b, c, (unsigned long long)sq_test_seed(), (long long)it);
            sq_free(x);
            sq_free(y);
            sq_free(z);
            sq_free(xy);
            sq_free(yz);
            sq_free(l);
            sq_free(r);
        }
        pmilnor_free(A);
    }
}

/* binom(n, k) mod p by Lucas; 0 when k < 0 or k > n or n < 0. */
static uint32_t binom_mod(int64_t n, int64_t k, uint32_t p)
{
    if (k < 0 || n < 0 || k > n)
        return 0;
    uint32_t r = 1;
    while (n || k) {
        int64_t a = n % p, b = k % p;
        if (b > a)
            return 0;
        /* small binomial a choose b mod p */
        uint64_t num = 1, den = 1;
        for (int64_t i = 0; i < b; i++) {
            num = num * (uint64_t)(a - i) % p;
            den = den * (uint64_t)(i + 1) % p;
        }
        uint64_t inv = 1, x = den, e = p - 2;
        while (e) {
            if (e & 1)
                inv = inv * x % p;
            x = x * x % p;
            e >>= 1;
        }
        r = (uint32_t)(r * (num * inv % p) % p);
        n /= p;
        k /= p;
    }
    return r;
}

/* out += c * beta^e1 P^x beta^e2 P^y (as a vector of its degree). */
static void add_word(const pmilnor_t *A, uint8_t *out, uint32_t c, int e1, int32_t x, int e2,
                     int32_t y)
{
    uint32_t p = pmilnor_prime(A);
    int32_t q = 2 * (int32_t)p - 2;
    /* build left to right: start with beta^e1 P^x as a basis element */
    int32_t d1;
    int64_t i1 = pmilnor_beps_pn(A, e1, x, &d1);
    int32_t d2 = e2 + q * y;
    int64_t n12 = pmilnor_dim(A, d1 + d2);
    uint8_t *w = sq_calloc((size_t)pmilnor_dim(A, d2) + 1, 1);
    /* beta^e2 P^y = (beta^e2)(P^y): for e2 = 1 this is Q_0 P(y) itself. */
    int64_t i2 = pmilnor_beps_pn(A, e2, y, NULL);
    w[i2] = 1;
    uint8_t *t = sq_calloc((size_t)n12 + 1, 1);
    pmilnor_mul_vec_add(A, t, c, d1, i1, d2, w);
    for (int64_t k = 0; k < n12; k++)
        out[k] = (uint8_t)((out[k] + t[k]) % p);
    sq_free(w);
    sq_free(t);
}

TEST(pmilnor_adem)
{
    uint32_t ps[] = {3, 5, 7, 131};
    for (int ip = 0; ip < 4; ip++) {
        uint32_t p = ps[ip];
        int32_t q = 2 * (int32_t)p - 2;
        int32_t D = p == 3 ? 160 : 12 * q + 1;
        pmilnor_t *A = pmilnor_new(p, D, NULL);
        int64_t checked = 0;
        for (int32_t a = 1; a * q <= D; a++)
            for (int32_t b = 1; (a + b) * q + 1 <= D; b++) {
                int32_t deg = (a + b) * q;
                int64_t n = pmilnor_dim(A, deg), nb = pmilnor_dim(A, deg + 1);
                if (a < (int32_t)p * b) {
                    /* P^a P^b = sum_j (-1)^{a+j} binom((p-1)(b-j)-1, a-pj) P^{a+b-j} P^j */
                    uint8_t *l = sq_calloc((size_t)n + 1, 1), *r = sq_calloc((size_t)n + 1, 1);
                    add_word(A, l, 1, 0, a, 0, b);
                    for (int32_t j = 0; (int64_t)p * j <= a; j++) {
                        uint32_t c = binom_mod((int64_t)(p - 1) * (b - j) - 1, a - (int64_t)p * j,
                                               p);
                        if ((a + j) & 1)
                            c = (p - c) % p;
                        if (c)
                            add_word(A, r, c, 0, a + b - j, 0, j);
                    }
                    if (memcmp(l, r, (size_t)n) != 0)
                        sq_test_fail(__FILE__, __LINE__, "Adem P^%d P^%d fails at p=%u", a, b, p);
                    sq_free(l);
                    sq_free(r);
                    checked++;
                }
                if (a <= (int32_t)p * b) {
                    /* P^a beta P^b = sum_j (-1)^{a+j} binom((p-1)(b-j), a-pj) beta P^{a+b-j} P^j
                     *              + sum_j (-1)^{a+j+1} binom((p-1)(b-j)-1, a-pj-1) P^{a+b-j} beta P^j */
                    uint8_t *l = sq_calloc((size_t)nb + 1, 1), *r = sq_calloc((size_t)nb + 1, 1);
                    add_word(A, l, 1, 0, a, 1, b);
                    for (int32_t j = 0; (int64_t)p * j <= a; j++) {
                        uint32_t c =
                            binom_mod((int64_t)(p - 1) * (b - j), a - (int64_t)p * j, p);
                        if ((a + j) & 1)
                            c = (p - c) % p;
                        if (c)
                            add_word(A, r, c, 1, a + b - j, 0, j);
                        c = binom_mod((int64_t)(p - 1) * (b - j) - 1, a - (int64_t)p * j - 1, p);
                        if (!((a + j) & 1))
                            c = (p - c) % p;
                        if (c)
                            add_word(A, r, c, 0, a + b - j, 1, j);
                    }
                    if (memcmp(l, r, (size_t)nb) != 0)
                        sq_test_fail(__FILE__, __LINE__, "Adem P^%d b P^%d fails at p=%u", a, b,
                                     p);
                    sq_free(l);
                    sq_free(r);
                    checked++;
                }
            }
        ASSERT(checked > 20);
        pmilnor_free(A);
    }
}

/* Milnor's commutation formula read back: P(R) Q_k - Q_k P(R) =
 * sum_j Q_{k+j} P(R - p^k e_j). */
TEST(pmilnor_commutation)
{
    uint32_t p = 3;
    pmilnor_t *A = pmilnor_new(p, 200, NULL);
    for (int32_t d = 0; d <= 120; d += 4)
        for (int64_t i = 0; i < pmilnor_dim(A, d); i++) {
            pmilnor_elt_t r;
            pmilnor_get(A, d, i, &r);
            if (r.q)
                continue;
            for (int k = 0; k < 3; k++) {
                pmilnor_elt_t qk = {0};
                qk.q = 1u << k;
                int32_t dq = (int32_t)pmilnor_elt_degree(p, &qk);
                if (d + dq > 200)
                    continue;
                int64_t n = pmilnor_dim(A, d + dq);
                uint8_t *l = sq_calloc((size_t)n, 1), *w = sq_calloc((size_t)n, 1);
                pmilnor_mul_elts_add(A, l, 1, &r, &qk);
                pmilnor_mul_elts_add(A, l, p - 1, &qk, &r);
                int64_t pk = 1;
                for (int z = 0; z < k; z++)
                    pk *= p;
                for (int j = 1; j <= r.len; j++) {
                    if (r.r[j - 1] < pk)
                        continue;
                    pmilnor_elt_t t = r;
                    t.r[j - 1] -= (int32_t)pk;
                    while (t.len && !t.r[t.len - 1])
                        t.len--;
                    t.q = 1u << (k + j);
                    int64_t idx = pmilnor_index(A, &t);
                    ASSERT(idx >= 0);
                    w[idx] = (uint8_t)((w[idx] + 1) % p);
                }
                ASSERT(memcmp(l, w, (size_t)n) == 0);
                sq_free(l);
                sq_free(w);
            }
        }
    pmilnor_free(A);
}

TEST(pmilnor_profiles)
{
    char err[256];
    pmilnor_profile_t pr;
    /* The peer's odd-prime profiles are sub-Hopf algebras. */
    pmilnor_profile_full(&pr);
    pr.q_part = 4294967294u; /* C3, y1_3 (with p_part [0]) */
    ASSERT_EQ(pmilnor_profile_check(3, &pr, err, sizeof err), 0);
    pr.len = 1;
    pr.p_part[0] = 0;
    ASSERT_EQ(pmilnor_profile_check(3, &pr, err, sizeof err), 0);
    pr.q_part = 4294967292u; /* l, y2_3 */
    ASSERT_EQ(pmilnor_profile_check(5, &pr, err, sizeof err), 0);
    pmilnor_profile_full(&pr); /* t1 */
    pr.len = 1;
    ASSERT_EQ(pmilnor_profile_check(5, &pr, err, sizeof err), 0);
    /* Not sub-Hopf: Q_0 kept, Q_1 left out, h_1 = infinity. */
    pmilnor_profile_full(&pr);
    pr.q_part = ~(uint32_t)2;
    ASSERT_EQ(pmilnor_profile_check(3, &pr, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "Q_1") != NULL);
    /* Not sub-Hopf: truncated [3, 2]. */
    pmilnor_profile_full(&pr);
    pr.truncated = 1;
    pr.len = 2;
    pr.p_part[0] = 3;
    pr.p_part[1] = 2;
    ASSERT_EQ(pmilnor_profile_check(3, &pr, err, sizeof err), SQ_E_INVAL);

    /* Products in B agree with products in A. */
    pmilnor_profile_t profs[3];
    pmilnor_profile_full(&profs[0]);
    profs[0].q_part = ~(uint32_t)1;
    pmilnor_profile_full(&profs[1]);
    profs[1].truncated = 1;
    profs[1].len = 2;
    profs[1].p_part[0] = 2;
    profs[1].p_part[1] = 1;
    profs[1].q_part = 7;
    pmilnor_profile_full(&profs[2]);
    profs[2].len = 1;
    profs[2].q_part = ~(uint32_t)3;
    for (int k = 0; k < 3; k++) {
        uint32_t p = 3;
        int32_t D = 100;
        pmilnor_t *A = pmilnor_new(p, D, NULL), *B = pmilnor_new(p, D, &profs[k]);
        int64_t *g = genfun_dims(p, D, &profs[k]);
        for (int32_t d = 0; d <= D; d++)
            ASSERT_EQ(pmilnor_dim(B, d), g[d]);
        sq_free(g);
        for (int32_t a = 0; a <= D / 2; a++)
            for (int32_t b = 0; a + b <= D; b += 3)
                for (int64_t i = 0; i < pmilnor_dim(B, a); i++)
                    for (int64_t j = 0; j < pmilnor_dim(B, b); j++) {
                        pmilnor_elt_t x, y;
                        pmilnor_get(B, a, i, &x);
                        pmilnor_get(B, b, j, &y);
                        int64_t na = pmilnor_dim(A, a + b), nb = pmilnor_dim(B, a + b);
                        uint8_t *oa = sq_calloc((size_t)na + 1, 1), *ob = sq_calloc((size_t)nb + 1, 1);
                        pmilnor_mul_elts_add(A, oa, 1, &x, &y);
                        pmilnor_mul_elts_add(B, ob, 1, &x, &y);
                        for (int64_t z = 0; z < na; z++) {
                            pmilnor_elt_t e;
                            pmilnor_get(A, a + b, z, &e);
                            int64_t zb = pmilnor_index(B, &e);
                            ASSERT_EQ(oa[z], zb >= 0 ? ob[zb] : 0);
                        }
                        sq_free(oa);
                        sq_free(ob);
                    }
        pmilnor_free(A);
        pmilnor_free(B);
    }
}
