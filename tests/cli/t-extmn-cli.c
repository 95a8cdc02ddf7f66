/*
 * t-extmn-cli.c -- `adams resolve M --coefficients N`, Ext(M, N) for a
 * finite module N (issue 24, item 2), checked against outside knowledge
 * through the program: Ext(M, S_p) is resolve's own output byte for byte
 * (C2, Joker, S_3), and Ext(M, M) equals Ext(M ⊗ DM) with DM = M[-k] the
 * Spanier-Whitehead dual of a two-cell complex with cells 0, k, resolved
 * as the module M*M[-k] (C2 through (30, 15), Ceta, C3); the refusals are
 * one line, exit 2.
 */
#include <stdio.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

/* The CSV chart of `adams resolve ARGS --format csv --quiet` (exit 0). */
static char *chart_csv(const char *args)
{
    sq_test_run_t r = sq_test_runf("resolve %s --format csv --quiet", args);
    if (r.rc != 0 || r.err[0])
        sq_test_fail(__FILE__, __LINE__, "resolve %s: exit %d: %s", args, r.rc, r.err);
    char *out = r.out;
    r.out = NULL;
    sq_test_run_free(&r);
    return out;
}

/* The two commands print the same chart (a nonzero one). */
static void expect_same_chart(const char *a, const char *b)
{
    char *x = chart_csv(a), *y = chart_csv(b);
    if (strcmp(x, y) != 0 || !strstr(x, ",1\n"))
        sq_test_fail(__FILE__, __LINE__, "resolve %s and resolve %s differ", a, b);
    sq_free(x);
    sq_free(y);
}

TEST(coefficients_sphere_is_ext)
{
    expect_same_chart("C2 --coefficients S_2 --stem 30 --max-s 15", "C2 --stem 30 --max-s 15");
    expect_same_chart("Joker --coefficients S_2 --stem 20 --max-s 10",
                      "Joker --stem 20 --max-s 10");
    expect_same_chart("S_3 --coefficients S_3 --stem 40 --max-s 10",
                      "S_3 --stem 40 --max-s 10");
}

TEST(coefficients_dual)
{
    expect_same_chart("C2 --coefficients C2 --stem 30 --max-s 15",
                      "'C2*C2[-1]' --stem 30 --max-s 15");
    expect_same_chart("Ceta --coefficients Ceta --stem 24 --max-s 12",
                      "'Ceta*Ceta[-2]' --stem 24 --max-s 12");
    expect_same_chart("C3 --coefficients C3 --stem 40 --max-s 10",
                      "'C3*C3[-1]' --stem 40 --max-s 10");
}

/* The Joker's dual is not Joker[-4]: transposing chi(Sq4) = Sq4 + Sq3 Sq1
 * gives Sq4 on the bottom cell (tests/data/modules/DJoker.json), and
 * Ext(C2, Joker) differs from Ext(C2 * Joker[-4]) at (2, 2). */
TEST(coefficients_joker_dual)
{
    char a[512], b[512];
    snprintf(a, sizeof a, "'C2*%s/modules/DJoker.json' --stem 20 --max-s 10", SQ_TEST_DATA_DIR);
    expect_same_chart("C2 --coefficients Joker --stem 20 --max-s 10", a);
    snprintf(b, sizeof b, "'Joker*%s/modules/DJoker.json' --stem 20 --max-s 10",
             SQ_TEST_DATA_DIR);
    expect_same_chart("Joker --coefficients Joker --stem 20 --max-s 10", b);
    char *x = chart_csv("C2 --coefficients Joker --stem 4 --max-s 3");
    char *y = chart_csv("'C2*Joker[-4]' --stem 4 --max-s 3");
    ASSERT(strstr(x, "\n2,2,1\n") != NULL && strstr(y, "\n2,2,2\n") != NULL);
    sq_free(x);
    sq_free(y);
}

TEST(coefficients_refusals)
{
    static const struct {
        const char *args, *what;
    } cases[] = {
        {"C2 --coefficients S_3", "prime"},
        {"C2 --coefficients RP_inf", "infinite"},
        {"C2 --coefficients Ceta2", "cofiber"},
        {"Ceta2 --coefficients C2", "cofiber"},
        {"ko --coefficients C2", "profiles"},
        {"C2 --coefficients C2 --save x.db", "--save"},
        {"C2 --coefficients C2 --format differentials", "differentials"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sq_test_run_t r = sq_test_runf("resolve %s --stem 6 --max-s 3", cases[i].args);
        if (r.rc != 2 || r.out[0] || sq_test_count_lines(r.err) != 1 ||
            !strstr(r.err, cases[i].what) || !strstr(r.err, "--coefficients"))
            sq_test_fail(__FILE__, __LINE__, "resolve %s: want one line naming '%s', exit 2; "
                         "got exit %d: %s", cases[i].args, cases[i].what, r.rc, r.err);
        sq_test_run_free(&r);
    }
    /* chart, products, product, massey take it (through M ⊗ DN; t-tensor-cli.c) */
    const char *const others[] = {"size", "map", "tensor", "export"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        sq_test_run_t r = sq_test_runf("%s C2 --coefficients C2", others[i]);
        ASSERT(r.rc == 2 && strstr(r.err, "unknown option") != NULL);
        sq_test_run_free(&r);
    }
}
