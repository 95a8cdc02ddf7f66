/*
 * gpu_rref.c -- canonical RREF on the device (sq_gpu_rref) and the hook that
 * f2mat_rref_pool calls (gpu_rref_hook).
 *
 * How it works: Gauss-Jordan by 64-column panels, the matrix resident on
 * the device, one round of launches per panel and no grid barrier:
 *
 *   1. gather the panel words (limb L of every row) into one array and
 *      copy it to the host (rows x 8 bytes);
 *   2. on the host (gpu_panel_scan), pick new pivot rows among the rows
 *      that are not pivot rows yet, in row order, keeping a reduced basis of
 *      their panel words and, for each basis word, the combination of
 *      original pivot rows it is; then give every row i a 64-bit word u_i:
 *      the combination of the panel's pivot rows to XOR into it;
 *   3. copy u and the pivot rows' positions to the device, gather the
 *      pivot rows from limb L on, build Four Russians tables (ceil(P/8)
 *      tables of 256 combinations) and XOR into every row (rows x limbs
 *      items) the table entries selected by the bytes of u_i.
 *
 * After the round the panel's pivot rows are reduced within the panel, the
 * other rows that are not pivot rows are zero in limb L (and so, by
 * induction, in every limb up to L: a row that is not a pivot row after a
 * panel is zero there, since any nonzero residue would have made it one),
 * and the earlier pivot rows are zero on the new pivot columns.  After the
 * last panel each pivot row is zero on every other pivot column: that is
 * the RREF, whose rows are unique.  The host then writes them in increasing
 * pivot column, zero rows last: the canonical form of f2mat.h, bit for bit
 * the CPU's (tests/gpu compares).
 *
 * Cost per panel: two small copies (rows x 8 bytes each way) and four
 * launches, plus ~rows x (64 - L) x ceil(P/8) table reads on the device;
 * the host's share is a scan of rows words.  The matrix goes up and comes
 * back once.  Rounds stop when every row is a pivot row.
 */
#include <stdio.h>
#include <string.h>

#include "f2_kernels.h"
#include "gpu_internal.h"
#include "sq_trace.h"

int gpu_panel_scan(const uint64_t *w, const uint8_t *done, int64_t rows, int lc, uint64_t *u,
                   int64_t *ppos, int *pcol)
{
    f2_panel_t pb;
    f2_panel_init(&pb);
    for (int64_t i = 0; i < rows && pb.P < lc; i++) {
        if (done[i])
            continue;
        uint64_t x = w[i], c = 0;
        f2_panel_reduce(&pb, &x, &c);
        if (x)
            f2_panel_add(&pb, x, c, i);
    }
    const int P = pb.P;
    if (P == 0)
        return 0;
    memcpy(ppos, pb.ppos, sizeof(int64_t) * (size_t)P);
    memcpy(pcol, pb.pcol, sizeof(int) * (size_t)P);
    /* Every row: the combination clearing its bits on the pivot columns
     * (its whole panel word when that lies in the basis' span, which holds
     * for every row that is not a pivot row yet). */
    uint64_t vec[64] = {0};
    for (int b = 0; b < 64; b++)
        if ((pb.pivmask >> b) & 1)
            vec[b] = pb.comb[pb.t_of_bit[b]];
    static _Thread_local uint64_t tab[8][256];
    f2_byte_tables(tab, vec, 64);
    for (int64_t i = 0; i < rows; i++) {
        uint64_t x = w[i] & pb.pivmask;
        u[i] = x ? f2_byte_lookup((const uint64_t (*)[256])tab, x, 8) : 0;
    }
    /* The pivot rows become their reduced basis words. */
    for (int t = 0; t < P; t++)
        u[ppos[t]] = pb.comb[t] ^ ((uint64_t)1 << t);
    return P;
}

/* Host scratch of the lane for a reduction of rows x cols. */
static void host_scratch(gpu_lane_t *L, int64_t rows, int64_t cols)
{
    if (rows > L->hcap_rows) {
        L->w = sq_realloc(L->w, sq_mul_size((size_t)rows, 8));
        L->u = sq_realloc(L->u, sq_mul_size((size_t)rows, 8));
        L->done = sq_realloc(L->done, (size_t)rows);
        L->hcap_rows = rows;
    }
    if (cols > L->hcap_cols) {
        L->pivrow = sq_realloc(L->pivrow, sq_mul_size((size_t)cols, 8));
        L->hcap_cols = cols;
    }
}

static int rref_on_lane(gpu_lane_t *L, f2mat_t *m, int64_t *pivots, int64_t *rank_out)
{
    const sq_gpu_backend_t *be = sq_gpu_g.be;
    const int64_t rows = m->rows, cols = m->cols, nl = f2_limbs(cols);
    const size_t mbytes = sq_mul_size(sq_mul_size((size_t)rows, (size_t)nl), 8);
    if (gpu_dev_reserve(L, &L->d_m, mbytes, 0) < 0 ||
        gpu_dev_reserve(L, &L->d_w, (size_t)rows * 8, 0) < 0 ||
        gpu_dev_reserve(L, &L->d_u, (size_t)rows * 8, 0) < 0 ||
        gpu_dev_reserve(L, &L->d_ppos, 64 * 8, 0) < 0 ||
        gpu_dev_reserve(L, &L->d_prow, sq_mul_size(64 * 8, (size_t)nl), 0) < 0 ||
        gpu_dev_reserve(L, &L->d_tab, sq_mul_size(8 * 256 * 8, (size_t)nl), 0) < 0 ||
        gpu_host_reserve(&L->h_m, mbytes) < 0)
        return SQ_E_NOGPU;
    host_scratch(L, rows, cols);
    uint64_t *H = L->h_m.p;
    for (int64_t i = 0; i < rows; i++)
        memcpy(H + i * nl, f2mat_row(m, i), (size_t)nl * 8);
    if (be->h2d(L->st, L->d_m.p, H, mbytes) < 0)
        return SQ_E_NOGPU;
    memset(L->done, 0, (size_t)rows);
    for (int64_t c = 0; c < cols; c++)
        L->pivrow[c] = -1;

    sq_gk_panel_t pp = {L->d_m.p, nl, rows, 0, L->d_w.p};
    sq_gk_prow_t pr = {L->d_m.p, nl, L->d_ppos.p, 0, 0, 0, L->d_prow.p};
    sq_gk_tab_t pt = {L->d_prow.p, 0, 0, L->d_tab.p};
    sq_gk_apply_t pa = {L->d_m.p, nl, rows, 0, 0, L->d_u.p, L->d_tab.p, 0};
    int64_t rank = 0;
    for (int64_t limb = 0; limb < nl && rank < rows; limb++) {
        pp.limb = limb;
        if (be->rr_panel(L->st, &pp) < 0 || be->d2h(L->st, L->w, L->d_w.p, (size_t)rows * 8) < 0)
            return SQ_E_NOGPU;
        int lc = cols - 64 * limb < 64 ? (int)(cols - 64 * limb) : 64;
        int64_t ppos[64];
        int pcol[64];
        int P = gpu_panel_scan(L->w, L->done, rows, lc, L->u, ppos, pcol);
        if (P == 0)
            continue;
        const int64_t width = nl - limb;
        pr.P = pt.P = P;
        pr.limb0 = pa.limb0 = limb;
        pr.width = pt.width = pa.width = width;
        pa.G = (P + 7) / 8;
        if (be->h2d(L->st, L->d_u.p, L->u, (size_t)rows * 8) < 0 ||
            be->h2d(L->st, L->d_ppos.p, ppos, (size_t)P * 8) < 0 || be->rr_prow(L->st, &pr) < 0 ||
            be->rr_tab(L->st, &pt) < 0 || be->rr_apply(L->st, &pa) < 0)
            return SQ_E_NOGPU;
        for (int t = 0; t < P; t++) {
            L->done[ppos[t]] = 1;
            L->pivrow[64 * limb + pcol[t]] = ppos[t];
        }
        rank += P;
    }
    if (be->d2h(L->st, H, L->d_m.p, mbytes) < 0)
        return SQ_E_NOGPU;
    /* The canonical order: pivot rows by pivot column, zero rows last. */
    int64_t k = 0;
    for (int64_t c = 0; c < cols; c++) {
        int64_t r = L->pivrow[c];
        if (pivots)
            pivots[c] = r >= 0 ? k : -1;
        if (r >= 0)
            memcpy(f2mat_row(m, k++), H + r * nl, (size_t)nl * 8);
    }
    SQ_CHECK(k == rank, "sq_gpu_rref: %lld pivot rows for rank %lld", (long long)k,
             (long long)rank);
    for (int64_t i = k; i < rows; i++)
        memset(f2mat_row(m, i), 0, (size_t)nl * 8);
    *rank_out = rank;
    return 0;
}

int sq_gpu_rref(f2mat_t *m, int64_t *pivots, int64_t *rank)
{
    if (!sq_gpu_on() || m->rows == 0 || m->cols == 0)
        return SQ_E_NOGPU;
    gpu_lane_t *L = gpu_lane_acquire();
    if (!L)
        return SQ_E_NOGPU;
    double t0 = sq_wtime();
    int rc = gpu_lane_done(L, rref_on_lane(L, m, pivots, rank));
    if (rc == 0)
        gpu_count_rr(m->rows, 1e3 * (sq_wtime() - t0));
    return rc;
}

/* The rr event of a reduction on the device (sq_trace_rr, path=gpu). */
static void trace_gpu(const f2mat_t *m, int64_t rank, double t0)
{
    if (sq_trace_rr_on(m->rows, m->cols))
        sq_trace_rr(m->rows, m->cols, rank, "gpu", t0);
}

typedef int64_t (*gpu_rref_cpu_fn)(f2mat_t *m, int64_t *pivots, sq_pool_t *pool);
int64_t gpu_rref_hook(f2mat_t *m, int64_t *pivots, sq_pool_t *pool, gpu_rref_cpu_fn cpu);

/* Verify mode: the device reduces a copy, the CPU reduces m; any
 * difference in rank, pivots or bits stops the program. */
static int64_t rref_verify(f2mat_t *m, int64_t *pivots, sq_pool_t *pool, gpu_rref_cpu_fn cpu)
{
    f2mat_t g = {0};
    f2mat_init_set(&g, m);
    int64_t *pg = sq_malloc(sq_mul_size((size_t)m->cols + 1, sizeof *pg));
    int64_t *pc = pivots ? pivots : sq_malloc(sq_mul_size((size_t)m->cols + 1, sizeof *pc));
    int64_t rg = -1;
    double t0 = sq_wtime();
    int rc = sq_gpu_rref(&g, pg, &rg);
    if (rc == 0)
        trace_gpu(&g, rg, t0);
    int64_t r = cpu(m, pc, pool);
    if (rc == 0) {
        char detail[200];
        if (rg != r) {
            snprintf(detail, sizeof detail,
                     "rank %lld on the CPU, %lld on the device (%lld x %lld)", (long long)r,
                     (long long)rg, (long long)m->rows, (long long)m->cols);
            gpu_verify_fail("row reduction", detail);
        }
        sq_gpu_verify_rows("row reduction", m, &g);
        for (int64_t c = 0; c < m->cols; c++)
            if (pc[c] != pg[c]) {
                snprintf(detail, sizeof detail,
                         "pivots[%lld] = %lld on the CPU, %lld on the device (%lld x %lld)",
                         (long long)c, (long long)pc[c], (long long)pg[c], (long long)m->rows,
                         (long long)m->cols);
                gpu_verify_fail("row reduction", detail);
            }
    }
    if (!pivots)
        sq_free(pc);
    sq_free(pg);
    f2mat_clear(&g);
    return r;
}

int64_t gpu_rref_hook(f2mat_t *m, int64_t *pivots, sq_pool_t *pool, gpu_rref_cpu_fn cpu)
{
    int64_t mn = m->rows < m->cols ? m->rows : m->cols;
    if (mn < sq_gpu_g.set.rr_min || !sq_gpu_available())
        return cpu(m, pivots, pool);
    if (sq_gpu_g.set.verify)
        return rref_verify(m, pivots, pool, cpu);
    double t0 = sq_wtime();
    int64_t rank;
    if (sq_gpu_rref(m, pivots, &rank) == 0) {
        trace_gpu(m, rank, t0);
        return rank;
    }
    return cpu(m, pivots, pool);
}
