/*
 * b-resolve.c -- benchmark: the resolution of S_2 through stems 40/60/80
 * (s <= N/2 + 3 unless given as N:S), on K threads (default 1).  Every run is a fresh child process, so the
 * peak RSS is that of one run.  For each case: the median wall time of the
 * runs, and the CPU time and peak RSS of the median run.  One TSV line per
 * case:
 *
 *   case  algo  threads  stem  max_s  runs  median_s  cpu_s  busy_cores  peak_rss_mb
 *
 * busy_cores = cpu_s / median_s of the median run (the average number of
 * busy cores).
 *
 * Usage: b-resolve [--runs R] [--threads K] [--algorithm classical|nassau|auto]
 *                  [STEM | STEM:MAXS ...]   (default stems 40 60 80, R = 3).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
static sample_t run_once(int n, int s, resol_algo_t algo, int threads)
{
    int fd[2];
    sample_t out = {-1, -1, -1};
    if (pipe(fd) != 0)
        return out;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        fdmod_t *M = fdmod_sphere();
        double c0 = sq_cputime(), t0 = sq_wtime();
        resol_t *R = resol_new(M, s, n);
        sq_pool_t *pool = threads > 1 ? sq_pool_new(threads) : NULL;
        resol_run_pool(R, algo, pool, NULL);
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

int main(int argc, char **argv)
{
    int runs = 3, threads = 1;
    resol_algo_t algo = RESOL_AUTO;
    const char *algo_name = "auto";
    int stems[16], maxs[16], nstems = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--algorithm") == 0 && i + 1 < argc) {
            algo_name = argv[++i];
            algo = strcmp(algo_name, "classical") == 0 ? RESOL_CLASSICAL
                   : strcmp(algo_name, "nassau") == 0  ? RESOL_NASSAU
                                                       : RESOL_AUTO;
        } else if (nstems < 16) {
            const char *colon = strchr(argv[i], ':');
            stems[nstems] = atoi(argv[i]);
            maxs[nstems] = colon ? atoi(colon + 1) : stems[nstems] / 2 + 3;
            nstems++;
        }
    }
    if (nstems == 0) {
        for (int k = 0; k < 3; k++) {
            stems[k] = 40 + 20 * k;
            maxs[k] = stems[k] / 2 + 3;
        }
        nstems = 3;
    }
    if (runs < 1)
        runs = 1;
    printf("case\talgo\tthreads\tstem\tmax_s\truns\tmedian_s\tcpu_s\tbusy_cores\tpeak_rss_mb\n");
    for (int c = 0; c < nstems; c++) {
        int n = stems[c], s = maxs[c];
        sample_t *v = sq_calloc((size_t)runs, sizeof *v);
        for (int r = 0; r < runs; r++)
            v[r] = run_once(n, s, algo, threads);
        qsort(v, (size_t)runs, sizeof *v, cmp_sample);
        sample_t med = v[runs / 2];
        printf("S_2-n%d-s%d\t%s\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.2f\t%.1f\n", n, s, algo_name,
               threads, n, s, runs, med.wall, med.cpu, med.wall > 0 ? med.cpu / med.wall : 0,
               med.rss_mb);
        fflush(stdout);
        sq_free(v);
    }
    return 0;
}
