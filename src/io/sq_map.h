/*
 * sq_map.h -- map files (JSON): a map of finite modules f : source ->
 * target raising degrees by "degree", given by the image of every basis
 * element of the source in the target's basis (docs/modules.md "Maps"):
 *
 *     { "source": "C2", "target": "S_2", "degree": 0,
 *       "images": { "x0": "x0", "x1": "0" } }
 *
 * "source" and "target" name modules as the program takes them (a shipped
 * name with an optional [shift], or a path); each image is a sum of terms
 * "0", "NAME" or "COEFF NAME" separated by '+' or " - " (coefficients mod
 * p), as the right sides of a module file's actions.  Reading is in two
 * steps: sq_mapfile_read parses the file (the caller then loads the two
 * modules), sq_mapfile_build checks the images against them and the map
 * against the algebra.  Every refusal is one line naming the file, the
 * line where it can be found and the field.
 */
#ifndef SQ_MAP_H
#define SQ_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "fdmap.h"
#include "fdmod.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sq_mapfile sq_mapfile_t;

/* The largest map file sq_mapfile_read reads, in bytes. */
#define SQ_MAP_MAX_FILE (1 << 20)

/* Reads the map file at path (at most 1 MiB): a JSON object with the
 * string fields "source" and "target", the integer "degree" (|degree| <=
 * 1000000) and the object "images" of strings; other keys are refused.
 * Returns 0 and sets *out (free with sq_mapfile_free), or with *out =
 * NULL and one line in err: SQ_E_IO (unreadable), SQ_E_PARSE (JSON
 * syntax), SQ_E_INVAL (a field missing or of the wrong type), SQ_E_RANGE
 * (too large). */
int sq_mapfile_read(sq_mapfile_t **out, const char *path, char *err, size_t errlen) SQ_WARN_UNUSED;
void sq_mapfile_free(sq_mapfile_t *mf);

/* The fields "source", "target" (owned by mf) and "degree". */
void sq_mapfile_header(const sq_mapfile_t *mf, const char **source, const char **target,
                       int32_t *degree);

/* Builds the map of mf from src (the module "source" named) to tgt
 * ("target"), S the algebra at their prime reaching their spans: every
 * basis element of src has exactly one image, every name of an image is a
 * basis element of tgt in the degree of the element plus "degree", and the
 * map is A-linear (fdmap_check_linear).  Returns 0 and sets *out (free with
 * fdmap_free; it borrows src and tgt), or SQ_E_INVAL with *out = NULL and
 * one line in err (modules at different primes, an unknown or missing
 * element, a name in the wrong degree, a map that is not A-linear). */
int sq_mapfile_build(const sq_mapfile_t *mf, const fdmod_t *src, const fdmod_t *tgt,
                     const stalg_t *S, fdmap_t **out, char *err, size_t errlen) SQ_WARN_UNUSED;

/* The map file of f (its "degree" f's, "images" every basis element of
 * the source, by degree then index, "0" or terms "NAME" / "COEFF NAME"
 * joined by " + "), naming its modules source and target as the program
 * takes them (a name, NAME[k], or a path), with "description" when not
 * NULL: a new NUL-terminated string ending in a newline (sq_free), or
 * NULL when a name or the description is not UTF-8.
 * Reading it back (sq_mapfile_read, then sq_mapfile_build on f's modules)
 * gives f.  Cost: one application of f per basis element. */
char *sq_map_write_text(const fdmap_t *f, const char *source, const char *target,
                        const char *description);

#ifdef __cplusplus
}
#endif

#endif /* SQ_MAP_H */
