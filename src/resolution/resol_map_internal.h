/*
 * resol_map_internal.h -- chain maps between two minimal resolutions, the
 * lifting machinery shared by the products (resol_products.c: a class
 * lifted to a chain map into the sphere's resolution, Massey products'
 * homotopies) and the maps induced by module maps (resol_map.c).
 *
 * A family f_k : P_{s0+k} -> T_{k+tk0} of internal degree -t0 (a chain
 * map, tk0 = 0, or a homotopy, tk0 = 1) is kept on generators: vals[k][g]
 * = f_k(g), a vector over T_{k+tk0} in degree deg(g) - t0 (all its
 * generators), or a zeroed struct for zero.  Lifting uses quasi-inverses of
 * T's stored differentials d_k : T_k -> T_{k-1} (k >= 1) and of its
 * augmentation d_0 : T_0 -> M (k = 0), built per (k, degree) on first use.
 *
 * Threads: everything here only reads P and T; a family and its
 * quasi-inverses belong to one thread.
 */
#ifndef RESOL_MAP_INTERNAL_H
#define RESOL_MAP_INTERNAL_H

#include <stdint.h>

#include "fmat.h"
#include "internal.h"

/* The quasi-inverses of T's d_k, k = 0 .. kmax, in degrees emin .. emax.
 * bad: a vector to lift was not a boundary (a region not computed, or a
 * bug): callers return SQ_E_RANGE rather than a wrong class. */
typedef struct {
    const resol_t *T;
    int32_t kmax, emin, emax;
    int bad;
    struct resol_qi *q; /* [k * (emax - emin + 1) + e - emin] */
} resol_qis_t;

/* Sets up Q for T (nothing is built yet); emax < emin counts as emin. */
void resol_qis_init(resol_qis_t *Q, const resol_t *T, int32_t kmax, int32_t emin, int32_t emax);
/* Frees what Q built. */
void resol_qis_clear(resol_qis_t *Q);

/* A preimage under d_k of v (k >= 1: a boundary over T_{k-1} in degree e,
 * all generators, zero on those of degree e; k = 0: an element of M_e),
 * over T_k in degree e: a new vector (the caller fvec_clears it), or a
 * zeroed struct when v is zero or (Q->bad set) not in the image.
 * SQ_CHECK that (k, e) is within Q's range. */
fvec_t resol_qis_lift(resol_qis_t *Q, int32_t k, int32_t e, fvec_t v);

/* The family (see the top). */
typedef struct {
    const resol_t *P, *T;
    int32_t s0, t0, kmax, tk0;
    fvec_t **vals;
} resol_cmap_t;

/* A family on P_{s0} .. P_{s0+kmax}, all values zero, tk0 = 0. */
void resol_cmap_init(resol_cmap_t *C, const resol_t *P, const resol_t *T, int32_t s0, int32_t t0,
                     int32_t kmax);
/* Frees C's values. */
void resol_cmap_clear(resol_cmap_t *C);

/* out += coef * f_k(v), v an element of P_{s0+k} in degree e (over its
 * generators of degree <= e; entries past v.len count as zero), out over
 * T_{k+tk0} in degree e - t0 (fmod_dim entries).  Generators whose value
 * is not set count as zero. */
void resol_cmap_apply(const resol_cmap_t *C, int32_t k, int32_t e, fvec_t v, uint32_t coef,
                      fvec_t out);

/* The element d(g) of P_{s-1} (or M when s = 0) for the generator g
 * (global index) of P_s: a read-only view. */
fvec_t resol_dgen(const resol_t *P, int32_t s, int64_t g);

/* Level k >= 1 of a chain map (tk0 = 0) whose levels below are set: for
 * every generator g of P_{s0+k} of degree <= ek, f_k(g) = a preimage under
 * d_k of f_{k-1}(d g) (so d f = f d).  Generators whose target degree is
 * below T_k's bottom (bottom(T's module) + k) stay zero. */
void resol_cmap_lift_level(resol_cmap_t *C, resol_qis_t *Q, int32_t k, int32_t ek);

/* y(w) for w over T_k in degree e (all generators) and y a class over the
 * generators of T_k in degree e: sum_h y_h times the coefficient of the
 * generator h itself in w (0 when w is a zeroed struct). */
uint32_t resol_cmap_eval(const resol_t *T, int32_t k, int32_t e, fvec_t y, fvec_t w);

#endif /* RESOL_MAP_INTERNAL_H */
