/*
 * resol_map.h -- the map on Ext induced by a map of modules, at every
 * prime.
 *
 * A module map f : M -> N of degree d (f(M_i) in N_{i+d}, fdmap.h)
 * induces, contravariantly,
 *     f^* : Ext^{s,t}(N, F_p) -> Ext^{s,t-d}(M, F_p),
 * stem n to stem n - d.  It is computed by lifting f to a chain map of the
 * minimal resolutions, phi_k : F^M_k -> F^N_k of internal degree d:
 * phi_0(g) is a preimage under the augmentation of N of f(eps_M(g)), and
 * phi_k(g) a preimage under d^N_k of phi_{k-1}(d g) (d phi = phi d), built
 * generator by generator with the quasi-inverses of the stored
 * differentials of F^N (resol_map_internal.h, the machinery the products
 * use).  Then (f^* y)(g) = y(phi_s(g)) for y a class of Ext^{s,t}(N) and g a
 * generator of F^M_s in degree t - d: the coefficient of y's generators in
 * phi_s(g).  Another lift differs by a homotopy and gives the same map on
 * Ext (minimality: d g is decomposable).
 *
 * Threads: resol_map_new only reads RM and RN; a built map is read-only.
 */
#ifndef RESOL_MAP_H
#define RESOL_MAP_H

#include <stdint.h>

#include "fdmap.h"
#include "fmat.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_map resol_map_t;

/* Lifts f : M -> N (degree d; fdmap_ends) to the chain map of RM
 * (resolving M) into RN (resolving N) through filtration max_s and the
 * stems n <= max_n of N (n - d of M).  RM and RN are over the same
 * algebra (the whole Steenrod algebra at their prime: modules without a
 * profile).  Needs RM computed through (max_s, max_n - d) and RN through
 * (max_s, max_n).  Returns 0 and sets *out (free with
 * resol_map_free; it borrows RM and RN), or with *out = NULL: SQ_E_INVAL
 * when the modules are not RM's and RN's inputs or the primes differ,
 * SQ_E_RANGE when the region is not computed or a lift fails (never a
 * wrong map).  Cost: one quasi-inverse of d^N per (k, degree) crossed and
 * one product in the algebra per term applied. */
int resol_map_new(resol_map_t **out, const resol_t *RM, const resol_t *RN, const fdmap_t *f,
                  int32_t max_s, int32_t max_n) SQ_WARN_UNUSED;

/* The chain map of a class of Ext^{s,t}(M, N), t = n + s: phi, a cocycle
 * of Hom_A^t(F^M_s, N) (resol_extmn.h: resol_extmn_cochain_dim entries in
 * its order), lifted to Phi_k : F^M_{s+k} -> F^N_k of internal degree -t
 * (eps_N Phi_0 = phi, d Phi_k = Phi_{k-1} d) through filtration max_s and
 * the stems <= max_n of N.  It induces, by composition, the map
 *     Ext^{s',t'}(N, F_p) -> Ext^{s+s',t+t'}(M, F_p),
 * stem n' of N to stem n' + n of M (the peer's lift_hom); at s = 0 phi is
 * a module map M -> N of degree -t and this is resol_map_new's f^*; with N
 * = F_p it is the product by the class.  Needs RM computed through
 * filtration s + max_s (and s + 1) and the stems max_n + n (and the degree
 * t + top(N)), RN through (max_s, max_n).  Returns 0 and sets *out (free
 * with resol_map_free; resol_map_matrix reads it), or with *out = NULL:
 * SQ_E_INVAL when the modules are not at one prime and profile
 * (resol_extmn_check), phi has the wrong length or is not a cocycle;
 * SQ_E_RANGE when the region is not computed. */
int resol_map_new_class(resol_map_t **out, const resol_t *RM, const resol_t *RN, int32_t s,
                        int32_t n, fvec_t phi, int32_t max_s, int32_t max_n) SQ_WARN_UNUSED;

/* Frees F; NULL is a no-op. */
void resol_map_free(resol_map_t *F);

/* The matrix of f^* from Ext^{s}(N) at stem n to Ext^{s}(M) at stem n - d
 * (0 <= s <= max_s, n <= max_n): *m is initialised here at the prime (the
 * caller fmat_clears it) with one row per class x_(n, s, i) of N and one
 * column per class x_(n - d, s, j) of M; row i is f^* x_(n, s, i) in M's
 * basis.  For a class at (n_c, s_c) (resol_map_new_class) the columns are
 * the classes x_(n + n_c, s + s_c, j) of M.  Returns 0, or SQ_E_RANGE (m zeroed) outside the lifted region. */
int resol_map_matrix(const resol_map_t *F, int32_t s, int32_t n, fmat_t *m) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_MAP_H */
