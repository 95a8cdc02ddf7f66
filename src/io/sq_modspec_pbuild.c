/*
 * sq_modspec_pbuild.c -- the finite module of a module file at an odd prime
 * (a pfdmod_t).  The file has been read by the one reader (sq_modspec.c,
 * sq_modspec_action.c): S holds the prime, the generators, the profile
 * (S->oprof) and the parsed actions b and P^{p^k} with their coefficients.
 * This file only builds: the algebra of the profile through the span, the
 * table-size guard of every prime (spec_check_cost, with the odd estimate
 * below), the given actions, pfdmod_complete.  The module types are merged
 * in a later step of docs/architecture.md; until then the p = 2 builder
 * (build in sq_modspec.c) and this one are the only prime-specific code of
 * the reader.
 */
#include <string.h>

#include "modspec_internal.h"
#include "pfdmod.h"
#include "pmilnor.h"

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

/* The degrees of the algebra generators b, P^1, P^p, ... up to k. */
static int gen_degrees(uint32_t p, int32_t k, int32_t *deg, int max)
{
    int n = 0;
    deg[n++] = 1;
    for (int64_t d = 2 * (int64_t)(p - 1); d <= k && n < max; d *= p)
        deg[n++] = (int32_t)d;
    return n;
}

/* What pfdmod_complete would take on M (dims of every degree given): the
 * action blocks of every pair of nonzero degrees (one byte per entry, an
 * upper bound: the pairs the action reaches), and the largest row
 * reduction of the products g * phi spanning A_k (rows x (A_k + rows)
 * bytes) over the degrees k that separate two cells. */
static int check_tables_odd(spec_t *S, const pfdmod_t *M, const pmilnor_t *A)
{
    int32_t lo = pfdmod_bottom(M), hi = pfdmod_top(M);
    double tables = 0, reduce = 0;
    int32_t rfrom = 0, rdeg = 0;
    int32_t gd[40];
    int ng = gen_degrees(S->p, hi - lo, gd, 40);
    for (int32_t k = 1; k <= hi - lo; k++) {
        double nA = (double)pmilnor_dim(A, k);
        int32_t first = INT32_MIN;
        for (int32_t d = lo; d + k <= hi; d++) {
            double pair = (double)pfdmod_dim(M, d) * (double)pfdmod_dim(M, d + k);
            if (pair > 0 && first == INT32_MIN)
                first = d;
            tables += nA * pair;
        }
        if (first == INT32_MIN || nA == 0)
            continue;
        double rows = 0;
        for (int g = 0; g < ng; g++)
            if (gd[g] <= k)
                rows += (double)pmilnor_dim(A, k - gd[g]);
        if (rows * (nA + rows) > reduce) {
            reduce = rows * (nA + rows);
            rfrom = first;
            rdeg = k;
        }
    }
    return spec_check_cost(S, tables, reduce, rfrom, rdeg);
}

/* After the guard, sets the given actions (those with a nonzero sum) in M
 * and completes it. */
static int set_actions_odd(spec_t *S, pfdmod_t *M, const pmilnor_t *A, int32_t shift)
{
    int rc = check_tables_odd(S, M, A);
    if (rc)
        return rc;
    for (int64_t i = 0; i < S->nacts; i++) {
        const spec_action_t *a = &S->acts[i];
        if (a->nto == 0)
            continue;
        const spec_gen_t *from = &S->gens[a->from];
        int32_t in_deg = from->fdeg + shift;
        uint8_t *vec = sq_calloc((size_t)pfdmod_dim(M, in_deg + a->op) + 1, 1);
        for (int64_t t = 0; t < a->nto; t++)
            vec[S->gens[a->to[t]].idx] = a->coef[t];
        pfdmod_set_gen(M, A, a->op, in_deg, from->idx, vec);
        sq_free(vec);
    }
    char msg[768];
    if (pfdmod_complete(M, A, msg, sizeof msg))
        return spec_fail(S, SQ_E_INVAL, SPEC_NOPOS, "%s", msg);
    return 0;
}

int spec_build_odd(spec_t *S, const char *display, int32_t shift, int32_t max_span,
                   pfdmod_t **out)
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
    pfdmod_t *M = pfdmod_new(name, S->p, lo, hi);
    sq_free(name);
    pfdmod_set_profile(M, &S->oprof);
    for (int64_t i = 0; i < S->ngens; i++)
        S->gens[i].idx = pfdmod_add_basis(M, S->gens[i].fdeg + shift, S->gens[i].name);
    pmilnor_t *A = pmilnor_new(S->p, adeg, &S->oprof);
    rc = set_actions_odd(S, M, A, shift);
    pmilnor_free(A);
    if (rc)
        pfdmod_free(M);
    else
        *out = M;
    return rc;
}
