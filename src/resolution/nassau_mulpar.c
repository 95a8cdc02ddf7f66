/*
 * nassau_mulpar.c -- the products by Sq(sigma) of Nassau's corrections,
 * block by block, split over the pool (see internal.h).
 *
 * A correction multiplies the small element Sq(sigma) into every generator
 * block of y0 (in F_{s-1}) and of d(y0) (in F_{s-2}); at stems 130-150 this
 * is a third of all the work, and it lies on the critical path of its row
 * (docs/parallelism.md), so it is split like the matrix builds: chunks of
 * consecutive blocks, cut so that each holds about the same number of set
 * bits of v (the products' cost is linear in them).  Blocks in order land in
 * increasing, disjoint bit ranges of out, so chunk c writes only into
 * [ob->start[first block], ob->start[last block + 1]): a private buffer of
 * those limbs, XORed into out after the section (neighbouring chunks may
 * share a boundary limb; XOR does not care about order).
 */
#include <string.h>

#include "internal.h"
#include "sq_core.h"
#include "sq_pool.h"

/* Below this many set bits in v a call stays on its thread (a section's
 * wake-up costs about as much as 100 set bits of products). */
#define MULPAR_MIN_BITS 256

/* Set bits of v in [off, off + len). */
static int64_t count_bits(const uint64_t *v, int64_t off, int64_t len)
{
    if (len <= 0)
        return 0;
    int64_t la = off >> 6, le = (off + len - 1) >> 6;
    uint64_t lo = ~UINT64_C(0) << (off & 63), hi = ~UINT64_C(0) >> (63 - ((off + len - 1) & 63));
    if (la == le)
        return __builtin_popcountll(v[la] & lo & hi);
    int64_t n = __builtin_popcountll(v[la] & lo) + __builtin_popcountll(v[le] & hi);
    for (int64_t l = la + 1; l < le; l++)
        n += __builtin_popcountll(v[l]);
    return n;
}

/* out (whose bit 0 is bit base of the whole output) ^= the products of
 * blocks [b0, b1); blk: scratch of the longest block. */
static void mul_range(const milnor_ws_t *W, uint64_t *out, int64_t base, const blocks_t *ob,
                      const blocks_t *vb, int32_t t0, const uint64_t *v, int64_t b0, int64_t b1,
                      uint64_t *blk)
{
    for (int64_t b = b0; b < b1; b++) {
        int64_t len = vb->start[b + 1] - vb->start[b];
        if (len && f2_copy_bits(blk, v, vb->start[b], len))
            milnor_ws_mul_vec_add(W, out, ob->start[b] - base, t0 - vb->deg[b], blk);
    }
}

typedef struct {
    const milnor_ws_t *W;
    const blocks_t *ob, *vb;
    int32_t t0;
    const uint64_t *v;
    const int64_t *cut; /* chunks + 1 block indices */
    uint64_t **buf;     /* per chunk: its output limbs, from limb lo[c] */
    const int64_t *lo;
    int64_t maxlen;     /* longest block of v, in bits */
} mulpar_t;

static void mul_chunk(void *ctx, int64_t c)
{
    const mulpar_t *m = ctx;
    if (m->cut[c] == m->cut[c + 1])
        return;
    uint64_t *blk = sq_calloc((size_t)f2_limbs(m->maxlen) + 1, 8);
    mul_range(m->W, m->buf[c], m->lo[c] * 64, m->ob, m->vb, m->t0, m->v, m->cut[c], m->cut[c + 1],
              blk);
    sq_free(blk);
}

void nassau_mul_blocks_par(const milnor_ws_t *W, uint64_t *out, const blocks_t *ob,
                           const blocks_t *vb, int32_t t0, const uint64_t *v, sq_pool_t *pool)
{
    int64_t n = vb->n, maxlen = 1, total = 0;
    SQ_CHECK(n <= ob->n, "nassau_mul_blocks_par: %lld blocks into %lld", (long long)n,
             (long long)ob->n);
    int64_t *w = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *w));
    for (int64_t b = 0; b < n; b++) {
        int64_t len = vb->start[b + 1] - vb->start[b];
        maxlen = len > maxlen ? len : maxlen;
        w[b] = count_bits(v, vb->start[b], len);
        total += w[b];
    }
    int64_t chunks = pool ? 2 * (int64_t)sq_pool_size(pool) : 1;
    if (chunks <= 2 || total < MULPAR_MIN_BITS || n < 2) {
        uint64_t *blk = sq_calloc((size_t)f2_limbs(maxlen) + 1, 8);
        mul_range(W, out, 0, ob, vb, t0, v, 0, n, blk);
        sq_free(blk);
        sq_free(w);
        return;
    }
    int64_t *cut = sq_malloc(sq_mul_size((size_t)chunks + 1, sizeof *cut));
    int64_t *lo = sq_malloc(sq_mul_size((size_t)chunks + 1, sizeof *lo));
    uint64_t **buf = sq_calloc((size_t)chunks + 1, sizeof *buf);
    int64_t acc = 0, c = 0;
    cut[0] = 0;
    for (int64_t b = 0; b < n && c + 1 < chunks; b++) {
        acc += w[b];
        if (acc * chunks >= (c + 1) * total)
            cut[++c] = b + 1;
    }
    while (c < chunks)
        cut[++c] = n;
    for (c = 0; c < chunks; c++) {
        if (cut[c] == cut[c + 1])
            continue;
        lo[c] = ob->start[cut[c]] >> 6;
        int64_t hi = f2_limbs(ob->start[cut[c + 1]]);
        buf[c] = sq_calloc((size_t)(hi - lo[c]) + 1, 8);
    }
    mulpar_t m = {W, ob, vb, t0, v, cut, buf, lo, maxlen};
    sq_pool_parallel_for(pool, chunks, mul_chunk, &m);
    for (c = 0; c < chunks; c++) {
        if (!buf[c])
            continue;
        int64_t hi = f2_limbs(ob->start[cut[c + 1]]);
        for (int64_t l = lo[c]; l < hi; l++)
            out[l] ^= buf[c][l - lo[c]];
        sq_free(buf[c]);
    }
    sq_free(buf);
    sq_free(lo);
    sq_free(cut);
    sq_free(w);
}
