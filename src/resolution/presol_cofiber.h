/*
 * presol_cofiber.h -- Ext of the cofiber of a class at an odd prime: the
 * module files' key "cofiber": {"s": s, "t": t, "idx": i} (docs/modules.md,
 * docs/odd-primes.md).  The odd-prime counterpart of resol_cofiber.h, with
 * the same mathematics:
 *
 * the class names the generator g_i of F_s (F the minimal resolution of M)
 * in degree t; sent to M's single class m0 in degree target (the file's
 * degree 0 moved by every shift), every other generator to 0, it is a map
 * f: F_s -> Sigma^D M, D = t - target, refused unless it is a cocycle.  The
 * cofiber of that self-map of M is the complex
 *
 *     E -> F_{s-2} -> ... -> F_0,   E = (F_{s-1} + Sigma^D M) / (d_s y, f y),
 *
 * (the pushout; the peer's Yoneda representative with its last module
 * dropped), whose homology is M in degree 0 and Sigma^D M in degree s - 1.
 * A minimal resolution of C is F_0 .. F_{s-2} followed by one of E, so
 *
 *     Ext^{sigma,tau}(C) = Ext^{sigma,tau}(M)                 sigma <= s - 2
 *                        = Ext^{sigma - s + 1, tau}(E)        sigma >= s - 1.
 *
 * E is built truncated to the degrees the region needs (<= N + s): in each
 * degree d it is a cokernel, one row reduction, with the action of every
 * basis element of the algebra computed in F_{s-1} + Sigma^D M and reduced
 * modulo the relations.  It is a module by construction.
 */
#ifndef PRESOL_COFIBER_H
#define PRESOL_COFIBER_H

#include <stddef.h>
#include <stdint.h>

#include "pfdmod.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct presol_cofiber presol_cofiber_t;

/* Computes Ext of the cofiber of the self-map x_(t - s, s, idx) of M (the
 * generator idx of F_s in degree t sent to M's class in degree target)
 * through stem max_n and filtration max_s, on the threads of pool (NULL:
 * serially).  M is borrowed (must outlive the result) and finite.  Returns
 * 0 and sets *out (free with presol_cofiber_free), or, with *out = NULL
 * and a one-line message in err: SQ_E_INVAL when s < 1, when M does not
 * have exactly one class in degree target, when the class does not exist
 * or is not a cocycle into M; SQ_E_RANGE when a region is beyond the
 * algebra's limits.  Cost: a resolution of M through row s + 1 and stem
 * max(max_n + 1, t - s, t + top(M) - target - s - 1), the construction of
 * E (a row reduction per degree, one product per basis element of E and
 * operation), and a resolution of E through (max_s - s + 1, max_n + s - 1). */
int presol_cofiber_new(presol_cofiber_t **out, const pfdmod_t *M, int32_t s, int32_t t,
                       int64_t idx, int32_t target, int32_t max_s, int32_t max_n, sq_pool_t *pool,
                       char *err, size_t errlen) SQ_WARN_UNUSED;

/* Frees C; NULL is a no-op. */
void presol_cofiber_free(presol_cofiber_t *C);

/* dim Ext^{s, s+n} of the cofiber, or -1 outside the computed region. */
int64_t presol_cofiber_ext_dim(const presol_cofiber_t *C, int32_t s, int32_t n);

/* The module E as built (truncated), or NULL when the region needed no row
 * at or above s - 1.  Owned by C. */
const pfdmod_t *presol_cofiber_module(const presol_cofiber_t *C);

#ifdef __cplusplus
}
#endif

#endif /* PRESOL_COFIBER_H */
