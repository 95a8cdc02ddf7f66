/*
 * sq_modspec.h -- modules read from JSON files ("module specs") in the
 * format of the Rust peer sseq, at every prime: one reader (one table of
 * keys, one set of limits, one action grammar with the alphabet of the
 * file's "p") that builds the finite module of the prime, an fdmod_t of
 * that prime.  The format, the search path and the error
 * messages are specified in docs/modules.md (odd primes: docs/odd-primes.md).
 *
 *     {"p": 2, "type": "finite dimensional module",
 *      "gens": {"x0": 0, "x1": 1, "x2": 2},
 *      "actions": ["Sq1 x0 = x1", "Sq2 x0 = x2"],
 *      "profile": {"truncated": true, "p_part": [2, 1]},   (optional)
 *      "shift": 3,                                          (optional)
 *      "description": "one line saying what the module is"} (optional)
 *
 * A spec gives the action of the algebra generators Sq^{2^k} on a named
 * basis; the loader checks it (names, degrees, duplicates, limits), builds
 * an fdmod_t, derives the action of every Milnor basis element with
 * fdmod_complete (which checks the module axioms) and attaches the profile.
 *
 * Errors are one line, "<file>:<line>:<col>: <message>" (JSON syntax),
 * "<file>:<line>: <message>" (a key, generator or action whose place in the
 * text was found) or "<file>: <message>", where <file> is the caller's
 * display name.  Strings taken from the input are cut to a few dozen
 * characters, the display name to SQ_MODSPEC_NAME_CLIP bytes, and their
 * control characters replaced by '?' (sq_modspec_printable), so a message
 * is always one line.  Warnings (an unknown key) go, one line each, to the
 * FILE the caller names, or nowhere; after ten, one line gives the number
 * of the rest.
 *
 * Nothing here keeps state between calls; every function may be called
 * from several threads at once.
 */
#ifndef SQ_MODSPEC_H
#define SQ_MODSPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fdmod.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest |degree| of a generator, in the file and after every shift. */
#define SQ_MODSPEC_MAX_DEGREE 10000
/* Largest span (top - bottom) accepted: the action of A reaches degree
 * MILNOR_MAX_DEGREE.  The span itself costs next to nothing (a few cells
 * 2047 degrees apart load in microseconds); what costs is the action the
 * cells are connected by (fdmod_complete, bounded by SQ_MODSPEC_MAX_TABLES). */
#define SQ_MODSPEC_MAX_SPAN MILNOR_MAX_DEGREE
/* Largest degree of an operation in a relation of a finitely presented
 * module.  Checking that "adem_relations" and "milnor_relations" agree
 * reduces, in each relation's degree, a matrix with about
 * (number of relations) * dim A_d rows and (number of generators) * dim A_d
 * columns; dim A_128 = 2,037 keeps that to megabytes, while dim A_512 is
 * about a million.  The relations of the peer's files reach degree 17. */
#define SQ_MODSPEC_MAX_RELATION_DEGREE 128
/* Largest module file read, in bytes. */
#define SQ_MODSPEC_MAX_FILE (16 * 1024 * 1024)
/* Largest estimated size of the finished module, in bytes: its action
 * tables (sum over the pairs of degrees e < f the given action connects of
 * dim A_{f-e} * dim M_e * 8 * ceil(dim M_f / 64)), the names of its basis,
 * and the largest row reduction deriving the action needs
 * (fdmod_complete_cost); refused beyond, before anything is allocated. */
#define SQ_MODSPEC_MAX_TABLES SQ_MODULE_TABLE_LIMIT
/* Largest filtration s of the class a "cofiber" names, and its largest
 * index (no bidegree of a supported resolution has a million classes). */
#define SQ_MODSPEC_MAX_COFIBER_S 1000
#define SQ_MODSPEC_MAX_COFIBER_IDX 1000000
/* Longest path of a module file (sq_modspec_resolve_name); also the size
 * of a buffer that always suffices for its result. */
#define SQ_MODSPEC_PATH_MAX 4096
/* The profile of a module file: 1 to FDMOD_MAX_PROFILE_LEN entries, each in
 * 0..FDMOD_MAX_PROFILE_ENTRY; entries past MILNOR_MAX_LEN never matter
 * (fdmod.h). */

/* The kinds of module a file can describe ("type"). */
typedef enum {
    SQ_MODSPEC_FINITE = 0,      /* "finite dimensional module": gens + actions */
    SQ_MODSPEC_PRESENTED = 1,   /* "finitely presented module": gens + relations */
    SQ_MODSPEC_PROJECTIVE = 2   /* "real projective space": min, max, clear_bottom */
} sq_modspec_kind_t;

/* What a load found out about the module besides the fdmod_t. */
typedef struct {
    sq_modspec_kind_t kind;
    int infinite;     /* 1: the module is infinite; what was built is its quotient by the
                       * degrees above opts.max_degree (exact for Ext in stems < max_degree) */
    int32_t bottom;   /* lowest degree of a cell, after every shift */
    int32_t span;     /* top - bottom of the cells the file names: the generators (finite and
                       * finitely presented), max - min (a finite projective space), 0 (an
                       * infinite one); sets the default filtration of a run */
    int cofiber;      /* 1: the file asks for the cofiber of the class x_(t - s, s, idx) of
                       * the module (the key "cofiber"); the caller resolves it */
    int32_t cof_s, cof_t; /* cof_t after every shift, as the peer adds "shift" to it */
    int64_t cof_idx;
    int32_t cof_target; /* the degree of the class the self-map sends the generator to:
                         * the file's degree 0 moved by every shift */
} sq_modspec_info_t;

/* Options of a load.  A zeroed struct (or a NULL pointer) means: no shift,
 * span limit SQ_MODSPEC_MAX_SPAN, size limit SQ_MODSPEC_MAX_TABLES,
 * warnings discarded, no description, no truncation (an infinite module is
 * then refused). */
typedef struct {
    int32_t shift;          /* added to every degree, after the file's own "shift" */
    int32_t max_span;       /* largest top - bottom accepted; 0: SQ_MODSPEC_MAX_SPAN */
    int64_t max_tables;     /* largest estimate of a module's tables (finite, or an
                             * infinite kind truncated) and of the row reduction deriving
                             * them, in bytes; 0: SQ_MODSPEC_MAX_TABLES (which also caps
                             * it; the fuzzer uses a small one) */
    FILE *warn;             /* where one-line warnings go; NULL: discarded */
    char *description;      /* if not NULL, receives the "description" ("" if none), */
    size_t description_len; /*   NUL-terminated, truncated to description_len bytes */
    int have_max_degree;    /* 1: an infinite module is truncated to degrees <= max_degree */
    int32_t max_degree;     /*   (Ext through stem N needs degrees <= N + 1) */
    sq_modspec_info_t *info; /* if not NULL, receives what the load found out */
} sq_modspec_opts_t;

/* Builds the module at p = 2 described by the JSON text buf[0..len-1] (need
 * not be NUL-terminated; may hold any bytes); a file at an odd prime is
 * refused with a one-line message (SQ_E_INVAL; sq_modspec_load_module reads
 * every prime).  display_name names the input in
 * messages (NULL: "<module>"); the module's own name (fdmod_name) is
 * display_name without its directory and ".json", with "[k]" appended for
 * a total shift k != 0.
 * Returns 0 and sets *out (the caller frees it with fdmod_free), or a
 * negative code with *out = NULL and a one-line message in err (errlen
 * bytes, always NUL-terminated when errlen > 0): SQ_E_PARSE for JSON
 * syntax, SQ_E_RANGE for a degree, span or size beyond the limits above,
 * SQ_E_INVAL for anything else.  Never aborts on bad input.
 * Cost: parsing is O(len log len); then fdmod_complete, which grows with
 * the pairs of degrees the action connects (not with the span), within
 * SQ_MODSPEC_MAX_TABLES. */
int sq_modspec_load_buffer(fdmod_t **out, const char *buf, size_t len, const char *display_name,
                           const sq_modspec_opts_t *opts, char *err, size_t errlen) SQ_WARN_UNUSED;

/* The module of a file at any prime, as sq_modspec_load_module builds it:
 * exactly one of m2 (p = 2) and modd (odd p) is set on success. */
typedef struct {
    uint32_t p;     /* the file's "p" (2 when absent) */
    fdmod_t *m2;    /* p = 2 */
    fdmod_t *modd; /* odd p: a finite dimensional module over the mod p Steenrod algebra (or the
                     * subalgebra of its profile), p < 256 */
} sq_modspec_module_t;

/* The one entry point at every prime: loads buf[0..len) as
 * sq_modspec_load_buffer does, whatever its "p" (an odd prime below 256 is
 * read with the alphabet b, P^{p^k}, and only "finite dimensional module"
 * is accepted there).  Returns 0 and fills *out (free with
 * sq_modspec_module_free), or a negative code as sq_modspec_load_buffer,
 * *out zeroed. */
int sq_modspec_load_module(sq_modspec_module_t *out, const char *buf, size_t len,
                           const char *display_name, const sq_modspec_opts_t *opts, char *err,
                           size_t errlen) SQ_WARN_UNUSED;

/* The same for the file at path (as sq_modspec_load_file). */
int sq_modspec_load_module_file(sq_modspec_module_t *out, const char *path,
                                const char *display_name, const sq_modspec_opts_t *opts, char *err,
                                size_t errlen) SQ_WARN_UNUSED;

/* Frees the module of m and zeroes the pointers; NULL is a no-op. */
void sq_modspec_module_free(sq_modspec_module_t *m);

/* sq_modspec_load_module when the caller needs an odd prime: a file at
 * p = 2 is refused with a one-line message (SQ_E_INVAL). */
int sq_modspec_load_buffer_odd(fdmod_t **out, const char *buf, size_t len,
                               const char *display_name, const sq_modspec_opts_t *opts, char *err,
                               size_t errlen) SQ_WARN_UNUSED;
int sq_modspec_load_file_odd(fdmod_t **out, const char *path, const char *display_name,
                             const sq_modspec_opts_t *opts, char *err,
                             size_t errlen) SQ_WARN_UNUSED;

/* The prime of the JSON text buf[0..len): "p", 2 when absent.  Returns 0
 * and sets *p, or SQ_E_PARSE (JSON syntax), SQ_E_INVAL ("p" not an integer,
 * not a prime, the top level not an object) or SQ_E_RANGE (p > 255), with
 * the one-line message a load would give (*p is then 2). */
int sq_modspec_buffer_prime(const char *buf, size_t len, const char *display_name, uint32_t *p,
                            char *err, size_t errlen) SQ_WARN_UNUSED;

/* The same for a file (SQ_E_IO when it cannot be read). */
int sq_modspec_file_prime(const char *path, const char *display_name, uint32_t *p, char *err,
                          size_t errlen) SQ_WARN_UNUSED;

/* sq_modspec_load_buffer on the NUL-terminated json with default options
 * (no shift, warnings discarded).  For tests and the fuzzer. */
int sq_modspec_load_string(fdmod_t **out, const char *json, const char *display_name, char *err,
                           size_t errlen) SQ_WARN_UNUSED;

/* Reads the file at path (at most SQ_MODSPEC_MAX_FILE bytes) and loads it
 * as sq_modspec_load_buffer does; display_name (NULL: path) names it in
 * messages.  Returns in addition SQ_E_IO, with "<file>: cannot read: <why>"
 * in err, when the file cannot be read. */
int sq_modspec_load_file(fdmod_t **out, const char *path, const char *display_name,
                         const sq_modspec_opts_t *opts, char *err, size_t errlen) SQ_WARN_UNUSED;

/* ---- Names ---------------------------------------------------------------
 *
 * On the command line a module is named "NAME" or "NAME[k]", the module
 * shifted up by k degrees ("Ceta[2]", "S_2[-3]"); NAME is a file path when
 * it contains '/' or ends in ".json", else a shipped module. */

/* Longest name or path quoted in a message (sq_modspec_printable). */
#define SQ_MODSPEC_NAME_CLIP 512

/* Splits spec "NAME[k]" into NAME (copied into base, n bytes) and *shift =
 * k; a spec whose last path component has no '[' or ']' gives itself and
 * 0.  In the last component a bracket must belong to one "[k]" at the very
 * end ("C2[", "C2[1", "C2]", "C2[1]x", "C2[1][2]" are errors, not names;
 * brackets in directories are part of the path).  Returns 0, or
 * SQ_E_PARSE for misplaced brackets or brackets that do not hold an
 * integer, SQ_E_RANGE when |k| > SQ_MODSPEC_MAX_DEGREE, SQ_E_INVAL when
 * NAME is empty or does not fit in n bytes; then err (errlen bytes; may be
 * NULL with errlen 0) receives what is wrong, one line without the name,
 * e.g. "unclosed '[' in the shift (expected NAME[k], k an integer)".  base
 * may not alias spec. */
int sq_modspec_parse_name(char *base, size_t n, const char *spec, int32_t *shift, char *err,
                          size_t errlen) SQ_WARN_UNUSED;

/* sq_modspec_parse_name without the message. */
int sq_modspec_split_shift(char *base, size_t n, const char *spec, int32_t *shift) SQ_WARN_UNUSED;

/* Copies s[0..len) into buf (n bytes, n > 0; always NUL-terminated) fit
 * for a one-line message: control characters (bytes below 0x20, 0x7f, and
 * the UTF-8 encodings of U+0080..U+009F) become '?', and more than max
 * bytes are cut, with "..." appended.  Returns the length written.  Every
 * message of the loader and of the adams program passes the names and
 * strings it quotes through this. */
size_t sq_modspec_printable(char *buf, size_t n, const char *s, size_t len, size_t max);

/* Finds the file of module `name` (no shift suffix) and writes its path
 * into path (n bytes).  A name containing '/' or ending in ".json" is a
 * path and is copied as it is (its existence is not checked).  Otherwise
 * the first regular file among
 *     ./NAME.json
 *     <exe dir>/../share/adams/modules/NAME.json     (installed layout)
 *     <exe dir>/../modules/NAME.json                 (build tree inside the sources)
 *     <exe dir>/modules/NAME.json
 *     ADAMS_MODULE_DIR/NAME.json                     (the sources, set by CMake)
 *     ADAMS_MODULE_INSTALL_DIR/NAME.json             (the install prefix, set by CMake)
 * where <exe dir> is the directory of /proc/self/exe, or of argv0 when
 * that cannot be read and argv0 (may be NULL) contains '/'.
 * Returns 0, or SQ_E_IO when no file is found (path then holds ""), or
 * SQ_E_INVAL for an empty name or one that does not fit in n bytes. */
int sq_modspec_resolve_name(char *path, size_t n, const char *name,
                            const char *argv0) SQ_WARN_UNUSED;

/* As sq_modspec_resolve_name for a bare NAME, but among the shipped
 * directories only (not ./NAME.json): so a caller can tell that
 * ./NAME.json shadows a shipped module.  Returns 0 and the path, SQ_E_IO
 * when there is no shipped module NAME, SQ_E_INVAL for a path (a name with
 * '/' or ending in ".json"), an empty name or one that does not fit. */
int sq_modspec_shipped_path(char *path, size_t n, const char *name,
                            const char *argv0) SQ_WARN_UNUSED;

/* The shipped modules: every NAME.json in the shipped directories above
 * (all but "./"), a name that occurs in several counted once (the first in
 * search order).  Sets *paths to a new array of *count paths sorted by
 * module name (free with sq_modspec_list_free) and returns 0; no directory
 * at all gives 0 and an empty list.  argv0 as sq_modspec_resolve_name. */
int sq_modspec_list_shipped(char ***paths, int64_t *count, const char *argv0) SQ_WARN_UNUSED;

/* Frees a list from sq_modspec_list_shipped; NULL is a no-op. */
void sq_modspec_list_free(char **paths, int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* SQ_MODSPEC_H */
