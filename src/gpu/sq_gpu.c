/*
 * sq_gpu.c -- settings, start and stop, lanes, device memory, counters and
 * verify mode of the accelerator path (see sq_gpu.h, docs/gpu.md).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_gpu.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_internal.h"
#include "sq_trace.h"

gpu_global_t sq_gpu_g;
int sq_gpu_state_ = -1;

/* The hook in f2mat_rref_pool, defined in src/fp/rref.c: fp sits below
 * gpu, so it cannot call this layer; sq_gpu_init installs gpu_rref_hook
 * (gpu_rref.c) there and sq_gpu_shutdown removes it.  The types must match
 * rref.c's (tests/gpu checks the hook end to end). */
typedef int64_t (*gpu_rref_cpu_fn)(f2mat_t *m, int64_t *pivots, sq_pool_t *pool);
typedef int64_t (*gpu_rref_offload_fn)(f2mat_t *m, int64_t *pivots, sq_pool_t *pool,
                                       gpu_rref_cpu_fn cpu);
void f2mat_rref_set_offload(gpu_rref_offload_fn fn);
int64_t gpu_rref_hook(f2mat_t *m, int64_t *pivots, sq_pool_t *pool, gpu_rref_cpu_fn cpu);

/* ---- Settings ------------------------------------------------------------ */

/*
 * Defaults.  Neither gate has been measured on a device yet (no GPU machine
 * was reachable when this was written; bench/gpu-check.sh measures them):
 *   - MIN_WORK 2^18 products: the CPU does ~5e6-1e7 products per second
 *     per core (docs/benchmarks.md, b-milnor), so a build under the gate
 *     costs the CPU under ~50 ms, against a fixed ~0.1-1 ms of launches,
 *     copies and host marshaling per build on the device (the peer measured
 *     ~0.7 ms per launch with its marshaling);
 *   - RR_MIN 4096: the CPU reduces 4000^2 in ~0.02 s and 10000^2 in ~0.2 s
 *     (docs/benchmarks.md); the device round trip per 64-column panel is a
 *     few launches and two small copies (~50 us), so it can only win once
 *     there are both many panels and many rows (the peer used 8192).
 */
#define DEFAULT_MIN_WORK (INT64_C(1) << 18)
#define DEFAULT_RR_MIN 4096

void sq_gpu_settings_default(sq_gpu_settings_t *s)
{
    memset(s, 0, sizeof *s);
    s->min_work = DEFAULT_MIN_WORK;
    s->rr_min = DEFAULT_RR_MIN;
    s->mem_mb = 0;
}

static void say(char *why, size_t n, const char *fmt, ...) SQ_PRINTF(3, 4);
static void say(char *why, size_t n, const char *fmt, ...)
{
    if (!why || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

/* Parses a non-negative decimal (or, for flags, 0/1) variable. */
static int env_int(const char *name, int64_t lo, int64_t hi, int64_t *out, char *why, size_t n)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || *end != '\0' || x < lo || x > hi) {
        /* name and range only: the value itself may be long */
        say(why, n, "%s: expected an integer in [%lld, %lld]", name, (long long)lo, (long long)hi);
        return SQ_E_INVAL;
    }
    *out = x;
    return 1;
}

int sq_gpu_settings_from_env(sq_gpu_settings_t *s, char *why, size_t n)
{
    sq_gpu_settings_t t = *s;
    int64_t v;
    int rc;
    if ((rc = env_int("ADAMS_GPU", 0, 1, &v, why, n)) < 0)
        return rc;
    if (rc)
        t.enable = (int)v;
    if ((rc = env_int("ADAMS_GPU_VERIFY", 0, 1, &v, why, n)) < 0)
        return rc;
    if (rc)
        t.verify = (int)v;
    if ((rc = env_int("ADAMS_GPU_EMULATE", 0, 1, &v, why, n)) < 0)
        return rc;
    if (rc)
        t.emulate = (int)v;
    if ((rc = env_int("ADAMS_GPU_MIN_WORK", 0, INT64_MAX, &t.min_work, why, n)) < 0)
        return rc;
    if ((rc = env_int("ADAMS_GPU_RR_MIN", 1, INT64_MAX, &t.rr_min, why, n)) < 0)
        return rc;
    if ((rc = env_int("ADAMS_GPU_MEM_MB", 1, INT64_C(1) << 40, &t.mem_mb, why, n)) < 0)
        return rc;
    *s = t;
    return 0;
}

/* ---- Counters -------------------------------------------------------------- */

static _Thread_local sq_gpu_stats_t tl_stats;
static int64_t tot_builds, tot_rows, tot_products, tot_launches, tot_rrs, tot_rr_rows, tot_declined,
    tot_us;

static void add64(int64_t *p, int64_t v)
{
    __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

void gpu_count_build(int64_t rows, int64_t products, int64_t launches, double ms)
{
    tl_stats.builds++;
    tl_stats.build_rows += rows;
    tl_stats.products += products;
    tl_stats.launches += launches;
    tl_stats.ms += ms;
    add64(&tot_builds, 1);
    add64(&tot_rows, rows);
    add64(&tot_products, products);
    add64(&tot_launches, launches);
    add64(&tot_us, (int64_t)(ms * 1e3));
}

void gpu_count_rr(int64_t rows, double ms)
{
    tl_stats.rrs++;
    tl_stats.rr_rows += rows;
    tl_stats.ms += ms;
    add64(&tot_rrs, 1);
    add64(&tot_rr_rows, rows);
    add64(&tot_us, (int64_t)(ms * 1e3));
}

void gpu_count_declined(void)
{
    tl_stats.declined++;
    add64(&tot_declined, 1);
}

void sq_gpu_stats_thread(sq_gpu_stats_t *st, int reset)
{
    *st = tl_stats;
    if (reset)
        memset(&tl_stats, 0, sizeof tl_stats);
}

static int64_t ld64(const int64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void sq_gpu_stats_total(sq_gpu_stats_t *st)
{
    st->builds = ld64(&tot_builds);
    st->build_rows = ld64(&tot_rows);
    st->products = ld64(&tot_products);
    st->launches = ld64(&tot_launches);
    st->rrs = ld64(&tot_rrs);
    st->rr_rows = ld64(&tot_rr_rows);
    st->declined = ld64(&tot_declined);
    st->ms = (double)ld64(&tot_us) / 1e3;
}

/* ADAMS_GPU_STATS=1: one summary line on stderr at exit (bench/gpu-check.sh).
 * Prints counters only: no device call runs at exit. */
static void print_stats_at_exit(void)
{
    sq_gpu_stats_t s;
    sq_gpu_stats_total(&s);
    fprintf(stderr,
            "adams: gpu: device=\"%s\" builds=%lld rows=%lld products=%lld launches=%lld rrs=%lld "
            "rr_rows=%lld declined=%lld device_ms=%.1f\n",
            sq_gpu_g.device, (long long)s.builds, (long long)s.build_rows, (long long)s.products,
            (long long)s.launches, (long long)s.rrs, (long long)s.rr_rows, (long long)s.declined,
            s.ms);
}

/* ---- Memory and lanes --------------------------------------------------------- */

int gpu_dev_reserve(gpu_lane_t *L, gpu_buf_t *b, size_t n, size_t keep)
{
    if (b->cap >= n)
        return 0;
    const sq_gpu_backend_t *be = sq_gpu_g.be;
    size_t want = b->cap + b->cap / 2;
    if (want < n)
        want = n;
    want = (want + 4095) & ~(size_t)4095;
    for (int attempt = 0; attempt < 2; attempt++) {
        size_t grow = want - b->cap;
        size_t now = __atomic_add_fetch(&sq_gpu_g.used, grow, __ATOMIC_RELAXED);
        if (now > sq_gpu_g.cap) {
            __atomic_sub_fetch(&sq_gpu_g.used, grow, __ATOMIC_RELAXED);
            want = (n + 4095) & ~(size_t)4095; /* retry without the headroom */
            continue;
        }
        void *p = be->dev_alloc(want);
        if (!p) {
            __atomic_sub_fetch(&sq_gpu_g.used, grow, __ATOMIC_RELAXED);
            return SQ_E_NOGPU;
        }
        if (keep && b->p && be->d2d(L->st, p, b->p, keep) < 0) {
            be->dev_free(p);
            __atomic_sub_fetch(&sq_gpu_g.used, grow, __ATOMIC_RELAXED);
            return SQ_E_NOGPU;
        }
        if (b->p) {
            be->sync(L->st); /* nothing may still read the old buffer */
            be->dev_free(b->p);
        }
        b->p = p;
        b->cap = want;
        return 0;
    }
    return SQ_E_NOGPU;
}

void gpu_dev_release(gpu_buf_t *b)
{
    if (b->p) {
        sq_gpu_g.be->dev_free(b->p);
        __atomic_sub_fetch(&sq_gpu_g.used, b->cap, __ATOMIC_RELAXED);
    }
    b->p = NULL;
    b->cap = 0;
}

int gpu_host_reserve(gpu_buf_t *b, size_t n)
{
    if (b->cap >= n)
        return 0;
    size_t want = b->cap + b->cap / 2;
    if (want < n)
        want = n;
    want = (want + 4095) & ~(size_t)4095;
    void *p = sq_gpu_g.be->host_alloc(want);
    if (!p)
        return SQ_E_NOGPU;
    if (b->p)
        sq_gpu_g.be->host_free(b->p);
    b->p = p;
    b->cap = want;
    return 0;
}

void gpu_host_release(gpu_buf_t *b)
{
    if (b->p)
        sq_gpu_g.be->host_free(b->p);
    b->p = NULL;
    b->cap = 0;
}

gpu_lane_t *gpu_lane_acquire(void)
{
    for (int i = 0; i < SQ_GPU_LANES; i++) {
        gpu_lane_t *L = &sq_gpu_g.lanes[i];
        if (__atomic_load_n(&L->busy, __ATOMIC_RELAXED) == 0 &&
            __atomic_exchange_n(&L->busy, 1, __ATOMIC_ACQUIRE) == 0)
            return L;
    }
    gpu_count_declined();
    return NULL;
}

void gpu_lane_release(gpu_lane_t *L)
{
    __atomic_store_n(&L->busy, 0, __ATOMIC_RELEASE);
}

int gpu_lane_done(gpu_lane_t *L, int rc)
{
    gpu_lane_release(L);
    if (rc != 0)
        gpu_count_declined();
    return rc;
}

void gpu_lane_cache_reset(gpu_lane_t *L)
{
    for (int d = 0; d <= SQ_GK_MAXDEG; d++) {
        sq_free(L->cslot[d]);
        L->cslot[d] = NULL;
    }
    L->ncent = 0;
    L->cfg_used = 0;
    L->upto_used = 0;
}

void gpu_lane_free(gpu_lane_t *L)
{
    gpu_lane_cache_reset(L);
    gpu_buf_t *dev[] = {&L->d_arena, &L->d_out, &L->d_cfg_c, &L->d_cfg_d, &L->d_upto, &L->d_m,
                        &L->d_w,     &L->d_u,   &L->d_ppos,  &L->d_prow,  &L->d_tab};
    gpu_buf_t *host[] = {&L->h_arena, &L->h_out, &L->h_m};
    if (L->st)
        sq_gpu_g.be->sync(L->st);
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++)
        gpu_dev_release(dev[i]);
    for (size_t i = 0; i < sizeof host / sizeof *host; i++)
        gpu_host_release(host[i]);
    if (L->st)
        sq_gpu_g.be->stream_free(L->st);
    sq_free(L->cent);
    sq_free(L->new_c);
    sq_free(L->new_d);
    sq_free(L->tmp_c);
    sq_free(L->tmp_d);
    sq_free(L->new_upto);
    sq_free(L->w);
    sq_free(L->u);
    sq_free(L->done);
    sq_free(L->pivrow);
    memset(L, 0, sizeof *L);
}

/* ---- Start and stop ------------------------------------------------------------- */

int sq_gpu_available(void)
{
    return __atomic_load_n(&sq_gpu_state_, __ATOMIC_ACQUIRE) > 0;
}

const char *sq_gpu_device(void)
{
    return sq_gpu_available() ? sq_gpu_g.device : "";
}

int sq_gpu_verify_on(void)
{
    return sq_gpu_available() && sq_gpu_g.set.verify;
}

int sq_gpu_build_wanted(int64_t products)
{
    return sq_gpu_on() && products >= sq_gpu_g.set.min_work;
}

static void stop(void)
{
    if (__atomic_load_n(&sq_gpu_state_, __ATOMIC_ACQUIRE) > 0) {
        f2mat_rref_set_offload(NULL);
        for (int i = 0; i < SQ_GPU_LANES; i++)
            gpu_lane_free(&sq_gpu_g.lanes[i]);
        gpu_dev_release(&sq_gpu_g.cntbuf);
        if (sq_gpu_g.be->shutdown)
            sq_gpu_g.be->shutdown();
    }
    sq_gpu_g.be = NULL;
    sq_gpu_g.d_cnt = NULL;
    sq_gpu_g.device[0] = '\0';
    __atomic_store_n(&sq_gpu_state_, 0, __ATOMIC_RELEASE);
}

void sq_gpu_shutdown(void)
{
    stop();
}

int sq_gpu_init(const sq_gpu_settings_t *s, char *why, size_t n)
{
    stop();
    if (why && n)
        why[0] = '\0';
    if (!s->enable && !s->verify) {
        say(why, n, "the GPU path was not asked for");
        return SQ_E_NOGPU;
    }
    const sq_gpu_backend_t *be = s->emulate ? sq_gpu_emu_backend() : sq_gpu_cuda_probe(why, n);
    if (!be)
        return SQ_E_NOGPU;
    memset(&sq_gpu_g, 0, sizeof sq_gpu_g);
    sq_gpu_g.set = *s;
    sq_gpu_g.set.enable = 1;
    sq_gpu_g.be = be;
    sq_gpu_g.cap = s->mem_mb > 0 ? (size_t)s->mem_mb << 20 : be->mem_total / 2;
    snprintf(sq_gpu_g.device, sizeof sq_gpu_g.device, "%s", be->device);
    gpu_cnt_table(sq_gpu_g.cnt);
    int ok = 1;
    for (int i = 0; i < SQ_GPU_LANES && ok; i++)
        ok = be->stream_new(&sq_gpu_g.lanes[i].st) == 0;
    gpu_buf_t *cnt = &sq_gpu_g.cntbuf;
    if (ok)
        ok = gpu_dev_reserve(&sq_gpu_g.lanes[0], cnt, sizeof sq_gpu_g.cnt, 0) == 0 &&
             be->h2d(sq_gpu_g.lanes[0].st, cnt->p, sq_gpu_g.cnt, sizeof sq_gpu_g.cnt) == 0 &&
             be->sync(sq_gpu_g.lanes[0].st) == 0;
    if (!ok) {
        for (int i = 0; i < SQ_GPU_LANES; i++)
            gpu_lane_free(&sq_gpu_g.lanes[i]);
        gpu_dev_release(cnt);
        if (be->shutdown)
            be->shutdown();
        say(why, n, "%s: could not set up streams and memory on %s", be->name, be->device);
        memset(&sq_gpu_g, 0, sizeof sq_gpu_g);
        return SQ_E_NOGPU;
    }
    /* The table is the lanes' shared read-only data, freed by stop(). */
    sq_gpu_g.d_cnt = cnt->p;
    f2mat_rref_set_offload(gpu_rref_hook);
    static int stats_registered;
    const char *st = getenv("ADAMS_GPU_STATS");
    if (st && strcmp(st, "1") == 0 && !stats_registered) {
        stats_registered = 1;
        atexit(print_stats_at_exit);
    }
    __atomic_store_n(&sq_gpu_state_, 1, __ATOMIC_RELEASE);
    return 0;
}

int sq_gpu_setup(int want, char *why, size_t n)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    if (why && n)
        why[0] = '\0';
    int rc = sq_gpu_settings_from_env(&s, why, n);
    if (rc < 0) {
        stop();
        return rc;
    }
    if (want)
        s.enable = 1;
    if (!s.enable && !s.verify) {
        stop();
        return 0;
    }
    char inner[200] = "";
    rc = sq_gpu_init(&s, inner, sizeof inner);
    if (rc < 0) {
        say(why, n, "%s%s", want ? "--gpu: " : "ADAMS_GPU: ", inner);
        return rc;
    }
    return 1;
}

static pthread_once_t auto_once = PTHREAD_ONCE_INIT;

static void autostart(void)
{
    if (__atomic_load_n(&sq_gpu_state_, __ATOMIC_ACQUIRE) >= 0)
        return; /* the program decided already (sq_gpu_setup or sq_gpu_init) */
    char why[256];
    int rc = sq_gpu_setup(0, why, sizeof why);
    if (rc == SQ_E_NOGPU)
        fprintf(stderr, "adams: %s; running on the CPU\n", why);
    else if (rc < 0)
        fprintf(stderr, "adams: warning: %s; the GPU path stays off\n", why);
}

int sq_gpu_autostart_(void)
{
    pthread_once(&auto_once, autostart);
    return __atomic_load_n(&sq_gpu_state_, __ATOMIC_ACQUIRE);
}

/* ---- Verify mode ---------------------------------------------------------------- */

void gpu_verify_fail(const char *what, const char *detail)
{
    int32_t s, t;
    int64_t sig;
    sq_trace_get_context(&s, &t, &sig);
    char where[96], line[640];
    if (s < 0 && t < 0)
        snprintf(where, sizeof where, "outside any step");
    else if (sig < 0)
        snprintf(where, sizeof where, "(s, t) = (%d, %d), stem %d, no signature", (int)s, (int)t,
                 (int)(t - s));
    else
        snprintf(where, sizeof where, "(s, t) = (%d, %d), stem %d, signature %lld", (int)s, (int)t,
                 (int)(t - s), (long long)sig);
    int len =
        snprintf(line, sizeof line, "adams: GPU verify: %s differs from the CPU at %s: %s (%s)\n",
                 what, where, detail, sq_gpu_g.device);
    if (len < 0)
        len = 0;
    if (len > (int)sizeof line - 1) {
        len = (int)sizeof line - 1;
        line[len - 1] = '\n';
    }
    fflush(stdout);
    ssize_t w = write(2, line, (size_t)len);
    (void)w;
    /* Other threads may be mid-step: end the process at once, without
     * running exit handlers under them. */
    _exit(SQ_GPU_VERIFY_EXIT);
}

void sq_gpu_verify_rows(const char *what, const f2mat_t *cpu, const f2mat_t *gpu)
{
    char detail[256];
    if (cpu->rows != gpu->rows || cpu->cols != gpu->cols) {
        snprintf(detail, sizeof detail, "%lld x %lld on the CPU, %lld x %lld on the device",
                 (long long)cpu->rows, (long long)cpu->cols, (long long)gpu->rows,
                 (long long)gpu->cols);
        gpu_verify_fail(what, detail);
    }
    int64_t first = -1, ndiff = 0;
    const int64_t nl = f2_limbs(cpu->cols);
    for (int64_t i = 0; i < cpu->rows; i++)
        if (memcmp(f2mat_row(cpu, i), f2mat_row(gpu, i), (size_t)nl * 8) != 0) {
            if (first < 0)
                first = i;
            ndiff++;
        }
    if (first < 0)
        return;
    snprintf(detail, sizeof detail, "%lld of %lld rows differ, first row %lld (%lld columns)",
             (long long)ndiff, (long long)cpu->rows, (long long)first, (long long)cpu->cols);
    gpu_verify_fail(what, detail);
}
