/*
 * t-core.c -- the core layer: errors and their strings, the out-of-memory
 * handler, the worker pool (results, thread-creation failure, a source
 * fed from outside: sq_pool_wake), trace
 * events (the rr event, ADAMS_LOG_FILE), and the memory query.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "f2mat.h"
#include "sq_core.h"
#include "sq_pool.h"
#include "sq_trace.h"
#include "sq_test.h"

TEST(core_error_strings)
{
    int codes[] = {SQ_OK,    SQ_E_NOMEM, SQ_E_INVAL, SQ_E_RANGE,
                   SQ_E_IO,  SQ_E_PARSE, SQ_E_NOGPU, SQ_E_NOTHREAD};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = sq_strerror(codes[i]);
        ASSERT(s && *s && strcmp(s, "unknown error") != 0);
        for (size_t j = 0; j < i; j++)
            ASSERT(strcmp(s, sq_strerror(codes[j])) != 0);
    }
    ASSERT_STR_EQ(sq_strerror(-999), "unknown error");
    ASSERT_STR_EQ(sq_strerror(SQ_E_NOTHREAD), "a thread could not be created");
}

static jmp_buf oom_jump;
static size_t oom_bytes;

static void oom_handler(size_t n)
{
    oom_bytes = n;
    longjmp(oom_jump, 1);
}

TEST(core_oom_handler_gets_the_size)
{
    sq_set_oom_handler(oom_handler);
    sq_set_alloc_fault(1 << 20);
    void *small = sq_malloc(1000); /* below the fault limit: fine */
    ASSERT(small != NULL);
    sq_free(small);
    volatile int reached = 0;
    if (setjmp(oom_jump) == 0) {
        void *p = sq_calloc(3, 1 << 20);
        reached = 1;
        sq_free(p);
    }
    ASSERT_EQ(reached, 0);
    ASSERT_EQ(oom_bytes, 3 << 20);
    if (setjmp(oom_jump) == 0) {
        void *p = sq_aligned_calloc(1, 5 << 20);
        reached = 1;
        sq_aligned_free(p);
    }
    ASSERT_EQ(reached, 0);
    ASSERT_EQ(oom_bytes, 5 << 20);
    sq_set_alloc_fault(0);
    sq_set_oom_handler(NULL);
    void *big = sq_malloc(3 << 20);
    sq_free(big);
}

static void square(void *ctx, int64_t i)
{
    int64_t *out = ctx;
    out[i] = i * i;
}

TEST(core_pool_parallel_for_threads)
{
    for (int n = 1; n <= 4; n++) {
        sq_pool_t *p;
        ASSERT_EQ(sq_pool_create(&p, n), 0);
        ASSERT_EQ(sq_pool_size(p), n);
        int64_t out[1000];
        memset(out, 0xff, sizeof out);
        sq_pool_parallel_for(p, 1000, square, out);
        for (int64_t i = 0; i < 1000; i++)
            ASSERT_EQ(out[i], i * i);
        sq_pool_free(p);
    }
    int64_t out[10];
    sq_pool_parallel_for(NULL, 10, square, out);
    ASSERT_EQ(out[9], 81);
}

/* A source fed from outside its callbacks (resolve --mpi's workers): a
 * first job, the feeder, queues jobs one at a time and wakes the pool
 * (sq_pool_wake); each must start on an idle thread while the feeder waits
 * for it (without the wake the idle threads sleep and it never starts). */
typedef struct {
    pthread_mutex_t mu;
    int fed, taken, feeder_out;
    _Atomic int started, ran, late;
    sq_pool_t *pool;
} feed_t;

static char feeder_job;

static int feed_next(void *ctx, void **job)
{
    feed_t *f = ctx;
    if (!f->feeder_out) {
        f->feeder_out = 1;
        *job = &feeder_job;
        return 1;
    }
    pthread_mutex_lock(&f->mu);
    int have = f->taken < f->fed;
    if (have)
        *job = (void *)(intptr_t)(++f->taken);
    pthread_mutex_unlock(&f->mu);
    return have;
}

static void feed_run(void *ctx, void *job, int thread)
{
    feed_t *f = ctx;
    (void)thread;
    if (job != &feeder_job) {
        atomic_fetch_add(&f->started, 1);
        atomic_fetch_add(&f->ran, 1);
        return;
    }
    for (int i = 1; i <= 20; i++) {
        pthread_mutex_lock(&f->mu);
        f->fed = i;
        pthread_mutex_unlock(&f->mu);
        sq_pool_wake(f->pool);
        double t0 = sq_wtime();
        while (atomic_load(&f->started) < i && sq_wtime() - t0 < 5.0) {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
        if (atomic_load(&f->started) < i)
            atomic_fetch_add(&f->late, 1);
    }
}

static void feed_done(void *ctx, void *job)
{
    (void)ctx, (void)job;
}

TEST(core_pool_wake_threads)
{
    feed_t f;
    memset(&f, 0, sizeof f);
    pthread_mutex_init(&f.mu, NULL);
    ASSERT_EQ(sq_pool_create(&f.pool, 3), 0);
    sq_pool_source_t src = {feed_next, feed_run, feed_done, &f};
    sq_pool_run(f.pool, &src);
    ASSERT_EQ(atomic_load(&f.late), 0);
    ASSERT_EQ(atomic_load(&f.ran), 20);
    sq_pool_free(f.pool);
    pthread_mutex_destroy(&f.mu);
}

/* A thread that cannot be created is an error (the started ones are
 * joined), not an abort. */
TEST(core_pool_thread_failure_threads)
{
    for (int k = 1; k <= 3; k++) {
        sq_pool_set_fault(k);
        sq_pool_t *p = (sq_pool_t *)&p;
        ASSERT_EQ(sq_pool_create(&p, 4), SQ_E_NOTHREAD);
        ASSERT(p == NULL);
    }
    sq_pool_set_fault(0);
    sq_pool_t *p;
    ASSERT_EQ(sq_pool_create(&p, 4), 0);
    sq_pool_free(p);
}

/* The rr event: one line per row reduction with min(rows, cols) >= 1024,
 * carrying the issuing step's bidegree and signature, written to
 * ADAMS_LOG_FILE. */
TEST(core_trace_rr_event_to_file)
{
    char path[] = "/tmp/adams-trace-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    close(fd);
    setenv("ADAMS_LOG", "rr", 1);
    setenv("ADAMS_LOG_FILE", path, 1);
    sq_trace_reset();
    ASSERT(sq_trace_on(SQ_TRACE_RR));
    ASSERT(!sq_trace_on(SQ_TRACE_STEP));
    sq_trace_set_context(7, 94, 3);
    f2mat_t small = {0}, big = {0};
    f2mat_init(&small, 100, 2000);
    f2mat_init(&big, 1100, 1200);
    sq_rand_t *rng = sq_test_rand();
    for (int64_t i = 0; i < big.rows; i++)
        for (int64_t j = 0; j < big.cols; j++)
            if (sq_rand_u64(rng) & 1)
                f2mat_set(&big, i, j, 1);
    f2mat_rref(&small, NULL); /* min 100: no event */
    int64_t rank = f2mat_rref(&big, NULL);
    char *log = sq_test_slurp(path);
    char want[256];
    snprintf(want, sizeof want, "event=rr rows=1100 cols=1200 min=1100 rank=%lld path=cpu ms=",
             (long long)rank);
    ASSERT_EQ(sq_test_count_lines(log), 1);
    ASSERT(strncmp(log, want, strlen(want)) == 0);
    ASSERT(strstr(log, " s=7 t=94 sig=3\n") != NULL);
    sq_free(log);
    f2mat_clear(&small);
    f2mat_clear(&big);
    unsetenv("ADAMS_LOG");
    unsetenv("ADAMS_LOG_FILE");
    sq_trace_reset();
    ASSERT(!sq_trace_on(SQ_TRACE_RR));
    unlink(path);
}

TEST(core_mem_available)
{
    double m = sq_mem_available();
    /* This is Linux: /proc/meminfo has MemAvailable. */
    ASSERT(m > 1e6);
    ASSERT(m < 1e15);
}

static void chunk_touch(void *ctx, int64_t i)
{
    __atomic_add_fetch((int64_t *)ctx, i + 1, __ATOMIC_RELAXED);
}

TEST(core_trace_chunk_event_to_file)
{
    char path[] = "/tmp/adams-trace-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    close(fd);
    setenv("ADAMS_LOG", "chunk", 1);
    setenv("ADAMS_LOG_FILE", path, 1);
    sq_trace_reset();
    ASSERT(sq_trace_on(SQ_TRACE_CHUNK));
    ASSERT(!sq_trace_on(SQ_TRACE_STEP));
    sq_pool_t *p = sq_pool_new(2);
    int64_t sum = 0;
    sq_trace_set_context(5, 41, -1);
    sq_pool_parallel_for(p, 7, chunk_touch, &sum);  /* 7 lines, one section */
    sq_pool_parallel_for(NULL, 3, chunk_touch, &sum); /* serial: 3 lines, another */
    sq_trace_set_context(-1, -1, -1);
    sq_pool_free(p);
    ASSERT_EQ(sum, 28 + 6);
    char *log = sq_test_slurp(path);
    ASSERT_EQ(sq_test_count_lines(log), 10);
    int seen[2][7] = {{0}};
    long long first = -1;
    for (char *line = log; *line;) {
        char *nl = strchr(line, '\n');
        ASSERT(nl != NULL);
        *nl = 0;
        int s, t, thread;
        long long sec, chunk, chunks;
        double at, ms, cpu;
        int used = 0;
        ASSERT_EQ(sscanf(line,
                         "event=chunk s=%d t=%d section=%lld chunk=%lld chunks=%lld at=%lf ms=%lf "
                         "thread=%d cpu_ms=%lf%n",
                         &s, &t, &sec, &chunk, &chunks, &at, &ms, &thread, &cpu, &used),
                  9);
        ASSERT_EQ((long long)used, (long long)strlen(line));
        ASSERT_EQ(s, 5);
        ASSERT_EQ(t, 41);
        ASSERT(ms >= 0);
        ASSERT(cpu >= 0);
        ASSERT(thread == 0 || thread == 1);
        if (first < 0)
            first = sec;
        int k = sec == first ? 0 : 1;
        ASSERT(k == 1 ? sec > first : 1);
        ASSERT_EQ(chunks, k == 0 ? 7 : 3);
        ASSERT(chunk >= 0 && chunk < chunks);
        seen[k][chunk]++;
        line = nl + 1;
    }
    for (int i = 0; i < 7; i++)
        ASSERT_EQ(seen[0][i], 1);
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(seen[1][i], 1);
    sq_free(log);
    unsetenv("ADAMS_LOG");
    unsetenv("ADAMS_LOG_FILE");
    sq_trace_reset();
    ASSERT(!sq_trace_on(SQ_TRACE_CHUNK));
    unlink(path);
}

/* A chunk that burns about a millisecond of CPU (a loop the compiler keeps). */
static void chunk_burn(void *ctx, int64_t i)
{
    volatile uint64_t x = (uint64_t)i;
    for (int k = 0; k < 2000000; k++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    atomic_fetch_add((_Atomic int64_t *)ctx, 1);
}

/* sq_pool_section_totals: with the phase trace on, a split section's chunks
 * add their CPU to the opener's work (all of them) and own (those it ran);
 * a serial section and a section with the trace off add nothing. */
TEST(core_pool_section_totals_threads)
{
    setenv("ADAMS_LOG", "phase", 1);
    setenv("ADAMS_LOG_FILE", "/dev/null", 1);
    sq_trace_reset();
    ASSERT(sq_trace_on(SQ_TRACE_PHASE));
    sq_pool_t *p = sq_pool_new(2);
    _Atomic int64_t n = 0;
    double w0, o0, w1, o1, w2, o2;
    sq_pool_section_totals(&w0, &o0);
    double c0 = sq_thread_cputime();
    sq_pool_parallel_for(p, 8, chunk_burn, &n);
    double c1 = sq_thread_cputime();
    sq_pool_section_totals(&w1, &o1);
    ASSERT_EQ(atomic_load(&n), 8);
    ASSERT(w1 - w0 > 0);
    ASSERT(o1 - o0 > 0 && o1 - o0 <= w1 - w0 + 1e-9);
    /* The chunks this thread ran are inside its CPU time. */
    ASSERT(o1 - o0 <= (c1 - c0) + 1e-3);
    sq_pool_parallel_for(NULL, 4, chunk_burn, &n); /* in order on the caller */
    sq_pool_parallel_for(p, 1, chunk_burn, &n);    /* one chunk: in order too */
    sq_pool_section_totals(&w2, &o2);
    ASSERT(w2 == w1 && o2 == o1);
    unsetenv("ADAMS_LOG");
    unsetenv("ADAMS_LOG_FILE");
    sq_trace_reset();
    sq_pool_parallel_for(p, 8, chunk_burn, &n); /* trace off: not measured */
    sq_pool_section_totals(&w2, &o2);
    ASSERT(w2 == w1 && o2 == o1);
    ASSERT_EQ(atomic_load(&n), 8 + 4 + 1 + 8);
    sq_pool_free(p);
}
