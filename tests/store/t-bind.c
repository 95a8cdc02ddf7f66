/*
 * t-bind.c -- rows bound to their store (issue 20, row 2 and "What" 2),
 * hard limits on counts before allocation (row 7), old formats, the
 * journal left in a read-only place (row 16), the `done` region that never
 * shrinks, and `adams check` on one snapshot (row 20) and on the module of
 * an infinite kind (row 21).  Each fault gives "damaged" or a one-line
 * refusal naming the store and the row, never a wrong answer.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

#define BS 10 /* region of these tests */
#define BN 20

/* The first row (s, t) of the region whose bytes differ between the two
 * stores, with the same counts: 1 when found. */
static int differing_row(const char *a, const char *b, st_row_t *ra, st_row_t *rb)
{
    for (int32_t n = 0; n <= BN; n++)
        for (int32_t s = 0; s <= BS; s++) {
            if (!st_get_row(a, s, s + n, ra))
                continue;
            if (!st_get_row(b, s, s + n, rb)) {
                sq_free(ra->data);
                continue;
            }
            if (ra->ngens == rb->ngens && ra->nbits == rb->nbits && ra->ngens > 0 &&
                (ra->len != rb->len || memcmp(ra->data, rb->data, ra->len) != 0))
                return 1;
            sq_free(ra->data);
            sq_free(rb->data);
        }
    return 0;
}

/* Every reader of the library refuses the store as damaged at (s, t). */
static void expect_damaged(const char *p, int32_t s, int32_t t)
{
    char want[64], err[1024];
    snprintf(want, sizeof want, "(s=%d, t=%d) is damaged", (int)s, (int)t);
    sq_store_t *st;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    int64_t dims[(BN + 1) * (BS + 1)];
    ASSERT_EQ(sq_store_read_ext(st, BS, BN, dims, err, sizeof err), SQ_STORE_E_DAMAGED);
    if (!strstr(err, want) || !strstr(err, p))
        printf("read_ext: %s\n", err);
    ASSERT(strstr(err, want) && strstr(err, p));
    sq_store_check_report_t rep;
    ASSERT_EQ(sq_store_check(st, NULL, NULL, &rep, err, sizeof err), SQ_STORE_E_DAMAGED);
    ASSERT(rep.steps_damaged >= 1);
    sq_store_close(st);
    /* Resume (load): an error naming the row. */
    fdmod_t *M = st_sphere();
    ASSERT_EQ(st_run(p, M, RESOL_AUTO, BS, BN + 1, 1, -1, err, sizeof err), SQ_STORE_E_DAMAGED);
    ASSERT(strstr(err, want) != NULL);
    fdmod_free(M);
}

/* Row 2: a row copied, data and checksum, from a Nassau store into a
 * classical one of the same module (a different basis, a valid checksum
 * there); and from another classical store (the same bytes). */
TEST(store_spliced_row_detected)
{
    char *dir = st_tmpdir_new();
    const char *c = st_path(dir, "c.db"), *nas = st_path(dir, "n.db"), *c2 = st_path(dir, "c2.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(c, M, RESOL_CLASSICAL, BS, BN, 1, -1, err, sizeof err), 0);
    ASSERT_EQ(st_run(nas, M, RESOL_NASSAU, BS, BN, 1, -1, err, sizeof err), 0);
    ASSERT_EQ(st_run(c2, M, RESOL_CLASSICAL, BS, BN, 1, -1, err, sizeof err), 0);
    st_row_t rc, rn;
    ASSERT(differing_row(c, nas, &rc, &rn));
    printf("splicing the Nassau row (s=%d, t=%d) into the classical store\n", (int)rn.s,
           (int)rn.t);
    st_put_row(c, rn.s, rn.t, rn.ngens, rn.nbits, rn.codec, rn.rawlen, rn.data, rn.len, rn.crc);
    expect_damaged(c, rn.s, rn.t);
    /* Put the row back: the store is sound again. */
    st_put_row(c, rc.s, rc.t, rc.ngens, rc.nbits, rc.codec, rc.rawlen, rc.data, rc.len, rc.crc);
    ASSERT_EQ(st_run(c, M, RESOL_AUTO, BS, BN, 1, -1, err, sizeof err), 0);
    /* The same row from a twin store (same engine, same bytes): bound to
     * that store, so detected too. */
    st_row_t rt;
    ASSERT(st_get_row(c2, rc.s, rc.t, &rt));
    ASSERT(rt.len == rc.len && memcmp(rt.data, rc.data, rc.len) == 0);
    ASSERT(rt.crc != rc.crc);
    st_put_row(c, rt.s, rt.t, rt.ngens, rt.nbits, rt.codec, rt.rawlen, rt.data, rt.len, rt.crc);
    expect_damaged(c, rt.s, rt.t);
    /* Through the program: ext and check say damaged, naming the row. */
    char args[4096], *o, *e, want[64];
    snprintf(want, sizeof want, "(s=%d, t=%d)", (int)rt.s, (int)rt.t);
    snprintf(args, sizeof args, "ext %s", c);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
    ASSERT(strstr(e, want) && strstr(e, "damaged"));
    sq_free(o), sq_free(e);
    snprintf(args, sizeof args, "check %s", c);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
    ASSERT(strstr(o, want) && strstr(o, "DAMAGED"));
    sq_free(o), sq_free(e);
    for (int i = 0; i < 2; i++) { /* the --from readers */
        char cmd[4096];
        snprintf(cmd, sizeof cmd, i == 0 ? "chart --from %s --format json" : "products --from %s",
                 c);
        int r = sq_test_run_adams(cmd, &o, &e);
        ASSERT(r != 0 && strstr(e, want) && strstr(e, "damaged") && strlen(o) == 0);
        sq_free(o), sq_free(e);
    }
    sq_free(rc.data), sq_free(rn.data), sq_free(rt.data);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

/* Row 7: forged counts with a recomputed (valid, bound) checksum. */
TEST(store_forged_counts_damaged)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, BS, BN, 1, -1, err, sizeof err), 0);
    st_row_t r0;
    ASSERT(st_get_row(p, 0, 5, &r0)); /* M_5 = 0: no bits, no generator */
    ASSERT_EQ(r0.ngens, 0);
    ASSERT_EQ(r0.nbits, 0);
    static const int64_t forged[] = {INT64_MAX, (int64_t)1 << 40, 3};
    for (int i = 0; i < 3; i++) {
        int64_t g = forged[i];
        st_put_row(p, 0, 5, g, 0, 0, 0, NULL, 0, st_row_crc(p, 0, 5, g, 0, NULL, 0));
        expect_damaged(p, 0, 5);
        char args[4096], *o, *e;
        snprintf(args, sizeof args, "check %s", p);
        ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
        ASSERT(strstr(o, "(s=0, t=5) is damaged") && strstr(o, p) && strstr(o, "DAMAGED"));
        sq_free(o), sq_free(e);
        snprintf(args, sizeof args, "ext %s", p);
        ASSERT_EQ(sq_test_run_adams(args, &o, &e), 1);
        ASSERT(strstr(e, "(s=0, t=5) is damaged") != NULL);
        sq_free(o), sq_free(e);
    }
    st_put_row(p, 0, 5, r0.ngens, r0.nbits, r0.codec, r0.rawlen, r0.data, r0.len, r0.crc);
    /* Counts that agree with each other but claim gigabytes of vectors: a
     * zstd frame of zeros, tiny, that decompresses to 2 GiB.  Refused from
     * the sizes the steps before it give, before anything is allocated. */
    st_row_t r;
    ASSERT(st_get_row(p, 2, 12, &r));
    int64_t ng = (int64_t)1 << 16, nb = (int64_t)1 << 18; /* 2 GiB */
    st_put_row(p, 2, 12, ng, nb, 1, ng * (nb / 64) * 8, "\x28\xb5\x2f\xfd", 4,
               st_row_crc(p, 2, 12, ng, nb, NULL, 0));
    expect_damaged(p, 2, 12);
    sq_free(r.data);
    sq_free(r0.data);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

/* Rewrites a format-2 store (all rows raw) as format 1: no store_id,
 * unbound checksums. */
static void make_format1(const char *p)
{
    st_sql(p, "UPDATE step SET codec = codec"); /* the store exists */
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    sqlite3_stmt *q, *u;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT s, t, ngens, nbits, codec, data FROM step", -1, &q,
                                 NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE step SET crc = ?3 WHERE s = ?1 AND t = ?2", -1, &u,
                                 NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW) {
        ASSERT_EQ(sqlite3_column_int(q, 4), 0);
        int64_t s = sqlite3_column_int64(q, 0), t = sqlite3_column_int64(q, 1);
        int64_t ng = sqlite3_column_int64(q, 2), nb = sqlite3_column_int64(q, 3);
        size_t len = (size_t)sqlite3_column_bytes(q, 5);
        unsigned char *b = sq_malloc(24 + len);
        for (size_t i = 0; i < 4; i++) {
            b[i] = (unsigned char)((uint64_t)s >> (8 * i));
            b[4 + i] = (unsigned char)((uint64_t)t >> (8 * i));
        }
        for (size_t i = 0; i < 8; i++) {
            b[8 + i] = (unsigned char)((uint64_t)ng >> (8 * i));
            b[16 + i] = (unsigned char)((uint64_t)nb >> (8 * i));
        }
        if (len)
            memcpy(b + 24, sqlite3_column_blob(q, 5), len);
        sqlite3_bind_int64(u, 1, s);
        sqlite3_bind_int64(u, 2, t);
        sqlite3_bind_int64(u, 3, st_crc32c(b, 24 + len));
        ASSERT_EQ(sqlite3_step(u), SQLITE_DONE);
        sqlite3_reset(u);
        sq_free(b);
    }
    sqlite3_finalize(q);
    sqlite3_finalize(u);
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE meta SET value = '1', crc = %u WHERE key = 'format'",
             (unsigned)st_crc32c("format\0" "1", 8));
    ASSERT_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DELETE FROM meta WHERE key = 'store_id'; PRAGMA user_version = 1; "
                               "COMMIT",
                           NULL, NULL, NULL),
              SQLITE_OK);
    sqlite3_close(db);
}

/* Format 1 stores (rows not bound) are read and checked as before; a run
 * that would write one is refused with one line. */
TEST(store_format1_read_not_written)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "old.db"), *ref = st_path(dir, "ref.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 4, 8, 1, -1, err, sizeof err), 0);
    ASSERT_EQ(st_run(ref, M, RESOL_CLASSICAL, 4, 8, 1, -1, err, sizeof err), 0);
    make_format1(p);
    int64_t a[9 * 5], b[9 * 5];
    st_read_ext(p, 4, 8, a);
    st_read_ext(ref, 4, 8, b);
    ASSERT(memcmp(a, b, sizeof a) == 0);
    sq_store_t *st;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    sq_store_check_report_t rep;
    char *out = NULL;
    size_t outlen = 0;
    FILE *mf = open_memstream(&out, &outlen);
    ASSERT_EQ(sq_store_check(st, NULL, mf, &rep, err, sizeof err), 0);
    fclose(mf);
    ASSERT(strstr(out, "format 1: its rows are not bound") != NULL);
    free(out);
    sq_store_info_t info;
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT_EQ(info.format, 1);
    sq_store_close(st);
    sq_store_binding_t bd = {.module = M, .engine = RESOL_AUTO, .max_s = 4, .max_n = 9};
    ASSERT_EQ(sq_store_open(&st, p, &bd, err, sizeof err), SQ_STORE_E_FORMAT);
    ASSERT(strstr(err, "has format 1") && strstr(err, p) && !strchr(err, '\n'));
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

/* Row 16: a read-only folder holding x.db-wal but no x.db-shm. */
static const char *ro_path;
static int ro_read(void)
{
    sq_store_t *st;
    char err[1024] = "";
    int rc = sq_store_open_read(&st, ro_path, err, sizeof err);
    if (rc == 0) {
        sq_store_close(st);
        return 1;
    }
    if (rc != SQ_E_IO || !strstr(err, "must be recovered") || !strstr(err, "read-only")) {
        fprintf(stderr, "rc %d: %s\n", rc, err);
        return 2;
    }
    return 0;
}

TEST(store_readonly_wal_without_shm)
{
    char *dir = st_tmpdir_new();
    ASSERT_EQ(chmod(dir, 0755), 0);
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/ro", dir);
    ASSERT_EQ(mkdir(sub, 0755), 0);
    const char *p = st_path(sub, "x.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 4, 8, 1, -1, err, sizeof err), 0);
    /* A writer that dies after a commit leaves x.db-wal and x.db-shm. */
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        sq_store_test_kill_at(1, 1);
        st_run(p, M, RESOL_CLASSICAL, 4, 12, 1, -1, err, sizeof err);
        _exit(0);
    }
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFSIGNALED(status));
    char side[4200];
    snprintf(side, sizeof side, "%s-wal", p);
    struct stat sb;
    ASSERT(stat(side, &sb) == 0 && sb.st_size > 0);
    snprintf(side, sizeof side, "%s-shm", p);
    unlink(side);
    ASSERT_EQ(chmod(p, 0644), 0);
    ASSERT_EQ(chmod(sub, 0555), 0);
    ro_path = p;
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(77);
        _exit(ro_read());
    }
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status));
    int r = WEXITSTATUS(status);
    chmod(sub, 0755);
    if (r == 77) {
        printf("cannot drop root privileges: skipped\n");
        st_tmpdir_remove(dir);
        exit(77);
    }
    ASSERT_EQ(r, 0);
    /* Writable again: the journal is recovered and the run resumes. */
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 4, 12, 1, -1, err, sizeof err), 0);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

static void done_of(const char *p, int32_t *s, int32_t *n)
{
    sq_store_t *st;
    char err[1024];
    sq_store_info_t info;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    *s = info.done_s;
    *n = info.done_n;
    sq_store_close(st);
}

/* Issue 19: a later run of a smaller region keeps the completed region
 * (it grows to the rectangle spanning both when the store holds it). */
TEST(store_done_never_shrinks)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    int32_t s, n;
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 8, 20, 1, -1, err, sizeof err), 0);
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 5, 10, 1, -1, err, sizeof err), 0);
    done_of(p, &s, &n);
    ASSERT(s == 8 && n == 20);
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 10, 15, 1, -1, err, sizeof err), 0);
    done_of(p, &s, &n);
    ASSERT(s == 8 && n == 20); /* (10, 20) is not all stored */
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 10, 20, 1, -1, err, sizeof err), 0);
    done_of(p, &s, &n);
    ASSERT(s == 10 && n == 20);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

/* Row 20: `adams check` while a writer commits counts from one snapshot:
 * the generators it loads equal the ones it counts. */
TEST(store_check_one_snapshot)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 6, 10, 1, -1, err, sizeof err), 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        int rc = st_run(p, M, RESOL_CLASSICAL, 16, 40, 1, -1, err, sizeof err);
        _exit(rc == 0 ? 0 : 1);
    }
    int checks = 0, status;
    for (;;) {
        int fin = waitpid(pid, &status, WNOHANG) == pid;
        sq_store_t *st;
        ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
        char *out = NULL;
        size_t outlen = 0;
        FILE *f = open_memstream(&out, &outlen);
        sq_store_check_report_t rep;
        sq_store_check_opts_t o = {.spots = 2};
        int rc = sq_store_check(st, &o, f, &rep, err, sizeof err);
        fclose(f);
        sq_store_close(st);
        const char *g = strstr(out, "checksums; ");
        long long counted = -1;
        ASSERT(g && sscanf(g, "checksums; %lld generators", &counted) == 1);
        if (rc != 0 || counted != rep.generators)
            printf("%s", out);
        ASSERT_EQ(rc, 0);
        ASSERT_EQ(counted, rep.generators);
        free(out);
        checks++;
        if (fin)
            break;
    }
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    printf("%d checks while the writer ran\n", checks);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

/* A forged row far from the others (s = 30000, a valid bound checksum):
 * `adams check` reports it as unusable instead of building a resolution
 * 30000 rows tall (it asked for 28 GB). */
TEST(store_check_orphan_row)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, 4, 8, 1, -1, err, sizeof err), 0);
    st_put_row(p, 30000, 30005, 0, 0, 0, 0, NULL, 0, st_row_crc(p, 30000, 30005, 0, 0, NULL, 0));
    sq_store_t *st;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    sq_store_check_report_t rep;
    ASSERT_EQ(sq_store_check(st, NULL, NULL, &rep, err, sizeof err), SQ_STORE_E_DAMAGED);
    ASSERT_EQ(rep.steps_unreachable, 1);
    ASSERT_EQ(rep.steps_damaged, 0);
    sq_store_close(st);
    /* The readers of the region are not affected. */
    int64_t dims[9 * 5];
    st_read_ext(p, 4, 8, dims);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}
