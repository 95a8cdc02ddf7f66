/*
 * t-products-odd.c -- products on Ext at an odd prime (issue 21 step 6),
 * checked against facts that do not come from adams:
 *   - the filtration-one classes of S_3: a_0 in stem 0 and h_i in stem
 *     2p^i(p - 1) - 1, each the only class of Ext^1 there;
 *   - h_i^2 = 0 (graded commutativity in odd total degree), a_0 h_0 = 0,
 *     a_0^k != 0 for every k the region holds;
 *   - the long exact sequence of the Moore spectrum C3 = S/3: the
 *     connecting map of 0 -> Sigma F_3 -> H^*(C3) -> F_3 -> 0 is the
 *     product by a_0, so dim Ext^{s,t}(C3) = dim coker(a_0 : Ext^{s-1,t-1}
 *     -> Ext^{s,t}) + dim ker(a_0 : Ext^{s,t-1} -> Ext^{s+1,t}) (of S_3),
 *     exactly, in every bidegree through stem 60;
 *   - the product by the class a_0, h_0 or h_1 (the chain-map lift) is the
 *     filtration-one matrix;
 *   - graded commutativity x y = (-1)^{s s' + t t'} y x on pairs of classes;
 *   - Massey products: b_0 = <h_0, h_0, h_0> (stem 10), g_0 = <h_0, h_0,
 *     h_1> (stem 18), k_0 = <h_0, h_1, h_1> (stem 26) (Ravenel, Complex
 *     cobordism, Thm 1.2.14; h_0 h_1 = 0 makes the last two defined) and
 *     a_1 = <h_0, a_0, h_0> (stem 7, detecting Toda's alpha_2 in
 *     <alpha_1, 3, alpha_1>) are nonzero with zero indeterminacy; for a of
 *     filtration 2 (where the sign of the null-homotopy d H + H d = B C
 *     enters) every lift is exact and <a, b, c> = +-<c, b, a> != 0;
 *   - on C3 = S/3, <h_0, a_0, i> (i the bottom class) is the nonzero lift
 *     of h_0 to the top cell, with zero indeterminacy.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_products.h"
#include "stalg.h"
#include "sq_products.h"
#include "sq_test.h"

enum { MAX_N = 60, MAX_S = 20 };

/* S_3 resolved through (MAX_N, MAX_S + 1): the extra row holds the targets
 * of a_0 from filtration MAX_S. */
static resol_t *sphere3(fdmod_t **M)
{
    *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(*M, MAX_S + 1, MAX_N);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, NULL, NULL), 0);
    return R;
}

/* The Moore spectrum's cohomology: cells x0, x1 in degrees 0, 1 with
 * beta x0 = x1 (modules/C3.json, built here without the reader). */
static fdmod_t *moore3(void)
{
    fdmod_t *M = fdmod_new_p("C3", 3, 0, 1);
    ASSERT_EQ(fdmod_add_basis(M, 0, "x0"), 0);
    ASSERT_EQ(fdmod_add_basis(M, 1, "x1"), 0);
    stalg_t *S = stalg_new(3, 1, NULL);
    uint8_t one = 1;
    fdmod_set_genf(M, S, 1, 0, 0, fvec_view_bytes(&one, 1, 3));
    char err[256];
    if (fdmod_complete_alg(M, S, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    stalg_free(S);
    return M;
}

/* The rank of c_k on Ext^{s, s+n} (0 when either side is empty). */
static int64_t filt1_rank(const resol_t *R, int k, int32_t s, int32_t n)
{
    if (s < 0)
        return 0;
    fmat_t m;
    ASSERT_EQ(resol_filt1_matrix(R, k, s, s + n, &m), 0);
    int64_t r = fmat_rows(&m) && fmat_cols(&m) ? fmat_rank(&m) : 0;
    fmat_clear(&m);
    return r;
}

TEST(filt1_names_degrees)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    static const int32_t deg3[] = {1, 4, 12, 36};
    char name[16];
    for (int k = 0; k < 4; k++) {
        ASSERT_EQ(resol_filt1_degree(R, k), deg3[k]);
        resol_filt1_name(R, k, name, sizeof name);
        ASSERT_STR_EQ(name, k == 0 ? "a0" : k == 1 ? "h0" : k == 2 ? "h1" : "h2");
        /* The class is the only one of Ext^1 in its stem 2p^i(p - 1) - 1
         * (a_0: stem 0), and c_k . 1 is it. */
        int32_t n = deg3[k] - 1;
        ASSERT_EQ(resol_ext_dim(R, 1, n), 1);
        fmat_t m;
        ASSERT_EQ(resol_filt1_matrix(R, k, 0, 0, &m), 0);
        ASSERT_EQ(fmat_prime(&m), 3);
        ASSERT_EQ(fmat_rows(&m), 1);
        ASSERT_EQ(fmat_cols(&m), 1);
        ASSERT(fmat_get(&m, 0, 0) != 0);
        fmat_clear(&m);
    }
    /* h_3 (degree 108) lies beyond the algebra of a run through stem 60. */
    ASSERT_EQ(resol_filt1_degree(R, 4), -1);
    fmat_t m;
    ASSERT_EQ(resol_filt1_matrix(R, 4, 0, 0, &m), SQ_E_RANGE);
    ASSERT_EQ(fmat_rows(&m), 0);
    ASSERT_EQ(resol_filt1_degree(R, 31), -1);
    ASSERT_EQ(resol_filt1_degree(R, -1), -1);
    /* Ext^1 is a_0 and the h_i only. */
    for (int32_t n = 0; n <= MAX_N; n++)
        ASSERT_EQ(resol_ext_dim(R, 1, n), n == 0 || n == 3 || n == 11 || n == 35);
    /* The target row beyond the region: refused. */
    ASSERT_EQ(resol_filt1_matrix(R, 0, MAX_S + 1, MAX_S + 1, &m), SQ_E_RANGE);
    resol_free(R);
    fdmod_free(M);
    /* At p = 2 the names are h0, h1, ... and the degrees 2^k. */
    M = fdmod_sphere();
    R = resol_new(M, 2, 10);
    resol_run(R, RESOL_CLASSICAL);
    resol_filt1_name(R, 0, name, sizeof name);
    ASSERT_STR_EQ(name, "h0");
    resol_filt1_name(R, 3, name, sizeof name);
    ASSERT_STR_EQ(name, "h3");
    ASSERT_EQ(resol_filt1_degree(R, 3), 8);
    ASSERT_EQ(resol_filt1_degree(R, 4), -1);
    resol_free(R);
    fdmod_free(M);
}

/* h_i^2 = 0, a_0 h_0 = 0, a_0^k != 0 (k <= MAX_S + 1), by the matrices. */
TEST(filt1_relations)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    /* h_i^2 = 0: h_i . h_i, the matrix of h_i on Ext^{1, deg} is zero. */
    for (int k = 1; k <= 3; k++) {
        int32_t d = resol_filt1_degree(R, k);
        if (2 * d - 2 > MAX_N)
            continue;
        fmat_t m;
        ASSERT_EQ(resol_filt1_matrix(R, k, 1, d, &m), 0);
        ASSERT_EQ(fmat_cols(&m), 1);
        for (int64_t i = 0; i < fmat_rows(&m); i++)
            ASSERT_EQ(fmat_get(&m, i, 0), 0);
        fmat_clear(&m);
    }
    /* a_0 h_0 = 0 (both orders) and h_0 a_0 = 0: Ext^{2, 5}. */
    ASSERT_EQ(filt1_rank(R, 0, 1, 3), 0);
    ASSERT_EQ(filt1_rank(R, 1, 1, 0), 0);
    /* The a_0-tower on 1: a_0^k, k = 1 .. MAX_S + 1. */
    uint8_t x[1] = {1}, y[8];
    for (int32_t s = 0; s <= MAX_S; s++) {
        ASSERT_EQ(resol_ext_dim(R, s + 1, 0), 1);
        ASSERT_EQ(resol_filt1_product(R, 0, s, s, fvec_view_bytes(x, 1, 3),
                                      fvec_view_bytes(y, 1, 3)),
                  0);
        ASSERT(y[0] != 0);
        x[0] = y[0];
    }
    resol_free(R);
    fdmod_free(M);
}

/* The long exact sequence of C3 = S/3, bidegree by bidegree. */
TEST(filt1_moore_les)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    fdmod_t *C = moore3();
    resol_t *RC = resol_new(C, MAX_S, MAX_N);
    ASSERT_EQ(resol_run_pool(RC, RESOL_CLASSICAL, NULL, NULL), 0);
    int64_t nonzero = 0, kernels = 0;
    for (int32_t n = 0; n <= MAX_N; n++)
        for (int32_t s = 0; s <= MAX_S; s++) {
            int64_t coker = resol_ext_dim(R, s, n) - filt1_rank(R, 0, s - 1, n);
            int64_t ker = n >= 1 ? resol_ext_dim(R, s, n - 1) - filt1_rank(R, 0, s, n - 1) : 0;
            int64_t got = resol_ext_dim(RC, s, n);
            if (got != coker + ker)
                sq_test_fail(__FILE__, __LINE__,
                             "Ext^{%d,%d}(C3) = %lld, the sequence gives %lld + %lld", (int)s,
                             (int)(s + n), (long long)got, (long long)coker, (long long)ker);
            nonzero += got > 0;
            kernels += ker > 0;
        }
    ASSERT(nonzero > 100);
    ASSERT(kernels > 20);
    resol_free(RC);
    fdmod_free(C);
    resol_free(R);
    fdmod_free(M);
}

/* The unit vector e_i of a bidegree as a view of buf (64 residues). */
static fvec_t unit3(uint8_t *buf, int64_t i)
{
    memset(buf, 0, 64);
    buf[i] = 1;
    return fvec_view_bytes(buf, 64, 3);
}

/* The product by the class c_k (resol_product, y = [1] at (1, deg)) is
 * the filtration-one matrix, on every class of the region. */
TEST(product_by_filt1_class)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    uint8_t xb[64], yb[64] = {1}, a[64], b[64];
    int64_t checked = 0;
    for (int k = 0; k <= 2; k++) {
        int32_t d = resol_filt1_degree(R, k);
        for (int32_t n = 0; n + d - 1 <= MAX_N; n++)
            for (int32_t s = 0; s < MAX_S; s++)
                for (int64_t j = 0; j < resol_ext_dim(R, s, n); j++) {
                    fvec_t x = unit3(xb, j);
                    memset(a, 0, sizeof a);
                    memset(b, 0, sizeof b);
                    ASSERT_EQ(resol_filt1_product(R, k, s, s + n, x, fvec_view_bytes(a, 64, 3)),
                              0);
                    ASSERT_EQ(resol_product(R, R, s, s + n, x, 1, d, fvec_view_bytes(yb, 64, 3),
                                            fvec_view_bytes(b, 64, 3)),
                              0);
                    ASSERT(memcmp(a, b, sizeof a) == 0);
                    checked++;
                }
    }
    ASSERT(checked > 300);
    resol_free(R);
    fdmod_free(M);
}

/* x y = (-1)^{s s' + t t'} y x, every pair of basis classes with s, s' >= 1,
 * s + s' <= 8 and stems summing to at most 40; some products nonzero with
 * each sign. */
TEST(product_graded_commutative)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    int64_t plus = 0, minus = 0;
    for (int32_t s1 = 1; s1 <= 4; s1++)
        for (int32_t n1 = 0; n1 <= 20; n1++)
            for (int64_t i1 = 0; i1 < resol_ext_dim(R, s1, n1); i1++)
                for (int32_t s2 = 1; s1 + s2 <= 8; s2++)
                    for (int32_t n2 = 0; n1 + n2 <= 40; n2++)
                        for (int64_t i2 = 0; i2 < resol_ext_dim(R, s2, n2); i2++) {
                            uint8_t ub[64], vb[64], a[64] = {0}, b[64] = {0};
                            fvec_t u = unit3(ub, i1), v = unit3(vb, i2);
                            int32_t t1 = s1 + n1, t2 = s2 + n2;
                            ASSERT_EQ(resol_product(R, R, s1, t1, u, s2, t2, v,
                                                    fvec_view_bytes(a, 64, 3)),
                                      0);
                            ASSERT_EQ(resol_product(R, R, s2, t2, v, s1, t1, u,
                                                    fvec_view_bytes(b, 64, 3)),
                                      0);
                            int sign = ((s1 * s2 + t1 * t2) & 1) ? 2 : 1;
                            int nz = 0;
                            for (int i = 0; i < 64; i++) {
                                ASSERT_EQ(a[i], (sign * b[i]) % 3);
                                nz |= a[i];
                            }
                            if (nz)
                                *(sign == 1 ? &plus : &minus) += 1;
                        }
    ASSERT(plus > 50 && minus > 20);
    resol_free(R);
    fdmod_free(M);
}

/* <a, b, c> for basis classes a = x_(na, sa, 0), b, c of S_3 into out (64
 * residues); returns resol_massey's code; *ind the indeterminacy's rank. */
static int massey3(const resol_t *R, int32_t na, int32_t sa, int32_t nb, int32_t sb, int32_t nc,
                   int32_t sc, uint8_t *out, int64_t *ind)
{
    uint8_t ab[64], bb[64], cb[64];
    fvec_t a = unit3(ab, 0), b = unit3(bb, 0), c = unit3(cb, 0);
    memset(out, 0, 64);
    int rc = resol_massey(R, R, sa, sa + na, a, sb, sb + nb, b, sc, sc + nc, c,
                          fvec_view_bytes(out, 64, 3));
    if (rc)
        return rc;
    fmat_t m;
    ASSERT_EQ(resol_massey_indeterminacy(R, R, sa, sa + na, a, sb, sb + nb, sc, sc + nc, c, &m),
              0);
    ASSERT_EQ(fmat_prime(&m), 3);
    *ind = fmat_rows(&m);
    fmat_clear(&m);
    return 0;
}

TEST(massey_odd_known)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    /* h_0 h_1 = 0 (Ext^{2, 18} is zero), so g_0 and k_0 are defined. */
    ASSERT_EQ(resol_ext_dim(R, 2, 14), 0);
    static const struct {
        int32_t na, nb, nc, n; /* stems of a, b, c (filtration 1 each) and of the value */
    } known[] = {{3, 3, 3, 10}, {3, 3, 11, 18}, {3, 11, 11, 26}, {3, 0, 3, 7}};
    for (size_t q = 0; q < sizeof known / sizeof *known; q++) {
        uint8_t out[64];
        int64_t ind;
        ASSERT_EQ(massey3(R, known[q].na, 1, known[q].nb, 1, known[q].nc, 1, out, &ind), 0);
        ASSERT_EQ(resol_ext_dim(R, 2, known[q].n), 1);
        ASSERT(out[0] != 0);
        ASSERT_EQ(ind, 0);
    }
    /* a_0 a_0 != 0: <a_0, a_0, h_0> is not defined. */
    uint8_t out[64];
    int64_t ind;
    ASSERT_EQ(massey3(R, 0, 1, 0, 1, 3, 1, out, &ind), SQ_E_INVAL);
    resol_free(R);
    fdmod_free(M);
}

/* a of filtration 2: the null-homotopy's sign matters (with d H = B C +
 * H d instead, the vectors it lifts are not boundaries and resol_massey
 * refuses).  a_1 = x_(7, 2, 0), b_0-like classes of Ext^2. */
TEST(massey_odd_filtration_two)
{
    fdmod_t *M;
    resol_t *R = sphere3(&M);
    static const struct {
        int32_t na, sa, nb, sb, nc, sc;
    } cases[] = {{7, 2, 0, 1, 3, 1}, {7, 2, 7, 2, 11, 1}, {7, 2, 18, 2, 0, 1}, {11, 2, 11, 1, 11, 1}};
    for (size_t q = 0; q < sizeof cases / sizeof *cases; q++) {
        uint8_t x[64], y[64];
        int64_t ix, iy;
        ASSERT_EQ(massey3(R, cases[q].na, cases[q].sa, cases[q].nb, cases[q].sb, cases[q].nc,
                          cases[q].sc, x, &ix),
                  0);
        ASSERT_EQ(massey3(R, cases[q].nc, cases[q].sc, cases[q].nb, cases[q].sb, cases[q].na,
                          cases[q].sa, y, &iy),
                  0);
        int32_t n = cases[q].na + cases[q].nb + cases[q].nc + 1;
        int32_t s = cases[q].sa + cases[q].sb + cases[q].sc - 1;
        ASSERT_EQ(resol_ext_dim(R, s, n), 1);
        ASSERT_EQ(ix, 0);
        ASSERT_EQ(iy, 0);
        ASSERT(x[0] != 0 && y[0] != 0);
    }
    resol_free(R);
    fdmod_free(M);
}

/* Over the odd profile without Q_0 (every P(R), no Q_n), a_0 does not act
 * and h_0 does: resol_filt1_degree says so, and the products' lines list
 * h_0, h_1 (sq_products_write used to stop at the first class that does
 * not act, and wrote nothing). */
TEST(filt1_odd_profile_without_a0)
{
    fdmod_t *M = fdmod_new_p("P3", 3, 0, 0);
    ASSERT_EQ(fdmod_add_basis(M, 0, "x0"), 0);
    pmilnor_profile_t prof;
    pmilnor_profile_full(&prof);
    prof.q_part = 0;
    fdmod_set_pprofile(M, &prof);
    resol_t *R = resol_new(M, 5, 16);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, NULL, NULL), 0);
    ASSERT_EQ(resol_filt1_degree(R, 0), -1);
    ASSERT_EQ(resol_filt1_degree(R, 1), 4);
    ASSERT_EQ(resol_filt1_degree(R, 2), 12);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(sq_products_write(f, R, 0, 16, 5), 0);
    ASSERT_EQ(fclose(f), 0);
    ASSERT(strncmp(buf, "h_0 x_(0, 0, 0) = [1]\nh_1 x_(0, 0, 0) = [1]\n", 44) == 0);
    ASSERT(strstr(buf, "a_0") == NULL);
    free(buf);
    resol_free(R);
    fdmod_free(M);
}

/* A Massey product on another module: <h_0, a_0, i> for i the bottom class
 * of C3 = S/3 (a_0 i = 0 in Ext(C3), h_0 a_0 = 0) is the lift of h_0 to
 * the top cell, Ext^{1,5}(C3) (stem 4): by the long exact sequence that
 * group is the kernel of a_0 on h_0, one-dimensional, and the boundary
 * sends the bracket to +-h_0, so it is nonzero; its indeterminacy
 * h_0 Ext^{0,1}(C3) + Ext^{1,5}(S_3) i is zero. */
TEST(massey_odd_moore)
{
    fdmod_t *S;
    resol_t *RS = sphere3(&S);
    fdmod_t *C = moore3();
    resol_t *R = resol_new(C, 4, 12);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, NULL, NULL), 0);
    uint8_t ab[64], bb[64], cb[64], out[64] = {0};
    fvec_t a = unit3(ab, 0), b = unit3(bb, 0), c = unit3(cb, 0);
    ASSERT_EQ(resol_ext_dim(R, 1, 4), 1);
    ASSERT_EQ(resol_massey(R, RS, 1, 4, a, 1, 1, b, 0, 0, c, fvec_view_bytes(out, 64, 3)), 0);
    ASSERT(out[0] != 0);
    fmat_t m;
    ASSERT_EQ(resol_massey_indeterminacy(R, RS, 1, 4, a, 1, 1, 0, 0, c, &m), 0);
    ASSERT_EQ(fmat_rows(&m), 0);
    fmat_clear(&m);
    /* a_0 i = 0 in Ext(C3) (Ext^{1,1}(C3) = 0), while a_0 1 != 0 in Ext(S_3). */
    ASSERT_EQ(resol_ext_dim(R, 1, 0), 0);
    resol_free(R);
    fdmod_free(C);
    resol_free(RS);
    fdmod_free(S);
}
