/*
 * store_test.c -- helpers of the store's tests (store_test.h).
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include "store_test.h"

#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "milnor.h"
#include "resol_unstable.h"
#include "sq_core.h"
#include "sq_pool.h"
#include "sq_test.h"

char *st_tmpdir_new(void)
{
    const char *base = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/adams-store-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(buf))
        sq_test_fail(__FILE__, __LINE__, "mkdtemp(%s) failed", buf);
    return sq_strdup(buf);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void st_tmpdir_remove(char *dir)
{
    if (!dir)
        return;
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    sq_free(dir);
}

const char *st_path(const char *dir, const char *name)
{
    static char buf[8][4096];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static uint32_t st_prime = 2;

void st_set_prime(uint32_t p)
{
    st_prime = p;
}

fdmod_t *st_sphere(void)
{
    return st_prime == 2 ? fdmod_sphere() : fdmod_sphere_p(st_prime);
}

fdmod_t *st_C2(void)
{
    fdmod_t *M = fdmod_new("C2", 0, 1);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    milnor_t *A = milnor_new(2);
    uint64_t one = 1;
    fdmod_set_sq(M, A, 1, 0, 0, &one);
    char err[256];
    if (fdmod_complete(M, A, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "C2: %s", err);
    milnor_free(A);
    return M;
}

fdmod_t *st_sphere_A1(void)
{
    fdmod_t *M = fdmod_sphere();
    int32_t h[2] = {2, 1};
    fdmod_set_profile(M, h, 2);
    return M;
}

typedef struct {
    resol_t *R;
    int64_t left;
} stopper_t;

static void stop_after(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    stopper_t *S = ctx;
    (void)done, (void)total, (void)s, (void)t;
    if (S->left >= 0 && --S->left <= 0)
        resol_request_stop(S->R);
}

/* st_run_flags, of the unstable resolution when unstable. */
static int run_any(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s,
                   int32_t max_n, int threads, int64_t stop, int flags, int unstable, char *err,
                   size_t errlen)
{
    sq_store_t *st;
    sq_store_binding_t b = {
        .module = M, .engine = algo, .max_s = max_s, .max_n = max_n, .unstable = unstable};
    int rc = sq_store_open(&st, path, &b, err, errlen);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "open %s: %s", path, err);
    resol_t *R = unstable ? resol_new_unstable(M, max_s, max_n) : resol_new(M, max_s, max_n);
    sq_pool_t *pool = threads > 1 ? sq_pool_new(threads) : NULL;
    stopper_t S = {R, stop};
    resol_observer_t obs = {stop_after, &S};
    rc = sq_store_run(st, R, pool, stop >= 0 ? &obs : NULL, flags, NULL, NULL, err, errlen);
    sq_pool_free(pool);
    resol_free(R);
    sq_store_close(st);
    return rc;
}

int st_run_flags(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s,
                 int32_t max_n, int threads, int64_t stop, int flags, char *err, size_t errlen)
{
    return run_any(path, M, algo, max_s, max_n, threads, stop, flags, 0, err, errlen);
}

int st_run_unstable(const char *path, const fdmod_t *M, int32_t max_s, int32_t max_n,
                    int threads, int64_t stop, char *err, size_t errlen)
{
    return run_any(path, M, RESOL_CLASSICAL, max_s, max_n, threads, stop, 0, 1, err, errlen);
}

int st_run(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t max_n,
           int threads, int64_t stop, char *err, size_t errlen)
{
    return st_run_flags(path, M, algo, max_s, max_n, threads, stop, 0, err, errlen);
}

void st_read_ext(const char *path, int32_t max_s, int32_t max_n, int64_t *dims)
{
    sq_store_t *st;
    char err[1024];
    if (sq_store_open_read(&st, path, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "open_read %s: %s", path, err);
    if (sq_store_read_ext(st, max_s, max_n, dims, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "read_ext %s: %s", path, err);
    sq_store_close(st);
}

void st_assert_same_steps(const char *a, const char *b, int32_t max_s, int32_t max_n)
{
    sq_store_t *sa, *sb;
    char err[1024];
    if (sq_store_open_read(&sa, a, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "open_read %s: %s", a, err);
    if (sq_store_open_read(&sb, b, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "open_read %s: %s", b, err);
    sq_store_info_t ia;
    if (sq_store_info(sa, &ia, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "info: %s", err);
    int64_t steps = 0;
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t n = ia.bottom; n <= max_n; n++) {
            int64_t ga, gb, na, nb;
            void *va, *vb;
            if (sq_store_read_step(sa, s, s + n, &ga, &na, &va, err, sizeof err) != 0)
                sq_test_fail(__FILE__, __LINE__, "%s: %s", a, err);
            if (sq_store_read_step(sb, s, s + n, &gb, &nb, &vb, err, sizeof err) != 0)
                sq_test_fail(__FILE__, __LINE__, "%s: %s", b, err);
            int64_t vbytes = ia.prime == 2 ? (na + 63) / 64 * 8 : na; /* a vector's bytes */
            if (ga != gb || na != nb || (ga && na && memcmp(va, vb, (size_t)(ga * vbytes)) != 0))
                sq_test_fail(__FILE__, __LINE__,
                             "step (s=%d, t=%d) differs: %lld x %lld bits in %s, %lld x %lld in "
                             "%s",
                             (int)s, (int)(s + n), (long long)ga, (long long)na, a,
                             (long long)gb, (long long)nb, b);
            sq_free(va);
            sq_free(vb);
            steps++;
        }
    ASSERT(steps > 0);
    sq_store_close(sa);
    sq_store_close(sb);
}

uint32_t st_crc32c(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
}

/* The binding prefix of a format-2 row (docs/save-format.md 4.3), from the
 * store's metadata: "adams row", store_id, engine, module_hash, each with
 * its 0x00.  Returns its length in buf. */
static size_t row_prefix(const char *path, unsigned char *buf, size_t cap)
{
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    static const char *const keys[] = {"store_id", "engine", "module_hash"};
    size_t n = 0;
    memcpy(buf, "adams row", 10);
    n = 10;
    for (int i = 0; i < 3; i++) {
        sqlite3_stmt *q;
        ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL),
                  SQLITE_OK);
        sqlite3_bind_text(q, 1, keys[i], -1, SQLITE_STATIC);
        ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
        const char *v = (const char *)sqlite3_column_text(q, 0);
        size_t k = strlen(v) + 1;
        ASSERT(n + k <= cap);
        memcpy(buf + n, v, k);
        n += k;
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return n;
}

uint32_t st_row_crc(const char *path, int32_t s, int32_t t, int64_t ngens, int64_t nbits,
                    const void *payload, size_t len)
{
    unsigned char pre[256];
    size_t n = row_prefix(path, pre, sizeof pre);
    unsigned char *buf = sq_malloc(n + 24 + len + 1);
    memcpy(buf, pre, n);
    for (size_t i = 0; i < 4; i++) {
        buf[n + i] = (unsigned char)((uint32_t)s >> (8 * i));
        buf[n + 4 + i] = (unsigned char)((uint32_t)t >> (8 * i));
    }
    for (size_t i = 0; i < 8; i++) {
        buf[n + 8 + i] = (unsigned char)((uint64_t)ngens >> (8 * i));
        buf[n + 16 + i] = (unsigned char)((uint64_t)nbits >> (8 * i));
    }
    if (len)
        memcpy(buf + n + 24, payload, len);
    uint32_t c = st_crc32c(buf, n + 24 + len);
    sq_free(buf);
    return c;
}

void st_sql(const char *path, const char *stmt)
{
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, stmt, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        sq_test_fail(__FILE__, __LINE__, "sql '%s': %s", stmt, msg ? msg : "?");
    sqlite3_close(db);
}

void st_put_row(const char *path, int64_t s, int64_t t, int64_t ngens, int64_t nbits,
                int64_t codec, int64_t rawlen, const void *blob, size_t bloblen, uint32_t crc)
{
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "INSERT OR REPLACE INTO step(s, t, ngens, nbits, codec, rawlen, "
                                 "data, crc) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                                 -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_int64(q, 1, s);
    sqlite3_bind_int64(q, 2, t);
    sqlite3_bind_int64(q, 3, ngens);
    sqlite3_bind_int64(q, 4, nbits);
    sqlite3_bind_int64(q, 5, codec);
    sqlite3_bind_int64(q, 6, rawlen);
    sqlite3_bind_blob64(q, 7, bloblen ? blob : "", bloblen, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q, 8, (sqlite3_int64)crc);
    ASSERT_EQ(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

int st_get_row(const char *path, int32_t s, int32_t t, st_row_t *r)
{
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT ngens, nbits, codec, rawlen, data, crc FROM step WHERE "
                                 "s = ?1 AND t = ?2",
                                 -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_int(q, 1, s);
    sqlite3_bind_int(q, 2, t);
    int found = sqlite3_step(q) == SQLITE_ROW;
    memset(r, 0, sizeof *r);
    if (found) {
        r->s = s;
        r->t = t;
        r->ngens = sqlite3_column_int64(q, 0);
        r->nbits = sqlite3_column_int64(q, 1);
        r->codec = sqlite3_column_int64(q, 2);
        r->rawlen = sqlite3_column_int64(q, 3);
        r->len = (size_t)sqlite3_column_bytes(q, 4);
        r->data = sq_malloc(r->len + 1);
        if (r->len)
            memcpy(r->data, sqlite3_column_blob(q, 4), r->len);
        r->crc = (uint32_t)sqlite3_column_int64(q, 5);
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return found;
}

/* The rows of a store as one text, in (s, t) order. */
static char *rows_text(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT group_concat(s || ',' || t || ',' || ngens || ',' || nbits "
                                 "|| ',' || codec || ',' || rawlen || ',' || hex(data), ';') FROM "
                                 "(SELECT * FROM step ORDER BY s, t)",
                                 -1, &q, NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    const char *v = (const char *)sqlite3_column_text(q, 0);
    char *r = sq_strdup(v ? v : "");
    sqlite3_finalize(q);
    sqlite3_close(db);
    return r;
}

void st_same_rows(const char *a, const char *b)
{
    char *ra = rows_text(a), *rb = rows_text(b);
    if (strcmp(ra, rb) != 0)
        sq_test_fail(__FILE__, __LINE__, "the stores %s and %s hold different rows", a, b);
    ASSERT(strlen(ra) > 100);
    sq_free(ra);
    sq_free(rb);
}

void st_kill_resume(const char *module, int stem, int max_s, const long delays_us[4])
{
    st_kill_resume_verb("resolve", module, stem, max_s, delays_us);
}

void st_kill_resume_verb(const char *verb, const char *module, int stem, int max_s,
                         const long delays_us[4])
{
    char *dir = st_tmpdir_new();
    const char *f = st_path(dir, "k.db"), *g = st_path(dir, "g.db");
    char stem_s[16], maxs_s[16];
    snprintf(stem_s, sizeof stem_s, "%d", stem);
    snprintf(maxs_s, sizeof maxs_s, "%d", max_s);
    sq_test_run_t ref = sq_test_runf("%s %s --stem %d --max-s %d --quiet --save %s", verb,
                                     module, stem, max_s, g);
    ASSERT_EQ(ref.rc, 0);
    int kills = 0;
    for (int i = 0; i < 4; i++) {
        fflush(stdout);
        pid_t pid = fork();
        ASSERT(pid >= 0);
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
                _exit(126);
            execl(SQ_ADAMS_BIN, "adams", verb, module, "--stem", stem_s, "--max-s", maxs_s,
                  "--threads", "2", "--quiet", "--save", f, (char *)NULL);
            _exit(127);
        }
        struct timespec ts = {0, delays_us[i] * 1000};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
        kills += WIFSIGNALED(status);
    }
    printf("%d of 4 runs killed\n", kills);
    ASSERT(kills >= 1);
    sq_test_run_t res = sq_test_runf("%s %s --stem %d --max-s %d --quiet --save %s", verb,
                                     module, stem, max_s, f);
    ASSERT_EQ(res.rc, 0);
    ASSERT_STR_EQ(res.out, ref.out);
    st_same_rows(f, g);
    sq_test_run_t chk = sq_test_runf("check %s", f);
    ASSERT_EQ(chk.rc, 0);
    sq_test_run_free(&ref), sq_test_run_free(&res), sq_test_run_free(&chk);
    st_tmpdir_remove(dir);
}
