/*
 * t-resolve-limits.c -- `adams resolve` at the edges: a region that cannot
 * fit is refused before anything is allocated (exit 3, with the estimate),
 * an allocation failure ends with one line and exit 3 (never an abort), a
 * thread that cannot start ends with one line and exit 4, --gpu without a
 * device says so and runs on the CPU, modules at odd primes resolve and
 * equal the peer's table, and the tall region takes the classical
 * engine's time.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_test.h"

static int run(const char *args, char **out, char **err)
{
    return sq_test_run_adams(args, out, err);
}

static void one_line_error(int line, const char *args, int rc_want, const char *prefix)
{
    char *out, *err;
    int rc = run(args, &out, &err);
    if (rc != rc_want || out[0] || sq_test_count_lines(err) != 1 ||
        strncmp(err, prefix, strlen(prefix)) != 0)
        sq_test_fail(__FILE__, line, "adams %s: rc %d (want %d)\n--- stdout\n%s--- stderr\n%s",
                     args, rc, rc_want, out, err);
    sq_free(out);
    sq_free(err);
}

TEST(resolve_refuses_what_cannot_fit)
{
    /* --stem 1000 --max-s 1: the first step alone needs hundreds of TB. */
    one_line_error(__LINE__, "resolve --stem 1000 --max-s 1 --quiet", 3,
                   "adams: stem 1000 with filtration 1 needs about ");
    /* --max-memory is the limit when given. */
    one_line_error(__LINE__, "resolve --stem 100 --max-memory 1M --quiet", 3,
                   "adams: stem 100 with filtration 53 needs about ");
    one_line_error(__LINE__, "resolve --stem 10 --max-memory lots", 2,
                   "adams: --max-memory: expected a size such as 500M or 8G, got 'lots'");
    /* A region that fits runs. */
    char *out, *err;
    ASSERT_EQ(run("resolve --stem 20 --max-memory 64M --quiet --format csv", &out, &err), 0);
    ASSERT_EQ(sq_test_count_lines(out), 21 * 14);
    sq_free(out);
    sq_free(err);
}

TEST(resolve_out_of_memory_and_threads)
{
    /* An allocation failure (the test hook ADAMS_FAULT_ALLOC_BYTES makes
     * every allocation above 100 kB fail): one line, exit 3, no abort. */
    setenv("ADAMS_FAULT_ALLOC_BYTES", "100000", 1);
    one_line_error(__LINE__, "resolve --stem 60 --quiet", 3,
                   "adams: out of memory: could not allocate ");
    unsetenv("ADAMS_FAULT_ALLOC_BYTES");
    /* A worker thread that cannot be created (ADAMS_FAULT_THREADS): exit 4. */
    setenv("ADAMS_FAULT_THREADS", "1", 1);
    one_line_error(__LINE__, "resolve --stem 20 --threads 3 --quiet", 4,
                   "adams: could not start 3 threads");
    one_line_error(__LINE__, "products --stem 10 --threads 2 --quiet", 4,
                   "adams: could not start 2 threads");
    unsetenv("ADAMS_FAULT_THREADS");
}

TEST(resolve_gpu_without_a_device)
{
    char *out, *err, *out2, *err2;
    ASSERT_EQ(run("resolve --stem 30 --gpu --format csv", &out, &err), 0);
    ASSERT(strstr(err, "--gpu: ") != NULL && strstr(err, "running on the CPU") != NULL);
    ASSERT_EQ(run("resolve --stem 30 --format csv --quiet", &out2, &err2), 0);
    ASSERT_STR_EQ(out, out2);
    sq_free(out);
    sq_free(err);
    sq_free(out2);
    sq_free(err2);
}

/* The odd-prime path through the program: S_3 through (100, 30) equals the
 * peer's table; the shipped C3 and a shift resolve. */
TEST(resolve_odd_primes)
{
    char *out, *err;
    ASSERT_EQ(run("resolve S_3 --stem 100 --max-s 30 --format csv --quiet", &out, &err), 0);
    char *want = sq_test_data_body("ext-S3-n100-s30.csv");
    char *body = want;
    ASSERT_STR_EQ(out, body);
    sq_free(out);
    sq_free(err);
    sq_free(want);
    ASSERT_EQ(run("resolve 'C3[2]' --stem 20 --threads 2 --format csv --quiet", &out, &err), 0);
    ASSERT(strncmp(out, "2,0,1\n", 6) == 0); /* the bottom cell, shifted to degree 2 */
    sq_free(out);
    sq_free(err);
    one_line_error(__LINE__, "resolve S_3 --stem 20 --algorithm nassau", 2,
                   "adams: --algorithm nassau works at the prime 2 only");
    one_line_error(__LINE__, "products S_3 --stem 20 --gpu", 2,
                   "adams: products: --gpu: S_3 is a module at the odd prime 3: the GPU path ");
}

/* The largest zcache_mb + hand_mb of the event=phase lines in err (the
 * blocks and handed matrices of Nassau's cache after each step). */
static double cache_mb_max(const char *err)
{
    double most = 0;
    for (const char *p = err; (p = strstr(p, "event=phase ")) != NULL; p++) {
        const char *z = strstr(p, " zcache_mb="), *h = strstr(p, " hand_mb=");
        const char *eol = strchr(p, '\n');
        if (!z || !h || (eol && (z > eol || h > eol)))
            continue;
        double mb = strtod(z + 11, NULL) + strtod(h + 9, NULL);
        most = mb > most ? mb : most;
    }
    return most;
}

/* The modelled peak of `adams resolve ARGS` in MiB, read from its
 * refusal under --max-memory 1K ("needs about 5.63 MB", MB = MiB). */
static double model_mib(const char *region)
{
    char args[200], *out, *err;
    snprintf(args, sizeof args, "%s --max-memory 1K", region);
    int rc = run(args, &out, &err);
    const char *p = strstr(err, "needs about ");
    double mib = p ? strtod(p + 12, NULL) : -1;
    if (rc != 3 || !p || !strstr(p, " MB "))
        sq_test_fail(__FILE__, __LINE__, "adams %s: rc %d, %s", args, rc, err);
    sq_free(out);
    sq_free(err);
    return mib;
}

/* --max-memory 5M gives Nassau's cache (the blocks of the corrections and
 * the handed step matrices) the budget of resol_cache_budget: the limit
 * less half the modelled peak (the part that is not cache), at least a
 * third; after every step they hold at most that (S_2 through (80, 30)
 * needs ~3 MiB unbounded; the old bound kept every row's newest blocks),
 * and the answer is the unbudgeted one, on one thread and on two. */
TEST(resolve_cache_budget_honored)
{
    char *ref, *rerr, *out, *err;
    const char *region = "resolve --stem 80 --max-s 30 --format csv --quiet";
    char args[160];
    double limit = 5.0, model = model_mib(region);
    double budget = limit - 0.5 * model > limit / 3 ? limit - 0.5 * model : limit / 3;
    ASSERT_EQ(run(region, &ref, &rerr), 0);
    setenv("ADAMS_LOG", "phase", 1);
    snprintf(args, sizeof args, "%s --threads 1", region);
    ASSERT_EQ(run(args, &out, &err), 0);
    double unbounded = cache_mb_max(err);
    if (unbounded < budget + 0.3) /* the budget below must bind */
        sq_test_fail(__FILE__, __LINE__, "unbounded cache %.2f MiB, budget %.2f", unbounded,
                     budget);
    sq_free(out);
    sq_free(err);
    for (int threads = 1; threads <= 2; threads++) {
        snprintf(args, sizeof args, "%s --max-memory 5M --threads %d", region, threads);
        ASSERT_EQ(run(args, &out, &err), 0);
        ASSERT_STR_EQ(out, ref);
        double most = cache_mb_max(err);
        ASSERT(most > 0);
        if (threads == 1 && most > budget + 0.05)
            sq_test_fail(__FILE__, __LINE__, "cache at %.2f MiB over its %.2f MiB budget", most,
                         budget);
        sq_free(out);
        sq_free(err);
    }
    unsetenv("ADAMS_LOG");
    sq_free(ref);
    sq_free(rerr);
}
