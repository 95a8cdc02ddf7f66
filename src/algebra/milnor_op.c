/*
 * milnor_op.c -- Sq(R) * v: the product by one element applied to a vector
 * ("operation by element"), the hot path of the resolution.
 *
 * Split the Milnor matrix of Sq(R) Sq(S) (milnor_mul.c) into its R side,
 * the rows i >= 1 including the border x_i0, and the top row x_0j.  The R
 * side does not depend on S except through its column sums c_j =
 * sum_{i>=1} x_ij, and then x_0j = s_j - c_j.  So, once per call:
 *
 *   enumerate the "R-configurations": R-side matrices whose row sums match
 *   R, whose anti-diagonals are disjoint among themselves, and whose column
 *   sums have degree sum_j c_j (2^j - 1) <= |S|; keep each as two packed
 *   words, c (the column sums) and D (D_n = OR of its entries on
 *   anti-diagonal n).
 *
 * and then, for each S set in v, each configuration contributes Sq(T) iff
 * c_j <= s_j for all j and (s_j - c_j) & D_j == 0, with T_j = (s_j - c_j) | D_j.
 * With the packed layout below this test is a subtraction and two masks:
 *
 *      diff = (s | G) - c      G: a guard bit above every field; no field
 *      ok   = (diff & G) == G       borrows from its neighbour, and field j
 *          && (diff & D & ~G) == 0  keeps its guard iff s_j >= c_j
 *      T    = (diff & ~G) | D
 *
 * The R side of every such matrix has degree |R| + deg(c) <= |R| + |S|, so
 * the packed fields never overflow.
 *
 * Packed layout (fields n = 1..9 for positions 1..9, valid while the product
 * degree |R| + |S| <= PK_MAXDEG = 511; field n holds values up to
 * 511 / (2^n - 1), and one guard bit sits above it):
 *
 *      bit:  0      9 10      18 19     26 27    33 34   39 40  44 45 48 49 51 52 53
 *            |  n=1 |G|  n=2  |G|  n=3  |G| n=4  |G| n=5 |G| n=6|G|n=7|G|n8|G|9|G|
 *
 * When it pays (CUTOFFs below): the configurations cost about one matrix
 * walk (milnor_mul.c) each to build, and afterwards each S costs a scan of
 * cheap tests; a walk per S costs a few hundred nodes for R of degree ~120
 * (bench/b-milnor.c).  Otherwise, or for degrees above 511, or when the
 * configurations do not fit the stack buffer, each S gets its own walk.
 */
#include "internal.h"

#define PK_MAXDEG 511
#define PK_NF 9

/* Field n (1..9): shift and value-bit mask; its guard bit sits just below
 * pk_shift[n + 1].  pk_shift[10] is the end of the layout. */
static const uint8_t pk_shift[PK_NF + 2] = {0, 0, 10, 19, 27, 34, 40, 45, 49, 52, 54};
static const uint16_t pk_vmask[PK_NF + 1] = {0, 511, 255, 127, 63, 31, 15, 7, 3, 1};
#define PK_GUARD                                                                                   \
    ((UINT64_C(1) << 9) | (UINT64_C(1) << 18) | (UINT64_C(1) << 26) | (UINT64_C(1) << 33) |        \
     (UINT64_C(1) << 39) | (UINT64_C(1) << 44) | (UINT64_C(1) << 48) | (UINT64_C(1) << 51) |       \
     (UINT64_C(1) << 53))

/*
 * CFG_CAP: configurations kept on the stack (16 bytes each, 32 KB).  Above
 * it the call falls back to one walk per S.  With degrees <= 200 the average
 * count is in the hundreds and the largest seen in the bench is ~3000 (R of
 * degree 100 and |S| = 50), so the fallback is rare.
 */
#define CFG_CAP 2048

/*
 * CFG_MIN_BITS: the configuration path is taken when v has at least this
 * many set bits.  Building the configurations costs about as much as 1-2
 * walks (bench/b-milnor.c, cases vec_*_1 vs rows_*), so from two products on
 * it wins.
 */
#define CFG_MIN_BITS 2

typedef struct {
    uint64_t c; /* packed column sums */
    uint64_t d; /* packed anti-diagonal ORs of the R side */
} cfg_t;

static inline void flip_bit(uint64_t *out, int64_t bit)
{
    out[bit >> 6] ^= UINT64_C(1) << (bit & 63);
}

/* Index of the packed p-part T (degree <= 511) in its degree. */
static inline int64_t rank_packed(const milnor_t *A, uint64_t T)
{
    int32_t D = (int32_t)(T & 511);
    int64_t idx = 0;
    T >>= pk_shift[2];
    for (int n = 2; T; n++) {
        int32_t t = (int32_t)(T & pk_vmask[n]);
        if (t) {
            const int64_t *cn = milnor_cnt(A, n);
            int32_t D2 = D + t * milnor_w(n);
            idx += cn[D2] - cn[D];
            D = D2;
        }
        T >>= pk_shift[n + 1] - pk_shift[n];
    }
    return idx;
}

/*
 * Building the R-configurations row by row.  Row i of one is a "row vector"
 * (x_i1, ..., x_iq) with sum_j 2^j x_ij <= r_i, and x_i0 = r_i - that sum.
 * Packed, a row vector is c (x_ij in field j: its share of the column sums),
 * d (x_i0 in field i, x_ij in field i + j: its entries in their anti-diagonal
 * fields) and deg = sum_j x_ij (2^j - 1).  The entries of one row lie on
 * distinct anti-diagonals, so an R-configuration is exactly one row vector
 * per row with pairwise disjoint d's (field n of d_a & d_b is the overlap of
 * two entries of anti-diagonal n) and degrees summing to <= |S|; its c is the
 * sum of the c's and its D the OR of the d's.  Entries on anti-diagonals
 * above 9 are never allowed (2^10 - 1 > PK_MAXDEG), which also keeps every
 * field in range.
 *
 * ROWV_CAP: row vectors kept on the stack over all rows (18 bytes each).
 * Rows with r_i of about 100 and |S| of about 100 give a few hundred.
 */
#define ROWV_CAP 1024

typedef struct {
    int64_t n, cap;
    uint64_t *c, *d;
    uint16_t *deg;
} rowv_t;

typedef struct {
    int32_t sdeg;
    int i;       /* the row being listed */
    int qi;      /* its last usable column */
    int overflow;
} rowgen_t;

static void gen_row(rowgen_t *g, rowv_t *L, int j, uint32_t rem, int32_t deg, uint64_t c,
                    uint64_t d)
{
    if (j > g->qi) {
        if (L->n == L->cap) {
            g->overflow = 1;
            return;
        }
        L->c[L->n] = c;
        L->d[L->n] = d | ((uint64_t)rem << pk_shift[g->i]);
        L->deg[L->n] = (uint16_t)deg;
        L->n++;
        return;
    }
    int32_t w = milnor_w(j);
    for (uint32_t x = 0; (x << j) <= rem && deg + (int32_t)x * w <= g->sdeg && !g->overflow; x++)
        gen_row(g, L, j + 1, rem - (x << j), deg + (int32_t)x * w, c + ((uint64_t)x << pk_shift[j]),
                d + ((uint64_t)x << pk_shift[g->i + j]));
}

typedef struct {
    int nrows;
    int64_t start[PK_NF + 1], end[PK_NF + 1]; /* row vectors of level k */
    const rowv_t *L;
    int32_t sdeg;
    cfg_t *cfg;
    int64_t n, cap;
} comb_t;

/* Appends every completion of the partial configuration (c, d, deg) on
 * levels k.. to cb->cfg; returns -1 on overflow. */
static int combine(comb_t *cb, int k, uint64_t c, uint64_t d, int32_t deg)
{
    const rowv_t *L = cb->L;
    if (k == cb->nrows - 1) {
        for (int64_t e = cb->start[k]; e < cb->end[k]; e++) {
            if ((d & L->d[e]) || deg + L->deg[e] > cb->sdeg)
                continue;
            if (cb->n == cb->cap)
                return -1;
            cb->cfg[cb->n].c = c + L->c[e];
            cb->cfg[cb->n].d = d | L->d[e];
            cb->n++;
        }
        return 0;
    }
    for (int64_t e = cb->start[k]; e < cb->end[k]; e++) {
        if ((d & L->d[e]) || deg + L->deg[e] > cb->sdeg)
            continue;
        if (combine(cb, k + 1, c + L->c[e], d | L->d[e], deg + L->deg[e]) < 0)
            return -1;
    }
    return 0;
}

/* The R-configurations of op's R (length >= 1, |R| + sdeg <= PK_MAXDEG) with
 * column-sum degree <= sdeg, into cfg[0..]; returns their number, or -1 if
 * they (or the row vectors) do not fit. */
static int64_t build_configs(const milnor_op_t *op, int32_t sdeg, cfg_t *cfg, int64_t cap)
{
    uint64_t lc[ROWV_CAP], ld[ROWV_CAP];
    uint16_t ldeg[ROWV_CAP];
    rowv_t L = {0, ROWV_CAP, lc, ld, ldeg};
    comb_t cb;
    cb.nrows = 0;
    for (int i = 1; i <= op->len; i++) {
        rowgen_t g = {sdeg, i, 0, 0};
        while (g.qi < PK_NF && i + g.qi + 1 <= PK_NF && (op->r[i] >> (g.qi + 1)) > 0 &&
               milnor_w(g.qi + 1) <= sdeg)
            g.qi++;
        int64_t first = L.n;
        gen_row(&g, &L, 1, (uint32_t)op->r[i], 0, 0, 0);
        if (g.overflow)
            return -1;
        cb.start[cb.nrows] = first;
        cb.end[cb.nrows] = L.n;
        cb.nrows++;
    }
    cb.L = &L;
    cb.sdeg = sdeg;
    cb.cfg = cfg;
    cb.n = 0;
    cb.cap = cap;
    if (combine(&cb, 0, 0, 0, 0) < 0)
        return -1;
    return cb.n;
}

/* Iterates over the set bits of v (dim bits) in increasing order, keeping
 * the p-part of the current one in s[1..q]. */
typedef struct {
    const milnor_t *A;
    const uint64_t *v;
    int64_t dim, nlimbs, limb, cur;
    uint64_t word;
    int32_t deg;
    int q;
    int32_t s[MILNOR_MAX_LEN + 1];
} siter_t;

/*
 * STEP_MAX: the p-part of the next set bit is obtained by stepping
 * milnor_next_raw (O(len) each) when the gap is at most STEP_MAX, and by
 * unranking afresh (O(len log d)) otherwise; one unranking costs about as
 * much as 8 steps in degrees 50-200 (bench/b-milnor.c, get_index_150).
 */
#define STEP_MAX 8

static void siter_init(siter_t *it, const milnor_t *A, int32_t deg, const uint64_t *v)
{
    it->A = A;
    it->v = v;
    it->deg = deg;
    it->dim = milnor_dim(A, deg);
    it->nlimbs = (it->dim + 63) / 64;
    it->limb = -1;
    it->word = 0;
    it->cur = -1;
    it->q = 0;
}

static inline int siter_next(siter_t *it)
{
    while (!it->word) {
        if (++it->limb >= it->nlimbs)
            return 0;
        it->word = it->v[it->limb];
        if (it->limb == it->nlimbs - 1 && (it->dim & 63))
            it->word &= (UINT64_C(1) << (it->dim & 63)) - 1;
    }
    int64_t k = it->limb * 64 + __builtin_ctzll(it->word);
    it->word &= it->word - 1;
    if (it->cur >= 0 && k - it->cur <= STEP_MAX) {
        for (; it->cur < k; it->cur++)
            milnor_next_raw(it->s, &it->q);
    } else {
        it->q = milnor_unrank_raw(it->A, it->deg, k, it->s);
        it->cur = k;
    }
    return 1;
}

static int64_t count_bits(const uint64_t *v, int64_t dim)
{
    int64_t n = 0, full = dim / 64;
    for (int64_t l = 0; l < full; l++)
        n += __builtin_popcountll(v[l]);
    if (dim & 63)
        n += __builtin_popcountll(v[full] & ((UINT64_C(1) << (dim & 63)) - 1));
    return n;
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

void milnor_op_mul_vec_add(const milnor_op_t *op, uint64_t *out, int64_t off, int32_t sdeg,
                           const uint64_t *v)
{
    const milnor_t *A = op->A;
    milnor_check_degrees(A, op->deg, sdeg, off);
    siter_t it;
    siter_init(&it, A, sdeg, v);

    if (op->len > 0 && sdeg > 0 && op->deg + sdeg <= PK_MAXDEG &&
        count_bits(v, it.dim) >= CFG_MIN_BITS) {
        cfg_t cfg[CFG_CAP];
        int64_t ncfg = build_configs(op, sdeg, cfg, CFG_CAP);
        if (ncfg >= 0) {
            while (siter_next(&it)) {
                uint64_t sg = PK_GUARD;
                for (int j = 1; j <= it.q; j++)
                    sg |= (uint64_t)it.s[j] << pk_shift[j];
                for (int64_t k = 0; k < ncfg; k++) {
                    uint64_t diff = sg - cfg[k].c;
                    if ((diff & PK_GUARD) != PK_GUARD)
                        continue;
                    uint64_t b = diff & ~PK_GUARD;
                    if (b & cfg[k].d)
                        continue;
                    flip_bit(out, off + rank_packed(A, b | cfg[k].d));
                }
            }
            return;
        }
    }
    while (siter_next(&it))
        milnor_mul_pp(A, out, off, op->r, op->len, it.s, it.q);
}

void milnor_mul_vec_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg,
                        int64_t ridx, int32_t sdeg, const uint64_t *v)
{
    milnor_op_t op;
    milnor_op_init(&op, A, rdeg, ridx);
    milnor_op_mul_vec_add(&op, out, off, sdeg, v);
}
