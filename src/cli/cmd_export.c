/*
 * cmd_export.c -- `adams export` and `adams import`: a resolution in
 * Bruner's format (sq_bruner.h, docs/formats.md) written to a directory,
 * and read back (argument parsing, checks and printing only).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_dir.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "fdmod.h"
#include "resol.h"
#include "sq_bruner.h"
#include "sq_chart.h"
#include "sq_core.h"

static const char export_usage[] =
    "Usage: adams export [MODULE] --format bruner -o DIR [options]\n"
    "\n"
    "Resolves MODULE (default S_2; p = 2, a finite module over the whole Steenrod\n"
    "algebra) through stem N and filtration S and writes the resolution in\n"
    "Bruner's format: DIR/hDiff.0 .. DIR/hDiff.S, as the peer's save_bruner\n"
    "writes them (docs/formats.md).  DIR is made if it does not exist; one that\n"
    "already holds hDiff.0 is refused (nothing is overwritten).\n"
    "\n"
    "Options:\n"
    "  --format bruner      the format (the only one, and the default)\n"
    "  -o DIR, --output DIR the directory (required)\n"
    "  --stem N, --max-s S, --algorithm ALG, --threads K, --progress, --quiet,\n"
    "  --max-memory SIZE    as 'adams resolve'\n"
    "  -h, --help           show this help\n"
    "\n"
    "'adams import DIR' reads the files back.  Exit status as 'adams resolve'.\n";

static const char import_usage[] =
    "Usage: adams import DIR [--format chart|csv|differentials] [--stem N] [--max-s S]\n"
    "\n"
    "Reads a resolution in Bruner's format (DIR/hDiff.0, hDiff.1, ...; written\n"
    "by 'adams export' or Bruner's programs, p = 2) and prints its Ext -- the\n"
    "number of generators of F_s in each degree: the resolution is minimal --\n"
    "as 'adams resolve' prints it (chart, csv), or its differentials in the\n"
    "format of 'adams resolve --format differentials'.  Every field of the\n"
    "files is checked; a bad one is refused with one line naming the file and\n"
    "the line.\n"
    "\n"
    "Options:\n"
    "  --format FMT         chart (default), csv, differentials, or basis: the\n"
    "                       change of basis between the files' resolution of the\n"
    "                       sphere and adams's (the peer's 'bruner' lines)\n"
    "  --stem N, --max-s S  the region (default: all the files cover)\n"
    "  -h, --help           show this help\n";

static const char *const export_formats[] = {"bruner", NULL};
static const char *const import_formats[] = {"chart", "csv", "differentials", "basis", NULL};

static const cli_verb_t export_verb = {
    "export", export_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_FORMAT) |
        CLI_BIT(CLI_OPT_OUTPUT) | CLI_BIT(CLI_OPT_ALGO) | CLI_BIT(CLI_OPT_THREADS) |
        CLI_BIT(CLI_OPT_PROGRESS) | CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM),
    export_formats, "module"};

static const cli_verb_t import_verb = {
    "import", import_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_FORMAT), import_formats,
    "directory"};

/* The module kinds Bruner's format cannot hold (a resolution over A at
 * p = 2 of a finite module): one line naming the kind, CLI_USAGE. */
#define WHOLE "Bruner's format is a resolution over the whole algebra, not a subalgebra"

static int refuse_kind(const cli_run_t *r)
{
    static const struct {
        cli_kind_t kind;
        const char *why;
    } no[] = {
        {CLI_KIND_ODD, "Bruner's format is a resolution over the mod 2 Steenrod algebra"},
        {CLI_KIND_COFIBER, "its Ext comes from two resolutions, not one"},
        {CLI_KIND_PRESENTED, "Bruner's format here holds finite modules only"},
        {CLI_KIND_PROJECTIVE, "Bruner's format here holds finite modules only"},
        {CLI_KIND_PROFILE, WHOLE},
        {CLI_KIND_INF_PROFILE, WHOLE},
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if ((r->kinds >> no[i].kind) & 1u) {
            cli_error("export: --format bruner: %s is %s: %s", cli_str(r->ref.base),
                      cli_kind_words(no[i].kind, r->prime), no[i].why);
            return CLI_USAGE;
        }
    return CLI_OK;
}

/* export's options before the run: -o given, and not too long. */
static int export_check(const cli_opts_t *o)
{
    if (!o->output) {
        cli_error("export: -o DIR is required (the directory of the files hDiff.s)");
        return CLI_USAGE;
    }
    if (strlen(o->output) > 4000) {
        cli_error("-o: the directory name is too long");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The checks of export on the prepared run r (the kind, the directory),
 * then the resolution and its files; the exit code. */
static int export_run(cli_run_t *r)
{
    const char *dir = r->o->output;
    int rc = refuse_kind(r);
    if (rc == CLI_OK)
        rc = cli_prepare_dir(dir, "hDiff.0", "a resolution");
    if (rc != CLI_OK)
        return rc;
    resol_t *R = cli_run_resolve(r);
    char err[4200];
    if (sq_bruner_write(dir, R, r->stem, r->max_s, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_FAIL;
    }
    resol_free(R);
    return rc;
}

int cmd_export(int argc, char **argv)
{
    return cli_run_verb(&export_verb, argc, argv, export_check, export_run);
}

/* The region of the import: the options, within what the files cover.
 * Returns 0 or CLI_USAGE after one line. */
static int import_region(const cli_opts_t *o, const sq_bruner_t *B, int32_t *n, int32_t *s)
{
    int32_t b;
    sq_bruner_region(B, &b, n, s);
    if (cli_given(o, CLI_OPT_STEM)) {
        if (o->stem > *n || o->stem < b) {
            cli_error("--stem %lld: the files cover stems %d..%d", (long long)o->stem, (int)b,
                      (int)*n);
            return CLI_USAGE;
        }
        *n = (int32_t)o->stem;
    }
    if (cli_given(o, CLI_OPT_MAXS)) {
        if (o->max_s > *s) {
            cli_error("--max-s %lld: the files cover s <= %d", (long long)o->max_s, (int)*s);
            return CLI_USAGE;
        }
        *s = (int32_t)o->max_s;
    }
    return 0;
}

/* import --format basis: resolves the sphere through the region (after
 * the memory check) and prints the change of basis; the exit code. */
static int import_basis(cli_opts_t *o, const sq_bruner_t *B, int32_t n, int32_t s)
{
    char err[1024];
    fdmod_t *M = fdmod_sphere();
    int rc = CLI_OK;
    o->threads = 1;
    if (resol_check_range(M, s, n, err, sizeof err)) {
        cli_error("import: %s", err);
        rc = CLI_USAGE;
    } else
        rc = cli_check_memory(o, M, RESOL_CLASSICAL, n, s, 1);
    if (rc == CLI_OK) {
        resol_t *R = resol_new(M, s, n);
        resol_run(R, RESOL_CLASSICAL);
        int w = sq_bruner_basis(stdout, B, R, n, s, err, sizeof err);
        if (w == SQ_E_INVAL) {
            cli_error("import: %s", err);
            rc = CLI_USAGE;
        } else
            rc = cli_finish_output(w);
        resol_free(R);
    }
    fdmod_free(M);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &import_verb, argc, argv, &rc))
        return rc;
    if (!o.operand) {
        cli_error("import: no directory given (usage: adams import DIR)");
        return CLI_USAGE;
    }
    if (strlen(o.operand) > 4000) {
        cli_error("import: the directory name is too long");
        return CLI_USAGE;
    }
    char err[4200];
    sq_bruner_t *B;
    if (sq_bruner_read(&B, o.operand, err, sizeof err)) {
        cli_error("import: %s", err);
        return CLI_USAGE;
    }
    int32_t n, s;
    rc = import_region(&o, B, &n, &s);
    if (rc == CLI_OK && o.format == 3) {
        rc = import_basis(&o, B, n, s);
    } else if (rc == CLI_OK) {
        int32_t b, mn, ms;
        sq_bruner_region(B, &b, &mn, &ms);
        int w = o.format == 2   ? sq_bruner_write_differentials(stdout, B, n, s)
                : o.format == 1 ? sq_chart_write_csv_fn(stdout, sq_bruner_ext_dim, B, b, n, s)
                                : sq_chart_write_dots_fn(stdout, sq_bruner_ext_dim, B, b, n, s);
        rc = cli_finish_output(w);
    }
    sq_bruner_free(B);
    return rc;
}
