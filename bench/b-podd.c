/*
 * b-podd.c -- benchmark: the odd-prime classical engine on the sphere S_p
 * (default p = 3, cases 100:30 and 200:50), and the F_p reducers on random
 * matrices.  Every resolution is a fresh child process, so the peak RSS is
 * that of one run.  For each case: the median wall time of the runs, and
 * the CPU time and peak RSS of the median run.  One TSV line per case:
 *
 *   case  p  threads  stem  max_s  runs  median_s  cpu_s  peak_rss_mb
 *
 * With --rref, one line per random matrix size instead:
 *
 *   rref  p  rows  cols  density  reducer  median_s
 *
 * Usage: b-podd [--runs R] [--threads K] [--prime P] [STEM:MAXS ...]
 *        b-podd --rref [--runs R]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fpmat.h"
#include "resol.h"
#include "sq_core.h"

typedef struct {
    double wall, cpu, rss_mb;
} sample_t;

static int cmp_sample(const void *a, const void *b)
{
    double x = ((const sample_t *)a)->wall, y = ((const sample_t *)b)->wall;
    return (x > y) - (x < y);
}

/* Runs one resolution in a child process and returns its figures. */
static sample_t run_once(uint32_t p, int n, int s, int threads)
{
    int fd[2];
    sample_t out = {-1, -1, -1};
    if (pipe(fd) != 0)
        return out;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        fdmod_t *M = fdmod_sphere_p(p);
        double c0 = sq_cputime(), t0 = sq_wtime();
        resol_t *R = resol_new(M, s, n);
        sq_pool_t *pool = threads > 1 ? sq_pool_new(threads) : NULL;
        resol_run_pool(R, RESOL_CLASSICAL, pool, NULL);
        sq_pool_free(pool);
        sample_t r = {sq_wtime() - t0, sq_cputime() - c0, (double)sq_peak_rss() / 1048576.0};
        resol_free(R);
        fdmod_free(M);
        if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (pid > 0 && read(fd[0], &out, sizeof out) != (ssize_t)sizeof out)
        out.wall = -1;
    close(fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return out;
}

/* Median time of `runs` reductions of copies of one random matrix. */
static double time_rref(const fpmat_t *m, int runs, int which)
{
    double best[64];
    if (runs > 64)
        runs = 64;
    for (int r = 0; r < runs; r++) {
        fpmat_t c = {0};
        fpmat_init_set(&c, m);
        double t0 = sq_wtime();
        if (which == 0)
            fpmat_rref(&c, NULL);
        else if (which == 1)
            fpmat_rref_bytes(&c, NULL);
        else
            fpmat_rref_naive(&c, NULL);
        best[r] = sq_wtime() - t0;
        fpmat_clear(&c);
    }
    for (int i = 1; i < runs; i++)
        for (int j = i; j > 0 && best[j] < best[j - 1]; j--) {
            double t = best[j];
            best[j] = best[j - 1];
            best[j - 1] = t;
        }
    return best[runs / 2];
}

static void bench_rref(int runs)
{
    static const uint32_t ps[] = {3, 5, 7};
    static const int64_t sizes[][2] = {{256, 512}, {1000, 2000}, {2000, 4000}};
    static const uint32_t dens[] = {256, 16};
    sq_rand_t rng;
    sq_rand_init(&rng, 17);
    printf("rref\tp\trows\tcols\tdensity\treducer\tmedian_s\n");
    for (size_t ip = 0; ip < 3; ip++)
        for (size_t is = 0; is < 3; is++)
            for (size_t id = 0; id < 2; id++) {
                fpmat_t m = {0};
                fpmat_init(&m, sizes[is][0], sizes[is][1], ps[ip]);
                fpmat_randomize(&m, &rng, dens[id]);
                static const char *const names[] = {"fpmat_rref", "bytes", "naive"};
                for (int w = 0; w < 3; w++) {
                    if (w == 2 && sizes[is][0] > 1000)
                        continue; /* the oracle is too slow there */
                    if (w == 0 && ps[ip] != 3)
                        continue; /* fpmat_rref is the byte reducer there */
                    printf("rref\t%u\t%lld\t%lld\t%u/256\t%s\t%.4f\n", ps[ip],
                           (long long)sizes[is][0], (long long)sizes[is][1], dens[id], names[w],
                           time_rref(&m, runs, w));
                    fflush(stdout);
                }
                fpmat_clear(&m);
            }
}

int main(int argc, char **argv)
{
    int runs = 3, threads = 1, rref = 0;
    uint32_t p = 3;
    int stems[16], maxs[16], ncases = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--prime") == 0 && i + 1 < argc) {
            p = (uint32_t)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--rref") == 0) {
            rref = 1;
        } else if (ncases < 16) {
            int n = 0, s = 0;
            if (sscanf(argv[i], "%d:%d", &n, &s) != 2) {
                fprintf(stderr, "b-podd: cases are STEM:MAXS, not %s\n", argv[i]);
                return 2;
            }
            stems[ncases] = n;
            maxs[ncases++] = s;
        }
    }
    if (runs < 1)
        runs = 1;
    if (rref) {
        bench_rref(runs);
        return 0;
    }
    if (!ncases) {
        stems[0] = 100, maxs[0] = 30;
        stems[1] = 200, maxs[1] = 50;
        ncases = 2;
    }
    printf("case\tp\tthreads\tstem\tmax_s\truns\tmedian_s\tcpu_s\tpeak_rss_mb\n");
    for (int c = 0; c < ncases; c++) {
        sample_t *S = calloc((size_t)runs, sizeof *S);
        for (int r = 0; r < runs; r++)
            S[r] = run_once(p, stems[c], maxs[c], threads);
        qsort(S, (size_t)runs, sizeof *S, cmp_sample);
        sample_t m = S[runs / 2];
        printf("S_%u\t%u\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.1f\n", p, p, threads, stems[c], maxs[c],
               runs, m.wall, m.cpu, m.rss_mb);
        fflush(stdout);
        free(S);
    }
    return 0;
}
