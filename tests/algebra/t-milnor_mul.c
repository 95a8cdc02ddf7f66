/*
 * t-milnor_mul.c -- the Milnor product.
 *
 * Oracles: a slow reference product written here from Milnor's formula
 * (every matrix within the row and column budgets, coefficient decided by
 * "no carries when adding the anti-diagonal", i.e. popcounts add up), the
 * product table tests/data/milnor-products.tsv computed in Python with exact
 * multinomials, the Adem relations, the unit and associativity.
 */
#include <pthread.h>

#include "milnor.h"
#include "sq_test.h"

static int64_t limbs_of(int64_t bits)
{
    return (bits + 63) / 64;
}

static int get_bit(const uint64_t *v, int64_t k)
{
    return (int)((v[k >> 6] >> (k & 63)) & 1);
}

static void flip(uint64_t *v, int64_t k)
{
    v[k >> 6] ^= UINT64_C(1) << (k & 63);
}

static void assert_vec_eq(const uint64_t *a, const uint64_t *b, int64_t limbs, const char *what)
{
    for (int64_t l = 0; l < limbs; l++)
        if (a[l] != b[l])
            sq_test_fail(__FILE__, __LINE__, "%s: limb %lld differs: %016llx vs %016llx", what,
                         (long long)l, (unsigned long long)a[l], (unsigned long long)b[l]);
}

/* ---- the slow reference ------------------------------------------------ */

typedef struct {
    const milnor_t *A;
    int p, q;
    int32_t r[MILNOR_MAX_LEN + 1], s[MILNOR_MAX_LEN + 1]; /* 1-based */
    int32_t x[MILNOR_MAX_LEN + 1][MILNOR_MAX_LEN + 1];
    uint64_t *out;
} ref_t;

static void ref_leaf(ref_t *st)
{
    for (int i = 1; i <= st->p; i++) {
        int32_t rest = st->r[i];
        for (int j = 1; j <= st->q; j++)
            rest -= st->x[i][j] << j;
        if (rest < 0)
            return;
        st->x[i][0] = rest;
    }
    for (int j = 1; j <= st->q; j++) {
        int32_t rest = st->s[j];
        for (int i = 1; i <= st->p; i++)
            rest -= st->x[i][j];
        if (rest < 0)
            return;
        st->x[0][j] = rest;
    }
    int32_t t[2 * MILNOR_MAX_LEN + 2];
    int tl = st->p + st->q;
    for (int n = 1; n <= tl; n++) {
        int32_t sum = 0;
        int pops = 0;
        for (int i = 0; i <= n; i++) {
            int j = n - i;
            if (i > st->p || j > st->q)
                continue;
            sum += st->x[i][j];
            pops += __builtin_popcount((unsigned)st->x[i][j]);
        }
        if (__builtin_popcount((unsigned)sum) != pops)
            return; /* a carry: the multinomial coefficient is even */
        t[n - 1] = sum;
    }
    int64_t k = milnor_index(st->A, t, tl);
    ASSERT(k >= 0);
    flip(st->out, k);
}

static void ref_rec(ref_t *st, int cell)
{
    if (cell == st->p * st->q) {
        ref_leaf(st);
        return;
    }
    int i = cell / st->q + 1, j = cell % st->q + 1;
    int32_t rowleft = st->r[i], colleft = st->s[j];
    for (int jj = 1; jj < j; jj++)
        rowleft -= st->x[i][jj] << jj;
    for (int ii = 1; ii < i; ii++)
        colleft -= st->x[ii][j];
    for (int32_t v = 0; (v << j) <= rowleft && v <= colleft; v++) {
        st->x[i][j] = v;
        ref_rec(st, cell + 1);
    }
    st->x[i][j] = 0;
}

/* out ^= Sq(R) Sq(S) by the reference, R, S given by degree and index. */
static void ref_mul(const milnor_t *A, uint64_t *out, int32_t rd, int64_t ri, int32_t sd,
                    int64_t si)
{
    ref_t st;
    memset(&st, 0, sizeof st);
    st.A = A;
    st.out = out;
    st.p = milnor_get(A, rd, ri, st.r + 1, MILNOR_MAX_LEN);
    st.q = milnor_get(A, sd, si, st.s + 1, MILNOR_MAX_LEN);
    ref_rec(&st, 0);
}

/* ---- helpers ------------------------------------------------------------ */

static int64_t idx_of(const milnor_t *A, const char *txt)
{
    int32_t r[MILNOR_MAX_LEN];
    int len = 0;
    if (strcmp(txt, "1") != 0) {
        ASSERT(strncmp(txt, "Sq(", 3) == 0);
        const char *p = txt + 3;
        while (*p != ')') {
            char *end;
            r[len++] = (int32_t)strtol(p, &end, 10);
            ASSERT(end != p);
            p = *end == ',' ? end + 1 : end;
        }
    }
    return milnor_index(A, r, len);
}

static int32_t deg_of(const char *txt)
{
    int32_t r[MILNOR_MAX_LEN];
    int len = 0;
    if (strcmp(txt, "1") != 0) {
        const char *p = txt + 3;
        while (*p != ')') {
            char *end;
            r[len++] = (int32_t)strtol(p, &end, 10);
            p = *end == ',' ? end + 1 : end;
        }
    }
    return milnor_pdegree(r, len);
}

/* Product of two named elements as a single word (degree small). */
static uint64_t prod_word(const milnor_t *A, const char *a, const char *b)
{
    uint64_t out[4] = {0};
    int32_t da = deg_of(a), db = deg_of(b);
    ASSERT(milnor_dim(A, da + db) <= 64);
    milnor_mul_add(A, out, 0, da, idx_of(A, a), db, idx_of(A, b));
    return out[0];
}

static uint64_t elt_word(const milnor_t *A, const char *a)
{
    return UINT64_C(1) << idx_of(A, a);
}

/* ---- tests ---------------------------------------------------------------- */

TEST(milnor_mul_small)
{
    milnor_t *A = milnor_new(20);
    ASSERT_EQ(prod_word(A, "Sq(1)", "Sq(1)"), 0);
    ASSERT_EQ(prod_word(A, "Sq(2)", "Sq(2)"), elt_word(A, "Sq(1,1)"));
    ASSERT_EQ(prod_word(A, "Sq(3)", "Sq(1)"), elt_word(A, "Sq(1,1)"));
    ASSERT_EQ(prod_word(A, "Sq(1)", "Sq(2)"), elt_word(A, "Sq(3)"));
    ASSERT_EQ(prod_word(A, "Sq(2)", "Sq(1)"), elt_word(A, "Sq(3)") | elt_word(A, "Sq(0,1)"));
    ASSERT_EQ(prod_word(A, "Sq(1)", "Sq(0,1)"), elt_word(A, "Sq(1,1)"));
    ASSERT_EQ(prod_word(A, "Sq(0,1)", "Sq(1)"), elt_word(A, "Sq(1,1)"));
    ASSERT_EQ(prod_word(A, "1", "Sq(0,2)"), elt_word(A, "Sq(0,2)"));
    ASSERT_EQ(prod_word(A, "Sq(0,2)", "1"), elt_word(A, "Sq(0,2)"));
    ASSERT_EQ(prod_word(A, "1", "1"), 1);
    milnor_free(A);
}

TEST(milnor_mul_unit)
{
    enum { N = 70 };
    milnor_t *A = milnor_new(N);
    for (int32_t d = 0; d <= N; d++) {
        int64_t dim = milnor_dim(A, d), limbs = limbs_of(dim);
        uint64_t *a = sq_calloc((size_t)limbs, 8), *b = sq_calloc((size_t)limbs, 8);
        for (int64_t k = 0; k < dim; k++) {
            milnor_mul_add(A, a, 0, 0, 0, d, k);
            milnor_mul_add(A, b, 0, d, k, 0, 0);
            for (int64_t m = 0; m < dim; m++) {
                ASSERT_EQ(get_bit(a, m), m == k);
                ASSERT_EQ(get_bit(b, m), m == k);
            }
            flip(a, k);
            flip(b, k);
        }
        sq_free(a);
        sq_free(b);
    }
    milnor_free(A);
}

TEST(milnor_mul_golden)
{
    milnor_t *A = milnor_new(40);
    FILE *f = fopen(sq_test_data_path("milnor-products.tsv"), "r");
    ASSERT(f != NULL);
    char line[4096];
    int header = 0, rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        if (!header) {
            ASSERT_STR_EQ(line, "left\tright\tproduct");
            header = 1;
            continue;
        }
        char *left = line, *right = strchr(left, '\t');
        ASSERT(right != NULL);
        *right++ = '\0';
        char *prod = strchr(right, '\t');
        ASSERT(prod != NULL);
        *prod++ = '\0';
        int32_t dl = deg_of(left), dr = deg_of(right);
        uint64_t want[2] = {0}, got[2] = {0};
        ASSERT(milnor_dim(A, dl + dr) <= 128);
        if (strcmp(prod, "0") != 0) {
            /* terms are separated by " + " */
            for (char *term = prod; term;) {
                char *plus = strstr(term, " + ");
                if (plus)
                    *plus = '\0';
                ASSERT_EQ(deg_of(term), dl + dr);
                flip(want, idx_of(A, term));
                term = plus ? plus + 3 : NULL;
            }
        }
        milnor_mul_add(A, got, 0, dl, idx_of(A, left), dr, idx_of(A, right));
        if (got[0] != want[0] || got[1] != want[1])
            sq_test_fail(__FILE__, __LINE__, "%s * %s", left, right);
        rows++;
    }
    fclose(f);
    ASSERT(rows > 300);
    milnor_free(A);
}

/* Every pair of total degree <= N against the reference. */
TEST(milnor_mul_vs_reference_all)
{
    enum { N = 32 };
    milnor_t *A = milnor_new(N);
    for (int32_t n = 0; n <= N; n++) {
        int64_t limbs = limbs_of(milnor_dim(A, n));
        uint64_t *got = sq_calloc((size_t)limbs, 8), *want = sq_calloc((size_t)limbs, 8);
        for (int32_t rd = 0; rd <= n; rd++) {
            int32_t sd = n - rd;
            for (int64_t ri = 0; ri < milnor_dim(A, rd); ri++) {
                for (int64_t si = 0; si < milnor_dim(A, sd); si++) {
                    memset(got, 0, (size_t)limbs * 8);
                    memset(want, 0, (size_t)limbs * 8);
                    milnor_mul_add(A, got, 0, rd, ri, sd, si);
                    ref_mul(A, want, rd, ri, sd, si);
                    assert_vec_eq(got, want, limbs, "product vs reference");
                }
            }
        }
        sq_free(got);
        sq_free(want);
    }
    milnor_free(A);
}

/* Random pairs of total degree up to N against the reference. */
TEST(milnor_mul_vs_reference_random)
{
    enum { N = 90 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    int64_t limbs = limbs_of(milnor_dim(A, N));
    uint64_t *got = sq_calloc((size_t)limbs, 8), *want = sq_calloc((size_t)limbs, 8);
    int64_t iters = sq_test_iters(10000);
    for (int64_t it = 0; it < iters; it++) {
        int32_t n = 20 + (int32_t)sq_rand_below(rng, N - 19);
        int32_t rd = (int32_t)sq_rand_below(rng, (uint64_t)n + 1), sd = n - rd;
        int64_t ri = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, rd));
        int64_t si = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, sd));
        memset(got, 0, (size_t)limbs * 8);
        memset(want, 0, (size_t)limbs * 8);
        milnor_mul_add(A, got, 0, rd, ri, sd, si);
        ref_mul(A, want, rd, ri, sd, si);
        if (memcmp(got, want, (size_t)limbs * 8) != 0) {
            char a[64], b[64];
            milnor_format(a, sizeof a, A, rd, ri);
            milnor_format(b, sizeof b, A, sd, si);
            sq_test_fail(__FILE__, __LINE__, "iter %lld: %s * %s differs from the reference",
                         (long long)it, a, b);
        }
    }
    sq_free(got);
    sq_free(want);
    milnor_free(A);
}

/* High degrees against the reference, with one factor small so that the
 * reference stays fast.  The product degree stays <= 1100 (dimension
 * <= 1.1e8 bits, 14 MB per vector); length-10 p-parts start at 1023. */
TEST(milnor_mul_vs_reference_high)
{
    enum { N = 1100 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(200);
    for (int64_t it = 0; it < iters; it++) {
        int32_t small = (int32_t)sq_rand_below(rng, 16);
        int32_t big = 900 + (int32_t)sq_rand_below(rng, (uint64_t)(N - 900 - small) + 1);
        int swap = (int)(it & 1);
        int32_t rd = swap ? small : big, sd = swap ? big : small;
        int64_t ri = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, rd));
        int64_t si = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, sd));
        if (it % 3 == 0) { /* the last, longest element of the big degree */
            if (swap)
                si = milnor_dim(A, sd) - 1;
            else
                ri = milnor_dim(A, rd) - 1;
        }
        int64_t nl = limbs_of(milnor_dim(A, rd + sd));
        uint64_t *buf = sq_calloc((size_t)nl, 8);
        milnor_mul_add(A, buf, 0, rd, ri, sd, si);
        ref_mul(A, buf, rd, ri, sd, si);
        for (int64_t l = 0; l < nl; l++)
            if (buf[l])
                sq_test_fail(__FILE__, __LINE__, "iter %lld: degrees %d * %d differ at limb %lld",
                             (long long)it, (int)rd, (int)sd, (long long)l);
        sq_free(buf);
    }
    milnor_free(A);
}

/* Sq^a Sq^b = sum_j binom(b-1-j, a-2j) Sq^{a+b-j} Sq^j for 0 < a < 2b, with
 * Sq^n = Sq(n) and every product on the right taken in the Milnor basis. */
TEST(milnor_adem)
{
    enum { N = 40 };
    milnor_t *A = milnor_new(N);
    int32_t r1[1], r2[1];
    for (int32_t a = 1; a < N; a++) {
        for (int32_t b = 1; a + b <= N; b++) {
            if (a >= 2 * b)
                continue;
            int64_t limbs = limbs_of(milnor_dim(A, a + b));
            uint64_t *lhs = sq_calloc((size_t)limbs, 8), *rhs = sq_calloc((size_t)limbs, 8);
            r1[0] = a;
            r2[0] = b;
            milnor_mul_add(A, lhs, 0, a, milnor_index(A, r1, 1), b, milnor_index(A, r2, 1));
            for (int32_t j = 0; 2 * j <= a; j++) {
                int32_t top = b - 1 - j, bot = a - 2 * j;
                if (top < 0 || bot > top)
                    continue;
                if ((bot & ~top) != 0) /* Lucas: binom(top, bot) even */
                    continue;
                r1[0] = a + b - j;
                r2[0] = j;
                milnor_mul_add(A, rhs, 0, a + b - j, milnor_index(A, r1, 1), j,
                               milnor_index(A, r2, j ? 1 : 0));
            }
            assert_vec_eq(lhs, rhs, limbs, "Adem relation");
            sq_free(lhs);
            sq_free(rhs);
        }
    }
    milnor_free(A);
}

/* (x y) z = x (y z) on random triples, using milnor_mul_add for products
 * with the right factor and milnor_mul_vec_add for x * (y z). */
TEST(milnor_assoc)
{
    enum { N = 60 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    int64_t lmax = limbs_of(milnor_dim(A, N));
    uint64_t *xy = sq_calloc((size_t)lmax, 8), *yz = sq_calloc((size_t)lmax, 8);
    uint64_t *l = sq_calloc((size_t)lmax, 8), *r = sq_calloc((size_t)lmax, 8);
    int64_t iters = sq_test_iters(2000);
    for (int64_t it = 0; it < iters; it++) {
        int32_t n = (int32_t)sq_rand_below(rng, N + 1);
        int32_t dx = (int32_t)sq_rand_below(rng, (uint64_t)n + 1);
        int32_t dy = (int32_t)sq_rand_below(rng, (uint64_t)(n - dx) + 1);
        int32_t dz = n - dx - dy;
        int64_t x = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, dx));
        int64_t y = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, dy));
        int64_t z = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, dz));
        memset(xy, 0, (size_t)lmax * 8);
        memset(yz, 0, (size_t)lmax * 8);
        memset(l, 0, (size_t)lmax * 8);
        memset(r, 0, (size_t)lmax * 8);
        milnor_mul_add(A, xy, 0, dx, x, dy, y);
        for (int64_t k = 0; k < milnor_dim(A, dx + dy); k++)
            if (get_bit(xy, k))
                milnor_mul_add(A, l, 0, dx + dy, k, dz, z);
        milnor_mul_add(A, yz, 0, dy, y, dz, z);
        milnor_mul_vec_add(A, r, 0, dx, x, dy + dz, yz);
        if (memcmp(l, r, (size_t)lmax * 8) != 0)
            sq_test_fail(__FILE__, __LINE__, "iter %lld: (xy)z != x(yz) in degrees %d %d %d",
                         (long long)it, (int)dx, (int)dy, (int)dz);
    }
    sq_free(xy);
    sq_free(yz);
    sq_free(l);
    sq_free(r);
    milnor_free(A);
}

/* milnor_mul_vec_add == sum of milnor_mul_add over the set bits, at odd
 * offsets, with random prior contents, guard words, and garbage beyond the
 * dimension in v; densities from one bit to full. */
TEST(milnor_mul_vec)
{
    enum { N = 130, GUARD = 2 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    int64_t lmax = limbs_of(milnor_dim(A, N) + 200) + 2 * GUARD;
    uint64_t *v = sq_calloc((size_t)lmax, 8);
    uint64_t *a = sq_calloc((size_t)lmax, 8), *b = sq_calloc((size_t)lmax, 8);
    int64_t iters = sq_test_iters(2000);
    for (int64_t it = 0; it < iters; it++) {
        int32_t n = (int32_t)sq_rand_below(rng, N + 1);
        int32_t rd = (int32_t)sq_rand_below(rng, (uint64_t)n + 1), sd = n - rd;
        int64_t ri = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, rd));
        int64_t sdim = milnor_dim(A, sd);
        int64_t off = (int64_t)sq_rand_below(rng, 150);
        int dens = (int)sq_rand_below(rng, 5); /* 0: one bit ... 4: all bits */
        for (int64_t k = 0; k < lmax; k++)
            v[k] = sq_rand_u64(rng);
        for (int64_t k = 0; k < sdim; k++) {
            int on = dens == 4   ? 1
                     : dens == 0 ? 0
                                 : sq_rand_below(rng, 8) < (uint64_t)(dens * 2 - 1);
            if (get_bit(v, k) != on)
                flip(v, k);
        }
        if (dens == 0 && sdim)
            flip(v, (int64_t)sq_rand_below(rng, (uint64_t)sdim));
        for (int64_t k = 0; k < lmax; k++)
            a[k] = b[k] = sq_rand_u64(rng);
        milnor_mul_vec_add(A, a + GUARD, off, rd, ri, sd, v);
        for (int64_t k = 0; k < sdim; k++)
            if (get_bit(v, k))
                milnor_mul_add(A, b + GUARD, off, rd, ri, sd, k);
        assert_vec_eq(a, b, lmax, "vec vs single products");
    }
    sq_free(v);
    sq_free(a);
    sq_free(b);
    milnor_free(A);
}

/* The operation-by-element path in higher degrees (up to and across its
 * packed limit of 511) against single products: R of degree 60-460, v
 * dense enough to take the configuration path. */
TEST(milnor_mul_vec_high)
{
    enum { N = 530 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(100);
    for (int64_t it = 0; it < iters; it++) {
        int32_t sd = 10 + (int32_t)sq_rand_below(rng, 30);
        int32_t rd = it < 4 ? 60 + (int32_t)sq_rand_below(rng, 140)
                            : 511 - sd - 3 + (int32_t)sq_rand_below(rng, 7);
        if (it >= 8)
            rd = 400 + (int32_t)sq_rand_below(rng, 60);
        int64_t ri = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, rd));
        int64_t sdim = milnor_dim(A, sd), limbs = limbs_of(milnor_dim(A, rd + sd));
        uint64_t *v = sq_calloc((size_t)limbs_of(sdim), 8);
        uint64_t *a = sq_calloc((size_t)limbs, 8), *b = sq_calloc((size_t)limbs, 8);
        int64_t nbits = 0;
        for (int64_t k = 0; k < sdim && nbits < 12; k++)
            if (sq_rand_below(rng, 3) == 0) {
                flip(v, k);
                nbits++;
            }
        milnor_mul_vec_add(A, a, 0, rd, ri, sd, v);
        for (int64_t k = 0; k < sdim; k++)
            if (get_bit(v, k))
                milnor_mul_add(A, b, 0, rd, ri, sd, k);
        if (memcmp(a, b, (size_t)limbs * 8) != 0) {
            char buf[64];
            milnor_format(buf, sizeof buf, A, rd, ri);
            sq_test_fail(__FILE__, __LINE__, "iter %lld: %s * v (degree %d) differs", (long long)it,
                         buf, (int)sd);
        }
        sq_free(v);
        sq_free(a);
        sq_free(b);
    }
    milnor_free(A);
}

/* A milnor_op_t reused over several vectors and degrees; the p-part entry
 * point with trailing zeros agrees with the index entry point. */
TEST(milnor_op_and_pparts)
{
    enum { N = 80 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    int64_t lmax = limbs_of(milnor_dim(A, N));
    uint64_t *v = sq_calloc((size_t)lmax, 8);
    uint64_t *a = sq_calloc((size_t)lmax, 8), *b = sq_calloc((size_t)lmax, 8);
    for (int64_t it = 0; it < sq_test_iters(40); it++) {
        int32_t rd = (int32_t)sq_rand_below(rng, 40);
        int64_t ri = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, rd));
        milnor_op_t op;
        milnor_op_init(&op, A, rd, ri);
        int32_t r[MILNOR_MAX_LEN + 2];
        int p = milnor_get(A, rd, ri, r, MILNOR_MAX_LEN);
        r[p] = 0;
        r[p + 1] = 0;
        for (int rep = 0; rep < 4; rep++) {
            int32_t sd = (int32_t)sq_rand_below(rng, (uint64_t)(N - rd) + 1);
            int64_t sdim = milnor_dim(A, sd);
            memset(v, 0, (size_t)lmax * 8);
            for (int64_t k = 0; k < sdim; k++)
                if (sq_rand_below(rng, 3) == 0)
                    flip(v, k);
            memset(a, 0, (size_t)lmax * 8);
            memset(b, 0, (size_t)lmax * 8);
            milnor_op_mul_vec_add(&op, a, 3, sd, v);
            for (int64_t k = 0; k < sdim; k++) {
                if (!get_bit(v, k))
                    continue;
                int32_t s[MILNOR_MAX_LEN + 1];
                int q = milnor_get(A, sd, k, s, MILNOR_MAX_LEN);
                s[q] = 0;
                milnor_mul_pparts_add(A, b, 3, r, p + 2, s, q + 1);
            }
            assert_vec_eq(a, b, lmax, "op vs pparts");
        }
    }
    sq_free(v);
    sq_free(a);
    sq_free(b);
    milnor_free(A);
}

/* The workspace: one Sq(R) into several sparse blocks of various degrees,
 * as a resolution does, against single products; R changes, repeats (the
 * cached configurations), and comes with few bits (walked) or with degrees
 * beyond the packed limit. */
TEST(milnor_ws)
{
    enum { N = 600, NB = 6 };
    milnor_t *A = milnor_new(N);
    sq_rand_t *rng = sq_test_rand();
    milnor_ws_t *W = milnor_ws_new();
    int64_t lmax = limbs_of(milnor_dim(A, 240) + 64);
    uint64_t *a = sq_calloc((size_t)lmax, 8), *b = sq_calloc((size_t)lmax, 8);
    uint64_t *v[NB];
    int32_t deg[NB];
    int64_t iters = sq_test_iters(400);
    milnor_op_t op;
    for (int64_t it = 0; it < iters; it++) {
        int32_t rd;
        int64_t ri;
        if (it % 5 == 4) { /* same element again */
            rd = op.deg;
            ri = milnor_index(A, op.r + 1, op.len);
        } else if (it % 5 == 2 && milnor_dim(A, op.deg) > 1) { /* same degree, other element */
            rd = op.deg;
            ri = (milnor_index(A, op.r + 1, op.len) + 1) % milnor_dim(A, rd);
        } else {
            rd = (int32_t)sq_rand_below(rng, 120);
            ri = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, rd));
        }
        int32_t maxd = 1 + (int32_t)sq_rand_below(rng, 60);
        int sparse = (int)sq_rand_below(rng, 3); /* 0: bit 0 only, Sq(deg), per block */
        if (it % 17 == 0) {                      /* Sq(rd) Sq(s), across the packed limit: walked */
            rd = 500 + (int32_t)sq_rand_below(rng, 30);
            ri = 0;
            maxd = 20 + (int32_t)sq_rand_below(rng, 40);
            sparse = 0;
        }
        int64_t nbits = 0;
        for (int k = 0; k < NB; k++) {
            deg[k] = k == 0 ? maxd : (int32_t)sq_rand_below(rng, (uint64_t)maxd + 1);
            int64_t dim = milnor_dim(A, deg[k]);
            v[k] = sq_calloc((size_t)limbs_of(dim), 8);
            for (int64_t j = 0; j < dim; j++)
                if (sparse ? sq_rand_below(rng, 4) == 0 : j == 0) {
                    flip(v[k], j);
                    nbits++;
                }
        }
        milnor_op_init(&op, A, rd, ri);
        milnor_ws_prepare(W, &op, maxd, it % 7 == 3 ? 1 : nbits);
        int64_t dim_out = milnor_dim(A, rd + maxd);
        memset(a, 0, (size_t)lmax * 8);
        memset(b, 0, (size_t)lmax * 8);
        uint64_t *ta = dim_out + 64 <= 64 * lmax ? a : sq_calloc((size_t)limbs_of(dim_out + 64), 8);
        uint64_t *tb = ta == a ? b : sq_calloc((size_t)limbs_of(dim_out + 64), 8);
        for (int k = 0; k < NB; k++) {
            int64_t off = 7 * k;
            if (rd + deg[k] != rd + maxd)
                continue; /* keep one output degree per check */
            milnor_ws_mul_vec_add(W, ta, off, deg[k], v[k]);
            for (int64_t j = 0; j < milnor_dim(A, deg[k]); j++)
                if (get_bit(v[k], j))
                    milnor_mul_add(A, tb, off, rd, ri, deg[k], j);
        }
        int64_t nl = limbs_of(dim_out + 64);
        assert_vec_eq(ta, tb, nl, "workspace vs single products");
        /* the other blocks, each on its own */
        for (int k = 0; k < NB; k++) {
            int64_t nk = limbs_of(milnor_dim(A, rd + deg[k]));
            uint64_t *x = sq_calloc((size_t)nk, 8), *y = sq_calloc((size_t)nk, 8);
            milnor_ws_mul_vec_add(W, x, 0, deg[k], v[k]);
            milnor_op_mul_vec_add(&op, y, 0, deg[k], v[k]);
            assert_vec_eq(x, y, nk, "workspace vs op");
            sq_free(x);
            sq_free(y);
            sq_free(v[k]);
        }
        if (ta != a) {
            sq_free(ta);
            sq_free(tb);
        }
    }
    milnor_ws_free(W);
    milnor_ws_free(NULL);
    sq_free(a);
    sq_free(b);
    milnor_free(A);
}

/* One milnor_t shared by several threads: each thread computes Sq(R) * v for
 * its own share of jobs into its own rows; the result must equal the
 * sequential one (and TSan must stay quiet). */
enum { THR_N = 150, THR_JOBS = 96, THR_THREADS = 4 };

typedef struct {
    const milnor_t *A;
    int32_t rd[THR_JOBS], sd[THR_JOBS];
    int64_t ri[THR_JOBS];
    uint64_t *v[THR_JOBS], *out[THR_JOBS];
    int64_t limbs;
    int first, step;
} thr_t;

static void *thr_run(void *arg)
{
    thr_t *t = arg;
    for (int j = t->first; j < THR_JOBS; j += t->step)
        milnor_mul_vec_add(t->A, t->out[j], 5, t->rd[j], t->ri[j], t->sd[j], t->v[j]);
    return NULL;
}

TEST(milnor_threads)
{
    milnor_t *A = milnor_new(THR_N);
    sq_rand_t *rng = sq_test_rand();
    thr_t base;
    memset(&base, 0, sizeof base);
    base.A = A;
    base.limbs = limbs_of(milnor_dim(A, THR_N) + 5);
    for (int j = 0; j < THR_JOBS; j++) {
        int32_t n = 60 + (int32_t)sq_rand_below(rng, THR_N - 59);
        base.rd[j] = (int32_t)sq_rand_below(rng, (uint64_t)n + 1);
        base.sd[j] = n - base.rd[j];
        base.ri[j] = (int64_t)sq_rand_below(rng, (uint64_t)milnor_dim(A, base.rd[j]));
        int64_t sdim = milnor_dim(A, base.sd[j]);
        base.v[j] = sq_calloc((size_t)limbs_of(sdim), 8);
        for (int64_t k = 0; k < sdim; k++)
            if (sq_rand_below(rng, 2))
                flip(base.v[j], k);
        base.out[j] = sq_calloc((size_t)base.limbs, 8);
    }
    thr_t par = base;
    uint64_t *par_out[THR_JOBS];
    for (int j = 0; j < THR_JOBS; j++)
        par.out[j] = par_out[j] = sq_calloc((size_t)base.limbs, 8);
    base.first = 0;
    base.step = 1;
    thr_run(&base);
    thr_t each[THR_THREADS];
    pthread_t tid[THR_THREADS];
    for (int k = 0; k < THR_THREADS; k++) {
        each[k] = par;
        each[k].first = k;
        each[k].step = THR_THREADS;
        ASSERT_EQ(pthread_create(&tid[k], NULL, thr_run, &each[k]), 0);
    }
    for (int k = 0; k < THR_THREADS; k++)
        ASSERT_EQ(pthread_join(tid[k], NULL), 0);
    for (int j = 0; j < THR_JOBS; j++) {
        assert_vec_eq(base.out[j], par_out[j], base.limbs, "threaded vs sequential");
        sq_free(base.v[j]);
        sq_free(base.out[j]);
        sq_free(par_out[j]);
    }
    milnor_free(A);
}
