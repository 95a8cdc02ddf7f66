/*
 * t-api.c -- the C interface for bindings (src/api/adams_api.h), in C, so
 * that the sanitizer builds check it too (the Python tests, tests/python,
 * drive the same functions through ctypes and compare with the program).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adams_api.h"
#include "sq_test.h"

/* The region of h: {prime, min_stem, max_stem, max_s}. */
typedef struct {
    uint32_t p;
    int32_t min_n, max_n, max_s;
} region_t;

static region_t region(const adams_res_t *h)
{
    region_t r;
    adams_region(h, &r.p, &r.min_n, &r.max_n, &r.max_s);
    return r;
}

static adams_res_t *resolved(const char *module, int32_t stem, int threads, const char *save)
{
    char err[1024] = "";
    adams_res_t *h = NULL;
    int rc = adams_prepare(&h, module, stem, -1, threads, 0, save, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "adams_prepare(%s): %d %s", module, rc, err);
    rc = adams_run(h, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "adams_run(%s): %d %s", module, rc, err);
    return h;
}

TEST(api_ext_and_products)
{
    adams_res_t *h = resolved("S_2", 20, 1, NULL);
    char err[256], name[16];
    ASSERT_EQ(region(h).p, 2);
    ASSERT_EQ(region(h).max_n, 20);
    ASSERT_EQ(region(h).max_s, 13);
    ASSERT_EQ(adams_ext_dim(h, 15, 1), 1); /* h_4 */
    ASSERT_EQ(adams_ext_dim(h, 14, 4), 1); /* d_0 */
    ASSERT_EQ(adams_ext_dim(h, 21, 0), -1);
    adams_filt1_name(h, 2, name, sizeof name);
    ASSERT_STR_EQ(name, "h2");
    ASSERT_EQ(adams_filt1_degree(h, 2), 4);
    int32_t one = 1, out[4] = {7, 7, 7, 7}, ind[4];
    ASSERT_EQ(adams_filt1_product(h, 0, 14, 4, &one, 1, out, 1, err, sizeof err), 0);
    ASSERT_EQ(out[0], 1); /* h_0 d_0 != 0 */
    ASSERT_EQ(adams_product(h, 14, 4, &one, 1, 0, 1, &one, 1, out, 1, err, sizeof err), 0);
    ASSERT_EQ(out[0], 1);
    int64_t rows = -1;
    ASSERT_EQ(adams_massey(h, 1, 1, &one, 1, 0, 1, &one, 1, 1, 1, &one, 1, out, 1, ind, 4, &rows,
                           err, sizeof err),
              0);
    ASSERT_EQ(out[0], 1); /* <h1, h0, h1> = h0 h2 */
    ASSERT_EQ(rows, 0);
    ASSERT_EQ(adams_sphere_dim(h, 7, 1, err, sizeof err), 1);
    char *svg;
    size_t len;
    ASSERT_EQ(adams_svg(h, &svg, &len, err, sizeof err), 0);
    ASSERT(len > 1000 && strstr(svg, "<svg") && strlen(svg) == len);
    adams_free_buffer(svg);
    adams_free(h);
}

TEST(api_bad_input_is_an_error)
{
    char err[1024];
    adams_res_t *h = (adams_res_t *)&err; /* set to NULL on failure */
    ASSERT_EQ(adams_prepare(&h, "no_such_module_q", 10, -1, 1, 0, NULL, err, sizeof err),
              ADAMS_E_INPUT);
    ASSERT(h == NULL && strstr(err, "unknown module") && !strchr(err, '\n'));
    ASSERT_EQ(adams_prepare(&h, "C2[", 10, -1, 1, 0, NULL, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_prepare(&h, "S_2", 100000000, -1, 1, 0, NULL, err, sizeof err),
              ADAMS_E_INPUT);
    ASSERT_EQ(adams_prepare(&h, "S_2", -3, -1, 1, 0, NULL, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_prepare(&h, "S_2", 120, -1, 1, 1e6, NULL, err, sizeof err), ADAMS_E_MEMORY);
    ASSERT_EQ(adams_prepare(&h, NULL, 10, -1, 1, 0, NULL, NULL, 0), ADAMS_E_INPUT);
    ASSERT_EQ(adams_open_store(&h, "/nonexistent/x.db", err, sizeof err), ADAMS_E_STORE);
    h = resolved("S_2", 10, 1, NULL);
    int32_t two = 2, one = 1, zero[2] = {0, 0}, out[2];
    ASSERT_EQ(adams_run(h, err, sizeof err), ADAMS_E_STATE);
    ASSERT_EQ(adams_filt1_product(h, 0, 0, 0, &two, 1, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT(strstr(err, "0..1"));
    ASSERT_EQ(adams_filt1_product(h, 0, 0, 0, zero, 2, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_filt1_product(h, 0, 0, 0, &one, 1, out, 2, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_filt1_product(h, 30, 0, 0, &one, 1, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_filt1_product(h, -1, 0, 0, &one, 1, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_filt1_product(h, 0, 11, 0, &one, 1, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_filt1_product(h, 0, 2, 1, &one, 1, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_product(h, 7, 1, &one, 1, 7, 1, &one, 1, out, 1, err, sizeof err),
              ADAMS_E_INPUT); /* lands in stem 14 > 10 */
    ASSERT_EQ(adams_product(h, 0, 0, &one, 1, -1, 1, &one, 1, out, 1, err, sizeof err),
              ADAMS_E_INPUT);
    ASSERT_EQ(adams_massey(h, 0, 1, &one, 1, 0, 1, &one, 1, 0, 0, &one, 1, out, 1, NULL, 0, NULL,
                           err, sizeof err),
              ADAMS_E_INPUT);
    ASSERT(strstr(err, "not defined"));
    ASSERT_EQ(adams_massey(h, INT32_MAX, 1, &one, 1, INT32_MAX, 1, &one, 1, INT32_MAX, 0, &one, 1,
                           out, 1, NULL, 0, NULL, err, sizeof err),
              ADAMS_E_INPUT); /* no overflow on the way (UBSan) */
    ASSERT_EQ(adams_product(h, INT32_MAX, 0, &one, 1, INT32_MAX, 1, &one, 1, out, 1, err,
                            sizeof err),
              ADAMS_E_INPUT);
    ASSERT_EQ(adams_filt1_product(h, 0, INT32_MAX, 0, &one, 1, out, 1, err, sizeof err),
              ADAMS_E_INPUT);
    ASSERT_EQ(adams_sphere_dim(h, INT32_MAX, INT32_MAX, err, sizeof err), ADAMS_E_INPUT);
    ASSERT_EQ(adams_ext_dim(h, INT32_MAX, INT32_MAX), -1);
    ASSERT_EQ(adams_filt1_degree(h, 99), -1);
    adams_free(h);
    adams_free(NULL);
    adams_interrupt(NULL);
}

/* The CSV "n,s,dim" lines of Ext of h (adams resolve --format csv). */
static char *csv_of(const adams_res_t *h)
{
    region_t r = region(h);
    size_t cap = 64 + (size_t)(r.max_n - r.min_n + 1) * (size_t)(r.max_s + 1) * 32, len = 0;
    char *buf = malloc(cap);
    buf[0] = '\0';
    for (int32_t n = r.min_n; n <= r.max_n; n++)
        for (int32_t s = 0; s <= r.max_s; s++)
            len += (size_t)snprintf(buf + len, cap - len, "%d,%d,%d\n", (int)n, (int)s,
                                    (int)adams_ext_dim(h, n, s));
    return buf;
}

/* Module names as on the command line, tensor products included
 * (sq_modref_find): the C interface's Ext equals the program's, and a bad
 * name gives the program's one line. */
TEST(api_names_as_the_program)
{
    static const char *const names[] = {"C2*Ceta", "C2[1]*Ceta", "Ceta*C2@adem"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        adams_res_t *h = resolved(names[i], 14, 1, NULL);
        sq_test_run_t run = sq_test_runf("resolve '%s' --stem 14 --format csv --quiet", names[i]);
        ASSERT_EQ(run.rc, 0);
        char *csv = csv_of(h);
        ASSERT_STR_EQ(csv, run.out);
        free(csv);
        sq_test_run_free(&run);
        adams_free(h);
    }
    static const char *const bad[] = {"C2*", "*C2", "C2*no_such_q", "C2*Ceta@serre",
                                      "a*b*c*d*e*f*g*h*i", "C2*C3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[1024], line[1100];
        adams_res_t *h = NULL;
        ASSERT_EQ(adams_prepare(&h, bad[i], 10, -1, 1, 0, NULL, err, sizeof err), ADAMS_E_INPUT);
        ASSERT(h == NULL);
        sq_test_run_t run = sq_test_runf("resolve '%s' --stem 10", bad[i]);
        ASSERT_EQ(run.rc, 2);
        snprintf(line, sizeof line, "adams: %s\n", err);
        ASSERT_STR_EQ(line, run.err);
        sq_test_run_free(&run);
    }
}

TEST(api_odd_prime_and_threads)
{
    adams_res_t *a = resolved("S_3", 40, 1, NULL), *b = resolved("S_3", 40, 2, NULL);
    ASSERT_EQ(region(a).p, 3);
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= region(a).max_s; s++)
            ASSERT_EQ(adams_ext_dim(a, n, s), adams_ext_dim(b, n, s));
    ASSERT_EQ(adams_ext_dim(a, 10, 2), 1); /* b_0 */
    char name[16], err[256];
    adams_filt1_name(a, 0, name, sizeof name);
    ASSERT_STR_EQ(name, "a0");
    int32_t one = 1, out[1];
    ASSERT_EQ(adams_filt1_product(a, 0, 0, 1, &one, 1, out, 1, err, sizeof err), 0);
    ASSERT_EQ(out[0], 1); /* the a_0-tower */
    ASSERT_EQ(adams_filt1_product(a, 0, 0, 0, &(int32_t){3}, 1, out, 1, err, sizeof err),
              ADAMS_E_INPUT); /* 3 is not a residue mod 3 */
    adams_free(a);
    adams_free(b);
}

static void *run_thread(void *h)
{
    char err[256];
    static int rc;
    rc = adams_run(h, err, sizeof err);
    return &rc;
}

TEST(api_interrupt_stops_a_run_threads)
{
    char err[1024], path[] = "/tmp/adams-api-XXXXXX";
    ASSERT(mkdtemp(path));
    char db[64];
    snprintf(db, sizeof db, "%s/s.db", path);
    adams_res_t *h = NULL;
    ASSERT_EQ(adams_prepare(&h, "S_2", 100, -1, 2, 0, db, err, sizeof err), 0);
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, run_thread, h), 0);
    nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 200000000}, NULL);
    adams_interrupt(h);
    void *ret;
    ASSERT_EQ(pthread_join(th, &ret), 0);
    ASSERT_EQ(*(int *)ret, ADAMS_E_INTERRUPTED);
    ASSERT_EQ(adams_is_done(h), 0);
    ASSERT_EQ(adams_ext_dim(h, 0, 0), -1);
    adams_free(h);
    /* The store keeps what finished: a smaller region resumes from it and
     * completes; then it reads back. */
    h = resolved("S_2", 20, 1, db);
    adams_res_t *r = NULL;
    ASSERT_EQ(adams_open_store(&r, db, err, sizeof err), 0);
    ASSERT_EQ(region(r).max_n, 20);
    for (int32_t n = 0; n <= 20; n++)
        for (int32_t s = 0; s <= region(r).max_s; s++)
            ASSERT_EQ(adams_ext_dim(r, n, s), adams_ext_dim(h, n, s));
    ASSERT_STR_EQ(adams_module_name(r), "S_2");
    adams_free(r);
    adams_free(h);
    /* Interrupted before it runs: stops at once. */
    ASSERT_EQ(adams_prepare(&h, "C2", 30, -1, 1, 0, NULL, err, sizeof err), 0);
    adams_interrupt(h);
    ASSERT_EQ(adams_run(h, err, sizeof err), ADAMS_E_INTERRUPTED);
    adams_free(h);
    unlink(db);
    rmdir(path);
}

TEST(api_cofiber_ext_only)
{
    char err[1024];
    adams_res_t *a = resolved("C4", 16, 1, NULL), *b = resolved("C4", 16, 2, NULL);
    ASSERT(adams_is_cofiber(a) && !adams_is_cofiber(NULL));
    region_t r = region(a);
    ASSERT_EQ(r.max_n, 16);
    int64_t total = 0;
    for (int32_t n = r.min_n; n <= r.max_n; n++)
        for (int32_t s = 0; s <= r.max_s; s++) {
            ASSERT_EQ(adams_ext_dim(a, n, s), adams_ext_dim(b, n, s));
            total += adams_ext_dim(a, n, s);
        }
    ASSERT(total > 0);
    ASSERT_EQ(adams_ext_dim(a, 0, 0), 1);
    ASSERT_EQ(adams_ext_dim(a, 17, 0), -1);
    int32_t one = 1, out[1];
    ASSERT_EQ(adams_filt1_degree(a, 0), -1);
    ASSERT_EQ(adams_filt1_product(a, 0, 0, 0, &one, 1, out, 1, err, sizeof err), ADAMS_E_INPUT);
    ASSERT(strstr(err, "cofiber"));
    char *svg;
    size_t len;
    ASSERT_EQ(adams_svg(a, &svg, &len, err, sizeof err), ADAMS_E_INPUT);
    adams_free(a);
    adams_free(b);
    adams_res_t *h = NULL;
    ASSERT_EQ(adams_prepare(&h, "C4", 16, -1, 1, 0, "/tmp/never-written.db", err, sizeof err),
              ADAMS_E_INPUT); /* no store of a cofiber */
    ASSERT_EQ(adams_prepare(&h, "C4", 16, -1, 1, 0, NULL, err, sizeof err), 0);
    adams_interrupt(h); /* before it runs: stops at once */
    ASSERT_EQ(adams_run(h, err, sizeof err), ADAMS_E_INTERRUPTED);
    ASSERT_EQ(adams_ext_dim(h, 0, 0), -1);
    adams_free(h);
}
