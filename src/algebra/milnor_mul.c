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
 * x_i0 = r_i - sum_j 2^j x_ij and x_0j = s_j - sum_i x_ij.  We visit the
 * "cells" (i, j) with r_i >= 2^j and s_j > 0 (every other free entry is 0)
 * row by row, columns increasing, depth first.  mask[n] holds the OR of the
 * free entries placed so far on anti-diagonal n, and a cell only takes values
 * disjoint from it: from v, the next such value is ((v | m) + 1) & ~m, so
 * values with a clashing bit are never generated, which is what makes the
 * walk cheap (zero terms are skipped in bulk, not tested one by one).  Each
 * cell is bounded by the column budget left and by the row budget >> j.
 *
 * Pruning with the border, as soon as an anti-diagonal is complete:
 *  - at the end of row i, x_i0 is known and every other free entry of
 *    anti-diagonal i lies in an earlier row: test x_i0 & mask[i];
 *  - in the last row P that has cells, once (P, j) is placed column j and
 *    all of anti-diagonal j except perhaps x_P0 are known: test x_0j
 *    against everything else on it (j != P; anti-diagonal P is tested at the
 *    end of row P).
 * At a leaf every anti-diagonal is tested in full (cheap, and it covers rows
 * and columns that have no cells), T is formed and ranked with the
 * coin-change table (internal.h), and one output bit flips.
 *
 * Nothing is allocated: the cells (at most 11 x 11) and budgets live on the
 * stack of mul_core.
 */
#include <string.h>

#include "internal.h"

#define MAX_CELLS (MILNOR_MAX_LEN * MILNOR_MAX_LEN)

enum {
    CELL_ROW_END = 1,  /* last cell of a row other than P: test x_i0 vs mask[i] */
    CELL_LAST_END = 2, /* last cell of row P: test anti-diagonal P in full */
    CELL_COL = 4       /* a cell (P, j), j != P: test anti-diagonal j in full */
};

static inline void flip_bit(uint64_t *out, int64_t bit)
{
    out[bit >> 6] ^= UINT64_C(1) << (bit & 63);
}

/* 1 iff m, a, b have pairwise disjoint bits. */
static inline int disjoint3(uint32_t m, uint32_t a, uint32_t b)
{
    return ((m & a) | (m & b) | (a & b)) == 0;
}

/*
 * out ^= Sq(R) Sq(S) for trimmed p-parts r[1..p], s[1..q] (1-based, p, q >= 1),
 * the result in degree |R| + |S| <= max degree, its bit k at off + k.
 */
static void mul_core(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r, int p,
                     const int32_t *s, int q)
{
    uint32_t rowrem[MILNOR_MAX_LEN + 1]; /* x_i0 once row i is done */
    uint32_t rems[MILNOR_MAX_LEN + 1];   /* x_0j once column j is done */
    uint32_t mask[2 * MILNOR_MAX_LEN + 2];
    uint8_t ci[MAX_CELLS], cj[MAX_CELLS], fl[MAX_CELLS];
    uint32_t val[MAX_CELLS], bnd[MAX_CELLS];

    for (int i = 1; i <= p; i++)
        rowrem[i] = (uint32_t)r[i];
    for (int j = 1; j <= q; j++)
        rems[j] = (uint32_t)s[j];
    for (int n = 1; n <= p + q; n++)
        mask[n] = 0;

    /* Lay out the cells and their tests. */
    int K = 0, P = 0;
    for (int i = 1; i <= p; i++) {
        int first = K;
        for (int j = 1; j <= q; j++) {
            if (s[j] > 0 && (r[i] >> j) > 0) {
                ci[K] = (uint8_t)i;
                cj[K] = (uint8_t)j;
                fl[K] = 0;
                K++;
            }
        }
        if (K > first) {
            fl[K - 1] = CELL_ROW_END;
            P = i;
        }
    }
    if (K > 0) {
        for (int c = K - 1; c >= 0 && ci[c] == P; c--)
            if (cj[c] != P)
                fl[c] |= CELL_COL;
        fl[K - 1] = (uint8_t)((fl[K - 1] & ~CELL_ROW_END) | CELL_LAST_END);
    }

    const int nmax = p + q < MILNOR_MAX_LEN ? p + q : MILNOR_MAX_LEN;
    int c = 0;
    int down = 1; /* 1: enter cell c with value 0; 0: advance cell c */
    for (;;) {
        int i, j, ok;
        uint32_t v;
        if (down) {
            if (c == K) {
                /* Leaf: full test of every anti-diagonal, then rank T. */
                int64_t idx = 0;
                int32_t D = 0;
                int good = 1;
                for (int n = 1; n <= nmax; n++) {
                    uint32_t a = n <= p ? rowrem[n] : 0, b = n <= q ? rems[n] : 0;
                    uint32_t m = mask[n];
                    if (!disjoint3(m, a, b)) {
                        good = 0;
                        break;
                    }
                    int32_t t = (int32_t)(m | a | b);
                    if (n == 1) {
                        D = t;
                    } else {
                        const int64_t *cn = milnor_cnt(A, n);
                        int32_t D2 = D + t * milnor_w(n);
                        idx += cn[D2] - cn[D];
                        D = D2;
                    }
                }
                if (good)
                    flip_bit(out, off + idx);
                if (K == 0)
                    return;
                c = K - 1;
                down = 0;
                continue;
            }
            i = ci[c];
            j = cj[c];
            uint32_t b = rems[j], b2 = rowrem[i] >> j;
            bnd[c] = b < b2 ? b : b2;
            val[c] = 0;
        } else {
            i = ci[c];
            j = cj[c];
            v = val[c];
            rems[j] += v;
            rowrem[i] += v << j;
            uint32_t m = mask[i + j] ^ v;
            v = ((v | m) + 1) & ~m;
            if (v > bnd[c]) {
                mask[i + j] = m;
                val[c] = 0;
                if (--c < 0)
                    return;
                continue;
            }
            val[c] = v;
            rems[j] -= v;
            rowrem[i] -= v << j;
            mask[i + j] = m | v;
        }
        /* Tests that became possible with cell c placed. */
        ok = 1;
        uint8_t f = fl[c];
        if (f) {
            if (f & CELL_ROW_END)
                ok = (rowrem[i] & mask[i]) == 0;
            if (ok && (f & CELL_COL))
                ok = disjoint3(mask[j], j <= p ? rowrem[j] : 0, rems[j]);
            if (ok && (f & CELL_LAST_END))
                ok = disjoint3(mask[P], rowrem[P], P <= q ? rems[P] : 0);
        }
        if (ok) {
            c++;
            down = 1;
        } else {
            down = 0;
        }
    }
}

/* out ^= Sq(R) Sq(S) for trimmed 1-based p-parts of lengths p, q >= 0. */
static inline void mul_pp(const milnor_t *A, uint64_t *out, int64_t off, const int32_t *r, int p,
                          const int32_t *s, int q)
{
    if (p == 0)
        flip_bit(out, off + milnor_rank_raw(A, s, q));
    else if (q == 0)
        flip_bit(out, off + milnor_rank_raw(A, r, p));
    else
        mul_core(A, out, off, r, p, s, q);
}

static void check_degrees(const milnor_t *A, int32_t rdeg, int32_t sdeg, int64_t off)
{
    SQ_CHECK(rdeg >= 0 && sdeg >= 0 && (int64_t)rdeg + sdeg <= A->max_degree,
             "milnor product: degrees %d + %d outside 0..%d", (int)rdeg, (int)sdeg,
             (int)A->max_degree);
    SQ_CHECK(off >= 0, "milnor product: negative offset %lld", (long long)off);
}

void milnor_mul_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                    int32_t sdeg, int64_t sidx)
{
    check_degrees(A, rdeg, sdeg, off);
    SQ_CHECK(ridx >= 0 && ridx < milnor_dim(A, rdeg) && sidx >= 0 && sidx < milnor_dim(A, sdeg),
             "milnor_mul_add: index out of range");
    int32_t r[MILNOR_MAX_LEN + 1], s[MILNOR_MAX_LEN + 1];
    int p = milnor_unrank_raw(A, rdeg, ridx, r);
    int q = milnor_unrank_raw(A, sdeg, sidx, s);
    mul_pp(A, out, off, r, p, s, q);
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
    int32_t r1[MILNOR_MAX_LEN + 1], s1[MILNOR_MAX_LEN + 1];
    memcpy(r1 + 1, r, (size_t)rlen * sizeof *r);
    memcpy(s1 + 1, s, (size_t)slen * sizeof *s);
    mul_pp(A, out, off, r1, rlen, s1, slen);
}

void milnor_op_init(milnor_op_t *op, const milnor_t *A, int32_t rdeg, int64_t ridx)
{
    SQ_CHECK(rdeg >= 0 && rdeg <= A->max_degree && ridx >= 0 && ridx < milnor_dim(A, rdeg),
             "milnor_op_init: element %lld of degree %d out of range", (long long)ridx, (int)rdeg);
    op->A = A;
    op->deg = rdeg;
    op->len = milnor_unrank_raw(A, rdeg, ridx, op->r);
    op->r[0] = 0;
}

/*
 * Visiting the set bits of v in increasing order, the p-part of each is
 * obtained from the previous one by stepping milnor_next_raw (O(len) each)
 * when the gap is small, and by unranking afresh (O(len log d)) otherwise.
 * STEP_MAX is the largest gap bridged by stepping; unranking costs about as
 * much as 8 steps in degrees 50-200 (bench/b-milnor.c), and the product
 * itself dominates either way.
 */
#define STEP_MAX 8

void milnor_op_mul_vec_add(const milnor_op_t *op, uint64_t *out, int64_t off, int32_t sdeg,
                           const uint64_t *v)
{
    const milnor_t *A = op->A;
    check_degrees(A, op->deg, sdeg, off);
    int64_t dim = milnor_dim(A, sdeg);
    int64_t nlimbs = (dim + 63) / 64;
    int32_t s[MILNOR_MAX_LEN + 1];
    int q = 0;
    int64_t cur = -1; /* index whose p-part s holds, -1: none yet */
    for (int64_t l = 0; l < nlimbs; l++) {
        uint64_t word = v[l];
        if (l == nlimbs - 1 && (dim & 63))
            word &= (UINT64_C(1) << (dim & 63)) - 1;
        while (word) {
            int64_t k = l * 64 + __builtin_ctzll(word);
            word &= word - 1;
            if (cur >= 0 && k - cur <= STEP_MAX) {
                for (; cur < k; cur++)
                    milnor_next_raw(s, &q);
            } else {
                q = milnor_unrank_raw(A, sdeg, k, s);
                cur = k;
            }
            mul_pp(A, out, off, op->r, op->len, s, q);
        }
    }
}

void milnor_mul_vec_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg,
                        int64_t ridx, int32_t sdeg, const uint64_t *v)
{
    milnor_op_t op;
    milnor_op_init(&op, A, rdeg, ridx);
    milnor_op_mul_vec_add(&op, out, off, sdeg, v);
}
