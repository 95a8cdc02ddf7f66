/*
 * resol_secondary_prod.h -- products in Mod_{C lambda^2} at p = 2: the
 * secondary lift of multiplication by a class (docs/secondary.md, "The
 * secondary product"; the peer's `secondary_product`).
 *
 * Let F resolve M and G the sphere (minimal, p = 2), both lifted to the
 * secondary Steenrod algebra (resol_secondary.h: null-homotopies h^F, h^G
 * of d d, h_2 = 0).  A class x of Ext^{s0,t0}(M) with d_2 x = 0 is lifted
 * to a chain map f_k : F_{s0+k} -> G_k (internal degree -t0) and then to a
 * map of secondary complexes: a family H_k : F_{s0+k} -> G_{k-1} of
 * internal degree -t0 - 1, H_1 = 0, with for k >= 2 and g a generator
 *
 *   d H_k(g) = sum_{g'} A(a_{g'}, C_{k-1}(g')) + sum_{g''} A(b_{g''}, c^G(g''))
 *              + h^G_k(f_k g) + f_{k-2}(h^F_{s0+k} g) + H_{k-1}(d g),
 *
 * d g = sum a_{g'} g', f_k g = sum b_{g''} g'', c^G the R_B-valued
 * composite of G's sigma(d) sigma(d), C_k(g) = -sigma(d)sigma(f)(g) +
 * sigma(f)sigma(d)(g) in R_B (mod 4: d f = f d mod 2), A the action of
 * pair_algebra.h (all mod 2 but the composites).  For y in Ext^{s,t}(S)
 * surviving to E_3 (a sum of basis classes y_i, lifted by sigma, i.e. with
 * 0/1 integer coefficients):
 *
 *   [x][y] = (x y) + lambda ( sum_i y_i [H_{s+1} on y_i's generator]
 *                              + h_0 (carries of (-1)^{s0 t} x y over Z/4) )
 *
 * the lambda part in Ext^{s+s0+1, t+t0+1}(M) reduced modulo the image of
 * d_2 (the peer's SecondaryResolutionHomomorphism::hom_k, its sign twist
 * (-1)^{s0 t} included).  What is well defined: the Ext part; and, when
 * x y = 0, the lambda part modulo x Ext^{s+1,t+1}(S) + Ext^{s0+1,t0+1}(M) y
 * + im d_2 (another choice of h^F, h^G changes it by such terms; other f
 * and H change it by im d_2 only).  Where x y != 0 the lambda part depends
 * on the choice of h (the peer's two engines differ there).
 *
 * Threads: the lifts of the two resolutions run on the pool, and of each
 * level of H the composites and right-hand sides (by generator); the chain
 * map and the preimages are serial; the result is a fixed function of the
 * resolutions, whatever the threads.
 */
#ifndef RESOL_SECONDARY_PROD_H
#define RESOL_SECONDARY_PROD_H

#include <stddef.h>
#include <stdint.h>

#include "fmat.h"
#include "resol.h"
#include "resol_secondary.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_sec_prod resol_sec_prod_t;

/* The secondary lift of multiplication by x, a class vector at (n0, s0)
 * of Ext(M) (RM resolves M; RS the sphere at p = 2, or RS == RM when M is
 * the sphere), for the products [x][y] with y at (n, s), n <= max_n - n0
 * - 1, s <= max_s - s0 - 1.  RM must be computed through (max_n, max_s),
 * RS through (max_n - n0, max_s - s0 + 1) (the E_3 page at y's bidegree).
 * Returns 0 and sets *out, or (*out NULL, the reason in err): SQ_E_INVAL
 * when a module is refused by the secondary lift (resol_sec_check), the
 * module does not lift, x supports a nonzero d_2, or x is not a class
 * vector there; SQ_E_RANGE when the region is not computed or a lift
 * fails (a bug).  prog (NULL: none) is called from the calling thread after
 * each step, (step, steps): the rows of both lifts, then the levels of H.
 * Memory: the homotopies of both resolutions are kept. */
int resol_sec_prod_new(resol_sec_prod_t **out, const resol_t *RM, const resol_t *RS, int32_t n0,
                       int32_t s0, fvec_t x, int32_t max_n, int32_t max_s, sq_pool_t *pool,
                       resol_sec_progress_fn prog, void *pctx, char *err,
                       size_t errlen) SQ_WARN_UNUSED;
/* Frees P; NULL is a no-op. */
void resol_sec_prod_free(resol_sec_prod_t *P);

/* The secondary lifts of RM and RS (the same when RS == RM), borrowed. */
const resol_sec_t *resol_sec_prod_module(const resol_sec_prod_t *P);
const resol_sec_t *resol_sec_prod_unit(const resol_sec_prod_t *P);

/* [x][y] for y a vector over the classes of Ext(S) at (n, s) (0/1
 * entries): ext (over Ext(M) at (n + n0, s + s0), resol_ext_dim entries
 * written) and lambda (over (n + n0, s + s0 + 1), reduced modulo the image
 * of d_2: zero on the pivots of its canonical echelon form).  Returns 0,
 * or SQ_E_RANGE (nothing written) outside the region of resol_sec_prod_new
 * or when ext or lambda is too short. */
int resol_sec_prod_eval(const resol_sec_prod_t *P, int32_t n, int32_t s, fvec_t y, fvec_t ext,
                        fvec_t lambda) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_SECONDARY_PROD_H */
