/*
 * t-d2-cli.c -- `adams d2`, `adams resolve --page 3`, `adams chart --d2`
 * and `adams chart --page 3` through the program (docs/secondary.md): the
 * peer's lines, the charts' counts against the lines and the E_3
 * dimensions, and one-line refusals with exit 2.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

/* stdout of a run that must succeed (sq_test_run_ok at this file). */
#define run_ok(line, args) sq_test_run_ok(__FILE__, line, args)

static void refused(int line, const char *args, const char *what)
{
    char *out, *err;
    int rc = sq_test_run_adams(args, &out, &err);
    if (rc != 2 || out[0] || sq_test_count_lines(err) != 1 || !strstr(err, what))
        sq_test_fail(__FILE__, line, "adams %s: want one line naming '%s', exit 2; got %d\n%s",
                     args, what, rc, err);
    sq_free(out);
    sq_free(err);
}

static int64_t count(const char *s, const char *needle)
{
    int64_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The entries 1 in the vectors of d_2 lines. */
static int64_t ones_in_lines(const char *s)
{
    int64_t n = 0;
    for (const char *p = s; (p = strstr(p, "= [")); p += 3)
        for (const char *q = p + 3; *q && *q != ']'; q++)
            n += *q == '1';
    return n;
}

TEST(cli_d2_peer_lines)
{
    static const char *const mods[][2] = {{"S_2", "secondary-S_2.txt"},
                                          {"C2", "secondary-C2.txt"}};
    for (size_t i = 0; i < 2; i++) {
        char *want = sq_test_data_body(mods[i][1]);
        char *body = want;
        char args[128];
        snprintf(args, sizeof args, "d2 %s --stem 30 --max-s 7 --quiet --threads 2", mods[i][0]);
        char *out = run_ok(__LINE__, args);
        ASSERT_STR_EQ(out, body);
        sq_free(out);
        sq_free(want);
    }
}

/* ADAMS_LOG=phase: one event=d2row line per row of the lift (s = 3 .. max
 * s), with the CPU seconds of its composites, intermediates and lifts; the
 * lines of stdout do not change. */
TEST(cli_d2_row_trace)
{
    char *ref = run_ok(__LINE__, "d2 S_2 --stem 20 --max-s 9 --quiet --threads 2");
    char *out, *err;
    setenv("ADAMS_LOG", "phase", 1);
    int rc = sq_test_run_adams("d2 S_2 --stem 20 --max-s 9 --quiet --threads 2", &out, &err);
    unsetenv("ADAMS_LOG");
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(out, ref);
    ASSERT_EQ(count(err, "event=d2row "), 7);
    for (int s = 3; s <= 9; s++) {
        char want[64];
        snprintf(want, sizeof want, "event=d2row s=%d comp_cpu=", s);
        ASSERT(strstr(err, want) != NULL);
    }
    ASSERT(strstr(err, " inter_cpu=") && strstr(err, " lift_cpu="));
    sq_free(out);
    sq_free(err);
    sq_free(ref);
}

/* --progress: one redrawn line per row of the lift, "d2: row s of S, E
 * elapsed[, about L left] (row s: R)" with the clocks as m:ss (the ETA once
 * a row has taken 0.05 s, never on the last), padded to the longest line
 * so far, the last ended by a newline; the d_2 lines unchanged. */
TEST(cli_d2_progress)
{
    char *ref = run_ok(__LINE__, "d2 S_2 --stem 20 --max-s 9 --quiet --threads 2");
    char *out, *err;
    int rc = sq_test_run_adams("d2 S_2 --stem 20 --max-s 9 --progress --threads 2", &out, &err);
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(out, ref);
    ASSERT_EQ(count(err, "\rd2: row "), 7);
    for (int s = 3; s <= 9; s++) {
        char want[64];
        snprintf(want, sizeof want, "\rd2: row %d of 9, ", s);
        const char *at = strstr(err, want);
        ASSERT(at != NULL);
        int m1 = -1, s1 = -1, row = -1, m2 = -1, s2 = -1, used = 0;
        at += strlen(want);
        ASSERT_EQ(sscanf(at, "%d:%d elapsed%n", &m1, &s1, &used), 2);
        at += used;
        if (strncmp(at, ", about ", 8) == 0) { /* a row took 0.05 s: the ETA */
            int m3 = -1, s3 = -1;
            ASSERT_EQ(sscanf(at, ", about %d:%d left%n", &m3, &s3, &used), 2);
            ASSERT(m3 >= 0 && s3 >= 0 && s3 < 60 && s < 9);
            at += used;
        }
        ASSERT_EQ(sscanf(at, " (row %d: %d:%d)", &row, &m2, &s2), 3);
        ASSERT_EQ(row, s);
        ASSERT(m1 >= 0 && s1 >= 0 && s1 < 60 && m2 >= 0 && s2 >= 0 && s2 < 60);
    }
    const char *last = strstr(err, "\rd2: row 9 of 9, ");
    ASSERT(last != NULL && strchr(last, '\n') != NULL);
    sq_free(out);
    sq_free(err);
    sq_free(ref);
}

TEST(cli_d2_charts)
{
    char *lines = run_ok(__LINE__, "d2 S_2 --stem 36 --max-s 12 --quiet");
    char *svg = run_ok(__LINE__, "chart S_2 --stem 36 --max-s 12 --d2 --quiet");
    char *json = run_ok(__LINE__, "chart S_2 --stem 36 --max-s 12 --d2 --format json --quiet");
    int64_t arrows = ones_in_lines(lines);
    ASSERT(arrows >= 10);
    ASSERT_EQ(count(svg, "<line class=\"d2\""), arrows);
    ASSERT_EQ(count(json, "\"from\":") - count(json, "\"h\":"), count(lines, "d_2 x_"));
    /* the E_2 chart is the same picture under the arrows */
    char *e2 = run_ok(__LINE__, "chart S_2 --stem 36 --max-s 12 --quiet");
    ASSERT_EQ(count(svg, "<circle"), count(e2, "<circle"));
    char *csv = run_ok(__LINE__, "resolve S_2 --stem 36 --max-s 12 --page 3 --format csv --quiet");
    char *e3 = run_ok(__LINE__, "chart S_2 --stem 36 --max-s 12 --page 3 --quiet");
    char *e3j = run_ok(__LINE__, "chart S_2 --stem 36 --max-s 12 --page 3 --format json --quiet");
    int64_t dims = 0;
    for (const char *p = csv; *p;) {
        int n, s;
        long long d;
        ASSERT(sscanf(p, "%d,%d,%lld", &n, &s, &d) == 3);
        if (n == 15 && s == 1)
            ASSERT_EQ(d, 0); /* h_4 */
        if (n == 14 && s == 2)
            ASSERT_EQ(d, 1); /* h_3^2 */
        dims += d;
        p = strchr(p, '\n') + 1;
    }
    ASSERT(dims > 100);
    ASSERT_EQ(count(e3, "<circle"), dims);
    ASSERT_EQ(count(e3j, "\"rep\":"), dims);
    ASSERT(strstr(e3, "baseline-shift=\"sub\">3</tspan> page") != NULL);
    sq_free(lines);
    sq_free(svg);
    sq_free(json);
    sq_free(e2);
    sq_free(csv);
    sq_free(e3);
    sq_free(e3j);
}

TEST(cli_d2_refusals)
{
    refused(__LINE__, "d2 Joker --stem 12 --quiet", "does not lift");
    refused(__LINE__, "d2 S_3 --stem 12", "p = 2 only");
    refused(__LINE__, "d2 --stem 12 ko", "not a subalgebra");
    refused(__LINE__, "d2 A_mod_A1 --stem 12", "finite module");
    refused(__LINE__, "d2 Ceta2 --stem 12", "two resolutions");
    refused(__LINE__, "d2 S_2", "--stem is required");
    refused(__LINE__, "resolve --stem 12 --page 3 --coefficients C2", "--coefficients");
    refused(__LINE__, "resolve --stem 12 --page 3 --format differentials", "--format differentials");
    refused(__LINE__, "resolve Joker --stem 12 --page 3 --quiet", "does not lift");
    refused(__LINE__, "resolve --stem 12 --page 4", "--page");
    refused(__LINE__, "chart --stem 12 --page 3 --d2", "--d2 draws on the E2 page");
    refused(__LINE__, "chart --stem 12 --d2 --format html", "--format html");
    refused(__LINE__, "chart S_3 --stem 12 --page 3", "p = 2 only");
    refused(__LINE__, "products --stem 12 --d2", "unknown option");
}

/* chart --d2 / --page 3 --from FILE (issue 22): drawn from the lift kept by
 * d2 --save or resolve --page 3 --save, byte for byte the chart computed
 * afresh (SVG and JSON); refused in one line, exit 2, when the store keeps
 * no lift or one that does not cover the region, and for --threads
 * (nothing is computed). */
static void same_chart(int line, const char *fresh, const char *from)
{
    char *a = sq_test_run_ok(__FILE__, line, fresh);
    char *b = sq_test_run_ok(__FILE__, line, from);
    if (strcmp(a, b) != 0 || strlen(a) < 100)
        sq_test_fail(__FILE__, line, "adams %s: not the bytes of adams %s", from, fresh);
    sq_free(a);
    sq_free(b);
}

TEST(cli_chart_d2_from_store)
{
    char dir[256], args[1024], fresh[512];
    sq_test_make_dir(dir, sizeof dir, "chartd2");
    /* d2 --save keeps the lift of (24, 8); page 3 --save that of (25, 10) */
    snprintf(args, sizeof args, "d2 S_2 --stem 24 --max-s 8 --save %s/d2.db --quiet", dir);
    sq_free(run_ok(__LINE__, args));
    snprintf(args, sizeof args,
             "resolve C2 --stem 24 --max-s 8 --page 3 --save %s/p3.db --quiet", dir);
    sq_free(run_ok(__LINE__, args));
    static const char *const fmts[] = {"", "--format json"};
    for (int i = 0; i < 2; i++) {
        snprintf(fresh, sizeof fresh, "chart S_2 --stem 24 --max-s 8 --d2 %s --quiet", fmts[i]);
        snprintf(args, sizeof args, "chart --from %s/d2.db --d2 %s", dir, fmts[i]);
        same_chart(__LINE__, fresh, args); /* the store's region */
        snprintf(fresh, sizeof fresh, "chart S_2 --stem 20 --max-s 6 --d2 %s --quiet", fmts[i]);
        snprintf(args, sizeof args, "chart S_2 --from %s/d2.db --stem 20 --max-s 6 --d2 %s",
                 dir, fmts[i]);
        same_chart(__LINE__, fresh, args); /* a smaller region */
        snprintf(fresh, sizeof fresh, "chart S_2 --stem 23 --max-s 6 --page 3 %s --quiet",
                 fmts[i]);
        snprintf(args, sizeof args, "chart --from %s/d2.db --stem 23 --max-s 6 --page 3 %s",
                 dir, fmts[i]);
        same_chart(__LINE__, fresh, args);
        snprintf(fresh, sizeof fresh, "chart C2 --stem 24 --max-s 8 --page 3 %s --quiet",
                 fmts[i]);
        snprintf(args, sizeof args, "chart --from %s/p3.db --page 3 %s", dir, fmts[i]);
        same_chart(__LINE__, fresh, args);
        snprintf(fresh, sizeof fresh, "chart C2 --stem 24 --max-s 8 --d2 %s --quiet", fmts[i]);
        snprintf(args, sizeof args, "chart --from %s/p3.db --stem 24 --max-s 8 --d2 %s -o %s/c.out",
                 dir, fmts[i], dir);
        sq_free(run_ok(__LINE__, args)); /* -o writes the same bytes */
        char *a = run_ok(__LINE__, fresh);
        snprintf(args, sizeof args, "%s/c.out", dir);
        char *b = sq_test_slurp(args);
        ASSERT_STR_EQ(b, a);
        sq_free(a);
        sq_free(b);
    }
    /* a store without a lift; a region the lift does not cover; --threads */
    snprintf(args, sizeof args, "resolve S_2 --stem 24 --max-s 8 --save %s/e2.db --quiet", dir);
    sq_free(run_ok(__LINE__, args));
    snprintf(args, sizeof args, "chart --from %s/e2.db --d2", dir);
    refused(__LINE__, args, "keeps no secondary lift");
    snprintf(args, sizeof args, "resolve S_2 --stem 30 --max-s 8 --save %s/d2.db --quiet", dir);
    sq_free(run_ok(__LINE__, args)); /* the resolution extended, the lift not */
    snprintf(args, sizeof args, "chart --from %s/d2.db --stem 30 --max-s 8 --d2", dir);
    refused(__LINE__, args, "generators of row");
    snprintf(args, sizeof args, "chart --from %s/d2.db --stem 24 --max-s 8 --d2 --threads 2", dir);
    refused(__LINE__, args, "--threads");
    snprintf(args, sizeof args, "chart --from %s/d2.db --stem 24 --max-s 8 --page 3 --format html",
             dir);
    refused(__LINE__, args, "--format html");
    sq_test_remove_dir(dir);
}
