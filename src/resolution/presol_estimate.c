/*
 * presol_estimate.c -- what a run at an odd prime will cost (presol.h;
 * docs/limits.md has the calibration).
 *
 * Exact: the algebra's basis (about 12 bytes an element), the per-bidegree
 * tables, and, when max_s >= 1, the kernel of d_0 at the top degree (the
 * bottom cell of M makes dim A_{max_n+1-bottom} rows, nearly all in the
 * kernel; a byte per entry, plus the bitsliced [D | I] of the reduction).
 *
 * Modelled from S_3's measured runs (2 threads): the products of basis
 * elements that the differentials take are cached (pmilnor_cache, up to
 * RESOL_PCACHE_BYTES); they dominate the peak, which is close to kappa(S)
 * * C(N) bytes, C(N) = sum_{d <= N + 2} (dim A_d)^2 and kappa growing with
 * the rows that hold generators: 12 with two rows, 88 with ten, 100 with
 * n/2 + 3 (the rows above about N/4 + 2 hold only the a_0-tower, so the
 * filtration counts up to there).  The wall time is C(N) * tau(S) seconds
 * per MiB, tau growing with the rows and, for more than two, with the
 * stem.
 * The module scales it as at p = 2 but by its cells (an upper bound: cells
 * joined by the action resolve together), sum_d dim(M_d)^2 C(N - d) / C(N).
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "presol.h"
#include "sq_core.h"

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

void presol_estimate(const pfdmod_t *M, int32_t max_s, int32_t max_n, int threads,
                     resol_estimate_t *e)
{
    memset(e, 0, sizeof *e);
    uint32_t p = pfdmod_prime(M);
    int32_t bottom = pfdmod_bottom(M), top = pfdmod_top(M);
    int64_t adeg64 = presol_algebra_degree(bottom, top, max_n);
    int32_t adeg = adeg64 > PMILNOR_MAX_DEGREE ? PMILNOR_MAX_DEGREE : (int32_t)adeg64;
    const pmilnor_profile_t *prof = pfdmod_profile(M);
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
        double rows = a[d0], cols = (double)pfdmod_dim(M, max_n + 1);
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
        double c = (double)pfdmod_dim(M, d);
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

void presol_estimate_cofiber(const pfdmod_t *M, int32_t s, int32_t t, int32_t target,
                             int32_t max_s, int32_t max_n, int threads, resol_estimate_t *e)
{
    int64_t fn64 = (int64_t)t + pfdmod_top(M) - target - s - 1;
    int32_t fn = max_n + 1;
    if (fn64 > fn)
        fn = fn64 > PRESOL_MAX_T ? PRESOL_MAX_T : (int32_t)fn64;
    presol_estimate(M, s + 1, fn, threads, e);
    int32_t N = max_n - pfdmod_bottom(M);
    if (max_s < s - 1 || N < 0)
        return;
    int32_t R = N + 1 > PMILNOR_MAX_DEGREE ? PMILNOR_MAX_DEGREE : N + 1;
    double *a = sq_calloc((size_t)R + 1, sizeof *a);
    algebra_dims(a, R, pfdmod_prime(M), pfdmod_profile(M));
    resol_estimate_t g;
    presol_estimate(M, max_s - s + 1, max_n, threads, &g);
    double c2 = resol_est_cofiber_weight(s, 1);
    /* E's table: a byte per entry at odd primes. */
    e->model_bytes = resol_est_finite(e->model_bytes + c2 * resol_est_table_bytes(a, R, 1.0) +
                                      g.model_bytes - resol_estimate_base_bytes());
    e->exact_bytes = resol_est_finite(e->exact_bytes + g.exact_bytes);
    /* Building E: 12 ms per MiB of its table (S_3, s = 2 and 4, stem 150). */
    e->seconds = resol_est_finite(e->seconds + g.seconds +
                                  0.012 * c2 * resol_est_table_bytes(a, R, 1.0) / 1048576.0);
    sq_free(a);
}
