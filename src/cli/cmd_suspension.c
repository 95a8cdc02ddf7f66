/*
 * cmd_suspension.c -- `adams suspension`: the suspension maps
 * Ext_U(Sigma^{k-1} M) -> Ext_U(Sigma^k M) of unstable Ext, k = 1 .. up to
 * the stable range, in the peer's unstable_suspension line format
 * (printing only; the maps are resol_suspension_new's).
 */
#include <stdio.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "cli_unstable.h"
#include "cmd_suspension.h"
#include "fdmod.h"
#include "resol.h"
#include "resol_map.h"
#include "resol_unstable.h"
#include "sq_core.h"
#include "sq_progress.h"

static const char suspension_usage[] =
    "Usage: adams suspension [MODULE] [options]\n"
    "\n"
    "Resolves the unstable module MODULE (default S_2; S^n is the sphere S_2[n];\n"
    "a module that is not unstable is refused) and its suspensions Sigma^k MODULE\n"
    "in the category of unstable modules, k = 0, 1, ..., N - bottom + 2, and prints\n"
    "the suspension maps E : Ext_U^{s,t}(Sigma^{k-1} M) -> Ext_U^{s,t+1}(Sigma^k M)\n"
    "as the peer's unstable_suspension does (docs/unstable.md):\n"
    "  'n s 0: g'              for k = 0: the classes of Ext_U(M) at (n, s)\n"
    "  'n s k: g - [[...]]'    for k >= 1 and the stems n from the peer's start\n"
    "                          (2(bottom + k - 1) - k) to N: g classes of\n"
    "                          Sigma^k M at stem n (t - s - k); the matrix of E,\n"
    "                          one row per class of Sigma^{k-1} M, omitted when\n"
    "                          either group is zero or E is the identity\n"
    "\n"
    "Options:\n"
    "  --stem N             largest stem n = t - s of M (default 40)\n"
    "  --max-s S            largest filtration (default as 'adams resolve')\n"
    "  --threads K, --progress, --quiet, --max-memory SIZE   as 'adams resolve'\n"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status as 'adams resolve' (docs/cli.md).\n";

static const cli_verb_t suspension_verb = {
    "suspension", suspension_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_THREADS) |
        CLI_BIT(CLI_OPT_PROGRESS) | CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM),
    NULL, "module"};

/* The unstable resolution of Sigma^k M0 through (max_s, max_n) on r's
 * threads, with r's progress line; *Mk (the module) is the caller's to free after the resolution. */
static resol_t *resolve_shift(const cli_run_t *r, int32_t k, int32_t max_n, fdmod_t **Mk)
{
    *Mk = fdmod_new_shifted(r->M, k, NULL);
    resol_t *R = resol_new_unstable(*Mk, r->max_s, max_n);
    /* The progress line of each resolution, as resolve's (a terminal or --progress). */
    sq_progress_t *prog = r->show ? sq_progress_new(stderr, R, RESOL_CLASSICAL) : NULL;
    resol_observer_t obs = sq_progress_observer(prog);
    resol_run_pool(R, RESOL_CLASSICAL, r->pool, prog ? &obs : NULL);
    sq_progress_free(prog);
    return R;
}

/* " - [[a, b], [c, d]]" unless m is the identity of a square matrix. */
static void print_matrix(const fmat_t *m)
{
    int64_t rows = fmat_rows(m), cols = fmat_cols(m);
    int id = rows == cols;
    for (int64_t i = 0; i < rows && id; i++)
        for (int64_t j = 0; j < cols && id; j++)
            id = fmat_get(m, i, j) == (uint32_t)(i == j);
    if (id)
        return;
    fputs(" - [", stdout);
    for (int64_t i = 0; i < rows; i++) {
        fputs(i ? ", [" : "[", stdout);
        for (int64_t j = 0; j < cols; j++)
            printf(j ? ", %u" : "%u", (unsigned)fmat_get(m, i, j));
        putchar(']');
    }
    putchar(']');
}

/* The lines of shift k from the resolutions Ra (Sigma^{k-1} M0, through
 * stem N + k - 1) and Rb (Sigma^k M0, through N + k).  0 or CLI_FAIL. */
static int print_shift(const cli_run_t *r, int32_t k, const resol_t *Ra, const resol_t *Rb)
{
    int32_t m = r->bottom, N = r->stem;
    resol_map_t *F;
    if (resol_suspension_new(&F, Ra, Rb, r->max_s, N + k - 1)) {
        cli_error("suspension: the suspension map of shift %d could not be lifted", (int)k);
        return CLI_FAIL;
    }
    for (int32_t n = 2 * (m + k - 1); n <= N + k; n++) {
        if (n < m + k)
            continue;
        for (int32_t s = 0; s <= r->max_s; s++) {
            int64_t src = resol_ext_dim(Rb, s, n), tgt = resol_ext_dim(Ra, s, n - 1);
            printf("%d %d %d: %lld", (int)(n - k), (int)s, (int)k, (long long)src);
            fmat_t mat;
            if (src && tgt && resol_map_matrix(F, s, n - 1, &mat) == 0) {
                print_matrix(&mat);
                fmat_clear(&mat);
            }
            putchar('\n');
        }
    }
    resol_map_free(F);
    return 0;
}

static int run_suspension(cli_run_t *r)
{
    int32_t m = r->bottom, N = r->stem;
    fdmod_t *Mb, *Ma;
    resol_t *Rb = resolve_shift(r, 0, N, &Mb);
    for (int32_t n = m; n <= N; n++)
        for (int32_t s = 0; s <= r->max_s; s++)
            printf("%d %d 0: %lld\n", (int)n, (int)s, (long long)resol_ext_dim(Rb, s, n));
    int rc = 0;
    for (int32_t k = 1; k <= N - m + 2 && !rc; k++) {
        resol_t *Ra = Rb;
        Ma = Mb;
        Rb = resolve_shift(r, k, N + k, &Mb);
        rc = print_shift(r, k, Ra, Rb);
        resol_free(Ra);
        fdmod_free(Ma);
    }
    resol_free(Rb);
    fdmod_free(Mb);
    return rc ? rc : cli_finish_stdout();
}

int cmd_suspension(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &suspension_verb, argc, argv, &rc))
        return rc;
    char sphere[32];
    const char *spec = o.operand ? o.operand : "S_2";
    int us = cli_unstable_sphere("suspension", spec, sphere, sizeof sphere);
    if (us < 0)
        return CLI_USAGE;
    cli_run_t r;
    rc = cli_run_prepare(&r, &o, us ? sphere : spec, o.stem,
                         cli_given(&o, CLI_OPT_MAXS) ? o.max_s : -1, CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = cli_unstable_prepare(&r);
    if (rc == CLI_OK) {
        cli_run_notes(&r, 0);
        rc = run_suspension(&r);
    }
    cli_run_release(&r);
    return rc;
}
