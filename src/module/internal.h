/*
 * internal.h -- what fdmod.c shares with fdmod_build.c.  Private to
 * src/module (not installed).
 */
#ifndef MODULE_INTERNAL_H
#define MODULE_INTERNAL_H

#include <stdint.h>

#include "fdmod.h"

/* What the action block of (in_deg, op_deg) of M holds. */
enum {
    FDMOD_BLOCK_NONE = 0, /* nothing was set: every Sq(R) of degree op_deg acts as zero on M_in_deg */
    FDMOD_BLOCK_GEN = 1,  /* something was set, but every nonzero vector is that of Sq(op_deg)
                           * (op_deg a power of two): the other elements act as zero */
    FDMOD_BLOCK_MIXED = 2 /* some other element was set to a nonzero vector */
};

/* The kind of the block of (in_deg, op_deg); FDMOD_BLOCK_NONE outside the
 * range.  O(1); M is only read. */
int fdmod_block_kind(const fdmod_t *M, int32_t op_deg, int32_t in_deg);

#endif /* MODULE_INTERNAL_H */
