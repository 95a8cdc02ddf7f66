/*
 * t-grid.c -- the kernels' per-thread functions (src/gpu/gpu_kernels.h) run
 * on the CPU over the grids a launch would use, against the CPU engine:
 * 64-bit index arithmetic past 2^32, the Milnor ranking table, the
 * R-configurations and the multiply item against milnor_mul_add /
 * milnor_mul_vec_add, and the row reduction's panel rounds against
 * f2mat_rref.  These run in every build, with or without CUDA.
 */
#include "gpu_test.h"
#include "milnor.h"

/* ---- Grid arithmetic --------------------------------------------------------- */

TEST(index_past_2_32)
{
    const int64_t two32 = INT64_C(1) << 32;
    /* Block and thread indices are 32-bit on the device; their product is not. */
    ASSERT_EQ(sq_gk_lin((INT64_C(1) << 24) + 3, 1024, 5), ((INT64_C(1) << 24) + 3) * 1024 + 5);
    ASSERT(sq_gk_lin((INT64_C(1) << 24) + 3, 1024, 5) > two32);
    ASSERT_EQ(sq_gk_lin(INT32_MAX, 1024, 1023), (int64_t)INT32_MAX * 1024 + 1023);
    ASSERT_EQ(sq_gk_stride(INT32_MAX, 1024), (int64_t)INT32_MAX * 1024);

    /* A grid of 2^40 items, capped at 2^31 - 1 blocks of 256: every item i
     * belongs to exactly one (block, thread, iteration), found by division,
     * and sq_gk_item gives it back -- around 2^32 and at the ends too. */
    const int64_t n = INT64_C(1) << 40, bdim = 256;
    const int64_t gdim = sq_gk_blocks(n, bdim, INT32_MAX);
    ASSERT_EQ(gdim, INT32_MAX);
    const int64_t stride = sq_gk_stride(gdim, bdim);
    const int64_t probes[] = {0,         1,          255,    256,        two32 - 1,         two32,
                              two32 + 1, stride - 1, stride, stride + 1, 3 * two32 + 12345, n - 2,
                              n - 1};
    for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) {
        int64_t i = probes[k];
        int64_t it = i / stride, rem = i % stride, bx = rem / bdim, tx = rem % bdim;
        ASSERT(bx < gdim && tx < bdim);
        ASSERT_EQ(sq_gk_item(bx, bdim, tx, gdim, it, n), i);
        ASSERT_EQ(sq_gk_item(bx, bdim, tx, gdim, it + 1, n), i + stride < n ? i + stride : -1);
    }
    ASSERT_EQ(sq_gk_item(gdim - 1, bdim, bdim - 1, gdim, n / stride + 1, n), -1);
    /* Block counts: ceil, at least 1, capped. */
    ASSERT_EQ(sq_gk_blocks(0, 256, 100), 1);
    ASSERT_EQ(sq_gk_blocks(256, 256, 100), 1);
    ASSERT_EQ(sq_gk_blocks(257, 256, 100), 2);
    ASSERT_EQ(sq_gk_blocks(two32 * 256 + 1, 256, INT64_MAX), two32 + 1);

    /* Row-major (row, limb) items of a matrix with more than 2^32 limbs. */
    int64_t r, l;
    sq_gk_rowcol(two32 + 77, 1 << 20, &r, &l);
    ASSERT_EQ(r, 4096);
    ASSERT_EQ(l, 77);
    sq_gk_rowcol((INT64_C(100000) * 50000) - 1, 50000, &r, &l);
    ASSERT_EQ(r, 99999);
    ASSERT_EQ(l, 49999);

    /* The row owning an item, with item counts past 2^32 (rows 1 and 2 own
     * nothing). */
    const int64_t start[] = {0,         3000000000LL,    3000000000LL, 3000000000LL,
                             two32 + 7, INT64_C(1) << 40};
    ASSERT_EQ(sq_gk_find(start, 0, 5, 0), 0);
    ASSERT_EQ(sq_gk_find(start, 0, 5, 2999999999LL), 0);
    ASSERT_EQ(sq_gk_find(start, 0, 5, 3000000000LL), 3);
    ASSERT_EQ(sq_gk_find(start, 0, 5, two32 + 6), 3);
    ASSERT_EQ(sq_gk_find(start, 0, 5, two32 + 7), 4);
    ASSERT_EQ(sq_gk_find(start, 0, 5, (INT64_C(1) << 40) - 1), 4);
    ASSERT_EQ(sq_gk_find(start, 3, 5, two32), 3);
}

/* Every item of a launch is visited exactly once, whatever the grid shape:
 * exact fits, partial last blocks, and grids capped so threads loop. */
TEST(grid_covers_items_once)
{
    const int64_t ns[] = {1, 63, 64, 65, 1000, 4097};
    const int64_t bdims[] = {1, 32, 64, 96, 256};
    const int64_t caps[] = {1, 3, 7, INT64_MAX};
    uint8_t *seen = sq_malloc(4097);
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof bdims / sizeof *bdims; b++)
            for (size_t c = 0; c < sizeof caps / sizeof *caps; c++) {
                int64_t n = ns[a], bdim = bdims[b], gdim = sq_gk_blocks(n, bdim, caps[c]);
                /* the panel kernel: w[i] = m[i * stride + limb] */
                uint64_t m[4097 * 2], w[4097];
                for (int64_t i = 0; i < n; i++) {
                    m[2 * i] = 0;
                    m[2 * i + 1] = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
                    w[i] = 0;
                }
                sq_gk_panel_t p = {m, 2, n, 1, w};
                memset(seen, 0, (size_t)n);
                for (int64_t bx = 0; bx < gdim; bx++)
                    for (int64_t tx = 0; tx < bdim; tx++) {
                        sq_gk_panel_thread(&p, bx, bdim, tx, gdim);
                        for (int64_t k = 0;; k++) {
                            int64_t i = sq_gk_item(bx, bdim, tx, gdim, k, n);
                            if (i < 0)
                                break;
                            seen[i]++;
                        }
                    }
                for (int64_t i = 0; i < n; i++) {
                    ASSERT_EQ(seen[i], 1);
                    ASSERT(w[i] == m[2 * i + 1]);
                }
            }
    sq_free(seen);
}

/* ---- Milnor data ---------------------------------------------------------------- */

TEST(rank_table_vs_milnor)
{
    milnor_t *A = milnor_new(SQ_GK_MAXDEG);
    static int64_t cnt[SQ_GPU_CNT_ROWS * SQ_GPU_CNT_STRIDE];
    gpu_cnt_table(cnt);
    for (int32_t d = 0; d <= SQ_GK_MAXDEG; d++)
        ASSERT_EQ(cnt[(SQ_GPU_CNT_ROWS - 1) * SQ_GPU_CNT_STRIDE + d], milnor_dim(A, d));
    /* Every element up to degree 160, then samples up to 511. */
    int32_t r[MILNOR_MAX_LEN];
    for (int32_t d = 0; d <= 160; d++)
        for (int64_t i = 0; i < milnor_dim(A, d); i++) {
            int len = milnor_get(A, d, i, r, MILNOR_MAX_LEN);
            ASSERT_EQ(sq_gk_rank(cnt, SQ_GPU_CNT_STRIDE, gpu_pack(r, len)), i);
        }
    sq_rand_t *R = sq_test_rand();
    for (int64_t k = 0; k < sq_test_iters(20000); k++) {
        int32_t d = 161 + (int32_t)sq_rand_below(R, SQ_GK_MAXDEG - 160);
        int64_t i = (int64_t)sq_rand_below(R, (uint64_t)milnor_dim(A, d));
        int len = milnor_get(A, d, i, r, MILNOR_MAX_LEN);
        ASSERT_EQ(sq_gk_rank(cnt, SQ_GPU_CNT_STRIDE, gpu_pack(r, len)), i);
    }
    milnor_free(A);
}

/*
 * A one-row launch on the CPU: Sq(R) times the terms of v (a vector over
 * degree sdeg, or one element when v has one bit), configurations listed for
 * `bound` >= sdeg, and the items walked over a small grid.  out must hold
 * milnor_dim(rdeg + sdeg) bits plus `off`.
 */
static void mul_on_grid(const milnor_t *A, const int64_t *cnt, int32_t rdeg, int64_t ridx,
                        int32_t sdeg, const uint64_t *v, int32_t bound, int64_t off, uint64_t *out,
                        int64_t item_base, int64_t bdim, int64_t cap)
{
    int32_t r[MILNOR_MAX_LEN], s[MILNOR_MAX_LEN];
    int rlen = milnor_get(A, rdeg, ridx, r, MILNOR_MAX_LEN);
    int64_t ccap = 1024, nc;
    uint64_t *c = NULL, *d = NULL, *tc = NULL, *td = NULL;
    for (;; ccap *= 2) {
        c = sq_realloc(c, (size_t)ccap * 8);
        d = sq_realloc(d, (size_t)ccap * 8);
        if ((nc = gpu_configs(r, rlen, bound, c, d, ccap)) >= 0)
            break;
        ASSERT(ccap < (INT64_C(1) << 22));
    }
    ASSERT(nc >= 1);
    tc = sq_malloc((size_t)nc * 8 + 8);
    td = sq_malloc((size_t)nc * 8 + 8);
    int32_t upto[SQ_GK_MAXDEG + 2];
    gpu_configs_sort(c, d, nc, bound, upto, tc, td);
    int64_t dim = milnor_dim(A, sdeg), nterms = 0;
    uint64_t *ts = sq_malloc((size_t)(dim + 1) * 8);
    int64_t *to = sq_malloc((size_t)(dim + 1) * 8);
    for (int64_t k = 0; k < dim; k++)
        if ((v[k >> 6] >> (k & 63)) & 1) {
            int slen = milnor_get(A, sdeg, k, s, MILNOR_MAX_LEN);
            ts[nterms] = gpu_pack(s, slen) | SQ_GK_GUARD;
            to[nterms++] = off;
        }
    /* Items numbered from item_base (which may pass 2^32): the row's item
     * prefix is shifted by it, as for the last rows of a huge build. */
    int64_t gen_term0[2] = {0, nterms}, row_item0[2] = {item_base, item_base + nterms};
    int64_t row_gen = 0, row_cfg0 = 0, row_upto0 = 0, row_bound = bound;
    sq_gk_mul_t p;
    p.term_s = ts;
    p.term_off = to;
    p.gen_term0 = gen_term0;
    p.row_item0 = row_item0;
    p.row_gen = &row_gen;
    p.row_cfg0 = &row_cfg0;
    p.row_upto0 = &row_upto0;
    p.row_bound = &row_bound;
    p.cfg_c = c;
    p.cfg_d = d;
    p.upto = upto;
    p.cnt = cnt;
    p.cnt_stride = SQ_GPU_CNT_STRIDE;
    p.out = out;
    p.out_stride = 0;
    p.row_lo = 0;
    p.row_hi = 1;
    p.item_lo = item_base;
    p.nitems = nterms;
    int64_t gdim = sq_gk_blocks(nterms, bdim, cap);
    for (int64_t bx = 0; bx < gdim; bx++)
        for (int64_t tx = 0; tx < bdim; tx++)
            sq_gk_mul_thread(&p, bx, bdim, tx, gdim);
    sq_free(ts);
    sq_free(to);
    sq_free(c);
    sq_free(d);
    sq_free(tc);
    sq_free(td);
}

TEST(mul_item_vs_milnor_mul_add)
{
    milnor_t *A = milnor_new(SQ_GK_MAXDEG);
    static int64_t cnt[SQ_GPU_CNT_ROWS * SQ_GPU_CNT_STRIDE];
    gpu_cnt_table(cnt);
    sq_rand_t *R = sq_test_rand();
    const int64_t words = f2_limbs(milnor_dim(A, SQ_GK_MAXDEG)) + 2;
    uint64_t *a = sq_calloc((size_t)words, 8), *b = sq_calloc((size_t)words, 8);
    uint64_t *v = sq_calloc((size_t)words, 8);
    /* Known products first: Sq(2)Sq(2) = Sq(1,1), Sq(1)Sq(1) = 0, units. */
    for (int64_t k = 0; k < sq_test_iters(2000); k++) {
        int32_t tot = k % 8 ? (int32_t)sq_rand_below(R, 160) : (int32_t)sq_rand_below(R, 512);
        int32_t rdeg = (int32_t)sq_rand_below(R, (uint64_t)tot + 1), sdeg = tot - rdeg;
        if (k % 97 == 0)
            rdeg = 0, sdeg = tot;
        if (k % 89 == 0)
            sdeg = 0, rdeg = tot;
        int64_t ridx = (int64_t)sq_rand_below(R, (uint64_t)milnor_dim(A, rdeg));
        int64_t sidx = (int64_t)sq_rand_below(R, (uint64_t)milnor_dim(A, sdeg));
        int32_t bound = sdeg + (int32_t)sq_rand_below(R, (uint64_t)(SQ_GK_MAXDEG - tot) + 1);
        int64_t off = (int64_t)sq_rand_below(R, 64);
        int64_t base = (k & 1) ? (INT64_C(1) << 33) + k : 0;
        memset(a, 0, (size_t)words * 8);
        memset(b, 0, (size_t)words * 8);
        memset(v, 0, (size_t)words * 8);
        v[sidx >> 6] |= UINT64_C(1) << (sidx & 63);
        milnor_mul_add(A, a, off, rdeg, ridx, sdeg, sidx);
        mul_on_grid(A, cnt, rdeg, ridx, sdeg, v, bound, off, b, base, 32, 2);
        for (int64_t w = 0; w < words; w++)
            if (a[w] != b[w])
                sq_test_fail(__FILE__, __LINE__,
                             "Sq(R) Sq(S), R = %lld of degree %d, S = %lld of degree %d, bound %d: "
                             "word %lld differs",
                             (long long)ridx, (int)rdeg, (long long)sidx, (int)sdeg, (int)bound,
                             (long long)w);
    }
    sq_free(a);
    sq_free(b);
    sq_free(v);
    milnor_free(A);
}

/* Many terms per row: Sq(R) * v for random v, as milnor_mul_vec_add, on
 * grids of several shapes (items of one row run on different threads). */
TEST(mul_vector_vs_milnor_mul_vec_add)
{
    milnor_t *A = milnor_new(SQ_GK_MAXDEG);
    static int64_t cnt[SQ_GPU_CNT_ROWS * SQ_GPU_CNT_STRIDE];
    gpu_cnt_table(cnt);
    sq_rand_t *R = sq_test_rand();
    const int64_t words = f2_limbs(milnor_dim(A, SQ_GK_MAXDEG)) + 2;
    uint64_t *a = sq_calloc((size_t)words, 8), *b = sq_calloc((size_t)words, 8);
    uint64_t *v = sq_calloc((size_t)words, 8);
    const int64_t shapes[][2] = {{1, 1}, {32, 1}, {32, 3}, {128, 1 << 20}};
    for (int64_t k = 0; k < sq_test_iters(300); k++) {
        int32_t tot = 20 + (int32_t)sq_rand_below(R, k < 200 ? 180 : 300);
        int32_t rdeg = (int32_t)sq_rand_below(R, (uint64_t)tot + 1), sdeg = tot - rdeg;
        int64_t ridx = (int64_t)sq_rand_below(R, (uint64_t)milnor_dim(A, rdeg));
        int64_t dim = milnor_dim(A, sdeg);
        memset(v, 0, (size_t)words * 8);
        int dens = 1 + (int)sq_rand_below(R, 4); /* 1/2 .. 1/16 of the bits */
        for (int64_t i = 0; i < dim; i++)
            if (sq_rand_below(R, (uint64_t)1 << dens) == 0)
                v[i >> 6] |= UINT64_C(1) << (i & 63);
        memset(a, 0, (size_t)words * 8);
        memset(b, 0, (size_t)words * 8);
        milnor_mul_vec_add(A, a, 5, rdeg, ridx, sdeg, v);
        const int64_t *sh = shapes[k % 4];
        mul_on_grid(A, cnt, rdeg, ridx, sdeg, v, sdeg, 5, b, 0, sh[0], sh[1]);
        for (int64_t w = 0; w < words; w++)
            if (a[w] != b[w])
                sq_test_fail(__FILE__, __LINE__,
                             "Sq(R) v, R = %lld of degree %d, v of degree %d: word %lld differs",
                             (long long)ridx, (int)rdeg, (int)sdeg, (long long)w);
    }
    sq_free(a);
    sq_free(b);
    sq_free(v);
    milnor_free(A);
}

/* The configurations of a few known elements, against a direct count of
 * Milnor matrices: Sq(2) has the R sides x_10 = 2 and x_11 = 1. */
TEST(configs_small)
{
    uint64_t c[64], d[64], tc[64], td[64];
    int32_t upto[SQ_GK_MAXDEG + 2];
    int32_t r2[] = {2};
    ASSERT_EQ(gpu_configs(r2, 1, 0, c, d, 64), 1); /* column sums of degree 0 only */
    ASSERT_EQ(gpu_configs(r2, 1, 1, c, d, 64), 2); /* and x_11 = 1 (degree 1) */
    gpu_configs_sort(c, d, 2, 1, upto, tc, td);
    ASSERT_EQ(upto[0], 0);
    ASSERT_EQ(upto[1], 1); /* c_1 = 0 */
    ASSERT_EQ(upto[2], 2); /* c_1 = 1 */
    ASSERT(c[0] == 0 && c[1] == 1);
    ASSERT((d[0] & ~SQ_GK_GUARD) == 2);                               /* x_10 = 2 on diagonal 1 */
    ASSERT((d[1] & ~SQ_GK_GUARD) == (UINT64_C(1) << sq_gk_shift(2))); /* x_11 = 1 on diagonal 2 */
    ASSERT_EQ(gpu_configs(r2, 1, 1, c, d, 1), -1);                    /* over the cap */
    int32_t unit[1] = {0};
    ASSERT_EQ(gpu_configs(unit, 0, 100, c, d, 64), 1); /* Sq() has one, empty */
}

/* ---- The row reduction's host half and kernels -------------------------------- */

/* One reduction done the way gpu_rref.c does it, on plain host arrays:
 * panel words, gpu_panel_scan, then the prow / tab / apply kernels walked
 * over a grid of the given shape.  Returns the rank; m becomes its RREF in
 * canonical order, pivots filled. */
static int64_t rref_rounds(f2mat_t *m, int64_t *pivots, int64_t bdim, int64_t cap)
{
    const int64_t rows = m->rows, cols = m->cols, nl = f2_limbs(cols);
    uint64_t *M = sq_calloc((size_t)(rows * nl + 1), 8), *w = sq_malloc((size_t)rows * 8 + 8);
    uint64_t *u = sq_malloc((size_t)rows * 8 + 8), *prow = sq_malloc((size_t)(64 * nl + 1) * 8);
    uint64_t *tab = sq_malloc((size_t)(8 * 256 * nl + 1) * 8);
    uint8_t *done = sq_calloc((size_t)rows + 1, 1);
    int64_t *pivrow = sq_malloc((size_t)(cols + 1) * 8);
    for (int64_t i = 0; i < rows; i++)
        memcpy(M + i * nl, f2mat_row(m, i), (size_t)nl * 8);
    for (int64_t c = 0; c < cols; c++)
        pivrow[c] = -1;
    int64_t rank = 0;
    for (int64_t limb = 0; limb < nl && rank < rows; limb++) {
        sq_gk_panel_t pp = {M, nl, rows, limb, w};
        int64_t g = sq_gk_blocks(rows, bdim, cap);
        for (int64_t bx = 0; bx < g; bx++)
            for (int64_t tx = 0; tx < bdim; tx++)
                sq_gk_panel_thread(&pp, bx, bdim, tx, g);
        int lc = cols - 64 * limb < 64 ? (int)(cols - 64 * limb) : 64;
        int64_t ppos[64];
        int pcol[64];
        int P = gpu_panel_scan(w, done, rows, lc, u, ppos, pcol);
        if (!P)
            continue;
        int64_t width = nl - limb;
        sq_gk_prow_t pr = {M, nl, ppos, P, limb, width, prow};
        sq_gk_tab_t pt = {prow, P, width, tab};
        sq_gk_apply_t pa = {M, nl, rows, limb, width, u, tab, (P + 7) / 8};
        g = sq_gk_blocks(P * width, bdim, cap);
        for (int64_t bx = 0; bx < g; bx++)
            for (int64_t tx = 0; tx < bdim; tx++)
                sq_gk_prow_thread(&pr, bx, bdim, tx, g);
        g = sq_gk_blocks((P + 7) / 8 * 256 * width, bdim, cap);
        for (int64_t bx = 0; bx < g; bx++)
            for (int64_t tx = 0; tx < bdim; tx++)
                sq_gk_tab_thread(&pt, bx, bdim, tx, g);
        g = sq_gk_blocks(rows * width, bdim, cap);
        for (int64_t bx = 0; bx < g; bx++)
            for (int64_t tx = 0; tx < bdim; tx++)
                sq_gk_apply_thread(&pa, bx, bdim, tx, g);
        for (int t = 0; t < P; t++) {
            done[ppos[t]] = 1;
            pivrow[64 * limb + pcol[t]] = ppos[t];
        }
        rank += P;
    }
    int64_t k = 0;
    for (int64_t c = 0; c < cols; c++) {
        pivots[c] = pivrow[c] >= 0 ? k : -1;
        if (pivrow[c] >= 0)
            memcpy(f2mat_row(m, k++), M + pivrow[c] * nl, (size_t)nl * 8);
    }
    ASSERT_EQ(k, rank);
    for (int64_t i = k; i < rows; i++)
        memset(f2mat_row(m, i), 0, (size_t)nl * 8);
    sq_free(M);
    sq_free(w);
    sq_free(u);
    sq_free(prow);
    sq_free(tab);
    sq_free(done);
    sq_free(pivrow);
    return rank;
}

/* Random matrices of the edge sizes, dense, sparse, of low rank, and
 * augmented [A | I]: the rounds give f2mat_rref's bits and pivots. */
TEST(rref_rounds_vs_f2mat_rref)
{
    sq_rand_t *R = sq_test_rand();
    const int64_t dims[] = {1, 2, 63, 64, 65, 127, 128, 129, 200};
    const int nd = (int)(sizeof dims / sizeof *dims);
    for (int64_t it = 0; it < sq_test_iters(160); it++) {
        int64_t rows = dims[sq_rand_below(R, (uint64_t)nd)],
                cols = dims[sq_rand_below(R, (uint64_t)nd)];
        int kind = (int)(it % 4);
        f2mat_t a = {0}, b = {0};
        if (kind == 3) {
            f2mat_init_aug(&a, rows, cols);
            for (int64_t i = 0; i < rows; i++)
                for (int64_t j = 0; j < cols; j++)
                    if (sq_rand_below(R, 8) == 0)
                        f2mat_set(&a, i, j, 1);
        } else if (kind == 2) {
            /* rank <= k: a product of random rows x k and k x cols */
            int64_t k = 1 + (int64_t)sq_rand_below(R, 20);
            f2mat_t x = {0}, y = {0};
            f2mat_init(&x, rows, k);
            f2mat_init(&y, k, cols);
            f2mat_randomize(&x, R);
            f2mat_randomize(&y, R);
            f2mat_mul_naive(&a, &x, &y);
            f2mat_clear(&x);
            f2mat_clear(&y);
        } else {
            f2mat_init(&a, rows, cols);
            for (int64_t i = 0; i < rows; i++)
                for (int64_t j = 0; j < cols; j++)
                    if (sq_rand_below(R, kind == 0 ? 2 : 16) == 0)
                        f2mat_set(&a, i, j, 1);
        }
        f2mat_init_set(&b, &a);
        int64_t *pa = sq_malloc((size_t)(a.cols + 1) * 8),
                *pb = sq_malloc((size_t)(a.cols + 1) * 8);
        int64_t ra = f2mat_rref(&a, pa);
        const int64_t bdims[] = {1, 32, 128};
        int64_t rb = rref_rounds(&b, pb, bdims[it % 3], it % 2 ? 3 : INT64_MAX);
        ASSERT_EQ(rb, ra);
        ASSERT_MAT_EQ(&b, &a);
        ASSERT(f2mat_is_canonical(&b));
        for (int64_t c = 0; c < a.cols; c++)
            ASSERT_EQ(pb[c], pa[c]);
        sq_free(pa);
        sq_free(pb);
        f2mat_clear(&a);
        f2mat_clear(&b);
    }
}
