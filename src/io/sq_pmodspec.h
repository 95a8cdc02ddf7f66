/*
 * sq_pmodspec.h -- module files at odd primes: finite modules over the mod p
 * Steenrod algebra (p an odd prime < 256, or a sub-Hopf algebra by profile)
 * read from JSON files in the format of the Rust peer sseq, and a small
 * driver that resolves one and writes its chart.  The p = 2 loader is
 * sq_modspec.h; a caller reads "p" with sq_pmodspec_file_prime and picks.
 *
 *     {"p": 3, "type": "finite dimensional module",
 *      "gens": {"x0": 0, "x1": 1, "x5": 5, "x6": 6},
 *      "actions": ["b x0 = x1", "P1 x1 = x5", "b x5 = x6"],
 *      "profile": {"truncated": false, "q_part": 4294967294},  (optional)
 *      "cofiber": {"s": 2, "t": 12, "idx": 0}}                 (optional)
 *
 * An action gives the image of a basis element under an algebra generator:
 * "b" (the Bockstein beta = Q_0) or "P<n>" with n a power of p (the reduced
 * power P^n = P(n); "P^n" is accepted too), as a sum of terms
 * "[coefficient] name" read mod p ("P1 x0 = 2 x2 + x3", "b x0 = 0").  The
 * loader checks names, degrees and duplicates, derives the action of every
 * Milnor basis element (pfdmod_complete, which checks the module axioms)
 * and applies the profile.  docs/odd-primes.md lists every key.
 *
 * Errors are one line, as for p = 2: "<file>:<line>:<col>: <message>" (JSON
 * syntax), "<file>:<line>: <message>" (a key, generator or action whose
 * place was found), "<file>: <message>".  Strings from the input are cut to
 * 48 characters with control characters shown as '?'.  Warnings (an unknown
 * key) go one line each to the FILE the caller names, or nowhere.
 *
 * Nothing is kept between calls; every function may run in several threads.
 */
#ifndef SQ_PMODSPEC_H
#define SQ_PMODSPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfdmod.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest |degree| of a generator, in the file and after every shift. */
#define SQ_PMODSPEC_MAX_DEGREE 10000
/* Largest file read, in bytes. */
#define SQ_PMODSPEC_MAX_FILE (16 * 1024 * 1024)

/* What a load found out besides the module. */
typedef struct {
    int32_t bottom;   /* lowest degree of a cell, after every shift */
    int32_t span;     /* top - bottom of the cells */
    int cofiber;      /* 1: resolve the cofiber of x_(cof_t - cof_s, cof_s, cof_idx) */
    int32_t cof_s, cof_t; /* cof_t after every shift, as the peer adds "shift" to it */
    int64_t cof_idx;
    int32_t cof_target; /* degree of the class the self-map targets: the file's 0, shifted */
} sq_pmodspec_info_t;

/* Options; a zeroed struct or NULL means no shift, warnings discarded. */
typedef struct {
    int32_t shift;            /* added to every degree, after the file's "shift" */
    FILE *warn;               /* where one-line warnings go; NULL: discarded */
    char *description;        /* if not NULL, receives "description" ("" if none) */
    size_t description_len;
    sq_pmodspec_info_t *info; /* if not NULL, receives what the load found out */
} sq_pmodspec_opts_t;

/* The prime of the JSON text buf[0..len): "p" (2 when absent).  Returns 0
 * and sets *p (any integer the file gives, unchecked beyond being a
 * positive integer), or SQ_E_PARSE / SQ_E_INVAL with a one-line message
 * (JSON syntax, "p" not a positive integer). */
int sq_pmodspec_buffer_prime(const char *buf, size_t len, const char *display_name, uint32_t *p,
                             char *err, size_t errlen) SQ_WARN_UNUSED;

/* The same for a file (SQ_E_IO when it cannot be read). */
int sq_pmodspec_file_prime(const char *path, const char *display_name, uint32_t *p, char *err,
                           size_t errlen) SQ_WARN_UNUSED;

/* Builds the module described by buf[0..len) (need not be NUL-terminated).
 * "p" must be an odd prime below 256 (p = 2 belongs to sq_modspec.h and is
 * refused here with a message saying so).  display_name names the input in
 * messages (NULL: "<module>"); the module's name is display_name without
 * directory and ".json", with "[k]" for a total shift k != 0.  Returns 0
 * and sets *out (free with pfdmod_free), or a negative code with *out =
 * NULL and a one-line message: SQ_E_PARSE (JSON syntax), SQ_E_RANGE (a
 * degree, span or algebra beyond the limits), SQ_E_INVAL (anything else).
 * Never aborts on bad input. */
int sq_pmodspec_load_buffer(pfdmod_t **out, const char *buf, size_t len, const char *display_name,
                            const sq_pmodspec_opts_t *opts, char *err, size_t errlen) SQ_WARN_UNUSED;

/* Reads the file at path and loads it as sq_pmodspec_load_buffer does;
 * SQ_E_IO with "<file>: cannot read: <why>" when it cannot be read. */
int sq_pmodspec_load_file(pfdmod_t **out, const char *path, const char *display_name,
                          const sq_pmodspec_opts_t *opts, char *err, size_t errlen) SQ_WARN_UNUSED;

/* The driver for the program: loads the odd-prime module file at path,
 * resolves it (or its cofiber, when the file has "cofiber") with the
 * classical engine through stem `stem` and filtration max_s on one thread,
 * and writes to out what sq_chart.h writes for p = 2: with csv, one line
 * "n,s,dim" per cell, n-major then s, stems bottom..stem, s 0..max_s; else
 * the dot chart (rows s = max_s .. 0, two characters per stem, then an
 * empty line).  Warnings go to stderr.  Returns 0, or a negative SQ_E_* code
 * with a one-line message in err (loading, range, write errors); nothing is
 * written to out on error. */
int presol_cli_resolve(const char *path, int32_t stem, int32_t max_s, int csv, FILE *out,
                       char *err, size_t errlen) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* SQ_PMODSPEC_H */
