/*
 * t-secondary.c -- the Adams d_2 (resol_secondary.h).
 *
 * Oracles from outside adams: the peer's published d_2 of the sphere and of C2
 * (d_2 h_4 = h_0 h_3^2, d_2 e_0 = h_1^2 d_0, d_2 f_0 = h_0^2 e_0 among them), restated
 * by names in tests/data/d2-sphere-literature.txt with the products of those classes
 * through stem 60 (Leibniz: the Adams spectral sequence of the sphere is
 * multiplicative; the published tables were not at hand, see that file);
 * d_2 d_2 = 0; the Leibniz rule d_2(h_i x) = h_i d_2(x) + d_2(h_i) x for i <= 4.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "fdmap.h"
#include "resol_map.h"
#include "resol_products.h"
#include "resol_secondary.h"
#include "sq_modspec.h"
#include "sq_secondary.h"
#include "test_modules.h"
#include "sq_test.h"

static resol_t *sphere(resol_algo_t algo, int32_t max_n, int32_t max_s, fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, max_s, max_n);
    resol_run(R, algo);
    return R;
}

static uint32_t d2_entry(const resol_sec_t *X, int32_t n, int32_t s, int64_t i, int64_t j)
{
    fmat_t m;
    ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
    uint32_t v = fmat_get(&m, i, j);
    fmat_clear(&m);
    return v;
}

TEST(secondary_h4_e0_f0)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 20, 8, &M);
    resol_sec_t *X;
    char err[256];
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);
    ASSERT_EQ(resol_ext_dim(R, 3, 14), 1);
    ASSERT_EQ(d2_entry(X, 15, 1, 0, 0), 1); /* d_2 h_4 = h_0 h_3^2 */
    ASSERT_EQ(d2_entry(X, 17, 4, 0, 0), 1); /* d_2 e_0 = h_1^2 d_0 */
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

/* The peer's published lines (tests/data/secondary-*.txt, its classical
 * engine) through (30, 7): the same text from the classical engine. */
static void peer_lines(const char *module, const char *data, resol_algo_t algo)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, module);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *R = resol_new(M, 7, 30);
    resol_run(R, algo);
    resol_sec_t *X;
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(sq_d2_write(f, R, X, 30, 7), 0);
    fclose(f);
    char *want = sq_test_data_body(data);
    char *body = want;
    ASSERT_STR_EQ(buf, body);
    free(buf);
    sq_free(want);
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

TEST(secondary_peer_lines)
{
    peer_lines("S_2", "secondary-S_2.txt", RESOL_CLASSICAL);
    peer_lines("C2", "secondary-C2.txt", RESOL_CLASSICAL);
    /* every target there is one-dimensional: Nassau's basis gives the same lines
     * (the peer's secondary-C2-nassau is the same text as secondary-C2) */
    peer_lines("S_2", "secondary-S_2.txt", RESOL_NASSAU);
    peer_lines("C2", "secondary-C2.txt", RESOL_NASSAU);
}

/* ---- Classes, products and d_2 on vectors ---------------------------------------- */

typedef struct {
    int32_t n, s;
    fvec_t v;
} cls_t;

static cls_t cls_zero(const resol_t *R, int32_t n, int32_t s)
{
    cls_t c = {n, s, {0}};
    int64_t d = resol_ext_dim(R, s, n);
    fvec_init(&c.v, d > 0 ? d : 0, 2);
    return c;
}

/* x y in Ext of the sphere (R resolves S_2). */
static cls_t cls_mul(const resol_t *R, cls_t x, cls_t y)
{
    cls_t z = cls_zero(R, x.n + y.n, x.s + y.s);
    if (z.v.len > 0 && x.v.len > 0 && y.v.len > 0)
        ASSERT_EQ(resol_product(R, R, x.s, x.n + x.s, x.v, y.s, y.n + y.s, y.v, z.v), 0);
    return z;
}

/* d_2 x at (n - 1, s + 2). */
static cls_t cls_d2(const resol_t *R, const resol_sec_t *X, cls_t x)
{
    cls_t z = cls_zero(R, x.n - 1, x.s + 2);
    fmat_t m;
    ASSERT_EQ(resol_sec_d2(X, x.s, x.n, &m), 0);
    for (int64_t i = 0; i < fmat_rows(&m); i++)
        if (fvec_get(x.v, i))
            for (int64_t j = 0; j < fmat_cols(&m); j++)
                if (fmat_get(&m, i, j))
                    fvec_add_entry(z.v, j, 1);
    fmat_clear(&m);
    return z;
}

/* One factor: h0..h5 or [n,s] (Ext one-dimensional there). */
static cls_t cls_factor(const resol_t *R, const char *w)
{
    int n, s;
    if (w[0] == 'h') {
        int i = atoi(w + 1);
        cls_t c = cls_zero(R, (1 << i) - 1, 1);
        ASSERT_EQ(c.v.len, 1);
        fvec_set(c.v, 0, 1);
        return c;
    }
    ASSERT(sscanf(w, "[%d,%d]", &n, &s) == 2);
    cls_t c = cls_zero(R, n, s);
    if (c.v.len != 1)
        sq_test_fail(__FILE__, __LINE__, "[%d,%d] is not one-dimensional (%lld)", n, s,
                     (long long)c.v.len);
    fvec_set(c.v, 0, 1);
    return c;
}

/* A product of factors separated by spaces (the words of line from *pos). */
static cls_t cls_parse(const resol_t *R, char **words, int nw)
{
    cls_t x = cls_factor(R, words[0]);
    for (int i = 1; i < nw; i++) {
        cls_t y = cls_factor(R, words[i]), z = cls_mul(R, x, y);
        fvec_clear(&x.v);
        fvec_clear(&y.v);
        x = z;
    }
    return x;
}

/* The rank of the rows of m. */
static int64_t rank_of(fmat_t *m)
{
    return fmat_rank(m);
}

/* "leibniz X ; Y": x y != 0 and d_2(x y) = d_2(x) y + x d_2(y) (the Adams spectral
 * sequence of the sphere is multiplicative), with d_2 x and d_2 y those that the
 * other lines of the file fix; what (claim) names the line in a failure. Returns
 * whether d_2(x y) != 0. */
static int check_leibniz(const resol_t *R, const resol_sec_t *X, char **w, int nw,
                          const char *what)
{
    int semi = -1;
    for (int i = 1; i < nw; i++)
        if (strcmp(w[i], ";") == 0)
            semi = i;
    if (semi < 2 || semi + 1 >= nw)
        sq_test_fail(__FILE__, __LINE__, "bad leibniz line: %s", what);
    cls_t x = cls_parse(R, w + 1, semi - 1), y = cls_parse(R, w + semi + 1, nw - semi - 1);
    cls_t xy = cls_mul(R, x, y);
    if (fvec_is_zero(xy.v))
        sq_test_fail(__FILE__, __LINE__, "leibniz %s: the product is zero", what);
    if (!resol_sec_has(X, xy.s, xy.n))
        sq_test_fail(__FILE__, __LINE__, "leibniz %s: d_2 out of range", what);
    cls_t lhs = cls_d2(R, X, xy), dx = cls_d2(R, X, x), dy = cls_d2(R, X, y);
    cls_t a = cls_mul(R, dx, y), b = cls_mul(R, x, dy);
    fvec_addmul(a.v, b.v, 1);
    if (!fvec_equal(lhs.v, a.v))
        sq_test_fail(__FILE__, __LINE__, "leibniz %s: d_2(x y) != d_2(x) y + x d_2(y)", what);
    int nonzero = !fvec_is_zero(lhs.v);
    cls_t *all[] = {&x, &y, &xy, &lhs, &dx, &dy, &a, &b};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        fvec_clear(&all[i]->v);
    return nonzero;
}

/* One line of d2-sphere-literature.txt; *leib_nonzero counts the leibniz lines whose
 * d_2(x y) is nonzero. */
static void check_claim(const resol_t *R, const resol_sec_t *X, char *line, int *leib_nonzero)
{
    char what[256];
    snprintf(what, sizeof what, "%s", line);
    char *w[16];
    int nw = 0;
    for (char *t = strtok(line, " \t\n"); t && nw < 16; t = strtok(NULL, " \t\n"))
        w[nw++] = t;
    if (nw == 0)
        return;
    if (strcmp(w[0], "leibniz") == 0) {
        *leib_nonzero += check_leibniz(R, X, w, nw, what);
        return;
    }
    int eq = -1, in = -1;
    for (int i = 0; i < nw; i++) {
        if (strcmp(w[i], "=") == 0)
            eq = i;
        if (strcmp(w[i], "in") == 0)
            in = i;
    }
    if (strcmp(w[0], "image") == 0) {
        int n, s;
        ASSERT(sscanf(w[1], "[%d,%d]", &n, &s) == 2);
        fmat_t m;
        ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
        if (strcmp(w[3], "0") == 0) {
            ASSERT_EQ(rank_of(&m), 0);
        } else {
            cls_t t = cls_parse(R, w + 3, nw - 3);
            ASSERT(!fvec_is_zero(t.v));
            ASSERT_EQ(rank_of(&m), 1);
            fmat_t m2;
            fmat_init(&m2, fmat_rows(&m) + 1, fmat_cols(&m), 2);
            for (int64_t i = 0; i < fmat_rows(&m); i++)
                for (int64_t j = 0; j < fmat_cols(&m); j++)
                    fmat_set(&m2, i, j, fmat_get(&m, i, j));
            for (int64_t j = 0; j < fmat_cols(&m); j++)
                fmat_set(&m2, fmat_rows(&m), j, fvec_get(t.v, j));
            ASSERT_EQ(rank_of(&m2), 1);
            fmat_clear(&m2);
            fvec_clear(&t.v);
        }
        fmat_clear(&m);
        return;
    }
    if (in > 0) { /* SOURCE in h0 [n,s] */
        cls_t x = cls_parse(R, w, in), d = cls_d2(R, X, x);
        ASSERT(!fvec_is_zero(d.v));
        int n, s;
        ASSERT(sscanf(w[in + 2], "[%d,%d]", &n, &s) == 2);
        fmat_t h;
        ASSERT_EQ(resol_filt1_matrix(R, 0, s, n + s, &h), 0); /* rows: targets */
        int64_t rows = fmat_cols(&h), cols = fmat_rows(&h);
        fmat_t m;
        fmat_init(&m, rows + 1, cols, 2);
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                fmat_set(&m, i, j, fmat_get(&h, j, i));
        fmat_t m0;
        fmat_init_set(&m0, &m);
        for (int64_t j = 0; j < cols; j++)
            fmat_set(&m, rows, j, fvec_get(d.v, j));
        ASSERT_EQ(rank_of(&m), rank_of(&m0));
        fmat_clear(&m);
        fmat_clear(&m0);
        fmat_clear(&h);
        fvec_clear(&x.v);
        fvec_clear(&d.v);
        return;
    }
    ASSERT(eq > 0);
    cls_t x = cls_parse(R, w, eq), d = cls_d2(R, X, x);
    if (strcmp(w[eq + 1], "0") == 0)
        ASSERT(fvec_is_zero(d.v));
    else {
        cls_t t = cls_parse(R, w + eq + 1, nw - eq - 1);
        ASSERT(!fvec_is_zero(t.v));
        ASSERT(fvec_equal(d.v, t.v));
        fvec_clear(&t.v);
    }
    fvec_clear(&x.v);
    fvec_clear(&d.v);
}

TEST(secondary_sphere_literature_slow) /* (61, 15): about 90 s under ASan */
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 61, 15, &M);
    resol_sec_t *X;
    char err[256];
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);
    char *text = sq_test_slurp(sq_test_data_path("d2-sphere-literature.txt"));
    int claims = 0, leib_nonzero = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (*line && *line != '#') {
            check_claim(R, X, line, &leib_nonzero);
            claims++;
        }
        line = nl ? nl + 1 : NULL;
    }
    ASSERT(claims >= 40);
    ASSERT(leib_nonzero >= 1); /* d_2(h_1 e_0) = h_1^3 d_0; the others beyond the
                                * peer's range are zero: checks that d_2 vanishes there */
    sq_free(text);
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

/* d_2 d_2 = 0, and the Leibniz rule d_2(y x) = d_2(y) x + y d_2(x) for y = h_0 .. h_4
 * (d_2 h_i = 0 for i <= 3, d_2 h_4 = h_0 h_3^2), on every basis class of the region,
 * on both engines and 1 and 2 threads (the same matrices). */
static void d2_relations(resol_algo_t algo, int threads, int32_t N, int32_t S)
{
    fdmod_t *M;
    resol_t *R = sphere(algo, N, S, &M);
    resol_sec_t *X;
    char err[256];
    sq_pool_t *pool = threads > 1 ? sq_pool_new(threads) : NULL;
    ASSERT_EQ(resol_sec_new(&X, R, pool, NULL, NULL, err, sizeof err), 0);
    int64_t checked = 0, nonzero = 0;
    for (int32_t n = 0; n <= N; n++)
        for (int32_t s = 1; s <= S; s++) {
            int64_t dim = resol_ext_dim(R, s, n);
            if (dim <= 0 || !resol_sec_has(X, s, n))
                continue;
            for (int64_t i = 0; i < dim; i++) {
                cls_t x = cls_zero(R, n, s);
                fvec_set(x.v, i, 1);
                cls_t dx = cls_d2(R, X, x);
                nonzero += !fvec_is_zero(dx.v);
                if (resol_sec_has(X, s + 2, n - 1)) {
                    cls_t ddx = cls_d2(R, X, dx);
                    ASSERT(fvec_is_zero(ddx.v));
                    fvec_clear(&ddx.v);
                }
                for (int k = 0; k <= 4; k++) {
                    cls_t y = cls_factor(R, k == 0 ? "h0" : k == 1 ? "h1" : k == 2 ? "h2"
                                                   : k == 3 ? "h3" : "h4");
                    if (!resol_sec_has(X, s + 1, n + y.n)) {
                        fvec_clear(&y.v);
                        continue;
                    }
                    cls_t yx = cls_mul(R, y, x), lhs = cls_d2(R, X, yx);
                    cls_t rhs = cls_mul(R, y, dx), dy = cls_d2(R, X, y);
                    cls_t t = cls_mul(R, dy, x);
                    fvec_addmul(rhs.v, t.v, 1);
                    ASSERT(fvec_equal(lhs.v, rhs.v));
                    checked++;
                    fvec_clear(&y.v);
                    fvec_clear(&yx.v);
                    fvec_clear(&lhs.v);
                    fvec_clear(&rhs.v);
                    fvec_clear(&dy.v);
                    fvec_clear(&t.v);
                }
                fvec_clear(&x.v);
                fvec_clear(&dx.v);
            }
        }
    ASSERT(checked > 100);
    ASSERT(nonzero > 5);
    resol_sec_free(X);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
}

TEST(secondary_d2d2_leibniz)
{
    d2_relations(RESOL_CLASSICAL, 1, 32, 12);
    d2_relations(RESOL_NASSAU, 2, 24, 10);
}


/* Fails unless X1 and X2 give the same d_2 (or the same refusal) in every
 * cell through (40, 14), with more than 300 cells computed. */
static void same_d2_n40_s14(resol_sec_t *X1, resol_sec_t *X2)
{
    int64_t cells = 0;
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= 14; s++) {
            fmat_t a, b;
            int ra = resol_sec_d2(X1, s, n, &a), rb = resol_sec_d2(X2, s, n, &b);
            ASSERT_EQ(ra, rb);
            if (ra == 0) {
                ASSERT(fmat_equal(&a, &b));
                cells++;
            }
            fmat_clear(&a);
            fmat_clear(&b);
        }
    ASSERT(cells > 300);
}
/* S_2 through (40, 14) lifted twice, on one thread after set(0) and on two
 * after set(1), set(-1) restoring what set(0) found (set NULL: the same code
 * both times); fails unless both lift and give the same d_2 everywhere. */
static void d2_two_ways(void (*set)(int mode))
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_NASSAU, 40, 14, &M);
    resol_sec_t *X1, *X2;
    char err[256];
    sq_pool_t *pool = sq_pool_new(2);
    if (set)
        set(0);
    int r1 = resol_sec_new(&X1, R, NULL, NULL, NULL, err, sizeof err);
    if (set)
        set(1);
    int r2 = resol_sec_new(&X2, R, pool, NULL, NULL, err, sizeof err);
    if (set)
        set(-1);
    ASSERT_EQ(r1, 0);
    ASSERT_EQ(r2, 0);
    same_d2_n40_s14(X1, X2);
    resol_sec_free(X1);
    resol_sec_free(X2);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
}

/* resol_sec_row_work (the progress line's model) against its definition
 * summed degree by degree instead of generator by generator: rows 3 .. 14
 * of S_2 through (40, 14) positive, the same values, 0 outside 3 .. max_s;
 * and the rows' shape at (40, 14) as the measured ones at larger stems:
 * rising from row 3 to a peak, then falling. */
TEST(secondary_row_work)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_NASSAU, 40, 14, &M);
    ASSERT_EQ(resol_sec_row_work(R, 2), 0);
    ASSERT_EQ(resol_sec_row_work(R, resol_max_s(R) + 1), 0);
    double w[15] = {0};
    for (int32_t s = 3; s <= resol_max_s(R); s++) {
        int32_t a = fmod_gens_through(resol_free_module(R, s)), b = fmod_gens_through(resol_free_module(R, s - 2)) + 1;
        int32_t e = a < b ? a : b;
        double want = 0;
        for (int32_t t = 0; t <= e; t++) {
            double d1 = (double)fmod_dim(resol_free_module(R, s - 1), t), d2 = (double)fmod_dim(resol_free_module(R, s - 2), t);
            want += (double)fmod_num_gens(resol_free_module(R, s), t) * d1 * d1;
            if (t <= e - 1)
                want += (double)fmod_num_gens(resol_free_module(R, s - 1), t) * d2 * d2;
        }
        w[s] = resol_sec_row_work(R, s);
        ASSERT(w[s] > 0);
        ASSERT(w[s] == want);
    }
    ASSERT(w[4] > w[3] && w[14] < w[8]);
    resol_free(R);
    fdmod_free(M);
}

/* The d_2 matrices do not depend on the thread count: 1 and 2 threads, every
 * bidegree of S_2 through (40, 14), bit for bit. */
TEST(secondary_threads)
{
    d2_two_ways(NULL);
}

/* The lifts in two passes (every [D^T | v^T] solved on D's independent
 * rows alone, as the large ones are) give the same d_2 as the lifts reduced
 * whole: the same preimages, the solution with zero free variables. */
extern double resol_sec_one_pass_bits; /* src/resolution/internal.h */

/* mode 0: the default; 1: every lift in two passes; -1: the default back. */
static void two_pass_set(int mode)
{
    static double keep;
    if (mode == 0)
        keep = resol_sec_one_pass_bits;
    resol_sec_one_pass_bits = mode == 1 ? 0 : keep;
}

TEST(secondary_two_pass)
{
    d2_two_ways(two_pass_set);
}

/* The lifts through Nassau's blocks (the triangular solve by signatures,
 * the fast path at large stems) give the same d_2 as the lifts that reduce
 * [D^T | v^T] (the slow reference), and are taken: every lift of a Nassau
 * run above the trivial subalgebra, none falling back. */
extern int resol_sec_nassau_lift; /* src/resolution/resol_secondary.c */
extern _Atomic int64_t resol_sec_nassau_done, resol_sec_nassau_fellback;

/* mode 0: the reference lifts; 1: Nassau's blocks (the reference run took
 * none of them); -1: the setting back, more than 100 of Nassau's lifts
 * taken by the second run and none fallen back. */
static void nassau_lift_set(int mode)
{
    static int keep;
    static int64_t d0, f0;
    if (mode == 0) {
        keep = resol_sec_nassau_lift;
        d0 = atomic_load(&resol_sec_nassau_done);
        f0 = atomic_load(&resol_sec_nassau_fellback);
        resol_sec_nassau_lift = 0;
    } else if (mode == 1) {
        ASSERT_EQ(atomic_load(&resol_sec_nassau_done), d0);
        resol_sec_nassau_lift = 1;
    } else {
        resol_sec_nassau_lift = keep;
        ASSERT(atomic_load(&resol_sec_nassau_done) - d0 > 100);
        ASSERT_EQ(atomic_load(&resol_sec_nassau_fellback), f0);
    }
}

TEST(secondary_nassau_lift)
{
    d2_two_ways(nassau_lift_set);
}

/* h_{s-1}(d g) gathered into the intermediates' batch of products (grouped
 * by Sq(R) with A(a, -)'s, the fast path) against resol_cmap_apply (the
 * reference, block by block): the same d_2 in every cell through (40, 14),
 * one thread and two. */
extern int resol_sec_batch_hom; /* src/resolution/resol_secondary.c */

/* mode 0: the reference (block by block); 1: the batch; -1: the setting back. */
static void batch_hom_set(int mode)
{
    static int keep;
    if (mode == 0)
        keep = resol_sec_batch_hom;
    resol_sec_batch_hom = mode == 0 ? 0 : mode == 1 ? 1 : keep;
}

TEST(secondary_batch_homotopy)
{
    d2_two_ways(batch_hom_set);
}

/* What the d_2 is not computed for, refused with a reason: a module that
 * fails the peer's condition on Ext^2 and Ext^3 (cells 0, 2, 3, 10, no
 * operations: h_1^2 in Ext^{2,4} meets the cell 3, h_0^3 in Ext^{3,3} the
 * cell 2), the Joker (it meets the condition through Ext^3, but the
 * homotopy at s = 3 with h_2 = 0 has no solution, as in the peer), the
 * sphere at p = 3. */
TEST(secondary_refusals)
{
    char err[512];
    resol_sec_t *X = NULL;
    static const int deg[] = {0, 2, 3, 10};
    fdmod_t *M = test_module("cells", deg, 4, NULL, 0);
    resol_t *R = resol_new(M, 4, 12);
    resol_run(R, RESOL_CLASSICAL);
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(X == NULL);
    ASSERT(strstr(err, "Ext^{2,t+1} = 0") != NULL);
    ASSERT(strstr(err, "M_3 and Ext^{2,4}") != NULL);
    resol_free(R);
    fdmod_free(M);

    M = test_module_Joker();
    R = resol_new(M, 6, 20);
    resol_run(R, RESOL_CLASSICAL);
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "does not lift") != NULL);
    resol_free(R);
    fdmod_free(M);

    M = fdmod_sphere_p(3);
    R = resol_new(M, 4, 10);
    resol_run(R, RESOL_CLASSICAL);
    ASSERT_EQ(resol_sec_check(R, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "p = 2 only") != NULL);
    resol_free(R);
    fdmod_free(M);
}

/* The E_3 page: known values (Isaksen's Stable stems, Figure 1 / the
 * differentials above: h_3^2 and h_0 h_4 survive to E_3, h_4 and
 * h_0 h_3^2 do not; h_4^2 survives, h_5 does not; both classes of
 * (38, 4) survive), and everywhere dim E_3 = dim E_2 - rank d_2 out -
 * rank d_2 in, with representatives that are cycles and coordinates that
 * give them back. */
TEST(secondary_e3)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_NASSAU, 41, 16, &M);
    resol_sec_t *X;
    char err[256];
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);
    static const int32_t known[][3] = {{14, 2, 1}, {14, 3, 0}, {15, 1, 0}, {15, 2, 1},
                                       {17, 4, 0}, {16, 6, 0}, {30, 2, 1}, {31, 1, 0},
                                       {38, 4, 2}, {0, 5, 1}};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        ASSERT_EQ(resol_sec_e3_dim(X, known[i][1], known[i][0]), known[i][2]);
    int64_t cells = 0;
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= 14; s++) {
            int64_t e2 = resol_ext_dim(R, s, n), e3 = resol_sec_e3_dim(X, s, n);
            ASSERT(e3 >= 0);
            int64_t out = 0, in = 0;
            fmat_t m;
            if (e2 > 0 && resol_ext_dim(R, s + 2, n - 1) > 0) {
                ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
                out = fmat_rank(&m);
                fmat_clear(&m);
            }
            if (s >= 2 && e2 > 0 && resol_ext_dim(R, s - 2, n + 1) > 0) {
                ASSERT_EQ(resol_sec_d2(X, s - 2, n + 1, &m), 0);
                in = fmat_rank(&m);
                fmat_clear(&m);
            }
            ASSERT_EQ(e3, e2 - out - in);
            fmat_t reps, image;
            ASSERT_EQ(resol_sec_e3_basis(X, s, n, &reps, &image), 0);
            for (int64_t i = 0; i < fmat_rows(&reps); i++) {
                cls_t x = cls_zero(R, n, s);
                for (int64_t j = 0; j < e2; j++)
                    fvec_set(x.v, j, fmat_get(&reps, i, j));
                if (resol_sec_has(X, s, n)) {
                    cls_t d = cls_d2(R, X, x);
                    ASSERT(fvec_is_zero(d.v));
                    fvec_clear(&d.v);
                }
                fvec_t c;
                fvec_init(&c, fmat_rows(&reps), 2);
                ASSERT_EQ(resol_sec_e3_coords(&reps, &image, x.v, c), 0);
                for (int64_t j = 0; j < fmat_rows(&reps); j++)
                    ASSERT_EQ(fvec_get(c, j), (uint32_t)(j == i));
                fvec_clear(&c);
                fvec_clear(&x.v);
            }
            fmat_clear(&reps);
            fmat_clear(&image);
            cells++;
        }
    ASSERT(cells > 500);
    /* beyond the region E_3 is not known */
    ASSERT_EQ(resol_sec_e3_dim(X, 15, 41), -1);
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

/* Naturality (issue 22 item 5): d_2 commutes with the map on Ext induced by
 * a map of modules, here the two cells of C2 = S/2: the projection onto the
 * bottom cell C2 -> S_2 (x0 -> 1; on spectra the inclusion of the bottom
 * cell S -> C2) and the top cell S_2[1] -> C2 (1 -> x1; the pinch
 * C2 -> S^1): f^* d_2 = d_2 f^* on every class through stem 40, s <= 12. */
static fmat_t mat_mul(const fmat_t *a, const fmat_t *b)
{
    fmat_t c;
    fmat_init(&c, fmat_rows(a), fmat_cols(b), 2);
    for (int64_t i = 0; i < fmat_rows(a); i++)
        for (int64_t k = 0; k < fmat_cols(a); k++)
            if (fmat_get(a, i, k))
                for (int64_t j = 0; j < fmat_cols(b); j++)
                    if (fmat_get(b, k, j))
                        fmat_set(&c, i, j, fmat_get(&c, i, j) ^ 1u);
    return c;
}

static int64_t natural(const resol_t *RM, const resol_t *RN, const fdmap_t *f, int32_t d,
                       int32_t N, int32_t S)
{
    char err[256];
    resol_sec_t *XM, *XN;
    ASSERT_EQ(resol_sec_new(&XM, RM, NULL, NULL, NULL, err, sizeof err), 0);
    ASSERT_EQ(resol_sec_new(&XN, RN, NULL, NULL, NULL, err, sizeof err), 0);
    resol_map_t *F;
    ASSERT_EQ(resol_map_new(&F, RM, RN, f, S, N), 0);
    int64_t checked = 0;
    for (int32_t n = resol_min_n(RN) + 1; n <= N; n++)
        for (int32_t s = 1; s + 2 <= S; s++) {
            if (!resol_sec_has(XN, s, n) || !resol_sec_has(XM, s, n - d))
                continue;
            fmat_t dn, dm, fa, fb;
            ASSERT_EQ(resol_sec_d2(XN, s, n, &dn), 0);
            ASSERT_EQ(resol_sec_d2(XM, s, n - d, &dm), 0);
            ASSERT_EQ(resol_map_matrix(F, s, n, &fa), 0);
            ASSERT_EQ(resol_map_matrix(F, s + 2, n - 1, &fb), 0);
            fmat_t l = mat_mul(&dn, &fb), r = mat_mul(&fa, &dm);
            ASSERT(fmat_equal(&l, &r));
            checked += fmat_rows(&dn) > 0 && fmat_cols(&fb) > 0;
            fmat_clear(&dn);
            fmat_clear(&dm);
            fmat_clear(&fa);
            fmat_clear(&fb);
            fmat_clear(&l);
            fmat_clear(&r);
        }
    resol_map_free(F);
    resol_sec_free(XM);
    resol_sec_free(XN);
    return checked;
}

TEST(secondary_naturality_C2)
{
    fdmod_t *C2 = test_module_C2(), *S = fdmod_sphere();
    static const int deg1[] = {1};
    fdmod_t *S1 = test_module("S_2[1]", deg1, 1, NULL, 0);
    resol_t *RC = resol_new(C2, 12, 41), *RS = resol_new(S, 12, 41), *RS1 = resol_new(S1, 12, 42);
    resol_run(RC, RESOL_CLASSICAL);
    resol_run(RS, RESOL_CLASSICAL);
    resol_run(RS1, RESOL_CLASSICAL);
    fvec_t one;
    fvec_init(&one, 1, 2);
    fvec_set(one, 0, 1);
    fdmap_t *bottom = fdmap_new(C2, S, 0); /* x0 -> 1, x1 -> 0 */
    fdmap_set(bottom, 0, 0, one);
    fdmap_t *top = fdmap_new(S1, C2, 0); /* 1 (degree 1) -> x1 */
    fdmap_set(top, 1, 0, one);
    int64_t a = natural(RC, RS, bottom, 0, 40, 12), b = natural(RS1, RC, top, 0, 40, 12);
    ASSERT(a > 40);
    ASSERT(b > 40);
    fvec_clear(&one);
    fdmap_free(bottom);
    fdmap_free(top);
    resol_free(RC);
    resol_free(RS);
    resol_free(RS1);
    fdmod_free(C2);
    fdmod_free(S);
    fdmod_free(S1);
}
