/*
 * cli_from.h -- the resolution a verb reads from a store instead of
 * computing it (--from FILE), and what `adams check` and `adams resolve
 * --save` need of a store's module (cli_from.c).
 */
#ifndef CLI_FROM_H
#define CLI_FROM_H

#include <stdint.h>

#include "cli_module.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "fdmod.h"
#include "resol.h"

/* Flags of cli_from_prepare. */
enum {
    CLI_FROM_COMPUTES = 1, /* the verb computes besides (the sphere of product and massey):
                            * --threads, --progress, --gpu are not refused */
    CLI_FROM_REGION = 2    /* *stem and *max_s are the region wanted (not --stem/--max-s) */
};

/* --from FILE: the resolution kept in a store, for o->verb.  Checks, before
 * anything is loaded: the store opens and holds a completed run; a MODULE
 * operand (spec, NULL when none) names exactly the store's module and
 * --algorithm its engine (else one line, CLI_USAGE); the module can be
 * rebuilt from the store; the region (CLI_FROM_REGION: *stem, *max_s; else
 * --stem/--max-s, else the store's) lies within the store and not below the
 * module's bottom (CLI_USAGE); without CLI_FROM_COMPUTES the options that
 * only matter to a computation (--threads, --progress, --gpu) are refused
 * (CLI_USAGE); the region's memory fits (CLI_NOMEM).  Then loads it
 * (cli_store_resolution).  On CLI_OK *R and *M are the resolution and its
 * module (the caller frees both), *stem and *max_s the region. */
int cli_from_prepare(const cli_opts_t *o, const char *spec, int flags, resol_t **R, fdmod_t **M,
                     int64_t *stem, int64_t *max_s);

struct sq_store;
/* adams check: the estimate of the resolution the store st holds (its
 * largest region; checking costs about one resolution of it), refused
 * like a run's (CLI_NOMEM after one line) when it cannot fit in
 * --max-memory or the memory available.  Returns 0 or CLI_NOMEM (0 also
 * when the store cannot say: the check then reports it). */
int cli_store_check_memory(const cli_opts_t *o, struct sq_store *st);

/* The identity text a store keeps for a module truncated from an infinite
 * one (its file and shift: "adams module definition; shift K" and the
 * file's text).  A new string (sq_free), or NULL when the file cannot be
 * read. */
char *cli_definition_text(const cli_module_ref_t *ref);

#endif /* CLI_FROM_H */
