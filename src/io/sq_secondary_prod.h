/*
 * sq_secondary_prod.h -- secondary products in the line format of the
 * peer's `secondary_product` (docs/secondary.md).
 */
#ifndef SQ_SECONDARY_PROD_H
#define SQ_SECONDARY_PROD_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"
#include "resol_secondary_prod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes, for every bidegree b = (n, s) of the sphere with Ext nonzero,
 * n = 0 .. max_n - n0 - 1, s = 0 .. max_s - s0 - 1 (stems, then s), where
 * Ext(M) at b + (n0, s0) or at b + (n0, s0 + 1) is nonzero:
 *   first, when Ext(M) at b + (n0, s0) is nonzero, for each class
 *   x_(n, s, i) off the pivots of the E_3 page (the classes that support a
 *   d_2, in the echelon sense):  "[NAME] λ x_(n, s, i) = λ [v]", v = x
 *   x_(n, s, i) (the primary product);
 *   then for each basis vector y of the cycles (the E_3 representatives of
 *   resol_sec_e3_basis, then the image of d_2):
 *   "[NAME] [x_(n, s, i) + ...] = [ext] + λ [lambda]" (resol_sec_prod_eval).
 * RM resolves M, RS the sphere (as for resol_sec_prod_new).  Returns 0, or
 * SQ_E_IO (a write failed) / SQ_E_RANGE (a bidegree outside the lift). */
int sq_sec_product_write(FILE *f, const resol_sec_prod_t *P, const resol_t *RM,
                         const resol_t *RS, const char *name, int32_t n0, int32_t s0,
                         int32_t max_n, int32_t max_s);

#ifdef __cplusplus
}
#endif

#endif /* SQ_SECONDARY_PROD_H */
