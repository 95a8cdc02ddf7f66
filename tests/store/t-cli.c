/*
 * t-cli.c -- `adams ext` and `adams check` on stores written by the
 * library: ext prints exactly what `adams resolve` prints for the region;
 * check says ok, or DAMAGED with exit status 1; usage errors exit 2.
 * An adams without these commands fails them (it used to skip: a broken
 * dispatch looked like a skip).  At p = 3: resolve --save, ext, check,
 * extend, kill and resume through the program (format 3).
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
        {"check a.db --t-range 5", 2, "--t-range: expected LO:HI"},
        {"check a.db --t-range 9:3", 2, "the first degree is above the last"},
        {"check a.db --t-range x:3", 2, "expected an integer"},
        {"check a.db --t-range -1:3", 2, "out of range"},
        {"check a.db --t-range 0:1000001", 2, "out of range"},
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

/* ---- p = 3 (format 3) through the program -------------------------------- */

/* adams resolve S_3 --stem 60 --save F prints the plain run's chart, and
 * adams ext F prints it again (chart and csv); check passes, saying the
 * prime; a residue changed (with its checksum recomputed) makes check fail
 * (exit 1, DAMAGED, one line on stderr). */
TEST(store_cli_odd_save_ext_check)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "s3.db");
    sq_test_run_t plain = sq_test_runf("resolve S_3 --stem 60 --quiet");
    ASSERT_EQ(plain.rc, 0);
    sq_test_run_t saved = sq_test_runf("resolve S_3 --stem 60 --quiet --save %s", f);
    ASSERT_EQ(saved.rc, 0);
    ASSERT_STR_EQ(saved.out, plain.out);
    sq_test_run_t ext = sq_test_runf("ext %s", f);
    ASSERT_EQ(ext.rc, 0);
    ASSERT_STR_EQ(ext.out, plain.out);
    sq_test_run_t pcsv = sq_test_runf("resolve S_3 --stem 60 --quiet --format csv");
    sq_test_run_t ecsv = sq_test_runf("ext %s --format csv", f);
    ASSERT(pcsv.rc == 0 && ecsv.rc == 0);
    ASSERT_STR_EQ(ecsv.out, pcsv.out);
    sq_test_run_t chk = sq_test_runf("check %s --full", f);
    if (chk.rc != 0 || !strstr(chk.out, "engine classical, prime 3") ||
        !strstr(chk.out, ": format 3, written by") ||
        strcmp(chk.out + strlen(chk.out) - 3, "ok\n") != 0)
        sq_test_fail(__FILE__, __LINE__, "check: exit %d\n%s%s", chk.rc, chk.out, chk.err);
    /* One residue changed, its checksum recomputed: d o d or minimality
     * fails where it is. */
    st_row_t r;
    int found = 0;
    for (int32_t t = 2; t <= 60 && !found; t++)
        for (int32_t s = 2; s <= t && !found; s++)
            if (st_get_row(f, s, t, &r)) {
                found = r.ngens > 0 && r.codec == 0 && r.len > 0;
                if (!found)
                    sq_free(r.data);
            }
    ASSERT(found);
    size_t k = 0;
    while (k + 1 < r.len && r.data[k] == 0)
        k++;
    r.data[k] = (unsigned char)((r.data[k] + 1) % 3);
    st_put_row(f, r.s, r.t, r.ngens, r.nbits, 0, r.rawlen, r.data, r.len,
               st_row_crc(f, r.s, r.t, r.ngens, r.nbits, r.data, r.len));
    sq_free(r.data);
    sq_test_run_t bad = sq_test_runf("check %s --full", f);
    if (bad.rc != 1 || !strstr(bad.out, "wrong: ") || !strstr(bad.out, "DAMAGED\n") ||
        sq_test_count_lines(bad.err) != 1)
        sq_test_fail(__FILE__, __LINE__, "check of a changed residue: exit %d\n%s%s", bad.rc,
                     bad.out, bad.err);
    sq_test_run_free(&plain), sq_test_run_free(&saved), sq_test_run_free(&ext);
    sq_test_run_free(&pcsv), sq_test_run_free(&ecsv), sq_test_run_free(&chk);
    sq_test_run_free(&bad);
    st_tmpdir_remove(dir);
}

/* A larger --stem and --max-s extend a p = 3 store: the same rows as a
 * store written in one run, and the chart of the larger region. */
TEST(store_cli_odd_extend)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "e.db"), *g = st_path(dir, "g.db");
    sq_test_run_t a = sq_test_runf("resolve S_3 --stem 30 --max-s 10 --quiet --save %s", f);
    sq_test_run_t b = sq_test_runf("resolve S_3 --stem 60 --max-s 20 --save %s", f);
    sq_test_run_t c = sq_test_runf("resolve S_3 --stem 60 --max-s 20 --quiet --save %s", g);
    sq_test_run_t d = sq_test_runf("resolve S_3 --stem 60 --max-s 20 --quiet");
    ASSERT(a.rc == 0 && b.rc == 0 && c.rc == 0 && d.rc == 0);
    ASSERT(strstr(b.err, "resumed from") != NULL);
    ASSERT_STR_EQ(b.out, d.out);
    st_same_rows(f, g);
    sq_test_run_t e = sq_test_runf("ext %s", f);
    ASSERT_EQ(e.rc, 0);
    ASSERT_STR_EQ(e.out, d.out);
    sq_test_run_free(&a), sq_test_run_free(&b), sq_test_run_free(&c);
    sq_test_run_free(&d), sq_test_run_free(&e);
    st_tmpdir_remove(dir);
}

/* The progress line of a resumed run counts the stored steps: when the
 * extension is done, every stem of the region is done and the bar is full.
 * It used to say "no stem done yet" with a bar short by the stored part
 * and an ETA of minutes at the end of the stem-200 run. */
TEST(store_cli_progress_counts_stored_steps)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "p.db");
    sq_test_run_t a = sq_test_runf("resolve --stem 30 --max-s 12 --quiet --save %s", f);
    sq_test_run_t b = sq_test_runf("resolve --stem 45 --max-s 12 --progress --save %s", f);
    ASSERT(a.rc == 0 && b.rc == 0);
    ASSERT(strstr(b.err, "resumed from") != NULL);
    const char *last = NULL;
    for (const char *q = b.err; (q = strstr(q, "bidegrees")) != NULL; q++)
        last = q;
    ASSERT(last != NULL);
    ASSERT(strncmp(last, "bidegrees  stems <= 45 done", 27) == 0);
    ASSERT(strstr(b.err, "[####################]") != NULL);
    sq_test_run_free(&a), sq_test_run_free(&b);
    st_tmpdir_remove(dir);
}

/* adams resolve S_3 --save killed (SIGKILL) at several moments, then the
 * same command: the rows of an uninterrupted run, byte for byte. */
TEST(store_cli_odd_kill_resume)
{
    need_store_commands();
    static const long delays_us[4] = {5000, 40000, 100000, 180000};
    st_kill_resume("S_3", 140, 40, delays_us);
}

/* A finite module at p = 3 from its file (C3: beta on the bottom cell):
 * saved, read back by ext, and checked (the module rebuilt from its
 * canonical text, so d o d = 0 reaches row 0). */
TEST(store_cli_odd_module_file)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "c3.db");
    sq_test_run_t plain = sq_test_runf("resolve C3 --stem 40 --max-s 12 --quiet");
    sq_test_run_t saved = sq_test_runf("resolve C3 --stem 40 --max-s 12 --quiet --save %s", f);
    ASSERT(plain.rc == 0 && saved.rc == 0);
    ASSERT_STR_EQ(saved.out, plain.out);
    sq_test_run_t ext = sq_test_runf("ext %s", f);
    ASSERT_EQ(ext.rc, 0);
    ASSERT_STR_EQ(ext.out, plain.out);
    sq_test_run_t chk = sq_test_runf("check %s --full", f);
    if (chk.rc != 0 || strcmp(chk.out + strlen(chk.out) - 3, "ok\n") != 0)
        sq_test_fail(__FILE__, __LINE__, "check: exit %d\n%s%s", chk.rc, chk.out, chk.err);
    /* Another prime's run on it is refused with one line naming both. */
    sq_test_run_t two = sq_test_runf("resolve C2 --stem 40 --max-s 12 --quiet --save %s", f);
    ASSERT_EQ(two.rc, 2);
    ASSERT(strstr(two.err, "at the prime 3, not C2 at the prime 2") != NULL);
    ASSERT_EQ(sq_test_count_lines(two.err), 1);
    sq_test_run_free(&plain), sq_test_run_free(&saved), sq_test_run_free(&ext);
    sq_test_run_free(&chk), sq_test_run_free(&two);
    st_tmpdir_remove(dir);
}

/* --from a p = 3 store: the chart read from it equals the computed one
 * (cli_from.c loads the store at any prime), with or without the module
 * named; another module named with it is refused with one line. */
TEST(store_cli_odd_from)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "f.db");
    sq_test_run_t saved = sq_test_runf("resolve S_3 --stem 40 --max-s 15 --quiet --save %s", f);
    ASSERT_EQ(saved.rc, 0);
    sq_test_run_t plain = sq_test_runf("chart S_3 --stem 40 --max-s 15 --format json --quiet");
    sq_test_run_t from = sq_test_runf("chart --from %s --format json --quiet", f);
    sq_test_run_t named = sq_test_runf("chart S_3 --from %s --format json --quiet", f);
    if (plain.rc != 0 || from.rc != 0 || named.rc != 0)
        sq_test_fail(__FILE__, __LINE__, "chart: exit %d, --from %d (%s), named %d (%s)",
                     plain.rc, from.rc, from.err, named.rc, named.err);
    ASSERT(strstr(plain.out, "\"prime\"") != NULL);
    ASSERT_STR_EQ(from.out, plain.out);
    ASSERT_STR_EQ(named.out, plain.out);
    sq_test_run_t other = sq_test_runf("chart C3 --from %s --quiet", f);
    ASSERT_EQ(other.rc, 2);
    ASSERT(strstr(other.err, "is not the module S_3 of the store") != NULL);
    ASSERT_EQ(sq_test_count_lines(other.err), 1);
    sq_test_run_free(&saved), sq_test_run_free(&plain), sq_test_run_free(&from);
    sq_test_run_free(&named), sq_test_run_free(&other);
    st_tmpdir_remove(dir);
}

/* Flips bit `bit` of the vector of generator `gen` in the raw row (s, t) of
 * the store at p and fixes its checksum (a wrong vector that passes it). */
static void forge_bit(const char *p, int32_t s, int32_t t, int64_t gen, int64_t bit)
{
    st_row_t r;
    ASSERT(st_get_row(p, s, t, &r));
    ASSERT_EQ(r.codec, 0);
    int64_t limbs = (r.nbits + 63) / 64;
    ASSERT(gen < r.ngens && bit < r.nbits);
    size_t byte = (size_t)(gen * limbs * 8 + bit / 8);
    ASSERT(byte < r.len);
    r.data[byte] ^= (unsigned char)(1u << (bit % 8));
    uint32_t crc = st_row_crc(p, s, t, r.ngens, r.nbits, r.data, r.len);
    st_put_row(p, s, t, r.ngens, r.nbits, r.codec, r.rawlen, r.data, r.len, crc);
    sq_free(r.data);
}

/* adams check prints the same lines for any thread count (d o d shares the
 * products of a bidegree's generators and splits them over the threads):
 * on a sound Nassau store, and on one with a wrong vector (valid checksum)
 * in a bidegree of several generators, where exactly the forged generator
 * is named. */
TEST(store_cli_check_threads_same_lines)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "n.db");
    fdmod_t *M = st_sphere();
    char err[512], args[4096];
    ASSERT_EQ(st_run(p, M, RESOL_NASSAU, 14, 30, 2, -1, err, sizeof err), 0);
    fdmod_free(M);
    char *o1, *e1, *o2, *e2, *o3, *e3;
    snprintf(args, sizeof args, "check %s --threads 1 --full --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o1, &e1), 0);
    snprintf(args, sizeof args, "check %s --threads 2 --full --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o2, &e2), 0);
    ASSERT_STR_EQ(o2, o1);
    ASSERT(strstr(o1, "d o d = 0: ok on ") && strstr(o1, "minimality and exactness: ok"));
    sq_free(o1), sq_free(e1), sq_free(o2), sq_free(e2);
    /* the highest raw row with several generators above row 1 */
    sqlite3 *db;
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT s, t FROM step WHERE ngens >= 2 AND codec = 0 AND s >= 2 "
                                 "AND nbits >= 1 ORDER BY t DESC, s LIMIT 1",
                                 -1, &q, NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    int32_t s = sqlite3_column_int(q, 0), t = sqlite3_column_int(q, 1);
    sqlite3_finalize(q);
    sqlite3_close(db);
    forge_bit(p, s, t, 1, 0);
    snprintf(args, sizeof args, "check %s --threads 1 --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o1, &e1), 1);
    snprintf(args, sizeof args, "check %s --threads 2 --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o2, &e2), 1);
    snprintf(args, sizeof args, "check %s --threads 3 --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o3, &e3), 1);
    ASSERT_STR_EQ(o2, o1);
    ASSERT_STR_EQ(o3, o1);
    char want[128], other[128];
    snprintf(want, sizeof want, "wrong: d(d(x_(%d, %d, 1))) != 0 (step s=%d, t=%d)\n",
             (int)(t - s), (int)s, (int)s, (int)t);
    snprintf(other, sizeof other, "wrong: d(d(x_(%d, %d, 0)))", (int)(t - s), (int)s);
    if (!strstr(o1, want) || strstr(o1, other) || !strstr(o1, "DAMAGED\n"))
        sq_test_fail(__FILE__, __LINE__, "check of the forged (s=%d, t=%d):\n%s", (int)s, (int)t,
                     o1);
    sq_free(o1), sq_free(e1), sq_free(o2), sq_free(e2), sq_free(o3), sq_free(e3);
    st_tmpdir_remove(dir);
}

/* The number after "ok on " in the d o d line of a check's output. */
static long long dd_count(const char *out)
{
    const char *p = strstr(out, "d o d = 0: ok on ");
    if (!p)
        sq_test_fail(__FILE__, __LINE__, "no d o d line in:\n%s", out);
    return strtoll(p + strlen("d o d = 0: ok on "), NULL, 10);
}

/* adams check --t-range LO:HI checks d o d and minimality in those degrees
 * only and says so: two slices that meet cover the generators of the whole
 * check, each ends in "ok for the degrees t = LO..HI only"; a wrong vector
 * at degree t (valid checksum) is found by the slice holding t, named as
 * the whole check names it, and not by the slice below t. */
TEST(store_cli_check_t_range)
{
    need_store_commands();
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "n.db");
    fdmod_t *M = st_sphere();
    char err[512], args[4096];
    ASSERT_EQ(st_run(p, M, RESOL_NASSAU, 14, 30, 2, -1, err, sizeof err), 0);
    fdmod_free(M);
    /* the highest raw row with several generators above row 1 */
    sqlite3 *db;
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT s, t FROM step WHERE ngens >= 2 AND codec = 0 AND s >= 2 "
                                 "AND nbits >= 1 ORDER BY t DESC, s LIMIT 1",
                                 -1, &q, NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    int32_t s = sqlite3_column_int(q, 0), t = sqlite3_column_int(q, 1);
    sqlite3_finalize(q);
    sqlite3_close(db);
    char *o, *e, *lo, *le, *ho, *he;
    snprintf(args, sizeof args, "check %s --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    snprintf(args, sizeof args, "check %s --quiet --t-range :%d", p, (int)t - 1);
    ASSERT_EQ(sq_test_run_adams(args, &lo, &le), 0);
    snprintf(args, sizeof args, "check %s --quiet --t-range %d:", p, (int)t);
    ASSERT_EQ(sq_test_run_adams(args, &ho, &he), 0);
    long long all = dd_count(o), below = dd_count(lo), above = dd_count(ho);
    if (below <= 0 || above <= 0 || below + above != all)
        sq_test_fail(__FILE__, __LINE__, "slices %lld + %lld, whole %lld", below, above, all);
    char want[160];
    snprintf(want, sizeof want, "ok for the degrees t = 0..%d only (", (int)t - 1);
    ASSERT(strstr(lo, want) && strstr(lo, "of degree t = 0..") && !strstr(lo, "\nok\n"));
    snprintf(want, sizeof want, "ok for the degrees t = %d..1000000 only (", (int)t);
    ASSERT(strstr(ho, want));
    ASSERT(strstr(o, "\nok\n") && !strstr(o, "ok for the degrees"));
    sq_free(o), sq_free(e), sq_free(lo), sq_free(le), sq_free(ho), sq_free(he);
    forge_bit(p, s, t, 1, 0);
    char named[128];
    snprintf(named, sizeof named, "wrong: d(d(x_(%d, %d, 1))) != 0 (step s=%d, t=%d)\n",
             (int)(t - s), (int)s, (int)s, (int)t);
    snprintf(args, sizeof args, "check %s --quiet --t-range %d:%d", p, (int)t, (int)t);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
    if (!strstr(o, named) || !strstr(o, "DAMAGED\n"))
        sq_test_fail(__FILE__, __LINE__, "the slice t = %d:\n%s", (int)t, o);
    sq_free(o), sq_free(e);
    snprintf(args, sizeof args, "check %s --quiet --t-range 0:%d --full", p, (int)t - 1);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    ASSERT(strstr(o, "ok for the degrees") && !strstr(o, "wrong:"));
    sq_free(o), sq_free(e);
    st_tmpdir_remove(dir);
}
