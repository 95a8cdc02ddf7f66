/*
 * sq_modopen.h -- a module named as on the command line, found and loaded,
 * for every front end (the program, the C interface for bindings): "NAME"
 * or "PATH", a shift "[k]", a basis "@milnor"/"@adem" (sq_modname.h), the
 * built-in S_2, tensor products "M*N*..." of such names
 * (docs/modules.md, "Tensor products") and duals "D(N)" ("Duals").
 */
#ifndef SQ_MODOPEN_H
#define SQ_MODOPEN_H

#include <stdint.h>
#include <stdio.h>

#include "fdmod.h"
#include "sq_modspec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A module named by a front end, found but not loaded. */
typedef struct {
    char base[SQ_MODSPEC_PATH_MAX]; /* the name without shift and basis */
    char path[SQ_MODSPEC_PATH_MAX]; /* its file ("" for the built-in sphere) */
    int builtin_sphere;             /* S_2 with no file anywhere: built in */
    int32_t shift;                  /* the "[k]" of the name */
    int adem;                       /* the name ended in "@adem" */
    int32_t tensor;                 /* "M*N": 1 + the place of the last '*' outside
                                     * parentheses in base (which holds the whole name; path
                                     * is ""), else 0 */
    int dual;                       /* "D(N)": the dual of the module named N (base holds
                                     * the whole name; path is ""), else 0 */
} sq_modref_t;

/* Most factors a module name "M*N*..." may have. */
#define SQ_MODREF_MAX_FACTORS 8

/* Names in messages are clipped to this many bytes (made printable). */
#define SQ_MODREF_NAME_CLIP 256

/* Receives each note (one line, no prefix, no newline) of sq_modref_find. */
typedef void (*sq_modref_note_fn)(void *ctx, const char *note);

/* Finds the module named by spec: its file, or the built-in S_2.  A spec
 * with '*' outside parentheses that names no existing file is the tensor
 * product of its factors (split at the last such '*': "a*b*c" = (a*b)*c,
 * at most SQ_MODREF_MAX_FACTORS), each found now; else a spec "D(N)" that
 * names no existing file is the dual of N (fdmod_dual.h), N found now, and
 * "D(N)[k]" that dual shifted by k (in shift).  Notes (a ./NAME.json shadowing
 * a shipped module, @adem) go to note(ctx, ...) unless note is NULL.
 * Returns 0, or SQ_E_INVAL with one line in err (errlen bytes). */
int sq_modref_find(sq_modref_t *ref, const char *spec, sq_modref_note_fn note, void *ctx,
                   char *err, size_t errlen);

/* The prime of ref's file ("p"; 2 when absent, built in, or when the file
 * cannot be parsed -- the loader then names the mistake); a tensor
 * product's is its left factor's, a dual's its module's.  Returns 0. */
int sq_modref_prime(const sq_modref_t *ref, uint32_t *p);

/* Loads ref at its prime into *M (a tensor product: built from its factors
 * by fdmod_tensor, an infinite factor truncated so that degrees <=
 * max_degree are exact, a cofiber factor refused; a dual: fdmod_dual of the
 * whole module, an infinite or cofiber module refused); an infinite module is
 * truncated to degrees <= max_degree.  Fills *info.  Warnings about files
 * go to warn unless it is NULL.  Returns 0, or an SQ_E_* code with one
 * line in err (errlen bytes) and *M = NULL. */
int sq_modref_open(fdmod_t **M, const sq_modref_t *ref, int32_t max_degree,
                   sq_modspec_info_t *info, FILE *warn, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SQ_MODOPEN_H */
