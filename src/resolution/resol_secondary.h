/*
 * resol_secondary.h -- the Adams d_2 at p = 2: a minimal resolution lifted
 * to the secondary Steenrod algebra (pair_algebra.h; docs/secondary.md).
 *
 * Let F_s -> F_{s-1} be the minimal resolution R of M, d its differential.
 * Lifting each d(g) to B_0 with sigma (pair_algebra.h), the composite
 * d~ d~ : F_s -> F_{s-2} no longer vanishes: for a generator g of F_s
 * (s >= 2) it is sum_{g''} c(g, g'') g'' with c(g, g'') in R_B (the
 * "composite", computed from the stored differentials).  The secondary
 * resolution needs null-homotopies h_s : F_s -> F_{s-2} of internal degree
 * -1 (the lambda part), with h_2 = 0 and for s >= 3
 *
 *     d h_s(g) = sum_{g'} A(a_{g'}, c(g', -)) + h_{s-1}(d g),
 *
 * d g = sum_{g'} a_{g'} g', A the left action of pair_algebra.h applied
 * generator by generator of F_{s-3} (the "intermediate"): h_s(g) is a
 * preimage under d_{s-2} in degree |g| - 1.  Then
 *
 *     d_2 x_(n, s, i) = sum_j (coefficient of the generator i of F_s in
 *                       degree t in h_{s+2}(g_j)) x_(n - 1, s + 2, j),
 *
 * g_j the generators of F_{s+2} in degree t + 1 (t = n + s): any preimage
 * gives the same coefficients (the kernel of d is decomposable).  h_2 = 0
 * is a valid choice when the module meets the condition of
 * resol_sec_check (Chua, arXiv:2105.07628; the peer's `secondary`).
 *
 * The region: with R through stem N, h_s is computed on the generators of
 * degree <= min(top(F_s), top(F_{s-2}) + 1) (N + s - 1 when R is complete),
 * so d_2 is known from every (n, s) with n <= N and s + 2 <= max_s.
 *
 * Threads: resol_sec_new runs on the pool (composites and intermediates by
 * generator, lifts by degree); every result is a fixed function of R, so
 * the output does not depend on the threads.  A built resol_sec_t is
 * read-only.
 */
#ifndef RESOL_SECONDARY_H
#define RESOL_SECONDARY_H

#include <stddef.h>
#include <stdint.h>

#include "fmat.h"
#include "resol.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_sec resol_sec_t;

/* Whether d_2 can be computed on R (resolving M): p = 2, M over the whole
 * algebra, and for every degree t of M below its top cell with M_t != 0,
 * Ext^{2, t+1}(M) = 0 -- or else for every such t, Ext^{3, t+1}(M) = 0 (the
 * peer's condition for h_2 = 0).  R must be computed through filtration 3
 * and stem top(M) - 1.  Returns 0, or SQ_E_INVAL with a one-line reason
 * naming the condition in err (errlen bytes). */
int resol_sec_check(const resol_t *R, char *err, size_t errlen);

/* Progress: called after each row s of homotopies (3 .. max_s) is done,
 * from the calling thread. */
typedef void (*resol_sec_progress_fn)(void *ctx, int32_t s, int32_t max_s);

/* The work model of row s of the lift of R (3 <= s <= R->max_s), in
 * arbitrary units, for a progress line's ETA: over the generators g of
 * F_s within the row's bound, dim(F_{s-1})_{|g|}^2 (the intermediates),
 * plus over those of F_{s-1} below it, dim(F_{s-2})_{|g|}^2 (the
 * composites).  On S_2 the rows' shares of it are within 10-11% (half the
 * L1 distance) of the measured CPU by row through (90, 48) and (130, 68)
 * (docs/benchmarks.md); 0 outside 3..max_s.  Cost: one fmod_dim per
 * generator of the two rows.  Threads: any (R only read). */
double resol_sec_row_work(const resol_t *R, int32_t s);

/* Lifts R (computed, borrowed: it must outlive the result) to the
 * secondary algebra through its region, on pool (NULL: serial).  Returns
 * 0 and sets *out, or with *out = NULL: SQ_E_INVAL (err: the reason) when
 * resol_sec_check refuses R or a lift at s = 3 fails (the module does not
 * lift), SQ_E_RANGE when a later lift fails (a bug).  prog may be NULL.
 * Memory: the composites of two rows and the homotopies of two rows. */
int resol_sec_new(resol_sec_t **out, const resol_t *R, sq_pool_t *pool,
                  resol_sec_progress_fn prog, void *pctx, char *err, size_t errlen);
/* Frees X; NULL is a no-op. */
void resol_sec_free(resol_sec_t *X);

/* Keeping the lift (a store: sq_store_secondary.h).  The homotopies h_s
 * are all that a later run needs of row s: with them it resumes at row
 * s + 1, extends row s to new generators, and reads the d_2 off.  Both
 * functions are called from the calling thread, row by row (s = 3 ..
 * max_s); either may be NULL. */
typedef struct {
    void *ctx;
    /* Before row s: fills h[g] = h_s(g) for the generators g = 0 .. *n - 1
     * of F_s that it keeps, a prefix of the global order made of whole
     * degrees (*n <= ngen, the generators of the row): vectors over F_{s-2}
     * in degree |g| - 1 (fmod_dim entries), zero-length when zero.  The
     * rest of the row is computed.  Returns 0, or a negative code with
     * the reason in err. */
    int (*load)(void *ctx, int32_t s, fvec_t *h, int64_t ngen, int64_t *n, char *err,
                size_t errlen);
    /* After row s: h[0 .. ngen), the generators of degree <= emax (the
     * row's bound), of which the first n0 are load's.  Returns 0 to go
     * on, 1 to stop (resol_sec_new_kept then returns 1), or a negative
     * code with the reason in err. */
    int (*save)(void *ctx, int32_t s, int32_t emax, const fvec_t *h, int64_t n0, int64_t ngen,
                char *err, size_t errlen);
} resol_sec_keep_t;

/* resol_sec_new with the rows kept by keep (NULL: resol_sec_new).
 * Returns as resol_sec_new, or 1 (*out NULL) when keep->save asked to
 * stop, or keep's negative code. */
int resol_sec_new_kept(resol_sec_t **out, const resol_t *R, sq_pool_t *pool,
                       const resol_sec_keep_t *keep, resol_sec_progress_fn prog, void *pctx,
                       char *err, size_t errlen);

/* The matrix of d_2 from Ext^{s, n+s} to Ext^{s+2, n+s+1} (stem n - 1):
 * *m initialised here (F_2; the caller fmat_clears it) with one row per
 * class x_(n, s, i) and one column per class x_(n - 1, s + 2, j); row i is
 * d_2 x_(n, s, i).  Returns 0, or SQ_E_RANGE (m zeroed) when (n, s) or
 * its target is outside what X computed. */
int resol_sec_d2(const resol_sec_t *X, int32_t s, int32_t n, fmat_t *m) SQ_WARN_UNUSED;

/* Whether d_2 from (n, s) is known (resol_sec_d2 would return 0). */
int resol_sec_has(const resol_sec_t *X, int32_t s, int32_t n);

/* ---- The E_3 page ----------------------------------------------------------------
 *
 * E_3^{s} at stem n is ker(d_2 out of (n, s)) / im(d_2 from (n + 1, s - 2)).
 * It is known where both maps are: the one out when X knows d_2 from
 * (n, s) or Ext there is zero; the one in when s < 2, X knows d_2 from
 * (n + 1, s - 2), or Ext there is zero (and computed).  With R through
 * (N, S): every n <= N - 1, s <= S - 2. */

/* dim E_3 at (n, s), or -1 when it is not known. */
int64_t resol_sec_e3_dim(const resol_sec_t *X, int32_t s, int32_t n);

/* A basis of E_3 at (n, s): *reps (initialised here, F_2, one row per
 * basis class, over the classes x_(n, s, i); canonical RREF, its pivots
 * off those of *image) and *image (initialised here: im d_2 into (n, s) in
 * canonical RREF, rank rows).  The representatives are cycles, and
 * independent modulo the image.  Returns 0, or SQ_E_RANGE (both zeroed)
 * when E_3 is not known there.  The caller fmat_clears both. */
int resol_sec_e3_basis(const resol_sec_t *X, int32_t s, int32_t n, fmat_t *reps,
                       fmat_t *image) SQ_WARN_UNUSED;

/* The coordinates in the basis of resol_sec_e3_basis of the class of a
 * d_2-cycle v (over the classes at (n, s)): out (rows of reps entries,
 * written) with v = sum out_i reps_i modulo the image.  Returns 0, or
 * SQ_E_INVAL when v is not in the span of reps and the image (not a
 * cycle). */
int resol_sec_e3_coords(const fmat_t *reps, const fmat_t *image, fvec_t v, fvec_t out);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_SECONDARY_H */
