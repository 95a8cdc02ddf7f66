/*
 * pair_algebra.c -- the secondary Steenrod algebra at p = 2 (pair_algebra.h
 * has the formulas; docs/secondary.md the mathematics).
 *
 * The sigma part of a product is Milnor's formula taken over the integers
 * and reduced mod 4: every Milnor matrix within the row and column budgets
 * is visited depth first, and its coefficient is the product over the
 * anti-diagonals of their multinomial coefficients, each a product of
 * binomial coefficients read from a table mod 4 (a matrix whose partial
 * product is 0 mod 4 is dropped at once).  The Y part and A(a, x) are mod 2
 * products of p-parts (milnor_mul_pparts_add, milnor_mul_vec_add).
 */
#include "pair_algebra.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sq_core.h"

/* Longest p-part met: positions up to k + i <= 11 for degrees <= 2047. */
#define PLEN 24

/* The layout of one degree (pair_layout), computed once in pairalg_new. */
typedef struct {
    int n;
    int64_t off[PAIR_MAX_SLOTS + 1];
    int8_t k[PAIR_MAX_SLOTS], l[PAIR_MAX_SLOTS];
} layout_t;

struct pairalg {
    const milnor_t *A;
    int32_t maxd;
    uint8_t *binom;  /* row n at n (n + 1) / 2, entries 0..n, mod 4 */
    layout_t *lay;   /* [D], 0 <= D <= maxd */
};

static int layout_compute(const milnor_t *A, int32_t D, int64_t *off, int8_t *k, int8_t *l);

pairalg_t *pairalg_new(const milnor_t *A)
{
    int32_t h[MILNOR_MAX_LEN];
    SQ_CHECK(milnor_profile(A, h) == 0, "pairalg_new: the whole algebra only");
    pairalg_t *P = sq_calloc(1, sizeof *P);
    P->A = A;
    P->maxd = milnor_max_degree(A);
    size_t n = (size_t)P->maxd + 1;
    P->binom = sq_malloc(sq_mul_size(n, n + 1) / 2);
    for (size_t r = 0; r < n; r++) {
        uint8_t *row = P->binom + r * (r + 1) / 2;
        const uint8_t *up = r ? P->binom + (r - 1) * r / 2 : NULL;
        row[0] = row[r] = 1;
        for (size_t k = 1; k < r; k++)
            row[k] = (uint8_t)((up[k - 1] + up[k]) & 3u);
    }
    P->lay = sq_malloc(n * sizeof *P->lay);
    for (size_t d = 0; d < n; d++) {
        layout_t *L = &P->lay[d];
        L->n = layout_compute(A, (int32_t)d, L->off, L->k, L->l);
    }
    return P;
}

void pairalg_free(pairalg_t *P)
{
    if (!P)
        return;
    sq_free(P->binom);
    sq_free(P->lay);
    sq_free(P);
}

const milnor_t *pairalg_milnor(const pairalg_t *P)
{
    return P->A;
}

uint32_t pair_binom4(const pairalg_t *P, int32_t n, int32_t k)
{
    if (k < 0 || k > n || n < 0)
        return 0;
    SQ_CHECK(n <= P->maxd, "pair_binom4: %d beyond the table", (int)n);
    return P->binom[(size_t)n * ((size_t)n + 1) / 2 + (size_t)k];
}

/* ---- Layout ------------------------------------------------------------------ */

static int64_t limbs_of(int64_t bits)
{
    return (bits + 63) / 64;
}

int pair_layout(const pairalg_t *P, int32_t D, int64_t *off, int8_t *k, int8_t *l)
{
    if (D >= 0 && D <= P->maxd) { /* the table */
        const layout_t *L = &P->lay[D];
        memcpy(off, L->off, (size_t)(L->n + 1) * sizeof *off);
        if (k)
            memcpy(k + 1, L->k + 1, (size_t)(L->n - 1) * sizeof *k);
        if (l)
            memcpy(l + 1, L->l + 1, (size_t)(L->n - 1) * sizeof *l);
        return L->n;
    }
    return layout_compute(P->A, D, off, k, l);
}

static int layout_compute(const milnor_t *A, int32_t D, int64_t *off, int8_t *k, int8_t *l)
{
    int n = 1;
    off[0] = 0;
    off[1] = limbs_of(milnor_dim(A, D));
    for (int a = 0; a < 11; a++)
        for (int b = a + 1; b < 12; b++) {
            int64_t d = (int64_t)D + 1 - ((int64_t)1 << a) - ((int64_t)1 << b);
            if (d < 0)
                continue;
            SQ_CHECK(n < PAIR_MAX_SLOTS, "pair_layout: too many slots");
            if (k)
                k[n] = (int8_t)a;
            if (l)
                l[n] = (int8_t)b;
            off[n + 1] = off[n] + limbs_of(milnor_dim(A, (int32_t)d));
            n++;
        }
    return n;
}

/* The slot of Y_{a,b} in the layout of degree D (-1: none). */
static int slot_of(int32_t D, int a, int b)
{
    int n = 1;
    for (int x = 0; x < 11; x++)
        for (int y = x + 1; y < 12; y++) {
            if ((int64_t)D + 1 - ((int64_t)1 << x) - ((int64_t)1 << y) < 0)
                continue;
            if (x == a && y == b)
                return n;
            n++;
        }
    return -1;
}

void pair_elt_init(pair_elt_t *e, const pairalg_t *P, int32_t D)
{
    int64_t off[PAIR_MAX_SLOTS + 1];
    int n = pair_layout(P, D, off, NULL, NULL);
    e->deg = D;
    e->nlimbs = off[n];
    e->tlimbs = off[1];
    e->v = sq_calloc((size_t)off[n] + 1, sizeof *e->v);
    e->ones = sq_calloc((size_t)off[1] + 1, sizeof *e->ones);
}

void pair_elt_clear(pair_elt_t *e)
{
    sq_free(e->v);
    sq_free(e->ones);
    memset(e, 0, sizeof *e);
}

int pair_elt_finish(pair_elt_t *e)
{
    if (e->ones) {
        for (int64_t i = 0; i < e->tlimbs; i++)
            if (e->ones[i])
                return SQ_E_INVAL;
        sq_free(e->ones);
        e->ones = NULL;
    }
    return 0;
}

int pair_elt_is_zero(const pair_elt_t *e)
{
    for (int64_t i = 0; i < e->nlimbs; i++)
        if (e->v[i])
            return 0;
    return 1;
}

/* ---- The sigma part: Milnor's formula mod 4 ------------------------------------ */

/* A walk over the Milnor matrices of (R, S): x[i][j], i = 1..p rows of R,
 * j = 1..q columns of S; x[i][0] and x[0][j] are what is left of r_i and
 * s_j.  The coefficient of a matrix is the product over the diagonals of
 * their multinomial coefficients; its 2-adic valuation is the number of
 * carries when the diagonal's entries are added in binary, which only
 * grows as entries are added, so a partial matrix with two carries already
 * (coefficient 0 mod 4) is dropped at once.  Each complete matrix calls
 * leaf with its T and coefficient mod 4 (2 when one carry; +-1 when none,
 * the sign kept entry by entry as the matrix is filled, no_carry_sign).
 * The entries themselves are not stored: only the diagonal sums and what
 * is left of each r_i and s_j. */
typedef struct {
    const pairalg_t *P;
    int p, q;
    int32_t rowrem[PLEN], colrem[PLEN];
    int32_t dsum[2 * PLEN]; /* sum of the interior entries of each diagonal so far */
    int val;                /* carries so far */
    int sgn;                /* while val = 0: the coefficient is (-1)^sgn mod 4 */
    void (*leaf)(void *ctx, const int32_t *t, int tlen, uint32_t c); /* T = t[1..tlen] */
    void *ctx;
} walk_t;

/* The number of carries when adding a and b in binary, capped at 2 (all
 * the walk needs): 0 when no bit is shared; else counted bit by bit while
 * a carry runs (the 2-adic valuation of binom(a + b, a)). */
static int carries(int32_t a, int32_t b)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    if (!(x & y))
        return 0;
    int c = 0, n = 0;
    while ((x | y | (uint32_t)c) && n < 2) {
        int sum = (int)(x & 1u) + (int)(y & 1u) + c;
        c = sum >> 1;
        n += c;
        x >>= 1;
        y >>= 1;
    }
    return n;
}

/* The sign of binom(a + b, a) mod 4 when a and b share no bit (no carry):
 * binom(a + b, a) = (-1)^f mod 4, f the number of adjacent bit positions
 * (i, i + 1) of a + b taken one from a and one from b (Davis and Webb's
 * Lucas theorem mod 4); the parity of f.  A multinomial coefficient
 * without carries is the product of such binomials, entry by entry. */
static int no_carry_sign(int32_t a, int32_t b)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    return __builtin_parity(((x >> 1) & y) ^ ((y >> 1) & x));
}

static void walk_leaf(walk_t *w)
{
    int n = w->p + w->q, val = w->val, sgn = w->sgn, j = 1;
    int32_t *t = w->dsum; /* T = t[1..n], the column remainders added in place */
    /* the column remainders x[0][j] on diagonal j (the row remainders were
     * added as each row was completed) */
    for (; j <= w->q && val < 2; j++) {
        int c = carries(t[j], w->colrem[j]);
        if (!c)
            sgn ^= no_carry_sign(t[j], w->colrem[j]);
        val += c;
        t[j] += w->colrem[j];
    }
    if (val < 2) {
        /* one carry: 2 mod 4; none: the product of the binomials, +-1 */
        uint32_t c = val ? 2u : sgn ? 3u : 1u;
        while (n > 0 && t[n] == 0)
            n--;
        w->leaf(w->ctx, t, n, c);
    }
    for (int i = 1; i < j; i++)
        t[i] -= w->colrem[i];
}

/* Cells in row-major order from (i, j). */
static void walk_cell(walk_t *w, int i, int j)
{
    if (i > w->p) {
        walk_leaf(w);
        return;
    }
    if (j > w->q) {
        /* row i is complete: its remainder x[i][0] joins diagonal i, whose
         * other entries (rows above) are fixed too, but for x[0][i] */
        int c = carries(w->dsum[i], w->rowrem[i]);
        if (w->val + c >= 2)
            return;
        int32_t s0 = w->dsum[i];
        int v0 = w->val, g0 = w->sgn;
        w->dsum[i] = s0 + w->rowrem[i];
        w->val = v0 + c;
        if (!c)
            w->sgn = g0 ^ no_carry_sign(s0, w->rowrem[i]);
        walk_cell(w, i + 1, 1);
        w->dsum[i] = s0;
        w->val = v0;
        w->sgn = g0;
        return;
    }
    int32_t max = w->rowrem[i] >> j;
    if (max == 0) { /* so are the cells after it in the row: on to its remainder */
        walk_cell(w, i, w->q + 1);
        return;
    }
    if (max > w->colrem[j])
        max = w->colrem[j];
    if (max == 0) { /* the cell must be 0: no state changes */
        walk_cell(w, i, j + 1);
        return;
    }
    int d = i + j, v0 = w->val, g0 = w->sgn;
    int32_t s0 = w->dsum[d];
    if (v0 == 1) {
        /* one carry already: only the entries sharing no bit with the
         * diagonal so far, in increasing order (the sign no longer counts) */
        for (int32_t v = 0; v <= max; v = ((v | s0) + 1) & ~s0) {
            w->dsum[d] = s0 | v;
            w->rowrem[i] -= v << j;
            w->colrem[j] -= v;
            walk_cell(w, i, j + 1);
            w->rowrem[i] += v << j;
            w->colrem[j] += v;
        }
        w->dsum[d] = s0;
        return;
    }
    for (int32_t v = 0; v <= max; v++) {
        int c = carries(s0, v);
        if (v0 + c >= 2)
            continue;
        w->dsum[d] = s0 + v;
        w->val = v0 + c;
        w->sgn = c ? g0 : g0 ^ no_carry_sign(s0, v);
        w->rowrem[i] -= v << j;
        w->colrem[j] -= v;
        walk_cell(w, i, j + 1);
        w->rowrem[i] += v << j;
        w->colrem[j] += v;
    }
    w->dsum[d] = s0;
    w->val = v0;
    w->sgn = g0;
}

static void walk(const pairalg_t *P, const int32_t *r, int rlen, const int32_t *s, int slen,
                 void (*leaf)(void *, const int32_t *, int, uint32_t), void *ctx)
{
    walk_t w; /* only what the walk reads is set: no memset per pair */
    w.P = P;
    w.p = rlen;
    w.q = slen;
    w.val = 0;
    w.sgn = 0;
    for (int i = 0; i < rlen; i++)
        w.rowrem[i + 1] = r[i];
    for (int j = 0; j < slen; j++)
        w.colrem[j + 1] = s[j];
    for (int d = 0; d <= rlen + slen; d++)
        w.dsum[d] = 0;
    w.leaf = leaf;
    w.ctx = ctx;
    walk_cell(&w, 1, 1);
}

typedef struct {
    const milnor_t *A;
    uint64_t *ones, *twos;
    uint8_t *coef;
} acc_t;

/* Adds c (mod 4) at basis element idx into (ones, twos). */
static inline void add4(uint64_t *ones, uint64_t *twos, int64_t idx, uint32_t c)
{
    uint64_t bit = UINT64_C(1) << (idx & 63), *o = &ones[idx >> 6], *w = &twos[idx >> 6];
    if (c & 1u) {
        if (*o & bit)
            *w ^= bit; /* the carry */
        *o ^= bit;
    }
    if (c & 2u)
        *w ^= bit;
}

/* Adds c (mod 4) at T into (ones, twos). */
static void leaf_pair(void *ctx, const int32_t *t, int tlen, uint32_t c)
{
    acc_t *a = ctx;
    add4(a->ones, a->twos, milnor_rank_raw(a->A, t, tlen), c); /* |T| <= max */
}

static void leaf_coef(void *ctx, const int32_t *t, int tlen, uint32_t c)
{
    acc_t *a = ctx;
    int64_t idx = milnor_index(a->A, t + 1, tlen);
    a->coef[idx] = (uint8_t)((a->coef[idx] + c) & 3u);
}

void pair_mul4(const pairalg_t *P, uint8_t *coef, int32_t rdeg, int64_t ridx, int32_t sdeg,
               int64_t sidx)
{
    int32_t r[PLEN] = {0}, s[PLEN] = {0};
    int rl = milnor_get(P->A, rdeg, ridx, r, PLEN), sl = milnor_get(P->A, sdeg, sidx, s, PLEN);
    memset(coef, 0, (size_t)milnor_dim(P->A, rdeg + sdeg));
    acc_t a = {P->A, NULL, NULL, coef};
    walk(P, r, rl, s, sl, leaf_coef, &a);
}

/* ---- The Y part ------------------------------------------------------------------ */

/* y[b] += Sq(R) Sq(S) mod 2 into the slot at limb offset off. */
static void mul_pp(const pairalg_t *P, uint64_t *v, int64_t off, const int32_t *r, int rl,
                   const int32_t *s, int sl)
{
    milnor_mul_pparts_add(P->A, v, off * 64, r, rl, s, sl);
}

void pair_sigma_mul_add(const pairalg_t *P, pair_elt_t *e, int32_t rdeg, int64_t ridx,
                        int32_t sdeg, int64_t sidx)
{
    SQ_CHECK(rdeg + sdeg == e->deg && e->ones, "pair_sigma_mul_add: degrees");
    int32_t r[PLEN] = {0}, s[PLEN] = {0};
    int rl = milnor_get(P->A, rdeg, ridx, r, PLEN), sl = milnor_get(P->A, sdeg, sidx, s, PLEN);
    acc_t a = {P->A, e->ones, e->v, NULL};
    walk(P, r, rl, s, sl, leaf_pair, &a);

    int64_t off[PAIR_MAX_SLOTS + 1];
    (void)pair_layout(P, e->deg, off, NULL, NULL);
    /* r[] and s[] are 0-based: r_n is r[n - 1]. */
    for (int k = 0; k < sl; k++) {
        if (s[k] < 1)
            continue;
        s[k] -= 1;
        int32_t step = (int32_t)1 << k;
        for (int n = 1; n <= rl; n++) {
            if (r[n - 1] < step)
                continue;
            r[n - 1] -= step;
            for (int m = 0; m < n; m++) {
                if (m > 0 && r[m - 1] < step)
                    continue;
                if (m > 0)
                    r[m - 1] -= step;
                int slot = slot_of(e->deg, m + k, n + k);
                SQ_CHECK(slot > 0, "pair_sigma_mul_add: Y_{%d,%d} in degree %d", m + k, n + k,
                         (int)e->deg);
                mul_pp(P, e->v, off[slot], r, rl, s, sl);
                if (m > 0)
                    r[m - 1] += step;
            }
            r[n - 1] += step;
        }
        s[k] += 1;
    }
}

/* ---- A(a, x) ---------------------------------------------------------------------- */

void pair_a_y_add(const pairalg_t *P, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                  int k, int l)
{
    int32_t r[PLEN] = {0}, t[PLEN];
    int rl = milnor_get(P->A, rdeg, ridx, r, PLEN);
    int32_t sk = (int32_t)1 << k, sl = (int32_t)1 << l;
    for (int i = l - k; i <= rl; i++) { /* i + k >= l; i >= 1 since k < l */
        if (r[i - 1] < sk)
            continue;
        r[i - 1] -= sk;
        int jmax = i + k - l < rl ? i + k - l : rl;
        for (int j = 0; j <= jmax; j++) {
            if (j > 0 && r[j - 1] < sl)
                continue;
            if (j > 0)
                r[j - 1] -= sl;
            int tl = k + i;
            memset(t, 0, sizeof t);
            t[k + i - 1] += 1;
            t[l + j - 1] += 1;
            milnor_mul_pparts_add(P->A, out, off, t, tl, r, rl);
            if (j > 0)
                r[j - 1] += sl;
        }
        r[i - 1] += sk;
    }
}

void pair_a_mul_add(const pairalg_t *P, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                    const pair_elt_t *e)
{
    if (rdeg == 0)
        return;
    SQ_CHECK(!e->ones, "pair_a_mul_add: an unfinished element");
    int32_t D = e->deg;
    int32_t r[PLEN] = {0};
    int rl = milnor_get(P->A, rdeg, ridx, r, PLEN);
    if (r[0] >= 1) { /* A(Sq R, 2 T) = Sq(R - e_1) T */
        r[0] -= 1;
        int64_t k1 = milnor_index(P->A, r, rl);
        milnor_mul_vec_add(P->A, out, off, rdeg - 1, k1, D, e->v);
    }
    int64_t lo[PAIR_MAX_SLOTS + 1];
    int8_t kk[PAIR_MAX_SLOTS], ll[PAIR_MAX_SLOTS];
    int n = pair_layout(P, D, lo, kk, ll);
    uint64_t stackbuf[64];
    for (int j = 1; j < n; j++) {
        const uint64_t *y = e->v + lo[j];
        int64_t len = lo[j + 1] - lo[j], z = 0;
        while (z < len && !y[z])
            z++;
        if (z == len)
            continue;
        int k = kk[j], l = ll[j];
        int32_t ad = rdeg + (1 << k) + (1 << l) - 2, yd = D + 1 - (1 << k) - (1 << l);
        int64_t adim = milnor_dim(P->A, ad), al = limbs_of(adim);
        uint64_t *ay = al <= 64 ? stackbuf : sq_malloc((size_t)al * sizeof *ay);
        memset(ay, 0, (size_t)al * sizeof *ay);
        pair_a_y_add(P, ay, 0, rdeg, ridx, k, l);
        for (int64_t b = 0; b < adim; b++)
            if ((ay[b >> 6] >> (b & 63)) & 1u)
                milnor_mul_vec_add(P->A, out, off, ad, b, yd, y);
        if (ay != stackbuf)
            sq_free(ay);
    }
}

/* ---- Vectors: sums over basis elements, with the bilinear parts done once ------------ */

/* The set bits of v (over A_deg) and their p-parts (1-based in pp[i][1..]). */
typedef struct {
    int64_t n;
    int32_t (*pp)[PLEN];
    int8_t *len; /* the length of each p-part (its last nonzero entry) */
} unpacked_t;

static void unpack(const pairalg_t *P, unpacked_t *u, int32_t deg, const uint64_t *v)
{
    int64_t dim = milnor_dim(P->A, deg), n = 0;
    for (int64_t i = 0; i < limbs_of(dim); i++)
        n += __builtin_popcountll(v[i]);
    u->n = 0;
    u->pp = sq_malloc((size_t)(n + 1) * sizeof *u->pp);
    u->len = sq_malloc((size_t)(n + 1) * sizeof *u->len);
    for (int64_t b = 0; b < dim; b++)
        if ((v[b >> 6] >> (b & 63)) & 1u) {
            int32_t *r = u->pp[u->n];
            memset(r, 0, sizeof u->pp[u->n]);
            milnor_get(P->A, deg, b, r + 1, PLEN - 1);
            int l = PLEN - 1;
            while (l > 0 && r[l] == 0)
                l--;
            u->len[u->n++] = (int8_t)l;
        }
}

static void unpacked_free(unpacked_t *u)
{
    sq_free(u->pp);
    sq_free(u->len);
}

/* out (over A_{deg - drop}) ^= the images of u's elements under R -> R - c1 e_i1 - c2 e_i2
 * (i = 0: nothing taken; an element that would go negative is dropped). */
static void shift_down(const pairalg_t *P, const unpacked_t *u, int i1, int32_t c1, int i2,
                       int32_t c2, uint64_t *out)
{
    for (int64_t j = 0; j < u->n; j++) {
        int32_t r[PLEN];
        memcpy(r, u->pp[j], sizeof r);
        if (i1 > 0) {
            if (r[i1] < c1)
                continue;
            r[i1] -= c1;
        }
        if (i2 > 0) {
            if (r[i2] < c2)
                continue;
            r[i2] -= c2;
        }
        int len = u->len[j];
        while (len > 0 && r[len] == 0)
            len--;
        int64_t idx = milnor_rank_raw(P->A, r, len); /* a lower degree than u's: <= max */
        out[idx >> 6] ^= UINT64_C(1) << (idx & 63);
    }
}

static int vec_zero(const uint64_t *v, int64_t limbs)
{
    for (int64_t i = 0; i < limbs; i++)
        if (v[i])
            return 0;
    return 1;
}

void pair_sigma_mul_vec_add(const pairalg_t *P, pair_elt_t *e, int32_t adeg, const uint64_t *a,
                            int32_t bdeg, const uint64_t *b)
{
    milnor_ws_t *W = milnor_ws_new();
    pair_elt_t *es[1] = {e};
    const uint64_t *bs[1] = {b};
    pair_sigma_mul_vec_many(P, W, es, adeg, a, &bdeg, bs, 1);
    milnor_ws_free(W);
}

/* ---- A(a, -) prepared for one a ---------------------------------------------------- */

void pair_aop_init(const pairalg_t *P, pair_aop_t *op, int32_t adeg, const uint64_t *a,
                   int32_t max_deg)
{
    (void)max_deg;
    memset(op, 0, sizeof *op);
    op->adeg = adeg;
    if (adeg == 0)
        return;
    int64_t dim = milnor_dim(P->A, adeg);
    op->a = sq_malloc((size_t)(limbs_of(dim) + 1) * sizeof *op->a);
    memcpy(op->a, a, (size_t)limbs_of(dim) * sizeof *op->a);
    unpacked_t u;
    unpack(P, &u, adeg, a);
    op->kappa = sq_calloc((size_t)limbs_of(milnor_dim(P->A, adeg - 1)) + 1, sizeof *op->kappa);
    shift_down(P, &u, 1, 1, 0, 0, op->kappa);
    unpacked_free(&u);
}

/* A(a, Y_{k,l}), computed on first use. */
static const uint64_t *aop_ay(const pairalg_t *P, pair_aop_t *op, int k, int l)
{
    if (!op->ay[k][l]) {
        int32_t d = op->adeg + (1 << k) + (1 << l) - 2;
        uint64_t *v = sq_calloc((size_t)limbs_of(milnor_dim(P->A, d)) + 1, sizeof *v);
        int64_t dim = milnor_dim(P->A, op->adeg);
        for (int64_t b = 0; b < dim; b++)
            if ((op->a[b >> 6] >> (b & 63)) & 1u)
                pair_a_y_add(P, v, 0, op->adeg, b, k, l);
        op->ay[k][l] = v;
    }
    return op->ay[k][l];
}

void pair_aop_clear(pair_aop_t *op)
{
    sq_free(op->a);
    sq_free(op->kappa);
    for (int k = 0; k < 11; k++)
        for (int l = 0; l < 12; l++)
            sq_free(op->ay[k][l]);
    memset(op, 0, sizeof *op);
}

void pair_aop_apply(const pairalg_t *P, pair_aop_t *op, uint64_t *out, int64_t off,
                    const pair_elt_t *e)
{
    milnor_ws_t *W = milnor_ws_new();
    pair_aop_apply_many(P, op, W, out, &off, &e, 1);
    milnor_ws_free(W);
}

/* ---- A(a, -) on many elements at once ------------------------------------------------ */

/* The limbs of y that are set, summed (a hint for milnor_ws_prepare). */
static int64_t bits_of(const uint64_t *y, int64_t limbs)
{
    int64_t n = 0;
    for (int64_t i = 0; i < limbs; i++)
        n += __builtin_popcountll(y[i]);
    return n;
}

/* ---- Batches of mod 2 products, grouped by Sq(R) ------------------------------------ */

/* One product out[off ..] += Sq(R) v, R element ridx of degree rdeg, v over
 * A_vdeg with bits set bits. */
typedef struct {
    int32_t rdeg, vdeg;
    int64_t ridx;
    const uint64_t *v;
    uint64_t *out;
    int64_t off, bits;
} mjob_t;

struct pair_batch {
    mjob_t *job;
    int64_t n, cap;
    uint64_t **own; /* vectors the batch holds (freed when it runs) */
    int64_t nown, owncap;
    int64_t bytes; /* what the products and the vectors held take */
};

/* A batch runs by itself once it holds this many bytes (products, 48
 * bytes each, and the vectors it holds): a bound on each thread's memory
 * (S_2 (90, 48), two threads: peak RSS 10.4-11.5 MB before the batches,
 * 25.0 MB unbounded, 13.0-14.0 MB with 256 KB, 13.5-13.8 MB with 512 KB;
 * (70, 8) one thread 15.45e9 instructions without batches, 13.13e9
 * unbounded, 13.85e9 with 256 KB, 13.57e9 with 512 KB). */
#define BATCH_BYTES ((int64_t)1 << 19)

pair_batch_t *pair_batch_new(void)
{
    return sq_calloc(1, sizeof(pair_batch_t));
}

void pair_batch_free(pair_batch_t *B)
{
    if (!B)
        return;
    for (int64_t i = 0; i < B->nown; i++)
        sq_free(B->own[i]);
    sq_free(B->own);
    sq_free(B->job);
    sq_free(B);
}

static void batch_add(pair_batch_t *B, int32_t rdeg, int64_t ridx, const uint64_t *v, int32_t vdeg,
                      int64_t bits, uint64_t *out, int64_t off)
{
    if (B->n == B->cap) {
        B->cap = B->cap ? 2 * B->cap : 1024;
        B->job = sq_realloc(B->job, (size_t)B->cap * sizeof *B->job);
    }
    B->job[B->n++] = (mjob_t){rdeg, vdeg, ridx, v, out, off, bits};
    B->bytes += (int64_t)sizeof(mjob_t);
}

/* A copy of v (limbs) that B holds until it runs. */
static const uint64_t *batch_own(pair_batch_t *B, const uint64_t *v, int64_t limbs)
{
    if (B->nown == B->owncap) {
        B->owncap = B->owncap ? 2 * B->owncap : 64;
        B->own = sq_realloc(B->own, (size_t)B->owncap * sizeof *B->own);
    }
    uint64_t *c = sq_malloc((size_t)(limbs + 1) * sizeof *c);
    memcpy(c, v, (size_t)limbs * sizeof *c);
    B->own[B->nown++] = c;
    B->bytes += (limbs + 1) * (int64_t)sizeof *c + 16;
    return c;
}

/* The key of Sq(R): its degree and index. */
static uint64_t job_key(const mjob_t *j)
{
    return ((uint64_t)(uint32_t)j->rdeg << 40) | (uint64_t)j->ridx;
}

void pair_batch_run(const pairalg_t *P, pair_batch_t *B, milnor_ws_t *W)
{
    int64_t n = B->n;
    /* the products grouped by Sq(R), without moving them: an open hash of
     * the keys (first come, first numbered), each group a chain of its
     * products through next[] */
    int64_t hsize = 64;
    while (hsize < 2 * n)
        hsize *= 2;
    uint64_t *hkey = sq_malloc((size_t)hsize * sizeof *hkey);
    int64_t *hgrp = sq_malloc((size_t)hsize * sizeof *hgrp);
    for (int64_t h = 0; h < hsize; h++)
        hgrp[h] = -1;
    int64_t *head = sq_malloc((size_t)(n + 1) * sizeof *head);
    int64_t *next = sq_malloc((size_t)(n + 1) * sizeof *next);
    int64_t *gbits = sq_malloc((size_t)(n + 1) * sizeof *gbits);
    int32_t *gmaxd = sq_malloc((size_t)(n + 1) * sizeof *gmaxd);
    int64_t ng = 0;
    for (int64_t i = 0; i < n; i++) {
        const mjob_t *j = &B->job[i];
        uint64_t key = job_key(j);
        int64_t h = (int64_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 40) & (hsize - 1);
        while (hgrp[h] >= 0 && hkey[h] != key)
            h = (h + 1) & (hsize - 1);
        if (hgrp[h] < 0) {
            hkey[h] = key;
            hgrp[h] = ng;
            head[ng] = -1;
            gbits[ng] = 0;
            gmaxd[ng++] = 0;
        }
        int64_t g = hgrp[h];
        next[i] = head[g];
        head[g] = i;
        gbits[g] += j->bits;
        gmaxd[g] = j->vdeg > gmaxd[g] ? j->vdeg : gmaxd[g];
    }
    /* the sums are mod 2, so the order of the products does not matter */
    for (int64_t g = 0; g < ng; g++) {
        const mjob_t *j0 = &B->job[head[g]];
        milnor_op_t o;
        milnor_op_init(&o, P->A, j0->rdeg, j0->ridx);
        milnor_ws_prepare(W, &o, gmaxd[g], gbits[g]);
        for (int64_t i = head[g]; i >= 0; i = next[i])
            milnor_ws_mul_vec_add(W, B->job[i].out, B->job[i].off, B->job[i].vdeg, B->job[i].v);
    }
    sq_free(hkey);
    sq_free(hgrp);
    sq_free(head);
    sq_free(next);
    sq_free(gbits);
    sq_free(gmaxd);
    B->n = 0;
    for (int64_t i = 0; i < B->nown; i++)
        sq_free(B->own[i]);
    B->nown = 0;
    B->bytes = 0;
}

void pair_batch_add_vec(pair_batch_t *B, milnor_ws_t *W, const pairalg_t *P, int32_t adeg,
                        const uint64_t *a, int64_t alen, const uint64_t *b,
                        int32_t bdeg, int64_t blen, uint64_t *out, int64_t off)
{
    int64_t l = limbs_of(blen), bb = bits_of(b, l);
    if (!bb)
        return;
    const uint64_t *own = batch_own(B, b, l);
    for (int64_t r = 0; r < alen; r++)
        if ((a[r >> 6] >> (r & 63)) & 1u)
            batch_add(B, adeg, r, own, bdeg, bb, out, off);
    if (B->bytes >= BATCH_BYTES)
        pair_batch_run(P, B, W);
}

void pair_aop_apply_batch(const pairalg_t *P, pair_aop_t *op, pair_batch_t *B, milnor_ws_t *W,
                          uint64_t *out, const int64_t *offs, const pair_elt_t *const *es,
                          int64_t n)
{
    if (op->adeg == 0 || n == 0)
        return;
    int64_t kd = milnor_dim(P->A, op->adeg - 1);
    for (int64_t j = 0; j < n; j++) {
        const pair_elt_t *e = es[j];
        SQ_CHECK(!e->ones, "pair_aop_apply_batch: an unfinished element");
        /* 2T: kappa(a) T */
        int64_t tb = bits_of(e->v, e->tlimbs);
        for (int64_t b = 0; b < kd && tb; b++)
            if ((op->kappa[b >> 6] >> (b & 63)) & 1u)
                batch_add(B, op->adeg - 1, b, e->v, e->deg, tb, out, offs[j]);
        /* Y_{k,l} y: A(a, Y_{k,l}) y */
        int64_t lo[PAIR_MAX_SLOTS + 1];
        int8_t kk[PAIR_MAX_SLOTS], ll[PAIR_MAX_SLOTS];
        int ns = pair_layout(P, e->deg, lo, kk, ll);
        for (int t = 1; t < ns; t++) {
            const uint64_t *y = e->v + lo[t];
            int64_t yb = bits_of(y, lo[t + 1] - lo[t]);
            if (!yb)
                continue;
            int k = kk[t], l = ll[t];
            int32_t yd = e->deg + 1 - (1 << k) - (1 << l), ad = op->adeg + (1 << k) + (1 << l) - 2;
            const uint64_t *ay = aop_ay(P, op, k, l);
            int64_t adim = milnor_dim(P->A, ad);
            for (int64_t b = 0; b < adim; b++)
                if ((ay[b >> 6] >> (b & 63)) & 1u)
                    batch_add(B, ad, b, y, yd, yb, out, offs[j]);
        }
    }
    if (B->bytes >= BATCH_BYTES)
        pair_batch_run(P, B, W);
}

void pair_aop_apply_many(const pairalg_t *P, pair_aop_t *op, milnor_ws_t *W, uint64_t *out,
                         const int64_t *offs, const pair_elt_t *const *es, int64_t n)
{
    pair_batch_t *B = pair_batch_new();
    pair_aop_apply_batch(P, op, B, W, out, offs, es, n);
    pair_batch_run(P, B, W);
    pair_batch_free(B);
}

/* The bit offset of the slot of Y_{a,b} in the layout of degree D:
 * off[a][b], -1 where there is none. */
static void slot_bits(const pairalg_t *P, int32_t D, int64_t off[12][12])
{
    int64_t lo[PAIR_MAX_SLOTS + 1];
    int8_t kk[PAIR_MAX_SLOTS], ll[PAIR_MAX_SLOTS];
    int n = pair_layout(P, D, lo, kk, ll);
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            off[a][b] = -1;
    for (int t = 1; t < n; t++)
        off[kk[t]][ll[t]] = lo[t] * 64;
}

/* ---- The sigma part by R-configurations -------------------------------------------- */

/* The rows i >= 1 of a Milnor matrix of (R, S) (entries x[i][j], j >= 1, and
 * the row remainders x[i][0]) depend on S only through their column sums
 * c_j <= s_j; then x[0][j] = s_j - c_j.  So for one Sq(R) and many S's the
 * R-side matrices are enumerated once ("configurations", with at most one
 * carry among their diagonals' entries, the column bounds the largest s_j
 * of the S's), each kept as (carries, sign, c_1..c_Q, D_1..D_{p+Q}) with D
 * the diagonal sums so far; each S then completes each configuration:
 * u_n = s_n - c_n >= 0, one more carry at most from D_n + u_n, T = D + u.
 * The same matrices as the walk, so the same sums. */

/* Fewer S's than this in all: pair by pair (a configuration set costs about
 * what a few walks do). */
#define CFG_MIN_S 4
/* Configurations beyond this many int32 entries: pair by pair. */
#define CFG_MAX_WORDS ((int64_t)1 << 22)

typedef struct {
    int p, Q, stride;
    int32_t r[PLEN];      /* row budgets left, 1-based */
    int32_t cb[PLEN];     /* column bounds left */
    int32_t c[PLEN];      /* column sums */
    int32_t D[2 * PLEN];  /* diagonal sums */
    int val, sgn;
    int32_t *buf;         /* the configurations, stride words each */
    int64_t n, cap, full;
    /* the column sums packed, a field of bitlen(cb_j) bits and a guard bit
     * above it per column j (packed = 0 when they pass 64 bits): for an S,
     * (s | G) - c keeps every guard iff s_j >= c_j for every j, and its
     * fields are then the u_j = s_j - c_j */
    int packed, sh[PLEN];
    uint64_t G, *cp; /* cp[n / stride]: each configuration's packed c */
    int64_t cpcap;
    /* pk: each configuration as two words of milnor_op.c's packed layout
     * (internal.h) instead, when |R| + deg(cb) <= MILNOR_PK_MAXDEG (then
     * every c, D and T = D + u fits its field): pc[k] its c, pd[k] its D
     * with its carry at PK_CARRY and its sign at PK_SIGN (cfgs_scan_pk) */
    int pk;
    uint64_t *pc, *pd;
    int64_t npk, pkcap;
} cfgs_t;

/* The two flags above the packed fields of a configuration's D word. */
#define PK_CARRY (UINT64_C(1) << 62)
#define PK_SIGN (UINT64_C(1) << 63)
/* The value bits of the packed layout (its fields, no guard, no flag). */
#define PK_VALUES (((UINT64_C(1) << 54) - 1) & ~MILNOR_PK_GUARD)

/* 1: the sigma part's configurations are scanned packed where they fit
 * (cfgs_scan_pk); 0: always by cfgs_scan, the reference (tests only:
 * tests/algebra/t-pair.c compares the two). */
extern int pair_cfg_packed;
int pair_cfg_packed = 1;

/* Appends the configuration of C's state to its packed words. */
static void cfg_emit_pk(cfgs_t *C)
{
    if (C->npk == C->pkcap) {
        if (2 * (C->npk + 1) > CFG_MAX_WORDS) {
            C->full = 1;
            return;
        }
        C->pkcap = C->pkcap ? 2 * C->pkcap : 1024;
        C->pc = sq_realloc(C->pc, (size_t)C->pkcap * sizeof *C->pc);
        C->pd = sq_realloc(C->pd, (size_t)C->pkcap * sizeof *C->pd);
    }
    uint64_t c = 0, d = 0;
    for (int j = 1; j <= C->Q; j++)
        c |= (uint64_t)C->c[j] << milnor_pk_shift[j];
    for (int n = 1; n <= C->p + C->Q; n++)
        if (C->D[n]) /* then n <= 9: D_n (2^n - 1) <= |R| + deg(cb) <= 511 */
            d |= (uint64_t)C->D[n] << milnor_pk_shift[n];
    C->pc[C->npk] = c;
    C->pd[C->npk++] = d | (C->val ? PK_CARRY : 0) | (C->sgn ? PK_SIGN : 0);
}

static void cfg_emit(cfgs_t *C)
{
    if (C->pk) {
        cfg_emit_pk(C);
        return;
    }
    if (C->n + C->stride > C->cap) {
        if (C->n + C->stride > CFG_MAX_WORDS) {
            C->full = 1;
            return;
        }
        C->cap = C->cap ? 2 * C->cap : 4096;
        C->buf = sq_realloc(C->buf, (size_t)C->cap * sizeof *C->buf);
    }
    if (C->packed) {
        int64_t k = C->n / C->stride;
        if (k == C->cpcap) {
            C->cpcap = C->cpcap ? 2 * C->cpcap : 1024;
            C->cp = sq_realloc(C->cp, (size_t)C->cpcap * sizeof *C->cp);
        }
        uint64_t w = 0;
        for (int j = 1; j <= C->Q; j++)
            w |= (uint64_t)C->c[j] << C->sh[j];
        C->cp[k] = w;
    }
    int32_t *o = C->buf + C->n;
    o[0] = C->val;
    o[1] = C->sgn;
    for (int j = 1; j <= C->Q; j++)
        o[1 + j] = C->c[j];
    for (int d = 1; d <= C->p + C->Q; d++)
        o[1 + C->Q + d] = C->D[d];
    C->n += C->stride;
}

static void cfg_cell(cfgs_t *C, int i, int j)
{
    if (C->full)
        return;
    if (i > C->p) {
        cfg_emit(C);
        return;
    }
    if (j > C->Q) { /* row i complete: its remainder joins diagonal i */
        int32_t s0 = C->D[i], rem = C->r[i];
        int c = carries(s0, rem);
        if (C->val + c >= 2)
            return;
        int v0 = C->val, g0 = C->sgn;
        C->D[i] = s0 + rem;
        C->val = v0 + c;
        if (!c)
            C->sgn = g0 ^ no_carry_sign(s0, rem);
        cfg_cell(C, i + 1, 1);
        C->D[i] = s0;
        C->val = v0;
        C->sgn = g0;
        return;
    }
    int32_t max = C->r[i] >> j;
    if (max == 0) {
        cfg_cell(C, i, C->Q + 1);
        return;
    }
    if (max > C->cb[j] - C->c[j])
        max = C->cb[j] - C->c[j];
    if (max <= 0) {
        cfg_cell(C, i, j + 1);
        return;
    }
    int d = i + j, v0 = C->val, g0 = C->sgn;
    int32_t s0 = C->D[d];
    for (int32_t v = 0; v <= max; v++) {
        int c = carries(s0, v);
        if (v0 + c >= 2)
            continue;
        C->D[d] = s0 + v;
        C->val = v0 + c;
        C->sgn = c ? g0 : g0 ^ no_carry_sign(s0, v);
        C->r[i] -= v << j;
        C->c[j] += v;
        cfg_cell(C, i, j + 1);
        C->r[i] += v << j;
        C->c[j] -= v;
    }
    C->D[d] = s0;
    C->val = v0;
    C->sgn = g0;
}

/* The configurations of R = r[1..rl] (r[0] unused) for the S's of ub[0..n):
 * 1, or 0 when there would be too many (then pair by pair). */
static int cfgs_build(cfgs_t *C, const int32_t *r, int rl, const unpacked_t *ub, int64_t n)
{
    int Q = 0;
    for (int j = 0; j < PLEN; j++)
        C->cb[j] = 0;
    for (int64_t b = 0; b < n; b++)
        for (int64_t t = 0; t < ub[b].n; t++) {
            int q = ub[b].len[t];
            Q = q > Q ? q : Q;
            for (int j = 1; j <= q; j++)
                if (ub[b].pp[t][j] > C->cb[j])
                    C->cb[j] = ub[b].pp[t][j];
        }
    C->p = rl;
    C->Q = Q;
    C->stride = 2 + Q + rl + Q;
    int bits = 0;
    C->G = 0;
    for (int j = 1; j <= Q; j++) {
        int w = 0;
        while (w < 31 && (C->cb[j] >> w))
            w++;
        C->sh[j] = bits;
        bits += w + 1;
        if (bits <= 64)
            C->G |= UINT64_C(1) << (bits - 1);
    }
    C->packed = bits <= 64;
    int64_t deg = 0; /* |R| + deg(cb) */
    for (int i = 1; i <= rl; i++)
        deg += (int64_t)r[i] * milnor_w(i);
    for (int j = 1; j <= Q; j++)
        deg += (int64_t)C->cb[j] * milnor_w(j);
    C->pk = pair_cfg_packed && deg <= MILNOR_PK_MAXDEG;
    C->npk = 0;
    for (int i = 1; i <= rl; i++)
        C->r[i] = r[i];
    for (int j = 0; j < PLEN; j++)
        C->c[j] = 0;
    for (int d = 0; d < 2 * PLEN; d++)
        C->D[d] = 0;
    C->val = C->sgn = 0;
    C->n = 0;
    C->full = 0;
    cfg_cell(C, 1, 1);
    return !C->full;
}

/* (ones, twos) += the sigma part of Sq(R) Sq(S), R the configurations' and
 * S = s[1..sl]. */
static void cfgs_scan(const cfgs_t *C, const milnor_t *A, uint64_t *ones, uint64_t *twos,
                      const int32_t *s, int sl)
{
    int Q = C->Q, nd = C->p + Q;
    int32_t sv[PLEN] = {0}, t[2 * PLEN];
    uint64_t sg = C->G;
    for (int j = 1; j <= sl; j++) {
        sv[j] = s[j];
        if (C->packed)
            sg |= (uint64_t)s[j] << C->sh[j];
    }
    for (int64_t k = 0, x = 0; k < C->n; k += C->stride, x++) {
        if (C->packed && ((sg - C->cp[x]) & C->G) != C->G)
            continue; /* some s_j < c_j */
        const int32_t *o = C->buf + k, *c = o + 1, *D = o + 1 + Q;
        int val = o[0], sgn = o[1], j = 1;
        for (; j <= Q; j++) {
            int32_t u = sv[j] - c[j];
            if (u < 0)
                break;
            int cc = carries(D[j], u);
            if (val + cc >= 2)
                break;
            if (!cc)
                sgn ^= no_carry_sign(D[j], u);
            val += cc;
            t[j] = D[j] + u;
        }
        if (j <= Q)
            continue;
        for (; j <= nd; j++)
            t[j] = D[j];
        int len = nd;
        while (len > 0 && t[len] == 0)
            len--;
        add4(ones, twos, milnor_rank_raw(A, t, len), val ? 2u : sgn ? 3u : 1u);
    }
}

/* cfgs_scan on the packed words (C->pk): with u = s - c (the guard test as
 * in cfgs_scan) and T = D + u field by field (no field overflows: T is a
 * Sq(T) of degree |R| + |S| <= 511), the carries of D_n + u_n over all n
 * are the set bits of T ^ D ^ u (each carry enters the bit above it, inside
 * its field), so at most one more carry is cin & (cin - 1) == 0; with none,
 * the sign of binom(T_n, D_n) mod 4 is the parity of the adjacent bits
 * taken one from each (no_carry_sign), the guard bits between the fields
 * being 0 in both words: one parity for all the fields.  T is ranked
 * packed.  The same terms and coefficients as cfgs_scan. */
static void cfgs_scan_pk(const cfgs_t *C, const milnor_t *A, uint64_t *ones, uint64_t *twos,
                         const int32_t *s, int sl)
{
    const uint64_t G = MILNOR_PK_GUARD;
    const int32_t *z = milnor_rank_rows(A);
    uint64_t sg = G;
    for (int j = 1; j <= sl; j++)
        sg |= (uint64_t)s[j] << milnor_pk_shift[j];
    const uint64_t *pc = C->pc, *pd = C->pd;
    for (int64_t k = 0; k < C->npk; k++) {
        uint64_t diff = sg - pc[k];
        if ((diff & G) != G)
            continue; /* some s_j < c_j */
        uint64_t u = diff ^ G, w = pd[k], D = w & PK_VALUES, T = D + u, cin = T ^ D ^ u;
        uint32_t c;
        if (cin) {
            if ((w & PK_CARRY) || (cin & (cin - 1)))
                continue; /* two carries: 0 mod 4 */
            c = 2u;
        } else if (w & PK_CARRY)
            c = 2u;
        else
            c = ((w >> 63) ^ (uint64_t)__builtin_parityll(((D >> 1) & u) ^ ((u >> 1) & D))) ? 3u
                                                                                           : 1u;
        add4(ones, twos, milnor_rank_pk(z, T), c);
    }
}

void pair_sigma_mul_vec_batch(const pairalg_t *P, pair_batch_t *B, milnor_ws_t *W,
                              pair_elt_t *const *es, int32_t adeg, const uint64_t *a,
                              const int32_t *bdeg, const uint64_t *const *b, int64_t n)
{
    if (n == 0)
        return;
    unpacked_t ua;
    unpack(P, &ua, adeg, a);
    /* each b_j unpacked once, and the slots of each element */
    unpacked_t *ub = sq_malloc((size_t)n * sizeof *ub);
    int64_t (*soff)[12][12] = sq_malloc((size_t)n * sizeof *soff);
    acc_t acc = {P->A, NULL, NULL, NULL};
    int32_t maxb = 0;
    for (int64_t j = 0; j < n; j++) {
        SQ_CHECK(adeg + bdeg[j] == es[j]->deg && es[j]->ones, "pair_sigma_mul_vec_many: degrees");
        maxb = bdeg[j] > maxb ? bdeg[j] : maxb;
        unpack(P, &ub[j], bdeg[j], b[j]);
        slot_bits(P, es[j]->deg, soff[j]);
    }
    /* the sigma part: per Sq(R) of a, its R-configurations against every S
     * of every b_j when there are enough S's, else pair by pair */
    int64_t nsall = 0;
    for (int64_t j = 0; j < n; j++)
        nsall += ub[j].n;
    cfgs_t C = {0};
    for (int64_t i = 0; i < ua.n; i++) {
        if (nsall >= CFG_MIN_S && cfgs_build(&C, ua.pp[i], ua.len[i], ub, n)) {
            for (int64_t j = 0; j < n; j++)
                for (int64_t t = 0; t < ub[j].n; t++)
                    (C.pk ? cfgs_scan_pk : cfgs_scan)(&C, P->A, es[j]->ones, es[j]->v,
                                                      ub[j].pp[t], ub[j].len[t]);
            continue;
        }
        for (int64_t j = 0; j < n; j++) {
            acc.ones = es[j]->ones;
            acc.twos = es[j]->v;
            for (int64_t t = 0; t < ub[j].n; t++)
                walk(P, ua.pp[i] + 1, ua.len[i], ub[j].pp[t] + 1, ub[j].len[t], leaf_pair, &acc);
        }
    }
    sq_free(C.buf);
    sq_free(C.cp);
    sq_free(C.pc);
    sq_free(C.pd);
    /* the Y part: slot (m + k, n + k) of element j += d_{k,n,m}(a) d'_k(b_j),
     * gathered into B (each Sq(R) of d_{k,n,m}(a) prepared once for every j,
     * and for the other calls' products that share it) */
    int64_t cap = limbs_of(milnor_dim(P->A, adeg > maxb ? adeg : maxb)) + 1;
    uint64_t *am = sq_malloc((size_t)cap * sizeof *am), *tmp = sq_malloc((size_t)cap * sizeof *tmp);
    const uint64_t **bk = sq_calloc((size_t)n, sizeof *bk);
    int64_t *bkb = sq_malloc((size_t)n * sizeof *bkb);
    for (int k = 0; (((int32_t)2 << k) - 1) <= maxb; k++) {
        int64_t nb = 0;
        for (int64_t j = 0; j < n; j++) {
            int32_t bkd = bdeg[j] - (((int32_t)2 << k) - 1);
            bk[j] = NULL;
            if (bkd < 0)
                continue;
            memset(tmp, 0, (size_t)cap * sizeof *tmp);
            shift_down(P, &ub[j], k + 1, 1, 0, 0, tmp);
            int64_t l = limbs_of(milnor_dim(P->A, bkd));
            if (vec_zero(tmp, l))
                continue;
            bk[j] = batch_own(B, tmp, l);
            bkb[j] = bits_of(tmp, l);
            nb++;
        }
        if (!nb)
            continue;
        int32_t sk = (int32_t)1 << k;
        for (int nn = 1; sk * (((int32_t)1 << nn) - 1) <= adeg; nn++)
            for (int m = 0; m < nn; m++) {
                int32_t amd = adeg - sk * (((int32_t)1 << nn) - 1) -
                              (m > 0 ? sk * (((int32_t)1 << m) - 1) : 0);
                if (amd < 0)
                    continue;
                memset(am, 0, (size_t)cap * sizeof *am);
                shift_down(P, &ua, nn, sk, m, sk, am);
                int64_t adim = milnor_dim(P->A, amd);
                for (int64_t r = 0; r < adim; r++) {
                    if (!((am[r >> 6] >> (r & 63)) & 1u))
                        continue;
                    for (int64_t j = 0; j < n; j++) {
                        if (!bk[j])
                            continue;
                        int64_t off = soff[j][m + k][nn + k];
                        SQ_CHECK(off >= 0, "pair_sigma_mul_vec_batch: Y_{%d,%d}", m + k, nn + k);
                        batch_add(B, amd, r, bk[j], bdeg[j] - (((int32_t)2 << k) - 1), bkb[j],
                                  es[j]->v, off);
                    }
                }
            }
    }
    if (B->bytes >= BATCH_BYTES)
        pair_batch_run(P, B, W);
    for (int64_t j = 0; j < n; j++)
        unpacked_free(&ub[j]);
    sq_free(ub);
    sq_free(soff);
    sq_free(bk);
    sq_free(bkb);
    sq_free(tmp);
    sq_free(am);
    unpacked_free(&ua);
}

void pair_sigma_mul_vec_many(const pairalg_t *P, milnor_ws_t *W, pair_elt_t *const *es,
                             int32_t adeg, const uint64_t *a, const int32_t *bdeg,
                             const uint64_t *const *b, int64_t n)
{
    pair_batch_t *B = pair_batch_new();
    pair_sigma_mul_vec_batch(P, B, W, es, adeg, a, bdeg, b, n);
    pair_batch_run(P, B, W);
    pair_batch_free(B);
}
