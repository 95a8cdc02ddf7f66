/*
 * cli.c -- the helpers every verb of the adams program shares (cli.h).
 */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "cli.h"
#include "sq_core.h"
#include "sq_pool.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "sq_modspec.h"

/* Longest message printed (longer ones are cut). */
#define MSG_CAP 8192

static void say(const char *prefix, const char *fmt, va_list ap)
{
    char raw[MSG_CAP], shown[MSG_CAP + 8];
    vsnprintf(raw, sizeof raw, fmt, ap);
    sq_modspec_printable(shown, sizeof shown, raw, strlen(raw), MSG_CAP);
    fprintf(stderr, "adams: %s%s\n", prefix, shown);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("", fmt, ap);
    va_end(ap);
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say("note: ", fmt, ap);
    va_end(ap);
}

const char *cli_str(const char *s)
{
    static char buf[4][CLI_NAME_CLIP + 8];
    static int next;
    char *b = buf[next];
    next = (next + 1) % 4;
    sq_modspec_printable(b, sizeof buf[0], s ? s : "", s ? strlen(s) : 0, CLI_NAME_CLIP);
    return b;
}

int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    if (!text || !*text) {
        cli_error("%s: missing value", opt);
        return -1;
    }
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end != '\0' || end == text) {
        cli_error("%s: expected an integer, got '%s'", opt, cli_str(text));
        return -1;
    }
    if (errno == ERANGE || v < lo || v > hi) {
        cli_error("%s: %s is out of range [%lld, %lld]", opt, cli_str(text), (long long)lo,
                  (long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_write_stdout(const char *text)
{
    if (fputs(text, stdout) == EOF) {
        int e = errno;
        fflush(stdout);
        clearerr(stdout);
        cli_error("could not write the output: %s", strerror(e));
        return CLI_FAIL;
    }
    return cli_finish_stdout();
}

int cli_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        clearerr(stdout);
        cli_error("could not write the output: %s", e ? strerror(e) : "write error");
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_finish_output(int wrc)
{
    int e = errno;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        e = errno ? errno : e;
        clearerr(stdout);
        wrc = wrc ? wrc : SQ_E_IO;
    }
    if (!wrc)
        return CLI_OK;
    if (wrc == SQ_E_IO && e)
        cli_error("could not write the output: %s", strerror(e));
    else
        cli_error("could not write the output: %s", sq_strerror(wrc));
    return CLI_FAIL;
}

void cli_ignore_write_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGXFSZ, &sa, NULL);
}

int cli_parse_size(const char *opt, const char *text, double *out)
{
    char *end;
    double v = text && *text ? strtod(text, &end) : -1;
    if (!text || !*text || end == text || v < 0 || v != v) {
        cli_error("%s: expected a size such as 500M or 8G, got '%s'", opt, cli_str(text ? text : ""));
        return -1;
    }
    double mult = 1;
    switch (*end) {
    case 'K': case 'k': mult = 1024.0; end++; break;
    case 'M': case 'm': mult = 1048576.0; end++; break;
    case 'G': case 'g': mult = 1073741824.0; end++; break;
    case 'T': case 't': mult = 1099511627776.0; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || v * mult < 1 || v * mult > 1e18) {
        cli_error("%s: expected a size such as 500M or 8G, got '%s'", opt, cli_str(text));
        return -1;
    }
    *out = v * mult;
    return 0;
}

/* An allocation of n bytes failed: one line, exit CLI_NOMEM (no core dump,
 * no half-written output is flushed: _exit). */
static void out_of_memory(size_t n)
{
    char line[256];
    int k = snprintf(line, sizeof line,
                     "adams: out of memory: could not allocate %zu bytes; resolve a smaller "
                     "region or use a machine with more memory\n",
                     n);
    if (k > 0) {
        ssize_t w = write(2, line, (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
        (void)w;
    }
    _exit(CLI_NOMEM);
}

void cli_install_handlers(void)
{
    sq_set_oom_handler(out_of_memory);
    const char *a = getenv("ADAMS_FAULT_ALLOC_BYTES");
    if (a && *a)
        sq_set_alloc_fault((size_t)strtoull(a, NULL, 10));
    const char *t = getenv("ADAMS_FAULT_THREADS");
    if (t && *t)
        sq_pool_set_fault(atoi(t));
}
