/*
 * t-fd.c -- descriptors (issue 20, row 1 and "What" 3): a program started
 * with stderr closed must not give fd 2 to a file it opens, or the lines
 * meant for stderr land in that file -- the store's lock descriptor became
 * fd 2 and trace lines were written into the database.  sq_fd_reserve_std
 * (first thing in main) puts /dev/null there; sq_fd_open never returns a
 * descriptor below 3.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sq_fd.h"
#include "sq_test.h"
#include "store_test.h"

/* In a child: close fd 2, then check fn; the exit status is the result. */
static int in_child_without_stderr(int (*fn)(void))
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        close(2);
        _exit(fn());
    }
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static int reserve_then_open(void)
{
    if (sq_fd_reserve_std() != 0)
        return 1;
    struct stat sb;
    if (fstat(2, &sb) != 0 || !S_ISCHR(sb.st_mode))
        return 2; /* fd 2 is /dev/null now */
    int fd = sq_fd_open("/dev/null", O_RDONLY, 0);
    if (fd < 3)
        return 3;
    if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
        return 4;
    return 0;
}

static int open_without_reserve(void)
{
    int fd = sq_fd_open("/dev/null", O_RDONLY, 0); /* the lowest free number is 2 */
    if (fd < 3)
        return 1;
    if (fcntl(2, F_GETFD) != -1)
        return 2; /* nothing left on 2 */
    if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
        return 3;
    return 0;
}

TEST(store_fd_reserve_and_open)
{
    ASSERT_EQ(in_child_without_stderr(reserve_then_open), 0);
    ASSERT_EQ(in_child_without_stderr(open_without_reserve), 0);
}

/* Whether the file holds the bytes. */
static int file_has(const char *path, const char *needle)
{
    char *b = sq_test_slurp(path);
    int hit = strstr(b, needle) != NULL;
    /* sq_test_slurp stops at a NUL; a database has many: search the raw bytes. */
    sq_free(b);
    FILE *f = fopen(path, "rb");
    if (!f)
        return hit;
    size_t cap = 1 << 20, n;
    char *buf = sq_malloc(cap);
    size_t k = strlen(needle), keep = 0;
    while ((n = fread(buf + keep, 1, cap - keep, f)) > 0) {
        n += keep;
        if (memmem(buf, n, needle, k))
            hit = 1;
        keep = n < k ? n : k - 1;
        memmove(buf, buf + n - keep, keep);
    }
    fclose(f);
    sq_free(buf);
    return hit;
}

/* The reproduction of row 1, through the program: a saved run, then the
 * extension with ADAMS_LOG=step, stdout to /dev/null and stderr closed;
 * while it runs the database must never hold a trace line; it is killed
 * part way, resumed, and the store is then sound and equal to a fresh run. */
TEST(store_fd_closed_stderr_never_reaches_the_store)
{
#ifndef SQ_ADAMS_BIN
    printf("no adams binary in this build: skipped\n");
    exit(77);
#else
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    char args[4096], *o, *e;
    snprintf(args, sizeof args, "resolve --stem 20 --save %s --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    sq_free(o), sq_free(e);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        close(fd);
        close(2);
        setenv("ADAMS_LOG", "step", 1);
        unsetenv("ADAMS_LOG_FILE");
        execl(SQ_ADAMS_BIN, "adams", "resolve", "--stem", "70", "--save", p, "--threads", "1",
              (char *)NULL);
        _exit(126);
    }
    struct timespec t0, now, nap = {0, 2000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0, done = 0, polls = 0, leaked = 0;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            done = 1;
            break;
        }
        leaked |= file_has(p, "event=step");
        polls++;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
        if (el > 0.4)
            break;
        nanosleep(&nap, NULL);
    }
    if (!done) { /* killed part way: the store keeps what was committed */
        kill(pid, SIGKILL);
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
    }
    leaked |= file_has(p, "event=step");
    char side[4200];
    snprintf(side, sizeof side, "%s-wal", p);
    leaked |= file_has(side, "event=step");
    printf("%d polls, %s, trace in the store: %s\n", polls, done ? "finished" : "killed",
           leaked ? "YES" : "no");
    ASSERT(!leaked);
    /* Resume, then: check ok, and ext equals a fresh run. */
    snprintf(args, sizeof args, "resolve --stem 70 --save %s --quiet", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    sq_free(o), sq_free(e);
    snprintf(args, sizeof args, "check %s", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    ASSERT(strlen(o) >= 3 && strcmp(o + strlen(o) - 3, "ok\n") == 0);
    sq_free(o), sq_free(e);
    char *o2, *e2;
    snprintf(args, sizeof args, "ext %s", p);
    ASSERT_EQ(sq_test_run_adams(args, &o, &e), 0);
    ASSERT_EQ(sq_test_run_adams("resolve --stem 70 --algorithm classical --quiet", &o2, &e2), 0);
    ASSERT_STR_EQ(o, o2);
    sq_free(o), sq_free(e), sq_free(o2), sq_free(e2);
    st_tmpdir_remove(dir);
#endif
}
