/*
 * cmd_sq0.c -- `adams sq0`: printing only (the options are cli_opts.c's, the
 * run cli_run.c's, the mathematics src/resolution/resol_sq0.c's).
 */
#include "cmd_sq0.h"

#include <stdio.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "fdmod.h"
#include "fmat.h"
#include "milnor.h"
#include "resol.h"
#include "resol_sq0.h"

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

static const cli_verb_t sq0_verb = {
    "sq0", sq0_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_ALGO) |
        CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) | CLI_BIT(CLI_OPT_QUIET) |
        CLI_BIT(CLI_OPT_MAXMEM),
    NULL, "module"};

int cli_require_sphere2(const cli_run_t *r)
{
    const char *what = NULL;
    int32_t h[MILNOR_MAX_LEN];
    if (r->kinds & CLI_BIT(CLI_KIND_COFIBER))
        what = cli_kind_words(CLI_KIND_COFIBER, r->prime);
    else if (r->prime != 2)
        what = cli_kind_words(CLI_KIND_ODD, r->prime);
    else if (fdmod_profile(r->M, h) != 0)
        what = cli_kind_words(CLI_KIND_PROFILE, r->prime);
    else if (fdmod_bottom(r->M) != 0 || fdmod_top(r->M) != 0 || fdmod_dim(r->M, 0) != 1)
        what = "not the sphere";
    if (!what)
        return CLI_OK;
    cli_error("%s: %s is %s: the operation is computed on Ext of the sphere S_2 only",
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

int cli_sphere2_verb(const cli_verb_t *verb, int argc, char **argv, int (*body)(cli_run_t *r))
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, verb, argc, argv, &rc))
        return rc;
    cli_run_t r;
    rc = cli_run_prepare(&r, &o, o.operand ? o.operand : "S_2", o.stem,
                         cli_given(&o, CLI_OPT_MAXS) ? o.max_s : -1, CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = cli_require_sphere2(&r);
    if (rc == CLI_OK) {
        cli_run_notes(&r, 1);
        rc = body(&r);
    }
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
