/*
 * resol_secondary_massey.h -- Massey products in Mod_{C lambda^2} at p = 2
 * (docs/secondary.md, "Secondary Massey products"; the peer's
 * `secondary_massey`).
 *
 * F resolves M, G the sphere, both lifted to the secondary Steenrod algebra
 * (resol_secondary.h) with the canonical homotopies h^F, h^G of
 * resol_secondary_prod.h.  Two classes of Mod_{C lambda^2}: a = [a0] +
 * lambda a1 (a0 in Ext^{sa,ta}(M) a d_2-cycle, a1 in Ext^{sa+1,ta+1}(M))
 * and b = [b0] + lambda b1 (in Ext(S) likewise), with a b = 0 there.  a0,
 * b0 lift to maps of secondary complexes (f^a, H^a), (f^b, H^b)
 * (resol_secondary_prod.h); a1, b1 to chain maps.  With S = sa + sb, T =
 * ta + tb:
 *
 * K, the null-homotopy of the composite f^b f^a: K_{S-1} : F_{S-1} -> G_0
 * sends the generators of degree T to z G_0's generator, z the preimage
 * under d_2 (the canonical one, the quasi-inverse of the echelon form of
 * [d_2 | I]) of the lambda part of [a][b] (its Ext part is zero), and
 * d K_s = f^b f^a - K_{s-1} d for s >= S.
 *
 * HK, its secondary lift: HK_S = 0 and for s > S, g a generator of F_s,
 * HK_s(g) is the canonical preimage under d of (mod 2)
 *
 *   A(d g, CK_{s-1}) + HK_{s-1}(d g) + A(K_s g, c^G) + h^G(K_s g) + K_{s-2}(h^F g)
 *   + A(f^a g, C^b) + H^b(f^a g) + b1(f^a g) + f^b(H^a g) + f^b(a1 g),
 *
 * CK_s(g) = -sigma(f^b)sigma(f^a)(g) + sigma(d)sigma(K_s)(g) +
 * sigma(K_{s-1})sigma(d)(g) in R_B (it may hit generators: 2 times one),
 * C^b and c^G the composites of resol_secondary_prod.h.  At s = S + 1 the
 * preimage exists exactly when [a][b] = 0 in Mod_{C lambda^2}.
 *
 * The bracket <a, b, y> for y = [y0] + lambda y1 in the kernel of [b] at
 * (n, s) of the sphere (y0 a d_2-cycle, b0 y0 = 0, and the lambda part of
 * [b][y0] + lambda b0 y1 in the image of d_2), at (n + nb + na + 1, s + S -
 * 1) of M:
 *
 *   ext    = K^*(y0) - a0 z_y          (over Z/4; z_y the canonical preimage
 *                                        under d_2 of the lambda part of [b]y)
 *   lambda = HK^*(y0) + K^*(y1) + h_0 (the carries of ext)
 *            + a0 h_0 (the carries of b0 y0 over Z)
 *
 * the lambda part not reduced (it depends on the choices: the peer's).
 * Threads: the lifts run on the pool; the result is a fixed function of
 * the resolutions.
 */
#ifndef RESOL_SECONDARY_MASSEY_H
#define RESOL_SECONDARY_MASSEY_H

#include <stddef.h>
#include <stdint.h>

#include "fmat.h"
#include "resol.h"
#include "resol_secondary.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_sec_massey resol_sec_massey_t;

/* A class [x0] + lambda x1 at (n, s): x0 over Ext at (n, s), x1 over Ext
 * at (n, s + 1) (either may be zero, not both; a zero-length x1: none). */
typedef struct {
    int32_t n, s;
    fvec_t x0, x1;
} resol_sec_class_t;

/* The null-homotopy and its lift for <a, b, ->, a of Ext(M) (RM), b of the
 * sphere (RS; RS == RM when M is the sphere), for the brackets with y at
 * (n, s), n <= max_n - na - nb - 2, s <= max_s - sa - sb.  RM must be
 * computed through (max_n, max_s), RS through (max_n + 2 - min(na, 0),
 * max_s + 2).  Needs sa + sb >= 2 and sa + sb < max_s.  Returns 0 and sets
 * *out, or (*out NULL, one line in err) SQ_E_INVAL when a module or class
 * is refused (as resol_sec_prod_new; a0 or b0 supports a d_2; a zero
 * class), a b != 0 in Ext or in Mod_{C lambda^2}; SQ_E_RANGE when the
 * region is not computed or a lift fails (a bug).  prog as
 * resol_sec_prod_new (NULL: none). */
int resol_sec_massey_new(resol_sec_massey_t **out, const resol_t *RM, const resol_t *RS,
                         const resol_sec_class_t *a, const resol_sec_class_t *b, int32_t max_n,
                         int32_t max_s, sq_pool_t *pool, resol_sec_progress_fn prog, void *pctx,
                         char *err, size_t errlen) SQ_WARN_UNUSED;
/* Frees X; NULL is a no-op. */
void resol_sec_massey_free(resol_sec_massey_t *X);

/* Whether the bracket at (n, s) of the sphere is in X's region (the peer's:
 * n + na + nb + 2 <= max_n, s + sa + sb <= max_s). */
int resol_sec_massey_has(const resol_sec_massey_t *X, int32_t n, int32_t s);

/* The kernel of [b] at (n, s) of the sphere: *ker (initialised here, F_2)
 * one row per basis vector, in canonical RREF, over the classes at (n, s)
 * then those at (n, s + 1) (y0 then y1): y0 a d_2-cycle with b0 y0 = 0 and
 * y1 off the pivots of the image of d_2 into (n, s + 1), with [b][y0] +
 * lambda b0 y1 = 0 modulo the image of d_2 (the peer's convention: linear
 * on the basis rows of the cycles).  Returns 0, or SQ_E_RANGE (ker zeroed)
 * outside the region. */
int resol_sec_massey_kernel(const resol_sec_massey_t *X, int32_t n, int32_t s,
                            fmat_t *ker) SQ_WARN_UNUSED;

/* <a, b, y> for y = (y0, y1) (a row of the kernel, or any vector over the
 * classes at (n, s) then (n, s + 1)): ext over Ext(M) at (n + na + nb + 1,
 * s + sa + sb - 1) and lambda over the filtration above (resol_ext_dim
 * entries written).  Returns 0, or SQ_E_RANGE outside the region or when a
 * vector is too short. */
int resol_sec_massey_eval(const resol_sec_massey_t *X, int32_t n, int32_t s, fvec_t y,
                          fvec_t ext, fvec_t lambda) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* RESOL_SECONDARY_MASSEY_H */
