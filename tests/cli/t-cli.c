/*
 * t-cli.c -- the adams program end to end: outputs users compare with the
 * peer's, and one-line errors with exit code 2 for bad arguments.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_test.h"


TEST(dotchart_matches_peer)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve S_2 --stem 30 --max-s 11", &out, &err), 0);
    char *want = sq_test_slurp(sq_test_data_path("dotchart-S2-n30-s11.txt"));
    ASSERT(strlen(want) > 100);
    ASSERT_STR_EQ(out, want);
    sq_free(want);
    sq_free(out);
    sq_free(err);
}

TEST(csv_matches_table)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve S_2 --stem 30 --max-s 20 --format csv --algorithm classical",
                        &out, &err),
              0);
    /* Build the expected lines from the reference table. */
    char *table = sq_test_slurp(sq_test_data_path("ext-S2-n60-s40.csv"));
    size_t cap = strlen(table) + 1;
    char *want = sq_malloc(cap);
    want[0] = '\0';
    size_t wn = 0;
    for (char *line = strtok(table, "\n"); line; line = strtok(NULL, "\n")) {
        int n, s, d;
        if (line[0] == '#' || sscanf(line, "%d,%d,%d", &n, &s, &d) != 3)
            continue;
        if (n <= 30 && s <= 20)
            wn += (size_t)snprintf(want + wn, cap - wn, "%s\n", line);
    }
    ASSERT_EQ(sq_test_count_lines(want), 31 * 21);
    ASSERT_STR_EQ(out, want);
    sq_free(table);
    sq_free(want);
    sq_free(out);
    sq_free(err);
}

TEST(default_max_s_reported)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve --stem 12", &out, &err), 0);
    ASSERT(strstr(err, "--max-s not given; using 9") != NULL);
    ASSERT_EQ(sq_test_count_lines(out), 10 + 1);
    sq_free(out);
    sq_free(err);
}

static void expect_usage_error(const char *args, const char *needle)
{
    char *out, *err;
    int rc = sq_test_run_adams(args, &out, &err);
    if (rc != 2 || strstr(err, needle) == NULL || sq_test_count_lines(err) != 1 || out[0] != '\0')
        sq_test_fail(__FILE__, __LINE__, "adams %s: rc=%d stderr='%s' stdout='%s' (want '%s')",
                     args, rc, err, out, needle);
    sq_free(out);
    sq_free(err);
}

TEST(bad_arguments)
{
    expect_usage_error("resolve --stem abc", "--stem: expected an integer, got 'abc'");
    expect_usage_error("resolve --stem", "--stem: missing value");
    expect_usage_error("resolve --stem 10 --format xml",
                       "--format: expected 'chart', 'csv' or 'differentials'");
    expect_usage_error("resolve --algorithm magic", "--algorithm: expected");
    expect_usage_error("resolve --bogus", "unknown option '--bogus'");
    expect_usage_error("resolve NoSuchModule --stem 4", "unknown module 'NoSuchModule'");
    expect_usage_error("resolve --stem -5", "below the bottom degree");
    expect_usage_error("resolve --stem 5000", "beyond the supported");
    expect_usage_error("resolve --stem 99999999999", "out of range");
    expect_usage_error("frobnicate", "unknown command 'frobnicate'");
}

TEST(help)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("--help", &out, &err), 0);
    ASSERT(strstr(out, "resolve") != NULL);
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve --help", &out, &err), 0);
    ASSERT(strstr(out, "--max-s") != NULL && strstr(out, "--format") != NULL);
    sq_free(out);
    sq_free(err);
}

TEST(trace_and_progress)
{
    char *out, *err, *ref, *rerr;
    ASSERT_EQ(sq_test_run_adams("resolve --stem 20 --max-s 8 --format csv --quiet", &ref, &rerr), 0);
    ASSERT_STR_EQ(rerr, "");
    /* Trace events go to stderr, one whole line each; stdout is unchanged. */
    setenv("ADAMS_LOG", "step", 1);
    ASSERT_EQ(sq_test_run_adams("resolve --stem 20 --max-s 8 --format csv --quiet --threads 3", &out, &err),
              0);
    unsetenv("ADAMS_LOG");
    ASSERT_STR_EQ(out, ref);
    int lines = sq_test_count_lines(err), steps = 0;
    for (const char *p = err; (p = strstr(p, "event=step s=")) != NULL; p++)
        steps++;
    ASSERT_EQ(lines, steps);
    ASSERT(steps > 150); /* one per bidegree of the region */
    sq_free(out);
    sq_free(err);
    /* --progress draws on stderr and leaves stdout alone. */
    ASSERT_EQ(sq_test_run_adams("resolve --stem 20 --max-s 8 --format csv --progress", &out, &err), 0);
    ASSERT_STR_EQ(out, ref);
    ASSERT(strstr(err, "bidegrees") != NULL);
    sq_free(out);
    sq_free(err);
    sq_free(ref);
    sq_free(rerr);
}

TEST(subalgebra_modules)
{
    /* tmf2 resolves over A(2): c_0 at (8, 3) and nothing in stem 7 (no h_3);
     * ko over A(1): the tower on a at (4, 3). */
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve tmf2 --stem 8 --max-s 6 --format csv --quiet", &out, &err), 0);
    ASSERT(strstr(out, "8,3,1\n") != NULL);
    ASSERT(strstr(out, "7,1,0\n") != NULL && strstr(out, "3,1,1\n") != NULL);
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve ko --stem 8 --max-s 6 --format csv --quiet", &out, &err), 0);
    ASSERT(strstr(out, "4,3,1\n") != NULL && strstr(out, "4,2,0\n") != NULL);
    ASSERT(strstr(out, "3,1,0\n") != NULL); /* no h_2 over A(1) */
    sq_free(out);
    sq_free(err);
    expect_usage_error("resolve tmf2 --algorithm nassau", "needs a module over the whole");
}

/* The acceptance check of the parallel wavefront: stdout is byte-identical
 * for --threads 1, 2, 3 and 8 (S_2 through (70, 38) with both engines, C2
 * and the Joker), and the chart as well as the CSV. */
TEST(threads_identical_output_slow)
{
    const char *cases[] = {
        "resolve S_2 --stem 70 --max-s 38 --format csv --quiet",
        "resolve S_2 --stem 70 --max-s 38 --format csv --quiet --algorithm classical",
        "resolve C2 --stem 50 --max-s 26 --format csv --quiet",
        "resolve Joker --stem 50 --max-s 26 --quiet",
    };
    int threads[] = {1, 2, 3, 8};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *ref = NULL;
        for (size_t k = 0; k < 4; k++) {
            char args[512], *out, *err;
            snprintf(args, sizeof args, "%s --threads %d", cases[c], threads[k]);
            ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
            ASSERT(strlen(out) > 100);
            if (!ref)
                ref = out;
            else {
                if (strcmp(ref, out) != 0)
                    sq_test_fail(__FILE__, __LINE__, "adams %s: output differs", args);
                sq_free(out);
            }
            sq_free(err);
        }
        sq_free(ref);
    }
}
