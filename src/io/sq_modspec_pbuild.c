/*
 * sq_modspec_pbuild.c -- the finite module of a module file at an odd prime.
 * The file has been read by the one reader (sq_modspec.c,
 * sq_modspec_action.c): S holds the prime, the generators, the profile
 * (S->oprof) and the parsed actions b and P^{p^k} with their coefficients.
 * This file only builds, with the one module type and its one completion
 * (fdmod.h): the algebra of the profile through the span, the table-size
 * guard of every prime (spec_check_tables: fdmod_complete_cost, the same
 * model as at p = 2), the given actions, fdmod_complete_alg.  What still
 * differs from the p = 2 builder (build in sq_modspec.c) is the algebra
 * (pmilnor_t, listed through the span) and the encoding of the given
 * vectors (coefficients mod p).
 */
#include <string.h>

#include "modspec_internal.h"
#include "pmilnor.h"
#include "stalg.h"

/* Refuses an algebra too large to list: pmilnor_new keeps about 12 bytes
 * per basis element through degree adeg. */
static int check_algebra(spec_t *S, int32_t lo, int32_t hi, int32_t adeg)
{
    int64_t size = pmilnor_size(S->p, adeg, &S->oprof);
    if (size > PMILNOR_MAX_ELEMENTS)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the degrees span %d..%d: the algebra at p = %u through degree %d has "
                         "%lld basis elements, more than the %lld supported",
                         (int)lo, (int)hi, (unsigned)S->p, (int)adeg, (long long)size,
                         (long long)PMILNOR_MAX_ELEMENTS);
    if (12.0 * (double)size > (double)S->max_tables)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the module is too large: a span of %d needs the %lld basis elements of "
                         "the algebra at p = %u through degree %d listed, %.0f MiB (at most %lld)",
                         (int)adeg, (long long)size, (unsigned)S->p, (int)adeg,
                         12.0 * (double)size / 1048576.0, (long long)(S->max_tables >> 20));
    return 0;
}

/* After the guard, sets the given actions (those with a nonzero sum) in M
 * and completes it. */
static int set_actions_odd(spec_t *S, fdmod_t *M, const stalg_t *A, int32_t shift)
{
    int rc = spec_check_tables(S, M, A, shift);
    if (rc)
        return rc;
    fvec_t vec;
    for (int64_t i = 0; i < S->nacts; i++) {
        const spec_action_t *a = &S->acts[i];
        if (a->nto == 0)
            continue;
        const spec_gen_t *from = &S->gens[a->from];
        int32_t in_deg = from->fdeg + shift;
        fvec_init(&vec, fdmod_dim(M, in_deg + a->op), S->p);
        for (int64_t t = 0; t < a->nto; t++)
            fvec_set(vec, S->gens[a->to[t]].idx, a->coef[t] % S->p);
        fdmod_set_genf(M, A, a->op, in_deg, from->idx, vec);
        fvec_clear(&vec);
    }
    char msg[768];
    if (fdmod_complete_alg(M, A, msg, sizeof msg))
        return spec_fail(S, SQ_E_INVAL, SPEC_NOPOS, "%s", msg);
    return 0;
}

int spec_build_odd(spec_t *S, const char *display, int32_t shift, int32_t max_span,
                   fdmod_t **out)
{
    int rc = spec_check_degrees(S, shift, max_span);
    if (rc)
        return rc;
    int32_t lo = S->gens[0].fdeg + shift, hi = S->gens[S->ngens - 1].fdeg + shift;
    int32_t adeg = hi - lo > 1 ? hi - lo : 1;
    rc = check_algebra(S, lo, hi, adeg);
    if (rc)
        return rc;
    char *name = spec_module_name(display, shift);
    fdmod_t *M = fdmod_new_p(name, S->p, lo, hi);
    sq_free(name);
    fdmod_set_pprofile(M, &S->oprof);
    for (int64_t i = 0; i < S->ngens; i++)
        S->gens[i].idx = fdmod_add_basis(M, S->gens[i].fdeg + shift, S->gens[i].name);
    pmilnor_t *Ap = pmilnor_new(S->p, adeg, &S->oprof);
    stalg_t *A = stalg_new_pmilnor(Ap);
    rc = set_actions_odd(S, M, A, shift);
    stalg_free(A);
    pmilnor_free(Ap);
    if (rc)
        fdmod_free(M);
    else
        *out = M;
    return rc;
}
