/*
 * presol.h -- the odd-prime names of the one resolution (resol.h): minimal
 * free resolutions F_s -> ... -> F_0 -> M of a finite module M over the mod
 * p Steenrod algebra at an odd prime p (or over a sub-Hopf algebra given by
 * M's profile), by the classical algorithm, and the Ext groups they give.
 * presol_t is resol_t; every presol_* below is a one-line wrapper over its
 * resol_* (issue 21 step 5), kept for its callers until they move.
 *
 * The region of a run "through stem N, filtration S" is 0 <= s <= S and
 * bottom(M) <= t - s <= N.  Ext^{s,t}(M, F_p) has dimension the number of
 * generators of F_s in degree t; generator i of F_s in degree t is named
 * x_(t - s, s, i).  Generators are created with the conventions of the p = 2
 * engine (fpmat.h: canonical RREF with pivots 1, extend_image, extend_to_
 * surjection), so the names are fixed by the algebra's basis order (the
 * peer's) and do not depend on threads or schedule.
 *
 * A step (resol_step_classical) is pure mathematics: it reads only what its
 * predecessors (s, t - 1) and (s - 1, t) published and writes the
 * generators of F_s in degree t.  The drivers (presol_run, serial;
 * presol_run_pool, a wavefront on a thread pool) only choose the order.
 */
#ifndef PRESOL_H
#define PRESOL_H

#include <stddef.h>
#include <stdint.h>

#include "pfdmod.h"
#include "pfhom.h"
#include "pfmod.h"
#include "pmilnor.h"
#include "resol.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one resolution (resol.h) at an odd prime: presol_* are its
 * odd-prime names, thin wrappers over resol_* (issue 21, step 5). */
typedef struct resol presol_t;

/* Largest internal degree t of a run (max_s + max_n + 1). */
#define PRESOL_MAX_T RESOL_MAX_T_ODD

/* The largest degree of the algebra a run of a module with cells in
 * degrees bottom..top through stem max_n uses: max(max_n + 2 - bottom,
 * top - bottom, 1), whatever the filtration (as resol_algebra_degree: F_s is
 * generated in degrees >= bottom + s and a step has t <= max_n + s + 1). */
int64_t presol_algebra_degree(int32_t bottom, int32_t top, int32_t max_n);

/* Checks that a run of M through stem max_n and filtration max_s is within
 * what the algebra supports (degree, element count).  Returns 0, or
 * SQ_E_RANGE with a one-line reason in err. */
int presol_check_range(const pfdmod_t *M, int32_t max_s, int32_t max_n, char *err, size_t errlen);

/* New resolution of M (borrowed; must outlive R) through stem max_n and
 * filtration max_s.  Nothing is computed yet.  The range must pass
 * presol_check_range (SQ_CHECK). */
presol_t *presol_new(const pfdmod_t *M, int32_t max_s, int32_t max_n);
/* Frees R and everything it computed; NULL is a no-op. */
void presol_free(presol_t *R);

uint32_t presol_prime(const presol_t *R);
int32_t presol_max_s(const presol_t *R);
int32_t presol_max_n(const presol_t *R);
/* The lowest stem of the region: the bottom degree of M. */
int32_t presol_min_n(const presol_t *R);
const pmilnor_t *presol_algebra(const presol_t *R);
const pfdmod_t *presol_input(const presol_t *R);
/* F_s and d_s : F_s -> F_{s-1} (d_0 : F_0 -> M), 0 <= s <= max_s. */
const pfmod_t *presol_free_module(const presol_t *R, int32_t s);
const pfhom_t *presol_differential(const presol_t *R, int32_t s);

/* Computes the whole region, one step at a time: t increasing, then s. */
void presol_run(presol_t *R);

/* Receives progress from presol_run_pool: the observer of resol_run_pool
 * (step_done is called once per finished step by the scheduler with its
 * lock held; keep it short). */
typedef resol_observer_t presol_observer_t;

/* Computes the whole region on the threads of pool (NULL: presol_run, or
 * one worker thread when obs is set): the scheduler of resol_run_pool
 * releases (s, t) when (s, t - 1) and (s - 1, t) are done and runs the
 * ready steps lowest s first, then lowest t (the rows as a pipeline, the low
 * rows finishing first); matrix builds inside a step are split over idle
 * threads.  The result does not depend on the pool.  obs may be NULL. */
void presol_run_pool(presol_t *R, sq_pool_t *pool, const presol_observer_t *obs);

/* Number of steps a run performs. */
int64_t presol_num_steps(const presol_t *R);

/* dim Ext^{s, s+n}: the number of generators of F_s in degree s + n, or -1
 * when that bidegree has not been computed (or lies outside the region). */
int64_t presol_ext_dim(const presol_t *R, int32_t s, int32_t n);

/* d o d = 0 and the augmentation is onto, checked on every computed
 * generator: d_{s-1}(d_s(g)) = 0 for s >= 1 and the images of F_0 span M_t
 * in every computed degree.  Returns 0, or SQ_E_INVAL with the first
 * failure in err.  For tests; cost about one more resolution's products. */
int presol_verify(const presol_t *R, char *err, size_t errlen);

/* ---- What a run will cost (presol_estimate.c; docs/limits.md) ----------
 * The odd-prime counterpart of resol_estimate, with the same
 * resol_estimate_t (calibrated on S_3 through stems 100..400, filtrations
 * 2..n/2 + 3). */

/* Estimates the memory and time of presol_run(_pool) of M through (max_s,
 * max_n) on `threads` threads.  exact_bytes: the algebra's basis, the
 * per-bidegree tables and the kernel of d_0 at the top degree (every such
 * run allocates them); model_bytes: the expected peak RSS of the adams
 * process (>= exact_bytes; the product cache, capped at 1 GiB, and the
 * matrices, scaled by M's cells); seconds: the wall time (rough).  Works
 * for any region, including ones presol_check_range refuses (the figures
 * are then at least what it would take).  Cost: O(algebra degree * len). */
void presol_estimate(const pfdmod_t *M, int32_t max_s, int32_t max_n, int threads,
                     resol_estimate_t *e);

/* The same for the cofiber of the class x_(t - s, s, idx) sent to M's
 * class in degree target (presol_cofiber_new with these arguments): the
 * resolution of M through row s + 1 and stem max(max_n + 1, t + top(M) -
 * target - s - 1), plus the module E built from F_{s-1} and its resolution
 * through (max_s - s + 1, max_n + s - 1), modelled as at p = 2
 * (resol_estimate_cofiber), calibrated on S_3's cofibers of a_0^s. */
void presol_estimate_cofiber(const pfdmod_t *M, int32_t s, int32_t t, int32_t target,
                             int32_t max_s, int32_t max_n, int threads, resol_estimate_t *e);

#ifdef __cplusplus
}
#endif

#endif /* PRESOL_H */
