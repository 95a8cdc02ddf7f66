/*
 * resol_estimate.c -- what a run will cost at every prime, known before
 * anything is allocated (resol.h: resol_estimate, resol_estimate_cofiber,
 * resol_estimate_engine_note; docs/limits.md has the calibration).
 *
 * Two kinds of figure.  Exact ones come from the dimensions of the algebra
 * (a coin-change count or its generating function, no basis built) and the
 * shape of the region: the algebra's tables, Nassau's signature tables, the
 * per-bidegree tables of the run, and the first step's matrix (row 0 at the
 * top degree: dim A_{max_n+1-bottom} rows at least, since the bottom cell
 * of M is a generator of F_0).  Every run allocates at least these, so a
 * region whose exact part does not fit can be refused with certainty.  The
 * rest -- the differentials kept and the matrices of the larger steps --
 * depends on how many generators the resolution has, which only the run
 * finds out.  It is modelled from measured runs of the sphere on two
 * threads, each prime with what its runs measured:
 *
 * At p = 2 (peak RSS above the process's own and wall time, per engine,
 * by stem), scaled by
 *   - the module: a direct sum of k spheres has k times the generators in
 *     every bidegree, so k^2 times the matrix and differential bytes and,
 *     as measured, k^2 times the time; a minimal generator of M in degree
 *     d starts a sphere's worth of resolution through stem N - d.  So the
 *     factor is sum_d g(d)^2 var(N - d) / var(N), g(d) the number of
 *     minimal generators of M in degree d (M_d modulo the images of the
 *     Sq^{2^k}), var the sphere's measured cost.  Generators in different
 *     degrees add, those of one degree square: a direct sum of 100 cells
 *     in degree 0 costs 10^4 spheres, RP_inf truncated (generators in
 *     degrees 2^k - 1) about 3;
 *     Only the part of the sphere's cost that grows with the module is
 *     scaled (scaling_part);
 *   - the filtration against the measured n/2 + 3 rows;
 *   - the thread count (the measured runs are on 2 threads).
 * Over a subalgebra the memory is the exact part and the time a power law.
 *
 * At odd p (S_3 through stems 100..400, filtrations 2..n/2 + 3): the
 * products of basis elements that the differentials take are cached (up to
 * RESOL_PCACHE_BYTES); they dominate the peak, which is close to kappa(S)
 * C(N) bytes, C(N) = sum_{d <= N + 2} (dim A_d)^2 (odd_run below).
 *
 * Cofibers, one model with each prime's calibration, and the store's
 * engine note are at the end of the file.  Measured within 2x of the peak
 * RSS (tests/resolution/t-estimate.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "f2mat.h"
#include "internal.h"
#include "sq_core.h"

/* The peak RSS of the adams process before a run allocates anything
 * (`adams resolve --stem 0`), in MiB: every modelled figure includes it. */
#define EST_BASE_MIB 3.12

/* A measured run of S_2 through stem n, max_s = n/2 + 3, 2 threads: peak
 * RSS in MiB (base included) and wall seconds. */
typedef struct {
    double n, mib, sec;
} est_run_t;

/* Nassau's algorithm, 2026-12-01 (this machine, idle); 130 and 150 from
 * docs/benchmarks.md (RSS as measured, time halved: those runs were on a
 * machine shared by five, 2x slower at stem 100 than these).  Stem 200:
 * the quiet run of 2026-12-02 (docs/benchmarks.md, 33:22 traced, about
 * 1,900 s untraced); its RSS is the 130-150 line's extrapolation (2.0 GB;
 * that run held 1.65 GB under --max-memory 2G), kept so that the cache
 * budget rule (resol_cache_budget) gives stem 200 what that run had. */
static const est_run_t nassau_runs[] = {
    {40, 3.93, 0.01}, {50, 4.00, 0.02}, {60, 4.55, 0.06},  {70, 5.12, 0.17}, {80, 6.68, 0.47},
    {90, 8.66, 0.93}, {100, 13.7, 1.95}, {130, 72, 22.5}, {150, 185, 95}, {200, 2063.8, 1900},
};
/* The classical engine, same day and machine (stem 110 with the machine
 * shared, load 4-7 on its 2 cores; the issue saw over 200 s too). */
static const est_run_t classical_runs[] = {
    {40, 3.93, 0.02}, {50, 4.92, 0.07}, {60, 7.84, 0.20},  {70, 14.9, 0.65},
    {80, 34.1, 2.22}, {90, 83.7, 9.19}, {100, 209, 41.6}, {110, 506, 231},
};

/* log-linear interpolation at stem n of the measured cost above the base
 * (col 0: bytes; 1: seconds), extrapolated with the nearest segment's
 * slope. */
static double sphere_cost(resol_algo_t algo, double n, int col)
{
    const est_run_t *r = algo == RESOL_CLASSICAL ? classical_runs : nassau_runs;
    size_t len = algo == RESOL_CLASSICAL ? sizeof classical_runs / sizeof *r
                                         : sizeof nassau_runs / sizeof *r;
    size_t i = 0;
    while (i + 2 < len && n > r[i + 1].n)
        i++;
    double y0 = log2(col ? r[i].sec : r[i].mib - EST_BASE_MIB);
    double y1 = log2(col ? r[i + 1].sec : r[i + 1].mib - EST_BASE_MIB);
    double y = y0 + (y1 - y0) * (n - r[i].n) / (r[i + 1].n - r[i].n);
    return exp2(y) * (col ? 1.0 : 1048576.0);
}

double resol_est_finite(double x)
{
    return isfinite(x) && x < 1e300 ? x : 1e300;
}

double resol_estimate_base_bytes(void)
{
    return EST_BASE_MIB * 1048576.0;
}

int64_t resol_cache_budget(double limit, const resol_estimate_t *e)
{
    if (!(limit > 0))
        return -1;
    double rest = RESOL_NONCACHE_SHARE * (e ? e->model_bytes : 0);
    double b = limit - rest > limit / 3 ? limit - rest : limit / 3;
    return b < 9e18 ? (int64_t)b : INT64_MAX;
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

/* The number of minimal generators of M in degree d: dim M_d minus the
 * rank of the Sq^{2^k} x, x in M_{d - 2^k}.  A reaches degree top - bottom
 * (the whole algebra). */
static int64_t min_gens(const fdmod_t *M, const milnor_t *A, int32_t d)
{
    int64_t cols = fdmod_dim(M, d), rows = 0;
    int32_t bottom = fdmod_bottom(M);
    if (cols == 0)
        return 0;
    for (int32_t k = 1; d - k >= bottom && k <= milnor_max_degree(A); k *= 2)
        rows += fdmod_dim(M, d - k);
    if (rows == 0)
        return cols;
    f2mat_t m = {0};
    f2mat_init(&m, rows, cols);
    int64_t i = 0;
    for (int32_t k = 1; d - k >= bottom && k <= milnor_max_degree(A); k *= 2) {
        int32_t r[1] = {k};
        int64_t op = milnor_index(A, r, 1);
        for (int64_t x = 0; x < fdmod_dim(M, d - k); x++, i++) {
            const uint64_t *v = op >= 0 ? fdmod_action(M, k, op, d - k, x) : NULL;
            if (v)
                memcpy(f2mat_row(&m, i), v, (size_t)f2_limbs(cols) * sizeof *v);
        }
    }
    int64_t rank = f2mat_rank(&m);
    f2mat_clear(&m);
    return cols - rank;
}

/* The module's factors on the sphere's cost through relative stem N
 * (f[0]: memory, f[1]: time): sum over degrees d of g(d)^2 cost(N - d) /
 * cost(N).  Generators above stem N + 1 take no part. */
static void module_factors(const fdmod_t *M, const milnor_t *A, resol_algo_t algo, int32_t N,
                           double f[2])
{
    int32_t bottom = fdmod_bottom(M), top = fdmod_top(M);
    double c0[2] = {sphere_cost(algo, N, 0), sphere_cost(algo, N, 1)};
    f[0] = f[1] = 0;
    for (int32_t d = bottom; d <= top && d - bottom <= N; d++) {
        double g = (double)min_gens(M, A, d);
        for (int col = 0; g > 0 && col < 2; col++)
            f[col] += g * g * sphere_cost(algo, N - (d - bottom), col) / c0[col];
    }
    for (int col = 0; col < 2; col++)
        f[col] = f[col] > 0 ? f[col] : 1;
}

/* The part of the sphere's cost above the base that grows with the
 * module (the differentials and matrices; the rest is the algebra and the
 * tables): direct sums of k cells measured k^2 times a fifth of it at stem
 * 40, three fifths at 60, all of it from 80 on. */
static double scaling_part(double N)
{
    double phi = (N - 30) / 50;
    return phi < 0.1 ? 0.1 : phi > 1 ? 1 : phi;
}

/* Against the measured filtration n/2 + 3: fewer rows cost proportionally
 * less; rows above it hold few generators (towers): +20% per n/2 more. */
static double rows_factor(int32_t max_s, double n)
{
    double ratio = ((double)max_s + 1) / (n / 2.0 + 4);
    return ratio < 1 ? ratio : 1 + 0.2 * (ratio - 1);
}

/* Memory above the base against the measured 2 threads: one thread runs
 * the steps t-major (Nassau keeps every row's corrections: 2.2x; the
 * classical engine holds one step's kernels: 0.38x); more threads hold
 * more rows in flight (4 threads at stem 90: Nassau 1.8x, classical
 * 1.19x), modelled per doubling up to 16. */
static double threads_mem(resol_algo_t algo, int threads)
{
    int nassau = algo == RESOL_NASSAU;
    if (threads <= 1)
        return nassau ? 2.2 : 0.38;
    double dbl = log2(threads > 16 ? 16.0 : (double)threads) - 1;
    return 1 + (nassau ? 0.8 : 0.19) * dbl;
}

/* Wall time against the measured 2 threads: 1.9x on one; more threads
 * help up to the width of the wavefront (docs/parallelism.md). */
static double threads_time(int threads)
{
    double speedup = threads < 1 ? 1 : threads > 6 ? 6 : threads;
    return 1.9 / (speedup > 1 ? 0.95 * speedup : 1.0);
}

/* Wall time over the subalgebra B of profile h (2 threads): Ext_B grows
 * polynomially, about (N/100)^3 dim(B)^1.5 / 4000 s with n/2 + 3 rows
 * (measured: tmf2 through stems 100, 150, 200: 0.13, 0.50, 1.35 s; ko
 * through 200, 400: 0.03, 0.18 s), the square of the rows' share below. */
static double subalgebra_seconds(const int32_t *h, int hl, int32_t max_s, double N, int32_t adeg)
{
    /* log2 dim B as far as the run's algebra reaches (degree adeg): xi_i^r
     * has degree r (2^i - 1), so r < 2^{h_i} counts only up to the bits of
     * adeg / (2^i - 1).  An unbounded entry is h_i = 30 (y(1)'s profile
     * [0] untruncated): summed as is, 2^{1.5 * 30 * 15} s. */
    double logdim = 0;
    for (int i = 0; i < hl && i < 30; i++) {
        double xdeg = exp2(i + 1) - 1;
        int32_t bits = xdeg > adeg ? 0 : (int32_t)floor(log2((double)adeg / xdeg)) + 1;
        logdim += h[i] < bits ? h[i] : bits;
    }
    double ratio = ((double)max_s + 1) / (N / 2.0 + 4);
    double rf = ratio < 1 ? ratio * ratio : ratio;
    return pow(N / 100, 3) * exp2(1.5 * logdim) / 4000 * rf;
}

/* ---- Odd primes: the product cache's model ---------------------------------- */

#define MIB 1048576.0

/* Bytes per slot of the per-bidegree tables (the kernel slots, the free
 * modules' per-degree arrays and the scheduler's), as measured on S_5
 * through (400, 203): 123,000 slots, 13 MB above the base. */
#define EST_SLOT_BYTES 100.0

/* dim A_d for 0 <= d <= n at the prime p over the profile prof (NULL: the
 * whole algebra), as doubles: the generating function
 * prod_{Q_k kept} (1 + x^{2p^k - 1}) prod_i (1 - x^{D_i p^{h_i}}) / (1 - x^{D_i}),
 * D_i = 2(p^i - 1), h_i the profile's exponent (infinite: no numerator). */
static void algebra_dims(double *a, int32_t n, uint32_t p, const pmilnor_profile_t *prof)
{
    memset(a, 0, ((size_t)n + 1) * sizeof *a);
    a[0] = 1;
    double pi = p;
    for (int i = 1; 2 * (pi - 1) <= n; i++, pi *= p) {
        int32_t D = (int32_t)(2 * (pi - 1));
        double h = -1; /* infinite */
        if (prof && (i <= prof->len || prof->truncated))
            h = i <= prof->len ? prof->p_part[i - 1] : 0;
        if (h == 0)
            continue;
        for (int32_t d = D; d <= n; d++)
            a[d] += a[d - D];
        double cap = h > 0 ? pow(p, h) * D : INFINITY;
        if (cap <= n)
            for (int32_t d = n; d >= (int32_t)cap; d--)
                a[d] -= a[d - (int32_t)cap];
    }
    pi = 1;
    for (int k = 0; 2 * pi - 1 <= n; k++, pi *= p) {
        if (prof && k < 32 && !(prof->q_part & (1u << k)))
            continue;
        int32_t E = (int32_t)(2 * pi - 1);
        for (int32_t d = n; d >= E; d--)
            a[d] += a[d - E];
    }
}

/* The filtration that counts: the rows above about N/4 + 2 hold only the
 * a_0-tower at p = 3 (the vanishing line has slope 1/(2p - 2)). */
static double rows_that_count(int32_t max_s, double N, uint32_t p)
{
    double sat = N / (2.0 * p - 2) + 2;
    return max_s < sat ? max_s : sat;
}

/* kappa(S): the bytes of the cache and the waiting kernels over C(N). */
static double kappa(double S)
{
    if (S < 2)
        return 6 * S;
    return 12 + 88 * (1 - exp(-(S - 2) / 4));
}

/* tau(S, N): seconds per MiB of C(N), measured on S_3 (2 threads) and
 * brought to stem 200: two rows 0.17 (through stems 200, 300, 400: 0.17,
 * 0.14, 0.11, no growth), three 0.4, four 1.0, six 2.2, ten 3.0, fifty
 * 10.4 (measured at stems 100-400), log-interpolated in S; growing with
 * the stem, from not at all with two rows to doubling every 50 stems from
 * ten rows on (ten rows at stems 100 and 200, n/2 + 3 rows at 100, 150 and
 * 200 fit it; three rows at 400 and four at 300 are in between). */
static const struct {
    double s, tau;
} taus[] = {{2, 0.17}, {3, 0.4}, {4, 1.0}, {6, 2.2}, {10, 3.0}, {50, 10.4}};

static double tau(double S, double N)
{
    size_t len = sizeof taus / sizeof *taus, i = 0;
    if (S < 2)
        return 0.17 * (S > 0 ? S / 2 : 0.1);
    if (S >= taus[len - 1].s)
        S = taus[len - 1].s;
    while (i + 2 < len && S > taus[i + 1].s)
        i++;
    double x = log2(S / taus[i].s) / log2(taus[i + 1].s / taus[i].s);
    double y = log2(taus[i].tau) + x * log2(taus[i + 1].tau / taus[i].tau);
    double h = log2(S / 2) / log2(5); /* growth: none at two rows, full from ten */
    h = h > 1 ? 1 : h;
    return exp2(y + h * (N - 200) / 50);
}

/* resol_estimate at an odd prime: the exact part (the algebra's basis,
 * about 12 bytes an element, the per-bidegree tables and, when max_s >= 1,
 * the kernel of d_0 at the top degree: the bottom cell of M makes dim
 * A_{max_n+1-bottom} rows, nearly all in the kernel, a byte per entry plus
 * the bitsliced [D | I] of the reduction) and the model: the product cache
 * and the waiting kernels kappa(S) C(N), the time C(N) tau(S) seconds per
 * MiB, tau growing with the rows and, for more than two, with the stem.
 * The module scales it as at p = 2 but by its cells (an upper bound: cells
 * joined by the action resolve together), sum_d dim(M_d)^2 C(N - d) / C(N). */
static void estimate_odd(const fdmod_t *M, int32_t max_s, int32_t max_n, int threads,
                         resol_estimate_t *e)
{
    uint32_t p = fdmod_prime(M);
    int32_t bottom = fdmod_bottom(M), top = fdmod_top(M);
    int64_t adeg64 = resol_algebra_degree(bottom, top, max_n);
    int32_t adeg = adeg64 > PMILNOR_MAX_DEGREE ? PMILNOR_MAX_DEGREE : (int32_t)adeg64;
    const pmilnor_profile_t *prof = fdmod_pprofile(M);
    double *a = sq_calloc((size_t)adeg + 1, sizeof *a);
    algebra_dims(a, adeg, p, prof);
    double size = 0, C = 0;
    for (int32_t d = 0; d <= adeg; d++)
        size += a[d];
    /* Exact. */
    double nt = (double)max_s + max_n + 2 - bottom, ns = (double)max_s + 1;
    double exact = 12 * size + ns * nt * ((double)sizeof(fpmat_t) + 1 + EST_SLOT_BYTES);
    int32_t d0 = max_n + 1 - bottom;
    if (max_s >= 1 && d0 >= 0 && d0 <= adeg) {
        double rows = a[d0], cols = (double)fdmod_dim(M, max_n + 1);
        exact += (rows > cols ? rows - cols : 0) * rows + rows * (cols + rows) / 4;
    }
    /* Modelled. */
    int32_t N = max_n - bottom, R = N + 2 < adeg ? N + 2 : adeg;
    double S = rows_that_count(max_s, N, p);
    double *Cd = sq_calloc((size_t)R + 2, sizeof *Cd); /* Cd[n] = C(n - 2) */
    for (int32_t d = 0; d <= R; d++)
        Cd[d + 1] = Cd[d] + a[d] * a[d];
    C = Cd[R + 1];
    double f = 0;
    for (int32_t d = bottom; d <= top && d - bottom <= N; d++) {
        double c = (double)fdmod_dim(M, d);
        f += c * c * (C > 0 ? Cd[R - (d - bottom) + 1] / C : 1);
    }
    if (f < 1)
        f = 1;
    /* kappa C(N) is half the product cache (capped) and half the kernels
     * waiting for the next row (not capped: S_3 through (600, 2) passed
     * 4.5 GB, the cache's cap being 1 GiB). */
    double cache = kappa(S) * C * f / 2;
    double run = (cache > RESOL_PCACHE_BYTES ? RESOL_PCACHE_BYTES : cache) + cache;
    /* The largest matrices, at the top degree: d_2's (about 10 dim A_{N+1}
     * rows of F_2 by 4 of F_1, a byte each) and the kernels of d_1 in
     * flight (13 each); rows above 3 add little (their generators lie high). */
    if (max_s >= 1 && d0 >= 0 && d0 <= adeg)
        run += (max_s == 1 ? 8 : max_s == 2 ? 120 : 220) * a[d0] * a[d0] * f;
    /* tau was measured at p = 3; the stem counts in units of 2p - 2. */
    double secs = tau(S, N * 4.0 / (2.0 * p - 2)) * C / MIB * f;
    (void)threads; /* two threads measured; one was no slower at stem 150 */
    e->exact_bytes = resol_est_finite(exact);
    e->model_bytes = resol_est_finite(resol_estimate_base_bytes() + exact + run);
    e->seconds = resol_est_finite(secs);
    e->algebra_degree = adeg64;
    sq_free(Cd);
    sq_free(a);
}


/* ---- Every prime ------------------------------------------------------------ */

void resol_estimate(const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t max_n,
                    int threads, resol_estimate_t *e)
{
    memset(e, 0, sizeof *e);
    if (fdmod_prime(M) != 2) {
        estimate_odd(M, max_s, max_n, threads, e);
        return;
    }
    int32_t bottom = fdmod_bottom(M), top = fdmod_top(M);
    int64_t adeg64 = resol_algebra_degree(bottom, top, max_n);
    int32_t adeg = adeg64 > MILNOR_MAX_DEGREE ? MILNOR_MAX_DEGREE : (int32_t)adeg64;
    /* Over a subalgebra B the dimensions are B's (tiny for A(1), A(2)):
     * the algebra resol_new builds. */
    int32_t h[16];
    int hl = fdmod_profile(M, h);
    milnor_t *A = resol_algebra_f2(M, adeg);
    adeg = milnor_max_degree(A);
    if (algo == RESOL_AUTO)
        algo = resol_auto_engine(M, max_n);
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
    e->exact_bytes = setup + step * (threads > 1 ? 2 : 1);
    /* Modelled: the sphere's measured runs, scaled by the module, the rows
     * and the threads.  Over a subalgebra the sphere's measurements say
     * nothing (Ext_B is far smaller): the memory is the exact part (tmf2
     * through (150, 78): 4.5 MB estimated, 5.4 MB measured), the time is
     * subalgebra_seconds. */
    double model = 0, secs = 0;
    int32_t N = max_n - bottom;
    if (!hl && N >= 0) {
        double rf = rows_factor(max_s, N), phi = scaling_part(N), f[2];
        module_factors(M, A, algo, N, f);
        model = sphere_cost(algo, N, 0) * (1 - phi + phi * f[0]) * rf * threads_mem(algo, threads);
        secs = sphere_cost(algo, N, 1) * (1 - phi + phi * f[1]) * rf * threads_time(threads);
    }
    if (hl && N >= 0)
        secs = subalgebra_seconds(h, hl, max_s, N, adeg) * threads_time(threads);
    e->exact_bytes = resol_est_finite(e->exact_bytes);
    model = resol_est_finite(model);
    e->model_bytes = resol_estimate_base_bytes() + (model > e->exact_bytes ? model : e->exact_bytes);
    e->seconds = resol_est_finite(secs);
    e->algebra_degree = adeg64;
    milnor_free(A);
}

/* ---- Cofibers -------------------------------------------------------------
 *
 * The cofiber of a class of filtration s (resol_cofiber.c) resolves M
 * through row s + 1 and stem max_n + 1 (F), builds E from F_{s-1} in
 * degrees <= max_n + s, and resolves E through (max_s - s + 1, max_n +
 * s - 1) (G), F kept throughout.  E has about c(s) times as many cells
 * per degree as a cell-by-cell copy of A (its dimension is that of the
 * (s-1)-th syzygy of M), so its action table, which dominates G, takes
 * about c(s)^2 * sum_{d, k} dim A_k dim A_d dim A_{d+k} entries.  Time:
 * F's and G's as resolutions of M, plus building E, by E's table.  One
 * model; each prime's measurements are its calibration (est_cofiber_t). */
typedef struct {
    double s, c2;
} est_weight_t;

typedef struct {
    const est_weight_t *w; /* c(s)^2 at some s, log-interpolated between */
    size_t len;
    double entry_bytes;    /* bytes of an entry of E's table */
    double sec_per_mib;    /* building E, seconds per MiB of its table */
    int module_scaled;     /* whether the table scales with M's minimal generators */
} est_cofiber_t;

/* p = 2: the cofibers of h_0^s on S_2 through stems 40..60: c(s)^2 = 2 at
 * s = 2, 12 at 4, 6 at 6, 3 at 10, 1 at 20, 0.7 at 30, 0.25 far up, where
 * F_{s-1} has only the h_0-tower's generator and E is about A / A Sq^1; a
 * bit per entry; about 4 ms per MiB (stems 50 and 60, 2 threads). */
static const est_weight_t weights_2[] = {{1, 0.1}, {2, 2},  {4, 12},   {6, 6},
                                         {10, 3},  {20, 1}, {30, 0.7}, {100, 0.25}};
static const est_cofiber_t cofiber_2 = {weights_2, sizeof weights_2 / sizeof *weights_2, 1.0 / 8,
                                        0.004, 1};
/* Odd p: S_3's cofibers of a_0^s through stems 100 and 150: 1.5 at s = 2,
 * 16 at 4 and at 10, the decay beyond p = 2's, further out; a byte per
 * entry; 12 ms per MiB (s = 2 and 4, stem 150). */
static const est_weight_t weights_odd[] = {{1, 0.1},  {2, 1.5}, {4, 16},
                                           {10, 16}, {40, 1},  {100, 0.25}};
static const est_cofiber_t cofiber_odd = {weights_odd, sizeof weights_odd / sizeof *weights_odd,
                                          1.0, 0.012, 0};

static double cofiber_weight(const est_cofiber_t *c, int32_t s)
{
    const est_weight_t *w = c->w;
    size_t len = c->len, i = 0;
    if (s <= w[0].s)
        return w[0].c2;
    if (s >= w[len - 1].s)
        return w[len - 1].c2;
    while (s > w[i + 1].s)
        i++;
    double x = log2(s / w[i].s) / log2(w[i + 1].s / w[i].s);
    return exp2(log2(w[i].c2) + x * (log2(w[i + 1].c2) - log2(w[i].c2)));
}

/* The entries of the action table of a module with a[d] cells in relative
 * degree d, 0 <= d <= R: sum of a[k] a[d] a[d + k]. */
static double table_entries(const double *a, int32_t R)
{
    double sum = 0;
    for (int32_t d = 0; d <= R; d++)
        for (int32_t k = 1; d + k <= R; k++)
            sum += a[k] * a[d] * a[d + k];
    return sum;
}

/* E's table in bytes for M through relative stem N (E's degrees 0..R =
 * N + 1, capped at the algebra's); *fm: the module's factor on it where the
 * prime's calibration scales it, else 1. */
static double cofiber_table(const fdmod_t *M, const est_cofiber_t *c, double c2, int32_t N,
                            double *fm)
{
    uint32_t p = fdmod_prime(M);
    int32_t cap = p == 2 ? MILNOR_MAX_DEGREE : PMILNOR_MAX_DEGREE;
    int32_t R = N + 1 > cap ? cap : N + 1;
    double *a = sq_calloc((size_t)R + 1, sizeof *a);
    milnor_t *A = NULL;
    if (p == 2) {
        A = milnor_new(R);
        for (int32_t d = 0; d <= R; d++)
            a[d] = (double)milnor_dim(A, d);
    } else {
        algebra_dims(a, R, p, fdmod_pprofile(M));
    }
    double table = c2 * (table_entries(a, R) * c->entry_bytes), f[2] = {1, 1};
    if (c->module_scaled)
        module_factors(M, A, RESOL_CLASSICAL, N > R ? R : N, f);
    *fm = f[0];
    sq_free(a);
    milnor_free(A);
    return table;
}

void resol_estimate_cofiber(const fdmod_t *M, int32_t s, int32_t t, int32_t target, int32_t max_s,
                            int32_t max_n, int threads, resol_estimate_t *e)
{
    const est_cofiber_t *c = fdmod_prime(M) == 2 ? &cofiber_2 : &cofiber_odd;
    int32_t max_t = fdmod_prime(M) == 2 ? RESOL_MAX_T : RESOL_MAX_T_ODD;
    int64_t fn64 = (int64_t)t + fdmod_top(M) - target - s - 1;
    int32_t fn = max_n + 1;
    if (fn64 > fn)
        fn = fn64 > max_t ? max_t : (int32_t)fn64;
    resol_estimate(M, RESOL_CLASSICAL, s + 1, fn, threads, e);
    int32_t N = max_n - fdmod_bottom(M);
    if (max_s < s - 1 || N < 0)
        return;
    resol_estimate_t g;
    resol_estimate(M, RESOL_CLASSICAL, max_s - s + 1, max_n, threads, &g);
    double fm, table = cofiber_table(M, c, cofiber_weight(c, s), N, &fm);
    double grun = g.model_bytes - resol_estimate_base_bytes();
    e->model_bytes = resol_est_finite(e->model_bytes + table * fm + grun);
    e->exact_bytes = resol_est_finite(e->exact_bytes + g.exact_bytes);
    e->seconds = resol_est_finite(e->seconds + g.seconds + c->sec_per_mib * table * fm / 1048576.0);
}

/* ---- The engine of a store ------------------------------------------------ */

int resol_estimate_engine_note(const fdmod_t *M, resol_algo_t store_algo, int32_t max_s,
                               int32_t max_n, int threads, char *buf, size_t len)
{
    char why[128];
    if (store_algo != RESOL_CLASSICAL || resol_engine_check(M, RESOL_NASSAU, why, sizeof why))
        return 0;
    resol_estimate_t c, n;
    resol_estimate(M, RESOL_CLASSICAL, max_s, max_n, threads, &c);
    resol_estimate(M, RESOL_NASSAU, max_s, max_n, threads, &n);
    if (c.seconds < RESOL_ENGINE_NOTE_SECONDS || c.seconds < 3 * n.seconds)
        return 0;
    snprintf(buf, len,
             "this store uses the classical engine: about %.0f s; a fresh store with "
             "--algorithm nassau takes about %.0f s",
             c.seconds, n.seconds < 1 ? 1.0 : n.seconds);
    return 1;
}
