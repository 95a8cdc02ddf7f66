/*
 * t-runaways.c -- issue 20 rows 8-11 through the program: regions that ran
 * away in memory before (no estimate at odd primes; a direct sum of 100
 * cells estimated as if it were a few; a cofiber of filtration 1000
 * estimated as its base module) are refused at once with exit 3 and one
 * line, and extending a store bound to the classical engine far says so
 * and names the faster engine.  The library-level figures are checked in
 * tests/resolution/t-estimate.c; this is the user's view.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_core.h"
#include "sq_test.h"

static char dir[] = "/tmp/adams-runaways-XXXXXX";

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* Runs adams and expects exit 3 with one line saying "needs about". */
static void refused(int line, const char *args)
{
    char *out, *err;
    int rc = sq_test_run_adams(args, &out, &err);
    if (rc != 3 || sq_test_count_lines(err) != 1 || !strstr(err, "needs about") || out[0])
        sq_test_fail(__FILE__, line, "adams %s: exit %d, want 3 and one line:\n%s", args, rc, err);
    sq_free(out);
    sq_free(err);
}

TEST(runaways_refused_at_once)
{
    ASSERT(mkdtemp(dir) != NULL);
    /* Row 8: the odd primes are estimated. */
    refused(__LINE__, "resolve S_3 --stem 1500 --max-s 2");
    refused(__LINE__, "resolve S_3 --stem 400 --max-s 100 --max-memory 10M");
    /* Row 9: a direct sum of 100 cells costs about 100^2 spheres. */
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{\"p\": 2, \"type\": \"finite dimensional module\", \"gens\": {");
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\"x%d\": 0", i ? ", " : "", i);
    snprintf(text + n, sizeof text - n, "}, \"actions\": []}\n");
    write_file("sum100.json", text);
    char args[1024];
    snprintf(args, sizeof args, "resolve '%s/sum100.json' --stem 40 --max-memory 100M", dir);
    refused(__LINE__, args);
    /* Row 10: a cofiber of filtration 1000 (h_0^1000) counts its base
     * resolution through row 1001 and the module E. */
    write_file("cof1000.json", "{\"p\": 2, \"type\": \"finite dimensional module\", \"gens\": "
                               "{\"x0\": 0}, \"actions\": [], \"cofiber\": {\"s\": 1000, \"t\": "
                               "1000, \"idx\": 0}}\n");
    snprintf(args, sizeof args, "resolve '%s/cof1000.json' --stem 130 --max-memory 100M", dir);
    refused(__LINE__, args);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    ASSERT_EQ(system(args), 0);
}

/* Row 11: a store made at stem 40 is bound to the classical engine; asked
 * to extend to stem 110 (231 s against 4 s for Nassau's algorithm here) it
 * says so on stderr and names the faster engine.  The run is stopped by
 * SIGINT after 3 s: a saving run stops cleanly (exit 130) and resumes. */
TEST(classical_store_extended_far_says_so)
{
    char tdir[] = "/tmp/adams-classical-XXXXXX";
    ASSERT(mkdtemp(tdir) != NULL);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' resolve --stem 40 --save '%s/s.db' --quiet >/dev/null",
             SQ_ADAMS_BIN, tdir);
    ASSERT_EQ(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "timeout --preserve-status -s INT 3 '%s' resolve --stem 110 --save '%s/s.db' >/dev/null 2>'%s/err'",
             SQ_ADAMS_BIN, tdir, tdir);
    int st = system(cmd);
    ASSERT(WIFEXITED(st));
    int rc = WEXITSTATUS(st);
    ASSERT(rc == 130 || rc == 0);
    snprintf(cmd, sizeof cmd, "%s/err", tdir);
    char *err = sq_test_slurp(cmd);
    if (!strstr(err, "this store uses the classical engine") ||
        !strstr(err, "a fresh store with --algorithm nassau takes about"))
        sq_test_fail(__FILE__, __LINE__, "no engine note:\n%s", err);
    sq_free(err);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tdir);
    ASSERT_EQ(system(cmd), 0);
}
