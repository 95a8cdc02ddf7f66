/*
 * cmd_resolve.c -- `adams resolve`: printing only (the options are
 * cli_opts.c's, the checks before the run cli_run.c's).
 */
#define _POSIX_C_SOURCE 200809L /* access */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_opts.h"
#include "cli_from.h"
#include "cli_mpi.h"
#include "cli_run.h"
#include "cli_unstable.h"
#include "cmd_d2.h"
#include "cmd_store.h"
#include "fdmod.h"
#include "resol.h"
#include "resol_cofiber.h"
#include "resol_extmn.h"
#include "sq_chart.h"
#include "sq_core.h"
#include "sq_differentials.h"
#include "sq_store.h"

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
    "  S^n                  the unstable sphere: Ext in the category of unstable\n"
    "                       modules of Sigma^n F_2, the unstable Adams E2 page of\n"
    "                       S^n (docs/unstable.md); stems are t - s, from n\n"
    "\n"
    "Options:\n"
    "  --stem N             largest stem (default 40)\n"
    "  --max-s S            largest filtration (default: N/(2p - 2) + 3 plus the\n"
    "                       module's span -- N/2 + 3 at p = 2 --, which shows every\n"
    "                       nonzero group of stems <= N except the continuation of\n"
    "                       the h_0-tower (a_0 at odd p); the choice is reported on\n"
    "                       stderr)\n"
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
    "  --coefficients N     print Ext(MODULE, N) for a finite module N at the same\n"
    "                       prime and profile (the E2 page of [N, MODULE]: stem n\n"
    "                       = t - s, from MODULE's resolution through stem\n"
    "                       n + 1 + top(N); N = S_2 gives Ext(MODULE)); chart and\n"
    "                       csv only, not with --save (docs/resolution.md)\n"
    "  --page R             2 (default): the E2 page; 3: the E3 page of the Adams\n"
    "                       spectral sequence at p = 2 (Ext less the d_2, docs/\n"
    "                       secondary.md), chart or csv; resolved one stem and two\n"
    "                       filtrations further; modules as for 'adams d2'\n"
    "  --unstable           resolve MODULE in the category of unstable modules\n"
    "                       (every prime: S_3[7] --unstable; a module that is not\n"
    "                       unstable is refused);\n"
    "                       chart and csv, classical engine; --save keeps it in a\n"
    "                       store of its own kind (format 4)\n"
    "  --gpu                offload large matrix builds and reductions to a CUDA GPU\n"
    "                       (a build with CUDA and a device; otherwise one line says\n"
    "                       so and the run stays on the CPU; docs/gpu.md)\n"
    "  --mpi                run over the ranks of mpirun/srun: rank 0 schedules,\n"
    "                       saves and prints, the others compute the steps with\n"
    "                       --threads each; the same bytes (a build with MPI;\n"
    "                       docs/mpi.md)\n"
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

static const char *const resolve_formats[] = {"chart", "csv", "differentials", NULL};

static const cli_verb_t resolve_verb = {
    "resolve", resolve_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_FORMAT) |
        CLI_BIT(CLI_OPT_ALGO) | CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |
        CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM) | CLI_BIT(CLI_OPT_GPU) |
        CLI_BIT(CLI_OPT_SAVE) | CLI_BIT(CLI_OPT_COEFF) | CLI_BIT(CLI_OPT_MPI) |
        CLI_BIT(CLI_OPT_UNSTABLE) |
        CLI_BIT(CLI_OPT_PAGE),
    resolve_formats, "module"};

/* The --format value that prints the differentials (resolve_formats). */
enum { FORMAT_DIFFERENTIALS = 2 };

/* Writes the chart (or CSV) of ext through r's region to stdout; the exit
 * code (cli_finish_output). */
static int write_chart(const cli_run_t *r, sq_ext_fn ext, const void *ctx)
{
    int rc = r->o->format == 1
                 ? sq_chart_write_csv_fn(stdout, ext, ctx, r->bottom, r->stem, r->max_s)
                 : sq_chart_write_dots_fn(stdout, ext, ctx, r->bottom, r->stem, r->max_s);
    return cli_finish_output(rc);
}

static int64_t resol_ext(const void *R, int32_t s, int32_t n)
{
    return resol_ext_dim((const resol_t *)R, s, n);
}

/* What r's --format asks of the resolution R: its chart, its CSV or its
 * differentials; the exit code. */
static int write_resol(const cli_run_t *r, const resol_t *R)
{
    if (r->o->format == FORMAT_DIFFERENTIALS)
        return cli_finish_output(sq_differentials_write(stdout, R, r->bottom, r->stem, r->max_s));
    return write_chart(r, resol_ext, R);
}

static int64_t cofiber_ext(const void *C, int32_t s, int32_t n)
{
    return resol_cofiber_ext_dim((const resol_cofiber_t *)C, s, n);
}

/* Resolves the cofiber of the class the file names and prints its chart. */
static int run_cofiber(const cli_run_t *r)
{
    char err[1024];
    const sq_modspec_info_t *in = &r->info;
    resol_cofiber_t *C;
    if (resol_cofiber_new(&C, r->M, in->cof_s, in->cof_t, in->cof_idx, in->cof_target, r->max_s,
                          r->stem, r->pool, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    cli_run_notes(r, 1);
    int rc = write_chart(r, cofiber_ext, C);
    resol_cofiber_free(C);
    return rc;
}

/* An existing store bound to the classical engine asked to extend far:
 * the note of resol_estimate_engine_note (about how long, and how long a
 * fresh store with Nassau's algorithm would take), unless quiet. */
static void classical_store_note(const cli_run_t *r)
{
    char err[1024], note[512];
    sq_store_t *st;
    if (r->quiet || access(r->o->save, F_OK) != 0 ||
        sq_store_open_read(&st, r->o->save, err, sizeof err) != 0)
        return; /* a new store, or the saving run says what is wrong */
    resol_algo_t engine = sq_store_engine(st);
    sq_store_close(st);
    if (resol_estimate_engine_note(r->M, engine, r->max_s, r->stem, (int)r->o->threads, note,
                                   sizeof note))
        cli_note("%s", note);
}

/* adams resolve --save FILE: the run kept in a store (cmd_store.c does
 * the work and the messages), then its chart. */
static int run_saved(cli_run_t *r)
{
    const cli_opts_t *o = r->o;
    char *text = NULL;
    if (r->info.infinite && r->ref.tensor) {
        cli_error("resolve: --save: %s is a tensor product with an infinite factor, whose "
                  "truncation grows with the stem, which a store does not keep: write it with "
                  "'adams tensor --stem N -o FILE' and resolve the file",
                  cli_str(r->ref.base));
        return CLI_USAGE;
    }
    if (r->info.infinite) {
        text = cli_definition_text(&r->ref);
        if (!text) {
            cli_error("cannot read %s to identify the module in the store", cli_str(r->ref.path));
            return CLI_FAIL;
        }
    }
    cli_run_notes(r, 0);
    if (!r->unstable) /* an unstable run is classical, whatever the region */
        classical_store_note(r);
    resol_algo_t a = o->algo == RESOL_AUTO && !r->info.infinite && !r->unstable
                         ? RESOL_AUTO
                         : (resol_algo_t)r->algo;
    resol_t *R = NULL;
    int rc = cli_store_resolve(&R, o->save, r->M, fdmod_name(r->M), text, &a, r->max_s, r->stem,
                               r->pool, r->show, r->quiet, r->cache_budget, r->unstable);
    sq_free(text);
    if (rc != CLI_OK)
        return rc;
    if (o->algo == RESOL_AUTO && !r->quiet && !r->unstable)
        cli_note("engine: %s (the engine of the store %s)",
                 a == RESOL_NASSAU ? "nassau" : "classical", cli_str(o->save));
    /* The pool and the GPU are done with before the chart is written. */
    sq_pool_free(r->pool);
    r->pool = NULL;
    rc = write_resol(r, R);
    resol_free(R);
    return rc;
}

/* The plain run: resolve and print. */
static int run_plain(const cli_run_t *r)
{
    cli_run_notes(r, 1);
    resol_t *R = cli_run_resolve(r);
    /* Only a distributed run is ever stopped here (its signals, a rank's end). */
    int rc = resol_stop_requested(R) ? cli_mpi_stopped() : write_resol(r, R);
    resol_free(R);
    return rc;
}

static int64_t extmn_ext(const void *E, int32_t s, int32_t n)
{
    return resol_extmn_dim((const resol_extmn_t *)E, s, n);
}

/* The coefficients N of --coefficients: a finite module that is not a
 * cofiber (NULL after one line). */
static fdmod_t *open_coefficients(const cli_opts_t *o)
{
    cli_module_ref_t ref;
    sq_modspec_info_t info;
    int quiet = o->progress < 0;
    if (cli_find_module(o->coefficients, &ref, quiet))
        return NULL;
    fdmod_t *N = cli_open_module(&ref, 64, &info, quiet);
    if (N && (info.infinite || info.cofiber)) {
        cli_error("resolve: --coefficients: %s is %s: the coefficients must be a finite module",
                  cli_str(o->coefficients),
                  info.cofiber ? "the cofiber of a class" : "an infinite module");
        fdmod_free(N);
        return NULL;
    }
    return N;
}

/* The chart's filtration of Ext(M, N) from r's (the resolution's, one
 * more). */
static int run_coefficients_on(cli_run_t *r, const fdmod_t *N)
{
    char err[1024];
    if (resol_extmn_check(r->M, N, err, sizeof err)) {
        cli_error("resolve: --coefficients: %s", err);
        return CLI_USAGE;
    }
    int32_t max_s = r->max_s - 1, stem = (int32_t)r->o->stem;
    if (!r->quiet)
        cli_note("--coefficients: Ext(%s, %s) through stem %d, filtration %d, from the "
                 "resolution of %s through stem %d, filtration %d",
                 cli_str(r->ref.base), cli_str(r->o->coefficients), (int)stem, (int)max_s,
                 cli_str(r->ref.base), (int)r->stem, (int)r->max_s);
    resol_t *R = cli_run_resolve(r);
    resol_extmn_t *E = NULL;
    int rc = resol_extmn_new(&E, R, N, max_s, stem, 0, err, sizeof err);
    if (rc) {
        cli_error("resolve: --coefficients: %s", err);
        resol_free(R);
        return rc == SQ_E_NOMEM ? CLI_NOMEM : CLI_USAGE;
    }
    r->bottom = resol_extmn_min_n(E);
    r->stem = stem;
    r->max_s = max_s;
    rc = write_chart(r, extmn_ext, E);
    resol_extmn_free(E);
    resol_free(R);
    return rc;
}

/* adams resolve M --coefficients N: M resolved through the region Ext(M,
 * N) needs (resol_extmn_region), then Ext(M, N) charted. */
static int run_coefficients(const cli_opts_t *o)
{
    if (o->save || o->format == FORMAT_DIFFERENTIALS) {
        cli_error("resolve: %s: --coefficients prints Ext(M, N), computed from M's resolution "
                  "and not %s; omit one of them",
                  o->save ? "--save" : "--format differentials",
                  o->save ? "kept in a store" : "a resolution of its own");
        return CLI_USAGE;
    }
    fdmod_t *N = open_coefficients(o);
    if (!N)
        return CLI_USAGE;
    int32_t rs, rn;
    resol_extmn_region(N, 0, (int32_t)o->stem, &rs, &rn);
    int64_t stem = (int64_t)rn, max_s = cli_given(o, CLI_OPT_MAXS) ? o->max_s + 1 : -1;
    cli_run_t r;
    int rc = cli_run_prepare(&r, o, o->operand ? o->operand : "S_2", stem, max_s,
                             CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = run_coefficients_on(&r, N);
    cli_run_release(&r);
    fdmod_free(N);
    return rc;
}

/* The run of a prepared module: a cofiber, a saving run or a plain one. */
static int run_prepared(cli_run_t *r)
{
    if (r->info.cofiber && r->o->format == FORMAT_DIFFERENTIALS) {
        cli_error("resolve: --format differentials: %s is %s: its Ext comes from two "
                  "resolutions, whose differentials are not one resolution's",
                  cli_str(r->ref.base), cli_kind_words(CLI_KIND_COFIBER, r->prime));
        return CLI_USAGE;
    }
    if (r->info.cofiber)
        return run_cofiber(r);
    return r->o->save ? run_saved(r) : run_plain(r);
}

/* adams resolve S^n, or MODULE --unstable: the unstable resolution
 * (docs/unstable.md), charted as any other.  What it does not do is
 * refused with one line before anything is loaded. */
static int run_unstable(const cli_opts_t *o, const char *spec)
{
    const char *no = o->coefficients ? "--coefficients"
                     : o->format == FORMAT_DIFFERENTIALS ? "--format differentials"
                     : o->algo == RESOL_NASSAU ? "--algorithm nassau"
                     : cli_given(o, CLI_OPT_MPI) ? "--mpi" : NULL;
    if (no) {
        cli_error("resolve: %s: an unstable resolution (S^n, --unstable) is %s", no,
                  o->algo == RESOL_NASSAU ? "classical only (Nassau's algorithm is stable)"
                  : cli_given(o, CLI_OPT_MPI) ? "run on one machine"
                                              : "charted as dimensions only (chart, csv)");
        return CLI_USAGE;
    }
    cli_run_t r;
    int rc = cli_run_prepare(&r, o, spec, o->stem, cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1,
                             CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = cli_unstable_prepare(&r);
    if (rc == CLI_OK && o->save) {
        rc = run_saved(&r); /* a store of category unstable (docs/save-format.md) */
    } else if (rc == CLI_OK) {
        cli_run_notes(&r, 0);
        resol_t *R = cli_run_resolve(&r);
        rc = write_resol(&r, R);
        resol_free(R);
    }
    cli_run_release(&r);
    return rc;
}

/* S^n, or --unstable: run_unstable's exit code in *rc and 1; else 0. */
static int unstable_verb(const cli_opts_t *o, int *rc)
{
    char sphere[32];
    const char *spec = o->operand ? o->operand : "S_2";
    int us = cli_unstable_sphere("resolve", spec, sphere, sizeof sphere);
    if (us < 0) {
        *rc = CLI_USAGE;
        return 1;
    }
    if (!us && !cli_given(o, CLI_OPT_UNSTABLE))
        return 0;
    *rc = run_unstable(o, us ? sphere : spec);
    return 1;
}

int cmd_resolve(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &resolve_verb, argc, argv, &rc) || unstable_verb(&o, &rc))
        return rc;
    if (o.page == 3)
        return cli_resolve_page3(&o); /* the E_3 page: cmd_d2.c */
    if (cli_given(&o, CLI_OPT_MPI))
        return cli_mpi_resolve(&o, run_prepared);
    if (o.coefficients)
        return run_coefficients(&o);
    cli_run_t r;
    rc = cli_run_prepare(&r, &o, o.operand ? o.operand : "S_2", o.stem,
                         cli_given(&o, CLI_OPT_MAXS) ? o.max_s : -1, CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = run_prepared(&r);
    cli_run_release(&r);
    return rc;
}
