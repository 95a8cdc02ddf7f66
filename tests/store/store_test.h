/*
 * store_test.h -- helpers of the store's tests: temporary folders, small
 * modules, saving runs in this process or in a child, and comparisons of
 * two stores record by record.
 */
#ifndef STORE_TEST_H
#define STORE_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_store.h"

/* A new empty folder under $TMPDIR (or /tmp); st_tmpdir_remove deletes it
 * with everything in it. */
char *st_tmpdir_new(void);
void st_tmpdir_remove(char *dir);
/* dir/name in a static buffer (one of 8 rotating). */
const char *st_path(const char *dir, const char *name);

/* Modules built here: the sphere (at the prime of st_set_prime: 2 unless
 * a test sets another, so that a test body runs at p = 3 too), C2 (Sq1 on
 * the bottom cell), and the sphere over A(1) (profile [2,1]). */
void st_set_prime(uint32_t p);
fdmod_t *st_sphere(void);
fdmod_t *st_C2(void);
fdmod_t *st_sphere_A1(void);

/* A saving run of M through (max_s, max_n) into path with `threads`
 * threads; with stop_after >= 0 the run is asked to stop after that many
 * steps finished.  Returns what sq_store_run returned (0 done, 1 stopped,
 * < 0 error), with the message in err; the test fails if the store does
 * not open.  st_run_flags passes flags (SQ_STORE_REPAIR) to the load. */
int st_run(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t max_n,
           int threads, int64_t stop_after, char *err, size_t errlen);
int st_run_flags(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s,
                 int32_t max_n, int threads, int64_t stop_after, int flags, char *err,
                 size_t errlen);
/* st_run of M's unstable resolution (resol_new_unstable, classical), in a
 * store of category unstable (format 4). */
int st_run_unstable(const char *path, const fdmod_t *M, int32_t max_s, int32_t max_n,
                    int threads, int64_t stop_after, char *err, size_t errlen);

/* Fails the test unless the two stores hold the same steps of the region
 * (same generator counts, same vectors bit for bit) and all of them. */
void st_assert_same_steps(const char *a, const char *b, int32_t max_s, int32_t max_n);

/* Fails the test unless the stores a and b hold the same rows (s, t,
 * ngens, nbits, codec, rawlen, data: two stores of one run, whatever their
 * store_id) and those rows are not trivially few. */
void st_same_rows(const char *a, const char *b);

/* `adams resolve MODULE --stem N --max-s S --threads 2 --save F` killed by
 * SIGKILL after each of the four delays (at least one run must be killed),
 * then the same command once more: the test fails unless it prints the
 * chart of an uninterrupted run, holds that run's rows (st_same_rows) and
 * passes `adams check`.  Forks the program SQ_ADAMS_BIN. */
void st_kill_resume(const char *module, int stem, int max_s, const long delays_us[4]);
/* st_kill_resume of another verb that saves (`adams d2 ... --save F`: the
 * same output, step rows and check after the kills). */
void st_kill_resume_verb(const char *verb, const char *module, int stem, int max_s,
                         const long delays_us[4]);

/* The E2 page of the region from the store (the test fails on an error). */
void st_read_ext(const char *path, int32_t max_s, int32_t max_n, int64_t *dims);

/* An independent CRC-32C (bit by bit, from the spec) for the tests. */
uint32_t st_crc32c(const void *p, size_t n);

/* The checksum of a format-2 row of the store at path, computed here from
 * the spec (docs/save-format.md 4.3) with the store's own binding. */
uint32_t st_row_crc(const char *path, int32_t s, int32_t t, int64_t ngens, int64_t nbits,
                    const void *payload, size_t len);

/* Runs one SQL statement on the store (the test fails on an error). */
void st_sql(const char *path, const char *stmt);

/* One row of the step table, as stored. */
typedef struct {
    int32_t s, t;
    int64_t ngens, nbits, codec, rawlen;
    unsigned char *data; /* sq_free */
    size_t len;
    uint32_t crc;
} st_row_t;

/* Reads the row (s, t): 1 when found. */
int st_get_row(const char *path, int32_t s, int32_t t, st_row_t *r);
/* Writes (inserts or replaces) a row with exactly these columns. */
void st_put_row(const char *path, int64_t s, int64_t t, int64_t ngens, int64_t nbits,
                int64_t codec, int64_t rawlen, const void *blob, size_t bloblen, uint32_t crc);

#endif
