/*
 * pfmod.h -- free modules over the Steenrod algebra at an odd prime (or a
 * sub-Hopf algebra): the odd-prime counterpart of fmod.h, with the same
 * layout and the same write-once, one-writer-many-readers discipline.
 *
 * A free module F has generators in degrees min_deg..max_deg, added one
 * degree at a time in increasing order and never changed afterwards.  Its
 * basis in degree t is generator-major:
 *
 *   degree t:  | g_0 (deg d0): A_{t-d0} | g_1 (deg d1): A_{t-d1} | ... |
 *
 * generators in increasing degree, then by index within the degree, each
 * followed by the Milnor basis of A_{t - deg g} (pmilnor.h order).
 * pfmod_dim_below(F, t, b) is the length of the prefix belonging to the
 * generators of degree < b.
 */
#ifndef PFMOD_H
#define PFMOD_H

#include <stdint.h>

#include "pmilnor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pfmod pfmod_t;

/* New free module over A (borrowed; must outlive F) with no generators;
 * generator degrees will lie in [min_deg, max_deg]. */
pfmod_t *pfmod_new(const pmilnor_t *A, int32_t min_deg, int32_t max_deg);
/* Frees F; NULL is a no-op. */
void pfmod_free(pfmod_t *F);

const pmilnor_t *pfmod_algebra(const pfmod_t *F);
int32_t pfmod_min_degree(const pfmod_t *F);
int32_t pfmod_max_degree(const pfmod_t *F);
/* Highest degree whose generators have been set (min_deg - 1 if none);
 * acquire load, so a reader that sees a degree sees its generators. */
int32_t pfmod_gens_through(const pfmod_t *F);
/* min(bound - 1, pfmod_gens_through(F)), reading the published degree once. */
int32_t pfmod_top_below(const pfmod_t *F, int32_t bound);

/* Declares the count >= 0 generators of degree deg > pfmod_gens_through(F)
 * (skipped degrees get none) and publishes the degree.  Returns the global
 * index of the first new generator. */
int64_t pfmod_set_gens(pfmod_t *F, int32_t deg, int64_t count);
/* Number of generators of degree deg (0 if not set or out of range). */
int64_t pfmod_num_gens(const pfmod_t *F, int32_t deg);
/* Global index of generator i of degree deg. */
int64_t pfmod_gen_global(const pfmod_t *F, int32_t deg, int64_t i);
/* Total number of generators set so far. */
int64_t pfmod_total_gens(const pfmod_t *F);
/* Degree of the generator with global index g. */
int32_t pfmod_gen_degree(const pfmod_t *F, int64_t g);

/* Dimension in degree t of the part spanned by generators of degree < bound. */
int64_t pfmod_dim_below(const pfmod_t *F, int32_t t, int32_t bound);
/* Full dimension in degree t (all generators set so far). */
int64_t pfmod_dim(const pfmod_t *F, int32_t t);
/* Offset in the degree-t basis of the block of generator i of degree deg. */
int64_t pfmod_block_offset(const pfmod_t *F, int32_t t, int32_t deg, int64_t i);

#ifdef __cplusplus
}
#endif

#endif /* PFMOD_H */
