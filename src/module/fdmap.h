/*
 * fdmap.h -- maps of finite modules over the Steenrod algebra, at every
 * prime: f : M -> N of degree d sends M_i into N_{i+d} (it raises degrees
 * by d).  A map is given by the image of every basis element of M (a
 * vector over the basis of N in that degree) and is a module map when it
 * commutes with the algebra: f(g x) = g f(x) for every algebra generator
 * g (Sq^{2^k} at p = 2; the Bockstein b and P^{p^k} at odd p) and every
 * basis element x (fdmap_check_linear).  The map file format that builds
 * one is io's (sq_map.h; docs/modules.md "Maps").
 */
#ifndef FDMAP_H
#define FDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "fmat.h"
#include "stalg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fdmap fdmap_t;

/* The zero map src -> tgt of degree d (both borrowed, must outlive f, at
 * the same prime: SQ_CHECK). */
fdmap_t *fdmap_new(const fdmod_t *src, const fdmod_t *tgt, int32_t d);
/* Frees f; NULL is a no-op. */
void fdmap_free(fdmap_t *f);

/* The source, the target and the degree of f. */
void fdmap_ends(const fdmap_t *f, const fdmod_t **src, const fdmod_t **tgt, int32_t *d);

/* Sets f(x) = img for basis element idx of src in degree deg; img (at the
 * prime, reduced) has at least dim tgt_{deg+d} entries, copied.  SQ_CHECK
 * that (deg, idx) is a basis element. */
void fdmap_set(fdmap_t *f, int32_t deg, int64_t idx, fvec_t img);

/* out += coef * f(v) for v a vector of src_deg (dim src_deg entries), out
 * a vector of tgt_{deg+d} (at least that many entries).  Cost: one addmul
 * per nonzero entry of v. */
void fdmap_apply_add(const fdmap_t *f, int32_t deg, fvec_t v, uint32_t coef, fvec_t out);

/* The matrix of f in degree e: *m (initialised here at the prime; the
 * caller fmat_clears it) has one row per basis element of src_e, its
 * image over the basis of tgt_{e+d}.  Cost: one fdmap_apply_add per row. */
void fdmap_matrix(const fdmap_t *f, int32_t e, fmat_t *m);

/* Whether f is A-linear: f(g x) = g f(x) for every generator g of S (the
 * whole algebra at the modules' prime, reaching degree at least the larger
 * span of the two modules; generators of higher degree act as zero on
 * both) and every basis element x of src, in increasing degree of x, then
 * basis order, then g's degree.  Returns 0, or SQ_E_INVAL with the first
 * failure in err as "not A-linear: f(Sq2 x0) != Sq2 f(x0)" (the
 * operation's name as the module files write it: Sq2, b, P3). */
int fdmap_check_linear(const fdmap_t *f, const stalg_t *S, char *err, size_t errlen) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* FDMAP_H */
