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
    "Exit status: 0 on success, 1 if the output could not be written, 2 on a bad\n"
    "argument or module file (docs/cli.md lists every code).\n";

typedef struct {
    const char *module;
    int64_t stem, max_s;
    int have_max_s;
    int csv;
    resol_algo_t algo;
    int64_t threads;   /* 0: default */
    int progress;      /* -1 quiet, 0 when stderr is a terminal, 1 forced */
} resolve_opts_t;

enum { OPT_STEM = 256, OPT_MAXS, OPT_FORMAT, OPT_ALGO, OPT_THREADS, OPT_PROGRESS, OPT_QUIET };

static const struct option resolve_longs[] = {
    {"stem", required_argument, NULL, OPT_STEM},
    {"max-s", required_argument, NULL, OPT_MAXS},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"algorithm", required_argument, NULL, OPT_ALGO},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"quiet", no_argument, NULL, OPT_QUIET},
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
        int32_t h[MILNOR_MAX_LEN];
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
    resol_cofiber_free(C);
    return finish_output(rc);
}

int cmd_resolve(int argc, char **argv)
{
    resolve_opts_t o;
    int done = 0, rc = CLI_OK;
    if (parse_args(&o, argc, argv, &done, &rc))
        return CLI_USAGE;
    if (done)
        return rc;
    /* Ext through stem N needs the module in degrees <= N + 1; a cofiber's
     * resolution of the module reaches stem N + 1, so one more. */
    sq_modspec_info_t info;
    int32_t max_degree = o.stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE
                                                              : (int32_t)o.stem + 2;
    fdmod_t *M = cli_load_module(o.module, max_degree, &info, o.progress < 0);
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
        rc = run_cofiber(&o, M, &info, bottom);
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
    rc = o.csv ? sq_chart_write_csv(stdout, R, bottom, (int32_t)o.stem, (int32_t)o.max_s)
               : sq_chart_write_dots(stdout, R, bottom, (int32_t)o.stem, (int32_t)o.max_s);
    resol_free(R);
    fdmod_free(M);
    return finish_output(rc);
}
