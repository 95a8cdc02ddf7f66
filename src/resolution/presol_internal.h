/*
 * presol_internal.h -- the odd-prime resolution object, shared by the files
 * of presol (presol.c, presol_sched.c, presol_cofiber.c).  Not public.
 */
#ifndef PRESOL_INTERNAL_H
#define PRESOL_INTERNAL_H

#include "fpmat.h"
#include "presol.h"

/* The product cache of a run stops growing at this size.  Resolving S_3
 * through stem 200 (s <= 50) stores about (see docs/odd-primes.md) tens of
 * MB; past the cap products are recomputed, which is correct, only slower. */
#define PRESOL_CACHE_BYTES ((size_t)1 << 30)

struct presol {
    const pfdmod_t *M;
    pmilnor_t *A;
    uint32_t p;
    int32_t max_s, max_n, min_n;
    int32_t t_min, t_max;   /* degrees of the steps: t_min <= t <= t_max */
    pfmod_t **F;            /* F[s], 0 <= s <= max_s */
    pfhom_t **d;            /* d[s] : F[s] -> F[s-1] (s > 0) or M (s = 0) */
    fpmat_t *K;             /* kernel of d_s in degree t, kept for (s + 1, t) */
    uint8_t *K_set;
    sq_pool_t *pool;        /* threads for the matrix builds inside steps, or NULL */
    pmilnor_cache_t *cache; /* products of basis elements, shared by every d_s */
};

/* Slot of the kernel of d_s in degree t. */
static inline int64_t presol_kslot(const presol_t *R, int32_t s, int32_t t)
{
    return (int64_t)s * (R->t_max - R->t_min + 1) + (t - R->t_min);
}

/* Fills m (zeroed, pfmod_dim_below(F_s, t, t) rows) with the matrix of d_s
 * in degree t, split over the idle threads of R->pool when it is set
 * (presol_sched.c).  Same bytes either way. */
void presol_build_rows(presol_t *R, int32_t s, fpmat_t *m, int32_t t);

#endif /* PRESOL_INTERNAL_H */
