/*
 * milnor_mul.c -- the Milnor product Sq(R) * Sq(S) at p = 2.
 *
 * Milnor's formula.  Sq(R) Sq(S) = sum_X b(X) Sq(T(X)) over the matrices
 *
 *              x_01  x_02  ...  x_0q          row i >= 1:  sum_j 2^j x_ij = r_i
 *        x_10  x_11  x_12  ...  x_1q          column j >= 1: sum_i x_ij = s_j
 *        ...                                  (j and i from 0)
 *        x_p0  x_p1  x_p2  ...  x_pq
 *
 * with non-negative entries; T_n = sum_{i+j=n} x_ij (the n-th anti-diagonal)
 * and b(X) = prod_n (T_n)! / prod_{i+j=n} x_ij!.  By Lucas' theorem a
 * multinomial coefficient is odd iff its lower entries have pairwise disjoint
 * binary digits, so mod 2 a matrix contributes Sq(T) iff each anti-diagonal
 * has pairwise disjoint entries, and then T_n is their bitwise OR.
 *
 * Enumeration.  The free entries are x_ij, i, j >= 1; the border is then
 * x_i0 = r_i - sum_j 2^j x_ij ("row border" A_i, on anti-diagonal i) and
 * x_0j = s_j - sum_i x_ij ("column border" B_j, on anti-diagonal j).  Only the
 * "cells" (i, j) with r_i >= 2^j and s_j > 0 can be non-zero; they are
 * visited depth first in row-major order (column-major measured the same),
 * each bounded by the column budget left and the row budget >> j.  Per
 * anti-diagonal n, mask[n] is the OR of its cells placed so far.
 *
 * Every conflict is caught as early as the order allows, and most are never
 * generated at all:
 *  - a cell on anti-diagonal n takes only values disjoint from
 *    m = mask[n] | (A_n if row n is already complete) | (B_n if column n is);
 *    from v the next such value is ((v | m) + 1) & ~m, so clashing values
 *    are skipped in bulk rather than tested one by one;
 *  - the cell that completes row i tests A_i against mask[i] (and B_i if
 *    column i is complete), the cell that completes column j tests B_j
 *    likewise; later cells of those anti-diagonals then avoid A_i / B_j
 *    through their enumeration mask;
 *  - borders complete from the start (rows or columns without cells) are
 *    tested against each other before the walk.
 * So every leaf is a matrix with disjoint anti-diagonals: T_n = mask[n] |
 * A_n | B_n is ranked with the coin-change table (internal.h) and one output
 * bit flips.
 *
 * This walk serves single products and vectors with few set bits; a vector
 * with many goes through milnor_op.c, which shares the R side of the walk
 * between all the S.  Nothing is allocated: the cells (at most 11 x 11) and
 * budgets live on the stack of mul_core.
 */
#include <string.h>

#include "internal.h"

#define MAX_CELLS (MILNOR_MAX_LEN * MILNOR_MAX_LEN)
#define NDIAG (2 * MILNOR_MAX_LEN + 2)

static inline void flip_bit(uint64_t *out, int64_t bit)
{
    out[bit >> 6] ^= UINT64_C(1) << (bit & 63);
}

/* Per-cell constants of one product, laid out before the walk. */
typedef struct {
    uint8_t i, j;    /* position; anti-diagonal i + j */
    uint8_t fin_row; /* this cell completes row i */
    uint8_t fin_col; /* this cell completes column j */
    uint32_t use_a;  /* ~0 if row i + j is complete before this cell, else 0 */
    uint32_t use_b;  /* ~0 if column i + j is complete before this cell, else 0 */
    uint32_t row_b;  /* with fin_row: ~0 if column i is complete by now */
    uint32_t col_a;  /* with fin_col: ~0 if row j is complete by now */
} cell_t;

/*
 * out ^= Sq(R) Sq(S) for trimmed p-parts r[1..p], s[1..q] (1-based, p, q >= 1),
 * the result in degree |R| + |S| <= max degree, its bit k at off + k.
 */
static void mul_core(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r, int p,
                     const int32_t *s, int q)
{
    uint32_t rowrem[NDIAG]; /* A_i = x_i0 once row i is complete; 0 beyond p */
    uint32_t rems[NDIAG];   /* B_j = x_0j once column j is complete; 0 beyond q */
    uint32_t mask[NDIAG];
    int lastrow[NDIAG], lastcol[NDIAG]; /* last cell of each row / column, -1: none */
    cell_t cell[MAX_CELLS];
    uint32_t val[MAX_CELLS], bnd[MAX_CELLS];
    const int nd = p + q;

    for (int n = 0; n <= nd; n++) {
        rowrem[n] = n >= 1 && n <= p ? (uint32_t)r[n] : 0;
        rems[n] = n >= 1 && n <= q ? (uint32_t)s[n] : 0;
        mask[n] = 0;
        lastrow[n] = lastcol[n] = -1;
    }

    /* Lay out the cells (row-major) and their tests. */
    int K = 0;
    for (int i = 1; i <= p; i++) {
        for (int j = 1; j <= q; j++) {
            if (s[j] > 0 && (r[i] >> j) > 0) {
                cell[K].i = (uint8_t)i;
                cell[K].j = (uint8_t)j;
                lastrow[i] = lastcol[j] = K;
                K++;
            }
        }
    }
    for (int c = 0; c < K; c++) {
        cell_t *e = &cell[c];
        int i = e->i, j = e->j, n = i + j;
        e->fin_row = lastrow[i] == c;
        e->fin_col = lastcol[j] == c;
        e->use_a = n <= p && lastrow[n] < c ? ~0u : 0;
        e->use_b = n <= q && lastcol[n] < c ? ~0u : 0;
        e->row_b = i <= q && lastcol[i] <= c ? ~0u : 0;
        e->col_a = j <= p && lastrow[j] <= c ? ~0u : 0;
    }
    /* Borders complete from the start must not clash with each other. */
    for (int n = 1; n <= nd; n++)
        if (lastrow[n] < 0 && lastcol[n] < 0 && (rowrem[n] & rems[n]))
            return;

    const int nmax = nd < MILNOR_MAX_LEN ? nd : MILNOR_MAX_LEN;
    int c = 0;
    int down = 1; /* 1: enter cell c with value 0; 0: advance cell c */
    for (;;) {
        const cell_t *e;
        if (down) {
            if (c == K) {
                /* Leaf: a matrix with disjoint anti-diagonals; rank T. */
                int32_t D = (int32_t)(mask[1] | rowrem[1] | rems[1]);
                int64_t idx = 0;
                for (int n = 2; n <= nmax; n++) {
                    int32_t t = (int32_t)(mask[n] | rowrem[n] | rems[n]);
                    if (t) {
                        const int64_t *cn = milnor_cnt(A, n);
                        int32_t D2 = D + t * milnor_w(n);
                        idx += cn[D2] - cn[D];
                        D = D2;
                    }
                }
                flip_bit(out, off + idx);
                if (K == 0)
                    return;
                c = K - 1;
                down = 0;
                continue;
            }
            e = &cell[c];
            uint32_t b = rems[e->j], b2 = rowrem[e->i] >> e->j;
            bnd[c] = b < b2 ? b : b2;
            val[c] = 0;
        } else {
            e = &cell[c];
            int i = e->i, j = e->j, n = i + j;
            uint32_t v = val[c];
            rems[j] += v;
            rowrem[i] += v << j;
            uint32_t mk = mask[n] ^ v;
            uint32_t m = mk | (rowrem[n] & e->use_a) | (rems[n] & e->use_b);
            v = ((v | m) + 1) & ~m;
            if (v > bnd[c]) {
                mask[n] = mk;
                val[c] = 0;
                if (--c < 0)
                    return;
                continue;
            }
            val[c] = v;
            rems[j] -= v;
            rowrem[i] -= v << j;
            mask[n] = mk | v;
        }
        /* Tests of the borders that cell c completes. */
        int ok = 1;
        if (e->fin_row) {
            int i = e->i;
            ok = (rowrem[i] & (mask[i] | (rems[i] & e->row_b))) == 0;
        }
        if (ok && e->fin_col) {
            int j = e->j;
            ok = (rems[j] & (mask[j] | (rowrem[j] & e->col_a))) == 0;
        }
        if (ok) {
            c++;
            down = 1;
        } else {
            down = 0;
        }
    }
}

/*
 * The common special case S = Sq(s) (one column): the free entries are
 * x_i = x_i1, i = 1..p, with 2 x_i <= r_i and sum x_i <= s; anti-diagonal 1
 * is {x_10 = r_1 - 2 x_1, x_01 = s - sum x_i}, anti-diagonal i (2..p) is
 * {r_i - 2 x_i, x_{i-1}}, and p + 1 is {x_p}.  A plain depth-first loop over
 * the x_i, each tested against its predecessor as soon as it is chosen,
 * without the cell machinery of mul_core (about 3x fewer instructions per
 * node on products with |S| <= 9, the bulk of a resolution's sparse ones).
 */
static void mul_q1(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r, int p,
                   uint32_t s)
{
    uint32_t x[MILNOR_MAX_LEN + 2], left[MILNOR_MAX_LEN + 2], top[MILNOR_MAX_LEN + 2];
    const int nmax = p + 1 < MILNOR_MAX_LEN ? p + 1 : MILNOR_MAX_LEN;
    x[0] = 0;
    left[1] = s;
    int i = 1;
    x[1] = 0;
    top[1] = (uint32_t)r[1] >> 1;
    for (;;) {
        /* x[i] is a candidate for row i, with left[i] of s still free */
        if (x[i] <= top[i] && x[i] <= left[i]) {
            if (i >= 2 && (((uint32_t)r[i] - 2 * x[i]) & x[i - 1])) {
                x[i]++;
                continue;
            }
            if (i < p) {
                left[i + 1] = left[i] - x[i];
                i++;
                x[i] = 0;
                top[i] = (uint32_t)r[i] >> 1;
                continue;
            }
            /* leaf */
            uint32_t x01 = left[p] - x[p], x10 = (uint32_t)r[1] - 2 * x[1];
            if (!(x10 & x01)) {
                int32_t D = (int32_t)(x10 | x01);
                int64_t idx = 0;
                for (int n = 2; n <= nmax; n++) {
                    uint32_t t = n <= p ? (((uint32_t)r[n] - 2 * x[n]) | x[n - 1]) : x[p];
                    if (t) {
                        const int64_t *cn = milnor_cnt(A, n);
                        int32_t D2 = D + (int32_t)t * milnor_w(n);
                        idx += cn[D2] - cn[D];
                        D = D2;
                    }
                }
                flip_bit(out, off + idx);
            }
            x[i]++;
            continue;
        }
        if (--i == 0)
            return;
        x[i]++;
    }
}

/* See internal.h. */
void milnor_mul_pp(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r, int p,
                   const int32_t *s, int q)
{
    if (p == 0)
        flip_bit(out, off + milnor_rank_raw(A, s, q));
    else if (q == 0)
        flip_bit(out, off + milnor_rank_raw(A, r, p));
    else if (q == 1)
        mul_q1(A, out, off, r, p, (uint32_t)s[1]);
    else
        mul_core(A, out, off, r, p, s, q);
}

void milnor_check_degrees(const milnor_t *A, int32_t rdeg, int32_t sdeg, int64_t off)
{
    SQ_CHECK(rdeg >= 0 && sdeg >= 0 && (int64_t)rdeg + sdeg <= A->max_degree,
             "milnor product: degrees %d + %d outside 0..%d", (int)rdeg, (int)sdeg,
             (int)A->max_degree);
    SQ_CHECK(off >= 0, "milnor product: negative offset %lld", (long long)off);
}

void milnor_mul_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                    int32_t sdeg, int64_t sidx)
{
    milnor_check_degrees(A, rdeg, sdeg, off);
    SQ_CHECK(ridx >= 0 && ridx < milnor_dim(A, rdeg) && sidx >= 0 && sidx < milnor_dim(A, sdeg),
             "milnor_mul_add: index out of range");
    if (A->sub) {
        int32_t r[MILNOR_MAX_LEN], s[MILNOR_MAX_LEN];
        int p = milnor_get(A, rdeg, ridx, r, MILNOR_MAX_LEN);
        int q = milnor_get(A, sdeg, sidx, s, MILNOR_MAX_LEN);
        milnor_sub_mul_pparts_add(A, out, off, r, p, s, q);
        return;
    }
    int32_t r[MILNOR_MAX_LEN + 1], s[MILNOR_MAX_LEN + 1];
    int p = milnor_unrank_raw(A, rdeg, ridx, r);
    int q = milnor_unrank_raw(A, sdeg, sidx, s);
    milnor_mul_pp(A, out, off, r, p, s, q);
}

void milnor_mul_pparts_add(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r,
                           int rlen, const int32_t *s, int slen)
{
    SQ_CHECK(rlen >= 0 && slen >= 0 && off >= 0, "milnor_mul_pparts_add: bad argument");
    for (int i = 0; i < rlen; i++)
        SQ_CHECK(r[i] >= 0, "milnor_mul_pparts_add: negative entry");
    for (int i = 0; i < slen; i++)
        SQ_CHECK(s[i] >= 0, "milnor_mul_pparts_add: negative entry");
    while (rlen > 0 && r[rlen - 1] == 0)
        rlen--;
    while (slen > 0 && s[slen - 1] == 0)
        slen--;
    int32_t rd = milnor_pdegree(r, rlen), sd = milnor_pdegree(s, slen);
    SQ_CHECK((int64_t)rd + sd <= A->max_degree, "milnor_mul_pparts_add: degree too large");
    if (A->sub) {
        milnor_sub_mul_pparts_add(A, out, off, r, rlen, s, slen);
        return;
    }
    int32_t r1[MILNOR_MAX_LEN + 1], s1[MILNOR_MAX_LEN + 1];
    memcpy(r1 + 1, r, (size_t)rlen * sizeof *r);
    memcpy(s1 + 1, s, (size_t)slen * sizeof *s);
    milnor_mul_pp(A, out, off, r1, rlen, s1, slen);
}
