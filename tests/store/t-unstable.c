/*
 * t-unstable.c -- stores of unstable resolutions (format 4, category
 * `unstable`; docs/save-format.md section 7, docs/unstable.md): `adams
 * resolve S^n --save F` prints the plain run's chart, `adams ext F` prints
 * it again, `adams check F` checks d o d = 0 and minimality in the unstable
 * free modules, an interrupted or killed run resumes and a larger region
 * extends with the rows of an uninterrupted run, byte for byte; a stable
 * run is refused by an unstable store and the reverse, in one line.
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

#include "resol_unstable.h"
#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

/* One value of the store at path (SQL returning one text or integer). */
static char *sql_value(const char *path, const char *stmt)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db, stmt, -1, &q, NULL), SQLITE_OK);
    char *r = NULL;
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
        r = sq_strdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    return r ? r : sq_strdup("(none)");
}

static void assert_value(const char *path, const char *stmt, const char *want)
{
    char *v = sql_value(path, stmt);
    if (strcmp(v, want) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: %s gives '%s', not '%s'", path, stmt, v, want);
    sq_free(v);
}

/* Sets the metadata key to value, with its checksum (CRC-32C of key, 0x00,
 * value: docs/save-format.md 4.3). */
static void put_meta(const char *path, const char *key, const char *value)
{
    char buf[256], stmt[512];
    size_t k = strlen(key), v = strlen(value);
    memcpy(buf, key, k + 1);
    memcpy(buf + k + 1, value, v);
    snprintf(stmt, sizeof stmt, "INSERT OR REPLACE INTO meta VALUES('%s', '%s', %lu)", key, value,
             (unsigned long)st_crc32c(buf, k + 1 + v));
    st_sql(path, stmt);
}

/* Whether out ends with "ok\n" (adams check's last line when all is well). */
static int ends_ok(const char *out)
{
    size_t n = strlen(out);
    return n >= 3 && strcmp(out + n - 3, "ok\n") == 0;
}

/* resolve S^3 --save F: the plain run's chart; ext F the same chart and
 * CSV; check --full ok, in the unstable free modules; the metadata of
 * format 4. */
TEST(store_unstable_save_ext_check)
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "s3.db");
    sq_test_run_t plain = sq_test_runf("resolve S^3 --stem 24 --max-s 8 --quiet");
    sq_test_run_t saved = sq_test_runf("resolve S^3 --stem 24 --max-s 8 --quiet --save %s", f);
    ASSERT(plain.rc == 0 && saved.rc == 0);
    ASSERT_STR_EQ(saved.out, plain.out);
    sq_test_run_t ext = sq_test_runf("ext %s", f);
    ASSERT_EQ(ext.rc, 0);
    ASSERT_STR_EQ(ext.out, plain.out);
    sq_test_run_t pcsv = sq_test_runf("resolve S^3 --stem 24 --max-s 8 --quiet --format csv");
    sq_test_run_t ecsv = sq_test_runf("ext %s --format csv", f);
    ASSERT(pcsv.rc == 0 && ecsv.rc == 0);
    ASSERT_STR_EQ(ecsv.out, pcsv.out);
    /* The unstable E_2 of S^3 is not the stable one of S_2[3] (h_2 at stem
     * 6 is not there: Sq^4 of a 3-class is 0). */
    sq_test_run_t stable = sq_test_runf("resolve S_2[3] --stem 24 --max-s 8 --quiet");
    ASSERT_EQ(stable.rc, 0);
    ASSERT(strcmp(stable.out, plain.out) != 0);
    sq_test_run_t chk = sq_test_runf("check %s --full", f);
    if (chk.rc != 0 || !ends_ok(chk.out))
        sq_test_fail(__FILE__, __LINE__, "check: exit %d\n%s%s", chk.rc, chk.out, chk.err);
    ASSERT(strstr(chk.out, "unstable: Ext in the category of unstable modules") != NULL);
    ASSERT(strstr(chk.out, "minimality and exactness: ok at 198 bidegrees (all of them)"));
    assert_value(f, "PRAGMA user_version", "4");
    assert_value(f, "SELECT value FROM meta WHERE key = 'format'", "4");
    assert_value(f, "SELECT value FROM meta WHERE key = 'category'", "unstable");
    assert_value(f, "SELECT value FROM meta WHERE key = 'engine'", "classical");
    /* chart --from draws it. */
    sq_test_run_t chart = sq_test_runf("chart --from %s --format json", f);
    ASSERT_EQ(chart.rc, 0);
    ASSERT(strlen(chart.out) > 100);
    sq_test_run_free(&plain), sq_test_run_free(&saved), sq_test_run_free(&ext);
    sq_test_run_free(&pcsv), sq_test_run_free(&ecsv), sq_test_run_free(&stable);
    sq_test_run_free(&chk), sq_test_run_free(&chart);
    st_tmpdir_remove(dir);
}

/* check multiplies in the unstable free modules: the same rows read as a
 * stable resolution (category removed, format 3) do not fit, and a
 * differential zeroed with its checksum recomputed fails minimality. */
TEST(store_unstable_check_uses_unstable_basis)
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "s3.db"), *g = st_path(dir, "g.db");
    sq_test_run_t a = sq_test_runf("resolve S^3 --stem 20 --max-s 6 --quiet --save %s", f);
    sq_test_run_t b = sq_test_runf("resolve S^3 --stem 20 --max-s 6 --quiet --save %s", g);
    ASSERT(a.rc == 0 && b.rc == 0);
    /* As a stable store: rows that do not fit the stable free modules. */
    st_sql(f, "DELETE FROM meta WHERE key = 'category'");
    put_meta(f, "format", "3");
    st_sql(f, "PRAGMA user_version = 3");
    sq_test_run_t c = sq_test_runf("check %s", f);
    ASSERT_EQ(c.rc, 1);
    ASSERT(strstr(c.out, "intact steps cannot be used") && strstr(c.out, "DAMAGED\n"));
    /* h_0 of S^3 (s = 1, t = 4: d(g) = Sq^1 i_3, one coordinate) zeroed. */
    st_row_t r;
    ASSERT(st_get_row(g, 1, 4, &r));
    ASSERT(r.ngens == 1 && r.nbits == 1 && r.codec == 0 && r.len == 8 && r.data[0] == 1);
    r.data[0] = 0;
    uint32_t crc = st_row_crc(g, 1, 4, 1, 1, r.data, r.len);
    st_put_row(g, 1, 4, 1, 1, 0, 8, r.data, r.len, crc);
    sq_free(r.data);
    sq_test_run_t d = sq_test_runf("check %s --full", g);
    ASSERT_EQ(d.rc, 1);
    ASSERT(strstr(d.out, "minimality and exactness: FAILED") && strstr(d.out, "DAMAGED\n"));
    sq_test_run_free(&a), sq_test_run_free(&b), sq_test_run_free(&c), sq_test_run_free(&d);
    st_tmpdir_remove(dir);
}

/* A run stopped after 40 steps (the library's stop, as SIGINT does; one
 * thread, so that the count is exact -- the killed test below runs two), then
 * the same command through the program: it resumes, prints the plain
 * chart, and the store holds the rows of an uninterrupted run. */
TEST(store_unstable_stopped_resumes)
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "k.db"), *g = st_path(dir, "g.db");
    fdmod_t *S = fdmod_sphere();
    fdmod_t *M = fdmod_new_shifted(S, 5, "S_2[5]");
    char err[1024];
    ASSERT_EQ(st_run_unstable(f, M, 12, 40, 1, 40, err, sizeof err), 1);
    sq_store_info_t si;
    sq_store_t *st;
    ASSERT_EQ(sq_store_open_read(&st, f, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &si, err, sizeof err), 0);
    ASSERT(si.unstable && si.format == SQ_STORE_FORMAT_UNSTABLE && si.done_s < 0);
    if (si.steps < 40 || si.steps >= 13 * 36)
        sq_test_fail(__FILE__, __LINE__, "%lld steps stored, not 40 .. %d", (long long)si.steps,
                     13 * 36 - 1);
    sq_store_close(st);
    sq_test_run_t ref = sq_test_runf("resolve S^5 --stem 40 --max-s 12 --quiet --save %s", g);
    sq_test_run_t res = sq_test_runf("resolve S^5 --stem 40 --max-s 12 --save %s", f);
    ASSERT(ref.rc == 0 && res.rc == 0);
    ASSERT(strstr(res.err, "resumed from") != NULL);
    ASSERT_STR_EQ(res.out, ref.out);
    st_same_rows(f, g);
    /* The library's own run of the same region: the same rows too. */
    const char *h = st_path(dir, "h.db");
    ASSERT_EQ(st_run_unstable(h, M, 12, 40, 1, -1, err, sizeof err), 0);
    st_same_rows(h, g);
    sq_test_run_free(&ref), sq_test_run_free(&res);
    fdmod_free(M);
    fdmod_free(S);
    st_tmpdir_remove(dir);
}

/* adams resolve S^5 --save killed (SIGKILL) at several moments, then the
 * same command: the rows of an uninterrupted run, byte for byte. */
TEST(store_unstable_killed_resumes)
{
    static const long delays_us[4] = {5000, 40000, 120000, 250000};
    st_kill_resume("S^5", 60, 18, delays_us);
}

/* A larger --stem, then a larger --max-s, extend the store: the plain
 * run's chart, and the rows of a store made at once. */
TEST(store_unstable_extends)
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "e.db"), *g = st_path(dir, "g.db");
    sq_test_run_t a = sq_test_runf("resolve S^3 --stem 20 --max-s 8 --quiet --save %s", f);
    sq_test_run_t b = sq_test_runf("resolve S^3 --stem 36 --max-s 8 --save %s", f);
    sq_test_run_t c = sq_test_runf("resolve S^3 --stem 36 --max-s 12 --save %s", f);
    sq_test_run_t d = sq_test_runf("resolve S^3 --stem 36 --max-s 12 --quiet");
    sq_test_run_t e = sq_test_runf("resolve S^3 --stem 36 --max-s 12 --quiet --save %s", g);
    ASSERT(a.rc == 0 && b.rc == 0 && c.rc == 0 && d.rc == 0 && e.rc == 0);
    ASSERT(strstr(b.err, "resumed from") && strstr(c.err, "resumed from"));
    ASSERT_STR_EQ(c.out, d.out);
    st_same_rows(f, g);
    assert_value(f, "SELECT value FROM meta WHERE key = 'done'", "12 36");
    sq_test_run_t x = sq_test_runf("ext %s", f);
    ASSERT_EQ(x.rc, 0);
    ASSERT_STR_EQ(x.out, d.out);
    sq_test_run_free(&a), sq_test_run_free(&b), sq_test_run_free(&c);
    sq_test_run_free(&d), sq_test_run_free(&e), sq_test_run_free(&x);
    st_tmpdir_remove(dir);
}

/* The refusals, one line each, naming the mismatch; the library's too. */
TEST(store_unstable_refusals)
{
    char *dir = st_tmpdir_new();
    const char *u = st_path(dir, "u.db"), *s = st_path(dir, "s.db");
    sq_test_run_t a = sq_test_runf("resolve S^3 --stem 16 --max-s 6 --quiet --save %s", u);
    sq_test_run_t b = sq_test_runf("resolve S_2[3] --stem 16 --max-s 6 --quiet --save %s", s);
    ASSERT(a.rc == 0 && b.rc == 0);
    /* A stable store is format 3 as before, without the key. */
    assert_value(s, "PRAGMA user_version", "3");
    assert_value(s, "SELECT value FROM meta WHERE key = 'category'", "(none)");
    static const struct {
        const char *args; /* then the store */
        int store_u;      /* 1: the unstable store, 0: the stable one */
        const char *words;
    } cases[] = {
        {"resolve S_2[3] --stem 16 --max-s 6 --save", 1,
         "keeps the unstable resolution of S_2[3]; this run is stable"},
        {"resolve S_2 --stem 16 --max-s 6 --save", 1, "keeps the unstable resolution"},
        {"resolve S^3 --stem 16 --max-s 6 --save", 0,
         "keeps the stable resolution of S_2[3]; this run is unstable"},
        {"resolve S_2[3] --unstable --stem 16 --max-s 6 --save", 0,
         "keeps the stable resolution"},
        {"resolve S^3 --stem 16 --max-s 6 --algorithm nassau --save", 1,
         "classical only (Nassau's algorithm is stable)"},
        {"products --from", 1, "products: --from: the store"},
        {"d2 --from", 1, "keeps an unstable resolution (S^n, --unstable); d2 reads stable"},
        {"massey --a 1,1,0 --b 0,1,0 --c 1,1,0 --from", 1, "keeps an unstable resolution"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *store = cases[i].store_u ? u : s;
        sq_test_run_t r = sq_test_runf("%s %s", cases[i].args, store);
        if (r.rc != 2 || !strstr(r.err, cases[i].words) ||
            strchr(r.err, '\n') != strrchr(r.err, '\n'))
            sq_test_fail(__FILE__, __LINE__, "adams %s %s: exit %d, stderr:\n%s", cases[i].args,
                         store, r.rc, r.err);
        sq_test_run_free(&r);
    }
    /* The library: a stable resolution is not loaded from an unstable store,
     * nor an unstable one from a stable store; an unstable Nassau run is not
     * bound. */
    fdmod_t *S = fdmod_sphere();
    fdmod_t *M = fdmod_new_shifted(S, 3, "S_2[3]");
    char err[1024];
    for (int k = 0; k < 2; k++) {
        sq_store_t *st;
        ASSERT_EQ(sq_store_open_read(&st, k ? u : s, err, sizeof err), 0);
        resol_t *R = k ? resol_new(M, 6, 16) : resol_new_unstable(M, 6, 16);
        ASSERT_EQ(sq_store_load(st, R, 0, NULL, NULL, err, sizeof err), SQ_STORE_E_BINDING);
        ASSERT(strstr(err, k ? "keeps an unstable resolution, not a stable one"
                             : "keeps a stable resolution, not an unstable one"));
        resol_free(R);
        sq_store_close(st);
    }
    sq_store_t *st = NULL;
    sq_store_binding_t bn = {
        .module = M, .engine = RESOL_NASSAU, .max_s = 6, .max_n = 16, .unstable = 1};
    ASSERT_EQ(sq_store_open(&st, st_path(dir, "n.db"), &bn, err, sizeof err), SQ_E_INVAL);
    ASSERT(st == NULL && access(st_path(dir, "n.db"), F_OK) != 0);
    /* A damaged category is refused, not read as another kind. */
    put_meta(u, "category", "stable");
    sq_test_run_t x = sq_test_runf("ext %s", u);
    ASSERT_EQ(x.rc, 1);
    ASSERT(strstr(x.err, "unknown category 'stable'") != NULL);
    sq_test_run_free(&a), sq_test_run_free(&b), sq_test_run_free(&x);
    fdmod_free(M);
    fdmod_free(S);
    st_tmpdir_remove(dir);
}

/* 64-bit FNV-1a as 16 hex digits (the module hash, docs/save-format.md 4.3). */
static void fnv_hex(char out[17], const char *text)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* A forged store: an unstable store whose module text (with its hash and
 * every row's checksum recomputed) is a module that is not unstable (Sq^4
 * on a class of degree 3).  check reports it damaged, naming the
 * operation, and chart --from refuses it in one line: no abort. */
TEST(store_unstable_forged_module)
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "f.db");
    sq_test_run_t a = sq_test_runf("resolve S^3 --stem 12 --max-s 4 --quiet --save %s", f);
    ASSERT_EQ(a.rc, 0);
    const char *text = "{\"p\":2,\"profile\":[],\"degrees\":[3,7],\"actions\":{\"Sq(4)\":[[0,[1]]]}}";
    char hash[17];
    fnv_hex(hash, text);
    put_meta(f, "module", text);
    put_meta(f, "module_hash", hash);
    int rows = 0;
    for (int32_t s = 0; s <= 4; s++)
        for (int32_t t = s + 3; t <= s + 12; t++) {
            st_row_t r;
            if (!st_get_row(f, s, t, &r))
                continue;
            ASSERT_EQ(r.codec, 0);
            uint32_t crc = st_row_crc(f, s, t, r.ngens, r.nbits, r.data, r.len);
            st_put_row(f, s, t, r.ngens, r.nbits, 0, r.rawlen, r.data, r.len, crc);
            sq_free(r.data);
            rows++;
        }
    ASSERT_EQ(rows, 50);
    sq_test_run_t c = sq_test_runf("check %s", f);
    ASSERT_EQ(c.rc, 1);
    ASSERT(strstr(c.out, "keeps an unstable resolution, but its module is not one") &&
           strstr(c.out, "Sq4 x0 != 0") && strstr(c.out, "DAMAGED\n"));
    sq_test_run_t d = sq_test_runf("chart --from %s --format json", f);
    ASSERT_EQ(d.rc, 2);
    ASSERT(strstr(d.err, "is not unstable: Sq4 x0 != 0") && sq_test_count_lines(d.err) == 1);
    sq_test_run_free(&a), sq_test_run_free(&c), sq_test_run_free(&d);
    st_tmpdir_remove(dir);
}

/* At p = 3: S_3[3] --unstable --save, ext and check --full. */
TEST(store_unstable_odd)
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "u3.db");
    sq_test_run_t plain = sq_test_runf("resolve S_3[3] --unstable --stem 40 --max-s 8 --quiet");
    sq_test_run_t saved =
        sq_test_runf("resolve S_3[3] --unstable --stem 40 --max-s 8 --quiet --save %s", f);
    ASSERT(plain.rc == 0 && saved.rc == 0);
    ASSERT_STR_EQ(saved.out, plain.out);
    sq_test_run_t ext = sq_test_runf("ext %s", f);
    ASSERT_EQ(ext.rc, 0);
    ASSERT_STR_EQ(ext.out, plain.out);
    sq_test_run_t chk = sq_test_runf("check %s --full", f);
    if (chk.rc != 0 || !ends_ok(chk.out))
        sq_test_fail(__FILE__, __LINE__, "check: exit %d\n%s%s", chk.rc, chk.out, chk.err);
    assert_value(f, "SELECT value FROM meta WHERE key = 'prime'", "3");
    sq_test_run_free(&plain), sq_test_run_free(&saved), sq_test_run_free(&ext);
    sq_test_run_free(&chk);
    st_tmpdir_remove(dir);
}
