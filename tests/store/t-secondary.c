/*
 * t-secondary.c -- the secondary lift kept in a store (issue 22 item 2;
 * docs/save-format.md section 9): `adams d2 --save` killed at any moment
 * and resumed prints the d_2 of an uninterrupted run byte for byte; a
 * smaller stem extended gives a direct run's lines and the same records;
 * `d2 --from` reads the kept rows (a damaged record is a one-line
 * refusal, not a recomputation); a record from a foreign store fails its
 * checksum; `adams check` reports the kept rows and finds the damage; the
 * store stays format 3 and `adams resolve --save` still extends it.
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_test.h"
#include "store_test.h"

/* The rows of a query on the store at path, one line each ('|' between
 * columns, blobs as hex): a new string (sq_free). */
static char *dump(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    ASSERT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q = NULL;
    ASSERT_EQ(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
    size_t cap = 1 << 16, n = 0;
    char *out = sq_malloc(cap);
    out[0] = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(q); c++) {
            const unsigned char *b = sqlite3_column_blob(q, c);
            size_t len = (size_t)sqlite3_column_bytes(q, c);
            if (n + 2 * len + 64 > cap) {
                cap = 2 * (n + 2 * len + 64);
                out = sq_realloc(out, cap);
            }
            if (sqlite3_column_type(q, c) == SQLITE_BLOB)
                for (size_t i = 0; i < len; i++)
                    n += (size_t)sprintf(out + n, "%02x", b[i]);
            else
                n += (size_t)sprintf(out + n, "%lld", (long long)sqlite3_column_int64(q, c));
            out[n++] = c + 1 < sqlite3_column_count(q) ? '|' : '\n';
            out[n] = 0;
        }
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return out;
}

#define HOMS "SELECT s, t, ngens, nbits, codec, rawlen, data FROM sec_hom ORDER BY s, t"

/* Killed (SIGKILL) at four moments, then the same command: the lines of an
 * uninterrupted run, its step rows, and `adams check` ok. */
TEST(store_secondary_kill_resume)
{
    static const long delays_us[4] = {20000, 120000, 300000, 700000};
    st_kill_resume_verb("d2", "S_2", 50, 20, delays_us);
}

/* Through stem 30, then 40 into the same store: the lines of a direct run
 * through 40, the same records as a direct --save, check ok; read back by
 * --from at both stems. */
TEST(store_secondary_extend)
{
    char *dir = st_tmpdir_new();
    const char *a = st_path(dir, "a.db"), *b = st_path(dir, "b.db");
    const char *m = "S_2 --algorithm classical --max-s 14 --quiet";
    sq_test_run_t ref = sq_test_runf("d2 %s --stem 40", m);
    sq_test_run_t ref30 = sq_test_runf("d2 %s --stem 30", m);
    ASSERT_EQ(ref.rc, 0);
    ASSERT(sq_test_count_lines(ref.out) > 60);
    sq_test_run_t r1 = sq_test_runf("d2 %s --stem 30 --save %s", m, a);
    ASSERT_EQ(r1.rc, 0);
    ASSERT_STR_EQ(r1.out, ref30.out);
    sq_test_run_t r2 = sq_test_runf("d2 %s --stem 40 --save %s", m, a);
    ASSERT_EQ(r2.rc, 0);
    ASSERT_STR_EQ(r2.out, ref.out);
    sq_test_run_t r3 = sq_test_runf("d2 %s --stem 40 --save %s", m, b);
    ASSERT_EQ(r3.rc, 0);
    char *ha = dump(a, HOMS), *hb = dump(b, HOMS);
    ASSERT(strlen(ha) > 1000);
    ASSERT_STR_EQ(ha, hb);
    sq_test_run_t f1 = sq_test_runf("d2 --from %s --quiet", a);
    ASSERT_EQ(f1.rc, 0);
    ASSERT_STR_EQ(f1.out, ref.out);
    sq_test_run_t f2 = sq_test_runf("d2 --from %s --stem 30 --max-s 14 --quiet", a);
    ASSERT_EQ(f2.rc, 0);
    ASSERT_STR_EQ(f2.out, ref30.out);
    sq_test_run_t c = sq_test_runf("check %s", a);
    ASSERT_EQ(c.rc, 0);
    ASSERT(strstr(c.out, "secondary lift: 12 rows,") != NULL);
    ASSERT(strstr(c.out, "0 damaged; d_2 d_2 = 0 ok on") != NULL);
    sq_free(ha), sq_free(hb);
    sq_test_run_free(&ref), sq_test_run_free(&ref30), sq_test_run_free(&r1);
    sq_test_run_free(&r2), sq_test_run_free(&r3), sq_test_run_free(&f1);
    sq_test_run_free(&f2), sq_test_run_free(&c);
    st_tmpdir_remove(dir);
}

/* Expects a one-line refusal naming the record (s=5, t=20) (exit 1). */
static void expect_damaged(const sq_test_run_t *r, const char *what)
{
    if (r->rc != 1 || r->out[0] || sq_test_count_lines(r->err) != 1 ||
        !strstr(r->err, "secondary record (s=5, t=20) is damaged"))
        sq_test_fail(__FILE__, __LINE__, "%s: want one line naming the damaged record; got "
                                         "exit %d\n--- stdout\n%.300s\n--- stderr\n%s",
                     what, r->rc, r->out, r->err);
}

/* A flipped byte in a kept record, and a record copied from another store
 * of the same module (data and checksum): d2 --from and the resuming
 * d2 --save refuse in one line naming it (they read the rows, they do not
 * lift again); adams check says DAMAGED. */
TEST(store_secondary_damaged_or_foreign)
{
    char *dir = st_tmpdir_new();
    const char *a = st_path(dir, "a.db"), *b = st_path(dir, "b.db");
    const char *m = "S_2 --algorithm classical --stem 30 --max-s 10 --quiet";
    sq_test_run_t r = sq_test_runf("d2 %s --save %s", m, a);
    ASSERT_EQ(r.rc, 0);
    sq_test_run_t rb = sq_test_runf("d2 %s --save %s", m, b);
    ASSERT_EQ(rb.rc, 0);
    ASSERT_STR_EQ(r.out, rb.out);
    char *before = dump(a, "SELECT data FROM sec_hom WHERE s = 5 AND t = 20");
    ASSERT(strlen(before) > 2);
    for (int round = 0; round < 2; round++) {
        if (round == 0) /* a changed byte */
            st_sql(a, "UPDATE sec_hom SET data = CASE WHEN substr(data, 1, 1) = X'01' THEN X'02' "
                      "ELSE X'01' END || substr(data, 2) WHERE s = 5 AND t = 20");
        else { /* the foreign record: b's bytes and checksum (b's store_id differs) */
            char sql[512];
            snprintf(sql, sizeof sql, "ATTACH '%s' AS o", b);
            sqlite3 *db = NULL;
            ASSERT_EQ(sqlite3_open(a, &db), SQLITE_OK);
            ASSERT_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
            ASSERT_EQ(sqlite3_exec(db,
                                   "INSERT OR REPLACE INTO main.sec_hom SELECT * FROM o.sec_hom "
                                   "WHERE s = 5 AND t = 20",
                                   NULL, NULL, NULL),
                      SQLITE_OK);
            sqlite3_close(db);
            char *now = dump(a, "SELECT data FROM sec_hom WHERE s = 5 AND t = 20");
            ASSERT_STR_EQ(now, before); /* the same bytes: only the binding differs */
            sq_free(now);
        }
        sq_test_run_t f = sq_test_runf("d2 --from %s --quiet", a);
        expect_damaged(&f, "d2 --from");
        sq_test_run_t s = sq_test_runf("d2 %s --save %s", m, a);
        if (s.rc != 1 || !strstr(s.err, "secondary record (s=5, t=20) is damaged") ||
            !strstr(s.err, "adams check"))
            sq_test_fail(__FILE__, __LINE__, "d2 --save: want the damage named; got exit %d\n%s",
                         s.rc, s.err);
        sq_test_run_t c = sq_test_runf("check %s", a);
        ASSERT_EQ(c.rc, 1);
        ASSERT(strstr(c.out, "secondary record (s=5, t=20) is damaged") != NULL);
        ASSERT(strstr(c.out, "\nDAMAGED\n") != NULL);
        sq_test_run_free(&f), sq_test_run_free(&s), sq_test_run_free(&c);
    }
    sq_free(before);
    sq_test_run_free(&r), sq_test_run_free(&rb);
    st_tmpdir_remove(dir);
}

/* A store with the lift is still format 3 (user_version 3, the tables
 * added): ext reads it, resolve --save extends its steps, check is ok;
 * a store that never kept a lift has no such tables. */
TEST(store_secondary_format_unchanged)
{
    char *dir = st_tmpdir_new();
    const char *a = st_path(dir, "a.db"), *p = st_path(dir, "p.db");
    sq_test_run_t r = sq_test_runf("d2 S_2 --stem 24 --max-s 9 --quiet --save %s", a);
    ASSERT_EQ(r.rc, 0);
    char *v = dump(a, "PRAGMA user_version");
    ASSERT_STR_EQ(v, "3\n");
    sq_test_run_t x = sq_test_runf("resolve S_2 --stem 30 --max-s 12 --quiet --save %s", a);
    ASSERT_EQ(x.rc, 0);
    sq_test_run_t e = sq_test_runf("ext %s --stem 30 --max-s 12", a);
    ASSERT_EQ(e.rc, 0);
    sq_test_run_t c = sq_test_runf("check %s", a);
    ASSERT_EQ(c.rc, 0);
    ASSERT(strstr(c.out, "secondary lift: 7 rows") != NULL);
    sq_test_run_t d = sq_test_runf("d2 --from %s --stem 24 --max-s 9 --quiet", a);
    ASSERT_EQ(d.rc, 0);
    ASSERT_STR_EQ(d.out, r.out);
    sq_test_run_t q = sq_test_runf("resolve S_2 --stem 24 --max-s 9 --quiet --save %s", p);
    ASSERT_EQ(q.rc, 0);
    char *t = dump(p, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'sec%'");
    ASSERT_STR_EQ(t, "0\n");
    sq_test_run_t cp = sq_test_runf("check %s", p);
    ASSERT_EQ(cp.rc, 0);
    ASSERT(strstr(cp.out, "secondary") == NULL);
    sq_free(v), sq_free(t);
    sq_test_run_free(&r), sq_test_run_free(&x), sq_test_run_free(&e), sq_test_run_free(&c);
    sq_test_run_free(&d), sq_test_run_free(&q), sq_test_run_free(&cp);
    st_tmpdir_remove(dir);
}

/* resolve --page 3 --save keeps the lift as d2 --save does: the E_3 csv
 * of a run without a store, the same after a resume that computes nothing
 * of the lift, and the kept rows read by d2 --from. */
TEST(store_secondary_page3)
{
    char *dir = st_tmpdir_new();
    const char *a = st_path(dir, "a.db");
    const char *m = "resolve S_2 --page 3 --format csv --stem 24 --max-s 8";
    sq_test_run_t ref = sq_test_runf("%s --quiet", m);
    ASSERT_EQ(ref.rc, 0);
    sq_test_run_t r1 = sq_test_runf("%s --quiet --save %s", m, a);
    ASSERT_EQ(r1.rc, 0);
    ASSERT_STR_EQ(r1.out, ref.out);
    sq_test_run_t r2 = sq_test_runf("%s --save %s", m, a);
    ASSERT_EQ(r2.rc, 0);
    ASSERT_STR_EQ(r2.out, ref.out);
    ASSERT(strstr(r2.err, " 0 computed") != NULL);
    sq_test_run_t c = sq_test_runf("check %s", a);
    ASSERT_EQ(c.rc, 0);
    ASSERT(strstr(c.out, "secondary lift: 8 rows") != NULL);
    sq_test_run_free(&ref), sq_test_run_free(&r1), sq_test_run_free(&r2), sq_test_run_free(&c);
    st_tmpdir_remove(dir);
}

/* A meta value of the store at path (a new string). */
static char *meta(sqlite3 *db, const char *key)
{
    sqlite3_stmt *q = NULL;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    const char *v = (const char *)sqlite3_column_text(q, 0);
    char *r = sq_malloc(strlen(v) + 1);
    strcpy(r, v);
    sqlite3_finalize(q);
    return r;
}

/* Every raw record's vectors changed by the first coordinate, with its
 * checksum recomputed from the specification (docs/save-format.md 9):
 * the checksums pass, the homotopies no longer satisfy their equation.
 * Returns the records changed. */
static int forge_all(const char *path)
{
    sqlite3 *db = NULL;
    ASSERT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    char *id = meta(db, "store_id"), *eng = meta(db, "engine"), *hash = meta(db, "module_hash");
    unsigned char pre[256];
    size_t np = 0;
    const char *parts[4] = {"adams sec hom", id, eng, hash};
    for (int i = 0; i < 4; i++) {
        memcpy(pre + np, parts[i], strlen(parts[i]) + 1);
        np += strlen(parts[i]) + 1;
    }
    sqlite3_stmt *q = NULL, *u = NULL;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT s, t, ngens, nbits, data FROM sec_hom WHERE codec = 0 "
                                 "AND rawlen > 0",
                                 -1, &q, NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE sec_hom SET data = ?, crc = ? WHERE s = ? AND t = ?",
                                 -1, &u, NULL),
              SQLITE_OK);
    int n = 0;
    ASSERT_EQ(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW) {
        int64_t s = sqlite3_column_int64(q, 0), t = sqlite3_column_int64(q, 1);
        int64_t k = sqlite3_column_int64(q, 2), nbits = sqlite3_column_int64(q, 3);
        size_t len = (size_t)sqlite3_column_bytes(q, 4);
        unsigned char *buf = sq_malloc(np + 24 + len);
        memcpy(buf, pre, np);
        unsigned char *h = buf + np, *d = h + 24;
        for (int i = 0; i < 4; i++) {
            h[i] = (unsigned char)(s >> (8 * i));
            h[4 + i] = (unsigned char)(t >> (8 * i));
        }
        for (int i = 0; i < 8; i++) {
            h[8 + i] = (unsigned char)(k >> (8 * i));
            h[16 + i] = (unsigned char)(nbits >> (8 * i));
        }
        memcpy(d, sqlite3_column_blob(q, 4), len);
        for (int64_t g = 0; g < k; g++)
            d[(size_t)g * (len / (size_t)k)] ^= 1; /* coordinate 0 of each vector */
        uint32_t crc = st_crc32c(buf, np + 24 + len);
        sqlite3_bind_blob(u, 1, d, (int)len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(u, 2, crc);
        sqlite3_bind_int64(u, 3, s);
        sqlite3_bind_int64(u, 4, t);
        ASSERT_EQ(sqlite3_step(u), SQLITE_DONE);
        sqlite3_reset(u);
        sq_free(buf);
        n++;
    }
    ASSERT_EQ(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_finalize(q);
    sqlite3_finalize(u);
    sqlite3_close(db);
    sq_free(id), sq_free(eng), sq_free(hash);
    return n;
}

/* Kept homotopies that fail their defining equation, under valid
 * checksums: adams check finds it at its sample (the equation solved
 * again from the kept row below) and says DAMAGED; the intact store's
 * check says ok with the equation checked on some generators. */
TEST(store_secondary_check_equation)
{
    char *dir = st_tmpdir_new();
    const char *a = st_path(dir, "a.db");
    sq_test_run_t r = sq_test_runf("d2 S_2 --algorithm classical --stem 20 --max-s 8 --quiet "
                                   "--save %s",
                                   a);
    ASSERT_EQ(r.rc, 0);
    sq_test_run_t c0 = sq_test_runf("check %s", a);
    ASSERT_EQ(c0.rc, 0);
    ASSERT(strstr(c0.out, "the defining equation ok on ") != NULL);
    ASSERT(strstr(c0.out, "the defining equation ok on 0 ") == NULL);
    ASSERT(forge_all(a) > 10);
    sq_test_run_t c = sq_test_runf("check %s", a);
    ASSERT_EQ(c.rc, 1);
    if (!strstr(c.out, " 0 damaged;") || /* the checksums pass */
        !strstr(c.out, "the defining equation FAILED") || !strstr(c.out, "\nDAMAGED\n"))
        sq_test_fail(__FILE__, __LINE__, "check of the forged store:\n%s", c.out);
    sq_test_run_free(&r), sq_test_run_free(&c0), sq_test_run_free(&c);
    st_tmpdir_remove(dir);
}

/* Records and rows with counts no resolution has (a stem beyond any
 * int32, a negative filtration, a degree bound in the billions): check
 * names each as damaged without allocating by them, and d2 --from, which
 * never reads them or refuses the row in one line, does not crash. */
TEST(store_secondary_forged_counts)
{
    char *dir = st_tmpdir_new();
    const char *a = st_path(dir, "a.db");
    sq_test_run_t r = sq_test_runf("d2 S_2 --stem 20 --max-s 8 --quiet --save %s", a);
    ASSERT_EQ(r.rc, 0);
    st_sql(a, "INSERT INTO sec_hom VALUES(5, -3000000000, 1, 1, 0, 8, x'0000000000000000', 0)");
    st_sql(a, "INSERT INTO sec_hom VALUES(4, 9000000000, 1000000000, 1, 0, 8, x'00', 0)");
    st_sql(a, "INSERT INTO sec_hom VALUES(-7, 5, 1, 1, 0, 8, x'00', 0)");
    sq_test_run_t f = sq_test_runf("d2 --from %s --quiet", a);
    ASSERT_EQ(f.rc, 0);
    ASSERT_STR_EQ(f.out, r.out);
    sq_test_run_t c = sq_test_runf("check %s", a);
    ASSERT_EQ(c.rc, 1);
    ASSERT(strstr(c.out, "(s=4, t=9000000000) lies outside the stored resolution") != NULL);
    ASSERT(strstr(c.out, "(s=-7, t=5) lies outside") != NULL);
    ASSERT(strstr(c.out, "(s=5, t=-3000000000) lies outside") != NULL);
    st_sql(a, "UPDATE sec_row SET emax = 99999999999 WHERE s = 6");
    sq_test_run_t g = sq_test_runf("d2 --from %s --quiet", a);
    if (g.rc != 1 || sq_test_count_lines(g.err) != 1 || !strstr(g.err, "row s=6 is damaged"))
        sq_test_fail(__FILE__, __LINE__, "want one line naming the row; got %d\n%s", g.rc, g.err);
    sq_test_run_free(&r), sq_test_run_free(&f), sq_test_run_free(&c), sq_test_run_free(&g);
    st_tmpdir_remove(dir);
}
