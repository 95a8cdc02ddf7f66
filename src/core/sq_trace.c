/*
 * sq_trace.c -- trace events (see sq_trace.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_trace.h"

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

static _Thread_local int32_t ctx_s = -1, ctx_t = -1;
static _Thread_local int64_t ctx_sig = -1;

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
        else
            fprintf(stderr,
                    "adams: warning: ADAMS_LOG: unknown event '%s' (known: step, rr, chunk, phase, all)\n",
                    tok);
    }
    return mask;
}

static void init_once(void)
{
    int mask = parse_mask(getenv("ADAMS_LOG"));
    const char *file = getenv("ADAMS_LOG_FILE");
    if (mask && file && *file) {
        int fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0)
            trace_fd = fd;
        else
            fprintf(stderr, "adams: warning: cannot open ADAMS_LOG_FILE '%s'; tracing to stderr\n",
                    file);
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
    sq_trace_mask_ = -1;
    init_once();
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
    buf[n++] = '\n';
    ssize_t w = write(trace_fd, buf, (size_t)n);
    (void)w;
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

int64_t sq_trace_next_section(void)
{
    static int64_t next_section;
    return __atomic_add_fetch(&next_section, 1, __ATOMIC_RELAXED);
}
