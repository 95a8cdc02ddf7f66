/*
 * sq_pool.c -- the worker pool (see sq_pool.h).
 *
 * State under one mutex: a list of open sections (each with its next
 * unclaimed chunk and the count of chunks finished), the current job source
 * and the number of running jobs.  Workers sleep on `work` when there is
 * nothing to do; the caller of sq_pool_run sleeps there too.  Whoever
 * finishes the last chunk of a section, or a job, broadcasts.
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_pool.h"

#include <pthread.h>

#include "sq_core.h"
#include "sq_trace.h"

typedef struct section {
    struct section *next_open;
    int64_t n, claimed, finished;
    void (*fn)(void *ctx, int64_t i);
    void *ctx;
    int64_t trace_id;        /* event=chunk section id; 0: not traced */
    int32_t trace_s, trace_t; /* the issuing step's bidegree */
    int64_t trace_sig;
    int cpu;                 /* measure chunks' CPU time (the phase trace is on) */
    double work;             /* CPU seconds of its chunks, summed (under the lock) */
} section_t;

struct sq_pool {
    int nthreads;
    pthread_t *threads;
    pthread_mutex_t lock;
    pthread_cond_t work;
    section_t *open;              /* sections with unclaimed chunks */
    const sq_pool_source_t *src;  /* current job source, or NULL */
    int64_t running;              /* jobs running now */
    int stop;
    double busy;                  /* seconds, under lock */
};

static _Thread_local int thread_index;
/* sq_pool_section_totals: over the split sections this thread opened, the
 * CPU seconds of all their chunks and of those it ran itself. */
static _Thread_local double sect_work, sect_own;

void sq_pool_section_totals(double *work, double *own)
{
    *work = sect_work;
    *own = sect_own;
}

int sq_pool_thread_index(void)
{
    return thread_index;
}

/* Claims a chunk of the first open section; lock held.  Removes sections
 * whose chunks are all claimed from the open list. */
static section_t *claim_any(sq_pool_t *p, int64_t *i)
{
    while (p->open) {
        section_t *s = p->open;
        if (s->claimed < s->n) {
            *i = s->claimed++;
            if (s->claimed == s->n)
                p->open = s->next_open;
            return s;
        }
        p->open = s->next_open;
    }
    return NULL;
}

/* Opens tracing of a section: when event=chunk is on, gives it an id and
 * the issuing thread's step context. */
static void trace_open(section_t *s)
{
    if (SQ_LIKELY(!sq_trace_on(SQ_TRACE_CHUNK)))
        return;
    s->trace_id = sq_trace_next_section();
    sq_trace_get_context(&s->trace_s, &s->trace_t, &s->trace_sig);
}

/* Runs chunk i of a traced section under the issuing step's context (so
 * that its rr events name that step) and emits its event=chunk line. */
static double run_traced(section_t *s, int64_t i)
{
    int32_t cs, ct;
    int64_t csig;
    sq_trace_get_context(&cs, &ct, &csig);
    sq_trace_set_context(s->trace_s, s->trace_t, s->trace_sig);
    double t0 = sq_wtime(), c0 = sq_thread_cputime();
    s->fn(s->ctx, i);
    double dt = sq_wtime() - t0, dc = sq_thread_cputime() - c0;
    sq_trace_set_context(cs, ct, csig);
    sq_trace_emit("event=chunk s=%d t=%d section=%lld chunk=%lld chunks=%lld at=%.3f ms=%.3f "
                  "thread=%d cpu_ms=%.3f",
                  (int)s->trace_s, (int)s->trace_t, (long long)s->trace_id, (long long)i,
                  (long long)s->n, 1e3 * t0, 1e3 * dt, sq_pool_thread_index(), 1e3 * dc);
    return dt;
}

/* Runs one chunk with the lock released; lock held on entry and exit.
 * Returns its CPU seconds when the section measures them, else 0. */
static double run_chunk(sq_pool_t *p, section_t *s, int64_t i)
{
    pthread_mutex_unlock(&p->lock);
    double c0 = s->cpu ? sq_thread_cputime() : 0, dc = 0;
    double dt;
    if (SQ_UNLIKELY(s->trace_id != 0)) {
        dt = run_traced(s, i);
    } else {
        double t0 = sq_wtime();
        s->fn(s->ctx, i);
        dt = sq_wtime() - t0;
    }
    if (s->cpu)
        dc = sq_thread_cputime() - c0;
    pthread_mutex_lock(&p->lock);
    p->busy += dt;
    s->work += dc;
    if (++s->finished == s->n)
        pthread_cond_broadcast(&p->work);
    return dc;
}

/* Takes and runs one job if the source has one; lock held.  Returns 1 if
 * a job ran. */
static int run_job(sq_pool_t *p)
{
    const sq_pool_source_t *src = p->src;
    void *job;
    if (!src || !src->next(src->ctx, &job))
        return 0;
    p->running++;
    pthread_mutex_unlock(&p->lock);
    double t0 = sq_wtime();
    src->run(src->ctx, job, thread_index);
    double dt = sq_wtime() - t0;
    pthread_mutex_lock(&p->lock);
    p->busy += dt;
    src->done(src->ctx, job);
    p->running--;
    pthread_cond_broadcast(&p->work);
    return 1;
}

/* Runs one unit of work if there is one -- a chunk of an open section
 * first, else a ready job; lock held.  Returns 1 if something ran. */
static int run_one(sq_pool_t *p)
{
    int64_t i;
    section_t *s = claim_any(p, &i);
    if (s) {
        run_chunk(p, s, i);
        return 1;
    }
    return run_job(p);
}

typedef struct {
    sq_pool_t *pool;
    int index;
} worker_arg_t;

static void *worker(void *arg)
{
    worker_arg_t *wa = arg;
    sq_pool_t *p = wa->pool;
    thread_index = wa->index;
    sq_free(wa);
    pthread_mutex_lock(&p->lock);
    while (!p->stop)
        if (!run_one(p))
            pthread_cond_wait(&p->work, &p->lock);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Test hook (sq_pool_set_fault): creating background thread number
 * fault_thread (1-based) fails; 0: never. */
static int fault_thread;

void sq_pool_set_fault(int k)
{
    fault_thread = k;
}

int sq_pool_create(sq_pool_t **out, int nthreads)
{
    SQ_CHECK(nthreads >= 1, "sq_pool_create: %d threads", nthreads);
    *out = NULL;
    sq_pool_t *p = sq_calloc(1, sizeof *p);
    p->nthreads = 1; /* threads started so far, the caller included */
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    p->threads = sq_calloc((size_t)nthreads, sizeof *p->threads);
    for (int k = 1; k < nthreads; k++) {
        worker_arg_t *wa = sq_malloc(sizeof *wa);
        wa->pool = p;
        wa->index = k;
        if (k == fault_thread || pthread_create(&p->threads[k], NULL, worker, wa) != 0) {
            sq_free(wa);
            sq_pool_free(p); /* stops and joins the k - 1 started */
            return SQ_E_NOTHREAD;
        }
        pthread_mutex_lock(&p->lock);
        p->nthreads = k + 1;
        pthread_mutex_unlock(&p->lock);
    }
    *out = p;
    return 0;
}

sq_pool_t *sq_pool_new(int nthreads)
{
    sq_pool_t *p;
    if (sq_pool_create(&p, nthreads) != 0)
        sq_abort("sq_pool_new: cannot create %d threads", nthreads - 1);
    return p;
}

void sq_pool_free(sq_pool_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int k = 1; k < p->nthreads; k++)
        pthread_join(p->threads[k], NULL);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
    sq_free(p->threads);
    sq_free(p);
}

int sq_pool_size(const sq_pool_t *p)
{
    return p ? p->nthreads : 1;
}

double sq_pool_busy_seconds(const sq_pool_t *p)
{
    if (!p)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)&p->lock);
    double b = p->busy;
    pthread_mutex_unlock((pthread_mutex_t *)&p->lock);
    return b;
}

void sq_pool_run(sq_pool_t *p, const sq_pool_source_t *src)
{
    pthread_mutex_lock(&p->lock);
    SQ_CHECK(p->src == NULL, "sq_pool_run: a source is already running");
    p->src = src;
    pthread_cond_broadcast(&p->work);
    for (;;) {
        if (run_one(p))
            continue;
        if (p->running == 0)
            break; /* nothing ready and nothing running: the source is exhausted */
        pthread_cond_wait(&p->work, &p->lock);
    }
    p->src = NULL;
    pthread_mutex_unlock(&p->lock);
}

void sq_pool_wake(sq_pool_t *p)
{
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
}

void sq_pool_parallel_for(sq_pool_t *p, int64_t n, void (*fn)(void *ctx, int64_t i), void *ctx)
{
    if (n <= 0)
        return;
    section_t s = {NULL, n, 0, 0, fn, ctx, 0, -1, -1, -1, 0, 0.0};
    trace_open(&s);
    if (!p || p->nthreads == 1 || n == 1) {
        if (SQ_UNLIKELY(s.trace_id != 0))
            for (int64_t i = 0; i < n; i++)
                run_traced(&s, i);
        else
            for (int64_t i = 0; i < n; i++)
                fn(ctx, i);
        return;
    }
    s.cpu = sq_trace_on(SQ_TRACE_PHASE);
    double own = 0;
    pthread_mutex_lock(&p->lock);
    s.next_open = p->open;
    p->open = &s;
    pthread_cond_broadcast(&p->work);
    /* Run our own chunks; then wait, running only chunks of this section. */
    while (s.claimed < s.n) {
        int64_t i = s.claimed++;
        if (s.claimed == s.n) {
            /* Unlink s from the open list. */
            section_t **q = &p->open;
            while (*q && *q != &s)
                q = &(*q)->next_open;
            if (*q)
                *q = s.next_open;
        }
        own += run_chunk(p, &s, i);
    }
    while (s.finished < s.n)
        pthread_cond_wait(&p->work, &p->lock);
    pthread_mutex_unlock(&p->lock);
    sect_work += s.work;
    sect_own += own;
}
