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

#include "fmod.h"
#include "pmilnor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The storage is fmod.h's (fmod_new_stalg over an odd-prime handle); these
 * names keep the odd-prime code's types apart until step 5. */
typedef struct fmod pfmod_t;

/* New free module over A (borrowed; must outlive F) with no generators;
 * generator degrees will lie in [min_deg, max_deg]. */
static inline pfmod_t *pfmod_new(const pmilnor_t *A, int32_t min_deg, int32_t max_deg)
{
    return fmod_new_pmilnor(A, min_deg, max_deg);
}

static inline const pmilnor_t *pfmod_algebra(const pfmod_t *F)
{
    return stalg_pmilnor(fmod_stalg(F));
}

/* The rest as in fmod.h. */
static inline void pfmod_free(pfmod_t *F)
{
    fmod_free(F);
}
static inline int32_t pfmod_min_degree(const pfmod_t *F)
{
    return fmod_min_degree(F);
}
static inline int32_t pfmod_max_degree(const pfmod_t *F)
{
    return fmod_max_degree(F);
}
static inline int32_t pfmod_gens_through(const pfmod_t *F)
{
    return fmod_gens_through(F);
}
static inline int32_t pfmod_top_below(const pfmod_t *F, int32_t bound)
{
    return fmod_top_below(F, bound);
}
static inline int64_t pfmod_set_gens(pfmod_t *F, int32_t deg, int64_t count)
{
    return fmod_set_gens(F, deg, count);
}
static inline int64_t pfmod_num_gens(const pfmod_t *F, int32_t deg)
{
    return fmod_num_gens(F, deg);
}
static inline int64_t pfmod_gen_global(const pfmod_t *F, int32_t deg, int64_t i)
{
    return fmod_gen_global(F, deg, i);
}
static inline int64_t pfmod_total_gens(const pfmod_t *F)
{
    return fmod_total_gens(F);
}
static inline int32_t pfmod_gen_degree(const pfmod_t *F, int64_t g)
{
    return fmod_gen_degree(F, g);
}
static inline int64_t pfmod_dim_below(const pfmod_t *F, int32_t t, int32_t bound)
{
    return fmod_dim_below(F, t, bound);
}
static inline int64_t pfmod_dim(const pfmod_t *F, int32_t t)
{
    return fmod_dim(F, t);
}
static inline int64_t pfmod_block_offset(const pfmod_t *F, int32_t t, int32_t deg, int64_t i)
{
    return fmod_block_offset(F, t, deg, i);
}

#ifdef __cplusplus
}
#endif

#endif /* PFMOD_H */
