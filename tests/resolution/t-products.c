/*
 * t-products.c -- products on Ext of the sphere, checked against the
 * mathematics (relations known since Adams and May, the h_0-towers of the
 * published chart, graded commutativity), not against adams itself:
 *   h_i h_{i+1} = 0,  h_i h_{i+2}^2 = 0,  h_i^2 h_{i+2} = h_{i+1}^3,  h_1^4 = 0,
 *   the h_0-towers of the chart on h_i: h_0 h_1 = 0, h_0^2 h_2 != 0 = h_0^3 h_2,
 *   h_0^3 h_3 != 0 = h_0^4 h_3, h_0^7 h_4 != 0 = h_0^8 h_4, h_0^k h_5 != 0
 *   as far as the region reaches (k <= 11), and h_0^k != 0,
 *   x . y = y . x, and the product by the class h_i (resol_product) equals
 *   the filtration-one formula (resol_filt1_product).
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

/* A uint64_t array (not a pointer) as a class vector of all its bits. */
#define V(a) fvec_view_limbs((a), (int64_t)(sizeof(a) * 8))
/* 64 limbs at v as a class vector. */
#define V64(v) fvec_view_limbs((v), 64 * 64)

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
        memset(tmp, 0, sizeof tmp);
        ASSERT_EQ(resol_filt1_product(R, is[k], *s, *t, V64(x), V(tmp)), 0);
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
                    ASSERT_EQ(resol_filt1_product(R, i, s, s + n, V(x), V(a)), 0);
                    ASSERT_EQ(resol_product(R, R, s, s + n, V(x), 1, 1 << i, V(hi), V(b)), 0);
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
                    ASSERT_EQ(resol_product(R, R, s1, s1 + n1, V(u), s2, s2 + n2, V(v), V(a)), 0);
                    ASSERT_EQ(resol_product(R, R, s2, s2 + n2, V(v), s1, s1 + n1, V(u), V(b)), 0);
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
    char *want = sq_test_data_body(data);
    char *body = want;
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
    ASSERT_EQ(resol_massey(R, R, 1, ta, V(a), 1, tb, V(b), 1, tc, V(c), V(out)), 0);
    /* h_{j1} h_{j2} as a class */
    uint64_t one[1] = {1};
    ASSERT_EQ(resol_product(R, R, 1, 1 << j1, V(one), 1, 1 << j2, V(one), V(want)), 0);
    ASSERT(!is_zero(want, resol_ext_dim(R, 2, ta + tb + tc - 2)));
    ASSERT(memcmp(out, want, sizeof out) == 0);
    fmat_t ind;
    ASSERT_EQ(resol_massey_indeterminacy(R, R, 1, ta, V(a), 1, tb, 1, tc, V(c), &ind), 0);
    ASSERT_EQ(fmat_rows(&ind), 0);
    fmat_clear(&ind);
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
        ASSERT_EQ(resol_massey(R, R, 1, 1, V(one), 1, 1, V(one), 1, 2, V(one), V(out)),
                  SQ_E_INVAL);
        resol_free(R);
        fdmod_free(M);
    }
}

/* ---- Class vectors as wide as Ext (issue 19) ------------------------------ */

/* The bits of the k-th "[...]" vector of line (0 or 1 each) into bits[]
 * (room for max); returns their number. */
static int64_t vector_bits(const char *line, int k, char *bits, int64_t max)
{
    const char *p = line;
    for (int i = 0; i <= k; i++) {
        p = strchr(p, '[');
        ASSERT(p != NULL);
        p++;
    }
    int64_t n = 0;
    for (; *p && *p != ']'; p++)
        if (*p == '0' || *p == '1') {
            ASSERT(n < max);
            bits[n++] = *p;
        }
    return n;
}

/* A module of 5000 cells in degree 0 (no action: 5000 copies of F_2, so
 * Ext is 5000 copies of Ext(S_2) and x_(n, s, i) lives on cell i).  The
 * program kept class vectors in 64 words (4096 bits): --class 0,0,4999
 * wrote past them (ASan: stack-buffer-overflow in resolve_class) and the
 * release build printed garbage with exit 0.  Now h_0 x_(0, 0, 4999) is
 * x_(0, 1, 4999), and <h_0, h_1, h_0 x_4999> = h_1^2 x_4999 (May), with
 * zero indeterminacy. */
TEST(products_wide_classes_cli)
{
    char dir[] = "/tmp/adams-t-products-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/wide.json", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fprintf(f, "{\"p\": 2, \"type\": \"finite dimensional module\", \"gens\": {");
    for (int i = 0; i < 5000; i++)
        fprintf(f, "%s\"x%d\": 0", i ? ", " : "", i);
    fprintf(f, "}, \"actions\": []}\n");
    ASSERT_EQ(fclose(f), 0);

    enum { W = 5000 };
    static char bits[W + 1];
    char args[512], *out, *err;
    snprintf(args, sizeof args, "product '%s' --class 0,0,4999 --by 0,1,0 --quiet", path);
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
    ASSERT(strncmp(out, "x_(0, 0) [", 10) == 0);
    ASSERT(strstr(out, "] at (0, 1)\n") != NULL);
    for (int k = 0; k < 3; k++) {
        int64_t n = vector_bits(out, k, bits, W);
        ASSERT_EQ(n, k == 1 ? 1 : W); /* x, then h_0 = y_(0, 1) [1], then the product */
        for (int64_t i = 0; i < n; i++)
            ASSERT_EQ(bits[i], (k == 1 || i == W - 1) ? '1' : '0');
    }
    sq_free(out);
    sq_free(err);

    /* --max-memory: the estimate models this module's run at about 57 GB (a
     * third of it is refused when less memory is available); it needs a
     * few MB, so the test does not depend on the machine's free memory. */
    snprintf(args, sizeof args,
             "massey '%s' --a 0,1,0 --b 1,1,0 --c 0,1,4999 --quiet --max-memory 1T", path);
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
    ASSERT(strncmp(out, "<a, b, c> = [", 13) == 0);
    ASSERT(strstr(out, "] at (2, 2)\nindeterminacy: 0\n") != NULL);
    ASSERT_EQ(vector_bits(out, 0, bits, W), W);
    for (int64_t i = 0; i < W; i++)
        ASSERT_EQ(bits[i], i == W - 1 ? '1' : '0');
    sq_free(out);
    sq_free(err);

    /* A vector longer than Ext there is refused, not read past. */
    snprintf(args, sizeof args, "product '%s' --class '0,0,[1,0]' --by 0,1,0 --quiet", path);
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 2);
    ASSERT(strstr(err, "the vector has 2 entries but Ext of wide at (0, 0) has dimension 5000"));
    sq_free(out);
    sq_free(err);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    ASSERT_EQ(system(args), 0);
}

/* The library takes the size of its output and refuses one too small for
 * the product (here Ext^{1,2} of S_2 has one class: 1 limb; 0 given). */
TEST(products_output_size)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 4, 3, &M);
    uint64_t one[1] = {1}, out[2] = {0};
    ASSERT_EQ(resol_product(R, R, 1, 1, V(one), 0, 0, V(one), fvec_view_limbs(out, 0)),
              SQ_E_RANGE);
    ASSERT_EQ(out[0], 0);
    ASSERT_EQ(resol_product(R, R, 1, 1, V(one), 0, 0, V(one), fvec_view_limbs(out, 1)), 0);
    ASSERT_EQ(out[0], 1);
    ASSERT_EQ(resol_massey(R, R, 1, 1, V(one), 1, 2, V(one), 1, 1, V(one),
                           fvec_view_limbs(out, 0)),
              SQ_E_RANGE);
    /* A class vector shorter than Ext, or of another prime: refused. */
    uint8_t three[1] = {1};
    ASSERT_EQ(resol_product(R, R, 1, 1, fvec_view_limbs(one, 0), 0, 0, V(one), V(out)),
              SQ_E_INVAL);
    ASSERT_EQ(resol_product(R, R, 1, 1, fvec_view_bytes(three, 1, 3), 0, 0, V(one), V(out)),
              SQ_E_INVAL);
    resol_free(R);
    fdmod_free(M);
}

/* A module below degree 0 (issue 20 row 6): <h_0, h_1, h_0 i> on S_2[-2],
 * i the bottom class, aborted in qis_lift (the quasi-inverses of the
 * sphere were sized by the total degree ta + tb + tc, which tc < 0 makes
 * smaller than the degrees the lift reaches).  It is h_1^2 i at (0, 2). */
TEST(massey_shifted_down)
{
    fdmod_t *S = fdmod_sphere();
    fdmod_t *M = fdmod_new_shifted(S, -2, "S_2[-2]");
    resol_t *R = resol_new(M, 3, 1);
    resol_run(R, RESOL_CLASSICAL);
    resol_t *RS = resol_new(S, 3, 4);
    resol_run(RS, RESOL_CLASSICAL);
    uint64_t one[1] = {1}, out[2] = {0};
    /* a = h_0 (1, 1), b = h_1 (1, 2), c = h_0 i at (n, s) = (-2, 1): t = -1. */
    ASSERT_EQ(resol_massey(R, RS, 1, 1, V(one), 1, 2, V(one), 1, -1, V(one), V(out)), 0);
    ASSERT_EQ(resol_ext_dim(R, 2, 0), 1);
    ASSERT_EQ(out[0], 1);
    fmat_t ind;
    ASSERT_EQ(resol_massey_indeterminacy(R, RS, 1, 1, V(one), 1, 2, 1, -1, V(one), &ind), 0);
    ASSERT_EQ(fmat_rows(&ind), 0);
    fmat_clear(&ind);
    /* Through the program, as reported. */
    char *o, *e;
    ASSERT_EQ(sq_test_run_adams("massey 'S_2[-2]' --a 0,1,0 --b 1,1,0 --c -2,1,0 --quiet", &o, &e),
              0);
    ASSERT_STR_EQ(o, "<a, b, c> = [1] at (0, 2)\nindeterminacy: 0\n");
    sq_free(o);
    sq_free(e);
    resol_free(RS);
    resol_free(R);
    fdmod_free(M);
    fdmod_free(S);
}
