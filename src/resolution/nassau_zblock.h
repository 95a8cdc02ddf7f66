/*
 * nassau_zblock.h -- the reduced zero-signature blocks shared by step 3 of
 * Nassau's step (nassau_correct.c, which reads them) and their cache
 * (nassau_zcache.c, which builds, keeps and evicts them).  Internal.
 */
#ifndef SQ_NASSAU_ZBLOCK_H
#define SQ_NASSAU_ZBLOCK_H

#include "internal.h"

/* The reduced zero-signature block of d_{s-1} in degree t0: rows the
 * zero-signature basis of T (generators of degree <= t0), columns that of
 * N (generators of degree < t0).  Cached per row (see resol_zcache). */
struct nassau_zblock {
    int built;        /* 1: complete; 0: only the seed (the rows below) */
    int prof;         /* the profile (ladder index) it was built or seeded for */
    int64_t nrows;    /* rows kept in rstart/lidx/lval */
    size_t bytes;
    int64_t zt, zn;   /* zero-signature rows (of T) and columns (of N) */
    int64_t *tpos;    /* their positions in T and N in degree t0, increasing */
    int64_t *npos;
    int64_t ndim;     /* dimension of N in degree t0 (generators < t0) */
    blocks_t Tb, Nb;
    /* The quasi-inverse of the block: its reduced [A | I] keeps only the
     * I-segments of the rows with a pivot in A (rank x zt); piv[c] (c <
     * zn) is column c's pivot row in m, or -1.  Read through
     * nassau_zblock_qi_apply. */
    f2mat_t m;
    int64_t *piv;
    /* d on the zero-signature rows, all of N's columns (lim limbs a row),
     * limb-sparse: bit l of row r's limb map (lmap + r * mw, mw =
     * f2_limbs(lim) words) is set iff the row's limb l is nonzero, and the
     * nonzero limbs are lval[rstart[r] ..] in increasing l.  At 17% nonzero
     * limbs (stems 150-200) that is 1.5 bytes a limb (an index a limb: 2.0).
     * Read through nassau_zblock_row_xor. */
    int64_t lim, mw;
    uint64_t *lmap;
    int64_t *rstart;
    uint64_t *lval;
};
typedef struct nassau_zblock zblock_t;

/* What the running step (s, t) of a row will still read: the blocks of
 * degree t - d for d <= top, d read last by the ordinal last[d] (0: not
 * at all); the step is at ordinal o. */
typedef struct {
    int32_t t, top;
    const uint32_t *last;
    uint32_t o;
} zuse_t;

/* The generator blocks of F's basis in degree t (generators of degree <
 * bound): b->start[k] is where generator k's block starts.  O(gens).
 * Owned by b; free with nassau_blocks_clear. */
void nassau_blocks_init(blocks_t *b, const fmod_t *F, int32_t t, int32_t bound);
void nassau_blocks_clear(blocks_t *b);

/* The block of b containing position pos (binary search). */
int64_t nassau_blocks_find(const blocks_t *b, int64_t pos);

/* The least t at which profile R->prof[i] is usable in row s (INT32_MIN
 * for i = 0, usable everywhere); usable from there on, and step (s, t)
 * takes the last profile usable at t. */
int32_t nassau_profile_from(const resol_t *R, int i, int32_t s);

/* The positions of class 0 of nassau_class_init(c, P, F, t, bound) (the
 * basis elements of signature ordinal 0, ascending) into *pos (*n of them,
 * owned by the caller), without sorting the other classes: the
 * zero-ordinal elements of each A_{t-e} are listed once, then placed after
 * each generator of degree e.  *dim: the size of the whole basis. */
void nassau_zero_positions(int64_t **pos, int64_t *n, int64_t *dim, const resol_profile_t *P,
                           const fmod_t *F, int32_t t, int32_t bound);

/* nassau_class_init's class 0 only (nassau_zero_positions): every other
 * class is empty.  For the bases whose nonzero classes nobody reads (S and
 * T of a step).  Free with nassau_class_clear. */
void nassau_class_init_zero(sigclass_t *c, const resol_profile_t *P, const fmod_t *F, int32_t t,
                            int32_t bound);

/* The quasi-inverse of built block z applied to v (zn bits, in the image
 * of the block): XORs into out (f2_limbs(zt) limbs) a y with y * A = v,
 * the bits f2mat_aug_qi_apply gives on the full reduced [A | I].  Columns
 * of v that are not pivots are ignored.  out must not alias v. */
void nassau_zblock_qi_apply(uint64_t *out, const zblock_t *z, const uint64_t *v);

/* w[l] ^= limb l of z's kept row r (d of the zero-signature row r), for
 * the limbs l0 <= l < min(l1, z->lim); r < z->nrows.  Cost: the nonzero
 * limbs in range plus one popcount per 64 limbs below l1.  w has at least
 * min(l1, z->lim) limbs.  Reads z only (any number of threads). */
void nassau_zblock_row_xor(uint64_t *w, const zblock_t *z, int64_t r, int64_t l0, int64_t l1);

/* Row s's lock (R->zlock[s]): held by row s's step while it reads or
 * changes its blocks; spins (yielding) while an evictor holds it. */
void nassau_row_lock(resol_t *R, int32_t s);
void nassau_row_unlock(resol_t *R, int32_t s);

/* Row s's block of degree t0 for profile prof (P = &R->prof[prof]), built
 * (on R->pool) if need be; the cache is brought within its budget before and
 * after the build, this block excepted.  Row s's lock held.  The block is
 * owned by the cache and stays valid while the lock is held. */
zblock_t *nassau_zcache_get(resol_t *R, int32_t s, int32_t t0, int prof,
                            const resol_profile_t *P, const zuse_t *u);

/* Brings the cache within its budget where it can (what costs least
 * first), never evicting row s's block of degree keep (keep < t_min:
 * none); u: what row s's running step still reads, or NULL.  Row s's lock
 * held. */
void nassau_cache_fit(resol_t *R, int32_t s, int32_t keep, const zuse_t *u);

#endif
