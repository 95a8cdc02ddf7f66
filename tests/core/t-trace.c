/*
 * t-trace.c -- what the trace says about itself (issue 20 row 17):
 *   - a key of ADAMS_LOG that is not an event is quoted with its
 *     unprintable bytes escaped (\xHH), never echoed raw (an ESC would
 *     drive the user's terminal);
 *   - when trace lines cannot be written (ADAMS_LOG_FILE=/dev/full), the
 *     program warns once, in one line on stderr, and its answer is
 *     unchanged (exit 0, same stdout);
 *   - sq_trace_printable itself.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_test.h"
#include "sq_trace.h"

static int64_t count(const char *hay, const char *needle)
{
    int64_t c = 0;
    size_t n = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + n, needle))
        c++;
    return c;
}

TEST(trace_printable)
{
    char buf[64];
    ASSERT_EQ(sq_trace_printable(buf, sizeof buf, "step", 64), 4);
    ASSERT_STR_EQ(buf, "step");
    sq_trace_printable(buf, sizeof buf, "st\x1b[31mep", 64);
    ASSERT_STR_EQ(buf, "st\\x1b[31mep");
    sq_trace_printable(buf, sizeof buf, "a\\b\n\xc3\xa9", 64);
    ASSERT_STR_EQ(buf, "a\\x5cb\\x0a\\xc3\\xa9");
    sq_trace_printable(buf, sizeof buf, "abcdefgh", 3);
    ASSERT_STR_EQ(buf, "abc...");
    /* A small buffer: cut, never overrun, always terminated. */
    char small[8];
    sq_trace_printable(small, sizeof small, "\x01\x02\x03\x04", 64);
    ASSERT(strlen(small) < sizeof small);
}

TEST(trace_unknown_key_escaped)
{
    setenv("ADAMS_LOG", "st\x1b[31mep", 1);
    unsetenv("ADAMS_LOG_FILE");
    char *out, *err;
    int rc = sq_test_run_adams("resolve --stem 3 --quiet", &out, &err);
    unsetenv("ADAMS_LOG");
    ASSERT_EQ(rc, 0);
    ASSERT(strchr(err, '\x1b') == NULL);
    ASSERT(strstr(err, "ADAMS_LOG: unknown event 'st\\x1b[31mep'") != NULL);
    sq_free(out);
    sq_free(err);
}

TEST(trace_write_failure_warns_once)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        printf("SKIP: no /dev/full here\n");
        exit(77);
    }
    fclose(f);
    char *want, *out, *err;
    ASSERT_EQ(sq_test_run_adams("resolve --stem 12 --quiet", &want, &err), 0);
    sq_free(err);
    setenv("ADAMS_LOG", "step", 1);
    setenv("ADAMS_LOG_FILE", "/dev/full", 1);
    int rc = sq_test_run_adams("resolve --stem 12 --quiet", &out, &err);
    unsetenv("ADAMS_LOG");
    unsetenv("ADAMS_LOG_FILE");
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(out, want);
    /* Many steps, one warning line naming the file and the reason. */
    ASSERT_EQ(count(err, "trace events could not be written"), 1);
    ASSERT(strstr(err, "to ADAMS_LOG_FILE '/dev/full' (No space left on device)") != NULL);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    sq_free(out);
    sq_free(want);
    sq_free(err);
}
