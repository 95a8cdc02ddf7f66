/*
 * t-extend.c -- a store extended to a larger region holds exactly what a
 * fresh run of the larger region computes (the same generators and
 * differentials, bit for bit), for both engines; a run over a region with
 * fewer filtrations than the store uses the part it needs.
 */
#include <string.h>

#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

/* Resolves (s1, n1) into a store, extends it to (s2, n2), and compares it
 * with a fresh store of (s2, n2). */
static void extend(resol_algo_t algo, int32_t s1, int32_t n1, int32_t s2, int32_t n2)
{
    char *dir = st_tmpdir_new();
    const char *fresh = st_path(dir, "fresh.db"), *p = st_path(dir, "p.db");
    fdmod_t *M = st_sphere();
    char err[1024];
    ASSERT_EQ(st_run(fresh, M, algo, s2, n2, 2, -1, err, sizeof err), 0);
    ASSERT_EQ(st_run(p, M, algo, s1, n1, 2, -1, err, sizeof err), 0);
    sq_store_t *st;
    sq_store_binding_t b = {.module = M, .engine = RESOL_AUTO, .max_s = s2, .max_n = n2};
    ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), 0);
    ASSERT_EQ(sq_store_engine(st), algo);
    resol_t *R = resol_new(M, s2, n2);
    sq_store_run_result_t res;
    ASSERT_EQ(sq_store_run(st, R, NULL, NULL, 0, &res, NULL, err, sizeof err), 0);
    /* Everything of the old region was loaded, nothing dropped. */
    int32_t sl = s1 < s2 ? s1 : s2, nl = n1 < n2 ? n1 : n2;
    ASSERT_EQ(res.load.loaded, (int64_t)(sl + 1) * (nl + 1));
    ASSERT_EQ(res.load.dropped, 0);
    ASSERT_EQ(res.computed, res.total - res.load.loaded);
    resol_free(R);
    sq_store_close(st);
    st_assert_same_steps(fresh, p, s2, n2);
    int64_t *a = sq_malloc(sizeof(int64_t) * (size_t)(n2 + 1) * (size_t)(s2 + 1));
    int64_t *c = sq_malloc(sizeof(int64_t) * (size_t)(n2 + 1) * (size_t)(s2 + 1));
    st_read_ext(fresh, s2, n2, a);
    st_read_ext(p, s2, n2, c);
    ASSERT(memcmp(a, c, sizeof(int64_t) * (size_t)(n2 + 1) * (size_t)(s2 + 1)) == 0);
    sq_free(a);
    sq_free(c);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_extend_30_45_classical)
{
    extend(RESOL_CLASSICAL, 18, 30, 23, 45);
}

TEST(store_extend_30_45_nassau)
{
    extend(RESOL_NASSAU, 18, 30, 23, 45);
}

/* Fewer filtrations than the store holds: the rows it needs are loaded. */
TEST(store_extend_fewer_rows)
{
    extend(RESOL_NASSAU, 20, 30, 10, 45);
}

TEST(store_extend_60_80_nassau_slow)
{
    extend(RESOL_NASSAU, 33, 60, 43, 80);
}

TEST(store_extend_60_80_classical_slow)
{
    extend(RESOL_CLASSICAL, 33, 60, 43, 80);
}
