/*
 * cmd_size.c -- `adams size`: the dimension of each free module F_s of the
 * minimal resolution in each degree, in the peer's `resolution_size`
 * format (argument parsing and printing only; the run is cli_run.c's).
 */
#include <stdio.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "fmod.h"
#include "resol.h"

static const char size_usage[] =
    "Usage: adams size [MODULE] [options]\n"
    "\n"
    "Resolves MODULE (default S_2) through stem N and filtration S and prints the\n"
    "size of the resolution as the peer's resolution_size does: one line per\n"
    "s = S down to 0, holding dim F_s in each degree t = bottom + s .. N + s, each\n"
    "followed by ', '.\n"
    "\n"
    "Options:\n"
    "  --stem N, --max-s S  the region (as 'adams resolve')\n"
    "  --algorithm ALG      classical, nassau or auto (as 'adams resolve'; the sizes\n"
    "                       do not depend on it)\n"
    "  --threads K, --progress, --quiet, --max-memory SIZE   as 'adams resolve'\n"
    "  -h, --help           show this help\n"
    "\n"
    "The cofiber of a class is refused (its Ext comes from two resolutions).\n"
    "Exit status as 'adams resolve' (docs/cli.md).\n";

static const cli_verb_t size_verb = {
    "size", size_usage,
    CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) | CLI_BIT(CLI_OPT_ALGO) |
        CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) | CLI_BIT(CLI_OPT_QUIET) |
        CLI_BIT(CLI_OPT_MAXMEM),
    NULL, "module"};

/* Resolves r's module and prints the sizes of its free modules through
 * r's region; the exit code. */
static int write_sizes(cli_run_t *r)
{
    resol_t *R = cli_run_resolve(r);
    for (int32_t s = r->max_s; s >= 0; s--) {
        const fmod_t *F = resol_free_module(R, s);
        for (int32_t t = r->bottom + s; t <= r->stem + s; t++)
            printf("%lld, ", (long long)fmod_dim(F, t));
        putchar('\n');
    }
    resol_free(R);
    return cli_finish_stdout();
}

int cmd_size(int argc, char **argv)
{
    return cli_run_verb(&size_verb, argc, argv, NULL, write_sizes);
}
