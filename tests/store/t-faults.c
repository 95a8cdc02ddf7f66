/*
 * t-faults.c -- what goes wrong around a store: damaged bytes (in blobs,
 * in counts, in the metadata, anywhere), a full disk, read-only and
 * missing directories, a second writer, a store for another module or
 * engine, files that are not stores, and a vector that is wrong but
 * carries a valid checksum.  Each gives a clear error (or a repair), never
 * a wrong answer, and the store stays usable afterwards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "f2mat.h"
#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

#define FS 12 /* region of these tests: s <= 12, n <= 24 */
#define FN 24

static int64_t ref_dims[(FN + 1) * (FS + 1)];

/* The reference store of the region (classical unless said), complete. */
static void make_ref(const char *p, resol_algo_t algo)
{
    fdmod_t *M = st_sphere();
    char err[512];
    ASSERT_EQ(st_run(p, M, algo, FS, FN, 2, -1, err, sizeof err), 0);
    fdmod_free(M);
    st_read_ext(p, FS, FN, ref_dims);
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    ASSERT(a && b);
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, a)) > 0)
        ASSERT_EQ(fwrite(buf, 1, k, b), k);
    fclose(a);
    ASSERT_EQ(fclose(b), 0);
}

static unsigned char *read_all(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    ASSERT(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = sq_malloc(*n + 1);
    ASSERT_EQ(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void write_all(const char *p, const unsigned char *b, size_t n)
{
    FILE *f = fopen(p, "wb");
    ASSERT(f);
    ASSERT_EQ(fwrite(b, 1, n, f), n);
    ASSERT_EQ(fclose(f), 0);
}

/* The stored blob of a step with codec `codec` and at least minlen bytes:
 * returns 1 and sets s, t and a copy of its bytes. */
static int find_blob(const char *p, int codec, int minlen, int *s, int *t, unsigned char **blob,
                     int *len)
{
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT s, t, data FROM step WHERE codec = ?1 AND length(data) >= "
                                 "?2 ORDER BY t DESC, s LIMIT 1",
                                 -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_int(q, 1, codec);
    sqlite3_bind_int(q, 2, minlen);
    int found = 0;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *s = sqlite3_column_int(q, 0);
        *t = sqlite3_column_int(q, 1);
        *len = sqlite3_column_bytes(q, 2);
        *blob = sq_malloc((size_t)*len);
        memcpy(*blob, sqlite3_column_blob(q, 2), (size_t)*len);
        found = 1;
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return found;
}

/* Flips one byte of the file where `needle` first occurs (offset `at`
 * within it); returns 1 when found. */
static int flip_in_file(const char *p, const void *needle, size_t nlen, size_t at)
{
    size_t n;
    unsigned char *b = read_all(p, &n);
    unsigned char *hit = memmem(b, n, needle, nlen);
    if (hit) {
        hit[at] ^= 0x5a;
        write_all(p, b, n);
    }
    sq_free(b);
    return hit != NULL;
}

static void sql(const char *p, const char *stmt)
{
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, stmt, NULL, NULL, &msg) != SQLITE_OK)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", stmt, msg ? msg : "?");
    sqlite3_close(db);
}

/* The store at p is refused by ext with SQ_STORE_E_DAMAGED naming (s, t);
 * then a run with repair recomputes it and the
 * store equals the reference again. */
static void expect_damage_then_repair(const char *p, const char *ref, int s, int t)
{
    sq_store_t *st;
    char err[1024], name[64];
    int64_t dims[(FN + 1) * (FS + 1)];
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    int rc = sq_store_read_ext(st, FS, FN, dims, err, sizeof err);
    sq_store_close(st);
    ASSERT_EQ(rc, SQ_STORE_E_DAMAGED);
    snprintf(name, sizeof name, "step (s=%d, t=%d)", s, t);
    if (!strstr(err, name))
        sq_test_fail(__FILE__, __LINE__, "error '%s' does not name %s", err, name);
    /* A resume without repair refuses, naming it too. */
    fdmod_t *M = st_sphere();
    rc = st_run(p, M, RESOL_AUTO, FS, FN, 1, -1, err, sizeof err);
    ASSERT_EQ(rc, SQ_STORE_E_DAMAGED);
    ASSERT(strstr(err, name) != NULL);
    /* With repair: recomputed, and the same records as the reference. */
    ASSERT_EQ(st_run_flags(p, M, RESOL_AUTO, FS, FN, 2, -1, SQ_STORE_REPAIR, err, sizeof err), 0);
    st_assert_same_steps(ref, p, FS, FN);
    fdmod_free(M);
}

static void flip_blob_raw(void)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    make_ref(ref, RESOL_CLASSICAL);
    copy_file(ref, p);
    int s, t, len;
    unsigned char *blob;
    /* (at p = 3 the rows of this region are at most 12 bytes) */
    ASSERT(find_blob(p, 0, 16, &s, &t, &blob, &len) || find_blob(p, 0, 8, &s, &t, &blob, &len));
    ASSERT(flip_in_file(p, blob, (size_t)len, (size_t)len / 2));
    expect_damage_then_repair(p, ref, s, t);
    sq_free(blob);
    st_tmpdir_remove(dir);
}

TEST(store_flip_blob_raw)
{
    flip_blob_raw();
}

/* The same at p = 3 (format 3: one residue a byte). */
TEST(store_flip_blob_raw_p3)
{
    st_set_prime(3);
    flip_blob_raw();
    st_set_prime(2);
}

static void flip_blob_zstd(void)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    make_ref(ref, RESOL_CLASSICAL);
    copy_file(ref, p);
    /* Small regions store every record raw; rewrite one as a zstd frame
     * (readers accept any frame, section 4.4): the store reads the same. */
    int s, t, len;
    unsigned char *blob;
    /* (at p = 3 the rows of this region are at most 12 bytes) */
    ASSERT(find_blob(p, 0, 16, &s, &t, &blob, &len) || find_blob(p, 0, 8, &s, &t, &blob, &len));
    size_t cap = ZSTD_compressBound((size_t)len);
    unsigned char *z = sq_malloc(cap);
    size_t zl = ZSTD_compress(z, cap, blob, (size_t)len, 19);
    ASSERT(!ZSTD_isError(zl));
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE step SET codec = 1, data = ?1 WHERE s = ?2 AND t = ?3",
                                 -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_blob(q, 1, z, (int)zl, SQLITE_STATIC);
    sqlite3_bind_int(q, 2, s);
    sqlite3_bind_int(q, 3, t);
    ASSERT_EQ(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    sqlite3_close(db);
    st_assert_same_steps(ref, p, FS, FN);
    /* A flipped byte inside the frame: damage named, then repaired. */
    ASSERT(flip_in_file(p, z, zl, zl / 2));
    expect_damage_then_repair(p, ref, s, t);
    sq_free(z);
    sq_free(blob);
    st_tmpdir_remove(dir);
}

TEST(store_flip_blob_zstd)
{
    flip_blob_zstd();
}

/* The same at p = 3 (format 3: one residue a byte). */
TEST(store_flip_blob_zstd_p3)
{
    st_set_prime(3);
    flip_blob_zstd();
    st_set_prime(2);
}

TEST(store_flip_counts)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    make_ref(ref, RESOL_CLASSICAL);
    /* A generator count one too many (the E2 page would change), then a
     * bit of nbits, then the codec: each fails the record's checks. */
    copy_file(ref, p);
    sql(p, "UPDATE step SET ngens = ngens + 1 WHERE s = 3 AND t = 10");
    expect_damage_then_repair(p, ref, 3, 10);
    copy_file(ref, p);
    sql(p, "UPDATE step SET ngens = 0, rawlen = 0, data = x'' WHERE s = 1 AND t = 8");
    expect_damage_then_repair(p, ref, 1, 8);
    copy_file(ref, p);
    sql(p, "UPDATE step SET codec = 1 WHERE s = 2 AND t = 9");
    expect_damage_then_repair(p, ref, 2, 9);
    st_tmpdir_remove(dir);
}

static void flip_meta(void)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    make_ref(ref, RESOL_CLASSICAL);
    static const struct {
        const char *needle, *key;
        size_t at;
    } cases[] = {{"\"degrees\":[0]", "module", 11},
                 {"classical", "engine", 2},
                 {"adams 0.1.0", "program", 7}};
    for (int i = 0; i < 3; i++) {
        copy_file(ref, p);
        ASSERT(flip_in_file(p, cases[i].needle, strlen(cases[i].needle), cases[i].at));
        sq_store_t *st;
        char err[1024], name[64];
        ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), SQ_STORE_E_DAMAGED);
        snprintf(name, sizeof name, "metadata '%s' is damaged", cases[i].key);
        if (!strstr(err, name))
            sq_test_fail(__FILE__, __LINE__, "error '%s' does not name %s", err, name);
        /* Opening for a run is refused the same way, and changes nothing. */
        fdmod_t *M = st_sphere();
        sq_store_binding_t b = {.module = M, .engine = RESOL_AUTO, .max_s = FS, .max_n = FN};
        ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), SQ_STORE_E_DAMAGED);
        fdmod_free(M);
    }
    st_tmpdir_remove(dir);
}

TEST(store_flip_meta)
{
    flip_meta();
}

/* The same at p = 3 (format 3: one residue a byte). */
TEST(store_flip_meta_p3)
{
    st_set_prime(3);
    flip_meta();
    st_set_prime(2);
}

/* Single-byte flips anywhere in the file: each is detected (an error) or
 * harmless (the same E2 page, and the same differentials when loaded). */
TEST(store_flip_anywhere)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    make_ref(ref, RESOL_NASSAU);
    size_t n;
    unsigned char *orig = read_all(ref, &n);
    fdmod_t *M = st_sphere();
    resol_t *R0 = resol_new(M, FS, FN);
    resol_run(R0, RESOL_NASSAU);
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(150), detected = 0, harmless = 0;
    for (int64_t it = 0; it < iters; it++) {
        unsigned char *b = sq_malloc(n);
        memcpy(b, orig, n);
        size_t off = (size_t)sq_rand_below(rng, n);
        b[off] ^= (unsigned char)(1 + sq_rand_below(rng, 255));
        write_all(p, b, n);
        sq_free(b);
        sq_store_t *st;
        char err[1024];
        int64_t dims[(FN + 1) * (FS + 1)];
        int rc = sq_store_open_read(&st, p, err, sizeof err);
        if (!rc) {
            rc = sq_store_read_ext(st, FS, FN, dims, err, sizeof err);
            if (!rc && memcmp(dims, ref_dims, sizeof dims) != 0)
                sq_test_fail(__FILE__, __LINE__, "flip at %zu: a different E2 page", off);
            if (!rc) {
                resol_t *R = resol_new(M, FS, FN);
                sq_store_load_stats_t ls;
                rc = sq_store_load(st, R, 0, NULL, &ls, err, sizeof err);
                if (!rc) {
                    for (int32_t s = 0; s <= FS; s++) {
                        const fmod_t *Fa = resol_free_module(R0, s);
                        const fmod_t *Fb = resol_free_module(R, s);
                        if (fmod_total_gens(Fa) != fmod_total_gens(Fb))
                            sq_test_fail(__FILE__, __LINE__, "flip at %zu: other generators",
                                         off);
                        for (int64_t g = 0; g < fmod_total_gens(Fa); g++) {
                            int64_t na, nb;
                            const uint64_t *va = fhom_image(resol_differential(R0, s), g, &na);
                            const uint64_t *vb = fhom_image(resol_differential(R, s), g, &nb);
                            if (na != nb || memcmp(va, vb, (size_t)f2_limbs(na) * 8) != 0)
                                sq_test_fail(__FILE__, __LINE__,
                                             "flip at %zu: a different differential", off);
                        }
                    }
                }
                resol_free(R);
            }
            sq_store_close(st);
        }
        if (rc)
            detected++;
        else
            harmless++;
    }
    printf("%lld flips: %lld detected, %lld harmless (same answer)\n", (long long)iters,
           (long long)detected, (long long)harmless);
    ASSERT(detected > 0);
    resol_free(R0);
    fdmod_free(M);
    sq_free(orig);
    st_tmpdir_remove(dir);
}

/* A file size limit (as `ulimit -f`): the run fails with a clear error,
 * and the store resumes afterwards to the same records. */
static void disk_full(void)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    make_ref(ref, RESOL_CLASSICAL);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        fdmod_t *M = st_sphere();
        char err[1024];
        sq_store_t *st;
        sq_store_binding_t b = {.module = M, .engine = RESOL_CLASSICAL, .max_s = FS, .max_n = FN};
        /* No room to create it: refused, and nothing is left behind. */
        struct rlimit tiny = {4 * 1024, RLIM_INFINITY};
        setrlimit(RLIMIT_FSIZE, &tiny);
        int rc = sq_store_open(&st, p, &b, err, sizeof err);
        if (rc != SQ_E_IO || !strstr(err, "cannot create store") || access(p, F_OK) == 0)
            _exit(3);
        struct rlimit none = {RLIM_INFINITY, RLIM_INFINITY};
        setrlimit(RLIMIT_FSIZE, &none);
        /* Room to create it, not to finish: the WAL holds ~5 pages after the
         * schema; 7 pages' worth stops the run early. */
        rc = sq_store_open(&st, p, &b, err, sizeof err);
        struct rlimit rl = {28 * 1024, RLIM_INFINITY};
        setrlimit(RLIMIT_FSIZE, &rl);
        if (!rc) {
            resol_t *R = resol_new(M, FS, FN);
            rc = sq_store_run(st, R, NULL, NULL, 0, NULL, NULL, err, sizeof err);
            sq_store_close(st);
        }
        ssize_t w = write(fds[1], err, strlen(err) + 1);
        (void)w;
        _exit(rc == SQ_E_IO ? 0 : 10 + (rc < 0 ? -rc : rc));
    }
    close(fds[1]);
    char msg[1024] = {0};
    ssize_t got = read(fds[0], msg, sizeof msg - 1);
    (void)got;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    printf("child: %s\n", msg);
    ASSERT(WIFEXITED(status));
    if (WEXITSTATUS(status) != 0)
        sq_test_fail(__FILE__, __LINE__, "child exit %d: '%s'", WEXITSTATUS(status), msg);
    ASSERT(strstr(msg, "cannot write store") != NULL);
    ASSERT(strstr(msg, "File too large") != NULL || strstr(msg, "disk is full") != NULL ||
           strstr(msg, "disk full") != NULL);
    /* Usable afterwards: the same command resumes and completes. */
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, FS, FN, 2, -1, err, sizeof err), 0);
    st_assert_same_steps(ref, p, FS, FN);
    sq_store_t *st;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    sq_store_check_report_t rep;
    ASSERT_EQ(sq_store_check(st, NULL, NULL, &rep, err, sizeof err), 0);
    sq_store_close(st);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_disk_full)
{
    disk_full();
}

/* The same at p = 3 (format 3: one residue a byte). */
TEST(store_disk_full_p3)
{
    st_set_prime(3);
    disk_full();
    st_set_prime(2);
}

/* Runs fn(ctx) in a child that is not root (root ignores permissions):
 * returns its exit code, 77 if it could not drop privileges. */
static int as_nobody(int (*fn)(void *), void *ctx)
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(77);
        _exit(fn(ctx));
    }
    int status;
    waitpid(pid, &status, 0);
    ASSERT(WIFEXITED(status));
    return WEXITSTATUS(status);
}

typedef struct {
    const char *path;
    int want;              /* expected return code */
    const char *words;     /* expected in the message */
    int read;              /* open for reading and read the E2 page instead */
} open_case_t;

static int try_open(void *ctx)
{
    open_case_t *c = ctx;
    char err[1024] = "";
    sq_store_t *st;
    int rc;
    if (c->read) {
        rc = sq_store_open_read(&st, c->path, err, sizeof err);
        if (!rc) {
            int64_t dims[(FN + 1) * (FS + 1)];
            rc = sq_store_read_ext(st, FS, FN, dims, err, sizeof err);
            if (!rc && memcmp(dims, ref_dims, sizeof dims) != 0)
                rc = -99;
            sq_store_close(st);
        }
    } else {
        fdmod_t *M = st_sphere();
        sq_store_binding_t b = {.module = M, .engine = RESOL_AUTO, .max_s = FS, .max_n = FN};
        rc = sq_store_open(&st, c->path, &b, err, sizeof err);
        if (!rc)
            sq_store_close(st);
        fdmod_free(M);
    }
    if (rc != c->want || (c->words && !strstr(err, c->words))) {
        fprintf(stderr, "open %s: rc %d (want %d), '%s' (want '%s')\n", c->path, rc, c->want, err,
                c->words ? c->words : "");
        return 1;
    }
    return 0;
}

TEST(store_readonly_places)
{
    char *dir = st_tmpdir_new();
    ASSERT_EQ(chmod(dir, 0755), 0);
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/ro", dir);
    ASSERT_EQ(mkdir(sub, 0755), 0);
    const char *p = st_path(sub, "p.db"), *q = st_path(sub, "new.db");
    make_ref(p, RESOL_CLASSICAL);
    ASSERT_EQ(chmod(p, 0666), 0);
    ASSERT_EQ(chmod(sub, 0555), 0);
    /* A read-only directory: no new store, no run on an old one (its WAL
     * would live there); reading works. */
    open_case_t c1 = {q, SQ_E_IO, "directory", 0};
    open_case_t c2 = {p, SQ_E_IO, "is not writable", 0};
    open_case_t c3 = {p, 0, NULL, 1};
    int r = as_nobody(try_open, &c1);
    if (r == 77) {
        chmod(sub, 0755);
        st_tmpdir_remove(dir);
        exit(77);
    }
    ASSERT_EQ(r, 0);
    ASSERT_EQ(as_nobody(try_open, &c2), 0);
    ASSERT_EQ(as_nobody(try_open, &c3), 0);
    ASSERT(access(q, F_OK) != 0); /* nothing was created */
    /* A read-only file in a writable directory. */
    ASSERT_EQ(chmod(sub, 0777), 0);
    ASSERT_EQ(chmod(p, 0444), 0);
    open_case_t c4 = {p, SQ_E_IO, "the file is read-only", 0};
    ASSERT_EQ(as_nobody(try_open, &c4), 0);
    /* Usable afterwards. */
    ASSERT_EQ(chmod(p, 0644), 0);
    ASSERT_EQ(chmod(sub, 0755), 0);
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(p, M, RESOL_CLASSICAL, FS, FN + 2, 1, -1, err, sizeof err), 0);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_missing_places)
{
    char *dir = st_tmpdir_new();
    char p[4096];
    snprintf(p, sizeof p, "%s/nope/x.db", dir);
    open_case_t c1 = {p, SQ_E_IO, "does not exist", 0};
    ASSERT_EQ(try_open(&c1), 0);
    open_case_t c2 = {p, SQ_E_IO, "no such file", 1};
    ASSERT_EQ(try_open(&c2), 0);
    open_case_t c3 = {dir, SQ_E_IO, "not a regular file", 0};
    ASSERT_EQ(try_open(&c3), 0);
    st_tmpdir_remove(dir);
}

/* A second writer is refused while the first holds the store; readers are
 * not; after the first closes, the store opens. */
TEST(store_second_process_refused)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "p.db");
    make_ref(p, RESOL_CLASSICAL);
    int up[2], down[2];
    ASSERT_EQ(pipe(up), 0);
    ASSERT_EQ(pipe(down), 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        close(up[0]);
        close(down[1]);
        fdmod_t *M = st_sphere();
        sq_store_binding_t b = {.module = M, .engine = RESOL_AUTO, .max_s = FS, .max_n = FN};
        sq_store_t *st;
        char err[1024], c = 'x';
        int rc = sq_store_open(&st, p, &b, err, sizeof err);
        ssize_t w = write(up[1], &c, 1);
        (void)w;
        ssize_t r = read(down[0], &c, 1); /* until the parent says so */
        (void)r;
        if (!rc)
            sq_store_close(st);
        _exit(rc ? 1 : 0);
    }
    close(up[1]);
    close(down[0]);
    char c;
    ASSERT_EQ(read(up[0], &c, 1), 1);
    open_case_t busy = {p, SQ_STORE_E_BUSY, "in use by another process", 0};
    ASSERT_EQ(try_open(&busy), 0);
    open_case_t reader = {p, 0, NULL, 1};
    ASSERT_EQ(try_open(&reader), 0);
    close(down[1]);
    int status;
    waitpid(pid, &status, 0);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    open_case_t free_now = {p, 0, NULL, 0};
    ASSERT_EQ(try_open(&free_now), 0);
    close(up[0]);
    st_tmpdir_remove(dir);
}

TEST(store_binding_refused)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "p.db");
    make_ref(p, RESOL_CLASSICAL);
    fdmod_t *S = st_sphere(), *C = st_C2(), *A1 = st_sphere_A1();
    char err[1024];
    sq_store_t *st;
    sq_store_binding_t b = {.module = C, .engine = RESOL_AUTO, .max_s = FS, .max_n = FN};
    ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), SQ_STORE_E_BINDING);
    ASSERT(strstr(err, "is for module S_2 (hash ") && strstr(err, "not C2 (hash "));
    b.module = S;
    b.engine = RESOL_NASSAU;
    ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), SQ_STORE_E_BINDING);
    ASSERT(strstr(err, "was made with the classical engine; this run asks for nassau"));
    b.module = A1;
    b.engine = RESOL_CLASSICAL;
    ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), SQ_STORE_E_BINDING);
    printf("%s\n", err);
    ASSERT(strstr(err, "over the whole Steenrod algebra, profile [], not S_2 over the subalgebra "
                      "with profile [2,1]"));
    /* auto takes the store's engine, even where it would choose Nassau. */
    b.module = S;
    b.engine = RESOL_AUTO;
    b.max_n = 60;
    ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), 0);
    ASSERT_EQ(sq_store_engine(st), RESOL_CLASSICAL);
    sq_store_close(st);
    fdmod_free(S);
    fdmod_free(C);
    fdmod_free(A1);
    st_tmpdir_remove(dir);
}

TEST(store_not_a_store)
{
    char *dir = st_tmpdir_new();
    const char *txt = st_path(dir, "t.txt"), *other = st_path(dir, "o.db");
    const char *newer = st_path(dir, "n.db");
    write_all(txt, (const unsigned char *)"hello, this is not a database at all\n", 37);
    open_case_t c1 = {txt, SQ_STORE_E_FORMAT, "is not an adams store", 1};
    ASSERT_EQ(try_open(&c1), 0);
    open_case_t c2 = {txt, SQ_STORE_E_FORMAT, "is not an adams store", 0};
    ASSERT_EQ(try_open(&c2), 0);
    sql(other, "CREATE TABLE foo(x)");
    open_case_t c3 = {other, SQ_STORE_E_FORMAT, "application id 0", 0};
    ASSERT_EQ(try_open(&c3), 0);
    make_ref(newer, RESOL_CLASSICAL);
    sql(newer, "PRAGMA user_version = 5"); /* 4: the unstable stores (t-unstable.c) */
    open_case_t c4 = {newer, SQ_STORE_E_FORMAT,
                      "has store format 5; this adams reads formats 1 to 4", 1};
    ASSERT_EQ(try_open(&c4), 0);
    st_tmpdir_remove(dir);
}

/* A vector changed with its checksum recomputed passes the checksum but not
 * d o d or minimality: adams check finds it. */
TEST(store_check_finds_wrong_vector)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "p.db");
    make_ref(p, RESOL_NASSAU);
    sq_store_t *st;
    char err[1024];
    sq_store_check_report_t rep;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_check(st, NULL, NULL, &rep, err, sizeof err), 0);
    ASSERT(rep.dd_checked > 0 && rep.spots_checked == 24 && rep.module_rebuilt);
    sq_store_close(st);
    /* Step (s=2, t=9): change bit 0 of its first vector, fix the checksum. */
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open(p, &db), SQLITE_OK);
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT ngens, nbits, codec, data FROM step "
                                 "WHERE s = 3 AND t = 10",
                                 -1, &q, NULL),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    int64_t ngens = sqlite3_column_int64(q, 0), nbits = sqlite3_column_int64(q, 1);
    ASSERT_EQ(sqlite3_column_int(q, 2), 0);
    ASSERT(ngens >= 1 && nbits >= 1);
    int len = sqlite3_column_bytes(q, 3);
    unsigned char *buf = sq_malloc(24 + (size_t)len);
    memcpy(buf + 24, sqlite3_column_blob(q, 3), (size_t)len);
    sqlite3_finalize(q);
    buf[24] ^= 1;
    int32_t s = 3, t = 10;
    for (int i = 0; i < 4; i++) {
        buf[i] = (unsigned char)((uint32_t)s >> (8 * i));
        buf[4 + i] = (unsigned char)((uint32_t)t >> (8 * i));
    }
    for (int i = 0; i < 8; i++) {
        buf[8 + i] = (unsigned char)((uint64_t)ngens >> (8 * i));
        buf[16 + i] = (unsigned char)((uint64_t)nbits >> (8 * i));
    }
    uint32_t crc = st_row_crc(p, s, t, ngens, nbits, buf + 24, (size_t)len);
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE step SET data = ?1, crc = ?2 WHERE s = 3 AND t = 10",
                                 -1, &q, NULL),
              SQLITE_OK);
    sqlite3_bind_blob(q, 1, buf + 24, len, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, crc);
    ASSERT_EQ(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    sqlite3_close(db);
    sq_free(buf);
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    sq_store_check_opts_t o = {.full = 1};
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    ASSERT_EQ(sq_store_check(st, &o, f, &rep, err, sizeof err), SQ_STORE_E_DAMAGED);
    fclose(f);
    printf("%s", out);
    ASSERT(rep.dd_failed > 0 || rep.spots_failed > 0);
    ASSERT(strstr(out, "wrong: ") && strstr(out, "s=3, t=10)") && strstr(out, "DAMAGED"));
    free(out);
    sq_store_close(st);
    st_tmpdir_remove(dir);
}
