/*
 * cmd_ext.c -- `adams ext FILE`: the E2 page kept in a store, printed
 * without computing (argument parsing and printing only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
#include "cmd_store.h"
#include "sq_chart.h"
#include "sq_core.h"
#include "sq_store.h"

static const char ext_usage[] =
    "Usage: adams ext FILE [options]\n"
    "\n"
    "Prints the E2 page kept in FILE, a store written by 'adams resolve --save FILE',\n"
    "without computing anything: the same output as the run that wrote it.  Every\n"
    "record used is checked against its checksum.\n"
    "\n"
    "Options:\n"
    "  --format FMT         chart (default): the dot chart, as 'adams resolve'\n"
    "                       csv: one line 'n,s,dim' per cell, zeros included\n"
    "  --stem N             largest stem (default: that of the store's completed run)\n"
    "  --max-s S            largest filtration (default: likewise)\n"
    "  -h, --help           show this help\n"
    "\n"
    "The store is an SQLite database (docs/save-format.md); its view 'ext' gives\n"
    "the same numbers: sqlite3 FILE 'SELECT n, s, dim FROM ext'.\n"
    "\n"
    "Exit status: 0 on success; 1 if the store is damaged, does not hold the whole\n"
    "region, or cannot be read (or the output cannot be written); 2 on a bad argument.\n";

typedef struct {
    const int64_t *dims;
    int32_t bottom, max_s;
} table_t;

static int64_t table_dim(const void *ctx, int32_t s, int32_t n)
{
    const table_t *T = ctx;
    return T->dims[(int64_t)(n - T->bottom) * (T->max_s + 1) + s];
}

static const char *const ext_formats[] = {"chart", "csv", NULL};

static const cli_verb_t ext_verb = {
    "ext", ext_usage, CLI_BIT(CLI_OPT_FORMAT) | CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS),
    ext_formats, "file"};

/* The region to print: --stem/--max-s, else the store's completed run.
 * Refused before the region's table is allocated: a stem below the bottom
 * (CLI_USAGE), no completed run without both options, or a cell without a
 * row in the store (sq_store_region_missing names the first; CLI_FAIL):
 * the table is never larger than the store.  Returns 0 or the exit code
 * after one line. */
static int ext_region(const cli_opts_t *o, sq_store_t *st, const sq_store_info_t *info,
                      int64_t *stem, int64_t *max_s)
{
    const char *file = o->operand;
    int have_stem = cli_given(o, CLI_OPT_STEM), have_s = cli_given(o, CLI_OPT_MAXS);
    if ((!have_stem || !have_s) && info->done_s < 0) {
        cli_error("store %s holds no completed run (its last run, through s <= %d and stem %d, "
                  "stopped before the end): resume it, or give --stem and --max-s for a part it "
                  "holds",
                  cli_str(file), (int)info->region_s, (int)info->region_n);
        return CLI_FAIL;
    }
    *stem = have_stem ? o->stem : info->done_n;
    *max_s = have_s ? o->max_s : info->done_s;
    if (*stem < info->bottom) {
        cli_error("--stem %lld is below the bottom degree %d of %s", (long long)*stem,
                  (int)info->bottom, cli_str(info->module_name));
        return CLI_USAGE;
    }
    char err[1024];
    int32_t ms, mn;
    if (sq_store_region_missing(st, (int32_t)*max_s, (int32_t)*stem, &ms, &mn, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_FAIL;
    }
    return 0;
}

/* Reads the region's dimensions from st and prints them; the exit code. */
static int ext_print(const cli_opts_t *o, sq_store_t *st, const sq_store_info_t *info,
                     int64_t stem, int64_t max_s)
{
    char err[1024];
    int64_t cells = (stem - info->bottom + 1) * (max_s + 1);
    int64_t *dims = sq_malloc(sq_mul_size((size_t)cells, sizeof *dims));
    int rc = sq_store_read_ext(st, (int32_t)max_s, (int32_t)stem, dims, err, sizeof err);
    if (rc) {
        cli_error("%s", err);
        if (rc == SQ_STORE_E_DAMAGED)
            cli_error("run 'adams check %s' to see what is damaged", cli_str(o->operand));
        sq_free(dims);
        return CLI_FAIL;
    }
    table_t T = {dims, info->bottom, (int32_t)max_s};
    rc = o->format == 1 ? sq_chart_write_csv_fn(stdout, table_dim, &T, info->bottom,
                                                (int32_t)stem, (int32_t)max_s)
                        : sq_chart_write_dots_fn(stdout, table_dim, &T, info->bottom,
                                                 (int32_t)stem, (int32_t)max_s);
    sq_free(dims);
    return cli_finish_output(rc);
}

int cmd_ext(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &ext_verb, argc, argv, &rc))
        return rc;
    char err[1024];
    sq_store_t *st;
    if (sq_store_open_read(&st, o.operand, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_FAIL;
    }
    sq_store_info_t info;
    int64_t stem = 0, max_s = 0;
    if (sq_store_info(st, &info, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_FAIL;
    } else if (!(rc = ext_region(&o, st, &info, &stem, &max_s))) {
        rc = ext_print(&o, st, &info, stem, max_s);
    }
    sq_store_close(st);
    return rc;
}
