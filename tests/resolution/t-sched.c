/*
 * t-sched.c -- the parallel wavefront: results (every differential, bit
 * for bit) do not depend on the thread count or the schedule; the pool's
 * parallel loops run every index exactly once.
 */
#include <string.h>

#include "resol.h"
#include "sq_pool.h"
#include "sq_test.h"
#include "test_modules.h"

/* Whether two runs produced the same resolution: same generators in every
 * degree of every F_s and the same differentials bit for bit. */
static void assert_same(const resol_t *a, const resol_t *b)
{
    for (int32_t s = 0; s <= resol_max_s(a); s++) {
        const fmod_t *Fa = resol_free_module(a, s), *Fb = resol_free_module(b, s);
        ASSERT_EQ(fmod_total_gens(Fa), fmod_total_gens(Fb));
        ASSERT_EQ(fmod_gens_through(Fa), fmod_gens_through(Fb));
        for (int64_t g = 0; g < fmod_total_gens(Fa); g++) {
            ASSERT_EQ(fmod_gen_degree(Fa, g), fmod_gen_degree(Fb, g));
            int64_t na, nb;
            const uint64_t *ia = fhom_image(resol_differential(a, s), g, &na);
            const uint64_t *ib = fhom_image(resol_differential(b, s), g, &nb);
            ASSERT_EQ(na, nb);
            if (memcmp(ia, ib, (size_t)f2_limbs(na) * 8) != 0)
                sq_test_fail(__FILE__, __LINE__, "d(generator %lld of F_%d) differs",
                             (long long)g, s);
        }
    }
}

typedef struct {
    int64_t count[4];
} progress_t;

static void on_step(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    progress_t *p = ctx;
    (void)s;
    (void)t;
    p->count[0]++;
    p->count[1] = done;
    p->count[2] = total;
}

/* Runs M over the region serially and with 2, 3 and 8 threads. */
static void check_schedules(fdmod_t *M, int32_t max_n, int32_t max_s, resol_algo_t algo)
{
    resol_t *ref = resol_new(M, max_s, max_n);
    resol_run(ref, algo);
    int threads[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        sq_pool_t *pool = sq_pool_new(threads[i]);
        resol_t *R = resol_new(M, max_s, max_n);
        progress_t pr = {{0}};
        resol_observer_t obs = {on_step, &pr};
        resol_run_pool(R, algo, pool, &obs);
        ASSERT_EQ(pr.count[0], pr.count[2]);
        ASSERT_EQ(pr.count[1], pr.count[2]);
        ASSERT_EQ(pr.count[2], resol_num_steps(R, algo));
        assert_same(ref, R);
        resol_free(R);
        sq_pool_free(pool);
    }
    resol_free(ref);
}

TEST(sched_S2_n70_s38_slow)
{
    fdmod_t *M = fdmod_sphere();
    check_schedules(M, 70, 38, RESOL_NASSAU);
    fdmod_free(M);
}

TEST(sched_classical_S2_n50_s26)
{
    fdmod_t *M = fdmod_sphere();
    check_schedules(M, 50, 26, RESOL_CLASSICAL);
    fdmod_free(M);
}

TEST(sched_small_threads)
{
    /* Small regions, both engines, several modules: the TSan job runs this. */
    fdmod_t *mods[] = {fdmod_sphere(), test_module_C2(), test_module_Joker()};
    for (int i = 0; i < 3; i++) {
        check_schedules(mods[i], 24, 12, RESOL_NASSAU);
        check_schedules(mods[i], 20, 10, RESOL_CLASSICAL);
        fdmod_free(mods[i]);
    }
}

/* The serial parts of a Nassau step split over the pool (the signature
 * classes, the provisional boundaries: resol_nassau.c), forced for every
 * step whatever its size: the same bits on 1, 2, 3 and 8 threads as the
 * serial run.  The hook is declared where it is defined. */
void resol_nassau_split_all(int on);

TEST(nassau_split_serial_parts_threads)
{
    resol_nassau_split_all(1);
    fdmod_t *mods[] = {fdmod_sphere(), test_module_C2()};
    for (int i = 0; i < 2; i++) {
        check_schedules(mods[i], 40, 20, RESOL_NASSAU);
        fdmod_free(mods[i]);
    }
    resol_nassau_split_all(0);
}

/* Nassau's resolution of M through (18, 36) on 1, 2, 3 and 8 threads with
 * the default cache budget, and (with_none) on 2 and 8 threads with none
 * (blocks evicted and built again): each equals ref. */
static void same_on_threads(const resol_t *ref, const fdmod_t *M, int with_none)
{
    int threads[] = {1, 2, 3, 8};
    for (int budget = 0; budget <= with_none; budget++)
        for (size_t j = 0; j < sizeof threads / sizeof threads[0]; j++) {
            if (budget && (threads[j] == 1 || threads[j] == 3))
                continue;
            resol_t *R = resol_new(M, 18, 36);
            if (budget)
                resol_set_cache_budget(R, 0);
            sq_pool_t *pool = sq_pool_new(threads[j]);
            resol_run_pool(R, RESOL_NASSAU, pool, NULL);
            sq_pool_free(pool);
            assert_same(ref, R);
            resol_free(R);
        }
}

/* Step 3 of Nassau's step split whatever its size (nassau_correct.c: the
 * translations and quasi-inverses by row and part of the class, the XORs
 * of kept rows by row and limb range, all products of a signature in one
 * batch cut at 6 or more chunks): the same bits on 1, 2, 3 and 8 threads
 * as the unsplit serial run, with the default cache budget and (the
 * sphere, 2 and 8 threads) with none (blocks evicted and built again).
 * The hook is declared where it is defined. */
void nassau_correct_split_all(int on);

TEST(nassau_correct_split_threads)
{
    fdmod_t *mods[] = {fdmod_sphere(), test_module_C2(), test_module_Joker()};
    for (int i = 0; i < 3; i++) {
        resol_t *ref = resol_new(mods[i], 18, 36);
        resol_run(ref, RESOL_NASSAU);
        nassau_correct_split_all(1);
        same_on_threads(ref, mods[i], i == 0);
        nassau_correct_split_all(0);
        resol_free(ref);
        fdmod_free(mods[i]);
    }
}

/* The completion of zero-signature blocks split whatever its size
 * (nassau_zcache.c: the set-up's zero positions and generator blocks, the
 * build of a block's new rows by pieces that zero, build, append and free
 * their own rows, the appending of step 1's seeds by rows, the gathers
 * into [A | I] by rows, the quasi-inverse's copy by rows): the
 * same bits on 1, 2, 3 and 8 threads as the unsplit serial run, with the
 * default cache budget and (2 and 8 threads) with none, so that blocks are
 * evicted, reseeded and built again.  The hook is declared where it is
 * defined. */
void nassau_zcache_split_all(int on);

TEST(nassau_zblock_split_threads)
{
    fdmod_t *mods[] = {fdmod_sphere(), test_module_C2(), test_module_Joker()};
    for (int i = 0; i < 3; i++) {
        resol_t *ref = resol_new(mods[i], 18, 36);
        resol_run(ref, RESOL_NASSAU);
        nassau_zcache_split_all(1);
        same_on_threads(ref, mods[i], 1);
        nassau_zcache_split_all(0);
        resol_free(ref);
        fdmod_free(mods[i]);
    }
}

/* The cache budget of Nassau's corrections (none, a little, the default)
 * changes what is built again, never the bits: serially and on 2 threads
 * the differentials equal the default serial run's; under a budget below
 * the run's need, blocks are evicted, and the blocks and handed matrices
 * never hold more than the budget plus one block (or matrix) per thread. */
TEST(nassau_cache_budget_threads)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *ref = resol_new(M, 30, 60);
    resol_run(ref, RESOL_NASSAU);
    int64_t peak, misses;
    resol_cache_stats(ref, &peak, &misses, NULL);
    ASSERT(peak > 0);
    ASSERT_EQ(misses, 0);
    int64_t peak_default = peak;
    int64_t budgets[] = {0, 64 << 10, 1 << 20};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++)
        for (int threads = 1; threads <= 2; threads++) {
            resol_t *R = resol_new(M, 30, 60);
            resol_set_cache_budget(R, budgets[i]);
            if (threads == 1) {
                resol_run(R, RESOL_NASSAU);
            } else {
                sq_pool_t *pool = sq_pool_new(threads);
                resol_run_pool(R, RESOL_NASSAU, pool, NULL);
                sq_pool_free(pool);
            }
            assert_same(ref, R);
            int64_t largest;
            resol_cache_stats(R, &peak, &misses, &largest);
            if (budgets[i] < peak_default)
                ASSERT(misses > 0);
            if (peak > budgets[i] + threads * largest)
                sq_test_fail(__FILE__, __LINE__,
                             "%d threads: the cache held %lld bytes, budget %lld, largest %lld",
                             threads, (long long)peak, (long long)budgets[i], (long long)largest);
            resol_free(R);
        }
    resol_free(ref);
    fdmod_free(M);
}

typedef struct {
    int64_t *hits;
    sq_pool_t *pool;
} pf_ctx_t;

static void inner(void *ctx, int64_t i)
{
    pf_ctx_t *c = ctx;
    __atomic_add_fetch(&c->hits[1000 + i], 1, __ATOMIC_RELAXED);
}

static void outer(void *ctx, int64_t i)
{
    pf_ctx_t *c = ctx;
    __atomic_add_fetch(&c->hits[i], 1, __ATOMIC_RELAXED);
    if (i % 7 == 0) /* nested sections from inside a section */
        sq_pool_parallel_for(c->pool, 50, inner, c);
}

TEST(pool_parallel_for_threads)
{
    int sizes[] = {1, 2, 5};
    for (int k = 0; k < 3; k++) {
        sq_pool_t *pool = sq_pool_new(sizes[k]);
        int64_t hits[1100] = {0};
        pf_ctx_t c = {hits, pool};
        sq_pool_parallel_for(pool, 1000, outer, &c);
        for (int i = 0; i < 1000; i++)
            ASSERT_EQ(hits[i], 1);
        for (int i = 0; i < 50; i++)
            ASSERT_EQ(hits[1000 + i], 143); /* i % 7 == 0 for 143 of 0..999 */
        ASSERT_EQ(sq_pool_size(pool), sizes[k]);
        sq_pool_free(pool);
    }
}

TEST(build_rows_par_threads)
{
    /* The parallel matrix build equals the serial one bit for bit, for the
     * full restricted basis and for a subset. */
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 10, 40);
    resol_run(R, RESOL_NASSAU);
    sq_pool_t *pool = sq_pool_new(3);
    for (int32_t s = 1; s <= 6; s++) {
        int32_t t = s + 38;
        const fhom_t *d = resol_differential(R, s);
        int64_t rows = fmod_dim_below(resol_free_module(R, s), t, t);
        int64_t cols = fhom_target_dim(d, t);
        ASSERT(rows >= 256); /* large enough to take the parallel path */
        f2mat_t a = {0}, b = {0};
        f2mat_init(&a, rows, cols);
        f2mat_init(&b, rows, cols);
        fhom_build_rows(d, &a, 0, t, t);
        fhom_build_rows_par(d, &b, 0, t, t, NULL, 0, pool);
        ASSERT(f2mat_equal(&a, &b));
        int64_t *idx = sq_malloc((size_t)rows * sizeof *idx), n = 0;
        for (int64_t i = 0; i < rows; i += 1 + (i % 3))
            idx[n++] = i;
        f2mat_clear(&a);
        f2mat_clear(&b);
        f2mat_init(&a, n, cols);
        f2mat_init(&b, n, cols);
        fhom_build_rows_subset(d, &a, 0, t, t, idx, n);
        fhom_build_rows_par(d, &b, 0, t, t, idx, n, pool);
        ASSERT(f2mat_equal(&a, &b));
        f2mat_clear(&a);
        f2mat_clear(&b);
        sq_free(idx);
        /* The parallel apply equals the serial one on a random vector. */
        uint64_t *v = sq_calloc((size_t)f2_limbs(rows) + 1, 8);
        uint64_t *o1 = sq_calloc((size_t)f2_limbs(cols) + 1, 8);
        uint64_t *o2 = sq_calloc((size_t)f2_limbs(cols) + 1, 8);
        for (int64_t k = 0; k < rows; k++)
            if (sq_rand_below(sq_test_rand(), 3) == 0)
                v[k >> 6] |= 1ULL << (k & 63);
        fhom_apply_add(d, o1, t, t, v);
        fhom_apply_add_par(d, o2, cols, t, t, v, pool);
        ASSERT(memcmp(o1, o2, (size_t)f2_limbs(cols) * 8) == 0);
        ASSERT(f2_first_bit(o1, cols) >= 0);
        sq_free(v);
        sq_free(o1);
        sq_free(o2);
    }
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
}

/* The order in which one worker thread ran the steps, from the observer. */
typedef struct {
    int64_t n;
    int32_t last_s, last_t;
    int rows_violations, degrees_violations;
} seen_t;

static void on_step_order(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    (void)done, (void)total;
    seen_t *o = ctx;
    if (o->n++ > 0) {
        o->rows_violations += s < o->last_s || (s == o->last_s && t <= o->last_t);
        o->degrees_violations += t < o->last_t || (t == o->last_t && s <= o->last_s);
    }
    o->last_s = s, o->last_t = t;
}

/* The order is the engine's (wave.h): on one worker thread, Nassau's steps
 * run by rows (lowest s, then t), the classical engine's by degrees (lowest
 * t, then s), whose kernels are then consumed soon. */
TEST(sched_order_is_the_engines)
{
    fdmod_t *M = fdmod_sphere();
    for (int nassau = 0; nassau < 2; nassau++) {
        resol_t *R = resol_new(M, 12, 30);
        seen_t o = {0};
        resol_observer_t obs = {on_step_order, &o};
        sq_pool_t *pool = sq_pool_new(1);
        ASSERT_EQ(resol_run_pool(R, nassau ? RESOL_NASSAU : RESOL_CLASSICAL, pool, &obs), 0);
        sq_pool_free(pool);
        ASSERT(o.n > 100);
        if (nassau) {
            ASSERT_EQ(o.rows_violations, 0);
            ASSERT(o.degrees_violations > 0);
        } else {
            ASSERT_EQ(o.degrees_violations, 0);
            ASSERT(o.rows_violations > 0);
        }
        resol_free(R);
    }
    fdmod_free(M);
}
