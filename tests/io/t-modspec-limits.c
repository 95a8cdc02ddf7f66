/*
 * t-modspec-limits.c -- module files at the limits (issue 10, "module
 * loading"): the cost of a load follows what the module connects, not its
 * span; the size estimate counts every generator of every degree and
 * refuses before allocating; long profiles load; many unknown keys cost
 * linear time and a bounded number of warnings.  No test measures time:
 * each asserts results, and the suite's timeout (600 s) catches a cost that
 * went back to the span (a two-cell module of span 256 used never to
 * finish).
 */
#define _DEFAULT_SOURCE /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdmod.h"
#include "milnor.h"
#include "sq_modspec.h"
#include "sq_test.h"

/* ---- A growing string for generated files --------------------------------- */

typedef struct {
    char *s;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const char *fmt, ...) SQ_PRINTF(2, 3);
static void put(buf_t *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = 2 * b->cap + (size_t)k + 64;
        b->s = sq_realloc(b->s, b->cap);
    }
}

static fdmod_t *load_ok(const char *json, const sq_modspec_opts_t *o)
{
    fdmod_t *M;
    char err[1024];
    int rc = sq_modspec_load_buffer(&M, json, strlen(json), "t.json", o, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "load failed (%d): %s", rc, err);
    return M;
}

static void expect_error(int line, const char *json, int rc, const char *want)
{
    fdmod_t *M = (fdmod_t *)&M;
    char err[1024];
    int got = sq_modspec_load_buffer(&M, json, strlen(json), "t.json", NULL, err, sizeof err);
    if (got != rc || strcmp(err, want) != 0 || M != NULL)
        sq_test_fail(__FILE__, line, "rc %d (want %d)\n--- got\n%s\n--- want\n%s", got, rc, err,
                     want);
}

/* ---- The span ------------------------------------------------------------- */

/* Three cells over a span of 2000: only the Sq^1 pair carries an action.
 * The largest span, 2047 = SQ_MODSPEC_MAX_SPAN, loads as well. */
TEST(span_2000_three_cells)
{
    fdmod_t *M = load_ok("{\"gens\": {\"a\": -1000, \"b\": -999, \"c\": 1000},"
                         " \"actions\": [\"Sq1 a = b\"]}",
                         NULL);
    ASSERT_EQ(fdmod_bottom(M), -1000);
    ASSERT_EQ(fdmod_top(M), 1000);
    ASSERT_EQ(fdmod_dim(M, -1000) + fdmod_dim(M, -999) + fdmod_dim(M, 1000), 3);
    const uint64_t *w = fdmod_action(M, 1, 0, -1000, 0);
    ASSERT(w != NULL && w[0] == 1);
    ASSERT(fdmod_action(M, 2000, 0, -1000, 0) == NULL);
    ASSERT(fdmod_action(M, 1999, 7, -999, 0) == NULL);
    fdmod_free(M);
    char json[128];
    snprintf(json, sizeof json, "{\"gens\": {\"x\": 0, \"y\": %d}}", SQ_MODSPEC_MAX_SPAN);
    M = load_ok(json, NULL);
    ASSERT_EQ(fdmod_top(M) - fdmod_bottom(M), SQ_MODSPEC_MAX_SPAN);
    fdmod_free(M);
    snprintf(json, sizeof json, "{\"gens\": {\"x\": 0, \"y\": %d}}", SQ_MODSPEC_MAX_SPAN + 1);
    char want[128];
    snprintf(want, sizeof want, "t.json: the degrees span 0..%d, more than the largest span %d",
             SQ_MODSPEC_MAX_SPAN + 1, SQ_MODSPEC_MAX_SPAN);
    expect_error(__LINE__, json, SQ_E_RANGE, want);
}

/* The Joker and a copy 1000 degrees up: each copy carries exactly the
 * shipped Joker's action (every Milnor basis element), and nothing acts
 * from one copy to the other. */
TEST(far_apart_copies_identical)
{
    static const char joker[] = "{\"gens\": {\"x0\": 0, \"x1\": 1, \"x2\": 2, \"x3\": 3, \"x4\": 4,"
                                " \"y0\": 1000, \"y1\": 1001, \"y2\": 1002, \"y3\": 1003,"
                                " \"y4\": 1004}, \"actions\": [\"Sq1 x0 = x1\", \"Sq2 x0 = x2\","
                                " \"Sq2 x1 = x3\", \"Sq2 x2 = x4\", \"Sq1 x3 = x4\","
                                " \"Sq1 y0 = y1\", \"Sq2 y0 = y2\", \"Sq2 y1 = y3\","
                                " \"Sq2 y2 = y4\", \"Sq1 y3 = y4\"]}";
    fdmod_t *M = load_ok(joker, NULL);
    char path[4096], err[1024];
    fdmod_t *J;
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, "Joker", NULL), 0);
    ASSERT_EQ(sq_modspec_load_file(&J, path, NULL, NULL, err, sizeof err), 0);
    milnor_t *A = milnor_new(4);
    int64_t nonzero = 0;
    for (int32_t e = 0; e <= 4; e++)
        for (int32_t k = 1; e + k <= 4; k++)
            for (int64_t op = 0; op < milnor_dim(A, k); op++) {
                const uint64_t *j = fdmod_action(J, k, op, e, 0);
                const uint64_t *a = fdmod_action(M, k, op, e, 0);
                const uint64_t *b = fdmod_action(M, k, op, e + 1000, 0);
                ASSERT_EQ(j ? j[0] : 0, a ? a[0] : 0);
                ASSERT_EQ(j ? j[0] : 0, b ? b[0] : 0);
                nonzero += j && j[0];
            }
    ASSERT_EQ(nonzero, 9); /* the 5 given, Sq(3) x1, Sq(0,1) x0, Sq(0,1) x1, Sq(1,1) x0 */
    for (int32_t e = 0; e <= 4; e++)
        for (int32_t f = 1000; f <= 1004; f++)
            ASSERT(fdmod_action(M, f - e, 0, e, 0) == NULL);
    milnor_free(A);
    fdmod_free(J);
    fdmod_free(M);
}

/* The oracle for the derived action: a table that agrees with the given
 * Sq^{2^k} and satisfies (theta psi) x = theta (psi x) for all basis
 * elements theta, psi of A and x of M is the action (A is generated by the
 * Sq^{2^k}, so there is one).  Checked on every shipped finite module, on
 * every product within its span. */
TEST(shipped_actions_associative)
{
    static const char *const names[] = {"C2", "Ceta", "Cnu", "Csigma", "Joker", "RP4"};
    int64_t checks = 0;
    for (size_t m = 0; m < sizeof names / sizeof *names; m++) {
        char path[4096], err[1024];
        fdmod_t *M;
        ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, names[m], NULL), 0);
        ASSERT_EQ(sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err), 0);
        int32_t lo = fdmod_bottom(M), hi = fdmod_top(M);
        milnor_t *A = milnor_new(hi - lo);
        for (int32_t e = lo; e <= hi; e++)
            for (int64_t x = 0; x < fdmod_dim(M, e); x++)
                for (int32_t i = 1; e + i <= hi; i++)
                    for (int32_t j = 1; e + i + j <= hi; j++)
                        for (int64_t th = 0; th < milnor_dim(A, i); th++)
                            for (int64_t ps = 0; ps < milnor_dim(A, j); ps++) {
                                uint64_t xv[1] = {1ULL << x}, mid[1] = {0}, l[1] = {0},
                                         r[1] = {0}, prod[4] = {0};
                                fdmod_act_add(M, mid, 0, j, ps, e, xv);
                                fdmod_act_add(M, r, 0, i, th, e + j, mid);
                                milnor_mul_add(A, prod, 0, i, th, j, ps);
                                for (int64_t t = 0; t < milnor_dim(A, i + j); t++)
                                    if (prod[t >> 6] >> (t & 63) & 1)
                                        fdmod_act_add(M, l, 0, i + j, t, e, xv);
                                checks++;
                                if (l[0] != r[0])
                                    sq_test_fail(__FILE__, __LINE__,
                                                 "%s: degree %d, x%lld, A_%d[%lld] A_%d[%lld]",
                                                 names[m], (int)e, (long long)x, (int)i,
                                                 (long long)th, (int)j, (long long)ps);
                            }
        milnor_free(A);
        fdmod_free(M);
    }
    ASSERT_EQ(checks, 97);
}

/* Deriving the action from degree 0 to 257 (reached by Sq^1 then Sq^256)
 * needs every product of degree 257 row reduced: 8 GiB.  Refused before
 * anything is allocated; a reduction that fits goes through. */
TEST(derivation_too_large_refused)
{
    expect_error(__LINE__,
                 "{\"gens\": {\"a\": 0, \"b\": 1, \"c\": 257}, \"actions\": [\"Sq1 a = b\", "
                 "\"Sq256 b = c\"]}",
                 SQ_E_RANGE,
                 "t.json: the module is too large: deriving its action from degree 0 to degree "
                 "257 needs a row reduction of 8287 MiB (the products in A of degree 257; at "
                 "most 1024 MiB with the tables)");
    /* One step of Sq^256 alone needs no reduction: every other element of
     * A_256 acts as zero (and so nothing else is derived). */
    fdmod_t *M = load_ok("{\"gens\": {\"a\": 0, \"c\": 256}, \"actions\": [\"Sq256 a = c\"]}",
                         NULL);
    int32_t r = 256;
    milnor_t *A = milnor_new(256);
    const uint64_t *w = fdmod_action(M, 256, milnor_index(A, &r, 1), 0, 0);
    ASSERT(w != NULL && w[0] == 1);
    int32_t r2[] = {1, 0, 0, 0, 0, 0, 0, 1}; /* Sq(1,0,...,0,1), degree 1 + 255 */
    w = fdmod_action(M, 256, milnor_index(A, r2, 8), 0, 0);
    ASSERT(w != NULL && w[0] == 0);
    milnor_free(A);
    fdmod_free(M);
}

/* ---- Sizes ---------------------------------------------------------------- */

/* n generators in degree 0 and y in degree 64 with Sq64 x0 = y, as JSON. */
static char *many_gens(int64_t n)
{
    buf_t b = {0};
    put(&b, "{\"gens\": {");
    for (int64_t i = 0; i < n; i++)
        put(&b, "\"x%lld\": 0, ", (long long)i);
    put(&b, "\"y\": 64}, \"actions\": [\"Sq64 x0 = y\"]}");
    return b.s;
}

/* The estimate counts every generator: the block of (0, 64) holds A_64
 * (291 elements) on each of n generators.  100,000 take 222 MiB and load
 * (pages that stay zero are never touched); 500,000 would take 1141 MiB
 * and are refused before anything is allocated. */
TEST(many_generators_in_one_degree)
{
    char *json = many_gens(100000);
    fdmod_t *M = load_ok(json, NULL);
    ASSERT_EQ(fdmod_dim(M, 0), 100000);
    ASSERT_EQ(fdmod_dim(M, 64), 1);
    int32_t r = 64;
    milnor_t *A = milnor_new(64);
    const uint64_t *w = fdmod_action(M, 64, milnor_index(A, &r, 1), 0, 0);
    ASSERT(w != NULL && w[0] == 1);
    w = fdmod_action(M, 64, milnor_index(A, &r, 1), 0, 99999);
    ASSERT(w != NULL && w[0] == 0);
    milnor_free(A);
    fdmod_free(M);
    sq_free(json);
    json = many_gens(500000);
    expect_error(__LINE__, json, SQ_E_RANGE,
                 "t.json: the module is too large: its action tables would take 1141 MiB (at "
                 "most 1024)");
    sq_free(json);
}

/* ---- Warnings ------------------------------------------------------------- */

/* A module file with n unknown keys k0, k1, ..., written to a new file
 * whose path is returned (the caller unlinks and frees it). */
static char *unknown_keys_file(int64_t n)
{
    buf_t b = {0};
    put(&b, "{\"gens\": {\"x0\": 0}");
    for (int64_t i = 0; i < n; i++)
        put(&b, ",\n\"k%lld\": %lld", (long long)i, (long long)i);
    put(&b, "}\n");
    char *path = sq_strdup("/tmp/adams-test-keys-XXXXXX.json");
    int fd = mkstemps(path, 5);
    ASSERT(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ASSERT(f != NULL);
    ASSERT_EQ(fwrite(b.s, 1, b.n, f), b.n);
    ASSERT_EQ(fclose(f), 0);
    sq_free(b.s);
    return path;
}

/* 100,000 unknown keys: ten warnings with their lines, then one line with
 * the count of the rest; the load is linear (each warning searches the
 * text once), and with no warning stream nothing is searched at all. */
TEST(many_unknown_keys)
{
    char *path = unknown_keys_file(100000);
    FILE *w = tmpfile();
    ASSERT(w != NULL);
    sq_modspec_opts_t o = {.warn = w};
    fdmod_t *M;
    char err[512];
    ASSERT_EQ(sq_modspec_load_file(&M, path, "t.json", &o, err, sizeof err), 0);
    fdmod_free(M);
    long n = ftell(w);
    char *text = sq_calloc((size_t)n + 1, 1);
    rewind(w);
    ASSERT_EQ(fread(text, 1, (size_t)n, w), (size_t)n);
    fclose(w);
    ASSERT_EQ(sq_test_count_lines(text), 11);
    ASSERT(strncmp(text, "t.json:2: warning: unknown key \"k0\" ignored\n", 44) == 0);
    ASSERT(strstr(text, "t.json:11: warning: unknown key \"k9\" ignored\n") != NULL);
    ASSERT(strstr(text, "\nt.json: warning: ... and 99990 more unknown keys ignored\n") != NULL);
    sq_free(text);
    ASSERT_EQ(sq_modspec_load_file(&M, path, "t.json", NULL, err, sizeof err), 0);
    fdmod_free(M);
    /* The program: eleven warning lines, and none with --quiet. */
    char args[256], *out, *errs;
    snprintf(args, sizeof args, "resolve '%s' --stem 2 --max-s 2", path);
    ASSERT_EQ(sq_test_run_adams(args, &out, &errs), 0);
    int warnings = 0;
    for (const char *p = errs; (p = strstr(p, ": warning: ")) != NULL; p++)
        warnings++;
    ASSERT_EQ(warnings, 11);
    sq_free(out);
    sq_free(errs);
    snprintf(args, sizeof args, "resolve '%s' --stem 2 --max-s 2 --quiet", path);
    ASSERT_EQ(sq_test_run_adams(args, &out, &errs), 0);
    ASSERT_STR_EQ(errs, "");
    ASSERT(strlen(out) > 0);
    sq_free(out);
    sq_free(errs);
    unlink(path);
    sq_free(path);
}

/* ---- Profiles ------------------------------------------------------------- */

/* Writes text to a new file "/tmp/adams-test-<tag>-XXXXXX.json"; returns
 * its path (the caller unlinks and frees it). */
static char *temp_json(const char *tag, const char *text)
{
    char *path = sq_malloc(64);
    snprintf(path, 64, "/tmp/adams-test-%s-XXXXXX.json", tag);
    int fd = mkstemps(path, 5);
    ASSERT(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ASSERT(f != NULL);
    ASSERT_EQ(fputs(text, f) >= 0, 1);
    ASSERT_EQ(fclose(f), 0);
    return path;
}

/* A profile may list 1 to FDMOD_MAX_PROFILE_LEN (16) entries; those past
 * MILNOR_MAX_LEN (11) never matter and are dropped.  [2,1,0,...] with 12
 * or 16 entries is A(1): it loads, and resolves to ko's chart. */
TEST(long_profiles)
{
    static const char *const files[] = {
        "{\"gens\": {\"x\": 0}, \"profile\": {\"truncated\": true, \"p_part\": "
        "[2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}}",
        "{\"gens\": {\"x\": 0}, \"profile\": {\"truncated\": true, \"p_part\": "
        "[2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}}",
    };
    char *ko_out, *ko_err;
    ASSERT_EQ(sq_test_run_adams("resolve ko --stem 16 --max-s 8 --format csv --quiet", &ko_out,
                                &ko_err),
              0);
    for (int f = 0; f < 2; f++) {
        fdmod_t *M = load_ok(files[f], NULL);
        int32_t h[FDMOD_MAX_PROFILE_LEN];
        ASSERT_EQ(fdmod_profile(M, h), MILNOR_MAX_LEN);
        ASSERT_EQ(h[0], 2);
        ASSERT_EQ(h[1], 1);
        ASSERT_EQ(h[2], 0);
        fdmod_free(M);
        char *path = temp_json("profile", files[f]), args[256], *out, *err;
        snprintf(args, sizeof args, "resolve '%s' --stem 16 --max-s 8 --format csv --quiet", path);
        ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
        ASSERT_STR_EQ(err, "");
        ASSERT_STR_EQ(out, ko_out);
        sq_free(out);
        sq_free(err);
        unlink(path);
        sq_free(path);
    }
    sq_free(ko_out);
    sq_free(ko_err);
    /* 16 entries not truncated, all "infinite": the whole algebra (as far
     * as degree 2047 can tell). */
    fdmod_t *M = load_ok("{\"gens\": {\"x\": 0, \"y\": 1}, \"actions\": [\"Sq1 x = y\"], "
                         "\"profile\": {\"truncated\": false, \"p_part\": [30, 30, 30, 30, 30, "
                         "30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30]}}",
                         NULL);
    int32_t h[FDMOD_MAX_PROFILE_LEN];
    ASSERT_EQ(fdmod_profile(M, h), MILNOR_MAX_LEN);
    ASSERT_EQ(h[MILNOR_MAX_LEN - 1], FDMOD_MAX_PROFILE_ENTRY);
    fdmod_free(M);
    char want[256];
    snprintf(want, sizeof want,
             "t.json:1: \"profile\": \"p_part\" must be a list of 1 to %d integers, e.g. [3, 2, "
             "1] for A(2)",
             FDMOD_MAX_PROFILE_LEN);
    expect_error(__LINE__,
                 "{\"gens\": {\"x\": 0}, \"profile\": {\"truncated\": true, \"p_part\": "
                 "[2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}}",
                 SQ_E_INVAL, want);
}

/* ---- Names in messages ---------------------------------------------------- */

TEST(parse_name_messages)
{
    static const struct {
        const char *spec;
        int rc;
        const char *msg;
    } cases[] = {
        {"C2[", SQ_E_PARSE, "unclosed '[' in the shift (expected NAME[k], k an integer)"},
        {"C2[1", SQ_E_PARSE, "unclosed '[' in the shift (expected NAME[k], k an integer)"},
        {"C2]", SQ_E_PARSE, "']' without '[' (expected NAME[k], k an integer)"},
        {"C2][1", SQ_E_PARSE, "']' without '[' (expected NAME[k], k an integer)"},
        {"C2[[1]", SQ_E_PARSE, "more than one '[' or ']' (expected NAME[k], k an integer)"},
        {"C2[1]x", SQ_E_PARSE, "text after the shift '[...]' (expected NAME[k], the shift last)"},
        {"C2[x]", SQ_E_PARSE, "expected NAME, PATH, NAME[k] or PATH[k] (k an integer)"},
        {"C2[10001]", SQ_E_RANGE, "the shift in [...] is out of range (|k| <= 10000)"},
        {"[2]", SQ_E_INVAL, "no module name before the shift (expected NAME[k])"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char base[64], err[256];
        int32_t k;
        int rc = sq_modspec_parse_name(base, sizeof base, cases[i].spec, &k, err, sizeof err);
        if (rc != cases[i].rc || strcmp(err, cases[i].msg) != 0)
            sq_test_fail(__FILE__, __LINE__, "%s: rc %d '%s'", cases[i].spec, rc, err);
    }
    /* Brackets in directories are part of the path; the shift is last. */
    char base[64], err[256];
    int32_t k;
    ASSERT_EQ(sq_modspec_parse_name(base, sizeof base, "d[1]/m.json[-2]", &k, err, sizeof err), 0);
    ASSERT_STR_EQ(base, "d[1]/m.json");
    ASSERT_EQ(k, -2);
    ASSERT_STR_EQ(err, "");
    ASSERT_EQ(sq_modspec_parse_name(base, sizeof base, "d]/m.json", &k, NULL, 0), 0);
    ASSERT_STR_EQ(base, "d]/m.json");
    ASSERT_EQ(k, 0);
}

TEST(printable)
{
    char b[32];
    ASSERT_EQ(sq_modspec_printable(b, sizeof b, "a\nb\x1b[1m", 7, 100), 7);
    ASSERT_STR_EQ(b, "a?b?[1m");
    /* U+009B (CSI) as UTF-8 is one '?'; other UTF-8 stays. */
    ASSERT_STR_EQ((sq_modspec_printable(b, sizeof b, "x\xc2\x9by\xc3\xa9", 6, 100), b),
                  "x?y\xc3\xa9");
    /* Cut at max, "..." after; never past the buffer. */
    ASSERT_STR_EQ((sq_modspec_printable(b, sizeof b, "abcdefgh", 8, 4), b), "abcd...");
    char tiny[4];
    sq_modspec_printable(tiny, sizeof tiny, "abcdefgh", 8, 100);
    ASSERT_STR_EQ(tiny, "abc");
    /* The loader's messages show the display name printable, and so does
     * the module's name. */
    fdmod_t *M;
    char err[256];
    ASSERT_EQ(sq_modspec_load_string(&M, "{}", "a\nb.json", err, sizeof err), SQ_E_INVAL);
    ASSERT_STR_EQ(err, "a?b.json: missing \"gens\": an object {\"name\": degree, ...} listing "
                       "the basis");
    ASSERT_EQ(sq_modspec_load_string(&M, "{\"gens\": {\"x\": 0}}", "d/\x1b[1mM.json", err,
                                     sizeof err),
              0);
    ASSERT_STR_EQ(fdmod_name(M), "?[1mM");
    fdmod_free(M);
}

/* ---- Profiles and wide spans ---------------------------------------------- */

/* Over A(1) (top degree 6) a module of span 2000 needs the algebra only to
 * degree 6: the Joker 2000 degrees below a cell loads at once, with the
 * Joker's action.  Four copies of Ceta chained degree by degree reach
 * degree 8 from 0, beyond A(1)'s top: nothing acts there, and the check
 * still runs.  A profile that is not truncated needs all of A through the
 * span, refused when that is too large. */
TEST(wide_profile_modules)
{
    fdmod_t *M = load_ok("{\"gens\": {\"x0\": -1000, \"x1\": -999, \"x2\": -998, \"x3\": -997, "
                         "\"x4\": -996, \"z\": 1000}, \"profile\": {\"truncated\": true, "
                         "\"p_part\": [2, 1]}, \"actions\": [\"Sq1 x0 = x1\", \"Sq2 x0 = x2\", "
                         "\"Sq2 x1 = x3\", \"Sq2 x2 = x4\", \"Sq1 x3 = x4\"]}",
                         NULL);
    int32_t h[2] = {2, 1}, r01[] = {0, 1};
    milnor_t *B = milnor_new_profile(6, h, 2);
    const uint64_t *w = fdmod_action(M, 3, milnor_index(B, r01, 2), -1000, 0);
    ASSERT(w != NULL && w[0] == 1); /* Sq(0,1) x0 = x3, as in the Joker */
    ASSERT(fdmod_action(M, 2000, 0, -1000, 0) == NULL);
    fdmod_free(M);
    M = load_ok("{\"gens\": {\"a\": 0, \"b1\": 2, \"b2\": 2, \"c1\": 4, \"c2\": 4, \"d1\": 6, "
                "\"d2\": 6, \"e\": 8}, \"profile\": {\"truncated\": true, \"p_part\": [2, 1]}, "
                "\"actions\": [\"Sq2 a = b1\", \"Sq2 b2 = c1\", \"Sq2 c2 = d1\", \"Sq2 d2 = e\"]}",
                NULL);
    int32_t r2[] = {2};
    w = fdmod_action(M, 2, milnor_index(B, r2, 1), 0, 0);
    ASSERT(w != NULL && w[0] == 1);
    ASSERT(fdmod_action(M, 8, 0, 0, 0) == NULL);
    fdmod_free(M);
    milnor_free(B);
    expect_error(__LINE__,
                 "{\"gens\": {\"a\": -1000, \"z\": 1000}, \"profile\": {\"truncated\": false, "
                 "\"p_part\": [0]}}",
                 SQ_E_RANGE,
                 "t.json: the module is too large: over the subalgebra of its profile, a span of "
                 "2000 needs the 899237058881 basis elements of A through degree 2000 listed, "
                 "10290951 MiB (at most 1024)");
    /* E(1) = [1, 1] is not generated by Sq1: refused as soon as the span
     * reaches Q_1's degree 3, however far apart the cells. */
    expect_error(__LINE__,
                 "{\"gens\": {\"a\": -1000, \"c\": 1000, \"d\": 1001}, \"profile\": "
                 "{\"truncated\": true, \"p_part\": [1, 1]}, \"actions\": [\"Sq1 c = d\"]}",
                 SQ_E_INVAL,
                 "t.json: the subalgebra is not generated by its Sq^(2^k): Sq(0,1) is not a sum "
                 "of their products, so its action cannot be derived");
}
