/*
 * resol_unstable.h -- minimal resolutions in the category of unstable
 * modules over the Steenrod algebra (every prime), and the suspension maps
 * of their Ext (docs/unstable.md).
 *
 * An unstable resolution is a resol_t whose free modules are unstable free
 * modules (fmod_new_unstable: the block of a generator of degree g is
 * F(g)'s, the Milnor basis elements of excess <= g): the same driver, the
 * same scheduler and the same classical step as every resolution; only the
 * free module's basis differs.  Ext_U^{s,t}(M, F_2) has dimension the
 * number of generators of F_s in degree t (resol_ext_dim); for M =
 * Sigma^n F_p it is the E_2 page of the unstable Adams spectral sequence of
 * S^n (at odd p the peer's resolve_unstable of S_p[n]).  Stores keep them
 * (format 4, docs/save-format.md); Nassau's engine, products and
 * resol_lift are stable only.
 */
#ifndef RESOL_UNSTABLE_H
#define RESOL_UNSTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether M can be resolved in the unstable category: over the whole
 * algebra (no profile), cells in degrees >= 0, and unstable: Sq^k x = 0 for
 * k > |x| (p = 2); P^i x = 0 for 2i > |x| and beta P^i x = 0 for 2i + 1 >
 * |x| (odd p), for every basis element x.  Returns 0, or SQ_E_INVAL with
 * one line in err naming what is wrong (for an action: "C2 is not
 * unstable: Sq1 x0 != 0 (x0 has degree 0)", at odd p "bP1", "P2").  S is
 * the algebra at M's prime through at least top(M) - bottom(M) (SQ_CHECK
 * on the prime; borrowed).  Cost: one fdmod_act_addf per (class,
 * operation). */
int resol_unstable_check(const fdmod_t *M, const stalg_t *S, char *err,
                         size_t errlen) SQ_WARN_UNUSED;

/* New unstable resolution of M (borrowed) through stem max_n and
 * filtration max_s: resol_new with unstable free modules.  M must pass
 * resol_unstable_check and resol_check_range (both SQ_CHECKed: a module
 * that is not unstable stops the program rather than give a wrong Ext).  Run it with
 * resol_run / resol_run_pool and RESOL_CLASSICAL or RESOL_AUTO (which is
 * classical here); Nassau's engine is refused (SQ_CHECK). */
resol_t *resol_new_unstable(const fdmod_t *M, int32_t max_s, int32_t max_n);

/* resol_new_unstable for a module that may not qualify (one read from a
 * store): 0 and *out, or SQ_E_INVAL with *out NULL and one line in err
 * (resol_unstable_check's or resol_check_range's), nothing allocated.
 * Cost: resol_unstable_check's, on an algebra built here. */
int resol_try_new_unstable(resol_t **out, const fdmod_t *M, int32_t max_s, int32_t max_n,
                           char *err, size_t errlen) SQ_WARN_UNUSED;

/* Whether R is an unstable resolution. */
int resol_is_unstable(const resol_t *R);

/* The suspension map of unstable Ext, from the unstable resolutions Ra of
 * N = Sigma^{k-1} M0 and Rb of Sigma N = Sigma^k M0 (Rb's module is
 * Ra's shifted up by one: the same basis, one degree higher; SQ_E_INVAL
 * otherwise): the chain map lifting sigma^{-1} : Sigma N -> N, a map of
 * degree -1, which induces
 *     E : Ext_U^{s,t}(N, F_2) -> Ext_U^{s,t+1}(Sigma N, F_2),
 * stem n of N to stem n + 1 of Sigma N (the same stem of M0).  Through
 * filtration max_s and N's stems <= max_n: Ra computed through (max_s,
 * max_n), Rb through (max_s, max_n + 1).  Returns 0 and *out (read with
 * resol_map_matrix(*out, s, n, m): one row per class of N at (n, s), one
 * column per class of Sigma N at (n + 1, s); free with resol_map_free), or
 * SQ_E_INVAL / SQ_E_RANGE (resol_map_new's) with *out NULL. */
int resol_suspension_new(resol_map_t **out, const resol_t *Ra, const resol_t *Rb, int32_t max_s,
                         int32_t max_n) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_UNSTABLE_H */
