/*
 * cmd_ext.c -- `adams ext FILE`: the E2 page kept in a store, printed
 * without computing (argument parsing and printing only).
 */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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

/* One-line error for getopt_long's '?' or ':' of command `cmd`. */
void cli_store_option_error(const char *cmd, const struct option *longs, int c, int argc,
                            char **argv)
{
    const char *name = "?";
    for (int i = 0; longs[i].name; i++)
        if (longs[i].val == optopt)
            name = longs[i].name;
    if (c == ':')
        cli_error("--%s: missing value", name);
    else if (optopt >= 256 || optopt == 'h')
        cli_error("%s: option --%s takes no value (try 'adams %s --help')", cmd, name, cmd);
    else if (optopt > 0) {
        char opt[3] = {'-', (char)optopt, '\0'};
        cli_error("%s: unknown option '%s' (try 'adams %s --help')", cmd, cli_str(opt), cmd);
    } else
        cli_error("%s: unknown option '%s' (try 'adams %s --help')", cmd,
                  cli_str(optind - 1 < argc ? argv[optind - 1] : "?"), cmd);
}

typedef struct {
    const int64_t *dims;
    int32_t bottom, max_s;
} table_t;

static int64_t table_dim(const void *ctx, int32_t s, int32_t n)
{
    const table_t *T = ctx;
    return T->dims[(int64_t)(n - T->bottom) * (T->max_s + 1) + s];
}

int cmd_ext(int argc, char **argv)
{
    enum { OPT_FORMAT = 256, OPT_STEM, OPT_MAXS };
    static const struct option longs[] = {{"format", required_argument, NULL, OPT_FORMAT},
                                          {"stem", required_argument, NULL, OPT_STEM},
                                          {"max-s", required_argument, NULL, OPT_MAXS},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *file = NULL;
    int csv = 0, have_stem = 0, have_s = 0;
    int64_t stem = 0, max_s = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "-:h", longs, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h':
            return cli_write_stdout(ext_usage);
        case 1:
            if (file) {
                cli_error("ext: more than one file given ('%s' and '%s')", cli_str(file),
                          cli_str(v));
                return CLI_USAGE;
            }
            file = v;
            break;
        case OPT_FORMAT:
            if (strcmp(v, "chart") == 0) {
                csv = 0;
            } else if (strcmp(v, "csv") == 0) {
                csv = 1;
            } else {
                if (*v)
                    cli_error("--format: expected 'chart' or 'csv', got '%s'", cli_str(v));
                else
                    cli_error("--format: missing value");
                return CLI_USAGE;
            }
            break;
        case OPT_STEM:
            if (cli_parse_int("--stem", v, -RESOL_MAX_T, RESOL_MAX_T, &stem))
                return CLI_USAGE;
            have_stem = 1;
            break;
        case OPT_MAXS:
            if (cli_parse_int("--max-s", v, 0, RESOL_MAX_T, &max_s))
                return CLI_USAGE;
            have_s = 1;
            break;
        default:
            cli_store_option_error("ext", longs, c, argc, argv);
            return CLI_USAGE;
        }
    }
    for (; optind < argc; optind++) { /* after "--" */
        if (file) {
            cli_error("ext: more than one file given ('%s' and '%s')", cli_str(file),
                      cli_str(argv[optind]));
            return CLI_USAGE;
        }
        file = argv[optind];
    }
    if (!file) {
        cli_error("ext: no store given (usage: adams ext FILE [--format chart|csv])");
        return CLI_USAGE;
    }
    char err[1024];
    sq_store_t *st;
    int rc = sq_store_open_read(&st, file, err, sizeof err);
    if (rc) {
        cli_error("%s", err);
        return CLI_FAIL;
    }
    sq_store_info_t info;
    if ((rc = sq_store_info(st, &info, err, sizeof err))) {
        cli_error("%s", err);
        sq_store_close(st);
        return CLI_FAIL;
    }
    if ((!have_stem || !have_s) && info.done_s < 0) {
        cli_error("store %s holds no completed run (its last run, through s <= %d and stem %d, "
                  "stopped before the end): resume it, or give --stem and --max-s for a part it "
                  "holds",
                  cli_str(file), (int)info.region_s, (int)info.region_n);
        sq_store_close(st);
        return CLI_FAIL;
    }
    if (!have_stem)
        stem = info.done_n;
    if (!have_s)
        max_s = info.done_s;
    if (stem < info.bottom) {
        cli_error("--stem %lld is below the bottom degree %d of %s", (long long)stem,
                  (int)info.bottom, cli_str(info.module_name));
        sq_store_close(st);
        return CLI_USAGE;
    }
    int64_t cells = (stem - info.bottom + 1) * (max_s + 1);
    int64_t *dims = sq_malloc(sq_mul_size((size_t)cells, sizeof *dims));
    rc = sq_store_read_ext(st, (int32_t)max_s, (int32_t)stem, dims, err, sizeof err);
    sq_store_close(st);
    if (rc) {
        cli_error("%s", err);
        if (rc == SQ_STORE_E_DAMAGED)
            cli_error("run 'adams check %s' to see what is damaged", cli_str(file));
        sq_free(dims);
        return CLI_FAIL;
    }
    table_t T = {dims, info.bottom, (int32_t)max_s};
    rc = csv ? sq_chart_write_csv_fn(stdout, table_dim, &T, info.bottom, (int32_t)stem,
                                     (int32_t)max_s)
             : sq_chart_write_dots_fn(stdout, table_dim, &T, info.bottom, (int32_t)stem,
                                      (int32_t)max_s);
    sq_free(dims);
    if (rc) {
        cli_error("could not write the output: %s", sq_strerror(rc));
        return CLI_FAIL;
    }
    return cli_finish_stdout();
}
