/*
 * cmd_d2.c -- `adams d2`: the Adams d_2 in the peer's line format
 * (printing only: the options are cli_opts.c's, the run cli_run.c's, the
 * mathematics src/resolution/resol_secondary.c's; docs/secondary.md).
 */
#include "cmd_d2.h"

#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "cli_from.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "cmd_store.h"
#include "fdmod.h"
#include "milnor.h"
#include "resol.h"
#include "resol_secondary.h"
#include "sq_chart.h"
#include "sq_moddef.h"
#include "sq_store.h"
#include "sq_store_secondary.h"
#include "sq_secondary.h"

static const char d2_usage[] =
    "Usage: adams d2 [MODULE] --stem N [--max-s S] [options]\n"
    "\n"
    "The Adams d_2 differential, from the minimal resolution lifted to the secondary\n"
    "Steenrod algebra (docs/secondary.md), one line per class in the format and order\n"
    "of the peer's `secondary`:\n"
    "    d_2 x_(n, s, i) = [v]\n"
    "v is d_2 x_(n, s, i) in the basis of Ext at (n - 1, s + 2); lines whose target is\n"
    "zero-dimensional are left out; sources at s = 0 have no lines; order: the target's\n"
    "stem, then its s, then i.  Sources run through stem N, targets through\n"
    "filtration S.\n"
    "\n"
    "p = 2 only, for a finite module over the whole algebra that meets the peer's\n"
    "condition (Ext^{2,t+1} = 0 wherever M_t != 0 below the top cell, or the same with\n"
    "Ext^{3,t+1}); anything else is refused in one line naming the condition.\n"
    "\n"
    "Options: --stem N, --max-s S (default (N - bottom)/2 + 3 + span), --algorithm\n"
    "auto|nassau|classical, --threads K, --progress, --quiet, --max-memory SIZE,\n"
    "-h/--help (as for 'adams resolve'); --save FILE keeps the resolution and the\n"
    "secondary lift in a store (the same command resumes after a kill and extends to a\n"
    "larger stem; docs/save-format.md); --from FILE reads them from a store (adams\n"
    "resolve --save or adams d2 --save) instead of computing them.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument or a module refused, 3 the\n"
    "region does not fit in memory, 4 the threads cannot be started.\n";

static const cli_verb_t d2_verb = {
    "d2", d2_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_ALGO) |
        CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) | CLI_BIT(CLI_OPT_QUIET) |
        CLI_BIT(CLI_OPT_MAXMEM) | CLI_BIT(CLI_OPT_FROM) | CLI_BIT(CLI_OPT_SAVE),
    NULL, "module"};

/* Refuses (one line, CLI_USAGE) the kinds the d_2 is not computed for. */
static int refuse_kind(const cli_run_t *r)
{
    const char *verb = r->o->verb->name;
    static const cli_kind_t no[] = {CLI_KIND_COFIBER, CLI_KIND_ODD, CLI_KIND_PRESENTED,
                                    CLI_KIND_PROJECTIVE, CLI_KIND_PROFILE,
                                    CLI_KIND_INF_PROFILE};
    static const char *const why[] = {
        "its Ext comes from two resolutions",
        "the secondary Steenrod algebra is implemented at p = 2 only",
        "the d_2 needs a finite module (the peer's condition)",
        "the d_2 needs a finite module (the peer's condition)",
        "the d_2 needs a module over the whole Steenrod algebra, not a subalgebra",
        "the d_2 needs a module over the whole Steenrod algebra, not a subalgebra"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if ((r->kinds >> no[i]) & 1u) {
            cli_error("%s: %s is %s: %s", verb, cli_str(r->ref.base),
                      cli_kind_words(no[i], r->prime), why[i]);
            return CLI_USAGE;
        }
    return CLI_OK;
}

/* The progress line's state: whether to show it, the resolution lifted
 * (for the rows' work model; NULL: no ETA), the wall clock at the start
 * of the lift and at the last row reported, the rows timed so far (their
 * work and wall clock; rows a store kept, read at once, left out), and the
 * work of the rows not reported yet (< 0: not summed yet). */
typedef struct {
    int show, width; /* width: the longest line drawn, so a shorter one covers it */
    const resol_t *R;
    double t0, tlast, work_timed, wall_timed, work_left;
} prog_t;

/* Writes t seconds as m:ss, or h:mm:ss from an hour, into buf. */
static void clock_text(char *buf, size_t n, double t)
{
    long v = (long)(t + 0.5);
    if (v >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", v / 3600, v / 60 % 60, v % 60);
    else
        snprintf(buf, n, "%ld:%02ld", v / 60, v % 60);
}

/* The state of a lift of R (NULL: not known yet) starting now. */
static prog_t prog_start(int show, const resol_t *R)
{
    double now = sq_wtime();
    prog_t p = {show, 0, R, now, now, 0, 0, -1};
    return p;
}

/* The wall clock the rows not reported yet are expected to take, from
 * the rows timed so far and resol_sec_row_work; < 0 when there is nothing
 * to go by. */
static double prog_eta(const prog_t *p)
{
    if (!p->R || p->work_timed <= 0)
        return -1;
    return p->work_left * p->wall_timed / p->work_timed;
}

/* After row s of 3 .. max_s: "d2: row s of max_s, E elapsed, about L
 * left (row s: R)", the wall clock since the lift started (the rows a
 * store kept count as instant), the ETA (prog_eta; left out until a row
 * has been timed) and the row's own, redrawn in place.  A row is timed
 * when it took 0.05 s or more (a kept row is read in less). */
static void progress(void *ctx, int32_t s, int32_t max_s)
{
    prog_t *p = ctx;
    double now = sq_wtime(), took = now - p->tlast;
    p->tlast = now;
    if (!p->show)
        return;
    if (p->R) {
        if (p->work_left < 0) { /* the rows' work summed once */
            p->work_left = 0;
            for (int32_t r = s; r <= max_s; r++)
                p->work_left += resol_sec_row_work(p->R, r);
        }
        double w = resol_sec_row_work(p->R, s);
        p->work_left -= w;
        if (took >= 0.05) {
            p->work_timed += w;
            p->wall_timed += took;
        }
    }
    char el[32], row[32], left[48] = "";
    clock_text(el, sizeof el, now - p->t0);
    clock_text(row, sizeof row, took);
    double eta = s < max_s ? prog_eta(p) : -1;
    if (eta >= 0) {
        char c[32];
        clock_text(c, sizeof c, eta);
        snprintf(left, sizeof left, ", about %s left", c);
    }
    char line[192];
    int n = snprintf(line, sizeof line, "d2: row %d of %d, %s elapsed%s (row %d: %s)", (int)s,
                     (int)max_s, el, left, (int)s, row);
    if (n > p->width)
        p->width = n;
    fprintf(stderr, "\r%-*s%s", p->width, line, s == max_s ? "\n" : "");
}

/* Lifts R (with the rows keep holds, NULL: none) and prints its d_2
 * through (stem, max_s); the exit code. */
static int run(const resol_t *R, const fdmod_t *M, sq_pool_t *pool, int show, int32_t stem,
               int32_t max_s, const resol_sec_keep_t *keep)
{
    resol_sec_t *X = NULL;
    char err[512];
    prog_t p = prog_start(show, R);
    int rc = resol_sec_new_kept(&X, R, pool, keep, progress, &p, err, sizeof err);
    if (rc == SQ_E_INVAL) {
        cli_error("d2: %s: %s", cli_str(fdmod_name(M)), err);
        return CLI_USAGE;
    }
    if (rc != 0) {
        cli_error("d2: %s", err);
        return CLI_FAIL;
    }
    int w = sq_d2_write(stdout, R, X, stem, max_s);
    resol_sec_free(X);
    return cli_finish_output(w);
}

/* Whether the store at path holds a module truncated from an infinite one
 * (its identity is the definition, sq_moddef.h). */
static int store_truncated(const char *path)
{
    sq_store_t *st = NULL;
    char err[256];
    if (sq_store_open_read(&st, path, err, sizeof err) != 0)
        return 0; /* cli_from_prepare has said why */
    const char *text = sq_store_stored_module_text(st);
    int t = text && sq_moddef_is(text);
    sq_store_close(st);
    return t;
}

static int run_from(const cli_opts_t *o)
{
    if (store_truncated(o->from)) {
        cli_error("d2: --from: the module of the store %s is truncated from an infinite one: the "
                  "d_2 needs a finite module (the peer's condition)",
                  cli_str(o->from));
        return CLI_USAGE;
    }
    resol_t *R = NULL;
    fdmod_t *M = NULL;
    int64_t stem = 0, max_s = 0;
    int rc = cli_from_prepare(o, o->operand, CLI_FROM_COMPUTES, &R, &M, &stem, &max_s);
    if (rc != CLI_OK)
        return rc;
    sq_pool_t *pool = NULL;
    sq_store_t *st = NULL;
    sq_store_sec_t *K = NULL;
    char err[512];
    if (sq_store_open_read(&st, o->from, err, sizeof err) != 0 ||
        sq_store_sec_attach(&K, st, R, 0, err, sizeof err) != 0) {
        cli_error("d2: %s", err);
        rc = CLI_FAIL;
    } else if (o->threads > 1 && sq_pool_create(&pool, (int)o->threads) != 0) {
        cli_error("d2: the %lld threads could not be started", (long long)o->threads);
        rc = CLI_NOTHREAD;
    } else {
        resol_sec_keep_t keep = sq_store_sec_keep(K); /* the kept rows; the rest computed */
        rc = run(R, M, pool, o->progress > 0, (int32_t)stem, (int32_t)max_s, &keep);
    }
    sq_store_sec_detach(K);
    sq_store_close(st);
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
    return rc;
}

/* Prepares the run of o on spec for the d_2 through (stem, max_s) (max_s
 * < 0: the default): the kind refused (one line) before anything is said,
 * then the region widened to what the d_2 reads -- extra_n stems and
 * extra_s filtrations more, filtration 3 and stem top - 1 at least (the
 * condition) -- and prepared again when it grew.  *out_s is the filtration
 * asked (or the default).  The caller releases r either way. */
static int prepare(cli_run_t *r, const cli_opts_t *o, int64_t stem, int64_t max_s, int extra_n,
                   int extra_s, int32_t *out_s)
{
    const char *spec = o->operand ? o->operand : "S_2";
    int rc = cli_run_prepare(r, o, spec, stem, max_s, CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = refuse_kind(r);
    if (rc != CLI_OK)
        return rc;
    *out_s = r->max_s;
    int64_t want_s = (int64_t)r->max_s + extra_s, want_n = stem + extra_n;
    if (want_s < 3)
        want_s = 3;
    if (fdmod_top(r->M) - 1 > want_n)
        want_n = fdmod_top(r->M) - 1;
    if (want_s != r->max_s || want_n != stem) {
        cli_run_release(r);
        rc = cli_run_prepare(r, o, spec, want_n, want_s, CLI_RUN_NO_NOTES);
    }
    if (rc == CLI_OK)
        cli_run_notes(r, 1);
    return rc;
}

/* The primary resolution and the secondary lift of r kept in the store
 * o->save (created, resumed or extended), on SIGINT/SIGTERM stopped after
 * the row in flight is committed.  CLI_OK with *R and *X (the caller
 * frees both), or the exit code after one line. */
static int lift_saved(cli_run_t *r, resol_t **R, resol_sec_t **X)
{
    const cli_opts_t *o = r->o;
    const char *verb = o->verb->name, *path = o->save;
    resol_algo_t a = o->algo == RESOL_AUTO ? RESOL_AUTO : (resol_algo_t)r->algo;
    sq_store_t *st = NULL;
    *X = NULL;
    int rc = cli_store_resolve_open(R, &st, path, r->M, fdmod_name(r->M), NULL, &a, r->max_s,
                                    r->stem, r->pool, r->show, r->quiet, r->cache_budget, 0);
    if (rc != CLI_OK)
        return rc;
    char err[1024];
    sq_store_sec_t *K = NULL;
    int e = sq_store_sec_attach(&K, st, *R, 1, err, sizeof err);
    if (e == 0 && sq_store_signals_install(*R) != 0)
        e = (snprintf(err, sizeof err, "cannot handle signals for the run saved in %s", path),
             SQ_E_IO);
    if (e == 0) {
        resol_sec_keep_t keep = sq_store_sec_keep(K);
        prog_t p = prog_start(r->show, *R);
        e = resol_sec_new_kept(X, *R, r->pool, &keep, progress, &p, err, sizeof err);
        int sig = sq_store_signals_caught();
        sq_store_signals_restore();
        sq_store_sec_stats_t ss;
        sq_store_sec_stats(K, &ss);
        if (!r->quiet && ss.gens_loaded > 0)
            cli_note("%s: the secondary lift resumed from %s: %lld rows whole, %lld generators "
                     "read, %lld computed",
                     verb, path, (long long)ss.rows_whole, (long long)ss.gens_loaded,
                     (long long)ss.gens_computed);
        if (e == 1) {
            cli_error("interrupted: %lld rows of the secondary lift are saved in %s; run the "
                      "same command again to resume",
                      (long long)(ss.rows_saved + ss.rows_whole), path);
            rc = 128 + (sig ? sig : 2);
        }
    }
    if (e < 0) {
        cli_error("%s: %s", verb, err);
        if (e == SQ_STORE_E_DAMAGED)
            cli_error("run 'adams check %s' to see what is damaged", path);
        rc = e == SQ_E_INVAL ? CLI_USAGE : CLI_FAIL;
    }
    sq_store_sec_detach(K);
    sq_store_close(st);
    if (rc != CLI_OK) {
        resol_sec_free(*X);
        resol_free(*R);
        *X = NULL;
        *R = NULL;
    }
    return rc;
}

int cmd_d2(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &d2_verb, argc, argv, &rc))
        return rc;
    if (o.from && o.save) {
        cli_error("d2: --save and --from: --from reads a store, --save writes one (the same "
                  "file resumes with --save alone); omit one of them");
        return CLI_USAGE;
    }
    if (o.from)
        return run_from(&o);
    if (!cli_given(&o, CLI_OPT_STEM)) {
        cli_error("d2: --stem is required");
        return CLI_USAGE;
    }
    cli_run_t r;
    int32_t out_s = 0;
    rc = prepare(&r, &o, o.stem, cli_given(&o, CLI_OPT_MAXS) ? o.max_s : -1, 0, 0, &out_s);
    if (rc == CLI_OK && o.save) {
        resol_t *R = NULL;
        resol_sec_t *X = NULL;
        rc = lift_saved(&r, &R, &X);
        if (rc == CLI_OK)
            rc = cli_finish_output(sq_d2_write(stdout, R, X, (int32_t)o.stem, out_s));
        resol_sec_free(X);
        resol_free(R);
    } else if (rc == CLI_OK) {
        resol_t *R = cli_run_resolve(&r);
        rc = run(R, r.M, r.pool, r.show, (int32_t)o.stem, out_s, NULL);
        resol_free(R);
    }
    cli_run_release(&r);
    return rc;
}

/* ---- resolve --page 3 ---------------------------------------------------------- */

static int64_t e3_dim(const void *X, int32_t s, int32_t n)
{
    return resol_sec_e3_dim((const resol_sec_t *)X, s, n);
}

int cli_resolve_page3(const cli_opts_t *o)
{
    static const cli_opt_t no[] = {CLI_OPT_COEFF, CLI_OPT_MPI, CLI_OPT_GPU};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (cli_given(o, no[i])) {
            cli_error("resolve: --page 3: %s: the E_3 page is computed from one fresh "
                      "resolution of the module; omit one of them",
                      cli_opt_name(no[i]));
            return CLI_USAGE;
        }
    if (o->format == 2) {
        cli_error("resolve: --page 3: --format differentials: the differentials are the "
                  "resolution's, of the E_2 page; omit one of them");
        return CLI_USAGE;
    }
    cli_run_t r;
    int32_t out_s = 0;
    /* E_3 at (n, s) reads d_2 from (n + 1, s - 2) and into (n - 1, s + 2) */
    int rc = prepare(&r, o, o->stem, cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1, 1, 2, &out_s);
    if (rc == CLI_OK) {
        resol_t *R = NULL;
        resol_sec_t *X = NULL;
        char err[512];
        prog_t p = prog_start(r.show, NULL);
        if (o->save) /* kept in the store as d2 --save keeps it */
            rc = lift_saved(&r, &R, &X);
        else {
            R = cli_run_resolve(&r);
            p.R = R;
            rc = resol_sec_new(&X, R, r.pool, progress, &p, err, sizeof err);
        }
        if (rc != 0 && o->save) {
            /* lift_saved has said why */
        } else if (rc != 0) {
            cli_error("resolve: --page 3: %s: %s", cli_str(fdmod_name(r.M)), err);
            rc = rc == SQ_E_INVAL ? CLI_USAGE : CLI_FAIL;
        } else {
            int32_t lo = fdmod_bottom(r.M), hi = (int32_t)o->stem;
            int w = o->format == 1 ? sq_chart_write_csv_fn(stdout, e3_dim, X, lo, hi, out_s)
                                   : sq_chart_write_dots_fn(stdout, e3_dim, X, lo, hi, out_s);
            rc = cli_finish_output(w);
        }
        resol_sec_free(X);
        resol_free(R);
    }
    cli_run_release(&r);
    return rc;
}

/* ---- chart --d2, chart --page 3 ---------------------------------------------------- */

int cli_d2_prepare(cli_run_t *r, const cli_opts_t *o, int extra_n, int extra_s, int32_t *out_s)
{
    return prepare(r, o, o->stem, cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1, extra_n, extra_s,
                   out_s);
}

resol_sec_t *cli_d2_lift(const cli_run_t *r, const resol_t *R, int *rc)
{
    resol_sec_t *X = NULL;
    char err[512];
    prog_t p = prog_start(r->show, R);
    int e = resol_sec_new(&X, R, r->pool, progress, &p, err, sizeof err);
    if (e != 0) {
        cli_error("%s: %s: %s", r->o->verb->name, cli_str(fdmod_name(r->M)), err);
        *rc = e == SQ_E_INVAL ? CLI_USAGE : CLI_FAIL;
        return NULL;
    }
    *rc = CLI_OK;
    return X;
}
