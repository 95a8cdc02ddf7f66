/*
 * gpu_milnor.c -- the Milnor data the device kernels read, built on the host:
 * the coin-change table for ranking, packed p-parts and the
 * R-configurations of a left factor ("operation by element").
 *
 * The R-configurations (the idea of src/algebra/milnor_op.c, written again
 * here for the packed layout of gpu_kernels.h, which the algebra layer keeps
 * private).  A Milnor matrix X of Sq(R) Sq(S) has rows i >= 1 indexed by R
 * (x_i0 = r_i - sum_j 2^j x_ij) and a top row x_0j = s_j - c_j, where
 * c_j = sum_{i>=1} x_ij are the column sums of the R side.  The R side
 * depends on S only through c, so it is enumerated once per R: each
 * R-side matrix whose anti-diagonals have pairwise disjoint binary digits
 * (the coefficient mod 2, Lucas) and whose column sums have degree
 * sum_j c_j (2^j - 1) <= bound is one configuration, kept as two packed
 * words: c (field j = c_j) and D (field n = OR of the R-side entries on
 * anti-diagonal n).  A term S then completes it iff c <= s and
 * (s_j - c_j) & D_j == 0 for every j, giving T_n = (s_n - c_n) | D_n.
 *
 * Why the fields never overflow: the R side of a matrix has degree
 * sum x_ij (2^{i+j} - 1) = |R| + deg c (as 2^{i+j} - 1 = 2^j (2^i - 1) +
 * (2^j - 1)), so every entry on anti-diagonal n is at most
 * (|R| + bound) / (2^n - 1) <= 511 / (2^n - 1), which fits field n; and no
 * entry may sit on an anti-diagonal above 9 (2^10 - 1 > 511).
 */
#include <string.h>

#include "gpu_internal.h"

void gpu_cnt_table(int64_t *cnt)
{
    const int64_t W = SQ_GPU_CNT_STRIDE;
    for (int64_t d = 0; d < W; d++)
        cnt[d] = d == 0;
    for (int k = 1; k < SQ_GPU_CNT_ROWS; k++) {
        int64_t w = (INT64_C(1) << k) - 1;
        for (int64_t d = 0; d < W; d++)
            cnt[k * W + d] = cnt[(k - 1) * W + d] + (d >= w ? cnt[k * W + d - w] : 0);
    }
}

uint64_t gpu_pack(const int32_t *s, int len)
{
    uint64_t p = 0;
    for (int j = 1; j <= len && j <= SQ_GK_NF; j++)
        p |= (uint64_t)s[j - 1] << sq_gk_shift(j);
    return p;
}

typedef struct {
    const int32_t *r; /* r[1..len], 1-based */
    int len;
    int32_t bound;
    uint64_t *c, *d;
    int64_t n, cap;
} cfg_gen_t;

static int cfg_row(cfg_gen_t *g, int i, uint64_t c, uint64_t D, int32_t deg);

/* Row i, columns j.. with rem of r_i left to place (entries so far in c, D). */
static int cfg_col(cfg_gen_t *g, int i, int j, int32_t rem, uint64_t c, uint64_t D, int32_t deg)
{
    int32_t w = (int32_t)((1u << j) - 1u);
    if (i + j > SQ_GK_NF || (rem >> j) == 0 || w > g->bound - deg) {
        /* No further entry in this row: x_i0 = rem, on anti-diagonal i. */
        uint64_t x0 = (uint64_t)rem << sq_gk_shift(i);
        if (D & x0)
            return 0;
        return cfg_row(g, i + 1, c, D | x0, deg);
    }
    for (int32_t x = 0; (x << j) <= rem && deg + x * w <= g->bound; x++) {
        uint64_t e = (uint64_t)x << sq_gk_shift(i + j);
        if (D & e)
            continue;
        if (cfg_col(g, i, j + 1, rem - (x << j), c + ((uint64_t)x << sq_gk_shift(j)), D | e,
                    deg + x * w) < 0)
            return -1;
    }
    return 0;
}

static int cfg_row(cfg_gen_t *g, int i, uint64_t c, uint64_t D, int32_t deg)
{
    if (i > g->len) {
        if (g->n == g->cap)
            return -1;
        g->c[g->n] = c;
        g->d[g->n] = D;
        g->n++;
        return 0;
    }
    return cfg_col(g, i, 1, g->r[i], c, D, deg);
}

int64_t gpu_configs(const int32_t *r, int len, int32_t bound, uint64_t *c, uint64_t *d, int64_t cap)
{
    int32_t r1[MILNOR_MAX_LEN + 2] = {0};
    if (len > SQ_GK_NF)
        return -1;
    for (int i = 0; i < len; i++)
        r1[i + 1] = r[i];
    cfg_gen_t g = {r1, len, bound, c, d, 0, cap};
    if (cfg_row(&g, 1, 0, 0, 0) < 0)
        return -1;
    return g.n;
}

void gpu_configs_sort(uint64_t *c, uint64_t *d, int64_t n, int32_t bound, int32_t *upto,
                      uint64_t *tc, uint64_t *td)
{
    for (int32_t x = 0; x <= bound + 1; x++)
        upto[x] = 0;
    for (int64_t k = 0; k < n; k++)
        upto[(c[k] & 511) + 1]++;
    for (int32_t x = 1; x <= bound + 1; x++)
        upto[x] += upto[x - 1];
    /* upto[x] is now the first slot of key x; place, then shift back. */
    for (int64_t k = 0; k < n; k++) {
        int32_t key = (int32_t)(c[k] & 511);
        int64_t to = upto[key]++;
        tc[to] = c[k];
        td[to] = d[k] | SQ_GK_GUARD;
    }
    for (int32_t x = bound + 1; x > 0; x--)
        upto[x] = upto[x - 1];
    upto[0] = 0;
    memcpy(c, tc, (size_t)n * sizeof *c);
    memcpy(d, td, (size_t)n * sizeof *d);
}
