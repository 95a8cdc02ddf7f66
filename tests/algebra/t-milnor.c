/*
 * t-milnor.c -- the Milnor basis: dimensions, order, index <-> p-part, text.
 *
 * Products are tested in t-milnor_mul.c.  The references here are
 * independent of src/algebra: tests/data/milnor-dims.tsv and
 * milnor-basis.tsv come from a Python script (docs/algebra.md, appendix),
 * and this file recounts dimensions through the admissible (Serre-Cartan)
 * basis and rebuilds the order with the spec's list construction.
 */
#include "milnor.h"
#include "sq_test.h"

/* Parses "1" or "Sq(a,b,...)" into r[], returns the length or -1. */
static int parse_elt(const char *txt, int32_t *r, int maxlen)
{
    if (strcmp(txt, "1") == 0)
        return 0;
    if (strncmp(txt, "Sq(", 3) != 0)
        return -1;
    const char *p = txt + 3;
    int len = 0;
    while (*p && *p != ')') {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || len == maxlen)
            return -1;
        r[len++] = (int32_t)x;
        p = *end == ',' ? end + 1 : end;
    }
    return *p == ')' ? len : -1;
}

/* Reads the next non-comment line into buf; 0 at end of file. */
static int next_line(FILE *f, char *buf, int n)
{
    while (fgets(buf, n, f)) {
        if (buf[0] == '#')
            continue;
        buf[strcspn(buf, "\r\n")] = '\0';
        return 1;
    }
    return 0;
}

TEST(milnor_dims_table)
{
    milnor_t *A = milnor_new(MILNOR_MAX_DEGREE);
    FILE *f = fopen(sq_test_data_path("milnor-dims.tsv"), "r");
    ASSERT(f != NULL);
    char line[256];
    ASSERT(next_line(f, line, sizeof line));
    ASSERT_STR_EQ(line, "degree\tdim");
    int rows = 0;
    while (next_line(f, line, sizeof line)) {
        long long d, dim;
        ASSERT_EQ(sscanf(line, "%lld\t%lld", &d, &dim), 2);
        ASSERT_EQ(d, rows);
        ASSERT_EQ(milnor_dim(A, (int32_t)d), dim);
        rows++;
    }
    fclose(f);
    ASSERT_EQ(rows, MILNOR_MAX_DEGREE + 1);
    ASSERT_EQ(milnor_dim(A, -1), 0);
    ASSERT_EQ(milnor_dim(A, MILNOR_MAX_DEGREE + 1), 0);
    milnor_free(A);
}

/*
 * Recount by a different bijection: the admissible monomials
 * Sq^{a_1} ... Sq^{a_k} (a_i >= 2 a_{i+1}, a_k >= 1) also form a basis.
 * g[d][a] = number of admissible sequences of sum d with first entry a;
 * G[d][a] = sum_{b <= a} g[d][b].  g[d][a] = [d == a] + G[d - a][a / 2].
 */
TEST(milnor_dims_admissible)
{
    enum { N = 300 };
    int64_t(*G)[N + 1] = sq_calloc(N + 1, sizeof *G);
    G[0][0] = 0;
    for (int d = 1; d <= N; d++) {
        for (int a = 1; a <= N; a++) {
            int64_t g = 0;
            if (a <= d)
                g = (d == a) + G[d - a][a / 2];
            G[d][a] = G[d][a - 1] + g;
        }
    }
    milnor_t *A = milnor_new(N);
    ASSERT_EQ(milnor_dim(A, 0), 1);
    for (int d = 1; d <= N; d++)
        ASSERT_EQ(milnor_dim(A, d), G[d][N]);
    ASSERT_EQ(milnor_dim(A, 50), 145);
    ASSERT_EQ(milnor_dim(A, 100), 1189);
    ASSERT_EQ(milnor_dim(A, 150), 5020);
    ASSERT_EQ(milnor_dim(A, 200), 15499);
    ASSERT_EQ(milnor_dim(A, 250), 39475);
    ASSERT_EQ(milnor_dim(A, 300), 87977);
    ASSERT_EQ(milnor_max_degree(A), N);
    milnor_free(A);
    sq_free(G);
}

TEST(milnor_degree6_order)
{
    milnor_t *A = milnor_new(6);
    char buf[64];
    ASSERT_EQ(milnor_dim(A, 6), 3);
    milnor_format(buf, sizeof buf, A, 6, 0);
    ASSERT_STR_EQ(buf, "Sq(6)");
    milnor_format(buf, sizeof buf, A, 6, 1);
    ASSERT_STR_EQ(buf, "Sq(3,1)");
    milnor_format(buf, sizeof buf, A, 6, 2);
    ASSERT_STR_EQ(buf, "Sq(0,2)");
    milnor_format(buf, sizeof buf, A, 0, 0);
    ASSERT_STR_EQ(buf, "1");
    int32_t r[MILNOR_MAX_LEN];
    ASSERT_EQ(milnor_get(A, 0, 0, r, MILNOR_MAX_LEN), 0);
    ASSERT_EQ(milnor_get(A, 6, 2, r, MILNOR_MAX_LEN), 2);
    ASSERT_EQ(r[0], 0);
    ASSERT_EQ(r[1], 2);
    /* Truncation keeps a NUL-terminated prefix. */
    milnor_format(buf, 4, A, 6, 1);
    ASSERT_STR_EQ(buf, "Sq(");
    milnor_free(A);
}

TEST(milnor_basis_golden)
{
    milnor_t *A = milnor_new(40);
    FILE *f = fopen(sq_test_data_path("milnor-basis.tsv"), "r");
    ASSERT(f != NULL);
    char line[256], buf[64], txt[128];
    ASSERT(next_line(f, line, sizeof line));
    ASSERT_STR_EQ(line, "degree\tindex\telement");
    int64_t total = 0, want = 0;
    while (next_line(f, line, sizeof line)) {
        int d;
        long long k;
        ASSERT_EQ(sscanf(line, "%d\t%lld\t%127s", &d, &k, txt), 3);
        milnor_format(buf, sizeof buf, A, d, k);
        ASSERT_STR_EQ(buf, txt);
        int32_t r[MILNOR_MAX_LEN];
        int len = parse_elt(txt, r, MILNOR_MAX_LEN);
        ASSERT(len >= 0);
        ASSERT_EQ(milnor_index(A, r, len), k);
        total++;
    }
    fclose(f);
    for (int d = 0; d <= 40; d++)
        want += milnor_dim(A, d);
    ASSERT_EQ(total, want);
    milnor_free(A);
}

/* The spec's construction, literally, through degree N, checked against
 * milnor_get element by element. */
TEST(milnor_order_construction)
{
    enum { N = 60, L = 6 };
    milnor_t *A = milnor_new(N);
    int64_t *start = sq_calloc(N + 2, sizeof *start);
    for (int d = 0; d <= N; d++)
        start[d + 1] = start[d] + milnor_dim(A, d);
    int32_t(*list)[L] = sq_calloc((size_t)start[N + 1], sizeof *list);
    int *len = sq_calloc((size_t)start[N + 1], sizeof *len);
    /* degree 0: the unit */
    for (int d = 1; d <= N; d++) {
        int64_t pos = start[d];
        for (int i = 0; (1 << (i + 1)) - 1 <= d; i++) {
            int e = d - ((1 << (i + 1)) - 1);
            for (int64_t k = start[e]; k < start[e + 1]; k++) {
                if (len[k] > i + 1)
                    break;
                memcpy(list[pos], list[k], sizeof list[pos]);
                list[pos][i]++;
                len[pos] = i + 1;
                pos++;
            }
        }
        ASSERT_EQ(pos, start[d + 1]);
    }
    for (int d = 0; d <= N; d++) {
        for (int64_t k = start[d]; k < start[d + 1]; k++) {
            int32_t r[MILNOR_MAX_LEN];
            int n = milnor_get(A, d, k - start[d], r, MILNOR_MAX_LEN);
            ASSERT_EQ(n, len[k]);
            for (int i = 0; i < n; i++)
                ASSERT_EQ(r[i], list[k][i]);
        }
    }
    sq_free(len);
    sq_free(list);
    sq_free(start);
    milnor_free(A);
}

/* Reverse-lexicographic comparison of two p-parts of equal degree. */
static int revlex_less(const int32_t *a, int la, const int32_t *b, int lb)
{
    if (la != lb)
        return la < lb;
    for (int i = la - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

TEST(milnor_index_roundtrip)
{
    enum { N = 120 };
    milnor_t *A = milnor_new(N);
    for (int32_t d = 0; d <= N; d++) {
        int32_t prev[MILNOR_MAX_LEN];
        int plen = -1;
        for (int64_t k = 0; k < milnor_dim(A, d); k++) {
            int32_t r[MILNOR_MAX_LEN + 3];
            int len = milnor_get(A, d, k, r, MILNOR_MAX_LEN);
            ASSERT(len == 0 || r[len - 1] > 0);
            ASSERT_EQ(milnor_pdegree(r, len), d);
            ASSERT_EQ(milnor_index(A, r, len), k);
            /* trailing zeros are allowed */
            r[len] = 0;
            r[len + 1] = 0;
            ASSERT_EQ(milnor_index(A, r, len + 2), k);
            if (plen >= 0)
                ASSERT(revlex_less(prev, plen, r, len));
            memcpy(prev, r, sizeof prev);
            plen = len;
        }
    }
    /* Too large a degree gives -1. */
    int32_t big[3] = {0, 0, 18}; /* degree 126 */
    ASSERT_EQ(milnor_index(A, big, 3), -1);
    int32_t far[12] = {0};
    far[11] = 1;
    ASSERT_EQ(milnor_index(A, far, 12), -1);
    milnor_free(A);
}

TEST(milnor_index_roundtrip_high)
{
    milnor_t *A = milnor_new(MILNOR_MAX_DEGREE);
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(20000);
    for (int64_t it = 0; it < iters; it++) {
        int32_t d = (int32_t)sq_rand_below(rng, MILNOR_MAX_DEGREE + 1);
        int64_t dim = milnor_dim(A, d);
        int64_t k = (int64_t)sq_rand_below(rng, (uint64_t)dim);
        if (it % 4 == 0)
            k = it % 8 == 0 ? 0 : dim - 1;
        int32_t r[MILNOR_MAX_LEN];
        int len = milnor_get(A, d, k, r, MILNOR_MAX_LEN);
        ASSERT_EQ(milnor_pdegree(r, len), d);
        ASSERT_EQ(milnor_index(A, r, len), k);
    }
    /* The extremes: Sq(0,...,0,1) of degree 2047 is the last element there. */
    int32_t top[MILNOR_MAX_LEN] = {0};
    top[10] = 1;
    ASSERT_EQ(milnor_index(A, top, MILNOR_MAX_LEN), milnor_dim(A, 2047) - 1);
    int32_t r[MILNOR_MAX_LEN];
    ASSERT_EQ(milnor_get(A, 2047, milnor_dim(A, 2047) - 1, r, MILNOR_MAX_LEN), 11);
    ASSERT_EQ(milnor_get(A, 2047, 0, r, MILNOR_MAX_LEN), 1);
    ASSERT_EQ(r[0], 2047);
    milnor_free(A);
}

TEST(milnor_small_algebras)
{
    for (int32_t n = 0; n <= 8; n++) {
        milnor_t *A = milnor_new(n);
        ASSERT_EQ(milnor_max_degree(A), n);
        for (int32_t d = 0; d <= n; d++)
            ASSERT(milnor_dim(A, d) >= 1);
        ASSERT_EQ(milnor_dim(A, n + 1), 0);
        milnor_free(A);
    }
    milnor_free(NULL);
}
