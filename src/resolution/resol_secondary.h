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

/* The matrix of d_2 from Ext^{s, n+s} to Ext^{s+2, n+s+1} (stem n - 1):
 * *m initialised here (F_2; the caller fmat_clears it) with one row per
 * class x_(n, s, i) and one column per class x_(n - 1, s + 2, j); row i is
 * d_2 x_(n, s, i).  Returns 0, or SQ_E_RANGE (m zeroed) when (n, s) or
 * its target is outside what X computed. */
int resol_sec_d2(const resol_sec_t *X, int32_t s, int32_t n, fmat_t *m) SQ_WARN_UNUSED;

/* Whether d_2 from (n, s) is known (resol_sec_d2 would return 0). */
int resol_sec_has(const resol_sec_t *X, int32_t s, int32_t n);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_SECONDARY_H */
