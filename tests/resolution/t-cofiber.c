/*
 * t-cofiber.c -- Ext of the cofiber of a class (the module files' key
 * "cofiber"), checked against the long exact sequence of the class:
 *
 *   ... -> Ext^{sigma-s, tau-t}(S) --x--> Ext^{sigma,tau}(S) -> Ext^{sigma,tau}(C)
 *       -> Ext^{sigma-s+1, tau-t}(S) --x--> Ext^{sigma+1,tau}(S) -> ...
 *
 * so dim Ext^{sigma,tau}(C) = dim Ext^{sigma,tau}(S) - rank x(sigma, tau)
 *                            + dim Ext^{sigma-s+1, tau-t}(S) - rank x(sigma+1, tau).
 * The dimensions of Ext(S) come from the reference table (an independent
 * program); the ranks of multiplication by x = h_0^2, h_1^2 come from the
 * products by h_i, read off the sphere's minimal resolution in the
 * classical way: (h_i y)(g) = sum over g' of y(g') * <xi_1^{2^i}, a_{g'}>
 * where d(g) = sum a_{g'} g' -- the coefficient of Sq(2^i) = Sq^{2^i} in the
 * Milnor basis (this functional kills decomposables).  The cofiber code
 * builds the quotient module E and resolves it; nothing of that is used
 * here.
 */
#include <stdio.h>
#include <string.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmod.h"
#include "resol.h"
#include "resol_cofiber.h"
#include "sq_modspec.h"
#include "sq_test.h"
#include "sq_test_resol.h"

/* Dense matrices over F_2, small: one byte per entry. */
typedef struct {
    int64_t r, c;
    unsigned char *a;
} bmat_t;

static bmat_t bmat(int64_t r, int64_t c)
{
    bmat_t m = {r, c, sq_calloc((size_t)(r * c + 1), 1)};
    return m;
}

static int64_t bmat_rank(bmat_t m)
{
    int64_t rank = 0;
    for (int64_t col = 0; col < m.c && rank < m.r; col++) {
        int64_t p = -1;
        for (int64_t i = rank; i < m.r; i++)
            if (m.a[i * m.c + col]) {
                p = i;
                break;
            }
        if (p < 0)
            continue;
        for (int64_t j = 0; j < m.c; j++) {
            unsigned char t = m.a[p * m.c + j];
            m.a[p * m.c + j] = m.a[rank * m.c + j];
            m.a[rank * m.c + j] = t;
        }
        for (int64_t i = 0; i < m.r; i++)
            if (i != rank && m.a[i * m.c + col])
                for (int64_t j = 0; j < m.c; j++)
                    m.a[i * m.c + j] ^= m.a[rank * m.c + j];
        rank++;
    }
    return rank;
}

static bmat_t bmat_mul(bmat_t x, bmat_t y)
{
    bmat_t z = bmat(x.r, y.c);
    for (int64_t i = 0; i < x.r; i++)
        for (int64_t k = 0; k < x.c; k++)
            if (x.a[i * x.c + k])
                for (int64_t j = 0; j < y.c; j++)
                    z.a[i * z.c + j] ^= y.a[k * y.c + j];
    return z;
}

/* The matrix of y -> h_i y from the generators of F_{s-1} in degree
 * t - 2^i (columns) to those of F_s in degree t (rows). */
static bmat_t h_matrix(const resol_t *R, int i, int32_t s, int32_t t)
{
    int32_t k = 1 << i, tp = t - k;
    if (s < 1 || s > resol_max_s(R)) {
        bmat_t z = bmat(0, 0);
        return z;
    }
    const fmod_t *F = resol_free_module(R, s), *T = resol_free_module(R, s - 1);
    int64_t rows = fmod_num_gens(F, t), cols = fmod_num_gens(T, tp);
    bmat_t m = bmat(rows, cols);
    int32_t r = k;
    int64_t op = milnor_index(resol_algebra(R), &r, 1); /* Sq(2^i) in A_{2^i} */
    for (int64_t g = 0; g < rows; g++) {
        int64_t nbits;
        const uint64_t *v = fhom_image(resol_differential(R, s), fmod_gen_global(F, t, g), &nbits);
        for (int64_t j = 0; j < cols; j++) {
            int64_t b = fmod_block_offset(T, t, tp, j) + op;
            if (b < nbits && ((v[b >> 6] >> (b & 63)) & 1))
                m.a[g * cols + j] = 1;
        }
    }
    return m;
}

/* rank of x = h_i^2 : Ext^{sigma-2, tau-2^{i+1}} -> Ext^{sigma,tau}. */
static int64_t rank_hi2(const resol_t *R, int i, int32_t sigma, int32_t tau)
{
    if (sigma < 2 || sigma > resol_max_s(R))
        return 0;
    bmat_t a = h_matrix(R, i, sigma, tau), b = h_matrix(R, i, sigma - 1, tau - (1 << i));
    bmat_t p = bmat_mul(a, b);
    int64_t r = bmat_rank(p);
    sq_free(a.a);
    sq_free(b.a);
    sq_free(p.a);
    return r;
}

/* dim Ext^{s, s+n}(S_2) from the reference table (0 outside n, s >= 0). */
static int64_t table[61][41];

static void load_table(void)
{
    char *text = sq_test_slurp(sq_test_data_path("ext-S2-n60-s40.csv"));
    int64_t cells = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int n, s;
        long long d;
        if (line[0] == '#' || sscanf(line, "%d,%d,%lld", &n, &s, &d) != 3)
            continue;
        ASSERT(n >= 0 && n <= 60 && s >= 0 && s <= 40);
        table[n][s] = d;
        cells++;
    }
    ASSERT_EQ(cells, 61 * 41);
    sq_free(text);
}

static int64_t ext_s2(int32_t s, int32_t n)
{
    if (s < 0 || n < 0)
        return 0;
    SQ_CHECK(n <= 60 && s <= 40, "outside the table");
    return table[n][s];
}

/* Checks the cofiber of h_i^2 (the class x_(2^{i+1} - 2, 2, 0)) through
 * (max_n, max_s) against the long exact sequence. */
static void check_les(int i, int32_t max_n, int32_t max_s)
{
    load_table();
    int32_t t = 2 << i, s = 2;
    fdmod_t *M = fdmod_sphere();
    /* The sphere's resolution for the products: rows <= max_s + 1, stems
     * up to max_n + 1 (the connecting map lands one row higher). */
    resol_t *R = resol_new(M, max_s + 1, max_n + 1);
    resol_run(R, RESOL_CLASSICAL);
    sq_test_check_s2_table(R, max_n + 1, max_s + 1);
    resol_cofiber_t *C;
    char err[512];
    ASSERT_EQ(resol_cofiber_new(&C, M, s, t, 0, 0, max_s, max_n, NULL, err, sizeof err), 0);
    int64_t nonzero = 0, bad = 0;
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t sigma = 0; sigma <= max_s; sigma++) {
            int32_t tau = sigma + n;
            int64_t want = ext_s2(sigma, n) - rank_hi2(R, i, sigma, tau) +
                           ext_s2(sigma - s + 1, (tau - t) - (sigma - s + 1)) -
                           rank_hi2(R, i, sigma + 1, tau);
            int64_t got = resol_cofiber_ext_dim(C, sigma, n);
            if (got != want && bad++ < 20)
                fprintf(stderr,
                        "cofiber of h_%d^2 at (n, s) = (%d, %d): %lld, the long exact "
                        "sequence says %lld\n",
                        i, (int)n, (int)sigma, (long long)got, (long long)want);
            nonzero += got > 0;
        }
    ASSERT_EQ(bad, 0);
    ASSERT(nonzero > max_n); /* the check saw real groups */
    resol_cofiber_free(C);
    resol_free(R);
    fdmod_free(M);
}

TEST(cofiber_h0sq_long_exact_sequence)
{
    check_les(0, 40, 20);
}

TEST(cofiber_h1sq_long_exact_sequence)
{
    check_les(1, 40, 20);
}

/* s = 1: the cofiber of h_i is the two-cell complex, an honest module:
 * the cofiber of h_1 = x_(1, 1, 0) is Ceta (cells 0 and 2, Sq2). */
TEST(cofiber_of_h1_is_ceta)
{
    fdmod_t *S = fdmod_sphere();
    milnor_t *A = milnor_new(8);
    fdmod_t *Ceta = fdmod_new("Ceta", 0, 2);
    fdmod_add_basis(Ceta, 0, "x0");
    fdmod_add_basis(Ceta, 2, "x2");
    uint64_t one = 1;
    fdmod_set_sq(Ceta, A, 2, 0, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete(Ceta, A, err, sizeof err), 0);
    resol_cofiber_t *C;
    ASSERT_EQ(resol_cofiber_new(&C, S, 1, 2, 0, 0, 20, 40, NULL, err, sizeof err), 0);
    resol_t *R = resol_new(Ceta, 20, 40);
    resol_run(R, RESOL_CLASSICAL);
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= 20; s++)
            ASSERT_EQ(resol_cofiber_ext_dim(C, s, n), resol_ext_dim(R, s, n));
    resol_free(R);
    resol_cofiber_free(C);
    fdmod_free(Ceta);
    milnor_free(A);
    fdmod_free(S);
}

TEST(cofiber_errors)
{
    fdmod_t *S = fdmod_sphere();
    resol_cofiber_t *C = (resol_cofiber_t *)&C;
    char err[512];
    ASSERT_EQ(resol_cofiber_new(&C, S, 2, 2, 1, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(C == NULL);
    ASSERT_STR_EQ(err, "\"cofiber\": the class x_(0, 2, 1) does not exist: Ext^{2,2} of S_2 has "
                       "dimension 1");
    ASSERT_EQ(resol_cofiber_new(&C, S, 2, 3, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT_EQ(resol_cofiber_new(&C, S, 0, 0, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    fdmod_free(S);
}

/* The products by h_i used above, checked on their own, and the shipped
 * two-cell modules checked against outside knowledge: C2, Ceta, Cnu and
 * Csigma (cells 0 and 2^i joined by Sq^{2^i}) have the long exact sequence
 * of h_i, so
 *   dim Ext^{s,t}(C) = dim Ext^{s,t}(S) - rank h_i(s, t)
 *                    + dim Ext^{s,t-2^i}(S) - rank h_i(s + 1, t),
 * with dim Ext(S) from the reference table. */
static void check_two_cell(const char *name, int i, const resol_t *R)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, name);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *C = resol_new(M, 20, 40);
    resol_run(C, RESOL_AUTO);
    int32_t k = 1 << i;
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= 20; s++) {
            int32_t t = s + n;
            bmat_t a = h_matrix(R, i, s, t), b = h_matrix(R, i, s + 1, t);
            int64_t ra = s >= 1 ? bmat_rank(a) : 0, rb = bmat_rank(b);
            int64_t want = ext_s2(s, n) - ra + ext_s2(s, n - k) - rb;
            if (resol_ext_dim(C, s, n) != want)
                sq_test_fail(__FILE__, __LINE__, "%s at (%d, %d): %lld, h_%d products say %lld",
                             name, (int)n, (int)s, (long long)resol_ext_dim(C, s, n), i,
                             (long long)want);
            sq_free(a.a);
            sq_free(b.a);
        }
    resol_free(C);
    fdmod_free(M);
}

TEST(shipped_two_cell_modules_long_exact_sequence)
{
    load_table();
    fdmod_t *S = fdmod_sphere();
    resol_t *R = resol_new(S, 21, 41);
    resol_run(R, RESOL_CLASSICAL);
    check_two_cell("C2", 0, R);
    check_two_cell("Ceta", 1, R);
    check_two_cell("Cnu", 2, R);
    check_two_cell("Csigma", 3, R);
    resol_free(R);
    fdmod_free(S);
}
