/*
 * cmd_store.h -- the store's commands (`adams ext`, `adams check`) and the
 * saving run that `adams resolve --save FILE` calls (cmd_store.c).
 */
#ifndef CMD_STORE_H
#define CMD_STORE_H

#include <stdint.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_pool.h"

/* `adams ext FILE [--format chart|csv] [--stem N] [--max-s S]`: the E2 page
 * from a store, without computing (cmd_ext.c).  Exit status 0, 1 (damaged,
 * incomplete or unreadable store), 2 (usage). */
int cmd_ext(int argc, char **argv);

/* `adams check FILE [--full] [--spots K] [--seed N] [--threads K]`: verifies
 * a store (cmd_check.c).  Exit status 0 (ok), 1 (damage found, or I/O),
 * 2 (usage). */
int cmd_check(int argc, char **argv);

/* Exit status of a saving run stopped by SIGINT (128 + SIGINT); SIGTERM
 * gives 128 + SIGTERM. */
#define CLI_INTERRUPTED 130

/* The saving run of `adams resolve --save FILE`: opens (creates) the store
 * at path bound to M (module_name for messages; module_text NULL unless M
 * is truncated from an infinite module, see sq_store.h), resolves M
 * through (max_s, max_n) computing only what the store lacks, with
 * SIGINT/SIGTERM handled (the first stops after the steps in flight are
 * committed, a second at once), and prints its messages on stderr (the
 * notes only when !quiet).  *algo: the engine asked (RESOL_AUTO allowed);
 * set to the engine used (the store's).  With progress, a progress line on
 * stderr (cleared before any message).
 * On CLI_OK *out is the complete resolution: the caller prints its chart
 * and frees it.  Returns CLI_OK, CLI_USAGE (the store is for another
 * module, prime, profile or engine), CLI_FAIL (I/O, a damaged store,
 * another process writing it) or 128 + the signal (interrupted; rerun to
 * resume); *out is NULL unless CLI_OK.  cache_budget: for
 * resol_set_cache_budget (< 0: the library's default).  unstable: the
 * run is M's unstable resolution (resol_new_unstable; M passed
 * cli_unstable_prepare, *algo classical), kept in a store of category
 * `unstable` (format 4); a store of the other category is refused
 * (CLI_USAGE). */
int cli_store_resolve(resol_t **out, const char *path, const fdmod_t *M, const char *module_name,
                      const char *module_text, resol_algo_t *algo, int32_t max_s, int32_t max_n,
                      sq_pool_t *pool, int progress, int quiet, int64_t cache_budget,
                      int unstable);

struct sq_store;
/* cli_store_resolve that leaves the store open for writing in *keep on
 * CLI_OK (keep NULL: closed, as cli_store_resolve): the secondary lift of
 * `adams d2 --save` goes into the same store (sq_store_secondary.h); the
 * caller sq_store_closes it. */
int cli_store_resolve_open(resol_t **out, struct sq_store **keep, const char *path,
                           const fdmod_t *M, const char *module_name, const char *module_text,
                           resol_algo_t *algo, int32_t max_s, int32_t max_n, sq_pool_t *pool,
                           int progress, int quiet, int64_t cache_budget, int unstable);

/* The module of a store rebuilt from its identity text, truncated for
 * stems <= max_n: the canonical text of a finite module
 * (sq_store_module_from_text), or the definition that `adams resolve
 * --save` records for a module truncated from an infinite one ("adams
 * module definition; shift K" and the module file's text, read by the
 * module-file loader).  name names it.  Returns 0 with *out set, or a
 * negative code with a one-line reason in err.  The shape of
 * sq_store_check_opts_t.module_for (ctx unused). */
int cli_store_module_for(void *ctx, const char *text, const char *name, int32_t max_n,
                         fdmod_t **out, char *err, size_t errlen);

#endif /* CMD_STORE_H */
