/*
 * nassau_mulpar.c -- the products by Sq(sigma) of Nassau's corrections,
 * block by block, split over the pool (see nassau_mulpar_internal.h, internal.h).
 *
 * A correction multiplies the small element Sq(sigma) into every generator
 * block of y0 (in F_{s-1}) and of d(y0) (in F_{s-2}); at stems 130-200 this
 * is most of step 3, and it lies on the critical path of its row
 * (docs/parallelism.md), so it is split like the matrix builds: chunks of
 * consecutive blocks, cut so that each holds about the same number of set
 * bits of v (the products' cost is linear in them).  All the products of
 * one signature (two per new generator: x and dx) go into one section, so
 * that a step with several generators, or with small products, still
 * fills the pool.  Blocks in order land in increasing, disjoint bit ranges
 * of out, so chunk c writes only into [ob->start[first block],
 * ob->start[last block + 1]): it multiplies into a private buffer of those
 * limbs and XORs the limbs wholly inside that range into out itself (no
 * other chunk touches them); the first and last limb, which it may share
 * with its neighbours, the caller XORs after the section (XOR does not care
 * about order).
 */
#include <string.h>

#include "f2_kernels.h"
#include "internal.h"
#include "nassau_mulpar_internal.h"
#include "sq_core.h"
#include "sq_pool.h"

/* Below this many set bits in a batch it stays on its thread (opening a
 * section costs the caller about as much as a few dozen set bits of
 * products). */
#define MULPAR_MIN_BITS 64

/* out (whose bit 0 is bit base of the whole output) ^= the products of
 * blocks [b0, b1); wb[b]: the set bits of block b; blk: scratch of the
 * longest block. */
static void mul_range(const milnor_ws_t *W, uint64_t *out, int64_t base, const blocks_t *ob,
                      const blocks_t *vb, int32_t t0, const uint64_t *v, const int64_t *wb,
                      int64_t b0, int64_t b1, uint64_t *blk)
{
    if (!milnor_ws_scans(W)) { /* products walked: block by block, copied out */
        for (int64_t b = b0; b < b1; b++) {
            int64_t len = vb->start[b + 1] - vb->start[b];
            if (len && f2_copy_bits(blk, v, vb->start[b], len))
                milnor_ws_mul_vec_add(W, out, ob->start[b] - base, t0 - vb->deg[b], blk);
        }
        return;
    }
    /* Read in place, the S's of up to 64 blocks at a time tested four at a
     * time (a block by itself ends in a part-filled four, and was copied);
     * the blocks without set bits (most of them) never reach the products. */
    milnor_bitblock_t bb[64];
    for (int64_t b = b0; b < b1;) {
        int nbb = 0;
        for (; b < b1 && nbb < 64; b++)
            if (wb[b] > 0)
                bb[nbb++] = (milnor_bitblock_t){ob->start[b] - base, t0 - vb->deg[b], vb->start[b],
                                                vb->start[b + 1] - vb->start[b]};
        milnor_ws_mul_bitblocks_add(W, out, bb, nbb, v);
    }
}

/* The longest block of v (bits, at least 1). */
static int64_t longest_block(const blocks_t *vb)
{
    int64_t m = 1;
    for (int64_t b = 0; b < vb->n; b++)
        if (vb->start[b + 1] - vb->start[b] > m)
            m = vb->start[b + 1] - vb->start[b];
    return m;
}

/* One chunk: blocks [b0, b1) of product job, into buf = limbs [lo, hi) of
 * its out. */
typedef struct {
    int64_t job, b0, b1, lo, hi;
    uint64_t *buf;
} mulchunk_t;

typedef struct {
    const milnor_ws_t *W;
    int32_t t0;
    const nassau_mulvec_t *jobs;
    mulchunk_t *ch;
    int64_t *const *w; /* w[j][b]: set bits of block b of product j */
} mulpar_t;

/* The limbs [*a, *e) of out wholly inside the bits of chunk h (empty when
 * *a >= *e). */
static void inner_limbs(const mulchunk_t *h, const nassau_mulvec_t *j, int64_t *a, int64_t *e)
{
    *a = (j->ob->start[h->b0] + 63) >> 6;
    *e = j->ob->start[h->b1] >> 6;
}

static void mul_chunk(void *ctx, int64_t c)
{
    const mulpar_t *m = ctx;
    mulchunk_t *h = &m->ch[c];
    const nassau_mulvec_t *j = &m->jobs[h->job];
    h->buf = sq_calloc((size_t)(h->hi - h->lo) + 1, 8); /* freed by the caller */
    uint64_t *blk = sq_calloc((size_t)f2_limbs(longest_block(j->vb)) + 1, 8);
    mul_range(m->W, h->buf, h->lo * 64, j->ob, j->vb, m->t0, j->v, m->w[h->job], h->b0, h->b1,
              blk);
    sq_free(blk);
    int64_t a, e;
    inner_limbs(h, j, &a, &e);
    for (int64_t l = a; l < e; l++)
        j->out[l] ^= h->buf[l - h->lo];
}

/* The chunks of the batch (about `want` in all, never across products,
 * none over blocks without set bits at either end) into *out; returns
 * their number.  w[j][b]: set bits of block b of product j. */
static int64_t cut_chunks(const nassau_mulvec_t *jobs, int64_t n, int64_t *const *w,
                          int64_t total, int64_t want, mulchunk_t **out)
{
    int64_t cap = want + n + 1, nc = 0, acc = 0, c = 0;
    mulchunk_t *ch = sq_calloc((size_t)cap, sizeof *ch);
    for (int64_t j = 0; j < n; j++) {
        int64_t nb = jobs[j].vb->n, b0 = -1;
        for (int64_t b = 0; b < nb; b++) {
            if (w[j][b] == 0)
                continue;
            if (b0 < 0)
                b0 = b;
            acc += w[j][b];
            int cut = 0;
            while (acc * want >= (c + 1) * total) {
                c++;
                cut = 1;
            }
            if (cut || b == nb - 1) {
                if (nc == cap) {
                    cap *= 2;
                    ch = sq_realloc(ch, sq_mul_size((size_t)cap, sizeof *ch));
                }
                ch[nc++] = (mulchunk_t){j, b0, b + 1, 0, 0, NULL};
                b0 = -1;
            }
        }
        if (b0 >= 0) { /* the job's last blocks with bits */
            if (nc == cap) {
                cap *= 2;
                ch = sq_realloc(ch, sq_mul_size((size_t)cap, sizeof *ch));
            }
            ch[nc++] = (mulchunk_t){j, b0, nb, 0, 0, NULL};
        }
    }
    *out = ch;
    return nc;
}

void nassau_mul_many_par(const milnor_ws_t *W, int32_t t0, const nassau_mulvec_t *jobs,
                         int64_t n, sq_pool_t *pool, int force)
{
    if (n <= 0)
        return;
    int64_t total = 0;
    int64_t **w = sq_calloc((size_t)n, sizeof *w);
    /* the weights are set bits: popcnt where the CPU has it (a library call
     * per limb otherwise, 1.6% of a run's instructions at (90, 48)) */
    int64_t (*count_bits)(const uint64_t *, int64_t, int64_t) = f2_kernels()->popcount_range;
    for (int64_t j = 0; j < n; j++) {
        const blocks_t *vb = jobs[j].vb;
        SQ_CHECK(vb->n <= jobs[j].ob->n, "nassau_mul_many_par: %lld blocks into %lld",
                 (long long)vb->n, (long long)jobs[j].ob->n);
        w[j] = sq_malloc(sq_mul_size((size_t)vb->n + 1, sizeof *w[j]));
        for (int64_t b = 0; b < vb->n; b++) {
            w[j][b] = count_bits(jobs[j].v, vb->start[b], vb->start[b + 1] - vb->start[b]);
            total += w[j][b];
        }
    }
    int64_t want = pool ? 2 * (int64_t)sq_pool_size(pool) : 1;
    if (force && want < 6)
        want = 6;
    if (total == 0 || (!force && (want <= 2 || total < MULPAR_MIN_BITS))) {
        for (int64_t j = 0; j < n; j++) {
            uint64_t *blk = sq_calloc((size_t)f2_limbs(longest_block(jobs[j].vb)) + 1, 8);
            mul_range(W, jobs[j].out, 0, jobs[j].ob, jobs[j].vb, t0, jobs[j].v, w[j], 0,
                      jobs[j].vb->n, blk);
            sq_free(blk);
        }
    } else {
        mulchunk_t *ch;
        int64_t nc = cut_chunks(jobs, n, w, total, want, &ch);
        for (int64_t c = 0; c < nc; c++) {
            const blocks_t *ob = jobs[ch[c].job].ob;
            ch[c].lo = ob->start[ch[c].b0] >> 6;
            ch[c].hi = f2_limbs(ob->start[ch[c].b1]);
        }
        mulpar_t m = {W, t0, jobs, ch, w};
        sq_pool_parallel_for(pool, nc, mul_chunk, &m);
        for (int64_t c = 0; c < nc; c++) { /* the limbs shared with neighbours */
            int64_t a, e;
            inner_limbs(&ch[c], &jobs[ch[c].job], &a, &e);
            uint64_t *out = jobs[ch[c].job].out;
            for (int64_t l = ch[c].lo; l < ch[c].hi && l < a; l++)
                out[l] ^= ch[c].buf[l - ch[c].lo];
            for (int64_t l = e > a ? e : a; l < ch[c].hi; l++)
                out[l] ^= ch[c].buf[l - ch[c].lo];
            sq_free(ch[c].buf);
        }
        sq_free(ch);
    }
    for (int64_t j = 0; j < n; j++)
        sq_free(w[j]);
    sq_free(w);
}

void nassau_mul_blocks_par(const milnor_ws_t *W, uint64_t *out, const blocks_t *ob,
                           const blocks_t *vb, int32_t t0, const uint64_t *v, sq_pool_t *pool)
{
    nassau_mulvec_t job = {out, ob, vb, v};
    nassau_mul_many_par(W, t0, &job, 1, pool, 0);
}
