/*
 * sq_store.c -- opening, creating, binding and closing a store
 * (docs/save-format.md sections 1-3 and 5).
 *
 * Opening for writing checks, in this order, so that each refusal names
 * its cause and nothing is created or changed by a refused open: the
 * directory (exists, writable: WAL keeps FILE-wal and FILE-shm beside the
 * store), the file (regular, writable), the single-writer lock (an
 * exclusive flock on a descriptor of the file kept open until
 * sq_store_close; flock locks are independent of the fcntl byte locks
 * SQLite takes, and the descriptor is closed only after SQLite's, so the
 * POSIX rule that closing any descriptor drops a process's fcntl locks
 * never bites), the magic and format, every metadata checksum, and the
 * binding.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <sys/random.h>
#include <time.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmat.h"
#include "internal.h"
#include "sq_core.h"
#include "sq_fd.h"

#define ADAMS_PROGRAM "adams 0.1.0"

int sq_store_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        /* One line whatever a file holds: metadata values, keys and paths
         * are quoted, and a control byte in them (a newline, an escape)
         * becomes '?'. */
        for (char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
    return code;
}

const char *sq_store_strerror(int code)
{
    switch (code) {
    case SQ_STORE_E_DAMAGED:
        return "the store is damaged";
    case SQ_STORE_E_BUSY:
        return "the store is in use by another process";
    case SQ_STORE_E_BINDING:
        return "the store is for another module, prime, profile or engine";
    case SQ_STORE_E_FORMAT:
        return "not an adams store, or a format this program does not read";
    case SQ_STORE_E_MISSING:
        return "the step is not in the store";
    default:
        return sq_strerror(code);
    }
}

int sq_store_sqlite_fail(const sq_store_t *st, int rc, const char *what, char *err, size_t errlen)
{
    sqlite3 *db = st ? st->db : NULL;
    int prim = rc & 0xff;
    int sys = db ? sqlite3_system_errno(db) : 0;
    const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    int code = SQ_E_IO;
    if (prim == SQLITE_CORRUPT || prim == SQLITE_NOTADB)
        code = SQ_STORE_E_DAMAGED;
    else if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED)
        code = SQ_STORE_E_BUSY;
    int ext = db ? sqlite3_extended_errcode(db) : rc;
    if (prim == SQLITE_READONLY && st && st->readonly)
        return sq_store_fail(err, errlen, SQ_E_IO,
                             "%s %s: a run that stopped abruptly left its journal %s-wal, which "
                             "must be recovered before reading, and this place is read-only: "
                             "resume the run, or read a copy of both files from a writable place",
                             what, st->path, st->path);
    if (sys && prim != SQLITE_CORRUPT && prim != SQLITE_NOTADB)
        return sq_store_fail(err, errlen, code, "%s %s: %s (%s)", what, st ? st->path : "",
                             msg, strerror(sys));
    if (ext == SQLITE_IOERR_WRITE || ext == SQLITE_IOERR_FSYNC || ext == SQLITE_IOERR_TRUNCATE ||
        prim == SQLITE_FULL)
        return sq_store_fail(err, errlen, code,
                             "%s %s: %s (a write failed: is the disk full, or the file size "
                             "limited, as by ulimit -f?)",
                             what, st ? st->path : "", msg);
    return sq_store_fail(err, errlen, code, "%s %s: %s", what, st ? st->path : "", msg);
}

const char *sq_store_engine_name(resol_algo_t a)
{
    return a == RESOL_NASSAU ? "nassau" : "classical";
}

resol_algo_t sq_store_engine(const sq_store_t *st)
{
    return st->engine;
}

const char *sq_store_path(const sq_store_t *st)
{
    return st->path;
}

int64_t sq_store_committed(const sq_store_t *st)
{
    return st->committed;
}

int64_t sq_store_commits(const sq_store_t *st)
{
    return st->commits;
}

double sq_store_writer_seconds(const sq_store_t *st)
{
    return st->writer_cpu;
}

/* ---- metadata ------------------------------------------------------------ */

int sq_store_meta_put(sq_store_t *st, const char *key, const char *value)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "INSERT OR REPLACE INTO meta(key, value, crc) VALUES(?, ?, ?)", -1,
                                &q, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, value, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)sq_store_meta_crc(key, value));
        rc = sqlite3_step(q);
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc;
}

/* The profile of M as text: "[]" or "[3,2,1]" at p = 2; at odd p "[]" (the
 * whole algebra) or {"truncated":T,"q_part":Q,"p_part":[...]}
 * (sq_store_profile_text). */
static void profile_text(char *buf, size_t n, const fdmod_t *M)
{
    if (fdmod_prime(M) != 2) {
        sq_store_profile_text(buf, n, fdmod_pprofile(M));
        return;
    }
    int32_t h[16];
    int len = fdmod_profile(M, h);
    size_t k = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < len && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, i ? ",%d" : "%d", (int)h[i]);
    if (k < n)
        snprintf(buf + k, n - k, "]");
}

static const char *const meta_keys[] = {"format", "program", "prime", "module_name", "module",
                                        "module_hash", "profile", "bottom", "engine", "region",
                                        "done", "store_id", "category"};
#define KEY_STORE_ID 11 /* format 2 on: not in a format-1 store */
#define KEY_CATEGORY 12 /* format 4 only (an unstable resolution): read in no other */
#define NKEYS ((int)(sizeof meta_keys / sizeof meta_keys[0]))

/* 16 lowercase hex digits. */
static int valid_store_id(const char *v)
{
    if (strlen(v) != 16)
        return 0;
    for (const char *c = v; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return 0;
    return 1;
}

/* A new store's id: 64 random bits from the kernel (getrandom), or, where
 * that fails, from the clock, the process and the address space. */
static void new_store_id(char buf[17])
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        v = sq_fnv1a64(&ts, sizeof ts) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)buf;
    }
    snprintf(buf, 17, "%016" PRIx64, v);
}

/* The metadata `prime`: "2" in formats 1 and 2; in format 3 also an odd
 * prime below 256 (what fmat supports), in decimal without sign or
 * leading zero.  Returns 0 with *p set, or -1. */
static int parse_prime(const char *v, int format, uint32_t *p)
{
    unsigned q = 0;
    size_t n = strlen(v);
    if (n == 0 || n > 3 || v[0] == '0')
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        q = q * 10 + (unsigned)(v[i] - '0');
    }
    if (!fmat_prime_ok(q) || (q != 2 && format < 3))
        return -1;
    *p = q;
    return 0;
}

static int parse_region(const char *v, int32_t *s, int32_t *n)
{
    int a, b;
    char extra;
    if (sscanf(v, "%d %d%c", &a, &b, &extra) != 2 || a < 0)
        return -1;
    *s = a;
    *n = b;
    return 0;
}

/* Reads and checks every metadata row into st. */
static int read_meta(sq_store_t *st, char *err, size_t errlen)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db, "SELECT key, value, crc FROM meta", -1, &q, NULL);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read the metadata of store", err, errlen);
    char *val[NKEYS] = {0};
    int ret = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(q, 0);
        int kn = sqlite3_column_bytes(q, 0);
        const char *v = (const char *)sqlite3_column_text(q, 1);
        int vn = sqlite3_column_bytes(q, 1);
        uint32_t crc = (uint32_t)sqlite3_column_int64(q, 2);
        if (!k)
            k = "";
        if (!v)
            v = "";
        uint32_t c = sq_crc32c_update(sq_crc32c_update(0, k, (size_t)kn + 1), v, (size_t)vn);
        if (c != crc || (int)strlen(k) != kn || (int)strlen(v) != vn) {
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata '%.40s' is damaged (checksum mismatch)",
                                st->path, k);
            break;
        }
        for (int i = 0; i < NKEYS; i++)
            if (strcmp(k, meta_keys[i]) == 0 && !val[i])
                val[i] = sq_strdup(v);
    }
    if (!ret && rc != SQLITE_DONE)
        ret = sq_store_sqlite_fail(st, rc, "cannot read the metadata of store", err, errlen);
    sqlite3_finalize(q);
    int format = val[0] ? atoi(val[0]) : 0;
    for (int i = 0; i < NKEYS && !ret; i++)
        if (!val[i] && !(i == KEY_STORE_ID && format == 1) &&
            !(i == KEY_CATEGORY && format < SQ_STORE_FORMAT_UNSTABLE))
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata '%s' is missing", st->path, meta_keys[i]);
    if (!ret) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016" PRIx64, sq_fnv1a64(val[4], strlen(val[4])));
        int32_t b;
        char extra;
        int bi = 0;
        char fbuf[16];
        st->format = format;
        snprintf(fbuf, sizeof fbuf, "%d", format);
        if (strcmp(val[0], fbuf) != 0 || format != st->header_format)
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata 'format' is damaged ('%s')", st->path, val[0]);
        else if (st->format > SQ_STORE_FORMAT_MAX)
            ret = sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                                "store %s has store format %d; this adams reads formats 1 to %d",
                                st->path, st->format, SQ_STORE_FORMAT_MAX);
        else if (st->format >= SQ_STORE_FORMAT_UNSTABLE &&
                 strcmp(val[KEY_CATEGORY], "unstable") != 0)
            ret = sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                                "store %s: unknown category '%.40s' (format %d keeps unstable "
                                "resolutions)",
                                st->path, val[KEY_CATEGORY], st->format);
        else if (parse_prime(val[2], st->format, &st->prime))
            ret = sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                                "store %s is for the prime '%.40s'; this adams reads stores of "
                                "format %d at p = 2%s",
                                st->path, val[2], st->format,
                                st->format >= 3 ? " and the odd primes below 256" : " only");
        else if (strcmp(hex, val[5]) != 0)
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata 'module_hash' (%s) does not match 'module' "
                                "(%s)",
                                st->path, val[5], hex);
        else if (sscanf(val[7], "%d%c", &bi, &extra) != 1)
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata 'bottom' is not a degree ('%s')", st->path,
                                val[7]);
        else if (strcmp(val[8], "classical") != 0 && strcmp(val[8], "nassau") != 0)
            ret = sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                                "store %s: unknown engine '%s'", st->path, val[8]);
        else if (parse_region(val[9], &st->region_s, &st->region_n))
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata 'region' is not a region ('%s')", st->path,
                                val[9]);
        else if (val[KEY_STORE_ID] && !valid_store_id(val[KEY_STORE_ID]))
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata 'store_id' is damaged ('%.40s')", st->path,
                                val[KEY_STORE_ID]);
        else if (strcmp(val[10], "none") == 0)
            st->done_s = st->done_n = -1;
        else if (parse_region(val[10], &st->done_s, &st->done_n))
            ret = sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                                "store %s: metadata 'done' is not a region ('%s')", st->path,
                                val[10]);
        b = bi;
        st->bottom = b;
        st->engine = strcmp(val[8], "nassau") == 0 ? RESOL_NASSAU : RESOL_CLASSICAL;
        /* A `category` key in a store of format <= 3 is not one of its keys
         * (section 7): ignored, as any unknown key. */
        st->unstable = st->format >= SQ_STORE_FORMAT_UNSTABLE;
    }
    if (!ret) {
        st->program = val[1], val[1] = NULL;
        st->module_name = val[3], val[3] = NULL;
        st->module_text = val[4], val[4] = NULL;
        st->module_hash = val[5], val[5] = NULL;
        st->profile = val[6], val[6] = NULL;
        st->store_id = val[KEY_STORE_ID], val[KEY_STORE_ID] = NULL;
        /* Format 2 binds every row to its store (section 4.3); format 1 did not. */
        st->row_key = st->store_id ? sq_store_row_key(st->store_id,
                                                      sq_store_engine_name(st->engine),
                                                      st->module_hash)
                                   : 0;
    }
    for (int i = 0; i < NKEYS; i++)
        sq_free(val[i]);
    return ret;
}

/* ---- opening --------------------------------------------------------------- */

static int exec(sq_store_t *st, const char *sql)
{
    return sqlite3_exec(st->db, sql, NULL, NULL, NULL);
}

static int pragma_int(sq_store_t *st, const char *sql, int64_t *v)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db, sql, -1, &q, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            *v = sqlite3_column_int64(q, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(q);
    return rc;
}

static void store_free(sq_store_t *st)
{
    if (!st)
        return;
    if (st->db)
        sqlite3_close_v2(st->db);
    if (st->lock_fd >= 0)
        close(st->lock_fd); /* after SQLite's descriptors: see the top of this file */
    sq_free(st->path);
    sq_free(st->module_name);
    sq_free(st->module_text);
    sq_free(st->module_hash);
    sq_free(st->profile);
    sq_free(st->program);
    sq_free(st->store_id);
    sq_free(st->queue);
    sq_free(st);
}

static sq_store_t *store_alloc(const char *path)
{
    sq_store_t *st = sq_calloc(1, sizeof *st);
    st->path = sq_strdup(path);
    st->lock_fd = -1;
    st->done_s = st->done_n = -1;
    st->region_s = st->region_n = -1;
    return st;
}

/* The directory part of path ("." when none). */
static void dir_of(char *dir, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

/* Checks what can be checked before touching anything. */
static int check_place(const char *path, int *exists, char *err, size_t errlen)
{
    struct stat sb;
    char dir[4096];
    *exists = stat(path, &sb) == 0;
    if (!*exists && errno != ENOENT)
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot open store %s: %s", path,
                             strerror(errno));
    if (*exists && !S_ISREG(sb.st_mode))
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot open store %s: not a regular file",
                             path);
    dir_of(dir, sizeof dir, path);
    if (stat(dir, &sb) != 0)
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot %s store %s: directory %s %s",
                             *exists ? "open" : "create", path, dir,
                             errno == ENOENT ? "does not exist" : strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot create store %s: %s is not a directory",
                             path, dir);
    if (*exists && access(path, R_OK | W_OK) != 0)
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot write store %s: %s", path,
                             errno == EACCES || errno == EROFS ? "the file is read-only"
                                                               : strerror(errno));
    if (access(dir, W_OK) != 0) {
        if (*exists)
            return sq_store_fail(err, errlen, SQ_E_IO,
                                 "cannot write store %s: directory %s is not writable (a run "
                                 "keeps its journal %s-wal there)",
                                 path, dir, path);
        return sq_store_fail(err, errlen, SQ_E_IO,
                             "cannot create store %s: directory %s is not writable", path, dir);
    }
    return 0;
}

static int create_schema(sq_store_t *st, const sq_store_binding_t *b, const char *text,
                         const char *hash, const char *profile)
{
    char format[16], prime[16], bottom[16], id[17];
    new_store_id(id);
    int rc = exec(st, "BEGIN IMMEDIATE");
    if (rc == SQLITE_OK)
        rc = exec(st, b->unstable ? "PRAGMA user_version = " SQ_STORE_FORMAT_UNSTABLE_TEXT
                                  : "PRAGMA user_version = " SQ_STORE_FORMAT_TEXT);
    if (rc == SQLITE_OK)
        rc = exec(st, "PRAGMA application_id = 1094995283;" /* 0x41444D53, "ADMS" */
                      "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL, "
                      "crc INTEGER NOT NULL) WITHOUT ROWID;"
                      "CREATE TABLE step (s INTEGER NOT NULL, t INTEGER NOT NULL, "
                      "ngens INTEGER NOT NULL, nbits INTEGER NOT NULL, codec INTEGER NOT NULL, "
                      "rawlen INTEGER NOT NULL, data BLOB NOT NULL, crc INTEGER NOT NULL, "
                      "PRIMARY KEY (s, t)) WITHOUT ROWID;"
                      "CREATE VIEW ext AS SELECT t - s AS n, s, ngens AS dim FROM step "
                      "ORDER BY n, s;");
    snprintf(format, sizeof format, "%d",
             b->unstable ? SQ_STORE_FORMAT_UNSTABLE : SQ_STORE_FORMAT);
    snprintf(prime, sizeof prime, "%u", (unsigned)fdmod_prime(b->module));
    snprintf(bottom, sizeof bottom, "%d", (int)fdmod_bottom(b->module));
    /* program and region: written by the caller, as for an existing store */
    const char *const meta[][2] = {
        {"format", format},
        {"store_id", id},
        {"prime", prime},
        {"module_name", b->module_name ? b->module_name : fdmod_name(b->module)},
        {"module", text},
        {"module_hash", hash},
        {"profile", profile},
        {"bottom", bottom},
        {"engine", sq_store_engine_name(st->engine)},
        {"done", "none"},
    };
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof meta / sizeof *meta; i++)
        rc = sq_store_meta_put(st, meta[i][0], meta[i][1]);
    if (rc == SQLITE_OK && b->unstable) /* format 4 (docs/save-format.md section 7) */
        rc = sq_store_meta_put(st, "category", "unstable");
    return rc;
}

/* Opens the SQLite connection and reads the magic; *fresh when the file is
 * an empty database. */
static int open_db(sq_store_t *st, int flags, int *fresh, char *err, size_t errlen)
{
    int rc = sqlite3_open_v2(st->path, &st->db, flags, NULL);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot open store", err, errlen);
    sqlite3_busy_timeout(st->db, 5000);
    sqlite3_extended_result_codes(st->db, 1);
    int64_t app = 0, ver = 0, nschema = 0;
    rc = pragma_int(st, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK)
        rc = pragma_int(st, "PRAGMA user_version", &ver);
    if (rc == SQLITE_OK)
        rc = pragma_int(st, "SELECT count(*) FROM sqlite_master", &nschema);
    if ((rc & 0xff) == SQLITE_NOTADB)
        return sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                             "%s is not an adams store (not an SQLite database)", st->path);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    *fresh = app == 0 && nschema == 0;
    if (*fresh)
        return 0;
    if (app != SQ_STORE_APP_ID)
        return sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                             "%s is not an adams store (an SQLite database with application id "
                             "%lld)",
                             st->path, (long long)app);
    if (ver > SQ_STORE_FORMAT_MAX)
        return sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                             "store %s has store format %lld; this adams reads formats 1 to %d",
                             st->path, (long long)ver, SQ_STORE_FORMAT_MAX);
    if (ver < 1)
        return sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED,
                             "store %s: its format number is damaged (user_version %lld)",
                             st->path, (long long)ver);
    st->header_format = (int)ver;
    return read_meta(st, err, errlen);
}

/* Compares the binding of an existing store with the run's. */
static int check_binding(const sq_store_t *st, const sq_store_binding_t *b, const char *text,
                         const char *hash, const char *profile, char *err, size_t errlen)
{
    const char *name = b->module_name ? b->module_name : fdmod_name(b->module);
    if (st->unstable != (b->unstable != 0))
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s keeps the %s resolution of %s; this run is %s (%s)",
                             st->path, st->unstable ? "unstable" : "stable", st->module_name,
                             b->unstable ? "unstable" : "stable",
                             st->unstable ? "resolve S^n or give --unstable to resume it"
                                          : "omit S^n and --unstable to resume it, or save "
                                            "the unstable run into another store");
    if (st->prime != fdmod_prime(b->module))
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s is for module %s at the prime %u, not %s at the prime %u",
                             st->path, st->module_name, (unsigned)st->prime, name,
                             (unsigned)fdmod_prime(b->module));
    if (strcmp(st->profile, profile) != 0)
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s is for module %s over %s%s, not %s over %s%s", st->path,
                             st->module_name,
                             strcmp(st->profile, "[]") ? "the subalgebra with profile "
                                                       : "the whole Steenrod algebra, profile ",
                             st->profile, name,
                             strcmp(profile, "[]") ? "the subalgebra with profile "
                                                   : "the whole Steenrod algebra, profile ",
                             profile);
    if (strcmp(st->module_text, text) != 0)
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s is for module %s (hash %s), not %s (hash %s)", st->path,
                             st->module_name, st->module_hash, name, hash);
    if (b->engine != RESOL_AUTO && b->engine != st->engine)
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s was made with the %s engine; this run asks for %s (a "
                             "store is resumed only with its own engine: use --algorithm %s or "
                             "auto)",
                             st->path, sq_store_engine_name(st->engine),
                             sq_store_engine_name(b->engine), sq_store_engine_name(st->engine));
    return 0;
}

static void remove_created(const char *path)
{
    char side[4200];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

int sq_store_open(sq_store_t **out, const char *path, const sq_store_binding_t *b, char *err,
                  size_t errlen)
{
    *out = NULL;
    if (!path || !*path || !b || !b->module || b->max_s < 0)
        return sq_store_fail(err, errlen, SQ_E_INVAL, "sq_store_open: bad arguments");
    if (b->unstable && b->engine == RESOL_NASSAU)
        return sq_store_fail(err, errlen, SQ_E_INVAL,
                             "sq_store_open: an unstable resolution is classical (Nassau's "
                             "algorithm is stable)");
    int exists, rc;
    if ((rc = check_place(path, &exists, err, errlen)))
        return rc;
    int fd = sq_fd_open(path, O_RDWR | O_CREAT, 0644); /* CLOEXEC, never fd 0-2 */
    if (fd < 0)
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot %s store %s: %s",
                             exists ? "open" : "create", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            return sq_store_fail(err, errlen, SQ_STORE_E_BUSY,
                                 "store %s is in use by another process (a run is writing it): "
                                 "wait for it to finish, or stop it first",
                                 path);
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot lock store %s: %s", path, strerror(e));
    }
    sq_store_t *st = store_alloc(path);
    st->lock_fd = fd;
    char *text = b->module_text ? sq_strdup(b->module_text) : sq_store_module_text(b->module);
    char hash[17], profile[128], region[64];
    snprintf(hash, sizeof hash, "%016" PRIx64, sq_fnv1a64(text, strlen(text)));
    profile_text(profile, sizeof profile, b->module);
    int fresh = 0;
    rc = open_db(st, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &fresh, err, errlen);
    /* Format 2 (p = 2, rows bound) is resumed and extended in place and
     * stays format 2: its rows are the ones format 3 writes at p = 2. */
    if (!rc && !fresh && st->format < 2)
        rc = sq_store_fail(err, errlen, SQ_STORE_E_FORMAT,
                           "store %s has format %d, whose rows are not bound to their store; "
                           "this adams writes format %d: read it with 'adams ext' or 'adams "
                           "check', and save runs into a new store",
                           path, st->format, SQ_STORE_FORMAT);
    if (!rc && !fresh)
        rc = check_binding(st, b, text, hash, profile, err, errlen);
    if (!rc) {
        int src = exec(st, "PRAGMA journal_mode=WAL");
        if (src == SQLITE_OK)
            src = exec(st, "PRAGMA synchronous=NORMAL");
        if (src == SQLITE_OK && fresh) {
            st->engine = b->unstable              ? RESOL_CLASSICAL
                         : b->engine == RESOL_AUTO ? resol_auto_engine(b->module, b->max_n)
                                                   : b->engine;
            src = create_schema(st, b, text, hash, profile);
        } else if (src == SQLITE_OK) {
            src = exec(st, "BEGIN IMMEDIATE");
        }
        snprintf(region, sizeof region, "%d %d", (int)b->max_s, (int)b->max_n);
        if (src == SQLITE_OK)
            src = sq_store_meta_put(st, "region", region);
        if (src == SQLITE_OK)
            src = sq_store_meta_put(st, "program", ADAMS_PROGRAM);
        if (src == SQLITE_OK)
            src = exec(st, "COMMIT");
        if (src != SQLITE_OK) {
            rc = sq_store_sqlite_fail(st, src, fresh ? "cannot create store" : "cannot write store",
                                      err, errlen);
            exec(st, "ROLLBACK");
        }
    }
    if (!rc && fresh) {
        st->header_format = b->unstable ? SQ_STORE_FORMAT_UNSTABLE : SQ_STORE_FORMAT;
        rc = read_meta(st, err, errlen); /* what was written, read back as any store */
    }
    if (!rc) {
        st->region_s = b->max_s;
        st->region_n = b->max_n;
    }
    sq_free(text);
    if (rc) {
        store_free(st);
        if (fresh && !exists)
            remove_created(path);
        return rc;
    }
    *out = st;
    return 0;
}

int sq_store_open_read(sq_store_t **out, const char *path, char *err, size_t errlen)
{
    *out = NULL;
    struct stat sb;
    if (!path || !*path)
        return sq_store_fail(err, errlen, SQ_E_INVAL, "sq_store_open_read: no path");
    if (stat(path, &sb) != 0)
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot open store %s: %s", path,
                             errno == ENOENT ? "no such file" : strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return sq_store_fail(err, errlen, SQ_E_IO, "cannot open store %s: not a regular file",
                             path);
    if (sb.st_size == 0)
        return sq_store_fail(err, errlen, SQ_STORE_E_FORMAT, "%s is not an adams store (empty)",
                             path);
    sq_store_t *st = store_alloc(path);
    st->readonly = 1;
    int fresh = 0;
    /* A store whose writer was killed has a WAL that the next connection
     * must recover, which a read-only connection cannot do ("attempt to
     * write a readonly database"): open read-write where we may, and
     * forbid our own writes (query_only).  The recovery is SQLite's, under
     * its locks, and safe beside a running writer. */
    char dir[4096];
    dir_of(dir, sizeof dir, path);
    int rw = access(path, R_OK | W_OK) == 0 && access(dir, W_OK) == 0;
    char side[4200];
    snprintf(side, sizeof side, "%s-wal", path);
    if (!rw && stat(side, &sb) == 0 && sb.st_size > 0) {
        /* A journal left by a writer that stopped abruptly: a read-only
         * connection reads it only through an existing, current -shm, and
         * fails with "unable to open database file" without one. */
        snprintf(side, sizeof side, "%s-shm", path);
        if (stat(side, &sb) != 0) {
            store_free(st);
            return sq_store_fail(err, errlen, SQ_E_IO,
                                 "cannot read store %s: a run that stopped abruptly left its "
                                 "journal %s-wal, which must be recovered before reading, and "
                                 "this place is read-only: resume the run, or read a copy of "
                                 "both files from a writable place",
                                 path, path);
        }
    }
    int rc = open_db(st, rw ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, &fresh, err, errlen);
    if (!rc && exec(st, "PRAGMA query_only = 1") != SQLITE_OK)
        rc = sq_store_sqlite_fail(st, SQLITE_ERROR, "cannot read store", err, errlen);
    if (!rc && fresh)
        rc = sq_store_fail(err, errlen, SQ_STORE_E_FORMAT, "%s is not an adams store (no tables)",
                           path);
    if (rc) {
        store_free(st);
        return rc;
    }
    *out = st;
    return 0;
}

void sq_store_close(sq_store_t *st)
{
    if (!st)
        return;
    if (st->running) {
        char err[8];
        if (sq_store_finish(st, err, sizeof err) != 0)
            err[0] = '\0'; /* the caller did not ask: nothing to report to */
    }
    if (!st->readonly && st->db) {
        /* One self-contained file again; both fail harmlessly while a reader
         * holds the WAL open, or when the disk is full. */
        exec(st, "PRAGMA wal_checkpoint(TRUNCATE)");
        exec(st, "PRAGMA journal_mode=DELETE");
    }
    store_free(st);
}

/* A column of total()s (a double: forged counts may sum past int64) as an
 * int64, clamped to [INT64_MIN, INT64_MAX]. */
static int64_t total_of(sqlite3_stmt *q, int col)
{
    double v = sqlite3_column_double(q, col);
    if (!(v > -9.2e18))
        return v < 0 ? INT64_MIN : 0; /* also NaN */
    if (v >= 9.2e18)
        return INT64_MAX;
    return (int64_t)v;
}

int sq_store_info(sq_store_t *st, sq_store_info_t *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    info->format = st->format;
    info->prime = st->prime;
    info->unstable = st->unstable;
    info->engine = st->engine;
    info->bottom = st->bottom;
    info->region_s = st->region_s;
    info->region_n = st->region_n;
    info->done_s = st->done_s;
    info->done_n = st->done_n;
    snprintf(info->module_name, sizeof info->module_name, "%s", st->module_name);
    snprintf(info->module_hash, sizeof info->module_hash, "%s", st->module_hash);
    snprintf(info->profile, sizeof info->profile, "%s", st->profile);
    snprintf(info->program, sizeof info->program, "%s", st->program);
    struct stat sb;
    if (stat(st->path, &sb) == 0)
        info->file_bytes = (int64_t)sb.st_size;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "SELECT count(*), total(ngens), total(rawlen), total(length(data)) "
                                "FROM step",
                                -1, &q, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        info->steps = sqlite3_column_int64(q, 0);
        info->generators = total_of(q, 1);
        info->payload_bytes = total_of(q, 2);
        info->stored_bytes = total_of(q, 3);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    return 0;
}

const char *sq_store_stored_module_text(const sq_store_t *st)
{
    return st->module_text;
}
