/*
 * pfdmod_internal.h -- the layout of pfdmod_t, shared by pfdmod.c (storage)
 * and pfdmod_build.c (deriving and checking actions).  Not public.
 */
#ifndef PFDMOD_INTERNAL_H
#define PFDMOD_INTERNAL_H

#include "pfdmod.h"

/* Generator slots: 0 is beta, s >= 1 is P^{p^{s-1}}.  Degrees stay below
 * 4096 (the largest span), which P^{p^7} at p = 3 (degree 8748) exceeds. */
#define PFDMOD_MAX_GENS 12

/* The action of the nops basis elements of one degree k of the algebra on
 * the basis of one degree d of M: nops * dim M_d vectors of tdim = dim
 * M_{d+k} bytes, operation-major. */
typedef struct {
    int64_t nops, tdim;
    uint8_t *vecs;
} pfdmod_block_t;

struct pfdmod {
    char *name;
    uint32_t p;
    int32_t min_deg, max_deg, span;
    int64_t *dim;             /* per degree */
    char ***names;            /* per degree, per index */
    pfdmod_block_t **act;     /* act[d][k], d relative input degree, k op degree; rows lazily */
    uint8_t ***gen;           /* gen[d][slot]: dim M_d vectors over M_{d + |gen|} */
    pmilnor_profile_t prof;
    int has_actions;
};

/* The slot of the generator of degree gen_deg, or -1. */
int pfdmod_gen_slot(uint32_t p, int32_t gen_deg);
/* The degree of the generator of a slot. */
int32_t pfdmod_slot_degree(uint32_t p, int slot);
/* The stored g x for the generator of slot, or NULL (zero). */
const uint8_t *pfdmod_gen_action(const pfdmod_t *M, int slot, int32_t in_deg, int64_t in_idx);

#endif /* PFDMOD_INTERNAL_H */
