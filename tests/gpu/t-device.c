/*
 * t-device.c -- the device path on a real GPU (the CUDA backend).  Each test
 * starts the path on the device and skips (exit 77) when it declines: in a
 * build without CUDA and on a machine without a GPU.  SQ_REQUIRE_GPU=1
 * turns a decline into a failure (bench/gpu-check.sh sets it).
 */
#include "fdmod.h"
#include "fhom.h"
#include "fmod.h"
#include "gpu_test.h"
#include "resol.h"
#include "sq_pool.h"
#include "sq_test_resol.h"

static void device(int64_t min_work, int64_t rr_min, int verify)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = 1;
    s.verify = verify;
    s.min_work = min_work;
    s.rr_min = rr_min;
    gpu_test_device_or_skip(&s);
    printf("device: %s\n", sq_gpu_device());
}

/* Every matrix d_s in degree t of S_2 through (40, 20), built on the device
 * and on the CPU. */
TEST(device_builds_vs_cpu)
{
    device(0, INT64_MAX, 0);
    sq_gpu_shutdown();
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 20, 40);
    resol_run(R, RESOL_NASSAU);
    int64_t compared = 0;
    for (int32_t s = 1; s <= 20; s++) {
        const fhom_t *d = resol_differential(R, s);
        const fmod_t *F = resol_free_module(R, s);
        for (int32_t t = s; t <= s + 40; t++) {
            int64_t rows = fmod_dim_below(F, t, t + 1);
            if (!rows)
                continue;
            f2mat_t a = {0}, b = {0};
            f2mat_init(&a, rows, fhom_target_dim(d, t));
            f2mat_init(&b, rows, fhom_target_dim(d, t));
            fhom_build_rows(d, &a, 0, t, t + 1);
            device(0, INT64_MAX, 0);
            sq_gpu_stats_t st;
            sq_gpu_stats_thread(&st, 1);
            fhom_build_rows(d, &b, 0, t, t + 1);
            sq_gpu_stats_thread(&st, 1);
            sq_gpu_shutdown();
            ASSERT_EQ(st.builds, 1);
            ASSERT_MAT_EQ(&b, &a);
            compared++;
            f2mat_clear(&a);
            f2mat_clear(&b);
        }
    }
    ASSERT(compared > 300);
    resol_free(R);
    fdmod_free(M);
}

/* The device RREF against the CPU: edge sizes, augmented matrices, low
 * rank, and two large ones. */
TEST(device_rref_vs_cpu)
{
    device(INT64_MAX, INT64_MAX, 0);
    sq_rand_t *rnd = sq_test_rand();
    const int64_t shapes[][2] = {{1, 1},       {64, 64},     {65, 129},
                                 {129, 65},    {1000, 3000}, {3000, 1000},
                                 {4096, 4096}, {6000, 9000}, {100, 100000}};
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        f2mat_t a = {0}, b = {0};
        if (k % 2)
            f2mat_init_aug(&a, shapes[k][0], shapes[k][1]);
        else
            f2mat_init(&a, shapes[k][0], shapes[k][1]);
        for (int64_t i = 0; i < a.rows; i++)
            for (int64_t j = 0; j < shapes[k][1]; j += 1 + (int64_t)sq_rand_below(rnd, 8))
                f2mat_set(&a, i, j, 1);
        if (k == 6) /* half rank */
            for (int64_t i = a.rows / 2; i < a.rows; i++)
                memcpy(f2mat_row(&a, i), f2mat_row(&a, i - a.rows / 2),
                       (size_t)f2_limbs(a.cols) * 8);
        f2mat_init_set(&b, &a);
        int64_t *pa = sq_malloc((size_t)a.cols * 8), *pb = sq_malloc((size_t)a.cols * 8), rb = -1;
        double t0 = sq_wtime();
        int64_t ra = f2mat_rref(&a, pa);
        double t1 = sq_wtime();
        ASSERT_EQ(sq_gpu_rref(&b, pb, &rb), 0);
        double t2 = sq_wtime();
        printf("  rref %lld x %lld rank %lld: cpu %.3f s, device %.3f s\n", (long long)a.rows,
               (long long)a.cols, (long long)ra, t1 - t0, t2 - t1);
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

/* Whole resolutions with every build and reduction offered to the device,
 * verify mode on (a difference ends the process with status 3), on two
 * threads: the reference table. */
TEST(device_resolve_verify_threads)
{
    device(0, 64, 1);
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 30, 60);
    sq_pool_t *pool = sq_pool_new(4);
    resol_run_pool(R, RESOL_NASSAU, pool, NULL);
    sq_test_check_s2_table(R, 60, 30);
    resol_free(R);
    R = resol_new(M, 20, 40);
    resol_run_pool(R, RESOL_CLASSICAL, pool, NULL);
    sq_test_check_s2_table(R, 40, 20);
    sq_gpu_stats_t st;
    sq_gpu_stats_total(&st);
    printf("  builds %lld (%lld rows, %lld products, %lld launches), rrs %lld, declined %lld, "
           "%.1f ms\n",
           (long long)st.builds, (long long)st.build_rows, (long long)st.products,
           (long long)st.launches, (long long)st.rrs, (long long)st.declined, st.ms);
    ASSERT(st.builds > 100);
    ASSERT(st.rrs > 10);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
    sq_gpu_shutdown();
}
