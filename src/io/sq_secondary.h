/*
 * sq_secondary.h -- the Adams d_2 in the peer's line format (its
 * `secondary` program).
 */
#ifndef SQ_SECONDARY_H
#define SQ_SECONDARY_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"
#include "resol_secondary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes, for every target bidegree (n, s) of R's region with s >= 3,
 * s <= max_s, n + 1 <= max_n and Ext^{s} at stem n nonzero, in the peer's
 * order (stems ascending, then s), and every class x_(n + 1, s - 2, i) of
 * the source whose d_2 X knows (resol_sec_has), the line
 *     d_2 x_(n + 1, s - 2, i) = [v_0, v_1, ...]
 * v the image in the basis of Ext at (n, s).  Sources at s = 0 (whose d_2
 * is zero by the choice h_2 = 0) have no lines, as in the peer.  Returns
 * 0 or SQ_E_IO. */
int sq_d2_write(FILE *f, const resol_t *R, const resol_sec_t *X, int32_t max_n, int32_t max_s);

#ifdef __cplusplus
}
#endif

#endif /* SQ_SECONDARY_H */
