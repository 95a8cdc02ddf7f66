/*
 * cmd_check.c -- `adams check FILE`: verifies a store and says what it
 * found (argument parsing and printing only; the checks are
 * sq_store_check).
 */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_store.h"
#include "sq_core.h"
#include "sq_store.h"

static const char check_usage[] =
    "Usage: adams check FILE [options]\n"
    "\n"
    "Verifies FILE, a store written by 'adams resolve --save FILE', and says what it\n"
    "found, one line per finding:\n"
    "  - SQLite's structure (quick_check) and the checksum of every metadata and\n"
    "    step record (a damaged record is named by its bidegree);\n"
    "  - that every stored step can be used (the steps it depends on are there);\n"
    "  - d(d(g)) = 0 for every stored generator g, from the stored differentials;\n"
    "  - minimality and exactness at a sample of bidegrees: the new generators'\n"
    "    images are independent modulo the older ones' and span the cycles.\n"
    "\n"
    "Options:\n"
    "  --full               minimality and exactness at every bidegree\n"
    "  --spots K            bidegrees in the sample (default 24)\n"
    "  --seed N             seed of the sample (default 17)\n"
    "  --threads K          worker threads (default: $ADAMS_THREADS, else all cores)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 if the store is sound; 1 if damage was found or the store could\n"
    "not be read; 2 on a bad argument.\n";

int cmd_check(int argc, char **argv)
{
    enum { OPT_FULL = 256, OPT_SPOTS, OPT_SEED, OPT_THREADS };
    static const struct option longs[] = {{"full", no_argument, NULL, OPT_FULL},
                                          {"spots", required_argument, NULL, OPT_SPOTS},
                                          {"seed", required_argument, NULL, OPT_SEED},
                                          {"threads", required_argument, NULL, OPT_THREADS},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *file = NULL;
    sq_store_check_opts_t o = {0};
    int64_t v64;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "-:h", longs, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h':
            return cli_write_stdout(check_usage);
        case 1:
            if (file) {
                cli_error("check: more than one file given ('%s' and '%s')", cli_str(file),
                          cli_str(v));
                return CLI_USAGE;
            }
            file = v;
            break;
        case OPT_FULL:
            o.full = 1;
            break;
        case OPT_SPOTS:
            if (cli_parse_int("--spots", v, 1, 1000000, &v64))
                return CLI_USAGE;
            o.spots = (int)v64;
            break;
        case OPT_SEED:
            if (cli_parse_int("--seed", v, 1, INT64_MAX, &v64))
                return CLI_USAGE;
            o.seed = (uint64_t)v64;
            break;
        case OPT_THREADS:
            if (cli_parse_int("--threads", v, 1, CLI_MAX_THREADS, &v64))
                return CLI_USAGE;
            o.threads = (int)v64;
            break;
        default:
            cli_store_option_error("check", longs, c, argc, argv);
            return CLI_USAGE;
        }
    }
    for (; optind < argc; optind++) {
        if (file) {
            cli_error("check: more than one file given ('%s' and '%s')", cli_str(file),
                      cli_str(argv[optind]));
            return CLI_USAGE;
        }
        file = argv[optind];
    }
    if (!file) {
        cli_error("check: no store given (usage: adams check FILE)");
        return CLI_USAGE;
    }
    if (o.threads == 0) {
        const char *env = getenv("ADAMS_THREADS");
        if (env && *env) {
            if (cli_parse_int("ADAMS_THREADS", env, 1, CLI_MAX_THREADS, &v64))
                return CLI_USAGE;
            o.threads = (int)v64;
        } else {
            o.threads = sq_num_cores();
        }
    }
    char err[1024];
    sq_store_t *st;
    int rc = sq_store_open_read(&st, file, err, sizeof err);
    if (rc) {
        if (rc == SQ_STORE_E_DAMAGED)
            printf("damaged: %s\nDAMAGED\n", err);
        cli_error("%s", err);
        return CLI_FAIL;
    }
    sq_store_check_report_t rep;
    o.module_for = cli_store_module_for; /* infinite modules: rebuilt from their definition */
    rc = sq_store_check(st, &o, stdout, &rep, err, sizeof err);
    sq_store_close(st);
    if (cli_finish_stdout() != CLI_OK)
        return CLI_FAIL;
    if (rc) {
        cli_error("%s", err);
        return CLI_FAIL;
    }
    return CLI_OK;
}
