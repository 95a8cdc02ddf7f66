/*
 * stalg_chi.c -- the antipode of the Milnor basis by the coproduct's
 * recursion (stalg_chi.h).
 */
#include "stalg_chi.h"

#include <string.h>

#include "sq_core.h"

struct stalg_chi {
    const stalg_t *S;
    int32_t deg;
    fvec_t **v; /* v[d][i]: chi of basis element i of degree d */
};

/* (-1)^{s(E', E'')}: the pairs b in E'' = q ^ q1, a in E' = q1, b < a. */
static int shuffle_odd(uint32_t q, uint32_t q1)
{
    uint32_t q2 = q & ~q1;
    int n = 0;
    for (int a = 0; a < 32; a++)
        if (q1 & (1u << a))
            n += __builtin_popcount(q2 & ((1u << a) - 1u));
    return n & 1;
}

/* Steps R1 through 0 <= R1 <= R (mixed radix); 0 once it wraps to zero. */
static int next_part(stalg_elt_t *r1, const stalg_elt_t *r)
{
    for (int i = 0; i < r->len; i++) {
        if (r1->r[i] < r->r[i]) {
            r1->r[i]++;
            return 1;
        }
        r1->r[i] = 0;
    }
    return 0;
}

/* out -= sign * x' chi(x'') over every split of x = (q, R) but 1 ⊗ x. */
static void chi_of(const stalg_chi_t *X, const stalg_elt_t *x, fvec_t out)
{
    const stalg_t *S = X->S;
    uint32_t p = stalg_prime(S);
    uint32_t q1 = 0;
    do { /* every q1 ⊆ x->q */
        stalg_elt_t a;
        memset(&a, 0, sizeof a);
        a.q = q1;
        a.len = x->len;
        do {
            if (a.q == 0 && stalg_elt_degree(S, &a) == 0)
                continue;
            stalg_elt_t b;
            memset(&b, 0, sizeof b);
            b.q = x->q & ~q1;
            b.len = x->len;
            for (int i = 0; i < x->len; i++)
                b.r[i] = x->r[i] - a.r[i];
            int32_t da = (int32_t)stalg_elt_degree(S, &a), db = (int32_t)stalg_elt_degree(S, &b);
            int64_t ia = stalg_index(S, &a), ib = stalg_index(S, &b);
            SQ_CHECK(ia >= 0 && ib >= 0, "stalg_chi: a coproduct term outside the algebra");
            uint32_t coef = shuffle_odd(x->q, q1) ? 1u : p - 1u; /* -sign */
            stalg_mul_vec_add(S, out, 0, coef, da, ia, db, X->v[db][ib]);
        } while (next_part(&a, x));
        q1 = (q1 - x->q) & x->q;
    } while (q1 != 0);
}

stalg_chi_t *stalg_chi_new(const stalg_t *S, int32_t deg)
{
    stalg_chi_t *X = sq_calloc(1, sizeof *X);
    X->S = S;
    X->deg = deg < stalg_max_degree(S) ? deg : stalg_max_degree(S);
    X->v = sq_calloc((size_t)X->deg + 1, sizeof *X->v);
    uint32_t p = stalg_prime(S);
    for (int32_t d = 0; d <= X->deg; d++) {
        int64_t n = stalg_dim(S, d);
        X->v[d] = sq_calloc((size_t)(n > 0 ? n : 1), sizeof *X->v[d]);
        for (int64_t i = 0; i < n; i++) {
            fvec_init(&X->v[d][i], n, p);
            if (d == 0) {
                fvec_set(X->v[d][i], i, 1);
                continue;
            }
            stalg_elt_t x;
            stalg_get(S, d, i, &x);
            chi_of(X, &x, X->v[d][i]);
        }
    }
    return X;
}

void stalg_chi_free(stalg_chi_t *X)
{
    if (!X)
        return;
    for (int32_t d = 0; d <= X->deg; d++) {
        for (int64_t i = 0; i < stalg_dim(X->S, d); i++)
            fvec_clear(&X->v[d][i]);
        sq_free(X->v[d]);
    }
    sq_free(X->v);
    sq_free(X);
}

int32_t stalg_chi_max_degree(const stalg_chi_t *X)
{
    return X->deg;
}

fvec_t stalg_chi(const stalg_chi_t *X, int32_t deg, int64_t idx)
{
    SQ_CHECK(deg >= 0 && deg <= X->deg && idx >= 0 && idx < stalg_dim(X->S, deg),
             "stalg_chi: (%d, %lld) outside the table", (int)deg, (long long)idx);
    return X->v[deg][idx];
}

void stalg_chi_gen(const stalg_t *S, int32_t deg, fvec_t out)
{
    SQ_CHECK(stalg_gen_index(S, deg) >= 0, "stalg_chi_gen: no generator in degree %d", (int)deg);
    uint32_t p = stalg_prime(S);
    if (p != 2 && deg == 1) { /* chi(beta) = -beta */
        fvec_set(out, stalg_gen_index(S, 1), p - 1);
        return;
    }
    int32_t n = p == 2 ? deg : deg / (2 * ((int32_t)p - 1));
    uint32_t c = p != 2 && (n & 1) ? p - 1 : 1;
    for (int64_t k = 0; k < stalg_dim(S, deg); k++) {
        stalg_elt_t e;
        stalg_get(S, deg, k, &e);
        if (e.q == 0)
            fvec_set(out, k, c);
    }
}
