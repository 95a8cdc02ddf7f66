/*
 * sq_modspec_write.h -- a finite module written as a module file, the
 * format sq_modspec.h reads (docs/modules.md): the basis in "gens" in the
 * module's order (degree, then index), the action of the algebra
 * generators (Sq^{2^k} at p = 2; b and P^{p^k} at odd p) in "actions", the
 * profile when the module is over a subalgebra.  Loading the text back
 * gives the same module (the same basis, names and action table).  Names
 * the reader would refuse are written changed: white space, '+' and '='
 * become '_', and an 'x' goes before an empty name or a leading digit (the
 * basis of a finitely presented module is named "Sq(4) x0"); two names
 * that become alike are then refused by the reader.
 */
#ifndef SQ_MODSPEC_WRITE_H
#define SQ_MODSPEC_WRITE_H

#include <stdio.h>

#include "fdmod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The module file of M, with "description" (NULL: none) as a one-line
 * string: a new NUL-terminated string (sq_free).  Every generator action
 * that is nonzero is written, one string each, in the order generator
 * degree, then basis element; coefficients are residues 1..p-1 written
 * before the name when not 1.  Cost: one read of the generators' part of
 * M's table. */
char *sq_modspec_write_text(const fdmod_t *M, const char *description);

/* The same text written to f.  Returns 0, or SQ_E_IO when a write failed. */
int sq_modspec_write(FILE *f, const fdmod_t *M, const char *description);

#ifdef __cplusplus
}
#endif

#endif /* SQ_MODSPEC_WRITE_H */
