/*
 * fmod.h -- free modules over the Steenrod algebra at any prime (over the
 * algebra handle stalg.h).
 *
 * A free module F has generators in degrees min_deg..max_deg, added one
 * degree at a time in increasing order and never changed afterwards
 * (write-once).  Its basis in degree t is generator-major:
 *
 *   degree t:  | g_0 (deg d0): A_{t-d0} | g_1 (deg d1): A_{t-d1} | ... |
 *
 * generators in increasing degree, then by index within the degree, each
 * followed by the Milnor basis of A_{t - deg g} in the algebra's order.
 * (An unstable free module, fmod_new_unstable, keeps the excess-bounded
 * part of each block.)  fmod_dim_below(F, t, b) is the length of the prefix belonging to the
 * generators of degree < b (the "restricted" basis used by the steps).
 */
#ifndef FMOD_H
#define FMOD_H

#include <stdint.h>

#include "milnor.h"
#include "pmilnor.h"
#include "stalg.h"
#include "ubasis.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fmod fmod_t;

/* New free module over the algebra handle S (any prime; borrowed: S must
 * outlive F) with no generators; generator degrees will lie in [min_deg,
 * max_deg] (max_deg >= min_deg - 1, SQ_CHECK).  Cost: two arrays over the
 * degree range. */
fmod_t *fmod_new_stalg(const stalg_t *S, int32_t min_deg, int32_t max_deg);
/* fmod_new_stalg over a handle on A (mod 2, resp. odd p) that the module
 * makes and fmod_free frees; A is borrowed and must outlive F. */
fmod_t *fmod_new(const milnor_t *A, int32_t min_deg, int32_t max_deg);
fmod_t *fmod_new_pmilnor(const pmilnor_t *A, int32_t min_deg, int32_t max_deg);
/* New unstable free module (docs/unstable.md) over the handle S (any prime) and
 * the unstable bases U of S's algebra (both borrowed): the block of a
 * generator of degree g in degree t is F(g)'s, the first
 * ubasis_dim(U, t - g, g) elements of A_{t - g} in U's excess order, in
 * place of all of A_{t - g} in the algebra's order.  Everything else is as
 * fmod_new_stalg.  min_deg >= 0 (SQ_CHECK). */
fmod_t *fmod_new_unstable(const stalg_t *S, const ubasis_t *U, int32_t min_deg, int32_t max_deg);
/* The unstable bases of an unstable free module, or NULL. */
const ubasis_t *fmod_unstable(const fmod_t *F);
/* The length of the block of one generator of degree deg in degree t:
 * dim A_{t - deg}, or F(deg)'s dimension in degree t when unstable. */
int64_t fmod_block_dim(const fmod_t *F, int32_t t, int32_t deg);

/* Frees F (and the handle it made); NULL is a no-op. */
void fmod_free(fmod_t *F);

/* The algebra handle of F (never NULL). */
const stalg_t *fmod_stalg(const fmod_t *F);
/* The mod 2 Milnor algebra below F's handle (NULL at an odd prime). */
const milnor_t *fmod_algebra(const fmod_t *F);
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
