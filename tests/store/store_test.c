/*
 * store_test.c -- helpers of the store's tests (store_test.h).
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include "store_test.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "milnor.h"
#include "sq_core.h"
#include "sq_pool.h"
#include "sq_test.h"

char *st_tmpdir_new(void)
{
    const char *base = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/adams-store-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(buf))
        sq_test_fail(__FILE__, __LINE__, "mkdtemp(%s) failed", buf);
    return sq_strdup(buf);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

void st_tmpdir_remove(char *dir)
{
    if (!dir)
        return;
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    sq_free(dir);
}

const char *st_path(const char *dir, const char *name)
{
    static char buf[8][4096];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

fdmod_t *st_sphere(void)
{
    return fdmod_sphere();
}

fdmod_t *st_C2(void)
{
    fdmod_t *M = fdmod_new("C2", 0, 1);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    milnor_t *A = milnor_new(2);
    uint64_t one = 1;
    fdmod_set_sq(M, A, 1, 0, 0, &one);
    char err[256];
    if (fdmod_complete(M, A, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "C2: %s", err);
    milnor_free(A);
    return M;
}

fdmod_t *st_sphere_A1(void)
{
    fdmod_t *M = fdmod_sphere();
    int32_t h[2] = {2, 1};
    fdmod_set_profile(M, h, 2);
    return M;
}

typedef struct {
    resol_t *R;
    int64_t left;
} stopper_t;

static void stop_after(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    stopper_t *S = ctx;
    (void)done, (void)total, (void)s, (void)t;
    if (S->left >= 0 && --S->left <= 0)
        resol_request_stop(S->R);
}

int st_run_flags(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s,
                 int32_t max_n, int threads, int64_t stop, int flags, char *err, size_t errlen)
{
    sq_store_t *st;
    sq_store_binding_t b = {.module = M, .engine = algo, .max_s = max_s, .max_n = max_n};
    int rc = sq_store_open(&st, path, &b, err, errlen);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "open %s: %s", path, err);
    resol_t *R = resol_new(M, max_s, max_n);
    sq_pool_t *pool = threads > 1 ? sq_pool_new(threads) : NULL;
    stopper_t S = {R, stop};
    resol_observer_t obs = {stop_after, &S};
    rc = sq_store_run(st, R, pool, stop >= 0 ? &obs : NULL, flags, NULL, NULL, err, errlen);
    sq_pool_free(pool);
    resol_free(R);
    sq_store_close(st);
    return rc;
}

int st_run(const char *path, const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t max_n,
           int threads, int64_t stop, char *err, size_t errlen)
{
    return st_run_flags(path, M, algo, max_s, max_n, threads, stop, 0, err, errlen);
}

void st_read_ext(const char *path, int32_t max_s, int32_t max_n, int64_t *dims)
{
    sq_store_t *st;
    char err[1024];
    if (sq_store_open_read(&st, path, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "open_read %s: %s", path, err);
    if (sq_store_read_ext(st, max_s, max_n, dims, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "read_ext %s: %s", path, err);
    sq_store_close(st);
}

void st_assert_same_steps(const char *a, const char *b, int32_t max_s, int32_t max_n)
{
    sq_store_t *sa, *sb;
    char err[1024];
    if (sq_store_open_read(&sa, a, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "open_read %s: %s", a, err);
    if (sq_store_open_read(&sb, b, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "open_read %s: %s", b, err);
    sq_store_info_t ia;
    if (sq_store_info(sa, &ia, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "info: %s", err);
    int64_t steps = 0;
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t n = ia.bottom; n <= max_n; n++) {
            int64_t ga, gb, na, nb;
            uint64_t *va, *vb;
            if (sq_store_read_step(sa, s, s + n, &ga, &na, &va, err, sizeof err) != 0)
                sq_test_fail(__FILE__, __LINE__, "%s: %s", a, err);
            if (sq_store_read_step(sb, s, s + n, &gb, &nb, &vb, err, sizeof err) != 0)
                sq_test_fail(__FILE__, __LINE__, "%s: %s", b, err);
            if (ga != gb || na != nb ||
                (ga && na && memcmp(va, vb, (size_t)(ga * ((na + 63) / 64) * 8)) != 0))
                sq_test_fail(__FILE__, __LINE__,
                             "step (s=%d, t=%d) differs: %lld x %lld bits in %s, %lld x %lld in "
                             "%s",
                             (int)s, (int)(s + n), (long long)ga, (long long)na, a,
                             (long long)gb, (long long)nb, b);
            sq_free(va);
            sq_free(vb);
            steps++;
        }
    ASSERT(steps > 0);
    sq_store_close(sa);
    sq_store_close(sb);
}

uint32_t st_crc32c(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
}
