/*
 * t-cofiber-selfmap.c -- at p = 3, the cofiber of a self-map of a module
 * (the peer's C3v1b1: the class x_(10, 2, 0) of S/(3, v_1) = C3v1, sent to
 * its bottom class) against the long exact sequence of the self-map:
 *
 *   dim Ext^{sigma,tau}(C) = dim Ext^{sigma,tau}(M) - rank f*(sigma, tau)
 *                          + dim Ext^{sigma-s+1, tau-t}(M) - rank f*(sigma+1, tau),
 *
 * with f* (precomposition with f: F_s -> Sigma^t M) computed by lifting f
 * to a chain map f_k: F_{s+k} -> F_k in this test, the textbook way (f_0
 * through the augmentation, then preimages under d_k of f_{k-1} d), and
 * read off on generators.  The cofiber code (the pushout and its
 * resolution) is not used on the right-hand side.  Through (40, 15).
 */
#include <stdio.h>
#include <string.h>

#include "fpmat.h"
#include "pfdmod.h"
#include "pfhom.h"
#include "pfmod.h"
#include "pmilnor.h"
#include "presol.h"
#include "presol_cofiber.h"
#include "sq_test.h"

typedef struct {
    const presol_t *R;
    int32_t s, t, kmax;
    uint32_t p;
    uint8_t ***val; /* val[k][g]: f_k(g) in F_k, degree deg g - t */
} pcmap_t;

/* out += c * op * v, op = basis element oi of A_{od}, v in F_e. */
static void pmul_vec(const pcmap_t *C, const pfmod_t *F, uint8_t *out, uint32_t c, int32_t od,
                     int64_t oi, int32_t e, const uint8_t *v)
{
    const pmilnor_t *A = presol_algebra(C->R);
    for (int64_t h = 0; h < pfmod_total_gens(F); h++) {
        int32_t dh = pfmod_gen_degree(F, h);
        if (dh > e)
            break;
        int64_t hi = h - pfmod_gen_global(F, dh, 0);
        pmilnor_mul_vec_add(A, out + pfmod_block_offset(F, e + od, dh, hi), c, od, oi, e - dh,
                            v + pfmod_block_offset(F, e, dh, hi));
    }
}

/* out += f_k(v), v in F_{s+k} of degree e with entries for the generators
 * of degree < e (d's image layout). */
static void pcmap_apply(const pcmap_t *C, int32_t k, int32_t e, const uint8_t *v, int64_t vlen,
                        uint8_t *out)
{
    const pfmod_t *S = presol_free_module(C->R, C->s + k), *T = presol_free_module(C->R, k);
    const pmilnor_t *A = presol_algebra(C->R);
    for (int64_t g = 0; g < pfmod_total_gens(S); g++) {
        int32_t dg = pfmod_gen_degree(S, g);
        if (dg >= e)
            break;
        int64_t off = pfmod_block_offset(S, e, dg, g - pfmod_gen_global(S, dg, 0));
        for (int64_t op = 0; op < pmilnor_dim(A, e - dg) && off + op < vlen; op++)
            if (v[off + op])
                pmul_vec(C, T, out, v[off + op], e - dg, op, dg - C->t, C->val[k][g]);
    }
}

/* x with d_k(x) = y in degree e of F_k (d_0: the augmentation). */
static uint8_t *psolve(const pcmap_t *C, int32_t k, int32_t e, const uint8_t *y)
{
    const pfhom_t *d = presol_differential(C->R, k);
    int64_t rows = pfmod_dim(presol_free_module(C->R, k), e), cols = pfhom_target_dim(d, e);
    uint8_t *x = sq_calloc((size_t)rows + 1, 1);
    if (rows == 0)
        return x;
    fpmat_t m;
    fpmat_init_aug(&m, rows, cols, C->p);
    pfhom_build_rows(d, &m, 0, e, e + 1);
    int64_t *piv = sq_calloc((size_t)m.cols + 1, sizeof *piv);
    fpmat_rref(&m, piv);
    fpmat_aug_qi_apply(x, &m, piv, cols, y);
    uint8_t *z = sq_calloc((size_t)cols + 1, 1);
    pfhom_apply_add(d, z, e, e + 1, x);
    for (int64_t c = 0; c < cols; c++)
        ASSERT_EQ(z[c] % C->p, y[c] % C->p);
    sq_free(z);
    sq_free(piv);
    fpmat_clear(&m);
    return x;
}

static void pcmap_lift(pcmap_t *C, int64_t idx)
{
    C->val = sq_calloc((size_t)C->kmax + 1, sizeof *C->val);
    for (int32_t k = 0; k <= C->kmax; k++) {
        const pfmod_t *S = presol_free_module(C->R, C->s + k), *T = presol_free_module(C->R, k);
        int64_t n = pfmod_total_gens(S);
        C->val[k] = sq_calloc((size_t)n + 1, sizeof *C->val[k]);
        int64_t gx = k == 0 ? pfmod_gen_global(S, C->t, idx) : -1;
        for (int64_t g = 0; g < n; g++) {
            int32_t e = pfmod_gen_degree(S, g);
            int64_t ny = k == 0 ? 1 + pfmod_dim(T, e - C->t) : pfmod_dim(T, e - C->t);
            uint8_t *y = sq_calloc((size_t)ny + 64, 1);
            if (k == 0 && g == gx)
                y[0] = 1; /* the bottom class of M */
            else if (k > 0) {
                int64_t len;
                const uint8_t *dg = pfhom_image(presol_differential(C->R, C->s + k), g, &len);
                pcmap_apply(C, k - 1, e, dg, len, y);
            }
            C->val[k][g] = psolve(C, k, e - C->t, y);
            sq_free(y);
        }
    }
}

static void pcmap_free(pcmap_t *C)
{
    for (int32_t k = 0; k <= C->kmax; k++) {
        int64_t n = pfmod_total_gens(presol_free_module(C->R, C->s + k));
        for (int64_t g = 0; g < n; g++)
            sq_free(C->val[k][g]);
        sq_free(C->val[k]);
    }
    sq_free(C->val);
}

/* Rank of f*: Ext^{a,b}(M) -> Ext^{a+s,b+t}(M). */
static int64_t prank_f(const pcmap_t *C, int32_t a, int32_t b)
{
    if (a < 0 || a > C->kmax)
        return 0;
    const pfmod_t *S = presol_free_module(C->R, a + C->s), *T = presol_free_module(C->R, a);
    int64_t nr = pfmod_num_gens(S, b + C->t), nc = pfmod_num_gens(T, b);
    if (!nr || !nc)
        return 0;
    fpmat_t m;
    fpmat_init(&m, nr, nc, C->p);
    for (int64_t r = 0; r < nr; r++) {
        const uint8_t *v = C->val[a][pfmod_gen_global(S, b + C->t, r)];
        for (int64_t c = 0; c < nc; c++)
            fpmat_set(&m, r, c, v[pfmod_block_offset(T, b, b, c)]);
    }
    int64_t *piv = sq_calloc((size_t)nc + 1, sizeof *piv);
    int64_t rank = fpmat_rref(&m, piv);
    sq_free(piv);
    fpmat_clear(&m);
    return rank;
}

static int64_t pext(const presol_t *R, int32_t s, int32_t tau)
{
    if (s < 0)
        return 0;
    int64_t d = presol_ext_dim(R, s, tau - s);
    return d < 0 ? 0 : d;
}

TEST(cofiber_of_C3v1_self_map_long_exact_sequence)
{
    const int32_t max_n = 40, max_s = 15, s = 2, t = 12;
    const uint32_t p = 3;
    pmilnor_t *A = pmilnor_new(p, 64, NULL);
    pfdmod_t *M = pfdmod_new("C3v1", p, 0, 6);
    pfdmod_add_basis(M, 0, "x0");
    pfdmod_add_basis(M, 1, "x1");
    pfdmod_add_basis(M, 5, "x5");
    pfdmod_add_basis(M, 6, "x6");
    uint8_t one = 1;
    pfdmod_set_gen(M, A, 1, 0, 0, &one); /* b x0 = x1 */
    pfdmod_set_gen(M, A, 4, 1, 0, &one); /* P1 x1 = x5 */
    pfdmod_set_gen(M, A, 1, 5, 0, &one); /* b x5 = x6 */
    char err[512];
    ASSERT_EQ(pfdmod_complete(M, A, err, sizeof err), 0);
    presol_t *R = presol_new(M, max_s + 1, max_n + 1);
    presol_run(R);
    pcmap_t C = {.R = R, .s = s, .t = t, .kmax = max_s + 1 - s, .p = p};
    pcmap_lift(&C, 0);
    presol_cofiber_t *Q = NULL;
    int rc = presol_cofiber_new(&Q, M, s, t, 0, 0, max_s, max_n, NULL, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    int64_t bad = 0, ranked = 0, nonzero = 0;
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t sigma = 0; sigma <= max_s; sigma++) {
            int32_t tau = sigma + n;
            int64_t r0 = prank_f(&C, sigma - s, tau - t), r1 = prank_f(&C, sigma + 1 - s, tau - t);
            int64_t want = pext(R, sigma, tau) - r0 + pext(R, sigma - s + 1, tau - t) - r1;
            int64_t got = presol_cofiber_ext_dim(Q, sigma, n);
            ranked += r0 > 0;
            nonzero += got > 0;
            if (got != want && bad++ < 20)
                fprintf(stderr, "C3v1b1 at (n, s) = (%d, %d): %lld, the sequence says %lld\n",
                        (int)n, (int)sigma, (long long)got, (long long)want);
        }
    ASSERT_EQ(bad, 0);
    ASSERT(ranked > 5);
    ASSERT_EQ(nonzero, 16); /* the peer's table has the same 9 cells through (30, 15) */
    presol_cofiber_free(Q);
    pcmap_free(&C);
    presol_free(R);
    pfdmod_free(M);
    pmilnor_free(A);
}
