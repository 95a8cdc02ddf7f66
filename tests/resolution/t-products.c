/*
 * t-products.c -- products on Ext of the sphere, checked against the
 * mathematics (relations known since Adams and May, the h_0-towers of the
 * published chart, graded commutativity), not against adams itself:
 *   h_i h_{i+1} = 0,  h_i h_{i+2}^2 = 0,  h_i^2 h_{i+2} = h_{i+1}^3,  h_1^4 = 0,
 *   the h_0-towers of the chart on h_i: h_0 h_1 = 0, h_0^2 h_2 != 0 = h_0^3 h_2,
 *   h_0^3 h_3 != 0 = h_0^4 h_3, h_0^7 h_4 != 0 = h_0^8 h_4, h_0^k h_5 != 0
 *   as far as the region reaches (k <= 11), and h_0^k != 0,
 *   x . y = y . x, and the product by the class h_i (resol_product) equals
 *   the filtration-one formula (resol_h_product).
 * Both engines are checked: the products are basis-free facts.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "resol_products.h"
#include "sq_modspec.h"
#include "sq_products.h"
#include "sq_test.h"

static resol_t *sphere(resol_algo_t algo, int32_t max_n, int32_t max_s, fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, max_s, max_n);
    resol_run(R, algo);
    return R;
}

/* The class h_i: the only generator of Ext^{1, 2^i}. */
static void h_class(const resol_t *R, int i, uint64_t *v)
{
    ASSERT_EQ(resol_ext_dim(R, 1, (1 << i) - 1), 1);
    v[0] = 1;
}

/* out = h_{i_1} h_{i_2} ... x, applied right to left; returns the bidegree
 * reached in *s, *t.  x starts at (s, t). */
static void h_chain(const resol_t *R, const int *is, int n, int32_t *s, int32_t *t, uint64_t *x)
{
    uint64_t tmp[64];
    for (int k = n - 1; k >= 0; k--) {
        ASSERT_EQ(resol_h_product(R, is[k], *s, *t, x, tmp), 0);
        *s += 1;
        *t += 1 << is[k];
        memcpy(x, tmp, sizeof tmp);
    }
}

static int is_zero(const uint64_t *v, int64_t bits)
{
    return f2_first_bit(v, bits) < 0;
}

/* h_{is[0]} ... h_{is[n-1]} as a class (starting from the unit). */
static void monomial(const resol_t *R, const int *is, int n, int32_t *s, int32_t *t, uint64_t *x)
{
    memset(x, 0, 64 * sizeof *x);
    x[0] = 1;
    *s = 0;
    *t = 0;
    h_chain(R, is, n, s, t, x);
}

static void check_relations(resol_algo_t algo)
{
    fdmod_t *M;
    resol_t *R = sphere(algo, 60, 12, &M);
    uint64_t x[64], y[64];
    int32_t s, t, s2, t2;
    for (int i = 0; i + 1 < 6 && (1 << (i + 1)) + (1 << i) - 2 <= 60; i++) {
        int a[] = {i, i + 1};
        monomial(R, a, 2, &s, &t, x); /* h_i h_{i+1} = 0 */
        ASSERT(is_zero(x, resol_ext_dim(R, s, t - s)));
    }
    for (int i = 0; (1 << i) + (2 << (i + 2)) - 3 <= 60; i++) {
        int a[] = {i, i + 2, i + 2};
        monomial(R, a, 3, &s, &t, x); /* h_i h_{i+2}^2 = 0 */
        ASSERT(is_zero(x, resol_ext_dim(R, s, t - s)));
    }
    for (int i = 0; (2 << i) + (1 << (i + 2)) - 3 <= 60; i++) {
        int a[] = {i, i, i + 2}, b[] = {i + 1, i + 1, i + 1};
        monomial(R, a, 3, &s, &t, x); /* h_i^2 h_{i+2} = h_{i+1}^3 */
        monomial(R, b, 3, &s2, &t2, y);
        ASSERT_EQ(s, s2);
        ASSERT_EQ(t, t2);
        ASSERT(memcmp(x, y, sizeof x) == 0);
        if (i <= 1)
            ASSERT(!is_zero(x, resol_ext_dim(R, s, t - s))); /* h_1^3 = h_0^2 h_2 != 0 */
    }
    int h14[] = {1, 1, 1, 1};
    monomial(R, h14, 4, &s, &t, x);
    ASSERT(is_zero(x, resol_ext_dim(R, s, t - s)));
    /* The towers of the chart (k_zero -1: the zero lies above the region). */
    static const struct {
        int i, k_nonzero, k_zero;
    } towers[] = {{1, 0, 1}, {2, 2, 3}, {3, 3, 4}, {4, 7, 8}, {5, 11, -1}};
    for (size_t q = 0; q < sizeof towers / sizeof towers[0]; q++) {
        int a[16];
        int top = towers[q].k_zero >= 0 ? towers[q].k_zero : towers[q].k_nonzero;
        for (int z = 0; z <= top; z++) {
            int n = 0;
            for (int w = 0; w < z; w++)
                a[n++] = 0;
            a[n++] = towers[q].i;
            monomial(R, a, n, &s, &t, x);
            int zero = is_zero(x, resol_ext_dim(R, s, t - s));
            if (z <= towers[q].k_nonzero)
                ASSERT(!zero);
            if (z == towers[q].k_zero)
                ASSERT(zero);
        }
    }
    for (int k = 0; k <= 11; k++) {
        int a[12];
        for (int w = 0; w < k; w++)
            a[w] = 0;
        monomial(R, a, k, &s, &t, x);
        ASSERT(!is_zero(x, 1));
    }
    resol_free(R);
    fdmod_free(M);
}

TEST(products_relations_classical)
{
    check_relations(RESOL_CLASSICAL);
}

TEST(products_relations_nassau)
{
    check_relations(RESOL_NASSAU);
}

/* resol_product by the class h_i equals the filtration-one formula, on
 * every class of a region; and x . y = y . x on pairs of classes. */
TEST(products_general_matches_h_and_commutes)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 30, 10, &M);
    uint64_t hi[1], x[64], a[64], b[64];
    int64_t checked = 0;
    for (int i = 0; i <= 3; i++) {
        h_class(R, i, hi);
        for (int32_t n = 0; n + (1 << i) - 1 <= 30; n++)
            for (int32_t s = 0; s + 1 <= 10; s++) {
                int64_t dim = resol_ext_dim(R, s, n);
                for (int64_t j = 0; j < dim; j++) {
                    memset(x, 0, sizeof x);
                    x[j >> 6] |= 1ULL << (j & 63);
                    ASSERT_EQ(resol_h_product(R, i, s, s + n, x, a), 0);
                    ASSERT_EQ(resol_product(R, R, s, s + n, x, 1, 1 << i, hi, b), 0);
                    int64_t tdim = resol_ext_dim(R, s + 1, n + (1 << i) - 1);
                    for (int64_t g = 0; g < tdim; g++)
                        ASSERT_EQ((a[g >> 6] >> (g & 63)) & 1, (b[g >> 6] >> (g & 63)) & 1);
                    checked++;
                }
            }
    }
    ASSERT(checked > 50);
    /* Commutativity on classes of filtration >= 2: c0 . h_1 and such. */
    int64_t pairs = 0;
    for (int32_t n1 = 0; n1 <= 15; n1++)
        for (int32_t s1 = 1; s1 <= 4; s1++)
            for (int32_t n2 = n1; n1 + n2 <= 30; n2++)
                for (int32_t s2 = 1; s1 + s2 <= 10 && s2 <= 4; s2++) {
                    int64_t d1 = resol_ext_dim(R, s1, n1), d2 = resol_ext_dim(R, s2, n2);
                    if (d1 <= 0 || d2 <= 0 || resol_ext_dim(R, s1 + s2, n1 + n2) <= 0)
                        continue;
                    uint64_t u[64] = {1}, v[64] = {1};
                    ASSERT_EQ(resol_product(R, R, s1, s1 + n1, u, s2, s2 + n2, v, a), 0);
                    ASSERT_EQ(resol_product(R, R, s2, s2 + n2, v, s1, s1 + n1, u, b), 0);
                    int64_t tdim = resol_ext_dim(R, s1 + s2, n1 + n2);
                    for (int64_t g = 0; g < tdim; g++)
                        ASSERT_EQ((a[g >> 6] >> (g & 63)) & 1, (b[g >> 6] >> (g & 63)) & 1);
                    pairs++;
                }
    ASSERT(pairs > 20);
    resol_free(R);
    fdmod_free(M);
}

/* The peer's lines for S_2 and C2 through (10, 5) (tests/data, copied from
 * its published benchmark outputs): the same text from both engines. */
static void peer_lines(const char *module, const char *data, resol_algo_t algo)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, module);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *R = resol_new(M, 5, 10);
    resol_run(R, algo);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(sq_products_write(f, R, 0, 10, 5), 0);
    fclose(f);
    char *want = sq_test_slurp(sq_test_data_path(data));
    /* drop the '#' header lines */
    char *body = want;
    while (*body == '#')
        body = strchr(body, '\n') + 1;
    ASSERT_STR_EQ(buf, body);
    free(buf);
    sq_free(want);
    resol_free(R);
    fdmod_free(M);
}

TEST(products_peer_lines)
{
    peer_lines("S_2", "filtration-one-S2-n10-s5.txt", RESOL_CLASSICAL);
    peer_lines("S_2", "filtration-one-S2-n10-s5.txt", RESOL_NASSAU);
    peer_lines("C2", "filtration-one-C2-n10-s5.txt", RESOL_CLASSICAL);
    peer_lines("C2", "filtration-one-C2-n10-s5.txt", RESOL_NASSAU);
}

/* Massey products known since May's thesis: <h_i, h_{i+1}, h_i> = h_{i+1}^2
 * and <h_{i+1}, h_i, h_{i+1}> = h_i h_{i+2} (so <h_0, h_1, h_0> = h_1^2,
 * <h_1, h_0, h_1> = h_0 h_2, <h_2, h_1, h_2> = h_1 h_3), each with zero
 * indeterminacy, and a refusal when a b != 0. */
static void massey_is(const resol_t *R, int ia, int ib, int ic, int j1, int j2)
{
    uint64_t a[1] = {1}, b[1] = {1}, c[1] = {1}, out[4] = {0}, want[4] = {0};
    int32_t ta = 1 << ia, tb = 1 << ib, tc = 1 << ic;
    ASSERT_EQ(resol_massey(R, R, 1, ta, a, 1, tb, b, 1, tc, c, out), 0);
    /* h_{j1} h_{j2} as a class */
    uint64_t one[1] = {1};
    ASSERT_EQ(resol_product(R, R, 1, 1 << j1, one, 1, 1 << j2, one, want), 0);
    ASSERT(!is_zero(want, resol_ext_dim(R, 2, ta + tb + tc - 2)));
    ASSERT(memcmp(out, want, sizeof out) == 0);
    f2mat_t ind;
    ASSERT_EQ(resol_massey_indeterminacy(R, R, 1, ta, a, 1, tb, 1, tc, c, &ind), 0);
    ASSERT_EQ(ind.rows, 0);
    f2mat_clear(&ind);
}

TEST(massey_products_known)
{
    fdmod_t *M;
    for (int e = 0; e < 2; e++) {
        resol_t *R = sphere(e ? RESOL_NASSAU : RESOL_CLASSICAL, 20, 6, &M);
        for (int i = 0; i <= 2; i++) {
            massey_is(R, i, i + 1, i, i + 1, i + 1); /* <h_i, h_{i+1}, h_i> = h_{i+1}^2 */
            massey_is(R, i + 1, i, i + 1, i, i + 2); /* <h_{i+1}, h_i, h_{i+1}> = h_i h_{i+2} */
        }
        /* h0 h0 != 0: refused. */
        uint64_t one[1] = {1}, out[4];
        ASSERT_EQ(resol_massey(R, R, 1, 1, one, 1, 1, one, 1, 2, one, out), SQ_E_INVAL);
        resol_free(R);
        fdmod_free(M);
    }
}
