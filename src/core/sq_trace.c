/*
 * sq_trace.c -- trace events (see sq_trace.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sq_trace_mask_ = -1;
static int trace_fd = 2;
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Where the events go, as messages name it (printable), and whether a
 * failed write has been reported (once per process, or per reset). */
static char trace_name[160] = "stderr";
static int write_warned;

static _Thread_local int32_t ctx_s = -1, ctx_t = -1;
static _Thread_local int64_t ctx_sig = -1;

size_t sq_trace_printable(char *buf, size_t n, const char *s, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0, i = 0;
    if (n == 0)
        return 0;
    for (; s[i] && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        int plain = c >= 0x20 && c < 0x7f && c != '\\';
        if (k + (plain ? 1 : 4) + 4 > n)
            break;
        if (plain) {
            buf[k++] = (char)c;
        } else {
            buf[k++] = '\\';
            buf[k++] = 'x';
            buf[k++] = hex[c >> 4];
            buf[k++] = hex[c & 15];
        }
    }
    if (s[i] && k + 4 <= n) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return k;
}

static int parse_mask(const char *v)
{
    if (!v || !*v)
        return 0;
    int mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0)
            mask = ~0;
        else if (strcmp(tok, "step") == 0)
            mask |= SQ_TRACE_STEP;
        else if (strcmp(tok, "rr") == 0)
            mask |= SQ_TRACE_RR;
        else if (strcmp(tok, "chunk") == 0)
            mask |= SQ_TRACE_CHUNK;
        else if (strcmp(tok, "phase") == 0)
            mask |= SQ_TRACE_PHASE;
        else {
            char shown[4 * 64 + 8];
            sq_trace_printable(shown, sizeof shown, tok, 64);
            fprintf(stderr,
                    "adams: warning: ADAMS_LOG: unknown event '%s' (known: step, rr, chunk, "
                    "phase, all)\n",
                    shown);
        }
    }
    return mask;
}

static void init_once(void)
{
    int mask = parse_mask(getenv("ADAMS_LOG"));
    const char *file = getenv("ADAMS_LOG_FILE");
    if (mask && file && *file) {
        char shown[sizeof trace_name - 18];
        sq_trace_printable(shown, sizeof shown, file, 4096);
        int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            trace_fd = fd;
            snprintf(trace_name, sizeof trace_name, "ADAMS_LOG_FILE '%s'", shown);
        } else {
            fprintf(stderr, "adams: warning: cannot open ADAMS_LOG_FILE '%s'; tracing to stderr\n",
                    shown);
        }
    }
    __atomic_store_n(&sq_trace_mask_, mask, __ATOMIC_RELEASE);
}

void sq_trace_init_(void)
{
    pthread_once(&once, init_once);
}

void sq_trace_reset(void)
{
    if (trace_fd > 2)
        close(trace_fd);
    trace_fd = 2;
    snprintf(trace_name, sizeof trace_name, "stderr");
    __atomic_store_n(&write_warned, 0, __ATOMIC_RELAXED);
    sq_trace_mask_ = -1;
    init_once();
}

/* A trace line could not be written (a full disk, /dev/full, a closed
 * descriptor): one line on stderr, the first time only, so that a trace
 * that is lost is never lost silently. */
static void warn_lost(int err)
{
    if (__atomic_exchange_n(&write_warned, 1, __ATOMIC_RELAXED))
        return;
    char line[sizeof trace_name + 160];
    int n = snprintf(line, sizeof line,
                     "adams: warning: trace events could not be written to %s (%s); later "
                     "events may be lost\n",
                     trace_name, err ? strerror(err) : "short write");
    if (n > 0) {
        ssize_t w = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        (void)w;
    }
}

/* The process's rank in a distributed run (sq_trace_set_rank), or -1. */
static int trace_rank = -1;

void sq_trace_set_rank(int rank)
{
    trace_rank = rank;
}

void sq_trace_emit(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    if (trace_rank >= 0 && n < (int)sizeof buf - 24)
        n += snprintf(buf + n, sizeof buf - 1 - (size_t)n, " rank=%d", trace_rank);
    buf[n++] = '\n';
    ssize_t w;
    do
        w = write(trace_fd, buf, (size_t)n);
    while (w < 0 && errno == EINTR);
    if (w != n)
        warn_lost(w < 0 ? errno : 0);
}

void sq_trace_set_context(int32_t s, int32_t t, int64_t sig)
{
    ctx_s = s;
    ctx_t = t;
    ctx_sig = sig;
}

void sq_trace_get_context(int32_t *s, int32_t *t, int64_t *sig)
{
    *s = ctx_s;
    *t = ctx_t;
    *sig = ctx_sig;
}

void sq_trace_rr(int64_t rows, int64_t cols, int64_t rank, const char *path, double t0)
{
    int32_t s, t;
    int64_t sig;
    sq_trace_get_context(&s, &t, &sig);
    sq_trace_emit("event=rr rows=%lld cols=%lld min=%lld rank=%lld path=%s ms=%.3f s=%d t=%d "
                  "sig=%lld",
                  (long long)rows, (long long)cols, (long long)(rows < cols ? rows : cols),
                  (long long)rank, path, 1e3 * (sq_wtime() - t0), (int)s, (int)t,
                  (long long)sig);
}

int64_t sq_trace_next_section(void)
{
    static int64_t next_section;
    return __atomic_add_fetch(&next_section, 1, __ATOMIC_RELAXED);
}
