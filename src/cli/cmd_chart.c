/*
 * cmd_chart.c -- `adams chart`: argument parsing and printing only.
 *
 * Resolves a module the way `adams resolve` does (loading and the choice
 * of engine are cli_module.h's) and writes the chart of sq_chart_svg.h, or
 * the JSON document of sq_chart_json.h, to stdout or to the file of -o.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cmd_chart.h"
#include "fdmod.h"
#include "resol.h"
#include "sq_chart_json.h"
#include "sq_chart_svg.h"
#include "sq_core.h"
#include "sq_modspec.h"
#include "sq_pool.h"
#include "sq_progress.h"

static const char chart_usage[] =
    "Usage: adams chart [MODULE] [options]\n"
    "\n"
    "Resolves MODULE over the mod 2 Steenrod algebra and draws its Adams chart\n"
    "(the E2 page Ext^{s,t}(MODULE, F_2)) as an SVG picture: a dot per generator\n"
    "x_(n, s, i), several side by side in one bidegree, and the products by\n"
    "h_0 (vertical, blue), h_1 (slope 1, vermilion) and h_2 (slope 1/3, green)\n"
    "as lines; hovering over a dot in a browser shows its name.  See\n"
    "docs/charts.md.\n"
    "\n"
    "MODULE (default S_2): as for 'adams resolve' (a shipped name, a file,\n"
    "NAME[k], NAME@milnor); cofibers of classes are not charted yet.\n"
    "\n"
    "Options:\n"
    "  --stem N             largest stem (default 40)\n"
    "  --from FILE          draw the resolution kept in a store (adams resolve --save\n"
    "                       FILE) instead of computing it; the region is the\n"
    "                       store's, or --stem/--max-s within it\n"
    "  --max-s S            largest filtration (default: N/2 + 3 plus the module's\n"
    "                       span, as for 'adams resolve')\n"
    "  -o FILE              write to FILE instead of stdout\n"
    "  --format FMT         svg: the picture (default; json when FILE ends in .json)\n"
    "                       json: the classes and the products by every h_i whose\n"
    "                         target lies in the chart, for other tools\n"
    "  --algorithm ALG      classical, nassau or auto (default), as for 'adams resolve'\n"
    "  --threads K          worker threads (default: $ADAMS_THREADS, else all cores)\n"
    "  --progress           show progress on stderr even when it is not a terminal\n"
    "  --quiet              no progress and no notes on stderr\n"
    "  -h, --help           show this help\n"
    "\n"
    "Examples:\n"
    "  adams chart S_2 --stem 60 -o S2.svg\n"
    "  adams chart Ceta --stem 40 --format json > Ceta.json\n"
    "\n"
    "Exit status: 0 on success, 1 if the output could not be written, 2 on a bad\n"
    "argument or a chart larger than what can be resolved.\n";

typedef struct {
    const char *module;
    const char *out; /* NULL: stdout */
    int64_t stem, max_s;
    int have_max_s;
    int format; /* -1 not given, 0 svg, 1 json */
    resol_algo_t algo;
    int64_t threads;
    int progress; /* -1 quiet, 0 when stderr is a terminal, 1 forced */
    int have_stem;
    const char *from; /* --from FILE: the resolution kept in a store */
} chart_opts_t;

/* The value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"), advancing
 * *i; "" when missing; NULL if the option is not `name`. */
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
        return "";
    return argv[++*i];
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int parse_args(chart_opts_t *o, int argc, char **argv, int *done)
{
    memset(o, 0, sizeof *o);
    o->stem = 40;
    o->format = -1;
    o->algo = RESOL_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(chart_usage, stdout);
            *done = 1;
            return 0;
        }
        if ((v = opt_value("--from", argc, argv, &i))) {
            if (!*v) {
                cli_error("--from: missing value");
                return -1;
            }
            o->from = v;
        } else if ((v = opt_value("--stem", argc, argv, &i))) {
            if (cli_parse_int("--stem", v, -1000000, 1000000, &o->stem))
                return -1;
            o->have_stem = 1;
        } else if ((v = opt_value("--max-s", argc, argv, &i))) {
            if (cli_parse_int("--max-s", v, 0, 1000000, &o->max_s))
                return -1;
            o->have_max_s = 1;
        } else if ((v = opt_value("-o", argc, argv, &i)) ||
                   (v = opt_value("--output", argc, argv, &i))) {
            if (!*v) {
                cli_error("-o: missing file name");
                return -1;
            }
            o->out = v;
        } else if ((v = opt_value("--format", argc, argv, &i))) {
            if (!*v) {
                cli_error("--format: missing value");
                return -1;
            } else if (strcmp(v, "svg") == 0) {
                o->format = 0;
            } else if (strcmp(v, "json") == 0) {
                o->format = 1;
            } else {
                cli_error("--format: expected 'svg' or 'json', got '%s'", v);
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
            cli_error("chart: unknown option '%s' (try 'adams chart --help')", cli_str(a));
            return -1;
        } else if (o->module) {
            cli_error("chart: more than one module given ('%s' and '%s')", cli_str(o->module),
                      cli_str(a));
            return -1;
        } else {
            o->module = a;
        }
    }
    if (!o->module)
        o->module = "S_2";
    if (o->format < 0)
        o->format = o->out && ends_with(o->out, ".json") ? 1 : 0;
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

/* Resolves the region and writes the chart to f.  Returns an SQ_E_* code of
 * the writing (0 on success). */
static int resolve_and_write(const chart_opts_t *o, const fdmod_t *M, int algo, int32_t bottom,
                             FILE *f)
{
    resol_t *R = resol_new(M, (int32_t)o->max_s, (int32_t)o->stem);
    sq_pool_t *pool = NULL;
    if (o->threads > 1 && sq_pool_create(&pool, (int)o->threads) != 0) {
        resol_free(R);
        return SQ_E_NOTHREAD;
    }
    int show = o->progress > 0 || (o->progress == 0 && isatty(STDERR_FILENO));
    sq_progress_t *prog = show ? sq_progress_new(stderr, R, (resol_algo_t)algo) : NULL;
    resol_observer_t obs = sq_progress_observer(prog);
    resol_run_pool(R, (resol_algo_t)algo, pool, prog ? &obs : NULL);
    sq_progress_free(prog);
    sq_pool_free(pool);
    int rc =
        o->format == 1
            ? sq_chart_write_json(f, R, fdmod_name(M), bottom, (int32_t)o->stem, (int32_t)o->max_s)
            : sq_chart_write_svg(f, R, fdmod_name(M), bottom, (int32_t)o->stem, (int32_t)o->max_s);
    resol_free(R);
    return rc;
}

/* Opens the output (stdout or -o FILE).  NULL after a one-line error. */
static FILE *open_output(const chart_opts_t *o)
{
    FILE *f = stdout;
    if (o->out && !(f = fopen(o->out, "w")))
        cli_error("cannot write '%s': %s", cli_str(o->out), strerror(errno));
    return f;
}

/* Closes the output; the exit code given the writer's rc. */
static int close_output(const chart_opts_t *o, FILE *f, int rc)
{
    if (fflush(f) != 0 || ferror(f))
        rc = rc ? rc : SQ_E_IO;
    if (f != stdout && fclose(f) != 0)
        rc = rc ? rc : SQ_E_IO;
    if (rc == SQ_E_NOTHREAD) {
        cli_error("could not start %lld threads", (long long)o->threads);
        return CLI_NOTHREAD;
    }
    if (rc) {
        cli_error("could not write %s%s%s: %s", o->out ? "'" : "the output",
                  o->out ? cli_str(o->out) : "", o->out ? "'" : "", sq_strerror(rc));
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* adams chart --from FILE: the chart of the resolution kept in a store. */
static int chart_from_store(chart_opts_t *o)
{
    fdmod_t *M = NULL;
    resol_t *R = cli_store_resolution(o->from, o->have_stem, &o->stem, o->have_max_s, &o->max_s,
                                      &M);
    if (!R)
        return CLI_USAGE;
    FILE *f = open_output(o);
    if (!f) {
        resol_free(R);
        fdmod_free(M);
        return CLI_FAIL;
    }
    int32_t bottom = fdmod_bottom(M);
    int rc = o->format == 1 ? sq_chart_write_json(f, R, fdmod_name(M), bottom, (int32_t)o->stem,
                                                  (int32_t)o->max_s)
                            : sq_chart_write_svg(f, R, fdmod_name(M), bottom, (int32_t)o->stem,
                                                 (int32_t)o->max_s);
    resol_free(R);
    fdmod_free(M);
    return close_output(o, f, rc);
}

int cmd_chart(int argc, char **argv)
{
    chart_opts_t o;
    int done = 0;
    if (parse_args(&o, argc, argv, &done))
        return CLI_USAGE;
    if (done)
        return CLI_OK;
    if (o.from)
        return chart_from_store(&o);
    /* Ext through stem N needs the module in degrees <= N + 1 (one more, as
     * `adams resolve` loads it). */
    sq_modspec_info_t info;
    int32_t max_degree =
        o.stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE : (int32_t)o.stem + 2;
    fdmod_t *M = cli_load_module(o.module, max_degree, &info, o.progress < 0);
    if (!M)
        return CLI_USAGE;
    if (info.cofiber) {
        cli_error("chart: %s asks for the cofiber of a class, which 'adams chart' does not draw "
                  "yet (its dot chart: 'adams resolve %s')",
                  fdmod_name(M), o.module);
        fdmod_free(M);
        return CLI_USAGE;
    }
    int algo = cli_choose_engine(o.algo, M, &info, (int32_t)o.stem);
    if (algo < 0) {
        fdmod_free(M);
        return CLI_USAGE;
    }
    char err[256];
    int32_t bottom = info.bottom;
    if (!o.have_max_s)
        o.max_s = (o.stem - bottom > 0 ? (o.stem - bottom) / 2 : 0) + 3 + info.span;
    if (o.stem < bottom) {
        cli_error("chart: --stem %lld is below the bottom stem %d of %s: nothing to draw",
                  (long long)o.stem, (int)bottom, fdmod_name(M));
        fdmod_free(M);
        return CLI_USAGE;
    }
    if (resol_check_range(M, (int32_t)o.max_s, (int32_t)o.stem, err, sizeof err)) {
        cli_error("%s", err);
        fdmod_free(M);
        return CLI_USAGE;
    }
    /* Open the file before the run, so that a bad path fails at once. */
    FILE *f = open_output(&o);
    if (!f) {
        fdmod_free(M);
        return CLI_FAIL;
    }
    if (!o.have_max_s && o.progress >= 0)
        fprintf(stderr, "adams: --max-s not given; using %lld ((stem - bottom)/2 + 3 + span %d)\n",
                (long long)o.max_s, (int)info.span);
    cli_engine_note(o.algo, (resol_algo_t)algo, M, &info, o.progress < 0);
    int rc = resolve_and_write(&o, M, algo, bottom, f);
    fdmod_free(M);
    return close_output(&o, f, rc);
}
