/*
 * stalg.c -- the Steenrod algebra handle: a tag, the algebra (owned or
 * borrowed), and one test of p per call into milnor_* or pmilnor_*
 * (docs/architecture.md).
 *
 * The only work done here is converting between stalg_elt_t / stalg_profile_t
 * and the algebras' own types, and checking the bounds of the vectors
 * against the degrees (cheap, once per call, never per product).
 */
#include <string.h>

#include "stalg.h"

struct stalg {
    uint32_t p;
    const milnor_t *A2;  /* p = 2 */
    const pmilnor_t *Ap; /* odd p */
    milnor_t *own2;      /* the algebra when owned, else NULL */
    pmilnor_t *ownp;
    pmilnor_cache_t *cache; /* odd p, stalg_set_cache; owned */
};

void stalg_profile_full(stalg_profile_t *prof)
{
    memset(prof, 0, sizeof *prof);
    prof->q_part = ~0u;
}

static int profile_is_full(const stalg_profile_t *prof)
{
    return !prof || (!prof->truncated && prof->len == 0);
}

/* ---- Life cycle ------------------------------------------------------------------ */

/* p = 2: the h-list of milnor_new_profile.  Entries past MILNOR_MAX_LEN are
 * dropped (r_12 has degree 4095 > MILNOR_MAX_DEGREE); an untruncated
 * profile continues with 30 (r_i < 2^30 bounds nothing in range). */
static milnor_t *new_milnor(int32_t max_degree, const stalg_profile_t *prof)
{
    if (profile_is_full(prof))
        return milnor_new(max_degree);
    SQ_CHECK(prof->len >= 0 && prof->len <= STALG_MAX_PROFILE, "stalg_new: profile length %d",
             prof->len);
    int32_t h[MILNOR_MAX_LEN];
    int len = prof->len < MILNOR_MAX_LEN ? prof->len : MILNOR_MAX_LEN;
    for (int i = 0; i < len; i++)
        h[i] = prof->p_part[i];
    if (!prof->truncated)
        for (; len < MILNOR_MAX_LEN; len++)
            h[len] = 30;
    return milnor_new_profile(max_degree, h, len);
}

static pmilnor_profile_t to_pmilnor_profile(const stalg_profile_t *prof)
{
    pmilnor_profile_t q;
    memset(&q, 0, sizeof q);
    q.truncated = prof->truncated;
    q.q_part = prof->q_part;
    q.len = prof->len;
    for (int i = 0; i < prof->len && i < PMILNOR_MAX_PROFILE; i++)
        q.p_part[i] = prof->p_part[i];
    return q;
}

stalg_t *stalg_new(uint32_t p, int32_t max_degree, const stalg_profile_t *prof)
{
    SQ_CHECK(p == 2 || (p > 2 && fp_prime_ok(p)), "stalg_new: %u is not a supported prime",
             (unsigned)p);
    stalg_t *S = sq_calloc(1, sizeof *S);
    S->p = p;
    if (p == 2) {
        S->own2 = new_milnor(max_degree, prof);
        S->A2 = S->own2;
    } else {
        SQ_CHECK(!prof || (prof->len >= 0 && prof->len <= STALG_MAX_PROFILE),
                 "stalg_new: profile length %d", prof ? prof->len : 0);
        pmilnor_profile_t q;
        if (prof)
            q = to_pmilnor_profile(prof);
        S->ownp = pmilnor_new(p, max_degree, prof ? &q : NULL);
        S->Ap = S->ownp;
    }
    return S;
}

stalg_t *stalg_new_milnor(const milnor_t *A)
{
    SQ_CHECK(A != NULL, "stalg_new_milnor: no algebra");
    stalg_t *S = sq_calloc(1, sizeof *S);
    S->p = 2;
    S->A2 = A;
    return S;
}

stalg_t *stalg_new_pmilnor(const pmilnor_t *A)
{
    SQ_CHECK(A != NULL, "stalg_new_pmilnor: no algebra");
    stalg_t *S = sq_calloc(1, sizeof *S);
    S->p = pmilnor_prime(A);
    S->Ap = A;
    return S;
}

void stalg_free(stalg_t *S)
{
    if (!S)
        return;
    pmilnor_cache_free(S->cache);
    milnor_free(S->own2);
    pmilnor_free(S->ownp);
    sq_free(S);
}

void stalg_set_cache(stalg_t *S, size_t max_bytes)
{
    if (S->p == 2)
        return;
    pmilnor_cache_free(S->cache);
    S->cache = pmilnor_cache_new(S->Ap, max_bytes);
}

pmilnor_cache_t *stalg_pcache(const stalg_t *S)
{
    return S->cache;
}

/* ---- Facts ------------------------------------------------------------------------- */

uint32_t stalg_prime(const stalg_t *S)
{
    return S->p;
}

int32_t stalg_max_degree(const stalg_t *S)
{
    return S->p == 2 ? milnor_max_degree(S->A2) : pmilnor_max_degree(S->Ap);
}

void stalg_profile(const stalg_t *S, stalg_profile_t *prof)
{
    stalg_profile_full(prof);
    if (S->p != 2) {
        const pmilnor_profile_t *q = pmilnor_profile(S->Ap);
        prof->truncated = q->truncated;
        prof->q_part = q->q_part;
        prof->len = q->len;
        for (int i = 0; i < q->len && i < STALG_MAX_PROFILE; i++)
            prof->p_part[i] = q->p_part[i];
        return;
    }
    int32_t h[MILNOR_MAX_LEN];
    int len = milnor_profile(S->A2, h);
    if (len == 0)
        return;
    prof->truncated = 1;
    prof->len = len;
    for (int i = 0; i < len; i++)
        prof->p_part[i] = h[i];
}

const milnor_t *stalg_milnor(const stalg_t *S)
{
    return S->p == 2 ? S->A2 : NULL;
}

const pmilnor_t *stalg_pmilnor(const stalg_t *S)
{
    return S->p == 2 ? NULL : S->Ap;
}

int64_t stalg_dim(const stalg_t *S, int32_t deg)
{
    return S->p == 2 ? milnor_dim(S->A2, deg) : pmilnor_dim(S->Ap, deg);
}

/* ---- Basis elements ------------------------------------------------------------------ */

void stalg_get(const stalg_t *S, int32_t deg, int64_t idx, stalg_elt_t *e)
{
    memset(e, 0, sizeof *e);
    if (S->p == 2) {
        e->len = milnor_get(S->A2, deg, idx, e->r, STALG_MAX_LEN);
        return;
    }
    pmilnor_elt_t x;
    pmilnor_get(S->Ap, deg, idx, &x);
    e->q = x.q;
    e->len = x.len;
    for (int i = 0; i < x.len; i++)
        e->r[i] = x.r[i];
}

/* 1 when e has a length in range and no negative entry. */
static int elt_ok(const stalg_elt_t *e)
{
    if (e->len < 0 || e->len > STALG_MAX_LEN)
        return 0;
    for (int i = 0; i < e->len; i++)
        if (e->r[i] < 0)
            return 0;
    return 1;
}

/* The pmilnor element of e, or 0 when e's p-part is longer than any
 * element of an odd-prime algebra can be (a nonzero entry past
 * PMILNOR_MAX_LEN). */
static int to_pmilnor_elt(const stalg_elt_t *e, pmilnor_elt_t *x)
{
    memset(x, 0, sizeof *x);
    x->q = e->q;
    for (int i = PMILNOR_MAX_LEN; i < e->len; i++)
        if (e->r[i])
            return 0;
    x->len = e->len < PMILNOR_MAX_LEN ? e->len : PMILNOR_MAX_LEN;
    for (int i = 0; i < x->len; i++)
        x->r[i] = e->r[i];
    return 1;
}

int64_t stalg_elt_degree(const stalg_t *S, const stalg_elt_t *e)
{
    if (!elt_ok(e))
        return -1;
    if (S->p == 2) {
        if (e->q)
            return -1;
        int32_t d = milnor_pdegree(e->r, e->len);
        return d == INT32_MAX ? -1 : d;
    }
    pmilnor_elt_t x;
    if (!to_pmilnor_elt(e, &x))
        return -1;
    return pmilnor_elt_degree(S->p, &x);
}

int64_t stalg_index(const stalg_t *S, const stalg_elt_t *e)
{
    SQ_CHECK(e->len >= 0 && e->len <= STALG_MAX_LEN, "stalg_index: length %d", (int)e->len);
    if (!elt_ok(e))
        return -1;
    if (S->p == 2)
        return e->q ? -1 : milnor_index(S->A2, e->r, e->len);
    pmilnor_elt_t x;
    if (!to_pmilnor_elt(e, &x) || pmilnor_elt_degree(S->p, &x) < 0)
        return -1;
    return pmilnor_index(S->Ap, &x);
}

void stalg_format(char *buf, size_t n, const stalg_t *S, int32_t deg, int64_t idx)
{
    if (S->p == 2)
        milnor_format(buf, n, S->A2, deg, idx);
    else
        pmilnor_format(buf, n, S->Ap, deg, idx);
}

/* ---- The algebra generators ------------------------------------------------------- */

int64_t stalg_gen_index(const stalg_t *S, int32_t deg)
{
    if (deg <= 0 || deg > stalg_max_degree(S))
        return -1;
    if (S->p == 2) {
        if (deg & (deg - 1))
            return -1;
        return milnor_index(S->A2, &deg, 1);
    }
    if (deg == 1)
        return pmilnor_beps_pn(S->Ap, 1, 0, NULL);
    int32_t q = 2 * (int32_t)(S->p - 1);
    if (deg % q)
        return -1;
    int32_t n = deg / q; /* P^n with n = p^k */
    while (n % (int32_t)S->p == 0)
        n /= (int32_t)S->p;
    if (n != 1)
        return -1;
    return pmilnor_beps_pn(S->Ap, 0, deg / q, NULL);
}

/* The degrees that can carry a generator, in increasing order: 2^k at
 * p = 2; 1, then 2(p - 1)p^k at odd p. */
int stalg_gens(const stalg_t *S, int32_t max_deg, int32_t *degs, int64_t *idxs, int room)
{
    int32_t top = stalg_max_degree(S);
    if (max_deg < top)
        top = max_deg;
    int count = 0;
    int64_t d = 1;
    while (d <= top) {
        int64_t idx = stalg_gen_index(S, (int32_t)d);
        if (idx >= 0) {
            if (count < room) {
                degs[count] = (int32_t)d;
                idxs[count] = idx;
            }
            count++;
        }
        if (S->p == 2)
            d *= 2;
        else
            d = d == 1 ? 2 * (int64_t)(S->p - 1) : d * S->p;
    }
    return count;
}

/* ---- Products ------------------------------------------------------------------------- */

/* The checks shared by the products: primes, degrees, the output's room. */
static void check_product(const stalg_t *S, fvec_t out, int64_t off, int32_t rdeg, int64_t ridx,
                          int32_t sdeg, const char *who)
{
    SQ_CHECK(out.p == S->p, "%s: a vector over F_%u for an algebra at %u", who,
             (unsigned)out.p, (unsigned)S->p);
    SQ_CHECK(rdeg >= 0 && sdeg >= 0 && (int64_t)rdeg + sdeg <= stalg_max_degree(S),
             "%s: degrees %d + %d beyond %d", who, (int)rdeg, (int)sdeg,
             (int)stalg_max_degree(S));
    SQ_CHECK(ridx >= 0 && ridx < stalg_dim(S, rdeg), "%s: index %lld of degree %d", who,
             (long long)ridx, (int)rdeg);
    int64_t n = stalg_dim(S, rdeg + sdeg);
    SQ_CHECK(off >= 0 && off + n <= out.len, "%s: entries %lld..%lld of a vector of %lld", who,
             (long long)off, (long long)(off + n), (long long)out.len);
}

void stalg_mul_add(const stalg_t *S, fvec_t out, int64_t off, uint32_t coef, int32_t rdeg,
                   int64_t ridx, int32_t sdeg, int64_t sidx)
{
    check_product(S, out, off, rdeg, ridx, sdeg, "stalg_mul_add");
    SQ_CHECK(sidx >= 0 && sidx < stalg_dim(S, sdeg), "stalg_mul_add: index %lld of degree %d",
             (long long)sidx, (int)sdeg);
    coef %= S->p;
    if (!coef)
        return;
    if (S->p == 2)
        milnor_mul_add(S->A2, out.limbs, off, rdeg, ridx, sdeg, sidx);
    else
        pmilnor_mul_add(S->Ap, out.bytes + off, coef, rdeg, ridx, sdeg, sidx);
}

void stalg_mul_vec_add(const stalg_t *S, fvec_t out, int64_t off, uint32_t coef, int32_t rdeg,
                       int64_t ridx, int32_t sdeg, fvec_t v)
{
    check_product(S, out, off, rdeg, ridx, sdeg, "stalg_mul_vec_add");
    SQ_CHECK(v.p == S->p && v.len >= stalg_dim(S, sdeg),
             "stalg_mul_vec_add: v over F_%u with %lld entries, degree %d needs %lld",
             (unsigned)v.p, (long long)v.len, (int)sdeg, (long long)stalg_dim(S, sdeg));
    coef %= S->p;
    if (!coef)
        return;
    if (S->p == 2)
        milnor_mul_vec_add(S->A2, out.limbs, off, rdeg, ridx, sdeg, v.limbs);
    else
        pmilnor_mul_vec_add(S->Ap, out.bytes + off, coef, rdeg, ridx, sdeg, v.bytes);
}
