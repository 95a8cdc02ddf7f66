/*
 * rref.c -- the naive reducer (the oracle) and the dispatcher f2mat_rref.
 */
#include "f2_kernels.h"
#include "f2mat.h"
#include "sq_trace.h"

/*
 * NAIVE_MAX_ROWS: f2mat_rref uses the naive reducer up to this many rows.
 * The naive reducer costs ~rank * rows / 2 row XORs, has no set-up, and
 * skips rows without the pivot bit at the cost of one word test, which
 * suits sparse input; the M4RI reducer has a fixed cost per call (scratch)
 * and per 64-column panel (scan, tables) that it recovers only when enough
 * rows share the tables.  Measured on an AMD EPYC (Zen 3, AVX2 kernels):
 *   - random dense matrices (`b-rref --cutoff`): the two are level at 24-32
 *     rows for 64, 256, 1024 and 100,000 columns alike;
 *   - the 15,822 matrices f2mat_rref received while resolving S_2 through
 *     stem 80 (replayed from a dump; 1-8% ones, mostly [A | I] with ~2.4x
 *     as many columns as rows): naive faster up to 44 rows, level at 45-56,
 *     M4RI 2x faster in total above.
 * The resolution is the client that matters, hence 48.  The crossover
 * barely moves with width, so the cutoff depends on rows only.
 */
#define NAIVE_MAX_ROWS 48

/*
 * Gauss-Jordan, one column at a time: find a row at or below r with a 1 in
 * column c, swap it up to row r, and XOR it into every other row with a 1
 * in column c.  Rows r.. are zero left of c, so the swap and the XORs start
 * at the limb of c.
 */
int64_t f2mat_rref_naive(f2mat_t *m, int64_t *pivots)
{
    const f2_kernels_t *K = f2_kernels();
    const int64_t rows = m->rows, cols = m->cols, nl = f2_limbs(cols);
    if (pivots)
        for (int64_t c = 0; c < cols; c++)
            pivots[c] = -1;
    int64_t r = 0;
    for (int64_t c = 0; c < cols && r < rows; c++) {
        int64_t l = c / F2_LIMB_BITS;
        uint64_t bit = (uint64_t)1 << (c % F2_LIMB_BITS);
        int64_t i = r;
        while (i < rows && !(f2mat_row(m, i)[l] & bit))
            i++;
        if (i == rows)
            continue;
        uint64_t *pr = f2mat_row(m, r);
        if (i != r) {
            uint64_t *pi = f2mat_row(m, i);
            for (int64_t j = l; j < nl; j++) {
                uint64_t t = pr[j];
                pr[j] = pi[j];
                pi[j] = t;
            }
        }
        for (int64_t q = 0; q < rows; q++)
            if (q != r && (f2mat_row(m, q)[l] & bit))
                K->xor_raw(f2mat_row(m, q) + l, pr + l, nl - l);
        if (pivots)
            pivots[c] = r;
        r++;
    }
    return r;
}

static int64_t rref_dispatch(f2mat_t *m, int64_t *pivots, sq_pool_t *pool)
{
    if (m->rows <= NAIVE_MAX_ROWS)
        return f2mat_rref_naive(m, pivots);
    return f2mat_rref_m4ri_pool(m, pivots, pool);
}

int64_t f2mat_rref(f2mat_t *m, int64_t *pivots)
{
    return f2mat_rref_pool(m, pivots, NULL);
}

/*
 * GPU offload hook (issue 15, docs/gpu.md).  The gpu layer sits above fp, so
 * fp cannot call it; instead sq_gpu_init (src/gpu/sq_gpu.c, which declares
 * the same two types) installs a function here and sq_gpu_shutdown removes
 * it.  The hook gets the CPU reducer below (rref_cpu, which emits the
 * path=cpu trace event) to fall back to or to verify against; it applies
 * the gate ADAMS_GPU_RR_MIN and emits the path=gpu events itself.  With no
 * hook installed (the default) the cost is one load of a pointer per call.
 */
typedef int64_t (*f2mat_rref_cpu_fn)(f2mat_t *m, int64_t *pivots, sq_pool_t *pool);
typedef int64_t (*f2mat_rref_offload_fn)(f2mat_t *m, int64_t *pivots, sq_pool_t *pool,
                                         f2mat_rref_cpu_fn cpu);
static f2mat_rref_offload_fn rref_offload;

void f2mat_rref_set_offload(f2mat_rref_offload_fn fn);
void f2mat_rref_set_offload(f2mat_rref_offload_fn fn)
{
    __atomic_store_n(&rref_offload, fn, __ATOMIC_RELEASE);
}

static int64_t rref_cpu(f2mat_t *m, int64_t *pivots, sq_pool_t *pool);

int64_t f2mat_rref_pool(f2mat_t *m, int64_t *pivots, sq_pool_t *pool)
{
    f2mat_rref_offload_fn off = __atomic_load_n(&rref_offload, __ATOMIC_ACQUIRE);
    if (SQ_UNLIKELY(off != NULL))
        return off(m, pivots, pool, rref_cpu);
    return rref_cpu(m, pivots, pool);
}

/* The CPU reducer with its trace event (path=cpu). */
static int64_t rref_cpu(f2mat_t *m, int64_t *pivots, sq_pool_t *pool)
{
    if (SQ_LIKELY(!sq_trace_rr_on(m->rows, m->cols)))
        return rref_dispatch(m, pivots, pool);
    double t0 = sq_wtime();
    int64_t rank = rref_dispatch(m, pivots, pool);
    sq_trace_rr(m->rows, m->cols, rank, "cpu", t0);
    return rank;
}
