/*
 * gpu_build.c -- the batched Milnor multiply of a matrix build on the device
 * (sq_gpu_build_rows; the kernel is sq_gk_mul_* in gpu_kernels.h).
 *
 * How a build runs, on one lane:
 *
 *   1. Terms.  Every set bit of every block of every generator's image
 *      becomes one term: Sq(S) packed (with guard bits) and the output bit
 *      offset of its block.  The work items are the (row, term) pairs of
 *      each row's generator: row r owns items [row_item0[r], row_item0[r+1]).
 *   2. Left factors.  Each row's Sq(R) needs its configuration list for a
 *      column-sum degree bound at least the largest block degree of its
 *      generator.  The lists live on the device in two pools (c, D | G)
 *      with their c_1 tables (upto), indexed on the host per (degree,
 *      element): a list made by an earlier build with a large enough bound
 *      is used again, otherwise it is listed on the host (gpu_milnor.c) and
 *      appended.  The pools grow in place; when growing would pass the
 *      memory cap the lane's cache is dropped and the build's lists are made
 *      afresh, and if they still do not fit the build is declined.
 *   3. One upload of the per-build arrays (the arena), then per block of
 *      rows of bounded bytes (one block for most matrices): zero the output
 *      rows, one launch over the block's items, one download, and an XOR of
 *      the rows into m.  No allocation happens per product or per row; the
 *      lane's buffers are reused from build to build.
 *
 * Declines (SQ_E_NOGPU, m untouched): path off, every lane busy, a sub-Hopf
 * algebra, a product degree above 511 (the packed layout), a configuration
 * list above CFG_MAX, memory, a device error.  The CPU then builds the rows.
 */
#include <string.h>

#include "gpu_internal.h"

/* The most configurations one Sq(R) may have on the device (16 MiB of
 * list); the CPU workspace walks the products beyond the same size
 * (WS_CFG_MAX in milnor_op.c), and such lists only come far beyond the
 * degrees resolutions reach. */
#define CFG_MAX (INT64_C(1) << 20)

/* The most bytes of output rows per launch (gpu_out_block_max): 256 MiB,
 * or a quarter of the cap.  Larger builds are cut into row blocks, each its
 * own launch, so a launch's output stays bounded whatever the matrix. */
size_t gpu_out_block_max = (size_t)256 << 20;

/* A capacity above cap (doubled, 4096 at first) for need entries. */
static int64_t grown(int64_t cap, int64_t need)
{
    cap = cap ? 2 * cap : 4096;
    while (cap < need)
        cap *= 2;
    return cap;
}

/* Makes room for `more` configurations in the lane's new-list scratch. */
static void grow_new(gpu_lane_t *L, int64_t more)
{
    if (L->new_n + more <= L->new_cap)
        return;
    int64_t cap = grown(L->new_cap, L->new_n + more);
    size_t bytes = sq_mul_size((size_t)cap, sizeof(uint64_t));
    L->new_c = sq_realloc(L->new_c, bytes);
    L->new_d = sq_realloc(L->new_d, bytes);
    L->tmp_c = sq_realloc(L->tmp_c, bytes);
    L->tmp_d = sq_realloc(L->tmp_d, bytes);
    L->new_cap = cap;
}

static void grow_upto(gpu_lane_t *L, int64_t more)
{
    if (L->new_upto_n + more <= L->new_upto_cap)
        return;
    int64_t cap = grown(L->new_upto_cap, L->new_upto_n + more);
    L->new_upto = sq_realloc(L->new_upto, sq_mul_size((size_t)cap, sizeof(int32_t)));
    L->new_upto_cap = cap;
}

/* The cache entry of element ridx of degree rdeg listed for a bound of at
 * least `bound`, made (on the host, to be uploaded) if needed.  Returns its
 * index, or -1 if its list is longer than CFG_MAX. */
static int64_t config_entry(gpu_lane_t *L, const milnor_t *A, int32_t rdeg, int64_t ridx,
                            int32_t bound)
{
    if (!L->cslot[rdeg]) {
        int64_t dim = milnor_dim(A, rdeg);
        L->cslot[rdeg] = sq_malloc(sq_mul_size((size_t)dim, sizeof(int64_t)));
        for (int64_t k = 0; k < dim; k++)
            L->cslot[rdeg][k] = -1;
    }
    int64_t e = L->cslot[rdeg][ridx];
    if (e >= 0 && L->cent[e].bound >= bound)
        return e;
    int32_t r[MILNOR_MAX_LEN];
    int len = milnor_get(A, rdeg, ridx, r, MILNOR_MAX_LEN);
    int64_t n;
    for (int64_t room = 256;; room *= 2) {
        grow_new(L, room);
        n = gpu_configs(r, len, bound, L->new_c + L->new_n, L->new_d + L->new_n, room);
        if (n >= 0)
            break;
        if (room >= CFG_MAX)
            return -1;
    }
    grow_upto(L, bound + 2);
    gpu_configs_sort(L->new_c + L->new_n, L->new_d + L->new_n, n, bound,
                     L->new_upto + L->new_upto_n, L->tmp_c, L->tmp_d);
    if (e < 0) {
        if (L->ncent == L->capcent) {
            L->capcent = L->capcent ? 2 * L->capcent : 1024;
            L->cent = sq_realloc(L->cent, sq_mul_size((size_t)L->capcent, sizeof *L->cent));
        }
        e = L->ncent++;
        L->cslot[rdeg][ridx] = e;
    }
    /* A list made again for a larger bound replaces the old one, which
     * stays in the pools as garbage until the cache is dropped. */
    L->cent[e].cfg0 = L->cfg_used + L->new_n;
    L->cent[e].upto0 = L->upto_used + L->new_upto_n;
    L->cent[e].bound = bound;
    L->new_n += n;
    L->new_upto_n += bound + 2;
    return e;
}

/* Lists what the rows need and uploads it: fills row_cfg0/upto0/bound.
 * Returns 0, 1 when the pools would pass the cap (the caller drops the
 * cache and tries once more), or SQ_E_NOGPU. */
static int prepare_configs(gpu_lane_t *L, const sq_gpu_build_t *job, const int32_t *need,
                           int64_t *row_cfg0, int64_t *row_upto0, int64_t *row_bound)
{
    const sq_gpu_backend_t *be = sq_gpu_g.be;
    L->new_n = 0;
    L->new_upto_n = 0;
    for (int64_t i = 0; i < job->nrows; i++) {
        int32_t rdeg = job->t - job->gen_deg[job->row_gen[i]];
        int64_t e = config_entry(L, job->A, rdeg, job->row_ridx[i], need[rdeg]);
        if (e < 0)
            return SQ_E_NOGPU;
        row_cfg0[i] = L->cent[e].cfg0;
        row_upto0[i] = L->cent[e].upto0;
        row_bound[i] = L->cent[e].bound;
    }
    size_t c_keep = (size_t)L->cfg_used * 8, u_keep = (size_t)L->upto_used * 4;
    size_t c_need = (size_t)(L->cfg_used + L->new_n) * 8;
    size_t u_need = (size_t)(L->upto_used + L->new_upto_n) * 4;
    if (gpu_dev_reserve(L, &L->d_cfg_c, c_need ? c_need : 8, c_keep) < 0 ||
        gpu_dev_reserve(L, &L->d_cfg_d, c_need ? c_need : 8, c_keep) < 0 ||
        gpu_dev_reserve(L, &L->d_upto, u_need ? u_need : 4, u_keep) < 0)
        return 1;
    if (L->new_n && (be->h2d(L->st, (uint64_t *)L->d_cfg_c.p + L->cfg_used, L->new_c,
                             (size_t)L->new_n * 8) < 0 ||
                     be->h2d(L->st, (uint64_t *)L->d_cfg_d.p + L->cfg_used, L->new_d,
                             (size_t)L->new_n * 8) < 0))
        return SQ_E_NOGPU;
    if (L->new_upto_n && be->h2d(L->st, (int32_t *)L->d_upto.p + L->upto_used, L->new_upto,
                                 (size_t)L->new_upto_n * 4) < 0)
        return SQ_E_NOGPU;
    /* Pageable sources: the copies have taken the data when h2d returns,
     * and the scratch is not touched again before the next build anyway. */
    L->cfg_used += L->new_n;
    L->upto_used += L->new_upto_n;
    return 0;
}

static int build_on_lane(gpu_lane_t *L, const sq_gpu_build_t *job, f2mat_t *m, int64_t row0,
                         int64_t *launches, int64_t *products)
{
    const sq_gpu_backend_t *be = sq_gpu_g.be;
    const milnor_t *A = job->A;
    const int32_t t = job->t;

    /* Degrees: every product must fit the packed layout (degree <= 511). */
    int32_t need[SQ_GK_MAXDEG + 1];
    for (int d = 0; d <= SQ_GK_MAXDEG; d++)
        need[d] = -1;
    /* Products have degree t - deg h <= the algebra's top (the caller's
     * promise, as on the CPU); t itself may be above it. */
    const int32_t top = milnor_max_degree(A) < SQ_GK_MAXDEG ? milnor_max_degree(A) : SQ_GK_MAXDEG;
    int64_t nterms = 0;
    for (int64_t j = 0; j < job->ngens; j++) {
        int32_t rdeg = t - job->gen_deg[j];
        if (rdeg < 0 || rdeg > top)
            return SQ_E_NOGPU;
        int32_t maxdeg = 0;
        for (int64_t b = job->gen_block0[j]; b < job->gen_block0[j + 1]; b++) {
            const sq_gpu_block_t *B = &job->blocks[b];
            if (B->deg < 0 || rdeg + B->deg > top)
                return SQ_E_NOGPU;
            SQ_CHECK(B->off >= 0 && B->off + milnor_dim(A, rdeg + B->deg) <= job->out_bits,
                     "sq_gpu_build_rows: block %lld of generator %lld lands outside %lld bits",
                     (long long)b, (long long)j, (long long)job->out_bits);
            if (B->deg > maxdeg)
                maxdeg = B->deg;
            int64_t dim = milnor_dim(A, B->deg), nl = f2_limbs(dim);
            for (int64_t l = 0; l < nl; l++)
                nterms += __builtin_popcountll(job->bits[B->limb0 + l]);
        }
        if (maxdeg > need[rdeg])
            need[rdeg] = maxdeg;
    }
    SQ_CHECK(m->cols >= job->out_bits && m->rows >= row0 + job->nrows,
             "sq_gpu_build_rows: matrix %lld x %lld too small for rows %lld.. (%lld x %lld bits)",
             (long long)m->rows, (long long)m->cols, (long long)row0, (long long)job->nrows,
             (long long)job->out_bits);

    /* 1. The arena: terms, generators, rows (all 8-byte words). */
    const int64_t ng = job->ngens, nr = job->nrows;
    const int64_t o_ts = 0, o_to = nterms, o_g0 = 2 * nterms, o_ri = o_g0 + ng + 1,
                  o_rg = o_ri + nr + 1, o_rc = o_rg + nr, o_ru = o_rc + nr, o_rb = o_ru + nr,
                  words = o_rb + nr;
    if (gpu_host_reserve(&L->h_arena, (size_t)words * 8) < 0)
        return SQ_E_NOGPU;
    int64_t *H = L->h_arena.p;
    uint64_t *term_s = (uint64_t *)(H + o_ts);
    int64_t *term_off = H + o_to, *gen_term0 = H + o_g0, *row_item0 = H + o_ri, *row_gen = H + o_rg,
            *row_cfg0 = H + o_rc, *row_upto0 = H + o_ru, *row_bound = H + o_rb;
    int64_t k = 0;
    for (int64_t j = 0; j < ng; j++) {
        gen_term0[j] = k;
        for (int64_t b = job->gen_block0[j]; b < job->gen_block0[j + 1]; b++) {
            const sq_gpu_block_t *B = &job->blocks[b];
            int64_t dim = milnor_dim(A, B->deg), nl = f2_limbs(dim);
            for (int64_t l = 0; l < nl; l++)
                for (uint64_t w = job->bits[B->limb0 + l]; w; w &= w - 1) {
                    int64_t bit = l * 64 + __builtin_ctzll(w);
                    int32_t s[MILNOR_MAX_LEN];
                    SQ_CHECK(bit < dim, "sq_gpu_build_rows: block padding not zero");
                    int len = milnor_get(A, B->deg, bit, s, MILNOR_MAX_LEN);
                    term_s[k] = gpu_pack(s, len) | SQ_GK_GUARD;
                    term_off[k] = B->off;
                    k++;
                }
        }
    }
    gen_term0[ng] = k;
    int64_t items = 0;
    for (int64_t i = 0; i < nr; i++) {
        int64_t j = job->row_gen[i];
        SQ_CHECK(j >= 0 && j < ng && job->row_ridx[i] >= 0 &&
                     job->row_ridx[i] < milnor_dim(A, t - job->gen_deg[j]),
                 "sq_gpu_build_rows: row %lld out of range", (long long)i);
        row_item0[i] = items;
        row_gen[i] = j;
        items += gen_term0[j + 1] - gen_term0[j];
    }
    row_item0[nr] = items;
    *products = items;

    /* 2. Left factors. */
    int rc = prepare_configs(L, job, need, row_cfg0, row_upto0, row_bound);
    if (rc == 1) {
        be->sync(L->st);
        gpu_lane_cache_reset(L);
        rc = prepare_configs(L, job, need, row_cfg0, row_upto0, row_bound);
    }
    if (rc != 0) {
        be->sync(L->st);
        gpu_lane_cache_reset(L);
        return SQ_E_NOGPU;
    }

    /* 3. Upload, then launch per block of rows. */
    const int64_t ostride = f2_limbs(job->out_bits);
    const size_t rowbytes = (size_t)(ostride ? ostride : 1) * 8;
    size_t blockmax = gpu_out_block_max < sq_gpu_g.cap / 4 ? gpu_out_block_max : sq_gpu_g.cap / 4;
    int64_t brows = (int64_t)(blockmax / rowbytes);
    if (brows < 1)
        brows = 1;
    if (brows > nr)
        brows = nr;
    /* The device holds one block of output rows; the host staging holds
     * them all, so that m is written only once every block has succeeded
     * (a decline after a partial XOR would make the CPU's rows cancel). */
    if (gpu_dev_reserve(L, &L->d_arena, (size_t)words * 8, 0) < 0 ||
        gpu_dev_reserve(L, &L->d_out, (size_t)brows * rowbytes, 0) < 0 ||
        gpu_host_reserve(&L->h_out, sq_mul_size((size_t)nr, rowbytes)) < 0)
        return SQ_E_NOGPU;
    if (be->h2d(L->st, L->d_arena.p, H, (size_t)words * 8) < 0)
        return SQ_E_NOGPU;
    int64_t *D = L->d_arena.p;
    sq_gk_mul_t p;
    p.term_s = (const uint64_t *)(D + o_ts);
    p.term_off = D + o_to;
    p.gen_term0 = D + o_g0;
    p.row_item0 = D + o_ri;
    p.row_gen = D + o_rg;
    p.row_cfg0 = D + o_rc;
    p.row_upto0 = D + o_ru;
    p.row_bound = D + o_rb;
    p.cfg_c = L->d_cfg_c.p;
    p.cfg_d = L->d_cfg_d.p;
    p.upto = L->d_upto.p;
    p.cnt = sq_gpu_g.d_cnt;
    p.cnt_stride = SQ_GPU_CNT_STRIDE;
    p.out = L->d_out.p;
    p.out_stride = ostride;
    uint64_t *hout = L->h_out.p;
    if (!ostride)
        return 0; /* no output columns: nothing to write */
    for (int64_t b0 = 0; b0 < nr; b0 += brows) {
        int64_t b1 = b0 + brows < nr ? b0 + brows : nr;
        size_t bytes = (size_t)(b1 - b0) * (size_t)ostride * 8;
        p.row_lo = b0;
        p.row_hi = b1;
        p.item_lo = row_item0[b0];
        p.nitems = row_item0[b1] - row_item0[b0];
        if (be->zero(L->st, L->d_out.p, bytes) < 0)
            return SQ_E_NOGPU;
        if (p.nitems > 0) {
            if (be->mul(L->st, &p) < 0)
                return SQ_E_NOGPU;
            (*launches)++;
        }
        if (be->d2h(L->st, hout + b0 * ostride, L->d_out.p, bytes) < 0)
            return SQ_E_NOGPU;
    }
    for (int64_t i = 0; i < nr; i++) {
        uint64_t *dst = f2mat_row(m, row0 + i);
        const uint64_t *src = hout + i * ostride;
        for (int64_t l = 0; l < ostride; l++)
            dst[l] ^= src[l];
    }
    return 0;
}

int sq_gpu_build_rows(const sq_gpu_build_t *job, f2mat_t *m, int64_t row0)
{
    if (!sq_gpu_on())
        return SQ_E_NOGPU;
    if (job->nrows == 0)
        return 0;
    int32_t h[MILNOR_MAX_LEN];
    if (milnor_profile(job->A, h) != 0) {
        gpu_count_declined();
        return SQ_E_NOGPU;
    }
    gpu_lane_t *L = gpu_lane_acquire();
    if (!L)
        return SQ_E_NOGPU;
    double t0 = sq_wtime();
    int64_t launches = 0, products = 0;
    int rc = gpu_lane_done(L, build_on_lane(L, job, m, row0, &launches, &products));
    if (rc == 0)
        gpu_count_build(job->nrows, products, launches, 1e3 * (sq_wtime() - t0));
    return rc;
}
