/*
 * rpmod.h -- stunted real projective spaces RP_min^max as modules over the
 * mod 2 Steenrod algebra, truncated to finitely many degrees.
 *
 * The cohomology of RP_min^max (min may be negative: a Thom spectrum over
 * RP^infty of a multiple of the canonical bundle) has one basis element
 * x_n in each degree min <= n <= max (max may be infinite), and
 *
 *     Sq(R) x_n = c(n, R) x_{n + |R|},   R = (r_1, r_2, ...),
 *     c(n, R) = the multinomial coefficient (n; n - sum r_i, r_1, r_2, ...)
 *               mod 2
 *             = 1 iff the r_i have pairwise disjoint binary digits and every
 *               bit of r_1 | r_2 | ... is set in n,
 *
 * the last form being the 2-adic extension used for negative n (n in two's
 * complement), as in the cohomology of RP^infty where the total square of
 * x is x + x^2 + x^4 + ...  (so Sq(0,..,0,1) x = x^{2^i}).  In particular
 * Sq(R) x_0 = 0 for R != 0 (x^0 = 1).  Truncating above a degree gives a
 * quotient by a submodule, and cutting below min a submodule: both honest
 * modules.
 *
 * clear_bottom reproduces a convention of the peer program sseq, used with
 * A(2) for tmf smash RP_min^max: min is first raised to the next integer
 * m >= min with m + 1 divisible by 8, then the basis elements of degrees
 * m+1, m+2, m+3, m+5, m+9 are dropped (the action between the remaining
 * ones is the same formula).  Over A(2) this is a module; over larger
 * algebras it need not be, and the builder refuses it then.
 */
#ifndef RPMOD_H
#define RPMOD_H

#include <stddef.h>
#include <stdint.h>

#include "fdmod.h"
#include "milnor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds in *out the module RP_min^max (have_max = 0: max is infinite and
 * ignored) truncated to degrees <= max_degree, with basis elements named
 * "x<n>" ("x1", "x-4") in the degrees min' <= n <= hi, where min' is min
 * (raised as above when clear_bottom) and hi = min(max, max_degree), less
 * the dropped degrees when clear_bottom.  The action table holds every
 * Milnor basis element of A of positive degree (A may be a sub-Hopf
 * algebra from milnor_new_profile: then the module is over it, uses its
 * basis and carries its profile, fdmod_profile).  When hi < min' the module
 * is zero (valid and empty).
 *
 * With clear_bottom the result is checked with fdmod_check_module; a table
 * that is not a module (clear_bottom over an algebra bigger than A(2)) is
 * refused with SQ_E_INVAL and that check's message.  Without it the formula
 * is a module (a subquotient of the cohomology of a Thom spectrum) and the
 * check, which costs seconds at a span of ~100 over A, is not run.  Other refusals, with a one-line
 * message in err (errlen bytes, NUL-terminated when errlen > 0) and *out
 * untouched: SQ_E_RANGE when hi - min' >= 4096 or > milnor_max_degree(A),
 * or when the action tables would take more than max_table_bytes (the
 * estimate, made before allocating them: 8 bytes per Milnor basis element
 * of degree f - e for each pair of basis degrees e < f).
 *
 * Cost: one milnor_get per Milnor basis element of degree <= hi - min', a
 * few word operations per such element and basis degree, then the check
 * (one Milnor product per Sq^{2^k} * Sq(R) of degree <= hi - min').
 * name is copied (NULL: "module"); A is borrowed for the call only; *out is
 * the caller's, freed with fdmod_free.  Returns 0 or a negative SQ_E_*. */
int rpmod_build(fdmod_t **out, const milnor_t *A, const char *name, int32_t min, int have_max,
                int32_t max, int clear_bottom, int32_t max_degree, int64_t max_table_bytes,
                char *err, size_t errlen) SQ_WARN_UNUSED;

/* The degree of the bottom cell of RP_min^max: min, or with clear_bottom
 * the raised min' above (the next m >= min with m + 1 divisible by 8; the
 * cells min' + 1, min' + 2, ... that clear_bottom drops lie above it, so
 * x_{min'} itself is always a cell when max >= min').  Every caller that
 * reports or lays out the module's degrees (the bottom stem of a chart, the
 * default filtration) uses this, not min.  O(1). */
int64_t rpmod_bottom(int32_t min, int clear_bottom);

/* The coefficient c(n, R) above, 0 or 1, for the p-part r[0..len-1]
 * (entries >= 0, trailing zeros allowed).  O(len). */
int rpmod_coeff(int64_t n, const int32_t *r, int len);

#ifdef __cplusplus
}
#endif

#endif /* RPMOD_H */
