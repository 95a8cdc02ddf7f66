/*
 * sq_core.c -- allocation, aborts, PRNG, clocks.  See sq_core.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

const char *sq_strerror(int err)
{
    switch (err) {
    case SQ_OK: return "success";
    case SQ_E_NOMEM: return "out of memory";
    case SQ_E_INVAL: return "invalid argument";
    case SQ_E_RANGE: return "value out of supported range";
    case SQ_E_IO: return "input/output error";
    case SQ_E_PARSE: return "parse error";
    case SQ_E_NOGPU: return "no usable GPU";
    case SQ_E_NOTHREAD: return "a thread could not be created";
    default: return "unknown error";
    }
}

void sq_abort_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("adams: internal error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (%s:%d)\n", file, line);
    fflush(stderr);
    abort();
}

size_t sq_mul_size(size_t a, size_t b)
{
    if (a != 0 && b > SIZE_MAX / a)
        sq_abort("size overflow: %zu * %zu", a, b);
    return a * b;
}

/* The out-of-memory handler (sq_set_oom_handler); NULL: abort. Written
 * once at start-up by the program, read by every thread after. */
static sq_oom_handler_t oom_handler;

void sq_set_oom_handler(sq_oom_handler_t h)
{
    oom_handler = h;
}

/* Test hook (sq_set_alloc_fault): allocations above this many bytes fail. */
static size_t alloc_fault = SIZE_MAX;

void sq_set_alloc_fault(size_t limit)
{
    alloc_fault = limit ? limit : SIZE_MAX;
}

/* An allocation of n bytes failed: the handler (which must not return),
 * else abort. */
SQ_NORETURN static void out_of_memory(size_t n)
{
    if (oom_handler)
        oom_handler(n);
    sq_abort("out of memory allocating %zu bytes", n);
}

void *sq_malloc(size_t n)
{
    void *p = n > alloc_fault ? NULL : malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *sq_calloc(size_t count, size_t size)
{
    size_t n = sq_mul_size(count, size);
    void *p = n > alloc_fault ? NULL : calloc(n ? count : 1, n ? size : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *sq_realloc(void *p, size_t n)
{
    void *q = n > alloc_fault ? NULL : realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

void sq_free(void *p)
{
    free(p);
}

void *sq_aligned_calloc(size_t count, size_t size)
{
    size_t n = sq_mul_size(count, size);
    size_t rounded = (n + 63) & ~(size_t)63;
    if (rounded < n)
        sq_abort("size overflow aligning %zu bytes", n);
    void *p = NULL;
    if (n > alloc_fault || posix_memalign(&p, 64, rounded ? rounded : 64) != 0)
        out_of_memory(n);
    memset(p, 0, rounded ? rounded : 64);
    return p;
}

void sq_aligned_free(void *p)
{
    free(p);
}

char *sq_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = sq_malloc(n);
    memcpy(d, s, n);
    return d;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void sq_rand_init(sq_rand_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sq_rand_u64(sq_rand_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t sq_rand_below(sq_rand_t *r, uint64_t n)
{
    SQ_CHECK(n > 0, "sq_rand_below(0)");
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = sq_rand_u64(r);
    } while (x >= lim);
    return x % n;
}

/* The clock's time in seconds. */
static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double sq_wtime(void)
{
    return clock_seconds(CLOCK_MONOTONIC);
}

double sq_cputime(void)
{
    return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

double sq_thread_cputime(void)
{
    return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

size_t sq_peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (size_t)ru.ru_maxrss * 1024;
}

int sq_num_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (int)n : 1;
}

/* The smallest of: MemAvailable in /proc/meminfo, and the soft limits on
 * the address space and the data segment.  0 when none is known. */
double sq_mem_available(void)
{
    double best = 0;
    FILE *f = fopen("/proc/meminfo", "re");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            unsigned long long kb;
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                best = (double)kb * 1024.0;
                break;
            }
        }
        fclose(f);
    }
    int which[2] = {RLIMIT_AS, RLIMIT_DATA};
    for (int i = 0; i < 2; i++) {
        struct rlimit rl;
        if (getrlimit(which[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            (best == 0 || (double)rl.rlim_cur < best))
            best = (double)rl.rlim_cur;
    }
    return best;
}
