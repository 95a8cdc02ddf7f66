/*
 * t-peer-corpus.c -- every module file the peer ships, resolved through the
 * adams program, equals the peer's own table cell for cell through stem 30
 * and filtration 20 (tests/data/peer-corpus/, the peer's `num_gens`).  The
 * module files are read from ../shared/data/peer-modules/ (they are not part
 * of the project); without that folder the test skips (77).
 *
 * Each file is resolved with the default engine, and again with Nassau's
 * algorithm wherever adams accepts it for that file (a refusal must be one
 * line and exit 2).  The cofibers (C2v14 = S/(2, v_1^4), C3v1b1, C4, C9,
 * Ceta2) are the peer's construction: a class of Ext(M, M).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

#define PEER SQ_TEST_DATA_DIR "/../../../shared/data/peer-modules"
#define TABLES SQ_TEST_DATA_DIR "/peer-corpus"

/* Runs adams on the module with extra options; fails unless the output is
 * the table (exit 0) or, when may_refuse, a one-line refusal with exit 2.
 * Returns 1 when it was compared. */
static int check_one(const char *name, const char *extra, const char *want, int may_refuse)
{
    char args[8192];
    snprintf(args, sizeof args, "resolve '%s/%s.json' --stem 30 --max-s 20 --format csv --quiet %s",
             PEER, name, extra);
    char *out, *err;
    int rc = sq_test_run_adams(args, &out, &err);
    int compared = 0;
    if (rc == 2 && may_refuse) {
        if (sq_test_count_lines(err) != 1 || out[0] != '\0')
            sq_test_fail(__FILE__, __LINE__, "%s %s: a refusal must be one line:\n%s", name,
                         extra, err);
    } else if (rc != 0) {
        sq_test_fail(__FILE__, __LINE__, "%s %s: exit %d: %s", name, extra, rc, err);
    } else if (strcmp(out, want) != 0) {
        sq_test_fail(__FILE__, __LINE__, "%s %s: the E2 page differs from the peer's table", name,
                     extra);
    } else {
        compared = 1;
    }
    sq_free(out);
    sq_free(err);
    return compared;
}

TEST(peer_corpus_equals_peer_tables)
{
    DIR *d = opendir(PEER);
    if (!d) {
        fprintf(stderr, "skip: %s not found (the peer's module files live outside the project)\n",
                PEER);
        exit(77);
    }
    closedir(d);
    d = opendir(TABLES);
    ASSERT(d != NULL);
    struct dirent *e;
    int files = 0, nassau = 0, cofibers = 0;
    while ((e = readdir(d))) {
        const char *suffix = "-n30-s20.csv";
        size_t n = strlen(e->d_name), k = strlen(suffix);
        if (n <= k || strcmp(e->d_name + n - k, suffix) != 0)
            continue;
        char name[256], path[4096];
        snprintf(name, sizeof name, "%.*s", (int)(n - k), e->d_name);
        snprintf(path, sizeof path, "%s/%s", TABLES, e->d_name);
        char *want = sq_test_slurp(path);
        snprintf(path, sizeof path, "%s/%s.json", PEER, name);
        char *json = sq_test_slurp(path);
        cofibers += strstr(json, "\"cofiber\"") != NULL;
        sq_free(json);
        files += check_one(name, "", want, 0);
        nassau += check_one(name, "--algorithm nassau", want, 1);
        sq_free(want);
    }
    closedir(d);
    fprintf(stderr, "%d files equal the peer's tables (%d also with Nassau's algorithm; %d "
                    "cofibers)\n",
            files, nassau, cofibers);
    ASSERT_EQ(files, 46);
    ASSERT_EQ(cofibers, 5);
    ASSERT(nassau >= 11); /* the finite modules over the whole algebra at p = 2 */
}
