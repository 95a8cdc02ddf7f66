/*
 * sq_secondary_massey.h -- Massey products in Mod_{C lambda^2} in the line
 * format of the peer's `secondary_massey` (docs/secondary.md).
 */
#ifndef SQ_SECONDARY_MASSEY_H
#define SQ_SECONDARY_MASSEY_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"
#include "resol_secondary_massey.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes, for every bidegree c = (n, s) of the sphere in X's region
 * (stems, then s) where Ext(M) at the bracket's bidegree (n + na + nb + 1,
 * s + sa + sb - 1) or the filtration above is nonzero, one line per row y
 * of the kernel of [b] at c (resol_sec_massey_kernel):
 *   "<A, B, Y> = ±[ext] + λ[lambda]"
 * A and B the names given, Y "[x_(n, s, i) + ...]" for the Ext part,
 * "λx_(n, s + 1, i)" (or "λ(x_.. + x_..)") for the lambda part, joined by
 * " + " (resol_sec_massey_eval).  RS resolves the sphere.  Returns 0, or
 * SQ_E_IO (a write failed) / SQ_E_RANGE (a bidegree outside X). */
int sq_sec_massey_write(FILE *f, const resol_sec_massey_t *X, const resol_t *RM,
                        const resol_t *RS, const char *aname, const char *bname, int32_t na,
                        int32_t sa, int32_t nb, int32_t sb, int32_t max_n, int32_t max_s);

#ifdef __cplusplus
}
#endif

#endif /* SQ_SECONDARY_MASSEY_H */
