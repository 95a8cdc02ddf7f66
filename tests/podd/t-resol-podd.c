/*
 * t-resol-podd.c -- the classical resolution at odd primes: the peer's table of S_3,
 * known classes, Ext^1 of S_p, d o d = 0, independence of the thread
 * count, and modules checked by long exact sequences (products by a_0 and
 * h_0 read off the sphere's resolution).
 */
#include "podd_util.h"
#include "resol_cofiber.h"

static void check_against_table(const resol_t *R, const podd_table_t *T, int32_t N, int32_t S)
{
    for (int32_t n = 0; n <= N; n++)
        for (int32_t s = 0; s <= S; s++) {
            int64_t want = podd_table_get(T, n, s), got = resol_ext_dim(R, s, n);
            if (want != got)
                sq_test_fail(__FILE__, __LINE__, "Ext^{%d, %d} of S_3 (stem %d): %lld, want %lld",
                             s, s + n, n, (long long)got, (long long)want);
        }
}

TEST(resol_odd_S3_n100_s30)
{
    podd_table_t T;
    podd_table_load(&T, "ext-S3-n100-s30.csv", 100, 30);
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, 30, 100);
    resol_run(R, RESOL_CLASSICAL);
    check_against_table(R, &T, 100, 30);
    resol_free(R);
    fdmod_free(M);
    podd_table_clear(&T);
}

TEST(resol_odd_S3_n60_s20_verify)
{
    podd_table_t T;
    podd_table_load(&T, "ext-S3-n100-s30.csv", 100, 30);
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, 20, 60);
    resol_run(R, RESOL_CLASSICAL);
    check_against_table(R, &T, 60, 20);
    char err[256];
    int rc = podd_verify(R, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    ASSERT_EQ(resol_ext_dim(R, 21, 0), -1);
    ASSERT_EQ(resol_ext_dim(R, 0, 61), -1);
    resol_free(R);
    fdmod_free(M);
    podd_table_clear(&T);
}

TEST(resol_odd_S3_known_classes)
{
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, 4, 20);
    resol_run(R, RESOL_CLASSICAL);
    ASSERT_EQ(resol_ext_dim(R, 0, 0), 1);  /* 1 */
    ASSERT_EQ(resol_ext_dim(R, 1, 0), 1);  /* a_0 */
    ASSERT_EQ(resol_ext_dim(R, 1, 3), 1);  /* h_0 */
    ASSERT_EQ(resol_ext_dim(R, 2, 10), 1); /* b_0 */
    ASSERT_EQ(resol_ext_dim(R, 1, 1), 0);
    /* a_0 and h_0 are the products by beta and P^1 on the unit class: the
     * image of x_(0,1,0) is beta on x_(0,0,0), that of x_(3,1,0) is P^1. */
    fpmat_t a0 = {0}, h0 = {0};
    podd_product_matrix(&a0, R, 0, 0, 1, 0);
    ASSERT_EQ(a0.rows, 1);
    ASSERT_EQ(fpmat_get(&a0, 0, 0), 1);
    podd_product_matrix(&h0, R, 0, 0, 4, pmilnor_beps_pn(resol_palgebra(R), 0, 1, NULL));
    ASSERT_EQ(h0.rows, 1);
    ASSERT_EQ(fpmat_get(&h0, 0, 0), 1);
    /* Ext^{2,5} = 0, so a_0 h_0 = 0. */
    ASSERT_EQ(resol_ext_dim(R, 2, 3), 0);
    fpmat_clear(&a0);
    fpmat_clear(&h0);
    resol_free(R);
    fdmod_free(M);
}

/* Ext^1 of S_p is a_0 (stem 0) and h_i (stem 2p^i(p - 1) - 1); Ext^0 is
 * F_p in stem 0.  Checked also against the indecomposables of the algebra
 * computed from its product. */
TEST(resol_odd_ext1_primes)
{
    uint32_t ps[] = {3, 5, 7, 11, 13, 17, 19};
    for (int ip = 0; ip < 7; ip++) {
        uint32_t p = ps[ip];
        int32_t N = p <= 7 ? (int32_t)(2 * p * p * (p - 1)) + 2 : (int32_t)(2 * p * (p - 1)) + 4;
        if (p == 3)
            N = 2 * 27 * 2 + 2; /* h_2 at stem 107 */
        fdmod_t *M = fdmod_sphere_p(p);
        resol_t *R = resol_new(M, 1, N);
        resol_run(R, RESOL_CLASSICAL);
        for (int32_t n = 0; n <= N; n++) {
            int want1 = n == 0;
            for (int64_t pk = 1; 2 * pk * (p - 1) - 1 <= N; pk *= p)
                want1 |= n == 2 * pk * (p - 1) - 1;
            if (resol_ext_dim(R, 1, n) != want1)
                sq_test_fail(__FILE__, __LINE__, "p = %u: Ext^1 at stem %d is %lld, want %d", p,
                             n, (long long)resol_ext_dim(R, 1, n), want1);
            ASSERT_EQ(resol_ext_dim(R, 0, n), n == 0);
            if (n + 1 <= 60)
                ASSERT_EQ(podd_indecomposables(resol_palgebra(R), n + 1), want1);
        }
        resol_free(R);
        fdmod_free(M);
    }
}

/* Whether two resolutions are the same, generator by generator (the
 * images of every generator, byte for byte); returns the generators
 * compared. */
static int64_t assert_same_resol(const resol_t *A, const resol_t *B)
{
    int64_t calls = 0;
    ASSERT_EQ(resol_max_s(A), resol_max_s(B));
    for (int32_t s = 0; s <= resol_max_s(A); s++) {
        const fmod_t *FA = resol_free_module(A, s), *FB = resol_free_module(B, s);
        ASSERT_EQ(fmod_total_gens(FA), fmod_total_gens(FB));
        for (int64_t g = 0; g < fmod_total_gens(FA); g++) {
            int64_t la, lb;
            ASSERT_EQ(fmod_gen_degree(FA, g), fmod_gen_degree(FB, g));
            const uint8_t *ia = (const uint8_t *)fhom_image_enc(resol_differential(A, s), g, &la);
            const uint8_t *ib = (const uint8_t *)fhom_image_enc(resol_differential(B, s), g, &lb);
            ASSERT_EQ(la, lb);
            ASSERT(memcmp(ia, ib, (size_t)la) == 0);
            calls++;
        }
    }
    ASSERT_EQ(resol_num_steps((resol_t *)A, RESOL_CLASSICAL),
              resol_num_steps((resol_t *)B, RESOL_CLASSICAL));
    return calls;
}

/* Resolutions through a pool of threads equal the serial one, generator by
 * generator (the images of every generator, byte for byte). */
TEST(resol_odd_pool_threads)
{
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *A = resol_new(M, 30, 110), *B = resol_new(M, 30, 110);
    resol_run(A, RESOL_CLASSICAL);
    sq_pool_t *pool = sq_pool_new(3);
    resol_run_pool(B, RESOL_CLASSICAL, pool, NULL);
    sq_pool_free(pool);
    ASSERT(assert_same_resol(A, B) > 100);
    resol_free(A);
    resol_free(B);
    fdmod_free(M);
}

/* dim Ext^{sig,tau}(C) for the cofiber C of x in Ext^{s,t}(S), from the
 * long exact sequence: coker(x: Ext^{sig-s,tau-t} -> Ext^{sig,tau}) +
 * ker(x: Ext^{sig-s+1,tau-t} -> Ext^{sig+1,tau}).  mult(R, sig, tau, m)
 * fills the matrix of x from Ext^{sig,tau} to Ext^{sig+s,tau+t}. */
typedef void (*mult_fn)(const resol_t *R, int32_t sig, int32_t tau, fpmat_t *m);

static int64_t les_dim(const resol_t *R, int32_t s, int32_t t, mult_fn mult, int32_t sig,
                       int32_t tau)
{
    int64_t coker = 0, ker = 0;
    int64_t here = resol_ext_dim(R, sig, tau - sig);
    if (sig - s >= 0 && tau - t - (sig - s) >= resol_min_n(R)) {
        fpmat_t m = {0};
        mult(R, sig - s, tau - t, &m);
        coker = here - podd_rank(&m);
        fpmat_clear(&m);
    } else {
        coker = here;
    }
    int32_t ss = sig - s + 1;
    if (ss >= 0 && tau - t - ss >= resol_min_n(R)) {
        int64_t src = resol_ext_dim(R, ss, tau - t - ss);
        fpmat_t m = {0};
        mult(R, ss, tau - t, &m);
        ker = src - podd_rank(&m);
        fpmat_clear(&m);
    }
    return coker + ker;
}

static void mult_a0(const resol_t *R, int32_t sig, int32_t tau, fpmat_t *m)
{
    podd_product_matrix(m, R, sig, tau, 1, 0);
}

static void mult_a0sq(const resol_t *R, int32_t sig, int32_t tau, fpmat_t *m)
{
    fpmat_t a = {0}, b = {0};
    podd_product_matrix(&b, R, sig, tau, 1, 0);
    podd_product_matrix(&a, R, sig + 1, tau + 1, 1, 0);
    podd_compose(m, &a, &b);
    fpmat_clear(&a);
    fpmat_clear(&b);
}

static void mult_h0(const resol_t *R, int32_t sig, int32_t tau, fpmat_t *m)
{
    int64_t P1 = pmilnor_beps_pn(resol_palgebra(R), 0, 1, NULL);
    podd_product_matrix(m, R, sig, tau, 2 * (int32_t)resol_prime(R) - 2, P1);
}

/* Checks a region of Ext(C) (via ext) against the LES of x on the sphere. */
static void check_les(const char *what, uint32_t p, int32_t s, int32_t t, mult_fn mult,
                      int64_t (*ext)(const void *, int32_t, int32_t), const void *ctx, int32_t N,
                      int32_t S)
{
    fdmod_t *M = fdmod_sphere_p(p);
    resol_t *R = resol_new(M, S + s + 1, N + t + 2);
    resol_run(R, RESOL_CLASSICAL);
    for (int32_t sig = 0; sig <= S; sig++)
        for (int32_t n = 0; n <= N; n++) {
            int64_t want = les_dim(R, s, t, mult, sig, sig + n);
            int64_t got = ext(ctx, sig, n);
            if (want != got)
                sq_test_fail(__FILE__, __LINE__, "%s: Ext^{%d,%d} (stem %d) is %lld, the long "
                             "exact sequence says %lld",
                             what, sig, sig + n, n, (long long)got, (long long)want);
        }
    resol_free(R);
    fdmod_free(M);
}

static int64_t ext_of_resol(const void *ctx, int32_t s, int32_t n)
{
    return resol_ext_dim((const resol_t *)ctx, s, n);
}

static int64_t ext_of_cofiber(const void *ctx, int32_t s, int32_t n)
{
    return resol_cofiber_ext_dim((const resol_cofiber_t *)ctx, s, n);
}

static const stalg_t *alg_for(uint32_t p, int32_t deg)
{
    static stalg_t *A[256];
    if (!A[p])
        A[p] = stalg_new(p, deg, NULL);
    return A[p];
}

/* The Moore spectrum C3 (b x0 = x1) against the LES of a_0; the peer's C3
 * (F_3 over the profile without Q_0: the same Ext by change of rings,
 * A//B = E(Q_0) = H^*(C3)) against it. */
TEST(resol_odd_moore_C3)
{
    const int32_t N = 40, S = 15;
    fdmod_t *M = fdmod_new_p("C3", 3, 0, 1);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    const stalg_t *A = alg_for(3, 64);
    uint8_t one = 1;
    podd_set_gen(M, A, 1, 0, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(M, A, err, sizeof err), 0);
    resol_t *R = resol_new(M, S, N);
    resol_run(R, RESOL_CLASSICAL);
    check_les("C3", 3, 1, 1, mult_a0, ext_of_resol, R, N, S);
    ASSERT_EQ(podd_verify(R, err, sizeof err), 0);

    fdmod_t *B = fdmod_sphere_p(3);
    pmilnor_profile_t pr;
    pmilnor_profile_full(&pr);
    pr.q_part = 4294967294u;
    fdmod_set_pprofile(B, &pr);
    resol_t *RB = resol_new(B, S, N);
    resol_run(RB, RESOL_CLASSICAL);
    for (int32_t s = 0; s <= S; s++)
        for (int32_t n = 0; n <= N; n++)
            ASSERT_EQ(resol_ext_dim(RB, s, n), resol_ext_dim(R, s, n));
    resol_free(RB);
    fdmod_free(B);
    resol_free(R);
    fdmod_free(M);
}

/* The cofiber of a_0^2 (the peer's C9: S/9) against the LES of a_0^2. */
TEST(resol_odd_cofiber_C9)
{
    const int32_t N = 36, S = 12;
    fdmod_t *M = fdmod_sphere_p(3);
    resol_cofiber_t *C = NULL;
    char err[512];
    int rc = resol_cofiber_new(&C, M, 2, 2, 0, 0, S, N, NULL, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    check_les("C9", 3, 2, 2, mult_a0sq, ext_of_cofiber, C, N, S);
    /* A class that does not exist. */
    resol_cofiber_t *D = NULL;
    rc = resol_cofiber_new(&D, M, 2, 2, 1, 0, S, N, NULL, err, sizeof err);
    ASSERT_EQ(rc, SQ_E_INVAL);
    ASSERT(strstr(err, "does not exist") != NULL);
    ASSERT(D == NULL);
    resol_cofiber_free(C);
    fdmod_free(M);
}

/* The cofiber of alpha_1 (h_0): P1 x0 = x4, against the LES of h_0; and
 * the same as the cofiber of the class x_(3,1,0) built by resol_cofiber. */
TEST(resol_odd_calpha)
{
    const int32_t N = 40, S = 12;
    fdmod_t *M = fdmod_new_p("Calpha", 3, 0, 4);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 4, "x4");
    const stalg_t *A = alg_for(3, 64);
    uint8_t one = 1;
    podd_set_gen(M, A, 4, 0, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(M, A, err, sizeof err), 0);
    resol_t *R = resol_new(M, S, N);
    resol_run(R, RESOL_CLASSICAL);
    check_les("Calpha", 3, 1, 4, mult_h0, ext_of_resol, R, N, S);
    fdmod_t *Sph = fdmod_sphere_p(3);
    resol_cofiber_t *C = NULL;
    ASSERT_EQ(resol_cofiber_new(&C, Sph, 1, 4, 0, 0, S, N, NULL, err, sizeof err), 0);
    for (int32_t s = 0; s <= S; s++)
        for (int32_t n = 0; n <= N; n++)
            ASSERT_EQ(resol_cofiber_ext_dim(C, s, n), resol_ext_dim(R, s, n));
    resol_cofiber_free(C);
    fdmod_free(Sph);
    resol_free(R);
    fdmod_free(M);
}

/* p = 5: the Moore spectrum against the LES of a_0, and h_0 at stem 7. */
TEST(resol_odd_moore_C5)
{
    const int32_t N = 60, S = 10;
    fdmod_t *M = fdmod_new_p("C5", 5, 0, 1);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    const stalg_t *A = alg_for(5, 64);
    uint8_t one = 1;
    podd_set_gen(M, A, 1, 0, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(M, A, err, sizeof err), 0);
    resol_t *R = resol_new(M, S, N);
    resol_run(R, RESOL_CLASSICAL);
    check_les("C5", 5, 1, 1, mult_a0, ext_of_resol, R, N, S);
    resol_free(R);
    fdmod_free(M);
}

/* The order in which the scheduler finished the steps, from its observer. */
typedef struct {
    int64_t n, cap, last_done, total;
    int32_t (*st)[2];
} order_t;

static void on_step(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    order_t *o = ctx;
    if (o->n < o->cap)
        o->st[o->n][0] = s, o->st[o->n][1] = t;
    o->n++;
    o->last_done = done;
    o->total = total;
}

/* Runs R on a pool of `threads` threads with an observer; checks that every
 * step was reported once, and on one thread that the steps ran in the
 * order of the classical step (wave.h: WAVE_ORDER_DEGREES, lowest t, then
 * lowest s, so that the kernel a step leaves for (s + 1, t) is consumed
 * soon; lowest s first doubled the peak memory of S_3 (200, 50)). */
static void run_observed(resol_t *R, int threads)
{
    int64_t steps = resol_num_steps(R, RESOL_CLASSICAL);
    order_t o = {0, steps, 0, 0, NULL};
    o.st = sq_malloc((size_t)steps * sizeof *o.st);
    sq_pool_t *pool = sq_pool_new(threads);
    resol_observer_t obs = {on_step, &o};
    resol_run_pool(R, RESOL_CLASSICAL, pool, &obs);
    sq_pool_free(pool);
    ASSERT_EQ(o.n, steps);
    ASSERT_EQ(o.last_done, steps);
    ASSERT_EQ(o.total, steps);
    for (int64_t i = 1; threads == 1 && i < o.n; i++) {
        int32_t s0 = o.st[i - 1][0], t0 = o.st[i - 1][1], s1 = o.st[i][0], t1 = o.st[i][1];
        if (t1 < t0 || (t1 == t0 && s1 <= s0))
            sq_test_fail(__FILE__, __LINE__, "step %lld: (s, t) = (%d, %d) ran after (%d, %d)",
                         (long long)i, s1, t1, s0, t0);
    }
    sq_free(o.st);
}

/* One and two threads give the serial run's resolution (S_3 through
 * (120, 36), and the Moore spectrum C3 through (80, 30)), and one thread
 * runs the steps in (t, s) order. */
TEST(resol_odd_pool_1_2_threads)
{
    fdmod_t *mods[] = {fdmod_sphere_p(3), fdmod_new_p("C3", 3, 0, 1)};
    int32_t stem[] = {120, 80}, filt[] = {36, 30};
    fdmod_add_basis(mods[1], 0, "x0");
    fdmod_add_basis(mods[1], 1, "x1");
    uint8_t one = 1;
    podd_set_gen(mods[1], alg_for(3, 64), 1, 0, 0, &one);
    char err[512];
    ASSERT_EQ(fdmod_complete_alg(mods[1], alg_for(3, 64), err, sizeof err), 0);
    for (int m = 0; m < 2; m++) {
        resol_t *ref = resol_new(mods[m], filt[m], stem[m]);
        resol_run(ref, RESOL_CLASSICAL);
        for (int threads = 1; threads <= 2; threads++) {
            resol_t *R = resol_new(mods[m], filt[m], stem[m]);
            run_observed(R, threads);
            ASSERT(assert_same_resol(ref, R) > 100);
            resol_free(R);
        }
        resol_free(ref);
        fdmod_free(mods[m]);
    }
}
