/*
 * t-modspec-odd.c -- module files at odd primes: every error message, the key
 * rule, the peer's 14 odd-prime files (../shared, exit 77 when absent)
 * checked against knowledge from outside the loader, and `adams resolve`
 * on odd-prime files (the chart and CSV of p = 2, one-line refusals).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <unistd.h>

#include "podd_util.h"
#include "sq_chart.h"
#include "resol_cofiber.h"
#include "sq_modspec.h"

/* Loads json (display name my.json); returns the code and the message. */
static int load(const char *json, fdmod_t **M, char *err, size_t errlen)
{
    return sq_modspec_load_buffer_odd(M, json, strlen(json), "my.json", NULL, err, errlen);
}

static void expect_error(const char *json, int code, const char *want)
{
    fdmod_t *M = NULL;
    char err[512];
    int rc = load(json, &M, err, sizeof err);
    if (rc != code || !strstr(err, want) || M)
        sq_test_fail(__FILE__, __LINE__, "load of\n%s\ngave %d \"%s\", want %d with \"%s\"", json,
                     rc, err, code, want);
    ASSERT(strchr(err, '\n') == NULL);
}

TEST(modspec_odd_good)
{
    const char *json = "{\n"
                       "  \"p\": 3,\n"
                       "  \"gens\": {\"x0\": 0, \"x1\": 1, \"x5\": 5, \"x6\": 6},\n"
                       "  \"actions\": [\"b x0 = x1\", \"P1 x1 = x5\", \"b x5 = x6\"],\n"
                       "  \"description\": \"V(1)-like\", \"name\": \"C3v1\", \"products\": []\n"
                       "}\n";
    fdmod_t *M = NULL;
    char err[512], desc[64];
    sq_modspec_info_t info;
    sq_modspec_opts_t o = {0};
    o.description = desc;
    o.description_len = sizeof desc;
    o.info = &info;
    o.shift = 2;
    int rc = sq_modspec_load_buffer_odd(&M, json, strlen(json), "dir/C3v1.json", &o, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    ASSERT_STR_EQ(fdmod_name(M), "C3v1[2]");
    ASSERT_STR_EQ(desc, "V(1)-like");
    ASSERT_EQ(info.bottom, 2);
    ASSERT_EQ(info.span, 6);
    ASSERT_EQ(info.cofiber, 0);
    ASSERT_EQ(fdmod_prime(M), 3);
    ASSERT_EQ(fdmod_dim(M, 7), 1);
    fdmod_free(M);
    /* coefficients mod p, P^n, "= 0", a negative coefficient */
    json = "{\"p\": 5, \"gens\": {\"a\": 0, \"b2\": 8, \"c\": 8},"
           " \"actions\": [\"P^1 a = 7 b2 - c\", \"b a = 0\"]}";
    rc = load(json, &M, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    const uint8_t *v = podd_action(M, 8, 0, 0, 0); /* P(1) is element 0 of degree 8 */
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 2);
    ASSERT_EQ(v[1], 4);
    fdmod_free(M);
}

TEST(modspec_odd_errors)
{
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0,}}", SQ_E_PARSE, "my.json:1:");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0,}}", SQ_E_PARSE, "JSON syntax");
    expect_error("[1]", SQ_E_INVAL, "the top level must be an object");
    expect_error("{\"p\": 3}", SQ_E_INVAL, "my.json: missing \"gens\"");
    expect_error("{\"p\": 3,\n \"gens\": [1]}", SQ_E_INVAL, "my.json:2: \"gens\" must be an object");
    expect_error("{\"p\": 2, \"gens\": {\"x0\": 0}}", SQ_E_INVAL, "\"p\" is 2");
    expect_error("{\"p\": 9, \"gens\": {\"x0\": 0}}", SQ_E_INVAL, "\"p\" is 9, which is not a prime");
    expect_error("{\"p\": 257, \"gens\": {\"x0\": 0}}", SQ_E_RANGE, "primes below 256");
    expect_error("{\"p\": \"3\", \"gens\": {\"x0\": 0}}", SQ_E_INVAL, "\"p\" must be a prime number");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": \"0\"}}", SQ_E_INVAL,
                 "generator x0: the degree must be an integer, not a string");
    expect_error("{\"p\": 3, \"gens\": {\"a b\": 0}}", SQ_E_INVAL, "may not contain white space");
    expect_error("{\"p\": 3, \"gens\": {\"1x\": 0}}", SQ_E_INVAL, "may not begin with a digit");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 20000}}", SQ_E_RANGE, "out of range");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x0\": 1}}", SQ_E_INVAL, "duplicate");
    expect_error("{\"p\": 3,\n \"gens\": {\"x0\": 0, \"x1\": 1},\n \"actions\": [\"b x0 = y1\"]}",
                 SQ_E_INVAL, "my.json:3: b x0 = y1: unknown generator y1 (did you mean x1?)");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"P1 x0 = x1\"]}",
                 SQ_E_INVAL, "P1 x0 = x1: x1 has degree 1, not 0 + 4");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x8\": 8}, \"actions\": [\"P2 x0 = x8\"]}",
                 SQ_E_INVAL, "only the generators b, P1, P3, P9, ... may act; P2 is not one");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"Sq1 x0 = x1\"]}",
                 SQ_E_INVAL, "unknown operation Sq1");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"b x0 -> x1\"]}",
                 SQ_E_INVAL, "expected \"<b or P<n>> <generator> =");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1},\n \"actions\": [\"b x0 = x1\",\n"
                 " \"b x0 = 2 x1\"]}",
                 SQ_E_INVAL, "my.json:3: b x0 = 2 x1: b x0 is already given on line 2");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1, \"x2\": 2},"
                 " \"actions\": [\"b x0 = x1\", \"b x1 = x2\"]}",
                 SQ_E_INVAL, "my.json: the action is not a module: on x0, b applied after Q_0");
    expect_error("{\"p\": 3, \"type\": \"real projective space\", \"min\": 1}", SQ_E_INVAL,
                 "finite dimensional modules only");
    expect_error("{\"p\": 3, \"type\": \"sphere\", \"gens\": {\"x0\": 0}}", SQ_E_INVAL,
                 "\"type\" is \"sphere\"");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"adem_relations\": []}", SQ_E_INVAL,
                 "\"adem_relations\" does not belong to a finite dimensional module");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"generic\": true}", SQ_E_INVAL,
                 "\"generic\": only false is supported");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"algebra\": [\"adem\"]}", SQ_E_INVAL,
                 "must be a list of bases that includes \"milnor\"");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1}, \"milnor_actions\": [1]}",
                 SQ_E_INVAL, "legacy form");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"profile\": {\"p_part\": [1]}}", SQ_E_INVAL,
                 "\"truncated\" must be true");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0},"
                 " \"profile\": {\"truncated\": false, \"q_part\": 4294967293}}",
                 SQ_E_INVAL, "leaves out Q_1 but keeps Q_0");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x4\": 4}, \"actions\": [\"P1 x0 = x4\"],"
                 " \"profile\": {\"truncated\": false, \"p_part\": [0]}}",
                 SQ_E_INVAL, "P1 is not in the subalgebra of the profile");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 0, \"t\": 0, \"idx\": 0}}",
                 SQ_E_RANGE, "\"s\" is 0");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x5000\": 5000}}", SQ_E_RANGE, "span");
    expect_error("{\"p\": 3, \"gens\": {}}", SQ_E_INVAL, "\"gens\" is empty");
}

/* Issue 21 step 2: one reader for every prime.  Each check failed with the
 * odd-prime reader it replaced: it warned about an unknown key in "cofiber",
 * took an idx up to 10^6 but a t up to 11000 and a span up to 4095, and had
 * no table-size guard. */
TEST(modspec_odd_one_reader)
{
    /* One entry point: the module of the file's prime. */
    const char *odd = "{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"b x0 = x1\"]}";
    const char *two = "{\"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"Sq1 x0 = x1\"]}";
    sq_modspec_module_t m;
    char err[1024];
    ASSERT_EQ(sq_modspec_load_module(&m, odd, strlen(odd), "a.json", NULL, err, sizeof err), 0);
    ASSERT(m.p == 3 && m.modd && !m.m2);
    ASSERT_EQ(fdmod_dim(m.modd, 1), 1);
    sq_modspec_module_free(&m);
    ASSERT(!m.modd);
    ASSERT_EQ(sq_modspec_load_module(&m, two, strlen(two), "b.json", NULL, err, sizeof err), 0);
    ASSERT(m.p == 2 && m.m2 && !m.modd);
    sq_modspec_module_free(&m);
    fdmod_t *M = NULL;
    ASSERT_EQ(sq_modspec_load_buffer_odd(&M, two, strlen(two), "b.json", NULL, err, sizeof err),
              SQ_E_INVAL);
    ASSERT_STR_EQ(err, "b.json: \"p\" is 2 (no \"p\" given): this entry point builds modules at "
                       "odd primes (sq_modspec_load_module reads every prime)");
    /* The cofiber's keys and limits of p = 2. */
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 1, \"t\": 1, \"idx\": 0,"
                 " \"k\": 1}}",
                 SQ_E_INVAL, "my.json:1: \"cofiber\": unknown key \"k\"");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 1, \"t\": 10500, "
                 "\"idx\": 0}}",
                 SQ_E_RANGE, "\"t\" 10500 is out of range (|t| <= 10000)");
    expect_error("{\"p\": 3, \"gens\": {\"x0\": 0, \"x3000\": 3000}}", SQ_E_RANGE,
                 "my.json: the degrees span 0..3000, more than the largest span 2047");
    /* The grammar: signs and coefficients mod p, "x-1" a name. */
    const char *signs = "{\"p\": 5, \"gens\": {\"a\": 0, \"x-1\": 1, \"y\": 1},"
                        " \"actions\": [\"b a = -x-1 - 3 y\"]}";
    ASSERT_EQ(load(signs, &M, err, sizeof err), 0);
    const uint8_t *v = podd_action(M, 1, 0, 0, 0);
    ASSERT(v != NULL);
    ASSERT_EQ(v[0], 4);
    ASSERT_EQ(v[1], 2);
    fdmod_free(M);
    /* The table-size guard: 1500 cells in degree 0, 1500 in degree 4, P1
     * between them: 2.1 MiB of action table, refused under 1 MiB, loaded
     * under the default. */
    size_t cap = 80000, n = 0;
    char *big = sq_malloc(cap);
    n += (size_t)snprintf(big + n, cap - n, "{\"p\": 3, \"gens\": {");
    for (int i = 0; i < 1500; i++)
        n += (size_t)snprintf(big + n, cap - n, "%s\"a%d\": 0, \"b%d\": 4", i ? ", " : "", i, i);
    n += (size_t)snprintf(big + n, cap - n, "}, \"actions\": [\"P1 a0 = b0\"]}");
    sq_modspec_opts_t o = {.max_tables = 1 << 20};
    ASSERT_EQ(sq_modspec_load_buffer_odd(&M, big, n, "big.json", &o, err, sizeof err), SQ_E_RANGE);
    ASSERT(M == NULL);
    ASSERT(strstr(err, "big.json: the module is too large: its action tables would take 2 MiB "
                       "(at most 1)") != NULL);
    ASSERT_EQ(sq_modspec_load_buffer_odd(&M, big, n, "big.json", NULL, err, sizeof err), 0);
    ASSERT_EQ(fdmod_dim(M, 4), 1500);
    fdmod_free(M);
    sq_free(big);
}

TEST(modspec_odd_warnings_and_prime)
{
    const char *json = "{\"p\": 3, \"gens\": {\"x0\": 0},\n \"actionz\": []}";
    char path[] = "/tmp/modspec-odd-warnXXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    FILE *w = fdopen(fd, "w+");
    sq_modspec_opts_t o = {0};
    o.warn = w;
    fdmod_t *M = NULL;
    char err[512];
    ASSERT_EQ(sq_modspec_load_buffer_odd(&M, json, strlen(json), "my.json", &o, err, sizeof err), 0);
    fflush(w);
    rewind(w);
    char line[256] = "";
    ASSERT(fgets(line, sizeof line, w) != NULL);
    ASSERT(strstr(line, "my.json:2: warning: unknown key \"actionz\" ignored (did you mean "
                        "\"actions\"?)") != NULL);
    fclose(w);
    unlink(path);
    fdmod_free(M);
    uint32_t p = 0;
    ASSERT_EQ(sq_modspec_buffer_prime(json, strlen(json), "my.json", &p, err, sizeof err), 0);
    ASSERT_EQ(p, 3);
    ASSERT_EQ(sq_modspec_buffer_prime("{}", 2, "x", &p, err, sizeof err), 0);
    ASSERT_EQ(p, 2);
    ASSERT_EQ(sq_modspec_file_prime("/nonexistent/x.json", NULL, &p, err, sizeof err), SQ_E_IO);
    ASSERT(strstr(err, "cannot read") != NULL);
}

/* ---- adams resolve on odd-prime files ----------------------------------------------- */

/* Runs `adams resolve` on json (a file m.json in a fresh folder) through
 * stem N, filtration S, as csv or the chart: the exit code in *rc, stderr
 * (owned) in *err, stdout returned (owned). */
static char *run_cli(const char *json, int32_t N, int32_t S, int csv, int *rc, char **err)
{
    char dir[] = "/tmp/modspec-odd-cliXXXXXX", path[64];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/m.json", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL && fputs(json, f) >= 0 && fclose(f) == 0);
    sq_test_run_t r = sq_test_runf("resolve '%s' --stem %d --max-s %d --format %s --quiet", path,
                                   (int)N, (int)S, csv ? "csv" : "chart");
    unlink(path);
    rmdir(dir);
    *rc = r.rc;
    *err = r.err;
    return r.out;
}

TEST(modspec_odd_cli_formats)
{
    podd_table_t T;
    podd_table_load(&T, "ext-S3-n100-s30.csv", 100, 30);
    int rc;
    char *err;
    char *csv = run_cli("{\"p\": 3, \"gens\": {\"x0\": 0}, \"actions\": []}", 40, 12, 1, &rc,
                        &err);
    ASSERT_EQ(rc, 0);
    /* n-major, then s; every cell */
    char *want = NULL;
    size_t wl = 0;
    FILE *f = open_memstream(&want, &wl);
    for (int n = 0; n <= 40; n++)
        for (int s = 0; s <= 12; s++)
            fprintf(f, "%d,%d,%lld\n", n, s, (long long)podd_table_get(&T, n, s));
    fclose(f);
    ASSERT_STR_EQ(csv, want);
    sq_free(csv);
    sq_free(err);
    free(want);
    char *dots = run_cli("{\"p\": 3, \"gens\": {\"x0\": 0}}", 30, 8, 0, &rc, &err);
    ASSERT_EQ(rc, 0);
    f = open_memstream(&want, &wl);
    for (int s = 8; s >= 0; s--) {
        for (int n = 0; n <= 30; n++)
            fprintf(f, "%s ", sq_chart_glyph(podd_table_get(&T, n, s)));
        fputc('\n', f);
    }
    fputc('\n', f);
    fclose(f);
    ASSERT_STR_EQ(dots, want);
    sq_free(dots);
    sq_free(err);
    free(want);
    /* refusals: exit 2, one line, nothing on stdout */
    static const struct {
        const char *json;
        int32_t stem;
        const char *why;
    } bad[] = {
        {"{\"p\": 3, \"gens\": {\"x0\": 0}, \"actions\": [\"P1 x0 = y\"]}", 10,
         "unknown generator y"},
        {"{\"p\": 3, \"gens\": {\"x0\": 0}}", -1, "below the bottom degree"},
        {"{\"p\": 3, \"gens\": {\"x0\": 0}, \"cofiber\": {\"s\": 2, \"t\": 2, \"idx\": 1}}", 10,
         "does not exist"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *none = run_cli(bad[i].json, bad[i].stem, 2, 1, &rc, &err);
        ASSERT_EQ(rc, 2);
        if (!strstr(err, bad[i].why))
            sq_test_fail(__FILE__, __LINE__, "%s: stderr %s, want \"%s\"", bad[i].json, err,
                         bad[i].why);
        ASSERT_STR_EQ(none, "");
        ASSERT_EQ(sq_test_count_lines(err), 1);
        sq_free(none);
        sq_free(err);
    }
    podd_table_clear(&T);
}

/* ---- The peer's odd-prime files --------------------------------------------------------- */

static const char *const peer_odd[] = {"C3",    "C3v1", "C3v1b1", "C5v1", "C9",   "Calpha", "S_3",
                                       "S_5",   "S_7",  "X3",     "l",    "t1",   "y1_3",   "y2_3",
                                       NULL};

/* dim (M / A^+ M)_d: the cells not hit by any operation of positive degree. */
static int64_t indecomposable_cells(const fdmod_t *M, const pmilnor_t *A, int32_t d)
{
    int64_t n = fdmod_dim(M, d);
    if (!n)
        return 0;
    int64_t rows = 0;
    for (int32_t k = 1; k <= d - fdmod_bottom(M); k++)
        rows += pmilnor_dim(A, k) * fdmod_dim(M, d - k);
    fpmat_t m = {0};
    fpmat_init(&m, rows, n, fdmod_prime(M));
    int64_t r = 0;
    for (int32_t k = 1; k <= d - fdmod_bottom(M); k++)
        for (int64_t i = 0; i < pmilnor_dim(A, k); i++)
            for (int64_t j = 0; j < fdmod_dim(M, d - k); j++, r++) {
                uint8_t *unit = sq_calloc((size_t)fdmod_dim(M, d - k), 1);
                unit[j] = 1;
                podd_act_add(M, fpmat_row(&m, r), 1, k, i, d - k, unit);
                sq_free(unit);
            }
    int64_t rank = podd_rank(&m);
    fpmat_clear(&m);
    return n - rank;
}

static int64_t ext_cof(const void *C, int32_t s, int32_t n)
{
    return resol_cofiber_ext_dim((const resol_cofiber_t *)C, s, n);
}

TEST(modspec_odd_peer_files)
{
    char path[512];
    snprintf(path, sizeof path, "%s/S_3.json", PODD_PEER);
    if (access(path, R_OK) != 0) {
        printf("skipped: %s is absent\n", PODD_PEER);
        exit(77);
    }
    podd_table_t T;
    podd_table_load(&T, "ext-S3-n100-s30.csv", 100, 30);
    const int32_t N = 30, S = 20;
    /* the Moore spectrum C3 from "b x0 = x1", for C3.json (profile) */
    int64_t moore[31][21];
    {
        fdmod_t *M = NULL;
        char err[512];
        const char *json = "{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"b x0 = x1\"]}";
        ASSERT_EQ(load(json, &M, err, sizeof err), 0);
        resol_t *R = resol_new(M, S, N);
        resol_run(R, RESOL_CLASSICAL);
        for (int32_t n = 0; n <= N; n++)
            for (int32_t s = 0; s <= S; s++)
                moore[n][s] = resol_ext_dim(R, s, n);
        resol_free(R);
        fdmod_free(M);
    }
    for (int i = 0; peer_odd[i]; i++) {
        snprintf(path, sizeof path, "%s/%s.json", PODD_PEER, peer_odd[i]);
        fdmod_t *M = NULL;
        char err[512];
        sq_modspec_info_t info;
        sq_modspec_opts_t o = {0};
        o.info = &info;
        int rc = sq_modspec_load_file_odd(&M, path, NULL, &o, err, sizeof err);
        if (rc)
            sq_test_fail(__FILE__, __LINE__, "%s: %s", peer_odd[i], err);
        uint32_t p = fdmod_prime(M);
        if (info.cofiber) {
            resol_cofiber_t *C = NULL;
            rc = resol_cofiber_new(&C, M, info.cof_s, info.cof_t, info.cof_idx, info.cof_target,
                                    S, N, NULL, err, sizeof err);
            if (rc)
                sq_test_fail(__FILE__, __LINE__, "%s: %s", peer_odd[i], err);
            /* Ext^0 of a cofiber of a class of positive filtration is that of M. */
            resol_t *R = resol_new(M, S, N);
            resol_run(R, RESOL_CLASSICAL);
            for (int32_t n = 0; n <= N; n++)
                ASSERT_EQ(ext_cof(C, 0, n), resol_ext_dim(R, 0, n));
            if (strcmp(peer_odd[i], "C9") == 0) /* S/9: pi_0 = Z/9, two a_0 layers */
                for (int32_t s = 0; s <= S; s++)
                    ASSERT_EQ(ext_cof(C, s, 0), s <= 1);
            char why[256];
            if (resol_cofiber_module(C)) {
                ASSERT_EQ(fdmod_check_module_all(resol_cofiber_module(C), resol_stalg(R), why,
                                              sizeof why),
                          0);
            }
            resol_free(R);
            resol_cofiber_free(C);
            fdmod_free(M);
            continue;
        }
        resol_t *R = resol_new(M, S, N);
        resol_run(R, RESOL_CLASSICAL);
        rc = podd_verify(R, err, sizeof err);
        if (rc)
            sq_test_fail(__FILE__, __LINE__, "%s: %s", peer_odd[i], err);
        const pmilnor_t *A = resol_palgebra(R);
        /* Ext^0 = the dual of M / A^+ M. */
        for (int32_t n = 0; n <= N; n++)
            ASSERT_EQ(resol_ext_dim(R, 0, n), indecomposable_cells(M, A, n));
        if (fdmod_top(M) == fdmod_bottom(M)) {
            /* F_p over B: Ext^1 = the indecomposables of B. */
            for (int32_t n = 0; n <= N; n++)
                if (resol_ext_dim(R, 1, n) != podd_indecomposables(A, n + 1))
                    sq_test_fail(__FILE__, __LINE__, "%s: Ext^1 at stem %d is %lld, B has %lld "
                                 "indecomposables in degree %d",
                                 peer_odd[i], n, (long long)resol_ext_dim(R, 1, n),
                                 (long long)podd_indecomposables(A, n + 1), n + 1);
        }
        if (strcmp(peer_odd[i], "S_3") == 0)
            for (int32_t n = 0; n <= N; n++)
                for (int32_t s = 0; s <= S; s++)
                    ASSERT_EQ(resol_ext_dim(R, s, n), podd_table_get(&T, n, s));
        if (strcmp(peer_odd[i], "C3") == 0) /* change of rings: A//B = H^*(C3) */
            for (int32_t n = 0; n <= N; n++)
                for (int32_t s = 0; s <= S; s++)
                    ASSERT_EQ(resol_ext_dim(R, s, n), moore[n][s]);
        if (strcmp(peer_odd[i], "S_5") == 0 || strcmp(peer_odd[i], "S_7") == 0)
            for (int32_t n = 0; n <= N; n++)
                ASSERT_EQ(resol_ext_dim(R, 1, n), n == 0 || n == 2 * (int32_t)p - 3);
        resol_free(R);
        fdmod_free(M);
    }
    podd_table_clear(&T);
}

/* The folder's odd-prime files are exactly the 14 above: every *.json whose
 * "p" is not 2 is listed (so a new one is not silently left out), and the
 * listed ones are odd. */
TEST(modspec_odd_peer_census)
{
    DIR *d = opendir(PODD_PEER);
    if (!d) {
        printf("skipped: %s is absent\n", PODD_PEER);
        exit(77);
    }
    int odd = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[512], err[512], name[256];
        snprintf(path, sizeof path, "%s/%s", PODD_PEER, e->d_name);
        uint32_t p = 0;
        ASSERT_EQ(sq_modspec_file_prime(path, NULL, &p, err, sizeof err), 0);
        if (p == 2)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(n - 5), e->d_name);
        int listed = 0;
        for (int i = 0; peer_odd[i]; i++)
            listed |= strcmp(peer_odd[i], name) == 0;
        if (!listed)
            sq_test_fail(__FILE__, __LINE__, "%s has p = %u but is not in peer_odd", name, p);
        odd++;
    }
    closedir(d);
    ASSERT_EQ(odd, 14);
}
