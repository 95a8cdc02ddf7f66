/*
 * t-oracles.c -- cross-checks beyond the naive reducer: libm4ri's
 * mzd_echelonize(A, 1) where it is installed (single-threaded only: libm4ri
 * is not thread-safe), the portable kernels against the dispatched ones
 * through the whole reducer, and concurrent reductions from several threads
 * (no global state may be shared between calls).
 */
#include <pthread.h>
#include <string.h>

#include "f2mat.h"
#include "sq_test.h"

#include "fp_test_util.h"

#ifdef SQ_HAVE_M4RI
#include <m4ri/m4ri.h>

static int64_t m4ri_rref(f2mat_t *out, const f2mat_t *a)
{
    mzd_t *z = mzd_init((rci_t)a->rows, (rci_t)a->cols);
    int64_t nl = f2_limbs(a->cols);
    for (int64_t i = 0; i < a->rows; i++)
        memcpy(mzd_row(z, (rci_t)i), f2mat_row(a, i), sizeof(uint64_t) * (size_t)nl);
    int64_t r = mzd_echelonize(z, 1);
    f2mat_init(out, a->rows, a->cols);
    for (int64_t i = 0; i < a->rows; i++)
        memcpy(f2mat_row(out, i), mzd_row(z, (rci_t)i), sizeof(uint64_t) * (size_t)nl);
    mzd_free(z);
    return r;
}
#endif

TEST(rref_vs_libm4ri)
{
#ifdef SQ_HAVE_M4RI
    sq_rand_t *rng = sq_test_rand();
    static const int64_t shapes[][3] = {
        {1, 1, 0},          {64, 64, 0},     {65, 129, 0},      {200, 3000, 0},
        {3000, 200, 0},     {1000, 1000, 0}, {1000, 1000, 400}, {2048, 2048, 0},
        {2100, 1900, 1000}, {100, 30000, 0}, {513, 777, 200},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        f2mat_t a = {0}, ours = {0}, theirs = {0};
        if (shapes[s][2] == 0) {
            f2mat_init(&a, shapes[s][0], shapes[s][1]);
            f2mat_randomize(&a, rng);
        } else {
            random_low_rank(&a, shapes[s][0], shapes[s][1], shapes[s][2], rng);
        }
        f2mat_init_set(&ours, &a);
        int64_t r1 = f2mat_rref(&ours, NULL);
        int64_t r2 = m4ri_rref(&theirs, &a);
        ASSERT_EQ(r1, r2);
        ASSERT(f2mat_equal(&ours, &theirs));
        f2mat_clear(&a);
        f2mat_clear(&ours);
        f2mat_clear(&theirs);
    }
#else
    printf("     libm4ri not available: skipped\n");
#endif
}

typedef struct {
    const f2mat_t *in;
    const f2mat_t *want;
    int n;
    int fail;
} job_t;

static void *worker(void *arg)
{
    job_t *j = arg;
    for (int rep = 0; rep < 3; rep++)
        for (int i = 0; i < j->n; i++) {
            f2mat_t w = {0};
            f2mat_init_set(&w, &j->in[i]);
            f2mat_rref(&w, NULL);
            if (!f2mat_equal(&w, &j->want[i]))
                j->fail = 1;
            f2mat_clear(&w);
        }
    return NULL;
}

/* Four threads reduce different matrices at the same time and must get the
 * single-threaded results. */
TEST(rref_concurrent)
{
    enum { NT = 4, PER = 4 };
    sq_rand_t *rng = sq_test_rand();
    f2mat_t in[NT * PER], want[NT * PER];
    for (int i = 0; i < NT * PER; i++) {
        int64_t rows = 100 + (int64_t)sq_rand_below(rng, 900);
        int64_t cols = 100 + (int64_t)sq_rand_below(rng, 900);
        memset(&in[i], 0, sizeof in[i]);
        memset(&want[i], 0, sizeof want[i]);
        if (i % 2)
            random_low_rank(&in[i], rows, cols, rows / 2, rng);
        else {
            f2mat_init(&in[i], rows, cols);
            f2mat_randomize(&in[i], rng);
        }
        f2mat_init_set(&want[i], &in[i]);
        f2mat_rref_naive(&want[i], NULL);
    }
    pthread_t th[NT];
    job_t jobs[NT];
    for (int t = 0; t < NT; t++) {
        jobs[t] = (job_t){in + t * PER, want + t * PER, PER, 0};
        ASSERT(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        ASSERT_EQ(jobs[t].fail, 0);
    }
    for (int i = 0; i < NT * PER; i++) {
        f2mat_clear(&in[i]);
        f2mat_clear(&want[i]);
    }
}
