/*
 * fdmod_tensor.h -- the tensor product M ⊗ N of two finite modules at the
 * same prime (p = 2 and odd p), the module of the smash product of two
 * spectra (docs/modules.md, "Tensor products").
 *
 * Basis: the pairs x ⊗ y, x a basis element of M, y one of N, named
 * "x*y" (the peer's names), ordered by degree |x| + |y|, then by |x|, then
 * by x's index within M_{|x|}, then by y's index within N_{|y|}.
 *
 * Action: the Cartan formula, through the coproduct of the algebra
 * generators: at p = 2 psi(Sq^{2^k}) = sum_{i+j=2^k} Sq(i) ⊗ Sq(j), so
 *     Sq^{2^k} (x ⊗ y) = sum_{i+j=2^k} Sq(i) x ⊗ Sq(j) y;
 * at odd p psi(beta) = beta ⊗ 1 + 1 ⊗ beta and psi(P^n) = sum P(i) ⊗ P(j)
 * (i + j = n), with the Koszul sign (a ⊗ b)(x ⊗ y) = (-1)^{|b||x|} ax ⊗ by:
 *     beta (x ⊗ y)  = beta x ⊗ y + (-1)^{|x|} x ⊗ beta y,
 *     P^n  (x ⊗ y)  = sum_{i+j=n} P(i) x ⊗ P(j) y     (|P(j)| is even: no sign),
 * |x| the degree of x in M as given (shifts included).  The action of every
 * other Milnor basis element is derived by fdmod_complete_alg, which checks
 * every relation (so a wrong sign could not give a module silently).
 *
 * Profiles: the product of a module over B and one over B' is over the
 * smaller of the two when one contains the other (ko ⊗ X: F_2 over A(1)
 * tensor an A-module restricts X to A(1)); two profiles neither of which
 * contains the other are refused.
 */
#ifndef FDMOD_TENSOR_H
#define FDMOD_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "sq_core.h"
#include "stalg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most basis elements a product may have (its names alone take about 64
 * bytes each). */
#define FDMOD_TENSOR_MAX_DIM ((int64_t)1 << 22)

/* The algebra M's action table is indexed by: the algebra at M's prime
 * and profile through degree deg (at least 1; SQ_CHECK within the
 * algebra's limits, as stalg_new).  The caller frees it (stalg_free). */
stalg_t *fdmod_new_algebra(const fdmod_t *M, int32_t deg);

/* Builds M ⊗ N as above, called name (NULL: "<M's name>*<N's name>"),
 * keeping only the degrees <= max_degree (INT32_MAX: all): the quotient by
 * the submodule of the higher degrees, which is what a truncated infinite
 * factor allows (a factor truncated above degree D tensor a module with
 * bottom b is exact through degree D + b).  max_bytes bounds the estimate
 * of the finished action tables plus the row reduction deriving them
 * (fdmod_complete_cost_alg) plus the names; 0 means SQ_MODULE_TABLE_LIMIT.
 * Returns 0 with *out set (the caller frees it), or a negative code with
 * *out NULL and one line in err (errlen bytes): SQ_E_INVAL (different
 * primes, incomparable profiles, nothing in degrees <= max_degree),
 * SQ_E_RANGE (the span beyond the algebra's degrees, more than
 * FDMOD_TENSOR_MAX_DIM basis elements, the tables beyond max_bytes; checked
 * before any action is set).  Cost: the estimate, then the given actions
 * (sum over the generators g and basis elements x ⊗ y of the products of the
 * terms of psi(g)) and fdmod_complete_alg.  M and N are only read. */
int fdmod_tensor(fdmod_t **out, const fdmod_t *M, const fdmod_t *N, const char *name,
                 int32_t max_degree, int64_t max_bytes, char *err, size_t errlen) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* FDMOD_TENSOR_H */
