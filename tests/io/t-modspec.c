/*
 * t-modspec.c -- module specs (src/io/sq_modspec.*): the shipped modules
 * load and carry the expected action, shifts move degrees, names resolve,
 * every class of mistake gets its one-line message, and the fuzz corpus
 * replays without a crash.  The command line is tested in t-modspec_cli.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "milnor.h"
#include "sq_modspec.h"
#include "sq_test.h"

#define FUZZ_CORPUS SQ_TEST_DATA_DIR "/../fuzz/corpus"

static fdmod_t *load_ok(const char *json)
{
    fdmod_t *M;
    char err[1024];
    int rc = sq_modspec_load_string(&M, json, "t.json", err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "load failed (%d): %s\n%s", rc, err, json);
    return M;
}

static fdmod_t *load_shipped(const char *name)
{
    char path[4096], err[1024];
    fdmod_t *M;
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, name, NULL), 0);
    int rc = sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    return M;
}

/* Sq(R) applied to the basis element called `in`, written "x3", "x2 + x3"
 * or "0" into buf. */
static const char *act(char *buf, size_t n, const fdmod_t *M, const int32_t *r, int len,
                       const char *in)
{
    milnor_t *A = milnor_new(64);
    int32_t deg, d = milnor_pdegree(r, len);
    int64_t idx;
    ASSERT_EQ(fdmod_find(M, in, &deg, &idx), 0);
    uint64_t x[4] = {0}, out[4] = {0};
    x[idx >> 6] |= 1ULL << (idx & 63);
    fdmod_act_add(M, out, 0, d, milnor_index(A, r, len), deg, x);
    size_t k = 0;
    buf[0] = '\0';
    for (int64_t j = 0; j < fdmod_dim(M, deg + d); j++)
        if ((out[j >> 6] >> (j & 63)) & 1)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " + " : "",
                                  fdmod_basis_name(M, deg + d, j));
    if (!k)
        snprintf(buf, n, "0");
    milnor_free(A);
    return buf;
}

TEST(shipped_modules_load)
{
    static const char *const names[] = {"S_2",   "C2",  "Ceta", "Cnu", "Csigma",
                                        "Joker", "RP4", "ko",   "tmf2"};
    static const int lo[] = {0, 0, 0, 0, 0, 0, 1, 0, 0}, hi[] = {0, 1, 2, 4, 8, 4, 4, 0, 0};
    static const int dim[] = {1, 2, 2, 2, 2, 5, 4, 1, 1};
    for (int i = 0; i < 9; i++) {
        fdmod_t *M = load_shipped(names[i]);
        ASSERT_STR_EQ(fdmod_name(M), names[i]);
        ASSERT_EQ(fdmod_bottom(M), lo[i]);
        ASSERT_EQ(fdmod_top(M), hi[i]);
        int64_t total = 0;
        for (int32_t d = lo[i]; d <= hi[i]; d++)
            total += fdmod_dim(M, d);
        ASSERT_EQ(total, dim[i]);
        fdmod_free(M);
    }
}

TEST(shipped_list_and_descriptions)
{
    char **paths;
    int64_t n;
    ASSERT_EQ(sq_modspec_list_shipped(&paths, &n, NULL), 0);
    ASSERT(n >= 9);
    for (int64_t i = 0; i < n; i++) {
        char desc[512], err[1024];
        fdmod_t *M;
        sq_modspec_opts_t o = {.description = desc,
                               .description_len = sizeof desc,
                               .have_max_degree = 1,
                               .max_degree = 30};
        uint32_t p;
        ASSERT_EQ(sq_modspec_file_prime(paths[i], NULL, &p, err, sizeof err), 0);
        if (p != 2) {
            /* An odd-prime module: the one reader builds its fdmod_t. */
            sq_modspec_module_t P;
            if (sq_modspec_load_module_file(&P, paths[i], NULL, &o, err, sizeof err))
                sq_test_fail(__FILE__, __LINE__, "%s", err);
            ASSERT(P.p == p && P.modd != NULL && P.m2 == NULL);
            sq_modspec_module_free(&P);
        } else {
            if (sq_modspec_load_file(&M, paths[i], NULL, &o, err, sizeof err))
                sq_test_fail(__FILE__, __LINE__, "%s", err);
            fdmod_free(M);
        }
        if (strlen(desc) < 10)
            sq_test_fail(__FILE__, __LINE__, "%s: no description", paths[i]);
        if (i)
            ASSERT(strcmp(paths[i - 1], paths[i]) != 0);
    }
    sq_modspec_list_free(paths, n);
}

TEST(profiles)
{
    int32_t h[16];
    fdmod_t *M = load_shipped("ko");
    ASSERT_EQ(fdmod_profile(M, h), 2);
    ASSERT_EQ(h[0], 2);
    ASSERT_EQ(h[1], 1);
    fdmod_free(M);
    M = load_shipped("tmf2");
    ASSERT_EQ(fdmod_profile(M, h), 3);
    ASSERT_EQ(h[0], 3);
    ASSERT_EQ(h[2], 1);
    fdmod_free(M);
    M = load_shipped("Joker");
    ASSERT_EQ(fdmod_profile(M, h), 0);
    fdmod_free(M);
}

TEST(joker_derived_action)
{
    char buf[128];
    fdmod_t *M = load_shipped("Joker");
    int32_t q1[] = {0, 1}, s11[] = {1, 1}, sq3[] = {3}, sq4[] = {4};
    ASSERT_STR_EQ(act(buf, sizeof buf, M, q1, 2, "x0"), "x3");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, s11, 2, "x0"), "x4");
    /* Sq3 = Sq1 Sq2 and Sq4 act as zero on the Joker's bottom cell. */
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq3, 1, "x0"), "0");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq4, 1, "x0"), "0");
    fdmod_free(M);
}

TEST(rp4_binomials)
{
    char buf[128];
    fdmod_t *M = load_shipped("RP4");
    int32_t sq1[] = {1}, sq2[] = {2}, sq3[] = {3}, q1[] = {0, 1};
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq1, 1, "x1"), "x2");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq1, 1, "x2"), "0");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq1, 1, "x3"), "x4");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq2, 1, "x1"), "0");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq2, 1, "x2"), "x4");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq3, 1, "x1"), "0");
    ASSERT_STR_EQ(act(buf, sizeof buf, M, q1, 2, "x1"), "x4");
    fdmod_free(M);
}

TEST(sums_coefficients_and_order)
{
    char buf[128];
    /* Ties in degree keep their order in "gens"; sums are mod 2. */
    fdmod_t *M = load_ok("{\"p\": 2, \"gens\": {\"b\": 2, \"x\": 0, \"a\": 2, \"c\": 2},"
                         " \"actions\": [\"Sq2 x = b + a + 3 c + c + 2 a + a\"]}");
    ASSERT_STR_EQ(fdmod_basis_name(M, 2, 0), "b");
    ASSERT_STR_EQ(fdmod_basis_name(M, 2, 1), "a");
    ASSERT_STR_EQ(fdmod_basis_name(M, 2, 2), "c");
    int32_t sq2[] = {2};
    ASSERT_STR_EQ(act(buf, sizeof buf, M, sq2, 1, "x"), "b");
    fdmod_free(M);
    M = load_ok("{\"gens\": {\"x\": 0}, \"actions\": [\"Sq^4 x = 0\", \"  Sq1   x=0 \"]}");
    fdmod_free(M);
}

TEST(shift_moves_degrees)
{
    char err[1024];
    fdmod_t *M;
    sq_modspec_opts_t o = {.shift = 5};
    const char *c2 = "{\"p\": 2, \"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"Sq1 x0 = x1\"]}";
    ASSERT_EQ(sq_modspec_load_buffer(&M, c2, strlen(c2), "dir/C2.json", &o, err, sizeof err), 0);
    ASSERT_STR_EQ(fdmod_name(M), "C2[5]");
    ASSERT_EQ(fdmod_bottom(M), 5);
    ASSERT_EQ(fdmod_top(M), 6);
    ASSERT_EQ(fdmod_dim(M, 0), 0);
    fdmod_free(M);
    /* The file's own "shift" adds to the caller's. */
    o.shift = -4;
    ASSERT_EQ(sq_modspec_load_file(&M, SQ_TEST_DATA_DIR "/modules/shifted.json", "shifted.json", &o,
                                   err, sizeof err),
              0);
    ASSERT_EQ(fdmod_bottom(M), -1);
    ASSERT_EQ(fdmod_top(M), 0);
    ASSERT_STR_EQ(fdmod_name(M), "shifted[-1]");
    fdmod_free(M);
}

TEST(split_shift)
{
    char base[64];
    int32_t k;
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "Ceta[2]", &k), 0);
    ASSERT_STR_EQ(base, "Ceta");
    ASSERT_EQ(k, 2);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "S_2[-3]", &k), 0);
    ASSERT_STR_EQ(base, "S_2");
    ASSERT_EQ(k, -3);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "./my.json[+1]", &k), 0);
    ASSERT_STR_EQ(base, "./my.json");
    ASSERT_EQ(k, 1);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "Joker", &k), 0);
    ASSERT_STR_EQ(base, "Joker");
    ASSERT_EQ(k, 0);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "C2[x]", &k), SQ_E_PARSE);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "C2[]", &k), SQ_E_PARSE);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "C2[-]", &k), SQ_E_PARSE);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "C2[99999999999999999999]", &k),
              SQ_E_RANGE);
    ASSERT_EQ(sq_modspec_split_shift(base, sizeof base, "[3]", &k), SQ_E_INVAL);
    ASSERT_EQ(sq_modspec_split_shift(base, 4, "Csigma", &k), SQ_E_INVAL);
}

TEST(resolve_name)
{
    char path[4096];
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, "C2", NULL), 0);
    size_t n = strlen(path);
    ASSERT(n > 16 && strcmp(path + n - 16, "/modules/C2.json") == 0);
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, "../x/y", NULL), 0);
    ASSERT_STR_EQ(path, "../x/y");
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, "z.json", NULL), 0);
    ASSERT_STR_EQ(path, "z.json");
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, "NoSuchModule", NULL), SQ_E_IO);
    ASSERT_STR_EQ(path, "");
    ASSERT_EQ(sq_modspec_resolve_name(path, sizeof path, "", NULL), SQ_E_INVAL);
}

/* Loads json as "t.json" and demands the code rc and the message want. */
static void expect_error(int line, const char *json, int rc, const char *want)
{
    fdmod_t *M = (fdmod_t *)&M;
    char err[1024];
    int got = sq_modspec_load_string(&M, json, "t.json", err, sizeof err);
    if (got != rc || strcmp(err, want) != 0 || M != NULL || strchr(err, '\n'))
        sq_test_fail(__FILE__, line, "rc %d (want %d)\n--- got\n%s\n--- want\n%s\n--- input\n%s",
                     got, rc, err, want, json);
}

#define GENS01 "\"gens\": {\"x0\": 0, \"x1\": 1}"

TEST(errors_document)
{
    expect_error(__LINE__, "{\"p\": 2,\n \"gens\": {\"x0\": 0,}}", SQ_E_PARSE,
                 "t.json:2:19: JSON syntax: string or '}' expected near '}'");
    expect_error(__LINE__, "", SQ_E_PARSE,
                 "t.json:1:0: JSON syntax: '[' or '{' expected near end of file");
    expect_error(__LINE__, "[1, 2]", SQ_E_INVAL,
                 "t.json: the top level must be an object {\"gens\": ..., \"actions\": ...}, not "
                 "an array");
    expect_error(__LINE__, "{\"p\": 2, \"actions\": []}", SQ_E_INVAL,
                 "t.json: missing \"gens\": an object {\"name\": degree, ...} listing the basis");
    expect_error(__LINE__, "{\"p\": 2,\n\"gens\": [\"x0\"]}", SQ_E_INVAL,
                 "t.json:2: \"gens\" must be an object {\"name\": degree, ...}, not an array");
    expect_error(__LINE__, "{\"gens\": {}}", SQ_E_INVAL,
                 "t.json:1: \"gens\" is empty: a module needs a generator");
    expect_error(__LINE__, "{\"p\": 3, \"gens\": {\"x0\": 0}}", SQ_E_INVAL,
                 "t.json:1: \"p\" is 3: this entry point builds modules at the prime 2 "
                 "(sq_modspec_load_module reads every prime)");
    expect_error(__LINE__, "{\"p\": \"2\", \"gens\": {\"x0\": 0}}", SQ_E_INVAL,
                 "t.json:1: \"p\" must be a prime number, not a string");
    expect_error(__LINE__, "{\"p\": 6, \"gens\": {\"x0\": 0}}", SQ_E_INVAL,
                 "t.json:1: \"p\" is 6, which is not a prime");
    expect_error(__LINE__, "{\"type\": \"sphere\", \"min\": -4}", SQ_E_INVAL,
                 "t.json:1: \"type\" is \"sphere\": expected \"finite dimensional module\", "
                 "\"finitely presented module\" or \"real projective space\"");
    /* An infinite module needs a truncation degree from the caller. */
    expect_error(__LINE__, "{\"type\": \"real projective space\", \"min\": -4}", SQ_E_INVAL,
                 "t.json: the module is infinite: a computation must say up to which degree it "
                 "is needed (max_degree)");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"sq_actions\": [[1]]}", SQ_E_INVAL,
                 "t.json:1: \"sq_actions\" (the legacy form of the actions) is not supported; "
                 "give them as strings in \"actions\", e.g. \"Sq1 x0 = x1\"");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"shift\": 1.5}", SQ_E_INVAL,
                 "t.json:1: \"shift\" must be an integer, not a real number");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"actions\": {}}", SQ_E_INVAL,
                 "t.json:1: \"actions\" must be a list of strings like \"Sq1 x0 = x1\", not an "
                 "object");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"actions\": [\"Sq1 x0 = 0\", 7]}", SQ_E_INVAL,
                 "t.json:1: \"actions\" entry 2 must be a string like \"Sq1 x0 = x1\", not an "
                 "integer");
}

/* The key rule: a key that would change the module is implemented or
 * refused, never ignored (docs/modules.md, "Every key"). */
TEST(errors_keys_that_change_the_module)
{
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"generic\": true}", SQ_E_INVAL,
                 "t.json:1: \"generic\": only false is supported (the generic form of the "
                 "algebra changes the algebra resolved over)");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"algebra\": [\"adem\"]}", SQ_E_INVAL,
                 "t.json:1: \"algebra\" must be a list of bases that includes \"milnor\" (adams "
                 "works in the Milnor basis), e.g. [\"milnor\"]");
    /* A non-empty legacy key is refused even beside "actions": ignoring it
     * could drop part of the action. */
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [], \"milnor_actions\": "
                 "[\"x\"]}",
                 SQ_E_INVAL,
                 "t.json:1: \"milnor_actions\" (the legacy form of the actions) is not "
                 "supported; give them as strings in \"actions\", e.g. \"Sq1 x0 = x1\"");
}

TEST(errors_generators)
{
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0,\n \"x1\": \"1\"}}", SQ_E_INVAL,
                 "t.json:2: generator x1: the degree must be an integer, not a string");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0.5}}", SQ_E_INVAL,
                 "t.json:1: generator x0: the degree must be an integer, not a real number");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0,\n\"x1\": 1,\n\"x1\": 2}}", SQ_E_INVAL,
                 "t.json:3:4: duplicate generator \"x1\" in \"gens\"");
    expect_error(__LINE__, "{\"p\": 2, \"p\": 2, \"gens\": {\"x0\": 0}}", SQ_E_INVAL,
                 "t.json:1:12: duplicate key \"p\"");
    expect_error(__LINE__, "{\"gens\": {\"a b\": 0}}", SQ_E_INVAL,
                 "t.json:1: generator \"a b\": a generator name may not contain white space, '+' "
                 "or '='");
    expect_error(__LINE__, "{\"gens\": {\"1x\": 0}}", SQ_E_INVAL,
                 "t.json:1: generator \"1x\": a generator name may not begin with a digit");
    expect_error(__LINE__, "{\"gens\": {\"\": 0}}", SQ_E_INVAL,
                 "t.json:1: generator \"\": a generator name may not be empty");
    expect_error(__LINE__, "{\"gens\": {\"a\\nb\": 0}}", SQ_E_INVAL,
                 "t.json: generator \"a?b\": a generator name may not contain white space, '+' "
                 "or '='");
}

TEST(errors_limits)
{
    expect_error(__LINE__, "{\"gens\": {\"x0\": 20000}}", SQ_E_RANGE,
                 "t.json:1: generator x0: degree 20000 is out of range (|degree| <= 10000)");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 99999999999999999999}}", SQ_E_PARSE,
                 "t.json:1:36: JSON syntax: too big integer near '99999999999999999999'");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0, \"x1\": 3000}}", SQ_E_RANGE,
                 "t.json: the degrees span 0..3000, more than the largest span 2047");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 9000}, \"shift\": 5000}", SQ_E_RANGE,
                 "t.json: degrees 9000..9000 shifted by 5000 leave the range (|degree| <= 10000)");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"shift\": -10001}", SQ_E_RANGE,
                 "t.json:1: \"shift\" -10001 is out of range (|shift| <= 10000)");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"actions\": [\"Sq4294967296 x0 = 0\"]}",
                 SQ_E_RANGE,
                 "t.json:1: Sq4294967296 x0 = 0: Sq4294967296 is beyond every supported degree");
    /* The caller's span limit (the fuzzer uses a small one). */
    fdmod_t *M;
    char err[256];
    sq_modspec_opts_t o = {.max_span = 8};
    const char *j = "{\"gens\": {\"x0\": 0, \"x9\": 9}}";
    ASSERT_EQ(sq_modspec_load_buffer(&M, j, strlen(j), "t.json", &o, err, sizeof err), SQ_E_RANGE);
    ASSERT_STR_EQ(err, "t.json: the degrees span 0..9, more than the largest span 8");
}

TEST(errors_actions)
{
    expect_error(__LINE__, "{" GENS01 ",\n\"actions\": [\n\"Sq1 x0 = x1\",\n\"Sq1 x1 = y2\"]}",
                 SQ_E_INVAL, "t.json:4: Sq1 x1 = y2: unknown generator y2");
    expect_error(__LINE__, "{" GENS01 ", \"actions\": [\"Sq1 y0 = x1\"]}", SQ_E_INVAL,
                 "t.json:1: Sq1 y0 = x1: unknown generator y0 (did you mean x0?)");
    expect_error(__LINE__, "{" GENS01 ", \"actions\": [\"Sq2 x0 = x1\"]}", SQ_E_INVAL,
                 "t.json:1: Sq2 x0 = x1: x1 has degree 1, not 0 + 2");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0, \"x3\": 3}, \"actions\": [\"Sq3 x0 = x3\"]}",
                 SQ_E_INVAL,
                 "t.json:1: Sq3 x0 = x3: only the generators Sq1, Sq2, Sq4, ... may act; Sq3 is "
                 "not one");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0, \"x3\": 3}, \"actions\": [\"Sq(0,1) x0 = x3\"]}",
                 SQ_E_INVAL,
                 "t.json:1: Sq(0,1) x0 = x3: only the generators Sq1, Sq2, Sq4, ... may act; "
                 "Sq(0,1) is not one");
    expect_error(__LINE__, "{" GENS01 ", \"actions\": [\"Sq0 x0 = x0\"]}", SQ_E_INVAL,
                 "t.json:1: Sq0 x0 = x0: only the generators Sq1, Sq2, Sq4, ... may act; Sq0 is "
                 "not one");
    expect_error(__LINE__, "{" GENS01 ",\n\"actions\": [\"Sq1 x0 = x1\",\n\"Sq1 x0 = x1\"]}",
                 SQ_E_INVAL,
                 "t.json:3: Sq1 x0 = x1: Sq1 x0 is already given on line 2 by \"Sq1 x0 = x1\"");
    expect_error(__LINE__, "{" GENS01 ", \"actions\": [\"Sq1 x0 = 0\", \"Sq1 x0 = x1\"]}",
                 SQ_E_INVAL,
                 "t.json:1: Sq1 x0 = x1: Sq1 x0 is already given on line 1 by \"Sq1 x0 = 0\"");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0, \"x1\": 1, \"x2\": 2},\n"
                 "\"actions\": [\"Sq1 x0 = x1\", \"Sq1 x1 = x2\"]}",
                 SQ_E_INVAL,
                 "t.json: the action is not a module: on x0, Sq1 applied after Sq(1) gives x2, "
                 "but the product Sq1*Sq(1) in A acts as 0");
}

TEST(errors_malformed_actions)
{
    static const char *const bad[] = {
        "Sq1 x0 x1", "Sq1 x0 -> x1",  "Sq1 = x1",      "x0 = x1",        "Sq1 x0 = = x1",
        "Sq1 x0 =",  "Sq1 x0 = x1 +", "Sq1 x0 = + x1", "Sq1 x0 = a b c", "Sq1 x0 = 1x x1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char json[256], want[256];
        snprintf(json, sizeof json, "{" GENS01 ", \"actions\": [\"%s\"]}", bad[i]);
        snprintf(want, sizeof want,
                 "t.json:1: %s: expected \"Sq<n> <generator> = <generator> + ...\" (or \"= 0\")",
                 bad[i]);
        expect_error(__LINE__, json, SQ_E_INVAL, want);
    }
    expect_error(__LINE__, "{" GENS01 ", \"actions\": [\"  \"]}", SQ_E_INVAL,
                 "t.json:1: an empty action: expected \"Sq<n> <generator> = <generator> + ...\"");
}

TEST(errors_profile)
{
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"profile\": {\"p_part\": [2, 1]}}", SQ_E_INVAL,
                 "t.json:1: \"profile\": \"truncated\" must be true (entries past \"p_part\" "
                 "are 0) or false (they are infinite)");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"profile\": {\"truncated\": true, \"p_part\": [2, 1], "
                 "\"q_part\": 3}}",
                 SQ_E_INVAL,
                 "t.json:1: \"profile\": \"q_part\" is for odd primes; at p = 2 the profile is "
                 "\"p_part\" alone");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"profile\": [2, 1]}", SQ_E_INVAL,
                 "t.json:1: \"profile\" must be an object {\"truncated\": true, \"p_part\": "
                 "[...]}, not an array");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"profile\": {\"truncated\": true, \"p_part\": []}}",
                 SQ_E_INVAL,
                 "t.json:1: \"profile\": \"p_part\" must be a list of 1 to 16 integers, e.g. "
                 "[3, 2, 1] for A(2)");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"profile\": {\"truncated\": true, \"p_part\": [2, 99]}}",
                 SQ_E_INVAL,
                 "t.json:1: \"profile\": \"p_part\" entry 2 must be an integer in 0..30");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"profile\": {\"truncated\": true, \"p_part\": [1, 2]}}",
                 SQ_E_INVAL,
                 "t.json:1: \"profile\": \"p_part\" is not the profile of a sub-Hopf algebra of A "
                 "(h_2 > 1 + h_3 and h_1 > h_3)");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0, \"x4\": 4}, \"profile\": {\"truncated\": true, "
                 "\"p_part\": [2, 1]}, \"actions\": [\"Sq4 x0 = x4\"]}",
                 SQ_E_INVAL,
                 "t.json:1: Sq4 x0 = x4: Sq4 is not in the subalgebra of the profile [2,1]");
    /* E(1) = [1, 1] and A(3) = [4, 3, 2, 1] are sub-Hopf algebras. */
    fdmod_free(
        load_ok("{\"gens\": {\"x\": 0}, \"profile\": {\"truncated\": true, \"p_part\": [1, 1]}}"));
    fdmod_free(load_ok(
        "{\"gens\": {\"x\": 0}, \"profile\": {\"truncated\": true, \"p_part\": [4, 3, 2, 1]}}"));
}

/* Loads json with warnings captured; returns them (caller frees). */
static char *warnings_of(const char *json, int *rc)
{
    FILE *w = tmpfile();
    ASSERT(w != NULL);
    sq_modspec_opts_t o = {.warn = w};
    fdmod_t *M;
    char err[512];
    *rc = sq_modspec_load_buffer(&M, json, strlen(json), "t.json", &o, err, sizeof err);
    fdmod_free(M);
    long n = ftell(w);
    char *buf = sq_calloc((size_t)n + 1, 1);
    rewind(w);
    ASSERT_EQ(fread(buf, 1, (size_t)n, w), (size_t)n);
    fclose(w);
    return buf;
}

TEST(misspelled_key_warns)
{
    int rc;
    char *w =
        warnings_of("{\"p\": 2,\n\"gens\": {\"x0\": 0},\n\"action\": [\"Sq1 x0 = x1\"]}", &rc);
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(w, "t.json:3: warning: unknown key \"action\" ignored (did you mean "
                     "\"actions\"?)\n");
    sq_free(w);
    w = warnings_of("{\"gens\": {\"x0\": 0}, \"colour\": 1, \"profile\": {\"truncated\": true, "
                    "\"p_part\": [1], \"ppart\": 0}}",
                    &rc);
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(w, "t.json:1: warning: unknown key \"colour\" ignored\n"
                     "t.json:1: warning: unknown key \"ppart\" in \"profile\" ignored (did you "
                     "mean \"p_part\"?)\n");
    sq_free(w);
    /* The peer's other keys pass silently. */
    w = warnings_of("{\"p\": 2, \"type\": \"finite dimensional module\", \"name\": \"$X$\", "
                    "\"file_name\": \"X\", \"algebra\": [\"milnor\"], \"generic\": false, "
                    "\"gens\": {\"x0\": 0}, \"sq_actions\": [], \"adem_actions\": [], "
                    "\"milnor_actions\": [], \"self_maps\": [], \"products\": [], "
                    "\"description\": \"d\", \"shift\": 0}",
                    &rc);
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(w, "");
    sq_free(w);
}

TEST(file_errors)
{
    fdmod_t *M;
    char err[512];
    ASSERT_EQ(sq_modspec_load_file(&M, "/nonexistent/x.json", NULL, NULL, err, sizeof err),
              SQ_E_IO);
    ASSERT_STR_EQ(err, "/nonexistent/x.json: cannot read: No such file or directory");
    ASSERT_EQ(sq_modspec_load_file(&M, SQ_TEST_DATA_DIR "/modules", "dir", NULL, err, sizeof err),
              SQ_E_IO);
    ASSERT_STR_EQ(err, "dir: cannot read: Is a directory");
    ASSERT(M == NULL);
    /* A tiny err buffer is still NUL-terminated, and errlen 0 is allowed. */
    ASSERT_EQ(sq_modspec_load_string(&M, "{}", "t.json", err, 4), SQ_E_INVAL);
    ASSERT_STR_EQ(err, "t.j");
    ASSERT_EQ(sq_modspec_load_string(&M, "{}", "t.json", NULL, 0), SQ_E_INVAL);
}

/* The load's size limit holds for the infinite kinds too (it held only for
 * finite modules: RP_{-210} truncated at 24 built 425 MiB of tables under
 * the fuzzer's 4 MiB limit, seconds under ASan). */
TEST(size_limit_holds_for_projective_spaces)
{
    const char *rp = "{\"p\": 2, \"type\": \"real projective space\", \"min\": -210}";
    sq_modspec_module_t M;
    char err[512];
    sq_modspec_opts_t o = {.max_tables = 4 << 20, .have_max_degree = 1, .max_degree = 24};
    ASSERT_EQ(sq_modspec_load_module(&M, rp, strlen(rp), "rp.json", &o, err, sizeof err),
              SQ_E_RANGE);
    ASSERT(strstr(err, "too large") != NULL && strstr(err, "at most 4.0") != NULL);
    o.max_tables = 0; /* the default limit: loads */
    o.max_degree = -150;
    ASSERT_EQ(sq_modspec_load_module(&M, rp, strlen(rp), "rp.json", &o, err, sizeof err), 0);
    sq_modspec_module_free(&M);
}

/* Every file of the fuzz corpus loads or fails cleanly, as in the fuzzer. */
TEST(fuzz_corpus_replay)
{
    DIR *d = opendir(FUZZ_CORPUS);
    ASSERT(d != NULL);
    struct dirent *e;
    int64_t files = 0, ok = 0, odd = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", FUZZ_CORPUS, e->d_name);
        FILE *f = fopen(path, "rb");
        ASSERT(f != NULL);
        char *buf = sq_malloc(1 << 16);
        size_t n = fread(buf, 1, 1 << 16, f);
        fclose(f);
        sq_modspec_module_t M;
        char err[512];
        /* As tests/fuzz/fuzz_modspec.c loads them: every prime. */
        sq_modspec_opts_t o = {.max_tables = 4 << 20, .have_max_degree = 1, .max_degree = 24};
        int rc = sq_modspec_load_module(&M, buf, n, e->d_name, &o, err, sizeof err);
        if (rc == 0) {
            ok++;
            ASSERT((M.p == 2) == (M.m2 != NULL) && (M.p != 2) == (M.modd != NULL));
            odd += M.p != 2;
        } else {
            ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL && !M.m2 && !M.modd);
        }
        sq_modspec_module_free(&M);
        sq_free(buf);
        files++;
    }
    closedir(d);
    ASSERT(files >= 20);
    ASSERT(ok >= 9);
    ASSERT(odd >= 4); /* the odd-prime seeds load */
}
