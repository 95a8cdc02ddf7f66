/*
 * cmd_mahowald.c -- `adams mahowald`: printing only (the options are
 * cli_opts.c's, the run of the sphere cli_run.c's, the mathematics
 * src/resolution/resol_mahowald.c's).
 */
#include <stdio.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "cmd_sq0.h"
#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_mahowald.h"

static const char mahowald_usage[] =
    "Usage: adams mahowald [S_2] [--stem N] [options]\n"
    "\n"
    "The algebraic Mahowald (root) invariants of the basis classes of Ext of S_2 in\n"
    "stems <= N, computed through RP_{-k}^inf for k = 1 .. N + 1 (the peer's\n"
    "mahowald_invariant with Max k = N + 1): for each k, the classes x first detected\n"
    "in Ext(RP_{-k}^inf) by the (-1)-cell, one line each:\n"
    "    M(x_(n, s, i)) = y[ mod <z1, z2, ...>]\n"
    "y a sum of basis classes x_(n', s, j) with n' = n + k - 1, the indeterminacy\n"
    "(the kernel of the bottom cell on Ext) as a basis in reduced echelon form.  The\n"
    "first line is the peer's header.  S_2 is resolved through stem 2N and filtration\n"
    "(N + 1)/2 + 1, each RP_{-k}^inf through stem k - 2 and filtration k/2 + 1.\n"
    "docs/steenrod.md has the definition and the conventions.\n"
    "\n"
    "Options: --stem N (default 24: the peer's default Max k = 25), --threads K,\n"
    "--progress, --quiet, --max-memory SIZE, -h/--help (as for 'adams resolve').  A\n"
    "module other than S_2 is refused.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written or a failure, 2 bad argument, 3 the\n"
    "region does not fit in memory, 4 the threads cannot be started.\n";

static const cli_verb_t mahowald_verb = {
    "mahowald", mahowald_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |
        CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM),
    NULL, "module"};

/* The largest --stem: the sphere is resolved through stem 2N. */
#define MAHOWALD_MAX_STEM 200

/* "x_(n, s, i) + x_(n, s, j)" for the nonzero entries of v (len entries). */
static void print_basis(fvec_t v, int64_t len, int32_t n, int32_t s)
{
    int first = 1;
    for (int64_t j = 0; j < len; j++)
        if (fvec_get(v, j)) {
            printf("%sx_(%d, %d, %lld)", first ? "" : " + ", (int)n, (int)s, (long long)j);
            first = 0;
        }
}

static int print_invariant(void *ctx, const resol_mahowald_t *m)
{
    (void)ctx;
    printf("M(x_(%d, %d, %lld)) = ", (int)m->n, (int)m->s, (long long)m->i);
    print_basis(m->y, m->y.len, m->out_n, m->s);
    if (fmat_rows(m->indet) > 0) {
        printf(" mod <");
        for (int64_t r = 0; r < fmat_rows(m->indet); r++) {
            if (r)
                printf(", ");
            print_basis(fmat_row(m->indet, r), fmat_cols(m->indet), m->out_n, m->s);
        }
        printf(">");
    }
    printf("\n");
    return 0;
}

/* Resolves RP_{-k}^inf through its region on r's threads and prints the
 * invariants it detects.  Returns the exit code. */
static int run_k(const cli_run_t *r, const resol_t *RS, int32_t k)
{
    int32_t pn, ps;
    resol_mahowald_region_k(k, &pn, &ps);
    char err[512];
    fdmod_t *M = resol_mahowald_module(k, pn + 2, err, sizeof err);
    if (!M) {
        cli_error("mahowald: %s", err);
        return CLI_FAIL;
    }
    resol_t *RP = resol_new(M, ps, pn);
    int rc = resol_run_pool(RP, RESOL_CLASSICAL, r->pool, NULL);
    if (rc == 0)
        rc = resol_mahowald_k(RS, RP, k, print_invariant, NULL);
    resol_free(RP);
    fdmod_free(M);
    if (rc != 0) {
        cli_error("mahowald: RP_-%d_inf: a lift failed (a bug: please report)", (int)k);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cmd_mahowald(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &mahowald_verb, argc, argv, &rc))
        return rc;
    int64_t stem = cli_given(&o, CLI_OPT_STEM) ? o.stem : 24;
    if (stem < 0 || stem > MAHOWALD_MAX_STEM) {
        cli_error("mahowald: --stem %lld: must be 0 .. %d (the sphere is resolved through stem "
                  "2N)",
                  (long long)stem, MAHOWALD_MAX_STEM);
        return CLI_USAGE;
    }
    int32_t kmax = (int32_t)stem + 1, sn, ss;
    resol_mahowald_region(kmax, &sn, &ss);
    cli_run_t r;
    rc = cli_sphere2_prepare(&r, &o, sn, ss);
    if (rc == CLI_OK) {
        resol_t *RS = cli_run_resolve(&r);
        printf("M({basis element}) = {mahowald_invariant}[ mod {indeterminacy}]\n");
        for (int32_t k = 1; k <= kmax && rc == CLI_OK; k++) {
            cli_sphere2_progress(&r, "RP_-k_inf, k =", k - 1, kmax);
            rc = run_k(&r, RS, k);
        }
        cli_sphere2_progress(&r, "", kmax, kmax);
        resol_free(RS);
        if (rc == CLI_OK)
            rc = cli_finish_stdout();
    }
    cli_run_release(&r);
    return rc;
}
