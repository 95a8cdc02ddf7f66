/*
 * modspec_internal.h -- what sq_modspec.c (the JSON document),
 * sq_modspec_action.c (the action strings), sq_modspec_kinds.c and
 * sq_modspec_pbuild.c (the odd-prime builder) share.  Private to src/io.
 *
 * A load fills one spec_t, at every prime: the prime ("p"), the text (for
 * line numbers), the generators sorted by (degree in the file, position in
 * "gens"), an index of them sorted by name, the profile (p = 2: the p_part
 * h_i; odd p: a pmilnor_profile_t) and the parsed actions (one grammar,
 * two alphabets: Sq^{2^k} at p = 2, b and P^{p^k} at odd p).  Every error goes through
 * spec_fail, which formats the one-line message once and returns the
 * code, so a parser returns as soon as something is wrong.
 */
#ifndef SQ_MODSPEC_INTERNAL_H
#define SQ_MODSPEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fdmod.h"
#include "sq_core.h"
#include "sq_modspec.h"

/* "Unknown position" for spec_fail. */
#define SPEC_NOPOS ((size_t)-1)
/* Longest user string quoted in a message (longer ones end in "..."). */
#define SPEC_CLIP 48
/* Unknown keys warned about one line each; the rest are counted and
 * reported in one line ("... and N more unknown keys ignored"). */
#define SPEC_MAX_WARNINGS 10

typedef struct {
    const char *name; /* borrowed from the JSON tree */
    int64_t order;    /* position in "gens" */
    int32_t fdeg;     /* degree as written in the file (before any shift) */
    int64_t idx;      /* index within its degree in the module */
    uint32_t ops;     /* bit `slot`: some action of that algebra generator on it was given */
} spec_gen_t;

typedef struct {
    const char *name; /* = gens[gen].name */
    int64_t gen;
} spec_name_t;

/* One action "OP from = sum of coef * to".  The operation is an algebra
 * generator: Sq^{2^k} (p = 2: op = 2^k, slot k) or, at odd p, b = Q_0
 * (op = 1, e = 1, slot 0) or P^{p^k} (op = 2(p-1)p^k, n = p^k, slot k + 1). */
typedef struct {
    int32_t op;    /* the degree of the operation */
    int slot;      /* its bit in spec_gen_t.ops */
    int e;         /* 1 for b (odd p) */
    int32_t n;     /* the n of P^n (odd p), 2^k at p = 2 */
    int64_t from;  /* index into gens */
    int64_t *to;   /* indices into gens, each once, */
    uint8_t *coef; /*   with a nonzero coefficient mod p (the sum reduced) */
    int64_t nto;
} spec_action_t;

typedef struct {
    uint32_t p;       /* the prime, from "p" (2 when absent) */
    struct json_t *root; /* the document (borrowed) */
    const char *file; /* display name */
    const char *text; /* the source, for line numbers */
    size_t len;
    char *err;
    size_t errlen;
    FILE *warn;
    int64_t nwarn, more_warnings; /* warnings printed, and those only counted */
    int64_t max_tables;           /* the size limit of the load (bytes) */
    spec_gen_t *gens; /* sorted by (fdeg, order) */
    int64_t ngens;
    spec_name_t *by_name; /* every generator once, sorted by name */
    spec_action_t *acts;
    int64_t nacts;
    int32_t profile[FDMOD_MAX_PROFILE_LEN]; /* p = 2: h_1.. of "p_part" */
    int plen;
    pmilnor_profile_t oprof; /* odd p: the profile (the whole algebra when none) */
    int kind;              /* sq_modspec_kind_t, from "type" */
    int32_t rp_min, rp_max; /* "real projective space": "min" (with "clear_bottom" the
                             * raised bottom, spec_read_projective), "max" (if rp_have_max) */
    int rp_have_max, rp_clear_bottom;
    const char **rel_str[2]; /* "adem_relations", "milnor_relations" (borrowed strings), */
    size_t *rel_pos[2];      /*   the offset of each in the text */
    int64_t nrel[2];
    int have_rel[2];
    char clip[4][SPEC_CLIP + 8];
    int clip_next;
    char file_shown[SQ_MODSPEC_NAME_CLIP + 8]; /* file, fit for a message */
} spec_t;

/* Writes "<file>:<line>: <message>" (pos a byte offset in the text) or
 * "<file>: <message>" (pos == SPEC_NOPOS) into S->err; returns rc. */
int spec_fail(spec_t *S, int rc, size_t pos, const char *fmt, ...) SQ_PRINTF(4, 5);

/* S->file fit for a message (sq_modspec_printable, SQ_MODSPEC_NAME_CLIP);
 * valid until the next call. */
const char *spec_file(spec_t *S);

/* The line (1-based) of byte offset pos of the text. */
size_t spec_line(const spec_t *S, size_t pos);

/* Prints "<file>[:<line>]: warning: <message>" on S->warn, if any. */
void spec_warn(spec_t *S, size_t pos, const char *fmt, ...) SQ_PRINTF(3, 4);

/* s (n bytes) fit for a one-line message: at most SPEC_CLIP bytes, control
 * characters as '?'.  Returns one of four buffers in S, reused in turn. */
const char *spec_clip(spec_t *S, const char *s, size_t n);

/* Offset of the occ-th (0-based) occurrence of needle[0..nlen) in the text
 * at or after `from`, or SPEC_NOPOS. */
size_t spec_find(const spec_t *S, size_t from, const char *needle, size_t nlen, int64_t occ);

/* Levenshtein distance between a[0..an) and b[0..bn), or a large number
 * when either is longer than 64 bytes. */
int spec_edit_distance(const char *a, size_t an, const char *b, size_t bn);

/* Offset of the key "key" (quoted, then ':') at or after `from`, or
 * SPEC_NOPOS. */
size_t spec_key_pos(const spec_t *S, const char *key, size_t from);

/* "an object", "an array", ... for the JSON value v (a json_t). */
struct json_t;
const char *spec_type_name(const struct json_t *v);

/* Index into S->gens of the generator called name[0..n), or -1. */
int64_t spec_gen_lookup(const spec_t *S, const char *name, size_t n);

/* Parses the array "actions" (strings) into S->acts, checking every
 * string against S->gens and S->profile.  actions_pos is the offset of the
 * key in the text (SPEC_NOPOS if unknown).  Returns 0 or a spec_fail code. */
int spec_parse_actions(spec_t *S, const char *const *strs, int64_t n, size_t actions_pos);

/* Frees S->acts. */
void spec_free_actions(spec_t *S);

/* The name of action a's operation as the files write it: "Sq4", "b", "P3"
 * (buf n bytes). */
const char *spec_op_name(const spec_t *S, const spec_action_t *a, char *buf, size_t n);

/* ---- The builders ------------------------------------------------------- */

/* The module's name: display without directory and ".json", printable,
 * "[k]" for a shift k != 0; free with sq_free. */
char *spec_module_name(const char *display, int32_t shift);

/* Refuses degrees that the shift moves out of +-SQ_MODSPEC_MAX_DEGREE and
 * a span beyond max_span (every prime). */
int spec_check_degrees(spec_t *S, int32_t shift, int32_t max_span);

/* The table-size guard of every prime: refuses (SQ_E_RANGE, one line) a
 * module whose action tables (table_bytes, plus the names of the basis) or
 * those and its largest row reduction (reduce_bytes, of the products of
 * degree reduce_deg, first needed from degree reduce_from) pass
 * S->max_tables. */
int spec_check_cost(spec_t *S, double table_bytes, double reduce_bytes, int32_t reduce_from,
                    int32_t reduce_deg);
/* The table-size guard of every prime: fdmod_complete_cost_alg on M's basis
 * (set; no action yet) with the generators given in S->acts (a nonzero
 * right side), over A (M's prime and profile), then spec_check_cost.
 * Returns 0 or SQ_E_RANGE with the message. */
int spec_check_tables(spec_t *S, const fdmod_t *M, const stalg_t *A, int32_t shift);

/* Builds the finite module of S at the odd prime S->p (sq_modspec_pbuild.c):
 * the algebra of the profile through the span, the table-size guard
 * (spec_check_tables, as at p = 2), the given actions, the one completion
 * (fdmod_complete_alg). */
int spec_build_odd(spec_t *S, const char *display, int32_t shift, int32_t max_span,
                   fdmod_t **out);

/* ---- The other kinds of module (sq_modspec_kinds.c) ---------------------- */

/* Reads "min", "max" and "clear_bottom" of a real projective space. */
int spec_read_projective(spec_t *S, struct json_t *root);
/* Reads the relation lists of a finitely presented module (the strings; they
 * are parsed when the module is built). */
int spec_read_relations(spec_t *S, struct json_t *root);
/* Reads "cofiber" into info (info->cofiber = 0 when absent). */
int spec_read_cofiber(spec_t *S, struct json_t *root, sq_modspec_info_t *info);
/* Builds the projective space / finitely presented module, shifted by
 * shift, truncated to degrees <= max_degree; name is the module's name. */
int spec_build_projective(spec_t *S, const char *name, int32_t shift, int32_t max_degree,
                          fdmod_t **out);
int spec_build_presented(spec_t *S, const char *name, int32_t shift, int32_t max_degree,
                         fdmod_t **out);
/* Frees what spec_read_relations allocated. */
void spec_free_relations(spec_t *S);

#endif /* SQ_MODSPEC_INTERNAL_H */
