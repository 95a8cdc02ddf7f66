/*
 * cli_run.c -- the one "prepare a run" path of every verb (cli_run.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli_run.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "resol.h"
#include "resol_unstable.h"
#include "sq_core.h"
#include "sq_gpu.h"
#include "sq_progress.h"

/* ---- The audit: what a (verb, option, module kind) cell refuses ---------- */

enum { V_RESOLVE = 1, V_PRODUCTS = 2, V_PRODUCT = 4, V_MASSEY = 8, V_CHART = 16, V_MAP = 32,
       V_SIZE = 64, V_ALL = 127 };
/* The opt of a refusal of the verb itself, whatever the options. */
#define VERB_ITSELF ((int)CLI_OPT_COUNT)

/* Every cell of docs/cli.md's audit table that refuses (the others are
 * implemented).  --algorithm nassau is refused by cli_choose_engine and the
 * odd-prime path, naming the kind, as these. */
static const struct {
    unsigned verbs;
    int opt;
    cli_kind_t kind;
    const char *why;
} refusals[] = {
    {V_ALL & ~V_RESOLVE, VERB_ITSELF, CLI_KIND_COFIBER,
     "its Ext comes from two resolutions; only 'adams resolve' prints it so far"},
    {V_RESOLVE, CLI_OPT_SAVE, CLI_KIND_COFIBER,
     "its Ext comes from two resolutions, which a store does not keep"},
    {V_ALL, CLI_OPT_GPU, CLI_KIND_ODD, "the GPU path works at p = 2 only"},
    {V_RESOLVE, CLI_OPT_PROGRESS, CLI_KIND_COFIBER,
     "the progress line is not drawn for a cofiber"},
    {V_RESOLVE, CLI_OPT_COEFF, CLI_KIND_COFIBER,
     "Ext(M, N) comes from one resolution of M, and a cofiber's Ext from two"},
    {V_MAP, VERB_ITSELF, CLI_KIND_PRESENTED, "a map file maps finite modules"},
    {V_MAP, VERB_ITSELF, CLI_KIND_PROJECTIVE, "a map file maps finite modules"},
    {V_MAP, VERB_ITSELF, CLI_KIND_PROFILE,
     "the induced map needs both modules over the whole algebra"},
    {V_MAP, VERB_ITSELF, CLI_KIND_INF_PROFILE,
     "the induced map needs both modules over the whole algebra"},
};

static unsigned verb_bit(const char *verb)
{
    static const char *const names[] = {"resolve", "products", "product", "massey", "chart",
                                         "map",     "size"};
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(verb, names[i]) == 0)
            return 1u << i;
    return 0;
}

const char *cli_kind_words(cli_kind_t k, uint32_t p)
{
    static char odd[64];
    switch (k) {
    case CLI_KIND_FINITE: return "a finite module";
    case CLI_KIND_PRESENTED: return "a finitely presented module";
    case CLI_KIND_PROJECTIVE: return "a projective space";
    case CLI_KIND_COFIBER: return "the cofiber of a class";
    case CLI_KIND_PROFILE: return "a module over a subalgebra (a profile)";
    case CLI_KIND_INF_PROFILE: return "a module over an infinite profile";
    case CLI_KIND_ODD:
        snprintf(odd, sizeof odd, "a module at the odd prime %u", (unsigned)p);
        return odd;
    case CLI_KIND_SHIFTED: return "a shifted module";
    case CLI_KIND_ADEM: return "named with @adem";
    case CLI_KIND_COUNT: break;
    }
    return "?";
}

/* Refuses the first cell of the table that r's verb, options and kinds
 * hit: one line naming the option and the kind.  Returns 0 or CLI_USAGE. */
static int refuse_cells(const cli_run_t *r)
{
    unsigned v = verb_bit(r->o->verb->name);
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++) {
        if (!(refusals[i].verbs & v) || !((r->kinds >> refusals[i].kind) & 1u))
            continue;
        const char *kw = cli_kind_words(refusals[i].kind, r->prime);
        if (refusals[i].opt == VERB_ITSELF) {
            cli_error("%s: %s is %s: %s", r->o->verb->name, cli_str(r->ref.base), kw,
                      refusals[i].why);
            return CLI_USAGE;
        }
        if (cli_given(r->o, (cli_opt_t)refusals[i].opt)) {
            cli_error("%s: %s: %s is %s: %s", r->o->verb->name,
                      cli_opt_name((cli_opt_t)refusals[i].opt), cli_str(r->ref.base), kw,
                      refusals[i].why);
            return CLI_USAGE;
        }
    }
    return 0;
}

/* The kinds of a loaded module. */
static uint32_t module_kinds(const cli_run_t *r)
{
    uint32_t k = 0;
    int32_t h[MILNOR_MAX_LEN];
    int len = r->prime == 2 ? fdmod_profile(r->M, h) : 0;
    if (r->info.kind == SQ_MODSPEC_PRESENTED)
        k |= CLI_BIT(CLI_KIND_PRESENTED);
    else if (r->info.kind == SQ_MODSPEC_PROJECTIVE)
        k |= CLI_BIT(CLI_KIND_PROJECTIVE);
    else
        k |= CLI_BIT(CLI_KIND_FINITE);
    if (r->info.cofiber)
        k |= CLI_BIT(CLI_KIND_COFIBER);
    if (r->prime != 2)
        k |= CLI_BIT(CLI_KIND_ODD);
    int inf = 0;
    for (int i = 0; i < len; i++)
        inf |= h[i] >= FDMOD_MAX_PROFILE_ENTRY;
    if (len > 0)
        k |= CLI_BIT(inf ? CLI_KIND_INF_PROFILE : CLI_KIND_PROFILE);
    return k;
}

/* ---- Estimate, GPU, threads ------------------------------------------------ */

/* "12 MB", "3.4 GB" */
static void human_bytes(char *buf, size_t n, double b)
{
    static const char *const unit[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (b >= 1000 && u < 5) {
        b /= 1024;
        u++;
    }
    snprintf(buf, n, u ? "%.3g %s" : "%.0f %s", b, unit[u]);
}

/* The memory limit of a run: --max-memory, else what the machine has. */
static double memory_limit(const cli_opts_t *o)
{
    return o->max_memory > 0 ? o->max_memory : sq_mem_available();
}

/* Refuses a region whose estimate e cannot fit: the exact part above the
 * limit, or even a third of the modelled peak (the model is good to a
 * factor of ~2-3; docs/limits.md).  Says the estimate of a long run on
 * stderr unless quiet.  Returns 0 or CLI_NOMEM after one line. */
static int refuse_estimate(const cli_opts_t *o, const resol_estimate_t *e, int32_t stem,
                           int32_t max_s, int quiet)
{
    double limit = memory_limit(o);
    char need[32], least[32], have[32];
    human_bytes(need, sizeof need, e->model_bytes);
    human_bytes(least, sizeof least, e->exact_bytes);
    human_bytes(have, sizeof have, limit);
    if (limit > 0 && (e->exact_bytes > limit || e->model_bytes / 3 > limit)) {
        int check = strcmp(o->verb->name, "check") == 0;
        cli_error("stem %lld with filtration %lld needs about %s of memory (at least %s); %s %s: "
                  "%s%s",
                  (long long)stem, (long long)max_s, need, least, have,
                  o->max_memory > 0 ? "allowed by --max-memory" : "available",
                  check ? "check the store where more memory is available"
                  : cli_given(o, CLI_OPT_FROM) ? "read a smaller region"
                                               : "resolve a smaller region",
                  o->max_memory > 0 ? "" : ", or raise the limit with --max-memory");
        return CLI_NOMEM;
    }
    /* The time is the resolution's: reading a store (--from, check) does
     * not resolve, so only the memory part applies there. */
    int reads = cli_given(o, CLI_OPT_FROM) || strcmp(o->verb->name, "check") == 0;
    if (!quiet && e->seconds > 60 && !reads)
        cli_note("this run is estimated at about %.0f minutes and %s of memory (docs/limits.md)",
                 e->seconds / 60, need);
    return 0;
}

/* The threads an estimate assumes. */
static int est_threads(const cli_opts_t *o)
{
    return (int)(o->threads > 0 ? o->threads : 1);
}

int cli_check_memory(const cli_opts_t *o, const fdmod_t *M, int algo, int32_t stem, int32_t max_s,
                     int quiet)
{
    resol_estimate_t e;
    resol_estimate(M, (resol_algo_t)algo, max_s, stem, est_threads(o), &e);
    return refuse_estimate(o, &e, stem, max_s, quiet);
}

/* The estimate of the prepared run r, whatever its prime and kind
 * (resol_estimate, resol_estimate_cofiber), refused when it cannot fit. */
static int check_run_memory(cli_run_t *r)
{
    resol_estimate_t e;
    int th = est_threads(r->o);
    if (r->info.cofiber)
        resol_estimate_cofiber(r->M, r->info.cof_s, r->info.cof_t, r->info.cof_target, r->max_s,
                               r->stem, th, &e);
    else
        resol_estimate(r->M, (resol_algo_t)r->algo, r->max_s, r->stem, th, &e);
    r->model_bytes = e.model_bytes;
    return refuse_estimate(r->o, &e, r->stem, r->max_s, r->quiet);
}

/* --gpu and ADAMS_GPU: on when asked and available; one note when asked
 * and declined (the run stays on the CPU).  Returns 0 or CLI_USAGE. */
static int setup_gpu(cli_run_t *r)
{
    char why[256];
    int g = sq_gpu_setup(cli_given(r->o, CLI_OPT_GPU), why, sizeof why);
    r->gpu = 1;
    if (g == SQ_E_INVAL) {
        cli_error("%s", why);
        return CLI_USAGE;
    }
    if (g == SQ_E_NOGPU && !r->quiet)
        cli_note("%s; running on the CPU", why);
    return 0;
}

/* A pool of o->threads threads (none for one).  Returns 0, or CLI_NOTHREAD
 * after one line. */
static int start_pool(cli_run_t *r)
{
    if (r->o->threads <= 1)
        return 0;
    if (sq_pool_create(&r->pool, (int)r->o->threads) != 0) {
        r->pool = NULL;
        cli_error("could not start %lld threads (--threads or ADAMS_THREADS; the system refused "
                  "to create more)",
                  (long long)r->o->threads);
        return CLI_NOTHREAD;
    }
    return 0;
}

/* What every run does last: the cache budget (resol_cache_budget of the
 * limit and the run's estimate), the progress line, the
 * GPU, the threads. */
static int finish_prepare(cli_run_t *r)
{
    double limit = memory_limit(r->o);
    resol_estimate_t e = {.model_bytes = r->model_bytes};
    r->cache_budget = resol_cache_budget(limit, &e);
    r->show = !r->quiet && (r->o->progress > 0 || (r->o->progress == 0 && isatty(STDERR_FILENO)));
    int rc = setup_gpu(r);
    return rc ? rc : start_pool(r);
}

/* ---- Preparing a run ------------------------------------------------------- */

/* Load, kinds, engine, range, estimate: one path at every prime. */
static int prepare(cli_run_t *r, int64_t stem, int64_t max_s)
{
    /* Ext through stem N needs the module in degrees <= N + 1; a cofiber's
     * resolution of the module reaches stem N + 1, so one more. */
    int32_t max_degree =
        stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE : (int32_t)stem + 2;
    if (r->prime != 2) {
        /* What is refused at odd primes whatever the file says, before it
         * is read (the kinds an odd file may add are refused below). */
        r->kinds |= CLI_BIT(CLI_KIND_ODD) | CLI_BIT(CLI_KIND_FINITE);
        int rc = refuse_cells(r);
        if (rc)
            return rc;
    }
    r->M = cli_open_module(&r->ref, max_degree, &r->info, r->quiet);
    if (!r->M)
        return CLI_USAGE;
    r->kinds |= module_kinds(r);
    int rc = refuse_cells(r);
    if (rc)
        return rc;
    r->algo = cli_choose_engine(r->o->algo, r->M, &r->info, (int32_t)stem);
    if (r->algo < 0)
        return CLI_USAGE;
    char err[256];
    r->bottom = r->info.bottom;
    r->stem = (int32_t)stem;
    r->default_max_s = max_s < 0;
    r->max_s = max_s < 0 ? resol_default_max_s(r->prime, (int32_t)stem, r->bottom, r->info.span)
                         : (int32_t)max_s;
    if (resol_check_range(r->M, r->max_s, r->stem, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    rc = check_run_memory(r);
    return rc ? rc : finish_prepare(r);
}

int cli_run_prepare(cli_run_t *r, const cli_opts_t *o, const char *spec, int64_t stem,
                    int64_t max_s, int flags)
{
    memset(r, 0, sizeof *r);
    r->o = o;
    r->quiet = o->progress < 0 || (flags & CLI_RUN_QUIET);
    if (strncmp(spec, "S^", 2) == 0) {
        /* resolve and suspension pass S^n on as S_2[n] (cli_unstable.h). */
        cli_error("%s: %s is the unstable sphere, resolved by 'adams resolve' and 'adams "
                  "suspension' only (the stable sphere shifted is S_2[n])",
                  o->verb->name, cli_str(spec));
        return CLI_USAGE;
    }
    if (cli_find_module(spec, &r->ref, r->quiet) || cli_module_prime(&r->ref, &r->prime))
        return CLI_USAGE;
    if (r->ref.shift)
        r->kinds |= CLI_BIT(CLI_KIND_SHIFTED);
    if (r->ref.adem)
        r->kinds |= CLI_BIT(CLI_KIND_ADEM);
    int rc = prepare(r, stem, max_s);
    if (rc == CLI_OK && !(flags & CLI_RUN_NO_NOTES))
        cli_run_notes(r, 1);
    return rc;
}

void cli_run_notes(const cli_run_t *r, int engine)
{
    if (r->quiet)
        return;
    int32_t span = r->info.span;
    if (r->default_max_s)
        cli_note("--max-s not given; using %d ((stem - bottom)/%u + 3 + span %d: every nonzero "
                 "group of stems <= %d except the %s-tower)",
                 (int)r->max_s, 2 * ((unsigned)r->prime - 1), (int)span, (int)r->stem,
                 r->prime == 2 ? "h_0" : "a_0");
    if (!engine || r->o->algo != RESOL_AUTO)
        return;
    cli_engine_note(r->o->algo, (resol_algo_t)r->algo, r->M, &r->info, 0);
}

static void (*attach_fn)(resol_t *R);

void cli_set_attach(void (*fn)(resol_t *R))
{
    attach_fn = fn;
}

void cli_attach(resol_t *R)
{
    if (attach_fn)
        attach_fn(R);
}

resol_t *cli_run_resolve(const cli_run_t *r)
{
    resol_t *R = r->unstable ? resol_new_unstable(r->M, r->max_s, r->stem)
                             : resol_new(r->M, r->max_s, r->stem);
    cli_attach(R);
    if (r->cache_budget >= 0)
        resol_set_cache_budget(R, r->cache_budget);
    sq_progress_t *prog = r->show ? sq_progress_new(stderr, R, (resol_algo_t)r->algo) : NULL;
    resol_observer_t obs = sq_progress_observer(prog);
    resol_run_pool(R, (resol_algo_t)r->algo, r->pool, prog ? &obs : NULL);
    sq_progress_free(prog);
    return R;
}

void cli_run_release(cli_run_t *r)
{
    sq_pool_free(r->pool);
    r->pool = NULL;
    fdmod_free(r->M);
    r->M = NULL;
    if (r->gpu)
        sq_gpu_shutdown();
    r->gpu = 0;
}

/* ---- Output files ----------------------------------------------------------- */

int cli_check_output(const char *out, const char *in1, const char *in2)
{
    struct stat so, si;
    if (!out || stat(out, &so) != 0)
        return CLI_OK;
    const char *ins[2] = {in1, in2};
    for (int i = 0; i < 2; i++)
        if (ins[i] && *ins[i] && stat(ins[i], &si) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino) {
            cli_error("-o: '%s' is the same file as the input '%s': writing it would destroy "
                      "the input; choose another output file",
                      cli_str(out), cli_str(ins[i]));
            return CLI_USAGE;
        }
    return CLI_OK;
}

int cli_run_verb(const cli_verb_t *verb, int argc, char **argv, int (*check)(const cli_opts_t *o),
                 int (*body)(cli_run_t *r))
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, verb, argc, argv, &rc))
        return rc;
    if (check && (rc = check(&o)) != CLI_OK)
        return rc;
    cli_run_t r;
    rc = cli_run_prepare(&r, &o, o.operand ? o.operand : "S_2", o.stem,
                         cli_given(&o, CLI_OPT_MAXS) ? o.max_s : -1, 0);
    if (rc == CLI_OK)
        rc = body(&r);
    cli_run_release(&r);
    return rc;
}
