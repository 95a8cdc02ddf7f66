/*
 * internal.h -- the resolution object, shared by the files of this layer.
 */
#ifndef RESOL_INTERNAL_H
#define RESOL_INTERNAL_H

#include <stdatomic.h>

#include "f2mat.h"
#include "fmat.h"
#include "pmilnor.h"
#include "stalg.h"
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
    uint32_t **zr;     /* zr[d]: the k of ordinal 0 in A_d, ascending (nzr[d] of them); */
    int64_t *nzr;      /* NULL with ord */
} resol_profile_t;

struct resol {
    const fdmod_t *M;
    uint32_t p;             /* the prime of M */
    milnor_t *A;            /* the algebra at p = 2, or NULL */
    pmilnor_t *pA;          /* the algebra at odd p, or NULL */
    stalg_t *S;             /* the handle on A or pA every F[s] is over (odd p: with its cache) */
    ubasis_t *U;            /* an unstable resolution: the bases of its free modules, else NULL */
    int32_t max_s, max_n, min_n;
    int32_t t_min, t_max;   /* degrees of the steps: t_min <= t <= t_max */
    fmod_t **F;             /* F[s], 0 <= s <= max_s */
    fhom_t **d;             /* d[s] : F[s] -> F[s-1] (s > 0) or M (s = 0) */
    fmat_t *K;              /* kernel of d_s in degree t, kept for (s + 1, t) */
    uint8_t *K_set;
    resol_algo_t algo;      /* the engine of this run (set by resol_run) */
    int32_t top;            /* top degree of M */
    int nprof;              /* profiles of the ladder usable somewhere in the region */
    resol_profile_t prof[RESOL_MAX_PROFILES];
    sq_pool_t *pool;        /* threads for parallel sections inside steps, or NULL */
    struct nassau_zblock **zcache; /* [s][t0]: reduced zero-signature blocks (nassau_zcache.c) */
    atomic_int *zlock;             /* [s]: 1 while a thread reads or frees row s's blocks */
    _Atomic int64_t zbytes;        /* bytes held by zcache now */
    _Atomic int64_t zpeak;         /* most bytes of zcache and zhand together, over the run */
    _Atomic int64_t zlargest;      /* largest single block or handed matrix, over the run */
    int64_t zbudget;               /* bytes zcache and zhand may hold (resol_set_cache_budget) */
    _Atomic int64_t zmiss;         /* blocks and handed matrices evicted for the budget */
    _Atomic(struct nassau_hand *) *zhand; /* [s][t]: step-1 matrices handed to (s, t) */
    _Atomic int64_t hbytes, hpeak;        /* bytes they hold now, and at most */
    atomic_int stop;        /* resol_request_stop: no new step starts */
    resol_runner_fn runner; /* resol_set_runner: a distributed run's coordinator, or NULL */
    void *runner_ctx;
};

/* resol_new (unstable 0) and resol_new_unstable (1). */
resol_t *resol_new_in(const fdmod_t *M, int32_t max_s, int32_t max_n, int unstable);

/* Which step (s, t) is in the run: 0 = none, 1 = classical, 2 = Nassau.
 * Needs the engine fixed (resol_prepare). */
int resol_step_kind(const resol_t *R, int32_t s, int32_t t);
/* Runs the step (s, t) with its engine, setting the trace context and
 * emitting the "step" trace event. */
void resol_run_step(resol_t *R, int32_t s, int32_t t);
/* Whether the step (s, t) (resol_step_kind != 0) needs no run because it
 * was done before the run: its generators are published (loaded), or, for
 * a kernel-only step at stem max_n + 1, the step (s + 1, t) it feeds is. */
int resol_step_preloaded(const resol_t *R, int32_t s, int32_t t);
/* The kernel of d_s in degree t (on the basis of F_s below t) into its
 * slot, for the classical step (s + 1, t), when (s, t) was loaded rather
 * than run: the same matrix and canonical reduction as the step, so the
 * same bits (resol_classical.c). */
void resol_kernel_classical(resol_t *R, int32_t s, int32_t t);

/* Builds the ladder and signature tables for the region (Nassau only). */
void resol_nassau_init(resol_t *R);
/* Frees what resol_nassau_init built. */
void resol_nassau_clear(resol_t *R);

/* The product cache of an odd-prime run stops growing at this size (S_3
 * through stem 200, s <= 50, stores tens of MB; docs/odd-primes.md); past
 * the cap products are recomputed, which is correct, only slower. */
#define RESOL_PCACHE_BYTES ((size_t)1 << 30)

/* Slot of the kernel of d_s in degree t. */
/* Clears the entries of v at the pivots of the first r rows of m, rows in
 * reduced echelon form with leading 1s, at p = 2 (the secondary lift and the
 * secondary products).  Cost O(r * len(v) / 64). */
static inline void resol_sec_reduce_by(fvec_t v, const fmat_t *m, int64_t r)
{
    for (int64_t i = 0; i < r; i++) {
        fvec_t row = fmat_row(m, i);
        int64_t c = fvec_first_nonzero(row);
        if (c >= 0 && c < v.len && fvec_get(v, c))
            fvec_addmul(v, fvec_window(row, 0, v.len), 1);
    }
}

static inline int64_t resol_kslot(const resol_t *R, int32_t s, int32_t t)
{
    return (int64_t)s * (R->t_max - R->t_min + 1) + (t - R->t_min);
}

/* ---- Nassau: signature classes (nassau_classes.c) ----------------------- */

/* The basis of F in degree t spanned by generators of degree < bound,
 * grouped by signature: the positions of ordinal o are
 * pos[start[o] .. start[o + 1]), increasing. */
typedef struct {
    int64_t dim;
    int64_t *pos;
    int64_t *start;    /* nsig + 1 entries */
} sigclass_t;

/* Groups the basis of F in degree t spanned by generators of degree < bound
 * by signature with respect to P. */
void nassau_class_init(sigclass_t *c, const resol_profile_t *P, const fmod_t *F, int32_t t,
                       int32_t bound);
void nassau_class_clear(sigclass_t *c);
/* The ordinal of basis position b (nsig if none; linear search, for messages). */
uint32_t nassau_class_of(const sigclass_t *c, uint32_t nsig, int64_t b);

static inline int64_t class_size(const sigclass_t *c, uint32_t o)
{
    return c->start[o + 1] - c->start[o];
}

static inline const int64_t *class_pos(const sigclass_t *c, uint32_t o)
{
    return c->pos + c->start[o];
}

static inline int bit(const uint64_t *v, int64_t k)
{
    return (int)((v[k >> 6] >> (k & 63)) & 1);
}

/* inv[p] = j where cols[j] == p, else -1, for 0 <= p < dim (cols: n
 * distinct positions below dim); sq_free it. */
int32_t *nassau_gather_inverse(const int64_t *cols, int64_t n, int64_t dim);
/* dst bit inv[p] ^= 1 for every set bit p < dim of src with inv[p] >= 0:
 * the columns cols gathered by the set bits of src (rows of d are sparse),
 * inv from nassau_gather_inverse. */
void nassau_gather_inv(uint64_t *dst, const uint64_t *src, int64_t dim, const int32_t *inv);
/* Row i of m ^= row i of full gathered at cols[0..ncols) (bit j of the
 * result is bit cols[j] of the row), for every row (m->rows == full->rows);
 * rows split over the pool when large (chunks write disjoint rows: the
 * same bits on any schedule). */
void nassau_gather_rows(f2mat_t *m, const f2mat_t *full, const int64_t *cols, int64_t ncols,
                        sq_pool_t *pool);
/* m = [rows of full restricted to the columns cols[0..ncols) | I]. */
void nassau_restrict_aug(f2mat_t *m, const f2mat_t *full, const int64_t *cols, int64_t ncols,
                         sq_pool_t *pool);

/* Bytes held by row s's blocks (for the trace; row s's steps only). */
int64_t nassau_zcache_row_bytes(const resol_t *R, int32_t s);
/* The generator blocks of a restricted basis in one degree, in basis order. */
typedef struct {
    int64_t n;
    int64_t *start; /* n + 1 entries: first position of each block, then the dimension */
    int32_t *deg;
    int64_t *idx;
} blocks_t;

/* out ^= Sq(sigma) v, block by block (nassau_mulpar.c): block b of v is
 * bits [vb->start[b], vb->start[b + 1]) over the Milnor basis of degree
 * t0 - vb->deg[b], and its product (W prepared for Sq(sigma) and degrees up
 * to the largest block's) lands at ob->start[b] of out.  vb's generators
 * are a prefix of ob's.  Split over the pool in chunks of blocks of about
 * equal set bits, each into a buffer of its own output range, XORed into
 * out at the end: the same bits whatever the schedule. */
void nassau_mul_blocks_par(const milnor_ws_t *W, uint64_t *out, const blocks_t *ob,
                           const blocks_t *vb, int32_t t0, const uint64_t *v, sq_pool_t *pool);

/* Frees row s's cached zero-signature blocks. */
void nassau_zcache_clear(resol_t *R, int32_t s);
/* Frees row s's blocks that no step from degree t on reads (below t -
 * top(P), P step (s, t)'s profile, and below what every later step with
 * its larger subalgebra reads), reseeds those below t - top(P) that a later
 * step reads for that step's profile, then evicts (nassau_zcache.c,
 * nassau_cache_fit) to the budget.  Called by the step (s, t). */
void nassau_zcache_trim(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P);
/* Notes the bytes of the cache (blocks and handed matrices) now, and a new
 * entry of `bytes`, for resol_cache_stats. */
void nassau_cache_note(resol_t *R, int64_t bytes);
/* Seeds row s's block of degree t with the rows of D1, step (s, t)'s step-1
 * matrix (d_{s-1} on T's zero-signature basis below generators of degree t,
 * for profile P; copied, limb-sparse), so that a later step completes the
 * block by building only the rows of T's generators of degree t. */
void nassau_zcache_seed(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P,
                        const f2mat_t *D1);

/* The handoff (nassau_handoff.c).  Step (s, t) offers its step-2 matrix D2
 * (d_s on the basis positions pos[0..D2->rows) of F_s in degree t, all
 * columns of F_{s-1} in degree t) to step (s + 1, t), whose step-1 matrix
 * it overlaps: kept (D2 left zeroed, pos copied) if (s + 1, t) is a Nassau
 * step of the run that has not started, row s + 1 trails by at most 32
 * degrees and the handed matrices with the cached blocks stay within the
 * cache budget; otherwise D2 is left to the caller. */
void nassau_hand_offer(resol_t *R, int32_t s, int32_t t, const int64_t *pos, f2mat_t *D2);
/* Step (s, t)'s step-1 matrix: D1 (initialised here) = d_{s-1} on the
 * positions pos[0..n) (increasing) of F_{s-1} in degree t (generators of
 * degree < t), cols columns: the rows handed to (s, t) copied, the others
 * built over the pool.  Later offers to (s, t) are refused.  Checks
 * (SQ_CHECK) that no handed row reaches beyond cols.  The same bits
 * whether or not anything was handed. */
void nassau_step1_rows(resol_t *R, int32_t s, int32_t t, const int64_t *pos, int64_t n,
                       int64_t cols, f2mat_t *D1);
/* Frees handed matrices (any consumer's; those consumers build their
 * matrices themselves) until the blocks and the handed matrices together
 * are within the cache budget or none is left. */
void nassau_hand_evict(resol_t *R);
/* Frees every handed matrix and the slots (resol_nassau_clear). */
void nassau_hand_clear(resol_t *R);

/* Wall times (ms) of the corrections of one step, for event=phase: building
 * the zero-signature blocks of lower degrees, and applying the corrections
 * (the rest of step 3 is its total less these). */
typedef struct {
    double zblock, apply;
    int64_t sigs, kills; /* signatures visited, components killed */
    int64_t ybits;       /* zero-signature basis elements in the corrections */
} nassau_ctimes_t;

/* Step 3 of Nassau's step (nassau_correct.c): corrects the provisional
 * images x (rows, T's coordinates in degree t) of the new generators so
 * that their boundaries dx (rows, N's coordinates) lose every nonzero
 * signature component, signature by signature.  ct, if not NULL, receives
 * the phase times. */
void nassau_correct(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P,
                    const sigclass_t *Tc, const sigclass_t *Nc, f2mat_t *x, f2mat_t *dx,
                    nassau_ctimes_t *ct);

/* The algebra of a run of M at p = 2 through degree adeg (resol.c): over
 * M's subalgebra, whose tables stop where its products do (twice its top
 * degree).  resol_new and resol_estimate build the same one. */
milnor_t *resol_algebra_f2(const fdmod_t *M, int32_t adeg);

/* resol_estimate.c: x, or 1e300 when x is infinite, NaN or larger: every figure of an
 * estimate is finite, so that comparing it with a limit refuses. */
double resol_est_finite(double x);

/* resol_secondary.c: a lift's [D^T | v^T] up to this many bits is reduced
 * whole, a larger one in two passes (D's independent rows first); the same
 * preimages either way.  A knob for tests, not thread-safe to change. */
extern double resol_sec_one_pass_bits;

#endif /* RESOL_INTERNAL_H */
