/*
 * cmd_resolve.c -- `adams resolve`: argument parsing and printing only.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fdmod.h"
#include "resol.h"
#include "resol_cofiber.h"
#include "sq_chart.h"
#include "sq_core.h"
#include "sq_modspec.h"
#include "sq_pool.h"
#include "sq_progress.h"

static const char resolve_usage[] =
    "Usage: adams resolve [MODULE] [options]\n"
    "\n"
    "Computes a minimal free resolution of MODULE over the mod 2 Steenrod algebra\n"
    "and prints Ext^{s,t}(MODULE, F_2), the E2 page of the Adams spectral sequence,\n"
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
    "                       auto (default): the fastest engine that applies\n"
    "                         (Nassau for every finite module)\n"
    "  --threads K          worker threads (default: $ADAMS_THREADS, else all cores);\n"
    "                       the output never depends on K\n"
    "  --progress           show progress on stderr even when it is not a terminal\n"
    "  --quiet              no progress and no notes on stderr\n"
    "  -h, --help           show this help\n"
    "\n"
    "Examples:\n"
    "  adams resolve S_2 --stem 40\n"
    "  adams resolve S_2 --stem 60 --max-s 40 --format csv\n"
    "\n"
    "Environment: ADAMS_THREADS (default thread count); ADAMS_LOG=step,rr (or all)\n"
    "prints trace events, one key=value line each, on stderr or to ADAMS_LOG_FILE.\n"
    "\n"
    "Exit status: 0 on success, 1 if the output could not be written, 2 on a bad\n"
    "argument.\n";

typedef struct {
    const char *module;
    int64_t stem, max_s;
    int have_max_s;
    int csv;
    resol_algo_t algo;
    int64_t threads;   /* 0: default */
    int progress;      /* -1 quiet, 0 when stderr is a terminal, 1 forced */
} resolve_opts_t;

/* Returns the value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"),
 * advancing *i; "" when the value is missing; NULL if the option is not
 * `name`. */
static const char *opt_value(const char *name, int argc, char **argv, int *i)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        return ""; /* reported as a missing value by the caller */
    return argv[++*i];
}

static int parse_args(resolve_opts_t *o, int argc, char **argv, int *done)
{
    o->module = NULL;
    o->stem = 40;
    o->have_max_s = 0;
    o->csv = 0;
    o->algo = RESOL_AUTO;
    o->threads = 0;
    o->progress = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(resolve_usage, stdout);
            *done = 1;
            return 0;
        }
        if ((v = opt_value("--stem", argc, argv, &i))) {
            if (cli_parse_int("--stem", v, -1000000, 1000000, &o->stem))
                return -1;
        } else if ((v = opt_value("--max-s", argc, argv, &i))) {
            if (cli_parse_int("--max-s", v, 0, 1000000, &o->max_s))
                return -1;
            o->have_max_s = 1;
        } else if ((v = opt_value("--format", argc, argv, &i))) {
            if (!*v) {
                cli_error("--format: missing value");
                return -1;
            } else if (strcmp(v, "chart") == 0) {
                o->csv = 0;
            } else if (strcmp(v, "csv") == 0) {
                o->csv = 1;
            } else {
                cli_error("--format: expected 'chart' or 'csv', got '%s'", v);
                return -1;
            }
        } else if ((v = opt_value("--algorithm", argc, argv, &i))) {
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
                cli_error("--algorithm: expected 'classical', 'nassau' or 'auto', got '%s'", v);
                return -1;
            }
        } else if ((v = opt_value("--threads", argc, argv, &i))) {
            if (cli_parse_int("--threads", v, 1, 4096, &o->threads))
                return -1;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(a, "--quiet") == 0) {
            o->progress = -1;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("resolve: unknown option '%s' (try 'adams resolve --help')", a);
            return -1;
        } else if (o->module) {
            cli_error("resolve: more than one module given ('%s' and '%s')", o->module, a);
            return -1;
        } else {
            o->module = a;
        }
    }
    if (!o->module)
        o->module = "S_2";
    if (o->threads == 0) {
        const char *env = getenv("ADAMS_THREADS");
        if (env && *env) {
            if (cli_parse_int("ADAMS_THREADS", env, 1, 4096, &o->threads))
                return -1;
        } else {
            o->threads = sq_num_cores();
        }
    }
    return 0;
}

/* The basis suffix of a module spec, the peer's "NAME@milnor" or
 * "NAME@adem" (also after a shift: "Ceta[2]@adem"): cut from spec into
 * base (n bytes).  Returns 0 (*adem set), or -1 after a one-line error. */
static int split_basis(char *base, size_t n, const char *spec, int *adem)
{
    *adem = 0;
    const char *at = strrchr(spec, '@');
    if (!at || strchr(at, '/')) {
        snprintf(base, n, "%s", spec);
        return 0;
    }
    if (strcmp(at + 1, "milnor") != 0 && strcmp(at + 1, "adem") != 0) {
        cli_error("module '%s': unknown basis '%s' after '@' (expected milnor or adem)", spec,
                  at + 1);
        return -1;
    }
    *adem = strcmp(at + 1, "adem") == 0;
    snprintf(base, n, "%.*s", (int)(at - spec), spec);
    return 0;
}

/* The module named by spec ("NAME", "PATH", either with a shift "[k]" and a
 * basis "@milnor"/"@adem"): its JSON file found by
 * sq_modspec_resolve_name, else the built-in S_2.  An infinite module is
 * truncated to degrees <= max_degree.  Returns NULL after a one-line
 * error.  Warnings about the file go to stderr. */
static fdmod_t *load_module(const char *spec, int32_t max_degree, sq_modspec_info_t *info,
                            int quiet)
{
    static const char sphere[] = "{\"p\": 2, \"gens\": {\"x0\": 0}, \"actions\": []}";
    char named[1024], base[1024], path[4096], err[1024];
    int adem;
    if (split_basis(named, sizeof named, spec, &adem))
        return NULL;
    if (adem && !quiet)
        fprintf(stderr, "adams: note: @adem changes only the names of basis elements; adams "
                        "works in the Milnor basis, and no dimension depends on the basis\n");
    sq_modspec_opts_t mo = {
        .warn = quiet ? NULL : stderr, .have_max_degree = 1, .max_degree = max_degree, .info = info};
    int rc = sq_modspec_split_shift(base, sizeof base, named, &mo.shift);
    if (rc) {
        cli_error("module '%s': %s", spec,
                  rc == SQ_E_RANGE ? "the shift in [...] is out of range"
                                   : "expected NAME, PATH, NAME[k] or PATH[k] (k an integer)");
        return NULL;
    }
    fdmod_t *M = NULL;
    if (sq_modspec_resolve_name(path, sizeof path, base, NULL) == 0)
        rc = sq_modspec_load_file(&M, path, path, &mo, err, sizeof err);
    else if (strcmp(base, "S_2") == 0)
        rc = sq_modspec_load_buffer(&M, sphere, sizeof sphere - 1, "S_2", &mo, err, sizeof err);
    else {
        cli_error("unknown module '%s' (no %s.json here nor among the shipped modules; see "
                  "'adams modules')",
                  base, base);
        return NULL;
    }
    if (rc)
        cli_error("%s", err);
    return M;
}

/* The engine for M: infinite modules (truncated) and cofibers need the
 * classical engine; auto picks Nassau for finite modules over all of A.
 * Returns the engine, or -1 after a one-line error. */
static int choose_engine(const resolve_opts_t *o, const fdmod_t *M, const sq_modspec_info_t *info)
{
    const char *why = info->cofiber   ? "the cofiber of a class"
                      : info->infinite ? (info->kind == SQ_MODSPEC_PRESENTED
                                              ? "an infinite finitely presented module"
                                              : "an infinite projective space")
                                       : NULL;
    char err[256];
    if (why && o->algo == RESOL_NASSAU) {
        cli_error("--algorithm nassau resolves finite modules over the whole algebra; %s is %s: "
                  "use --algorithm classical (or auto)",
                  fdmod_name(M), why);
        return -1;
    }
    if (!why && resol_engine_check(M, o->algo, err, sizeof err)) {
        cli_error("%s", err);
        return -1;
    }
    return (int)(why ? RESOL_CLASSICAL : o->algo);
}

/* The note on stderr saying which engine auto chose, and why. */
static void engine_note(const resolve_opts_t *o, const fdmod_t *M, const sq_modspec_info_t *info)
{
    static const char *const kinds[] = {"a finite module", "a finitely presented module",
                                        "a real projective space"};
    const char *why = info->cofiber   ? "the cofiber of a class"
                      : info->infinite ? (info->kind == SQ_MODSPEC_PRESENTED
                                              ? "an infinite finitely presented module"
                                              : "an infinite projective space")
                                       : NULL;
    if (o->algo == RESOL_AUTO && o->progress >= 0) {
        int32_t h[16];
        if (why)
            fprintf(stderr, "adams: engine: classical (%s is %s)\n", fdmod_name(M), why);
        else if (fdmod_profile(M, h) > 0)
            fprintf(stderr, "adams: engine: classical (%s is a module over a subalgebra)\n",
                    fdmod_name(M));
        else
            fprintf(stderr, "adams: engine: nassau (%s is %s over the whole algebra)\n",
                    fdmod_name(M), kinds[info->kind]);
    }
}

/* The notes on stderr, once the run is known to be valid: the filtration
 * chosen when --max-s was not given, and the engine auto chose. */
static void notes(const resolve_opts_t *o, const fdmod_t *M, const sq_modspec_info_t *info)
{
    if (!o->have_max_s && o->progress >= 0)
        fprintf(stderr,
                "adams: --max-s not given; using %lld ((stem - bottom)/2 + 3 + span %d: every "
                "nonzero group of stems <= %lld except the h_0-tower)\n",
                (long long)o->max_s, (int)info->span, (long long)o->stem);
    engine_note(o, M, info);
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
    sq_pool_t *pool = o->threads > 1 ? sq_pool_new((int)o->threads) : NULL;
    resol_cofiber_t *C;
    int rc = resol_cofiber_new(&C, M, info->cof_s, info->cof_t, info->cof_idx,
                               (int32_t)o->max_s, (int32_t)o->stem, pool, err, sizeof err);
    sq_pool_free(pool);
    if (rc) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    notes(o, M, info);
    rc = o->csv ? sq_chart_write_csv_fn(stdout, cofiber_ext, C, bottom, (int32_t)o->stem,
                                        (int32_t)o->max_s)
                : sq_chart_write_dots_fn(stdout, cofiber_ext, C, bottom, (int32_t)o->stem,
                                         (int32_t)o->max_s);
    if (fflush(stdout) != 0)
        rc = SQ_E_IO;
    resol_cofiber_free(C);
    if (rc) {
        cli_error("could not write the output: %s", sq_strerror(rc));
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cmd_resolve(int argc, char **argv)
{
    resolve_opts_t o;
    int done = 0;
    if (parse_args(&o, argc, argv, &done))
        return CLI_USAGE;
    if (done)
        return CLI_OK;
    /* Ext through stem N needs the module in degrees <= N + 1; a cofiber's
     * resolution of the module reaches stem N + 1, so one more. */
    sq_modspec_info_t info;
    int32_t max_degree = o.stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE
                                                              : (int32_t)o.stem + 2;
    fdmod_t *M = load_module(o.module, max_degree, &info, o.progress < 0);
    if (!M)
        return CLI_USAGE;
    int algo = choose_engine(&o, M, &info);
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
    if (info.cofiber) {
        int rc = run_cofiber(&o, M, &info, bottom);
        fdmod_free(M);
        return rc;
    }
    notes(&o, M, &info);
    resol_t *R = resol_new(M, (int32_t)o.max_s, (int32_t)o.stem);
    sq_pool_t *pool = o.threads > 1 ? sq_pool_new((int)o.threads) : NULL;
    int show = o.progress > 0 || (o.progress == 0 && isatty(STDERR_FILENO));
    sq_progress_t *prog = show ? sq_progress_new(stderr, R, (resol_algo_t)algo) : NULL;
    resol_observer_t obs = sq_progress_observer(prog);
    resol_run_pool(R, (resol_algo_t)algo, pool, prog ? &obs : NULL);
    sq_progress_free(prog);
    sq_pool_free(pool);
    int rc = o.csv ? sq_chart_write_csv(stdout, R, bottom, (int32_t)o.stem, (int32_t)o.max_s)
                   : sq_chart_write_dots(stdout, R, bottom, (int32_t)o.stem, (int32_t)o.max_s);
    if (fflush(stdout) != 0)
        rc = SQ_E_IO;
    resol_free(R);
    fdmod_free(M);
    if (rc) {
        cli_error("could not write the output: %s", sq_strerror(rc));
        return CLI_FAIL;
    }
    return CLI_OK;
}
