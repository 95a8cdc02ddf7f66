/*
 * sq_modname.h -- the basis suffix of a module named on the command line,
 * the peer's "NAME@milnor" or "NAME@adem" (also after a shift:
 * "Ceta[2]@adem"), for every front end (the program, the C interface for
 * bindings).  The rest of a name, "NAME[k]" and where NAME's file is, is
 * sq_modspec.h's (sq_modspec_parse_name, sq_modspec_resolve_name).
 */
#ifndef SQ_MODNAME_H
#define SQ_MODNAME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Cuts the basis suffix from spec into base (n bytes; spec itself when it
 * has none: no '@', or a '/' after the last one) and sets *adem (1 for
 * "@adem", which changes only the names of basis elements: adams works in
 * the Milnor basis).  Returns 0, or SQ_E_INVAL with one line in err (errlen
 * bytes): "unknown basis 'X' after '@' (expected milnor or adem)", X made
 * printable (sq_modspec_printable). */
int sq_modname_split_basis(char *base, size_t n, const char *spec, int *adem, char *err,
                           size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SQ_MODNAME_H */
