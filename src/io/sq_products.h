/*
 * sq_products.h -- the filtration-one products in the peer's line format,
 * at every prime.
 */
#ifndef SQ_PRODUCTS_H
#define SQ_PRODUCTS_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes, for every class x_(n, s, k) of the region (stems n_min..max_n,
 * filtrations 0..max_s) and every filtration-one class c of R's algebra
 * (resol_products.h: h_i at p = 2; a_0, h_0, h_1, ... at odd p) whose
 * target (n + |c| - 1, s + 1) lies in the region, the line
 *     c x_(n, s, k) = [v_0, v_1, ...]
 * with c written h_i (p = 2, the peer's filtration_one) or a_0, h_i (odd
 * p), where v is c x_(n, s, k) in the basis of the target (residues
 * 0..p-1 at odd p), in the peer's order: stems ascending, then s, then c
 * (by degree), then k; lines whose target is zero-dimensional are left
 * out, and c stops at the first target outside the region (a class the
 * algebra lacks has no lines).  Returns 0 or SQ_E_IO. */
int sq_products_write(FILE *f, const resol_t *R, int32_t n_min, int32_t max_n, int32_t max_s);

#ifdef __cplusplus
}
#endif

#endif /* SQ_PRODUCTS_H */
