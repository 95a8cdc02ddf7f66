/*
 * resol_secondary.c -- the Adams d_2 from the secondary lift of a minimal
 * resolution (resol_secondary.h has the mathematics; pair_algebra.h the
 * algebra).
 *
 * Row by row, s = 3 .. max_s:
 *   1. the composites c(g', -) of the generators g' of F_{s-1} (by
 *      generator, over the pool);
 *   2. the intermediate of each generator g of F_s, sum A(a, c) plus
 *      h_{s-1}(d g) (by generator, over the pool);
 *   3. h_s(g), a preimage of the intermediate under d_{s-2} in degree
 *      |g| - 1: one reduction [D^T | v^T] per degree (sec_solve), the
 *      degrees one after another, each built and reduced on the pool;
 *   4. the d_2 coefficients: h_s(g) on the generators of F_{s-2}.
 * The composites of row s - 1 and the homotopies of row s - 1 are freed
 * as soon as the intermediates of row s are done, before its lifts: the
 * lifts hold one row of homotopies and one [D^T | v^T] (docs/benchmarks.md,
 * the d_2's memory model).  The generators of steps 1 and 2 are handed to
 * the pool highest degree (most work) first, so that no long one runs
 * alone at the end of a row.
 */
#include "resol_secondary.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "f2_kernels.h"
#include "internal.h"
#include "nassau_zblock.h"
#include "pair_algebra.h"
#include "resol_map_internal.h"
#include "sq_core.h"
#include "sq_trace.h"

/* The nonzero composites of one generator: c(g', tgt[i]) = e[i]. */
typedef struct {
    int64_t n;
    int64_t *tgt; /* global generator indices of F_{s-2} */
    pair_elt_t *e;
} comp_t;

struct resol_sec {
    const resol_t *R;
    int32_t max_s;
    int32_t *emax;  /* [s]: h_s is known on generators of degree <= emax[s] */
    fvec_t **d2;    /* [s][g]: h_s(g) on the generators of F_{s-2} in degree |g| - 1 */
};

/* ---- The condition ------------------------------------------------------------ */

int resol_sec_check(const resol_t *R, char *err, size_t errlen)
{
    const fdmod_t *M = R->M;
    int32_t h[MILNOR_MAX_LEN];
    if (R->p != 2) {
        snprintf(err, errlen, "the d_2 needs the secondary Steenrod algebra, which is "
                              "implemented at p = 2 only (the module is at p = %u)",
                 (unsigned)R->p);
        return SQ_E_INVAL;
    }
    if (fdmod_profile(M, h) > 0) {
        snprintf(err, errlen, "the d_2 needs a module over the whole Steenrod algebra "
                              "(this one is over a subalgebra)");
        return SQ_E_INVAL;
    }
    int ok2 = 1, ok3 = 1;
    int32_t bad2 = 0, bad3 = 0;
    for (int32_t t = fdmod_bottom(M); t < fdmod_top(M); t++) {
        if (fdmod_dim(M, t) == 0)
            continue;
        int64_t e2 = resol_ext_dim(R, 2, t + 1 - 2), e3 = resol_ext_dim(R, 3, t + 1 - 3);
        if (e2 < 0 || e3 < 0) {
            snprintf(err, errlen, "the d_2 check needs Ext through filtration 3 and stem %d",
                     (int)(t - 1));
            return SQ_E_INVAL;
        }
        if (e2 > 0 && ok2) {
            ok2 = 0;
            bad2 = t;
        }
        if (e3 > 0 && ok3) {
            ok3 = 0;
            bad3 = t;
        }
    }
    if (ok2 || ok3)
        return 0;
    snprintf(err, errlen,
             "the d_2 algorithm needs Ext^{2,t+1} = 0 for every t < top with M_t != 0, or "
             "Ext^{3,t+1} = 0 for all of them; here M_%d and Ext^{2,%d}, M_%d and "
             "Ext^{3,%d} are nonzero",
             (int)bad2, (int)(bad2 + 1), (int)bad3, (int)(bad3 + 1));
    return SQ_E_INVAL;
}

/* ---- Composites ----------------------------------------------------------------- */

/* The block of generator g (global) of F in the vector v over F in degree
 * e: a copy into tmp (limbs), 0 when it is zero. */
static int block(const fmod_t *F, int32_t e, int64_t g, fvec_t v, uint64_t *tmp, int64_t *len)
{
    int32_t dg = fmod_gen_degree(F, g);
    int64_t i = g - fmod_gen_global(F, dg, 0);
    int64_t off = fmod_block_offset(F, e, dg, i);
    *len = fmod_block_dim(F, e, dg);
    if (off >= v.len)
        return 0;
    int64_t n = off + *len <= v.len ? *len : v.len - off;
    return f2_copy_bits(tmp, v.limbs, off, n);
}

typedef struct {
    const resol_t *R;
    const pairalg_t *P;
    int32_t k;         /* the composites of F_k into F_{k-2} */
    int64_t g0;        /* generators g0 .. g0 + n - 1 */
    int64_t n;
    comp_t *out;
    atomic_int failed; /* d d != 0 mod 2 somewhere: a bug */
} comp_job_t;

static int64_t limbs_of(int64_t bits)
{
    return (bits + 63) / 64;
}

/* Limbs enough for any block of a vector over F in degree e: the block of
 * F's lowest generator is the longest (the dimensions of A do not
 * decrease with the degree). */
static int64_t block_cap(const resol_t *R, const fmod_t *F, int32_t e)
{
    if (fmod_total_gens(F) == 0 || fmod_gen_degree(F, 0) > e)
        return 1;
    return limbs_of(stalg_dim(R->S, e - fmod_gen_degree(F, 0))) + 1;
}

static void comp_one(void *ctx, int64_t i)
{
    comp_job_t *J = ctx;
    const resol_t *R = J->R;
    const fmod_t *F1 = R->F[J->k - 1], *F2 = R->F[J->k - 2];
    i = J->n - 1 - i; /* the highest degrees (the longest) first: no lone tail */
    int64_t g = J->g0 + i;
    int32_t e = fmod_gen_degree(R->F[J->k], g);
    int64_t n2 = 0;
    while (n2 < fmod_total_gens(F2) && fmod_gen_degree(F2, n2) < e)
        n2++;
    pair_elt_t *acc = sq_calloc((size_t)n2 + 1, sizeof *acc);
    fvec_t dg = resol_dgen(R, J->k, g);
    uint64_t *a = sq_malloc((size_t)block_cap(R, F1, e) * sizeof *a);
    int64_t bcap = block_cap(R, F2, e - 1);
    /* the blocks b of d(g1) on each g2, and the elements they add into */
    uint64_t *bs = sq_malloc((size_t)(n2 + 1) * (size_t)bcap * sizeof *bs);
    const uint64_t **bp = sq_malloc((size_t)(n2 + 1) * sizeof *bp);
    int32_t *bd = sq_malloc((size_t)(n2 + 1) * sizeof *bd);
    pair_elt_t **ep = sq_malloc((size_t)(n2 + 1) * sizeof *ep);
    milnor_ws_t *W = milnor_ws_new();
    pair_batch_t *B = pair_batch_new(); /* the Y parts' products of every g1, by Sq(R) */
    for (int64_t g1 = 0; g1 < fmod_total_gens(F1); g1++) {
        int32_t e1 = fmod_gen_degree(F1, g1);
        if (e1 >= e)
            break;
        int64_t alen, nb = 0;
        if (!block(F1, e, g1, dg, a, &alen))
            continue;
        fvec_t d1 = resol_dgen(R, J->k - 1, g1);
        for (int64_t g2 = 0; g2 < n2; g2++) {
            int32_t e2 = fmod_gen_degree(F2, g2);
            if (e2 >= e1)
                break;
            int64_t blen;
            uint64_t *b = bs + nb * bcap;
            if (!block(F2, e1, g2, d1, b, &blen))
                continue;
            if (!acc[g2].v)
                pair_elt_init(&acc[g2], J->P, e - e2);
            bp[nb] = b;
            bd[nb] = e1 - e2;
            ep[nb++] = &acc[g2];
        }
        pair_sigma_mul_vec_batch(J->P, B, W, ep, e - e1, a, bd, bp, nb);
    }
    pair_batch_run(J->P, B, W);
    pair_batch_free(B);
    milnor_ws_free(W);
    sq_free(bs);
    sq_free(bp);
    sq_free(bd);
    sq_free(ep);
    comp_t *c = &J->out[i];
    memset(c, 0, sizeof *c);
    for (int64_t g2 = 0; g2 < n2; g2++) {
        if (!acc[g2].v)
            continue;
        if (pair_elt_finish(&acc[g2]) != 0)
            atomic_store(&J->failed, 1);
        if (acc[g2].ones || pair_elt_is_zero(&acc[g2])) {
            pair_elt_clear(&acc[g2]);
            continue;
        }
        c->n++;
    }
    c->tgt = sq_malloc((size_t)c->n * sizeof *c->tgt + 1);
    c->e = sq_malloc((size_t)c->n * sizeof *c->e + 1);
    int64_t j = 0;
    for (int64_t g2 = 0; g2 < n2; g2++)
        if (acc[g2].v) {
            c->tgt[j] = g2;
            c->e[j++] = acc[g2];
        }
    sq_free(acc);
    sq_free(a);
}

static void comps_clear(comp_t *c, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < c[i].n; j++)
            pair_elt_clear(&c[i].e[j]);
        sq_free(c[i].tgt);
        sq_free(c[i].e);
    }
    sq_free(c);
}

/* ---- Intermediates and lifts ----------------------------------------------------- */

typedef struct {
    const resol_t *R;
    const pairalg_t *P;
    int32_t s;
    const comp_t *comps;   /* of F_{s-1}'s generators 0 .. ncomp - 1 */
    int64_t ncomp;
    const resol_cmap_t *H; /* h_k = H->vals[k - 2] */
    fvec_t *v;             /* [g]: the intermediate, then h_s(g) */
    int64_t ngen;          /* generators of F_s handled: 0 .. ngen - 1 */
    int64_t g0;            /* the first not kept (resol_sec_keep_t): computed from it on */
    atomic_int bad;
} row_job_t;

/* 1: h_{s-1}(d g) gathered into the intermediate's batch (hom_batch); 0:
 * by resol_cmap_apply, the reference (tests only: tests/resolution/
 * t-secondary.c compares the two). */
extern int resol_sec_batch_hom;
int resol_sec_batch_hom = 1;

/* h_{s-1}(d g) into v (over F_{s-3} in degree e - 1), d g = dg in degree
 * e: resol_cmap_apply's sum of a_{g1} h_{s-1}(g1) over the generators g1
 * of F_{s-1}, each block of h_{s-1}(g1) on a generator g3 of F_{s-3} times
 * each Sq(R) of a_{g1}, its products gathered into B with the
 * intermediate's own, so that a Sq(R) is prepared once for every block it
 * multiplies (resol_cmap_apply multiplies block by block). */
static void hom_batch(const row_job_t *J, pair_batch_t *B, milnor_ws_t *W, int32_t e, fvec_t dg,
                      fvec_t v)
{
    const resol_t *R = J->R;
    const fmod_t *F1 = R->F[J->s - 1], *F3 = R->F[J->s - 3];
    const fvec_t *H = J->H->vals[J->s - 3];
    /* the blocks, zero past their length (block copies what v holds) */
    int64_t acap = block_cap(R, F1, e), tcap = block_cap(R, F3, e);
    uint64_t *a = sq_malloc((size_t)acap * sizeof *a), *tmp = sq_malloc((size_t)tcap * sizeof *tmp);
    for (int64_t g1 = 0; g1 < fmod_total_gens(F1); g1++) {
        int32_t e1 = fmod_gen_degree(F1, g1);
        if (e1 > e)
            break;
        int64_t alen;
        memset(a, 0, (size_t)acap * sizeof *a);
        if (!H[g1].len || !block(F1, e, g1, dg, a, &alen))
            continue;
        for (int64_t g3 = 0; g3 < fmod_total_gens(F3); g3++) {
            int32_t e3 = fmod_gen_degree(F3, g3);
            if (e3 > e1 - 1)
                break;
            int64_t blen;
            memset(tmp, 0, (size_t)tcap * sizeof *tmp);
            if (!block(F3, e1 - 1, g3, H[g1], tmp, &blen))
                continue;
            int64_t ooff = fmod_block_offset(F3, e - 1, e3, g3 - fmod_gen_global(F3, e3, 0));
            pair_batch_add_vec(B, W, J->P, e - e1, a, alen, tmp, e1 - 1 - e3, blen, v.limbs, ooff);
        }
    }
    sq_free(a);
    sq_free(tmp);
}

static void inter_one(void *ctx, int64_t i)
{
    row_job_t *J = ctx;
    int64_t g = J->ngen - 1 - i; /* the highest degrees (the longest) first: no lone tail */
    const resol_t *R = J->R;
    int32_t s = J->s, e = fmod_gen_degree(R->F[s], g);
    const fmod_t *F1 = R->F[s - 1], *F3 = R->F[s - 3];
    fvec_t v;
    fvec_init(&v, fmod_dim(F3, e - 1), 2);
    fvec_t dg = resol_dgen(R, s, g);
    uint64_t *a = sq_malloc((size_t)block_cap(R, F1, e) * sizeof *a);
    milnor_ws_t *W = milnor_ws_new();
    pair_batch_t *B = pair_batch_new(); /* the products of every g1, by Sq(R) */
    for (int64_t g1 = 0; g1 < J->ncomp; g1++) {
        int32_t e1 = fmod_gen_degree(F1, g1);
        if (e1 >= e)
            break;
        const comp_t *c = &J->comps[g1];
        int64_t alen;
        if (!c->n || !block(F1, e, g1, dg, a, &alen))
            continue;
        pair_aop_t op;
        pair_aop_init(J->P, &op, e - e1, a, 0);
        int64_t *offs = sq_malloc((size_t)c->n * sizeof *offs);
        const pair_elt_t **es = sq_malloc((size_t)c->n * sizeof *es);
        for (int64_t j = 0; j < c->n; j++) {
            int64_t g3 = c->tgt[j];
            int32_t e3 = fmod_gen_degree(F3, g3);
            offs[j] = fmod_block_offset(F3, e - 1, e3, g3 - fmod_gen_global(F3, e3, 0));
            es[j] = &c->e[j];
        }
        pair_aop_apply_batch(J->P, &op, B, W, v.limbs, offs, es, c->n);
        sq_free(offs);
        sq_free(es);
        pair_aop_clear(&op);
    }
    if (s > 3 && resol_sec_batch_hom)
        hom_batch(J, B, W, e, dg, v);
    pair_batch_run(J->P, B, W);
    pair_batch_free(B);
    sq_free(a);
    milnor_ws_free(W);
    if (s > 3 && !resol_sec_batch_hom)
        resol_cmap_apply(J->H, s - 3, e, dg, 1, v);
    J->v[g] = v;
}

typedef struct {
    row_job_t *J;
    int32_t e0;      /* degrees e0 .. */
    sq_pool_t *pool; /* each degree's build and reduction */
} lift_ctx_t;

/* Transposes the 64 x 64 bit block a in place: bit j of a[i] (entry (i, j))
 * goes to bit i of a[j]; one swap of the off-diagonal halves per bit of the
 * index. */
static void transpose64(uint64_t a[64])
{
    uint64_t m = 0x00000000FFFFFFFFULL;
    for (int j = 32; j; j >>= 1, m ^= m << j)
        for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
}

/* Rows of D built and transposed by one task (four 64-row blocks). */
#define DT_CHUNK 256

typedef struct {
    const resol_t *R;
    int32_t k, e;
    int64_t rows;
    const int64_t *idx; /* the rows of D taken, in order */
    fmat_t *M;
} dt_job_t;

/* Task i: the rows idx[256 i .. 256 i + 255] (those below rows) of the
 * matrix D of d_k in degree e, transposed by 64 x 64 blocks into the
 * columns 256 i .. of M (M has D's columns as its rows): D itself is never
 * held, and the tasks write disjoint limbs of M. */
static void put_dt_chunk(void *ctx, int64_t ci)
{
    const dt_job_t *J = ctx;
    int64_t row0 = ci * DT_CHUNK;
    int64_t nr = J->rows - row0 < DT_CHUNK ? J->rows - row0 : DT_CHUNK, cols = fmat_rows(J->M);
    fmat_t tmp;
    fmat_init(&tmp, nr, cols, 2);
    fhom_build_rows_fm(J->R->d[J->k], &tmp, 0, J->e, J->e + 1, J->idx + row0, nr, NULL);
    uint64_t a[64];
    for (int64_t rb = 0; rb * 64 < nr; rb++)
        for (int64_t cb = 0; cb * 64 < cols; cb++) {
            for (int64_t i = 0; i < 64; i++)
                a[i] = rb * 64 + i < nr ? fmat_row(&tmp, rb * 64 + i).limbs[cb] : 0;
            transpose64(a);
            for (int64_t j = 0; j < 64 && cb * 64 + j < cols; j++)
                fmat_row(J->M, cb * 64 + j).limbs[row0 / 64 + rb] |= a[j];
        }
    fmat_clear(&tmp);
}

/* An echelon basis of rows of D: the row entered with pivot c (its first
 * nonzero entry) is b + at[c] * limbs, and mask has the bits of the pivot
 * columns, so a vector is reduced by visiting only its entries at pivots. */
typedef struct {
    int64_t limbs, n; /* limbs a row, rows held */
    uint64_t *b;      /* the rows 0 .. n, limbs apart (capacity rank's bound) */
    int64_t *at;      /* at[c]: the row with pivot c (where mask has c) */
    uint64_t *mask;   /* the pivot columns */
    fmat_t *chunk;    /* the D rows being entered */
} basis_t;

/* Clears v at every pivot of B by adding rows of B: each row added is zero
 * before its pivot, so one sweep from the first limb up suffices. */
static void basis_reduce(const basis_t *B, uint64_t *v)
{
    for (int64_t l = 0; l < B->limbs; l++) {
        uint64_t x = v[l] & B->mask[l];
        while (x) {
            int bit = __builtin_ctzll(x);
            int64_t r = B->at[l * 64 + bit];
            f2_xor_raw(v + l, B->b + r * B->limbs + l, B->limbs - l);
            x = v[l] & B->mask[l] & ~(((uint64_t)2 << bit) - 1);
        }
    }
}

/* Task i: row i of the chunk reduced by the basis as it stood before the
 * chunk (read only, so the tasks are independent). */
static void reduce_chunk_row(void *ctx, int64_t i)
{
    basis_reduce(ctx, fmat_row(((const basis_t *)ctx)->chunk, i).limbs);
}

/* The rows of D (d_k in degree e, rows by cols) not in the span of the rows
 * before them, written to idx in order; returns their number, the rank of
 * D.  These are the pivot columns of D^T's reduced echelon form, and the
 * basis that finds them is about half of D^T when the rank is about half
 * the rows: D is built 256 rows at a time on the pool and never held. */
static int64_t independent_rows(const resol_t *R, int32_t k, int32_t e, int64_t rows,
                                int64_t cols, int64_t *idx, sq_pool_t *pool)
{
    int64_t cap = rows < cols ? rows : cols, limbs = f2_limbs(cols);
    /* One calloc'd block: the pages of rows never entered are never touched
     * (no memset), so they take no memory, and free returns the block. */
    basis_t B = {limbs, 0, sq_calloc(sq_mul_size((size_t)cap + 1, (size_t)limbs), sizeof(uint64_t)),
                 sq_malloc(sq_mul_size((size_t)cols + 1, sizeof(int64_t))),
                 sq_calloc((size_t)limbs + 1, sizeof(uint64_t)), NULL};
    int64_t ids[DT_CHUNK];
    for (int64_t row0 = 0; row0 < rows && B.n < cap; row0 += DT_CHUNK) {
        int64_t nr = rows - row0 < DT_CHUNK ? rows - row0 : DT_CHUNK;
        for (int64_t i = 0; i < nr; i++)
            ids[i] = row0 + i;
        fmat_t tmp;
        fmat_init(&tmp, nr, cols, 2);
        fhom_build_rows_fm(R->d[k], &tmp, 0, e, e + 1, ids, nr, pool);
        B.chunk = &tmp;
        sq_pool_parallel_for(pool, nr, reduce_chunk_row, &B);
        for (int64_t i = 0; i < nr; i++) {
            uint64_t *v = fmat_row(&tmp, i).limbs;
            basis_reduce(&B, v); /* by the rows this chunk entered */
            int64_t c = fvec_first_nonzero(fmat_row(&tmp, i));
            if (c < 0)
                continue;
            memcpy(B.b + B.n * limbs, v, (size_t)limbs * sizeof(uint64_t));
            B.at[c] = B.n;
            B.mask[c / 64] |= (uint64_t)1 << (c % 64);
            idx[B.n++] = row0 + i;
        }
        fmat_clear(&tmp);
    }
    sq_free(B.b);
    sq_free(B.at);
    sq_free(B.mask);
    return B.n;
}

/* [D^T | v^T] up to this many bits (2 MB) is reduced whole: the two passes
 * build D's independent rows twice, and only the largest lifts set the
 * d_2's peak memory (internal.h; tests set 0 to run every lift in two). */
double resol_sec_one_pass_bits = 16.0 * 1024 * 1024;

/* Preimages under d_k (p = 2) in degree e of the n vectors v[0 .. n) over
 * F_{k-1}: out[j] over F_k with d(out[j]) = v[j], a zero-length vector when
 * v[j] is zero.  The system D^T x = v^T is reduced as [D^T | v^T] (D's
 * columns by D's rows plus n): no identity block beside D, so about half
 * the memory of a quasi-inverse [D | I] (the preimage chosen may differ
 * from resol_qis_lift's by a cycle; the d_2 coefficients do not, see
 * resol_secondary.h).  Above resol_sec_one_pass_bits, two passes:
 * independent_rows first finds the rows of D that enter its echelon form in
 * order (the pivot columns of D^T), then only those columns are reduced,
 * which gives the same solution (the one with zero free variables) from
 * about rank/rows of the memory.  Returns 0, or 1 when some v[j] is not a
 * boundary. */
static int sec_solve(const resol_t *R, int32_t k, int32_t e, const fvec_t *v, int64_t n,
                     fvec_t *out, sq_pool_t *pool)
{
    int64_t all = fmod_dim(R->F[k], e), cols = fhom_target_dim(R->d[k], e);
    int64_t *idx = sq_malloc(sq_mul_size((size_t)all + 1, sizeof *idx));
    int64_t rows = all;
    if ((double)cols * (double)(all + n) > resol_sec_one_pass_bits)
        rows = independent_rows(R, k, e, all, cols, idx, pool);
    else
        for (int64_t i = 0; i < all; i++)
            idx[i] = i;
    fmat_t M;
    fmat_init(&M, cols, rows + n, 2);
    dt_job_t J = {R, k, e, rows, idx, &M};
    sq_pool_parallel_for(pool, (rows + DT_CHUNK - 1) / DT_CHUNK, put_dt_chunk, &J);
    for (int64_t j = 0; j < n; j++)
        for (int64_t c = 0; c < cols && c < v[j].len; c++)
            if (fvec_get(v[j], c))
                fvec_set(fmat_row(&M, c), rows + j, 1);
    int64_t *piv = sq_malloc(sq_mul_size((size_t)(rows + n) + 1, sizeof *piv));
    int64_t rank = fmat_rref_pool(&M, piv, pool);
    int bad = 0;
    for (int64_t j = 0; j < n; j++) {
        memset(&out[j], 0, sizeof out[j]);
        if (fvec_is_zero(v[j]))
            continue;
        fvec_init(&out[j], all, 2);
        for (int64_t c = 0; c < rows + n; c++) {
            int64_t i = piv[c];
            if (i < 0 || !fvec_get(fmat_row(&M, i), rows + j))
                continue;
            if (c < rows)
                fvec_set(out[j], idx[c], 1);
            else
                bad = 1; /* a row 0 = 1: v[j] is not in the image */
        }
    }
    (void)rank;
    sq_free(piv);
    sq_free(idx);
    fmat_clear(&M);
    return bad;
}

/* ---- Lifts through Nassau's blocks ------------------------------------------------ */

/* Whether lifts use the zero-signature blocks of Nassau's engine (1) or
 * always reduce [D^T | v^T] (0): a knob for tests, not thread-safe to change;
 * and how many degrees were lifted each way (tests read them). */
extern int resol_sec_nassau_lift;
extern _Atomic int64_t resol_sec_nassau_done, resol_sec_nassau_fellback;
int resol_sec_nassau_lift = 1;
_Atomic int64_t resol_sec_nassau_done, resol_sec_nassau_fellback;

/* The profile Nassau's step (s, t) uses (resol_nassau.c's choice: the last
 * usable one of the ladder). */
static int step_profile(const resol_t *R, int32_t s, int32_t t)
{
    int best = 0;
    for (int i = 1; i < R->nprof; i++)
        if (nassau_usable(R->prof[i].h, R->prof[i].len, s, t, R->top))
            best = i;
    return best;
}

/* Kills the zero-signature component of every row of dx with the block z of
 * d_k in degree t (rows: T = F_k's zero-signature basis, generators of degree
 * <= t; columns: N = F_{k-1}'s, generators < t), correcting x (T's
 * coordinates in degree t, all generators): y0 = z's quasi-inverse of the
 * component, x += y0, dx += d(y0) (z's kept rows, or computed). */
static void kill_zero(resol_t *R, int32_t k, int32_t t, const zblock_t *z, f2mat_t *x,
                      f2mat_t *dx)
{
    uint64_t *vz = sq_calloc((size_t)f2_limbs(z->zn) + 1, sizeof *vz);
    uint64_t *y0 = sq_calloc((size_t)f2_limbs(z->zt) + 1, sizeof *y0);
    uint64_t *yt = z->nrows ? NULL : sq_calloc((size_t)f2_limbs(x->cols) + 1, sizeof *yt);
    for (int64_t i = 0; i < x->rows; i++) {
        uint64_t *xi = f2mat_row(x, i), *dxi = f2mat_row(dx, i);
        memset(vz, 0, (size_t)(f2_limbs(z->zn) + 1) * sizeof *vz);
        int any = 0;
        for (int64_t c = 0; c < z->zn; c++)
            if (bit(dxi, z->npos[c])) {
                vz[c >> 6] ^= UINT64_C(1) << (c & 63);
                any = 1;
            }
        if (!any)
            continue;
        memset(y0, 0, (size_t)(f2_limbs(z->zt) + 1) * sizeof *y0);
        nassau_zblock_qi_apply(y0, z, vz);
        if (yt)
            memset(yt, 0, (size_t)(f2_limbs(x->cols) + 1) * sizeof *yt);
        for (int64_t r = 0; r < z->zt; r++) {
            if (!bit(y0, r))
                continue;
            xi[z->tpos[r] >> 6] ^= UINT64_C(1) << (z->tpos[r] & 63);
            if (yt)
                yt[z->tpos[r] >> 6] ^= UINT64_C(1) << (z->tpos[r] & 63);
            else
                nassau_zblock_row_xor(dxi, z, r, 0, z->lim); /* d(Sq(R0) g) in degree t */
        }
        if (yt) /* the rows were not kept (the cache's budget): d(y0) computed */
            fhom_apply_add_par(R->d[k], dxi, z->ndim, t, t + 1, yt, R->pool);
    }
    sq_free(vz);
    sq_free(y0);
    sq_free(yt);
}

/* Whether bits from .. cols - 1 of every row of m are zero. */
static int rows_zero_from(const f2mat_t *m, int64_t from)
{
    for (int64_t i = 0; i < m->rows; i++)
        for (int64_t c = from; c < m->cols; c++)
            if (bit(f2mat_row(m, i), c))
                return 0;
    return 1;
}

/* Preimages under d_k (p = 2) in degree t of v[0 .. n), as sec_solve, by
 * Nassau's triangular solve instead of one reduction of D: with B the
 * subalgebra of Nassau's step (k + 1, t), d_k is block triangular in the
 * signatures, its diagonal block on sigma a copy of the zero-signature block
 * in degree t - |sigma| (resol_nassau.c, nassau_correct.c); the
 * zero-signature component of v is killed with the block of degree t (all
 * of F_k's generators through t among its rows), the others by the step's
 * own corrections (nassau_correct), each from a block far smaller than D,
 * kept in the engine's cache.  v is a boundary, and the zero-signature
 * complex over B is exact in the step's range (what makes the engine's own
 * corrections succeed), so each component is hit in turn.  Returns 0 with
 * out[j] set, d(out[j]) = v[j] checked bit for bit through the boundaries
 * carried along (dx = v + d(x) ends at zero), or 1 when the engine's blocks
 * are not there (the classical engine, a trivial subalgebra) or some
 * boundary is left (then nothing is written: the caller reduces D). */
static int nassau_solve(const resol_t *Rc, int32_t k, int32_t t, const fvec_t *v, int64_t n,
                        fvec_t *out)
{
    resol_t *R = (resol_t *)Rc; /* the block cache and its locks are not const */
    if (!resol_sec_nassau_lift || R->algo != RESOL_NASSAU || !R->nprof || !R->zcache || k < 1 ||
        t < R->t_min || t > R->t_max)
        return 1;
    int prof = step_profile(R, k + 1, t);
    const resol_profile_t *P = &R->prof[prof];
    if (P->len == 0)
        return 1; /* B = F_2: the block is D itself */
    const fmod_t *T = R->F[k], *N = R->F[k - 1];
    int64_t tdim = fmod_dim(T, t), ndim = fmod_dim(N, t);
    int64_t tlow = fmod_dim_below(T, t, t), nlow = fmod_dim_below(N, t, t - 1);
    f2mat_t x, dx;
    f2mat_init(&x, n, tdim);
    f2mat_init(&dx, n, ndim);
    for (int64_t j = 0; j < n; j++)
        if (v[j].len)
            memcpy(f2mat_row(&dx, j), v[j].limbs,
                   (size_t)f2_limbs(v[j].len < ndim ? v[j].len : ndim) * sizeof(uint64_t));
    nassau_row_lock(R, k + 1);
    const zblock_t *z = nassau_zcache_get(R, k + 1, t, prof, P, NULL);
    kill_zero(R, k, t, z, &x, &dx);
    nassau_row_unlock(R, k + 1);
    int ok = rows_zero_from(&dx, nlow); /* N's generators of degrees t - 1, t: never hit */
    if (ok) {
        sigclass_t Tc, Nc;
        nassau_class_init(&Tc, P, T, t, t);
        nassau_class_init(&Nc, P, N, t, t - 1);
        f2mat_t x2, dx2;
        f2mat_init(&x2, n, tlow);
        f2mat_init(&dx2, n, nlow);
        for (int64_t j = 0; j < n; j++)
            memcpy(f2mat_row(&dx2, j), f2mat_row(&dx, j),
                   (size_t)f2_limbs(nlow) * sizeof(uint64_t));
        /* (the bits past nlow copied with the last limb are zero: checked above) */
        nassau_correct(R, k + 1, t, P, &Tc, &Nc, &x2, &dx2, NULL);
        ok = rows_zero_from(&dx2, 0);
        for (int64_t j = 0; j < n && ok; j++)
            f2_xor_raw(f2mat_row(&x, j), f2mat_row(&x2, j), f2_limbs(tlow));
        f2mat_clear(&x2);
        f2mat_clear(&dx2);
        nassau_class_clear(&Tc);
        nassau_class_clear(&Nc);
    }
    if (ok)
        for (int64_t j = 0; j < n; j++) {
            memset(&out[j], 0, sizeof out[j]);
            if (fvec_is_zero(v[j]))
                continue;
            fvec_init(&out[j], tdim, 2);
            memcpy(out[j].limbs, f2mat_row(&x, j), (size_t)f2_limbs(tdim) * sizeof(uint64_t));
        }
    f2mat_clear(&x);
    f2mat_clear(&dx);
    atomic_fetch_add(ok ? &resol_sec_nassau_done : &resol_sec_nassau_fellback, 1);
    return ok ? 0 : 1;
}

static void lift_degree(const lift_ctx_t *L, int64_t i)
{
    row_job_t *J = L->J;
    const resol_t *R = J->R;
    int32_t s = J->s, e = L->e0 + (int32_t)i;
    const fmod_t *F = R->F[s];
    int64_t n = fmod_num_gens(F, e);
    if (n == 0)
        return;
    int64_t g0 = fmod_gen_global(F, e, 0);
    fvec_t *h = sq_malloc((size_t)n * sizeof *h);
    if (nassau_solve(R, s - 2, e - 1, J->v + g0, n, h) != 0 &&
        sec_solve(R, s - 2, e - 1, J->v + g0, n, h, L->pool))
        atomic_store(&J->bad, 1);
    for (int64_t j = 0; j < n; j++) {
        fvec_clear(&J->v[g0 + j]);
        J->v[g0 + j] = h[j];
    }
    sq_free(h);
}

/* ---- The driver ------------------------------------------------------------------- */

static comp_t *row_composites(const resol_t *R, const pairalg_t *P, int32_t k, int64_t n,
                              sq_pool_t *pool, int *failed)
{
    comp_job_t J = {R, P, k, 0, n, sq_calloc((size_t)n + 1, sizeof(comp_t)), 0};
    sq_pool_parallel_for(pool, n, comp_one, &J);
    *failed = atomic_load(&J.failed);
    return J.out;
}

/* The generators of F with degree <= e: their count (a prefix of the
 * global order). */
static int64_t gens_through(const fmod_t *F, int32_t e)
{
    int64_t n = 0, tot = fmod_total_gens(F);
    while (n < tot && fmod_gen_degree(F, n) <= e)
        n++;
    return n;
}

/* The bound of row s's generators (h_s on degrees <= it): those of F_s
 * known, and no higher than F_{s-2}'s + 1 (h_s maps into F_{s-2}). */
static int32_t row_emax(const resol_t *R, int32_t s)
{
    int32_t a = fmod_gens_through(R->F[s]), b = fmod_gens_through(R->F[s - 2]) + 1;
    return a < b ? a : b;
}

/* Sum over the generators of F of degree <= e of dim(G)_{|g|}^2. */
static double squares_below(const fmod_t *F, const fmod_t *G, int32_t e)
{
    double w = 0;
    int64_t n = gens_through(F, e);
    for (int64_t g = 0; g < n; g++) {
        double d = (double)fmod_dim(G, fmod_gen_degree(F, g));
        w += d * d;
    }
    return w;
}

double resol_sec_row_work(const resol_t *R, int32_t s)
{
    if (s < 3 || s > R->max_s)
        return 0;
    int32_t e = row_emax(R, s);
    return squares_below(R->F[s], R->F[s - 1], e) + squares_below(R->F[s - 1], R->F[s - 2], e - 1);
}

void resol_sec_free(resol_sec_t *X)
{
    if (!X)
        return;
    for (int32_t s = 0; s <= X->max_s; s++) {
        if (!X->d2[s])
            continue;
        for (int64_t g = 0; g < fmod_total_gens(X->R->F[s]); g++)
            fvec_clear(&X->d2[s][g]);
        sq_free(X->d2[s]);
    }
    sq_free(X->d2);
    sq_free(X->emax);
    sq_free(X);
}

/* Row s's d_2 coefficients from its homotopies v[0 .. n). */
static void keep_d2(resol_sec_t *X, int32_t s, const fvec_t *v, int64_t n)
{
    const resol_t *R = X->R;
    const fmod_t *F = R->F[s], *F2 = R->F[s - 2];
    X->d2[s] = sq_calloc((size_t)fmod_total_gens(F) + 1, sizeof(fvec_t));
    for (int64_t g = 0; g < n; g++) {
        int32_t e = fmod_gen_degree(F, g);
        int64_t m = fmod_num_gens(F2, e - 1);
        fvec_init(&X->d2[s][g], m, 2);
        if (!v[g].len)
            continue;
        for (int64_t i = 0; i < m; i++)
            fvec_set(X->d2[s][g], i, fvec_get(v[g], fmod_block_offset(F2, e - 1, e - 1, i)));
    }
}

static int run_rows(resol_sec_t *X, const pairalg_t *P, sq_pool_t *pool,
                    const resol_sec_keep_t *keep, resol_sec_progress_fn prog, void *pctx,
                    char *err, size_t errlen)
{
    const resol_t *R = X->R;
    resol_cmap_t H;
    resol_cmap_init(&H, R, R, 2, 1, X->max_s - 2);
    int rc = 0;
    for (int32_t s = 3; s <= X->max_s && rc == 0; s++) {
        double c0 = sq_cputime(), c1 = c0, c2 = c0;
        int32_t em = X->emax[s];
        int64_t nc = gens_through(R->F[s - 1], em - 1), ng = gens_through(R->F[s], em);
        int64_t n0 = 0; /* h_s kept on 0 .. n0 - 1 */
        if (keep && keep->load && (rc = keep->load(keep->ctx, s, H.vals[s - 2], ng, &n0, err,
                                                   errlen)) != 0)
            break;
        row_job_t J = {R, P, s, NULL, nc, &H, H.vals[s - 2], ng, n0, 0};
        if (n0 < ng) {
            int failed = 0;
            c0 = sq_cputime(); /* the kept rows' loading aside */
            comp_t *comps = row_composites(R, P, s - 1, nc, pool, &failed);
            SQ_CHECK(!failed, "secondary: d d is not zero mod 2 in row %d", (int)(s - 1));
            J.comps = comps;
            c1 = sq_cputime();
            sq_pool_parallel_for(pool, ng - n0, inter_one, &J);
            comps_clear(comps, nc);
            c2 = sq_cputime();
        }
        if (s >= 4) /* h_{s-1} was needed by the intermediates only: freed before the lifts */
            for (int64_t g = 0; g < fmod_total_gens(R->F[s - 1]); g++)
                fvec_clear(&H.vals[s - 3][g]);
        int32_t e0 = n0 < ng ? fmod_gen_degree(R->F[s], n0) : em + 1;
        /* one degree at a time, each built and reduced on the pool: one
         * [D^T | v^T] held at a time, not one per thread */
        lift_ctx_t L = {&J, e0, pool};
        for (int32_t e = e0; e <= em; e++)
            lift_degree(&L, e - e0);
        if (R->zcache) /* row s - 1's blocks of Nassau's cache: read by these lifts only */
            nassau_zcache_clear((resol_t *)R, s - 1);
        if (sq_trace_on(SQ_TRACE_PHASE))
            sq_trace_emit("event=d2row s=%d comp_cpu=%.3f inter_cpu=%.3f lift_cpu=%.3f", (int)s,
                          c1 - c0, c2 - c1, sq_cputime() - c2);
        if (atomic_load(&J.bad)) {
            snprintf(err, errlen,
                     s == 3 ? "the module does not lift to the secondary Steenrod algebra "
                              "(the homotopy at s = 3 has no solution)"
                            : "secondary: a lift at s = %d failed (a bug: please report)",
                     (int)s);
            rc = s == 3 ? SQ_E_INVAL : SQ_E_RANGE;
        }
        keep_d2(X, s, J.v, ng);
        if (rc == 0 && keep && keep->save)
            rc = keep->save(keep->ctx, s, em, J.v, n0, ng, err, errlen);
        if (prog && rc == 0)
            prog(pctx, s, X->max_s);
    }
    resol_cmap_clear(&H);
    return rc;
}

int resol_sec_new(resol_sec_t **out, const resol_t *R, sq_pool_t *pool,
                  resol_sec_progress_fn prog, void *pctx, char *err, size_t errlen)
{
    return resol_sec_new_kept(out, R, pool, NULL, prog, pctx, err, errlen);
}

int resol_sec_new_kept(resol_sec_t **out, const resol_t *R, sq_pool_t *pool,
                       const resol_sec_keep_t *keep, resol_sec_progress_fn prog, void *pctx,
                       char *err, size_t errlen)
{
    *out = NULL;
    int rc = resol_sec_check(R, err, errlen);
    if (rc)
        return rc;
    resol_sec_t *X = sq_calloc(1, sizeof *X);
    X->R = R;
    X->max_s = R->max_s;
    X->emax = sq_calloc((size_t)X->max_s + 1, sizeof *X->emax);
    X->d2 = sq_calloc((size_t)X->max_s + 1, sizeof *X->d2);
    for (int32_t s = 2; s <= X->max_s; s++)
        X->emax[s] = row_emax(R, s);
    pairalg_t *P = pairalg_new(R->A);
    rc = run_rows(X, P, pool, keep, prog, pctx, err, errlen);
    pairalg_free(P);
    if (rc) {
        resol_sec_free(X);
        return rc;
    }
    *out = X;
    return 0;
}

int resol_sec_has(const resol_sec_t *X, int32_t s, int32_t n)
{
    const resol_t *R = X->R;
    if (s < 0 || s + 2 > X->max_s || n < R->min_n || n > R->max_n)
        return 0;
    return n + s + 1 <= X->emax[s + 2];
}

int resol_sec_d2(const resol_sec_t *X, int32_t s, int32_t n, fmat_t *m)
{
    memset(m, 0, sizeof *m);
    if (!resol_sec_has(X, s, n))
        return SQ_E_RANGE;
    const resol_t *R = X->R;
    int32_t t = n + s;
    int64_t rows = fmod_num_gens(R->F[s], t), cols = fmod_num_gens(R->F[s + 2], t + 1);
    fmat_init(m, rows, cols, 2);
    if (s == 0) /* h_2 = 0 */
        return 0;
    for (int64_t j = 0; j < cols; j++) {
        fvec_t c = X->d2[s + 2][fmod_gen_global(R->F[s + 2], t + 1, j)];
        for (int64_t i = 0; i < rows && i < c.len; i++)
            if (fvec_get(c, i))
                fmat_set(m, i, j, 1);
    }
    return 0;
}

/* ---- The E_3 page ------------------------------------------------------------------ */

/* Whether the map out of (n, s) is known (as zero when Ext is zero at
 * either end); the same for the map into (n, s) from (n + 1, s - 2). */
static int out_known(const resol_sec_t *X, int32_t s, int32_t n)
{
    const resol_t *R = X->R;
    if (resol_ext_dim(R, s, n) == 0 || resol_ext_dim(R, s + 2, n - 1) == 0)
        return 1;
    return resol_sec_has(X, s, n);
}

static int in_known(const resol_sec_t *X, int32_t s, int32_t n)
{
    if (s < 2 || resol_ext_dim(X->R, s - 2, n + 1) == 0)
        return 1;
    return resol_sec_has(X, s - 2, n + 1);
}


int resol_sec_e3_basis(const resol_sec_t *X, int32_t s, int32_t n, fmat_t *reps, fmat_t *image)
{
    memset(reps, 0, sizeof *reps);
    memset(image, 0, sizeof *image);
    int64_t dim = resol_ext_dim(X->R, s, n);
    if (dim < 0 || !out_known(X, s, n) || !in_known(X, s, n))
        return SQ_E_RANGE;
    /* the image: d_2 of the classes of (n + 1, s - 2), reduced */
    fmat_t in = {0};
    if (s >= 2 && dim > 0 && resol_ext_dim(X->R, s - 2, n + 1) > 0) {
        if (resol_sec_d2(X, s - 2, n + 1, &in) != 0)
            return SQ_E_RANGE;
    } else
        fmat_init(&in, 0, dim, 2);
    int64_t rank = fmat_rref(&in, NULL);
    fmat_init(image, rank, dim, 2);
    for (int64_t i = 0; i < rank; i++)
        fvec_addmul(fmat_row(image, i), fvec_window(fmat_row(&in, i), 0, dim), 1);
    fmat_clear(&in);
    /* the cycles: the kernel of d_2 out, or everything */
    fmat_t ker = {0};
    if (dim > 0 && resol_ext_dim(X->R, s + 2, n - 1) > 0) {
        fmat_t out;
        if (resol_sec_d2(X, s, n, &out) != 0) {
            fmat_clear(image);
            return SQ_E_RANGE;
        }
        (void)fmat_kernel(&ker, NULL, &out, NULL);
        fmat_clear(&out);
    } else {
        fmat_init(&ker, dim, dim, 2);
        for (int64_t i = 0; i < dim; i++)
            fmat_set(&ker, i, i, 1);
    }
    /* representatives: the cycles reduced by the image, in canonical RREF */
    for (int64_t i = 0; i < fmat_rows(&ker); i++)
        resol_sec_reduce_by(fvec_window(fmat_row(&ker, i), 0, dim), image, rank);
    int64_t r = fmat_rref(&ker, NULL);
    fmat_init(reps, r, dim, 2);
    for (int64_t i = 0; i < r; i++)
        fvec_addmul(fmat_row(reps, i), fvec_window(fmat_row(&ker, i), 0, dim), 1);
    fmat_clear(&ker);
    return 0;
}

int64_t resol_sec_e3_dim(const resol_sec_t *X, int32_t s, int32_t n)
{
    fmat_t reps, image;
    if (resol_sec_e3_basis(X, s, n, &reps, &image) != 0)
        return -1;
    int64_t d = fmat_rows(&reps);
    fmat_clear(&reps);
    fmat_clear(&image);
    return d;
}

int resol_sec_e3_coords(const fmat_t *reps, const fmat_t *image, fvec_t v, fvec_t out)
{
    fvec_t w;
    fvec_init(&w, v.len, 2);
    fvec_addmul(w, v, 1);
    resol_sec_reduce_by(w, image, fmat_rows(image));
    fvec_zero(out);
    for (int64_t i = 0; i < fmat_rows(reps); i++) {
        fvec_t row = fmat_row(reps, i);
        int64_t c = fvec_first_nonzero(row);
        if (c >= 0 && fvec_get(w, c)) {
            fvec_set(out, i, 1);
            fvec_addmul(w, fvec_window(row, 0, w.len), 1);
        }
    }
    int ok = fvec_is_zero(w);
    fvec_clear(&w);
    return ok ? 0 : SQ_E_INVAL;
}
