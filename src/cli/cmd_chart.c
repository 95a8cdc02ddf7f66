/*
 * cmd_chart.c -- `adams chart`: argument parsing and printing only.
 *
 * Resolves a module the way `adams resolve` does (the options are
 * cli_opts.c's, the checks before the run cli_run.c's), or reads it from a
 * store (--from), and writes the chart of sq_chart_svg.h, the JSON
 * document of sq_chart_json.h, or the interactive page of sq_chart_html.h,
 * to stdout or to the file of -o.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_from.h"
#include "cli_run.h"
#include "cmd_chart.h"
#include "fdmod.h"
#include "resol.h"
#include "cmd_d2.h"
#include "sq_chart_e3.h"
#include "sq_moddef.h"
#include "sq_store.h"
#include "sq_store_secondary.h"
#include "sq_chart_html.h"
#include "sq_chart_json.h"
#include "sq_chart_svg.h"
#include "sq_core.h"

static const char chart_usage[] =
    "Usage: adams chart [MODULE] [options]\n"
    "\n"
    "Resolves MODULE over the mod p Steenrod algebra (p the module's prime) and\n"
    "draws its Adams chart (the E2 page Ext^{s,t}(MODULE, F_p)) as an SVG picture:\n"
    "a dot per generator x_(n, s, i), several side by side in one bidegree, and\n"
    "the products by h_0 (vertical, blue), h_1 (slope 1, vermilion) and h_2\n"
    "(slope 1/3, green) as lines -- at an odd prime by a_0 (vertical, blue) and\n"
    "h_0 (slope 1/(2p - 3), vermilion); hovering over a dot in a browser shows\n"
    "its name.  See docs/charts.md.\n"
    "\n"
    "MODULE (default S_2): as for 'adams resolve' (a shipped name, a file,\n"
    "NAME[k], NAME@milnor; S_3, S_5 at odd primes); cofibers of classes are not\n"
    "charted yet.\n"
    "\n"
    "Options:\n"
    "  --stem N             largest stem (default 40)\n"
    "  --from FILE          draw the resolution kept in a store (adams resolve --save\n"
    "                       FILE) instead of computing it; the region is the\n"
    "                       store's, or --stem/--max-s within it\n"
    "  --max-s S            largest filtration (default: N/(2p - 2) + 3 plus the module's\n"
    "                       span, as for 'adams resolve')\n"
    "  --coefficients N     draw Ext(MODULE, N) for a finite module N: the chart of\n"
    "                       the module MODULE*D(N) (docs/resolution.md); not with --from\n"
    "  -o FILE              write to FILE instead of stdout\n"
    "  --format FMT         svg: the picture (default; json or html when FILE ends\n"
    "                         in .json or .html)\n"
    "                       json: the classes and the products by every\n"
    "                         filtration-one class (h_i; a_0, h_i at odd p) whose\n"
    "                         target lies in the chart, for other tools\n"
    "                       html: one self-contained page for a browser: the json\n"
    "                         data drawn with pan, zoom, the h_i lines toggled,\n"
    "                         names on hover, products of a clicked class, search\n"
    "  --algorithm ALG      classical, nassau or auto (default), as for 'adams resolve'\n"
    "  --threads K          worker threads (default: $ADAMS_THREADS, else all cores)\n"
    "  --progress           show progress on stderr even when it is not a terminal\n"
    "  --quiet              no progress and no notes on stderr\n"
    "  --max-memory SIZE    refuse a region whose estimated memory exceeds SIZE, as\n"
    "                       for 'adams resolve' (exit 3)\n"
    "  --gpu                offload to a CUDA GPU, as for 'adams resolve'\n"
    "  -h, --help           show this help\n"
    "\n"
    "Examples:\n"
    "  adams chart S_2 --stem 60 -o S2.svg\n"
    "  adams chart Ceta --stem 40 --format json > Ceta.json\n"
    "  adams chart S_2 --stem 150 --max-s 78 -o S2.html\n"
    "  adams chart S_3 --stem 100 --max-s 27 -o S3.svg\n"
    "\n"
    "Exit status: 0 on success, 1 if the output could not be written, 2 on a bad\n"
    "argument, 3 when the region does not fit in memory, 4 when the threads\n"
    "cannot be started (docs/cli.md).\n";

static const char *const chart_formats[] = {"svg", "json", "html", NULL};

static const cli_verb_t chart_verb = {
    "chart", chart_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_FORMAT) |
        CLI_BIT(CLI_OPT_ALGO) | CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |
        CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM) | CLI_BIT(CLI_OPT_GPU) |
        CLI_BIT(CLI_OPT_FROM) | CLI_BIT(CLI_OPT_OUTPUT) | CLI_BIT(CLI_OPT_PAGE) |
        CLI_BIT(CLI_OPT_D2) | CLI_BIT(CLI_OPT_COEFF),
    chart_formats, "module"};

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The format (an index of chart_formats): --format, else json when -o
 * FILE ends in .json, html when it ends in .html or .htm, else svg. */
static int chart_format(const cli_opts_t *o)
{
    if (cli_given(o, CLI_OPT_FORMAT))
        return o->format;
    if (!o->output)
        return 0;
    if (ends_with(o->output, ".json"))
        return 1;
    return ends_with(o->output, ".html") || ends_with(o->output, ".htm") ? 2 : 0;
}

/* Opens the output (stdout or -o FILE), refusing a file that is one of
 * the inputs (in1, in2: the store, the module file).  NULL after a
 * one-line error (*rc its exit code). */
static FILE *open_output(const cli_opts_t *o, const char *in1, const char *in2, int *rc)
{
    FILE *f = stdout;
    if ((*rc = cli_check_output(o->output, in1, in2)) != CLI_OK)
        return NULL;
    if (o->output && !(f = fopen(o->output, "we"))) {
        cli_error("cannot write '%s': %s", cli_str(o->output), strerror(errno));
        *rc = CLI_FAIL;
    }
    return f;
}

static int finish_file(const cli_opts_t *o, FILE *f, int rc);

/* Writes the chart of R (module M) through (stem, max_s) to f, closes f;
 * the exit code. */
static int write_chart(const cli_opts_t *o, FILE *f, const resol_t *R, const fdmod_t *M,
                       int32_t stem, int32_t max_s)
{
    int32_t bottom = fdmod_bottom(M);
    int fmt = chart_format(o), rc;
    if (fmt == 1)
        rc = sq_chart_write_json(f, R, fdmod_name(M), bottom, stem, max_s);
    else if (fmt == 2)
        rc = sq_chart_write_html(f, R, fdmod_name(M), bottom, stem, max_s);
    else
        rc = sq_chart_write_svg(f, R, fdmod_name(M), bottom, stem, max_s);
    return finish_file(o, f, rc);
}

/* Closes the chart's output f (stdout: flushed) after a writer returned
 * rc; the exit code, one line when the write failed. */
static int finish_file(const cli_opts_t *o, FILE *f, int rc)
{
    if (f == stdout)
        return cli_finish_output(rc);
    int e = errno;
    if (fflush(f) != 0 || ferror(f))
        rc = rc ? rc : SQ_E_IO, e = errno;
    if (fclose(f) != 0)
        rc = rc ? rc : SQ_E_IO, e = errno;
    if (rc) {
        cli_error("could not write '%s': %s", cli_str(o->output),
                  rc == SQ_E_IO && e ? strerror(e) : sq_strerror(rc));
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* adams chart --from FILE: the chart of the resolution kept in a store. */
static int chart_from_store(const cli_opts_t *o)
{
    fdmod_t *M = NULL;
    resol_t *R = NULL;
    int64_t stem, max_s;
    cli_module_ref_t ref = {0};
    if (o->operand && cli_find_module(o->operand, &ref, 1))
        return CLI_USAGE;
    int rc = cli_check_output(o->output, o->from, ref.path);
    if (!rc)
        rc = cli_from_prepare(o, o->operand, 0, &R, &M, &stem, &max_s);
    if (rc)
        return rc;
    FILE *f = open_output(o, o->from, NULL, &rc);
    if (f)
        rc = write_chart(o, f, R, M, (int32_t)stem, (int32_t)max_s);
    resol_free(R);
    fdmod_free(M);
    return rc;
}

/* adams chart MODULE: resolve, then draw. */
static int chart_computed(const cli_opts_t *o)
{
    cli_run_t r;
    int rc = cli_run_prepare(&r, o, o->operand ? o->operand : "S_2", o->stem,
                             cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1, CLI_RUN_NO_NOTES);
    /* Open the file before the run, so that a bad path fails at once. */
    FILE *f = rc == CLI_OK ? open_output(o, r.ref.path, NULL, &rc) : NULL;
    if (f) {
        cli_run_notes(&r, 1);
        resol_t *R = cli_run_resolve(&r);
        rc = write_chart(o, f, R, r.M, r.stem, r.max_s);
        resol_free(R);
    }
    cli_run_release(&r);
    return rc;
}

/* ---- chart --d2 / --page 3 --from FILE: the lift kept in a store ---------- */

/* The keep hook of a chart from a store: the kept rows only.  A row kept
 * on fewer generators than the region needs stops the lift before anything
 * is computed (KEPT_SHORT, err naming the row). */
#define KEPT_SHORT (-1000)

typedef struct {
    resol_sec_keep_t inner;
    const char *path;
} kept_only_t;

static int kept_only_load(void *ctx, int32_t s, fvec_t *h, int64_t ngen, int64_t *n, char *err,
                          size_t errlen)
{
    kept_only_t *k = ctx;
    int rc = k->inner.load(k->inner.ctx, s, h, ngen, n, err, errlen);
    if (rc == 0 && *n < ngen) {
        for (int64_t g = 0; g < *n; g++)
            fvec_clear(&h[g]);
        snprintf(err, errlen,
                 "the secondary lift kept in %s holds %lld of the %lld generators of row s=%d "
                 "that the region needs (a smaller --stem or --max-s, or extend it with adams "
                 "d2 --save %s --stem N --max-s S)",
                 k->path, (long long)*n, (long long)ngen, (int)s, k->path);
        *n = 0;
        return KEPT_SHORT;
    }
    return rc;
}

/* The store's completed region (done_n, done_s), and whether its module
 * is truncated from an infinite one.  0, or CLI_USAGE after one line. */
static int store_region(const cli_opts_t *o, const char *opt, int64_t *n, int64_t *s,
                        int *truncated)
{
    sq_store_t *st = NULL;
    sq_store_info_t si;
    char err[1024];
    if (sq_store_open_read(&st, o->from, err, sizeof err) ||
        sq_store_info(st, &si, err, sizeof err)) {
        sq_store_close(st);
        cli_error("chart: %s: %s", opt, err);
        return CLI_USAGE;
    }
    const char *text = sq_store_stored_module_text(st);
    *truncated = text && sq_moddef_is(text);
    *n = si.done_n;
    *s = si.done_s;
    sq_store_close(st);
    return CLI_OK;
}

/* The lift kept in o->from for R (read, never computed): *X, or the exit
 * code after one line: no lift kept, one that does not cover R's region,
 * a kind or store the lift is not kept for (exit 2); a damaged record (1). */
static int kept_lift(const cli_opts_t *o, const char *opt, const resol_t *R, const fdmod_t *M,
                     resol_sec_t **X)
{
    sq_store_t *st = NULL;
    sq_store_sec_t *K = NULL;
    char err[1024];
    int64_t rows = 0;
    int rc = CLI_OK, e;
    *X = NULL;
    if (sq_store_open_read(&st, o->from, err, sizeof err) != 0 ||
        (e = sq_store_sec_attach(&K, st, R, 0, err, sizeof err)) != 0) {
        cli_error("chart: %s: %s", opt, err);
        sq_store_close(st);
        return CLI_USAGE;
    }
    if (sq_store_sec_rows(st, &rows, err, sizeof err) != 0) {
        cli_error("chart: %s: %s", opt, err);
        rc = CLI_FAIL;
    } else if (rows == 0) {
        cli_error("chart: %s: --from: the store %s keeps no secondary lift (adams d2 --save %s "
                  "or resolve --page 3 --save %s keeps one)",
                  opt, cli_str(o->from), cli_str(o->from), cli_str(o->from));
        rc = CLI_USAGE;
    } else {
        kept_only_t k = {sq_store_sec_keep(K), o->from};
        resol_sec_keep_t keep = {&k, kept_only_load, NULL};
        e = resol_sec_new_kept(X, R, NULL, &keep, NULL, NULL, err, sizeof err);
        if (e == SQ_E_INVAL) {
            cli_error("chart: %s: %s", cli_str(fdmod_name(M)), err);
            rc = CLI_USAGE;
        } else if (e == KEPT_SHORT) {
            cli_error("chart: %s: --from: %s", opt, err);
            rc = CLI_USAGE;
        } else if (e != 0) {
            cli_error("chart: %s: %s", opt, err);
            rc = CLI_FAIL;
        }
    }
    sq_store_sec_detach(K);
    sq_store_close(st);
    return rc;
}

/* adams chart --d2 / --page 3 --from FILE: the page drawn from the
 * resolution and the secondary lift kept in a store, nothing lifted: the
 * same bytes as the chart computed afresh for the region.  The region is
 * --stem/--max-s, else the store's completed run (less one stem and two
 * filtrations for page 3, which reads d_2 that far); the resolution is
 * read through it as the fresh chart resolves it (page 3: one stem and two
 * filtrations more; filtration 3 and stem top - 1 at least). */
static int chart_page_from(const cli_opts_t *o, int d2, int fmt)
{
    const char *opt = d2 ? "--d2" : "--page 3";
    int page3 = o->page == 3, trunc = 0;
    int64_t done_n = -1, done_s = -1;
    int rc = cli_check_output(o->output, o->from, NULL);
    if (!rc)
        rc = store_region(o, opt, &done_n, &done_s, &trunc);
    if (rc)
        return rc;
    if (trunc) {
        cli_error("chart: %s: --from: the module of the store %s is truncated from an infinite "
                  "one: the d_2 needs a finite module (the peer's condition)",
                  opt, cli_str(o->from));
        return CLI_USAGE;
    }
    int given_n = cli_given(o, CLI_OPT_STEM), given_s = cli_given(o, CLI_OPT_MAXS);
    if ((!given_n || !given_s) && done_s < 0) {
        cli_error("chart: %s: --from: store %s holds no completed run: give --stem and --max-s",
                  opt, cli_str(o->from));
        return CLI_USAGE;
    }
    int64_t stem = given_n ? o->stem : done_n - page3;
    int64_t out_s = given_s ? o->max_s : done_s - 2 * page3;
    int64_t want_n = stem + page3, want_s = out_s + 2 * page3;
    if (want_s < 3)
        want_s = 3;
    resol_t *R = NULL;
    fdmod_t *M = NULL;
    rc = cli_from_prepare(o, o->operand, CLI_FROM_REGION, &R, &M, &want_n, &want_s);
    if (rc == CLI_OK && fdmod_top(M) - 1 > want_n) { /* the condition reads stem top - 1 */
        want_n = fdmod_top(M) - 1;
        resol_free(R);
        fdmod_free(M);
        rc = cli_from_prepare(o, o->operand, CLI_FROM_REGION, &R, &M, &want_n, &want_s);
    }
    resol_sec_t *X = NULL;
    if (rc == CLI_OK)
        rc = kept_lift(o, opt, R, M, &X);
    FILE *f = rc == CLI_OK ? open_output(o, o->from, NULL, &rc) : NULL;
    if (f) {
        int w = sq_chart_write_page(f, R, X, (int)o->page, d2, fmt == 1, fdmod_name(M),
                                    fdmod_bottom(M), (int32_t)stem, (int32_t)out_s);
        rc = finish_file(o, f, w);
    }
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
    return rc;
}

/* adams chart --d2 / --page 3: the next page (cmd_d2.c prepares and lifts;
 * sq_chart_e3.h draws). */
static int chart_page(const cli_opts_t *o)
{
    int d2 = cli_given(o, CLI_OPT_D2), fmt = chart_format(o);
    const char *opt = d2 ? "--d2" : "--page 3";
    const char *why = o->page == 3 && d2   ? "--d2 draws on the E2 page; omit one of them"
                      : fmt == 2           ? "--format html: the page holds the E2 data only"
                      : cli_given(o, CLI_OPT_GPU) ? "--gpu: the secondary lift runs on the CPU"
                                           : NULL;
    if (why) {
        cli_error("chart: %s: %s", opt, why);
        return CLI_USAGE;
    }
    if (o->from)
        return chart_page_from(o, d2, fmt);
    cli_run_t r;
    int32_t out_s = 0;
    int rc = cli_d2_prepare(&r, o, o->page == 3 ? 1 : 0, o->page == 3 ? 2 : 0, &out_s);
    FILE *f = rc == CLI_OK ? open_output(o, r.ref.path, NULL, &rc) : NULL;
    if (f) {
        resol_t *R = cli_run_resolve(&r);
        resol_sec_t *X = cli_d2_lift(&r, R, &rc);
        if (X) {
            int w = sq_chart_write_page(f, R, X, (int)o->page, d2, fmt == 1, fdmod_name(r.M),
                                        fdmod_bottom(r.M), (int32_t)o->stem, out_s);
            rc = finish_file(o, f, w);
            f = NULL;
        }
        if (f && f != stdout)
            fclose(f);
        resol_sec_free(X);
        resol_free(R);
    }
    cli_run_release(&r);
    return rc;
}

int cmd_chart(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &chart_verb, argc, argv, &rc))
        return rc;
    if (o.page == 3 || cli_given(&o, CLI_OPT_D2))
        return chart_page(&o);
    return o.from ? chart_from_store(&o) : chart_computed(&o);
}
