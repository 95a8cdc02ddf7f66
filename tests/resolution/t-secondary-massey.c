/*
 * t-secondary-massey.c -- Massey products in Mod_{C lambda^2}
 * (resol_secondary_massey.h) against the classical Massey products of
 * resol_products.c (an independent construction: resol_massey).
 *
 * For y = [y0] + lambda y1 in the kernel of [b], the Ext part of <a, b, y>
 * is K^*(y0) - a0 w: K differs from a classical null-homotopy of b0 a0 by
 * a chain map lifting z (its first step), which adds z y0 in Ext y0, and
 * a0 w is in Ext a0; so the Ext part lies in the classical <y0, b0, a0>
 * (M = S_2: <a0, b0, y0> = <y0, b0, a0> mod 2) plus its indeterminacy
 * y0 Ext + Ext a0, for every row of every kernel (0 when y0 = 0).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "resol_products.h"
#include "resol_secondary_massey.h"
#include "sq_modspec.h"
#include "sq_test.h"

/* Whether v (len entries) is in the row span of m (canonical RREF). */
static int in_span(fvec_t v, const fmat_t *m, int64_t len)
{
    fvec_t w;
    fvec_init(&w, len > 0 ? len : 1, 2);
    for (int64_t i = 0; i < len; i++)
        fvec_set(w, i, fvec_get(v, i));
    for (int64_t r = 0; r < fmat_rows(m); r++) {
        fvec_t row = fmat_row(m, r);
        int64_t c = fvec_first_nonzero(row);
        if (c >= 0 && c < len && fvec_get(w, c))
            for (int64_t i = 0; i < len; i++)
                fvec_add_entry(w, i, fvec_get(row, i));
    }
    int z = fvec_is_zero(fvec_window(w, 0, len));
    fvec_clear(&w);
    return z;
}

/* One class of the sphere: the basis class (n, s, i), its lambda part (or
 * -1: none). */
typedef struct {
    int32_t n, s;
    int64_t i, l;
} cls_t;

static void class_vecs(const resol_t *R, cls_t c, resol_sec_class_t *x)
{
    x->n = c.n;
    x->s = c.s;
    fvec_init(&x->x0, resol_ext_dim(R, c.s, c.n), 2);
    if (c.i >= 0)
        fvec_set(x->x0, c.i, 1);
    fvec_init(&x->x1, c.l >= 0 ? resol_ext_dim(R, c.s + 1, c.n) : 0, 2);
    if (c.l >= 0)
        fvec_set(x->x1, c.l, 1);
}

/* Checks every row of every kernel of <a, b, -> on RM (M) and RS (the
 * sphere; RS == RM for S_2) through (N, S); returns the number of rows
 * checked against a classical bracket. */
static int check(const resol_t *RM, const resol_t *RS, cls_t ca, cls_t cb, int32_t N, int32_t S)
{
    resol_sec_class_t a, b;
    class_vecs(RM, ca, &a);
    class_vecs(RS, cb, &b);
    resol_sec_massey_t *X = NULL;
    char err[512];
    if (resol_sec_massey_new(&X, RM, RS, &a, &b, N, S, NULL, NULL, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    int checked = 0;
    for (int32_t n = 0; n + a.n + b.n + 2 <= N; n++)
        for (int32_t s = 0; s + a.s + b.s <= S; s++) {
            fmat_t ker;
            ASSERT_EQ(resol_sec_massey_kernel(X, n, s, &ker), 0);
            int32_t bn = n + a.n + b.n + 1, bs = s + a.s + b.s - 1;
            int64_t ne = resol_ext_dim(RM, bs, bn), nl = resol_ext_dim(RM, bs + 1, bn);
            int64_t ny = resol_ext_dim(RS, s, n);
            fvec_t ext, lam, cl;
            fvec_init(&ext, ne + 1, 2);
            fvec_init(&lam, nl + 1, 2);
            fvec_init(&cl, ne + 1, 2);
            for (int64_t r = 0; r < fmat_rows(&ker); r++) {
                fvec_t y = fmat_row(&ker, r);
                ASSERT_EQ(resol_sec_massey_eval(X, n, s, y, ext, lam), 0);
                fmat_t ind = {0};
                fvec_t y0 = fvec_window(y, 0, ny);
                if (s >= 1 && !fvec_is_zero(y0)) {
                    fvec_zero(cl);
                    ASSERT_EQ(resol_massey(RM, RS, s, n + s, y0, b.s, b.n + b.s, b.x0, a.s,
                                           a.n + a.s, a.x0, cl),
                              0);
                    ASSERT_EQ(resol_massey_indeterminacy(RM, RS, s, n + s, y0, b.s, b.n + b.s,
                                                         a.s, a.n + a.s, a.x0, &ind),
                              0);
                    for (int64_t i = 0; i < ne; i++)
                        fvec_add_entry(cl, i, fvec_get(ext, i));
                    if (!in_span(cl, &ind, ne))
                        sq_test_fail(__FILE__, __LINE__,
                                     "(%d, %d) row %lld: the Ext part is not the classical "
                                     "bracket modulo its indeterminacy",
                                     (int)n, (int)s, (long long)r);
                    checked++;
                    fmat_clear(&ind);
                }
            }
            fvec_clear(&ext);
            fvec_clear(&lam);
            fvec_clear(&cl);
            fmat_clear(&ker);
        }
    resol_sec_massey_free(X);
    fvec_clear(&a.x0);
    fvec_clear(&a.x1);
    fvec_clear(&b.x0);
    fvec_clear(&b.x1);
    return checked;
}

TEST(secondary_massey_classical)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 9, 26);
    resol_run(R, RESOL_CLASSICAL);
    /* <h_2, h_3, ->, <h_2 + lambda h_0 h_2, h_3, ->, <h_3, h_0^4, ->, <h_1, h_0, -> */
    static const struct {
        cls_t a, b;
    } cases[] = {{{3, 1, 0, -1}, {7, 1, 0, -1}},
                 {{3, 1, 0, 0}, {7, 1, 0, -1}},
                 {{7, 1, 0, -1}, {0, 4, 0, -1}},
                 {{1, 1, 0, -1}, {0, 1, 0, -1}}};
    int total = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        total += check(R, R, cases[i].a, cases[i].b, 24, 7);
    ASSERT(total >= 20);
    resol_free(R);
    fdmod_free(M);
}

/* a = lambda a1 alone (a0 = 0): K = 0 (z = 0 as a1 b0 = 0), so HK is the
 * classical null-homotopy of b0 a1 and <lambda a1, b, y> = lambda <a1, b0,
 * y0>: the Ext part is zero and the lambda part is the classical bracket
 * (at one filtration above) modulo its indeterminacy. */
TEST(secondary_massey_lambda_a)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 9, 26);
    resol_run(R, RESOL_CLASSICAL);
    /* <lambda h_0 h_2, h_3, -> (h_0 h_2 h_3 = 0), <lambda h_0 h_2, h_0^2, -> (h_0^3 h_2 =
     * 0), <lambda h_1^2, h_0, -> (Ext at (2, 1) is zero: a's lift is the zero map) */
    static const struct {
        cls_t a, b;
    } cases[] = {{{3, 1, -1, 0}, {7, 1, 0, -1}},
                 {{3, 1, -1, 0}, {0, 2, 0, -1}},
                 {{2, 1, -1, 0}, {0, 1, 0, -1}}};
    int checked = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        resol_sec_class_t a, b;
        class_vecs(R, cases[c].a, &a);
        class_vecs(R, cases[c].b, &b);
        resol_sec_massey_t *X = NULL;
        char err[512];
        if (resol_sec_massey_new(&X, R, R, &a, &b, 24, 7, NULL, NULL, NULL, err, sizeof err))
            sq_test_fail(__FILE__, __LINE__, "%s", err);
        for (int32_t n = 0; n + a.n + b.n + 2 <= 24; n++)
            for (int32_t s = 1; s + a.s + b.s <= 7; s++) {
                fmat_t ker;
                ASSERT_EQ(resol_sec_massey_kernel(X, n, s, &ker), 0);
                int32_t bn = n + a.n + b.n + 1, bs = s + a.s + b.s - 1;
                int64_t ne = resol_ext_dim(R, bs, bn), nl = resol_ext_dim(R, bs + 1, bn);
                int64_t ny = resol_ext_dim(R, s, n);
                fvec_t ext, lam;
                fvec_init(&ext, ne + 1, 2);
                fvec_init(&lam, nl + 1, 2);
                for (int64_t r = 0; r < fmat_rows(&ker); r++) {
                    fvec_t y = fmat_row(&ker, r), y0 = fvec_window(y, 0, ny);
                    ASSERT_EQ(resol_sec_massey_eval(X, n, s, y, ext, lam), 0);
                    ASSERT(fvec_is_zero(fvec_window(ext, 0, ne)));
                    if (fvec_is_zero(y0))
                        continue;
                    fvec_t cl;
                    fvec_init(&cl, nl + 1, 2);
                    fmat_t ind = {0};
                    ASSERT_EQ(resol_massey(R, R, s, n + s, y0, b.s, b.n + b.s, b.x0, a.s + 1,
                                           a.n + a.s + 1, a.x1, cl),
                              0);
                    ASSERT_EQ(resol_massey_indeterminacy(R, R, s, n + s, y0, b.s, b.n + b.s,
                                                         a.s + 1, a.n + a.s + 1, a.x1, &ind),
                              0);
                    for (int64_t i = 0; i < nl; i++)
                        fvec_add_entry(cl, i, fvec_get(lam, i));
                    if (!in_span(cl, &ind, nl))
                        sq_test_fail(__FILE__, __LINE__,
                                     "case %zu (%d, %d) row %lld: the lambda part is not the "
                                     "classical bracket modulo its indeterminacy",
                                     c, (int)n, (int)s, (long long)r);
                    checked++;
                    fmat_clear(&ind);
                    fvec_clear(&cl);
                }
                fvec_clear(&ext);
                fvec_clear(&lam);
                fmat_clear(&ker);
            }
        resol_sec_massey_free(X);
        fvec_clear(&a.x0);
        fvec_clear(&a.x1);
        fvec_clear(&b.x0);
        fvec_clear(&b.x1);
    }
    ASSERT(checked >= 10);
    resol_free(R);
    fdmod_free(M);
}

/* A module that is not the sphere (its own resolution and the sphere's):
 * C2, <iota, h_0^2, ->, <v_1, h_2, -> (h_0^2 iota = 0, h_2 v_1 = 0). */
TEST(secondary_massey_classical_C2)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/../../modules/C2.json", SQ_TEST_DATA_DIR);
    fdmod_t *M = NULL, *Sph = fdmod_sphere();
    if (sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *RM = resol_new(M, 7, 20), *RS = resol_new(Sph, 9, 22);
    resol_run(RM, RESOL_CLASSICAL);
    resol_run(RS, RESOL_CLASSICAL);
    static const struct {
        cls_t a, b;
    } cases[] = {{{0, 0, 0, -1}, {0, 2, 0, -1}}, {{2, 1, 0, -1}, {3, 1, 0, -1}}};
    int total = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        total += check(RM, RS, cases[i].a, cases[i].b, 20, 7);
    ASSERT(total >= 5);
    resol_free(RS);
    resol_free(RM);
    fdmod_free(Sph);
    fdmod_free(M);
}
