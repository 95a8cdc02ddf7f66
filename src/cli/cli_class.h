/*
 * cli_class.h -- a class N,S,V given on the command line (--class, --by,
 * --a/--b/--c of product and massey, --class of map and yoneda): the
 * syntax "N,S,[v0,v1,...]" (a vector) or "N,S,I" (the basis vector I),
 * parsed here and checked against the dimension of the space it lives in.
 */
#ifndef CLI_CLASS_H
#define CLI_CLASS_H

#include <stdint.h>

#include "fmat.h"

/* A class N,S,V as given on the command line. */
typedef struct {
    int32_t n, s;
    int have_vec;        /* 1: the entries are listed; 0: idx names a basis class */
    int64_t idx;
    int64_t len;
    const char *entries; /* have_vec: the entries, after the '[' of text */
    fvec_t vec;          /* cli_class_vector: the vector at the prime (cli_class_clear) */
    const char *text;
} cli_class_t;

/* Frees c's vector (a zeroed or parsed c is fine). */
void cli_class_clear(cli_class_t *c);

/* Parses text, "N,S,[v0,...]" or "N,S,I", into *c (the stem and the
 * filtration within the CLI's limits, entries 0..250).  Returns 0, or -1
 * after a one-line error naming opt. */
int cli_class_parse(const char *opt, const char *text, cli_class_t *c);

/* Makes c's vector at the prime p in a space of dimension dim >= 1 (an
 * index becomes a basis vector); space names it in the errors, as in "Ext
 * of C2" (followed by " at (n, s)"), what names the module of the
 * coefficients.  Returns 0, or -1 after a one-line error naming opt: an
 * index >= dim, a vector of another length, an entry >= p. */
int cli_class_vector(const char *opt, cli_class_t *c, int64_t dim, uint32_t p, const char *space,
                     const char *what);

#endif /* CLI_CLASS_H */
