/*
 * rpmod.c -- stunted real projective spaces (see rpmod.h).
 *
 * How it works.  Every degree has dimension 0 or 1, so Sq(R) x_n is 0 or
 * x_{n+|R|}, and the coefficient depends on R only through two numbers:
 * whether the r_i have disjoint binary digits, and their OR.  The builder
 * walks each Milnor basis element R of A once (milnor_get, so a sub-Hopf
 * algebra's basis works the same) and then tests every basis degree n with
 * one mask: (n & OR) == OR, n in two's complement.  That is Lucas' theorem
 * for the multinomial coefficient (n; n - sum r_i, r_1, r_2, ...): it is odd
 * iff the binary digits of the r_i and of n - sum r_i partition those of n,
 * i.e. the r_i are disjoint and their union lies in n; for negative n the
 * same holds 2-adically (binom(-m, k) = (-1)^k binom(m + k - 1, k)).
 */
#include "rpmod.h"

#include <stdio.h>
#include <string.h>

#include "sq_core.h"

int rpmod_coeff(int64_t n, const int32_t *r, int len)
{
    uint64_t seen = 0;
    for (int i = 0; i < len; i++) {
        uint64_t ri = (uint64_t)r[i];
        if (seen & ri)
            return 0;
        seen |= ri;
    }
    return ((uint64_t)n & seen) == seen;
}

/* Mathematical a mod 8 (in 0..7) for any sign of a. */
static int64_t mod8(int64_t a)
{
    return ((a % 8) + 8) % 8;
}

/* Whether x_n is a basis element: lo <= n <= hi, and not one of the
 * degrees clear_bottom drops. */
static int present(int64_t n, int64_t lo, int64_t hi, int clear_bottom)
{
    if (n < lo || n > hi)
        return 0;
    if (clear_bottom) {
        int64_t k = n - lo;
        if (k == 1 || k == 2 || k == 3 || k == 5 || k == 9)
            return 0;
    }
    return 1;
}

/* Sets Sq(R) x_n = c(n, R) x_{n+|R|} for every basis element R of positive
 * degree and every pair of basis degrees. */
static void set_actions(fdmod_t *M, const milnor_t *A, int32_t lo, int32_t hi, int clear_bottom)
{
    const uint64_t one = 1;
    int32_t r[MILNOR_MAX_LEN];
    for (int32_t k = 1; k <= hi - lo; k++) {
        for (int64_t idx = 0; idx < milnor_dim(A, k); idx++) {
            int len = milnor_get(A, k, idx, r, MILNOR_MAX_LEN);
            uint64_t seen = 0;
            int disjoint = 1;
            for (int i = 0; i < len && disjoint; i++) {
                disjoint = (seen & (uint64_t)r[i]) == 0;
                seen |= (uint64_t)r[i];
            }
            if (!disjoint)
                continue;
            for (int32_t n = lo; n + k <= hi; n++)
                if (((uint64_t)(int64_t)n & seen) == seen && present(n, lo, hi, clear_bottom) &&
                    present((int64_t)n + k, lo, hi, clear_bottom))
                    fdmod_set_action(M, A, k, idx, n, 0, &one);
        }
    }
}

int64_t rpmod_bottom(int32_t min, int clear_bottom)
{
    int64_t lo = min;
    return clear_bottom ? lo + mod8(8 - mod8(lo + 1)) : lo;
}

int rpmod_build(fdmod_t **out, const milnor_t *A, const char *name, int32_t min, int have_max,
                int32_t max, int clear_bottom, int32_t max_degree, int64_t max_table_bytes,
                char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    int64_t lo = rpmod_bottom(min, clear_bottom), hi = max_degree;
    if (have_max && max < hi)
        hi = max;
    if (hi < lo) {
        int32_t at = lo <= INT32_MAX ? (int32_t)lo : (int32_t)hi;
        *out = fdmod_new_over(A, name, at, at);
        return 0;
    }
    if (hi - lo >= 4096 || hi - lo > milnor_max_degree(A)) {
        snprintf(err, errlen, "the projective space in degrees %lld..%lld spans more than %s",
                 (long long)lo, (long long)hi,
                 hi - lo >= 4096 ? "4096 degrees" : "the algebra reaches");
        return SQ_E_RANGE;
    }
    /* The action tables: one vector (one limb) per Milnor basis element of
     * degree f - e for each pair of basis degrees e < f. */
    double bytes = 0;
    for (int64_t e = lo; e <= hi; e++)
        for (int64_t f = e + 1; f <= hi && present(e, lo, hi, clear_bottom); f++)
            if (present(f, lo, hi, clear_bottom))
                bytes += 8.0 * (double)milnor_dim(A, (int32_t)(f - e));
    if (bytes > (double)max_table_bytes) {
        snprintf(err, errlen,
                 "the module truncated to degree %d is too large: its action tables "
                 "would take %.1f MiB (at most %.1f)",
                 (int)max_degree, bytes / 1048576.0, (double)max_table_bytes / 1048576.0);
        return SQ_E_RANGE;
    }
    fdmod_t *M = fdmod_new_over(A, name, (int32_t)lo, (int32_t)hi);
    for (int64_t n = lo; n <= hi; n++) {
        if (!present(n, lo, hi, clear_bottom))
            continue;
        char buf[24];
        snprintf(buf, sizeof buf, "x%lld", (long long)n);
        fdmod_add_basis(M, (int32_t)n, buf);
    }
    set_actions(M, A, (int32_t)lo, (int32_t)hi, clear_bottom);
    /* Without clear_bottom the table is a subquotient of the cohomology of
     * a Thom spectrum, a module by the formula (tests/module/t-rpmod.c
     * checks it); the check, quadratic in the span, is paid only where the
     * table may fail to be one. */
    int rc = clear_bottom ? fdmod_check_module(M, A, err, errlen) : 0;
    if (rc) {
        fdmod_free(M);
        return rc;
    }
    *out = M;
    return 0;
}
