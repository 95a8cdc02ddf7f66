/*
 * sq_progress.c -- the progress line (see sq_progress.h).
 */
#include "sq_progress.h"

#include <math.h>

#include "sq_core.h"

struct sq_progress {
    FILE *f;
    double start, last;
    double w_total, w_done;
    double w_before;      /* weight of the steps published before the run */
    int32_t t_min, min_n, max_n, frontier;
    int32_t max_s;
    int32_t *stem_done;   /* finished steps per stem min_n..max_n */
    uint8_t *counted;     /* per (s, stem): counted in w_done and stem_done */
    resol_t *R;
    int scanned;          /* count_published has run */
    int drawn;
};

/* Relative cost of a step in stem n: the free modules (and the work) grow
 * about 2.5x per 10 stems.  Rows matter much less than stems. */
static double weight(int32_t n, int32_t min_n)
{
    return exp(0.09 * (double)(n - min_n));
}

sq_progress_t *sq_progress_new(FILE *f, resol_t *R, resol_algo_t algo)
{
    sq_progress_t *p = sq_calloc(1, sizeof *p);
    p->f = f;
    p->start = p->last = sq_wtime();
    p->t_min = resol_min_n(R);
    p->max_s = resol_max_s(R);
    p->min_n = resol_min_n(R);
    p->max_n = resol_max_n(R);
    p->frontier = p->min_n - 1;
    p->stem_done = sq_calloc((size_t)(p->max_n - p->min_n + 1), sizeof *p->stem_done);
    p->R = R;
    p->counted = sq_calloc((size_t)(p->max_s + 1) * (size_t)(p->max_n - p->min_n + 1), 1);
    resol_num_steps(R, algo);
    /* Sum the weights of the region's steps (stems up to max_n + 1). */
    for (int32_t s = 0; s <= resol_max_s(R); s++)
        for (int32_t n = resol_min_n(R); n <= resol_max_n(R); n++)
            p->w_total += weight(n, p->t_min);
    return p;
}

/* Counts the step (s, t) once: its weight and its stem's tally. */
static void count_step(sq_progress_t *p, int32_t s, int32_t t)
{
    int32_t n = t - s;
    if (s < 0 || s > p->max_s || n < p->min_n || n > p->max_n)
        return;
    uint8_t *c = &p->counted[(size_t)s * (size_t)(p->max_n - p->min_n + 1) + (size_t)(n - p->min_n)];
    if (*c)
        return;
    *c = 1;
    p->w_done += weight(n, p->t_min);
    p->stem_done[n - p->min_n]++;
}

/* At the first report: the steps a store published before the run (they
 * are loaded after sq_progress_new, and never reported) count as done, so
 * that a resumed run shows its true frontier and an ETA for what is left.
 * A few steps of this run may be among them; the ETA barely moves. */
static void count_published(sq_progress_t *p)
{
    for (int32_t s = 0; s <= p->max_s; s++)
        for (int32_t n = p->min_n; n <= p->max_n; n++)
            if (resol_step_published(p->R, s, n + s))
                count_step(p, s, n + s);
    p->w_before = p->w_done;
}

static void draw(sq_progress_t *p, int64_t done, int64_t total)
{
    double el = sq_wtime() - p->start;
    double frac = p->w_total > 0 ? p->w_done / p->w_total : 0;
    if (frac > 1)
        frac = 1;
    char bar[21];
    int full = (int)(frac * 20);
    for (int i = 0; i < 20; i++)
        bar[i] = i < full ? '#' : '.';
    bar[20] = '\0';
    /* The rate of this run only: the steps a store gave took no time. */
    double run = p->w_total > 0 ? (p->w_done - p->w_before) / p->w_total : 0;
    char eta[32] = "?";
    if (run > 0.001 && el > 0.5)
        snprintf(eta, sizeof eta, "%.0f s", el * (1 - frac) / run);
    char front[32] = "no stem done yet";
    if (p->frontier >= p->min_n)
        snprintf(front, sizeof front, "stems <= %d done", (int)p->frontier);
    fprintf(p->f, "\r[%s] %lld/%lld bidegrees  %s  %.1f s  ETA %s   ", bar, (long long)done,
            (long long)total, front, el, eta);
    fflush(p->f);
    p->drawn = 1;
}

static void on_step(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    sq_progress_t *p = ctx;
    if (!p->scanned) {
        p->scanned = 1;
        count_published(p);
    }
    count_step(p, s, t);
    /* The frontier: every stem up to it is complete (all max_s + 1 rows). */
    while (p->frontier < p->max_n && p->stem_done[p->frontier + 1 - p->min_n] == p->max_s + 1)
        p->frontier++;
    double now = sq_wtime();
    if (now - p->last >= 0.1 || done == total) {
        p->last = now;
        draw(p, done, total);
    }
}

resol_observer_t sq_progress_observer(sq_progress_t *p)
{
    resol_observer_t o = {on_step, p};
    return o;
}

void sq_progress_free(sq_progress_t *p)
{
    if (!p)
        return;
    if (p->drawn) {
        fprintf(p->f, "\r%*s\r", 100, "");
        fflush(p->f);
    }
    sq_free(p->stem_done);
    sq_free(p->counted);
    sq_free(p);
}
