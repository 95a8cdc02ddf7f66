/*
 * resol.h -- minimal free resolutions F_s -> ... -> F_0 -> M of a finite
 * module M over the mod p Steenrod algebra (or the sub-Hopf algebra of M's
 * profile), at every prime p (the prime of M, fdmod_prime), and the Ext
 * groups they give.
 *
 * The region of a run "through stem N, filtration S" is 0 <= s <= S and
 * bottom(M) <= t - s <= N.  Ext^{s,t}(M, F_p) has dimension the number of
 * generators of F_s in degree t.  Generator i of F_s in degree t is named
 * x_(t - s, s, i).  Generators are chosen by the same conventions at every
 * prime (fmat.h: canonical RREF, extend_image, extend_to_surjection), so
 * the names are fixed by the algebra's basis order and do not depend on
 * threads or schedule.  Nassau's engine, the store (resol_load_step) and
 * resol_lift exist at p = 2 only.
 *
 * A step resol_step_*(R, s, t) is pure mathematics: it reads only what its
 * predecessors published and writes the generators of F_s in degree t.
 * The order in which steps run is the business of the driver
 * (resol_run), kept apart so that a parallel scheduler can replace it.
 */
#ifndef RESOL_H
#define RESOL_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmod.h"
#include "milnor.h"
#include "pmilnor.h"
#include "stalg.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol resol_t;

typedef enum {
    RESOL_CLASSICAL = 0, /* the classical minimal resolution: any finite module */
    RESOL_AUTO = 1,      /* the faster engine that applies (resol_auto_engine) */
    RESOL_NASSAU = 2     /* Nassau's algorithm (bounded modules at p = 2) */
} resol_algo_t;

/* Largest internal degree t of a run (max_s + max_n + 1), at p = 2 and at
 * an odd prime. */
#define RESOL_MAX_T 1000000
#define RESOL_MAX_T_ODD 100000

/* The largest degree of the Steenrod algebra a run of a module with cells
 * in degrees bottom..top through stem max_n uses: max(max_n + 2 - bottom,
 * top - bottom, 1), whatever the filtration (resol.c says why). */
int64_t resol_algebra_degree(int32_t bottom, int32_t top, int32_t max_n);

/* The default filtration of a run through stem max_n of a module at the
 * prime p with cells from bottom, spanning span degrees:
 * (max_n - bottom)/(2(p - 1)) + 3 + span.  Above the vanishing line of
 * slope 1/(2(p - 1)) (1/2 at p = 2: h_0, h_1 towers aside; 1/4 at p = 3:
 * the a_1-towers' slope) Ext of a module over the whole algebra or a
 * sub-Hopf algebra is zero except the tower on the bottom class (h_0 at
 * p = 2, a_0 at odd p); 3 + span is the margin of a module's own cells.
 * At p = 3 through stem 100 the highest nonzero class off the tower is
 * within 1 of the line (docs/cli.md).  Cost O(1). */
int32_t resol_default_max_s(uint32_t p, int32_t max_n, int32_t bottom, int32_t span);

/* What a run will cost, from resol_estimate. */
typedef struct {
    double exact_bytes;     /* allocated by every such run, computed exactly from the algebra's
                             * dimensions and the region: tables and the first step's matrix */
    double model_bytes;     /* the expected peak RSS of the adams process, modelled from
                             * measured runs (>= exact_bytes; within 2x where calibrated,
                             * docs/limits.md) */
    double seconds;         /* the expected wall time, modelled likewise (rougher: the
                             * machine's speed and load vary) */
    int64_t algebra_degree; /* resol_algebra_degree of the run */
} resol_estimate_t;

/* Estimates the memory and time of a run of M through (max_s, max_n) with
 * engine algo on `threads` threads, before anything of the run is
 * allocated (resol_estimate.c explains the exact and the modelled parts).
 * Works for any region, including ones resol_check_range refuses.  Cost:
 * O(algebra degree); allocates a milnor_t of the algebra degree (capped at
 * MILNOR_MAX_DEGREE). */
void resol_estimate(const fdmod_t *M, resol_algo_t algo, int32_t max_s, int32_t max_n,
                    int threads, resol_estimate_t *e);

/* The same for the cofiber of the class x_(t - s, s, idx) of M sent to
 * M's class in degree target (resol_cofiber_new with these arguments):
 * the classical resolution of M through row s + 1 and stem max(max_n + 1,
 * t + top(M) - target - s - 1), plus the module E built from F_{s-1} and
 * its resolution through (max_s - s + 1, max_n + s - 1) (resol_estimate.c
 * says how E is modelled).  Cost: O((max_n - bottom)^2). */
void resol_estimate_cofiber(const fdmod_t *M, int32_t s, int32_t t, int32_t target, int32_t max_s,
                            int32_t max_n, int threads, resol_estimate_t *e);

/* The process's own peak RSS before a run allocates anything, included in
 * every model_bytes (the figures are of the whole adams process). */
double resol_estimate_base_bytes(void);

/* The cache budget (resol_set_cache_budget) of a run of estimate e under
 * a memory limit of limit bytes: the limit less the modelled part of the
 * peak that is not cache, RESOL_NONCACHE_SHARE of e->model_bytes (the
 * resolution, the tables, the running steps' matrices: at stem 200 on two
 * threads ~0.7 GB of a 2.0 GB model, at (150, 78) 79 of 185 MB), but at
 * least a third of the limit.  -1 (the library's default: no budget)
 * when limit <= 0.  e NULL: a third of the limit.  docs/limits.md. */
#define RESOL_NONCACHE_SHARE 0.5
int64_t resol_cache_budget(double limit, const resol_estimate_t *e);

/* A store bound to the classical engine (store_algo) extended through
 * (max_s, max_n): when Nassau's algorithm could resolve M, the classical
 * estimate is at least RESOL_ENGINE_NOTE_SECONDS and at least 3 times
 * Nassau's, writes into buf (len bytes) the one-line note "this store uses
 * the classical engine: about X s; a fresh store with --algorithm nassau
 * takes about Y s" and returns 1; otherwise returns 0 and leaves buf. */
#define RESOL_ENGINE_NOTE_SECONDS 20.0
int resol_estimate_engine_note(const fdmod_t *M, resol_algo_t store_algo, int32_t max_s,
                               int32_t max_n, int threads, char *buf, size_t len);

/* Checks that a run of M through stem max_n and filtration max_s is within
 * what the algebra of M's prime supports (at odd p also the algebra's
 * element count).  Returns 0, or SQ_E_RANGE with a one-line
 * reason written to err (errlen bytes). */
int resol_check_range(const fdmod_t *M, int32_t max_s, int32_t max_n, char *err, size_t errlen);

/* New resolution of M (borrowed; must outlive R) over the region through
 * stem max_n and filtration max_s.  Nothing is computed yet.  The range
 * must pass resol_check_range. */
resol_t *resol_new(const fdmod_t *M, int32_t max_s, int32_t max_n);
/* Frees R and everything it computed; NULL is a no-op. */
void resol_free(resol_t *R);

/* Nassau's corrections keep, per row, the zero-signature blocks of the
 * degrees a later step may read, with d's rows on them (nassau_correct.c),
 * and a step's step-2 matrix may wait for the next row's step
 * (nassau_handoff.c).  Together they hold at most this many bytes, plus the
 * one block each running step is reading: whatever would pass it is evicted
 * (handed matrices first, then the blocks of rows not running, then the
 * running row's oldest), and a step that needs an evicted block builds it
 * again (same bits, slower).  Default RESOL_CACHE_BUDGET_DEFAULT; the CLI
 * sets a third of --max-memory, or of the available memory.  Call before
 * running. */
#define RESOL_CACHE_BUDGET_DEFAULT ((int64_t)1 << 30)
void resol_set_cache_budget(resol_t *R, int64_t bytes);
/* The most bytes the blocks and handed matrices held at once so far, how
 * many were evicted for the budget, and (largest: NULL to skip) the largest
 * single block or matrix (thread-safe reads). */
void resol_cache_stats(const resol_t *R, int64_t *peak, int64_t *evicted, int64_t *largest);

/* The prime of R (its module's). */
uint32_t resol_prime(const resol_t *R);
int32_t resol_max_s(const resol_t *R);
int32_t resol_max_n(const resol_t *R);
/* The lowest stem of the region: the bottom degree of M. */
int32_t resol_min_n(const resol_t *R);
/* The algebra of R: its Milnor basis at p = 2 (resol_algebra) or at an odd
 * prime (resol_palgebra), SQ_CHECK on the other prime; the handle over it
 * that every F_s shares, at every prime (resol_stalg). */
const milnor_t *resol_algebra(const resol_t *R);
const pmilnor_t *resol_palgebra(const resol_t *R);
const stalg_t *resol_stalg(const resol_t *R);
const fdmod_t *resol_input(const resol_t *R);
/* F_s and d_s : F_s -> F_{s-1} (d_0 : F_0 -> M), 0 <= s <= max_s. */
const fmod_t *resol_free_module(const resol_t *R, int32_t s);
const fhom_t *resol_differential(const resol_t *R, int32_t s);

/* One step of the classical algorithm at (s, t): row reduces d_s on the
 * part of F_s in degree t spanned by generators of lower degree, keeps its
 * kernel for (s + 1, t), and adds the generators of F_s in degree t that
 * cover ker d_{s-1} (or M_t when s = 0).  Needs (s, t - 1) and (s - 1, t)
 * done.  At stem max_n + 1 it only computes the kernel. */
void resol_step_classical(resol_t *R, int32_t s, int32_t t);

/* One step of Nassau's algorithm at (s, t), s >= 2 (rows 0 and 1 use the
 * classical step).  Needs (s, t - 1) and (s - 1, t - 1) done; reads only
 * generators of degree < t of F_{s-1} and < t - 1 of F_{s-2}.  Requires
 * resol_run(R, RESOL_NASSAU) semantics: call resol_prepare first. */
void resol_step_nassau(resol_t *R, int32_t s, int32_t t);

/* Whether engine algo can resolve M: Nassau needs p = 2 and a module over
 * the whole algebra (no profile).  Returns 0, or SQ_E_INVAL with a one-line reason. */
int resol_engine_check(const fdmod_t *M, resol_algo_t algo, char *err, size_t errlen);

/* What RESOL_AUTO means for M through stem max_n: the classical engine at
 * odd p, for a module over a subalgebra and for regions of at most 40 stems above the
 * bottom (Nassau's overhead outweighs its gain there; resol.c has the
 * measurements), Nassau's algorithm otherwise.  Modules truncated from
 * infinite ones should be given RESOL_CLASSICAL by the caller (Nassau
 * applies but gains nothing over a module that reaches the top of the
 * region). */
resol_algo_t resol_auto_engine(const fdmod_t *M, int32_t max_n);

/* Fixes the engine of R (RESOL_AUTO: resol_auto_engine) and builds what it
 * needs (Nassau: the ladder and signature tables; p = 2 only, SQ_CHECK).
 * Called by resol_run;
 * a scheduler that runs steps itself calls it first.  Returns the engine. */
resol_algo_t resol_prepare(resol_t *R, resol_algo_t algo);

/* Computes the whole region with the chosen algorithm, one step at a time
 * in a fixed order, skipping published steps (as resol_run_pool).  Stops
 * between steps if resol_request_stop was called. */
void resol_run(resol_t *R, resol_algo_t algo);

/* Receives progress from a parallel run.  step_done is called once per
 * finished step, by the scheduler with its lock held (keep it short):
 * done of total steps, and the bidegree just finished.  Steps published
 * before the run (resol_load_step) are counted in done from the start and
 * are not reported. */
typedef struct {
    void (*step_done)(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t);
    void *ctx;
} resol_observer_t;

/* Computes the whole region on the threads of `pool` (NULL: the serial
 * driver).  A coordinator keeps the table of finished steps and releases a
 * step when its predecessors are done -- classical: (s, t - 1) and
 * (s - 1, t); Nassau: (s, t - 1) and (s - 1, t - 1), plus (0, t) for row 1
 * -- and the pool's threads run ready steps in the engine's order (Nassau:
 * lowest s first, then lowest t; classical: lowest t, then lowest s; sched.c,
 * the scheduler of every engine); inside a step, matrix builds
 * are split over idle threads.  The result does not
 * depend on the pool size or the schedule.  obs may be NULL.
 *
 * Steps already published (loaded from a store with resol_load_step) are
 * not run again, nor is a kernel-only step at stem max_n + 1 whose
 * successor was loaded; a classical step whose predecessor (s - 1, t) was
 * loaded recomputes that predecessor's kernel itself.
 *
 * Returns 0 when every step of the region is done, 1 when the run stopped
 * early because resol_request_stop was called (the steps that had started
 * finished and were reported; the rest were not started). */
int resol_run_pool(resol_t *R, resol_algo_t algo, sq_pool_t *pool, const resol_observer_t *obs);

/* Asks a run of R (resol_run, resol_run_pool) to stop: no new step starts
 * after this call; the steps in flight finish.  Async-signal-safe (a
 * lock-free atomic store) and callable from any thread, before or during a
 * run; a later run of R also stops at once, until resol_clear_stop. */
void resol_request_stop(resol_t *R);
/* Whether resol_request_stop was called (and not cleared). */
int resol_stop_requested(const resol_t *R);
/* Clears a stop request. */
void resol_clear_stop(resol_t *R);

/* ---- A run driven from outside: a distributed run (docs/mpi.md) ---------
 *
 * The program's MPI layer (src/mpi) runs the steps of a region on other
 * processes: the coordinator drives this scheduler (the one resol_run_pool
 * uses: the same table, order and observer calls) and publishes each
 * result with resol_load_step; a worker runs the steps it is sent with
 * resol_run_step_here and sends resol_step_payload back. */

/* A run's coordinator: runs every step of R's region not yet published
 * (the engine fixed), reporting each to obs (may be NULL) as
 * resol_run_pool does.  Returns 0 when every step is done, 1 when it
 * stopped early (resol_request_stop), or a negative error. */
typedef int (*resol_runner_fn)(void *ctx, resol_t *R, const resol_observer_t *obs);
/* The engine resol_prepare fixed (meaningful after it). */
resol_algo_t resol_engine(const resol_t *R);
/* Makes resol_run_pool(R, ...) call run(ctx, R, obs) after fixing the
 * engine, instead of running the steps on its pool; run NULL restores the
 * default.  Nothing else changes (resol_run stays serial). */
void resol_set_runner(resol_t *R, resol_runner_fn run, void *ctx);

/* The scheduler of resol_run_pool over R's region (resol_prepare called),
 * driven by the caller.  resol_sched_next pops the ready step of lowest
 * priority into (*s, *t) and returns 1, or returns 0 when none is ready
 * now (steps handed out are still running) or a stop was requested;
 * resol_sched_done marks it finished (its successors become ready; obs's
 * step_done is called).  resol_sched_finished: every step is done.  Not
 * thread-safe: one caller. */
typedef struct resol_sched resol_sched_t;
resol_sched_t *resol_sched_new(resol_t *R, const resol_observer_t *obs);
int resol_sched_next(resol_sched_t *S, int32_t *s, int32_t *t);
void resol_sched_done(resol_sched_t *S, int32_t s, int32_t t);
int resol_sched_finished(const resol_sched_t *S);
/* NULL is a no-op. */
void resol_sched_free(resol_sched_t *S);

/* Whether the step (s, t) only computes a kernel for (s + 1, t) (stem
 * max_n + 1): it publishes nothing, so a distributed run does not send it
 * anywhere (resol_run_step_here recomputes the kernel where it is read). */
int resol_step_kernel_only(const resol_t *R, int32_t s, int32_t t);

/* Runs the step (s, t) (not kernel-only) in a process whose R may hold
 * its predecessors loaded (resol_load_step) rather than run: a classical
 * step whose kernel of d_{s-1} in degree t was not computed here computes
 * it first (the same bits as the step (s - 1, t) would have left).  The
 * step's parallel sections run on pool (NULL: serially), which R keeps for
 * its later steps.  Its predecessors must be published.  Several steps may
 * run at once on the threads of pool (as under resol_run_pool), and steps
 * may be loaded (resol_load_step) while they run, as long as each step's
 * predecessors were published before it started. */
void resol_run_step_here(resol_t *R, int32_t s, int32_t t, sq_pool_t *pool);

/* The published step (s, t) as resol_load_step takes it: sets *ngens and
 * *nbits and, when out is not NULL, copies the ngens vectors d(g) into out
 * (resol_load_step's encoding).  Returns the bytes of the vectors. */
int64_t resol_step_payload(const resol_t *R, int32_t s, int32_t t, int64_t *ngens, int64_t *nbits,
                           void *out);

/* ---- Steps computed elsewhere (the store, src/store) ---------------------
 *
 * A step (s, t) of the region (0 <= s <= max_s, min_n <= t - s <= max_n)
 * is published when the generators of F_s in degree t are set.  A store
 * loads finished steps in increasing (t, s) order with resol_load_step; a
 * later resol_run_pool computes only the rest. */

/* Whether the step (s, t) is published (its generators are set). */
int resol_step_published(const resol_t *R, int32_t s, int32_t t);

/* Whether (s, t) can be loaded now: it is a step of the region, not yet
 * published, and its load predecessors are published -- (s, t - 1) and, for
 * s >= 1, (s - 1, t - 1), each where it is a step of the region.  These fix
 * the layout of its data: the indices of its generators and the basis of
 * F_{s-1} in degree t below t (its vectors' coordinates). */
int resol_load_ready(const resol_t *R, int32_t s, int32_t t);

/* Publishes the step (s, t) computed elsewhere, at every prime: ngens new
 * generators of F_s in degree t with d(g_i) the i-th of the vectors at
 * vecs, each nbits entries in the field's encoding (fmat.h: f2_limbs(nbits)
 * limbs at p = 2, nbits residue bytes at odd p; copied).  nbits must be
 * the image size of the step (fhom_image_len(d_s, t)), and the padding
 * bits zero (p = 2) or every entry below p (odd p).  Returns 0, or
 * SQ_E_INVAL with a one-line reason in err (errlen bytes) when the step is
 * not resol_load_ready or the data does not fit; R is then unchanged.  Not
 * thread-safe: load before running. */
int resol_load_step(resol_t *R, int32_t s, int32_t t, int64_t ngens, int64_t nbits,
                    const void *vecs, char *err, size_t errlen);

/* Number of steps a run of R with engine algo performs. */
int64_t resol_num_steps(resol_t *R, resol_algo_t algo);

/* The profile h[0..len) of the subalgebra B Nassau's step uses at (s, t)
 * (len 0: B = F_2).  Needs resol_prepare(R, RESOL_NASSAU). */
int resol_nassau_subalgebra(const resol_t *R, int32_t s, int32_t t, int32_t *h, int maxlen);

/* Lifts through d_s: for v in the image of d_s in degree t (a vector over
 * the basis of F_{s-1} in degree t spanned by generators of degree < t,
 * fhom_target_dim(d_s, t) bits), writes into out (fmod_dim(F_s, t) bits,
 * all generators of degree <= t) a preimage.  Recomputed from the stored
 * differentials: nothing is cached.  (s, t) must be computed, 1 <= s.
 * Returns 0, or SQ_E_INVAL if v is not a boundary (out is then zero). */
int resol_lift(const resol_t *R, int32_t s, int32_t t, const uint64_t *v, uint64_t *out);

/* dim Ext^{s, s+n}: the number of generators of F_s in degree s + n, or
 * -1 when that bidegree has not been computed. */
int64_t resol_ext_dim(const resol_t *R, int32_t s, int32_t n);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_H */
