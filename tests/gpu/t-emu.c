/*
 * t-emu.c -- the device path end to end on the emulator backend (the
 * kernels' code run on the CPU): matrix builds through the hooks in
 * fhom_build_rows*, reductions through the hook in f2mat_rref_pool, whole
 * resolutions against the reference table, verify mode, the rr trace
 * events, the gates, declines (busy lanes, memory, no device) and the
 * settings.  These run in every build, with or without CUDA.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmod.h"
#include "gpu_test.h"
#include "resol.h"
#include "sq_pool.h"
#include "sq_test_resol.h"
#include "sq_trace.h"

static resol_t *resolve_s2(int32_t max_s, int32_t max_n, resol_algo_t algo, fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, max_s, max_n);
    resol_run(R, algo);
    return R;
}

/* Builds the rows of d_s in degree t (generators of degree < bound): all of
 * them (idx NULL), or the positions idx[0..n); with pool: the _par entry. */
static void build(const fhom_t *d, f2mat_t *m, int32_t t, int32_t bound, const int64_t *idx,
                  int64_t n, sq_pool_t *pool, int which)
{
    const fmod_t *F = fhom_source(d);
    int64_t rows = idx ? n : fmod_dim_below(F, t, bound);
    f2mat_init(m, rows + 2, fhom_target_dim(d, t));
    if (which == 0 && !idx)
        fhom_build_rows(d, m, 1, t, bound);
    else if (which == 0)
        fhom_build_rows_subset(d, m, 1, t, bound, idx, n);
    else
        fhom_build_rows_par(d, m, 1, t, bound, idx, n, pool);
}

/*
 * Every matrix d_s in degree t of a resolution of S_2 through (30, 12),
 * built on the emulated device (gate 0: every build goes to it) and on the
 * CPU: the same bits, for full builds (bounds t and t + 1), subsets, the
 * pool entry, grids that loop (3 blocks of 32 threads) and builds cut into
 * one-row blocks.
 */
TEST(builds_vs_cpu_emulated)
{
    fdmod_t *M;
    resol_t *R = resolve_s2(12, 30, RESOL_NASSAU, &M);
    sq_pool_t *pool = sq_pool_new(2);
    sq_rand_t *rnd = sq_test_rand();
    int64_t compared = 0, rows_total = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (int32_t s = 1; s <= 12; s++) {
            const fhom_t *d = resol_differential(R, s);
            const fmod_t *F = resol_free_module(R, s);
            for (int32_t t = s; t <= s + 30; t += 1 + pass) {
                for (int32_t bound = t; bound <= t + 1; bound++) {
                    int64_t dim = fmod_dim_below(F, t, bound);
                    if (dim == 0)
                        continue;
                    int64_t *idx = sq_malloc((size_t)dim * 8), n = 0;
                    for (int64_t p = 0; p < dim; p++)
                        if (sq_rand_below(rnd, 3) == 0)
                            idx[n++] = p;
                    for (int which = 0; which < 2; which++)
                        for (int sub = 0; sub < 2; sub++) {
                            if (sub && n == 0)
                                continue;
                            f2mat_t a = {0}, b = {0};
                            build(d, &a, t, bound, sub ? idx : NULL, n, pool, which);
                            if (pass == 1)
                                sq_gpu_emu_set_grid(32, 3);
                            if (pass == 2)
                                gpu_out_block_max = 1; /* one row per launch */
                            gpu_test_emulate(0, INT64_MAX);
                            sq_gpu_stats_t st0, st1;
                            sq_gpu_stats_thread(&st0, 1);
                            build(d, &b, t, bound, sub ? idx : NULL, n, pool, which);
                            sq_gpu_stats_thread(&st1, 0);
                            sq_gpu_shutdown();
                            sq_gpu_emu_set_grid(128, INT64_C(1) << 20);
                            gpu_out_block_max = (size_t)256 << 20;
                            ASSERT_MAT_EQ(&b, &a);
                            ASSERT(f2mat_is_canonical(&b));
                            int64_t rows = a.rows - 2;
                            ASSERT_EQ(st1.builds, 1);
                            ASSERT_EQ(st1.build_rows, rows);
                            ASSERT_EQ(st1.declined, 0);
                            /* One launch per matrix, unless cut into row blocks
                             * (or no products at all). */
                            if (pass < 2)
                                ASSERT(st1.launches == (st1.products > 0));
                            compared++;
                            rows_total += rows;
                            f2mat_clear(&a);
                            f2mat_clear(&b);
                        }
                    sq_free(idx);
                }
            }
        }
    }
    ASSERT(compared > 500);
    ASSERT(rows_total > 5000);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
}

/* Below the work gate the CPU builds (no device build counted); above it
 * the device does. */
TEST(build_work_gate)
{
    fdmod_t *M;
    resol_t *R = resolve_s2(8, 20, RESOL_NASSAU, &M);
    const fhom_t *d = resol_differential(R, 4);
    f2mat_t a = {0}, b = {0};
    build(d, &a, 24, 24, NULL, 0, NULL, 0);
    gpu_test_emulate(INT64_MAX, INT64_MAX);
    sq_gpu_stats_t st;
    sq_gpu_stats_thread(&st, 1);
    build(d, &b, 24, 24, NULL, 0, NULL, 0);
    sq_gpu_stats_thread(&st, 1);
    ASSERT_EQ(st.builds, 0);
    ASSERT_MAT_EQ(&b, &a);
    ASSERT(!sq_gpu_build_wanted(1000));
    sq_gpu_shutdown();
    f2mat_clear(&b);
    gpu_test_emulate(1, INT64_MAX);
    build(d, &b, 24, 24, NULL, 0, NULL, 0);
    sq_gpu_stats_thread(&st, 1);
    ASSERT_EQ(st.builds, 1);
    ASSERT_MAT_EQ(&b, &a);
    sq_gpu_shutdown();
    f2mat_clear(&a);
    f2mat_clear(&b);
    resol_free(R);
    fdmod_free(M);
}

/* Whole resolutions with every build and every reduction on the emulated
 * device and verify mode on (any difference would end the process with
 * status 3): the reference table of S_2. */
TEST(resolve_emulated_verify)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = s.verify = s.emulate = 1;
    s.min_work = 0;
    s.rr_min = 1;
    char why[256];
    ASSERT_EQ(sq_gpu_init(&s, why, sizeof why), 0);
    ASSERT(sq_gpu_verify_on());
    fdmod_t *M;
    resol_t *R = resolve_s2(20, 40, RESOL_NASSAU, &M);
    sq_test_check_s2_table(R, 40, 20);
    resol_free(R);
    fdmod_free(M);
    R = resolve_s2(14, 28, RESOL_CLASSICAL, &M);
    sq_test_check_s2_table(R, 28, 14);
    resol_free(R);
    fdmod_free(M);
    sq_gpu_stats_t st;
    sq_gpu_stats_total(&st);
    ASSERT(st.builds > 100);
    ASSERT(st.rrs > 100);
    sq_gpu_shutdown();
}

/* The same on two threads: lanes are taken by whichever thread offers
 * work, and the result does not depend on who ran what. */
TEST(resolve_emulated_threads)
{
    gpu_test_emulate(0, 1);
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 16, 36);
    sq_pool_t *pool = sq_pool_new(2);
    resol_run_pool(R, RESOL_NASSAU, pool, NULL);
    sq_test_check_s2_table(R, 36, 16);
    sq_gpu_stats_t st;
    sq_gpu_stats_total(&st);
    ASSERT(st.builds > 0);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
    sq_gpu_shutdown();
}

/* f2mat_rref_pool through the hook: the device's RREF is the CPU's, the
 * gate is min(rows, cols) >= ADAMS_GPU_RR_MIN, and every reduction with
 * min >= 1024 emits one rr event saying path=gpu or path=cpu with its rank. */
TEST(rref_hook_and_rr_events)
{
    char path[] = "/tmp/adams-gpu-rr-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    close(fd);
    setenv("ADAMS_LOG", "rr", 1);
    setenv("ADAMS_LOG_FILE", path, 1);
    sq_trace_reset();
    sq_trace_set_context(7, 50, 3);
    sq_rand_t *rnd = sq_test_rand();
    f2mat_t a = {0}, b = {0}, c = {0};
    f2mat_init(&a, 1100, 1500);
    f2mat_randomize(&a, rnd);
    for (int64_t i = 600; i < 1100; i++) /* rank 600 + the rest dependent */
        memcpy(f2mat_row(&a, i), f2mat_row(&a, i - 600), (size_t)f2_limbs(a.cols) * 8);
    f2mat_init_set(&b, &a);
    f2mat_init_set(&c, &a);
    int64_t *pa = sq_malloc(1500 * 8), *pb = sq_malloc(1500 * 8);
    int64_t ra = f2mat_rref_pool(&a, pa, NULL); /* path off: cpu */
    gpu_test_emulate(INT64_MAX, 1000);
    sq_gpu_stats_t st;
    sq_gpu_stats_thread(&st, 1);
    int64_t rb = f2mat_rref_pool(&b, pb, NULL); /* 1100 >= 1000: gpu */
    sq_gpu_stats_thread(&st, 1);
    ASSERT_EQ(st.rrs, 1);
    ASSERT_EQ(rb, ra);
    ASSERT_EQ(ra, 600);
    ASSERT_MAT_EQ(&b, &a);
    for (int64_t k = 0; k < 1500; k++)
        ASSERT_EQ(pb[k], pa[k]);
    sq_gpu_shutdown();
    gpu_test_emulate(INT64_MAX, 2000);
    int64_t rc = f2mat_rref(&c, NULL); /* 1100 < 2000: cpu */
    sq_gpu_stats_thread(&st, 1);
    ASSERT_EQ(st.rrs, 0);
    ASSERT_EQ(rc, 600);
    sq_gpu_shutdown();
    sq_trace_set_context(-1, -1, -1);
    unsetenv("ADAMS_LOG");
    unsetenv("ADAMS_LOG_FILE");
    sq_trace_reset();
    char *log = sq_test_slurp(path);
    unlink(path);
    ASSERT_EQ(sq_test_count_lines(log), 3);
    const char *l1 = strstr(log, "path=cpu");
    const char *l2 = strstr(log, "path=gpu");
    ASSERT(l1 && l2 && l1 < l2);
    ASSERT(strstr(log, "event=rr rows=1100 cols=1500 min=1100 rank=600 path=gpu") != NULL);
    ASSERT(strstr(log, "event=rr rows=1100 cols=1500 min=1100 rank=600 path=cpu") != NULL);
    ASSERT(strstr(l2, "s=7 t=50 sig=3") != NULL);
    sq_free(log);
    sq_free(pa);
    sq_free(pb);
    f2mat_clear(&a);
    f2mat_clear(&b);
    f2mat_clear(&c);
}

/* The device RREF against the CPU on wider and taller matrices than the
 * kernel-level test, through sq_gpu_rref itself. */
TEST(rref_emulated_vs_cpu)
{
    gpu_test_emulate(INT64_MAX, INT64_MAX);
    sq_rand_t *rnd = sq_test_rand();
    const int64_t shapes[][2] = {{300, 2000}, {2000, 300}, {700, 700}, {130, 5000}, {1, 1}};
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        f2mat_t a = {0}, b = {0};
        f2mat_init_aug(&a, shapes[k][0], shapes[k][1]);
        for (int64_t i = 0; i < a.rows; i++)
            for (int64_t j = 0; j < shapes[k][1]; j++)
                if (sq_rand_below(rnd, 12) == 0)
                    f2mat_set(&a, i, j, 1);
        f2mat_init_set(&b, &a);
        int64_t *pa = sq_malloc((size_t)a.cols * 8), *pb = sq_malloc((size_t)a.cols * 8), rb = -1;
        int64_t ra = f2mat_rref(&a, pa);
        ASSERT_EQ(sq_gpu_rref(&b, pb, &rb), 0);
        ASSERT_EQ(rb, ra);
        ASSERT_MAT_EQ(&b, &a);
        for (int64_t c = 0; c < a.cols; c++)
            ASSERT_EQ(pb[c], pa[c]);
        sq_free(pa);
        sq_free(pb);
        f2mat_clear(&a);
        f2mat_clear(&b);
    }
    sq_gpu_shutdown();
}

/* Runs fn in a child process with stderr captured; returns its exit status
 * (-1 if it did not exit) and its stderr in *err. */
static int in_child(void (*fn)(void), char **err)
{
    char path[] = "/tmp/adams-gpu-err-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        fn();
        _exit(0);
    }
    close(fd);
    int st = 0;
    ASSERT(waitpid(pid, &st, 0) == pid);
    *err = sq_test_slurp(path);
    unlink(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void corrupt_build(void)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = s.verify = s.emulate = 1;
    s.min_work = 0;
    char why[256];
    if (sq_gpu_init(&s, why, sizeof why) != 0)
        _exit(90);
    sq_gpu_emu_set_corrupt(1);
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 6, 20);
    sq_trace_set_context(5, 40, 2); /* as a step would */
    resol_run(R, RESOL_NASSAU);     /* the first device build differs: stops */
    _exit(91);
}

static void corrupt_build_direct(void)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = s.verify = s.emulate = 1;
    s.min_work = 0;
    char why[256];
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 6, 20);
    resol_run(R, RESOL_NASSAU);
    if (sq_gpu_init(&s, why, sizeof why) != 0)
        _exit(90);
    sq_gpu_emu_set_corrupt(1);
    sq_trace_set_context(5, 40, 2);
    f2mat_t m = {0};
    build(resol_differential(R, 3), &m, 18, 18, NULL, 0, NULL, 0);
    _exit(91);
}

/* Verify mode: a device result that differs from the CPU's stops the
 * program with status 3 and one line naming the bidegree and signature. */
TEST(verify_stops_with_one_line)
{
    char *err;
    int st = in_child(corrupt_build_direct, &err);
    ASSERT_EQ(st, SQ_GPU_VERIFY_EXIT);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    ASSERT(strstr(err, "adams: GPU verify: matrix build differs from the CPU at (s, t) = (5, 40), "
                       "stem 35, signature 2: ") == err);
    sq_free(err);
    /* Inside a resolution the steps set their own context. */
    st = in_child(corrupt_build, &err);
    ASSERT_EQ(st, SQ_GPU_VERIFY_EXIT);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    ASSERT(strstr(err, "adams: GPU verify: matrix build differs from the CPU at (s, t) = (") ==
           err);
    sq_free(err);
}

static void corrupt_rref(void)
{
    /* A wrong RREF: the emulator is fine, so break it by hand -- a device
     * result compared against a CPU result of a different matrix. */
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = s.verify = s.emulate = 1;
    s.rr_min = 1;
    char why[256];
    if (sq_gpu_init(&s, why, sizeof why) != 0)
        _exit(90);
    f2mat_t a = {0}, b = {0};
    f2mat_init(&a, 3, 3);
    f2mat_init(&b, 3, 3);
    f2mat_set(&a, 0, 0, 1);
    f2mat_set(&b, 0, 1, 1);
    sq_trace_set_context(2, 9, -1);
    sq_gpu_verify_rows("row reduction", &a, &b);
    _exit(91);
}

TEST(verify_rref_line)
{
    char *err;
    int st = in_child(corrupt_rref, &err);
    ASSERT_EQ(st, SQ_GPU_VERIFY_EXIT);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    ASSERT(strstr(err, "adams: GPU verify: row reduction differs from the CPU at (s, t) = (2, 9), "
                       "stem 7, no signature: 1 of 3 rows differ, first row 0 (3 columns)") == err);
    sq_free(err);
}

/* Without a device (or without CUDA) the real backend declines with one
 * line, nothing is offered, and the CPU computes as always.  With a device
 * it starts. */
TEST(no_device_declines_in_one_line)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = 1;
    char why[256];
    int rc = sq_gpu_init(&s, why, sizeof why);
    if (rc == 0) {
        ASSERT(sq_gpu_available());
        ASSERT(strlen(sq_gpu_device()) > 0);
        printf("device: %s\n", sq_gpu_device());
        sq_gpu_shutdown();
        return;
    }
    ASSERT_EQ(rc, SQ_E_NOGPU);
    ASSERT(strlen(why) > 10);
    ASSERT(strchr(why, '\n') == NULL);
    printf("declined: %s\n", why);
    ASSERT(!sq_gpu_available());
    ASSERT(!sq_gpu_on());
    ASSERT_STR_EQ(sq_gpu_device(), "");
    f2mat_t m = {0};
    f2mat_init(&m, 5, 5);
    int64_t rank = 0;
    ASSERT_EQ(sq_gpu_rref(&m, NULL, &rank), SQ_E_NOGPU);
    f2mat_clear(&m);
    /* Not asked for: declines too, and says so. */
    sq_gpu_settings_default(&s);
    ASSERT_EQ(sq_gpu_init(&s, why, sizeof why), SQ_E_NOGPU);
    ASSERT(strlen(why) > 0);
}

/* What the program calls: sq_gpu_setup(want) with the environment. */
TEST(setup_and_environment)
{
    char why[256];
    unsetenv("ADAMS_GPU");
    unsetenv("ADAMS_GPU_VERIFY");
    ASSERT_EQ(sq_gpu_setup(0, why, sizeof why), 0);
    ASSERT(!sq_gpu_available());
    setenv("ADAMS_GPU_EMULATE", "1", 1);
    ASSERT_EQ(sq_gpu_setup(1, why, sizeof why), 1);
    ASSERT(sq_gpu_available());
    ASSERT(!sq_gpu_verify_on());
    ASSERT_STR_EQ(sq_gpu_device(), "emulator (the kernels' code run on the CPU)");
    setenv("ADAMS_GPU_VERIFY", "1", 1);
    setenv("ADAMS_GPU_MIN_WORK", "123", 1);
    setenv("ADAMS_GPU_RR_MIN", "77", 1);
    setenv("ADAMS_GPU_MEM_MB", "64", 1);
    ASSERT_EQ(sq_gpu_setup(0, why, sizeof why), 1); /* verify implies enable */
    ASSERT(sq_gpu_verify_on());
    ASSERT_EQ(sq_gpu_g.set.min_work, 123);
    ASSERT_EQ(sq_gpu_g.set.rr_min, 77);
    ASSERT_EQ((int64_t)sq_gpu_g.cap, INT64_C(64) << 20);
    setenv("ADAMS_GPU_MIN_WORK", "12x", 1);
    ASSERT_EQ(sq_gpu_setup(1, why, sizeof why), SQ_E_INVAL);
    ASSERT(strstr(why, "ADAMS_GPU_MIN_WORK") != NULL);
    ASSERT(strchr(why, '\n') == NULL);
    setenv("ADAMS_GPU_MIN_WORK", "5", 1);
    setenv("ADAMS_GPU", "2", 1);
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    ASSERT_EQ(sq_gpu_settings_from_env(&s, why, sizeof why), SQ_E_INVAL);
    ASSERT(strstr(why, "ADAMS_GPU:") != NULL);
    ASSERT_EQ(s.min_work, INT64_C(1) << 18); /* unchanged on error */
    unsetenv("ADAMS_GPU");
    unsetenv("ADAMS_GPU_VERIFY");
    unsetenv("ADAMS_GPU_EMULATE");
    unsetenv("ADAMS_GPU_MIN_WORK");
    unsetenv("ADAMS_GPU_RR_MIN");
    unsetenv("ADAMS_GPU_MEM_MB");
    sq_gpu_shutdown();
    ASSERT(!sq_gpu_available());
}

/* Every lane busy: the offer is declined at once (no waiting), counted,
 * and the CPU builds. */
TEST(busy_lanes_decline)
{
    fdmod_t *M;
    resol_t *R = resolve_s2(8, 20, RESOL_NASSAU, &M);
    const fhom_t *d = resol_differential(R, 3);
    f2mat_t a = {0}, b = {0};
    build(d, &a, 20, 20, NULL, 0, NULL, 0);
    gpu_test_emulate(0, 1);
    gpu_lane_t *held[SQ_GPU_LANES];
    for (int i = 0; i < SQ_GPU_LANES; i++)
        ASSERT((held[i] = gpu_lane_acquire()) != NULL);
    ASSERT(gpu_lane_acquire() == NULL);
    sq_gpu_stats_t st;
    sq_gpu_stats_thread(&st, 1);
    build(d, &b, 20, 20, NULL, 0, NULL, 0);
    sq_gpu_stats_thread(&st, 1);
    ASSERT_EQ(st.builds, 0);
    ASSERT_EQ(st.declined, 1);
    ASSERT_MAT_EQ(&b, &a);
    for (int i = 0; i < SQ_GPU_LANES; i++)
        gpu_lane_release(held[i]);
    sq_gpu_shutdown();
    f2mat_clear(&a);
    f2mat_clear(&b);
    resol_free(R);
    fdmod_free(M);
}

/* A reduction larger than ADAMS_GPU_MEM_MB allows is declined and done on
 * the CPU; builds drop their configuration cache rather than pass the cap. */
TEST(memory_cap_declines)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = s.emulate = 1;
    s.mem_mb = 1;
    s.rr_min = 1;
    s.min_work = 0;
    char why[256];
    ASSERT_EQ(sq_gpu_init(&s, why, sizeof why), 0);
    sq_rand_t *rnd = sq_test_rand();
    f2mat_t a = {0}, b = {0};
    f2mat_init(&a, 3000, 3000); /* 1.1 MiB on the device */
    f2mat_randomize(&a, rnd);
    f2mat_init_set(&b, &a);
    sq_gpu_stats_t st;
    sq_gpu_stats_thread(&st, 1);
    int64_t rb = f2mat_rref(&b, NULL);
    sq_gpu_stats_thread(&st, 1);
    ASSERT_EQ(st.rrs, 0);
    ASSERT_EQ(st.declined, 1);
    sq_gpu_shutdown();
    ASSERT_EQ(f2mat_rref(&a, NULL), rb);
    ASSERT_MAT_EQ(&b, &a);
    ASSERT_EQ((int64_t)sq_gpu_g.used, 0);
    f2mat_clear(&a);
    f2mat_clear(&b);
    /* A whole resolution within 1 MiB: it completes and is right. */
    ASSERT_EQ(sq_gpu_init(&s, why, sizeof why), 0);
    fdmod_t *M;
    resol_t *R = resolve_s2(16, 34, RESOL_NASSAU, &M);
    sq_test_check_s2_table(R, 34, 16);
    ASSERT(sq_gpu_g.used <= sq_gpu_g.cap);
    resol_free(R);
    fdmod_free(M);
    sq_gpu_shutdown();
}

/* Sub-Hopf algebras (the classical engine over A(n)) stay on the CPU. */
TEST(subalgebra_declines)
{
    gpu_test_emulate(0, INT64_MAX);
    const int32_t h[] = {2, 1};
    milnor_t *B = milnor_new_profile(40, h, 2);
    int32_t gen_deg[1] = {0};
    int64_t gen_block0[2] = {0, 0}, row_gen[1] = {0}, row_ridx[1] = {0};
    sq_gpu_build_t job = {B, 0, 1, 1, gen_deg, gen_block0, NULL, NULL, 1, row_gen, row_ridx};
    f2mat_t m = {0};
    f2mat_init(&m, 1, 1);
    ASSERT_EQ(sq_gpu_build_rows(&job, &m, 0), SQ_E_NOGPU);
    f2mat_clear(&m);
    milnor_free(B);
    sq_gpu_shutdown();
}
