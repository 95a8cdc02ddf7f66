/*
 * sq_test.c -- registry and main() of the test harness (see sq_test.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_test.h"

#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

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

char *sq_test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sq_strdup("");
    size_t cap = 4096, n = 0, k;
    char *buf = sq_malloc(cap);
    while ((k = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) {
            cap *= 2;
            buf = sq_realloc(buf, cap);
        }
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

char *sq_test_data_body(const char *file)
{
    char *all = sq_test_slurp(sq_test_data_path(file));
    const char *body = all;
    while (*body == '#') {
        const char *nl = strchr(body, '\n');
        body = nl ? nl + 1 : body + strlen(body);
    }
    char *copy = sq_strdup(body);
    sq_free(all);
    return copy;
}

char *sq_test_data_renamed(const char *file, const char *from, const char *to)
{
    char *body = sq_test_data_body(file);
    size_t n = strlen(body), cap = n * 2 + strlen(to) + 64, k = 0, fl = strlen(from);
    char *out = sq_malloc(cap);
    for (const char *p = body; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p + 1) : strlen(p);
        if (strncmp(p, from, fl) == 0) {
            k += (size_t)snprintf(out + k, cap - k, "%s", to);
            p += fl;
            len -= fl;
        }
        memcpy(out + k, p, len);
        k += len;
        p += len;
    }
    out[k] = '\0';
    sq_free(body);
    return out;
}

int sq_test_run_adams(const char *args, char **out, char **err)
{
#ifdef SQ_ADAMS_BIN
    char o[] = "/tmp/adams-test-out-XXXXXX", e[] = "/tmp/adams-test-err-XXXXXX";
    int fo = mkstemp(o), fe = mkstemp(e);
    if (fo < 0 || fe < 0)
        sq_test_fail(__FILE__, __LINE__, "mkstemp failed");
    close(fo);
    close(fe);
    size_t n = strlen(args) + strlen(SQ_ADAMS_BIN) + 2 * sizeof o + 16;
    char *cmd = sq_malloc(n);
    snprintf(cmd, n, "'%s' %s >%s 2>%s", SQ_ADAMS_BIN, args, o, e);
    int st = system(cmd);
    sq_free(cmd);
    *out = sq_test_slurp(o);
    *err = sq_test_slurp(e);
    unlink(o);
    unlink(e);
    if (!WIFEXITED(st))
        sq_test_fail(__FILE__, __LINE__, "adams %s did not exit normally", args);
    return WEXITSTATUS(st);
#else
    (void)args, (void)out, (void)err;
    sq_test_fail(__FILE__, __LINE__, "no adams binary in this test build");
#endif
}

sq_test_run_t sq_test_runf(const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    sq_test_run_t r;
    r.rc = sq_test_run_adams(args, &r.out, &r.err);
    return r;
}

char *sq_test_run_ok(const char *file, int line, const char *args)
{
    char *out, *err;
    int rc = sq_test_run_adams(args, &out, &err);
    if (rc != 0)
        sq_test_fail(file, line, "adams %s: exit %d\n%s", args, rc, err);
    sq_free(err);
    return out;
}

void sq_test_run_free(sq_test_run_t *r)
{
    sq_free(r->out);
    sq_free(r->err);
}

int sq_test_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
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

void sq_test_expect_run(const char *file, int line, const char *args, int rc, const char *out,
                        const char *err)
{
    sq_test_run_t r = sq_test_runf("%s", args);
    if (r.rc != rc || (out && strcmp(r.out, out) != 0) || (err && strcmp(r.err, err) != 0))
        sq_test_fail(file, line, "adams %s: rc %d (want %d)\n--- stdout\n%s--- stderr\n%s", args,
                     r.rc, rc, r.out, r.err);
    sq_test_run_free(&r);
}

void sq_test_make_dir(char *dir, size_t n, const char *tag)
{
    snprintf(dir, n, "/tmp/adams-%s-XXXXXX", tag);
    if (!mkdtemp(dir))
        sq_test_fail(__FILE__, __LINE__, "cannot make a directory %s", dir);
}

void sq_test_remove_dir(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        sq_test_fail(__FILE__, __LINE__, "cannot remove %s", dir);
}
