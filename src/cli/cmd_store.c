/*
 * cmd_store.c -- the saving run of `adams resolve --save FILE`: messages
 * and exit codes around the store library's sq_store_run.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "cmd_store.h"
#include "resol_unstable.h"
#include "sq_core.h"
#include "sq_moddef.h"
#include "sq_modspec.h"
#include "sq_progress.h"
#include "sq_store.h"

int cli_store_resolve(resol_t **out, const char *path, const fdmod_t *M, const char *module_name,
                      const char *module_text, resol_algo_t *algo, int32_t max_s, int32_t max_n,
                      sq_pool_t *pool, int progress, int quiet, int64_t cache_budget,
                      int unstable)
{
    return cli_store_resolve_open(out, NULL, path, M, module_name, module_text, algo, max_s,
                                  max_n, pool, progress, quiet, cache_budget, unstable);
}

int cli_store_resolve_open(resol_t **out, sq_store_t **keep, const char *path, const fdmod_t *M,
                           const char *module_name, const char *module_text, resol_algo_t *algo,
                           int32_t max_s, int32_t max_n, sq_pool_t *pool, int progress,
                           int quiet, int64_t cache_budget, int unstable)
{
    *out = NULL;
    if (keep)
        *keep = NULL;
    char err[1024];
    sq_store_t *st;
    sq_store_binding_t b = {.module = M,
                            .module_name = module_name,
                            .module_text = module_text,
                            .engine = *algo,
                            .max_s = max_s,
                            .max_n = max_n,
                            .unstable = unstable};
    int rc = sq_store_open(&st, path, &b, err, sizeof err);
    if (rc) {
        cli_error("%s", err);
        return rc == SQ_STORE_E_BINDING ? CLI_USAGE : CLI_FAIL;
    }
    *algo = sq_store_engine(st);
    resol_t *R = unstable ? resol_new_unstable(M, max_s, max_n) : resol_new(M, max_s, max_n);
    cli_attach(R);
    if (cache_budget >= 0)
        resol_set_cache_budget(R, cache_budget);
    sq_progress_t *prog = progress ? sq_progress_new(stderr, R, *algo) : NULL;
    resol_observer_t pobs = sq_progress_observer(prog);
    sq_store_run_result_t res;
    if (sq_store_signals_install(R) != 0) { /* only when installed twice: a bug */
        cli_error("cannot handle signals for the run saved in %s", cli_str(path));
        sq_progress_free(prog);
        sq_store_close(st);
        resol_free(R);
        return CLI_FAIL;
    }
    rc = sq_store_run(st, R, pool, prog ? &pobs : NULL, 0, &res, stderr, err, sizeof err);
    int sig = sq_store_signals_caught();
    sq_store_signals_restore();
    sq_progress_free(prog);
    if (!quiet && res.load.loaded > 0)
        cli_note("resumed from %s: %lld of %lld steps were stored", path,
                 (long long)res.load.loaded, (long long)res.total);
    int ret = CLI_OK;
    if (rc < 0) {
        cli_error("%s", err);
        if (rc != SQ_STORE_E_DAMAGED && res.load.loaded + res.computed > 0)
            cli_error("%lld of %lld steps are saved in %s; remove the cause and run the same "
                      "command again to resume",
                      (long long)res.stored, (long long)res.total, path);
        else if (rc == SQ_STORE_E_DAMAGED)
            cli_error("run 'adams check %s' to see what is damaged", path);
        ret = CLI_FAIL;
    } else if (rc == 1) {
        cli_error("interrupted: %lld of %lld steps are saved in %s; run the same command again "
                  "to resume",
                  (long long)res.stored, (long long)res.total, path);
        ret = 128 + (sig ? sig : SIGINT);
    }
    if (ret == CLI_OK && keep)
        *keep = st;
    else
        sq_store_close(st);
    if (ret != CLI_OK) {
        resol_free(R);
        return ret;
    }
    *out = R;
    return CLI_OK;
}

int cli_store_module_for(void *ctx, const char *text, const char *name, int32_t max_n,
                         fdmod_t **out, char *err, size_t errlen)
{
    (void)ctx;
    *out = NULL;
    if (sq_moddef_is(text))
        return sq_moddef_load(out, text, name, max_n, err, errlen);
    int rc = sq_store_module_from_text(out, text, name, err, errlen);
    if (!rc && !*out)
        rc = (snprintf(err, errlen, "its text is not a module this adams reads"), SQ_E_PARSE);
    return rc;
}
