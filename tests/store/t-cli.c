/*
 * t-cli.c -- `adams ext` and `adams check` on stores written by the
 * library: ext prints exactly what `adams resolve` prints for the region;
 * check says ok, or DAMAGED with exit status 1; usage errors exit 2.
 * An adams without these commands fails them (it used to skip: a broken
 * dispatch looked like a skip).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

static void need_store_commands(void)
{
    char *out, *err;
    int rc = sq_test_run_adams("ext --help", &out, &err);
    int have = rc == 0 && strstr(out, "Usage: adams ext");
    sq_free(out);
    sq_free(err);
    if (!have) /* a broken dispatch is a failure, not a skip (issue 19) */
        sq_test_fail(__FILE__, __LINE__, "this adams has no 'ext' command (exit %d)", rc);
}

TEST(store_cli_ext_equals_resolve)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    fdmod_t *M = st_sphere();
    char err[512], args[4096];
    ASSERT_EQ(st_run(p, M, RESOL_NASSAU, 20, 40, 2, -1, err, sizeof err), 0);
    static const char *const fmts[] = {"chart", "csv"};
    for (int i = 0; i < 2; i++) {
        char *o1, *e1, *o2, *e2;
        snprintf(args, sizeof args, "ext %s --format %s", p, fmts[i]);
        ASSERT_EQ(sq_test_run_adams(args, &o1, &e1), 0);
        snprintf(args, sizeof args, "resolve S_2 --stem 40 --max-s 20 --quiet --format %s",
                 fmts[i]);
        ASSERT_EQ(sq_test_run_adams(args, &o2, &e2), 0);
        ASSERT_STR_EQ(o1, o2);
        sq_free(o1), sq_free(e1), sq_free(o2), sq_free(e2);
    }
    /* A part of the region. */
    char *o1, *e1, *o2, *e2;
    snprintf(args, sizeof args, "ext %s --stem 25 --max-s 12", p);
    ASSERT_EQ(sq_test_run_adams(args, &o1, &e1), 0);
    ASSERT_EQ(sq_test_run_adams("resolve S_2 --stem 25 --max-s 12 --quiet", &o2, &e2), 0);
    ASSERT_STR_EQ(o1, o2);
    sq_free(o1), sq_free(e1), sq_free(o2), sq_free(e2);
    /* Beyond the store: exit 1, naming the first missing bidegree. */
    snprintf(args, sizeof args, "ext %s --stem 41 --max-s 20", p);
    ASSERT_EQ(sq_test_run_adams(args, &o1, &e1), 1);
    ASSERT(strstr(e1, "does not hold (n=41, s=0)") != NULL);
    sq_free(o1), sq_free(e1);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_cli_check)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    fdmod_t *M = st_sphere();
    char err[512], args[4096];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 10, 20, 1, -1, err, sizeof err), 0);
    char *o, *e;
    snprintf(args, sizeof args, "check %s --threads 2", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    ASSERT(strstr(o, "d o d = 0: ok") && strstr(o, "minimality and exactness: ok"));
    ASSERT(strlen(o) >= 3 && strcmp(o + strlen(o) - 3, "ok\n") == 0);
    sq_free(o), sq_free(e);
    /* Damage a count: exit 1, the bidegree named, DAMAGED. */
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE step SET ngens = 2 WHERE s = 1 AND t = 8", NULL, NULL, NULL),
              SQLITE_OK);
    sqlite3_close(db);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
    ASSERT(strstr(o, "damaged: store ") && strstr(o, "step (s=1, t=8) is damaged"));
    ASSERT(strstr(o, "DAMAGED\n") != NULL);
    sq_free(o), sq_free(e);
    snprintf(args, sizeof args, "ext %s", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
    ASSERT(strstr(e, "step (s=1, t=8) is damaged") && strstr(e, "adams check"));
    ASSERT_STR_EQ(o, "");
    sq_free(o), sq_free(e);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_cli_usage)
{
    need_store_commands();
    static const struct {
        const char *args;
        int rc;
        const char *words;
    } cases[] = {
        {"ext", 2, "no store given"},
        {"ext a.db b.db", 2, "more than one file"},
        {"ext a.db --format svg", 2, "expected 'chart' or 'csv'"},
        {"ext a.db --bogus", 2, "unknown option"},
        {"ext /nonexistent/a.db", 1, "no such file"},
        {"check", 2, "no store given"},
        {"check a.db --spots 0", 2, "out of range"},
        {"check /nonexistent/a.db", 1, "no such file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *o, *e;
        int rc = sq_test_run_adams(cases[i].args, &o, &e);
        if (rc != cases[i].rc || !strstr(e, cases[i].words))
            sq_test_fail(__FILE__, __LINE__, "adams %s: exit %d, stderr '%s'", cases[i].args, rc,
                         e);
        sq_free(o), sq_free(e);
    }
}
