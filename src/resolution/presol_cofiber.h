/*
 * presol_cofiber.h -- Ext of the cofiber of a class at an odd prime: the
 * module files' key "cofiber": {"s": s, "t": t, "idx": i} (docs/modules.md,
 * docs/odd-primes.md).  The odd-prime counterpart of resol_cofiber.h, with
 * the same mathematics:
 *
 * A class x = x_(t - s, s, i) of Ext^{s,t}(M, F_p) is a map M -> Sigma^t F_p
 * of degree s in the derived category; read as the cocycle F_s -> Sigma^t
 * F_p that is 1 on the i-th generator g_i of degree t, its kernel is the
 * submodule of F_s that is all of (F_s)_d for d != t and the hyperplane
 * without (1, g_i) in degree t.  The cofiber C is the complex
 *
 *     E_{s-1} -> F_{s-2} -> ... -> F_0,    E_{s-1} = F_{s-1} / d_s(ker x),
 *
 * whose homology is M in degree 0 and Sigma^t F_p in degree s - 1.  A
 * minimal resolution of C is F_0 .. F_{s-2} followed by one of the module
 * E = E_{s-1}, so
 *
 *     Ext^{sigma,tau}(C) = Ext^{sigma,tau}(M)                 sigma <= s - 2
 *                        = Ext^{sigma - s + 1, tau}(E)        sigma >= s - 1.
 *
 * E is built truncated to the degrees the region needs (<= N + s): in each
 * degree d it is the cokernel of d_s on (ker x)_d, one row reduction, with
 * the action of every basis element of the algebra computed in F_{s-1} and
 * reduced modulo the relations.  It is a module by construction.
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

/* Computes Ext of the cofiber of x_(t - s, s, idx) of M through stem max_n
 * and filtration max_s, on the threads of pool (NULL: serially).  M is
 * borrowed (must outlive the result).  Returns 0 and sets *out (free with
 * presol_cofiber_free), or, with *out = NULL and a one-line message in err:
 * SQ_E_INVAL when s < 1 or the class does not exist, SQ_E_RANGE when a
 * region is beyond the algebra's limits.  Cost: a resolution of M through
 * row s and stem max(max_n + 1, t - s), the construction of E (a row
 * reduction per degree, one product per basis element of E and operation),
 * and a resolution of E through (max_s - s + 1, max_n + s - 1). */
int presol_cofiber_new(presol_cofiber_t **out, const pfdmod_t *M, int32_t s, int32_t t,
                       int64_t idx, int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err,
                       size_t errlen) SQ_WARN_UNUSED;

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
