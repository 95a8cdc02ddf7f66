/*
 * fhom.c -- homomorphisms out of free modules (see fhom.h).
 *
 * Building the matrix of d in degree t is the multiply-heavy part of every
 * step.  For each source generator g of degree e < t, the image d(g) is cut
 * once into per-target-generator blocks (each a vector over A_{e - deg h},
 * realigned to start on a limb), zero blocks dropped; then every row
 * (Sq(R), g), R of degree t - e, is the sum over blocks of Sq(R) * block,
 * placed at the target generator's offset in degree t.
 */
#include "fhom.h"

#include <string.h>

#include "sq_core.h"
#include "sq_gpu.h"

/*
 * Images are stored per source degree: img[e - min][i] is d of generator i
 * of degree e.  The slot array of a degree is allocated by the step that
 * creates those generators (the only writer of that degree); readers only
 * look at degrees whose steps are done, so nothing shared is ever
 * reallocated under a reader.
 */
struct fhom {
    const fmod_t *src;
    const fmod_t *tgt;    /* NULL when the target is M */
    const fdmod_t *M;
    int32_t min_deg, span;
    uint64_t ***img;      /* per source degree, per generator */
};

static fhom_t *fhom_alloc(const fmod_t *src)
{
    fhom_t *d = sq_calloc(1, sizeof *d);
    d->src = src;
    d->min_deg = fmod_min_degree(src);
    d->span = fmod_max_degree(src) - d->min_deg + 1;
    d->img = sq_calloc((size_t)d->span + 1, sizeof *d->img);
    return d;
}

/* The slot of generator g (global index): its degree and index within it. */
static uint64_t **slot(const fhom_t *d, int64_t g, int32_t *deg)
{
    int32_t e = fmod_gen_degree(d->src, g);
    int64_t i = g - fmod_gen_global(d->src, e, 0);
    if (deg)
        *deg = e;
    if (!d->img[e - d->min_deg])
        return NULL;
    return &d->img[e - d->min_deg][i];
}

fhom_t *fhom_new_free(const fmod_t *src, const fmod_t *tgt)
{
    fhom_t *d = fhom_alloc(src);
    d->tgt = tgt;
    return d;
}

fhom_t *fhom_new_fd(const fmod_t *src, const fdmod_t *M)
{
    fhom_t *d = fhom_alloc(src);
    d->M = M;
    return d;
}

void fhom_free(fhom_t *d)
{
    if (!d)
        return;
    for (int32_t k = 0; k < d->span; k++) {
        if (!d->img[k])
            continue;
        for (int64_t i = 0; i < fmod_num_gens(d->src, d->min_deg + k); i++)
            sq_free(d->img[k][i]);
        sq_free(d->img[k]);
    }
    sq_free(d->img);
    sq_free(d);
}

const fmod_t *fhom_source(const fhom_t *d)
{
    return d->src;
}

int64_t fhom_image_bits(const fhom_t *d, int32_t e)
{
    return d->tgt ? fmod_dim_below(d->tgt, e, e) : fdmod_dim(d->M, e);
}

int64_t fhom_target_dim(const fhom_t *d, int32_t t)
{
    return d->tgt ? fmod_dim_below(d->tgt, t, t) : fdmod_dim(d->M, t);
}

void fhom_set_image(fhom_t *d, int64_t g, const uint64_t *vec)
{
    SQ_CHECK(g >= 0 && g < fmod_total_gens(d->src), "fhom_set_image: no generator %lld",
             (long long)g);
    int32_t e = fmod_gen_degree(d->src, g);
    if (!d->img[e - d->min_deg])
        d->img[e - d->min_deg] = sq_calloc((size_t)fmod_num_gens(d->src, e), sizeof(uint64_t *));
    uint64_t **p = slot(d, g, NULL);
    SQ_CHECK(*p == NULL, "fhom_set_image: generator %lld set twice", (long long)g);
    int64_t limbs = f2_limbs(fhom_image_bits(d, e));
    *p = sq_calloc((size_t)(limbs ? limbs : 1), sizeof(uint64_t));
    if (limbs)
        memcpy(*p, vec, (size_t)limbs * sizeof(uint64_t));
}

const uint64_t *fhom_image(const fhom_t *d, int64_t g, int64_t *nbits)
{
    SQ_CHECK(g >= 0 && g < fmod_total_gens(d->src), "fhom_image: no generator %lld",
             (long long)g);
    int32_t e;
    uint64_t **p = slot(d, g, &e);
    SQ_CHECK(p && *p, "fhom_image: generator %lld has no image", (long long)g);
    if (nbits)
        *nbits = fhom_image_bits(d, e);
    return *p;
}

/* dst[0 .. ceil(len/64)) = bits [off, off + len) of src, padding zeroed. */
static void extract_bits(uint64_t *dst, const uint64_t *src, int64_t off, int64_t len)
{
    int64_t limbs = f2_limbs(len);
    int64_t q = off >> 6;
    int sh = (int)(off & 63);
    for (int64_t k = 0; k < limbs; k++) {
        uint64_t lo = src[q + k] >> sh;
        /* The next source limb exists whenever bits of it are needed. */
        if (sh && (k + 1) * 64 - sh < len)
            lo |= src[q + k + 1] << (64 - sh);
        dst[k] = lo;
    }
    if (len & 63)
        dst[limbs - 1] &= (1ULL << (len & 63)) - 1;
}

/* One nonzero block of d(g): Sq(R) * vec lands at `off` in degree t. */
typedef struct {
    int64_t off;        /* target offset in degree t */
    int32_t deg;        /* degree of the block's algebra part: deg g - deg h */
    int64_t limb0;      /* start of vec in the scratch */
} block_t;

typedef struct {
    block_t *blocks;
    int64_t nblocks, cap_blocks;
    uint64_t *bits;
    int64_t nlimbs, cap_limbs;
    int32_t max_deg;    /* largest block degree */
    int64_t nbits;      /* set bits over all blocks */
} split_t;

static void split_clear(split_t *sp)
{
    sq_free(sp->blocks);
    sq_free(sp->bits);
}

/* Cuts d(g) (g of degree e, free target) into its nonzero blocks. */
static void split_image(split_t *sp, const fhom_t *d, int64_t g, int32_t e, int32_t t)
{
    const milnor_t *A = fmod_algebra(d->src);
    const uint64_t *img = fhom_image(d, g, NULL);
    sp->nblocks = 0;
    sp->nlimbs = 0;
    sp->max_deg = 0;
    sp->nbits = 0;
    int64_t off_e = 0, off_t = 0;
    for (int32_t h = fmod_min_degree(d->tgt); h < e; h++) {
        int64_t n = fmod_num_gens(d->tgt, h);
        if (!n)
            continue;
        int64_t len = milnor_dim(A, e - h), len_t = milnor_dim(A, t - h);
        int64_t limbs = f2_limbs(len);
        for (int64_t i = 0; i < n; i++, off_e += len, off_t += len_t) {
            if (sp->nlimbs + limbs > sp->cap_limbs) {
                sp->cap_limbs = 2 * (sp->nlimbs + limbs);
                sp->bits = sq_realloc(sp->bits, sq_mul_size((size_t)sp->cap_limbs, 8));
            }
            uint64_t *dst = sp->bits + sp->nlimbs;
            extract_bits(dst, img, off_e, len);
            int64_t pop = 0;
            for (int64_t k = 0; k < limbs; k++)
                pop += __builtin_popcountll(dst[k]);
            if (!pop)
                continue;
            sp->nbits += pop;
            if (e - h > sp->max_deg)
                sp->max_deg = e - h;
            if (sp->nblocks == sp->cap_blocks) {
                sp->cap_blocks = sp->cap_blocks ? 2 * sp->cap_blocks : 16;
                sp->blocks = sq_realloc(sp->blocks, sq_mul_size((size_t)sp->cap_blocks,
                                                                sizeof *sp->blocks));
            }
            sp->blocks[sp->nblocks++] = (block_t){off_t, e - h, sp->nlimbs};
            sp->nlimbs += limbs;
        }
    }
    /* The offsets above were computed in degree t for the generators of
     * degree < e only, which is exactly the prefix order of degree t. */
}

/* out ^= Sq(R) * d(g) for R = element r of degree rdeg, d(g) cut into the
 * blocks of sp: R is unpacked once and its configurations shared by all
 * the blocks (the workspace decides when that pays). */
static void mul_blocks(milnor_ws_t *W, milnor_op_t *op, const milnor_t *A, const split_t *sp,
                       uint64_t *out, int32_t rdeg, int64_t r)
{
    if (!sp->nblocks)
        return;
    milnor_op_init(op, A, rdeg, r);
    milnor_ws_prepare(W, op, sp->max_deg, sp->nbits);
    for (int64_t b = 0; b < sp->nblocks; b++)
        milnor_ws_mul_vec_add(W, out, sp->blocks[b].off, sp->blocks[b].deg,
                              sp->bits + sp->blocks[b].limb0);
}

/*
 * Rows of the matrix of d in degree t.  With idx == NULL: the basis
 * positions lo <= p < hi of the source spanned by generators of degree
 * < bound, row row0 + p - lo for position p.  Otherwise only the positions
 * idx[0..n-1] (increasing) of that basis, row row0 + i for idx[i].
 */
static void build(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                  const int64_t *idx, int64_t n, int64_t lo, int64_t hi)
{
    const milnor_t *A = fmod_algebra(d->src);
    split_t sp = {0};
    milnor_ws_t *W = d->tgt ? milnor_ws_new() : NULL;
    milnor_op_t op;
    int64_t pos = 0, next = 0; /* basis position of the generator block; next idx entry */
    int32_t top = fmod_top_below(d->src, bound);
    for (int32_t e = fmod_min_degree(d->src); e <= top && e <= t; e++) {
        int64_t ng = fmod_num_gens(d->src, e);
        int64_t nr = milnor_dim(A, t - e);
        for (int64_t i = 0; i < ng; i++, pos += nr) {
            if (idx && (next >= n || idx[next] >= pos + nr))
                continue; /* no requested row in this block */
            if (!idx && (pos + nr <= lo || pos >= hi))
                continue;
            int64_t g = fmod_gen_global(d->src, e, i);
            if (d->tgt)
                split_image(&sp, d, g, e, t);
            for (int64_t r = 0; r < nr; r++) {
                int64_t row;
                if (idx) {
                    if (next >= n || idx[next] != pos + r)
                        continue;
                    row = row0 + next++;
                } else {
                    if (pos + r < lo || pos + r >= hi)
                        continue;
                    row = row0 + pos + r - lo;
                }
                uint64_t *out = f2mat_row(m, row);
                if (!d->tgt) {
                    fdmod_act_add(d->M, out, 0, t - e, r, e, fhom_image(d, g, NULL));
                    continue;
                }
                mul_blocks(W, &op, A, &sp, out, t - e, r);
            }
        }
    }
    SQ_CHECK(!idx || next == n, "fhom_build_rows_subset: positions not increasing or out of range");
    milnor_ws_free(W);
    split_clear(&sp);
}

static int gpu_offer(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                     const int64_t *idx, int64_t n, sq_pool_t *pool);

void fhom_build_rows(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound)
{
    if (SQ_UNLIKELY(sq_gpu_on()) && gpu_offer(d, m, row0, t, bound, NULL, 0, NULL) == 0)
        return; /* built on the device (issue 15; see the end of this file) */
    build(d, m, row0, t, bound, NULL, 0, 0, INT64_MAX);
}

void fhom_build_rows_subset(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                            const int64_t *idx, int64_t n)
{
    if (SQ_UNLIKELY(sq_gpu_on()) && gpu_offer(d, m, row0, t, bound, idx, n, NULL) == 0)
        return; /* built on the device (issue 15) */
    build(d, m, row0, t, bound, idx, n, 0, 0);
}

/* A parallel build: chunk k covers rows [k * n / K, (k + 1) * n / K). */
typedef struct {
    const fhom_t *d;
    f2mat_t *m;
    int64_t row0, n, chunks;
    int32_t t, bound;
    const int64_t *idx;
} par_build_t;

static void build_chunk(void *ctx, int64_t k)
{
    const par_build_t *c = ctx;
    int64_t a = k * c->n / c->chunks, b = (k + 1) * c->n / c->chunks;
    if (a == b)
        return;
    if (c->idx)
        build(c->d, c->m, c->row0 + a, c->t, c->bound, c->idx + a, b - a, 0, 0);
    else
        build(c->d, c->m, c->row0 + a, c->t, c->bound, NULL, 0, a, b);
}

/*
 * Cutoff: below 256 rows a build costs well under a millisecond and the
 * wake-up of other threads would dominate; chunks are four per thread so
 * that uneven rows (rows of low-degree generators multiply longer images)
 * still balance.  Set by eye on bench/b-resolve; revisit with the pool.
 */
#define PAR_BUILD_MIN_ROWS 256

/* The CPU build of fhom_build_rows_par (n already the row count). */
static void build_rows_cpu(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                           const int64_t *idx, int64_t n, sq_pool_t *pool)
{
    if (!pool || sq_pool_size(pool) == 1 || n < PAR_BUILD_MIN_ROWS) {
        build(d, m, row0, t, bound, idx, n, 0, idx ? 0 : INT64_MAX);
        return;
    }
    par_build_t c = {d, m, row0, n, 4 * (int64_t)sq_pool_size(pool), t, bound, idx};
    sq_pool_parallel_for(pool, c.chunks, build_chunk, &c);
}

void fhom_build_rows_par(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                         const int64_t *idx, int64_t n, sq_pool_t *pool)
{
    if (!idx)
        n = fmod_dim_below(d->src, t, bound);
    if (SQ_UNLIKELY(sq_gpu_on()) && gpu_offer(d, m, row0, t, bound, idx, n, pool) == 0)
        return; /* built on the device (issue 15) */
    build_rows_cpu(d, m, row0, t, bound, idx, n, pool);
}

/* fhom_apply_add on the bits of v at positions [lo, hi) only. */
static void apply_range(const fhom_t *d, uint64_t *out, int32_t t, int32_t bound,
                        const uint64_t *v, int64_t lo, int64_t hi)
{
    const milnor_t *A = fmod_algebra(d->src);
    split_t sp = {0};
    milnor_ws_t *W = d->tgt ? milnor_ws_new() : NULL;
    milnor_op_t op;
    int64_t pos = 0;
    int32_t top = fmod_top_below(d->src, bound);
    for (int32_t e = fmod_min_degree(d->src); e <= top && e <= t; e++) {
        int64_t n = fmod_num_gens(d->src, e);
        int64_t nr = milnor_dim(A, t - e);
        for (int64_t i = 0; i < n; i++, pos += nr) {
            if (pos + nr <= lo || pos >= hi)
                continue;
            int64_t g = fmod_gen_global(d->src, e, i);
            int have = 0;
            for (int64_t r = 0; r < nr; r++) {
                int64_t bit = pos + r;
                if (bit < lo || bit >= hi || !((v[bit >> 6] >> (bit & 63)) & 1))
                    continue;
                if (!d->tgt) {
                    fdmod_act_add(d->M, out, 0, t - e, r, e, fhom_image(d, g, NULL));
                    continue;
                }
                if (!have) {
                    split_image(&sp, d, g, e, t);
                    have = 1;
                }
                mul_blocks(W, &op, A, &sp, out, t - e, r);
            }
        }
    }
    milnor_ws_free(W);
    split_clear(&sp);
}

void fhom_apply_add(const fhom_t *d, uint64_t *out, int32_t t, int32_t bound, const uint64_t *v)
{
    apply_range(d, out, t, bound, v, 0, INT64_MAX);
}

/* A parallel apply: chunk c takes the set bits of v of ranks
 * [c * nbits / C, (c + 1) * nbits / C) into a buffer of its own; the
 * buffers are XORed into out afterwards (XOR is order-free: same bits). */
typedef struct {
    const fhom_t *d;
    int32_t t, bound;
    const uint64_t *v;
    const int64_t *cut;  /* chunks + 1 positions */
    uint64_t *bufs;      /* chunks * limbs */
    int64_t limbs;
} par_apply_t;

static void apply_chunk(void *ctx, int64_t c)
{
    const par_apply_t *p = ctx;
    apply_range(p->d, p->bufs + c * p->limbs, p->t, p->bound, p->v, p->cut[c], p->cut[c + 1]);
}

/*
 * PAR_APPLY_MIN_BITS: below this many products (set bits of v) an apply
 * takes well under a millisecond and is not worth waking threads for.
 */
#define PAR_APPLY_MIN_BITS 32

void fhom_apply_add_par(const fhom_t *d, uint64_t *out, int64_t out_bits, int32_t t,
                        int32_t bound, const uint64_t *v, sq_pool_t *pool)
{
    int64_t dim = fmod_dim_below(d->src, t, bound), nbits = 0;
    for (int64_t k = 0; k < f2_limbs(dim); k++)
        nbits += __builtin_popcountll(v[k]);
    if (!pool || sq_pool_size(pool) == 1 || nbits < PAR_APPLY_MIN_BITS) {
        apply_range(d, out, t, bound, v, 0, INT64_MAX);
        return;
    }
    int64_t chunks = 2 * (int64_t)sq_pool_size(pool);
    int64_t *cut = sq_malloc(sq_mul_size((size_t)chunks + 1, sizeof *cut));
    int64_t seen = 0, c = 0;
    cut[0] = 0;
    for (int64_t b = 0; b < dim && c + 1 < chunks; b++)
        if ((v[b >> 6] >> (b & 63)) & 1)
            if (++seen > (c + 1) * nbits / chunks)
                cut[++c] = b;
    while (c + 1 <= chunks)
        cut[++c] = dim;
    /* The buffers hold every bit apply may write: the restricted target. */
    int64_t limbs = f2_limbs(fhom_target_dim(d, t)) + 1;
    par_apply_t p = {d, t, bound, v, cut, sq_calloc(sq_mul_size((size_t)chunks, (size_t)limbs), 8),
                     limbs};
    sq_pool_parallel_for(pool, chunks, apply_chunk, &p);
    int64_t ol = f2_limbs(out_bits);
    for (int64_t k = 0; k < chunks; k++)
        for (int64_t l = 0; l < limbs; l++) {
            uint64_t w = p.bufs[k * limbs + l];
            if (l < ol)
                out[l] ^= w;
            else
                SQ_CHECK(w == 0, "fhom_apply_add_par: image beyond %lld bits", (long long)out_bits);
        }
    sq_free(p.bufs);
    sq_free(cut);
}

/* ---- GPU offload (issue 15, docs/gpu.md) -----------------------------------
 *
 * The three fhom_build_rows* offer their matrix to the device (src/gpu) when
 * the GPU path is on and the build has at least ADAMS_GPU_MIN_WORK products
 * (rows x set bits of their generator's image).  The offer describes the
 * build in the terms of sq_gpu_build_t: each generator with rows, its image
 * cut into blocks by split_image (as the CPU multiplies it), and each row's
 * (generator, R).  On a decline (busy, memory, degree above 511, no device)
 * the CPU builds as before.  Verify mode (ADAMS_GPU_VERIFY=1) builds the
 * rows both ways into scratch matrices, stops the program naming the step
 * on any difference (sq_gpu_verify_rows), and XORs the CPU's rows into m.
 * When the path is off none of this runs: the callers test one flag.
 */

/* Rows of generator block [pos, pos + nr) requested by the build: all of
 * them (idx == NULL), or the idx entries from *next on that fall in it. */
static int64_t gpu_rows_of(const int64_t *idx, int64_t n, int64_t *next, int64_t pos, int64_t nr)
{
    if (!idx)
        return nr;
    int64_t first = *next;
    while (*next < n && idx[*next] >= pos && idx[*next] < pos + nr)
        (*next)++;
    return *next - first;
}

static int gpu_offer(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                     const int64_t *idx, int64_t n, sq_pool_t *pool)
{
    if (!d->tgt)
        return SQ_E_NOGPU;
    const milnor_t *A = fmod_algebra(d->src);
    const int32_t top = fmod_top_below(d->src, bound);
    if (!idx)
        n = fmod_dim_below(d->src, t, bound);

    /* Pass 1: the products, for the work gate. */
    int64_t work = 0, ngens = 0, pos = 0, next = 0;
    for (int32_t e = fmod_min_degree(d->src); e <= top && e <= t; e++) {
        int64_t ng = fmod_num_gens(d->src, e), nr = milnor_dim(A, t - e);
        for (int64_t i = 0; i < ng; i++, pos += nr) {
            int64_t rows = gpu_rows_of(idx, n, &next, pos, nr);
            if (!rows)
                continue;
            int64_t nbits;
            const uint64_t *img = fhom_image(d, fmod_gen_global(d->src, e, i), &nbits);
            int64_t pop = 0;
            for (int64_t k = 0; k < f2_limbs(nbits); k++)
                pop += __builtin_popcountll(img[k]);
            work += rows * pop;
            ngens++;
        }
    }
    if ((idx && next != n) || !sq_gpu_build_wanted(work))
        return SQ_E_NOGPU; /* bad positions are the CPU path's to report */

    /* Pass 2: the job. */
    int32_t *gen_deg = sq_malloc(sq_mul_size((size_t)ngens + 1, sizeof *gen_deg));
    int64_t *gen_block0 = sq_malloc(sq_mul_size((size_t)ngens + 1, sizeof *gen_block0));
    int64_t *row_gen = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *row_gen));
    int64_t *row_ridx = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *row_ridx));
    sq_gpu_block_t *blocks = NULL;
    uint64_t *bits = NULL;
    int64_t nblocks = 0, capblocks = 0, nlimbs = 0, caplimbs = 0, j = 0, nrows = 0;
    split_t sp = {0};
    pos = 0;
    next = 0;
    for (int32_t e = fmod_min_degree(d->src); e <= top && e <= t; e++) {
        int64_t ng = fmod_num_gens(d->src, e), nr = milnor_dim(A, t - e);
        for (int64_t i = 0; i < ng; i++, pos += nr) {
            int64_t first = next, rows = gpu_rows_of(idx, n, &next, pos, nr);
            if (!rows)
                continue;
            split_image(&sp, d, fmod_gen_global(d->src, e, i), e, t);
            if (nblocks + sp.nblocks > capblocks) {
                capblocks = 2 * (nblocks + sp.nblocks) + 16;
                blocks = sq_realloc(blocks, sq_mul_size((size_t)capblocks, sizeof *blocks));
            }
            if (nlimbs + sp.nlimbs > caplimbs) {
                caplimbs = 2 * (nlimbs + sp.nlimbs) + 16;
                bits = sq_realloc(bits, sq_mul_size((size_t)caplimbs, sizeof *bits));
            }
            gen_deg[j] = e;
            gen_block0[j] = nblocks;
            for (int64_t b = 0; b < sp.nblocks; b++)
                blocks[nblocks++] = (sq_gpu_block_t){sp.blocks[b].off,
                                                     nlimbs + sp.blocks[b].limb0,
                                                     sp.blocks[b].deg};
            if (sp.nlimbs)
                memcpy(bits + nlimbs, sp.bits, (size_t)sp.nlimbs * sizeof *bits);
            nlimbs += sp.nlimbs;
            for (int64_t r = 0; r < rows; r++) {
                row_gen[nrows] = j;
                row_ridx[nrows++] = idx ? idx[first + r] - pos : r;
            }
            j++;
        }
    }
    gen_block0[j] = nblocks;
    split_clear(&sp);
    SQ_CHECK(nrows == n, "fhom: GPU offer of %lld rows for %lld", (long long)nrows, (long long)n);
    sq_gpu_build_t job = {A, t, m->cols, j, gen_deg, gen_block0, blocks, bits,
                          nrows, row_gen, row_ridx};
    int rc;
    if (!sq_gpu_verify_on()) {
        rc = sq_gpu_build_rows(&job, m, row0);
    } else {
        f2mat_t g = {0}, c = {0};
        f2mat_init(&g, nrows, m->cols);
        rc = sq_gpu_build_rows(&job, &g, 0);
        if (rc == 0) {
            f2mat_init(&c, nrows, m->cols);
            build_rows_cpu(d, &c, 0, t, bound, idx, n, pool);
            sq_gpu_verify_rows("matrix build", &c, &g);
            for (int64_t r = 0; r < nrows; r++) {
                uint64_t *dst = f2mat_row(m, row0 + r);
                const uint64_t *src = f2mat_row(&c, r);
                for (int64_t l = 0; l < f2_limbs(m->cols); l++)
                    dst[l] ^= src[l];
            }
            f2mat_clear(&c);
        }
        f2mat_clear(&g);
    }
    sq_free(gen_deg);
    sq_free(gen_block0);
    sq_free(row_gen);
    sq_free(row_ridx);
    sq_free(blocks);
    sq_free(bits);
    return rc;
}
