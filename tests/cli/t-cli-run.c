/*
 * t-cli-run.c -- the defects the one prepare path fixed (issue 19 What 2-3,
 * issue 20 rows 3, 5, 15, 19), each through the program:
 *   - a write to a closed pipe or past the file-size limit is one line and
 *     exit 1 (SIGPIPE and SIGXFSZ no longer kill the program silently);
 *   - `adams check` exits 4 when its threads cannot start (was abort 134);
 *   - `chart -o` refuses the store it reads and the module file;
 *   - with --from, a MODULE or --algorithm that is not the store's is
 *     refused, a stem below the bottom is one line (was an abort), and
 *     product and massey read Ext(MODULE) from the store (was ignored);
 *   - `resolve S_3 --save` keeps the run (it was dropped silently: exit 0, no
 *     store; then refused; since issue 21 step 7 a store holds odd primes);
 *   - a test of chart run against a program without the verb fails.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_test.h"

/* The harness's runner (sq_test.h), under short names. */
typedef sq_test_run_t run_t;
#define run sq_test_runf
#define run_free sq_test_run_free

/* One line on stderr containing needle, exit want, nothing on stdout. */
static void expect_line(int line, const run_t *r, int want, const char *needle)
{
    if (r->rc != want || r->out[0] || sq_test_count_lines(r->err) != 1 || !strstr(r->err, needle))
        sq_test_fail(__FILE__, line, "exit %d (want %d), want one line with '%s':\n%s", r->rc,
                     want, needle, r->err);
}

static char scratch[64];

static void scratch_make(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/adams-clirun-XXXXXX");
    ASSERT(mkdtemp(scratch) != NULL);
}

static void scratch_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    ASSERT_EQ(system(cmd), 0);
}

/* ---- Write errors (issue 20 row 15) ------------------------------------- */

/* Runs adams resolve --stem 30 --format csv with stdout on fd out_fd, the
 * default dispositions of SIGPIPE and SIGXFSZ, and RLIMIT_FSIZE fsize
 * bytes (0: unlimited); returns the wait status, stderr in *err. */
static int run_to_fd(int out_fd, rlim_t fsize, char **err)
{
    char e[] = "/tmp/adams-clirun-err-XXXXXX";
    int fe = mkstemp(e);
    ASSERT(fe >= 0);
    fflush(NULL);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL); /* as a shell starts a pipeline */
        signal(SIGXFSZ, SIG_DFL);
        if (fsize) {
            struct rlimit rl = {fsize, fsize};
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
                _exit(121);
        }
        dup2(out_fd, 1);
        dup2(fe, 2);
        execl(SQ_ADAMS_BIN, SQ_ADAMS_BIN, "resolve", "--stem", "30", "--format", "csv", "--quiet",
              (char *)NULL);
        _exit(122);
    }
    int st;
    ASSERT(waitpid(pid, &st, 0) == pid);
    close(fe);
    *err = sq_test_slurp(e);
    unlink(e);
    return st;
}

TEST(cli_write_to_closed_pipe)
{
    int p[2];
    ASSERT_EQ(pipe(p), 0);
    close(p[0]); /* nobody reads: the first write gets EPIPE (or SIGPIPE) */
    char *err;
    int st = run_to_fd(p[1], 0, &err);
    close(p[1]);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || sq_test_count_lines(err) != 1 ||
        !strstr(err, "could not write the output: Broken pipe"))
        sq_test_fail(__FILE__, __LINE__, "status %d (signal %d), stderr:\n%s", st,
                     WIFSIGNALED(st) ? WTERMSIG(st) : 0, err);
    sq_free(err);
}

TEST(cli_write_past_file_size_limit)
{
    char path[] = "/tmp/adams-clirun-fsize-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    char *err;
    int st = run_to_fd(fd, 1024, &err); /* ulimit -f 1 */
    close(fd);
    unlink(path);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || sq_test_count_lines(err) != 1 ||
        !strstr(err, "could not write the output: File too large"))
        sq_test_fail(__FILE__, __LINE__, "status %d (signal %d), stderr:\n%s", st,
                     WIFSIGNALED(st) ? WTERMSIG(st) : 0, err);
    sq_free(err);
}

/* ---- check, chart -o ---------------------------------------------------- */

TEST(cli_check_threads_fail_exit_4)
{
    scratch_make();
    run_t r = run("resolve --stem 10 --save %s/s.db --quiet", scratch);
    ASSERT_EQ(r.rc, 0);
    run_free(&r);
    setenv("ADAMS_FAULT_THREADS", "1", 1);
    r = run("check %s/s.db --threads 3", scratch);
    unsetenv("ADAMS_FAULT_THREADS");
    expect_line(__LINE__, &r, 4, "could not start 3 threads");
    run_free(&r);
    scratch_remove();
}

TEST(cli_chart_output_is_not_an_input)
{
    scratch_make();
    run_t r = run("resolve --stem 10 --save %s/s.db --quiet", scratch);
    ASSERT_EQ(r.rc, 0);
    run_free(&r);
    run_t before = run("ext %s/s.db", scratch);
    ASSERT_EQ(before.rc, 0);
    r = run("chart --from %s/s.db -o %s/s.db", scratch, scratch);
    expect_line(__LINE__, &r, 2, "is the same file as the input");
    run_free(&r);
    /* The same file by another name. */
    r = run("chart --from %s/s.db -o %s/../%s/s.db", scratch, scratch, strrchr(scratch, '/') + 1);
    expect_line(__LINE__, &r, 2, "-o: ");
    run_free(&r);
    run_t after = run("ext %s/s.db", scratch); /* the store is intact */
    ASSERT_EQ(after.rc, 0);
    ASSERT_STR_EQ(after.out, before.out);
    run_free(&before), run_free(&after);
    /* The module file. */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cp %s/C2.json %s/m.json", SQ_TEST_DATA_DIR "/../../modules",
             scratch);
    ASSERT_EQ(system(cmd), 0);
    r = run("chart %s/m.json --stem 6 -o %s/m.json", scratch, scratch);
    expect_line(__LINE__, &r, 2, "is the same file as the input");
    run_free(&r);
    r = run("resolve %s/m.json --stem 6 --quiet", scratch);
    ASSERT_EQ(r.rc, 0); /* still a module file */
    run_free(&r);
    scratch_remove();
}

/* ---- --from ------------------------------------------------------------- */

TEST(cli_from_module_and_region)
{
    scratch_make();
    run_t r = run("resolve --stem 20 --save %s/s2.db --quiet", scratch);
    ASSERT_EQ(r.rc, 0);
    run_free(&r);
    /* Issue 20 row 3: another module, another engine. */
    r = run("products --from %s/s2.db C2 --stem 3", scratch);
    expect_line(__LINE__, &r, 2, "the module C2 is not the module S_2 of the store");
    run_free(&r);
    r = run("chart --from %s/s2.db Joker", scratch);
    expect_line(__LINE__, &r, 2, "the module Joker is not the module S_2");
    run_free(&r);
    r = run("products --from %s/s2.db --stem 3 --algorithm nassau", scratch);
    expect_line(__LINE__, &r, 2, "--algorithm nassau: the store");
    run_free(&r);
    run_t a = run("products --from %s/s2.db S_2 --stem 3 --algorithm classical", scratch);
    run_t b = run("products S_2 --stem 3 --max-s 13 --quiet");
    ASSERT_EQ(a.rc, 0);
    ASSERT_STR_EQ(a.out, b.out);
    run_free(&a), run_free(&b);
    /* Row 5: below the bottom. */
    r = run("chart --from %s/s2.db --stem -5", scratch);
    expect_line(__LINE__, &r, 2, "--stem -5 is below the bottom degree 0");
    run_free(&r);
    r = run("products --from %s/s2.db --stem -5", scratch);
    expect_line(__LINE__, &r, 2, "--stem -5 is below the bottom degree 0");
    run_free(&r);
    /* Nothing is computed: --threads is refused rather than dropped. */
    r = run("chart --from %s/s2.db --threads 2", scratch);
    expect_line(__LINE__, &r, 2, "--threads: nothing is computed with --from");
    run_free(&r);
    scratch_remove();
}

/* product and massey read Ext(MODULE) from the store: with a store of C2
 * and no MODULE they answer for C2 (before, --from was ignored and they
 * answered for S_2, which has no class at (2, 1) and where <h1, h0, x0>
 * is not defined). */
TEST(cli_from_product_massey)
{
    scratch_make();
    run_t r = run("resolve C2 --stem 8 --max-s 5 --save %s/c2.db --quiet", scratch);
    ASSERT_EQ(r.rc, 0);
    run_free(&r);
    run_t f = run("product --from %s/c2.db --class 2,1,0 --by 1,1,0 --quiet", scratch);
    run_t c = run("product C2 --class 2,1,0 --by 1,1,0 --quiet");
    ASSERT_EQ(c.rc, 0);
    ASSERT_EQ(f.rc, 0);
    ASSERT_STR_EQ(f.out, c.out);
    run_free(&f), run_free(&c);
    f = run("massey --from %s/c2.db --a 1,1,0 --b 0,1,0 --c 0,0,0 --quiet", scratch);
    c = run("massey C2 --a 1,1,0 --b 0,1,0 --c 0,0,0 --quiet");
    ASSERT_EQ(c.rc, 0);
    ASSERT_EQ(f.rc, 0);
    ASSERT_STR_EQ(f.out, c.out);
    run_free(&f), run_free(&c);
    /* Beyond the store: refused, not computed. */
    r = run("product --from %s/c2.db --class 8,5,0 --by 3,1,0 --quiet", scratch);
    expect_line(__LINE__, &r, 2, "does not hold");
    run_free(&r);
    scratch_remove();
}

/* ---- --save at odd primes (issue 19, issue 21 step 7) ------------------- */

TEST(cli_save_odd_prime_kept)
{
    scratch_make();
    run_t r = run("resolve S_3 --stem 20 --quiet --save %s/s3.db", scratch);
    run_t plain = run("resolve S_3 --stem 20 --quiet");
    ASSERT_EQ(r.rc, 0);
    ASSERT_STR_EQ(r.out, plain.out);
    run_t e = run("ext %s/s3.db", scratch); /* the store holds the run */
    ASSERT_EQ(e.rc, 0);
    ASSERT_STR_EQ(e.out, plain.out);
    run_free(&r), run_free(&plain), run_free(&e);
    scratch_remove();
}

/* ---- A missing verb fails the chart tests (issue 19) -------------------- */

/* Runs this test program's chart_cli_errors against a stand-in adams that
 * knows no verb: the test must fail (exit 1), not skip (77). */
TEST(cli_missing_chart_verb_fails)
{
    scratch_make();
    char fake[128], cmd[1024], self[512];
    snprintf(fake, sizeof fake, "%s/adams", scratch);
    FILE *f = fopen(fake, "w");
    ASSERT(f != NULL);
    fprintf(f, "#!/bin/sh\necho \"adams: unknown command '$1' (try 'adams --help')\" >&2\n"
               "exit 2\n");
    ASSERT_EQ(fclose(f), 0);
    ASSERT_EQ(chmod(fake, 0755), 0);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    ASSERT(n > 0);
    self[n] = '\0';
    snprintf(cmd, sizeof cmd, "ADAMS_TEST_BIN='%s' '%s' chart_cli_errors >/dev/null 2>&1", fake,
             self);
    int st = system(cmd);
    ASSERT(WIFEXITED(st));
    ASSERT_EQ(WEXITSTATUS(st), 1);
    scratch_remove();
}

/* ---- One table of limits (issue 19: +-1e6 in one parser, +-1e5 in
 * another, literals in a third) ----------------------------------------- */

TEST(cli_limits_in_one_place)
{
    static const char *const verbs[] = {"resolve", "products", "chart", "ext x.db"};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        run_t r = run("%s --stem 1000001", verbs[i]);
        expect_line(__LINE__, &r, 2, "--stem: 1000001 is out of range [-1000000, 1000000]");
        run_free(&r);
        r = run("%s --max-s 1000001", verbs[i]);
        expect_line(__LINE__, &r, 2, "--max-s: 1000001 is out of range [0, 1000000]");
        run_free(&r);
    }
    static const char *const threads[] = {"resolve", "products", "product", "massey", "chart",
                                          "check x.db"};
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        run_t r = run("%s --threads 4097", threads[i]);
        expect_line(__LINE__, &r, 2, "--threads: 4097 is out of range [1, 4096]");
        run_free(&r);
    }
    /* A class's stem and filtration have the limits of --stem and --max-s:
     * within them, the region check decides (the algebra's degree), beyond
     * them the class is malformed. */
    run_t r = run("product --class 100001,1,0 --by 1,1,0");
    expect_line(__LINE__, &r, 2, "Steenrod algebra degree");
    run_free(&r);
    r = run("product --class 1000001,1,0 --by 1,1,0");
    expect_line(__LINE__, &r, 2, "--class: expected N,S,");
    run_free(&r);
}
