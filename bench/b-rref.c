/*
 * b-rref.c -- benchmark: single-threaded canonical RREF, ours (f2mat_rref)
 * against libm4ri's mzd_echelonize(A, 1) when libm4ri is available
 * (SQ_HAVE_M4RI), side by side on the same inputs.  Each case is timed as
 * the median of several runs on fresh copies of one seeded random matrix;
 * ours is checked to equal libm4ri's result bit for bit.  One TSV line per
 * case:
 *
 *   case  rows  cols  rank  ours_s  m4ri_s  ratio        (ratio = ours / m4ri)
 *
 * Usage: b-rref [--runs R] [--big] [CASE ...]
 *   --big     also run half-rank 16384^2
 *   CASE      run only the named cases (e.g. d4000 hr8192)
 *   --cutoff  instead, time naive vs M4RI on small shapes (sets NAIVE_MAX_ROWS)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2mat.h"
#include "sq_core.h"

#ifdef SQ_HAVE_M4RI
#include <m4ri/m4ri.h>
#endif

typedef struct {
    const char *name;
    int64_t rows, cols, rank; /* rank 0: dense random */
    int runs;                 /* default number of runs */
    int big;                  /* only with --big */
} bcase_t;

/* clang-format off */
static const bcase_t cases[] = {
    {"d1000", 1000, 1000, 0, 9, 0},
    {"d4000", 4000, 4000, 0, 7, 0},
    {"d10000", 10000, 10000, 0, 5, 0},
    {"flat2000x20000", 2000, 20000, 0, 5, 0},
    {"tall20000x2000", 20000, 2000, 0, 5, 0},
    {"flat100x100000", 100, 100000, 0, 9, 0},
    {"hr8192", 8192, 8192, 4096, 5, 0},
    {"hr16384", 16384, 16384, 8192, 3, 1},
};
/* clang-format on */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void copy_into(f2mat_t *dst, const f2mat_t *src)
{
    int64_t nl = f2_limbs(src->cols);
    for (int64_t i = 0; i < src->rows; i++)
        memcpy(f2mat_row(dst, i), f2mat_row(src, i), (size_t)nl * sizeof(uint64_t));
}

/* Threads for ours (--threads K): the row blocks of large reductions. */
static sq_pool_t *g_pool;

/* The input of a case: dense random, or (rows x rank) * (rank x cols). */
static void make_input(f2mat_t *a, const bcase_t *c, sq_rand_t *rng)
{
    if (c->rank == 0) {
        f2mat_init(a, c->rows, c->cols);
        f2mat_randomize(a, rng);
        return;
    }
    f2mat_t x = {0}, y = {0};
    f2mat_init(&x, c->rows, c->rank);
    f2mat_init(&y, c->rank, c->cols);
    f2mat_randomize(&x, rng);
    f2mat_randomize(&y, rng);
    /* The product by rows of y with 8-bit tables: the naive product would
     * dominate the benchmark's run time for 16384^2. */
    f2mat_init(a, c->rows, c->cols);
    int64_t nl = f2_limbs(c->cols);
    uint64_t *tab = sq_aligned_calloc((size_t)(256 * nl), sizeof(uint64_t));
    for (int64_t j0 = 0; j0 < c->rank; j0 += 8) {
        int kk = c->rank - j0 < 8 ? (int)(c->rank - j0) : 8;
        memset(tab, 0, sizeof(uint64_t) * (size_t)nl);
        for (int j = 0; j < kk; j++)
            for (int x0 = 0; x0 < (1 << j); x0++)
                for (int64_t l = 0; l < nl; l++)
                    tab[((1 << j) + x0) * nl + l] = tab[x0 * nl + l] ^ f2mat_row(&y, j0 + j)[l];
        for (int64_t i = 0; i < c->rows; i++) {
            int idx = (int)((f2mat_row(&x, i)[j0 / 64] >> (j0 % 64)) & ((1u << kk) - 1));
            uint64_t *ri = f2mat_row(a, i);
            for (int64_t l = 0; l < nl; l++)
                ri[l] ^= tab[idx * nl + l];
        }
    }
    sq_aligned_free(tab);
    f2mat_clear(&x);
    f2mat_clear(&y);
}

#ifdef SQ_HAVE_M4RI
static void to_mzd(mzd_t *z, const f2mat_t *a)
{
    int64_t nl = f2_limbs(a->cols);
    for (int64_t i = 0; i < a->rows; i++)
        memcpy(mzd_row(z, (rci_t)i), f2mat_row(a, i), (size_t)nl * sizeof(uint64_t));
}

static int equal_mzd(const mzd_t *z, const f2mat_t *a)
{
    int64_t nl = f2_limbs(a->cols);
    for (int64_t i = 0; i < a->rows; i++)
        if (memcmp(mzd_row((mzd_t *)z, (rci_t)i), f2mat_row(a, i), (size_t)nl * sizeof(uint64_t)))
            return 0;
    return 1;
}
#endif

static void run_case(const bcase_t *c, int runs_override)
{
    sq_rand_t rng;
    sq_rand_init(&rng, 0x5eed0000u + (uint64_t)c->rows * 31 + (uint64_t)c->cols);
    int runs = runs_override > 0 ? runs_override : c->runs;
    f2mat_t a = {0}, w = {0};
    make_input(&a, c, &rng);
    f2mat_init(&w, a.rows, a.cols);
    int64_t *piv = sq_malloc(sizeof(int64_t) * (size_t)a.cols);
    double *t_ours = sq_malloc(sizeof(double) * (size_t)runs);
    double *t_m4ri = sq_malloc(sizeof(double) * (size_t)runs);
    int64_t rank = 0;
    int same = -1;
#ifdef SQ_HAVE_M4RI
    mzd_t *z = mzd_init((rci_t)a.rows, (rci_t)a.cols);
#endif
    /* Alternate ours and libm4ri so that machine noise hits both alike. */
    for (int r = 0; r < runs; r++) {
        copy_into(&w, &a);
        double t0 = sq_wtime();
        rank = f2mat_rref_pool(&w, piv, g_pool);
        t_ours[r] = sq_wtime() - t0;
#ifdef SQ_HAVE_M4RI
        to_mzd(z, &a);
        t0 = sq_wtime();
        rci_t zr = mzd_echelonize(z, 1);
        t_m4ri[r] = sq_wtime() - t0;
        if (r == 0)
            same = zr == rank && equal_mzd(z, &w);
#else
        t_m4ri[r] = 0;
#endif
    }
    double mo = median(t_ours, runs), mm = median(t_m4ri, runs);
    printf("%s\t%lld\t%lld\t%lld\t%.4f\t%.4f\t%.3f%s\n", c->name, (long long)a.rows,
           (long long)a.cols, (long long)rank, mo, mm, mm > 0 ? mo / mm : 0.0,
           same == 0 ? "\tMISMATCH" : "");
    fflush(stdout);
#ifdef SQ_HAVE_M4RI
    mzd_free(z);
#endif
    sq_free(t_ours);
    sq_free(t_m4ri);
    sq_free(piv);
    f2mat_clear(&a);
    f2mat_clear(&w);
    if (same == 0) {
        fprintf(stderr, "b-rref: %s: result differs from libm4ri\n", c->name);
        exit(1);
    }
}

/* Naive vs M4RI on small shapes: where should f2mat_rref switch? */
static void run_cutoff(void)
{
    static const int64_t rows_list[] = {2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256};
    static const int64_t cols_list[] = {64, 256, 1024, 100000};
    sq_rand_t rng;
    sq_rand_init(&rng, 99);
    printf("rows\tcols\tnaive_s\tm4ri_s\n");
    for (size_t ci = 0; ci < sizeof cols_list / sizeof *cols_list; ci++)
        for (size_t ri = 0; ri < sizeof rows_list / sizeof *rows_list; ri++) {
            int64_t rows = rows_list[ri], cols = cols_list[ci];
            f2mat_t a = {0}, w = {0};
            f2mat_init(&a, rows, cols);
            f2mat_init(&w, rows, cols);
            f2mat_randomize(&a, &rng);
            int64_t reps = 1 + (int64_t)(2e7 / (double)(rows * rows * (cols / 64 + 1) + 1000));
            double best[2] = {1e9, 1e9};
            for (int trial = 0; trial < 5; trial++)
                for (int v = 0; v < 2; v++) {
                    double t0 = sq_wtime();
                    for (int64_t q = 0; q < reps; q++) {
                        copy_into(&w, &a);
                        if (v == 0)
                            f2mat_rref_naive(&w, NULL);
                        else
                            f2mat_rref_m4ri(&w, NULL);
                    }
                    double t = (sq_wtime() - t0) / (double)reps;
                    if (t < best[v])
                        best[v] = t;
                }
            printf("%lld\t%lld\t%.3g\t%.3g\n", (long long)rows, (long long)cols, best[0], best[1]);
            f2mat_clear(&a);
            f2mat_clear(&w);
        }
}

int main(int argc, char **argv)
{
    int threads = 1;
    int runs = 0, big = 0, cutoff = 0;
    const char *only[32];
    int nonly = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--big") == 0)
            big = 1;
        else if (strcmp(argv[i], "--cutoff") == 0)
            cutoff = 1;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (nonly < 32)
            only[nonly++] = argv[i];
    }
    if (cutoff) {
        run_cutoff();
        return 0;
    }
    if (threads > 1) {
        g_pool = sq_pool_new(threads);
        printf("# ours on %d threads (f2mat_rref_pool); libm4ri single-threaded\n", threads);
    }
    printf("case\trows\tcols\trank\tours_s\tm4ri_s\tratio\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int want = nonly == 0 ? (!cases[i].big || big) : 0;
        for (int j = 0; j < nonly; j++)
            if (strcmp(only[j], cases[i].name) == 0)
                want = 1;
        if (want)
            run_case(&cases[i], runs);
    }
    return 0;
}
