/*
 * t-cofiber-selfmap.c -- the cofiber of a self-map of a module (the peer's
 * "cofiber" key on a module that is not the sphere), at p = 2, 3 and 5,
 * checked against the long exact sequence of the self-map, computed
 * independently:
 *
 *   ... -> Ext^{sigma-s, tau-t}(M) --f*--> Ext^{sigma,tau}(M) -> Ext^{sigma,tau}(C)
 *       -> Ext^{sigma-s+1, tau-t}(M) --f*--> Ext^{sigma+1,tau}(M) -> ...
 *
 * so dim Ext^{sigma,tau}(C) = dim Ext^{sigma,tau}(M) - rank f*(sigma, tau)
 *                            + dim Ext^{sigma-s+1, tau-t}(M) - rank f*(sigma+1, tau),
 * where f* is precomposition with the self-map f: F_s -> Sigma^t M that
 * sends generator idx of F_s in degree t to M's bottom class.  Here f* is
 * computed the textbook way, at any prime: f is lifted to a chain map
 * f_k: F_{s+k} -> F_k (f_0 through the augmentation F_0 -> M, then f_k(g) a
 * preimage under d_k of f_{k-1}(d g)), and f*(y)(g) = y(f_k(g)) for y dual
 * to a generator.  None of the cofiber code (the pushout E and its
 * resolution) is used for the right-hand side.
 *
 *   p = 2: M = C2 (x0, Sq^1 x0 = x1) with the class v_1^4 = x_(8, 4, 0): the
 *          cofiber is the generalised Moore spectrum S/(2, v_1^4) (the
 *          peer's C2v14), through (40, 20).
 *   p = 3: M = C3v1 = S/(3, v_1) with x_(10, 2, 0) (the peer's C3v1b1),
 *          through (40, 15).
 *   p = 5: M = C5 = S/5 with v_1 = x_(8, 1, 0): the cofiber is S/(5, v_1),
 *          the peer's C5v1, so it is also checked against C5v1 resolved
 *          directly, through (60, 15).
 * Each check also counts the cells where f* has positive rank, so that a
 * cofiber built as the split sum (f = 0) would fail it.
 */
#include <stdio.h>
#include <string.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmat.h"
#include "fmod.h"
#include "milnor.h"
#include "resol.h"
#include "resol_cofiber.h"
#include "sq_test.h"
#include "stalg.h"

/* A chain map lifting f: for each k, one vector of F_k (fmod_dim entries
 * in degree deg g - t) per generator g of F_{s+k}. */
typedef struct {
    const resol_t *R;
    int32_t s, t, kmax;
    uint32_t p;
    fvec_t **val; /* val[k][g] */
} cmap_t;

/* out += c * op * v, op the basis element oi of A_{od}, v a vector of F in
 * degree e, out a vector of F in degree e + od. */
static void mul_vec(const cmap_t *C, const fmod_t *F, fvec_t out, uint32_t c, int32_t od,
                    int64_t oi, int32_t e, fvec_t v)
{
    const stalg_t *A = resol_stalg(C->R);
    for (int64_t h = 0; h < fmod_total_gens(F); h++) {
        int32_t dh = fmod_gen_degree(F, h);
        if (dh > e)
            break;
        int64_t hi = h - fmod_gen_global(F, dh, 0), len = stalg_dim(A, e - dh);
        int64_t off = fmod_block_offset(F, e, dh, hi);
        fvec_t blk;
        fvec_init(&blk, len, C->p);
        for (int64_t j = 0; j < len; j++)
            fvec_set(blk, j, fvec_get(v, off + j));
        if (!fvec_is_zero(blk))
            stalg_mul_vec_add(A, out, fmod_block_offset(F, e + od, dh, hi), c, od, oi, e - dh,
                              blk);
        fvec_clear(&blk);
    }
}

/* out += f_k(v), v a vector of F_{s+k} in degree e over the generators of
 * degree < e (d's image layout); out a vector of F_k in degree e - t. */
static void cmap_apply(const cmap_t *C, int32_t k, int32_t e, fvec_t v, fvec_t out)
{
    const fmod_t *S = resol_free_module(C->R, C->s + k), *T = resol_free_module(C->R, k);
    const stalg_t *A = resol_stalg(C->R);
    for (int64_t g = 0; g < fmod_total_gens(S); g++) {
        int32_t dg = fmod_gen_degree(S, g);
        if (dg >= e)
            break;
        int64_t off = fmod_block_offset(S, e, dg, g - fmod_gen_global(S, dg, 0));
        for (int64_t op = 0; op < stalg_dim(A, e - dg) && off + op < v.len; op++) {
            uint32_t c = fvec_get(v, off + op);
            if (c)
                mul_vec(C, T, out, c, e - dg, op, dg - C->t, C->val[k][g]);
        }
    }
}

/* The stored image d(g) as a view (read only). */
static fvec_t image(const fhom_t *d, int64_t g)
{
    int64_t len;
    const void *v = fhom_image_enc(d, g, &len);
    uint32_t p = fhom_prime(d);
    return p == 2 ? fvec_view_limbs((uint64_t *)(uintptr_t)v, len)
                  : fvec_view_bytes((uint8_t *)(uintptr_t)v, len, p);
}

/* Solves d_k(x) = y in degree e of F_k (d_0 the augmentation); y has at
 * least the target's dimension, x is returned (fmod_dim(F_k, e) entries,
 * the caller's). */
static fvec_t solve(const cmap_t *C, int32_t k, int32_t e, fvec_t y)
{
    const fhom_t *d = resol_differential(C->R, k);
    int64_t rows = fmod_dim(resol_free_module(C->R, k), e), cols = fhom_target_dim(d, e);
    fvec_t x;
    fvec_init(&x, rows, C->p);
    if (rows == 0)
        return x;
    fmat_t m;
    fmat_init_aug(&m, rows, cols, C->p);
    fhom_build_rows_fm(d, &m, 0, e, e + 1, NULL, 0, NULL);
    int64_t *piv = sq_calloc((size_t)fmat_cols(&m) + 1, sizeof *piv);
    fmat_rref(&m, piv);
    fmat_aug_qi_apply(x, &m, piv, cols, y);
    /* Check: d(x) = y. */
    fvec_t z;
    fvec_init(&z, cols, C->p);
    fhom_apply_add_enc(d, C->p == 2 ? (void *)z.limbs : (void *)z.bytes, e, e + 1,
                       C->p == 2 ? (const void *)x.limbs : (const void *)x.bytes);
    for (int64_t c = 0; c < cols; c++)
        ASSERT_EQ(fvec_get(z, c), fvec_get(y, c));
    fvec_clear(&z);
    sq_free(piv);
    fmat_clear(&m);
    return x;
}

/* Lifts f (generator idx of F_s in degree t -> the class of M in degree
 * 0) to f_0 .. f_kmax. */
static void cmap_lift(cmap_t *C, int64_t idx)
{
    const resol_t *R = C->R;
    C->val = sq_calloc((size_t)C->kmax + 1, sizeof *C->val);
    for (int32_t k = 0; k <= C->kmax; k++) {
        const fmod_t *S = resol_free_module(R, C->s + k);
        int64_t n = fmod_total_gens(S);
        C->val[k] = sq_calloc((size_t)n + 1, sizeof *C->val[k]);
        int64_t gx = k == 0 ? fmod_gen_global(S, C->t, idx) : -1;
        for (int64_t g = 0; g < n; g++) {
            int32_t e = fmod_gen_degree(S, g);
            int64_t ny = k == 0 ? fdmod_dim(resol_input(R), e - C->t)
                                : fmod_dim(resol_free_module(R, k - 1), e - C->t);
            fvec_t y;
            fvec_init(&y, ny + 1, C->p);
            if (k == 0 && g == gx)
                fvec_set(y, 0, 1); /* the bottom class, M_0 of dimension 1 */
            else if (k > 0)
                cmap_apply(C, k - 1, e, image(resol_differential(R, C->s + k), g), y);
            C->val[k][g] = solve(C, k, e - C->t, y);
            fvec_clear(&y);
        }
    }
}

static void cmap_free(cmap_t *C)
{
    for (int32_t k = 0; k <= C->kmax; k++) {
        int64_t n = fmod_total_gens(resol_free_module(C->R, C->s + k));
        for (int64_t g = 0; g < n; g++)
            fvec_clear(&C->val[k][g]);
        sq_free(C->val[k]);
    }
    sq_free(C->val);
}

/* Rank of f*: Ext^{a, b}(M) -> Ext^{a+s, b+t}(M). */
static int64_t rank_f(const cmap_t *C, int32_t a, int32_t b)
{
    if (a < 0 || a > C->kmax)
        return 0;
    const fmod_t *S = resol_free_module(C->R, a + C->s), *T = resol_free_module(C->R, a);
    int64_t nr = fmod_num_gens(S, b + C->t), nc = fmod_num_gens(T, b);
    if (!nr || !nc)
        return 0;
    fmat_t m;
    fmat_init(&m, nr, nc, C->p);
    for (int64_t r = 0; r < nr; r++) {
        fvec_t v = C->val[a][fmod_gen_global(S, b + C->t, r)];
        for (int64_t c = 0; c < nc; c++)
            fmat_set(&m, r, c, fvec_get(v, fmod_block_offset(T, b, b, c)));
    }
    int64_t rank = fmat_rank(&m);
    fmat_clear(&m);
    return rank;
}

static int64_t ext(const resol_t *R, int32_t s, int32_t tau)
{
    if (s < 0)
        return 0;
    int64_t d = resol_ext_dim(R, s, tau - s);
    return d < 0 ? 0 : d;
}

/* Checks the cofiber Q of x_(t - s, s, 0) on M against the long exact
 * sequence through (max_n, max_s); returns the number of cells where f*
 * has positive rank, and the number of nonzero cells of Q in *nonzero. */
static int64_t check_les(const fdmod_t *M, const resol_cofiber_t *Q, int32_t s, int32_t t,
                         int32_t max_n, int32_t max_s, int64_t *nonzero)
{
    /* M's resolution through row max_s + 1 (the connecting map lands one
     * row up) and far enough in stem for every tau the sequence reads. */
    resol_t *R = resol_new(M, max_s + 1, max_n + 1);
    resol_run(R, RESOL_CLASSICAL);
    cmap_t C = {.R = R, .s = s, .t = t, .kmax = max_s + 1 - s, .p = fdmod_prime(M)};
    cmap_lift(&C, 0);
    int64_t bad = 0, ranked = 0;
    *nonzero = 0;
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t sigma = 0; sigma <= max_s; sigma++) {
            int32_t tau = sigma + n;
            int64_t r0 = rank_f(&C, sigma - s, tau - t), r1 = rank_f(&C, sigma + 1 - s, tau - t);
            int64_t want = ext(R, sigma, tau) - r0 + ext(R, sigma - s + 1, tau - t) - r1;
            int64_t got = resol_cofiber_ext_dim(Q, sigma, n);
            ranked += r0 > 0;
            *nonzero += got > 0;
            if (got != want && bad++ < 20)
                fprintf(stderr, "the cofiber on %s at (n, s) = (%d, %d): %lld, the sequence says "
                                "%lld\n",
                        fdmod_name(M), (int)n, (int)sigma, (long long)got, (long long)want);
        }
    ASSERT_EQ(bad, 0);
    cmap_free(&C);
    resol_free(R);
    return ranked;
}

/* The module at p with one cell x<d> in each degree d of degs[0..n) and the
 * algebra generators acts[i] = {generator degree, from, to} (x_from to
 * x_to), completed over the whole algebra. */
static fdmod_t *make_module(uint32_t p, const char *name, const int32_t *degs, int n,
                            const int32_t (*acts)[3], int nacts)
{
    stalg_t *A = stalg_new(p, 64, NULL);
    fdmod_t *M = fdmod_new_p(name, p, degs[0], degs[n - 1]);
    char bn[32], err[512];
    for (int i = 0; i < n; i++) {
        snprintf(bn, sizeof bn, "x%d", (int)degs[i]);
        fdmod_add_basis(M, degs[i], bn);
    }
    fvec_t one;
    fvec_init(&one, 1, p);
    fvec_set(one, 0, 1);
    for (int i = 0; i < nacts; i++)
        fdmod_set_genf(M, A, acts[i][0], acts[i][1], 0, one);
    fvec_clear(&one);
    int rc = fdmod_complete_alg(M, A, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    stalg_free(A);
    return M;
}

/* The cofiber of x_(t - s, s, 0) on M through (max_n, max_s). */
static resol_cofiber_t *cofiber(const fdmod_t *M, int32_t s, int32_t t, int32_t max_n,
                                int32_t max_s)
{
    char err[512];
    resol_cofiber_t *Q = NULL;
    int rc = resol_cofiber_new(&Q, M, s, t, 0, 0, max_s, max_n, NULL, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    return Q;
}

/* C2: x0, x1 with Sq^1 x0 = x1. */
static fdmod_t *make_c2(void)
{
    const int32_t degs[] = {0, 1}, acts[][3] = {{1, 0, 1}};
    return make_module(2, "C2", degs, 2, acts, 1);
}

TEST(cofiber_of_v1_4_on_C2_long_exact_sequence)
{
    const int32_t max_n = 40, max_s = 20;
    fdmod_t *M = make_c2();
    resol_cofiber_t *Q = cofiber(M, 4, 12, max_n, max_s);
    int64_t nonzero;
    ASSERT(check_les(M, Q, 4, 12, max_n, max_s, &nonzero) > 10); /* v_1^4 acts nontrivially */
    ASSERT(nonzero > max_n);
    /* No h_0-tower in stem 9 (the old reading, M with one cell attached
     * along a map from a sphere, had rational homology there). */
    ASSERT_EQ(resol_cofiber_ext_dim(Q, 15, 9), 0);
    resol_cofiber_free(Q);
    fdmod_free(M);
}

/* p = 3: the peer's C3v1b1, the class x_(10, 2, 0) of C3v1 = S/(3, v_1)
 * (b x0 = x1, P^1 x1 = x5, b x5 = x6). */
TEST(cofiber_of_C3v1_self_map_long_exact_sequence)
{
    const int32_t degs[] = {0, 1, 5, 6}, acts[][3] = {{1, 0, 1}, {4, 1, 5}, {1, 5, 6}};
    const int32_t max_n = 40, max_s = 15;
    fdmod_t *M = make_module(3, "C3v1", degs, 4, acts, 3);
    resol_cofiber_t *Q = cofiber(M, 2, 12, max_n, max_s);
    int64_t nonzero;
    ASSERT(check_les(M, Q, 2, 12, max_n, max_s, &nonzero) > 5);
    ASSERT_EQ(nonzero, 16); /* the peer's table has the same 9 cells through (30, 15) */
    resol_cofiber_free(Q);
    fdmod_free(M);
}

/* p = 5: v_1 = x_(8, 1, 0) on C5 = S/5 (b x0 = x1).  Its cofiber is
 * S/(5, v_1), the peer's C5v1 (cells 0, 1, 9, 10: b x0 = x1, P^1 x1 = x9,
 * b x9 = x10), resolved directly as well; E is a module over A (checked on
 * every product of basis elements). */
TEST(cofiber_of_v1_on_C5_long_exact_sequence)
{
    const int32_t degs[] = {0, 1}, acts[][3] = {{1, 0, 1}}, max_n = 60, max_s = 15;
    const int32_t vdegs[] = {0, 1, 9, 10}, vacts[][3] = {{1, 0, 1}, {8, 1, 9}, {1, 9, 10}};
    fdmod_t *M = make_module(5, "C5", degs, 2, acts, 1);
    fdmod_t *V = make_module(5, "C5v1", vdegs, 4, vacts, 3);
    resol_cofiber_t *Q = cofiber(M, 1, 9, max_n, max_s);
    int64_t nonzero;
    ASSERT(check_les(M, Q, 1, 9, max_n, max_s, &nonzero) > 5);
    resol_t *R = resol_new(V, max_s, max_n);
    resol_run(R, RESOL_CLASSICAL);
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++)
            ASSERT_EQ(resol_cofiber_ext_dim(Q, s, n), resol_ext_dim(R, s, n));
    ASSERT(nonzero >= 8);
    const fdmod_t *E = resol_cofiber_module(Q);
    ASSERT(E != NULL);
    ASSERT_EQ(fdmod_prime(E), 5);
    stalg_t *A = stalg_new(5, fdmod_top(E) - fdmod_bottom(E), NULL);
    char err[512];
    int rc = fdmod_check_module_all(E, A, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    stalg_free(A);
    resol_free(R);
    resol_cofiber_free(Q);
    fdmod_free(V);
    fdmod_free(M);
}

/* A class that is not a cocycle into M is refused with one line: on C2,
 * x_(2, 1, 0) (the generator of F_1 in degree 3, whose d is Sq^2 on the
 * generator: it detects the top cell) sent to x0 is not a cocycle, since a
 * generator of F_2 in degree 4 has a Sq^1 on it and Sq^1 x0 = x1 != 0. */
TEST(cofiber_not_a_cocycle_refused)
{
    milnor_t *A = milnor_new(8);
    fdmod_t *M = make_c2();
    char err[512];
    resol_cofiber_t *Q = (resol_cofiber_t *)&Q;
    ASSERT_EQ(resol_cofiber_new(&Q, M, 1, 3, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(Q == NULL);
    ASSERT_STR_EQ(err, "\"cofiber\": the class x_(2, 1, 0) does not give a map of C2 to itself: "
                       "sent to the class in degree 0, it is not a cocycle (a generator of F_2 in "
                       "degree 4 maps to a nonzero element)");
    /* h_1 = x_(1, 1, 0) is one: its cofiber exists. */
    ASSERT_EQ(resol_cofiber_new(&Q, M, 1, 2, 0, 0, 10, 10, NULL, err, sizeof err), 0);
    resol_cofiber_free(Q);
    /* Two classes in the target degree: refused. */
    fdmod_t *N = fdmod_new("twice", 0, 0);
    fdmod_add_basis(N, 0, "a");
    fdmod_add_basis(N, 0, "b");
    ASSERT_EQ(fdmod_complete(N, A, err, sizeof err), 0);
    ASSERT_EQ(resol_cofiber_new(&Q, N, 1, 1, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(strstr(err, "2 classes in degree 0") != NULL);
    /* A stem below the module: refused at p = 2 as at odd p (was: "does
     * not exist ... dimension 0" at p = 2 only). */
    ASSERT_EQ(resol_cofiber_new(&Q, M, 2, 1, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT_STR_EQ(err, "\"cofiber\": the class x_(-1, 2, 0) does not exist: stem -1 is below the "
                       "bottom degree 0 of C2");
    /* The same lines at p = 3: one code. */
    const int32_t degs3[] = {0, 1}, acts3[][3] = {{1, 0, 1}};
    fdmod_t *C3 = make_module(3, "C3", degs3, 2, acts3, 1);
    ASSERT_EQ(resol_cofiber_new(&Q, C3, 2, 1, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT_STR_EQ(err, "\"cofiber\": the class x_(-1, 2, 0) does not exist: stem -1 is below the "
                       "bottom degree 0 of C3");
    ASSERT_EQ(resol_cofiber_new(&Q, C3, 1, 1, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT_STR_EQ(err, "\"cofiber\": the class x_(0, 1, 0) does not exist: Ext^{1,1} of C3 has "
                       "dimension 0");
    ASSERT_EQ(resol_cofiber_new(&Q, C3, 0, 1, 0, 0, 10, 10, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(Q == NULL);
    fdmod_free(C3);
    fdmod_free(N);
    fdmod_free(M);
    milnor_free(A);
}

/* Issue 20 row 13: the cofiber of h_0 over A(1) (profile [2, 1]) beyond
 * the degrees A(1)'s tables reach (twice its top degree, 12) failed with
 * "more than the algebra reaches" from stem 12 on.  It is C2 over A(1):
 * Ext_{A(1)} of the two-cell module joined by Sq^1, resolved directly. */
TEST(cofiber_over_a_subalgebra_beyond_its_tables)
{
    const int32_t h[2] = {2, 1}, max_n = 30, max_s = 16;
    milnor_t *A = milnor_new_profile(8, h, 2);
    fdmod_t *S = fdmod_new("S", 0, 0);
    fdmod_add_basis(S, 0, "x0");
    fdmod_t *M = make_c2();
    char err[512];
    ASSERT_EQ(fdmod_complete(S, A, err, sizeof err), 0);
    fdmod_set_profile(S, h, 2);
    fdmod_set_profile(M, h, 2);
    resol_cofiber_t *Q;
    int rc = resol_cofiber_new(&Q, S, 1, 1, 0, 0, max_s, max_n, NULL, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *R = resol_new(M, max_s, max_n);
    resol_run(R, RESOL_CLASSICAL);
    int64_t nonzero = 0;
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            ASSERT_EQ(resol_cofiber_ext_dim(Q, s, n), resol_ext_dim(R, s, n));
            nonzero += resol_ext_dim(R, s, n) > 0;
        }
    ASSERT_EQ(nonzero, 24); /* ko/2: 24 nonzero cells through (30, 16) */
    resol_free(R);
    resol_cofiber_free(Q);
    fdmod_free(M);
    fdmod_free(S);
    milnor_free(A);
}
