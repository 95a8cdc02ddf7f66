/*
 * t-cli-args.c -- the adams program's arguments and messages (issue 10):
 * options parsed as getopt_long parses them, help and version that report
 * a failed write, names shown printable and on one line, misplaced shift
 * brackets refused, and the note when ./NAME.json shadows a shipped module.
 *
 * The program is run directly (fork and exec, no shell), so arguments may
 * hold any byte and stdout may be /dev/full.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_test.h"

#define SHIPPED SQ_TEST_DATA_DIR "/../../modules"

typedef struct {
    int rc;
    char *out, *err;
} run_t;

/* Runs adams with the NULL-terminated args (after argv[0]) in directory
 * cwd (NULL: here), its stdout going to out_path (NULL: captured). */
static run_t run_in(const char *cwd, const char *out_path, const char *const *args)
{
    char o[] = "/tmp/adams-args-out-XXXXXX", e[] = "/tmp/adams-args-err-XXXXXX";
    int fo = mkstemp(o), fe = mkstemp(e);
    ASSERT(fo >= 0 && fe >= 0);
    const char *argv[64] = {SQ_ADAMS_BIN};
    int n = 1;
    for (; args[n - 1]; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        if (out_path) {
            int fd = open(out_path, O_WRONLY);
            if (fd < 0)
                _exit(120);
            dup2(fd, 1);
        } else {
            dup2(fo, 1);
        }
        dup2(fe, 2);
        if (cwd && chdir(cwd) != 0)
            _exit(121);
        execv(SQ_ADAMS_BIN, (char *const *)argv);
        _exit(122);
    }
    int st;
    ASSERT(waitpid(pid, &st, 0) == pid);
    close(fo);
    close(fe);
    run_t r = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, sq_test_slurp(o), sq_test_slurp(e)};
    unlink(o);
    unlink(e);
    ASSERT(r.rc >= 0 && r.rc < 120);
    return r;
}

static run_t run(const char *const *args)
{
    return run_in(NULL, NULL, args);
}

static void run_free(run_t *r)
{
    sq_free(r->out);
    sq_free(r->err);
}

/* Whether s is one line ending in '\n' with no other control character. */
static int one_clean_line(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[n - 1] != '\n')
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 0;
    return 1;
}

/* adams args must exit with rc, nothing on stdout, and print exactly the
 * line want on stderr. */
static void expect(int line, int rc, const char *want, const char *const *args)
{
    run_t r = run(args);
    char full[2048];
    snprintf(full, sizeof full, "adams: %s\n", want);
    if (r.rc != rc || r.out[0] || strcmp(r.err, full) != 0 || !one_clean_line(r.err))
        sq_test_fail(__FILE__, line, "rc %d (want %d)\n--- stderr\n%s--- want\n%s--- stdout\n%s",
                     r.rc, rc, r.err, full, r.out);
    run_free(&r);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Help, version and listings written to a full disk: one line and exit 1,
 * not a silent 0. */
TEST(write_errors_exit_1)
{
    const char *const *cases[] = {ARGS("--help"), ARGS("resolve", "--help"), ARGS("--version"),
                                  ARGS("modules", "--help"), ARGS("modules"),
                                  ARGS("resolve", "--stem", "4", "--quiet")};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run_t r = run_in(NULL, "/dev/full", cases[i]);
        if (r.rc != 1 || strcmp(r.err, "adams: could not write the output: No space left on "
                                       "device\n") != 0)
            sq_test_fail(__FILE__, __LINE__, "case %zu: rc %d, stderr '%s'", i, r.rc, r.err);
        run_free(&r);
    }
    /* And to a working stdout: exit 0, "adams <version>". */
    run_t r = run(ARGS("--version"));
    ASSERT_EQ(r.rc, 0);
    ASSERT(strncmp(r.out, "adams ", 6) == 0 && one_clean_line(r.out) && strlen(r.out) > 8);
    ASSERT_STR_EQ(r.err, "");
    run_free(&r);
}

/* --opt=value and --opt value, options before and after the module,
 * unambiguous abbreviations: the same run. */
TEST(getopt_forms_agree)
{
    run_t a = run(ARGS("resolve", "C2", "--stem", "8", "--max-s", "4", "--format", "csv",
                       "--quiet"));
    ASSERT_EQ(a.rc, 0);
    ASSERT(strlen(a.out) > 20);
    const char *const *same[] = {
        ARGS("resolve", "--stem=8", "--max-s=4", "--format=csv", "--quiet", "C2"),
        ARGS("resolve", "--quiet", "--format", "csv", "C2", "--max-s", "4", "--stem=8"),
        ARGS("resolve", "--st", "8", "--max-s=4", "--form", "csv", "--q", "--", "C2"),
        ARGS("resolve", "--threads=2", "--algorithm=auto", "--stem", "8", "--max-s", "4",
             "--format", "csv", "--quiet", "C2"),
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        run_t b = run(same[i]);
        if (b.rc != 0 || strcmp(a.out, b.out) != 0 || b.err[0])
            sq_test_fail(__FILE__, __LINE__, "case %zu: rc %d stderr '%s'", i, b.rc, b.err);
        run_free(&b);
    }
    run_free(&a);
}

/* Every mistake: one line, exit 2. */
TEST(getopt_errors)
{
    expect(__LINE__, 2, "resolve: unknown option '--bogus' (try 'adams resolve --help')",
           ARGS("resolve", "--bogus"));
    expect(__LINE__, 2, "resolve: unknown option '-x' (try 'adams resolve --help')",
           ARGS("resolve", "-x"));
    expect(__LINE__, 2, "--stem: missing value", ARGS("resolve", "--stem"));
    expect(__LINE__, 2, "--max-s: missing value", ARGS("resolve", "C2", "--max-s"));
    expect(__LINE__, 2, "--stem: missing value", ARGS("resolve", "--stem="));
    expect(__LINE__, 2, "resolve: option --quiet takes no value (try 'adams resolve --help')",
           ARGS("resolve", "--quiet=yes"));
    expect(__LINE__, 2, "--threads: 0 is out of range [1, 4096]",
           ARGS("resolve", "--threads=0"));
    expect(__LINE__, 2, "resolve: more than one module given ('C2' and 'Joker')",
           ARGS("resolve", "C2", "Joker"));
    expect(__LINE__, 2, "resolve: more than one module given ('C2' and '--stem')",
           ARGS("resolve", "C2", "--", "--stem"));
    /* After "--" a name beginning with '-' is a module. */
    expect(__LINE__, 2,
           "unknown module '-x' (no -x.json here nor among the shipped modules; see 'adams "
           "modules')",
           ARGS("resolve", "--stem", "4", "--", "-x"));
    expect(__LINE__, 2, "modules: unexpected argument 'x' (try 'adams modules --help')",
           ARGS("modules", "x"));
    expect(__LINE__, 2, "modules: unknown option '--bogus' (try 'adams modules --help')",
           ARGS("modules", "--bogus"));
    expect(__LINE__, 2, "unknown command 'frob' (try 'adams --help')", ARGS("frob"));
}

/* A shift must be one "[k]" at the end of the name. */
TEST(shift_brackets)
{
    expect(__LINE__, 2, "module 'C2[': unclosed '[' in the shift (expected NAME[k], k an integer)",
           ARGS("resolve", "C2["));
    expect(__LINE__, 2,
           "module 'C2[1': unclosed '[' in the shift (expected NAME[k], k an integer)",
           ARGS("resolve", "C2[1"));
    expect(__LINE__, 2, "module 'C2]': ']' without '[' (expected NAME[k], k an integer)",
           ARGS("resolve", "C2]"));
    expect(__LINE__, 2,
           "module 'C2[1]x': text after the shift '[...]' (expected NAME[k], the shift last)",
           ARGS("resolve", "C2[1]x"));
    expect(__LINE__, 2,
           "module 'C2[1][2]': more than one '[' or ']' (expected NAME[k], k an integer)",
           ARGS("resolve", "C2[1][2]"));
    expect(__LINE__, 2, "module 'C2[]': expected NAME, PATH, NAME[k] or PATH[k] (k an integer)",
           ARGS("resolve", "C2[]"));
    expect(__LINE__, 2, "module 'C2[99999]': the shift in [...] is out of range (|k| <= 10000)",
           ARGS("resolve", "C2[99999]"));
    expect(__LINE__, 2, "module '[3]': no module name before the shift (expected NAME[k])",
           ARGS("resolve", "[3]"));
    /* Brackets in a directory belong to the path. */
    expect(__LINE__, 2, "/nonexistent[1]/C2.json: cannot read: No such file or directory",
           ARGS("resolve", "/nonexistent[1]/C2.json[2]"));
}

/* Names with newlines, escape sequences and C1 controls are shown with
 * '?', in one line, and cut when long. */
TEST(names_printable)
{
    expect(__LINE__, 2,
           "unknown module 'a?b' (no a?b.json here nor among the shipped modules; see 'adams "
           "modules')",
           ARGS("resolve", "a\nb"));
    expect(__LINE__, 2,
           "module '?[31mred': unclosed '[' in the shift (expected NAME[k], k an integer)",
           ARGS("resolve", "\x1b[31mred"));
    expect(__LINE__, 2, "module '?]0;x?': ']' without '[' (expected NAME[k], k an integer)",
           ARGS("resolve", "\x1b]0;x\x07"));
    expect(__LINE__, 2,
           "unknown module '?(B?c' (no ?(B?c.json here nor among the shipped modules; see "
           "'adams modules')",
           ARGS("resolve", "\x1b(B\x1b" "c"));
    expect(__LINE__, 2,
           "unknown module 'c1?' (no c1?.json here nor among the shipped modules; see 'adams "
           "modules')",
           ARGS("resolve", "c1\xc2\x9b"));
    expect(__LINE__, 2, "x?[0m/y.json: cannot read: No such file or directory",
           ARGS("resolve", "x\x1b[0m/y.json"));
    expect(__LINE__, 2, "--format: expected 'chart', 'csv' or 'differentials', got 'a?b'",
           ARGS("resolve", "--format", "a\tb"));
    expect(__LINE__, 2, "--stem: expected an integer, got '1?2'", ARGS("resolve", "--stem", "1\n2"));
    expect(__LINE__, 2, "resolve: unknown option '--a?b' (try 'adams resolve --help')",
           ARGS("resolve", "--a\rb"));
    expect(__LINE__, 2, "unknown command '?[2J' (try 'adams --help')", ARGS("\x1b[2J"));
    /* A long name is cut. */
    char *longname = sq_malloc(3001);
    memset(longname, 'q', 3000);
    longname[3000] = '\0';
    run_t r = run(ARGS("resolve", longname));
    ASSERT_EQ(r.rc, 2);
    ASSERT(one_clean_line(r.err) && strlen(r.err) < 1000 && strstr(r.err, "q...") != NULL);
    run_free(&r);
    sq_free(longname);
}

/* ./NAME.json wins over the shipped NAME, and adams says so (not with
 * --quiet, nor for an explicit path). */
TEST(shadow_note)
{
    char dir[] = "/tmp/adams-shadow-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/S_2.json", dir);
    char *c2 = sq_test_slurp(SHIPPED "/C2.json");
    ASSERT(strlen(c2) > 10);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    ASSERT(fputs(c2, f) >= 0);
    ASSERT_EQ(fclose(f), 0);
    sq_free(c2);
    run_t c = run(ARGS("resolve", "C2", "--stem", "6", "--max-s", "3", "--format", "csv",
                       "--algorithm", "classical"));
    ASSERT_EQ(c.rc, 0);
    run_t r = run_in(dir, NULL,
                     ARGS("resolve", "S_2", "--stem", "6", "--max-s", "3", "--format", "csv",
                          "--algorithm", "classical"));
    ASSERT_EQ(r.rc, 0);
    ASSERT_STR_EQ(r.out, c.out);
    ASSERT_STR_EQ(r.err, "adams: note: using ./S_2.json, which shadows the shipped module S_2\n");
    run_free(&r);
    r = run_in(dir, NULL,
               ARGS("resolve", "S_2", "--stem", "6", "--max-s", "3", "--format", "csv", "--quiet"));
    ASSERT_EQ(r.rc, 0);
    ASSERT_STR_EQ(r.out, c.out);
    ASSERT_STR_EQ(r.err, "");
    run_free(&r);
    r = run_in(dir, NULL,
               ARGS("resolve", "./S_2.json", "--stem", "6", "--max-s", "3", "--format", "csv",
                    "--algorithm", "classical"));
    ASSERT_EQ(r.rc, 0);
    ASSERT_STR_EQ(r.err, "");
    run_free(&r);
    run_free(&c);
    unlink(path);
    rmdir(dir);
}
