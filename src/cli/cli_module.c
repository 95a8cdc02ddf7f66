/*
 * cli_module.c -- loading a module and choosing an engine, for every verb
 * that resolves (cli_module.h).
 */
#include "cli_module.h"

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_store.h"
#include "resol_unstable.h"
#include "sq_modopen.h"
#include "sq_store.h"
#include "sq_core.h"

/* Each note of sq_modref_find, as "adams: note: ...". */
static void print_note(void *ctx, const char *note)
{
    (void)ctx;
    cli_note("%s", note);
}

int cli_find_module(const char *spec, cli_module_ref_t *ref, int quiet)
{
    char err[2048];
    if (sq_modref_find(ref, spec, quiet ? NULL : print_note, NULL, err, sizeof err) == 0)
        return 0;
    cli_error("%s", err);
    return -1;
}

int cli_module_prime(const cli_module_ref_t *ref, uint32_t *p)
{
    return sq_modref_prime(ref, p);
}

fdmod_t *cli_open_module(const cli_module_ref_t *ref, int32_t max_degree, sq_modspec_info_t *info,
                         int quiet)
{
    char err[2048];
    fdmod_t *M;
    if (sq_modref_open(&M, ref, max_degree, info, quiet ? NULL : stderr, err, sizeof err) == 0)
        return M;
    cli_error("%s", err);
    return NULL;
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
    int rc = 0;
    if (si.unstable) /* the unstable free modules: docs/unstable.md */
        rc = resol_try_new_unstable(&R, *M, (int32_t)*max_s, (int32_t)*stem, err, sizeof err);
    else
        R = resol_new(*M, (int32_t)*max_s, (int32_t)*stem);
    if (rc) {
        cli_error("store %s keeps an unstable resolution of a module that is not unstable "
                  "(%s): it is damaged",
                  cli_str(path), cli_str(err));
        sq_store_close(st);
        fdmod_free(*M);
        *M = NULL;
        return NULL;
    }
    sq_store_load_stats_t ls;
    rc = sq_store_load(st, R, 0, NULL, &ls, err, sizeof err);
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
