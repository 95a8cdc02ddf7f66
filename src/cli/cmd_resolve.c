/*
 * cmd_resolve.c -- `adams resolve`: argument parsing and printing only.
 */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cmd_store.h"
#include "fdmod.h"
#include "resol.h"
#include "resol_cofiber.h"
#include "sq_chart.h"
#include "sq_core.h"
#include "sq_modspec.h"
#include "presol.h"
#include "presol_cofiber.h"
#include "sq_gpu.h"
#include "sq_pmodspec.h"
#include "sq_pool.h"
#include "sq_progress.h"

static const char resolve_usage[] =
    "Usage: adams resolve [MODULE] [options]\n"
    "\n"
    "Computes a minimal free resolution of MODULE over the Steenrod algebra\n"
    "and prints Ext^{s,t}(MODULE, F_p), the E2 page of the Adams spectral sequence,\n"
    "for stems n = t - s <= N and filtrations s <= S.\n"
    "\n"
    "MODULE (default S_2):\n"
    "  NAME                 a shipped module (S_2, C2, Ceta, Joker, ko, tmf2, ...;\n"
    "                       see 'adams modules'), or ./NAME.json if that exists\n"
    "  PATH                 a module file (containing '/' or ending in .json);\n"
    "                       the format is in docs/modules.md\n"
    "  NAME[k]              the module shifted up by k degrees: Ceta[2], S_2[-3]\n"
    "\n"
    "Options:\n"
    "  --stem N             largest stem (default 40)\n"
    "  --max-s S            largest filtration (default: N/2 + 3 plus the module's\n"
    "                       span, which shows every nonzero group of stems <= N\n"
    "                       except the continuation of the h_0-tower; the choice\n"
    "                       is reported on stderr)\n"
    "  --format FMT         chart (default): the dot chart, rows s = S down to 0,\n"
    "                         one column per stem; a glyph per dimension:\n"
    "                         ' '=0 '\xc2\xb7'=1 ':'=2 '\xe2\x88\xb4'=3 '\xe2\x81\x98'=4 "
    "'\xe2\x81\x99'=5 '\xe2\xa0\xbf'=6 '\xe2\xa1\xbf'=7 '\xe2\xa3\xbf'=8 '9'=9 '*'=10+\n"
    "                       csv: one line 'n,s,dim' per cell, zeros included,\n"
    "                         n-major then s\n"
    "  --algorithm ALG      classical: the classical minimal resolution (any module)\n"
    "                       nassau: Nassau's algorithm (bounded modules; fast)\n"
    "                       auto (default): the faster engine that applies:\n"
    "                         classical up to 40 stems, Nassau above (finite\n"
    "                         modules over the whole algebra); said on stderr\n"
    "  --threads K          worker threads (default: $ADAMS_THREADS, else all cores);\n"
    "                       the output never depends on K\n"
    "  --progress           show progress on stderr even when it is not a terminal\n"
    "  --quiet              no progress and no notes on stderr\n"
    "  --max-memory SIZE    refuse a region whose estimated memory exceeds SIZE\n"
    "                       (bytes, or with K, M, G, T; default: the memory this\n"
    "                       machine has available); the estimate is on stderr\n"
    "  --save FILE          keep the run in the SQLite store FILE: the same command\n"
    "                       resumes an interrupted run, a larger --stem or --max-s\n"
    "                       extends it (docs/save-format.md; 'adams ext FILE'\n"
    "                       prints it back, 'adams check FILE' verifies it)\n"
    "  --gpu                offload large matrix builds and reductions to a CUDA GPU\n"
    "                       (a build with CUDA and a device; otherwise one line says\n"
    "                       so and the run stays on the CPU; docs/gpu.md)\n"
    "  -h, --help           show this help\n"
    "  --                   end of the options: what follows is the module, even if\n"
    "                       it begins with '-'\n"
    "\n"
    "Options may come before or after MODULE, as --opt VALUE or --opt=VALUE, and\n"
    "may be shortened while unambiguous (--alg for --algorithm).\n"
    "\n"
    "Examples:\n"
    "  adams resolve S_2 --stem 40\n"
    "  adams resolve S_2 --stem 60 --max-s 40 --format csv\n"
    "\n"
    "Environment: ADAMS_THREADS (default thread count); ADAMS_LOG=step,rr (or all)\n"
    "prints trace events, one key=value line each, on stderr or to ADAMS_LOG_FILE.\n"
    "\n"
    "Modules at odd primes (\"p\": 3, 5, ...) resolve with the classical engine.\n"
    "\n"
    "Exit status: 0 on success, 1 if the output could not be written, 2 on a bad\n"
    "argument or module file, 3 when the region does not fit in memory, 4 when the\n"
    "threads cannot be started (docs/cli.md lists every code).\n";

typedef struct {
    const char *module;
    int64_t stem, max_s;
    int have_max_s;
    int csv;
    resol_algo_t algo;
    int64_t threads;   /* 0: default */
    int progress;      /* -1 quiet, 0 when stderr is a terminal, 1 forced */
    double max_memory; /* bytes; 0: what the machine has (sq_mem_available) */
    int gpu;           /* --gpu */
    const char *save;  /* --save FILE, or NULL */
} resolve_opts_t;

enum {
    OPT_STEM = 256,
    OPT_MAXS,
    OPT_FORMAT,
    OPT_ALGO,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_QUIET,
    OPT_MAXMEM,
    OPT_GPU,
    OPT_SAVE
};

static const struct option resolve_longs[] = {
    {"stem", required_argument, NULL, OPT_STEM},
    {"max-s", required_argument, NULL, OPT_MAXS},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"algorithm", required_argument, NULL, OPT_ALGO},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"max-memory", required_argument, NULL, OPT_MAXMEM},
    {"gpu", no_argument, NULL, OPT_GPU},
    {"save", required_argument, NULL, OPT_SAVE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* "--name" of the long option whose value is val. */
static const char *long_name(int val)
{
    static char buf[32];
    for (int i = 0; resolve_longs[i].name; i++)
        if (resolve_longs[i].val == val) {
            snprintf(buf, sizeof buf, "--%s", resolve_longs[i].name);
            return buf;
        }
    return "?";
}

/* One-line error for getopt_long's '?' or ':' (the option at argv[optind
 * - 1], or a short option char). */
static void option_error(int c, int argc, char **argv)
{
    if (c == ':')
        cli_error("%s: missing value", optopt >= 256 ? long_name(optopt) : "-?");
    else if (optopt >= 256)
        cli_error("resolve: option %s takes no value (try 'adams resolve --help')",
                  long_name(optopt));
    else if (optopt > 0) {
        char opt[3] = {'-', (char)optopt, '\0'};
        cli_error("resolve: unknown option '%s' (try 'adams resolve --help')", cli_str(opt));
    } else
        cli_error("resolve: unknown option '%s' (try 'adams resolve --help')",
                  cli_str(optind - 1 < argc ? argv[optind - 1] : "?"));
}

/* Parses the arguments as getopt_long does: options and the module in any
 * order, "--opt value" or "--opt=value", unambiguous abbreviations of long
 * options, and "--" ending the options (so a module called "-x" is given
 * as "adams resolve -- -x").  Returns 0 (*done = 1 after printing the help,
 * *rc its exit code) or -1 after a one-line error. */
static int parse_args(resolve_opts_t *o, int argc, char **argv, int *done, int *rc)
{
    o->module = NULL;
    o->stem = 40;
    o->have_max_s = 0;
    o->csv = 0;
    o->algo = RESOL_AUTO;
    o->threads = 0;
    o->progress = 0;
    o->max_memory = 0;
    o->gpu = 0;
    o->save = NULL;
    opterr = 0;
    optind = 1;
    int c;
    /* '-': operands come back in order as option 1 (no permutation, so the
     * result does not depend on POSIXLY_CORRECT); ':': a missing value is
     * ':' rather than '?'. */
    while ((c = getopt_long(argc, argv, "-:h", resolve_longs, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h':
            *done = 1;
            *rc = cli_write_stdout(resolve_usage);
            return 0;
        case 1:
            if (o->module) {
                cli_error("resolve: more than one module given ('%s' and '%s')",
                          cli_str(o->module), cli_str(v));
                return -1;
            }
            o->module = v;
            break;
        case OPT_STEM:
            if (cli_parse_int("--stem", v, -RESOL_MAX_T, RESOL_MAX_T, &o->stem))
                return -1;
            break;
        case OPT_MAXS:
            if (cli_parse_int("--max-s", v, 0, RESOL_MAX_T, &o->max_s))
                return -1;
            o->have_max_s = 1;
            break;
        case OPT_FORMAT:
            if (!*v) {
                cli_error("--format: missing value");
                return -1;
            } else if (strcmp(v, "chart") == 0) {
                o->csv = 0;
            } else if (strcmp(v, "csv") == 0) {
                o->csv = 1;
            } else {
                cli_error("--format: expected 'chart' or 'csv', got '%s'", cli_str(v));
                return -1;
            }
            break;
        case OPT_ALGO:
            if (!*v) {
                cli_error("--algorithm: missing value");
                return -1;
            } else if (strcmp(v, "classical") == 0) {
                o->algo = RESOL_CLASSICAL;
            } else if (strcmp(v, "nassau") == 0) {
                o->algo = RESOL_NASSAU;
            } else if (strcmp(v, "auto") == 0) {
                o->algo = RESOL_AUTO;
            } else {
                cli_error("--algorithm: expected 'classical', 'nassau' or 'auto', got '%s'",
                          cli_str(v));
                return -1;
            }
            break;
        case OPT_THREADS:
            if (cli_parse_int("--threads", v, 1, CLI_MAX_THREADS, &o->threads))
                return -1;
            break;
        case OPT_PROGRESS:
            o->progress = 1;
            break;
        case OPT_QUIET:
            o->progress = -1;
            break;
        case OPT_MAXMEM:
            if (cli_parse_size("--max-memory", v, &o->max_memory))
                return -1;
            break;
        case OPT_GPU:
            o->gpu = 1;
            break;
        case OPT_SAVE:
            if (!*v) {
                cli_error("--save: missing value");
                return -1;
            }
            o->save = v;
            break;
        default:
            option_error(c, argc, argv);
            return -1;
        }
    }
    for (; optind < argc; optind++) { /* after "--" */
        if (o->module) {
            cli_error("resolve: more than one module given ('%s' and '%s')", cli_str(o->module),
                      cli_str(argv[optind]));
            return -1;
        }
        o->module = argv[optind];
    }
    if (!o->module)
        o->module = "S_2";
    if (o->threads == 0) {
        const char *env = getenv("ADAMS_THREADS");
        if (env && *env) {
            if (cli_parse_int("ADAMS_THREADS", env, 1, CLI_MAX_THREADS, &o->threads))
                return -1;
        } else {
            o->threads = sq_num_cores();
        }
    }
    return 0;
}

/* The notes on stderr, once the run is known to be valid: the filtration
 * chosen when --max-s was not given, and the engine auto chose. */
static void notes(const resolve_opts_t *o, const fdmod_t *M, const sq_modspec_info_t *info,
                  int algo)
{
    if (!o->have_max_s && o->progress >= 0)
        cli_note("--max-s not given; using %lld ((stem - bottom)/2 + 3 + span %d: every nonzero "
                 "group of stems <= %lld except the h_0-tower)",
                 (long long)o->max_s, (int)info->span, (long long)o->stem);
    /* A saving run takes the store's engine: said after it opens it. */
    if (!o->save)
        cli_engine_note(o->algo, (resol_algo_t)algo, M, info, o->progress < 0);
}

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

/* Refuses a region that cannot fit: the exact part of the estimate above
 * the limit, or even a third of the modelled peak (the model is good to a
 * factor of ~3).  Says the estimate of a long run on stderr.  Returns 0 or
 * CLI_NOMEM after one line. */
static int check_memory(const resolve_opts_t *o, const fdmod_t *M, int algo)
{
    resol_estimate_t e;
    resol_estimate(M, (resol_algo_t)algo, (int32_t)o->max_s, (int32_t)o->stem, (int)o->threads,
                   &e);
    double limit = o->max_memory > 0 ? o->max_memory : sq_mem_available();
    char need[32], least[32], have[32];
    human_bytes(need, sizeof need, e.model_bytes);
    human_bytes(least, sizeof least, e.exact_bytes);
    human_bytes(have, sizeof have, limit);
    if (limit > 0 && (e.exact_bytes > limit || e.model_bytes / 3 > limit)) {
        cli_error("stem %lld with filtration %lld needs about %s of memory (at least %s); %s %s: "
                  "resolve a smaller region%s",
                  (long long)o->stem, (long long)o->max_s, need, least, have,
                  o->max_memory > 0 ? "allowed by --max-memory" : "available",
                  o->max_memory > 0 ? "" : ", or raise the limit with --max-memory");
        return CLI_NOMEM;
    }
    if (o->progress >= 0 && e.seconds > 60)
        cli_note("this run is estimated at about %.0f minutes and %s of memory (docs/limits.md)",
                 e.seconds / 60, need);
    return 0;
}

/* A pool of o->threads threads (NULL for one).  Returns 0, or CLI_NOTHREAD
 * after one line. */
static int start_pool(const resolve_opts_t *o, sq_pool_t **pool)
{
    *pool = NULL;
    if (o->threads <= 1)
        return 0;
    if (sq_pool_create(pool, (int)o->threads) != 0) {
        cli_error("could not start %lld threads (--threads or ADAMS_THREADS; the system refused "
                  "to create more)",
                  (long long)o->threads);
        return CLI_NOTHREAD;
    }
    return 0;
}

/* The exit code once the chart is written (wrc: the writer's code): stdout
 * flushed, and one line if anything failed. */
static int finish_output(int wrc)
{
    if (cli_finish_stdout() != CLI_OK)
        return CLI_FAIL;
    if (wrc) {
        cli_error("could not write the output: %s", sq_strerror(wrc));
        return CLI_FAIL;
    }
    return CLI_OK;
}

static int64_t cofiber_ext(const void *C, int32_t s, int32_t n)
{
    return resol_cofiber_ext_dim((const resol_cofiber_t *)C, s, n);
}

/* Resolves the cofiber of the class the file names and prints its chart. */
static int run_cofiber(const resolve_opts_t *o, const fdmod_t *M, const sq_modspec_info_t *info,
                       int32_t bottom)
{
    char err[1024];
    sq_pool_t *pool;
    int rc = start_pool(o, &pool);
    if (rc)
        return rc;
    resol_cofiber_t *C;
    rc = resol_cofiber_new(&C, M, info->cof_s, info->cof_t, info->cof_idx, info->cof_target,
                           (int32_t)o->max_s,
                           (int32_t)o->stem, pool, err, sizeof err);
    sq_pool_free(pool);
    if (rc) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    notes(o, M, info, RESOL_CLASSICAL);
    rc = o->csv ? sq_chart_write_csv_fn(stdout, cofiber_ext, C, bottom, (int32_t)o->stem,
                                        (int32_t)o->max_s)
                : sq_chart_write_dots_fn(stdout, cofiber_ext, C, bottom, (int32_t)o->stem,
                                         (int32_t)o->max_s);
    resol_cofiber_free(C);
    return finish_output(rc);
}

/* ---- Odd primes ----------------------------------------------------------- */

static int64_t presol_ext(const void *R, int32_t s, int32_t n)
{
    return presol_ext_dim((const presol_t *)R, s, n);
}

static int64_t presol_cofiber_ext(const void *C, int32_t s, int32_t n)
{
    return presol_cofiber_ext_dim((const presol_cofiber_t *)C, s, n);
}

/* A module at an odd prime: the classical engine of src/resolution/presol.c
 * (docs/odd-primes.md). */
static int run_odd(resolve_opts_t *o, const cli_module_ref_t *ref, uint32_t p)
{
    char err[1024];
    if (o->algo == RESOL_NASSAU) {
        cli_error("--algorithm nassau works at the prime 2 only; %s is at the prime %u: use "
                  "--algorithm classical (or auto)",
                  cli_str(ref->base), (unsigned)p);
        return CLI_USAGE;
    }
    pfdmod_t *M = NULL;
    sq_pmodspec_info_t info;
    sq_pmodspec_opts_t po = {.shift = ref->shift, .warn = o->progress < 0 ? NULL : stderr,
                             .info = &info};
    if (sq_pmodspec_load_file(&M, ref->path, ref->path, &po, err, sizeof err) != 0) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    if (!o->have_max_s)
        o->max_s = (o->stem - info.bottom > 0 ? (o->stem - info.bottom) / 2 : 0) + 3 + info.span;
    if (presol_check_range(M, (int32_t)o->max_s, (int32_t)o->stem, err, sizeof err) != 0) {
        cli_error("%s", err);
        pfdmod_free(M);
        return CLI_USAGE;
    }
    sq_pool_t *pool;
    int rc = start_pool(o, &pool);
    if (rc) {
        pfdmod_free(M);
        return rc;
    }
    if (o->progress >= 0) {
        if (!o->have_max_s)
            cli_note("--max-s not given; using %lld ((stem - bottom)/2 + 3 + span %d)",
                     (long long)o->max_s, (int)info.span);
        if (o->algo == RESOL_AUTO)
            cli_note("engine: classical (the prime is %u; Nassau's algorithm is for p = 2)",
                     (unsigned)p);
    }
    int32_t bottom = pfdmod_bottom(M), N = (int32_t)o->stem, S = (int32_t)o->max_s;
    if (info.cofiber) {
        presol_cofiber_t *C = NULL;
        rc = presol_cofiber_new(&C, M, info.cof_s, info.cof_t, info.cof_idx, info.cof_target, S,
                                N, pool, err, sizeof err);
        sq_pool_free(pool);
        if (rc) {
            cli_error("%s", err);
            pfdmod_free(M);
            return CLI_USAGE;
        }
        rc = o->csv ? sq_chart_write_csv_fn(stdout, presol_cofiber_ext, C, bottom, N, S)
                    : sq_chart_write_dots_fn(stdout, presol_cofiber_ext, C, bottom, N, S);
        presol_cofiber_free(C);
    } else {
        presol_t *R = presol_new(M, S, N);
        presol_run_pool(R, pool, NULL);
        sq_pool_free(pool);
        rc = o->csv ? sq_chart_write_csv_fn(stdout, presol_ext, R, bottom, N, S)
                    : sq_chart_write_dots_fn(stdout, presol_ext, R, bottom, N, S);
        presol_free(R);
    }
    pfdmod_free(M);
    return finish_output(rc);
}

/* The text that identifies a module truncated from an infinite one in a
 * store: its file and shift (the truncated fdmod changes with the stem, so
 * it cannot be the identity).  A new string, or NULL on a read error. */
static char *definition_text(const cli_module_ref_t *ref)
{
    FILE *f = fopen(ref->path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = sq_malloc(cap);
    n = (size_t)snprintf(b, cap, "adams module definition; shift %d\n", (int)ref->shift);
    for (;;) {
        if (n + 1024 > cap) {
            cap *= 2;
            b = sq_realloc(b, cap);
        }
        size_t k = fread(b + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    b[n] = '\0';
    if (bad) {
        sq_free(b);
        return NULL;
    }
    return b;
}

/* adams resolve --save FILE: the run kept in a store (cmd_store.c does
 * the work and the messages).  Returns CLI_OK with *R the complete
 * resolution, or the exit code. */
/* The corrections' cache budget: a third of --max-memory when given, else
 * of the available memory, else the library's default (-1). */
static int64_t cache_budget(const resolve_opts_t *o)
{
    double limit = o->max_memory > 0 ? o->max_memory : sq_mem_available();
    return limit > 0 ? (int64_t)(limit / 3) : -1;
}

static int run_saved(const resolve_opts_t *o, const cli_module_ref_t *ref, const fdmod_t *M,
                     const sq_modspec_info_t *info, int *algo, sq_pool_t *pool, int show,
                     resol_t **R)
{
    char *text = NULL;
    if (info->infinite) {
        text = definition_text(ref);
        if (!text) {
            cli_error("cannot read %s to identify the module in the store", cli_str(ref->path));
            return CLI_FAIL;
        }
    }
    resol_algo_t a = o->algo == RESOL_AUTO && !info->infinite ? RESOL_AUTO : (resol_algo_t)*algo;
    int rc = cli_store_resolve(R, o->save, M, fdmod_name(M), text, &a, (int32_t)o->max_s,
                               (int32_t)o->stem, pool, show, o->progress < 0, cache_budget(o));
    *algo = (int)a;
    sq_free(text);
    if (rc == CLI_OK && o->algo == RESOL_AUTO && o->progress >= 0)
        cli_note("engine: %s (the engine of the store %s)",
                 a == RESOL_NASSAU ? "nassau" : "classical", cli_str(o->save));
    return rc;
}

/* --gpu and ADAMS_GPU: on when asked and available; one line when asked
 * and declined (the run stays on the CPU).  Returns 0 or CLI_USAGE. */
static int setup_gpu(const resolve_opts_t *o)
{
    char why[256];
    int g = sq_gpu_setup(o->gpu, why, sizeof why);
    if (g == SQ_E_INVAL) {
        cli_error("%s", why);
        return CLI_USAGE;
    }
    if (g == SQ_E_NOGPU && o->progress >= 0)
        cli_note("%s; running on the CPU", why);
    return 0;
}

int cmd_resolve(int argc, char **argv)
{
    resolve_opts_t o;
    int done = 0, rc = CLI_OK;
    if (parse_args(&o, argc, argv, &done, &rc))
        return CLI_USAGE;
    if (done)
        return rc;
    cli_module_ref_t ref;
    uint32_t p;
    if (cli_find_module(o.module, &ref, o.progress < 0) || cli_module_prime(&ref, &p))
        return CLI_USAGE;
    if (p != 2)
        return run_odd(&o, &ref, p);
    /* Ext through stem N needs the module in degrees <= N + 1; a cofiber's
     * resolution of the module reaches stem N + 1, so one more. */
    sq_modspec_info_t info;
    int32_t max_degree = o.stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE
                                                              : (int32_t)o.stem + 2;
    fdmod_t *M = cli_open_module(&ref, max_degree, &info, o.progress < 0);
    if (!M)
        return CLI_USAGE;
    int algo = cli_choose_engine(o.algo, M, &info, (int32_t)o.stem);
    if (algo < 0) {
        fdmod_free(M);
        return CLI_USAGE;
    }
    char err[256];
    int32_t bottom = info.bottom;
    if (!o.have_max_s)
        o.max_s = (o.stem - bottom > 0 ? (o.stem - bottom) / 2 : 0) + 3 + info.span;
    if (resol_check_range(M, (int32_t)o.max_s, (int32_t)o.stem, err, sizeof err)) {
        cli_error("%s", err);
        fdmod_free(M);
        return CLI_USAGE;
    }
    rc = check_memory(&o, M, algo);
    if (!rc)
        rc = setup_gpu(&o);
    if (rc) {
        fdmod_free(M);
        return rc;
    }
    if (info.cofiber && o.save) {
        cli_error("--save: a cofiber module is not kept in a store yet (its Ext comes from two "
                  "resolutions)");
        fdmod_free(M);
        return CLI_USAGE;
    }
    if (info.cofiber) {
        rc = run_cofiber(&o, M, &info, bottom);
        fdmod_free(M);
        sq_gpu_shutdown();
        return rc;
    }
    sq_pool_t *pool;
    rc = start_pool(&o, &pool);
    if (rc) {
        fdmod_free(M);
        return rc;
    }
    notes(&o, M, &info, algo);
    int show = o.progress > 0 || (o.progress == 0 && isatty(STDERR_FILENO));
    resol_t *R = NULL;
    if (o.save) {
        rc = run_saved(&o, &ref, M, &info, &algo, pool, show, &R);
        sq_pool_free(pool);
        sq_gpu_shutdown();
        if (rc != CLI_OK) {
            fdmod_free(M);
            return rc;
        }
    } else {
        R = resol_new(M, (int32_t)o.max_s, (int32_t)o.stem);
        if (cache_budget(&o) >= 0)
            resol_set_cache_budget(R, cache_budget(&o));
        sq_progress_t *prog = show ? sq_progress_new(stderr, R, (resol_algo_t)algo) : NULL;
        resol_observer_t obs = sq_progress_observer(prog);
        resol_run_pool(R, (resol_algo_t)algo, pool, prog ? &obs : NULL);
        sq_progress_free(prog);
        sq_pool_free(pool);
        sq_gpu_shutdown();
    }
    rc = o.csv ? sq_chart_write_csv(stdout, R, bottom, (int32_t)o.stem, (int32_t)o.max_s)
               : sq_chart_write_dots(stdout, R, bottom, (int32_t)o.stem, (int32_t)o.max_s);
    resol_free(R);
    fdmod_free(M);
    return finish_output(rc);
}
