/*
 * rref_m4ri.c -- canonical RREF by the Method of Four Russians.
 *
 * How it works.  The columns are processed in panels of one limb (64
 * columns).  Let r be the rank found so far; rows r.. are zero left of the
 * panel.
 *
 * 1. Scan (per panel, on 64-bit words only).  Walk the panel words w_i of
 *    rows i >= r, keeping a basis of their span in reduced echelon form
 *    (at most 64 words, each with its pivot bit, the lowest bit it had when
 *    it joined, and zero at every other basis pivot).  Each basis word
 *    remembers, as a 64-bit mask `comb`, which of the *original* pivot rows
 *    (numbered t = 0, 1, ... in the order they were found) XOR to it.  A row
 *    whose reduced word is nonzero becomes pivot row t; any other row gets
 *    u_i = the combination of original pivot rows that clears its panel
 *    word.  Once the basis spans the whole panel no row can add a pivot, and
 *    u_i is read from eight 256-entry byte tables (one lookup per byte of
 *    w_i) instead of a bit loop; a basis that stops growing before that
 *    gets byte tables too, rebuilt if it grows again.  A pivot row gets
 *    u = comb ^ (1 << t), which turns it into its reduced form.
 * 2. The P pivot rows are swapped to rows r .. r+P-1 in increasing pivot
 *    column (only limbs >= the panel move: the rest is zero).
 * 3. Update (the bulk of the work).  Rows r.. are updated by
 *        row_i ^= sum_t u_i[t] * (original pivot row t),
 *    using ceil(P/k) tables of 2^k combinations of k original pivot rows
 *    each (k chosen by a cost model, 8 for large panels).  Every row gets
 *    all its table entries XORed in one pass (f2_kernels_t.table_apply).
 *    The columns are cut into tiles of W limbs so that the tables of one
 *    tile (<= TABLE_BUDGET bytes) stay in L2 while all rows stream past;
 *    the tables of a tile are built from the pivot rows before the tile is
 *    updated, so the pivot rows can be updated in the same pass.  Only limbs
 *    from the panel on are touched (rounded down to a 32-byte boundary:
 *    the extra limbs are zero in every table entry).
 *
 * After the forward pass the rows form an echelon form whose panels are
 * each reduced within their own limb.  The back-substitution walks the
 * panels from the last to the first and clears each panel's pivot columns
 * from the rows above it, with the same tables.  Because later panels have
 * already cleared their pivot columns from this panel's pivot rows, those
 * rows are zero on every later pivot column, so only the panel limb and the
 * limbs that contain non-pivot columns need updating.  For a full-rank
 * square matrix that is almost nothing; in general it makes the
 * back-substitution cost proportional to the number of non-pivot columns.
 *
 * Canonical output: the RREF is unique, so the freedom in choosing pivot
 * rows does not show in the result; the rows are physically sorted by pivot
 * column and zero rows end up last.  The result equals f2mat_rref_naive bit
 * for bit (tested).
 *
 * Scratch is allocated per call (u words, tables, gathered pivot segments);
 * there is no global state, so concurrent calls on different matrices are
 * safe.
 */
#include <string.h>

#include "f2_kernels.h"
#include "f2mat.h"

/*
 * TABLE_BUDGET: bytes of tables per tile.  Assumptions: a private L2 of
 * 1 MiB per core (AMD Zen 3 EPYC, where this was measured; Intel client
 * cores have 1.25-2 MiB), of which the tables may take about half while the
 * rows being updated stream through the rest.  With k = 8 and 8 tables
 * (2048 entries) this gives tiles of 32 limbs = 2048 columns.  Measured with
 * bench/b-rref.c on 4000^2 and 10000^2: 128-256 KiB was clearly slower
 * (narrow tiles: the per-row cost of index extraction dominates), 768 KiB
 * and 1 MiB were within noise on 10000^2 and slower on 4000^2.
 */
#define TABLE_BUDGET (512 * 1024)

/* Largest k (index bits per table); at k = 8 a full panel needs 8 tables. */
#define K_MAX 8

/* The scan switches from bit loops to byte tables once the panel basis has
 * not grown for STABLE_ROWS rows and at least STABLE_MIN_LEFT rows remain:
 * building the two tables costs ~4000 word operations, a bit loop ~P/2 per
 * row, so a rebuild pays after a few hundred rows; a basis that keeps
 * growing every ~STABLE_ROWS rows costs at most 64 rebuilds per panel. */
#define STABLE_ROWS 64
#define STABLE_MIN_LEFT 512

/* Back-substitution: two runs of limbs to update that are at most GAP_MERGE
 * limbs apart are merged (the limbs between are zero in every table entry),
 * which saves one table build per run at the cost of a few XORs of zeros. */
#define GAP_MERGE 8

typedef struct {
    f2mat_t *m;
    sq_pool_t *pool;  /* threads for the table application, or NULL */
    const f2_kernels_t *K;
    int64_t nl;       /* limbs holding columns */
    uint64_t *u;      /* one index word per row */
    uint64_t *tables; /* tab_cap limbs, 64-byte aligned */
    int64_t tab_cap;  /* limbs */
    uint64_t *prow;   /* 64 gathered pivot segments of prow_stride limbs */
    int64_t prow_stride;
    uint64_t bytetab[8][256];  /* panel word -> index word, one table per byte */
    uint64_t bytetab2[8][256]; /* panel word -> reduced-word correction */
} ws_t;

static inline uint64_t *row_of(const ws_t *ws, int64_t i)
{
    return ws->m->data + i * ws->m->stride;
}

static inline int64_t round4(int64_t n)
{
    return (n + 3) & ~(int64_t)3;
}

/* Picks k (bits per table), the number of tables G and the tile width W
 * (limbs) for P pivot rows applied to nnz nonzero rows of `width` limbs.
 * Cost model in units of one 32-byte load-XOR-store: building a table
 * group of 2^kk entries costs ~3 per entry and limb, applying costs
 * ~(number of tables + 2) per row and limb.  Small row counts thus get
 * small k (cheap tables), large ones k = 8. */
static void choose_k(const ws_t *ws, int P, int64_t nnz, int64_t width, int *k_out, int *G_out,
                     int64_t *W_out)
{
    double best = -1;
    int bk = 1;
    for (int k = 1; k <= K_MAX; k++) {
        int G = (P + k - 1) / k;
        double build = 0;
        for (int g = 0; g < G; g++) {
            int kk = P - g * k < k ? P - g * k : k;
            build += 3.0 * (double)((int64_t)1 << kk);
        }
        double cost = build + (double)nnz * (G + 2);
        if (best < 0 || cost < best) {
            best = cost;
            bk = k;
        }
        if (k >= P)
            break;
    }
    int G = (P + bk - 1) / bk;
    int64_t entries = (int64_t)G << bk;
    int64_t W = (ws->tab_cap / entries) & ~(int64_t)3;
    if (W < 4)
        W = 4;
    if (W > ws->prow_stride)
        W = ws->prow_stride;
    if (W > round4(width))
        W = round4(width);
    *k_out = bk;
    *G_out = G;
    *W_out = W;
}

/*
 * Parallel table application.  A panel update is cut into a grid of
 * column ranges x row blocks, one chunk each.  Column ranges first: a chunk
 * builds the tables of its own columns only (from a shared copy of the
 * pivot segments, taken before any row changes, since the pivot rows are
 * themselves among the rows updated) and applies them to its rows, so
 * cutting columns adds no table building.  Ranges are whole tiles' worth
 * of at least COL_MIN limbs (narrower tiles make the per-row index
 * extraction dominate, see TABLE_BUDGET).  When the columns give fewer
 * chunks than 2 per thread, the rows are cut too, into blocks of at least
 * ROW_MIN rows: each row block builds the tables of its columns again
 * (~3 * 2^k * G per limb against ~(G + 2) per row and limb to apply them,
 * so at ROW_MIN rows the extra builds cost at most about a third).
 * Every row limb gets the same table entries XORed in whichever chunk runs
 * it: the bits are those of the serial path.
 *
 * PAR_MIN_WORK: the update must touch at least this many limbs (rows x
 * width) to be split: below ~0.2 ms of XORs, waking threads (tens of us)
 * eats the gain.  (Before the column ranges, every chunk built all the
 * tables and the cutoff was 2^19 limbs, measured with a 12000^2 reduction
 * on this 2-core machine.)
 */
#define PAR_MIN_WORK (INT64_C(1) << 17)
#define COL_MIN 16
#define ROW_MIN 2048

typedef struct {
    const ws_t *ws;
    const uint64_t *pr;  /* P gathered pivot segments of `width` limbs (stride prs) */
    int64_t prs, width;
    int P, k, G;
    int64_t W;           /* tile width */
    int64_t row0, nrows, a0;
    int64_t ccols, crows; /* column ranges, row blocks: chunks = ccols * crows */
    int64_t nq;          /* 4-limb quads of the width */
} par_apply_t;

static void apply_block(void *ctx, int64_t c)
{
    const par_apply_t *p = ctx;
    const ws_t *ws = p->ws;
    int64_t cc = c % p->ccols, rc = c / p->ccols;
    int64_t r0 = p->row0 + rc * p->nrows / p->crows;
    int64_t r1 = p->row0 + (rc + 1) * p->nrows / p->crows;
    int64_t b0 = 4 * (cc * p->nq / p->ccols), b1 = 4 * ((cc + 1) * p->nq / p->ccols);
    if (b1 > p->width)
        b1 = p->width;
    if (r0 == r1 || b0 >= b1)
        return;
    /* Not zeroed, 64-byte aligned by hand (as the serial path's scratch):
     * table_build writes every entry it reads. */
    int64_t es_max = round4(b1 - b0 < p->W ? b1 - b0 : p->W);
    void *block = sq_malloc(sq_mul_size((size_t)(((int64_t)p->G << p->k) * es_max) + 8, 8));
    uint64_t *tables = (uint64_t *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    for (int64_t a = b0; a < b1; a += p->W) {
        int64_t w = b1 - a < p->W ? b1 - a : p->W;
        int64_t es = round4(w);
        for (int g = 0; g < p->G; g++) {
            int kk = p->P - g * p->k < p->k ? p->P - g * p->k : p->k;
            ws->K->table_build(tables + ((int64_t)g << p->k) * es, es,
                               p->pr + (int64_t)g * p->k * p->prs + a, p->prs, kk, w);
        }
        ws->K->table_apply(row_of(ws, r0) + p->a0 + a, ws->m->stride, r1 - r0, ws->u + r0,
                           tables, es, p->k, p->G, w);
    }
    sq_free(block);
}

/* The parallel path of apply_range (see above). */
static void apply_range_par(ws_t *ws, const int64_t *prow_rows, int P, int64_t row0,
                            int64_t nrows, int k, int G, int64_t W, int64_t a0, int64_t a1)
{
    int64_t width = a1 - a0, prs = round4(width);
    uint64_t *pr = sq_malloc(sq_mul_size((size_t)(P * prs) + 4, sizeof(uint64_t)));
    for (int t = 0; t < P; t++)
        memcpy(pr + t * prs, row_of(ws, prow_rows[t]) + a0, (size_t)width * sizeof(uint64_t));
    int64_t want = 2 * (int64_t)sq_pool_size(ws->pool), nq = (width + 3) / 4;
    int64_t ccols = width / COL_MIN;
    ccols = ccols < 1 ? 1 : ccols > want ? want : ccols;
    int64_t crows = (want + ccols - 1) / ccols;
    if (crows > nrows / ROW_MIN)
        crows = nrows / ROW_MIN;
    if (crows < 1)
        crows = 1;
    par_apply_t p = {ws, pr, prs, width, P, k, G, W, row0, nrows, a0, ccols, crows, nq};
    sq_pool_parallel_for(ws->pool, ccols * crows, apply_block, &p);
    sq_free(pr);
}

/* Updates limbs [a0, a1) of rows [row0, row0 + nrows) with u[row0 ..] as
 * index words, where original pivot row t (t < P) is row prow_rows[t]. */
static void apply_range(ws_t *ws, const int64_t *prow_rows, int P, int64_t row0, int64_t nrows,
                        int64_t nnz, int64_t a0, int64_t a1)
{
    const f2_kernels_t *K = ws->K;
    int64_t stride = ws->m->stride;
    int k, G;
    int64_t W;
    choose_k(ws, P, nnz, a1 - a0, &k, &G, &W);
    if (ws->pool && sq_pool_size(ws->pool) > 1 && nrows * (a1 - a0) >= PAR_MIN_WORK) {
        apply_range_par(ws, prow_rows, P, row0, nrows, k, G, W, a0, a1);
        return;
    }
    for (int64_t a = a0; a < a1; a += W) {
        int64_t w = a1 - a < W ? a1 - a : W;
        int64_t es = round4(w);
        for (int t = 0; t < P; t++)
            memcpy(ws->prow + t * ws->prow_stride, row_of(ws, prow_rows[t]) + a,
                   (size_t)w * sizeof(uint64_t));
        for (int g = 0; g < G; g++) {
            int kk = P - g * k < k ? P - g * k : k;
            K->table_build(ws->tables + ((int64_t)g << k) * es, es,
                           ws->prow + (int64_t)g * k * ws->prow_stride, ws->prow_stride, kk, w);
        }
        K->table_apply(row_of(ws, row0) + a, stride, nrows, ws->u + row0, ws->tables, es, k, G,
                       w);
    }
}

static inline void swap_limbs(uint64_t *a, uint64_t *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

/*
 * The panel scan and the index words over the pool.  A panel's scan walks
 * rows r.. in order, but which rows are pivots does not need the order
 * within a block of rows: a row whose word is in the span of the earlier
 * words of its own block is in that of all earlier words, so only the rows
 * independent within their block (at most 64 a block) can be pivots.
 * Split: (a) each block of rows finds those candidates on its own and
 * copies its panel words; (b) the candidates, in row order, go through the
 * serial scan's basis (the same pivots, in the same order, with the same
 * combinations as the serial scan); (c) each block reads its rows' index
 * words off the final basis's byte tables (a non-pivot row's index word is
 * the unique combination of the pivot rows that clears its word, whenever
 * it is computed).  The back-substitution's index words are per row too.
 * Below SCAN_PAR_MIN_ROWS rows, or on one thread, all stays serial;
 * blocks have at least SCAN_BLOCK_MIN rows.  The bits are those of the
 * serial path.
 */
#define SCAN_PAR_MIN_ROWS 4096
#define SCAN_BLOCK_MIN 1024

typedef struct {
    const ws_t *ws;
    int64_t L, r, n, blocks; /* rows r .. r + n - 1, in `blocks` blocks */
    int lc;
    uint64_t *W;             /* the n panel words */
    int64_t *cand;           /* 64 a block: the candidates' rows */
    int *ncand;
    uint64_t pivmask;        /* (c) the final basis's pivot bits, its tables */
    const uint64_t (*tab)[256];
    int nbytes;
} scan_par_t;

static int scan_blocks(const ws_t *ws, int64_t n)
{
    if (!ws->pool || sq_pool_size(ws->pool) < 2 || n < SCAN_PAR_MIN_ROWS)
        return 1;
    int64_t b = 2 * (int64_t)sq_pool_size(ws->pool), most = n / SCAN_BLOCK_MIN;
    return (int)(b < most ? b : most);
}

/* (a) Block c's candidates and panel words. */
static void scan_cand_block(void *ctx, int64_t c)
{
    const scan_par_t *a = ctx;
    int64_t i0 = a->n * c / a->blocks, i1 = a->n * (c + 1) / a->blocks;
    const int64_t stride = a->ws->m->stride;
    const uint64_t *row = a->ws->m->data + (a->r + i0) * stride + a->L;
    f2_panel_t lb;
    f2_panel_init(&lb);
    int nc = 0;
    for (int64_t i = i0; i < i1; i++, row += stride) {
        uint64_t w = *row, dummy = 0;
        a->W[i] = w;
        if (lb.P == a->lc)
            continue;
        f2_panel_reduce(&lb, &w, &dummy);
        if (w) {
            f2_panel_add(&lb, w, 0, i);
            a->cand[64 * c + nc++] = a->r + i;
        }
    }
    a->ncand[c] = nc;
}

/* (c) Block c's index words off the final basis (pivot rows: overwritten
 * by the caller). */
static void scan_index_block(void *ctx, int64_t c)
{
    const scan_par_t *a = ctx;
    int64_t i0 = a->n * c / a->blocks, i1 = a->n * (c + 1) / a->blocks;
    uint64_t *u = a->ws->u + a->r;
    for (int64_t i = i0; i < i1; i++) {
        uint64_t x = a->W[i] & a->pivmask;
        u[i] = x ? f2_byte_lookup(a->tab, x, a->nbytes) : 0;
    }
}

/* The scan of panel L from row r split over blocks (see above): pb gets the
 * basis the serial scan ends with, u[r ..] the index words of the non-pivot
 * rows (the caller sets the pivot rows'). */
static void scan_par(ws_t *ws, int64_t L, int64_t r, int lc, int blocks, f2_panel_t *pb)
{
    int64_t n = ws->m->rows - r;
    scan_par_t a = {ws, L, r, n, blocks, lc, NULL, NULL, NULL, 0, NULL, 0};
    a.W = sq_malloc(sq_mul_size((size_t)n, sizeof *a.W));
    a.cand = sq_malloc(sq_mul_size((size_t)blocks * 64, sizeof *a.cand));
    a.ncand = sq_malloc(sq_mul_size((size_t)blocks, sizeof *a.ncand));
    sq_pool_parallel_for(ws->pool, blocks, scan_cand_block, &a);
    for (int c = 0; c < blocks && pb->P < lc; c++)
        for (int k = 0; k < a.ncand[c] && pb->P < lc; k++) {
            int64_t i = a.cand[64 * c + k];
            uint64_t w = a.W[i - r], comb = 0;
            f2_panel_reduce(pb, &w, &comb);
            if (w)
                f2_panel_add(pb, w, comb, i);
        }
    if (pb->P > 0) {
        uint64_t vc[64] = {0};
        for (int t = 0; t < pb->P; t++)
            vc[pb->pcol[t]] = pb->comb[t];
        f2_byte_tables(ws->bytetab, vc, lc);
        a.pivmask = pb->pivmask;
        a.tab = (const uint64_t (*)[256])ws->bytetab;
        a.nbytes = (lc + 7) / 8;
        sq_pool_parallel_for(ws->pool, blocks, scan_index_block, &a);
    }
    sq_free(a.ncand);
    sq_free(a.cand);
    sq_free(a.W);
}

/* Builds the byte tables mapping a panel word to its index word:
 * bytetab[b][x] = XOR of vec[bit] over the bits j of x, bit = 8b + j < nbits. */
/* The forward step for panel L with rows r.. (zero left of the panel).
 * Returns the number P of pivots found; on return rows r .. r+P-1 are the
 * pivot rows sorted by pivot column, reduced within the panel limb, all
 * later rows are zero in limbs <= L, and pcol_sorted[s] is the pivot bit of
 * row r + s. */
static int forward_panel(ws_t *ws, int64_t L, int64_t r, int pcol_sorted[64])
{
    f2mat_t *m = ws->m;
    const int64_t rows = m->rows, nl = ws->nl;
    const int lc = m->cols - L * 64 < 64 ? (int)(m->cols - L * 64) : 64;
    uint64_t *u = ws->u;
    f2_panel_t pb;
    f2_panel_init(&pb);

    /* 1. Scan.  The basis is applied bit by bit, or, once it has been
     * stable for STABLE_ROWS rows and enough rows remain to pay for it,
     * through byte tables (one for the combination, one for the reduced
     * word), which a new pivot invalidates.  This keeps the scan cheap when
     * a panel never reaches full rank, e.g. with a dependent column. */
    int64_t i = r, since = 0;
    int tab_ok = 0, blocks = scan_blocks(ws, rows - r);
    if (blocks > 1) {
        scan_par(ws, L, r, lc, blocks, &pb);
        i = rows;
    }
    for (; i < rows && pb.P < lc; i++) {
        uint64_t w = row_of(ws, i)[L], c = 0;
        uint64_t x = w & pb.pivmask;
        if (tab_ok && x) {
            w ^= f2_byte_lookup(ws->bytetab2, x, (lc + 7) / 8);
            c = f2_byte_lookup(ws->bytetab, x, (lc + 7) / 8);
        } else if (x) {
            f2_panel_reduce(&pb, &w, &c);
        }
        if (w == 0) {
            u[i] = c;
            if (!tab_ok && ++since >= STABLE_ROWS && rows - i >= STABLE_MIN_LEFT) {
                uint64_t vc[64] = {0}, vw[64] = {0};
                for (int t = 0; t < pb.P; t++) {
                    vc[pb.pcol[t]] = pb.comb[t];
                    vw[pb.pcol[t]] = pb.basis[t];
                }
                f2_byte_tables(ws->bytetab, vc, lc);
                f2_byte_tables(ws->bytetab2, vw, lc);
                tab_ok = 1;
            }
            continue;
        }
        tab_ok = 0;
        since = 0;
        f2_panel_add(&pb, w, c, i);
    }
    const int P = pb.P;
    const int *pcol = pb.pcol;
    int64_t *ppos = pb.ppos;
    if (P == 0)
        return 0;
    if (i < rows) {
        /* The basis spans the panel: every remaining row reduces to zero. */
        uint64_t vec[64];
        for (int b = 0; b < lc; b++)
            vec[b] = pb.comb[pb.t_of_bit[b]];
        int nbytes = (lc + 7) / 8;
        int64_t bits = 0; /* tables or bit loop: as in backsub_panel */
        for (int64_t q = i; q < rows; q++)
            bits += __builtin_popcountll(row_of(ws, q)[L]);
        if (bits > 256 * nbytes + (rows - i) * nbytes) {
            f2_byte_tables(ws->bytetab, vec, lc);
            for (; i < rows; i++) {
                uint64_t w = row_of(ws, i)[L];
                u[i] = w ? f2_byte_lookup(ws->bytetab, w, nbytes) : 0;
            }
        } else {
            for (; i < rows; i++) {
                uint64_t c = 0;
                for (uint64_t x = row_of(ws, i)[L]; x; x &= x - 1)
                    c ^= vec[__builtin_ctzll(x)];
                u[i] = c;
            }
        }
    }
    for (int t = 0; t < P; t++)
        u[ppos[t]] = pb.comb[t] ^ ((uint64_t)1 << t);

    /* 2. Move the pivot rows to r .. r+P-1 in increasing pivot column.
     * owner[q] is the pivot whose row is at r + q (or -1), for q < 64: the
     * only positions a pivot row is moved to. */
    int order[64], owner[64];
    for (int t = 0; t < P; t++) {
        int s = t;
        while (s > 0 && pcol[order[s - 1]] > pcol[t]) {
            order[s] = order[s - 1];
            s--;
        }
        order[s] = t;
    }
    for (int q = 0; q < 64; q++)
        owner[q] = -1;
    for (int t = 0; t < P; t++)
        if (ppos[t] - r < 64)
            owner[ppos[t] - r] = t;
    for (int s = 0; s < P; s++) {
        int t = order[s];
        int64_t j = ppos[t], dst = r + s;
        pcol_sorted[s] = pcol[t];
        if (j == dst)
            continue;
        swap_limbs(row_of(ws, j) + L, row_of(ws, dst) + L, nl - L);
        uint64_t tu = u[j];
        u[j] = u[dst];
        u[dst] = tu;
        int o = owner[s]; /* the pivot row displaced from dst, if any */
        if (o >= 0)
            ppos[o] = j;
        if (j - r < 64)
            owner[j - r] = o;
        owner[s] = t;
        ppos[t] = dst;
    }

    /* 3. Update rows r.. from limb L on. */
    int64_t nnz = 0;
    for (int64_t q = r; q < rows; q++)
        nnz += u[q] != 0;
    apply_range(ws, ppos, P, r, rows - r, nnz, L & ~(int64_t)3, nl);
    return P;
}

/* The back-substitution's index words of rows 0 .. n - 1 for panel L
 * (pivot bits mask) by blocks of rows (each block chooses the byte tables
 * or the bit loop for itself: the words are the same); one block when
 * run on the caller, with the workspace's byte tables (own). */
typedef struct {
    const ws_t *ws;
    int64_t L, n, blocks;
    uint64_t mask;
    int64_t *nnz;          /* per block */
    uint64_t (*own)[256];  /* blocks == 1: the workspace's tables; else NULL */
} back_par_t;

static void back_index_block(void *ctx, int64_t c)
{
    const back_par_t *a = ctx;
    const ws_t *ws = a->ws;
    int64_t i0 = a->n * c / a->blocks, i1 = a->n * (c + 1) / a->blocks, nnz = 0;
    uint64_t *u = ws->u, mask = a->mask;
    if ((mask & (mask + 1)) == 0) {
        for (int64_t i = i0; i < i1; i++)
            nnz += (u[i] = row_of(ws, i)[a->L] & mask) != 0;
        a->nnz[c] = nnz;
        return;
    }
    uint64_t vec[64] = {0};
    int s = 0;
    for (int b = 0; b < 64; b++)
        if ((mask >> b) & 1)
            vec[b] = (uint64_t)1 << s++;
    int top = 64 - __builtin_clzll(mask), nbytes = (top + 7) / 8;
    int64_t bits = 0;
    for (int64_t i = i0; i < i1; i++)
        bits += __builtin_popcountll(row_of(ws, i)[a->L] & mask);
    if (bits > 256 * nbytes + (i1 - i0) * nbytes) {
        uint64_t(*tab)[256] = a->own ? a->own : sq_malloc(sizeof(uint64_t[8][256]));
        f2_byte_tables(tab, vec, top);
        for (int64_t i = i0; i < i1; i++) {
            uint64_t w = row_of(ws, i)[a->L] & mask;
            nnz += (u[i] = w ? f2_byte_lookup((const uint64_t (*)[256])tab, w, nbytes) : 0) != 0;
        }
        if (!a->own)
            sq_free(tab);
    } else {
        for (int64_t i = i0; i < i1; i++) {
            uint64_t x = row_of(ws, i)[a->L] & mask, cw = 0;
            for (; x; x &= x - 1)
                cw |= vec[__builtin_ctzll(x)];
            nnz += (u[i] = cw) != 0;
        }
    }
    a->nnz[c] = nnz;
}

/* The index words of rows 0 .. n - 1 for the back-substitution of panel L
 * (in ws->u), over the pool when blocks > 1, else on the caller; returns
 * how many are nonzero. */
static int64_t back_index_par(ws_t *ws, int64_t L, int64_t n, uint64_t mask, int blocks)
{
    if (blocks <= 1) {
        int64_t one = 0;
        back_par_t a = {ws, L, n, 1, mask, &one, ws->bytetab};
        back_index_block(&a, 0);
        return one;
    }
    int64_t *cnt = sq_malloc(sq_mul_size((size_t)blocks, sizeof *cnt)), nnz = 0;
    back_par_t a = {ws, L, n, blocks, mask, cnt, NULL};
    sq_pool_parallel_for(ws->pool, blocks, back_index_block, &a);
    for (int c = 0; c < blocks; c++)
        nnz += cnt[c];
    sq_free(cnt);
    return nnz;
}

/* Clears the pivot columns of panel L (pivot rows r0 .. r0+P-1, pivot bits
 * `mask`) from rows 0 .. r0-1.  npl[l] is the mask of non-pivot columns of
 * limb l. */
static void backsub_panel(ws_t *ws, int64_t L, int64_t r0, int P, uint64_t mask,
                          const uint64_t *npl)
{
    const int64_t nl = ws->nl;
    int64_t nnz = back_index_par(ws, L, r0, mask, scan_blocks(ws, r0));
    if (nnz == 0)
        return;
    int64_t prow_rows[64];
    for (int s = 0; s < P; s++)
        prow_rows[s] = r0 + s;
    /* Runs of limbs to update: the panel limb, then every later limb with a
     * non-pivot column; runs closer than GAP_MERGE are merged. */
    int64_t a = L & ~(int64_t)3, b = L + 1;
    for (int64_t l = L + 1; l < nl; l++) {
        if (npl[l] == 0)
            continue;
        if (l - b > GAP_MERGE) {
            apply_range(ws, prow_rows, P, 0, r0, nnz, a, b);
            a = l & ~(int64_t)3;
        }
        b = l + 1;
    }
    apply_range(ws, prow_rows, P, 0, r0, nnz, a, b);
}

int64_t f2mat_rref_m4ri(f2mat_t *m, int64_t *pivots)
{
    return f2mat_rref_m4ri_pool(m, pivots, NULL);
}

int64_t f2mat_rref_m4ri_pool(f2mat_t *m, int64_t *pivots, sq_pool_t *pool)
{
    const int64_t rows = m->rows, cols = m->cols, nl = f2_limbs(cols);
    if (pivots)
        for (int64_t c = 0; c < cols; c++)
            pivots[c] = -1;
    if (rows == 0 || cols == 0)
        return 0;

    ws_t *ws = sq_malloc(sizeof *ws);
    ws->m = m;
    ws->pool = pool;
    ws->K = f2_kernels();
    ws->nl = nl;
    ws->u = sq_malloc(sizeof(uint64_t) * (size_t)rows);
    int64_t budget = TABLE_BUDGET / (int64_t)sizeof(uint64_t);
    int64_t full = ((int64_t)8 << K_MAX) * round4(nl);
    ws->tab_cap = full < budget ? full : budget;
    /* The widest tile: all of the table budget spent on the fewest entries
     * any k can have for a full panel (2^1 * 64 or 2^2 * 32 = 128). */
    ws->prow_stride = round4(nl) < ws->tab_cap / 128 ? round4(nl) : ws->tab_cap / 128;
    /* Tables and gathered pivot segments share one block, 64-byte aligned
     * by hand and not zeroed: every entry and segment is written before it
     * is read, and pages never touched (small tables on wide tiles) are
     * never faulted in. */
    size_t nscratch = (size_t)ws->tab_cap + (size_t)(64 * ws->prow_stride) + 8;
    void *scratch = sq_malloc(sq_mul_size(nscratch, sizeof(uint64_t)));
    ws->tables = (uint64_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    ws->prow = ws->tables + ws->tab_cap;

    int64_t *prow0 = sq_malloc(sizeof(int64_t) * (size_t)nl);
    int *pnum = sq_calloc((size_t)nl, sizeof(int));
    uint64_t *pmask = sq_calloc((size_t)nl, sizeof(uint64_t));

    int64_t r = 0;
    for (int64_t L = 0; L < nl && r < rows; L++) {
        int pc[64];
        int P = forward_panel(ws, L, r, pc);
        prow0[L] = r;
        pnum[L] = P;
        for (int s = 0; s < P; s++) {
            pmask[L] |= (uint64_t)1 << pc[s];
            if (pivots)
                pivots[L * 64 + pc[s]] = r + s;
        }
        r += P;
    }

    /* npl[l]: the non-pivot columns of limb l. */
    uint64_t *npl = sq_malloc(sizeof(uint64_t) * (size_t)nl);
    for (int64_t l = 0; l < nl; l++) {
        int64_t valid = cols - l * 64 < 64 ? cols - l * 64 : 64;
        uint64_t vm = valid == 64 ? ~(uint64_t)0 : (((uint64_t)1 << valid) - 1);
        npl[l] = vm & ~pmask[l];
    }
    for (int64_t L = nl - 1; L >= 0; L--)
        if (pnum[L] > 0 && prow0[L] > 0)
            backsub_panel(ws, L, prow0[L], pnum[L], pmask[L], npl);

    sq_free(npl);
    sq_free(pmask);
    sq_free(pnum);
    sq_free(prow0);
    sq_free(scratch);
    sq_free(ws->u);
    sq_free(ws);
    return r;
}
