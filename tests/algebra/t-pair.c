/*
 * t-pair.c -- the secondary Steenrod algebra at p = 2 (pair_algebra.h).
 *
 * Oracles: Milnor's product formula over the integers written here with
 * exact multinomial coefficients (64-bit, small degrees), reduced mod 4;
 * the mod 2 product (milnor.h) as the reduction B_0 -> A; the values of
 * A(Sq R, Y_{k,l}) that Chua's implementation lists in its tests
 * (SpectralSequences/sseq, ext/crates/algebra/src/algebra/pair_algebra.rs,
 * test_a_y); and the lowest relation of the secondary algebra,
 * sigma(Sq1) sigma(Sq1) = 2 Sq2 + Y_{0,1}.
 */
#include <string.h>

#include "milnor.h"
#include "pair_algebra.h"
#include "sq_test.h"

#define DEG 24

/* ---- Milnor's formula over Z (the oracle) ------------------------------------- */

static uint64_t binom_exact(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    uint64_t c = 1;
    for (int i = 1; i <= k; i++)
        c = c * (uint64_t)(n - k + i) / (uint64_t)i;
    return c;
}

typedef struct {
    const milnor_t *A;
    int p, q;
    int32_t r[16], s[16], x[16][16];
    uint32_t *coef;
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
    int32_t t[32] = {0};
    uint64_t c = 1;
    for (int d = 1; d <= st->p + st->q; d++) {
        int sum = 0;
        for (int i = 0; i <= st->p; i++) {
            int j = d - i;
            if (j < 0 || j > st->q)
                continue;
            sum += st->x[i][j];
            c = c * binom_exact(sum, st->x[i][j]) % 1024;
        }
        t[d - 1] = sum;
    }
    int64_t idx = milnor_index(st->A, t, st->p + st->q);
    st->coef[idx] = (uint32_t)((st->coef[idx] + c) % 4);
}

static void ref_rec(ref_t *st, int i, int j)
{
    if (j > st->q) {
        i++;
        j = 1;
    }
    if (i > st->p) {
        ref_leaf(st);
        return;
    }
    for (int32_t v = 0; v <= st->s[j] && (v << j) <= st->r[i]; v++) {
        st->x[i][j] = v;
        ref_rec(st, i, j + 1);
    }
    st->x[i][j] = 0;
}

TEST(pair_sigma_mod4_vs_integer_formula)
{
    milnor_t *A = milnor_new(DEG);
    pairalg_t *P = pairalg_new(A);
    uint8_t coef[512];
    uint32_t ref[512];
    int64_t checked = 0;
    for (int32_t rd = 0; rd <= DEG; rd++)
        for (int32_t sd = 0; rd + sd <= DEG; sd++)
            for (int64_t i = 0; i < milnor_dim(A, rd); i++)
                for (int64_t j = 0; j < milnor_dim(A, sd); j++) {
                    ref_t st;
                    memset(&st, 0, sizeof st);
                    st.A = A;
                    int32_t r[16] = {0}, s[16] = {0};
                    st.p = milnor_get(A, rd, i, r, 16);
                    st.q = milnor_get(A, sd, j, s, 16);
                    for (int k = 0; k < st.p; k++)
                        st.r[k + 1] = r[k];
                    for (int k = 0; k < st.q; k++)
                        st.s[k + 1] = s[k];
                    int64_t n = milnor_dim(A, rd + sd);
                    memset(ref, 0, sizeof ref);
                    st.coef = ref;
                    ref_rec(&st, 1, 1);
                    pair_mul4(P, coef, rd, i, sd, j);
                    uint64_t mod2[8] = {0};
                    milnor_mul_add(A, mod2, 0, rd, i, sd, j);
                    for (int64_t b = 0; b < n; b++) {
                        ASSERT_EQ(coef[b], ref[b]);
                        ASSERT_EQ(coef[b] & 1u, (mod2[b >> 6] >> (b & 63)) & 1u);
                    }
                    checked++;
                }
    ASSERT(checked > 1000);
    pairalg_free(P);
    milnor_free(A);
}

/* The p-part's basis index in its degree. */
static int64_t idx_of(const milnor_t *A, const int32_t *r, int len)
{
    return milnor_index(A, r, len);
}

static void check_a_y(const milnor_t *A, const pairalg_t *P, const int32_t *r, int rl, int k,
                      int l, const int32_t *want, int wl)
{
    int32_t rd = milnor_pdegree(r, rl);
    int32_t od = rd + (1 << k) + (1 << l) - 2;
    uint64_t out[8] = {0}, exp[8] = {0};
    pair_a_y_add(P, out, 0, rd, idx_of(A, r, rl), k, l);
    if (wl >= 0) {
        int64_t w = idx_of(A, want, wl);
        exp[w >> 6] |= UINT64_C(1) << (w & 63);
    }
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(out[i], exp[i]);
    (void)od;
}

TEST(pair_a_y_published_values)
{
    milnor_t *A = milnor_new(40);
    pairalg_t *P = pairalg_new(A);
    check_a_y(A, P, (int32_t[]){1}, 1, 0, 1, (int32_t[]){2}, 1);
    check_a_y(A, P, (int32_t[]){1}, 1, 1, 2, NULL, -1);
    check_a_y(A, P, (int32_t[]){0, 1}, 2, 0, 1, (int32_t[]){1, 1}, 2);
    check_a_y(A, P, (int32_t[]){0, 2}, 2, 1, 3, (int32_t[]){0, 0, 2}, 3);
    check_a_y(A, P, (int32_t[]){1, 2}, 2, 0, 1, (int32_t[]){2, 2}, 2);
    pairalg_free(P);
    milnor_free(A);
}

TEST(pair_sq1_sq1)
{
    milnor_t *A = milnor_new(20);
    pairalg_t *P = pairalg_new(A);
    pair_elt_t e;
    pair_elt_init(&e, P, 2);
    pair_sigma_mul_add(P, &e, 1, 0, 1, 0);
    ASSERT_EQ(pair_elt_finish(&e), 0); /* Sq1 Sq1 = 0 in A */
    int64_t off[PAIR_MAX_SLOTS + 1];
    int8_t k[PAIR_MAX_SLOTS], l[PAIR_MAX_SLOTS];
    int n = pair_layout(P, 2, off, k, l);
    ASSERT_EQ(n, 2); /* T and Y_{0,1} */
    ASSERT_EQ(k[1], 0);
    ASSERT_EQ(l[1], 1);
    ASSERT_EQ(e.v[off[0]], 1u); /* 2 Sq(2) */
    ASSERT_EQ(e.v[off[1]], 1u); /* Y_{0,1} * 1 */
    /* A(Sq1, Sq1 Sq1) = Sq(2) + A(Sq1, Y_{0,1}) = Sq2 + Sq2 = 0 */
    uint64_t out[2] = {0};
    pair_a_mul_add(P, out, 0, 1, 0, &e);
    ASSERT_EQ(out[0], 0u);
    /* A(Sq2, Sq1 Sq1) = A(Sq2, 2 Sq2) + A(Sq2, Y_{0,1}) = Sq1 Sq2 + Sq(2) Sq(1)
     * (formula (2): i = 1, j = 0, Sq(e_1 + e_1) Sq(R - e_1)) = Sq(3) + Sq(3) + Sq(0,1),
     * evaluated by hand: Q_1 */
    uint64_t out2[2] = {0};
    pair_a_mul_add(P, out2, 0, 2, 0, &e);
    ASSERT_EQ(out2[0], UINT64_C(1) << milnor_index(A, (int32_t[]){0, 1}, 2));
    pair_elt_clear(&e);
    /* an element outside R_B is refused by finish */
    pair_elt_init(&e, P, 3);
    pair_sigma_mul_add(P, &e, 1, 0, 2, 0);
    ASSERT_EQ(pair_elt_finish(&e), SQ_E_INVAL);
    pair_elt_clear(&e);
    pairalg_free(P);
    milnor_free(A);
}

/* Adem relations lift to R_B: Sq^a Sq^b + sum of the Adem terms, summed
 * with sigma, has zero mod 2 part, and finish accepts it; the (2, 2)
 * relation Sq2 Sq2 = Sq3 Sq1 = Sq(1,1) checked with its products. */
TEST(pair_relations_in_kernel)
{
    milnor_t *A = milnor_new(30);
    pairalg_t *P = pairalg_new(A);
    for (int32_t D = 2; D <= 20; D++) {
        /* x = sum over pairs (r, s) with r s summing to zero mod 2:
         * sigma(Sq^1) sigma(Sq(D-1)) + sigma of the Milnor product terms. */
        for (int32_t a = 1; a < D; a++) {
            pair_elt_t e;
            pair_elt_init(&e, P, D);
            pair_sigma_mul_add(P, &e, a, 0, D - a, 0);
            uint64_t prod[8] = {0};
            milnor_mul_add(A, prod, 0, a, 0, D - a, 0);
            for (int64_t b = 0; b < milnor_dim(A, D); b++)
                if ((prod[b >> 6] >> (b & 63)) & 1u)
                    pair_sigma_mul_add(P, &e, D, b, 0, 0);
            ASSERT_EQ(pair_elt_finish(&e), 0);
            pair_elt_clear(&e);
        }
    }
    pairalg_free(P);
    milnor_free(A);
}

/* The vector forms against the basis ones: sigma(a) sigma(b) summed over
 * the pairs of set bits, and A(a, x) summed over a's set bits, on random
 * vectors (fixed seed) and every split of the degrees through 22. */
TEST(pair_vector_forms)
{
    milnor_t *A = milnor_new(40);
    pairalg_t *P = pairalg_new(A);
    sq_rand_t *rng = sq_test_rand();
    milnor_ws_t *W = milnor_ws_new();
    for (int32_t D = 2; D <= 22; D++)
        for (int32_t ad = 1; ad < D; ad++) {
            int32_t bd = D - ad;
            uint64_t a[8] = {0}, b[8] = {0};
            for (int64_t i = 0; i < milnor_dim(A, ad); i++)
                if (sq_rand_u64(rng) & 1u)
                    a[i >> 6] |= UINT64_C(1) << (i & 63);
            for (int64_t i = 0; i < milnor_dim(A, bd); i++)
                if (sq_rand_u64(rng) & 1u)
                    b[i >> 6] |= UINT64_C(1) << (i & 63);
            pair_elt_t e1, e2;
            pair_elt_init(&e1, P, D);
            pair_elt_init(&e2, P, D);
            for (int64_t i = 0; i < milnor_dim(A, ad); i++)
                for (int64_t j = 0; j < milnor_dim(A, bd); j++)
                    if (((a[i >> 6] >> (i & 63)) & 1u) && ((b[j >> 6] >> (j & 63)) & 1u))
                        pair_sigma_mul_add(P, &e1, ad, i, bd, j);
            pair_sigma_mul_vec_add(P, &e2, ad, a, bd, b);
            ASSERT_EQ(e1.nlimbs, e2.nlimbs);
            ASSERT(memcmp(e1.v, e2.v, (size_t)e1.nlimbs * sizeof *e1.v) == 0);
            ASSERT(memcmp(e1.ones, e2.ones, (size_t)e1.tlimbs * sizeof *e1.ones) == 0);
            /* A(c, -) on the element with its ones dropped (an element of R_B's shape) */
            sq_free(e1.ones);
            e1.ones = NULL;
            for (int32_t cd = 1; cd + D - 1 <= 40 && cd <= 6; cd++) {
                uint64_t c[4] = {0}, o1[64] = {0}, o2[64] = {0};
                for (int64_t i = 0; i < milnor_dim(A, cd); i++)
                    if (sq_rand_u64(rng) & 1u)
                        c[i >> 6] |= UINT64_C(1) << (i & 63);
                for (int64_t i = 0; i < milnor_dim(A, cd); i++)
                    if ((c[i >> 6] >> (i & 63)) & 1u)
                        pair_a_mul_add(P, o1, 0, cd, i, &e1);
                pair_aop_t op;
                pair_aop_init(P, &op, cd, c, D);
                int64_t off = 0;
                const pair_elt_t *ep = &e1;
                pair_aop_apply_many(P, &op, W, o2, &off, &ep, 1);
                pair_aop_clear(&op);
                ASSERT(memcmp(o1, o2, sizeof o1) == 0);
            }
            pair_elt_clear(&e1);
            pair_elt_clear(&e2);
        }
    milnor_ws_free(W);
    pairalg_free(P);
    milnor_free(A);
}

/* pair_sigma_mul_vec_many's sigma part by R-configurations (one set per
 * Sq(R) of a for the S's of all the b_j, docs/secondary.md) against the
 * walk pair by pair: random a and three b_j of different degrees (so the
 * column bounds come from several S's), every degree through 34. */
TEST(pair_configurations_many_blocks)
{
    milnor_t *A = milnor_new(40);
    pairalg_t *P = pairalg_new(A);
    sq_rand_t *rng = sq_test_rand();
    milnor_ws_t *W = milnor_ws_new();
    for (int32_t ad = 1; ad <= 20; ad++)
        for (int32_t b0 = 1; ad + b0 + 2 <= 34; b0 += 3) {
            int32_t bd[3] = {b0, b0 + 1, b0 + 2};
            uint64_t a[16] = {0}, b[3][16] = {{0}};
            for (int64_t i = 0; i < milnor_dim(A, ad); i++)
                if (sq_rand_u64(rng) & 1u)
                    a[i >> 6] |= UINT64_C(1) << (i & 63);
            for (int j = 0; j < 3; j++)
                for (int64_t i = 0; i < milnor_dim(A, bd[j]); i++)
                    if (sq_rand_u64(rng) & 1u)
                        b[j][i >> 6] |= UINT64_C(1) << (i & 63);
            pair_elt_t e[3], ref[3];
            pair_elt_t *ep[3] = {&e[0], &e[1], &e[2]};
            const uint64_t *bp[3] = {b[0], b[1], b[2]};
            for (int j = 0; j < 3; j++) {
                pair_elt_init(&e[j], P, ad + bd[j]);
                pair_elt_init(&ref[j], P, ad + bd[j]);
                for (int64_t x = 0; x < milnor_dim(A, ad); x++)
                    for (int64_t y = 0; y < milnor_dim(A, bd[j]); y++)
                        if (((a[x >> 6] >> (x & 63)) & 1u) && ((b[j][y >> 6] >> (y & 63)) & 1u))
                            pair_sigma_mul_add(P, &ref[j], ad, x, bd[j], y);
            }
            pair_sigma_mul_vec_many(P, W, ep, ad, a, bd, bp, 3);
            for (int j = 0; j < 3; j++) {
                ASSERT(memcmp(ref[j].v, e[j].v, (size_t)e[j].nlimbs * sizeof *e[j].v) == 0);
                ASSERT(memcmp(ref[j].ones, e[j].ones, (size_t)e[j].tlimbs * sizeof *e[j].ones) == 0);
                pair_elt_clear(&e[j]);
                pair_elt_clear(&ref[j]);
            }
        }
    milnor_ws_free(W);
    pairalg_free(P);
    milnor_free(A);
}

extern int pair_cfg_packed; /* src/algebra/pair_algebra.c */

/* pair_sigma_mul_vec_many(a, b_j) for the nb blocks bp, packed
 * (pair_cfg_packed = 1) and unpacked (0), each equal to ref[j]; frees ref. */
static void packed_both_ways(const pairalg_t *P, milnor_ws_t *W, int32_t ad, const uint64_t *a,
                             const int32_t *bd, const uint64_t *const *bp, int nb,
                             pair_elt_t *ref)
{
    enum { NBMAX = 8 };
    pair_elt_t e[2][NBMAX];
    pair_elt_t *ep[2][NBMAX];
    int keep = pair_cfg_packed;
    ASSERT(nb <= NBMAX);
    for (int m = 0; m < 2; m++) {
        for (int j = 0; j < nb; j++) {
            pair_elt_init(&e[m][j], P, ad + bd[j]);
            ep[m][j] = &e[m][j];
        }
        pair_cfg_packed = m;
        pair_sigma_mul_vec_many(P, W, ep[m], ad, a, bd, bp, nb);
        pair_cfg_packed = keep;
    }
    for (int j = 0; j < nb; j++) {
        for (int m = 0; m < 2; m++) {
            ASSERT(memcmp(ref[j].v, e[m][j].v, (size_t)ref[j].nlimbs * sizeof *ref[j].v) == 0);
            ASSERT(memcmp(ref[j].ones, e[m][j].ones, (size_t)ref[j].tlimbs * sizeof *ref[j].ones) ==
                   0);
            pair_elt_clear(&e[m][j]);
        }
        pair_elt_clear(&ref[j]);
    }
}

/* The sigma part's packed scan (cfgs_scan_pk: one subtraction for u, the
 * carries of D + u read from T ^ D ^ u, one parity for the sign, T ranked
 * packed) against the unpacked configurations (pair_cfg_packed = 0, the
 * reference, column by column) and both against the walk pair by pair:
 * sparse random a and five b_j in degrees up to 72 (several carries, long
 * R's and S's), and one pair beyond the packed layout's degree 511 (|R| +
 * the column bounds' degree > 511: the unpacked scan in both settings). */
TEST(pair_configurations_packed)
{
    milnor_t *A = milnor_new(600);
    pairalg_t *P = pairalg_new(A);
    sq_rand_t *rng = sq_test_rand();
    milnor_ws_t *W = milnor_ws_new();
    for (int32_t ad = 3; ad <= 40; ad += 3)
        for (int32_t b0 = 2; ad + b0 + 4 <= 72; b0 += 5) {
            enum { NB = 5 };
            int32_t bd[NB];
            uint64_t a[64] = {0}, b[NB][64] = {{0}};
            int64_t adim = milnor_dim(A, ad);
            for (int64_t i = 0; i < adim; i++)
                if (sq_rand_u64(rng) % 4 == 0 || adim < 4)
                    a[i >> 6] |= UINT64_C(1) << (i & 63);
            for (int j = 0; j < NB; j++) {
                bd[j] = b0 + j;
                int64_t bdim = milnor_dim(A, bd[j]);
                for (int64_t i = 0; i < bdim; i++)
                    if (sq_rand_u64(rng) % 3 == 0)
                        b[j][i >> 6] |= UINT64_C(1) << (i & 63);
            }
            pair_elt_t ref[NB];
            const uint64_t *bp[NB];
            for (int j = 0; j < NB; j++) {
                bp[j] = b[j];
                pair_elt_init(&ref[j], P, ad + bd[j]);
                for (int64_t x = 0; x < adim; x++)
                    for (int64_t y = 0; y < milnor_dim(A, bd[j]); y++)
                        if (((a[x >> 6] >> (x & 63)) & 1u) && ((b[j][y >> 6] >> (y & 63)) & 1u))
                            pair_sigma_mul_add(P, &ref[j], ad, x, bd[j], y);
            }
            packed_both_ways(P, W, ad, a, bd, bp, NB, ref);
        }
    /* beyond degree 511: Sq(0, 0, 0, 0, 0, 0, 0, 2) (degree 510) times the
     * four Sq(s_1) of degrees 2, 3, 4, 5 (column bound 5: 515 > 511) */
    {
        enum { NB = 4 };
        int32_t r[8] = {0, 0, 0, 0, 0, 0, 0, 2}, ad = 510, bd[NB];
        uint64_t *a = sq_calloc((size_t)milnor_dim(A, ad) / 64 + 1, sizeof *a), b[NB][1];
        int64_t ri = milnor_index(A, r, 8);
        a[ri >> 6] |= UINT64_C(1) << (ri & 63);
        pair_elt_t ref[NB];
        const uint64_t *bp[NB];
        for (int j = 0; j < NB; j++) {
            bd[j] = 2 + j;
            int32_t s1 = bd[j];
            int64_t si = milnor_index(A, &s1, 1);
            b[j][0] = UINT64_C(1) << si;
            bp[j] = b[j];
            pair_elt_init(&ref[j], P, ad + bd[j]);
            pair_sigma_mul_add(P, &ref[j], ad, ri, bd[j], si);
        }
        for (int j = 0; j < NB; j++)
            ASSERT(!pair_elt_is_zero(&ref[j]));
        packed_both_ways(P, W, ad, a, bd, bp, NB, ref);
        sq_free(a);
    }
    milnor_ws_free(W);
    pairalg_free(P);
    milnor_free(A);
}

/* Whether v[0 .. limbs) is zero. */
static int vec_is_zero(const uint64_t *v, int64_t limbs)
{
    for (int64_t i = 0; i < limbs; i++)
        if (v[i])
            return 0;
    return 1;
}

/* A batch (pair_batch_t) gathering the products of several calls, run once
 * grouped by Sq(R), against the basis forms summed call by call: the
 * composites' Y parts (pair_sigma_mul_vec_batch, sigma(a_i) sigma(b_ij) for
 * four a_i into shared elements, against pair_sigma_mul_add pair by pair)
 * and the intermediates (pair_aop_apply_batch, A(c_i, -) on those elements
 * for four c_i into one vector, each op cleared before the batch runs,
 * against pair_a_mul_add). */
TEST(pair_batch_many_calls)
{
    milnor_t *A = milnor_new(80);
    pairalg_t *P = pairalg_new(A);
    sq_rand_t *rng = sq_test_rand();
    milnor_ws_t *W = milnor_ws_new();
    for (int32_t D = 8; D <= 40; D += 4) {
        enum { NE = 3, NA = 4 };
        pair_elt_t e[NE], ref[NE];
        pair_elt_t *ep[NE];
        for (int j = 0; j < NE; j++) {
            pair_elt_init(&e[j], P, D + j);
            pair_elt_init(&ref[j], P, D + j);
            ep[j] = &e[j];
        }
        pair_batch_t *B = pair_batch_new();
        for (int i = 0; i < NA; i++) {
            int32_t ad = 1 + (int32_t)(sq_rand_u64(rng) % 6), bd[NE];
            uint64_t a[64] = {0}, b[NE][64] = {{0}};
            const uint64_t *bp[NE];
            for (int64_t x = 0; x < milnor_dim(A, ad); x++)
                if (sq_rand_u64(rng) & 1u)
                    a[x >> 6] |= UINT64_C(1) << (x & 63);
            for (int j = 0; j < NE; j++) {
                bd[j] = D + j - ad;
                bp[j] = b[j];
                for (int64_t y = 0; y < milnor_dim(A, bd[j]); y++)
                    if (sq_rand_u64(rng) % 3 == 0)
                        b[j][y >> 6] |= UINT64_C(1) << (y & 63);
                for (int64_t x = 0; x < milnor_dim(A, ad); x++)
                    for (int64_t y = 0; y < milnor_dim(A, bd[j]); y++)
                        if (((a[x >> 6] >> (x & 63)) & 1u) && ((b[j][y >> 6] >> (y & 63)) & 1u))
                            pair_sigma_mul_add(P, &ref[j], ad, x, bd[j], y);
            }
            pair_sigma_mul_vec_batch(P, B, W, ep, ad, a, bd, bp, NE);
        }
        pair_batch_run(P, B, W);
        for (int j = 0; j < NE; j++) {
            ASSERT(!pair_elt_is_zero(&ref[j]) && !vec_is_zero(ref[j].v + ref[j].tlimbs,
                                                              ref[j].nlimbs - ref[j].tlimbs));
            ASSERT(memcmp(ref[j].v, e[j].v, (size_t)e[j].nlimbs * sizeof *e[j].v) == 0);
            ASSERT(memcmp(ref[j].ones, e[j].ones, (size_t)e[j].tlimbs * sizeof *e[j].ones) == 0);
            /* an element of R_B's shape for A(c, -): its ones dropped */
            sq_free(e[j].ones);
            e[j].ones = NULL;
        }
        /* A(c_i, e_j) for every i into o2[i] at offset 0 (e_0), then e_1, e_2
         * one after another: one batch for all */
        enum { OL = 256 };
        uint64_t o1[NA][OL], o2[NA][OL];
        memset(o1, 0, sizeof o1);
        memset(o2, 0, sizeof o2);
        for (int i = 0; i < NA; i++) {
            int32_t cd = 1 + (int32_t)(sq_rand_u64(rng) % 6);
            uint64_t c[4] = {0};
            for (int64_t x = 0; x < milnor_dim(A, cd); x++)
                if (sq_rand_u64(rng) & 1u)
                    c[x >> 6] |= UINT64_C(1) << (x & 63);
            int64_t offs[NE], off = 0;
            const pair_elt_t *es[NE];
            for (int j = 0; j < NE; j++) {
                offs[j] = off;
                es[j] = &e[j];
                for (int64_t x = 0; x < milnor_dim(A, cd); x++)
                    if ((c[x >> 6] >> (x & 63)) & 1u)
                        pair_a_mul_add(P, o1[i], off, cd, x, &e[j]);
                off += milnor_dim(A, cd + e[j].deg - 1);
            }
            ASSERT(off <= 64 * OL);
            pair_aop_t op;
            pair_aop_init(P, &op, cd, c, 0);
            pair_aop_apply_batch(P, &op, B, W, o2[i], offs, es, NE);
            pair_aop_clear(&op);
        }
        pair_batch_run(P, B, W);
        ASSERT(memcmp(o1, o2, sizeof o1) == 0);
        int nz = 0;
        for (int i = 0; i < NA; i++)
            for (int l = 0; l < OL; l++)
                nz += o1[i][l] != 0;
        ASSERT(nz > 0); /* the intermediates are not all zero */
        pair_batch_free(B);
        for (int j = 0; j < NE; j++) {
            pair_elt_clear(&e[j]);
            pair_elt_clear(&ref[j]);
        }
    }
    milnor_ws_free(W);
    pairalg_free(P);
    milnor_free(A);
}
