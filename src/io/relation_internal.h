/*
 * relation_internal.h -- the relation strings of a finitely presented
 * module spec (the peer's "adem_relations" / "milnor_relations").  Private
 * to src/io (the name ends in internal.h, so it is not installed).
 *
 * One relation is a '+'-separated sum of terms, a term being
 *
 *      [COEFF] [OP OP ...] GEN
 *
 *      COEFF   a non-negative integer, read mod 2 (an even one drops the
 *              term, which is still checked)
 *      OP      SqN or Sq^N (N >= 0): the Milnor element Sq(N);
 *              P(r1, r2, ...) or Sq(r1, r2, ...): the Milnor basis element
 *              Sq(R) (spaces optional, trailing zeros allowed, P() = 1)
 *      GEN     a generator name (spec_gen_lookup); no operation = the unit
 *
 * Several operations are their product in A, left to right.  Runs of
 * white space separate tokens.  Every term must have the same total degree
 * (operation degree + the generator's degree in the file).
 *
 * A parsed relation, spec_rel_t:
 *
 *      deg     the total degree of every term
 *      terms   [0 .. nterms), sorted by gen (an index into S->gens), each
 *              gen at most once, each op nonzero:
 *
 *          gen     opdeg = deg - S->gens[gen].fdeg
 *          op      ceil(milnor_dim(A, opdeg) / 64) limbs; bit k = basis
 *                  element k of degree opdeg (milnor.h); bits past the
 *                  dimension are zero
 *
 *  The relation is sum_terms op * gen.  A zeroed spec_rel_t is valid and
 *  empty; spec_rel_clear on it is a no-op.
 */
#ifndef SQ_RELATION_INTERNAL_H
#define SQ_RELATION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "milnor.h"
#include "modspec_internal.h"
#include "sq_core.h"

typedef struct {
    int64_t gen;   /* index into S->gens */
    int32_t opdeg; /* degree of op */
    uint64_t *op;  /* bit vector over the Milnor basis of degree opdeg (owned) */
} spec_term_t;

typedef struct {
    int32_t deg;        /* total degree: opdeg + fdeg of every term */
    int64_t nterms;     /* 0 when the relation reduces to zero mod 2 */
    spec_term_t *terms; /* sorted by gen, one per gen, nonzero ops (owned) */
} spec_rel_t;

/* Reads the structure of relation str[0..n) without an algebra: every
 * operation and generator name, and homogeneity.  Writes the total degree
 * to *deg and the largest operation degree of a term to *opdeg (what
 * milnor_new must cover for spec_parse_relation; 0 when every term is a
 * bare generator); either may be NULL.
 * pos: offset of the string in S->text, or SPEC_NOPOS; only used for the
 * line of messages.  Precondition: S->gens[i].fdeg within
 * +-SQ_MODSPEC_MAX_DEGREE (as the loader guarantees).
 * Returns 0, or a spec_fail code with the one-line message in S->err:
 * SQ_E_RANGE for a number or operation degree above MILNOR_MAX_DEGREE,
 * SQ_E_INVAL for anything else.  On error *deg and *opdeg are untouched.
 * Cost: O(n) plus one name look-up per term (O(ngens * name length) more
 * for the "did you mean" of an unknown name). */
int spec_relation_degree(spec_t *S, const char *str, size_t n, size_t pos, int32_t *deg,
                         int32_t *opdeg) SQ_WARN_UNUSED;

/* Parses relation str[0..n) into *out (the layout above), multiplying the
 * operations in A.  Checks as spec_relation_degree, and in addition an
 * operation degree above milnor_max_degree(A) is SQ_E_RANGE (naming the
 * limit), and an operation outside the profile of A (milnor_new_profile)
 * SQ_E_INVAL.  Terms with the same generator are added, zero ones dropped,
 * so "Sq1 x + Sq1 x" gives nterms == 0 (not an error).
 * *out is overwritten (not freed first); the caller frees it with
 * spec_rel_clear.  On error *out is left empty (zeroed) and nothing leaks.
 * Returns 0 or a spec_fail code (SQ_E_INVAL, SQ_E_RANGE).
 * Cost: one milnor_mul_vec_add per operation beyond the last of a term;
 * memory a few bit vectors over the operation degree, milnor_dim / 8 bytes
 * each: 150 bytes in degree 100, 140 KB in 511, 5.5 MB in 1000, but 490 MB
 * in 2047, so callers wanting to bound memory should bound the degree
 * spec_relation_degree reports before building A. */
int spec_parse_relation(spec_t *S, const milnor_t *A, const char *str, size_t n, size_t pos,
                        spec_rel_t *out) SQ_WARN_UNUSED;

/* Frees what r owns and zeroes it; a zeroed r is a no-op. */
void spec_rel_clear(spec_rel_t *r);

#endif /* SQ_RELATION_INTERNAL_H */
