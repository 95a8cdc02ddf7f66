/*
 * cli_module.h -- what every verb that resolves a module shares: naming
 * and loading the module, choosing the engine, saying which on stderr.
 */
#ifndef CLI_MODULE_H
#define CLI_MODULE_H

#include <stdint.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_modspec.h"

/* The module named by spec ("NAME", "PATH", either with a shift "[k]" and
 * a basis "@milnor"/"@adem"): its JSON file (sq_modspec_resolve_name), or
 * the built-in S_2.  An infinite module is truncated to degrees <=
 * max_degree.  Fills *info.  Returns NULL after a one-line error.
 * Warnings about the file go to stderr unless quiet. */
fdmod_t *cli_load_module(const char *spec, int32_t max_degree, sq_modspec_info_t *info, int quiet);

/* The engine for M: infinite modules (truncated) and cofibers need the
 * classical engine; auto is resol_auto_engine.  Returns the engine, or -1
 * after a one-line error (Nassau asked for what it cannot resolve). */
int cli_choose_engine(resol_algo_t asked, const fdmod_t *M, const sq_modspec_info_t *info,
                      int32_t max_n);

/* The note on stderr saying which engine auto chose, and why (nothing when
 * the engine was asked for, or quiet). */
void cli_engine_note(resol_algo_t asked, resol_algo_t used, const fdmod_t *M,
                     const sq_modspec_info_t *info, int quiet);

#endif /* CLI_MODULE_H */
