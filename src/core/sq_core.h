/*
 * sq_core.h -- infrastructure shared by every layer of adams: checked
 * allocation, assertions, error codes, a seeded PRNG and a wall clock.
 *
 * Dependencies run one way: core <- fp <- algebra <- module <- resolution
 * <- io <- cli.  Nothing in core knows about the mathematics.
 */
#ifndef SQ_CORE_H
#define SQ_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SQ_NORETURN __attribute__((noreturn))
#define SQ_WARN_UNUSED __attribute__((warn_unused_result))
#define SQ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define SQ_LIKELY(x) __builtin_expect(!!(x), 1)
#define SQ_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SQ_NORETURN
#define SQ_WARN_UNUSED
#define SQ_PRINTF(a, b)
#define SQ_LIKELY(x) (x)
#define SQ_UNLIKELY(x) (x)
#endif

/* ---- Limits ------------------------------------------------------------ */

/* Largest action table of a finite module (fdmod_t) that a loader or a
 * builder (module files, finitely presented modules, projective spaces, the
 * quotient module of a cofiber) may create, in bytes; beyond it they refuse
 * with SQ_E_RANGE and a one-line message instead of allocating. */
#define SQ_MODULE_TABLE_LIMIT ((int64_t)1 << 30)

/* ---- Errors (environment and input; bugs abort instead) ---------------- */

/* Error codes returned (negated) by functions that can fail on bad input or
 * a bad environment.  0 means success.  The values are stable. */
enum {
    SQ_OK = 0,
    SQ_E_NOMEM = -1,   /* allocation failed where the caller asked to survive it */
    SQ_E_INVAL = -2,   /* invalid argument or input data */
    SQ_E_RANGE = -3,   /* a value is outside what the program supports */
    SQ_E_IO = -4,      /* a read or write failed */
    SQ_E_PARSE = -5,   /* malformed input text */
    SQ_E_NOGPU = -6,   /* an accelerator declined; the caller falls back */
    SQ_E_NOTHREAD = -7 /* a thread could not be created */
};

/* Returns a static, human-readable description of an SQ_E_* code. */
const char *sq_strerror(int err);

/* ---- Aborts and assertions (bugs) -------------------------------------- */

/* Prints "adams: internal error: <message> (file:line)" to stderr and aborts.
 * Used only for bugs and out-of-memory, never for bad user data. */
SQ_NORETURN void sq_abort_at(const char *file, int line, const char *fmt, ...) SQ_PRINTF(3, 4);

#define sq_abort(...) sq_abort_at(__FILE__, __LINE__, __VA_ARGS__)

/* Always-on cheap check at API boundaries. */
#define SQ_CHECK(e, ...)                                                                           \
    do {                                                                                           \
        if (SQ_UNLIKELY(!(e)))                                                                     \
            sq_abort_at(__FILE__, __LINE__, __VA_ARGS__);                                          \
    } while (0)

/* Debug-only assertion (compiled in with SQ_WANT_ASSERT). */
#ifdef SQ_WANT_ASSERT
#define SQ_ASSERT(e)                                                                               \
    do {                                                                                           \
        if (SQ_UNLIKELY(!(e)))                                                                     \
            sq_abort_at(__FILE__, __LINE__, "assertion failed: %s", #e);                           \
    } while (0)
#else
#define SQ_ASSERT(e) ((void)0)
#endif

/* ---- Allocation --------------------------------------------------------- */

/* Called with the requested size when an allocation fails; must not return
 * (print one line and exit, or longjmp out).  The library's default (no
 * handler) aborts with "internal error: out of memory"; the adams program
 * installs one that prints what was asked and exits with its documented
 * out-of-memory status (docs/cli.md). */
typedef void (*sq_oom_handler_t)(size_t bytes);

/* Installs h (NULL: the default).  Call it once, before any thread starts:
 * it is not synchronised. */
void sq_set_oom_handler(sq_oom_handler_t h);

/* Test hook: from now on an allocation of more than `limit` bytes fails as
 * if memory were exhausted (0 restores the default).  For tests of the
 * out-of-memory paths; call it before any thread starts. */
void sq_set_alloc_fault(size_t limit);

/* The memory this process can still use, in bytes: the smallest of
 * MemAvailable (/proc/meminfo) and the soft limits RLIMIT_AS and
 * RLIMIT_DATA; 0 when none is known.  Cost: reads one small file. */
double sq_mem_available(void);

/* malloc/calloc/realloc that call the out-of-memory handler with the
 * requested size on failure (default: abort).
 * sq_malloc(0) returns a valid pointer that must be passed to sq_free. */
void *sq_malloc(size_t n);
void *sq_calloc(size_t count, size_t size);
void *sq_realloc(void *p, size_t n);
void sq_free(void *p);

/* 64-byte aligned, zero-filled allocation for limb arrays; release with
 * sq_aligned_free.  Aborts on failure. */
void *sq_aligned_calloc(size_t count, size_t size);
void sq_aligned_free(void *p);

/* a * b, aborting on size_t overflow. */
size_t sq_mul_size(size_t a, size_t b);

/* Duplicates a NUL-terminated string (aborts on OOM). */
char *sq_strdup(const char *s);

/* ---- Reproducible randomness -------------------------------------------- */

/* xoshiro256** state.  Seed it with sq_rand_init; never from the clock. */
typedef struct {
    uint64_t s[4];
} sq_rand_t;

/* Seeds the generator deterministically from one 64-bit value (splitmix64). */
void sq_rand_init(sq_rand_t *r, uint64_t seed);
/* Next 64 uniformly random bits. */
uint64_t sq_rand_u64(sq_rand_t *r);
/* Uniform integer in [0, n); n > 0. */
uint64_t sq_rand_below(sq_rand_t *r, uint64_t n);

/* ---- Time and machine ---------------------------------------------------- */

/* Monotonic wall-clock time in seconds. */
double sq_wtime(void);
/* CPU time of the whole process in seconds (all threads). */
double sq_cputime(void);
/* CPU time of the calling thread, in seconds (CLOCK_THREAD_CPUTIME_ID): a
 * trace recorded with more threads than cores measures work with it. */
double sq_thread_cputime(void);
/* Peak resident set size of this process in bytes (0 if unknown). */
size_t sq_peak_rss(void);
/* Number of online CPU cores (>= 1). */
int sq_num_cores(void);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CORE_H */
