/*
 * resol_estimate.c -- what a run will cost, known before anything is
 * allocated (resol.h, resol_estimate; docs/limits.md).
 *
 * Two kinds of figure.  Exact ones come from the dimensions of the algebra
 * (a coin-change count, no basis built) and the shape of the region: the
 * algebra's tables, Nassau's signature tables, the per-bidegree tables of
 * the run, and the first step's matrix (row 0 at the top degree: dim
 * A_{max_n+1-bottom} rows at least, since the bottom cell of M is a
 * generator of F_0).  Every run allocates at least these, so a region whose
 * exact part does not fit can be refused with certainty.  The rest -- the
 * differentials kept and the matrices of the larger steps -- depends on
 * how many generators the resolution has, which only the run finds out; it
 * is modelled from measured runs of the sphere (peak RSS and wall time at
 * stems 60..150, docs/benchmarks.md) scaled by the module's number of cells
 * (log-scaled for truncated infinite modules, whose Ext grows far slower
 * than their cell count).  The model is a guide, good to a factor of ~3.
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "sq_core.h"

/* Measured runs of S_2 with Nassau's algorithm, 2 threads, max_s = n/2 + 3
 * (docs/benchmarks.md): stem, peak RSS in MiB, wall seconds. */
static const struct {
    double n, mib, sec;
} sphere_runs[] = {
    {60, 5, 0.14}, {80, 6, 1.0}, {90, 9, 1.55}, {100, 14, 3.9}, {130, 72, 45}, {150, 185, 191},
};
#define NRUNS (sizeof sphere_runs / sizeof sphere_runs[0])

/* log-linear interpolation of column `col` (0: MiB, 1: seconds) at stem n,
 * extrapolated with the slope of the nearest segment. */
static double sphere_model(double n, int col)
{
    size_t i = 0;
    while (i + 2 < NRUNS && n > sphere_runs[i + 1].n)
        i++;
    double y0 = log2(col ? sphere_runs[i].sec : sphere_runs[i].mib);
    double y1 = log2(col ? sphere_runs[i + 1].sec : sphere_runs[i + 1].mib);
    double x0 = sphere_runs[i].n, x1 = sphere_runs[i + 1].n;
    return exp2(y0 + (y1 - y0) * (n - x0) / (x1 - x0));
}

/* Bytes of Nassau's signature tables for the profiles usable in the run
 * (the ladder up to the first not usable at s = 2, t = max_n + 3). */
static double nassau_tables(const milnor_t *A, int32_t adeg, int32_t max_n, int32_t top)
{
    double per_profile = 0;
    for (int32_t d = 0; d <= adeg; d++)
        per_profile += 4.0 * (double)(milnor_dim(A, d) + 1) + 8.0;
    int32_t h[NASSAU_MAX_LEN];
    int len = 0, nprof = 0;
    while (nprof < RESOL_MAX_PROFILES && nassau_ladder_next(h, &len) == 0 &&
           nassau_usable(h, len, 2, max_n + 3, top))
        nprof++;
    return per_profile * nprof;
}

void resol_estimate(const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t max_n,
                    int threads, resol_estimate_t *e)
{
    memset(e, 0, sizeof *e);
    int32_t bottom = fdmod_bottom(M), top = fdmod_top(M);
    int64_t adeg64 = resol_algebra_degree(bottom, top, max_n);
    int32_t adeg = adeg64 > MILNOR_MAX_DEGREE ? MILNOR_MAX_DEGREE : (int32_t)adeg64;
    /* Over a subalgebra B the dimensions are B's (tiny for A(1), A(2)):
     * the same cap as resol_new (twice B's top degree). */
    int32_t h[16];
    int hl = fdmod_profile(M, h);
    if (hl) {
        int64_t topB = 0;
        for (int i = 0; i < hl && topB <= adeg; i++)
            topB += (((int64_t)1 << (i + 1)) - 1) * (((int64_t)1 << h[i]) - 1);
        if (2 * topB < adeg)
            adeg = 2 * topB > 1 ? (int32_t)(2 * topB) : 1;
    }
    milnor_t *A = hl ? milnor_new_profile(adeg, h, hl) : milnor_new(adeg);
    if (algo == RESOL_AUTO)
        algo = resol_auto_engine(M, max_n);
    double cells = 0;
    for (int32_t d = bottom; d <= top; d++)
        cells += (double)fdmod_dim(M, d);
    /* Exact: the algebra, the per-bidegree tables, the signature tables. */
    double nt = (double)max_s + max_n + 2 - bottom, ns = (double)max_s + 1;
    double setup = 8.0 * 12 * (adeg + 1);
    setup += ns * nt * ((double)sizeof(f2mat_t) + 1 + 4 + 8 + 2 * 16);
    if (algo == RESOL_NASSAU)
        setup += ns * nt * 8 + nassau_tables(A, adeg, max_n, top);
    /* Exact lower bound of the first steps: row 0 at t = max_n + 1 reduces
     * [d_0 | I] with dim F_0 >= dim A_{max_n + 1 - bottom} rows. */
    int32_t d0 = max_n + 1 - bottom;
    double rows0 = d0 <= adeg ? (double)milnor_dim(A, d0) : 0;
    double cols0 = (double)fdmod_dim(M, max_n + 1) + rows0;
    double step = rows0 * ceil(cols0 / 64.0) * 8.0;
    /* Modelled: the sphere's measured runs, scaled by the cells. */
    double factor = cells <= 16 ? cells : 16 + 4 * log2(cells / 16);
    double model = sphere_model(max_n - bottom, 0) * 1048576.0 * factor;
    /* Measured on 2 threads, which ran 1.9x as fast as one; more threads
     * help up to the width of the wavefront (docs/parallelism.md). */
    double secs = sphere_model(max_n - bottom, 1) * factor * 1.9;
    if (algo == RESOL_CLASSICAL) {
        model *= 2.0; /* (80, 43): classical 34 MB, Nassau 17 MB */
        secs *= 2.6;  /* (80, 43): 7.1 s vs 2.7 s, one thread */
    }
    /* Against the measured filtration n/2 + 3: fewer rows cost
     * proportionally less; rows above it hold few generators (towers). */
    double rows_ratio = ns / ((max_n - bottom) / 2.0 + 4);
    double rows_factor = rows_ratio < 1 ? rows_ratio : 1 + 0.2 * (rows_ratio - 1);
    model *= rows_factor;
    secs *= rows_factor;
    if (hl) {
        /* The sphere's measurements say nothing about Ext over a
         * subalgebra, which is far smaller: only the exact part counts. */
        model = 0;
        secs = 0;
    }
    e->exact_bytes = setup + step * (threads > 1 ? 2 : 1);
    e->model_bytes = model > e->exact_bytes ? model : e->exact_bytes;
    double speedup = threads < 1 ? 1 : threads > 6 ? 6 : threads;
    e->seconds = secs / (speedup > 1 ? 0.95 * speedup : 1.0);
    e->algebra_degree = adeg64;
    milnor_free(A);
}
