/*
 * sq_differentials.h -- every differential of a minimal resolution in the
 * peer's `differentials` line format, at every prime.
 */
#ifndef SQ_DIFFERENTIALS_H
#define SQ_DIFFERENTIALS_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes, for every generator x_(n, s, i) of R in the region (stems
 * n_min..max_n ascending, then s = 0..max_s, then i), the line
 *     d x_(n,s,i) = c a x_(n',s-1,j) + ...
 * the peer's `differentials` format (ext/examples/differentials.rs):
 * d(x) in the basis of F_{s-1}, generator-major (target generators by
 * degree, then index), each Milnor basis element a in the algebra's order;
 * the coefficient c written only when it is not 1, a left out when it is
 * the unit; a written P(r_1, ..., r_k) at p = 2 and as stalg_format writes
 * it at odd p (Q_0 P(1, 2)); "0" when d(x) = 0 and for every x with s = 0
 * (the augmentation is not written).  Precondition: the region lies in R's.
 * Returns 0 or SQ_E_IO. */
int sq_differentials_write(FILE *f, const resol_t *R, int32_t n_min, int32_t max_n,
                           int32_t max_s);

#ifdef __cplusplus
}
#endif

#endif /* SQ_DIFFERENTIALS_H */
