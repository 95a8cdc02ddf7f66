/*
 * resol_cofiber.h -- Ext of the cofiber of a self-map given by a class: the
 * module files' key "cofiber": {"s": s, "t": t, "idx": i} (docs/modules.md),
 * with the peer's meaning.
 *
 * F is the minimal (classical) resolution of M, and m0 the single class of
 * M in the target degree (degree 0 of the file, moved by every shift).  The
 * class names the generator g = g_idx of F_s in degree t; sending g to m0
 * and every other generator to 0 gives f: F_s -> Sigma^D M, D = t - target,
 * a class of Ext^{s,t}(M, M) (of degree D as a self-map) when f is a
 * cocycle: f d_{s+1} = 0.  Its Yoneda representative is the exact sequence
 *
 *     0 -> Sigma^D M -> E -> F_{s-2} -> ... -> F_0 -> M -> 0,
 *     E = (F_{s-1} + Sigma^D M) / {(d_s y, f y) : y in F_s}   (the pushout),
 *
 * and the cofiber of the self-map is the complex C = E -> F_{s-2} -> ... ->
 * F_0 (the sequence with its last module dropped): its homology is M in
 * degree 0 and Sigma^D M in degree s - 1.  The F_i are free with minimal
 * differentials and E's generators map into A^+ F_{s-2}, so F_0 .. F_{s-2}
 * followed by a minimal resolution G of E is a minimal resolution of C:
 *
 *     Ext^{sigma,tau}(C) = Ext^{sigma,tau}(M)                 sigma <= s - 2
 *                        = Ext^{sigma - s + 1, tau}(E)        sigma >= s - 1.
 *
 * E is built truncated to the degrees the region needs (<= N + s), at
 * every prime: in each degree d it is a cokernel, one row reduction, and
 * the action of every basis element of the algebra is one product in
 * F_{s-1} + Sigma^D M reduced modulo the relations (resol_cofiber.c).  It
 * is a module by construction.  For M = F_p (the sphere) this is
 * F_{s-1} / d_s(ker x), the quotient the cofiber of a class of the sphere
 * has always used.
 *
 * Tests check the result against the peer's tables for its corpus and
 * against the long exact sequence of the self-map computed separately
 * (v_1^4 on C2, x_(10, 2, 0) on C3v1, v_1 on C5).
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

/* Computes Ext of the cofiber of the self-map x_(t - s, s, idx) of M (the
 * generator idx of F_s in degree t sent to M's class in degree target)
 * through stem max_n and filtration max_s, on the threads of pool (NULL:
 * serially).  M, of any prime, is borrowed (must outlive the result) and
 * finite.  Returns 0 and sets *out (free with resol_cofiber_free), or,
 * with *out = NULL and a one-line message in err: SQ_E_INVAL when s < 1,
 * when M does not have exactly one class in degree target, when the class
 * does not exist (its stem below M's bottom, or Ext^{s,t}(M) has no
 * generator idx), or when it is not a cocycle into M (f d_{s+1} != 0);
 * SQ_E_RANGE when the region is beyond the algebra's limits or the module
 * E is too large (its relations, reduction or action tables would take
 * more than SQ_MODULE_TABLE_LIMIT bytes).  The same bits whatever the
 * pool.
 * Cost: a classical resolution of M through row s + 1 and stem
 * max(max_n + 1, t - s, t + top(M) - target - s - 1), the construction of
 * E (a row reduction per degree, one product per basis element of E and
 * of the algebra), and a classical resolution of E through
 * (max_s - s + 1, max_n + s - 1). */
int resol_cofiber_new(resol_cofiber_t **out, const fdmod_t *M, int32_t s, int32_t t, int64_t idx,
                      int32_t target, int32_t max_s, int32_t max_n, sq_pool_t *pool, char *err,
                      size_t errlen) SQ_WARN_UNUSED;

/* Frees C; NULL is a no-op. */
void resol_cofiber_free(resol_cofiber_t *C);

/* dim Ext^{s, s+n} of the cofiber, or -1 outside the computed region
 * (n below M's bottom included). */
int64_t resol_cofiber_ext_dim(const resol_cofiber_t *C, int32_t s, int32_t n);

/* The module E as built (truncated), at M's prime, or NULL when the region
 * needed no row at or above s - 1 or E is zero there.  Owned by C. */
const fdmod_t *resol_cofiber_module(const resol_cofiber_t *C);

#ifdef __cplusplus
}
#endif

#endif /* RESOL_COFIBER_H */
