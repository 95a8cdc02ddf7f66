/*
 * sq_test.h -- the tiny test harness of adams.
 *
 * A test file defines tests with TEST(name) { ... }.  Each test registers
 * itself at load time (a constructor), so a suite's executable is just its
 * test files plus tests/harness/sq_test.c, which holds main().  After each
 * build CMake asks the executable for its tests (`./t_fp --list`) and
 * registers every name as its own CTest test (cmake/AdamsDiscoverTests.cmake),
 * so `ctest -R fp.f2mat_rref` runs one.  Run all tests of a suite with
 * `./t_fp`, or some with `./t_fp name1 name2`.
 *
 * Randomness: sq_test_rand() returns a generator seeded from SQ_TEST_SEED
 * (default 17) and the test name, so each test is reproducible on its own.
 * SQ_TEST_MULTIPLIER scales iteration counts (sq_test_iters).  A failing
 * assertion prints both values, the seed and the file:line, then exits 1.
 */
#ifndef SQ_TEST_H
#define SQ_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"

typedef void (*sq_test_fn)(void);

void sq_test_register(const char *name, sq_test_fn fn);
/* Generator for the running test (seeded from SQ_TEST_SEED and its name). */
sq_rand_t *sq_test_rand(void);
/* n scaled by SQ_TEST_MULTIPLIER (default 1), at least 1. */
int64_t sq_test_iters(int64_t n);
/* The seed in use (for failure messages). */
uint64_t sq_test_seed(void);
/* Path of a file under tests/data (the directory is compiled in). */
const char *sq_test_data_path(const char *file);
/* The contents of a file as a NUL-terminated string ("" if unreadable);
 * free with sq_free. */
char *sq_test_slurp(const char *path);
/* The tests/data file's contents after its leading '#' lines (the source
 * and citation lines of a reference output), as a new string ("" if
 * unreadable); free with sq_free. */
char *sq_test_data_body(const char *file);
/* sq_test_data_body(file) with each line's leading `from` (if it starts
 * with it) made `to`: the peer's names of classes made adams's.  A new
 * string; free with sq_free. */
char *sq_test_data_renamed(const char *file, const char *from, const char *to);
/* Runs "adams <args>" (args are shell words; the adams built with the
 * tests), capturing stdout and stderr into new strings; returns the exit
 * code (the test fails if adams did not exit normally). */
int sq_test_run_adams(const char *args, char **out, char **err);
/* One run of the adams program: its exit code and its output (owned). */
typedef struct {
    int rc;
    char *out, *err;
} sq_test_run_t;
/* sq_test_run_adams with the arguments formatted (at most 2047 bytes). */
sq_test_run_t sq_test_runf(const char *fmt, ...) SQ_PRINTF(1, 2);
/* Frees r's output. */
void sq_test_run_free(sq_test_run_t *r);
/* Runs "adams <args>", fails the test (at file:line, with its stderr)
 * unless it exits 0, and returns its stdout (free with sq_free). */
char *sq_test_run_ok(const char *file, int line, const char *args);
/* Number of '\n' in s. */
int sq_test_count_lines(const char *s);
/* Runs "adams <args>" and fails the test (at file:line) unless it exits
 * with rc and, where out / err are not NULL, prints exactly them. */
void sq_test_expect_run(const char *file, int line, const char *args, int rc, const char *out,
                        const char *err);
/* A new empty directory /tmp/adams-<tag>-XXXXXX into dir (n bytes); the
 * test fails if it cannot be made.  sq_test_remove_dir removes it and all
 * it holds. */
void sq_test_make_dir(char *dir, size_t n, const char *tag);
void sq_test_remove_dir(const char *dir);

/* Report a failure and exit(1). */
void sq_test_fail(const char *file, int line, const char *fmt, ...) SQ_PRINTF(3, 4);

#define TEST(name)                                                                                 \
    static void test_##name(void);                                                                 \
    __attribute__((constructor)) static void register_##name(void)                                 \
    {                                                                                              \
        sq_test_register(#name, test_##name);                                                      \
    }                                                                                              \
    static void test_##name(void)

#define ASSERT(e)                                                                                  \
    do {                                                                                           \
        if (!(e))                                                                                  \
            sq_test_fail(__FILE__, __LINE__, "ASSERT(%s)", #e);                                    \
    } while (0)

#define ASSERT_EQ(a, b)                                                                            \
    do {                                                                                           \
        long long sq_a_ = (long long)(a), sq_b_ = (long long)(b);                                  \
        if (sq_a_ != sq_b_)                                                                        \
            sq_test_fail(__FILE__, __LINE__, "ASSERT_EQ(%s, %s): %lld != %lld", #a, #b, sq_a_,     \
                         sq_b_);                                                                   \
    } while (0)

#define ASSERT_STR_EQ(a, b)                                                                        \
    do {                                                                                           \
        const char *sq_a_ = (a), *sq_b_ = (b);                                                     \
        if (strcmp(sq_a_, sq_b_) != 0)                                                             \
            sq_test_fail(__FILE__, __LINE__, "ASSERT_STR_EQ(%s, %s):\n--- got\n%s\n--- want\n%s",  \
                         #a, #b, sq_a_, sq_b_);                                                    \
    } while (0)

#endif /* SQ_TEST_H */
