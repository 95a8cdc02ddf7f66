/*
 * fmod.h -- free modules over the mod 2 Steenrod algebra.
 *
 * A free module F has generators in degrees min_deg..max_deg, added one
 * degree at a time in increasing order and never changed afterwards
 * (write-once).  Its basis in degree t is generator-major:
 *
 *   degree t:  | g_0 (deg d0): A_{t-d0} | g_1 (deg d1): A_{t-d1} | ... |
 *
 * generators in increasing degree, then by index within the degree, each
 * followed by the Milnor basis of A_{t - deg g} in the algebra's order.
 * fmod_dim_below(F, t, b) is the length of the prefix belonging to the
 * generators of degree < b (the "restricted" basis used by the steps).
 */
#ifndef FMOD_H
#define FMOD_H

#include <stdint.h>

#include "milnor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fmod fmod_t;

/* New free module over A (borrowed; must outlive F) with no generators;
 * generator degrees will lie in [min_deg, max_deg]. */
fmod_t *fmod_new(const milnor_t *A, int32_t min_deg, int32_t max_deg);
/* The same over any graded algebra whose dimension in degree deg is
 * dim(alg, deg) (0 outside its range): the free modules of the odd-prime
 * engine (pfmod.h) are these.  alg is borrowed; fmod_algebra then returns
 * NULL and fmod_algebra_data returns alg. */
fmod_t *fmod_new_with_dims(const void *alg, int64_t (*dim)(const void *alg, int32_t deg),
                           int32_t min_deg, int32_t max_deg);
/* Frees F; NULL is a no-op. */
void fmod_free(fmod_t *F);

/* The Milnor algebra of an fmod_new module (NULL for fmod_new_with_dims). */
const milnor_t *fmod_algebra(const fmod_t *F);
/* The algebra given at creation, whatever its type. */
const void *fmod_algebra_data(const fmod_t *F);
int32_t fmod_min_degree(const fmod_t *F);
int32_t fmod_max_degree(const fmod_t *F);
/* Highest degree whose generators have been set (min_deg - 1 if none). */
int32_t fmod_gens_through(const fmod_t *F);

/* The highest generator degree below `bound` that is set:
 * min(bound - 1, fmod_gens_through(F)), reading the published degree once
 * (another thread may be publishing the next degree meanwhile: two reads
 * could disagree). */
int32_t fmod_top_below(const fmod_t *F, int32_t bound);

/* Declares the `count` generators of degree deg (count >= 0).  Degrees are
 * set in increasing order: deg > fmod_gens_through(F); skipped degrees get
 * no generators.  Returns the global index of the first new generator. */
int64_t fmod_set_gens(fmod_t *F, int32_t deg, int64_t count);
/* Number of generators of degree deg (0 if not set or out of range). */
int64_t fmod_num_gens(const fmod_t *F, int32_t deg);
/* Global index (over all degrees, in basis order) of generator i of
 * degree deg. */
int64_t fmod_gen_global(const fmod_t *F, int32_t deg, int64_t i);
/* Total number of generators set so far. */
int64_t fmod_total_gens(const fmod_t *F);
/* Degree of the generator with global index g. */
int32_t fmod_gen_degree(const fmod_t *F, int64_t g);

/* Dimension in degree t of the part spanned by generators of degree < bound. */
int64_t fmod_dim_below(const fmod_t *F, int32_t t, int32_t bound);
/* Full dimension in degree t (all generators set so far). */
int64_t fmod_dim(const fmod_t *F, int32_t t);
/* Offset in the degree-t basis of the block of generator i of degree deg. */
int64_t fmod_block_offset(const fmod_t *F, int32_t t, int32_t deg, int64_t i);

#ifdef __cplusplus
}
#endif

#endif /* FMOD_H */
