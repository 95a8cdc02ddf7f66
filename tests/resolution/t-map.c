/*
 * t-map.c -- the map on Ext induced by a module map (resol_map.h), checked
 * against outside knowledge: the long exact sequence of a two-cell
 * complex.  For C the cofiber of the class c of filtration one (C2 and h_0,
 * Ceta and h_1, Cnu and h_2 at p = 2; C3 and a_0 at p = 3), with cells in
 * degrees 0 and k, the short exact sequence of modules
 *     0 -> H^*(S^k) --p^*--> H^*(C) --i^*--> H^*(S) -> 0
 * (the pinch and the bottom-cell inclusion, the map files of
 * tests/data/maps) gives the long exact sequence
 *     Ext^{s-1}(S)_{n+1-k} --c--> Ext^s(S)_n --i^*--> Ext^s(C)_n
 *         --p^*--> Ext^s(S^k)_n = Ext^s(S)_{n-k} --c--> Ext^{s+1}(S)_{n-1}
 * whose connecting map is the product by c (resol_filt1_matrix).  Checked
 * exact in every bidegree through (40, 20): each composite zero and the
 * ranks adding up to the dimension at each of the three spots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmap.h"
#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_extmn.h"
#include "resol_map.h"
#include "resol_products.h"
#include "sq_map.h"
#include "sq_modspec.h"
#include "sq_test.h"
#include "test_modules.h"
#include "stalg.h"

enum { MAX_N = 40, MAX_S = 20 };

/* The map of tests/data/maps/file from src to tgt, or NULL with the
 * refusal in err. */
static fdmap_t *load_map(const char *file, const fdmod_t *src, const fdmod_t *tgt, char *err,
                         size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/maps/%s", SQ_TEST_DATA_DIR, file);
    sq_mapfile_t *mf;
    if (sq_mapfile_read(&mf, path, err, n) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    stalg_t *S = stalg_new(fdmod_prime(src), 8, NULL);
    fdmap_t *f = NULL;
    int rc = sq_mapfile_build(mf, src, tgt, S, &f, err, n);
    ASSERT(rc == 0 || f == NULL);
    stalg_free(S);
    sq_mapfile_free(mf);
    return f;
}

static resol_t *resolve(const fdmod_t *M, int32_t max_s)
{
    resol_t *R = resol_new(M, max_s, MAX_N);
    resol_run(R, RESOL_CLASSICAL);
    return R;
}

static int64_t rank(const fmat_t *m)
{
    return fmat_rows(m) && fmat_cols(m) ? fmat_rank(m) : 0;
}

static fmat_t transpose(const fmat_t *m)
{
    fmat_t t;
    fmat_init(&t, fmat_cols(m), fmat_rows(m), fmat_prime(m));
    for (int64_t i = 0; i < fmat_rows(m); i++)
        for (int64_t j = 0; j < fmat_cols(m); j++)
            fmat_set(&t, j, i, fmat_get(m, i, j));
    return t;
}

/* Fails unless a b = 0 (a: x by y, b: y by z, as row maps). */
static void assert_zero_composite(const fmat_t *a, const fmat_t *b, const char *what, int32_t n,
                                  int32_t s)
{
    ASSERT_EQ(fmat_cols(a), fmat_rows(b));
    for (int64_t i = 0; i < fmat_rows(a); i++)
        for (int64_t j = 0; j < fmat_cols(b); j++) {
            uint32_t acc = 0;
            for (int64_t l = 0; l < fmat_cols(a); l++)
                acc = (acc + fmat_get(a, i, l) * fmat_get(b, l, j)) % fmat_prime(a);
            if (acc)
                sq_test_fail(__FILE__, __LINE__, "%s is not zero at (%d, %d)", what, (int)n,
                             (int)s);
        }
}

/* The row map of the product by filtration-one class c from Ext^s(S) at
 * stem n (rows) to Ext^{s+1} (columns); a 0 x 0 matrix when s < 0. */
static fmat_t product(const resol_t *RS, int c, int32_t s, int32_t n)
{
    fmat_t m, t;
    if (s < 0) {
        fmat_init(&t, 0, 0, resol_prime(RS));
        return t;
    }
    ASSERT_EQ(resol_filt1_matrix(RS, c, s, s + n, &m), 0);
    t = transpose(&m);
    fmat_clear(&m);
    return t;
}

/* The long exact sequence of C (cells 0 and k, the class c) through
 * (MAX_N, MAX_S). */
static void check_les(const char *name, const char *sphere, int c, int32_t k, const char *incl,
                      const char *pinch)
{
    char err[1024];
    fdmod_t *C = test_module_shipped(name), *S = test_module_shipped(sphere);
    fdmod_t *Sk = fdmod_new_shifted(S, k, "Sk");
    fdmap_t *i = load_map(incl, C, S, err, sizeof err), *p = load_map(pinch, Sk, C, err, sizeof err);
    if (!i || !p)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *RS = resolve(S, MAX_S + 1), *RC = resolve(C, MAX_S), *RK = resolve(Sk, MAX_S);
    ASSERT_EQ(resol_filt1_degree(RS, c), k);
    resol_map_t *I, *P;
    ASSERT_EQ(resol_map_new(&I, RC, RS, i, MAX_S, MAX_N), 0);
    ASSERT_EQ(resol_map_new(&P, RK, RC, p, MAX_S, MAX_N), 0);
    int64_t nonzero = 0;
    for (int32_t n = 0; n <= MAX_N; n++)
        for (int32_t s = 0; s <= MAX_S; s++) {
            fmat_t A, B;
            ASSERT_EQ(resol_map_matrix(I, s, n, &A), 0); /* Ext^s(S)_n -> Ext^s(C)_n */
            ASSERT_EQ(resol_map_matrix(P, s, n, &B), 0); /* Ext^s(C)_n -> Ext^s(S^k)_n */
            fmat_t H = product(RS, c, s, n - k);         /* Ext^s(S)_{n-k} -> Ext^{s+1}(S)_{n-1} */
            fmat_t Hp = product(RS, c, s - 1, n + 1 - k); /* into Ext^s(S)_n */
            int64_t a = resol_ext_dim(RS, s, n), cd = resol_ext_dim(RC, s, n);
            int64_t b = resol_ext_dim(RK, s, n);
            ASSERT_EQ(b, n - k >= 0 ? resol_ext_dim(RS, s, n - k) : 0);
            ASSERT_EQ(fmat_rows(&A), a);
            ASSERT_EQ(fmat_cols(&A), cd);
            ASSERT_EQ(fmat_rows(&B), cd);
            ASSERT_EQ(fmat_cols(&B), b);
            if (n - k >= 0)
                ASSERT_EQ(fmat_rows(&H), b);
            assert_zero_composite(&A, &B, "p^* i^*", n, s);
            if (b && fmat_rows(&H))
                assert_zero_composite(&B, &H, "c p^*", n, s);
            if (s >= 1 && n + 1 - k >= 0 && fmat_rows(&Hp))
                assert_zero_composite(&Hp, &A, "i^* c", n, s);
            int64_t rA = rank(&A), rB = rank(&B), rH = rank(&H), rHp = rank(&Hp);
            if (rA + rB != cd || rB + rH != b || rHp + rA != a)
                sq_test_fail(__FILE__, __LINE__,
                             "%s: not exact at (%d, %d): dims S %lld, C %lld, S^k %lld; ranks "
                             "i^* %lld, p^* %lld, c %lld, c into S %lld",
                             name, (int)n, (int)s, (long long)a, (long long)cd, (long long)b,
                             (long long)rA, (long long)rB, (long long)rH, (long long)rHp);
            nonzero += rA + rB;
            fmat_clear(&A);
            fmat_clear(&B);
            fmat_clear(&H);
            fmat_clear(&Hp);
        }
    ASSERT(nonzero > MAX_N); /* the maps are not all zero */
    resol_map_free(I);
    resol_map_free(P);
    resol_free(RS);
    resol_free(RC);
    resol_free(RK);
    fdmap_free(i);
    fdmap_free(p);
    fdmod_free(Sk);
    fdmod_free(C);
    fdmod_free(S);
}

TEST(map_les_C2_h0)
{
    check_les("C2", "S_2", 0, 1, "C2_to_S2.json", "S2_1_to_C2.json");
}

TEST(map_les_Ceta_h1)
{
    check_les("Ceta", "S_2", 1, 2, "Ceta_to_S2.json", "S2_2_to_Ceta.json");
}

TEST(map_les_Cnu_h2)
{
    check_les("Cnu", "S_2", 2, 4, "Cnu_to_S2.json", "S2_4_to_Cnu.json");
}

TEST(map_les_C3_a0)
{
    check_les("C3", "S_3", 0, 1, "C3_to_S3.json", "S3_1_to_C3.json");
}

/* The identity of C2 induces the identity; a map that does not commute
 * with Sq1 is refused naming the element and the operation. */
TEST(map_identity_and_refusal)
{
    char err[1024];
    fdmod_t *C = test_module_shipped("C2");
    fdmap_t *bad = load_map("C2_not_linear.json", C, C, err, sizeof err);
    ASSERT(bad == NULL);
    ASSERT(strstr(err, "not A-linear: f(Sq1 x0) != Sq1 f(x0)") != NULL);
    fdmap_t *id = load_map("C2_identity.json", C, C, err, sizeof err);
    ASSERT(id != NULL);
    resol_t *R = resolve(C, 8);
    resol_map_t *F;
    ASSERT_EQ(resol_map_new(&F, R, R, id, 8, MAX_N), 0);
    for (int32_t n = 0; n <= MAX_N; n++)
        for (int32_t s = 0; s <= 8; s++) {
            fmat_t m;
            ASSERT_EQ(resol_map_matrix(F, s, n, &m), 0);
            ASSERT_EQ(fmat_rows(&m), resol_ext_dim(R, s, n));
            for (int64_t a = 0; a < fmat_rows(&m); a++)
                for (int64_t b = 0; b < fmat_cols(&m); b++)
                    ASSERT_EQ(fmat_get(&m, a, b), a == b);
            fmat_clear(&m);
        }
    resol_map_free(F);
    resol_free(R);
    fdmap_free(id);
    fdmod_free(C);
}

/* Maps of nonzero degree: the identity of S_2 seen as S_2 -> S_2[1] of
 * degree 1 and S_2[1] -> S_2 of degree -1 induce the identity matrices
 * between stem n of the target and stem n - d of the source. */
static void check_shift(const char *file, int32_t d)
{
    char err[1024];
    fdmod_t *S = test_module_shipped("S_2"), *S1 = fdmod_new_shifted(S, 1, "S_2[1]");
    const fdmod_t *src = d > 0 ? S : S1, *tgt = d > 0 ? S1 : S;
    fdmap_t *f = load_map(file, src, tgt, err, sizeof err);
    if (!f)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    int32_t ms = 6;
    resol_t *RM = resol_new(src, ms, 20 - d), *RN = resol_new(tgt, ms, 20);
    resol_run(RM, RESOL_CLASSICAL);
    resol_run(RN, RESOL_CLASSICAL);
    resol_map_t *F;
    ASSERT_EQ(resol_map_new(&F, RM, RN, f, ms, 20), 0);
    int64_t ones = 0;
    for (int32_t n = fdmod_bottom(tgt); n <= 20; n++)
        for (int32_t s = 0; s <= ms; s++) {
            fmat_t m;
            ASSERT_EQ(resol_map_matrix(F, s, n, &m), 0);
            ASSERT_EQ(fmat_rows(&m), resol_ext_dim(RN, s, n));
            ASSERT_EQ(fmat_cols(&m), resol_ext_dim(RM, s, n - d));
            ASSERT_EQ(fmat_rows(&m), fmat_cols(&m));
            for (int64_t a = 0; a < fmat_rows(&m); a++)
                for (int64_t b = 0; b < fmat_cols(&m); b++)
                    ASSERT_EQ(fmat_get(&m, a, b), a == b);
            ones += fmat_rows(&m);
            fmat_clear(&m);
        }
    ASSERT(ones > 20);
    resol_map_free(F);
    resol_free(RM);
    resol_free(RN);
    fdmap_free(f);
    fdmod_free(S1);
    fdmod_free(S);
}

TEST(map_degree_one_and_minus_one)
{
    check_shift("S2_shift_up.json", 1);
    check_shift("S2_shift_down.json", -1);
}

/* ---- Maps by a class of Ext(M, N) (resol_map_new_class) ----------------------- */

/* The map by the class phi (n entries) of Ext(M, N) at (nc, sc), M
 * resolved through (mn, ms), N through (nn, ns), lifted through (ns, nn). */
static resol_map_t *class_map(resol_t **RM, resol_t **RN, const fdmod_t *M, const fdmod_t *N,
                              int32_t nc, int32_t sc, const uint32_t *phi, int64_t n, int32_t mn,
                              int32_t ms, int32_t nn, int32_t ns)
{
    *RM = resol_new(M, ms, mn);
    *RN = resol_new(N, ns, nn);
    resol_run(*RM, RESOL_CLASSICAL);
    resol_run(*RN, RESOL_CLASSICAL);
    ASSERT_EQ(resol_extmn_cochain_dim(*RM, N, sc, nc + sc), n);
    fvec_t v;
    fvec_init(&v, n, fdmod_prime(M));
    for (int64_t i = 0; i < n; i++)
        fvec_set(v, i, phi[i]);
    ASSERT_EQ(resol_extmn_class_kind(*RM, N, sc, nc + sc, v), RESOL_EXTMN_CLASS);
    resol_map_t *F;
    ASSERT_EQ(resol_map_new_class(&F, *RM, *RN, sc, nc, v, ns, nn), 0);
    fvec_clear(&v);
    return F;
}

/* Compares F with the peer's lift_hom output tests/data/lift_hom/file:
 * every line 'name x_(n, s, i) = [v]' is row i of the matrix at (n, s)
 * ('[]': Ext(M) is zero there), and every nonzero row of F in the region
 * is one of the lines. */
static void check_peer(const char *file, const resol_map_t *F, const resol_t *RN, int32_t nn,
                       int32_t ns)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/lift_hom/%s", SQ_TEST_DATA_DIR, file);
    FILE *in = fopen(path, "r");
    ASSERT(in != NULL);
    int64_t lines = 0, nonzero_lines = 0, nonzero_rows = 0;
    while (fgets(line, sizeof line, in)) {
        int n, s, i, pos = 0;
        char name[32];
        if (line[0] == '#' || sscanf(line, "%31s x_(%d, %d, %d) = [%n", name, &n, &s, &i, &pos) != 4)
            continue;
        fmat_t m;
        ASSERT_EQ(resol_map_matrix(F, s, n, &m), 0);
        ASSERT(i < fmat_rows(&m));
        const char *p = line + pos;
        int64_t c = 0, nz = 0;
        for (; *p && *p != ']'; c++) {
            char *end;
            long x = strtol(p, &end, 10);
            ASSERT(end != p);
            if (fmat_get(&m, i, c) != (uint32_t)x)
                sq_test_fail(__FILE__, __LINE__, "%s: x_(%d, %d, %d) entry %lld: peer %ld, ours %u",
                             file, n, s, i, (long long)c, x, (unsigned)fmat_get(&m, i, c));
            nz += x != 0;
            p = end + (*end == ',' ? 2 : 0);
        }
        ASSERT_EQ(c, fmat_cols(&m));
        nonzero_lines += nz > 0;
        lines++;
        fmat_clear(&m);
    }
    fclose(in);
    for (int32_t n = fdmod_bottom(resol_input(RN)); n <= nn; n++)
        for (int32_t s = 0; s <= ns; s++) {
            fmat_t m;
            ASSERT_EQ(resol_map_matrix(F, s, n, &m), 0);
            for (int64_t i = 0; i < fmat_rows(&m); i++)
                for (int64_t c = 0; c < fmat_cols(&m); c++)
                    if (fmat_get(&m, i, c)) {
                        nonzero_rows++;
                        break;
                    }
            fmat_clear(&m);
        }
    ASSERT(lines > 10);
    ASSERT_EQ(nonzero_rows, nonzero_lines);
}

/* The peer's three lift_hom examples: g in Ext^{4,24}(S_2, S_2) (the
 * product by g), the pinch S^4 <- Cnu (a class of Ext^0(S_2, Cnu) at stem
 * -4) and the bottom cell of Cnu (Ext^0(Cnu, S_2) at stem 0). */
TEST(map_class_peer_lift_hom)
{
    static const uint32_t one[] = {1};
    fdmod_t *S = test_module_shipped("S_2"), *Cnu = test_module_shipped("Cnu");
    resol_t *RM, *RN;
    resol_map_t *F = class_map(&RM, &RN, S, S, 20, 4, one, 1, 25, 9, 5, 5);
    check_peer("lift_hom-g-S_2.txt", F, RN, 5, 5);
    resol_map_free(F);
    resol_free(RM);
    resol_free(RN);
    F = class_map(&RM, &RN, S, Cnu, -4, 0, one, 1, 11, 15, 15, 15);
    check_peer("lift_hom-Cnu-S_2.txt", F, RN, 15, 15);
    resol_map_free(F);
    resol_free(RM);
    resol_free(RN);
    F = class_map(&RM, &RN, Cnu, S, 0, 0, one, 1, 15, 15, 15, 15);
    check_peer("lift_hom-S_2-Cnu.txt", F, RN, 15, 15);
    resol_map_free(F);
    resol_free(RM);
    resol_free(RN);
    fdmod_free(Cnu);
    fdmod_free(S);
}

/* At s = 0 a class is a module map: the class of the bottom-cell inclusion
 * S -> C2 (Ext^0(C2, S_2) at stem 0: x0 -> 1) and of the pinch onto the top
 * cell (Ext^0(S_2[1], C2) at stem 0), and the same at p = 3, give the
 * matrices of resol_map_new for the map files. */
static void check_s0(const char *src, int32_t shs, const char *tgt, int32_t sht, const char *file)
{
    static const uint32_t one[] = {1};
    char err[1024];
    fdmod_t *A = test_module_shipped(src), *B = test_module_shipped(tgt);
    fdmod_t *As = fdmod_new_shifted(A, shs, "src"), *Bs = fdmod_new_shifted(B, sht, "tgt");
    fdmap_t *f = load_map(file, As, Bs, err, sizeof err);
    if (!f)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *RM, *RN;
    resol_map_t *F = class_map(&RM, &RN, As, Bs, 0, 0, one, 1, 20, 10, 20, 10), *G;
    ASSERT_EQ(resol_map_new(&G, RM, RN, f, 10, 20), 0);
    int64_t ones = 0;
    for (int32_t n = fdmod_bottom(Bs); n <= 20; n++)
        for (int32_t s = 0; s <= 10; s++) {
            fmat_t a, b;
            ASSERT_EQ(resol_map_matrix(F, s, n, &a), 0);
            ASSERT_EQ(resol_map_matrix(G, s, n, &b), 0);
            ASSERT(fmat_equal(&a, &b));
            ones += fmat_rows(&a) && fmat_cols(&a) ? fmat_rank(&a) : 0;
            fmat_clear(&a);
            fmat_clear(&b);
        }
    ASSERT(ones >= 4);
    resol_map_free(F);
    resol_map_free(G);
    resol_free(RM);
    resol_free(RN);
    fdmap_free(f);
    fdmod_free(As);
    fdmod_free(Bs);
    fdmod_free(A);
    fdmod_free(B);
}

TEST(map_class_s0_is_the_module_map)
{
    check_s0("C2", 0, "S_2", 0, "C2_to_S2.json");
    check_s0("S_2", 1, "C2", 0, "S2_1_to_C2.json");
    check_s0("C3", 0, "S_3", 0, "C3_to_S3.json");
    check_s0("S_3", 1, "C3", 0, "S3_1_to_C3.json");
}

/* With N = S_p a class x of Ext(M, S_p) = Ext(M) is a class of Ext(M), and
 * the map it induces, Ext(S_p) -> Ext(M), is y -> y x (resol_product):
 * every basis class x of Ext(C2) and of Ext(S_3) at a few bidegrees, every
 * y through (12, 5). */
static void check_product(const char *name, int32_t nc, int32_t sc)
{
    fdmod_t *M = test_module_shipped(name);
    fdmod_t *S = test_module_shipped(fdmod_prime(M) == 2 ? "S_2" : "S_3");
    uint32_t p = fdmod_prime(M);
    int32_t nn = 12, ns = 5;
    resol_t *RM = resol_new(M, sc + ns + 1, nn + nc + 1), *RS = resol_new(S, ns, nn);
    resol_run(RM, RESOL_CLASSICAL);
    resol_run(RS, RESOL_CLASSICAL);
    int64_t dim = resol_ext_dim(RM, sc, nc);
    ASSERT(dim > 0);
    ASSERT_EQ(resol_extmn_cochain_dim(RM, S, sc, nc + sc), dim);
    for (int64_t k = 0; k < dim; k++) {
        fvec_t x;
        fvec_init(&x, dim, p);
        fvec_set(x, k, 1);
        resol_map_t *F;
        ASSERT_EQ(resol_map_new_class(&F, RM, RS, sc, nc, x, ns, nn), 0);
        for (int32_t n = 0; n <= nn; n++)
            for (int32_t s = 0; s <= ns; s++) {
                fmat_t m;
                ASSERT_EQ(resol_map_matrix(F, s, n, &m), 0);
                for (int64_t i = 0; i < fmat_rows(&m); i++) {
                    fvec_t y, out;
                    fvec_init(&y, fmat_rows(&m), p);
                    fvec_set(y, i, 1);
                    fvec_init(&out, fmat_cols(&m) ? fmat_cols(&m) : 1, p);
                    if (fmat_cols(&m)) {
                        ASSERT_EQ(resol_product(RM, RS, sc, nc + sc, x, s, n + s, y, out), 0);
                        for (int64_t c = 0; c < fmat_cols(&m); c++)
                            ASSERT_EQ(fvec_get(out, c), fmat_get(&m, i, c));
                    }
                    fvec_clear(&y);
                    fvec_clear(&out);
                }
                fmat_clear(&m);
            }
        resol_map_free(F);
        fvec_clear(&x);
    }
    resol_free(RM);
    resol_free(RS);
    fdmod_free(S);
    fdmod_free(M);
}

TEST(map_class_sphere_is_the_product)
{
    check_product("C2", 0, 0);
    check_product("C2", 1, 1);
    check_product("C2", 7, 1);
    check_product("S_3", 3, 1);
    check_product("S_3", 10, 2);
}

/* Every cochain of Hom_A(F_1, C2) at t = 2 (F resolving C2) lifts unless
 * it is not a cocycle (SQ_E_INVAL); x0 -> x0 at s = 0 is a class (the
 * identity); S -> C2 onto x0 is not a cocycle, onto x1 a class; a region
 * not computed is SQ_E_RANGE. */
TEST(map_class_refusals)
{
    fdmod_t *C = test_module_shipped("C2"), *S = test_module_shipped("S_2");
    resol_t *RC = resol_new(C, 4, 10), *RS = resol_new(S, 4, 10);
    resol_run(RC, RESOL_CLASSICAL);
    resol_run(RS, RESOL_CLASSICAL);
    fvec_t v;
    fvec_init(&v, resol_extmn_cochain_dim(RC, C, 0, 0), 2);
    ASSERT_EQ(v.len, 1);
    fvec_set(v, 0, 1);
    ASSERT_EQ(resol_extmn_class_kind(RC, C, 0, 0, v), RESOL_EXTMN_CLASS);
    fvec_clear(&v);
    int64_t n = resol_extmn_cochain_dim(RC, C, 1, 2);
    ASSERT(n >= 2 && n < 16);
    int64_t kinds[3] = {0, 0, 0};
    for (int64_t b = 0; b < ((int64_t)1 << n); b++) {
        fvec_init(&v, n, 2);
        for (int64_t i = 0; i < n; i++)
            fvec_set(v, i, (uint32_t)((b >> i) & 1));
        int kind = resol_extmn_class_kind(RC, C, 1, 2, v);
        kinds[kind]++;
        resol_map_t *F;
        int rc = resol_map_new_class(&F, RC, RC, 1, 1, v, 2, 6);
        ASSERT_EQ(rc, kind == RESOL_EXTMN_NOT_COCYCLE ? SQ_E_INVAL : 0);
        ASSERT((F == NULL) == (rc != 0));
        resol_map_free(F);
        fvec_clear(&v);
    }
    ASSERT(kinds[RESOL_EXTMN_CLASS] > 0);
    /* S -> C2 sending the generator to x0 is not Sq1-linear (Sq1 x0 = x1):
     * not a cocycle; to x1 (stem -1) it is the pinch, a class. */
    fvec_init(&v, 1, 2);
    fvec_set(v, 0, 1);
    ASSERT_EQ(resol_extmn_cochain_dim(RS, C, 0, 0), 1);
    ASSERT_EQ(resol_extmn_class_kind(RS, C, 0, 0, v), RESOL_EXTMN_NOT_COCYCLE);
    resol_map_t *F;
    ASSERT_EQ(resol_map_new_class(&F, RS, RC, 0, 0, v, 2, 6), SQ_E_INVAL);
    ASSERT(F == NULL);
    ASSERT_EQ(resol_extmn_class_kind(RS, C, 0, -1, v), RESOL_EXTMN_CLASS);
    ASSERT_EQ(resol_map_new_class(&F, RS, RC, 0, -1, v, 2, 6), 0);
    resol_map_free(F);
    ASSERT_EQ(resol_map_new_class(&F, RS, RS, 0, 0, v, 4, 40), SQ_E_RANGE);
    ASSERT(F == NULL);
    fvec_clear(&v);
    resol_free(RC);
    resol_free(RS);
    fdmod_free(C);
    fdmod_free(S);
}
