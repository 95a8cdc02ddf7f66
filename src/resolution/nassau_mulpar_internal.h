/*
 * nassau_mulpar_internal.h -- a batch of products by Sq(sigma) for step 3 of
 * Nassau's step, split over the pool as one section (nassau_mulpar.c).
 * Internal.
 */
#ifndef SQ_NASSAU_MULPAR_INTERNAL_H
#define SQ_NASSAU_MULPAR_INTERNAL_H

#include "internal.h"

/* One product of a batch: out ^= Sq(sigma) v, block by block as
 * nassau_mul_blocks_par (internal.h): block b of v is bits [vb->start[b],
 * vb->start[b + 1]) over the Milnor basis of degree t0 - vb->deg[b], its
 * product lands at ob->start[b] of out; vb's generators are a prefix of
 * ob's. */
typedef struct {
    uint64_t *out;
    const blocks_t *ob, *vb;
    const uint64_t *v;
} nassau_mulvec_t;

/* out_j ^= Sq(sigma) v_j for the n products jobs[0..n) (W prepared for
 * Sq(sigma) and degrees up to the largest block's; the outputs pairwise
 * disjoint memory), all in one section of the pool: chunks of consecutive
 * blocks of one product, cut so that each holds about the same share of
 * the batch's set bits of v; a chunk XORs the limbs wholly inside its
 * output bits into out itself, the caller the (at most two) it shares with
 * its neighbours.  The same bits whatever the schedule.  Small batches (or
 * pool == NULL or of one thread) run in order on the caller, unless force
 * (a test hook: always split, into at least 6 chunks). */
void nassau_mul_many_par(const milnor_ws_t *W, int32_t t0, const nassau_mulvec_t *jobs,
                         int64_t n, sq_pool_t *pool, int force);

#endif
