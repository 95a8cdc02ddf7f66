/*
 * t-odd.c -- the store at an odd prime (format 3, docs/save-format.md):
 * the E2 page of S_3 read back equals the peer's table and the plain run,
 * a stopped run resumes and an extended one grows to the same bytes as an
 * uninterrupted run, `check` passes and finds a changed residue, the
 * golden bytes of the residue layout, the canonical module text at p = 3,
 * the prime in the binding, and the format-2 store kept in tests/data
 * (written by adams before format 3) read and extended in place.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_store.h"
#include "sq_test.h"
#include "stalg.h"
#include "store_test.h"

#define OS 14 /* the region of these tests: s <= 14, n <= 44 */
#define ON 44

/* The peer's dimensions of Ext of S_3 (tests/data/ext-S3-n100-s30.csv) for
 * the region: dims[n * (OS + 1) + s]. */
static void peer_dims(int64_t *dims)
{
    FILE *f = fopen(SQ_TEST_DATA_DIR "/ext-S3-n100-s30.csv", "r");
    ASSERT(f != NULL);
    char line[256];
    int64_t seen = 0;
    while (fgets(line, sizeof line, f)) {
        int n, s, d;
        if (line[0] == '#' || sscanf(line, "%d,%d,%d", &n, &s, &d) != 3)
            continue;
        if (n <= ON && s <= OS) {
            dims[n * (OS + 1) + s] = d;
            seen++;
        }
    }
    fclose(f);
    ASSERT_EQ(seen, (int64_t)(ON + 1) * (OS + 1));
}

static void run_p3(const char *p, int32_t s, int32_t n, int threads, int64_t stop, int want)
{
    fdmod_t *M = fdmod_sphere_p(3);
    char err[1024];
    int rc = st_run(p, M, RESOL_AUTO, s, n, threads, stop, err, sizeof err);
    if (rc != want)
        sq_test_fail(__FILE__, __LINE__, "run (%d, %d) of %s: %d, want %d (%s)", (int)s, (int)n,
                     p, rc, want, err);
    fdmod_free(M);
}

/* The metadata value of key in the store at path (a static buffer). */
static const char *meta(const char *path, const char *key)
{
    static char v[256];
    sqlite3 *db;
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    snprintf(v, sizeof v, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

TEST(store_odd_ext_equals_peer_and_plain_run)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s3.db");
    run_p3(p, OS, ON, 2, -1, 0);
    static int64_t got[(ON + 1) * (OS + 1)], peer[(ON + 1) * (OS + 1)];
    st_read_ext(p, OS, ON, got);
    peer_dims(peer);
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, OS, ON);
    resol_run(R, RESOL_CLASSICAL);
    int64_t nonzero = 0;
    for (int32_t n = 0; n <= ON; n++)
        for (int32_t s = 0; s <= OS; s++) {
            int64_t d = got[n * (OS + 1) + s];
            if (d != peer[n * (OS + 1) + s] || d != resol_ext_dim(R, s, n))
                sq_test_fail(__FILE__, __LINE__, "(n=%d, s=%d): store %lld, peer %lld, run %lld",
                             (int)n, (int)s, (long long)d, (long long)peer[n * (OS + 1) + s],
                             (long long)resol_ext_dim(R, s, n));
            nonzero += d > 0;
        }
    ASSERT(nonzero > 30);
    resol_free(R);
    fdmod_free(M);
    sq_store_t *st;
    char err[1024];
    sq_store_info_t info;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT_EQ(info.format, 3);
    ASSERT_EQ(info.prime, 3);
    ASSERT(info.done_s == OS && info.done_n == ON);
    sq_store_close(st);
    ASSERT_STR_EQ(meta(p, "prime"), "3");
    ASSERT_STR_EQ(meta(p, "format"), "3");
    ASSERT_STR_EQ(meta(p, "module"), "{\"p\":3,\"profile\":[],\"degrees\":[0],\"actions\":{}}");
    st_tmpdir_remove(dir);
}

/* Runs stopped after k steps, resumed with other thread counts, give the
 * records of the uninterrupted run. */
TEST(store_odd_resume_same_bytes)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db");
    run_p3(ref, OS, ON, 1, -1, 0);
    static const int64_t stops[] = {1, 37, 200};
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "r%d.db", i);
        const char *p = st_path(dir, name);
        run_p3(p, OS, ON, 1 + i, stops[i], 1);
        run_p3(p, OS, ON, 3 - i, -1, 0);
        st_assert_same_steps(ref, p, OS, ON);
    }
    st_tmpdir_remove(dir);
}

/* A larger --stem and --max-s extend the store to the bytes of a run of the
 * larger region. */
TEST(store_odd_extend)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    run_p3(ref, OS, ON, 2, -1, 0);
    run_p3(p, 6, 20, 1, -1, 0);
    run_p3(p, 10, 30, 2, -1, 0);
    run_p3(p, OS, ON, 2, -1, 0);
    st_assert_same_steps(ref, p, OS, ON);
    sq_store_t *st;
    char err[1024];
    sq_store_info_t info;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT(info.done_s == OS && info.done_n == ON);
    sq_store_close(st);
    st_tmpdir_remove(dir);
}

/* The first stored row (in (t, s) order) with s >= 1, ngens > 0 and nbits
 * > 0, stored raw. */
static void find_odd_row(const char *p, st_row_t *r)
{
    for (int32_t t = 1; t <= ON + OS; t++)
        for (int32_t s = 1; s <= OS && s <= t; s++)
            if (st_get_row(p, s, t, r)) {
                if (r->ngens > 0 && r->nbits > 0 && r->codec == 0 && r->s >= 2)
                    return;
                sq_free(r->data);
            }
    sq_test_fail(__FILE__, __LINE__, "no row to change in %s", p);
}

static int check_store(const char *p, sq_store_check_report_t *rep, char *err, size_t errlen)
{
    sq_store_t *st;
    ASSERT_EQ(sq_store_open_read(&st, p, err, errlen), 0);
    sq_store_check_opts_t o = {.full = 1, .threads = 2};
    int rc = sq_store_check(st, &o, NULL, rep, err, errlen);
    sq_store_close(st);
    return rc;
}

/* check passes on a p = 3 store; a residue changed (its checksum
 * recomputed, as a forger would) fails d o d = 0 or minimality; an entry
 * that is not a residue is damaged with one line naming it. */
TEST(store_odd_check_finds_changed_residue)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "p.db"), *q = st_path(dir, "q.db");
    run_p3(p, OS, ON, 2, -1, 0);
    sq_store_check_report_t rep;
    char err[1024];
    ASSERT_EQ(check_store(p, &rep, err, sizeof err), 0);
    ASSERT(rep.dd_checked > 50 && rep.dd_failed == 0 && rep.spots_failed == 0);
    ASSERT(rep.module_rebuilt);
    st_row_t r;
    find_odd_row(p, &r);
    ASSERT_EQ(r.rawlen, r.ngens * r.nbits); /* one residue a byte */
    int64_t k = 0;
    while (k < (int64_t)r.len && r.data[k] == 0)
        k++;
    ASSERT(k < (int64_t)r.len);
    for (int mode = 0; mode < 2; mode++) {
        st_sql(p, "PRAGMA journal_mode=DELETE");
        unsigned char *b = sq_malloc(r.len);
        memcpy(b, r.data, r.len);
        b[k] = (unsigned char)(mode == 0 ? (b[k] + 1) % 3 : 3);
        FILE *src = fopen(p, "rb"), *dst = fopen(q, "wb");
        ASSERT(src && dst);
        char buf[65536];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, src)) > 0)
            ASSERT_EQ(fwrite(buf, 1, got, dst), got);
        fclose(src);
        ASSERT_EQ(fclose(dst), 0);
        uint32_t crc = st_row_crc(q, r.s, r.t, r.ngens, r.nbits, b, r.len);
        st_put_row(q, r.s, r.t, r.ngens, r.nbits, 0, r.rawlen, b, r.len, crc);
        sq_free(b);
        int rc = check_store(q, &rep, err, sizeof err);
        ASSERT_EQ(rc, SQ_STORE_E_DAMAGED);
        ASSERT(!strchr(err, '\n'));
        if (mode == 0) {
            ASSERT(rep.dd_failed + rep.spots_failed > 0);
            ASSERT_EQ(rep.steps_damaged, 0);
        } else {
            ASSERT(rep.steps_damaged > 0);
            sq_store_t *st;
            int64_t dims[(ON + 1) * (OS + 1)];
            ASSERT_EQ(sq_store_open_read(&st, q, err, sizeof err), 0);
            ASSERT_EQ(sq_store_read_ext(st, OS, ON, dims, err, sizeof err), SQ_STORE_E_DAMAGED);
            sq_store_close(st);
            ASSERT(strstr(err, "is not a residue mod 3") != NULL);
            ASSERT(!strchr(err, '\n'));
        }
    }
    sq_free(r.data);
    st_tmpdir_remove(dir);
}

/* Golden records at p = 3, frozen: (s=1, t=1) a_0 with d(a_0) = beta g_0
 * (Q_0, the one element of A_1: 1 entry, residue 1) and (s=1, t=4) h_0 with
 * d(h_0) = P^1 g_0 (P(1), the one element of A_4: 1 entry, residue 1);
 * (s=2, t=2) a_0^2: d = beta a_0 over F_1 in degree 2 below 2, i.e. A_1 on
 * a_0 (1 entry): 01.  The checksum is recomputed from the spec. */
TEST(store_odd_golden_bytes)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "g.db");
    run_p3(p, 3, 6, 1, -1, 0);
    static const struct {
        int s, t, ngens, nbits;
        unsigned char byte;
    } want[] = {{1, 1, 1, 1, 0x01}, {1, 4, 1, 1, 0x01}, {2, 2, 1, 1, 0x01}};
    for (int i = 0; i < 3; i++) {
        st_row_t r;
        ASSERT(st_get_row(p, want[i].s, want[i].t, &r));
        ASSERT_EQ(r.ngens, want[i].ngens);
        ASSERT_EQ(r.nbits, want[i].nbits);
        ASSERT_EQ(r.codec, 0);
        ASSERT_EQ(r.rawlen, want[i].ngens * want[i].nbits);
        ASSERT_EQ(r.len, (size_t)r.rawlen);
        ASSERT_EQ(r.data[0], want[i].byte);
        ASSERT_EQ(r.crc, st_row_crc(p, r.s, r.t, r.ngens, r.nbits, r.data, r.len));
        sq_free(r.data);
    }
    st_tmpdir_remove(dir);
}

/* A module at p = 3 on cells x0 and y (degree d): op x0 = c y for the
 * algebra generator op of degree d (1: beta, 4: P^1), coefficient c. */
static fdmod_t *two_cells(const char *name, int32_t d, uint32_t c)
{
    stalg_t *S = stalg_new(3, 8, NULL);
    fdmod_t *M = fdmod_new_p(name, 3, 0, d);
    fdmod_add_basis(M, 0, NULL);
    fdmod_add_basis(M, d, NULL);
    fvec_t v;
    fvec_init(&v, 1, 3);
    fvec_set(v, 0, c);
    fdmod_set_genf(M, S, d, 0, 0, v);
    fvec_clear(&v);
    char err[256];
    if (fdmod_complete_alg(M, S, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    stalg_free(S);
    return M;
}

/* The canonical text at p = 3 (golden), and the module rebuilt from it. */
TEST(store_odd_module_text)
{
    static const struct {
        const char *name;
        int32_t d;
        uint32_t c;
        const char *text;
    } cases[] = {
        {"S_3", 0, 0, "{\"p\":3,\"profile\":[],\"degrees\":[0],\"actions\":{}}"},
        {"C3", 1, 1, "{\"p\":3,\"profile\":[],\"degrees\":[0,1],\"actions\":{\"Q_0\":[[0,[[1,1]]]]}}"},
        {"Ca1", 4, 2, "{\"p\":3,\"profile\":[],\"degrees\":[0,4],\"actions\":{\"P(1)\":[[0,[[1,2]]]]}}"},
    };
    for (int i = 0; i < 3; i++) {
        fdmod_t *M = cases[i].d ? two_cells(cases[i].name, cases[i].d, cases[i].c)
                                : fdmod_sphere_p(3);
        char *t = sq_store_module_text(M);
        ASSERT_STR_EQ(t, cases[i].text);
        fdmod_t *B = NULL;
        char err[256];
        ASSERT_EQ(sq_store_module_from_text(&B, t, "again", err, sizeof err), 0);
        ASSERT(B != NULL);
        ASSERT_EQ(fdmod_prime(B), 3);
        ASSERT_EQ(fdmod_top(B), cases[i].d);
        char *t2 = sq_store_module_text(B);
        ASSERT_STR_EQ(t2, t);
        sq_free(t2);
        sq_free(t);
        fdmod_free(B);
        fdmod_free(M);
    }
    /* Texts that are not canonical rebuild nothing: a coefficient 3 (not a
     * residue), a coefficient 0, spaces, an unknown operation. */
    static const char *const bad[] = {
        "{\"p\":3,\"profile\":[],\"degrees\":[0,4],\"actions\":{\"P(1)\":[[0,[[1,3]]]]}}",
        "{\"p\":3,\"profile\":[],\"degrees\":[0,4],\"actions\":{\"P(1)\":[[0,[[1,0]]]]}}",
        "{\"p\":3, \"profile\":[],\"degrees\":[0,4],\"actions\":{}}",
        "{\"p\":3,\"profile\":[],\"degrees\":[0,4],\"actions\":{\"P(2)\":[[0,[[1,1]]]]}}",
        "{\"p\":4,\"profile\":[],\"degrees\":[0],\"actions\":{}}",
        "{\"p\":3,\"profile\":[],\"degrees\":[0,9000],\"actions\":{}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        fdmod_t *C = NULL;
        char err[256];
        int rc = sq_store_module_from_text(&C, bad[i], "bad", err, sizeof err);
        if (C != NULL || (rc != 0 && rc != SQ_E_PARSE))
            sq_test_fail(__FILE__, __LINE__, "text %zu rebuilt a module (rc %d)", i, rc);
    }
}

/* A p = 2 run is refused on a p = 3 store (and the other way), with one
 * line naming both primes; a p = 3 store does not load into a p = 2
 * resolution. */
TEST(store_odd_binding_prime)
{
    char *dir = st_tmpdir_new();
    const char *p3 = st_path(dir, "p3.db"), *p2 = st_path(dir, "p2.db");
    run_p3(p3, 3, 8, 1, -1, 0);
    fdmod_t *S2 = fdmod_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p2, S2, RESOL_CLASSICAL, 3, 8, 1, -1, err, sizeof err), 0);
    sq_store_t *st;
    sq_store_binding_t b = {.module = S2, .engine = RESOL_AUTO, .max_s = 3, .max_n = 8};
    ASSERT_EQ(sq_store_open(&st, p3, &b, err, sizeof err), SQ_STORE_E_BINDING);
    ASSERT(strstr(err, "at the prime 3, not S_2 at the prime 2") != NULL);
    ASSERT(!strchr(err, '\n'));
    fdmod_t *S3 = fdmod_sphere_p(3);
    b.module = S3;
    ASSERT_EQ(sq_store_open(&st, p2, &b, err, sizeof err), SQ_STORE_E_BINDING);
    ASSERT(strstr(err, "at the prime 2, not S_3 at the prime 3") != NULL);
    ASSERT_EQ(sq_store_open_read(&st, p3, err, sizeof err), 0);
    resol_t *R = resol_new(S2, 3, 8);
    ASSERT_EQ(sq_store_load(st, R, 0, NULL, NULL, err, sizeof err), SQ_STORE_E_BINDING);
    ASSERT(strstr(err, "is for the prime 3, not 2") != NULL);
    resol_free(R);
    sq_store_close(st);
    /* A prime this adams does not resolve at, or an odd prime in a format-2
     * store: refused on open with one line. */
    char stmt[256];
    uint32_t c = st_crc32c("prime\0" "4", 7);
    snprintf(stmt, sizeof stmt, "UPDATE meta SET value = '4', crc = %u WHERE key = 'prime'",
             (unsigned)c);
    st_sql(p3, stmt);
    ASSERT_EQ(sq_store_open_read(&st, p3, err, sizeof err), SQ_STORE_E_FORMAT);
    ASSERT(strstr(err, "is for the prime '4'") != NULL && !strchr(err, '\n'));
    c = st_crc32c("prime\0" "3", 7);
    snprintf(stmt, sizeof stmt,
             "UPDATE meta SET value = '3', crc = %u WHERE key = 'prime'; "
             "UPDATE meta SET value = '2', crc = %u WHERE key = 'format'; PRAGMA user_version = 2",
             (unsigned)c, (unsigned)st_crc32c("format\0" "2", 8));
    st_sql(p3, stmt);
    ASSERT_EQ(sq_store_open_read(&st, p3, err, sizeof err), SQ_STORE_E_FORMAT);
    ASSERT(strstr(err, "stores of format 2 at p = 2 only") != NULL);
    fdmod_free(S2);
    fdmod_free(S3);
    st_tmpdir_remove(dir);
}

/* tests/data/store-format2-S2-n14-s6.db: written by `adams resolve S_2
 * --stem 14 --max-s 6 --save` at commit 48524ee, before format 3 (see
 * tests/data/README.md).  It is read as it is, checked, and extended in
 * place: it stays format 2, and its records equal a format-3 run's. */
TEST(store_format2_read_and_extended)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "f2.db"), *ref = st_path(dir, "ref.db");
    FILE *src = fopen(SQ_TEST_DATA_DIR "/store-format2-S2-n14-s6.db", "rb"), *dst = fopen(p, "wb");
    ASSERT(src && dst);
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, src)) > 0)
        ASSERT_EQ(fwrite(buf, 1, got, dst), got);
    fclose(src);
    ASSERT_EQ(fclose(dst), 0);
    sq_store_t *st;
    char err[1024];
    sq_store_info_t info;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT(info.format == 2 && info.prime == 2 && info.done_s == 6 && info.done_n == 14);
    sq_store_check_report_t rep;
    sq_store_check_opts_t o = {.full = 1};
    ASSERT_EQ(sq_store_check(st, &o, NULL, &rep, err, sizeof err), 0);
    sq_store_close(st);
    fdmod_t *M = fdmod_sphere();
    ASSERT_EQ(st_run(ref, M, RESOL_CLASSICAL, 8, 20, 1, -1, err, sizeof err), 0);
    int64_t a[(14 + 1) * (6 + 1)], b[(14 + 1) * (6 + 1)];
    st_read_ext(p, 6, 14, a);
    st_read_ext(ref, 6, 14, b);
    ASSERT(memcmp(a, b, sizeof a) == 0);
    ASSERT_EQ(st_run(p, M, RESOL_AUTO, 8, 20, 2, -1, err, sizeof err), 0);
    st_assert_same_steps(ref, p, 8, 20);
    ASSERT_STR_EQ(meta(p, "format"), "2");
    ASSERT_STR_EQ(meta(ref, "format"), "3");
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT(info.format == 2 && info.done_s == 8 && info.done_n == 20);
    sq_store_close(st);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}
