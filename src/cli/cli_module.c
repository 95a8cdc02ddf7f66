/*
 * cli_module.c -- loading a module and choosing an engine, for every verb
 * that resolves (cli_module.h).
 */
#include "cli_module.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sq_core.h"

/* The basis suffix of a module spec, the peer's "NAME@milnor" or
 * "NAME@adem" (also after a shift: "Ceta[2]@adem"): cut from spec into
 * base (n bytes).  Returns 0 (*adem set), or -1 after a one-line error. */
static int split_basis(char *base, size_t n, const char *spec, int *adem)
{
    *adem = 0;
    const char *at = strrchr(spec, '@');
    if (!at || strchr(at, '/')) {
        snprintf(base, n, "%s", spec);
        return 0;
    }
    if (strcmp(at + 1, "milnor") != 0 && strcmp(at + 1, "adem") != 0) {
        cli_error("module '%s': unknown basis '%s' after '@' (expected milnor or adem)",
                  cli_str(spec), cli_str(at + 1));
        return -1;
    }
    *adem = strcmp(at + 1, "adem") == 0;
    snprintf(base, n, "%.*s", (int)(at - spec), spec);
    return 0;
}

fdmod_t *cli_load_module(const char *spec, int32_t max_degree, sq_modspec_info_t *info, int quiet)
{
    static const char sphere[] = "{\"p\": 2, \"gens\": {\"x0\": 0}, \"actions\": []}";
    char named[SQ_MODSPEC_PATH_MAX], base[SQ_MODSPEC_PATH_MAX], path[SQ_MODSPEC_PATH_MAX],
        shipped[SQ_MODSPEC_PATH_MAX], err[1024];
    int adem;
    if (split_basis(named, sizeof named, spec, &adem))
        return NULL;
    sq_modspec_opts_t mo = {.warn = quiet ? NULL : stderr,
                            .have_max_degree = 1,
                            .max_degree = max_degree,
                            .info = info};
    int rc = sq_modspec_parse_name(base, sizeof base, named, &mo.shift, err, sizeof err);
    if (rc) {
        cli_error("module '%s': %s", cli_str(spec), err);
        return NULL;
    }
    fdmod_t *M = NULL;
    if (sq_modspec_resolve_name(path, sizeof path, base, NULL) == 0)
        rc = sq_modspec_load_file(&M, path, path, &mo, err, sizeof err);
    else if (strcmp(base, "S_2") == 0)
        rc = sq_modspec_load_buffer(&M, sphere, sizeof sphere - 1, "S_2", &mo, err, sizeof err);
    else {
        cli_error("unknown module '%s' (no %s.json here nor among the shipped modules; see "
                  "'adams modules')",
                  cli_str(base), cli_str(base));
        return NULL;
    }
    if (rc) {
        cli_error("%s", err);
        return NULL;
    }
    /* ./NAME.json was found for a bare NAME that is also shipped. */
    if (!quiet && strncmp(path, "./", 2) == 0 &&
        sq_modspec_shipped_path(shipped, sizeof shipped, base, NULL) == 0)
        cli_note("using %s, which shadows the shipped module %s", cli_str(path), cli_str(base));
    if (adem && !quiet)
        cli_note("@adem changes only the names of basis elements; adams works in the Milnor "
                 "basis, and no dimension depends on the basis");
    return M;
}

/* Why M needs the classical engine, or NULL. */
static const char *classical_only(const sq_modspec_info_t *info)
{
    if (info->cofiber)
        return "the cofiber of a class";
    if (info->infinite)
        return info->kind == SQ_MODSPEC_PRESENTED ? "an infinite finitely presented module"
                                                  : "an infinite projective space";
    return NULL;
}

int cli_choose_engine(resol_algo_t asked, const fdmod_t *M, const sq_modspec_info_t *info,
                      int32_t max_n)
{
    const char *why = classical_only(info);
    char err[256];
    if (why && asked == RESOL_NASSAU) {
        cli_error("--algorithm nassau resolves finite modules over the whole algebra; %s is %s: "
                  "use --algorithm classical (or auto)",
                  fdmod_name(M), why);
        return -1;
    }
    if (!why && resol_engine_check(M, asked, err, sizeof err)) {
        cli_error("%s", err);
        return -1;
    }
    if (why)
        return RESOL_CLASSICAL;
    return asked == RESOL_AUTO ? (int)resol_auto_engine(M, max_n) : (int)asked;
}

void cli_engine_note(resol_algo_t asked, resol_algo_t used, const fdmod_t *M,
                     const sq_modspec_info_t *info, int quiet)
{
    if (asked != RESOL_AUTO || quiet)
        return;
    int32_t h[MILNOR_MAX_LEN];
    const char *why = classical_only(info);
    if (why)
        fprintf(stderr, "adams: engine: classical (%s is %s)\n", fdmod_name(M), why);
    else if (fdmod_profile(M, h) > 0)
        fprintf(stderr, "adams: engine: classical (%s is a module over a subalgebra)\n",
                fdmod_name(M));
    else if (used == RESOL_CLASSICAL)
        fprintf(stderr,
                "adams: engine: classical (a region of at most 40 stems above the bottom, "
                "where it is faster than nassau)\n");
    else
        fprintf(stderr, "adams: engine: nassau (%s is a finite module over the whole algebra)\n",
                fdmod_name(M));
}
