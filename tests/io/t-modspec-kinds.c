/*
 * t-modspec-kinds.c -- the kinds of module file beyond finite modules
 * (finitely presented modules, real projective spaces, profiles that are
 * not truncated, cofibers), checked against knowledge from outside adams:
 *
 *   - change of rings: Ext_A(A//A(n)) = Ext_{A(n)}(F_2), so A//A(1) and
 *     A//A(2) (finitely presented) equal ko and tmf2 (F_2 over the
 *     subalgebra, resolved there), and A//A(0) is the h_0-tower;
 *   - y(1), y(2) (profiles [0], [0,0] not truncated): Ext^1 is the
 *     primitives of A_* / (xi_1, ..., xi_k), xi_n^{2^j} with n <= 2k + 1;
 *   - RP_1^inf: Ext^0 is the indecomposables x^{2^k - 1}; its truncation
 *     agrees with the finite RP_1^{N+1} through stem N (what the loader
 *     relies on), and RP_1^4 from "real projective space" is the shipped
 *     RP4;
 *   - every p = 2 file of the peer's corpus resolves (../shared, skipped
 *     with 77 when absent), and the peer's C4 and Ceta2 equal our shipped
 *     ones (whose long exact sequences are checked in t-cofiber.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resol.h"
#include "sq_modspec.h"
#include "sq_test.h"

#define SHIPPED SQ_TEST_DATA_DIR "/../../modules"
#define PEER SQ_TEST_DATA_DIR "/../../../shared/data/peer-modules"

/* Loads a module file truncated to degrees <= max_degree. */
static fdmod_t *load(const char *path, int32_t max_degree, sq_modspec_info_t *info)
{
    char err[1024];
    sq_modspec_info_t local;
    sq_modspec_opts_t o = {.have_max_degree = 1, .max_degree = max_degree,
                           .info = info ? info : &local};
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, NULL, &o, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    return M;
}

static resol_t *resolve(const fdmod_t *M, int32_t max_n, int32_t max_s)
{
    resol_t *R = resol_new(M, max_s, max_n);
    resol_run(R, RESOL_CLASSICAL);
    return R;
}

/* Fails unless the two resolutions agree on every cell of the region;
 * returns the number of nonzero cells. */
static int64_t same_ext(const resol_t *R, const resol_t *S, int32_t lo, int32_t max_n,
                        int32_t max_s, const char *what)
{
    int64_t nonzero = 0;
    for (int32_t n = lo; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            int64_t a = resol_ext_dim(R, s, n), b = resol_ext_dim(S, s, n);
            if (a != b || a < 0)
                sq_test_fail(__FILE__, __LINE__, "%s at (n, s) = (%d, %d): %lld vs %lld", what,
                             (int)n, (int)s, (long long)a, (long long)b);
            nonzero += a > 0;
        }
    return nonzero;
}

static void change_of_rings(const char *quotient, const char *over, int32_t max_n, int32_t max_s)
{
    char p1[512], p2[512];
    snprintf(p1, sizeof p1, "%s/%s.json", SHIPPED, quotient);
    snprintf(p2, sizeof p2, "%s/%s.json", SHIPPED, over);
    sq_modspec_info_t info;
    fdmod_t *M = load(p1, max_n + 1, &info), *B = load(p2, max_n + 1, NULL);
    ASSERT_EQ(info.kind, SQ_MODSPEC_PRESENTED);
    ASSERT_EQ(info.infinite, 1);
    resol_t *R = resolve(M, max_n, max_s), *S = resolve(B, max_n, max_s);
    ASSERT(same_ext(R, S, 0, max_n, max_s, quotient) > max_n);
    resol_free(R);
    resol_free(S);
    fdmod_free(M);
    fdmod_free(B);
}

TEST(fp_A_mod_A1_is_ko)
{
    change_of_rings("A_mod_A1", "ko", 40, 20);
}

TEST(fp_A_mod_A2_is_tmf)
{
    change_of_rings("A_mod_A2", "tmf2", 30, 15);
}

TEST(fp_A_mod_A0_is_the_h0_tower)
{
    fdmod_t *M = load(SHIPPED "/HZ.json", 41, NULL);
    resol_t *R = resolve(M, 40, 25);
    for (int32_t n = 0; n <= 40; n++)
        for (int32_t s = 0; s <= 25; s++)
            ASSERT_EQ(resol_ext_dim(R, s, n), n == 0 ? 1 : 0);
    resol_free(R);
    fdmod_free(M);
}

/* The primitives of A_* / (xi_1, ..., xi_k): xi_n^{2^j} with k < n <= 2k + 1,
 * in degree 2^j (2^n - 1), so Ext^{1,t}. */
static int64_t primitives(int k, int32_t t)
{
    int64_t c = 0;
    for (int n = k + 1; n <= 2 * k + 1; n++)
        for (int64_t d = (1 << n) - 1; d <= t; d *= 2)
            c += d == t;
    return c;
}

static void check_y(const char *file, int k)
{
    fdmod_t *M = load(file, 61, NULL);
    resol_t *R = resolve(M, 60, 2);
    for (int32_t n = 0; n <= 60; n++) {
        ASSERT_EQ(resol_ext_dim(R, 0, n), n == 0);
        if (resol_ext_dim(R, 1, n) != primitives(k, n + 1))
            sq_test_fail(__FILE__, __LINE__, "%s: Ext^{1,%d} is %lld, primitives say %lld", file,
                         (int)n + 1, (long long)resol_ext_dim(R, 1, n),
                         (long long)primitives(k, n + 1));
    }
    resol_free(R);
    fdmod_free(M);
}

TEST(profile_not_truncated_y1_y2)
{
    check_y(SHIPPED "/y1.json", 1);
    char path[512];
    snprintf(path, sizeof path, "%s/y2_2.json", PEER);
    if (access(path, R_OK) == 0)
        check_y(path, 2);
}

TEST(rp_inf_bottom_row_and_truncation)
{
    fdmod_t *M = load(SHIPPED "/RP_inf.json", 31, NULL);
    resol_t *R = resolve(M, 30, 12);
    /* Ext^0 = the A-indecomposables of F_2[x]x: x^{2^k - 1}. */
    for (int32_t n = 1; n <= 30; n++)
        ASSERT_EQ(resol_ext_dim(R, 0, n), ((n + 1) & n) == 0);
    /* RP_1^31, built whole, agrees through stem 30. */
    fdmod_t *F = NULL;
    char err[512];
    ASSERT_EQ(sq_modspec_load_string(&F,
                                     "{\"type\": \"real projective space\", \"min\": 1, "
                                     "\"max\": 31}",
                                     "RP31", err, sizeof err),
              0);
    ASSERT_EQ(fdmod_top(F), 31);
    resol_t *S = resolve(F, 30, 12);
    ASSERT(same_ext(R, S, 1, 30, 12, "RP_1^inf vs RP_1^31") > 30);
    resol_free(S);
    fdmod_free(F);
    resol_free(R);
    fdmod_free(M);
}

TEST(rp_type_equals_shipped_rp4)
{
    fdmod_t *A = NULL, *B = load(SHIPPED "/RP4.json", 40, NULL);
    char err[512];
    ASSERT_EQ(sq_modspec_load_string(&A, "{\"type\": \"real projective space\", \"min\": 1, "
                                         "\"max\": 4}",
                                     "RP_1^4", err, sizeof err),
              0);
    resol_t *R = resolve(A, 30, 20), *S = resolve(B, 30, 20);
    ASSERT(same_ext(R, S, 1, 30, 20, "RP_1^4") > 30);
    resol_free(R);
    resol_free(S);
    fdmod_free(A);
    fdmod_free(B);
}

/* Errors of the new kinds: one line each, naming the key. */
static void expect_error(int line, const char *json, int rc, const char *want)
{
    fdmod_t *M = NULL;
    char err[1024];
    sq_modspec_opts_t o = {.have_max_degree = 1, .max_degree = 20};
    int got = sq_modspec_load_buffer(&M, json, strlen(json), "t.json", &o, err, sizeof err);
    if (got != rc || strcmp(err, want) != 0 || M != NULL || strchr(err, '\n'))
        sq_test_fail(__FILE__, line, "rc %d (want %d)\n--- got\n%s\n--- want\n%s\n--- input\n%s",
                     got, rc, err, want, json);
}

TEST(kinds_errors)
{
    expect_error(__LINE__, "{\"type\": \"real projective space\", \"min\": 1, \"gens\": {}}",
                 SQ_E_INVAL,
                 "t.json:1: \"gens\" does not belong to a real projective space (it has \"min\", "
                 "\"max\" and \"clear_bottom\")");
    expect_error(__LINE__, "{\"type\": \"real projective space\"}", SQ_E_INVAL,
                 "t.json:1: a real projective space needs \"min\", the degree of its bottom "
                 "cell");
    expect_error(__LINE__, "{\"type\": \"real projective space\", \"min\": 3, \"max\": 1}",
                 SQ_E_INVAL, "t.json:1: \"max\" 1 is below \"min\" 3");
    expect_error(__LINE__,
                 "{\"type\": \"real projective space\", \"min\": 3, \"clear_bottom\": 1}",
                 SQ_E_INVAL, "t.json:1: \"clear_bottom\" must be true or false, not an integer");
    expect_error(__LINE__,
                 "{\"type\": \"finitely presented module\", \"gens\": {\"x0\": 0}, "
                 "\"actions\": []}",
                 SQ_E_INVAL,
                 "t.json:1: \"actions\" does not belong to a finitely presented module (it has "
                 "\"gens\" and \"adem_relations\" or \"milnor_relations\")");
    expect_error(__LINE__, "{\"type\": \"finitely presented module\", \"gens\": {\"x0\": 0}}",
                 SQ_E_INVAL,
                 "t.json:1: a finitely presented module needs \"adem_relations\" or "
                 "\"milnor_relations\" (a list of relations such as \"Sq1 x0\")");
    /* The two lists must present the same module. */
    expect_error(__LINE__,
                 "{\"type\": \"finitely presented module\", \"gens\": {\"x0\": 0},\n"
                 "\"adem_relations\": [\"Sq1 x0\", \"Sq2 x0\"],\n"
                 "\"milnor_relations\": [\"P(1) x0\"]}",
                 SQ_E_INVAL,
                 "t.json:2: adem_relations entry 2 \"Sq2 x0\" is not in the submodule generated "
                 "by \"milnor_relations\": the two lists must present the same module");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"min\": 3}", SQ_E_INVAL,
                 "t.json:1: \"min\" does not belong to a finite dimensional module (it has "
                 "\"gens\" and \"actions\"; see \"type\")");
    expect_error(__LINE__, "{\"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 2, \"t\": 2}}",
                 SQ_E_INVAL,
                 "t.json:1: \"cofiber\" must be an object {\"s\": S, \"t\": T, \"idx\": I}: the "
                 "class x_(T - S, S, I) of the module; \"s\", \"t\" and \"idx\" are integers");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 0, \"t\": 0, \"idx\": 0}}",
                 SQ_E_RANGE,
                 "t.json:1: \"cofiber\": \"s\" is 0; the class must have filtration 1..1000");
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 1, \"t\": 1, \"idx\": 0, "
                 "\"k\": 1}}",
                 SQ_E_INVAL,
                 "t.json:1: \"cofiber\": unknown key \"k\" (\"cofiber\" must be an object "
                 "{\"s\": S, \"t\": T, \"idx\": I}: the class x_(T - S, S, I) of the module)");
    /* The one reader's limit at every prime (the p = 2 reader took 2^40). */
    expect_error(__LINE__,
                 "{\"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 1, \"t\": 1, \"idx\": 1000001}}",
                 SQ_E_RANGE, "t.json:1: \"cofiber\": \"idx\" 1000001 is out of range (0..1000000)");
}

/* Reads the whole stdout of `adams resolve ARGS`; fails unless it exits 0. */
static char *run_ok(const char *args)
{
    char *out, *err;
    int rc = sq_test_run_adams(args, &out, &err);
    if (rc != 0)
        sq_test_fail(__FILE__, __LINE__, "adams %s: rc=%d\n%s", args, rc, err);
    sq_free(err);
    return out;
}

TEST(peer_corpus_resolves)
{
    DIR *d = opendir(PEER);
    if (!d) {
        fprintf(stderr, "skip: %s not found (the peer's module files live outside the project)\n",
                PEER);
        exit(77);
    }
    struct dirent *e;
    int ok = 0, refused = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[1024], *text;
        snprintf(path, sizeof path, "%s/%s", PEER, e->d_name);
        text = sq_test_slurp(path);
        int odd = strstr(text, "\"p\": 2") == NULL;
        sq_free(text);
        char args[1200], *out, *err;
        snprintf(args, sizeof args, "resolve '%s' --stem 30 --max-s 20 --format csv --quiet",
                 path);
        int rc = sq_test_run_adams(args, &out, &err);
        if (odd) {
            /* Odd primes resolve with their own engine (tests/podd checks the
             * mathematics); here: through the program, every cell printed. */
            if (rc != 0 || sq_test_count_lines(out) < 30 * 21)
                sq_test_fail(__FILE__, __LINE__, "%s: rc=%d %s", e->d_name, rc, err);
            refused++;
        } else {
            if (rc != 0 || sq_test_count_lines(out) < 30 * 21)
                sq_test_fail(__FILE__, __LINE__, "%s: rc=%d %s", e->d_name, rc, err);
            ok++;
        }
        sq_free(out);
        sq_free(err);
    }
    closedir(d);
    ASSERT_EQ(ok, 32);
    ASSERT_EQ(refused, 14); /* the odd-prime files */
    /* The peer's cofiber files equal the ones we ship. */
    const char *same[][2] = {{"C4", "C4"}, {"Ceta2", "Ceta2"}, {"A-mod-Sq1-Sq2", "A_mod_A1"},
                             {"RP_inf", "RP_inf"}};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char a[1200], b[600];
        snprintf(a, sizeof a, "resolve '%s/%s.json' --stem 30 --max-s 20 --format csv --quiet",
                 PEER, same[i][0]);
        snprintf(b, sizeof b, "resolve %s --stem 30 --max-s 20 --format csv --quiet",
                 same[i][1]);
        char *x = run_ok(a), *y = run_ok(b);
        ASSERT_STR_EQ(x, y);
        sq_free(x);
        sq_free(y);
    }
}

TEST(cli_kinds_notes_and_refusals)
{
    char *out, *err;
    /* auto says which engine and why. */
    ASSERT_EQ(sq_test_run_adams("resolve HZ --stem 4 --max-s 3", &out, &err), 0);
    ASSERT(strstr(err,
                  "adams: note: engine: classical (HZ is an infinite finitely presented module)"));
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve C2 --stem 45 --max-s 3", &out, &err), 0);
    ASSERT(strstr(err, "adams: note: engine: nassau (C2 is a finite module over the whole "
                       "algebra)"));
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve C2 --stem 4 --max-s 3", &out, &err), 0);
    ASSERT(strstr(err, "adams: note: engine: classical (a region of at most 40 stems above the "
                       "bottom, where it is faster than nassau)"));
    sq_free(out);
    sq_free(err);
    /* Nassau is refused for what it cannot resolve. */
    ASSERT_EQ(sq_test_run_adams("resolve C4 --stem 4 --algorithm nassau", &out, &err), 2);
    ASSERT_STR_EQ(out, "");
    ASSERT_STR_EQ(err, "adams: --algorithm nassau resolves finite modules over the whole "
                       "algebra; C4 is the cofiber of a class: use --algorithm classical (or "
                       "auto)\n");
    sq_free(out);
    sq_free(err);
    /* NAME@adem works and says what it changes; NAME@milnor too. */
    char *plain = run_ok("resolve Ceta --stem 20 --format csv --quiet");
    char *milnor = run_ok("resolve Ceta@milnor --stem 20 --format csv --quiet");
    ASSERT_STR_EQ(plain, milnor);
    ASSERT_EQ(sq_test_run_adams("resolve 'Ceta[2]@adem' --stem 20 --format csv", &out, &err), 0);
    ASSERT(strstr(err, "@adem changes only the names of basis elements"));
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve Ceta@serre --stem 20", &out, &err), 2);
    ASSERT_STR_EQ(err, "adams: module 'Ceta@serre': unknown basis 'serre' after '@' (expected "
                       "milnor or adem)\n");
    sq_free(out);
    sq_free(err);
    sq_free(plain);
    sq_free(milnor);
    /* A class that does not exist. */
    ASSERT_EQ(sq_test_run_adams("resolve " SQ_TEST_DATA_DIR "/modules/cofiber-bad-idx.json "
                                "--stem 10",
                                &out, &err),
              2);
    ASSERT_STR_EQ(out, "");
    ASSERT_STR_EQ(err, "adams: \"cofiber\": the class x_(0, 2, 3) does not exist: Ext^{2,2} of "
                       "cofiber-bad-idx has dimension 1\n");
    sq_free(out);
    sq_free(err);
}

/* A module over A(1) spanning 2000 degrees: the Joker and a lone cell at
 * 2000.  The algebra tables stop at twice A(1)'s top degree, so this
 * resolves at once; above the Joker's vanishing line, stems 2000..2010
 * are Ext_{A(1)} of F_2 shifted (the shipped ko). */
TEST(subalgebra_wide_module)
{
    const char *json = "{\"p\": 2, \"profile\": {\"truncated\": true, \"p_part\": [2, 1]},"
                       " \"gens\": {\"x0\": 0, \"x1\": 1, \"x2\": 2, \"x3\": 3, \"x4\": 4,"
                       " \"y\": 2000}, \"actions\": [\"Sq1 x0 = x1\", \"Sq2 x0 = x2\","
                       " \"Sq2 x1 = x3\", \"Sq2 x2 = x4\", \"Sq1 x3 = x4\"]}";
    fdmod_t *W = NULL;
    char err[512];
    ASSERT_EQ(sq_modspec_load_string(&W, json, "wide", err, sizeof err), 0);
    fdmod_t *K = load(SHIPPED "/ko.json", 20, NULL);
    resol_t *R = resolve(W, 2010, 8), *S = resolve(K, 10, 8);
    for (int32_t n = 0; n <= 10; n++)
        for (int32_t s = 0; s <= 8; s++)
            ASSERT_EQ(resol_ext_dim(R, s, 2000 + n), resol_ext_dim(S, s, n));
    resol_free(R);
    resol_free(S);
    fdmod_free(W);
    fdmod_free(K);
}

/* The odd-prime loader names the file as the p = 2 loader does: a long
 * path is shown whole (up to SQ_MODSPEC_NAME_CLIP bytes), not cut. */
TEST(odd_loader_shows_long_paths)
{
    char name[300], err[1024];
    memset(name, 'd', 200);
    strcpy(name + 200, "/bad-p.json");
    const char *json = "{\"p\": 4, \"gens\": {\"x0\": 0}}";
    fdmod_t *M = NULL;
    ASSERT(sq_modspec_load_buffer_odd(&M, json, strlen(json), name, NULL, err, sizeof err) != 0);
    ASSERT(M == NULL);
    ASSERT(strncmp(err, name, strlen(name)) == 0);
    ASSERT(strstr(err, "\"p\" is 4, which is not a prime") != NULL);
}
