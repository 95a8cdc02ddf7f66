/*
 * t-steenrod.c -- the algebraic Steenrod operations Sq^j on Ext of the
 * sphere (resol_steenrod.h), checked against their defining properties
 * (May, "A general algebraic approach to Steenrod operations", 1970;
 * Nakamura, 1972), each through products computed by resol_product and the
 * doubling of resol_sq0.h, two independent code paths:
 *   - Sq^s x = x^2 for x in Ext^s (so Sq^1 h_i = h_i^2, nonzero for i <= 3);
 *   - Sq^0 x equals the doubling Sq^0 (resol_sq0), so Sq^0 h_i = h_{i+1};
 *   - additivity on every pair of basis classes of a bidegree;
 *   - the Cartan formula Sq^k(x y) = sum_{i+j=k} Sq^i x Sq^j y on every
 *     pair of basis classes of positive filtration whose operations lie in
 *     the region (through stem 60 in the slow tests);
 *   - the two constructions of resol_steenrod.h (on F itself; on each
 *     class's Yoneda representative) agree on every class;
 *   - the peer's published Sq^j c_0 (tests/data/steenrod-c0-S2.txt).
 */
#include <stdio.h>
#include <string.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_products.h"
#include "resol_sq0.h"
#include "resol_steenrod.h"
#include "sq_core.h"
#include "sq_test.h"

enum { MAXB = 64 };

static resol_t *sphere(resol_algo_t algo, int32_t max_n, int32_t max_s, fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, max_s, max_n);
    resol_run(R, algo);
    return R;
}

/* The operations of every bidegree (n, s) with 2(n + s) <= N, built once. */
typedef struct {
    const resol_t *R;
    int32_t N;
    resol_steenrod_t *q[MAXB][MAXB]; /* [n][s] */
} ops_t;

static const resol_steenrod_t *ops(ops_t *O, int32_t n, int32_t s)
{
    ASSERT(n < MAXB && s < MAXB && 2 * (n + s) <= O->N);
    if (!O->q[n][s])
        ASSERT_EQ(resol_steenrod_new(&O->q[n][s], O->R, s, n + s), 0);
    return O->q[n][s];
}

static void ops_free(ops_t *O)
{
    for (int n = 0; n < MAXB; n++)
        for (int s = 0; s < MAXB; s++)
            resol_steenrod_free(O->q[n][s]);
}

/* A vector over the basis of Ext at (n, s) (at least one entry). */
static fvec_t vec(const resol_t *R, int32_t s, int32_t n)
{
    int64_t d = resol_ext_dim(R, s, n);
    fvec_t v;
    fvec_init(&v, d > 0 ? d : 1, 2);
    return v;
}

/* out = Sq^j x for x at (n, s). */
static fvec_t sq(ops_t *O, int32_t n, int32_t s, int32_t j, fvec_t x)
{
    fvec_t out = vec(O->R, s + j, 2 * n + s - j);
    ASSERT_EQ(resol_steenrod_apply(ops(O, n, s), j, x, out), 0);
    return out;
}

/* out += x y for x at (n, s), y at (n2, s2). */
static void mul_add(const resol_t *R, int32_t n, int32_t s, fvec_t x, int32_t n2, int32_t s2,
                    fvec_t y, fvec_t out)
{
    if (resol_ext_dim(R, s, n) <= 0 || resol_ext_dim(R, s2, n2) <= 0 ||
        resol_ext_dim(R, s + s2, n + n2) <= 0)
        return;
    fvec_t p = vec(R, s + s2, n + n2);
    ASSERT_EQ(resol_product(R, R, s, n + s, x, s2, n2 + s2, y, p), 0);
    fvec_addmul(out, p, 1);
    fvec_clear(&p);
}

TEST(steenrod_c0_peer)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 22, 7, &M);
    ops_t *O = sq_calloc(1, sizeof *O);
    O->R = R;
    O->N = 22;
    fvec_t x = vec(R, 3, 8);
    fvec_set(x, 0, 1);
    /* tests/data/steenrod-c0-S2.txt: Sq^3 c_0 = [1], Sq^2 = [1], Sq^1 = [0, 1], Sq^0 = [1]. */
    static const char *const want[] = {"1", "01", "1", "1"};
    for (int32_t j = 0; j <= 3; j++) {
        fvec_t v = sq(O, 8, 3, j, x);
        ASSERT_EQ((int)v.len, (int)strlen(want[j]));
        for (int64_t i = 0; i < v.len; i++)
            ASSERT_EQ(fvec_get(v, i), (uint32_t)(want[j][i] - '0'));
        fvec_clear(&v);
    }
    fvec_clear(&x);
    ops_free(O);
    sq_free(O);
    resol_free(R);
    fdmod_free(M);
}

/* Sq^s x = x^2, Sq^0 = the doubling, additivity, on every class of every
 * bidegree with 2(n + s) <= N. */
static void check_square_sq0(resol_algo_t algo, int32_t N)
{
    fdmod_t *M;
    resol_t *R = sphere(algo, N, N, &M);
    ops_t *O = sq_calloc(1, sizeof *O);
    O->R = R;
    O->N = N;
    resol_sq0_t *Z;
    ASSERT_EQ(resol_sq0_new(&Z, R), 0);
    int checked = 0;
    for (int32_t n = 0; 2 * n <= N; n++)
        for (int32_t s = 1; 2 * (n + s) <= N; s++) {
            int64_t d = resol_ext_dim(R, s, n);
            fmat_t z;
            if (d <= 0)
                continue;
            ASSERT_EQ(resol_sq0_matrix(Z, s, n, &z), 0);
            for (int64_t i = 0; i < d; i++) {
                fvec_t x = vec(R, s, n);
                fvec_set(x, i, 1);
                fvec_t top = sq(O, n, s, s, x), sq2 = vec(R, 2 * s, 2 * n);
                mul_add(R, n, s, x, n, s, x, sq2);
                ASSERT(fvec_equal(top, sq2));
                fvec_t zero = sq(O, n, s, 0, x);
                for (int64_t j = 0; j < fmat_cols(&z); j++)
                    ASSERT_EQ(fvec_get(zero, j), fmat_get(&z, i, j));
                if (i + 1 < d) { /* additivity with the next class */
                    fvec_t y = vec(R, s, n), xy = vec(R, s, n);
                    fvec_set(y, i + 1, 1);
                    fvec_set(xy, i, 1);
                    fvec_set(xy, i + 1, 1);
                    for (int32_t j = 0; j <= s; j++) {
                        fvec_t a = sq(O, n, s, j, x), b = sq(O, n, s, j, y), c = sq(O, n, s, j, xy);
                        fvec_addmul(a, b, 1);
                        ASSERT(fvec_equal(a, c));
                        fvec_clear(&a);
                        fvec_clear(&b);
                        fvec_clear(&c);
                    }
                    fvec_clear(&y);
                    fvec_clear(&xy);
                }
                fvec_clear(&x);
                fvec_clear(&top);
                fvec_clear(&sq2);
                fvec_clear(&zero);
                checked++;
            }
            fmat_clear(&z);
        }
    ASSERT(checked >= 10);
    /* Sq^1 h_i = h_i^2 != 0 (i <= 3 within stem 2^{i+1} - 2 <= N). */
    for (int i = 0; (1 << (i + 1)) <= N / 2 + 1 && i <= 3; i++) {
        int32_t n = (1 << i) - 1;
        fvec_t x = vec(R, 1, n);
        fvec_set(x, 0, 1);
        fvec_t v = sq(O, n, 1, 1, x);
        ASSERT(!fvec_is_zero(v));
        fvec_clear(&v);
        fvec_clear(&x);
    }
    resol_sq0_free(Z);
    ops_free(O);
    sq_free(O);
    resol_free(R);
    fdmod_free(M);
}

TEST(steenrod_square_and_sq0_classical) { check_square_sq0(RESOL_CLASSICAL, 40); }
TEST(steenrod_square_and_sq0_nassau) { check_square_sq0(RESOL_NASSAU, 30); }
TEST(steenrod_square_and_sq0_n60_slow) { check_square_sq0(RESOL_CLASSICAL, 60); }

/* The two constructions (resol_steenrod.h: cup-i maps into F (x) F for a
 * whole bidegree, or into E (x) E for one class's Yoneda representative
 * E) give the same Sq^j on every basis class with 2(n + s) <= N. */
static void check_methods_agree(int32_t N)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, N, N, &M);
    int checked = 0;
    for (int32_t n = 0; 2 * n <= N; n++)
        for (int32_t s = 1; 2 * (n + s) <= N; s++) {
            int64_t d = resol_ext_dim(R, s, n);
            if (d <= 0)
                continue;
            resol_steenrod_t *F, *Y;
            ASSERT_EQ(resol_steenrod_new_by(&F, R, s, n + s, RESOL_STEENROD_FREE, 0), 0);
            ASSERT_EQ(resol_steenrod_new_by(&Y, R, s, n + s, RESOL_STEENROD_YONEDA, 0), 0);
            for (int64_t i = 0; i < d; i++)
                for (int32_t j = 0; j <= s; j++) {
                    fvec_t x = vec(R, s, n), a = vec(R, s + j, 2 * n + s - j),
                           b = vec(R, s + j, 2 * n + s - j);
                    fvec_set(x, i, 1);
                    ASSERT_EQ(resol_steenrod_apply(F, j, x, a), 0);
                    ASSERT_EQ(resol_steenrod_apply(Y, j, x, b), 0);
                    if (!fvec_equal(a, b))
                        sq_test_fail(__FILE__, __LINE__, "Sq^%d x_(%d,%d,%lld): the methods differ",
                                     (int)j, (int)n, (int)s, (long long)i);
                    checked++;
                    fvec_clear(&x);
                    fvec_clear(&a);
                    fvec_clear(&b);
                }
            resol_steenrod_free(F);
            resol_steenrod_free(Y);
        }
    ASSERT(checked >= 50);
    resol_free(R);
    fdmod_free(M);
}

TEST(steenrod_methods_agree) { check_methods_agree(30); }
TEST(steenrod_methods_agree_n44_slow) { check_methods_agree(44); }

/* The Cartan formula on every pair of basis classes x at (n, s), y at
 * (n2, s2), s, s2 >= 1, with 2(n + n2 + s + s2) <= N. */
static void check_cartan(int32_t N)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, N, N, &M);
    ops_t *O = sq_calloc(1, sizeof *O);
    O->R = R;
    O->N = N;
    int64_t pairs = 0, nonzero = 0;
    for (int32_t n = 0; 2 * n <= N; n++)
        for (int32_t s = 1; 2 * (n + s) <= N; s++)
            for (int32_t n2 = 0; 2 * (n + n2 + s) <= N; n2++)
                for (int32_t s2 = 1; 2 * (n + n2 + s + s2) <= N; s2++) {
                    int64_t dx = resol_ext_dim(R, s, n), dy = resol_ext_dim(R, s2, n2);
                    int64_t dxy = resol_ext_dim(R, s + s2, n + n2);
                    for (int64_t i = 0; i < dx; i++)
                        for (int64_t j = 0; j < dy; j++) {
                            fvec_t x = vec(R, s, n), y = vec(R, s2, n2), xy = vec(R, s + s2, n + n2);
                            fvec_set(x, i, 1);
                            fvec_set(y, j, 1);
                            if (dxy > 0)
                                mul_add(R, n, s, x, n2, s2, y, xy);
                            for (int32_t k = 0; k <= s + s2; k++) {
                                int32_t S = s + s2 + k, Nk = 2 * (n + n2) + s + s2 - k;
                                fvec_t lhs = vec(R, S, Nk), rhs = vec(R, S, Nk);
                                if (dxy > 0) {
                                    fvec_t a = sq(O, n + n2, s + s2, k, xy);
                                    fvec_addmul(lhs, a, 1);
                                    fvec_clear(&a);
                                }
                                for (int32_t a = 0; a <= s && a <= k; a++) {
                                    int32_t b = k - a;
                                    if (b > s2)
                                        continue;
                                    fvec_t u = sq(O, n, s, a, x), v = sq(O, n2, s2, b, y);
                                    mul_add(R, 2 * n + s - a, s + a, u, 2 * n2 + s2 - b, s2 + b, v,
                                            rhs);
                                    fvec_clear(&u);
                                    fvec_clear(&v);
                                }
                                if (!fvec_equal(lhs, rhs))
                                    sq_test_fail(__FILE__, __LINE__,
                                                 "Cartan: Sq^%d(x_(%d,%d,%lld) x_(%d,%d,%lld))",
                                                 (int)k, (int)n, (int)s, (long long)i, (int)n2,
                                                 (int)s2, (long long)j);
                                nonzero += !fvec_is_zero(lhs);
                                pairs++;
                                fvec_clear(&lhs);
                                fvec_clear(&rhs);
                            }
                            fvec_clear(&x);
                            fvec_clear(&y);
                            fvec_clear(&xy);
                        }
                }
    ASSERT(pairs >= 50 && nonzero >= 10);
    ops_free(O);
    sq_free(O);
    resol_free(R);
    fdmod_free(M);
}

TEST(steenrod_cartan) { check_cartan(32); }
TEST(steenrod_cartan_n60_slow) { check_cartan(60); }

TEST(steenrod_refusals)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 10, 4, &M);
    resol_steenrod_t *Q = (resol_steenrod_t *)1;
    ASSERT_EQ(resol_steenrod_new(&Q, R, 3, 11), SQ_E_RANGE); /* needs stem 22 */
    ASSERT(Q == NULL);
    ASSERT_EQ(resol_steenrod_new(&Q, R, -1, 0), SQ_E_INVAL);
    /* The construction on F beyond a memory bound is refused, not started. */
    ASSERT_EQ(resol_steenrod_new_by(&Q, R, 1, 2, RESOL_STEENROD_FREE, 10), SQ_E_NOMEM);
    ASSERT(Q == NULL);
    ASSERT(resol_steenrod_estimate(R, 1, 2) > 10);
    ASSERT_EQ(resol_steenrod_new(&Q, R, 1, 2), 0);
    fvec_t x, out;
    fvec_init(&x, 1, 2);
    fvec_init(&out, 0, 2);
    ASSERT_EQ(resol_steenrod_apply(Q, 2, x, out), SQ_E_RANGE);
    ASSERT_EQ(resol_steenrod_apply(Q, 1, x, out), SQ_E_RANGE); /* out too short: h_1^2 */
    fvec_clear(&x);
    fvec_clear(&out);
    resol_steenrod_free(Q);
    resol_free(R);
    fdmod_free(M);
}
