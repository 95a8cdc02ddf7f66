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
#include "sq_modopen.h"

/* A module named on the command line, found but not loaded (sq_modopen.h). */
typedef sq_modref_t cli_module_ref_t;

/* Finds the module named by spec ("NAME", "PATH", with "[k]" and
 * "@milnor"/"@adem"): its file, or the built-in S_2.  A spec with '*' that
 * names no existing file is the tensor product of its factors ("C2*Ceta",
 * "C2[1]*Ceta", "a*b*c" = (a*b)*c, at most SQ_MODREF_MAX_FACTORS), each of which
 * is found now (docs/modules.md, "Tensor products").  Prints the notes
 * (a ./NAME.json shadowing a shipped module, @adem) unless quiet.  Returns
 * 0, or -1 after a one-line error. */
int cli_find_module(const char *spec, cli_module_ref_t *ref, int quiet);

/* The prime of the module's file ("p"; 2 when absent, built in, or when
 * the file cannot be parsed -- the p = 2 loader then names the mistake).
 * Returns 0. */
int cli_module_prime(const cli_module_ref_t *ref, uint32_t *p);

/* The module ref at its prime (a tensor product: built from its factors,
 * fdmod_tensor; an infinite factor truncated so that degrees <= max_degree
 * are exact; a cofiber factor refused) ("NAME", "PATH", either with a shift "[k]"
 * and a basis "@milnor"/"@adem": its JSON file, or the built-in S_2).  An
 * infinite module is truncated to degrees <= max_degree.  Fills *info.
 * Returns NULL after a one-line error.  Warnings about the file go to
 * stderr unless quiet. */
fdmod_t *cli_open_module(const cli_module_ref_t *ref, int32_t max_degree, sq_modspec_info_t *info,
                         int quiet);

/* The engine for M: odd primes, infinite modules (truncated) and cofibers
 * need the classical engine; auto is resol_auto_engine.  Returns the engine, or -1
 * after a one-line error (Nassau asked for what it cannot resolve). */
int cli_choose_engine(resol_algo_t asked, const fdmod_t *M, const sq_modspec_info_t *info,
                      int32_t max_n);

/* The note on stderr saying which engine auto chose, and why (nothing when
 * the engine was asked for, or quiet). */
void cli_engine_note(resol_algo_t asked, resol_algo_t used, const fdmod_t *M,
                     const sq_modspec_info_t *info, int quiet);

/* --from FILE of products and charts: the resolution kept in a store
 * (adams resolve --save), loaded, not computed.  The region is the
 * store's completed one (written to *stem, *max_s), or the given one when
 * it lies within.  The module is rebuilt from the store (*M, freed by the
 * caller with the resolution).  Returns NULL after a one-line error. */
resol_t *cli_store_resolution(const char *path, int have_stem, int64_t *stem, int have_max_s,
                              int64_t *max_s, fdmod_t **M);

#endif /* CLI_MODULE_H */
