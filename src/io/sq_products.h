/*
 * sq_products.h -- the filtration-one products in the peer's line format.
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
 * filtrations 0..max_s) and every h_i whose target (n + 2^i - 1, s + 1)
 * lies in the region, the line
 *     h_i x_(n, s, k) = [v_0, v_1, ...]
 * where v is h_i x_(n, s, k) in the basis of the target, in the peer's
 * order: stems ascending, then s, then i, then k; lines whose target is
 * zero-dimensional are left out, and i stops at the first target outside
 * the region (or an h_i the algebra lacks).  Returns 0 or SQ_E_IO. */
int sq_products_write(FILE *f, const resol_t *R, int32_t n_min, int32_t max_n, int32_t max_s);

#ifdef __cplusplus
}
#endif

#endif /* SQ_PRODUCTS_H */
