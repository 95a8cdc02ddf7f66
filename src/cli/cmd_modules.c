/*
 * cmd_modules.c -- `adams modules`: the shipped modules, one line each.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"
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

/* Infinite modules are built up to this degree to be checked (the line
 * says "degrees N..inf" from what the file says). */
#define CHECK_DEGREE 24

/* The module name of a path: its last component without ".json". */
static void path_name(char *buf, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0)
        len -= 5;
    sq_modspec_printable(buf, n, base, len, n - 1);
}

/* Prints the line of one module; returns 0, or -1 (after a message on
 * stderr) if it does not load. */
static int print_module(const char *path, int width)
{
    char name[256], desc[512], err[1024], deg[64];
    sq_modspec_info_t info;
    sq_modspec_opts_t mo = {.description = desc,
                            .description_len = sizeof desc,
                            .have_max_degree = 1,
                            .max_degree = CHECK_DEGREE,
                            .info = &info};
    sq_modspec_module_t M;
    path_name(name, sizeof name, path);
    /* Every prime through the one reader (docs/modules.md). */
    if (sq_modspec_load_module_file(&M, path, path, &mo, err, sizeof err)) {
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
    char shown[sizeof desc + 8];
    sq_modspec_printable(shown, sizeof shown, desc, strlen(desc), sizeof desc);
    if (M.p != 2) {
        char pd[80];
        snprintf(pd, sizeof pd, "%s, p = %u", deg, (unsigned)M.p);
        printf("%-*s  %-15s  %s\n", width, name, pd, shown);
    } else
        printf("%-*s  %-15s  %s\n", width, name, deg, shown);
    sq_modspec_module_free(&M);
    return 0;
}

static const cli_verb_t modules_verb = {"modules", modules_usage, 0, NULL, "argument"};

int cmd_modules(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &modules_verb, argc, argv, &rc))
        return rc;
    if (o.operand) {
        cli_error("modules: unexpected argument '%s' (try 'adams modules --help')",
                  cli_str(o.operand));
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
    rc = CLI_OK;
    for (int64_t i = 0; i < n; i++)
        if (print_module(paths[i], width))
            rc = CLI_FAIL;
    sq_modspec_list_free(paths, n);
    if (cli_finish_stdout() != CLI_OK)
        rc = CLI_FAIL;
    return rc;
}
