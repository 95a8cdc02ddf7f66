/*
 * f2mat.c -- life cycle, entries, comparison and products of f2mat_t, the
 * augmented-matrix helpers ([A | I] kernel and quasi-inverse) and the
 * image-extension helpers.  Row reduction is in rref.c and rref_m4ri.c.
 */
#include <string.h>

#include "f2_kernels.h"
#include "f2mat.h"

/* The default stride: rows of more than 4 limbs are padded to a multiple of
 * 4 limbs (32 bytes), so that with 64-byte aligned data most row segments
 * the kernels touch start on a 32-byte boundary.  Narrow rows stay packed,
 * since padding 1-3 limbs to 4 would waste up to 4x the memory. */
static int64_t default_stride(int64_t cols)
{
    int64_t n = f2_limbs(cols);
    return n <= 4 ? n : (n + 3) & ~(int64_t)3;
}

/* Mask of the valid bits of the last limb of a row of cols columns. */
static uint64_t last_mask(int64_t cols)
{
    int r = (int)(cols % F2_LIMB_BITS);
    return r ? (((uint64_t)1 << r) - 1) : ~(uint64_t)0;
}

void f2mat_init(f2mat_t *m, int64_t rows, int64_t cols)
{
    SQ_CHECK(rows >= 0 && cols >= 0, "f2mat_init: negative dimensions %lld x %lld", (long long)rows,
             (long long)cols);
    m->rows = rows;
    m->cols = cols;
    m->stride = default_stride(cols);
    size_t n = sq_mul_size((size_t)rows, (size_t)m->stride);
    m->data = n ? sq_aligned_calloc(n, sizeof(uint64_t)) : NULL;
}

void f2mat_clear(f2mat_t *m)
{
    sq_aligned_free(m->data);
    memset(m, 0, sizeof *m);
}

void f2mat_init_set(f2mat_t *m, const f2mat_t *src)
{
    f2mat_init(m, src->rows, src->cols);
    int64_t nl = f2_limbs(src->cols);
    if (nl == 0)
        return;
    for (int64_t i = 0; i < src->rows; i++)
        memcpy(f2mat_row(m, i), f2mat_row(src, i), (size_t)nl * sizeof(uint64_t));
}

void f2mat_swap(f2mat_t *a, f2mat_t *b)
{
    f2mat_t t = *a;
    *a = *b;
    *b = t;
}

void f2mat_zero(f2mat_t *m)
{
    if (m->data)
        memset(m->data, 0, (size_t)m->rows * (size_t)m->stride * sizeof(uint64_t));
}

int f2mat_equal(const f2mat_t *a, const f2mat_t *b)
{
    if (a->rows != b->rows || a->cols != b->cols)
        return 0;
    int64_t nl = f2_limbs(a->cols);
    if (nl == 0)
        return 1;
    for (int64_t i = 0; i < a->rows; i++)
        if (memcmp(f2mat_row(a, i), f2mat_row(b, i), (size_t)nl * sizeof(uint64_t)) != 0)
            return 0;
    return 1;
}

int f2mat_is_canonical(const f2mat_t *m)
{
    int64_t nl = f2_limbs(m->cols);
    uint64_t lm = last_mask(m->cols);
    for (int64_t i = 0; i < m->rows; i++) {
        const uint64_t *r = f2mat_row(m, i);
        if (nl > 0 && (r[nl - 1] & ~lm) != 0)
            return 0;
        for (int64_t l = nl; l < m->stride; l++)
            if (r[l] != 0)
                return 0;
    }
    return 1;
}

void f2mat_randomize(f2mat_t *m, sq_rand_t *r)
{
    int64_t nl = f2_limbs(m->cols);
    if (nl == 0)
        return;
    uint64_t lm = last_mask(m->cols);
    for (int64_t i = 0; i < m->rows; i++) {
        uint64_t *row = f2mat_row(m, i);
        for (int64_t l = 0; l < nl; l++)
            row[l] = sq_rand_u64(r);
        row[nl - 1] &= lm;
    }
}

void f2mat_mul_naive(f2mat_t *c, const f2mat_t *a, const f2mat_t *b)
{
    SQ_CHECK(a->cols == b->rows, "f2mat_mul_naive: %lld x %lld times %lld x %lld",
             (long long)a->rows, (long long)a->cols, (long long)b->rows, (long long)b->cols);
    f2mat_init(c, a->rows, b->cols);
    const f2_kernels_t *K = f2_kernels();
    int64_t nl = f2_limbs(b->cols);
    for (int64_t i = 0; i < a->rows; i++) {
        uint64_t *ci = f2mat_row(c, i);
        for (int64_t j = 0; j < a->cols; j++)
            if (f2mat_get(a, i, j))
                K->xor_raw(ci, f2mat_row(b, j), nl);
    }
}

int64_t f2mat_rank(const f2mat_t *m)
{
    f2mat_t t = {0};
    f2mat_init_set(&t, m);
    int64_t r = f2mat_rref(&t, NULL);
    f2mat_clear(&t);
    return r;
}

/* ---- Augmented matrices ---------------------------------------------------- */

void f2mat_init_aug(f2mat_t *m, int64_t rows, int64_t a_cols)
{
    int64_t seg = f2_seg_start(a_cols);
    f2mat_init(m, rows, seg + rows);
    for (int64_t i = 0; i < rows; i++)
        f2mat_set(m, i, seg + i, 1);
}

int64_t f2mat_aug_rank(const f2mat_t *m, const int64_t *pivots, int64_t a_cols)
{
    SQ_CHECK(a_cols <= m->cols, "f2mat_aug_rank: a_cols %lld > cols %lld", (long long)a_cols,
             (long long)m->cols);
    int64_t r = 0;
    for (int64_t c = 0; c < a_cols; c++)
        r += pivots[c] >= 0;
    return r;
}

void f2mat_aug_kernel(f2mat_t *ker, const f2mat_t *m, const int64_t *pivots, int64_t a_cols)
{
    int64_t seg = f2_seg_start(a_cols);
    SQ_CHECK(m->cols == seg + m->rows, "f2mat_aug_kernel: %lld columns, expected %lld",
             (long long)m->cols, (long long)(seg + m->rows));
    /* The rows of the RREF of [A | I] are sorted by pivot column, so the
     * rows whose pivot is in A come first (rank A of them); since [A | I]
     * has full row rank every later row has its pivot in the I segment and
     * a zero A part. */
    int64_t rank = f2mat_aug_rank(m, pivots, a_cols);
    int64_t null = m->rows - rank;
    f2mat_init(ker, null, m->rows);
    int64_t nl = f2_limbs(m->rows), off = seg / F2_LIMB_BITS;
    for (int64_t j = 0; j < null; j++)
        memcpy(f2mat_row(ker, j), f2mat_row(m, rank + j) + off, (size_t)nl * sizeof(uint64_t));
}

void f2mat_aug_qi_apply(uint64_t *out, const f2mat_t *m, const int64_t *pivots, int64_t a_cols,
                        const uint64_t *v)
{
    int64_t seg = f2_seg_start(a_cols);
    SQ_CHECK(m->cols == seg + m->rows, "f2mat_aug_qi_apply: %lld columns, expected %lld",
             (long long)m->cols, (long long)(seg + m->rows));
    int64_t nl = f2_limbs(m->rows), off = seg / F2_LIMB_BITS;
    const f2_kernels_t *K = f2_kernels();
    for (int64_t l = 0; l < f2_limbs(a_cols); l++) {
        uint64_t w = v[l];
        while (w) {
            int64_t c = l * F2_LIMB_BITS + __builtin_ctzll(w);
            w &= w - 1;
            if (c < a_cols && pivots[c] >= 0)
                K->xor_raw(out, f2mat_row(m, pivots[c]) + off, nl);
        }
    }
}

int64_t f2_first_bit(const uint64_t *v, int64_t n)
{
    int64_t nl = f2_limbs(n);
    for (int64_t l = 0; l < nl; l++) {
        uint64_t w = v[l];
        if (l == nl - 1)
            w &= last_mask(n);
        if (w) {
            int64_t c = l * F2_LIMB_BITS + __builtin_ctzll(w);
            return c < n ? c : -1;
        }
    }
    return -1;
}

int f2_copy_bits(uint64_t *dst, const uint64_t *src, int64_t off, int64_t len)
{
    int64_t nl = f2_limbs(len), w = off >> 6, sh = off & 63;
    int64_t last = f2_limbs(off + len); /* src limbs that may be read */
    uint64_t any = 0;
    for (int64_t l = 0; l < nl; l++) {
        uint64_t x = src[w + l] >> sh;
        if (sh && w + l + 1 < last)
            x |= src[w + l + 1] << (64 - sh);
        if (l == nl - 1)
            x &= last_mask(len);
        dst[l] = x;
        any |= x;
    }
    return any != 0;
}
