/*
 * b-milnor.c -- timings of the algebra layer.
 *
 * Cases (one TSV line each: case, count, seconds, count per second; the time
 * is the minimum over REPS runs, inputs seeded, never from the clock):
 *   new_300, new_2047      milnor_new(n) (count = 1)
 *   get_index_150          milnor_get + milnor_index on every element of degree 150
 *   vec_<lo>_<hi>_<dens>   milnor_mul_vec_add with random R and random v, total degree
 *                          drawn in [lo, hi], R degree uniform in [0, total]; v has
 *                          each bit set with probability dens%; count = products
 *                          Sq(R) Sq(S) (set bits of v)
 *   rows_<t>_<s>           what building one matrix does: Sq(R) for R of degree t - s
 *                          (every k-th basis element, k = stride, so that a case takes
 *                          well under a second) applied to one random v of degree s
 *                          with half of its bits set (count = products)
 *   single_<lo>_<hi>       milnor_mul_add on random pairs (count = products)
 *   blocks_<r>_<d>_<how>   what a resolution's matrix build does: every Sq(R) of degree r
 *                          times 8 blocks of degrees <= d (one of degree d) with 1-3 set
 *                          bits each; how = vec (milnor_mul_vec_add per block) or ws (one
 *                          milnor_ws_prepare per R, then milnor_ws_mul_vec_add per block)
 * Usage: b-milnor [scale]   (scale multiplies the work; default 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "milnor.h"
#include "sq_core.h"

#define REPS 3

static void line(const char *name, double count, double secs)
{
    printf("%s\t%.0f\t%.6f\t%.4g\n", name, count, secs, secs > 0 ? count / secs : 0.0);
    fflush(stdout);
}

static int64_t limbs_of(int64_t bits)
{
    return (bits + 63) / 64;
}

static void bench_new(int32_t n)
{
    double best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = sq_wtime();
        milnor_t *A = milnor_new(n);
        double t = sq_wtime() - t0;
        milnor_free(A);
        if (t < best)
            best = t;
    }
    char name[64];
    snprintf(name, sizeof name, "new_%d", (int)n);
    line(name, 1, best);
}

static void bench_get_index(const milnor_t *A, int32_t d)
{
    double best = 1e30;
    int64_t dim = milnor_dim(A, d), sum = 0;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = sq_wtime();
        for (int64_t k = 0; k < dim; k++) {
            int32_t r[MILNOR_MAX_LEN];
            int len = milnor_get(A, d, k, r, MILNOR_MAX_LEN);
            sum += milnor_index(A, r, len);
        }
        double t = sq_wtime() - t0;
        if (t < best)
            best = t;
    }
    if (sum < 0)
        printf("#");
    char name[64];
    snprintf(name, sizeof name, "get_index_%d", (int)d);
    line(name, (double)dim, best);
}

typedef struct {
    int32_t rd, sd;
    int64_t ri;
    uint64_t *v;
} job_t;

static void bench_vec(const milnor_t *A, int32_t lo, int32_t hi, int dens, int njobs)
{
    sq_rand_t rng;
    sq_rand_init(&rng, 1234 + (uint64_t)lo * 7 + (uint64_t)dens);
    job_t *jobs = sq_calloc((size_t)njobs, sizeof *jobs);
    double count = 0;
    for (int i = 0; i < njobs; i++) {
        int32_t n = lo + (int32_t)sq_rand_below(&rng, (uint64_t)(hi - lo) + 1);
        jobs[i].rd = (int32_t)sq_rand_below(&rng, (uint64_t)n + 1);
        jobs[i].sd = n - jobs[i].rd;
        jobs[i].ri = (int64_t)sq_rand_below(&rng, (uint64_t)milnor_dim(A, jobs[i].rd));
        int64_t sdim = milnor_dim(A, jobs[i].sd);
        jobs[i].v = sq_calloc((size_t)limbs_of(sdim), 8);
        for (int64_t k = 0; k < sdim; k++) {
            if ((int)sq_rand_below(&rng, 100) < dens) {
                jobs[i].v[k >> 6] |= UINT64_C(1) << (k & 63);
                count += 1;
            }
        }
    }
    uint64_t *out = sq_calloc((size_t)limbs_of(milnor_dim(A, hi)), 8);
    double best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = sq_wtime();
        for (int i = 0; i < njobs; i++)
            milnor_mul_vec_add(A, out, 0, jobs[i].rd, jobs[i].ri, jobs[i].sd, jobs[i].v);
        double t = sq_wtime() - t0;
        if (t < best)
            best = t;
    }
    char name[64];
    snprintf(name, sizeof name, "vec_%d_%d_%d", (int)lo, (int)hi, dens);
    line(name, count, best);
    for (int i = 0; i < njobs; i++)
        sq_free(jobs[i].v);
    sq_free(jobs);
    sq_free(out);
}

static void bench_rows(const milnor_t *A, int32_t t, int32_t s, int64_t stride)
{
    sq_rand_t rng;
    sq_rand_init(&rng, 99 + (uint64_t)t * 1000 + (uint64_t)s);
    int64_t sdim = milnor_dim(A, s), rdim = milnor_dim(A, t - s), ndim = milnor_dim(A, t);
    uint64_t *v = sq_calloc((size_t)limbs_of(sdim), 8);
    double bits = 0;
    for (int64_t k = 0; k < sdim; k++)
        if (sq_rand_below(&rng, 2)) {
            v[k >> 6] |= UINT64_C(1) << (k & 63);
            bits += 1;
        }
    uint64_t *out = sq_calloc((size_t)limbs_of(ndim), 8);
    double best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = sq_wtime();
        for (int64_t r = 0; r < rdim; r += stride)
            milnor_mul_vec_add(A, out, 0, t - s, r, s, v);
        double tt = sq_wtime() - t0;
        if (tt < best)
            best = tt;
    }
    char name[64];
    snprintf(name, sizeof name, "rows_%d_%d", (int)t, (int)s);
    line(name, bits * (double)((rdim + stride - 1) / stride), best);
    sq_free(v);
    sq_free(out);
}

static void bench_single(const milnor_t *A, int32_t lo, int32_t hi, int npairs)
{
    sq_rand_t rng;
    sq_rand_init(&rng, 4321 + (uint64_t)lo);
    int32_t *rd = sq_calloc((size_t)npairs, sizeof *rd),
            *sd = sq_calloc((size_t)npairs, sizeof *sd);
    int64_t *ri = sq_calloc((size_t)npairs, sizeof *ri),
            *si = sq_calloc((size_t)npairs, sizeof *si);
    for (int i = 0; i < npairs; i++) {
        int32_t n = lo + (int32_t)sq_rand_below(&rng, (uint64_t)(hi - lo) + 1);
        rd[i] = (int32_t)sq_rand_below(&rng, (uint64_t)n + 1);
        sd[i] = n - rd[i];
        ri[i] = (int64_t)sq_rand_below(&rng, (uint64_t)milnor_dim(A, rd[i]));
        si[i] = (int64_t)sq_rand_below(&rng, (uint64_t)milnor_dim(A, sd[i]));
    }
    uint64_t *out = sq_calloc((size_t)limbs_of(milnor_dim(A, hi)), 8);
    double best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = sq_wtime();
        for (int i = 0; i < npairs; i++)
            milnor_mul_add(A, out, 0, rd[i], ri[i], sd[i], si[i]);
        double t = sq_wtime() - t0;
        if (t < best)
            best = t;
    }
    char name[64];
    snprintf(name, sizeof name, "single_%d_%d", (int)lo, (int)hi);
    line(name, npairs, best);
    sq_free(rd);
    sq_free(sd);
    sq_free(ri);
    sq_free(si);
    sq_free(out);
}

static void bench_blocks(const milnor_t *A, int32_t rdeg, int32_t maxd, int use_ws)
{
    enum { NB = 8 };
    sq_rand_t rng;
    sq_rand_init(&rng, 555 + (uint64_t)rdeg * 1000 + (uint64_t)maxd);
    uint64_t *v[NB];
    int32_t deg[NB];
    int64_t off[NB], total = 0, bits = 0;
    for (int b = 0; b < NB; b++) {
        deg[b] = b == 0 ? maxd : 1 + (int32_t)sq_rand_below(&rng, (uint64_t)maxd);
        int64_t dim = milnor_dim(A, deg[b]);
        v[b] = sq_calloc((size_t)limbs_of(dim), 8);
        int nb = 1 + (int)sq_rand_below(&rng, 3);
        for (int k = 0; k < nb; k++) {
            int64_t j = (int64_t)sq_rand_below(&rng, (uint64_t)dim);
            if (!((v[b][j >> 6] >> (j & 63)) & 1)) {
                v[b][j >> 6] |= UINT64_C(1) << (j & 63);
                bits++;
            }
        }
        off[b] = total;
        total += milnor_dim(A, rdeg + deg[b]);
    }
    uint64_t *out = sq_calloc((size_t)limbs_of(total), 8);
    int64_t nr = milnor_dim(A, rdeg);
    milnor_ws_t *W = milnor_ws_new();
    double best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = sq_wtime();
        for (int64_t r = 0; r < nr; r++) {
            if (use_ws) {
                milnor_op_t op;
                milnor_op_init(&op, A, rdeg, r);
                milnor_ws_prepare(W, &op, maxd, bits);
                for (int b = 0; b < NB; b++)
                    milnor_ws_mul_vec_add(W, out, off[b], deg[b], v[b]);
            } else {
                for (int b = 0; b < NB; b++)
                    milnor_mul_vec_add(A, out, off[b], rdeg, r, deg[b], v[b]);
            }
        }
        double t = sq_wtime() - t0;
        if (t < best)
            best = t;
    }
    char name[64];
    snprintf(name, sizeof name, "blocks_%d_%d_%s", (int)rdeg, (int)maxd, use_ws ? "ws" : "vec");
    line(name, (double)(bits * nr), best);
    milnor_ws_free(W);
    for (int b = 0; b < NB; b++)
        sq_free(v[b]);
    sq_free(out);
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    if (scale < 1)
        scale = 1;
    printf("case\tcount\tseconds\tper_second\n");
    bench_new(300);
    bench_new(2047);
    milnor_t *A = milnor_new(300);
    bench_get_index(A, 150);
    bench_vec(A, 100, 150, 50, 200 * scale);
    bench_vec(A, 100, 150, 5, 2000 * scale);
    bench_vec(A, 180, 200, 50, 20 * scale);
    bench_rows(A, 120, 20, 1);
    bench_rows(A, 120, 60, 1);
    bench_rows(A, 150, 30, 1);
    bench_rows(A, 150, 100, 1);
    bench_rows(A, 200, 40, 8);
    bench_rows(A, 200, 100, 8);
    bench_single(A, 100, 150, 100000 * scale);
    bench_blocks(A, 60, 20, 0);
    bench_blocks(A, 60, 20, 1);
    bench_blocks(A, 100, 30, 0);
    bench_blocks(A, 100, 30, 1);
    milnor_free(A);
    return 0;
}
