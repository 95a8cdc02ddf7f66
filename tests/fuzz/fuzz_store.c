/*
 * fuzz_store.c -- libFuzzer target for the store's readers (issue 20:
 * spliced rows, forged counts, damaged metadata).
 *
 * Two small stores of the sphere (classical, s <= 6, n <= 12) are written
 * once: S_2, and S_3 (format 3, one residue a byte); an input that starts
 * with the 4 bytes "ODD3" is applied to the S_3 store (those bytes
 * dropped), any other to the S_2 one.  Each input is a list of edits
 * applied to a copy of the store with SQLite, as a
 * hostile user would make them, and then every reader runs on the copy:
 * sq_store_open_read, sq_store_info, sq_store_read_ext,
 * sq_store_region_missing, sq_store_read_step, sq_store_load (a resume's
 * loader) and sq_store_check.  Each must succeed or return an error with a
 * one-line message -- never crash, abort (ASan, UBSan), hang or allocate
 * wildly -- and never give a wrong answer: when the edits did not
 * recompute a checksum (so the forger did not know the binding), an E2 page
 * that reads back must be the original one.
 *
 * Input: records of
 *     op u8 | s i16 | t i16 | ngens i64 | nbits i64 | codec u8 | rawlen i64 |
 *     crcmode u8 | crc u32 | len u16 | len bytes       (little-endian)
 * op % 5: 0 insert or replace the row (s, t) with these columns; 1 delete
 * the row (s, t); 2 copy the row (s, t) over the row (ngens, nbits) taken
 * as a bidegree (a splice); 3 set the metadata key number (s % 12) to the
 * bytes; 4 run the bytes as one SQL statement (on the copy).  crcmode % 3:
 * 0 the crc as given; 1 recomputed with the store's binding (a forger who
 * knows it); 2 recomputed without a binding (format 1's checksum).
 * Records with an out-of-range length stop the list.
 *
 * The seed corpus is tests/fuzz/corpus-store (forged rows: counts of 2^63-1
 * and 2^40, a zstd frame claiming 2 GiB, negative and huge bidegrees,
 * splices, a Nassau-looking row, damaged metadata; at p = 3, the files
 * odd-*: a byte that is not a residue with its checksum recomputed, a
 * changed residue, counts whose product overflows, the prime changed to 2,
 * 5 or 256, the format to 2, a splice, a zstd frame, other module texts);
 * tests/store replays it
 * in every build (store_fuzz_corpus_replay).
 *
 *   build-fuzz/fuzz_store -max_total_time=600 -max_len=4096 \
 *       build-fuzz/fuzz-corpus-store tests/fuzz/corpus-store
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_core.h"
#include "sq_store.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_S 6
#define FZ_N 12

/* One base store: its file, its bytes, its E2 page, its rows' binding
 * prefix.  fz[0] is S_2's, fz[1] S_3's; fz_cur the one of this input. */
typedef struct {
    char base[300];
    uint8_t *bytes;
    size_t len;
    int64_t dims[(FZ_N + 1) * (FZ_S + 1)];
    char prefix[128];
    size_t prefix_len;
} fz_base_t;

static char fz_dir[256], fz_work[300];
static fz_base_t fz[2];
static const fz_base_t *fz_cur = &fz[0];

static void fz_die(const char *what)
{
    sq_abort("fuzz_store setup: %s", what);
}

static uint8_t *fz_slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        fz_die("cannot read the base store");
    fseek(f, 0, SEEK_END);
    long k = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = sq_malloc((size_t)k + 1);
    if (fread(b, 1, (size_t)k, f) != (size_t)k)
        fz_die("short read");
    fclose(f);
    *n = (size_t)k;
    return b;
}

static void fz_meta(sqlite3 *db, const char *key, char *out, size_t cap)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL) != SQLITE_OK)
        fz_die("meta");
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_ROW)
        fz_die("meta key");
    snprintf(out, cap, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
}

/* Writes the base store of the sphere at p into B. */
static void fz_make_base(fz_base_t *B, uint32_t p)
{
    snprintf(B->base, sizeof B->base, "%s/base%u.db", fz_dir, (unsigned)p);
    fdmod_t *M = p == 2 ? fdmod_sphere() : fdmod_sphere_p(p);
    sq_store_t *st;
    char err[1024];
    sq_store_binding_t b = {.module = M, .engine = RESOL_CLASSICAL, .max_s = FZ_S, .max_n = FZ_N};
    if (sq_store_open(&st, B->base, &b, err, sizeof err))
        fz_die(err);
    resol_t *R = resol_new(M, FZ_S, FZ_N);
    if (sq_store_run(st, R, NULL, NULL, 0, NULL, NULL, err, sizeof err))
        fz_die(err);
    resol_free(R);
    sq_store_close(st);
    fdmod_free(M);
    if (sq_store_open_read(&st, B->base, err, sizeof err) ||
        sq_store_read_ext(st, FZ_S, FZ_N, B->dims, err, sizeof err))
        fz_die(err);
    sq_store_close(st);
    sqlite3 *db;
    if (sqlite3_open_v2(B->base, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        fz_die("open base");
    char id[64], engine[64], hash[64];
    fz_meta(db, "store_id", id, sizeof id);
    fz_meta(db, "engine", engine, sizeof engine);
    fz_meta(db, "module_hash", hash, sizeof hash);
    sqlite3_close(db);
    B->prefix_len = (size_t)snprintf(B->prefix, sizeof B->prefix, "adams row%c%s%c%s%c%s%c", 0,
                                     id, 0, engine, 0, hash, 0);
    B->bytes = fz_slurp(B->base, &B->len);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (fz[0].bytes)
        return 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(fz_dir, sizeof fz_dir, "%s/adams-fuzz-store-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fz_dir))
        fz_die("mkdtemp");
    snprintf(fz_work, sizeof fz_work, "%s/work.db", fz_dir);
    fz_make_base(&fz[0], 2);
    fz_make_base(&fz[1], 3);
    return 0;
}

/* CRC-32C, bit by bit (the spec's; independent of the library's). */
static uint32_t fz_crc(uint32_t c, const void *p, size_t n)
{
    const uint8_t *b = p;
    c = ~c;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
}

static uint64_t fz_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The row checksum of the spec for a raw payload (codec 0), with or
 * without the binding prefix. */
static uint32_t fz_row_crc(int bound, int64_t s, int64_t t, int64_t ng, int64_t nb,
                           const uint8_t *payload, size_t len)
{
    uint8_t h[24];
    for (int i = 0; i < 4; i++) {
        h[i] = (uint8_t)((uint64_t)s >> (8 * i));
        h[4 + i] = (uint8_t)((uint64_t)t >> (8 * i));
    }
    for (int i = 0; i < 8; i++) {
        h[8 + i] = (uint8_t)((uint64_t)ng >> (8 * i));
        h[16 + i] = (uint8_t)((uint64_t)nb >> (8 * i));
    }
    uint32_t c = bound ? fz_crc(0, fz_cur->prefix, fz_cur->prefix_len) : 0;
    c = fz_crc(c, h, sizeof h);
    return fz_crc(c, payload, len);
}

static const char *const fz_keys[12] = {"format", "program", "prime", "module_name",
                                        "module", "module_hash", "profile", "bottom",
                                        "engine", "region", "done", "store_id"};

/* Applies the edits; returns 1 when some checksum was recomputed (the
 * forger knew the binding, or wrote SQL or metadata). */
static int fz_apply(sqlite3 *db, const uint8_t *d, size_t n)
{
    int forged = 0;
    enum { HDR = 1 + 2 + 2 + 8 + 8 + 1 + 8 + 1 + 4 + 2 };
    while (n >= HDR) {
        int op = d[0] % 5;
        int64_t s = (int16_t)fz_le(d + 1, 2), t = (int16_t)fz_le(d + 3, 2);
        int64_t ng = (int64_t)fz_le(d + 5, 8), nb = (int64_t)fz_le(d + 13, 8);
        int64_t codec = d[21];
        int64_t rawlen = (int64_t)fz_le(d + 22, 8);
        int crcmode = d[30] % 3;
        uint32_t crc = (uint32_t)fz_le(d + 31, 4);
        size_t len = (size_t)fz_le(d + 35, 2);
        if (len > n - HDR)
            break;
        const uint8_t *blob = d + HDR;
        d += HDR + len;
        n -= HDR + len;
        sqlite3_stmt *q = NULL;
        if (op == 0) {
            if (crcmode)
                crc = fz_row_crc(crcmode == 1, s, t, ng, nb, blob, len), forged = 1;
            if (sqlite3_prepare_v2(db,
                                   "INSERT OR REPLACE INTO step(s, t, ngens, nbits, codec, rawlen, "
                                   "data, crc) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                                   -1, &q, NULL) == SQLITE_OK) {
                sqlite3_bind_int64(q, 1, s);
                sqlite3_bind_int64(q, 2, t);
                sqlite3_bind_int64(q, 3, ng);
                sqlite3_bind_int64(q, 4, nb);
                sqlite3_bind_int64(q, 5, codec);
                sqlite3_bind_int64(q, 6, rawlen);
                sqlite3_bind_blob(q, 7, len ? (const void *)blob : "", (int)len, SQLITE_STATIC);
                sqlite3_bind_int64(q, 8, crc);
                sqlite3_step(q);
            }
        } else if (op == 1) {
            if (sqlite3_prepare_v2(db, "DELETE FROM step WHERE s = ?1 AND t = ?2", -1, &q,
                                   NULL) == SQLITE_OK) {
                sqlite3_bind_int64(q, 1, s);
                sqlite3_bind_int64(q, 2, t);
                sqlite3_step(q);
            }
        } else if (op == 2) {
            if (sqlite3_prepare_v2(db,
                                   "INSERT OR REPLACE INTO step SELECT ?3, ?4, ngens, nbits, "
                                   "codec, rawlen, data, crc FROM step WHERE s = ?1 AND t = ?2",
                                   -1, &q, NULL) == SQLITE_OK) {
                sqlite3_bind_int64(q, 1, s);
                sqlite3_bind_int64(q, 2, t);
                sqlite3_bind_int64(q, 3, (int16_t)ng);
                sqlite3_bind_int64(q, 4, (int16_t)nb);
                sqlite3_step(q);
            }
        } else if (op == 3) {
            const char *key = fz_keys[(uint64_t)s % 12];
            char *v = sq_malloc(len + 1);
            memcpy(v, blob, len);
            v[len] = '\0';
            uint32_t c = fz_crc(fz_crc(0, key, strlen(key) + 1), v, strlen(v));
            if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta(key, value, crc) VALUES(?1, "
                                       "?2, ?3)",
                                   -1, &q, NULL) == SQLITE_OK) {
                sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
                sqlite3_bind_text(q, 2, v, -1, SQLITE_TRANSIENT);
                sqlite3_bind_int64(q, 3, crcmode ? c : crc);
                sqlite3_step(q);
            }
            sq_free(v);
            forged = 1; /* the metadata says what the rows mean */
        } else {
            char *sql = sq_malloc(len + 1);
            memcpy(sql, blob, len);
            sql[len] = '\0';
            sqlite3_exec(db, sql, NULL, NULL, NULL);
            sq_free(sql);
            forged = 1;
        }
        sqlite3_finalize(q);
    }
    return forged;
}

static void fz_one_line(int rc, const char *err, const char *what)
{
    if (rc && (err[0] == '\0' || strchr(err, '\n')))
        sq_abort("%s: rc %d with a bad message '%s'", what, rc, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fz[0].bytes)
        LLVMFuzzerInitialize(NULL, NULL);
    fz_cur = &fz[0];
    if (size >= 4 && memcmp(data, "ODD3", 4) == 0) {
        fz_cur = &fz[1];
        data += 4;
        size -= 4;
    }
    FILE *f = fopen(fz_work, "wb");
    if (!f || fwrite(fz_cur->bytes, 1, fz_cur->len, f) != fz_cur->len || fclose(f) != 0)
        fz_die("cannot write the work copy");
    char side[400];
    snprintf(side, sizeof side, "%s-wal", fz_work);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", fz_work);
    unlink(side);
    sqlite3 *db;
    if (sqlite3_open(fz_work, &db) != SQLITE_OK)
        fz_die("open the work copy");
    sqlite3_exec(db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
    int forged = fz_apply(db, data, size);
    sqlite3_close(db);

    char err[1024] = "";
    sq_store_t *st;
    int rc = sq_store_open_read(&st, fz_work, err, sizeof err);
    fz_one_line(rc, err, "open_read");
    if (rc)
        return 0;
    sq_store_info_t info;
    rc = sq_store_info(st, &info, err, sizeof err);
    fz_one_line(rc, err, "info");
    int64_t dims[(FZ_N + 1) * (FZ_S + 1)];
    if (!rc && info.bottom == 0) {
        rc = sq_store_read_ext(st, FZ_S, FZ_N, dims, err, sizeof err);
        fz_one_line(rc, err, "read_ext");
        if (!rc && !forged && memcmp(dims, fz_cur->dims, sizeof dims) != 0)
            sq_abort("read_ext: a wrong E2 page from rows whose checksums were not recomputed");
    }
    int32_t ms, mn;
    rc = sq_store_region_missing(st, FZ_S, FZ_N, &ms, &mn, err, sizeof err);
    fz_one_line(rc, err, "region_missing");
    int64_t ng, nb;
    void *v = NULL;
    for (int32_t s = 0; s <= 3; s++) {
        rc = sq_store_read_step(st, s, s + 7, &ng, &nb, &v, err, sizeof err);
        fz_one_line(rc, err, "read_step");
        sq_free(v);
        v = NULL;
    }
    fdmod_t *M = NULL;
    char merr[256];
    if (sq_store_module_from_text(&M, sq_store_stored_module_text(st), "fuzz", merr,
                                  sizeof merr) == 0 &&
        M && fdmod_bottom(M) == info.bottom &&
        resol_check_range(M, FZ_S, FZ_N, merr, sizeof merr) == 0) {
        resol_t *R = resol_new(M, FZ_S, FZ_N);
        sq_store_load_stats_t ls;
        rc = sq_store_load(st, R, 0, NULL, &ls, err, sizeof err);
        fz_one_line(rc, err, "load");
        if (!rc && !forged)
            for (int32_t s = 0; s <= FZ_S; s++)
                for (int32_t k = 0; k <= FZ_N; k++)
                    if (resol_step_published(R, s, s + k) &&
                        resol_ext_dim(R, s, k) != fz_cur->dims[k * (FZ_S + 1) + s])
                        sq_abort("load: a wrong dimension at (s=%d, n=%d)", (int)s, (int)k);
        resol_free(R);
    }
    fdmod_free(M);
    sq_store_check_opts_t o = {.spots = 4};
    sq_store_check_report_t rep;
    rc = sq_store_check(st, &o, NULL, &rep, err, sizeof err);
    fz_one_line(rc, err, "check");
    sq_store_close(st);
    return 0;
}
