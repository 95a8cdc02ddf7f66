/*
 * b-store-faults.c -- the store's fault soak (issue 20, "Done when"):
 * the faults a hostile user makes, over and over, through the program
 * (docs/benchmarks.md, "The store under faults").
 *
 *   b-store-faults [--iterations K] [--seconds T] [--seed X] [--dir D] [--adams PATH]
 *                  [--only closed,splice,forge,disk,readers,kill]
 *
 * A working store of S_2 (classical, s <= 16, n <= 40) and, for splices, a
 * Nassau store of the same region.  Each iteration picks one fault:
 *
 *   closed   a saving run extending the store with stderr closed (half the
 *            time; else a random set of 0-2) and ADAMS_LOG=step, killed at a
 *            random moment: no trace line may reach the database or its
 *            journal;
 *   splice   a random row of the Nassau store (or of a twin classical
 *            store, same bytes) copied, data and checksum, into the
 *            working store: ext, check and a resume must all say damaged
 *            and name the row; the row is put back;
 *   forge    a random row's generator count set to a huge, negative or
 *            off-by-one value with a recomputed (bound) checksum: huge and
 *            negative ones are damaged for ext, check and resume (no abort,
 *            no allocation of their size); an off-by-one one with
 *            consistent lengths is found by `check --full`; put back;
 *   disk     a resume under a file size limit (setrlimit RLIMIT_FSIZE, as
 *            `ulimit -f`) of a random size: exit 1 with one line, or done;
 *   readers  `ext` and `check` in a loop while a writer extends the store:
 *            each read is the reference page or a refusal, never another;
 *   kill     a saving run killed (SIGKILL) at a random moment.
 *
 * After every iteration the store must pass `adams check`, then it is
 * resumed to the full region and both that run's output and `adams ext`
 * must equal the reference (a fresh run).  A wrong answer or a lost store stops the
 * soak with exit 1 and the iteration's seed.  Output: one line per fault
 * kind (count, ms per iteration), then the totals.
 *
 * Defaults: 1000 iterations, no time limit, seed 1, $TMPDIR, ./adams.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SOAK_S 16
#define SOAK_N 40

static const char *adams_bin = "./adams";
static char dir[512], work[600], nas[600], twin[600], ref_csv_path[600];
static char *ref_csv;
static uint64_t rng_state;
static int64_t iter;
static double t_full; /* seconds of a saving run of the whole region */
static int64_t disk_refused, disk_done, kill_hit, kill_missed, closed_hit, closed_missed;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "b-store-faults: iteration %lld: ", (long long)iter);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (store kept in %s)\n", dir);
    va_end(ap);
    exit(1);
}

static char *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    size_t cap = 4096, n = 0, k;
    char *b = malloc(cap + 1);
    if (f) {
        while ((k = fread(b + n, 1, cap - n, f)) > 0) {
            n += k;
            if (n == cap)
                b = realloc(b, (cap *= 2) + 1);
        }
        fclose(f);
    }
    b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

/* Runs adams with argv (NULL-terminated); stdout and stderr captured into
 * *out and *err (may be NULL: discarded).  fsize > 0: RLIMIT_FSIZE bytes.
 * closed: a mask of the fds 0-2 to close (the others on /dev/null), and
 * ADAMS_LOG=step.  kill_after > 0: SIGKILL after
 * that many seconds.  Returns the exit status, or 128 + signal. */
typedef struct {
    int64_t fsize;
    int closed;
    double kill_after;
} runopt_t;

static int run(char **out, char **err, const runopt_t *o, const char *const *argv)
{
    char op[700], ep[700];
    snprintf(op, sizeof op, "%s/out.txt", dir);
    snprintf(ep, sizeof ep, "%s/err.txt", dir);
    pid_t pid = fork();
    if (pid < 0)
        fail("fork");
    if (pid == 0) {
        if (o && o->closed) { /* bit k: descriptor k closed */
            for (int fd = 0; fd <= 2; fd++)
                if (o->closed >> fd & 1)
                    close(fd);
                else
                    dup2(open("/dev/null", fd ? O_WRONLY : O_RDONLY), fd);
            setenv("ADAMS_LOG", "step", 1);
        } else {
            int fo = open(op, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int fe = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(fo, 1);
            dup2(fe, 2);
            close(fo);
            close(fe);
        }
        if (o && o->fsize > 0) {
            struct rlimit rl = {(rlim_t)o->fsize, (rlim_t)o->fsize};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execv(adams_bin, (char *const *)argv);
        _exit(126);
    }
    int status;
    if (o && o->kill_after > 0) {
        double t0 = now();
        for (;;) {
            if (waitpid(pid, &status, WNOHANG) == pid)
                goto done;
            if (now() - t0 >= o->kill_after)
                break;
            struct timespec nap = {0, 1000000};
            nanosleep(&nap, NULL);
        }
        kill(pid, SIGKILL);
    }
    waitpid(pid, &status, 0);
done:
    if (out)
        *out = (o && o->closed) ? strdup("") : slurp(op, NULL);
    if (err)
        *err = (o && o->closed) ? strdup("") : slurp(ep, NULL);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#define RUN(out, err, o, ...) run(out, err, o, (const char *const[]){adams_bin, __VA_ARGS__, NULL})

static int file_has(const char *p, const char *needle)
{
    size_t n;
    char *b = slurp(p, &n);
    int hit = memmem(b, n, needle, strlen(needle)) != NULL;
    free(b);
    return hit;
}

/* ---- the store's rows, by SQLite and the spec ---------------------------- */

static uint32_t crc32c(uint32_t c, const void *p, size_t n)
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

typedef struct {
    int64_t s, t, ngens, nbits, codec, rawlen;
    void *data;
    int len;
    int64_t crc;
} row_t;

static sqlite3 *db_open(const char *p)
{
    sqlite3 *db;
    if (sqlite3_open(p, &db) != SQLITE_OK)
        fail("sqlite3_open %s", p);
    sqlite3_busy_timeout(db, 10000);
    return db;
}

/* The row at index k (0-based, (t, s) order) of the region; 1 when found. */
static int get_row(const char *p, int64_t k, int64_t s, int64_t t, row_t *r)
{
    sqlite3 *db = db_open(p);
    sqlite3_stmt *q;
    const char *sql = k >= 0 ? "SELECT s, t, ngens, nbits, codec, rawlen, data, crc FROM step "
                               "ORDER BY t, s LIMIT 1 OFFSET ?1"
                             : "SELECT s, t, ngens, nbits, codec, rawlen, data, crc FROM step "
                               "WHERE s = ?2 AND t = ?3";
    sqlite3_prepare_v2(db, sql, -1, &q, NULL);
    if (k >= 0)
        sqlite3_bind_int64(q, 1, k);
    else {
        sqlite3_bind_int64(q, 2, s);
        sqlite3_bind_int64(q, 3, t);
    }
    int found = sqlite3_step(q) == SQLITE_ROW;
    if (found) {
        r->s = sqlite3_column_int64(q, 0);
        r->t = sqlite3_column_int64(q, 1);
        r->ngens = sqlite3_column_int64(q, 2);
        r->nbits = sqlite3_column_int64(q, 3);
        r->codec = sqlite3_column_int64(q, 4);
        r->rawlen = sqlite3_column_int64(q, 5);
        r->len = sqlite3_column_bytes(q, 6);
        r->data = malloc((size_t)r->len + 1);
        memcpy(r->data, sqlite3_column_blob(q, 6), (size_t)r->len);
        r->crc = sqlite3_column_int64(q, 7);
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    return found;
}

static void put_row(const char *p, const row_t *r)
{
    sqlite3 *db = db_open(p);
    sqlite3_stmt *q;
    sqlite3_prepare_v2(db,
                       "INSERT OR REPLACE INTO step(s, t, ngens, nbits, codec, rawlen, data, crc) "
                       "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                       -1, &q, NULL);
    sqlite3_bind_int64(q, 1, r->s);
    sqlite3_bind_int64(q, 2, r->t);
    sqlite3_bind_int64(q, 3, r->ngens);
    sqlite3_bind_int64(q, 4, r->nbits);
    sqlite3_bind_int64(q, 5, r->codec);
    sqlite3_bind_int64(q, 6, r->rawlen);
    sqlite3_bind_blob(q, 7, r->len ? r->data : "", r->len, SQLITE_STATIC);
    sqlite3_bind_int64(q, 8, r->crc);
    if (sqlite3_step(q) != SQLITE_DONE)
        fail("cannot write a row: %s", sqlite3_errmsg(db));
    sqlite3_finalize(q);
    sqlite3_close(db);
}

static int64_t row_count(const char *p)
{
    sqlite3 *db = db_open(p);
    sqlite3_stmt *q;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM step", -1, &q, NULL);
    int64_t n = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    sqlite3_close(db);
    return n;
}

/* The bound checksum of a raw (codec 0) row of the store at p. */
static uint32_t bound_crc(const char *p, const row_t *r)
{
    sqlite3 *db = db_open(p);
    static const char *const keys[] = {"store_id", "engine", "module_hash"};
    uint32_t c = crc32c(0, "adams row", 10);
    for (int i = 0; i < 3; i++) {
        sqlite3_stmt *q;
        sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL);
        sqlite3_bind_text(q, 1, keys[i], -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_ROW)
            fail("no metadata %s", keys[i]);
        const char *v = (const char *)sqlite3_column_text(q, 0);
        c = crc32c(c, v, strlen(v) + 1);
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    uint8_t h[24];
    for (int i = 0; i < 4; i++) {
        h[i] = (uint8_t)((uint64_t)r->s >> (8 * i));
        h[4 + i] = (uint8_t)((uint64_t)r->t >> (8 * i));
    }
    for (int i = 0; i < 8; i++) {
        h[8 + i] = (uint8_t)((uint64_t)r->ngens >> (8 * i));
        h[16 + i] = (uint8_t)((uint64_t)r->nbits >> (8 * i));
    }
    c = crc32c(c, h, 24);
    return crc32c(c, r->data, (size_t)r->len);
}

/* ---- what every iteration asserts ------------------------------------------ */

static char region_s[16], region_n[16];

static void expect_check_ok(const char *what)
{
    char *o, *e;
    int rc = RUN(&o, &e, NULL, "check", work);
    if (rc != 0 || strlen(o) < 3 || strcmp(o + strlen(o) - 3, "ok\n") != 0)
        fail("after %s: adams check says (exit %d):\n%s%s", what, rc, o, e);
    free(o), free(e);
}

static void expect_full_page(const char *what)
{
    char *o, *e;
    int rc = RUN(&o, &e, NULL, "resolve", "--stem", region_n, "--max-s", region_s, "--save", work,
                 "--quiet", "--format", "csv");
    if (rc != 0)
        fail("after %s: the resume failed (exit %d): %s", what, rc, e);
    if (strcmp(o, ref_csv) != 0)
        fail("after %s: WRONG ANSWER: the resumed run differs from the reference", what);
    free(o), free(e);
    rc = RUN(&o, &e, NULL, "ext", work, "--format", "csv", "--stem", region_n, "--max-s",
             region_s);
    if (rc != 0 || strcmp(o, ref_csv) != 0)
        fail("after %s: adams ext differs from the reference (exit %d): %s", what, rc, e);
    free(o), free(e);
}

/* One line of a damaged store: exit 1, "damaged", the row named. */
static void expect_damaged(const row_t *r, const char *what)
{
    char want[64], *o, *e;
    snprintf(want, sizeof want, "(s=%lld, t=%lld)", (long long)r->s, (long long)r->t);
    int rc = RUN(&o, &e, NULL, "ext", work, "--format", "csv", "--stem", region_n, "--max-s",
                 region_s);
    if (rc != 1 || !strstr(e, "damaged") || !strstr(e, want))
        fail("%s %s: adams ext: exit %d, '%s'%s", what, want, rc, e,
             rc != 0                   ? ""
             : strcmp(o, ref_csv) != 0 ? " -- a WRONG ANSWER"
                                       : " -- the row accepted (this page happens to be right)");
    free(o), free(e);
    rc = RUN(&o, &e, NULL, "check", work);
    if (rc != 1 || !strstr(o, "DAMAGED"))
        fail("%s %s: adams check: exit %d", what, want, rc);
    free(o), free(e);
    rc = RUN(&o, &e, NULL, "resolve", "--stem", region_n, "--max-s", region_s, "--save", work,
             "--quiet", "--format", "csv");
    if (rc != 1 || !strstr(e, "damaged") || !strstr(e, want))
        fail("%s %s: the resume: exit %d, '%s'%s", what, want, rc, e,
             rc != 0                   ? ""
             : strcmp(o, ref_csv) != 0 ? " -- a WRONG ANSWER"
                                       : " -- the row accepted (this page happens to be right)");
    free(o), free(e);
}

/* ---- the faults -------------------------------------------------------------- */

static void fault_closed(void)
{
    sqlite3 *db = db_open(work); /* something left to compute, and to trace */
    char sql[200];
    snprintf(sql, sizeof sql, "DELETE FROM step WHERE t - s >= %d", (int)(rnd() % SOAK_N));
    sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    /* Which of 0-2 are closed: stderr alone half of the time (`2>&-`, as in
     * the issue), else any other non-empty set. */
    int closed = rnd() % 2 ? 4 : 1 + (int)(rnd() % 7);
    runopt_t o = {.closed = closed, .kill_after = t_full * (double)(rnd() % 1000) / 1000.0};
    int rc = RUN(NULL, NULL, &o, "resolve", "--stem", region_n, "--max-s", region_s, "--save", work);
    char side[700];
    snprintf(side, sizeof side, "%s-wal", work);
    if (file_has(work, "event=") || file_has(side, "event="))
        fail("closed descriptors: a trace line reached the store");
    rc == 0 ? closed_missed++ : closed_hit++;
}

static void fault_splice(void)
{
    int64_t n = row_count(work);
    row_t mine, other;
    const char *from = rnd() % 2 ? nas : twin;
    int64_t k = (int64_t)(rnd() % (uint64_t)n);
    if (!get_row(work, k, 0, 0, &mine))
        fail("no row %lld", (long long)k);
    if (!get_row(from, -1, mine.s, mine.t, &other)) {
        free(mine.data);
        return;
    }
    put_row(work, &other);
    expect_damaged(&mine, from == nas ? "a Nassau row spliced at" : "a twin's row spliced at");
    put_row(work, &mine);
    free(mine.data), free(other.data);
}

static void fault_forge(void)
{
    int64_t n = row_count(work);
    row_t r, f;
    if (!get_row(work, (int64_t)(rnd() % (uint64_t)n), 0, 0, &r))
        fail("no row");
    f = r;
    int kind = (int)(rnd() % 4);
    if (kind == 0)
        f.ngens = INT64_MAX;
    else if (kind == 1)
        f.ngens = (int64_t)1 << (31 + rnd() % 30);
    else if (kind == 2)
        f.ngens = -1 - (int64_t)(rnd() % 1000);
    else
        f.ngens = r.ngens + 1;
    if (kind == 3) { /* consistent lengths: one more zero vector */
        int64_t L = (r.nbits + 63) / 64;
        if (r.codec != 0 || L == 0) {
            free(r.data);
            return;
        }
        f.rawlen = f.ngens * L * 8;
        f.data = calloc(1, (size_t)f.rawlen + 1);
        memcpy(f.data, r.data, (size_t)r.len);
        f.len = (int)f.rawlen;
    } else if (r.codec != 0) {
        f.codec = 0; /* the checksum is over the raw payload */
        f.data = "";
        f.len = 0;
        f.rawlen = 0;
    }
    f.crc = bound_crc(work, &f);
    put_row(work, &f);
    if (kind < 3) {
        expect_damaged(&r, "a forged count at");
    } else {
        char *o, *e;
        int rc = RUN(&o, &e, NULL, "check", work, "--full");
        if (rc != 1 || !strstr(o, "DAMAGED"))
            fail("an extra generator forged at (s=%lld, t=%lld): check --full: exit %d",
                 (long long)r.s, (long long)r.t, rc);
        free(o), free(e);
        free(f.data);
    }
    put_row(work, &r);
    free(r.data);
}

static void fault_disk(void)
{
    /* Drop the last rows first, so the resume has something to write. */
    sqlite3 *db = db_open(work);
    char sql[200];
    snprintf(sql, sizeof sql, "DELETE FROM step WHERE t - s >= %d", (int)(4 + rnd() % (SOAK_N - 4)));
    sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    struct stat sb;
    stat(work, &sb);
    runopt_t o = {.fsize = (int64_t)sb.st_size + (int64_t)(rnd() % 60000)};
    char *out, *e;
    int rc = RUN(&out, &e, &o, "resolve", "--stem", region_n, "--max-s", region_s, "--save", work,
                 "--quiet", "--format", "csv");
    if (rc == 0 && strcmp(out, ref_csv) != 0)
        fail("a full disk: WRONG ANSWER");
    if (rc != 0 && (rc != 1 || !strstr(e, "adams: ")))
        fail("a full disk: exit %d, '%s'", rc, e);
    rc == 0 ? disk_done++ : disk_refused++;
    free(out), free(e);
}

static void fault_readers(void)
{
    sqlite3 *db = db_open(work);
    sqlite3_exec(db, "DELETE FROM step WHERE t - s >= 12", NULL, NULL, NULL);
    sqlite3_close(db);
    pid_t w = fork();
    if (w == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        close(fd);
        execl(adams_bin, adams_bin, "resolve", "--stem", region_n, "--max-s", region_s, "--save",
              work, "--quiet", "--threads", "1", (char *)NULL);
        _exit(126);
    }
    int status, reads = 0;
    char *ref_part = NULL; /* the reference for n <= 11 */
    {
        size_t cut = 0;
        for (const char *l = ref_csv; *l; l = strchr(l, '\n') + 1) {
            if (atoi(l) > 11)
                break;
            cut = (size_t)(strchr(l, '\n') + 1 - ref_csv);
        }
        ref_part = strndup(ref_csv, cut);
    }
    for (;;) {
        int fin = waitpid(w, &status, WNOHANG) == w;
        char *o, *e;
        int rc = RUN(&o, &e, NULL, "ext", work, "--format", "csv", "--stem", "11", "--max-s",
                     region_s);
        if (rc != 0 || strcmp(o, ref_part) != 0)
            fail("a reader beside a writer: ext (exit %d) differs: %s", rc, e);
        free(o), free(e);
        rc = RUN(&o, &e, NULL, "ext", work, "--format", "csv", "--stem", region_n, "--max-s",
                 region_s);
        if (rc == 0 && strcmp(o, ref_csv) != 0)
            fail("a reader beside a writer: WRONG ANSWER for the whole region");
        if (rc != 0 && (rc != 1 || !strstr(e, "does not hold")))
            fail("a reader beside a writer: ext: exit %d, %s", rc, e);
        free(o), free(e);
        rc = RUN(&o, &e, NULL, "check", work, "--spots", "4");
        if (rc != 0)
            fail("a reader beside a writer: check (exit %d):\n%s", rc, o);
        free(o), free(e);
        reads++;
        if (fin)
            break;
    }
    free(ref_part);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail("the writer beside the readers failed");
}

static void fault_kill(void)
{
    sqlite3 *db = db_open(work);
    char sql[200];
    snprintf(sql, sizeof sql, "DELETE FROM step WHERE t - s >= %d", (int)(rnd() % SOAK_N));
    sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    runopt_t o = {.kill_after = t_full * (double)(rnd() % 1000) / 1000.0};
    char *out, *e;
    int rc = RUN(&out, &e, &o, "resolve", "--stem", region_n, "--max-s", region_s, "--save", work,
                 "--quiet", "--format", "csv");
    if (rc == 0 && strcmp(out, ref_csv) != 0)
        fail("a kill: WRONG ANSWER");
    if (rc != 0 && rc != 128 + SIGKILL)
        fail("a kill: exit %d, %s", rc, e);
    rc == 0 ? kill_missed++ : kill_hit++;
    free(out), free(e);
}

typedef struct {
    const char *name;
    void (*fn)(void);
    int64_t count;
    double secs;
} fault_t;

int main(int argc, char **argv)
{
    int64_t iterations = 1000;
    double seconds = 0;
    uint64_t seed = 1;
    const char *base = getenv("TMPDIR"), *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
            iterations = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            base = argv[++i];
        else if (!strcmp(argv[i], "--adams") && i + 1 < argc)
            adams_bin = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: b-store-faults [--iterations K] [--seconds T] [--seed X] "
                            "[--dir D] [--adams PATH] [--only closed,splice,...]\n");
            return 2;
        }
    }
    if (access(adams_bin, X_OK) != 0) {
        fprintf(stderr, "b-store-faults: no adams at %s (--adams PATH)\n", adams_bin);
        return 2;
    }
    snprintf(dir, sizeof dir, "%s/adams-faults-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir))
        fail("mkdtemp");
    snprintf(work, sizeof work, "%s/work.db", dir);
    snprintf(nas, sizeof nas, "%s/nassau.db", dir);
    snprintf(twin, sizeof twin, "%s/twin.db", dir);
    snprintf(ref_csv_path, sizeof ref_csv_path, "%s/ref.csv", dir);
    snprintf(region_s, sizeof region_s, "%d", SOAK_S);
    snprintf(region_n, sizeof region_n, "%d", SOAK_N);
    rng_state = seed;
    char *e;
    if (RUN(&ref_csv, &e, NULL, "resolve", "--stem", region_n, "--max-s", region_s, "--quiet",
            "--format", "csv") != 0)
        fail("the reference run failed: %s", e);
    free(e);
    char *o;
    double ta = now();
    if (RUN(&o, &e, NULL, "resolve", "--stem", region_n, "--max-s", region_s, "--save", work,
            "--algorithm", "classical", "--quiet", "--format", "csv") != 0 ||
        strcmp(o, ref_csv) != 0)
        fail("the first saved run failed: %s", e);
    t_full = now() - ta;
    free(o), free(e);
    if (RUN(&o, &e, NULL, "resolve", "--stem", region_n, "--max-s", region_s, "--save", twin,
            "--algorithm", "classical", "--quiet") != 0)
        fail("the twin store failed: %s", e);
    free(o), free(e);
    if (RUN(&o, &e, NULL, "resolve", "--stem", region_n, "--max-s", region_s, "--save", nas,
            "--algorithm", "nassau", "--quiet") != 0)
        fail("the Nassau store failed: %s", e);
    free(o), free(e);
    fault_t faults[] = {{"closed", fault_closed, 0, 0}, {"splice", fault_splice, 0, 0},
                        {"forge", fault_forge, 0, 0},   {"disk", fault_disk, 0, 0},
                        {"readers", fault_readers, 0, 0}, {"kill", fault_kill, 0, 0}};
    int nf = (int)(sizeof faults / sizeof faults[0]);
    double t0 = now();
    int64_t resumes = 0;
    for (iter = 1; iter <= iterations; iter++) {
        if (seconds > 0 && now() - t0 > seconds)
            break;
        fault_t *f;
        do /* --only: the kinds named */
            f = &faults[rnd() % (uint64_t)nf];
        while (only && !strstr(only, f->name));
        double a = now();
        f->fn();
        expect_check_ok(f->name);
        expect_full_page(f->name); /* resumed to the whole region: the reference */
        resumes++;
        f->secs += now() - a;
        f->count++;
    }
    iter--;
    double total = now() - t0;
    printf("fault\titerations\tms/iteration\n");
    for (int i = 0; i < nf; i++)
        printf("%s\t%lld\t%.0f\n", faults[i].name, (long long)faults[i].count,
               faults[i].count ? 1e3 * faults[i].secs / (double)faults[i].count : 0.0);
    printf("total: %lld iterations in %.0f s (seed %llu; a saving run of the region: %.0f ms), "
           "%lld full resumes compared with the reference; no wrong answer, no lost store\n",
           (long long)iter, total, (unsigned long long)seed, 1e3 * t_full, (long long)resumes);
    printf("kills that hit a run: %lld of %lld (closed descriptors: %lld of %lld); file size "
           "limits that stopped the run: %lld of %lld\n",
           (long long)kill_hit, (long long)(kill_hit + kill_missed), (long long)closed_hit,
           (long long)(closed_hit + closed_missed), (long long)disk_refused,
           (long long)(disk_refused + disk_done));
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "b-store-faults: could not remove %s\n", dir);
    return 0;
}
