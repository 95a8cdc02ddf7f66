/*
 * resol_yoneda.h -- a Yoneda representative of a class of Ext^{s,t}(M, F_p):
 * an exact sequence of finite A-modules
 *
 *     0 -> F_p[t] -> E_{s-1} -> E_{s-2} -> ... -> E_0 -> M -> 0
 *
 * whose Yoneda class is the given one (every prime; M finite, over the
 * whole algebra).
 *
 * The construction (docs/resolution.md "Yoneda representatives"): F the
 * minimal resolution of M and x the class, a cocycle phi : F_s -> F_p[t]
 * (phi(g) = x_g on the generators of degree t, zero elsewhere).  The
 * pushout of F_{s-1} <- F_s -> F_p[t],
 *     P = (F_{s-1} + F_p[t]) / {(d y, -phi(y)) : y in F_s},
 * gives the s-fold extension 0 -> F_p[t] -> P -> F_{s-2} -> ... -> F_0 ->
 * M -> 0 (exact: phi vanishes on d(F_{s+1}) = ker d_s).  Exactness is
 * degree by degree and every map preserves degrees, so the parts in
 * degrees <= T of all its terms form an exact sequence again, of finite
 * modules (the part in degrees > T of a module is a submodule: the algebra
 * raises degrees).  With T = max(t, top M) the ends F_p[t] and M are kept
 * whole, and the quotient maps form a map of extensions that is the
 * identity on both ends: the truncated sequence has the same Yoneda class.
 * So E_i is F_i truncated above T (i <= s - 2) and E_{s-1} is P truncated
 * above T: in each degree e the quotient of (F_{s-1})_e (+ F_p when e = t)
 * by the image of (F_s)_e, with the complement of the pivot columns of
 * that image (F_{s-1}'s columns first, F_p's last) as its basis.
 *
 * Then the terms are reduced: degree by degree from the top, term by term
 * from E_{s-1} down to E_1, every z that the algebra sends into the part
 * already killed and whose image d z is not killed is killed together with
 * d z -- the quotient by an exact subcomplex of A-submodules meeting
 * neither end, so exact with the same class (g at (20, 4): 236, 646, 732,
 * 322 cells become 16, 44, 37, 9).
 *
 * The modules are built from the action of the algebra generators and
 * completed (fdmod_complete_alg: the module axioms checked), the maps are
 * fdmap_t (fdmap_check_linear), and the result's exactness is checked by
 * ranks in every degree before it is returned (never a wrong complex).
 */
#ifndef RESOL_YONEDA_H
#define RESOL_YONEDA_H

#include <stddef.h>
#include <stdint.h>

#include "fdmap.h"
#include "fdmod.h"
#include "fmat.h"
#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_yoneda resol_yoneda_t;

/* Most basis elements one term may have before the reduction (the
 * truncated F_i; larger ones are refused before they are built).  The
 * reduced terms are far smaller (g at (20, 4): 16, 44, 37, 9 cells of 236,
 * 646, 732, 322). */
#define RESOL_YONEDA_MAX_CELLS 40000

/* The degree T above which the terms are truncated for a class of internal
 * degree t of Ext(M): max(t, top M).  The resolution must reach
 * filtration s and degree T in every filtration <= s (resolve through stem
 * T, filtration s). */
int32_t resol_yoneda_top(const fdmod_t *M, int32_t t);

/* Whether a representative of a class of internal degree t of Ext(M) can
 * fit RESOL_YONEDA_MAX_CELLS, before anything is resolved: E_0 holds the
 * truncation of the free module on M's bottom generator, sum over d <=
 * T - bottom(M) of dim A_d (A at M's prime; counted through degree 512 at
 * most).  Returns 1, or 0 with one line in err. */
int resol_yoneda_fits(const fdmod_t *M, int32_t t, char *err, size_t errlen);

/* The representative of the class x of Ext^{s, n+s}(M, F_p), s >= 1, M
 * R's input (finite, no profile), x a vector over the generators of F_s in
 * degree t = n + s (resol_ext_dim entries, at R's prime, not zero).
 * Returns 0 and sets *out (free with resol_yoneda_free; it borrows R's
 * module), or with *out = NULL and one line in err: SQ_E_INVAL (s = 0, x
 * zero or of the wrong length or prime, a module with a profile),
 * SQ_E_RANGE (R not computed through filtration s and degree T in each
 * filtration; also when a check of the result fails, a bug: never a wrong
 * result), SQ_E_NOMEM (a module over RESOL_YONEDA_MAX_CELLS).  Cost: per degree e <= T
 * one row reduction of the image of (F_s)_e, and the completion of each
 * module (fdmod_complete_alg). */
int resol_yoneda_new(resol_yoneda_t **out, const resol_t *R, int32_t s, int32_t n, fvec_t x,
                     char *err, size_t errlen) SQ_WARN_UNUSED;

/* Frees Y; NULL is a no-op. */
void resol_yoneda_free(resol_yoneda_t *Y);

/* s, the length of the extension. */
int32_t resol_yoneda_length(const resol_yoneda_t *Y);

/* The term i: E_i for 0 <= i < s, F_p[t] (the sphere shifted to t) for
 * i = s; M (R's input) for i = -1. */
const fdmod_t *resol_yoneda_module(const resol_yoneda_t *Y, int32_t i);

/* The map out of term i, 0 <= i <= s: term i -> term i - 1 (E_0 -> M for
 * i = 0, F_p[t] -> E_{s-1} for i = s), of degree 0. */
const fdmap_t *resol_yoneda_map(const resol_yoneda_t *Y, int32_t i);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_YONEDA_H */
