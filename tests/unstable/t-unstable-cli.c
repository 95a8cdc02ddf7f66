/*
 * t-unstable-cli.c -- `adams resolve S^n`, `--unstable` and `adams
 * suspension` against the peer's expected outputs (tests/data/unstable,
 * each file naming its source), and their refusals: one line, exit 2.
 */
#include <string.h>

#include "sq_test.h"

/* The data file without its '#' lines. */
static char *expected(const char *file)
{
    char *s = sq_test_slurp(sq_test_data_path(file));
    char *w = s;
    for (const char *r = s; *r;) {
        const char *e = strchr(r, '\n');
        size_t len = e ? (size_t)(e - r) + 1 : strlen(r);
        if (*r != '#') {
            memmove(w, r, len);
            w += len;
        }
        r += len;
    }
    *w = 0;
    ASSERT(strlen(s) > 0);
    return s;
}

TEST(unstable_cli_resolve_S7_peer)
{
    char *want = expected("unstable/resolve_unstable-S7-n37-s7.txt");
    sq_test_expect_run(__FILE__, __LINE__, "resolve S^7 --stem 37 --max-s 7 --quiet", 0, want, "");
    /* The same module named as a shifted sphere with --unstable. */
    sq_test_expect_run(__FILE__, __LINE__, "resolve S_2[7] --unstable --stem 37 --max-s 7 --quiet",
                       0, want, "");
    sq_free(want);
}

TEST(unstable_cli_suspension_S2_peer)
{
    char *want = expected("unstable/unstable_suspension-S2-n10-s7.txt");
    sq_test_expect_run(__FILE__, __LINE__, "suspension S_2 --stem 10 --max-s 7 --quiet", 0, want,
                       "");
    sq_test_expect_run(__FILE__, __LINE__,
                       "suspension S^0 --stem 10 --max-s 7 --quiet --threads 2", 0, want, "");
    sq_free(want);
}

/* Each refusal: exit 2, one line containing what. */
static void refused(const char *args, const char *what)
{
    sq_test_run_t r = sq_test_runf("%s", args);
    if (r.rc != 2 || sq_test_count_lines(r.err) != 1 || !strstr(r.err, what) || *r.out)
        sq_test_fail(__FILE__, __LINE__, "adams %s: rc %d, stderr '%s'", args, r.rc, r.err);
    sq_test_run_free(&r);
}

TEST(unstable_cli_refusals)
{
    char buf[512];
    refused("resolve C2 --unstable --stem 8", "C2 is not unstable: Sq1 x0 != 0");
    refused("suspension C2 --stem 8", "C2 is not unstable: Sq1 x0 != 0");
    snprintf(buf, sizeof buf, "resolve %s --unstable --stem 8",
             sq_test_data_path("unstable/cofiber-h0.json"));
    refused(buf, "is the cofiber of a class");
    refused("resolve S^3 --algorithm nassau", "--algorithm nassau");
    refused("resolve S^3 --coefficients C2", "--coefficients");
    refused("resolve S^3 --format differentials", "--format differentials");
    refused("resolve S^x", "'S^x': the unstable sphere is S^n");
    refused("resolve S^-1", "'S^-1'");
    refused("resolve C3 --unstable --stem 8", "C3 is not unstable: b ");
    refused("products S^3 --stem 5", "products: S^3 is the unstable sphere");
    refused("chart S^3 --stem 5", "chart: S^3 is the unstable sphere");
    refused("resolve A_mod_A1 --unstable", "A_mod_A1 is not unstable: Sq4 x0 != 0");
}
