/*
 * t-kill.c -- runs that die: a child resolving into a store is killed with
 * SIGKILL at pseudo-random moments (fixed seeds) -- inside a commit (after
 * its rows are inserted, before COMMIT), just after a commit, or after a
 * random delay, that is during steps -- and the next child resumes.  After
 * every kill the store must load with nothing dropped (the invariant: the
 * stored steps are closed under the dependencies); when a cycle completes,
 * its records must equal an uninterrupted run's.  Also SIGINT and SIGTERM:
 * one stops cleanly after the steps in flight, two stop at once.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sq_pool.h"
#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

#define KS 20 /* region of the kill harness: s <= 20, n <= 40 */
#define KN 40

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* The child: one saving run of the region, maybe told to die at commit k. */
static void child_run(const char *p, resol_algo_t algo, int threads, int64_t k, int phase)
{
    if (k)
        sq_store_test_kill_at(k, phase);
    fdmod_t *M = st_sphere();
    char err[1024];
    sq_store_t *st;
    sq_store_binding_t b = {.module = M, .engine = algo, .max_s = KS, .max_n = KN};
    if (sq_store_open(&st, p, &b, err, sizeof err) != 0) {
        fprintf(stderr, "child: %s\n", err);
        _exit(3);
    }
    resol_t *R = resol_new(M, KS, KN);
    sq_pool_t *pool = threads > 1 ? sq_pool_new(threads) : NULL;
    int rc = sq_store_run(st, R, pool, NULL, 0, NULL, NULL, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "child: %s\n", err);
    sq_store_close(st);
    _exit(rc == 0 ? 0 : 4);
}

/* After a kill: the store loads strictly with no row dropped. */
static int64_t assert_loadable(const char *p)
{
    sq_store_t *st;
    char err[1024];
    if (access(p, F_OK) != 0)
        return 0;
    int rc = sq_store_open_read(&st, p, err, sizeof err);
    if (rc == SQ_STORE_E_FORMAT)
        return 0; /* killed before the schema was committed: an empty file */
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "after a kill: %s", err);
    fdmod_t *M = st_sphere();
    resol_t *R = resol_new(M, KS, KN);
    sq_store_load_stats_t ls;
    if (sq_store_load(st, R, 0, NULL, &ls, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "after a kill: %s", err);
    ASSERT_EQ(ls.dropped, 0);
    resol_free(R);
    fdmod_free(M);
    sq_store_close(st);
    return ls.loaded;
}

static void kill_harness(resol_algo_t algo, int kills_wanted)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(ref, M, algo, KS, KN, 2, -1, err, sizeof err), 0);
    sq_rand_t *rng = sq_test_rand();
    int kills = 0, commit_kills = 0, timed_kills = 0, cycles = 0, iters = 0;
    double t0 = sq_wtime();
    while (kills < kills_wanted) {
        ASSERT(iters++ < 20 * kills_wanted);
        int timed = iters % 2 == 0;
        int threads = 1 + iters % 3;
        int64_t k = timed ? 0 : 1 + (int64_t)sq_rand_below(rng, 12);
        int phase = (int)sq_rand_below(rng, 2);
        long delay = 2000 + (long)sq_rand_below(rng, 60000);
        fflush(stdout);
        pid_t pid = fork();
        ASSERT(pid >= 0);
        if (pid == 0)
            child_run(p, algo, threads, k, phase);
        if (timed) {
            sleep_us(delay);
            kill(pid, SIGKILL);
        }
        int status;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
            kills++;
            commit_kills += !timed;
            timed_kills += timed;
            assert_loadable(p);
            continue;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            sq_test_fail(__FILE__, __LINE__, "child ended with status 0x%x", status);
        /* The cycle completed: the same records as the uninterrupted run,
         * then start over on a new store. */
        st_assert_same_steps(ref, p, KS, KN);
        cycles++;
        remove(p);
    }
    /* Resume the last cycle to its end here, with another thread count. */
    ASSERT_EQ(st_run(p, M, algo, KS, KN, 3, -1, err, sizeof err), 0);
    st_assert_same_steps(ref, p, KS, KN);
    int64_t a[(KN + 1) * (KS + 1)], b[(KN + 1) * (KS + 1)];
    st_read_ext(ref, KS, KN, a);
    st_read_ext(p, KS, KN, b);
    ASSERT(memcmp(a, b, sizeof a) == 0);
    printf("%s: %d kills (%d at commits, %d timed) in %d children, %d cycles completed, "
           "%.1f s\n",
           algo == RESOL_NASSAU ? "nassau" : "classical", kills, commit_kills, timed_kills, iters,
           cycles + 1, sq_wtime() - t0);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_kill_classical)
{
    kill_harness(RESOL_CLASSICAL, (int)sq_test_iters(15));
}

/* The same at p = 3: kills at commits and at random times, each store
 * loads strictly, and the resumed run has the uninterrupted run's bytes. */
TEST(store_kill_classical_p3)
{
    st_set_prime(3);
    kill_harness(RESOL_CLASSICAL, (int)sq_test_iters(15));
    st_set_prime(2);
}

TEST(store_kill_nassau)
{
    kill_harness(RESOL_NASSAU, (int)sq_test_iters(15));
}

/* Rows in the step table (0 while the file is not a store yet). */
static int64_t stored_rows(const char *p)
{
    sqlite3 *db;
    int64_t n = 0;
    if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;
    }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM step", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return n;
}

#define GS 32 /* region of the signal tests */
#define GN 62

/* The write end of a pipe on which the child says that it saw the first
 * signal (the parent sends the second one only then: two signals sent
 * back to back may arrive as one). */
static int ack_fd = -1;

/* Slows the steps that finish after the first signal, so that a second
 * one finds the run still stopping. */
static void slow_after_signal(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    (void)ctx, (void)done, (void)total, (void)s, (void)t;
    if (sq_store_signals_caught()) {
        if (ack_fd >= 0) {
            char c = 'a';
            ssize_t w = write(ack_fd, &c, 1);
            (void)w;
            close(ack_fd);
            ack_fd = -1;
        }
        sleep_us(150000);
    }
}

/* A child resolving with the signal handlers installed; exits with 0 when
 * sq_store_run reported a clean stop after the signal `want`. */
static void child_signals(const char *p, int want)
{
    fdmod_t *M = st_sphere();
    char err[1024];
    sq_store_t *st;
    sq_store_binding_t b = {.module = M, .engine = RESOL_NASSAU, .max_s = GS, .max_n = GN};
    if (sq_store_open(&st, p, &b, err, sizeof err) != 0)
        _exit(3);
    resol_t *R = resol_new(M, GS, GN);
    sq_pool_t *pool = sq_pool_new(2);
    sq_store_signals_install(R);
    resol_observer_t slow = {slow_after_signal, NULL};
    int rc = sq_store_run(st, R, pool, &slow, 0, NULL, NULL, err, sizeof err);
    int sig = sq_store_signals_caught();
    sq_store_signals_restore();
    sq_pool_free(pool);
    sq_store_close(st);
    _exit(rc == 1 && sig == want ? 0 : rc == 0 ? 5 : 6);
}

/* Sends `sig` (twice if twice) once the child has committed steps (the
 * store holds `rows` rows); returns the child's status. */
static int signal_child(const char *p, int sig, int twice, int64_t rows)
{
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    fflush(stdout);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_IGN); /* the parent may have stopped listening */
        ack_fd = fds[1];
        child_signals(p, sig);
    }
    close(fds[1]);
    for (int i = 0; i < 4000 && stored_rows(p) < rows; i++)
        sleep_us(1000);
    kill(pid, sig);
    if (twice) {
        char c;
        if (read(fds[0], &c, 1) == 1) /* else the run ended before a step finished */
            kill(pid, sig);
    }
    close(fds[0]);
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status))
        printf("child: signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return status;
}

TEST(store_signals)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(ref, M, RESOL_NASSAU, GS, GN, 2, -1, err, sizeof err), 0);
    int64_t total = stored_rows(ref);
    /* SIGINT once: a clean stop, every finished step committed. */
    int status = signal_child(p, SIGINT, 0, 200);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    int64_t after1 = stored_rows(p);
    ASSERT(after1 >= 200 && after1 < total);
    /* SIGTERM once: the same. */
    status = signal_child(p, SIGTERM, 0, after1 + 100);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    int64_t after2 = stored_rows(p);
    ASSERT(after2 >= after1 + 100 && after2 < total);
    /* SIGINT twice: out at once, status 128 + SIGINT; the store is sound.
     * (If no step was in flight at the first signal, the run stopped
     * cleanly before a second could matter: try again.) */
    for (int tries = 0;; tries++) {
        remove(p);
        status = signal_child(p, SIGINT, 1, 200);
        ASSERT(WIFEXITED(status));
        if (WEXITSTATUS(status) == 128 + SIGINT || tries == 4)
            break;
    }
    ASSERT_EQ(WEXITSTATUS(status), 128 + SIGINT);
    /* Resumed: the same records as the uninterrupted run. */
    ASSERT_EQ(st_run(p, M, RESOL_NASSAU, GS, GN, 1, -1, err, sizeof err), 0);
    st_assert_same_steps(ref, p, GS, GN);
    printf("stopped with %lld and %lld of %lld steps stored\n", (long long)after1,
           (long long)after2, (long long)total);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}
