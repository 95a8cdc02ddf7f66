/*
 * t-steenrod-cli.c -- `adams sq0`, `adams steenrod` and `adams mahowald`
 * through the program: the peer's published lines (tests/data/sq0-*,
 * steenrod-*, each with its source line), the same output on 1 and 2
 * threads and on both engines where their bases agree, and every refusal
 * one line with exit 2 and nothing on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

static void run_is(int line, const char *args, int rc, const char *out_want, const char *err_want)
{
    char *out, *err;
    int got = sq_test_run_adams(args, &out, &err);
    if (got != rc || (out_want && strcmp(out, out_want) != 0) ||
        (err_want && strcmp(err, err_want) != 0))
        sq_test_fail(__FILE__, line, "adams %s: rc %d (want %d)\n--- stdout\n%s--- stderr\n%s", args,
                     got, rc, out, err);
    sq_free(out);
    sq_free(err);
}

/* The body of a tests/data file after its '#' lines (a new string). */
static char *data_body(const char *file)
{
    char *all = sq_test_slurp(sq_test_data_path(file));
    char *body = all;
    while (*body == '#')
        body = strchr(body, '\n') + 1;
    char *copy = sq_strdup(body);
    sq_free(all);
    return copy;
}

TEST(cli_sq0_peer_lines)
{
    char *want = data_body("sq0-S2-n30-s7.txt");
    run_is(__LINE__, "sq0 --stem 30 --max-s 7 --quiet", 0, want, "");
    run_is(__LINE__, "sq0 S_2@adem --stem 30 --max-s 7 --quiet --threads 2", 0, want, "");
    run_is(__LINE__, "sq0 --stem 30 --max-s 7 --quiet --algorithm nassau", 0, want, "");
    sq_free(want);
}

TEST(cli_sq0_refusals)
{
    const char *msg = ": the operation is computed on Ext of the sphere S_2 only\n";
    char want[512];
    snprintf(want, sizeof want, "adams: sq0: C2 is not the sphere%s", msg);
    run_is(__LINE__, "sq0 C2 --stem 10", 2, "", want);
    snprintf(want, sizeof want, "adams: sq0: S_3 is a module at the odd prime 3%s", msg);
    run_is(__LINE__, "sq0 S_3 --stem 10", 2, "", want);
    snprintf(want, sizeof want, "adams: sq0: tmf2 is a module over a subalgebra (a profile)%s",
             msg);
    run_is(__LINE__, "sq0 tmf2 --stem 10", 2, "", want);
    run_is(__LINE__, "sq0 --stem 10 --class 1,1,0", 2, "", NULL);
}
