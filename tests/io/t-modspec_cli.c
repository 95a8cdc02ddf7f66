/*
 * t-modspec_cli.c -- module files through the adams program: `adams
 * resolve NAME|PATH|NAME[k]`, `adams modules`, and for every class of
 * mistake exit code 2, nothing on stdout and one line on stderr.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_test.h"

#define MODDIR SQ_TEST_DATA_DIR "/modules"


/* adams resolve <file> must fail with exit 2, empty stdout and one line on
 * stderr ending in `want` (after "adams: <dir>/"). */
static void expect_file_error(int line, const char *file, const char *want)
{
    char args[1024], *out, *err;
    snprintf(args, sizeof args, "resolve '%s/%s' --stem 6", MODDIR, file);
    int rc = sq_test_run_adams(args, &out, &err);
    char full[1024];
    snprintf(full, sizeof full, "adams: %s/%s\n", MODDIR, want);
    if (rc != 2 || out[0] != '\0' || sq_test_count_lines(err) != 1 || strcmp(err, full) != 0)
        sq_test_fail(__FILE__, line, "adams %s: rc=%d\n--- stderr\n%s--- want\n%s--- stdout\n%s",
                     args, rc, err, full, out);
    sq_free(out);
    sq_free(err);
}

TEST(cli_error_per_class)
{
    expect_file_error(__LINE__, "bad-syntax.json",
                      "bad-syntax.json:3:33: JSON syntax: string or '}' expected near '}'");
    expect_file_error(__LINE__, "bad-nogens.json",
                      "bad-nogens.json: missing \"gens\": an object {\"name\": degree, ...} "
                      "listing the basis");
    expect_file_error(__LINE__, "bad-p.json",
                      "bad-p.json:2: \"p\" is 4, which is not a prime");
    expect_file_error(__LINE__, "bad-degree.json",
                      "bad-degree.json:5: generator x1: the degree must be an integer, not a "
                      "string");
    expect_file_error(__LINE__, "bad-unknown-gen.json",
                      "bad-unknown-gen.json:6: Sq2 x0 = y2: unknown generator y2 (did you mean "
                      "x2?)");
    expect_file_error(__LINE__, "bad-duplicate-gen.json",
                      "bad-duplicate-gen.json:6:12: duplicate generator \"x1\" in \"gens\"");
    expect_file_error(__LINE__, "bad-action-degree.json",
                      "bad-action-degree.json:5: Sq2 x0 = x1: x1 has degree 1, not 0 + 2");
    expect_file_error(__LINE__, "bad-op.json",
                      "bad-op.json:5: Sq3 x0 = x3: only the generators Sq1, Sq2, Sq4, ... may "
                      "act; Sq3 is not one");
    expect_file_error(__LINE__, "bad-malformed.json",
                      "bad-malformed.json:5: Sq1 x0 -> x1: expected \"Sq<n> <generator> = "
                      "<generator> + ...\" (or \"= 0\")");
    expect_file_error(__LINE__, "bad-repeat.json",
                      "bad-repeat.json:6: Sq1 x0 = y1: Sq1 x0 is already given on line 5 by "
                      "\"Sq1 x0 = x1\"");
    expect_file_error(__LINE__, "bad-relation.json",
                      "bad-relation.json: the action is not a module: on x0, Sq1 applied after "
                      "Sq(1) gives x2, but the product Sq1*Sq(1) in A acts as 0");
    expect_file_error(__LINE__, "no-such-file.json",
                      "no-such-file.json: cannot read: No such file or directory");
}

TEST(cli_bad_names)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve 'C2[x]' --stem 4", &out, &err), 2);
    ASSERT_STR_EQ(err, "adams: module 'C2[x]': expected NAME, PATH, NAME[k] or PATH[k] (k an "
                       "integer)\n");
    ASSERT_STR_EQ(out, "");
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve NoSuchModule --stem 4", &out, &err), 2);
    ASSERT_STR_EQ(err, "adams: unknown module 'NoSuchModule' (no NoSuchModule.json here nor "
                       "among the shipped modules; see 'adams modules')\n");
    ASSERT_STR_EQ(out, "");
    sq_free(out);
    sq_free(err);
}

TEST(cli_misspelled_key_warns)
{
    /* The warning goes to stderr, first (before the notes of the run);
     * --quiet silences it with the notes. */
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve '" MODDIR "/misspelled-key.json' --stem 4 --max-s 3 "
                                "--algorithm classical",
                                &out, &err),
              0);
    const char *want = MODDIR "/misspelled-key.json:4: warning: unknown key \"action\" ignored "
                              "(did you mean \"actions\"?)\n";
    ASSERT(strncmp(err, want, strlen(want)) == 0);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    ASSERT(strlen(out) > 0);
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("resolve '" MODDIR "/misspelled-key.json' --stem 4 --quiet", &out,
                                &err),
              0);
    ASSERT_STR_EQ(err, "");
    ASSERT(strlen(out) > 0);
    sq_free(out);
    sq_free(err);
}

/* The CSV of `adams resolve <args> --format csv --quiet`. */
static char *csv_of(const char *args)
{
    char cmd[1024], *out, *err;
    snprintf(cmd, sizeof cmd, "resolve %s --format csv --quiet", args);
    int rc = sq_test_run_adams(cmd, &out, &err);
    if (rc != 0)
        sq_test_fail(__FILE__, __LINE__, "adams %s: rc=%d %s", cmd, rc, err);
    sq_free(err);
    return out;
}

TEST(cli_shift_and_paths)
{
    /* Ceta[2] is Ceta with every stem moved up by 2. */
    char *a = csv_of("Ceta --stem 8 --max-s 5");
    char *b = csv_of("'Ceta[2]' --stem 10 --max-s 5");
    char *shifted = sq_calloc(strlen(a) * 2 + 1, 1);
    size_t k = 0;
    for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n")) {
        int n, s, d;
        ASSERT_EQ(sscanf(line, "%d,%d,%d", &n, &s, &d), 3);
        k += (size_t)sprintf(shifted + k, "%d,%d,%d\n", n + 2, s, d);
    }
    ASSERT_STR_EQ(b, shifted);
    sq_free(a);
    sq_free(b);
    sq_free(shifted);
    /* A path gives the same as the shipped name; S_2 is found as a file. */
    a = csv_of("C2 --stem 10 --max-s 6");
    b = csv_of("'" SQ_TEST_DATA_DIR "/../../modules/C2.json' --stem 10 --max-s 6");
    ASSERT_STR_EQ(a, b);
    sq_free(a);
    sq_free(b);
    a = csv_of("S_2 --stem 10 --max-s 6");
    b = csv_of("'S_2[0]' --stem 10 --max-s 6");
    ASSERT_STR_EQ(a, b);
    sq_free(a);
    sq_free(b);
    /* The file's own "shift" (3) and the name's add up. */
    a = csv_of("'" MODDIR "/shifted.json[-3]' --stem 10 --max-s 6");
    b = csv_of("C2 --stem 10 --max-s 6");
    ASSERT_STR_EQ(a, b);
    sq_free(a);
    sq_free(b);
}

TEST(cli_modules_verb)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("modules", &out, &err), 0);
    ASSERT_STR_EQ(err, "");
    static const char *const names[] = {"C2",  "Ceta", "Cnu", "Csigma", "Joker",
                                        "RP4", "S_2",  "ko",  "tmf2"};
    for (int i = 0; i < 9; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n%s ", names[i]);
        char *with_nl = sq_malloc(strlen(out) + 2);
        sprintf(with_nl, "\n%s", out);
        if (!strstr(with_nl, needle))
            sq_test_fail(__FILE__, __LINE__, "'%s' missing from:\n%s", names[i], out);
        sq_free(with_nl);
    }
    /* One line per module: name, padding, degrees, description. */
    const char *joker = strstr(out, "\nJoker ");
    ASSERT(joker != NULL && strncmp(joker + strspn(joker + 6, " ") + 6, "degrees 0..4 ", 13) == 0);
    const char *tmf = strstr(out, "\ntmf2 ");
    ASSERT(tmf != NULL && strncmp(tmf + strspn(tmf + 5, " ") + 5, "degree 0 ", 9) == 0);
    /* Infinite modules say so. */
    const char *rp = strstr(out, "\nRP_inf ");
    ASSERT(rp != NULL && strncmp(rp + strspn(rp + 7, " ") + 7, "degrees 1..inf ", 15) == 0);
    ASSERT(sq_test_count_lines(out) >= 9);
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("modules --bogus", &out, &err), 2);
    ASSERT_STR_EQ(out, "");
    ASSERT_EQ(sq_test_count_lines(err), 1);
    sq_free(out);
    sq_free(err);
    ASSERT_EQ(sq_test_run_adams("--help", &out, &err), 0);
    ASSERT(strstr(out, "modules") != NULL);
    sq_free(out);
    sq_free(err);
}
