/*
 * fpmat.c -- F_p vectors and matrices, row reduction (see fpmat.h).
 */
#include "fpmat.h"

#include <string.h>

int fp_prime_ok(uint32_t p)
{
    if (p < 2 || p > 255)
        return 0;
    for (uint32_t d = 2; d * d <= p; d++)
        if (p % d == 0)
            return 0;
    return 1;
}

uint32_t fp_inv(uint32_t a, uint32_t p)
{
    a %= p;
    SQ_CHECK(a != 0, "fp_inv: 0 has no inverse mod %u", (unsigned)p);
    /* Extended Euclid on small numbers. */
    int64_t t = 0, nt = 1, r = p, nr = a;
    while (nr) {
        int64_t q = r / nr, x;
        x = t - q * nt, t = nt, nt = x;
        x = r - q * nr, r = nr, nr = x;
    }
    if (t < 0)
        t += p;
    return (uint32_t)t;
}

/* ---- Vectors ---------------------------------------------------------------- */

void fpvec_addmul(uint8_t *dst, const uint8_t *src, int64_t n, uint32_t c, uint32_t p)
{
    c %= p;
    if (!c)
        return;
    for (int64_t k = 0; k < n; k++)
        dst[k] = (uint8_t)((dst[k] + c * src[k]) % p);
}

void fpvec_scale(uint8_t *v, int64_t n, uint32_t c, uint32_t p)
{
    c %= p;
    if (c == 1)
        return;
    for (int64_t k = 0; k < n; k++)
        v[k] = (uint8_t)((c * v[k]) % p);
}

/*
 * The reducer's inner loop.  d - s wraps below zero exactly when d < s,
 * and then adding p (mod 256) gives d - s + p in [0, p); no division, no
 * widening, so gcc -O3 turns it into byte-wise SIMD (psubb, a compare via
 * pminub/pcmpeqb, pand, paddb) for every p < 256.
 */
void fpvec_sub_raw(uint8_t *restrict dst, const uint8_t *restrict src, int64_t n, uint32_t p)
{
    const uint8_t pp = (uint8_t)p;
    for (int64_t k = 0; k < n; k++) {
        uint8_t d = dst[k], s = src[k];
        uint8_t t = (uint8_t)(d - s);
        uint8_t wrap = (uint8_t)(0 - (uint8_t)(d < s));
        dst[k] = (uint8_t)(t + (wrap & pp));
    }
}

int64_t fpvec_first_nonzero(const uint8_t *v, int64_t n)
{
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, v + k, 8);
        if (w)
            break;
    }
    for (; k < n; k++)
        if (v[k])
            return k;
    return -1;
}

int fpvec_is_zero(const uint8_t *v, int64_t n)
{
    return fpvec_first_nonzero(v, n) < 0;
}

/* ---- Matrices ----------------------------------------------------------------- */

void fpmat_init(fpmat_t *m, int64_t rows, int64_t cols, uint32_t p)
{
    SQ_CHECK(rows >= 0 && cols >= 0, "fpmat_init: negative dimensions");
    SQ_CHECK(fp_prime_ok(p), "fpmat_init: %u is not a prime below 256", (unsigned)p);
    m->rows = rows;
    m->cols = cols;
    m->p = p;
    m->stride = fp_seg_start(cols);
    if (m->stride == 0)
        m->stride = FP_ALIGN;
    m->data = (rows && cols) ? sq_aligned_calloc(sq_mul_size((size_t)rows, (size_t)m->stride), 1)
                             : NULL;
}

void fpmat_clear(fpmat_t *m)
{
    if (m->data)
        sq_aligned_free(m->data);
    memset(m, 0, sizeof *m);
}

void fpmat_init_set(fpmat_t *m, const fpmat_t *src)
{
    fpmat_init(m, src->rows, src->cols, src->p ? src->p : 2);
    m->p = src->p;
    for (int64_t i = 0; i < src->rows && src->cols; i++)
        memcpy(fpmat_row(m, i), fpmat_row(src, i), (size_t)src->cols);
}

void fpmat_zero(fpmat_t *m)
{
    if (m->data)
        memset(m->data, 0, (size_t)m->rows * (size_t)m->stride);
}

int fpmat_equal(const fpmat_t *a, const fpmat_t *b)
{
    if (a->rows != b->rows || a->cols != b->cols || a->p != b->p)
        return 0;
    for (int64_t i = 0; i < a->rows && a->cols; i++)
        if (memcmp(fpmat_row(a, i), fpmat_row(b, i), (size_t)a->cols) != 0)
            return 0;
    return 1;
}

int fpmat_is_canonical(const fpmat_t *m)
{
    if (!m->data)
        return 1;
    for (int64_t i = 0; i < m->rows; i++) {
        const uint8_t *r = fpmat_row(m, i);
        for (int64_t j = 0; j < m->cols; j++)
            if (r[j] >= m->p)
                return 0;
        for (int64_t j = m->cols; j < m->stride; j++)
            if (r[j])
                return 0;
    }
    return 1;
}

void fpmat_randomize(fpmat_t *m, sq_rand_t *r, uint32_t density_256)
{
    for (int64_t i = 0; i < m->rows; i++) {
        uint8_t *row = fpmat_row(m, i);
        for (int64_t j = 0; j < m->cols; j++) {
            if (density_256 < 256 && sq_rand_below(r, 256) >= density_256)
                row[j] = 0;
            else
                row[j] = (uint8_t)sq_rand_below(r, m->p);
        }
    }
}

void fpmat_mul_naive(fpmat_t *c, const fpmat_t *a, const fpmat_t *b)
{
    SQ_CHECK(a->cols == b->rows && a->p == b->p, "fpmat_mul_naive: shapes or primes differ");
    fpmat_init(c, a->rows, b->cols, a->p);
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t k = 0; k < a->cols; k++) {
            uint32_t x = fpmat_get(a, i, k);
            if (x)
                fpvec_addmul(fpmat_row(c, i), fpmat_row(b, k), b->cols, x, a->p);
        }
}

/* ---- Row reduction --------------------------------------------------------------- */

static void swap_rows(fpmat_t *m, int64_t i, int64_t j, int64_t from)
{
    uint8_t *a = fpmat_row(m, i), *b = fpmat_row(m, j);
    for (int64_t k = from; k < m->stride; k++) {
        uint8_t t = a[k];
        a[k] = b[k];
        b[k] = t;
    }
}

int64_t fpmat_rref_naive(fpmat_t *m, int64_t *pivots)
{
    const int64_t rows = m->rows, cols = m->cols;
    const uint32_t p = m->p;
    if (pivots)
        for (int64_t c = 0; c < cols; c++)
            pivots[c] = -1;
    int64_t r = 0;
    for (int64_t c = 0; c < cols && r < rows; c++) {
        int64_t i = r;
        while (i < rows && fpmat_get(m, i, c) == 0)
            i++;
        if (i == rows)
            continue;
        if (i != r)
            swap_rows(m, i, r, 0);
        uint8_t *pr = fpmat_row(m, r);
        uint32_t inv = fp_inv(pr[c], p);
        for (int64_t k = 0; k < cols; k++)
            pr[k] = (uint8_t)(pr[k] * inv % p);
        for (int64_t q = 0; q < rows; q++) {
            if (q == r)
                continue;
            uint8_t *rq = fpmat_row(m, q);
            uint32_t a = rq[c];
            if (!a)
                continue;
            for (int64_t k = 0; k < cols; k++)
                rq[k] = (uint8_t)((rq[k] + (p - a) * pr[k]) % p);
        }
        if (pivots)
            pivots[c] = r;
        r++;
    }
    return r;
}

/*
 * The fast reducer: Gauss-Jordan by columns like the naive one, but
 *   - rows at or below the current rank are zero left of the pivot column,
 *     and so is the pivot row, so swaps and subtractions start at the
 *     aligned block of the pivot column;
 *   - the multiples a * (pivot row), a = 2..p-1, are formed once per pivot
 *     (lazily, only those some row needs; a = 1 is the row itself), so each
 *     elimination is one fpvec_sub_raw over the row: no multiplication or
 *     division in the inner loop.
 */
int64_t fpmat_rref_bytes(fpmat_t *m, int64_t *pivots)
{
    const int64_t rows = m->rows, cols = m->cols, stride = m->stride;
    const uint32_t p = m->p;
    if (pivots)
        for (int64_t c = 0; c < cols; c++)
            pivots[c] = -1;
    if (!rows || !cols)
        return 0;
    uint8_t *mult = sq_aligned_calloc(sq_mul_size((size_t)p, (size_t)stride), 1);
    uint8_t have[256];
    uint8_t mul_tab[256];
    int64_t r = 0;
    for (int64_t c = 0; c < cols && r < rows; c++) {
        int64_t i = r;
        while (i < rows && fpmat_row(m, i)[c] == 0)
            i++;
        if (i == rows)
            continue;
        int64_t c0 = c / FP_ALIGN * FP_ALIGN;
        if (i != r)
            swap_rows(m, i, r, c0);
        uint8_t *pr = fpmat_row(m, r);
        if (pr[c] != 1) {
            uint32_t inv = fp_inv(pr[c], p);
            for (uint32_t x = 0; x < p; x++)
                mul_tab[x] = (uint8_t)(x * inv % p);
            for (int64_t k = c; k < cols; k++)
                pr[k] = mul_tab[pr[k]];
        }
        memset(have, 0, p);
        for (int64_t q = 0; q < rows; q++) {
            if (q == r)
                continue;
            uint8_t *rq = fpmat_row(m, q);
            uint32_t a = rq[c];
            if (!a)
                continue;
            const uint8_t *src = pr;
            if (a != 1) {
                uint8_t *mu = mult + (size_t)a * (size_t)stride;
                if (!have[a]) {
                    for (uint32_t x = 0; x < p; x++)
                        mul_tab[x] = (uint8_t)(x * a % p);
                    for (int64_t k = c0; k < stride; k++)
                        mu[k] = mul_tab[pr[k]];
                    have[a] = 1;
                }
                src = mu;
            }
            fpvec_sub_raw(rq + c0, src + c0, stride - c0, p);
        }
        if (pivots)
            pivots[c] = r;
        r++;
    }
    sq_aligned_free(mult);
    return r;
}

/*
 * p = 3, bitsliced.  An entry is two bits, h = [x == 2] and l = [x == 1];
 * a row is the two bit planes, each f2_limbs(cols) words.  The sum of two
 * rows is six word operations per 64 entries (Harrison's formula, checked
 * against all nine pairs in t-fpmat.c through the reducer):
 *     t = (a_l | b_h) ^ (a_h | b_l),  c_l = (a_h | b_h) ^ t,
 *                                     c_h = (a_l | b_l) ^ t,
 * and -b is b with its planes exchanged.  So "row_q -= x row_r" is an add of
 * -row_r (x = 1) or of row_r (x = 2), and normalising a pivot 2 exchanges
 * the planes of its row.  Same Gauss-Jordan order as the byte reducer, so
 * the same canonical result; the packing costs two passes over the bytes.
 */
static void gf3_add(uint64_t *restrict qh, uint64_t *restrict ql, const uint64_t *restrict bh,
                    const uint64_t *restrict bl, int64_t n)
{
    for (int64_t k = 0; k < n; k++) {
        uint64_t ah = qh[k], al = ql[k], xh = bh[k], xl = bl[k];
        uint64_t t = (al | xh) ^ (ah | xl);
        ql[k] = (ah | xh) ^ t;
        qh[k] = (al | xl) ^ t;
    }
}

/* Entry c of a packed row: 0, 1 or 2. */
static inline uint32_t gf3_get(const uint64_t *h, const uint64_t *l, int64_t c)
{
    uint64_t b = 1ULL << (c & 63);
    return (l[c >> 6] & b) ? 1u : (h[c >> 6] & b) ? 2u : 0u;
}

/* row -= x * piv over words k.. (x = 1 or 2; -1 * piv is piv with planes
 * exchanged, -2 * piv = piv). */
static inline void gf3_submul(uint64_t *h, uint64_t *l, const uint64_t *ph, const uint64_t *pl,
                              uint32_t x, int64_t k, int64_t L)
{
    if (x == 1)
        gf3_add(h + k, l + k, pl + k, ph + k, L - k);
    else
        gf3_add(h + k, l + k, ph + k, pl + k, L - k);
}

/* row[0..n) = the entries of the packed planes h, l (n entries; bytes
 * past n up to the next multiple of 8 are written too, with zeros: the
 * planes are zero there and the row's stride is a multiple of 32). */
/* SPREAD[b]: byte k is bit k of b (a constant table, built by the
 * preprocessor). */
#define SP1(b)                                                                                     \
    ((((uint64_t)(b) >> 0) & 1) | ((((uint64_t)(b) >> 1) & 1) << 8) |                              \
     ((((uint64_t)(b) >> 2) & 1) << 16) | ((((uint64_t)(b) >> 3) & 1) << 24) |                     \
     ((((uint64_t)(b) >> 4) & 1) << 32) | ((((uint64_t)(b) >> 5) & 1) << 40) |                     \
     ((((uint64_t)(b) >> 6) & 1) << 48) | ((((uint64_t)(b) >> 7) & 1) << 56))
#define SP4(b) SP1(b), SP1((b) + 1), SP1((b) + 2), SP1((b) + 3)
#define SP16(b) SP4(b), SP4((b) + 4), SP4((b) + 8), SP4((b) + 12)
#define SP64(b) SP16(b), SP16((b) + 16), SP16((b) + 32), SP16((b) + 48)
static const uint64_t SPREAD[256] = {SP64(0), SP64(64), SP64(128), SP64(192)};

static void gf3_unpack(uint8_t *row, const uint64_t *h, const uint64_t *l, int64_t n)
{
    for (int64_t k = 0; k * 64 < n; k++) {
        uint64_t hw = h[k], lw = l[k];
        int64_t j0 = k * 64, m = n - j0 < 64 ? n - j0 : 64;
        if (!(hw | lw)) {
            memset(row + j0, 0, (size_t)m);
            continue;
        }
        for (int b = 0; 8 * b < m; b++) {
            uint64_t v = SPREAD[(lw >> (8 * b)) & 255] + 2 * SPREAD[(hw >> (8 * b)) & 255];
            memcpy(row + j0 + 8 * b, &v, 8);
        }
    }
}

/* A p = 3 matrix in two bit planes per row (row q: h = buf + q W, l = h +
 * L; an entry is 1 when its l bit is set, 2 when its h bit is), with the
 * pivots found so far: prow[c] the row leading at column c (-1: none),
 * pmask the pivot columns as bits. */
typedef struct {
    uint64_t *buf;
    int64_t L, W;
    int64_t *prow;
    uint64_t *pmask;
} gf3_mat_t;

/* rows zero rows of cols columns, no pivots.  (Passed by value, so that
 * the fields stay in registers through the inlined phases.) */
static gf3_mat_t gf3_mat_new(int64_t rows, int64_t cols)
{
    gf3_mat_t g;
    g.L = (cols + 63) / 64;
    g.W = 2 * g.L;
    g.buf = sq_aligned_calloc(sq_mul_size((size_t)(rows ? rows : 1), (size_t)g.W),
                              sizeof(uint64_t));
    g.prow = sq_malloc(sq_mul_size((size_t)cols + 1, sizeof *g.prow));
    g.pmask = sq_calloc((size_t)g.L + 1, sizeof *g.pmask);
    for (int64_t c = 0; c < cols; c++)
        g.prow[c] = -1;
    return g;
}

static void gf3_mat_free(gf3_mat_t g)
{
    sq_free(g.prow);
    sq_free(g.pmask);
    sq_aligned_free(g.buf);
}

/* ORs the entries r[0..n) (0, 1, 2) into the planes h, l, 8 at a time:
 * bit 0 of each byte is the l plane and bit 1 the h plane; the multiply
 * gathers bit 0 of the eight bytes into the top byte.  The row's padding is
 * zero (the stride is a multiple of 32 >= 8), so reading whole words is
 * safe. */
static inline void gf3_pack(uint64_t *h, uint64_t *l, const uint8_t *r, int64_t n)
{
    const uint64_t ones = 0x0101010101010101ULL, gather = 0x0102040810204080ULL;
    for (int64_t j = 0; j < n; j += 8) {
        uint64_t w8;
        memcpy(&w8, r + j, 8);
        if (!w8)
            continue;
        l[j >> 6] |= (((w8 & ones) * gather) >> 56) << (j & 63);
        h[j >> 6] |= ((((w8 >> 1) & ones) * gather) >> 56) << (j & 63);
    }
}

/* The forward phase on rows 0..rows-1 in turn: each is reduced by the
 * pivot rows at its leading column while that column is a pivot; a row
 * whose leading column is new becomes that column's pivot, scaled to lead
 * with 1.  Pivot rows are zero left of their lead, so a subtraction starts
 * at the lead's word.  Returns the number of pivots (the rows not reduced
 * to zero).  (The fields are read into locals: the rows' stores may alias
 * an int64_t field.) */
static inline int64_t gf3_forward(const gf3_mat_t *g, int64_t rows)
{
    const int64_t L = g->L, W = g->W;
    uint64_t *const buf = g->buf, *const pmask = g->pmask;
    int64_t *const prow = g->prow;
    int64_t npiv = 0;
    for (int64_t q = 0; q < rows; q++) {
        uint64_t *h = buf + q * W, *l = h + L;
        int64_t k = 0;
        for (;;) {
            while (k < L && !(h[k] | l[k]))
                k++;
            if (k == L)
                break; /* a zero row */
            int64_t c = k * 64 + __builtin_ctzll(h[k] | l[k]);
            if (pmask[k] & (1ULL << (c & 63))) {
                const uint64_t *ph = buf + prow[c] * W;
                gf3_submul(h, l, ph, ph + L, gf3_get(h, l, c), k, L);
                continue;
            }
            if (gf3_get(h, l, c) == 2) /* lead with 1: negate */
                for (int64_t x = k; x < L; x++) {
                    uint64_t t = h[x];
                    h[x] = l[x];
                    l[x] = t;
                }
            prow[c] = q;
            pmask[k] |= 1ULL << (c & 63);
            npiv++;
            break;
        }
    }
    return npiv;
}

/* The backward phase on the pivot row of column c: clears its entries at
 * the pivot columns right of c with their (already reduced) pivot rows. */
static inline void gf3_backward(const gf3_mat_t *g, int64_t c)
{
    const int64_t L = g->L, W = g->W;
    uint64_t *const buf = g->buf;
    const uint64_t *const pmask = g->pmask;
    const int64_t *const prow = g->prow;
    uint64_t *h = buf + prow[c] * W, *l = h + L;
    int64_t k0 = c >> 6;
    for (int64_t k = k0; k < L; k++) {
        uint64_t x = (h[k] | l[k]) & pmask[k];
        if (k == k0)
            x &= (c & 63) == 63 ? 0 : ~0ULL << ((c & 63) + 1);
        while (x) {
            int64_t c2 = k * 64 + __builtin_ctzll(x);
            const uint64_t *ph = buf + prow[c2] * W;
            gf3_submul(h, l, ph, ph + L, gf3_get(h, l, c2), k, L);
            x &= x - 1;
        }
    }
}

/*
 * Row by row rather than column by column: the column-oriented
 * Gauss-Jordan of the byte reducer scans every row for every pivot, which
 * for the sparse [D | I] matrices of a resolution costs more than the
 * eliminations.  Here
 *   1. forward (gf3_forward): each row in turn is reduced by the pivot rows
 *      found so far; a row whose leading column is new becomes the pivot of
 *      that column;
 *   2. backward (gf3_backward): pivot rows in decreasing order of lead
 *      clear their entries at the pivot columns to their right; a pivot row
 *      is zero at every other pivot column, so subtracting it changes only
 *      that column and non-pivot columns, and each entry is cleared once.
 * The result is the reduced echelon form, which is unique: written back in
 * the canonical order (pivot rows by lead, zero rows last) it is
 * byte-for-byte what the byte reducer and the naive oracle give.
 */
static int64_t rref_gf3(fpmat_t *m, int64_t *pivots)
{
    const int64_t rows = m->rows, cols = m->cols;
    const gf3_mat_t g = gf3_mat_new(rows, cols);
    for (int64_t i = 0; i < rows; i++)
        gf3_pack(g.buf + i * g.W, g.buf + i * g.W + g.L, fpmat_row(m, i), cols);
    int64_t rank = gf3_forward(&g, rows);
    for (int64_t c = cols - 1; c >= 0; c--)
        if (g.prow[c] >= 0)
            gf3_backward(&g, c);
    /* Write back: pivot rows by lead, then zero rows. */
    int64_t out = 0;
    for (int64_t c = 0; c < cols; c++) {
        if (g.prow[c] < 0)
            continue;
        const uint64_t *h = g.buf + g.prow[c] * g.W;
        if (pivots)
            pivots[c] = out;
        gf3_unpack(fpmat_row(m, out++), h, h + g.L, cols);
    }
    for (; out < rows; out++)
        memset(fpmat_row(m, out), 0, (size_t)cols);
    gf3_mat_free(g);
    return rank;
}

int64_t fpmat_rref(fpmat_t *m, int64_t *pivots)
{
    if (m->p == 3 && m->rows && m->cols) {
        if (pivots)
            for (int64_t c = 0; c < m->cols; c++)
                pivots[c] = -1;
        return rref_gf3(m, pivots);
    }
    return fpmat_rref_bytes(m, pivots);
}

int64_t fpmat_rank(const fpmat_t *m)
{
    fpmat_t t = {0};
    fpmat_init_set(&t, m);
    int64_t r = t.data ? fpmat_rref(&t, NULL) : 0;
    fpmat_clear(&t);
    return r;
}

/* ---- Augmented matrices ------------------------------------------------------------- */

void fpmat_init_aug(fpmat_t *m, int64_t rows, int64_t a_cols, uint32_t p)
{
    int64_t seg = fp_seg_start(a_cols);
    fpmat_init(m, rows, seg + rows, p);
    for (int64_t i = 0; i < rows; i++)
        fpmat_row(m, i)[seg + i] = 1;
}

void fpmat_aug_kernel(fpmat_t *ker, const fpmat_t *m, const int64_t *pivots, int64_t a_cols)
{
    int64_t seg = fp_seg_start(a_cols);
    int64_t n = m->rows;
    /* The rows of the RREF of [A | I] are sorted by pivot column and each
     * has one: those from the first pivot in the I segment on are the
     * kernel (their A part is zero), the rank of A rows before them. */
    int64_t rank = n;
    for (int64_t c = seg; c < seg + n && rank == n; c++)
        if (pivots[c] >= 0)
            rank = pivots[c];
    fpmat_init(ker, n - rank, n, m->p);
    for (int64_t i = rank; i < n; i++)
        memcpy(fpmat_row(ker, i - rank), fpmat_row(m, i) + seg, (size_t)n);
}

void fpmat_aug_qi_apply(uint8_t *out, const fpmat_t *m, const int64_t *pivots, int64_t a_cols,
                        const uint8_t *v)
{
    int64_t seg = fp_seg_start(a_cols);
    for (int64_t c = 0; c < a_cols; c++)
        if (v[c] && pivots[c] >= 0)
            fpvec_addmul(out, fpmat_row(m, pivots[c]) + seg, m->rows, v[c], m->p);
}

/* ---- Kernel and image pivots in one pass ------------------------------------------------- */

/* fpmat_kernel for p = 3, bitsliced like rref_gf3: [A | I] packed directly
 * (the identity is a bit per row, never written as bytes), the forward
 * phase of rref_gf3 on all rows, then the backward phase among the kernel
 * rows only (their A part is zero, so they never need the image rows), and
 * only the kernel's identity parts unpacked.  Equal to the generic path. */
static int64_t kernel_gf3(fpmat_t *ker, int64_t *pivots, const fpmat_t *a)
{
    const int64_t rows = a->rows, cols = a->cols;
    const int64_t ioff = (cols + 63) / 64 * 64; /* the identity's first column */
    const int64_t tot = ioff + rows;
    const gf3_mat_t g = gf3_mat_new(rows, tot);
    for (int64_t i = 0; i < rows; i++) {
        uint64_t *h = g.buf + i * g.W, *l = h + g.L;
        if (cols)
            gf3_pack(h, l, fpmat_row(a, i), cols);
        l[(ioff + i) >> 6] |= 1ULL << ((ioff + i) & 63);
    }
    SQ_CHECK(gf3_forward(&g, rows) == rows, "fpmat_kernel: a row of [A | I] vanished");
    int64_t rank_a = 0;
    for (int64_t c = 0; c < cols; c++) {
        if (pivots)
            pivots[c] = g.prow[c] >= 0 ? rank_a : -1;
        rank_a += g.prow[c] >= 0;
    }
    for (int64_t c = tot - 1; c >= ioff; c--)
        if (g.prow[c] >= 0)
            gf3_backward(&g, c);
    fpmat_init(ker, rows - rank_a, rows, 3);
    int64_t out = 0;
    for (int64_t c = ioff; c < tot; c++) {
        if (g.prow[c] < 0)
            continue;
        const uint64_t *h = g.buf + g.prow[c] * g.W, *l = h + g.L;
        gf3_unpack(fpmat_row(ker, out++), h + ioff / 64, l + ioff / 64, rows);
    }
    SQ_CHECK(out == rows - rank_a, "fpmat_kernel: %lld kernel rows, expected %lld",
             (long long)out, (long long)(rows - rank_a));
    gf3_mat_free(g);
    return rank_a;
}

int64_t fpmat_kernel(fpmat_t *ker, int64_t *pivots, const fpmat_t *a)
{
    if (a->p == 3 && a->rows)
        return kernel_gf3(ker, pivots, a);
    fpmat_t m = {0};
    fpmat_init_aug(&m, a->rows, a->cols, a->p);
    for (int64_t i = 0; i < a->rows && a->cols; i++)
        memcpy(fpmat_row(&m, i), fpmat_row(a, i), (size_t)a->cols);
    int64_t *piv = sq_malloc(sq_mul_size((size_t)m.cols + 1, sizeof *piv));
    for (int64_t c = 0; c < m.cols; c++)
        piv[c] = -1;
    if (m.data)
        fpmat_rref(&m, piv);
    fpmat_aug_kernel(ker, &m, piv, a->cols);
    int64_t rank = a->rows - ker->rows;
    if (pivots)
        memcpy(pivots, piv, sizeof(int64_t) * (size_t)a->cols);
    sq_free(piv);
    fpmat_clear(&m);
    return rank;
}
