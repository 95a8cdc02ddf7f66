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

/* ---- Packed p-parts (milnor_op.c's products by configurations; also the
 * sigma part of pair_algebra.c): the layout and the ranking of a packed T. */

#define MILNOR_PK_MAXDEG 511
#define MILNOR_PK_NF 9

/* Field n (1..9): shift and value-bit mask; its guard bit sits just below
 * milnor_pk_shift[n + 1].  milnor_pk_shift[10] is the end of the layout. */
static const uint8_t milnor_pk_shift[MILNOR_PK_NF + 2] = {0,  0,  10, 19, 27, 34,
                                                          40, 45, 49, 52, 54};
static const uint16_t milnor_pk_vmask[MILNOR_PK_NF + 1] = {0, 511, 255, 127, 63, 31, 15, 7, 3, 1};
#define MILNOR_PK_GUARD                                                                            \
    ((UINT64_C(1) << 9) | (UINT64_C(1) << 18) | (UINT64_C(1) << 26) | (UINT64_C(1) << 33) |        \
     (UINT64_C(1) << 39) | (UINT64_C(1) << 44) | (UINT64_C(1) << 48) | (UINT64_C(1) << 51) |       \
     (UINT64_C(1) << 53))

/*
 * Index of the packed p-part T (degree <= 511) in its degree, z row 2 of
 * the int32 tables A->rk at degree 0 (above: row k at
 * (k - 2) * MILNOR_RKSTRIDE further, padded with zeros below degree 0;
 * every value < 2^31, since the degree 511 has fewer elements).  With
 * D_n = t_1 + t_2 w_2 + ... + t_n w_n, L the last nonzero field and
 * d = D_L, the ranking of internal.h telescopes (cnt[n][x] - cnt[n+1][x] =
 * -cnt[n+1][x - w_{n+1}]) to one table read per field:
 *
 *     index = cnt[L][d] - cnt[2][D_1] - sum_{n=2}^{L-1} cnt[n+1][D_n - w_{n+1}]
 *
 * MILNOR_RANK_FIELD(n, width) adds field n to D (r holds it at bit 0),
 * ends if no field above it is set, and otherwise subtracts the term of n.  The rows
 * sit at constant offsets from z, so each read is one instruction.
 */
#define MILNOR_RK_ROW(n) ((int64_t)((n) - 2) * MILNOR_RKSTRIDE)
#define MILNOR_RANK_FIELD(n, width)                                                                \
    do {                                                                                           \
        D += (int64_t)(r & milnor_pk_vmask[n]) * milnor_w(n);                                      \
        r >>= (width);                                                                             \
        if (!r)                                                                                    \
            return idx + z[MILNOR_RK_ROW(n) + D];                                                  \
        idx -= z[MILNOR_RK_ROW((n) + 1) + D - milnor_w((n) + 1)];                                  \
    } while (0)

static inline int64_t milnor_rank_pk(const int32_t *z, uint64_t T)
{
    int64_t D = (int64_t)(T & 511);
    uint64_t r = T >> 10; /* field 2 */
    if (!r)
        return 0;
    int32_t idx = -z[D];
    MILNOR_RANK_FIELD(2, 9);
    MILNOR_RANK_FIELD(3, 8);
    MILNOR_RANK_FIELD(4, 7);
    MILNOR_RANK_FIELD(5, 6);
    MILNOR_RANK_FIELD(6, 5);
    MILNOR_RANK_FIELD(7, 4);
    MILNOR_RANK_FIELD(8, 3);
    D += (int64_t)(r & 1) * milnor_w(9); /* field 9, the last */
    return idx + z[MILNOR_RK_ROW(9) + D];
}
#undef MILNOR_RANK_FIELD

/* Row 2 of A's ranking tables at degree 0. */
static inline const int32_t *milnor_rank_rows(const milnor_t *A)
{
    return A->rk + MILNOR_ZPAD;
}

/* Index of the packed p-part T (degree <= 511) in its degree. */
static inline int64_t milnor_rank_packed(const milnor_t *A, uint64_t T)
{
    return milnor_rank_pk(milnor_rank_rows(A), T);
}

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
