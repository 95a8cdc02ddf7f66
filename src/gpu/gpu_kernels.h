/*
 * gpu_kernels.h -- the per-thread work of every device kernel, as plain
 * functions of the thread's indices and plain pointers (internal to src/gpu).
 *
 * Each kernel of gpu_cuda.cu is one line: it calls a *_thread function below
 * with (blockIdx.x, blockDim.x, threadIdx.x, gridDim.x).  The same functions
 * compile as C when __CUDACC__ is not defined (SQ_HD expands to nothing), so
 * the CPU test suite (tests/gpu) and the emulator backend (gpu_emu.c) run
 * exactly this code over the same grid, with loops over block and thread
 * indices, and compare with the CPU engine: the index arithmetic, the bounds
 * and the bit placement are tested on every build, with or without CUDA.
 *
 * Indices.  Every index, size and offset is int64_t.  A thread's linear
 * index is computed in 64 bits from the (32-bit) block and thread indices,
 * before any multiplication, and threads loop with the grid's stride, so a
 * launch may cover any number of items (the peer's 32-bit indices wrapped at
 * 2^32 items and gave wrong answers).  No kernel synchronises across blocks
 * (no cooperative launch, no grid barrier): a sequence of steps is a
 * sequence of launches on one stream.
 *
 * The batched Milnor multiply (sq_gk_mul_*): "operation by element" as in
 * src/algebra/milnor_op.c.  For a left factor Sq(R) the R-configurations
 * (the R side of the Milnor matrices: packed column sums c and packed
 * anti-diagonal ORs D, see gpu_milnor.c) are listed once, sorted by c_1;
 * a term Sq(S) of the right factor, packed as s | G, contributes Sq(T) for
 * each configuration with c <= s componentwise and (s - c) & D == 0, with
 * T = (s - c) | D.  In packed form (fields n = 1..9 with a guard bit G
 * above each):
 *
 *      diff = (s | G) - c                 (no field borrows from its neighbour)
 *      ok   = ((diff & (D | G)) ^ G) == 0 (every guard kept and s - c misses D)
 *      T    = (diff | D) & ~G
 *
 *      bit:  0      9 10      18 19     26 27    33 34   39 40  44 45 48 49 51 52 53
 *            |  n=1 |G|  n=2  |G|  n=3  |G| n=4  |G| n=5 |G| n=6|G|n=7|G|n8|G|9|G|
 *
 * valid while |R| + |S| <= 511.  One work item is one (row, term) pair: the
 * row gives Sq(R) (its configurations) and the output row, the term one set
 * bit Sq(S) of the image d(g) of the row's generator and the bit offset of
 * its block in degree t.  The item's products are XORed into the output row
 * (atomically on the device: items of one row run concurrently).
 *
 * The row reduction (sq_gk_rr_*): Gauss-Jordan by 64-column panels with
 * Four Russians tables, one panel per round of launches (gpu_rref.c).
 */
#ifndef SQ_GPU_KERNELS_H
#define SQ_GPU_KERNELS_H

#include <stdint.h>

#ifdef __CUDACC__
#define SQ_HD __host__ __device__
#else
#define SQ_HD
#endif

/* out[0] ^= v: atomic on the device (items of one row run concurrently);
 * a plain XOR on the host, where the grid is walked by one thread. */
#ifdef __CUDA_ARCH__
#define SQ_GK_XOR(p, v) atomicXor((unsigned long long *)(p), (unsigned long long)(v))
#else
#define SQ_GK_XOR(p, v) (*(p) ^= (v))
#endif

/* ---- Grid arithmetic (64-bit) ------------------------------------------- */

/* Linear index of thread tx of block bx, blocks of bdim threads. */
SQ_HD static inline int64_t sq_gk_lin(int64_t bx, int64_t bdim, int64_t tx)
{
    return bx * bdim + tx;
}

/* Distance between the items of one thread: the number of threads. */
SQ_HD static inline int64_t sq_gk_stride(int64_t gdim, int64_t bdim)
{
    return gdim * bdim;
}

/* Blocks for n items with bdim threads each: ceil(n / bdim), at least 1 and
 * at most max_blocks (the threads then loop with the grid's stride). */
SQ_HD static inline int64_t sq_gk_blocks(int64_t n, int64_t bdim, int64_t max_blocks)
{
    int64_t b = n / bdim + (n % bdim != 0);
    if (b < 1)
        b = 1;
    return b < max_blocks ? b : max_blocks;
}

/* The k-th item (k = 0, 1, ...) of thread (bx, tx), or -1 past n. */
SQ_HD static inline int64_t sq_gk_item(int64_t bx, int64_t bdim, int64_t tx, int64_t gdim,
                                       int64_t k, int64_t n)
{
    int64_t i = sq_gk_lin(bx, bdim, tx) + k * sq_gk_stride(gdim, bdim);
    return i < n ? i : -1;
}

/* Item i of a row-major rows x width grid: row *r, column *l (64-bit:
 * rows x width may pass 2^32 for a large matrix). */
SQ_HD static inline void sq_gk_rowcol(int64_t i, int64_t width, int64_t *r, int64_t *l)
{
    *r = i / width;
    *l = i - *r * width;
}

/* The largest r in [lo, hi) with start[r] <= item, for start increasing
 * and start[lo] <= item < start[hi]: the row owning work item `item`
 * (rows without items, start[r] == start[r + 1], are skipped). */
SQ_HD static inline int64_t sq_gk_find(const int64_t *start, int64_t lo, int64_t hi, int64_t item)
{
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (start[mid] <= item)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* ---- Packed p-parts (fields n = 1..9, guard bits) ----------------------- */

#define SQ_GK_MAXDEG 511
#define SQ_GK_NF 9
#define SQ_GK_GUARD                                                                                \
    ((UINT64_C(1) << 9) | (UINT64_C(1) << 18) | (UINT64_C(1) << 26) | (UINT64_C(1) << 33) |        \
     (UINT64_C(1) << 39) | (UINT64_C(1) << 44) | (UINT64_C(1) << 48) | (UINT64_C(1) << 51) |       \
     (UINT64_C(1) << 53))

/* First bit of field n (1..10; field 10 is the end of the layout). */
SQ_HD static inline int sq_gk_shift(int n)
{
    switch (n) {
    case 1: return 0;
    case 2: return 10;
    case 3: return 19;
    case 4: return 27;
    case 5: return 34;
    case 6: return 40;
    case 7: return 45;
    case 8: return 49;
    case 9: return 52;
    default: return 54;
    }
}

/* Largest value field n (1..9) holds: floor(511 / (2^n - 1)) fits. */
SQ_HD static inline uint64_t sq_gk_vmask(int n)
{
    return (UINT64_C(1) << (sq_gk_shift(n + 1) - sq_gk_shift(n) - 1)) - 1;
}

/* Rank of the packed p-part T (degree <= 511, no guard bits) within its
 * degree, from cnt[k * cstride + d] = the number of p-parts of degree d and
 * length <= k (k = 0..11, d = 0..511): the hash-free ranking of
 * src/algebra/internal.h, index = sum_n cnt[n][D_n] - cnt[n][D_{n-1}] with
 * D_n the degree of (t_1..t_n). */
SQ_HD static inline int64_t sq_gk_rank(const int64_t *cnt, int64_t cstride, uint64_t T)
{
    int64_t D = (int64_t)(T & 511);
    int64_t idx = 0;
    T >>= 10;
    for (int n = 2; T; n++) {
        int w = sq_gk_shift(n + 1) - sq_gk_shift(n);
        int64_t t = (int64_t)(T & ((UINT64_C(1) << (w - 1)) - 1));
        if (t) {
            const int64_t *cn = cnt + (int64_t)n * cstride;
            int64_t D2 = D + t * (int64_t)((1u << n) - 1u);
            idx += cn[D2] - cn[D];
            D = D2;
        }
        T >>= w;
    }
    return idx;
}

/* ---- The batched multiply ------------------------------------------------ */

/*
 * One launch: items [item_lo, item_lo + nitems) of a matrix build, all of
 * rows [row_lo, row_hi); output row r is out + (r - row_lo) * out_stride.
 *
 *   row_item0[r]   first item of row r (r = 0..nrows; increasing)
 *   row_gen[r]     the generator slot of row r: its terms are
 *                  term_s/term_off[gen_term0[j] .. gen_term0[j + 1])
 *   row_cfg0[r]    first configuration of Sq(R) in cfg_c/cfg_d (sorted by c_1)
 *   row_upto0[r]   first entry of its table upto: upto[x] = number of its
 *                  configurations with c_1 < x, x = 0 .. row_bound[r] + 1
 *   row_bound[r]   the column-sum degree bound its configurations were
 *                  listed for (>= the degree of every term of the row)
 *   term_s[k]      packed S | G;  term_off[k]: output bit of rank 0 of the
 *                  product's degree (the block's offset in degree t)
 */
typedef struct {
    const uint64_t *term_s;
    const int64_t *term_off;
    const int64_t *gen_term0;
    const int64_t *row_item0;
    const int64_t *row_gen;
    const int64_t *row_cfg0;
    const int64_t *row_upto0;
    const int64_t *row_bound;
    const uint64_t *cfg_c;
    const uint64_t *cfg_d; /* D | G */
    const int32_t *upto;
    const int64_t *cnt;
    int64_t cnt_stride;
    uint64_t *out;
    int64_t out_stride; /* limbs */
    int64_t row_lo, row_hi;
    int64_t item_lo, nitems;
} sq_gk_mul_t;

/* All products of work item `item`, XORed into its output row. */
SQ_HD static inline void sq_gk_mul_item(const sq_gk_mul_t *p, int64_t item)
{
    const int64_t row = sq_gk_find(p->row_item0, p->row_lo, p->row_hi, item);
    const int64_t term = p->gen_term0[p->row_gen[row]] + (item - p->row_item0[row]);
    const uint64_t sg = p->term_s[term];
    const int64_t off = p->term_off[term];
    const uint64_t *c = p->cfg_c + p->row_cfg0[row];
    const uint64_t *dg = p->cfg_d + p->row_cfg0[row];
    const int64_t bound = p->row_bound[row];
    int64_t s1 = (int64_t)(sg & 511);
    if (s1 > bound)
        s1 = bound;
    const int64_t n = p->upto[p->row_upto0[row] + s1 + 1];
    uint64_t *out = p->out + (row - p->row_lo) * p->out_stride;
    for (int64_t q = 0; q < n; q++) {
        uint64_t diff = sg - c[q];
        if (((diff & dg[q]) ^ SQ_GK_GUARD) != 0)
            continue;
        uint64_t T = (diff | dg[q]) & ~SQ_GK_GUARD;
        int64_t bit = off + sq_gk_rank(p->cnt, p->cnt_stride, T);
        SQ_GK_XOR(&out[bit >> 6], UINT64_C(1) << (bit & 63));
    }
}

SQ_HD static inline void sq_gk_mul_thread(const sq_gk_mul_t *p, int64_t bx, int64_t bdim,
                                          int64_t tx, int64_t gdim)
{
    const int64_t step = sq_gk_stride(gdim, bdim);
    for (int64_t i = sq_gk_lin(bx, bdim, tx); i < p->nitems; i += step)
        sq_gk_mul_item(p, p->item_lo + i);
}

/* ---- Row reduction: one panel (64 columns) per round --------------------- */

/* w[i] = limb `limb` of row i (i < rows): the panel words, gathered so that
 * the host reads them with one contiguous copy. */
typedef struct {
    const uint64_t *m;
    int64_t stride, rows, limb;
    uint64_t *w;
} sq_gk_panel_t;

SQ_HD static inline void sq_gk_panel_thread(const sq_gk_panel_t *p, int64_t bx, int64_t bdim,
                                            int64_t tx, int64_t gdim)
{
    const int64_t step = sq_gk_stride(gdim, bdim);
    for (int64_t i = sq_gk_lin(bx, bdim, tx); i < p->rows; i += step)
        p->w[i] = p->m[i * p->stride + p->limb];
}

/* prow[t * width + l] = limb limb0 + l of row ppos[t] (t < P, l < width):
 * the panel's pivot rows as they were before the round, which the tables
 * are built from (the round updates the pivot rows themselves). */
typedef struct {
    const uint64_t *m;
    int64_t stride;
    const int64_t *ppos;
    int64_t P, limb0, width;
    uint64_t *prow;
} sq_gk_prow_t;

SQ_HD static inline void sq_gk_prow_thread(const sq_gk_prow_t *p, int64_t bx, int64_t bdim,
                                           int64_t tx, int64_t gdim)
{
    const int64_t step = sq_gk_stride(gdim, bdim), n = p->P * p->width;
    for (int64_t i = sq_gk_lin(bx, bdim, tx); i < n; i += step) {
        int64_t t, l;
        sq_gk_rowcol(i, p->width, &t, &l);
        p->prow[i] = p->m[p->ppos[t] * p->stride + p->limb0 + l];
    }
}

/* Four Russians tables: tab[((g << 8) | e) * width + l] = XOR of prow[8g + j]
 * (limb l) over the bits j of e with 8g + j < P; g < ceil(P / 8), e < 256. */
typedef struct {
    const uint64_t *prow;
    int64_t P, width;
    uint64_t *tab;
} sq_gk_tab_t;

SQ_HD static inline void sq_gk_tab_thread(const sq_gk_tab_t *p, int64_t bx, int64_t bdim,
                                          int64_t tx, int64_t gdim)
{
    const int64_t G = (p->P + 7) / 8;
    const int64_t step = sq_gk_stride(gdim, bdim), n = G * 256 * p->width;
    for (int64_t i = sq_gk_lin(bx, bdim, tx); i < n; i += step) {
        int64_t ge, l;
        sq_gk_rowcol(i, p->width, &ge, &l);
        int64_t g = ge >> 8, e = ge & 255;
        uint64_t x = 0;
        for (int64_t j = 0; j < 8; j++)
            if (((e >> j) & 1) && 8 * g + j < p->P)
                x ^= p->prow[(8 * g + j) * p->width + l];
        p->tab[i] = x;
    }
}

/* Row i, limb limb0 + l ^= the combination u[i] of the pivot rows (bit t of
 * u[i]: original pivot row t), read from the tables one byte of u at a time.
 * Items: rows x width, row-major (consecutive threads, consecutive limbs). */
typedef struct {
    uint64_t *m;
    int64_t stride, rows, limb0, width;
    const uint64_t *u;
    const uint64_t *tab;
    int64_t G;
} sq_gk_apply_t;

SQ_HD static inline void sq_gk_apply_thread(const sq_gk_apply_t *p, int64_t bx, int64_t bdim,
                                            int64_t tx, int64_t gdim)
{
    const int64_t step = sq_gk_stride(gdim, bdim), n = p->rows * p->width;
    for (int64_t i = sq_gk_lin(bx, bdim, tx); i < n; i += step) {
        int64_t r, l;
        sq_gk_rowcol(i, p->width, &r, &l);
        uint64_t u = p->u[r];
        if (!u)
            continue;
        uint64_t x = 0;
        for (int64_t g = 0; g < p->G; g++)
            x ^= p->tab[((g << 8) | (int64_t)((u >> (8 * g)) & 255)) * p->width + l];
        p->m[r * p->stride + p->limb0 + l] ^= x;
    }
}

#endif /* SQ_GPU_KERNELS_H */
