/*
 * sq_moddef.h -- the definition text that identifies, in a store, a module
 * truncated from an infinite one (RP_inf, an infinite finitely presented
 * module; docs/save-format.md section 3): the line
 *     adams module definition; shift K
 * followed by the module file's text.  Such a module's truncation grows
 * with the stem, so its canonical text (sq_store_module_text) changes as
 * a store is extended; the definition does not.  Written by `adams resolve
 * --save` and by the C interface for bindings, read back by every reader
 * of a store (adams check, --from, adams_open_store).
 */
#ifndef SQ_MODDEF_H
#define SQ_MODDEF_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The definition text of the module file at path shifted by shift: a new
 * string (sq_free), or NULL when the file cannot be read.  Cost: one read
 * of the file. */
char *sq_moddef_text(const char *path, int32_t shift);

/* 1 when text is a definition text (its first line), else 0. */
int sq_moddef_is(const char *text);

/* The module of a definition text, named name, truncated for Ext through
 * stem max_n (degrees <= max_n + 2, at most SQ_MODSPEC_MAX_DEGREE), read by
 * the module-file loader (sq_modspec_load_buffer).  Returns 0 with *out
 * set, or a negative code (SQ_E_PARSE: no valid shift line; the loader's
 * codes) with *out NULL and one line in err. */
int sq_moddef_load(fdmod_t **out, const char *text, const char *name, int32_t max_n, char *err,
                   size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SQ_MODDEF_H */
