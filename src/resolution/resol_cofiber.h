/*
 * resol_cofiber.h -- Ext of the cofiber of a class: the module files' key
 * "cofiber": {"s": s, "t": t, "idx": i} (docs/modules.md).
 *
 * A class x = x_(t - s, s, i) of Ext^{s,t}(M, F_2) is a map M -> Sigma^t F_2
 * of degree s in the derived category of A-modules; its cofiber C is the
 * complex (the peer's Yoneda representative, its last module dropped)
 *
 *     E_{s-1} -> F_{s-2} -> ... -> F_0,    E_{s-1} = F_{s-1} / d_s(ker x),
 *
 * F the minimal resolution of M and x read as the cocycle F_s -> Sigma^t F_2
 * that is 1 on the i-th generator of degree t.  Its homology is M in degree
 * 0 and Sigma^t F_2 in degree s - 1.  A minimal resolution of C is F_0 ..
 * F_{s-2} followed by a minimal resolution G of the finitely presented
 * module E = E_{s-1} (generators: those of F_{s-1}; relations: d_s(g) for
 * every generator g != g_i of F_s, and theta d_s(g_i) for theta of positive
 * degree), so
 *
 *     Ext^{sigma,tau}(C) = Ext^{sigma,tau}(M)                 sigma <= s - 2
 *                        = Ext^{sigma - s + 1, tau}(E)        sigma >= s - 1.
 *
 * This is the long exact sequence of x made exact: the test suite checks it
 * against ... -> Ext(S)[x] -> Ext(M) -> Ext(C) -> ... with products computed
 * separately.  F is the classical resolution (its basis names the class, as
 * the peer's classical engine does); E is built truncated to the degrees the
 * region needs and resolved with the classical engine.
 */
#ifndef RESOL_COFIBER_H
#define RESOL_COFIBER_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_cofiber resol_cofiber_t;

/* Computes Ext of the cofiber of x_(t - s, s, idx) of M through stem max_n
 * and filtration max_s, on the threads of pool (NULL: serially).  M is
 * borrowed (must outlive the result); it may be a truncation of an infinite
 * module that is exact through degree max_n + 1.
 * Returns 0 and sets *out (free with resol_cofiber_free), or, with *out =
 * NULL and a one-line message in err: SQ_E_INVAL when the class does not
 * exist (Ext^{s,t}(M) has no generator idx) or s < 1, SQ_E_RANGE when the
 * region is beyond the algebra's limits or the module E is too large.
 * Cost: a classical resolution of M through row s and stem max_n + 1, the
 * construction of E (one row reduction per degree), and a classical
 * resolution of E through (max_s - s + 1, max_n + s - 1). */
int resol_cofiber_new(resol_cofiber_t **out, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err,
                      size_t errlen) SQ_WARN_UNUSED;

/* Frees C; NULL is a no-op. */
void resol_cofiber_free(resol_cofiber_t *C);

/* dim Ext^{s, s+n} of the cofiber, or -1 outside the computed region. */
int64_t resol_cofiber_ext_dim(const resol_cofiber_t *C, int32_t s, int32_t n);

/* The module E = F_{s-1} / d_s(ker x) as built (truncated), or NULL when the
 * region needed no row at or above s - 1.  Owned by C. */
const fdmod_t *resol_cofiber_module(const resol_cofiber_t *C);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_COFIBER_H */
