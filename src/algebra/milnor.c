/*
 * milnor.c -- the Milnor basis: tables, dimensions, index <-> p-part, text.
 *
 * See internal.h for the coin-change tables and the ranking formula.  No
 * basis element is ever stored: through degree 300 there are 5.0 million of
 * them, through 2047 about 10^12, while the tables take 12 rows of
 * max_degree + 1 integers.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

milnor_t *milnor_new(int32_t max_degree)
{
    SQ_CHECK(max_degree >= 0 && max_degree <= MILNOR_MAX_DEGREE,
             "milnor_new: max_degree %d outside 0..%d", (int)max_degree, MILNOR_MAX_DEGREE);
    milnor_t *A = sq_calloc(1, sizeof *A);
    A->max_degree = max_degree;
    A->stride = (int64_t)max_degree + 1;
    A->max_len = 0;
    while (A->max_len < MILNOR_MAX_LEN && milnor_w(A->max_len + 1) <= max_degree)
        A->max_len++;
    A->cnt = sq_calloc(sq_mul_size(MILNOR_MAX_LEN + 1, (size_t)A->stride), sizeof(int64_t));
    A->pkrow = sq_calloc((size_t)A->stride, sizeof *A->pkrow);

    /* cnt[0][d] = [d == 0]; cnt[k][d] = cnt[k-1][d] + cnt[k][d - w_k]. */
    A->cnt[0] = 1;
    for (int k = 1; k <= MILNOR_MAX_LEN; k++) {
        int64_t *c = A->cnt + (int64_t)k * A->stride;
        const int64_t *prev = c - A->stride;
        int32_t w = milnor_w(k);
        for (int32_t d = 0; d <= max_degree; d++)
            c[d] = prev[d] + (d >= w ? c[d - w] : 0);
    }
    A->zstride = MILNOR_ZPAD + A->stride;
    A->zcnt = sq_calloc(sq_mul_size(MILNOR_MAX_LEN + 1, (size_t)A->zstride), sizeof(int64_t));
    for (int k = 0; k <= MILNOR_MAX_LEN; k++)
        memcpy(A->zcnt + (int64_t)k * A->zstride + MILNOR_ZPAD, milnor_cnt(A, k),
               (size_t)A->stride * sizeof(int64_t));
    A->rk = sq_calloc(8 * MILNOR_RKSTRIDE, sizeof *A->rk);
    for (int k = 2; k <= 9 && k <= MILNOR_MAX_LEN; k++)
        for (int32_t d = 0; d <= max_degree && d < MILNOR_RKSTRIDE - MILNOR_ZPAD; d++)
            A->rk[(k - 2) * MILNOR_RKSTRIDE + MILNOR_ZPAD + d] = (int32_t)milnor_cnt(A, k)[d];
    return A;
}

void milnor_free(milnor_t *A)
{
    if (!A)
        return;
    if (A->sub)
        milnor_sub_free(A);
    for (int64_t d = 0; d < A->stride; d++)
        sq_free(atomic_load(&A->pkrow[d]));
    sq_free((void *)A->pkrow);
    sq_free(A->cnt);
    sq_free(A->zcnt);
    sq_free(A->rk);
    sq_free(A);
}

int32_t milnor_max_degree(const milnor_t *A)
{
    return A->max_degree;
}

int64_t milnor_dim(const milnor_t *A, int32_t deg)
{
    if (deg < 0 || deg > A->max_degree)
        return 0;
    if (SQ_UNLIKELY(A->sub != NULL))
        return milnor_sub_dim(A, deg);
    return milnor_cnt(A, MILNOR_MAX_LEN)[deg];
}

/*
 * Unranking peels the p-part from the top.  The length of the element of
 * index idx in degree d is the least k with cnt[k][d] > idx (the elements of
 * length < k come first and number cnt[k-1][d]).  Those of length k with top
 * entry r_k = j occupy the contiguous range starting at
 * cnt[k][d] - cnt[k][d - j w_k] (see internal.h), so r_k is the largest j
 * with that start <= idx, found by bisection since cnt[k][.] is
 * non-decreasing.  Then idx becomes the index of (r_1..r_{k-1}) in degree
 * d - r_k w_k, and the rest has length < k.
 */
int milnor_unrank_raw(const milnor_t *A, int32_t deg, int64_t idx, int32_t *r)
{
    int len = 0;
    int32_t d = deg;
    for (int i = 1; i <= MILNOR_MAX_LEN; i++)
        r[i] = 0;
    int top = MILNOR_MAX_LEN;
    while (d > 0) {
        int k = 1;
        while (k < top && milnor_cnt(A, k)[d] <= idx)
            k++;
        if (k == 1) {
            r[1] = d;
            if (!len)
                len = 1;
            break;
        }
        const int64_t *c = milnor_cnt(A, k);
        int32_t w = milnor_w(k);
        int64_t target = c[d] - idx; /* want the largest j with c[d - j w] >= target */
        int32_t lo = 1, hi = d / w;
        while (lo < hi) {
            int32_t mid = lo + (hi - lo + 1) / 2;
            if (c[d - mid * w] >= target)
                lo = mid;
            else
                hi = mid - 1;
        }
        r[k] = lo;
        idx -= c[d] - c[d - lo * w];
        d -= lo * w;
        if (!len)
            len = k;
        top = k - 1;
    }
    return len;
}

int milnor_get(const milnor_t *A, int32_t deg, int64_t idx, int32_t *r, int maxlen)
{
    if (A->sub)
        return milnor_sub_get(A, deg, idx, r, maxlen);
    SQ_CHECK(deg >= 0 && deg <= A->max_degree, "milnor_get: degree %d outside 0..%d", (int)deg,
             (int)A->max_degree);
    SQ_CHECK(idx >= 0 && idx < milnor_dim(A, deg),
             "milnor_get: index %lld outside 0..%lld in degree %d", (long long)idx,
             (long long)milnor_dim(A, deg) - 1, (int)deg);
    int32_t p[MILNOR_MAX_LEN + 1];
    int len = milnor_unrank_tab(A, deg, idx, p);
    SQ_CHECK(len <= maxlen, "milnor_get: length %d exceeds maxlen %d", len, maxlen);
    for (int i = 0; i < len; i++)
        r[i] = p[i + 1];
    return len;
}

int32_t milnor_pdegree(const int32_t *r, int len)
{
    int64_t d = 0;
    for (int i = 0; i < len; i++) {
        if (r[i] == 0)
            continue;
        if (i >= 31)
            return INT32_MAX;
        d += (int64_t)r[i] * ((INT64_C(1) << (i + 1)) - 1);
        if (d > INT32_MAX)
            return INT32_MAX;
    }
    return (int32_t)d;
}

int64_t milnor_index(const milnor_t *A, const int32_t *r, int len)
{
    SQ_CHECK(len >= 0, "milnor_index: negative length %d", len);
    for (int i = 0; i < len; i++)
        SQ_CHECK(r[i] >= 0, "milnor_index: negative entry r_%d = %d", i + 1, (int)r[i]);
    while (len > 0 && r[len - 1] == 0)
        len--;
    if (milnor_pdegree(r, len) > A->max_degree)
        return -1;
    if (A->sub)
        return milnor_sub_index(A, r, len);
    /* len <= max_len here, since the degree is at most max_degree. */
    int32_t p[MILNOR_MAX_LEN + 1];
    for (int i = 0; i < len; i++)
        p[i + 1] = r[i];
    return milnor_rank_raw(A, p, len);
}

void milnor_format(char *buf, size_t n, const milnor_t *A, int32_t deg, int64_t idx)
{
    int32_t r[MILNOR_MAX_LEN];
    int len = milnor_get(A, deg, idx, r, MILNOR_MAX_LEN);
    if (n == 0)
        return;
    if (len == 0) {
        snprintf(buf, n, "1");
        return;
    }
    char tmp[8 * MILNOR_MAX_LEN + 8];
    size_t pos = 0;
    tmp[pos++] = 'S';
    tmp[pos++] = 'q';
    tmp[pos++] = '(';
    for (int i = 0; i < len; i++)
        pos += (size_t)snprintf(tmp + pos, sizeof tmp - pos, i ? ",%d" : "%d", (int)r[i]);
    tmp[pos++] = ')';
    tmp[pos] = '\0';
    snprintf(buf, n, "%s", tmp);
}
