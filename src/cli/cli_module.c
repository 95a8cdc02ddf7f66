/*
 * cli_module.c -- loading a module and choosing an engine, for every verb
 * that resolves (cli_module.h).
 */
#include "cli_module.h"

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_store.h"
#include "fdmod_tensor.h"
#include "sq_modname.h"
#include "sq_store.h"
#include "sq_core.h"

/* The basis suffix of a module spec (sq_modname_split_basis).  Returns 0
 * (*adem set), or -1 after a one-line error. */
static int split_basis(char *base, size_t n, const char *spec, int *adem)
{
    char err[512];
    if (sq_modname_split_basis(base, n, spec, adem, err, sizeof err) == 0)
        return 0;
    cli_error("module '%s': %s", cli_str(spec), err);
    return -1;
}

/* 1 when spec as a whole names an existing module file: a '*' in it is
 * then part of the name, not a tensor product (docs/modules.md). */
static int names_file(const char *spec)
{
    char named[SQ_MODSPEC_PATH_MAX], base[SQ_MODSPEC_PATH_MAX], path[SQ_MODSPEC_PATH_MAX];
    char err[512];
    int adem;
    int32_t shift;
    if (sq_modname_split_basis(named, sizeof named, spec, &adem, err, sizeof err) ||
        sq_modspec_parse_name(base, sizeof base, named, &shift, NULL, 0) ||
        sq_modspec_resolve_name(path, sizeof path, base, NULL))
        return 0;
    return access(path, F_OK) == 0;
}

/* The factors of the tensor product ref: copies of the names left and
 * right of its last '*' (sq_free both). */
static void split_factors(const cli_module_ref_t *ref, char **left, char **right)
{
    *left = sq_strdup(ref->base);
    (*left)[ref->tensor - 1] = '\0';
    *right = sq_strdup(ref->base + ref->tensor);
}

/* "M*N": checks the name and finds each factor now (their notes, their
 * errors).  Returns 0 or -1 after a one-line error. */
static int find_tensor(const char *spec, cli_module_ref_t *ref, int quiet)
{
    int stars = 0;
    for (const char *c = spec; *c; c++)
        stars += *c == '*';
    const char *star = strrchr(spec, '*');
    size_t n = strlen(spec);
    if (stars >= CLI_MAX_FACTORS || n >= sizeof ref->base || star == spec || star[1] == '\0') {
        cli_error("module '%s': %s", cli_str(spec),
                  stars >= CLI_MAX_FACTORS || n >= sizeof ref->base
                      ? "a tensor product M*N*... has at most 8 factors and a name that fits a path"
                      : "a tensor product needs a module on each side of '*' (M*N)");
        return -1;
    }
    memcpy(ref->base, spec, n + 1);
    ref->tensor = (int32_t)(star - spec) + 1;
    char *side[2];
    split_factors(ref, &side[0], &side[1]);
    cli_module_ref_t *f = sq_malloc(sizeof *f);
    int rc = cli_find_module(side[0], f, quiet) || cli_find_module(side[1], f, quiet) ? -1 : 0;
    sq_free(f);
    sq_free(side[0]);
    sq_free(side[1]);
    return rc;
}

int cli_find_module(const char *spec, cli_module_ref_t *ref, int quiet)
{
    char named[SQ_MODSPEC_PATH_MAX], shipped[SQ_MODSPEC_PATH_MAX], err[1024];
    memset(ref, 0, sizeof *ref);
    if (strchr(spec, '*') && !names_file(spec))
        return find_tensor(spec, ref, quiet);
    if (split_basis(named, sizeof named, spec, &ref->adem))
        return -1;
    if (sq_modspec_parse_name(ref->base, sizeof ref->base, named, &ref->shift, err, sizeof err)) {
        cli_error("module '%s': %s", cli_str(spec), err);
        return -1;
    }
    if (sq_modspec_resolve_name(ref->path, sizeof ref->path, ref->base, NULL) != 0) {
        if (strcmp(ref->base, "S_2") != 0) {
            cli_error("unknown module '%s' (no %s.json here nor among the shipped modules; see "
                      "'adams modules')",
                      cli_str(ref->base), cli_str(ref->base));
            return -1;
        }
        ref->builtin_sphere = 1;
        ref->path[0] = '\0';
    }
    /* ./NAME.json was found for a bare NAME that is also shipped. */
    if (!quiet && !ref->builtin_sphere && strncmp(ref->path, "./", 2) == 0 &&
        sq_modspec_shipped_path(shipped, sizeof shipped, ref->base, NULL) == 0)
        cli_note("using %s, which shadows the shipped module %s", cli_str(ref->path),
                 cli_str(ref->base));
    if (ref->adem && !quiet)
        cli_note("@adem changes only the names of basis elements; adams works in the Milnor "
                 "basis, and no dimension depends on the basis");
    return 0;
}

int cli_module_prime(const cli_module_ref_t *ref, uint32_t *p)
{
    char err[1024];
    *p = 2;
    if (ref->builtin_sphere)
        return 0;
    if (ref->tensor) { /* the left factor's: a second prime is refused when it is built */
        char *side[2];
        split_factors(ref, &side[0], &side[1]);
        cli_module_ref_t *f = sq_malloc(sizeof *f);
        if (cli_find_module(side[0], f, 1) == 0)
            cli_module_prime(f, p);
        sq_free(f);
        sq_free(side[0]);
        sq_free(side[1]);
        return 0;
    }
    /* A file whose "p" cannot be read is left to the p = 2 loader, whose
     * messages name the mistake (JSON syntax, duplicates, ...). */
    if (sq_modspec_file_prime(ref->path, ref->path, p, err, sizeof err) != 0)
        *p = 2;
    return 0;
}

/* Opens factor s of a tensor product into F[s], fi[s]; 0 or -1 after a
 * one-line error. */
static int open_factor(const char *spec, int32_t max_degree, fdmod_t **F, sq_modspec_info_t *fi,
                       int quiet)
{
    cli_module_ref_t *f = sq_malloc(sizeof *f);
    *F = NULL;
    if (cli_find_module(spec, f, 1) == 0)
        *F = cli_open_module(f, max_degree, fi, quiet);
    sq_free(f);
    return *F ? 0 : -1;
}

/* The product of the two factors of ref (cli_open_module). */
static fdmod_t *open_tensor(const cli_module_ref_t *ref, int32_t max_degree,
                            sq_modspec_info_t *info, int quiet)
{
    char *side[2], err[1024];
    fdmod_t *F[2] = {NULL, NULL}, *P = NULL;
    sq_modspec_info_t fi[2];
    split_factors(ref, &side[0], &side[1]);
    int ok = open_factor(side[0], max_degree, &F[0], &fi[0], quiet) == 0 &&
             open_factor(side[1], max_degree, &F[1], &fi[1], quiet) == 0;
    for (int s = 0; s < 2 && ok; s++)
        if (fi[s].cofiber) {
            cli_error("module '%s': the factor %s is the cofiber of a class, whose module adams "
                      "does not build (its Ext comes from two resolutions); a tensor product "
                      "needs two modules",
                      cli_str(ref->base), cli_str(side[s]));
            ok = 0;
        }
    /* A factor truncated above degree D tensor one with bottom b is exact
     * through degree D + b: a negative b needs D = max_degree - b. */
    for (int s = 0; s < 2 && ok; s++)
        if (fi[s].infinite && fi[1 - s].bottom < 0) {
            int64_t d = (int64_t)max_degree - fi[1 - s].bottom;
            fdmod_free(F[s]);
            ok = open_factor(side[s], d > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE : (int32_t)d,
                             &F[s], &fi[s], 1) == 0;
        }
    int inf = ok && (fi[0].infinite || fi[1].infinite);
    if (ok && fdmod_tensor(&P, F[0], F[1], NULL, inf ? max_degree : INT32_MAX, 0, err,
                           sizeof err))
        cli_error("module '%s': %s", cli_str(ref->base), cli_str(err));
    if (P) {
        memset(info, 0, sizeof *info);
        info->kind = SQ_MODSPEC_FINITE;
        info->infinite = inf;
        info->bottom = fdmod_bottom(P);
        info->span = inf ? fi[0].span + fi[1].span : fdmod_top(P) - fdmod_bottom(P);
    }
    fdmod_free(F[0]);
    fdmod_free(F[1]);
    sq_free(side[0]);
    sq_free(side[1]);
    return P;
}

fdmod_t *cli_open_module(const cli_module_ref_t *ref, int32_t max_degree, sq_modspec_info_t *info,
                         int quiet)
{
    if (ref->tensor)
        return open_tensor(ref, max_degree, info, quiet);
    static const char sphere[] = "{\"p\": 2, \"gens\": {\"x0\": 0}, \"actions\": []}";
    char err[1024];
    sq_modspec_opts_t mo = {.warn = quiet ? NULL : stderr,
                            .have_max_degree = 1,
                            .max_degree = max_degree,
                            .info = info,
                            .shift = ref->shift};
    sq_modspec_module_t m;
    int rc = ref->builtin_sphere
                 ? sq_modspec_load_module(&m, sphere, sizeof sphere - 1, "S_2", &mo, err,
                                          sizeof err)
                 : sq_modspec_load_module_file(&m, ref->path, ref->path, &mo, err, sizeof err);
    if (rc) {
        cli_error("%s", err);
        return NULL;
    }
    return m.p == 2 ? m.m2 : m.modd;
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
    if (fdmod_prime(M) != 2) {
        if (asked == RESOL_NASSAU) {
            cli_error("--algorithm nassau works at the prime 2 only; %s is at the prime %u: use "
                      "--algorithm classical (or auto)",
                      cli_str(fdmod_name(M)), (unsigned)fdmod_prime(M));
            return -1;
        }
        return RESOL_CLASSICAL;
    }
    if (why && asked == RESOL_NASSAU) {
        cli_error("--algorithm nassau resolves finite modules over the whole algebra; %s is %s: "
                  "use --algorithm classical (or auto)",
                  fdmod_name(M), why);
        return -1;
    }
    if (!why && resol_engine_check(M, asked, err, sizeof err)) {
        cli_error("--algorithm %s: %s", asked == RESOL_NASSAU ? "nassau" : "classical", err);
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
    if (fdmod_prime(M) != 2)
        cli_note("engine: classical (the prime is %u; Nassau's algorithm is for p = 2)",
                 (unsigned)fdmod_prime(M));
    else if (why)
        cli_note("engine: classical (%s is %s)", cli_str(fdmod_name(M)), why);
    else if (fdmod_profile(M, h) > 0)
        cli_note("engine: classical (%s is a module over a subalgebra)", cli_str(fdmod_name(M)));
    else if (used == RESOL_CLASSICAL)
        cli_note("engine: classical (a region of at most 40 stems above the bottom, where it is "
                 "faster than nassau)");
    else
        cli_note("engine: nassau (%s is a finite module over the whole algebra)",
                 cli_str(fdmod_name(M)));
}

/* --from FILE: the resolution kept in a store (adams resolve --save),
 * loaded, not computed: the region is the store's completed one, or
 * --stem/--max-s, and what is available is decided from the rows, as
 * `adams ext` does: a region with a missing row is refused, naming it,
 * before anything of its size is allocated.  Returns NULL after a
 * one-line error. */
resol_t *cli_store_resolution(const char *path, int have_stem, int64_t *stem, int have_max_s,
                              int64_t *max_s, fdmod_t **M)
{
    char err[1024];
    sq_store_t *st = NULL;
    sq_store_info_t si;
    resol_t *R = NULL;
    *M = NULL;
    if (sq_store_open_read(&st, path, err, sizeof err) || sq_store_info(st, &si, err, sizeof err)) {
        cli_error("%s", err);
        sq_store_close(st);
        return NULL;
    }
    if ((!have_stem || !have_max_s) && si.done_s < 0) { /* done_s < 0: none (stems may be) */
        cli_error("store %s holds no completed run (its last run, through s <= %d and stem %d, "
                  "stopped before the end): resume it with adams resolve --save, or give "
                  "--stem and --max-s for a part it holds",
                  cli_str(path), (int)si.region_s, (int)si.region_n);
        sq_store_close(st);
        return NULL;
    }
    if (!have_stem)
        *stem = si.done_n;
    if (!have_max_s)
        *max_s = si.done_s;
    int32_t miss_s, miss_n;
    if (*stem < si.bottom) {
        cli_error("--stem %lld is below the bottom degree %d of %s (store %s)", (long long)*stem,
                  (int)si.bottom, cli_str(si.module_name), cli_str(path));
        sq_store_close(st);
        return NULL;
    }
    if (*max_s < 0 || *max_s > RESOL_MAX_T || *stem > RESOL_MAX_T ||
        sq_store_region_missing(st, (int32_t)*max_s, (int32_t)*stem, &miss_s, &miss_n, err,
                                sizeof err)) {
        if (*max_s < 0 || *max_s > RESOL_MAX_T || *stem > RESOL_MAX_T)
            snprintf(err, sizeof err, "store %s does not hold (n=%lld, s=%lld)", path,
                     (long long)*stem, (long long)*max_s);
        cli_error("%s", cli_str(err));
        sq_store_close(st);
        return NULL;
    }
    const char *text = sq_store_stored_module_text(st);
    if (!text || cli_store_module_for(NULL, text, si.module_name, (int32_t)*stem, M, err,
                                      sizeof err) || !*M) {
        cli_error("store %s: its module cannot be rebuilt from the store alone", cli_str(path));
        sq_store_close(st);
        return NULL;
    }
    R = resol_new(*M, (int32_t)*max_s, (int32_t)*stem);
    sq_store_load_stats_t ls;
    int rc = sq_store_load(st, R, 0, NULL, &ls, err, sizeof err);
    for (int32_t s = 0; s <= *max_s && !rc; s++) /* every step of the region, as ext */
        for (int32_t n = si.bottom; n <= *stem && !rc; n++)
            if (!resol_step_published(R, s, s + n)) {
                snprintf(err, sizeof err,
                         "store %s: the step (s=%d, t=%d) cannot be loaded: a step it depends "
                         "on is missing",
                         path, (int)s, (int)(s + n));
                rc = SQ_STORE_E_MISSING;
            }
    sq_store_close(st);
    if (rc) {
        cli_error("%s", cli_str(err));
        resol_free(R);
        fdmod_free(*M);
        *M = NULL;
        return NULL;
    }
    return R;
}
