/*
 * cmd_sq0.c -- `adams sq0`: printing only (the options are cli_opts.c's, the
 * run cli_run.c's, the mathematics src/resolution/resol_sq0.c's).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd_sq0.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_class.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "fdmod.h"
#include "fmat.h"
#include "milnor.h"
#include "resol.h"
#include "resol_sq0.h"
#include "resol_steenrod.h"
#include "resol_yoneda.h"
#include "sq_core.h"

static const char sq0_usage[] =
    "Usage: adams sq0 [S_2] [--stem N] [--max-s S] [options]\n"
    "\n"
    "Resolves the sphere S_2 through stem N and filtration S and prints the algebraic\n"
    "Steenrod operation Sq^0 : Ext^{s,t} -> Ext^{s,2t} on every class whose image\n"
    "lies in the region (2n + s <= N), one line each in the format of the peer's sq0:\n"
    "    Sq^0 x_(n, s, i) = [v]\n"
    "v is Sq^0 x_(n, s, i) in the basis of Ext at (2n + s, s) ([] where it is zero-\n"
    "dimensional); order: stems, then s, then i.  Sq^0 h_i = h_{i+1}; it is the map\n"
    "induced by the doubling (Frobenius) chain map (docs/steenrod.md).\n"
    "\n"
    "Options: --stem N (default 40), --max-s S (default N/2 + 3), --algorithm\n"
    "auto|nassau|classical, --threads K, --progress, --quiet, --max-memory SIZE,\n"
    "-h/--help (as for 'adams resolve').  A module other than S_2 is refused.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument, 3 the region does not\n"
    "fit in memory, 4 the threads cannot be started.\n";

static const char steenrod_usage[] =
    "Usage: adams steenrod [S_2] [--stem N] [--max-s S] [--class N,S,V] [options]\n"
    "\n"
    "The algebraic Steenrod operations Sq^j : Ext^{s,t} -> Ext^{s+j,2t}, 0 <= j <= s,\n"
    "on Ext of the sphere S_2, one line each in the format of the peer's steenrod:\n"
    "    Sq^j x = [v]\n"
    "x a basis class x_(n, s, i) (or a sum of them), v in the basis of Ext at\n"
    "(2n + s - j, s + j); lines for j = s down to 0 (Sq^s x = x^2, Sq^0 the doubling of\n"
    "'adams sq0').  With --class N,S,V (V a vector [v0,...] over the basis of Ext at\n"
    "(N, S), or an index I): that class only, S_2 resolved through stem 2(N + S) and\n"
    "filtration 2S.  Without it: every basis class whose operations lie in the region\n"
    "--stem N, --max-s S (2(n + s) <= N, 2s <= S); order: stems, then s, then i.\n"
    "Computed by Steenrod's cup-i maps on the minimal resolution (docs/steenrod.md).\n"
    "\n"
    "Options: --stem N (default 40), --max-s S (default N/2 + 3), --class N,S,V,\n"
    "--algorithm auto|nassau|classical, --threads K, --progress, --quiet,\n"
    "--max-memory SIZE, -h/--help (as for 'adams resolve').  A module other than S_2\n"
    "is refused.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument, 3 the region does not\n"
    "fit in memory, 4 the threads cannot be started.\n";

static const cli_verb_t steenrod_verb = {
    "steenrod", steenrod_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_CLASS) |
        CLI_BIT(CLI_OPT_ALGO) | CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |
        CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM),
    NULL, "module"};

static const cli_verb_t sq0_verb = {
    "sq0", sq0_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_ALGO) |
        CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) | CLI_BIT(CLI_OPT_QUIET) |
        CLI_BIT(CLI_OPT_MAXMEM),
    NULL, "module"};

int cli_require_sphere2(const cli_run_t *r)
{
    int32_t h[MILNOR_MAX_LEN];
    static const cli_kind_t order[] = {CLI_KIND_COFIBER, CLI_KIND_ODD, CLI_KIND_INF_PROFILE,
                                       CLI_KIND_PROFILE, CLI_KIND_PRESENTED, CLI_KIND_PROJECTIVE};
    int sphere = r->prime == 2 && !(r->kinds & CLI_BIT(CLI_KIND_COFIBER)) &&
                 fdmod_profile(r->M, h) == 0 && fdmod_bottom(r->M) == 0 &&
                 fdmod_top(r->M) == 0 && fdmod_dim(r->M, 0) == 1;
    if (sphere)
        return CLI_OK;
    const char *what = cli_kind_words(CLI_KIND_FINITE, r->prime);
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (r->kinds & CLI_BIT(order[i])) {
            what = cli_kind_words(order[i], r->prime);
            break;
        }
    cli_error("%s: %s is %s, not the sphere S_2: the operation is computed on Ext of S_2 only",
              r->o->verb->name, cli_str(r->ref.base), what);
    return CLI_USAGE;
}

/* Prints Sq^0 of every class of R whose image is computed; the exit code. */
static int print_sq0(const resol_t *R, const resol_sq0_t *Q, int32_t stem, int32_t max_s)
{
    for (int32_t n = 0; n <= stem; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            if (resol_ext_dim(R, s, n) <= 0)
                continue;
            fmat_t m;
            if (resol_sq0_matrix(Q, s, n, &m) != 0)
                continue; /* the image is outside the region */
            for (int64_t i = 0; i < fmat_rows(&m); i++) {
                printf("Sq^0 x_(%d, %d, %lld) = [", (int)n, (int)s, (long long)i);
                for (int64_t j = 0; j < fmat_cols(&m); j++)
                    printf(j ? ", %u" : "%u", (unsigned)fmat_get(&m, i, j));
                printf("]\n");
            }
            fmat_clear(&m);
        }
    return cli_finish_stdout();
}

void cli_sphere2_progress(const cli_run_t *r, const char *what, int64_t i, int64_t n)
{
    if (!r->show)
        return;
    if (i >= n)
        fprintf(stderr, "\r\033[K");
    else
        fprintf(stderr, "\r\033[Kadams: %s: %s %lld of %lld", r->o->verb->name, what,
                (long long)i + 1, (long long)n);
    fflush(stderr);
}

int cli_sphere2_prepare(cli_run_t *r, const cli_opts_t *o, int64_t stem, int64_t max_s)
{
    int rc = cli_run_prepare(r, o, o->operand ? o->operand : "S_2", stem, max_s,
                             CLI_RUN_QUIET | CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = cli_require_sphere2(r);
    if (rc != CLI_OK)
        return rc;
    r->quiet = o->progress < 0; /* the module is S_2: its notes and progress line as usual */
    r->show = !r->quiet && (o->progress > 0 || (o->progress == 0 && isatty(STDERR_FILENO)));
    cli_run_notes(r, 1);
    return CLI_OK;
}

int cli_sphere2_verb(const cli_verb_t *verb, int argc, char **argv, int (*body)(cli_run_t *r))
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, verb, argc, argv, &rc))
        return rc;
    cli_run_t r;
    rc = cli_sphere2_prepare(&r, &o, o.stem, cli_given(&o, CLI_OPT_MAXS) ? o.max_s : -1);
    if (rc == CLI_OK)
        rc = body(&r);
    cli_run_release(&r);
    return rc;
}

static int run_sq0(cli_run_t *r)
{
    int rc;
    resol_t *R = cli_run_resolve(r);
    resol_sq0_t *Q = NULL;
    if (resol_sq0_new(&Q, R) != 0) {
        cli_error("sq0: a lift failed (a bug: please report)");
        resol_free(R);
        return CLI_FAIL;
    }
    rc = print_sq0(R, Q, r->stem, r->max_s);
    resol_sq0_free(Q);
    resol_free(R);
    return rc;
}

int cmd_sq0(int argc, char **argv)
{
    return cli_sphere2_verb(&sq0_verb, argc, argv, run_sq0);
}

/* ---- adams steenrod ----------------------------------------------------------- */

/* The largest stem and filtration of --class (the sphere is resolved
 * through stem 2(N + S), filtration 2S). */
#define STEENROD_MAX_N 100
#define STEENROD_MAX_S 30

/* --class, parsed by cli_class.c, within steenrod's limits; returns 0 or
 * CLI_USAGE after one line. */
static int parse_sclass(const char *text, cli_class_t *c)
{
    if (cli_class_parse("--class", text, c) != 0)
        return CLI_USAGE;
    if (c->n > STEENROD_MAX_N || c->s > STEENROD_MAX_S) {
        cli_error("--class: (%d, %d): steenrod takes stems <= %d and filtrations <= %d (S_2 is "
                  "resolved through stem 2(N + S) and filtration 2S + 1)",
                  (int)c->n, (int)c->s, STEENROD_MAX_N, STEENROD_MAX_S);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The vector of c over the dim basis classes at its bidegree (c->vec, at
 * p = 2).  Returns 0 or CLI_USAGE after one line. */
static int sclass_vector(cli_class_t *c, int64_t dim)
{
    if (dim <= 0) {
        cli_error("--class: Ext of S_2 at (%d, %d) is zero: there is no class there", (int)c->n,
                  (int)c->s);
        return CLI_USAGE;
    }
    return cli_class_vector("--class", c, dim, 2, "Ext of S_2", "S_2") ? CLI_USAGE : CLI_OK;
}

/* "x_(n, s, i) + ..." for the nonzero entries of x. */
static void print_class(fvec_t x, int32_t n, int32_t s)
{
    int first = 1;
    for (int64_t i = 0; i < x.len; i++)
        if (fvec_get(x, i)) {
            printf("%sx_(%d, %d, %lld)", first ? "" : " + ", (int)n, (int)s, (long long)i);
            first = 0;
        }
}

/* Prints Sq^j x for j = s .. 0. */
static void print_ops(const resol_t *R, const resol_steenrod_t *Q, int32_t n, int32_t s, fvec_t x)
{
    for (int32_t j = s; j >= 0; j--) {
        int64_t d = resol_ext_dim(R, s + j, 2 * n + s - j);
        fvec_t v;
        fvec_init(&v, d > 0 ? d : 0, 2);
        if (resol_steenrod_apply(Q, j, x, v) != 0)
            SQ_CHECK(0, "steenrod: apply (%d, %d)", (int)n, (int)s);
        printf("Sq^%d ", (int)j);
        print_class(x, n, s);
        printf(" = [");
        for (int64_t i = 0; i < v.len; i++)
            printf(i ? ", %u" : "%u", (unsigned)fvec_get(v, i));
        printf("]\n");
        fvec_clear(&v);
    }
}

/* The operations on every basis class of (n, s); CLI_FAIL after a line. */
/* The memory limit of the operations: --max-memory, else what is available. */
static double steenrod_limit(const cli_run_t *r)
{
    return r->o->max_memory > 0 ? r->o->max_memory : sq_mem_available();
}

/* The one line of a bidegree whose operations cannot fit; CLI_NOMEM. */
static int steenrod_nomem(const cli_run_t *r, const resol_t *R, int32_t n, int32_t s)
{
    cli_error("steenrod: the operations on Ext at (%d, %d) need about %.3g GB of memory, more "
              "than the %.3g GB %s",
              (int)n, (int)s, resol_steenrod_estimate(R, s, n + s) / 1e9, steenrod_limit(r) / 1e9,
              r->o->max_memory > 0 ? "of --max-memory" : "available");
    return CLI_NOMEM;
}

/* Refuses (one line, CLI_NOMEM) the operations on (n, s) when no Yoneda
 * representative can be built for them (resol_yoneda_fits) and the
 * construction on F would exceed the limit: checked before anything is
 * printed. */
static int steenrod_fits(const cli_run_t *r, const resol_t *R, int32_t n, int32_t s)
{
    char err[256];
    if (s >= 1 && resol_yoneda_fits(resol_input(R), n + s, err, sizeof err))
        return CLI_OK;
    return resol_steenrod_estimate(R, s, n + s) <= steenrod_limit(r) ? CLI_OK
                                                                     : steenrod_nomem(r, R, n, s);
}

/* The operations on every basis class of (n, s) (or on *only); the exit
 * code after a line on failure. */
static int steenrod_bidegree(const cli_run_t *r, const resol_t *R, int32_t n, int32_t s,
                             const fvec_t *only)
{
    resol_steenrod_t *Q = NULL;
    int rc = resol_steenrod_new_by(&Q, R, s, n + s, RESOL_STEENROD_AUTO, steenrod_limit(r));
    if (rc == SQ_E_NOMEM)
        return steenrod_nomem(r, R, n, s);
    if (rc != 0) {
        cli_error("steenrod: a lift failed at (%d, %d) (a bug: please report)", (int)n, (int)s);
        return CLI_FAIL;
    }
    if (only)
        print_ops(R, Q, n, s, *only);
    else
        for (int64_t i = 0; i < resol_ext_dim(R, s, n); i++) {
            fvec_t x;
            fvec_init(&x, resol_ext_dim(R, s, n), 2);
            fvec_set(x, i, 1);
            print_ops(R, Q, n, s, x);
            fvec_clear(&x);
        }
    resol_steenrod_free(Q);
    return CLI_OK;
}

static cli_class_t steenrod_class; /* --class, when given */

static int run_steenrod(cli_run_t *r)
{
    resol_t *R = cli_run_resolve(r);
    int rc = CLI_OK;
    if (cli_given(r->o, CLI_OPT_CLASS)) {
        cli_class_t *c = &steenrod_class;
        rc = sclass_vector(c, resol_ext_dim(R, c->s, c->n));
        if (rc == CLI_OK)
            rc = steenrod_fits(r, R, c->n, c->s);
        if (rc == CLI_OK)
            rc = steenrod_bidegree(r, R, c->n, c->s, &c->vec);
        cli_class_clear(c);
    } else {
        int64_t total = 0, done = 0;
        for (int pass = 0; pass < 2 && rc == CLI_OK; pass++) /* count and check, then compute */
            for (int32_t n = 0; 2 * n <= r->stem && rc == CLI_OK; n++)
                for (int32_t s = 0; 2 * (n + s) <= r->stem && 2 * s <= r->max_s && rc == CLI_OK;
                     s++)
                    if (resol_ext_dim(R, s, n) > 0 && !pass) {
                        total++;
                        rc = steenrod_fits(r, R, n, s); /* before anything is printed */
                    }
                    else if (resol_ext_dim(R, s, n) > 0) {
                        cli_sphere2_progress(r, "bidegree", done++, total);
                        rc = steenrod_bidegree(r, R, n, s, NULL);
                    }
        cli_sphere2_progress(r, "bidegree", total, total);
    }
    resol_free(R);
    return rc == CLI_OK ? cli_finish_stdout() : rc;
}

int cmd_steenrod(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &steenrod_verb, argc, argv, &rc))
        return rc;
    if (!cli_given(&o, CLI_OPT_CLASS))
        return cli_sphere2_verb(&steenrod_verb, argc, argv, run_steenrod);
    if (cli_given(&o, CLI_OPT_STEM) || cli_given(&o, CLI_OPT_MAXS)) {
        cli_error("steenrod: --class sets the region itself: give --stem and --max-s without it");
        return CLI_USAGE;
    }
    if ((rc = parse_sclass(o.cls[0], &steenrod_class)) != CLI_OK)
        return rc;
    const cli_class_t *c = &steenrod_class;
    cli_run_t r;
    rc = cli_sphere2_prepare(&r, &o, 2 * (c->n + c->s), 2 * c->s + 1);
    if (rc == CLI_OK)
        rc = run_steenrod(&r);
    cli_run_release(&r);
    return rc;
}
