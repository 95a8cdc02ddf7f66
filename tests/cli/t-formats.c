/*
 * t-formats.c -- the outputs of issue 24's item 5 through the program:
 * `adams resolve --format differentials` (the peer's lines), `adams
 * algebra` (dimensions of A, A(n) and profiles against their generating
 * functions), `adams size`, and their one-line refusals.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sq_core.h"
#include "sq_test.h"

/* adams ARGS exits with rc and prints exactly out and err (sq_test.h). */
#define run_is(line, args, rc, out, err) sq_test_expect_run(__FILE__, line, args, rc, out, err)

/* The refusals of a verb: each line of the table is adams args, exit 2,
 * nothing on stdout and exactly the line err on stderr. */
typedef struct {
    const char *args, *err;
} refusal_t;

static void refused(int line, const refusal_t *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sq_test_expect_run(__FILE__, line, t[i].args, 2, "", t[i].err);
}

/* The body of a tests/data file: its '#' header lines skipped. */
static const char *data_body(const char *text)
{
    while (*text == '#')
        text = strchr(text, '\n') + 1;
    return text;
}

TEST(formats_differentials_peer_lines)
{
    char *want = sq_test_slurp(sq_test_data_path("differentials-S2-n10-s5.txt"));
    const char *body = data_body(want);
    run_is(__LINE__, "resolve S_2 --stem 10 --max-s 5 --format differentials --quiet", 0, body, "");
    run_is(__LINE__,
           "resolve S_2 --stem 10 --max-s 5 --format differentials --quiet --threads 1 "
           "--algorithm classical",
           0, body, "");
    /* From a store, the same lines. */
    char db[] = "/tmp/adams-formats-XXXXXX";
    int fd = mkstemp(db);
    ASSERT(fd >= 0);
    close(fd);
    unlink(db);
    sq_test_run_t r =
        sq_test_runf("resolve S_2 --stem 10 --max-s 5 --save %s --quiet --algorithm classical "
                     "--format differentials",
                     db);
    if (r.rc != 0 || strcmp(r.out, body) != 0)
        sq_test_fail(__FILE__, __LINE__, "--save: rc %d\n%s%s", r.rc, r.out, r.err);
    sq_test_run_free(&r);
    unlink(db);
    sq_free(want);
}

TEST(formats_differentials_odd_and_modules)
{
    /* At p = 3: d of h_0 (Q_0 = beta) and of h_1's generator (P^1); a_0 on b_0's. */
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve S_3 --stem 12 --max-s 3 --format differentials --quiet",
                                &out, &err),
              0);
    ASSERT(strstr(out, "d x_(0,0,0) = 0\nd x_(0,1,0) = Q_0 x_(0,0,0)\n") == out);
    ASSERT(strstr(out, "\nd x_(3,1,0) = P(1) x_(0,0,0)\n"));
    ASSERT(strstr(out, "\nd x_(10,2,0) = P(2) x_(3,1,0)\n"));
    sq_free(out);
    sq_free(err);
    /* C2: F_0 has one generator (Sq1 joins the cells); h_1 on it. */
    run_is(__LINE__, "resolve C2 --stem 1 --max-s 1 --format differentials --quiet", 0,
           "d x_(0,0,0) = 0\nd x_(1,1,0) = P(2) x_(0,0,0)\n", "");
    run_is(__LINE__, "resolve C4 --stem 3 --format differentials --quiet", 2, "",
           "adams: resolve: --format differentials: C4 is the cofiber of a class: its Ext comes "
           "from two resolutions, whose differentials are not one resolution's\n");
}

/* ---- adams algebra ------------------------------------------------------------- */

#define GF_MAX 400

/* The Poincare series of the sub-Hopf algebra with profile h[0..len)
 * (h_i < 0: unbounded, r_i free; i past len: h_i = trunc ? 0 : unbounded)
 * and exterior part Q_0..Q_{nq - 1} (odd p) through degree top, into c:
 * prod_i (sum_{k < p^{h_i}} x^{k |xi_i|}) prod_{j < nq} (1 + x^{2p^j - 1}). */
static void series(int64_t *c, int top, int p, const int *h, int len, int trunc, int nq)
{
    for (int n = 0; n <= top; n++)
        c[n] = n == 0;
    for (int i = 1;; i++) {
        int64_t pi = 1;
        for (int k = 0; k < i; k++)
            pi *= p;
        int64_t deg = p == 2 ? pi - 1 : 2 * (pi - 1);
        if (deg > top)
            break;
        int hi = i <= len ? h[i - 1] : (trunc ? 0 : -1);
        int64_t bound = -1; /* the number of powers of xi_i allowed; -1 unbounded */
        if (hi >= 0) {
            bound = 1;
            for (int k = 0; k < hi && bound <= top; k++)
                bound *= p;
        }
        /* multiply by sum_{k < bound} x^{k deg}: by 1/(1 - x^deg), then (1 - x^{bound deg}) */
        for (int n = (int)deg; n <= top; n++)
            c[n] += c[n - deg];
        if (bound >= 0 && bound * deg <= top)
            for (int n = top; n >= bound * deg; n--)
                c[n] -= c[n - bound * deg];
    }
    for (int j = 0; j < nq; j++) {
        int64_t pj = 1;
        for (int k = 0; k < j; k++)
            pj *= p;
        int64_t deg = 2 * pj - 1;
        for (int n = top; n >= deg; n--)
            c[n] += c[n - deg];
    }
}

/* adams algebra ARGS through degree top equals the series c. */
static void algebra_is(int line, const char *args, int top, const int64_t *c)
{
    char *want = sq_malloc((size_t)(top + 1) * 40);
    size_t k = 0;
    for (int n = 0; n <= top; n++)
        k += (size_t)sprintf(want + k, "dim A_%d = %lld\n", n, (long long)c[n]);
    char full[256];
    snprintf(full, sizeof full, "algebra --stem %d %s", top, args);
    run_is(line, full, 0, want, "");
    sq_free(want);
}

TEST(formats_algebra_dimensions)
{
    char *want = sq_test_slurp(sq_test_data_path("algebra-dim-n125.txt"));
    run_is(__LINE__, "algebra --stem 125", 0, data_body(want), "");
    sq_free(want);
    static int64_t c[GF_MAX + 1];
    /* A at p = 2: prod_i 1/(1 - x^{2^i - 1}). */
    series(c, 300, 2, NULL, 0, 0, 0);
    ASSERT_EQ(c[125], 2569); /* the series itself, against the peer's last line */
    algebra_is(__LINE__, "", 300, c);
    /* A(n) at p = 2: profile n+1, n, ..., 1 (A(1): 8 elements, A(2): 64). */
    int a1[] = {2, 1}, a2[] = {3, 2, 1}, y[] = {1, 1};
    series(c, 30, 2, a1, 2, 1, 0);
    algebra_is(__LINE__, "--profile 'A(1)'", 30, c);
    algebra_is(__LINE__, "--profile 2,1", 30, c);
    series(c, 40, 2, a2, 3, 1, 0);
    algebra_is(__LINE__, "--profile 'A(2)'", 40, c);
    series(c, 40, 2, y, 2, 1, 0); /* E(Sq(1), Sq(0,1)) */
    algebra_is(__LINE__, "--profile 1,1", 40, c);
    /* Odd p: E(Q_0, Q_1, ...) (x) P(xi_1, xi_2, ...), |Q_j| = 2p^j - 1. */
    series(c, 400, 3, NULL, 0, 0, 6);
    algebra_is(__LINE__, "--prime 3", 400, c);
    series(c, 200, 5, NULL, 0, 0, 4);
    algebra_is(__LINE__, "--prime 5", 200, c);
    int b1[] = {1};
    series(c, 40, 3, b1, 1, 1, 2); /* A(1) at p = 3: E(Q_0, Q_1) (x) P(xi_1)/xi_1^3 */
    algebra_is(__LINE__, "--prime 3 --profile 'A(1)'", 40, c);
    ASSERT_EQ(c[14], 1);
    ASSERT_EQ(c[15], 0);
}

TEST(formats_algebra_refusals)
{
    static const refusal_t t[] = {
        {"algebra --prime 4", "adams: --prime 4 is not a prime\n"},
        {"algebra --stem -1", "adams: --stem -1: the degree must lie in 0..2047 at p = 2\n"},
        {"algebra --profile 2,3", "adams: --profile 2,3: \"p_part\" is not the profile of a "
                                  "sub-Hopf algebra (h_2 > 1 + h_3 and h_1 > h_3)\n"},
        {"algebra --profile 'A(x)'",
         "adams: --profile: expected A(n) with n an integer, got 'A(x)'\n"},
        {"algebra --profile 2,,1", "adams: --profile: expected A(n) or a list h1,h2,... of "
                                   "integers in 0..30, got '2,,1'\n"},
        {"algebra S_2", "adams: algebra: takes no operand ('S_2' given; the algebra is chosen "
                        "by --prime and --profile)\n"},
        {"algebra --prime 3 --stem 8191", "adams: --stem 8191: the algebra at p = 3 has more "
                                          "than 33554432 basis elements through that degree\n"},
    };
    refused(__LINE__, t, sizeof t / sizeof *t);
}

/* ---- adams size ---------------------------------------------------------------- */

TEST(formats_size_peer_rows)
{
    char *want = sq_test_slurp(sq_test_data_path("resolution-size-S2-n30-s7.txt"));
    const char *body = data_body(want);
    run_is(__LINE__, "size --stem 30 --max-s 7 --quiet", 0, body, "");
    run_is(__LINE__, "size S_2 --stem 30 --max-s 7 --quiet --algorithm nassau --threads 2", 0,
           body, "");
    sq_free(want);
    /* The bottom row is A's dimensions from the module's bottom degree. */
    run_is(__LINE__, "size 'S_2[2]' --stem 7 --max-s 0 --quiet", 0, "1, 1, 1, 2, 2, 2, \n", "");
    /* C2, s <= 1: F_0 = A; F_1 has one generator in t = 2 (d = Sq(2)) and one in
     * t = 3 (d = Sq(0,1)), so dim F_1 = 0, 1, 1 + 1 in t = 1, 2, 3. */
    run_is(__LINE__, "size C2 --stem 2 --max-s 1 --quiet", 0, "0, 1, 2, \n1, 1, 1, \n", "");
    run_is(__LINE__, "size Ceta2 --stem 4 --quiet", 2, "",
           "adams: size: Ceta2 is the cofiber of a class: its Ext comes from two resolutions; "
           "only 'adams resolve' prints it so far\n");
}

/* ---- Bruner's format: adams export, adams import --------------------------------- */

#define make_dir(dir, n) sq_test_make_dir(dir, n, "bruner")
#define rm_dir sq_test_remove_dir

/* adams A and adams B print the same bytes (exit 0). */
static void same_output(int line, const char *a, const char *b)
{
    sq_test_run_t x = sq_test_runf("%s", a), y = sq_test_runf("%s", b);
    if (x.rc != 0 || y.rc != 0 || !x.out[0] || strcmp(x.out, y.out) != 0)
        sq_test_fail(__FILE__, line, "adams %s (rc %d) and adams %s (rc %d) differ\n%s%s", a, x.rc,
                     b, y.rc, x.err, y.err);
    sq_test_run_free(&x);
    sq_test_run_free(&y);
}

TEST(formats_bruner_round_trip)
{
    static const char *const modules[] = {"S_2", "C2", "Joker", "'C2[2]'", "Ceta@adem"};
    for (size_t m = 0; m < sizeof modules / sizeof *modules; m++) {
        char dir[64], sub[96], a[256], b[256];
        make_dir(dir, sizeof dir);
        snprintf(sub, sizeof sub, "%s/res", dir); /* made by export */
        sq_test_run_t r =
            sq_test_runf("export %s --stem 16 --max-s 6 -o %s --quiet", modules[m], sub);
        if (r.rc != 0 || r.out[0] || r.err[0])
            sq_test_fail(__FILE__, __LINE__, "export %s: rc %d\n%s", modules[m], r.rc, r.err);
        sq_test_run_free(&r);
        /* The same Ext and the same differentials, byte for byte. */
        snprintf(a, sizeof a, "import %s --format differentials", sub);
        snprintf(b, sizeof b, "resolve %s --stem 16 --max-s 6 --format differentials --quiet",
                 modules[m]);
        same_output(__LINE__, a, b);
        snprintf(a, sizeof a, "import %s --format csv", sub);
        snprintf(b, sizeof b, "resolve %s --stem 16 --max-s 6 --format csv --quiet", modules[m]);
        same_output(__LINE__, a, b);
        snprintf(a, sizeof a, "import %s --stem 10 --max-s 3", sub);
        snprintf(b, sizeof b, "resolve %s --stem 10 --max-s 3 --quiet", modules[m]);
        same_output(__LINE__, a, b);
        /* The files do not depend on the threads nor the engine. */
        r = sq_test_runf("export %s --stem 16 --max-s 6 -o %s/t2 --quiet --threads 2 "
                         "--algorithm classical && cmp %s/res/hDiff.6 %s/t2/hDiff.6",
                         modules[m], dir, dir, dir);
        if (r.rc != 0)
            sq_test_fail(__FILE__, __LINE__, "export %s --threads 2: other files\n%s", modules[m],
                         r.err);
        sq_test_run_free(&r);
        /* Nothing is overwritten. */
        snprintf(a, sizeof a, "export %s --stem 4 -o %s --quiet", modules[m], sub);
        r = sq_test_runf("%s", a);
        if (r.rc != 2 || !strstr(r.err, "already holds a resolution") ||
            sq_test_count_lines(r.err) != 1)
            sq_test_fail(__FILE__, __LINE__, "adams %s: rc %d\n%s", a, r.rc, r.err);
        sq_test_run_free(&r);
        rm_dir(dir);
    }
}

TEST(formats_bruner_files_of_bruner)
{
    /* Bruner's own resolution of the sphere (t <= 30, s <= 7): our Ext through
     * stem 30 - 7, and the peer's change of basis to his generators. */
    char dir[512];
    snprintf(dir, sizeof dir, "%s", sq_test_data_path("bruner"));
    char a[640];
    snprintf(a, sizeof a, "import %s --format csv", dir);
    same_output(__LINE__, a, "resolve --stem 23 --max-s 7 --format csv --quiet");
    char *want = sq_test_slurp(sq_test_data_path("bruner-basis-n20.txt"));
    snprintf(a, sizeof a, "import %s --format basis --stem 20", dir);
    run_is(__LINE__, a, 0, data_body(want), "");
    sq_free(want);
}

TEST(formats_bruner_refusals)
{
    static const refusal_t t[] = {
        {"export --stem 4", "adams: export: -o DIR is required (the directory of the files "
                            "hDiff.s)\n"},
        {"export S_3 --stem 4 -o /nonexistent/x --quiet",
         "adams: export: --format bruner: S_3 is a module at the odd prime 3: Bruner's format "
         "is a resolution over the mod 2 Steenrod algebra\n"},
        {"export ko --stem 4 -o /nonexistent/x --quiet",
         "adams: export: --format bruner: ko is a module over a subalgebra (a profile): "
         "Bruner's format is a resolution over the whole algebra, not a subalgebra\n"},
        {"export A_mod_A1 --stem 4 -o /nonexistent/x --quiet",
         "adams: export: --format bruner: A_mod_A1 is a finitely presented module: Bruner's "
         "format here holds finite modules only\n"},
        {"export Ceta2 --stem 4 -o /nonexistent/x --quiet",
         "adams: export: --format bruner: Ceta2 is the cofiber of a class: its Ext comes from "
         "two resolutions, not one\n"},
        {"import /nonexistent/dir",
         "adams: import: cannot read /nonexistent/dir/hDiff.0: No such file or directory\n"},
        {"import", "adams: import: no directory given (usage: adams import DIR)\n"},
    };
    refused(__LINE__, t, sizeof t / sizeof *t);
    /* A damaged file: one line naming the file and the line. */
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    sq_test_run_t r = sq_test_runf("export C2 --stem 6 --max-s 3 -o %s/r --quiet", dir);
    ASSERT_EQ(r.rc, 0);
    sq_test_run_free(&r);
    static const struct {
        const char *sed;
        int file;
        const char *want;
    } bad[] = {
        {"s/i(2)/i(3)/", 1, "a Milnor basis element is not of the operation's degree"},
        {"s/^0 2 1 /7 2 1 /", 1, "the target generator is not one of the previous file's"},
        {"s/^0 2 1 /0 2 5 /", 1, "the dimension field is not that of A"},
        {"1s/.*/ 99 9/", 1, "fewer generators than the header says"},
        {"s/i(0,1)/i(0,x)/", 1, "expected a Milnor basis element"},
        {"s/^0 2 1 i(2)./0 2 1 i(2)/", 1, "ending in '.'"},
        {"s/^0 0 1 i(0)./0 0 1 i(1)./", 0, "a row of hDiff.0 must be 'j 0 1 i(0).'"},
        {"1s/.*/x/", 2, "expected the header"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(path, sizeof path, "%s/b%zu", dir, i);
        char cmd[512];
        snprintf(cmd, sizeof cmd, "cp -r %s/r %s && sed -i '%s' %s/hDiff.%d", dir, path,
                 bad[i].sed, path, bad[i].file);
        ASSERT_EQ(system(cmd), 0);
        char args[256];
        snprintf(args, sizeof args, "import %s", path);
        r = sq_test_runf("%s", args);
        if (r.rc != 2 || r.out[0] || sq_test_count_lines(r.err) != 1 ||
            !strstr(r.err, bad[i].want) || !strstr(r.err, "/hDiff."))
            sq_test_fail(__FILE__, __LINE__, "adams %s (%s): rc %d\n%s", args, bad[i].sed, r.rc,
                         r.err);
        sq_test_run_free(&r);
    }
    snprintf(path, sizeof path, "import %s/r --stem 7", dir);
    run_is(__LINE__, path, 2, "", "adams: --stem 7: the files cover stems 0..6\n");
    snprintf(path, sizeof path, "import %s/r --format basis", dir);
    run_is(__LINE__, path, 2, "",
           "adams: import: the files have 0 generators at (n, s) = (0, 1), the sphere's minimal "
           "resolution 1: they do not resolve the sphere\n");
    r = sq_test_runf("export RP4 --stem 6 --max-s 3 -o %s/j --quiet", dir);
    ASSERT_EQ(r.rc, 0);
    sq_test_run_free(&r);
    snprintf(path, sizeof path, "import %s/j --format basis", dir);
    run_is(__LINE__, path, 2, "",
           "adams: import: the change of basis is computed for the sphere only: hDiff.0 must "
           "hold one generator, in degree 0\n");
    rm_dir(dir);
}
