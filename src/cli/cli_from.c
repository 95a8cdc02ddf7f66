/*
 * cli_from.c -- the resolution a verb reads from a store instead of
 * computing it (--from FILE), and what `adams check` and `adams resolve
 * --save` need of a store's module (cli_from.h).
 */
#include "cli_from.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_store.h"
#include "sq_core.h"
#include "sq_moddef.h"
#include "sq_store.h"

/* The options that only matter to a computation, refused with --from when
 * nothing is computed.  Returns 0 or CLI_USAGE. */
static int refuse_compute_opts(const cli_opts_t *o)
{
    static const cli_opt_t ids[] = {CLI_OPT_THREADS, CLI_OPT_PROGRESS, CLI_OPT_GPU};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (cli_given(o, ids[i]) && !(ids[i] == CLI_OPT_PROGRESS && o->progress <= 0)) {
            cli_error("%s: %s: nothing is computed with --from (the resolution is read from %s)",
                      o->verb->name, cli_opt_name(ids[i]), cli_str(o->from));
            return CLI_USAGE;
        }
    return 0;
}

char *cli_definition_text(const cli_module_ref_t *ref)
{
    return sq_moddef_text(ref->path, ref->shift);
}

/* The identity text a store keeps for the module named spec, at any prime
 * (the canonical text of a finite module, the definition of an infinite
 * one, truncated at max_degree as the store's run was): *text, or NULL
 * with *why the kind no store holds (a cofiber).  Returns 0, or -1 after a
 * one-line error (spec cannot be found or loaded). */
static int identity_text(const char *spec, int32_t max_degree, char **text, const char **why)
{
    cli_module_ref_t ref;
    sq_modspec_info_t info;
    *text = NULL;
    *why = NULL;
    if (cli_find_module(spec, &ref, 1))
        return -1;
    fdmod_t *M = cli_open_module(&ref, max_degree, &info, 1);
    if (!M)
        return -1;
    if (info.cofiber)
        *why = cli_kind_words(CLI_KIND_COFIBER, fdmod_prime(M));
    else
        *text = info.infinite ? cli_definition_text(&ref) : sq_store_module_text(M);
    fdmod_free(M);
    return 0;
}

/* MODULE given with --from: accepted only when it is the store's module
 * (the same identity text).  Returns 0 or CLI_USAGE. */
static int check_from_module(const cli_opts_t *o, const char *spec, int64_t stem,
                             const char *stored_text, const char *stored_name)
{
    char *text;
    const char *why;
    int32_t top = stem + 2 > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE : (int32_t)stem + 2;
    if (identity_text(spec, top, &text, &why))
        return CLI_USAGE;
    if (why) {
        cli_error("%s: --from: %s is %s, which no store holds (resolve --save refuses it)",
                  o->verb->name, cli_str(spec), why);
        return CLI_USAGE;
    }
    int same = text && strcmp(text, stored_text) == 0;
    sq_free(text);
    if (!same) {
        cli_error("%s: the module %s is not the module %s of the store %s given by --from (give "
                  "no module with --from, or its own)",
                  o->verb->name, cli_str(spec), cli_str(stored_name), cli_str(o->from));
        return CLI_USAGE;
    }
    return 0;
}

/* --algorithm given with --from: accepted when auto or the store's engine. */
static int check_from_algo(const cli_opts_t *o, resol_algo_t engine)
{
    if (o->algo == RESOL_AUTO || o->algo == engine)
        return 0;
    const char *e = engine == RESOL_NASSAU ? "nassau" : "classical";
    cli_error("%s: --algorithm %s: the store %s given by --from was computed by the %s engine "
              "(give --algorithm auto or %s, or none)",
              o->verb->name, o->algo == RESOL_NASSAU ? "nassau" : "classical", cli_str(o->from),
              e, e);
    return CLI_USAGE;
}

/* The region of --from, checked before anything is loaded: CLI_FROM_REGION's,
 * else --stem/--max-s, else the store's completed run; not below the
 * module's bottom (resol_new would refuse it); every row of it in the store
 * (sq_store_region_missing: decided from the rows, never sized by the
 * region).  Returns 0 or CLI_USAGE after one line. */
static int from_region(const cli_opts_t *o, sq_store_t *st, const sq_store_info_t *si, int flags,
                       int64_t *stem, int64_t *max_s)
{
    if (!(flags & CLI_FROM_REGION)) {
        if ((!cli_given(o, CLI_OPT_STEM) || !cli_given(o, CLI_OPT_MAXS)) && si->done_s < 0) {
            cli_error("--from: store %s holds no completed run: resume it with adams resolve "
                      "--save first, or give --stem and --max-s",
                      cli_str(o->from));
            return CLI_USAGE;
        }
        *stem = cli_given(o, CLI_OPT_STEM) ? o->stem : si->done_n;
        *max_s = cli_given(o, CLI_OPT_MAXS) ? o->max_s : si->done_s;
    }
    if (*stem < si->bottom) {
        cli_error("%sstem %lld is below the bottom degree %d of %s (the module of the store %s)",
                  (flags & CLI_FROM_REGION) ? "" : "--", (long long)*stem, (int)si->bottom,
                  cli_str(si->module_name), cli_str(o->from));
        return CLI_USAGE;
    }
    char err[1024];
    int32_t ms, mn;
    if (*max_s < 0 || sq_store_region_missing(st, (int32_t)*max_s, (int32_t)*stem, &ms, &mn, err,
                                              sizeof err)) {
        if (*max_s < 0)
            snprintf(err, sizeof err, "store %s does not hold (n=%lld, s=%lld)", o->from,
                     (long long)*stem, (long long)*max_s);
        cli_error("--from: %s", err);
        return CLI_USAGE;
    }
    return 0;
}

/* The checks of cli_from_prepare on the open store st. */
static int from_checks(const cli_opts_t *o, const char *spec, int flags, sq_store_t *st,
                       int64_t *stem, int64_t *max_s)
{
    char err[1024];
    sq_store_info_t si;
    if (sq_store_info(st, &si, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    const char *text = sq_store_stored_module_text(st);
    /* An unstable store's chart is its dimensions; what the other verbs
     * compute from a resolution (products, Massey products, d_2) is
     * stable only (docs/unstable.md). */
    if (si.unstable && strcmp(o->verb->name, "chart") != 0) {
        cli_error("%s: --from: the store %s keeps an unstable resolution (S^n, --unstable); %s "
                  "reads stable ones only (chart --from draws it)",
                  o->verb->name, cli_str(o->from), o->verb->name);
        return CLI_USAGE;
    }
    int rc = from_region(o, st, &si, flags, stem, max_s);
    if (!rc && spec && text)
        rc = check_from_module(o, spec, *stem, text, si.module_name);
    if (!rc)
        rc = check_from_algo(o, si.engine);
    fdmod_t *M = NULL;
    if (!rc && (!text || cli_store_module_for(NULL, text, si.module_name, (int32_t)*stem, &M, err,
                                              sizeof err) ||
                !M)) {
        cli_error("--from: store %s: its module cannot be rebuilt from the store alone",
                  cli_str(o->from));
        rc = CLI_USAGE;
    }
    if (!rc)
        rc = cli_check_memory(o, M, si.engine, (int32_t)*stem, (int32_t)*max_s, o->progress < 0);
    fdmod_free(M);
    return rc;
}

int cli_from_prepare(const cli_opts_t *o, const char *spec, int flags, resol_t **R, fdmod_t **M,
                     int64_t *stem, int64_t *max_s)
{
    *R = NULL;
    *M = NULL;
    int rc = (flags & CLI_FROM_COMPUTES) ? 0 : refuse_compute_opts(o);
    if (rc)
        return rc;
    char err[1024];
    sq_store_t *st = NULL;
    if (sq_store_open_read(&st, o->from, err, sizeof err)) {
        cli_error("%s", err);
        return CLI_USAGE;
    }
    rc = from_checks(o, spec, flags, st, stem, max_s);
    sq_store_close(st);
    if (rc)
        return rc;
    *R = cli_store_resolution(o->from, 1, stem, 1, max_s, M);
    return *R ? CLI_OK : CLI_USAGE;
}

int cli_store_check_memory(const cli_opts_t *o, sq_store_t *st)
{
    char err[1024];
    sq_store_info_t si;
    const char *text = sq_store_stored_module_text(st);
    if (!text || sq_store_info(st, &si, err, sizeof err))
        return 0; /* the check says what is wrong */
    int32_t n = si.done_n > si.region_n ? si.done_n : si.region_n;
    int32_t s = si.done_s > si.region_s ? si.done_s : si.region_s;
    fdmod_t *M = NULL;
    if (n < si.bottom || s < 0 ||
        cli_store_module_for(NULL, text, si.module_name, n, &M, err, sizeof err) || !M) {
        fdmod_free(M);
        return 0;
    }
    int rc = cli_check_memory(o, M, si.engine, n, s, 1);
    fdmod_free(M);
    return rc;
}
