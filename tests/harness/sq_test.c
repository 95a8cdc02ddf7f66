/*
 * sq_test.c -- registry and main() of the test harness (see sq_test.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_test.h"

#include <stdarg.h>

#define MAX_TESTS 512

static struct {
    const char *name;
    sq_test_fn fn;
} tests[MAX_TESTS];
static int ntests;
static const char *current;
static sq_rand_t rng;
static uint64_t seed = 17;

void sq_test_register(const char *name, sq_test_fn fn)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "too many tests\n");
        exit(2);
    }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
}

sq_rand_t *sq_test_rand(void)
{
    return &rng;
}

uint64_t sq_test_seed(void)
{
    return seed;
}

int64_t sq_test_iters(int64_t n)
{
    const char *m = getenv("SQ_TEST_MULTIPLIER");
    double f = m ? atof(m) : 1.0;
    int64_t r = (int64_t)((double)n * f);
    return r < 1 ? 1 : r;
}

const char *sq_test_data_path(const char *file)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", SQ_TEST_DATA_DIR, file);
    return buf;
}

void sq_test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "FAIL %s (%s:%d, seed=%" PRIu64 "): ", current ? current : "?", file, line,
            seed);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void run(int i)
{
    current = tests[i].name;
    sq_rand_init(&rng, seed ^ hash_name(current));
    double t0 = sq_wtime();
    tests[i].fn();
    printf("ok   %-40s %.3f s\n", current, sq_wtime() - t0);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *s = getenv("SQ_TEST_SEED");
    if (s)
        seed = strtoull(s, NULL, 0);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < ntests; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    if (argc == 1) {
        for (int i = 0; i < ntests; i++)
            run(i);
        return 0;
    }
    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < ntests; i++)
            if (strcmp(tests[i].name, argv[a]) == 0) {
                run(i);
                found = 1;
            }
        if (!found) {
            fprintf(stderr, "no such test: %s\n", argv[a]);
            return 2;
        }
    }
    return 0;
}
