/*
 * sq_trace.h -- structured trace events: one "key=value ..." line per event.
 *
 * ADAMS_LOG selects the events: a comma-separated list of keys ("step",
 * "rr", "chunk", "phase") or "all".  Lines go to stderr, or to the file named by
 * ADAMS_LOG_FILE (appended).  Each line is written with a single write(2),
 * so lines from many threads never interleave.  When a line cannot be
 * written (a full disk), one warning line goes to stderr, once.  When ADAMS_LOG is unset the
 * cost is one load of a global flag per potential event.
 *
 * Events carry the bidegree (and signature) of the step that issued them:
 * a step sets its thread's context with sq_trace_set_context.  "chunk"
 * events (sq_pool.c) carry the context of the thread that opened the
 * section, whichever thread runs the chunk:
 *   event=chunk s= t= section=ID chunk=I chunks=N at=START_MS ms=MS thread=K
 *               cpu_ms=MS (the running thread's CPU time)
 */
#ifndef SQ_TRACE_H
#define SQ_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SQ_TRACE_STEP = 1, /* one event per bidegree step */
    SQ_TRACE_RR = 2,   /* one event per row reduction with min(rows, cols) >= 1024 */
    SQ_TRACE_CHUNK = 4, /* one event per chunk of a parallel section (sq_pool_parallel_for) */
    SQ_TRACE_PHASE = 8  /* one event per Nassau step: wall time of each of its phases */
};

/* Bit mask of enabled events (read from the environment once). */
extern int sq_trace_mask_;
void sq_trace_init_(void);

/* Whether events of kind `key` are enabled. */
static inline int sq_trace_on(int key)
{
    int mask = __atomic_load_n(&sq_trace_mask_, __ATOMIC_ACQUIRE);
    if (SQ_UNLIKELY(mask < 0)) {
        sq_trace_init_();
        mask = __atomic_load_n(&sq_trace_mask_, __ATOMIC_ACQUIRE);
    }
    return (mask & key) != 0;
}

/* Re-reads ADAMS_LOG and ADAMS_LOG_FILE (for tests and programs that set
 * them after start).  Not thread-safe: call before starting work. */
void sq_trace_reset(void);

/* Copies at most max bytes of the string s into buf (n > 0 bytes, always
 * NUL-terminated) fit for a one-line message: bytes outside printable ASCII
 * (and the backslash) become \xHH, and a string cut short ends in "...".
 * Returns the length written.  Used for what the environment gives
 * (ADAMS_LOG's keys, ADAMS_LOG_FILE). */
size_t sq_trace_printable(char *buf, size_t n, const char *s, size_t max);

/* In a distributed run (resolve --mpi), every line of this process ends in
 * " rank=K" (rank >= 0); -1 (the default) adds nothing.  Call before
 * starting work. */
void sq_trace_set_rank(int rank);
/* Formats one event line (a newline is appended) and writes it whole. */
void sq_trace_emit(const char *fmt, ...) SQ_PRINTF(1, 2);

/* The calling thread's step context: bidegree (s, t) and signature ordinal
 * (-1 when the step is not working on a signature). */
void sq_trace_set_context(int32_t s, int32_t t, int64_t sig);
void sq_trace_get_context(int32_t *s, int32_t *t, int64_t *sig);

/* Row reductions of min(rows, cols) >= SQ_TRACE_RR_MIN (the spec's "large"
 * ones) get an rr event when SQ_TRACE_RR is on: sq_trace_rr_on says
 * whether (read it before timing the reduction), sq_trace_rr writes the
 * event of one that started at t0 (sq_wtime) on path ("cpu", "gpu"), with
 * the thread's step context. */
#define SQ_TRACE_RR_MIN 1024
static inline int sq_trace_rr_on(int64_t rows, int64_t cols)
{
    return (rows < cols ? rows : cols) >= SQ_TRACE_RR_MIN && sq_trace_on(SQ_TRACE_RR);
}
void sq_trace_rr(int64_t rows, int64_t cols, int64_t rank, const char *path, double t0);

/* A fresh section id for event=chunk (a per-process counter from 1). */
int64_t sq_trace_next_section(void);

#ifdef __cplusplus
}
#endif

#endif /* SQ_TRACE_H */
