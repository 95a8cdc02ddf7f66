/*
 * internal.h -- what milnor.c and milnor_mul.c share; not installed.
 *
 * The tables.  cnt[k][d] (k = 0..MILNOR_MAX_LEN, d = 0..max_degree) is the
 * number of p-parts of degree d and length <= k, i.e. the number of ways to
 * pay d with coins w_1, ..., w_k, w_i = 2^i - 1 (cnt[0][d] = [d == 0]).  Rows
 * k beyond the longest possible length simply repeat the last one.  Stored
 * row-major, one row of max_degree + 1 int64 per k:
 *
 *      cnt:  | k=0: d=0..max | k=1: d=0..max | ... | k=11: d=0..max |
 *
 * Ranking (the basis order of milnor.h).  Within degree d the elements are
 * sorted by length, then by r_len, then recursively by the rest.  With the
 * prefix degrees D_n = sum_{i<=n} r_i w_i (so D_len = d) the index is
 *
 *      index(R) = sum_{n=2}^{len} ( cnt[n][D_n] - cnt[n][D_{n-1}] ):
 *
 * the elements of degree D_n, length <= n, that precede (r_1..r_n) are those
 * of length < n, cnt[n-1][D_n], plus those of length n with a smaller r_n,
 * sum_{j=1}^{r_n-1} cnt[n-1][D_n - j w_n]; these telescope to
 * cnt[n][D_n] - cnt[n][D_n - r_n w_n], since cnt[n][x] = cnt[n-1][x] +
 * cnt[n][x - w_n].  The n = 1 term is always 0 (cnt[1][x] = 1).
 */
#ifndef MILNOR_INTERNAL_H
#define MILNOR_INTERNAL_H

#include <stdatomic.h>

#include "milnor.h"

struct milnor_sub;

struct milnor {
    int32_t max_degree;
    struct milnor_sub *sub; /* non-NULL: a sub-Hopf algebra (milnor_sub.c) */
    int32_t max_len; /* longest p-part of degree <= max_degree */
    int64_t stride;  /* max_degree + 1: length of one cnt row */
    int64_t *cnt;    /* (MILNOR_MAX_LEN + 1) rows, see above */
    /* [d], d <= max_degree: the packed p-parts of degree d in basis order
     * (milnor_op.c's layout), built on first use by the products; NULL
     * until then.  Freed with A. */
    _Atomic(uint64_t *) *pkrow;
    /* cnt again, each row after MILNOR_ZPAD zeros (zstride = MILNOR_ZPAD +
     * stride int64 a row): row k at d - w for any d >= 0, w <= MILNOR_ZPAD
     * reads 0 below degree 0 (the products' ranking, milnor_op.c). */
    int64_t *zcnt;
    int64_t zstride;
    /* Rows 2..9 of zcnt for degrees -MILNOR_ZPAD..511 as int32, a fixed
     * MILNOR_RKSTRIDE apart (row k at rk + (k - 2) * MILNOR_RKSTRIDE +
     * MILNOR_ZPAD; 0 above max_degree, never read there): the products'
     * ranking addresses every row from one pointer (milnor_op.c). */
    int32_t *rk;
};

#define MILNOR_ZPAD 512
#define MILNOR_RKSTRIDE 1024

/* w_n = 2^n - 1, the degree of xi_n. */
static inline int32_t milnor_w(int n)
{
    return (int32_t)((1u << n) - 1u);
}

static inline const int64_t *milnor_cnt(const milnor_t *A, int k)
{
    return A->cnt + (int64_t)k * A->stride;
}

/* Row k of zcnt: [d] = cnt[k][d] for 0 <= d <= max degree, 0 for
 * -MILNOR_ZPAD <= d < 0. */
static inline const int64_t *milnor_zcnt(const milnor_t *A, int k)
{
    return A->zcnt + (int64_t)k * A->zstride + MILNOR_ZPAD;
}

/* Index of the trimmed p-part r[1..len] (1-based) within its degree, which
 * must be <= max degree.  O(len). */
static inline int64_t milnor_rank_raw(const milnor_t *A, const int32_t *r, int len)
{
    int64_t idx = 0;
    int32_t D = len >= 1 ? r[1] : 0;
    for (int n = 2; n <= len; n++) {
        const int64_t *c = milnor_cnt(A, n);
        int32_t D2 = D + r[n] * milnor_w(n);
        idx += c[D2] - c[D];
        D = D2;
    }
    return idx;
}

/* Writes the p-part of element idx of degree deg into r[1..MILNOR_MAX_LEN]
 * (1-based, zero-filled beyond the length) and returns its length.
 * Preconditions: 0 <= deg <= max, 0 <= idx < dim(deg). */
int milnor_unrank_raw(const milnor_t *A, int32_t deg, int64_t idx, int32_t *r);

/* milnor_unrank_raw through the table of packed p-parts of degree deg
 * (milnor_op.c: built by the products on first use, shared by the threads)
 * where the products have built one, an unpacking instead of a search; the
 * same r and length.  Same preconditions. */
int milnor_unrank_tab(const milnor_t *A, int32_t deg, int64_t idx, int32_t *r);

/* Replaces the p-part r[1..MILNOR_MAX_LEN] (1-based, zero beyond its length
 * *len) by the next one of the same degree in basis order, updating *len.
 * Returns 0, or -1 if r was the last one (r is then unchanged).  O(len). */
static inline int milnor_next_raw(int32_t *r, int *len)
{
    int32_t low = r[1]; /* degree carried by positions < k */
    for (int k = 2; k <= MILNOR_MAX_LEN; k++) {
        int32_t w = milnor_w(k);
        if (low >= w) {
            r[k]++;
            r[1] = low - w;
            for (int i = 2; i < k; i++)
                r[i] = 0;
            if (k > *len)
                *len = k;
            return 0;
        }
        if (k > *len)
            return -1; /* low is the whole degree and w only grows */
        low += r[k] * w;
    }
    return -1;
}

/* out ^= Sq(R) Sq(S) for trimmed 1-based p-parts r[1..p], s[1..q] (p, q >= 0),
 * |R| + |S| <= max degree; bit k of the result at off + k.  The matrix walk of
 * milnor_mul.c, used for single products and as the fallback of the
 * operation-by-element path (milnor_op.c). */
void milnor_mul_pp(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r, int p,
                   const int32_t *s, int q);

/* SQ_CHECKs of a product's degrees and output offset. */
void milnor_check_degrees(const milnor_t *A, int32_t rdeg, int32_t sdeg, int64_t off);

/* ---- Sub-Hopf algebras (milnor_sub.c): the public functions redirect here
 * when A->sub is set. */
void milnor_sub_free(milnor_t *B);
int64_t milnor_sub_dim(const milnor_t *B, int32_t deg);
int milnor_sub_get(const milnor_t *B, int32_t deg, int64_t idx, int32_t *r, int maxlen);
int64_t milnor_sub_index(const milnor_t *B, const int32_t *r, int len);
void milnor_sub_op_mul_vec_add(const milnor_op_t *op, uint64_t *out, int64_t off, int32_t sdeg,
                               const uint64_t *v);
void milnor_sub_mul_pparts_add(const milnor_t *B, uint64_t *out, int64_t off, const int32_t *r,
                               int rlen, const int32_t *s, int slen);

#endif /* MILNOR_INTERNAL_H */
