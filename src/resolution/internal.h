/*
 * internal.h -- the resolution object, shared by the files of this layer.
 */
#ifndef RESOL_INTERNAL_H
#define RESOL_INTERNAL_H

#include "f2mat.h"
#include "nassau.h"
#include "resol.h"

/* Longest ladder we keep (profiles up to about A(6)). */
#define RESOL_MAX_PROFILES 24

/* A subalgebra of the ladder with its signature tables. */
typedef struct {
    int32_t h[NASSAU_MAX_LEN];
    int len;
    uint32_t nsig;     /* number of signature ordinals */
    uint32_t **ord;    /* ord[d][k]: ordinal of basis element k of A_d; NULL for B = F_2 */
} resol_profile_t;

struct resol {
    const fdmod_t *M;
    milnor_t *A;
    int32_t max_s, max_n, min_n;
    int32_t t_min, t_max;   /* degrees of the steps: t_min <= t <= t_max */
    fmod_t **F;             /* F[s], 0 <= s <= max_s */
    fhom_t **d;             /* d[s] : F[s] -> F[s-1] (s > 0) or M (s = 0) */
    f2mat_t *K;             /* kernel of d_s in degree t, kept for (s + 1, t) */
    uint8_t *K_set;
    resol_algo_t algo;      /* the engine of this run (set by resol_run) */
    int32_t top;            /* top degree of M */
    int nprof;              /* profiles of the ladder usable somewhere in the region */
    resol_profile_t prof[RESOL_MAX_PROFILES];
    sq_pool_t *pool;        /* threads for parallel sections inside steps, or NULL */
};

/* Which step (s, t) is in the run: 0 = none, 1 = classical, 2 = Nassau.
 * Needs the engine fixed (resol_prepare). */
int resol_step_kind(const resol_t *R, int32_t s, int32_t t);
/* Runs the step (s, t) with its engine, setting the trace context and
 * emitting the "step" trace event. */
void resol_run_step(resol_t *R, int32_t s, int32_t t);

/* Builds the ladder and signature tables for the region (Nassau only). */
void resol_nassau_init(resol_t *R);
/* Frees what resol_nassau_init built. */
void resol_nassau_clear(resol_t *R);

/* Slot of the kernel of d_s in degree t. */
static inline int64_t resol_kslot(const resol_t *R, int32_t s, int32_t t)
{
    return (int64_t)s * (R->t_max - R->t_min + 1) + (t - R->t_min);
}

#endif /* RESOL_INTERNAL_H */
