/*
 * ubasis.c -- the unstable bases of the mod 2 Steenrod algebra (see
 * ubasis.h).
 *
 * Per degree k: ord[k][i], the Milnor index at position i of the excess
 * order; pos[k][idx], its inverse; exc[k][i], the excess at position i;
 * cnt[k][n] for 0 <= n <= k, the number of positions of excess <= n (every
 * element of degree k has excess <= k).
 */
#include "ubasis.h"

#include <string.h>

#include "sq_core.h"

struct ubasis {
    const stalg_t *S;       /* the algebra handle (any prime) */
    stalg_t *own;           /* S when ubasis_new made it */
    const milnor_t *A;      /* below S at p = 2, else NULL */
    uint32_t p;
    int32_t max_deg;
    int64_t **ord, **pos, **cnt;
    int32_t **exc;
    int64_t max_dim;
};

static inline int64_t limbs_of(int64_t bits)
{
    return (bits + 63) / 64;
}

/* The tables of degree k. */
static void build_degree(ubasis_t *U, int32_t k)
{
    int64_t dim = stalg_dim(U->S, k);
    int32_t *e = sq_malloc(sq_mul_size((size_t)dim + 1, sizeof *e));
    for (int64_t idx = 0; idx < dim; idx++) {
        stalg_elt_t el;
        stalg_get(U->S, k, idx, &el);
        int32_t x = 0;
        for (int i = 0; i < el.len; i++)
            x += el.r[i];
        /* odd p: each Q_i counts 1, each P-part entry twice */
        e[idx] = U->p == 2 ? x : 2 * x + __builtin_popcount(el.q);
    }
    /* A counting sort by excess is stable. */
    int64_t *cnt = sq_calloc((size_t)k + 2, sizeof *cnt);
    for (int64_t idx = 0; idx < dim; idx++)
        cnt[e[idx]]++;
    for (int32_t n = 1; n <= k; n++)
        cnt[n] += cnt[n - 1];
    int64_t *ord = sq_malloc(sq_mul_size((size_t)dim + 1, sizeof *ord));
    int64_t *pos = sq_malloc(sq_mul_size((size_t)dim + 1, sizeof *pos));
    int32_t *exc = sq_malloc(sq_mul_size((size_t)dim + 1, sizeof *exc));
    for (int64_t idx = dim - 1; idx >= 0; idx--) {
        int64_t i = --cnt[e[idx]];
        ord[i] = idx;
        pos[idx] = i;
        exc[i] = e[idx];
    }
    /* cnt[n] is now the first position of excess n: shift to "at most n". */
    for (int32_t n = 0; n <= k; n++)
        cnt[n] = n < k ? cnt[n + 1] : dim;
    U->ord[k] = ord;
    U->pos[k] = pos;
    U->exc[k] = exc;
    U->cnt[k] = cnt;
    if (dim > U->max_dim)
        U->max_dim = dim;
    sq_free(e);
}

ubasis_t *ubasis_new_stalg(const stalg_t *S)
{
    stalg_profile_t prof, full;
    stalg_profile(S, &prof);
    stalg_profile_full(&full);
    SQ_CHECK(prof.truncated == full.truncated && prof.len == 0 &&
                 (stalg_prime(S) == 2 || prof.q_part == full.q_part),
             "ubasis_new: the algebra has a profile");
    ubasis_t *U = sq_calloc(1, sizeof *U);
    U->S = S;
    U->A = stalg_milnor(S);
    U->p = stalg_prime(S);
    U->max_deg = stalg_max_degree(S);
    size_t n = (size_t)U->max_deg + 1;
    U->ord = sq_calloc(n, sizeof *U->ord);
    U->pos = sq_calloc(n, sizeof *U->pos);
    U->cnt = sq_calloc(n, sizeof *U->cnt);
    U->exc = sq_calloc(n, sizeof *U->exc);
    for (int32_t k = 0; k <= U->max_deg; k++)
        build_degree(U, k);
    return U;
}

ubasis_t *ubasis_new(const milnor_t *A)
{
    stalg_t *S = stalg_new_milnor(A);
    ubasis_t *U = ubasis_new_stalg(S);
    U->own = S;
    return U;
}

void ubasis_free(ubasis_t *U)
{
    if (!U)
        return;
    stalg_free(U->own);
    for (int32_t k = 0; k <= U->max_deg; k++) {
        sq_free(U->ord[k]);
        sq_free(U->pos[k]);
        sq_free(U->cnt[k]);
        sq_free(U->exc[k]);
    }
    sq_free(U->ord);
    sq_free(U->pos);
    sq_free(U->cnt);
    sq_free(U->exc);
    sq_free(U);
}

const milnor_t *ubasis_algebra(const ubasis_t *U)
{
    return U->A;
}

const stalg_t *ubasis_stalg(const ubasis_t *U)
{
    return U->S;
}

int64_t ubasis_max_dim(const ubasis_t *U)
{
    return U->max_dim;
}

int64_t ubasis_dim(const ubasis_t *U, int32_t k, int32_t n)
{
    if (k < 0 || n < 0 || k > U->max_deg)
        return 0;
    return U->cnt[k][n < k ? n : k];
}

int64_t ubasis_milnor(const ubasis_t *U, int32_t k, int64_t i)
{
    SQ_CHECK(k >= 0 && k <= U->max_deg && i >= 0 && i < stalg_dim(U->S, k),
             "ubasis_milnor: no position %lld in degree %d", (long long)i, (int)k);
    return U->ord[k][i];
}

int64_t ubasis_pos(const ubasis_t *U, int32_t k, int64_t idx)
{
    SQ_CHECK(k >= 0 && k <= U->max_deg && idx >= 0 && idx < stalg_dim(U->S, k),
             "ubasis_pos: no element %lld in degree %d", (long long)idx, (int)k);
    return U->pos[k][idx];
}

int32_t ubasis_excess(const ubasis_t *U, int32_t k, int64_t i)
{
    SQ_CHECK(k >= 0 && k <= U->max_deg && i >= 0 && i < stalg_dim(U->S, k),
             "ubasis_excess: no position %lld in degree %d", (long long)i, (int)k);
    return U->exc[k][i];
}

int64_t ubasis_scratch_limbs(const ubasis_t *U)
{
    return 2 * limbs_of(U->max_dim) + 2;
}

void ubasis_scatter(const ubasis_t *U, uint64_t *dst, int32_t k, int32_t n, const uint64_t *v)
{
    SQ_CHECK(U->p == 2 && k >= 0 && k <= U->max_deg, "ubasis_scatter: degree %d", (int)k);
    memset(dst, 0, (size_t)limbs_of(stalg_dim(U->S, k)) * 8);
    int64_t len = ubasis_dim(U, k, n);
    const int64_t *ord = U->ord[k];
    for (int64_t w = 0; w < limbs_of(len); w++)
        for (uint64_t x = v[w]; x; x &= x - 1) {
            int64_t i = w * 64 + __builtin_ctzll(x);
            if (i >= len)
                break;
            dst[ord[i] >> 6] |= 1ULL << (ord[i] & 63);
        }
}

void ubasis_gather_add(const ubasis_t *U, uint64_t *out, int64_t off, int32_t k, int32_t n,
                       const uint64_t *v)
{
    SQ_CHECK(U->p == 2 && k >= 0 && k <= U->max_deg, "ubasis_gather_add: degree %d", (int)k);
    int64_t len = ubasis_dim(U, k, n);
    const int64_t *pos = U->pos[k];
    for (int64_t w = 0; w < limbs_of(stalg_dim(U->S, k)); w++)
        for (uint64_t x = v[w]; x; x &= x - 1) {
            int64_t j = pos[w * 64 + __builtin_ctzll(x)];
            if (j < len)
                out[(off + j) >> 6] ^= 1ULL << ((off + j) & 63);
        }
}

void ubasis_mul_vec_add(const ubasis_t *U, uint64_t *out, int64_t off, int32_t rdeg, int64_t r,
                        int32_t sdeg, const uint64_t *v, int32_t n, uint64_t *scratch)
{
    int32_t tdeg = rdeg + sdeg;
    SQ_CHECK(U->p == 2 && rdeg >= 0 && sdeg >= 0 && tdeg <= U->max_deg && n >= 0,
             "ubasis_mul_vec_add: degrees %d + %d", (int)rdeg, (int)sdeg);
    uint64_t *vs = scratch, *prod = scratch + limbs_of(U->max_dim) + 1;
    ubasis_scatter(U, vs, sdeg, n, v);
    int64_t sl = limbs_of(stalg_dim(U->S, sdeg)), any = 0;
    for (int64_t w = 0; w < sl; w++)
        any |= vs[w] != 0;
    if (!any)
        return;
    memset(prod, 0, (size_t)limbs_of(stalg_dim(U->S, tdeg)) * 8);
    milnor_mul_vec_add(U->A, prod, 0, rdeg, ubasis_milnor(U, rdeg, r), sdeg, vs);
    ubasis_gather_add(U, out, off, tdeg, n, prod);
}

void ubasis_gather_addf(const ubasis_t *U, fvec_t out, int64_t off, int32_t k, int32_t n,
                        uint32_t coef, fvec_t v)
{
    SQ_CHECK(k >= 0 && k <= U->max_deg && v.p == U->p && out.p == U->p,
             "ubasis_gather_addf: degree %d", (int)k);
    if (U->p == 2) {
        if (coef & 1)
            ubasis_gather_add(U, out.limbs, off, k, n, v.limbs);
        return;
    }
    int64_t len = ubasis_dim(U, k, n), dim = stalg_dim(U->S, k);
    for (int64_t i = 0; i < dim; i++) {
        int64_t j = U->pos[k][i];
        if (v.bytes[i] && j < len)
            out.bytes[off + j] = (uint8_t)((out.bytes[off + j] + coef * v.bytes[i]) % U->p);
    }
}

void ubasis_mul_vec_addf(const ubasis_t *U, fvec_t out, int64_t off, uint32_t coef, int32_t rdeg,
                         int64_t r, int32_t sdeg, fvec_t v, int32_t n)
{
    int32_t tdeg = rdeg + sdeg;
    SQ_CHECK(rdeg >= 0 && sdeg >= 0 && tdeg <= U->max_deg && n >= 0 && v.p == U->p,
             "ubasis_mul_vec_addf: degrees %d + %d", (int)rdeg, (int)sdeg);
    fvec_t vs, prod;
    int64_t slen = ubasis_dim(U, sdeg, n);
    fvec_init(&vs, stalg_dim(U->S, sdeg), U->p);
    fvec_init(&prod, stalg_dim(U->S, tdeg), U->p);
    for (int64_t i = 0; i < slen && i < v.len; i++) {
        uint32_t c = fvec_get(v, i);
        if (c)
            fvec_set(vs, U->ord[sdeg][i], c);
    }
    if (!fvec_is_zero(vs)) {
        stalg_mul_vec_add(U->S, prod, 0, 1, rdeg, ubasis_milnor(U, rdeg, r), sdeg, vs);
        ubasis_gather_addf(U, out, off, tdeg, n, coef, prod);
    }
    fvec_clear(&vs);
    fvec_clear(&prod);
}
