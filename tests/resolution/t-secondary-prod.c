/*
 * t-secondary-prod.c -- products in Mod_{C lambda^2} (resol_secondary_prod.h).
 *
 * Oracles from outside adams: the peer's published `secondary_product` outputs
 * (tests/data/secondary_product-*.txt: h_0 on S_2 from both of its engines, v_1 on
 * C2); the d_2 Leibniz rule (x and y d_2-cycles: d_2 of the Ext part is zero;
 * d_2(x y) = x d_2(y) for the lines "lambda x_..."); that the sphere has no hidden
 * 2-extension below stem 23 (Isaksen, "Stable stems", Mem. AMS 262 (2019), the table
 * of hidden 2 extensions; Toda's groups pi_n, n <= 22, are read off E_infinity
 * without one): for y with h_0 y = 0 in Ext, [h_0][y] = lambda c with c in the
 * indeterminacy; and the choice-free parts from another resolution (Nassau's).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "resol_products.h"
#include "resol_secondary.h"
#include "resol_secondary_prod.h"
#include "sq_modspec.h"
#include "sq_pool.h"
#include "sq_secondary_prod.h"
#include "sq_test.h"

static fdmod_t *load(const char *module)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, module);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    return M;
}

/* One run: M (a module file), x = the basis class (n0, s0, 0), the peer's
 * region (N, S); the sphere shares M's resolution when M is S_2. */
typedef struct {
    fdmod_t *M, *S;
    resol_t *RM, *RS;
    resol_sec_prod_t *P;
    int32_t n0, s0, N, S_;
    fvec_t x;
} run_t;

static void run_init(run_t *r, const char *module, resol_algo_t algo, int32_t n0, int32_t s0,
                     int32_t N, int32_t S, sq_pool_t *pool)
{
    memset(r, 0, sizeof *r);
    r->n0 = n0;
    r->s0 = s0;
    r->N = N;
    r->S_ = S;
    r->M = load(module);
    r->RM = resol_new(r->M, S, N);
    resol_run(r->RM, algo);
    if (strcmp(module, "S_2") == 0)
        r->RS = r->RM;
    else {
        r->S = fdmod_sphere();
        r->RS = resol_new(r->S, S - s0 + 1, N - n0);
        resol_run(r->RS, algo);
    }
    fvec_init(&r->x, resol_ext_dim(r->RM, s0, n0), 2);
    fvec_set(r->x, 0, 1);
    char err[512];
    if (resol_sec_prod_new(&r->P, r->RM, r->RS, n0, s0, r->x, N, S, pool, NULL, NULL, err,
                           sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
}

static void run_clear(run_t *r)
{
    resol_sec_prod_free(r->P);
    if (r->RS != r->RM)
        resol_free(r->RS);
    resol_free(r->RM);
    fdmod_free(r->S);
    fdmod_free(r->M);
    fvec_clear(&r->x);
}

static char *lines(const run_t *r, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(sq_sec_product_write(f, r->P, r->RM, r->RS, name, r->n0, r->s0, r->N, r->S_), 0);
    fclose(f);
    return buf;
}

/* The peer's classical engine: the same text (the homotopies are made the
 * quasi-inverses' canonical ones, the peer's choice). */
TEST(secondary_product_peer)
{
    static const struct {
        const char *module, *data, *name;
        int32_t n0, s0;
    } cases[] = {{"S_2", "secondary_product-h_0-S_2.txt", "h_0", 0, 1},
                 {"C2", "secondary_product-v_1-C2.txt", "v_1", 2, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_t r;
        run_init(&r, cases[i].module, RESOL_CLASSICAL, cases[i].n0, cases[i].s0, 30, 7, NULL);
        char *got = lines(&r, cases[i].name), *want = sq_test_data_body(cases[i].data);
        ASSERT_STR_EQ(got, want);
        free(got);
        sq_free(want);
        run_clear(&r);
    }
}

/* ---- Lines compared modulo the indeterminacy ------------------------------------- */

typedef struct {
    int32_t n, s;
    int lam_line;        /* "[x] λ x_(n, s, i) = λ [v]" */
    char src[512]; /* the part before " = " */
    char ext[512], lam[512];
} line_t;

/* The lines of text (at most cap): source bidegree, kind, the two vectors. */
static int parse_lines(const char *text, line_t *L, int cap)
{
    int n = 0;
    const char *p = text;
    while (*p && n < cap) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char buf[512];
        ASSERT(len < sizeof buf);
        memcpy(buf, p, len);
        buf[len] = '\0';
        line_t *l = &L[n++];
        memset(l, 0, sizeof *l);
        char *eq = strstr(buf, " = ");
        ASSERT(eq != NULL);
        *eq = '\0';
        snprintf(l->src, sizeof l->src, "%s", buf);
        char *xp = strstr(buf, "x_(");
        ASSERT(xp && sscanf(xp, "x_(%d, %d", &l->n, &l->s) == 2);
        const char *rhs = eq + 3;
        l->lam_line = strstr(buf, "] λ x_(") != NULL;
        if (l->lam_line)
            snprintf(l->lam, sizeof l->lam, "%s", rhs + strlen("λ "));
        else {
            const char *plus = strstr(rhs, " + λ ");
            ASSERT(plus != NULL);
            snprintf(l->ext, sizeof l->ext, "%.*s", (int)(plus - rhs), rhs);
            snprintf(l->lam, sizeof l->lam, "%s", plus + strlen(" + λ "));
        }
        p = e ? e + 1 : p + len;
    }
    return n;
}

/* "[a, b, ...]" into v (its entries), returning the count. */
static int64_t parse_vec(const char *s, fvec_t *v)
{
    int64_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p == '0' || *p == '1';
    fvec_init(v, n, 2);
    int64_t i = 0;
    for (const char *p = s; *p; p++)
        if (*p == '0' || *p == '1')
            fvec_set(*v, i++, (uint32_t)(*p - '0'));
    return n;
}

/* y: the source vector of a "[x] [x_(n, s, i) + ...] = ..." line. */
static void parse_source(const line_t *l, int64_t dim, fvec_t *y)
{
    fvec_init(y, dim, 2);
    const char *p = strstr(l->src, "] [");
    ASSERT(p != NULL);
    while ((p = strstr(p, "x_(")) != NULL) {
        int a, b;
        long long i;
        ASSERT(sscanf(p, "x_(%d, %d, %lld)", &a, &b, &i) == 3);
        fvec_set(*y, i, 1);
        p += 3;
    }
}

/* The span of the indeterminacy of the lambda part of [x][y] (y at (n,
 * s)): x Ext^{s+1}(S) + Ext^{s0+1}(M) y + im d_2, echelon rows. */
static int64_t indeterminacy(const run_t *r, int32_t n, int32_t s, fvec_t y, fmat_t *m)
{
    const resol_t *RM = r->RM, *RS = r->RS;
    int32_t t = n + s, t0 = r->n0 + r->s0, sl = s + r->s0 + 1, nl = n + r->n0;
    int64_t dl = resol_ext_dim(RM, sl, nl);
    int64_t dz = resol_ext_dim(RS, s + 1, n), dw = resol_ext_dim(RM, r->s0 + 1, r->n0);
    int64_t dd = sl >= 2 ? resol_ext_dim(RM, sl - 2, nl + 1) : 0;
    fmat_init(m, dz + dw + dd + 1, dl, 2);
    int64_t row = 0;
    for (int64_t i = 0; i < dz; i++) {
        fvec_t z;
        fvec_init(&z, dz, 2);
        fvec_set(z, i, 1);
        ASSERT_EQ(resol_product(RM, RS, r->s0, t0, r->x, s + 1, t + 1, z, fmat_row(m, row++)), 0);
        fvec_clear(&z);
    }
    for (int64_t i = 0; i < dw; i++) {
        fvec_t w;
        fvec_init(&w, dw, 2);
        fvec_set(w, i, 1);
        ASSERT_EQ(resol_product(RM, RS, r->s0 + 1, t0 + 1, w, s, t, y, fmat_row(m, row++)), 0);
        fvec_clear(&w);
    }
    if (dd > 0) {
        fmat_t d;
        ASSERT_EQ(resol_sec_d2(resol_sec_prod_module(r->P), sl - 2, nl + 1, &d), 0);
        for (int64_t i = 0; i < dd; i++)
            fvec_addmul(fmat_row(m, row++), fvec_window(fmat_row(&d, i), 0, dl), 1);
        fmat_clear(&d);
    }
    return fmat_rref(m, NULL);
}

/* Whether a - b lies in the span of the echelon rows m (rank r). */
static int same_modulo(fvec_t a, fvec_t b, const fmat_t *m, int64_t r)
{
    fvec_t d;
    fvec_init(&d, a.len, 2);
    fvec_addmul(d, a, 1);
    fvec_addmul(d, b, 1);
    for (int64_t i = 0; i < r; i++) {
        fvec_t row = fmat_row(m, i);
        int64_t c = fvec_first_nonzero(row);
        if (c >= 0 && c < d.len && fvec_get(d, c))
            fvec_addmul(d, fvec_window(row, 0, d.len), 1);
    }
    int z = fvec_is_zero(d);
    fvec_clear(&d);
    return z;
}

/* Compares text b with text a (of the run r's bases): the same lines, the
 * same sources, Ext parts and lambda-lines; lambda parts equal where the
 * Ext part is zero, modulo the indeterminacy.  Returns the number of lines
 * whose lambda parts differ (all with a nonzero Ext part). */
static int compare_modulo(const run_t *r, const char *a, const char *b)
{
    static line_t La[256], Lb[256];
    int na = parse_lines(a, La, 256), nb = parse_lines(b, Lb, 256);
    ASSERT_EQ(na, nb);
    int differ = 0;
    for (int i = 0; i < na; i++) {
        ASSERT_STR_EQ(La[i].src + strcspn(La[i].src, " "), Lb[i].src + strcspn(Lb[i].src, " "));
        ASSERT_STR_EQ(La[i].ext, Lb[i].ext);
        if (La[i].lam_line || strcmp(La[i].lam, Lb[i].lam) == 0) {
            ASSERT_STR_EQ(La[i].lam, Lb[i].lam);
            continue;
        }
        fvec_t e, la, lb, y;
        parse_vec(La[i].ext, &e);
        parse_vec(La[i].lam, &la);
        parse_vec(Lb[i].lam, &lb);
        if (fvec_is_zero(e)) {
            parse_source(&La[i], resol_ext_dim(r->RS, La[i].s, La[i].n), &y);
            fmat_t m;
            int64_t rk = indeterminacy(r, La[i].n, La[i].s, y, &m);
            if (!same_modulo(la, lb, &m, rk))
                sq_test_fail(__FILE__, __LINE__, "'%s': the lambda parts %s and %s differ "
                             "beyond the indeterminacy", La[i].src, La[i].lam, Lb[i].lam);
            fmat_clear(&m);
            fvec_clear(&y);
        }
        differ++;
        fvec_clear(&e);
        fvec_clear(&la);
        fvec_clear(&lb);
    }
    return differ;
}

/* Nassau's resolution makes other choices: the choice-free parts agree
 * with the classical engine's and with both of the peer's outputs (its
 * engines differ from each other at 6 lines, all with a nonzero Ext part or
 * a full indeterminacy); two threads give the same text as one. */
TEST(secondary_product_engines)
{
    run_t c, nas;
    sq_pool_t *pool = sq_pool_new(2);
    run_init(&c, "S_2", RESOL_CLASSICAL, 0, 1, 30, 7, NULL);
    run_init(&nas, "S_2", RESOL_NASSAU, 0, 1, 30, 7, pool);
    char *tc = lines(&c, "h_0"), *tn = lines(&nas, "h_0");
    char *pc = sq_test_data_body("secondary_product-h_0-S_2.txt");
    char *pn = sq_test_data_body("secondary_product-h_0-S_2-nassau.txt");
    ASSERT_EQ(compare_modulo(&c, pc, pn), 6);
    ASSERT_EQ(compare_modulo(&c, tc, tn), 3);
    ASSERT_EQ(compare_modulo(&c, pn, tn), 3);
    run_t c2;
    run_init(&c2, "S_2", RESOL_CLASSICAL, 0, 1, 30, 7, pool);
    char *t2 = lines(&c2, "h_0");
    ASSERT_STR_EQ(tc, t2);
    free(t2);
    run_clear(&c2);
    run_t v, vn;
    run_init(&v, "C2", RESOL_CLASSICAL, 2, 1, 30, 7, NULL);
    run_init(&vn, "C2", RESOL_NASSAU, 2, 1, 30, 7, pool);
    char *tv = lines(&v, "v_1"), *tvn = lines(&vn, "v_1");
    ASSERT_EQ(compare_modulo(&v, tv, tvn), 1);
    free(tv);
    free(tvn);
    run_clear(&v);
    run_clear(&vn);
    free(tc);
    free(tn);
    sq_free(pc);
    sq_free(pn);
    run_clear(&c);
    run_clear(&nas);
    sq_pool_free(pool);
}

/* ---- Checks from outside: Leibniz, hidden extensions ---------------------------------- */

/* x v for v at (n, s) of the sphere: a new vector over Ext(M) at (n + n0, s + s0). */
static fvec_t times_x(const run_t *r, int32_t n, int32_t s, fvec_t v)
{
    fvec_t out;
    fvec_init(&out, resol_ext_dim(r->RM, s + r->s0, n + r->n0), 2);
    ASSERT_EQ(resol_product(r->RM, r->RS, r->s0, r->n0 + r->s0, r->x, s, n + s, v, out), 0);
    return out;
}

/* d_2 of v at (n, s) of X's resolution R: a new vector at (n - 1, s + 2). */
static fvec_t d2_of(const resol_sec_t *X, const resol_t *R, int32_t n, int32_t s, fvec_t v)
{
    fvec_t out;
    fvec_init(&out, resol_ext_dim(R, s + 2, n - 1), 2);
    fmat_t m;
    ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
    for (int64_t i = 0; i < fmat_rows(&m); i++)
        if (fvec_get(v, i))
            fvec_addmul(out, fvec_window(fmat_row(&m, i), 0, out.len), 1);
    fmat_clear(&m);
    return out;
}

/* Over every bidegree (n, s) of the run: (1) d_2 of the Ext part of [x][y] is
 * zero for every d_2-cycle y (Leibniz: d_2(x y) = d_2(x) y + x d_2(y)); (2)
 * d_2(x y) = x d_2(y) for every basis class y (the lines "λ x_..."), where
 * both d_2 are known; (3) with hidden2 (x = h_0, stems <= 22): where x y = 0
 * the lambda part lies in the indeterminacy (no hidden 2-extension).
 * Returns the number of (1), (2) and (3) checks made. */
static int64_t leibniz(const run_t *r, int hidden2, int64_t counts[3])
{
    const resol_sec_t *XM = resol_sec_prod_module(r->P), *XS = resol_sec_prod_unit(r->P);
    for (int32_t n = 0; n <= r->N - r->n0 - 1; n++)
        for (int32_t s = 0; s <= r->S_ - r->s0 - 1; s++) {
            int64_t ny = resol_ext_dim(r->RS, s, n);
            int32_t nm = n + r->n0, sm = s + r->s0;
            int64_t ne = resol_ext_dim(r->RM, sm, nm), nl = resol_ext_dim(r->RM, sm + 1, nm);
            if (ny <= 0 || ne < 0 || nl < 0)
                continue;
            int dm = resol_ext_dim(r->RM, sm + 2, nm - 1) > 0 && resol_sec_has(XM, sm, nm);
            fmat_t reps, image;
            ASSERT_EQ(resol_sec_e3_basis(XS, s, n, &reps, &image), 0);
            fvec_t ext, lam;
            fvec_init(&ext, ne + 1, 2);
            fvec_init(&lam, nl + 1, 2);
            for (int64_t k = 0; k < fmat_rows(&reps) + fmat_rows(&image); k++) {
                fvec_t y = k < fmat_rows(&reps) ? fmat_row(&reps, k)
                                                : fmat_row(&image, k - fmat_rows(&reps));
                ASSERT_EQ(resol_sec_prod_eval(r->P, n, s, y, ext, lam), 0);
                if (dm) {
                    fvec_t d = d2_of(XM, r->RM, nm, sm, ext);
                    if (!fvec_is_zero(d))
                        sq_test_fail(__FILE__, __LINE__, "d_2 of x y != 0 at (%d, %d)", n, s);
                    fvec_clear(&d);
                    counts[0]++;
                }
                if (hidden2 && n <= 22 && fvec_is_zero(fvec_window(ext, 0, ne)) && nl > 0) {
                    fmat_t m;
                    fvec_t zero;
                    fvec_init(&zero, nl, 2);
                    int64_t rk = indeterminacy(r, n, s, y, &m);
                    if (!same_modulo(fvec_window(lam, 0, nl), zero, &m, rk))
                        sq_test_fail(__FILE__, __LINE__,
                                     "[h_0][y] at (%d, %d): a lambda part outside the "
                                     "indeterminacy (a hidden 2-extension below stem 23)",
                                     n, s);
                    fvec_clear(&zero);
                    fmat_clear(&m);
                    counts[2]++;
                }
            }
            /* (2): d_2(x y_i) = x d_2(y_i) on the basis */
            int dy = resol_ext_dim(r->RS, s + 2, n - 1) > 0 && resol_sec_has(XS, s, n) &&
                     resol_ext_dim(r->RS, s + 2, n - 1) >= 0;
            for (int64_t i = 0; dm && dy && i < ny; i++) {
                fvec_t y;
                fvec_init(&y, ny, 2);
                fvec_set(y, i, 1);
                fvec_t xy = times_x(r, n, s, y), dxy = d2_of(XM, r->RM, nm, sm, xy);
                fvec_t dyv = d2_of(XS, r->RS, n, s, y), xdy = times_x(r, n - 1, s + 2, dyv);
                if (!fvec_equal(dxy, xdy))
                    sq_test_fail(__FILE__, __LINE__, "d_2(x y) != x d_2(y) at (%d, %d, %lld)", n,
                                 s, (long long)i);
                counts[1]++;
                fvec_clear(&y);
                fvec_clear(&xy);
                fvec_clear(&dxy);
                fvec_clear(&dyv);
                fvec_clear(&xdy);
            }
            fvec_clear(&ext);
            fvec_clear(&lam);
            fmat_clear(&reps);
            fmat_clear(&image);
        }
    return counts[0] + counts[1] + counts[2];
}

/* Every line of a smaller region is a line of a larger one (the choices are
 * made degree by degree: nothing depends on the region's edge); before, f was
 * lifted one degree short of what f h^F reads (its d_2 coefficients) and
 * (40, 14) failed.  Then the Leibniz checks below on h_0 through (40, 14):
 * 58 products whose d_2 is checked, 68 classes for d_2(x y) = x d_2(y), and
 * the 6 lines for hidden 2-extensions.
 * About 1 s; slow under the sanitizers. */
TEST(secondary_product_region_slow)
{
    int64_t c[3] = {0, 0, 0};
    run_t r, small;
    run_init(&r, "S_2", RESOL_CLASSICAL, 0, 1, 40, 14, NULL);
    run_init(&small, "S_2", RESOL_CLASSICAL, 0, 1, 33, 11, NULL);
    char *big = lines(&r, "h_0"), *sm = lines(&small, "h_0");
    int64_t nl = 0;
    for (char *p = sm, *e; *p; p = e + 1, nl++) {
        e = strchr(p, '\n');
        ASSERT(e != NULL);
        *e = '\0';
        char want[600];
        snprintf(want, sizeof want, "\n%s\n", p);
        if (!strstr(big, want) && strncmp(big, want + 1, strlen(want + 1)) != 0)
            sq_test_fail(__FILE__, __LINE__, "'%s' (through (33, 11)) is not a line through (40, 14)", p);
    }
    ASSERT_EQ(nl, 91);
    free(big);
    free(sm);
    run_clear(&small);
    leibniz(&r, 1, c);
    run_clear(&r);
    ASSERT_EQ(c[0], 58);
    ASSERT_EQ(c[1], 68);
    ASSERT_EQ(c[2], 6);
}

/* h_0 on S_2 through (30, 10) (classical), h_1 on S_2 through (24, 10)
 * (Nassau), v_1 on C2 through (24, 8): 47 products whose d_2 is checked, 32
 * classes for d_2(x y) = x d_2(y), 6 lines x y = 0 below stem 23 (all with a
 * nonzero lambda group) for hidden 2-extensions. */
TEST(secondary_product_leibniz)
{
    int64_t c[3] = {0, 0, 0};
    run_t r;
    run_init(&r, "S_2", RESOL_CLASSICAL, 0, 1, 30, 10, NULL);
    leibniz(&r, 1, c);
    run_clear(&r);
    run_init(&r, "S_2", RESOL_NASSAU, 1, 1, 24, 10, NULL);
    leibniz(&r, 0, c);
    run_clear(&r);
    run_init(&r, "C2", RESOL_CLASSICAL, 2, 1, 24, 8, NULL);
    leibniz(&r, 0, c);
    run_clear(&r);
    ASSERT_EQ(c[0], 47);
    ASSERT_EQ(c[1], 32);
    ASSERT_EQ(c[2], 6);
}

/* [x][y] = [y][x] where x y = 0, modulo the indeterminacy: in Mod_{C lambda^2}
 * the product is graded commutative and -[y][x] = [y][x] + lambda h_0 y x is
 * [y][x] when x y = 0, so the lambda parts of the two lifts (different chain
 * maps and homotopies H) must agree.  Sixteen classes of S_2 through (32, 12)
 * (h_0, h_1, h_2, h_2^2, h_3, h_0^2 h_3, h_1 h_3, c_0, h_1 c_0, P h_1, P h_2,
 * h_3^2, d_0, h_0 h_4, h_1 h_4, g): 40 pairs with x y = 0, 9 of them with a
 * lambda part outside the indeterminacy (among them [h_3][h_0^2 h_3] = lambda
 * h_0 d_0 and [c_0][d_0] = lambda x_(22, 8)), each the same both ways.
 * About 1 s; slow under the sanitizers. */
TEST(secondary_product_commutes_slow)
{
    static const int32_t L[][2] = {{0, 1}, {1, 1}, {3, 1}, {6, 2}, {7, 1}, {7, 3},
                                   {8, 2}, {8, 3}, {9, 4}, {9, 5}, {11, 5}, {14, 2},
                                   {14, 4}, {15, 2}, {16, 2}, {20, 4}};
    enum { NL = sizeof L / sizeof *L };
    run_t R[NL];
    for (int i = 0; i < NL; i++)
        run_init(&R[i], "S_2", RESOL_CLASSICAL, L[i][0], L[i][1], 32, 12, NULL);
    int pairs = 0, nonzero = 0;
    for (int i = 0; i < NL; i++)
        for (int j = i + 1; j < NL; j++) {
            int32_t na = L[i][0], sa = L[i][1], nb = L[j][0], sb = L[j][1];
            if (nb > 32 - na - 1 || sb > 12 - sa - 1)
                continue;
            int32_t n = na + nb, s = sa + sb;
            int64_t ne = resol_ext_dim(R[i].RM, s, n), nl = resol_ext_dim(R[i].RM, s + 1, n);
            fvec_t ext, lab, lba, ea, eb;
            fvec_init(&ext, ne + 1, 2);
            fvec_init(&lab, nl + 1, 2);
            fvec_init(&lba, nl + 1, 2);
            fvec_init(&ea, 1, 2);
            fvec_init(&eb, 1, 2);
            fvec_set(ea, 0, 1);
            fvec_set(eb, 0, 1);
            ASSERT_EQ(resol_sec_prod_eval(R[i].P, nb, sb, eb, ext, lab), 0);
            int zero = fvec_is_zero(fvec_window(ext, 0, ne));
            ASSERT_EQ(resol_sec_prod_eval(R[j].P, na, sa, ea, ext, lba), 0);
            ASSERT_EQ(fvec_is_zero(fvec_window(ext, 0, ne)), zero);
            if (zero && nl > 0) {
                fmat_t m;
                int64_t rk = indeterminacy(&R[i], nb, sb, eb, &m);
                fvec_t z;
                fvec_init(&z, nl, 2);
                if (!same_modulo(fvec_window(lab, 0, nl), fvec_window(lba, 0, nl), &m, rk))
                    sq_test_fail(__FILE__, __LINE__, "[x_(%d, %d)][x_(%d, %d)] != [x_(%d, %d)]"
                                 "[x_(%d, %d)] modulo the indeterminacy", na, sa, nb, sb, nb,
                                 sb, na, sa);
                int nz = !same_modulo(fvec_window(lab, 0, nl), z, &m, rk);
                nonzero += nz;
                pairs++;
                fvec_clear(&z);
                fmat_clear(&m);
            }
            fvec_clear(&ext);
            fvec_clear(&lab);
            fvec_clear(&lba);
            fvec_clear(&ea);
            fvec_clear(&eb);
        }
    ASSERT_EQ(pairs, 40);
    ASSERT_EQ(nonzero, 9);
    for (int i = 0; i < NL; i++)
        run_clear(&R[i]);
}
