/*
 * adams_api.c -- the C interface for bindings (adams_api.h): checks every
 * argument, then calls the library (io for modules, store for --save,
 * resolution for Ext and products).
 */
#define _POSIX_C_SOURCE 200809L
#include "adams_api.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmat.h"
#include "resol.h"
#include "resol_cofiber.h"
#include "resol_products.h"
#include "sq_chart_svg.h"
#include "sq_core.h"
#include "sq_moddef.h"
#include "sq_modopen.h"
#include "sq_modspec.h"
#include "sq_pool.h"
#include "sq_store.h"

struct adams_res {
    fdmod_t *M;
    resol_t *R;                /* NULL for a cofiber, whose Ext is C's */
    resol_cofiber_t *C;
    sq_modspec_info_t info;    /* the module file's kind; cofiber: which class */
    atomic_int stop;           /* adams_interrupt on a cofiber (lock-free: signal-safe) */
    int32_t min_n, max_n, max_s; /* the region */
    resol_algo_t algo;
    sq_pool_t *pool;
    sq_store_t *st;      /* the store of a saving run, open from prepare to run */
    double mem_limit;    /* bytes a run may use (<= 0: no limit known) */
    int threads;
    int ran, done;
    char name[SQ_MODSPEC_NAME_CLIP + 32];
    char path[SQ_MODSPEC_PATH_MAX]; /* the module's file ("" built in) and its shift "[k]" */
    int32_t shift;
    fdmod_t *SM;         /* the sphere at M's prime and its resolution (products) */
    resol_t *RS;
};

int adams_api_version(void)
{
    return ADAMS_API_VERSION;
}

/* Writes the message into err and returns code. */
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* s quoted in a message: one line, clipped. */
static const char *quote(char *buf, size_t n, const char *s)
{
    sq_modspec_printable(buf, n, s, strlen(s), 200);
    return buf;
}

/* ---- Memory and threads ------------------------------------------------------ */

/* Refuses a run through (max_s, stem) whose estimate e cannot fit in limit
 * bytes, as the program does (docs/limits.md): the exact part above the
 * limit, or a third of the modelled peak.  Returns 0 or ADAMS_E_MEMORY. */
static int refuse_estimate(const resol_estimate_t *e, int32_t max_s, int32_t stem, double limit,
                           char *err, size_t errlen)
{
    if (limit <= 0 || (e->exact_bytes <= limit && e->model_bytes / 3 <= limit))
        return 0;
    return fail(err, errlen, ADAMS_E_MEMORY,
                "stem %d with filtration %d needs about %.3g MB of memory (at least %.3g MB); "
                "%.3g MB allowed: resolve a smaller region, or raise max_memory",
                (int)stem, (int)max_s, e->model_bytes / 1048576, e->exact_bytes / 1048576,
                limit / 1048576);
}

/* refuse_estimate of resol_estimate's figures for a run of M. */
static int check_memory(const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t stem,
                        int threads, double limit, char *err, size_t errlen)
{
    resol_estimate_t e;
    resol_estimate(M, algo, max_s, stem, threads, &e);
    return refuse_estimate(&e, max_s, stem, limit, err, errlen);
}

/* The cache budget of a run of M through (max_s, stem) under limit, as the
 * program's (resol_cache_budget). */
static int64_t cache_budget(const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t stem,
                            int threads, double limit)
{
    resol_estimate_t e;
    resol_estimate(M, algo, max_s, stem, threads, &e);
    return resol_cache_budget(limit, &e);
}

/* h->threads > 1: a pool of that many threads.  Returns 0 or ADAMS_E_THREADS. */
static int start_pool(adams_res_t *h, char *err, size_t errlen)
{
    if (h->threads <= 1)
        return 0;
    if (sq_pool_create(&h->pool, h->threads) != 0) {
        h->pool = NULL;
        return fail(err, errlen, ADAMS_E_THREADS,
                    "could not start %d threads (the system refused to create more)", h->threads);
    }
    return 0;
}

/* ---- Loading a module ---------------------------------------------------------- */

/* The module named spec as the program names it (sq_modref_find: "NAME",
 * "PATH", "[k]", "@milnor"/"@adem", the built-in S_2, tensor products
 * "M*N", duals "D(N)"), at its prime, infinite ones truncated to degrees <= max_degree,
 * into h->M (its file and shift into h->path, h->shift).  Returns 0, or
 * ADAMS_E_INPUT with the program's one-line message. */
static int load_module(adams_res_t *h, const char *spec, int32_t max_degree,
                       sq_modspec_info_t *info, char *err, size_t errlen)
{
    sq_modref_t *ref = sq_malloc(sizeof *ref);
    int rc = sq_modref_find(ref, spec, NULL, NULL, err, errlen) ||
             sq_modref_open(&h->M, ref, max_degree, info, NULL, err, errlen);
    snprintf(h->path, sizeof h->path, "%s", ref->path);
    h->shift = ref->shift;
    sq_free(ref);
    return rc ? ADAMS_E_INPUT : 0;
}

/* The engine the program's auto picks for M (cli_choose_engine). */
static resol_algo_t choose_engine(const fdmod_t *M, const sq_modspec_info_t *info, int32_t stem)
{
    if (fdmod_prime(M) != 2 || info->infinite)
        return RESOL_CLASSICAL;
    return resol_auto_engine(M, stem);
}

/* Checks the region (stem, max_s) of M.  Returns 0 or ADAMS_E_INPUT. */
static int check_region(const fdmod_t *M, int32_t stem, int32_t max_s, char *err, size_t errlen)
{
    char why[512];
    if (stem < fdmod_bottom(M))
        return fail(err, errlen, ADAMS_E_INPUT, "stem %d is below the bottom degree %d of %s",
                    (int)stem, (int)fdmod_bottom(M), fdmod_name(M));
    if (resol_check_range(M, max_s, stem, why, sizeof why))
        return fail(err, errlen, ADAMS_E_INPUT, "%s", why);
    return 0;
}

/* ---- Making a resolution -------------------------------------------------------- */

/* The store of a saving run: opened (created) and bound to h's module. */
static int open_saving_store(adams_res_t *h, const char *save, const sq_modspec_info_t *info,
                             int32_t max_s, int32_t stem, char *err, size_t errlen)
{
    char why[1024], q[256];
    /* A truncated module is identified by its definition (sq_moddef.h). */
    char *text = info->infinite ? sq_moddef_text(h->path, h->shift) : NULL;
    if (info->infinite && !text)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "cannot read %s to identify the module in the store",
                    quote(q, sizeof q, h->path));
    sq_store_binding_t b = {.module = h->M,
                            .module_name = h->name,
                            .module_text = text,
                            .engine = info->infinite ? RESOL_CLASSICAL : RESOL_AUTO,
                            .max_s = max_s,
                            .max_n = stem};
    int rc = sq_store_open(&h->st, save, &b, why, sizeof why);
    sq_free(text);
    if (rc)
        return fail(err, errlen, ADAMS_E_STORE, "%s", why);
    h->algo = sq_store_engine(h->st);
    return 0;
}

/* The cofiber of the class the module file names (resol_cofiber.h): its
 * estimate and threads; adams_run computes it. */
static int prepare_cofiber(adams_res_t *h, int32_t stem, int32_t max_s, const char *save,
                           char *err, size_t errlen)
{
    if (save)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "save: %s is the cofiber of a class, whose Ext comes from two "
                    "resolutions, which a store does not keep",
                    h->name);
    resol_estimate_t e;
    const sq_modspec_info_t *in = &h->info;
    resol_estimate_cofiber(h->M, in->cof_s, in->cof_t, in->cof_target, max_s, stem, h->threads,
                           &e);
    int rc = refuse_estimate(&e, max_s, stem, h->mem_limit, err, errlen);
    return rc ? rc : start_pool(h, err, errlen);
}

/* What adams_prepare does once h holds the module and its info. */
static int prepare(adams_res_t *h, const sq_modspec_info_t *info, int32_t stem, int32_t max_s,
                   const char *save, char *err, size_t errlen)
{
    if (max_s < 0)
        max_s = resol_default_max_s(fdmod_prime(h->M), stem, info->bottom, info->span);
    int rc = check_region(h->M, stem, max_s, err, errlen);
    if (rc)
        return rc;
    h->min_n = fdmod_bottom(h->M);
    h->max_n = stem;
    h->max_s = max_s;
    if (info->cofiber)
        return prepare_cofiber(h, stem, max_s, save, err, errlen);
    h->algo = choose_engine(h->M, info, stem);
    /* The estimate first, as the program: a refused run creates no store. */
    rc = check_memory(h->M, h->algo, max_s, stem, h->threads, h->mem_limit, err, errlen);
    if (!rc && save)
        rc = open_saving_store(h, save, info, max_s, stem, err, errlen);
    if (!rc)
        rc = start_pool(h, err, errlen);
    if (rc)
        return rc;
    h->R = resol_new(h->M, max_s, stem);
    if (h->mem_limit > 0)
        resol_set_cache_budget(h->R, cache_budget(h->M, h->algo, max_s, stem, h->threads,
                                                  h->mem_limit));
    return 0;
}

/* *out = h when rc is 0; else h is freed (*out stays NULL).  Returns rc. */
static int give_handle(adams_res_t **out, adams_res_t *h, int rc)
{
    if (rc)
        adams_free(h);
    else
        *out = h;
    return rc;
}

int adams_prepare(adams_res_t **out, const char *module, int32_t stem, int32_t max_s, int threads,
                  double max_memory, const char *save, char *err, size_t errlen)
{
    *out = NULL;
    if (!module || !*module)
        return fail(err, errlen, ADAMS_E_INPUT, "no module named");
    if (stem < -SQ_MODSPEC_MAX_DEGREE || stem > RESOL_MAX_T)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "stem %d: outside what adams supports (%d..%d)", (int)stem,
                    -SQ_MODSPEC_MAX_DEGREE, RESOL_MAX_T);
    if (max_s > RESOL_MAX_T)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "filtration %d: outside what adams supports (up to %d)", (int)max_s,
                    RESOL_MAX_T);
    if (threads > 1024)
        return fail(err, errlen, ADAMS_E_INPUT, "threads %d: at most 1024", threads);
    if (save && !*save)
        return fail(err, errlen, ADAMS_E_INPUT, "save: an empty path");
    adams_res_t *h = sq_calloc(1, sizeof *h);
    h->threads = threads > 1 ? threads : 1;
    h->mem_limit = max_memory > 0 ? max_memory : sq_mem_available();
    int32_t max_degree = stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE : stem + 2;
    int rc = load_module(h, module, max_degree, &h->info, err, errlen);
    if (!rc) {
        snprintf(h->name, sizeof h->name, "%s", fdmod_name(h->M));
        rc = prepare(h, &h->info, stem, max_s, save, err, errlen);
    }
    return give_handle(out, h, rc);
}

/* adams_run of a cofiber: resol_cofiber_new, which cannot stop midway. */
static int run_cofiber(adams_res_t *h, char *err, size_t errlen)
{
    char why[1024];
    const sq_modspec_info_t *in = &h->info;
    if (atomic_load(&h->stop))
        return fail(err, errlen, ADAMS_E_INTERRUPTED, "interrupted");
    if (resol_cofiber_new(&h->C, h->M, in->cof_s, in->cof_t, in->cof_idx, in->cof_target,
                          h->max_s, h->max_n, h->pool, why, sizeof why))
        return fail(err, errlen, ADAMS_E_INPUT, "%s", why);
    return 0;
}

int adams_run(adams_res_t *h, char *err, size_t errlen)
{
    if (!h || h->ran || (!h->R && !h->info.cofiber))
        return fail(err, errlen, ADAMS_E_STATE, "this resolution was already run");
    h->ran = 1;
    int rc;
    char why[1024];
    if (h->info.cofiber) {
        rc = run_cofiber(h, err, errlen);
    } else if (h->st) {
        sq_store_run_result_t res;
        rc = sq_store_run(h->st, h->R, h->pool, NULL, 0, &res, NULL, why, sizeof why);
        const char *path = sq_store_path(h->st);
        if (rc < 0)
            rc = fail(err, errlen, ADAMS_E_STORE, "%s", why);
        else if (rc == 1)
            rc = fail(err, errlen, ADAMS_E_INTERRUPTED,
                      "interrupted: %lld of %lld steps are saved in %s; run it again to resume",
                      (long long)res.stored, (long long)res.total, path);
        sq_store_close(h->st);
        h->st = NULL;
    } else {
        rc = resol_run_pool(h->R, h->algo, h->pool, NULL) == 0
                 ? 0
                 : fail(err, errlen, ADAMS_E_INTERRUPTED, "interrupted");
    }
    h->done = rc == 0;
    return rc;
}

void adams_interrupt(adams_res_t *h)
{
    if (h && h->R)
        resol_request_stop(h->R);
    else if (h)
        atomic_store(&h->stop, 1);
}

/* ---- Reading a store -------------------------------------------------------------- */

/* The module of a store, rebuilt from its identity text (a canonical text,
 * or a definition, truncated for the completed stems). */
static int store_module(sq_store_t *st, const sq_store_info_t *si, const char *path, fdmod_t **M,
                        char *err, size_t errlen)
{
    char why[1024], q[256];
    const char *text = sq_store_stored_module_text(st);
    int rc = !text ? SQ_E_PARSE
             : sq_moddef_is(text)
                 ? sq_moddef_load(M, text, si->module_name, si->done_n, why, sizeof why)
                 : sq_store_module_from_text(M, text, si->module_name, why, sizeof why);
    if (rc || !*M)
        return fail(err, errlen, ADAMS_E_STORE,
                    "store %s: its module cannot be rebuilt from the store alone",
                    quote(q, sizeof q, path));
    return 0;
}

/* Loads the completed region of the open store st into h. */
static int load_store(adams_res_t *h, sq_store_t *st, const char *path, char *err, size_t errlen)
{
    char why[1024], q[256];
    sq_store_info_t si;
    if (sq_store_info(st, &si, why, sizeof why))
        return fail(err, errlen, ADAMS_E_STORE, "%s", why);
    if (si.done_s < 0 || si.done_n < si.bottom)
        return fail(err, errlen, ADAMS_E_STORE,
                    "store %s holds no completed run (resume it with adams.resolve(..., save=))",
                    quote(q, sizeof q, path));
    int32_t ms, mn;
    if (sq_store_region_missing(st, si.done_s, si.done_n, &ms, &mn, why, sizeof why))
        return fail(err, errlen, ADAMS_E_STORE, "%s", why);
    int rc = store_module(st, &si, path, &h->M, err, errlen);
    if (rc)
        return rc;
    snprintf(h->name, sizeof h->name, "%s", si.module_name);
    h->algo = si.engine;
    rc = check_memory(h->M, si.engine, si.done_s, si.done_n, 1, h->mem_limit, err, errlen);
    if (rc)
        return rc;
    h->R = resol_new(h->M, si.done_s, si.done_n);
    h->min_n = si.bottom;
    h->max_n = si.done_n;
    h->max_s = si.done_s;
    h->ran = 1;
    if (sq_store_load(st, h->R, 0, NULL, NULL, why, sizeof why))
        return fail(err, errlen, ADAMS_E_STORE, "%s", why);
    for (int32_t s = 0; s <= si.done_s; s++)
        for (int32_t n = si.bottom; n <= si.done_n; n++)
            if (!resol_step_published(h->R, s, s + n))
                return fail(err, errlen, ADAMS_E_STORE,
                            "store %s: the step (s=%d, t=%d) cannot be loaded: a step it "
                            "depends on is missing",
                            quote(q, sizeof q, path), (int)s, (int)(s + n));
    h->done = 1;
    return 0;
}

int adams_open_store(adams_res_t **out, const char *path, char *err, size_t errlen)
{
    char why[1024];
    *out = NULL;
    if (!path || !*path)
        return fail(err, errlen, ADAMS_E_INPUT, "no store path given");
    sq_store_t *st = NULL;
    if (sq_store_open_read(&st, path, why, sizeof why))
        return fail(err, errlen, ADAMS_E_STORE, "%s", why);
    adams_res_t *h = sq_calloc(1, sizeof *h);
    h->threads = 1;
    h->mem_limit = sq_mem_available();
    int rc = load_store(h, st, path, err, errlen);
    sq_store_close(st);
    return give_handle(out, h, rc);
}

/* A resolution and then the module it borrows. */
static void free_resolution(resol_t *R, fdmod_t *M)
{
    resol_free(R);
    fdmod_free(M);
}

void adams_free(adams_res_t *h)
{
    if (h) {
        sq_store_close(h->st);
        free_resolution(h->RS, h->SM);
        resol_cofiber_free(h->C);
        free_resolution(h->R, h->M);
        sq_pool_free(h->pool);
    }
    sq_free(h);
}

/* ---- What a handle holds ------------------------------------------------------------ */

void adams_region(const adams_res_t *h, uint32_t *prime, int32_t *min_stem, int32_t *max_stem,
                  int32_t *max_s)
{
    *prime = fdmod_prime(h->M);
    *min_stem = h->min_n;
    *max_stem = h->max_n;
    *max_s = h->max_s;
}

const char *adams_module_name(const adams_res_t *h)
{
    return h->name;
}

const char *adams_engine(const adams_res_t *h)
{
    return h->algo == RESOL_NASSAU ? "nassau" : "classical";
}

int adams_is_done(const adams_res_t *h)
{
    return h && h->done;
}

int adams_is_cofiber(const adams_res_t *h)
{
    return h && h->info.cofiber;
}

/* ---- Ext and classes -------------------------------------------------------------------- */

/* The message of a product the library could not form (SQ_E_RANGE from
 * resol_products.h after the regions were checked here). */
static const char not_computed[] =
    "the product needs more of the resolution than was computed, or a lift failed (please "
    "report it)";

/* dim Ext^{s,s+n} of R, or -1 outside its region. */
static int64_t dim_of(const resol_t *R, int32_t n, int32_t s)
{
    if (!R || s < 0 || s > resol_max_s(R) || n < resol_min_n(R) || n > resol_max_n(R))
        return -1;
    return resol_ext_dim(R, s, n);
}

int64_t adams_ext_dim(const adams_res_t *h, int32_t n, int32_t s)
{
    if (!h || !h->done)
        return -1;
    if (h->R)
        return dim_of(h->R, n, s);
    int in = s >= 0 && s <= h->max_s && n >= h->min_n && n <= h->max_n;
    return in ? resol_cofiber_ext_dim(h->C, s, n) : -1;
}

/* "ARG: (n, s) is outside the computed region of WHAT (...)" (what may be
 * NULL); returns ADAMS_E_INPUT. */
static int outside(const resol_t *R, const char *arg, const char *what, int32_t n, int32_t s,
                   char *err, size_t errlen)
{
    return fail(err, errlen, ADAMS_E_INPUT,
                "%s: (%d, %d) is outside the computed region%s%s (stems %d..%d, filtrations "
                "0..%d): resolve further",
                arg, (int)n, (int)s, what ? " of " : "", what ? what : "", (int)resol_min_n(R),
                (int)resol_max_n(R), (int)resol_max_s(R));
}

/* The class (n, s) [x, xlen] of Ext of R (named what) as a new vector *v
 * at R's prime.  Returns 0 or ADAMS_E_INPUT. */
static int take_class(const resol_t *R, const char *what, const char *arg, int32_t n, int32_t s,
                      const int32_t *x, int64_t xlen, fvec_t *v, char *err, size_t errlen)
{
    uint32_t p = resol_prime(R);
    int64_t dim = dim_of(R, n, s);
    memset(v, 0, sizeof *v);
    if (dim < 0)
        return outside(R, arg, what, n, s, err, errlen);
    if (dim == 0)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "%s: Ext of %s at (%d, %d) is zero: there is no class there", arg, what,
                    (int)n, (int)s);
    if (xlen != dim || (xlen > 0 && !x))
        return fail(err, errlen, ADAMS_E_INPUT,
                    "%s: the vector has %lld entries but Ext of %s at (%d, %d) has dimension "
                    "%lld",
                    arg, (long long)xlen, what, (int)n, (int)s, (long long)dim);
    for (int64_t i = 0; i < xlen; i++)
        if (x[i] < 0 || (uint32_t)x[i] >= p)
            return fail(err, errlen, ADAMS_E_INPUT,
                        "%s: the vector has the entry %d, but the coefficients of %s are 0..%u",
                        arg, (int)x[i], what, (unsigned)(p - 1));
    fvec_init(v, dim, p);
    for (int64_t i = 0; i < dim; i++)
        fvec_set(*v, i, (uint32_t)x[i]);
    return 0;
}

/* The vector for the result at (n, s) of R: *v zeroed of the dimension
 * there, which must be outlen.  Returns 0 or ADAMS_E_INPUT. */
static int take_out(const resol_t *R, int32_t n, int32_t s, int64_t outlen, const int32_t *out,
                    fvec_t *v, char *err, size_t errlen)
{
    int64_t dim = dim_of(R, n, s);
    memset(v, 0, sizeof *v);
    if (dim < 0)
        return outside(R, "the result", NULL, n, s, err, errlen);
    if (outlen != dim || (dim > 0 && !out))
        return fail(err, errlen, ADAMS_E_INPUT,
                    "the result at (%d, %d) has %lld entries, not %lld", (int)n, (int)s,
                    (long long)dim, (long long)outlen);
    fvec_init(v, dim, resol_prime(R));
    return 0;
}

/* The entries of v into out (v.len of them). */
static void give_out(fvec_t v, int32_t *out)
{
    for (int64_t i = 0; i < v.len; i++)
        out[i] = (int32_t)fvec_get(v, i);
}

/* 0 when h is computed and holds a resolution; else ADAMS_E_STATE (not
 * computed) or ADAMS_E_INPUT (a cofiber: no products, no chart). */
static int need_done(const adams_res_t *h, char *err, size_t errlen)
{
    if (!h || !h->done)
        return fail(err, errlen, ADAMS_E_STATE, "this resolution has not been computed");
    if (!h->R)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "%s is the cofiber of a class: its products and chart are not available "
                    "(its Ext comes from two resolutions)",
                    h->name);
    return 0;
}

int32_t adams_filt1_degree(const adams_res_t *h, int k)
{
    if (!h || !h->done || !h->R || k < 0 || k > 30)
        return -1;
    return resol_filt1_degree(h->R, k);
}

void adams_filt1_name(const adams_res_t *h, int k, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (h && h->done && h->R && k >= 0 && k <= 30 && n >= 8)
        resol_filt1_name(h->R, k, buf, n);
}

int adams_filt1_product(const adams_res_t *h, int k, int32_t n, int32_t s, const int32_t *x,
                        int64_t xlen, int32_t *out, int64_t outlen, char *err, size_t errlen)
{
    int rc = need_done(h, err, errlen);
    if (rc)
        return rc;
    int32_t deg = adams_filt1_degree(h, k);
    if (deg < 0)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "filtration-one class %d does not act on %s (or is beyond the region)", k,
                    h->name);
    fvec_t xv, ov;
    rc = take_class(h->R, h->name, "x", n, s, x, xlen, &xv, err, errlen);
    if (!rc && (rc = take_out(h->R, n + deg - 1, s + 1, outlen, out, &ov, err, errlen)) == 0) {
        if (resol_filt1_product(h->R, k, s, s + n, xv, ov) != 0)
            rc = fail(err, errlen, ADAMS_E_INPUT, "%s", not_computed);
        else
            give_out(ov, out);
        fvec_clear(&ov);
    }
    fvec_clear(&xv);
    return rc;
}

/* ---- Products by the sphere ------------------------------------------------------------ */

/* h->RS resolves the sphere at h's prime through at least (n, s). */
static int need_sphere(adams_res_t *h, int32_t n, int32_t s, char *err, size_t errlen)
{
    if (n < 0 || s < 0)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "(%d, %d): Ext of the sphere is zero in negative stems and filtrations",
                    (int)n, (int)s);
    if (h->RS && resol_max_n(h->RS) >= n && resol_max_s(h->RS) >= s)
        return 0;
    if (h->RS) { /* grow to cover the old region too */
        n = n > resol_max_n(h->RS) ? n : resol_max_n(h->RS);
        s = s > resol_max_s(h->RS) ? s : resol_max_s(h->RS);
        resol_free(h->RS);
        h->RS = NULL;
    }
    if (!h->SM) {
        char json[96], why[512];
        uint32_t p = fdmod_prime(h->M);
        int len = snprintf(json, sizeof json, "{\"p\": %u, \"gens\": {\"x0\": 0}, \"actions\": []}",
                           (unsigned)p);
        char name[16];
        snprintf(name, sizeof name, "S_%u", (unsigned)p);
        sq_modspec_module_t m;
        if (sq_modspec_load_module(&m, json, (size_t)len, name, NULL, why, sizeof why))
            return fail(err, errlen, ADAMS_E_INPUT, "%s", why);
        h->SM = p == 2 ? m.m2 : m.modd;
    }
    sq_modspec_info_t info;
    memset(&info, 0, sizeof info);
    int rc = check_region(h->SM, n, s, err, errlen);
    resol_algo_t algo = rc ? RESOL_CLASSICAL : choose_engine(h->SM, &info, n);
    if (!rc)
        rc = check_memory(h->SM, algo, s, n, h->threads, h->mem_limit, err, errlen);
    if (!rc && !h->pool)
        rc = start_pool(h, err, errlen);
    if (rc)
        return rc;
    h->RS = resol_new(h->SM, s, n);
    resol_run_pool(h->RS, algo, h->pool, NULL);
    return 0;
}

int64_t adams_sphere_dim(adams_res_t *h, int32_t n, int32_t s, char *err, size_t errlen)
{
    int rc = need_done(h, err, errlen);
    if (!rc)
        rc = need_sphere(h, n, s, err, errlen);
    return rc ? rc : resol_ext_dim(h->RS, s, n);
}

/* The sphere's name at h's prime, for messages. */
static const char *sphere_name(const adams_res_t *h, char *buf, size_t n)
{
    snprintf(buf, n, "S_%u", (unsigned)fdmod_prime(h->M));
    return buf;
}

int adams_product(adams_res_t *h, int32_t n, int32_t s, const int32_t *x, int64_t xlen,
                  int32_t n2, int32_t s2, const int32_t *y, int64_t ylen, int32_t *out,
                  int64_t outlen, char *err, size_t errlen)
{
    char sn[16];
    int rc = need_done(h, err, errlen);
    if (!rc)
        rc = need_sphere(h, n2, s2, err, errlen);
    if (rc)
        return rc;
    fvec_t xv = {0}, yv = {0}, ov = {0};
    rc = take_class(h->R, h->name, "x", n, s, x, xlen, &xv, err, errlen);
    if (!rc)
        rc = take_class(h->RS, sphere_name(h, sn, sizeof sn), "y", n2, s2, y, ylen, &yv, err,
                        errlen);
    if (!rc)
        rc = take_out(h->R, n + n2, s + s2, outlen, out, &ov, err, errlen);
    if (!rc) {
        if (resol_product(h->R, h->RS, s, s + n, xv, s2, s2 + n2, yv, ov) != 0)
            rc = fail(err, errlen, ADAMS_E_INPUT, "%s", not_computed);
        else
            give_out(ov, out);
    }
    fvec_clear(&xv);
    fvec_clear(&yv);
    fvec_clear(&ov);
    return rc;
}

/* The indeterminacy's rows into ind (ind_cap entries), *rows their number. */
static int give_rows(const fmat_t *m, int64_t dim, int32_t *ind, int64_t ind_cap, int64_t *rows,
                     char *err, size_t errlen)
{
    int64_t r = fmat_rows(m);
    if (rows)
        *rows = r;
    if (ind && r * dim > ind_cap)
        return fail(err, errlen, ADAMS_E_INPUT, "the indeterminacy needs %lld entries, not %lld",
                    (long long)(r * dim), (long long)ind_cap);
    for (int64_t i = 0; ind && i < r; i++)
        give_out(fvec_window(fmat_row(m, i), 0, dim), ind + i * dim);
    return 0;
}

/* resol_massey and its indeterminacy on the checked vectors. */
static int massey(adams_res_t *h, int32_t sa, int32_t ta, fvec_t a, int32_t sb, int32_t tb,
                  fvec_t b, int32_t sc, int32_t tc, fvec_t c, fvec_t out, int32_t *ind,
                  int64_t ind_cap, int64_t *ind_rows, char *err, size_t errlen)
{
    int r = resol_massey(h->R, h->RS, sa, ta, a, sb, tb, b, sc, tc, c, out);
    if (r == SQ_E_INVAL)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "<a, b, c> is not defined: a b or b c is not zero (check with product)");
    if (r)
        return fail(err, errlen, ADAMS_E_INPUT, "%s", not_computed);
    fmat_t m = {0};
    if (resol_massey_indeterminacy(h->R, h->RS, sa, ta, a, sb, tb, sc, tc, c, &m) != 0)
        return fail(err, errlen, ADAMS_E_INPUT, "%s", not_computed);
    int rc = give_rows(&m, out.len, ind, ind_cap, ind_rows, err, errlen);
    fmat_clear(&m);
    return rc;
}

int adams_massey(adams_res_t *h, int32_t na, int32_t sa, const int32_t *a, int64_t alen,
                 int32_t nb, int32_t sb, const int32_t *b, int64_t blen, int32_t nc, int32_t sc,
                 const int32_t *c, int64_t clen, int32_t *out, int64_t outlen, int32_t *ind,
                 int64_t ind_cap, int64_t *ind_rows, char *err, size_t errlen)
{
    char sn[16];
    int rc = need_done(h, err, errlen);
    if (rc)
        return rc;
    if (sa < 1 || sb < 1)
        return fail(err, errlen, ADAMS_E_INPUT, "massey: a and b must have filtration >= 1");
    const int32_t deg[6] = {na, sa, nb, sb, nc, sc};
    for (int i = 0; i < 6; i++) /* so that the sums below cannot overflow */
        if (deg[i] < -RESOL_MAX_T || deg[i] > RESOL_MAX_T)
            return fail(err, errlen, ADAMS_E_INPUT, "massey: %d is not a stem or filtration",
                        (int)deg[i]);
    int32_t n = na + nb + nc + 1, s = sa + sb + sc - 1;
    if (dim_of(h->R, nb + nc, sb + sc) < 0)
        return fail(err, errlen, ADAMS_E_INPUT,
                    "massey: b c lands in (%d, %d), outside the computed region: resolve further",
                    (int)(nb + nc), (int)(sb + sc));
    rc = need_sphere(h, na + nb + 1 > na ? na + nb + 1 : na, sa + sb, err, errlen);
    if (rc)
        return rc;
    fvec_t av = {0}, bv = {0}, cv = {0}, ov = {0};
    const char *S = sphere_name(h, sn, sizeof sn);
    rc = take_class(h->RS, S, "a", na, sa, a, alen, &av, err, errlen);
    if (!rc)
        rc = take_class(h->RS, S, "b", nb, sb, b, blen, &bv, err, errlen);
    if (!rc)
        rc = take_class(h->R, h->name, "c", nc, sc, c, clen, &cv, err, errlen);
    if (!rc)
        rc = take_out(h->R, n, s, outlen, out, &ov, err, errlen);
    if (!rc)
        rc = massey(h, sa, sa + na, av, sb, sb + nb, bv, sc, sc + nc, cv, ov, ind, ind_cap,
                    ind_rows, err, errlen);
    if (!rc)
        give_out(ov, out);
    fvec_clear(&av);
    fvec_clear(&bv);
    fvec_clear(&cv);
    fvec_clear(&ov);
    return rc;
}

/* ---- The chart ---------------------------------------------------------------------------- */

int adams_svg(const adams_res_t *h, char **buf, size_t *len, char *err, size_t errlen)
{
    *buf = NULL;
    *len = 0;
    int rc = need_done(h, err, errlen);
    if (rc)
        return rc;
    FILE *f = open_memstream(buf, len);
    if (!f)
        return fail(err, errlen, ADAMS_E_STORE, "cannot open a memory stream for the chart");
    rc = sq_chart_write_svg(f, h->R, h->name, resol_min_n(h->R), resol_max_n(h->R),
                            resol_max_s(h->R));
    if (fclose(f) != 0 || rc != 0) {
        free(*buf);
        *buf = NULL;
        *len = 0;
        return fail(err, errlen, ADAMS_E_STORE, "the chart could not be written");
    }
    return 0;
}

void adams_free_buffer(char *buf)
{
    free(buf);
}
