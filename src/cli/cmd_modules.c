/*
 * cmd_modules.c -- `adams modules`: the shipped modules, one line each.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fdmod.h"
#include "sq_core.h"
#include "sq_modspec.h"

static const char modules_usage[] =
    "Usage: adams modules\n"
    "\n"
    "Lists the modules shipped with adams, one line each: the name to give to\n"
    "'adams resolve', the degrees of its basis, and what it is.  A module file of\n"
    "your own is used by its path: 'adams resolve ./my.json' (see docs/modules.md).\n"
    "\n"
    "Exit status: 0 on success, 1 if a shipped module could not be read, 2 on a\n"
    "bad argument.\n";

/* The module name of a path: its last component without ".json". */
static void path_name(char *buf, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    snprintf(buf, n, "%.*s", (int)len, base);
}

/* Prints the line of one module; returns 0, or -1 (after a message on
 * stderr) if it does not load. */
static int print_module(const char *path, int width)
{
    char name[256], desc[512], err[1024], deg[64];
    sq_modspec_info_t info;
    /* Infinite modules are built only up to a few degrees above the bottom
     * (enough to check them); the line gives the degrees from info. */
    sq_modspec_opts_t mo = {.description = desc,
                            .description_len = sizeof desc,
                            .have_max_degree = 1,
                            .max_degree = 24,
                            .info = &info};
    fdmod_t *M;
    path_name(name, sizeof name, path);
    if (sq_modspec_load_file(&M, path, path, &mo, err, sizeof err)) {
        cli_error("%s", err);
        return -1;
    }
    int32_t lo = info.bottom, hi = info.bottom + info.span;
    if (info.infinite)
        snprintf(deg, sizeof deg, "degrees %d..inf", (int)lo);
    else if (lo == hi)
        snprintf(deg, sizeof deg, "degree %d", (int)lo);
    else
        snprintf(deg, sizeof deg, "degrees %d..%d", (int)lo, (int)hi);
    printf("%-*s  %-15s  %s\n", width, name, deg, desc);
    fdmod_free(M);
    return 0;
}

int cmd_modules(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(modules_usage, stdout);
            return CLI_OK;
        }
        cli_error("modules: unexpected argument '%s' (try 'adams modules --help')", argv[i]);
        return CLI_USAGE;
    }
    char **paths;
    int64_t n;
    if (sq_modspec_list_shipped(&paths, &n, NULL) || n == 0) {
        cli_error("no shipped modules found (docs/modules.md says where adams looks)");
        return CLI_FAIL;
    }
    int width = 4;
    for (int64_t i = 0; i < n; i++) {
        char name[256];
        path_name(name, sizeof name, paths[i]);
        if ((int)strlen(name) > width)
            width = (int)strlen(name);
    }
    int rc = CLI_OK;
    for (int64_t i = 0; i < n; i++)
        if (print_module(paths[i], width))
            rc = CLI_FAIL;
    sq_modspec_list_free(paths, n);
    if (fflush(stdout) != 0) {
        cli_error("could not write the output");
        rc = CLI_FAIL;
    }
    return rc;
}
