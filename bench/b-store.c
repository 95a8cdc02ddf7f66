/*
 * b-store.c -- the store's costs (docs/benchmarks.md, "The store").
 *
 *   b-store overhead [--stem N] [--max-s S] [--threads K] [--runs R] [--dir D]
 *       R pairs of runs of S_2 through (N, S) on K threads, each in a fresh
 *       child process, alternating a plain run and a saving run into a new
 *       store: one TSV line per run, then the medians and the overhead.
 *   b-store sizes FILE
 *       a store's size per stem (rows, generators, vector bytes raw and as
 *       stored) and what zstd would give at other levels and cutoffs.
 *   b-store soak [--seconds T] [--stem N] [--max-s S] [--seed X] [--dir D]
 *       the kill harness of tests/store for T seconds on a larger region:
 *       children killed at random commits and random moments, resumed,
 *       every completed store compared record by record with a reference.
 *
 * Defaults: (100, 53), 2 threads, 5 pairs; sizes of the store just written;
 * soak 600 s on (60, 32), seed 1.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_core.h"
#include "sq_pool.h"
#include "sq_store.h"

static int32_t N = 100, S = 53;
static int threads = 2;
static const char *dir = "/tmp";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Where a saving child reports its writer's CPU seconds, commits and load
 * seconds (a pipe), or -1. */
static int report_fd = -1;

/* One run in this (child) process: plain (path NULL) or saving. */
static int one_run(const char *path, resol_algo_t algo, int nthreads, int64_t kill_k, int phase)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, S, N);
    sq_pool_t *pool = nthreads > 1 ? sq_pool_new(nthreads) : NULL;
    int rc = 0;
    if (!path) {
        resol_run_pool(R, algo, pool, NULL);
    } else {
        char err[1024];
        sq_store_t *st;
        sq_store_binding_t b = {.module = M, .engine = algo, .max_s = S, .max_n = N};
        if (kill_k)
            sq_store_test_kill_at(kill_k, phase);
        rc = sq_store_open(&st, path, &b, err, sizeof err);
        if (!rc) {
            rc = sq_store_run(st, R, pool, NULL, 0, NULL, NULL, err, sizeof err);
            if (report_fd >= 0) {
                double r[2] = {sq_store_writer_seconds(st), (double)sq_store_commits(st)};
                ssize_t w = write(report_fd, r, sizeof r);
                (void)w;
            }
            sq_store_close(st);
        }
        if (rc < 0)
            fprintf(stderr, "b-store: %s\n", err);
    }
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
    return rc < 0 ? 1 : 0;
}

/* Wall seconds of one run in a fresh child process; its CPU seconds (user
 * + system, all threads) in *cpu: on a shared machine the CPU time of the
 * work is steadier than the wall time. */
static double last_writer_cpu, last_commits;

static double timed_child(const char *path, double *cpu)
{
    int fds[2];
    if (pipe(fds) != 0)
        exit(1);
    fflush(stdout);
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        report_fd = fds[1];
        _exit(one_run(path, RESOL_NASSAU, threads, 0, 0));
    }
    close(fds[1]);
    double r[2] = {0, 0};
    if (read(fds[0], r, sizeof r) != (ssize_t)sizeof r)
        r[0] = r[1] = 0;
    close(fds[0]);
    last_writer_cpu = r[0];
    last_commits = r[1];
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    double t = now() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "b-store: a run failed\n");
        exit(1);
    }
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int sizes(const char *path);

static int overhead(int runs)
{
    double *plain = calloc((size_t)runs, sizeof *plain), *save = calloc((size_t)runs, sizeof *save);
    double *cplain = calloc((size_t)runs, sizeof *plain);
    double *csave = calloc((size_t)runs, sizeof *save);
    char path[4096];
    snprintf(path, sizeof path, "%s/b-store-%d.db", dir, (int)getpid());
    printf("run\tkind\tstem\tmax_s\tthreads\twall_s\tcpu_s\twriter_cpu_s\tcommits\tload1\n");
    double *wcpu = calloc((size_t)runs, sizeof *wcpu);
    for (int i = 0; i < runs; i++) {
        /* Alternate which goes first, so that drift in the machine's load
         * falls on both kinds. */
        for (int k = 0; k < 2; k++) {
            int saving = (i + k) % 2;
            remove(path);
            double cpu, t = timed_child(saving ? path : NULL, &cpu);
            (saving ? save : plain)[i] = t;
            (saving ? csave : cplain)[i] = cpu;
            double load[1] = {0};
            getloadavg(load, 1);
            if (saving)
                wcpu[i] = last_writer_cpu;
            printf("%d\t%s\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.0f\t%.2f\n", i,
                   saving ? "save" : "plain", (int)N, (int)S, threads, t, cpu,
                   saving ? last_writer_cpu : 0.0, saving ? last_commits : 0.0, load[0]);
            fflush(stdout);
        }
    }
    struct stat sb;
    stat(path, &sb);
    double mp = median(plain, runs), ms = median(save, runs);
    double cp = median(cplain, runs), cs = median(csave, runs);
    printf("median\twall: plain %.3f s, save %.3f s, overhead %+.1f%%\tcpu: plain %.3f s, save "
           "%.3f s, overhead %+.1f%%\tstore %.2f MB\n",
           mp, ms, 100.0 * (ms / mp - 1), cp, cs, 100.0 * (cs / cp - 1),
           (double)sb.st_size / 1e6);
    double mw = median(wcpu, runs);
    printf("median\twriter thread: %.3f s of CPU, %.2f%% of the plain run's CPU time\n", mw,
           100.0 * mw / cp);
    free(wcpu);
    free(cplain);
    free(csave);
    sizes(path);
    remove(path);
    free(plain);
    free(save);
    return 0;
}

/* ---- sizes ---- */

static int sizes(const char *path)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "b-store: cannot open %s\n", path);
        return 1;
    }
    sqlite3_stmt *q;
    printf("\nstem\trows\tgenerators\traw_bytes\tstored_bytes\tcumulative_stored\n");
    sqlite3_prepare_v2(db,
                       "SELECT t - s AS n, count(*), sum(ngens), sum(rawlen), sum(length(data)) "
                       "FROM step GROUP BY n ORDER BY n",
                       -1, &q, NULL);
    int64_t cum = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        cum += sqlite3_column_int64(q, 4);
        int n = sqlite3_column_int(q, 0);
        if (n % 10 == 0 || n >= N - 1)
            printf("%d\t%lld\t%lld\t%lld\t%lld\t%lld\n", n, (long long)sqlite3_column_int64(q, 1),
                   (long long)sqlite3_column_int64(q, 2), (long long)sqlite3_column_int64(q, 3),
                   (long long)sqlite3_column_int64(q, 4), (long long)cum);
    }
    sqlite3_finalize(q);
    /* zstd: what each level and cutoff would store, and at what speed. */
    sqlite3_prepare_v2(db, "SELECT codec, rawlen, data FROM step", -1, &q, NULL);
    size_t cap = 0, n = 0;
    struct rec {
        uint8_t *raw;
        size_t len;
    } *recs = NULL;
    while (sqlite3_step(q) == SQLITE_ROW) {
        size_t len = (size_t)sqlite3_column_int64(q, 1);
        const void *blob = sqlite3_column_blob(q, 2);
        size_t blen = (size_t)sqlite3_column_bytes(q, 2);
        uint8_t *raw = malloc(len + 1);
        if (sqlite3_column_int(q, 0) == 1)
            ZSTD_decompress(raw, len, blob, blen);
        else if (len)
            memcpy(raw, blob, len);
        if (n == cap)
            recs = realloc(recs, (cap = cap * 2 + 256) * sizeof *recs);
        recs[n].raw = raw;
        recs[n].len = len;
        n++;
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    size_t total = 0, big = 0, bigraw = 0;
    for (size_t i = 0; i < n; i++) {
        total += recs[i].len;
        if (recs[i].len >= 512)
            big++, bigraw += recs[i].len;
    }
    printf("\nrecords %zu, payload %zu bytes; %zu records of >= 512 bytes hold %zu bytes\n", n,
           total, big, bigraw);
    printf("level\tcutoff\tstored_bytes\tratio\tcompress_MB/s\n");
    static const int levels[] = {1, 3, 9};
    static const size_t cutoffs[] = {0, 128, 512, 4096};
    ZSTD_CCtx *zc = ZSTD_createCCtx();
    for (int li = 0; li < 3; li++)
        for (int ci = 0; ci < 4; ci++) {
            size_t stored = 0, in = 0;
            double t0 = now();
            for (size_t i = 0; i < n; i++) {
                size_t len = recs[i].len, out = len;
                if (len >= cutoffs[ci] && len > 0) {
                    size_t bound = ZSTD_compressBound(len);
                    uint8_t *dst = malloc(bound);
                    size_t k = ZSTD_compressCCtx(zc, dst, bound, recs[i].raw, len, levels[li]);
                    if (!ZSTD_isError(k) && k <= len / 8 * 7)
                        out = k;
                    in += len;
                    free(dst);
                }
                stored += out;
            }
            double dt = now() - t0;
            printf("%d\t%zu\t%zu\t%.3f\t%.0f\n", levels[li], cutoffs[ci], stored,
                   total ? (double)stored / (double)total : 0, dt > 0 ? (double)in / dt / 1e6 : 0);
        }
    ZSTD_freeCCtx(zc);
    for (size_t i = 0; i < n; i++)
        free(recs[i].raw);
    free(recs);
    return 0;
}

/* ---- soak ---- */

/* Every step of the region equal in the two stores. */
static int same_steps(const char *a, const char *b)
{
    sq_store_t *sa, *sb;
    char err[1024];
    if (sq_store_open_read(&sa, a, err, sizeof err) ||
        sq_store_open_read(&sb, b, err, sizeof err)) {
        fprintf(stderr, "b-store: %s\n", err);
        return 0;
    }
    int ok = 1;
    for (int32_t s = 0; s <= S && ok; s++)
        for (int32_t n = 0; n <= N && ok; n++) {
            int64_t ga, gb, na, nb;
            void *va, *vb; /* p = 2 stores: limbs */
            if (sq_store_read_step(sa, s, s + n, &ga, &na, &va, err, sizeof err) ||
                sq_store_read_step(sb, s, s + n, &gb, &nb, &vb, err, sizeof err)) {
                fprintf(stderr, "b-store: %s\n", err);
                ok = 0;
                break;
            }
            ok = ga == gb && na == nb &&
                 (!ga || !na || memcmp(va, vb, (size_t)(ga * ((na + 63) / 64) * 8)) == 0);
            sq_free(va);
            sq_free(vb);
        }
    sq_store_close(sa);
    sq_store_close(sb);
    return ok;
}

static int soak(double seconds, uint64_t seed)
{
    char ref[4096], p[4096];
    snprintf(ref, sizeof ref, "%s/b-soak-ref-%d.db", dir, (int)getpid());
    snprintf(p, sizeof p, "%s/b-soak-%d.db", dir, (int)getpid());
    remove(ref);
    remove(p);
    for (int algo = 0; algo < 2; algo++) {
        resol_algo_t a = algo ? RESOL_NASSAU : RESOL_CLASSICAL;
        remove(ref);
        double t0 = now();
        pid_t rp = fork();
        if (rp == 0)
            _exit(one_run(ref, a, 2, 0, 0));
        int rs;
        waitpid(rp, &rs, 0);
        if (!WIFEXITED(rs) || WEXITSTATUS(rs) != 0)
            return 1;
        double full = now() - t0; /* a whole run: the kill delays are drawn below it */
        sq_rand_t rng;
        sq_rand_init(&rng, seed + (uint64_t)algo);
        int64_t kills = 0, commit_kills = 0, children = 0, cycles = 0, bad = 0;
        double start = now();
        while (now() - start < seconds / 2) {
            int timed = (int)sq_rand_below(&rng, 2);
            int nthreads = 1 + (int)sq_rand_below(&rng, 3);
            int64_t k = timed ? 0 : 1 + (int64_t)sq_rand_below(&rng, 200);
            int phase = (int)sq_rand_below(&rng, 2);
            double delay = (double)sq_rand_below(&rng, 1000000) / 1e6 * full;
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0)
                _exit(one_run(p, a, nthreads, k, phase));
            children++;
            if (timed) {
                struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
                nanosleep(&ts, NULL);
                kill(pid, SIGKILL);
            }
            int status;
            waitpid(pid, &status, 0);
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
                kills++;
                commit_kills += !timed;
                continue;
            }
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "b-store: soak: a child failed (status 0x%x)\n", status);
                bad++;
                break;
            }
            cycles++;
            if (!same_steps(ref, p)) {
                fprintf(stderr, "b-store: soak: cycle %lld differs from the reference\n",
                        (long long)cycles);
                bad++;
            }
            remove(p);
        }
        printf("soak\t%s\t(%d, %d)\t%.0f s\tchildren %lld\tkills %lld (%lld at commits)\t"
               "cycles completed %lld\tmismatches %lld\n",
               algo ? "nassau" : "classical", (int)N, (int)S, now() - start, (long long)children,
               (long long)kills, (long long)commit_kills, (long long)cycles, (long long)bad);
        fflush(stdout);
        remove(p);
        if (bad)
            return 1;
    }
    remove(ref);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: b-store overhead|sizes FILE|soak [options]\n");
        return 2;
    }
    const char *cmd = argv[1];
    int runs = 5;
    double seconds = 600;
    uint64_t seed = 1;
    int soak_default = strcmp(cmd, "soak") == 0;
    if (soak_default)
        N = 60, S = 32;
    for (int i = 2; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--stem") == 0)
            N = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--max-s") == 0)
            S = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--seconds") == 0)
            seconds = atof(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
            dir = argv[++i];
        else if (strcmp(cmd, "sizes") == 0 && i == 2)
            continue;
        else {
            fprintf(stderr, "b-store: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (strcmp(cmd, "overhead") == 0)
        return overhead(runs < 1 ? 1 : runs);
    if (strcmp(cmd, "sizes") == 0 && argc >= 3)
        return sizes(argv[2]);
    if (soak_default)
        return soak(seconds, seed);
    fprintf(stderr, "b-store: unknown command '%s'\n", cmd);
    return 2;
}
