/*
 * t-stalg-chi.c -- the antipode chi of the Milnor basis (stalg_chi.h)
 * against facts about it that do not use its recursion: chi^2 = 1;
 * chi(Sq^n) from sum_{i} Sq^i chi(Sq^{n-i}) = 0 (the products of Sq^i
 * alone) and as Milnor's closed form, the sum of every Sq(R) of degree n
 * (Milnor, "The Steenrod algebra and its dual", Ann. of Math. 67 (1958),
 * Cor. 6); at odd p chi(beta) = -beta, chi(P^n) by sum P^i chi(P^{n-i}) = 0
 * and as (-1)^n sum of the P(R) of degree |P^n| (ibid.); chi an
 * anti-automorphism, chi(ab) = (-1)^{|a||b|} chi(b) chi(a), on every pair
 * of basis elements through degree 30 (p = 2) and 60 (p = 3).
 */
#include <string.h>

#include "stalg.h"
#include "stalg_chi.h"
#include "sq_test.h"

/* out = chi(v), v over the basis of degree d. */
static void chi_vec(const stalg_chi_t *X, uint32_t p, int32_t d, fvec_t v, fvec_t out)
{
    fvec_zero(out);
    for (int64_t k = 0; k < v.len; k++) {
        uint32_t c = fvec_get(v, k);
        if (c)
            fvec_addmul(out, stalg_chi(X, d, k), c % p);
    }
}

/* out += u v, u over degree du, v over degree dv. */
static void mul_vec(const stalg_t *S, int32_t du, fvec_t u, int32_t dv, fvec_t v, fvec_t out)
{
    for (int64_t k = 0; k < u.len; k++) {
        uint32_t c = fvec_get(u, k);
        if (c)
            stalg_mul_vec_add(S, out, 0, c, du, k, dv, v);
    }
}

static void check_involution(uint32_t p, int32_t D)
{
    stalg_t *S = stalg_new(p, D, NULL);
    stalg_chi_t *X = stalg_chi_new(S, D);
    for (int32_t d = 0; d <= D; d++) {
        int64_t n = stalg_dim(S, d);
        fvec_t w;
        fvec_init(&w, n > 0 ? n : 1, p);
        w.len = n;
        for (int64_t i = 0; i < n; i++) {
            chi_vec(X, p, d, stalg_chi(X, d, i), w);
            for (int64_t k = 0; k < n; k++)
                ASSERT_EQ(fvec_get(w, k), (uint32_t)(k == i));
        }
        fvec_clear(&w);
    }
    stalg_chi_free(X);
    stalg_free(S);
}

TEST(chi_squared_is_identity)
{
    check_involution(2, 48);
    check_involution(3, 120);
    check_involution(5, 200);
}

/* chi(P^n) (chi(Sq^n) at p = 2) from the recursion in P^i alone and from
 * Milnor's closed form, through n = nmax. */
static void check_powers(uint32_t p, int32_t nmax)
{
    int32_t unit = p == 2 ? 1 : 2 * ((int32_t)p - 1), D = nmax * unit;
    stalg_t *S = stalg_new(p, D, NULL);
    stalg_chi_t *X = stalg_chi_new(S, D);
    fvec_t *c = sq_calloc((size_t)nmax + 1, sizeof *c);
    fvec_init(&c[0], 1, p);
    fvec_set(c[0], 0, 1);
    for (int32_t n = 1; n <= nmax; n++) {
        int64_t dim = stalg_dim(S, n * unit);
        fvec_init(&c[n], dim, p);
        for (int32_t i = 1; i <= n; i++) {
            stalg_elt_t e;
            memset(&e, 0, sizeof e);
            e.len = 1;
            e.r[0] = i;
            int64_t idx = stalg_index(S, &e);
            ASSERT(idx >= 0);
            stalg_mul_vec_add(S, c[n], 0, p - 1, i * unit, idx, (n - i) * unit, c[n - i]);
        }
        stalg_elt_t e;
        memset(&e, 0, sizeof e);
        e.len = 1;
        e.r[0] = n;
        fvec_t got = stalg_chi(X, n * unit, stalg_index(S, &e));
        ASSERT(fvec_equal(got, c[n]));
        uint32_t sign = (n & 1) && p != 2 ? p - 1 : 1;
        for (int64_t k = 0; k < dim; k++) { /* (-1)^n on every P(R), 0 on Q(E) P(R), E != 0 */
            stalg_elt_t b;
            stalg_get(S, n * unit, k, &b);
            ASSERT_EQ(fvec_get(got, k), b.q ? 0u : sign);
        }
    }
    for (int32_t n = 0; n <= nmax; n++)
        fvec_clear(&c[n]);
    sq_free(c);
    if (p != 2) { /* chi(beta) = -beta */
        fvec_t b = stalg_chi(X, 1, 0);
        ASSERT_EQ(fvec_get(b, 0), p - 1);
    }
    stalg_chi_free(X);
    stalg_free(S);
}

/* stalg_chi_gen (the closed form) is the table's chi of each generator,
 * over A and over profiles (A(2) at p = 2, a profile at p = 3). */
static void check_gen(uint32_t p, int32_t D, const stalg_profile_t *prof)
{
    stalg_t *S = stalg_new(p, D, prof);
    stalg_chi_t *X = stalg_chi_new(S, D);
    int32_t gd[32];
    int64_t gi[32];
    int ng = stalg_gens(S, D, gd, gi, 32);
    ASSERT(ng >= 2);
    for (int g = 0; g < ng && g < 32; g++) {
        fvec_t v;
        fvec_init(&v, stalg_dim(S, gd[g]), p);
        stalg_chi_gen(S, gd[g], v);
        ASSERT(fvec_equal(v, stalg_chi(X, gd[g], gi[g])));
        fvec_clear(&v);
    }
    stalg_chi_free(X);
    stalg_free(S);
}

TEST(chi_of_generators_closed_form)
{
    check_gen(2, 48, NULL);
    check_gen(3, 90, NULL);
    check_gen(5, 100, NULL);
    stalg_profile_t a2 = {.truncated = 1, .q_part = ~0u, .len = 3, .p_part = {3, 2, 1}};
    check_gen(2, 23, &a2);
    stalg_profile_t p3 = {.truncated = 1, .q_part = 7u, .len = 2, .p_part = {2, 1}};
    check_gen(3, 60, &p3);
}

TEST(chi_of_powers_recursion_and_milnor)
{
    check_powers(2, 48);
    check_powers(3, 30);
    check_powers(5, 20);
}

/* chi(ab) = (-1)^{|a||b|} chi(b) chi(a) for all basis elements a, b with
 * |a| + |b| <= D. */
static void check_anti(uint32_t p, int32_t D)
{
    stalg_t *S = stalg_new(p, D, NULL);
    stalg_chi_t *X = stalg_chi_new(S, D);
    int64_t pairs = 0;
    for (int32_t da = 1; da < D; da++)
        for (int32_t db = 1; da + db <= D; db++) {
            int64_t na = stalg_dim(S, da), nb = stalg_dim(S, db), n = stalg_dim(S, da + db);
            if (!na || !nb || !n)
                continue;
            fvec_t ab, lhs, rhs;
            fvec_init(&ab, n, p);
            fvec_init(&lhs, n, p);
            fvec_init(&rhs, n, p);
            for (int64_t a = 0; a < na; a++)
                for (int64_t b = 0; b < nb; b++, pairs++) {
                    fvec_zero(ab);
                    stalg_mul_add(S, ab, 0, 1, da, a, db, b);
                    chi_vec(X, p, da + db, ab, lhs);
                    fvec_zero(rhs);
                    uint32_t sign = (da & db & 1) ? p - 1 : 1;
                    fvec_t cb = stalg_chi(X, db, b), ca = stalg_chi(X, da, a);
                    fvec_t cbs;
                    fvec_init(&cbs, nb, p);
                    fvec_addmul(cbs, cb, sign);
                    mul_vec(S, db, cbs, da, ca, rhs);
                    fvec_clear(&cbs);
                    ASSERT(fvec_equal(lhs, rhs));
                }
            fvec_clear(&ab);
            fvec_clear(&lhs);
            fvec_clear(&rhs);
        }
    ASSERT(pairs > 100);
    stalg_chi_free(X);
    stalg_free(S);
}

TEST(chi_is_an_anti_automorphism)
{
    check_anti(2, 30);
    check_anti(3, 60);
}
