/*
 * t-yoneda-cli.c -- `adams yoneda` through the program: the summary lines,
 * the files of -o DIR (the module files load in the program: `adams
 * resolve DIR/E0.json` for h_0 is the Ext of C2; the map files are read by
 * `adams map --map`: d_0 : E_0 -> S_2 for h_0 is the bottom-cell inclusion
 * of C2, whose lines tests/cli/t-map-cli.c knows), nothing overwritten,
 * threads 1 = 2, and every refusal one line with exit 2 and nothing on
 * stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sq_core.h"
#include "sq_test.h"

static void run_is(int line, const char *args, int rc, const char *out_want, const char *err_want)
{
    char *out, *err;
    int got = sq_test_run_adams(args, &out, &err);
    if (got != rc || (out_want && strcmp(out, out_want) != 0) ||
        (err_want && strstr(err, err_want) == NULL) ||
        (rc != 0 && (strchr(err, '\n') != err + strlen(err) - 1 || *out)))
        sq_test_fail(__FILE__, line, "adams %s: rc %d (want %d)\n--- stdout\n%s--- stderr\n%s", args,
                     got, rc, out, err);
    sq_free(out);
    sq_free(err);
}

/* stdout of adams args (exit 0 wanted); the caller sq_frees it. */
static char *output_of(int line, const char *args)
{
    char *out, *err;
    int got = sq_test_run_adams(args, &out, &err);
    if (got != 0)
        sq_test_fail(__FILE__, line, "adams %s: rc %d\n%s", args, got, err);
    sq_free(err);
    return out;
}

TEST(cli_yoneda_summary)
{
    run_is(__LINE__, "yoneda --class 0,1,0 --quiet", 0,
           "0 -> S_2[1] -> E_0 -> S_2 -> 0\n"
           "E_0: dimension 2, degrees 0..1\n",
           "");
    run_is(__LINE__, "yoneda --class 3,1,0 --quiet --threads 2", 0,
           "0 -> S_2[4] -> E_0 -> S_2 -> 0\n"
           "E_0: dimension 2, degrees 0..4\n",
           "");
    char *a = output_of(__LINE__, "yoneda S_3 --class 10,2,0 --quiet");
    char *b = output_of(__LINE__, "yoneda S_3 --class 10,2,[1] --quiet --threads 2");
    ASSERT(strcmp(a, b) == 0);
    ASSERT(strncmp(a, "0 -> S_3[12] -> E_1 -> E_0 -> S_3 -> 0\n", 39) == 0);
    sq_free(a);
    sq_free(b);
}

/* -o DIR for h_0: E0.json is C2 (its Ext through stem 12 equals C2's), and
 * d0.json is the inclusion of the bottom cell; a second run refuses the
 * same DIR and leaves the files alone. */
TEST(cli_yoneda_files)
{
    char dir[] = "/tmp/adams-yoneda-cli-XXXXXX", args[512], path[256];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(args, sizeof args, "yoneda --class 0,1,0 -o %s --quiet", dir);
    run_is(__LINE__, args, 0, NULL, "");
    snprintf(args, sizeof args, "resolve %s/E0.json --stem 12 --max-s 6 --format csv --quiet", dir);
    char *e = output_of(__LINE__, args);
    char *c = output_of(__LINE__, "resolve C2 --stem 12 --max-s 6 --format csv --quiet");
    ASSERT(strcmp(e, c) == 0);
    sq_free(e);
    sq_free(c);
    snprintf(args, sizeof args, "map --map %s/d0.json --stem 8 --max-s 5 --quiet", dir);
    char *m = output_of(__LINE__, args);
    char *want = output_of(__LINE__, "map C2 S_2 --class 0,0,0 --stem 8 --max-s 5 --quiet");
    ASSERT(strcmp(m, want) == 0 && *m);
    sq_free(m);
    sq_free(want);
    snprintf(args, sizeof args, "map --map %s/d1.json --stem 8 --max-s 5 --quiet", dir);
    m = output_of(__LINE__, args); /* S^1 -> C2: the pinch, as its map file */
    snprintf(path, sizeof path, "map --map %s/maps/S2_1_to_C2.json --stem 8 --max-s 5 --quiet",
             SQ_TEST_DATA_DIR);
    want = output_of(__LINE__, path);
    ASSERT(strcmp(m, want) == 0 && *m);
    sq_free(m);
    sq_free(want);
    snprintf(args, sizeof args, "yoneda --class 1,1,0 -o %s --quiet", dir);
    run_is(__LINE__, args, 2, "", "already holds a representative (E0.json)");
    snprintf(args, sizeof args, "resolve %s/E0.json --stem 12 --max-s 6 --format csv --quiet", dir);
    e = output_of(__LINE__, args); /* still C2's */
    c = output_of(__LINE__, "resolve C2 --stem 12 --max-s 6 --format csv --quiet");
    ASSERT(strcmp(e, c) == 0);
    sq_free(e);
    sq_free(c);
    static const char *const files[] = {"E0.json", "d0.json", "d1.json"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        ASSERT_EQ(remove(path), 0);
    }
    ASSERT_EQ(rmdir(dir), 0);
    run_is(__LINE__, "yoneda --class 0,1,0 -o /dev/null --quiet", 2, "", "not a directory");
}

TEST(cli_yoneda_refusals)
{
    run_is(__LINE__, "yoneda --quiet", 2, "", "--class N,S,V is required");
    run_is(__LINE__, "yoneda --class 0,0,0 --quiet", 2, "", "a class of Ext^0 is a module map");
    run_is(__LINE__, "yoneda --class 5,1,0 --quiet", 2, "", "Ext of S_2 at (5, 1) is zero");
    run_is(__LINE__, "yoneda --class 0,1,[0] --quiet", 2, "", "is the zero class");
    run_is(__LINE__, "yoneda --class 0,1,[1,0] --quiet", 2, "", "the vector has 2 entries");
    run_is(__LINE__, "yoneda --class 0,1,3 --quiet", 2, "", "x_(0, 1, 3) does not exist");
    run_is(__LINE__, "yoneda --class 0,1 --quiet", 2, "", "--class: expected N,S,");
    run_is(__LINE__, "yoneda --class 200,60,0 --quiet", 2, "", "more than 40000 cells");
    run_is(__LINE__, "yoneda --class 70,10,0 --quiet", 2, "", "would have up to");
    run_is(__LINE__, "yoneda A_mod_A1 --class 1,1,0 --quiet", 2, "",
           "yoneda: A_mod_A1 is a finitely presented module");
    run_is(__LINE__, "yoneda ko --class 1,1,0 --quiet", 2, "", "yoneda: ko is a module over a subalgebra");
    run_is(__LINE__, "yoneda Ceta2 --class 1,1,0 --quiet", 2, "", "Ceta2 is the cofiber of a class");
    run_is(__LINE__, "yoneda --class 0,1,0 --stem 4", 2, "", "unknown option '--stem'");
    run_is(__LINE__, "yoneda C2 S_2 --class 0,1,0", 2, "", "more than one module");
}
