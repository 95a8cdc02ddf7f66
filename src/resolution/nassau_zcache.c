/*
 * nassau_zcache.c -- the cache of reduced zero-signature blocks that step 3
 * of Nassau's step (nassau_correct.c) reads: the generator blocks of a
 * basis, the blocks themselves (built, seeded by step 1's matrix, reseeded
 * across profiles), and the row-locked cache with its budget.
 */
#include <sched.h>
#include <string.h>

#include "f2_kernels.h"
#include "internal.h"
#include "nassau_zblock.h"
#include "sq_core.h"

/* Test hook: with split_all set, the sections of a block's completion
 * (zblock_build and what it calls) and of a seed's appending are split
 * whatever their size.  Declared
 * where it is used (tests/resolution/t-sched.c). */
static int split_all;
void nassau_zcache_split_all(int on);
void nassau_zcache_split_all(int on)
{
    split_all = on;
}

/* A section's size below which it stays on its thread (a section's
 * wake-up costs tens of microseconds): the gathers into [A | I] by nonzero
 * limbs of the kept rows, the quasi-inverse's copy and the appending of
 * rows by limbs of the dense rows. */
#define GATHER_PAR_MIN_LIMBS (INT64_C(1) << 14)
#define KEEP_PAR_MIN_LIMBS (INT64_C(1) << 16)
#define APPEND_PAR_MIN_LIMBS (INT64_C(1) << 16)
/* A block's new rows are built by pieces that zero, build, append and free
 * their own rows from this many rows (4 pieces a thread, of a quarter of
 * it at least): fhom_build_rows_par splits a build from 256 rows. */
#define BUILD_PIECES_MIN_ROWS 256

/* Pieces of a section of `work` units over n rows: 2 a thread when pool
 * has 2 or more and work >= least (or split_all), at most n; else 1. */
static int64_t pieces(sq_pool_t *pool, int64_t work, int64_t least, int64_t n)
{
    int64_t threads = sq_pool_size(pool);
    if (n < 2 || (!split_all && (threads < 2 || work < least)))
        return 1;
    int64_t k = split_all ? (threads < 3 ? 3 : 2 * threads) : 2 * threads;
    return k < n ? k : n;
}

/* Runs pieces [0, n) over pool when split, else in order on the caller. */
static void run_split(sq_pool_t *pool, int split, int64_t n, void (*fn)(void *, int64_t),
                      void *ctx)
{
    if (split && n > 1)
        sq_pool_parallel_for(pool, n, fn, ctx);
    else
        for (int64_t c = 0; c < n; c++)
            fn(ctx, c);
}

void nassau_blocks_init(blocks_t *b, const fmod_t *F, int32_t t, int32_t bound)
{
    const milnor_t *A = fmod_algebra(F);
    int32_t top = fmod_top_below(F, bound < t + 1 ? bound : t + 1);
    int64_t n = 0;
    for (int32_t e = fmod_min_degree(F); e <= top; e++)
        n += fmod_num_gens(F, e);
    b->n = n;
    b->start = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *b->start));
    b->deg = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *b->deg));
    b->idx = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *b->idx));
    int64_t k = 0, pos = 0;
    for (int32_t e = fmod_min_degree(F); e <= top; e++)
        for (int64_t i = 0; i < fmod_num_gens(F, e); i++, k++) {
            b->start[k] = pos;
            b->deg[k] = e;
            b->idx[k] = i;
            pos += milnor_dim(A, t - e);
        }
    b->start[n] = pos;
}

void nassau_blocks_clear(blocks_t *b)
{
    sq_free(b->start);
    sq_free(b->deg);
    sq_free(b->idx);
}

/* The block containing position pos. */
int64_t nassau_blocks_find(const blocks_t *b, int64_t pos)
{
    int64_t lo = 0, hi = b->n - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (b->start[mid] <= pos)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}


/* Widens z's limb maps to lim limbs a row (lim >= z->lim): the rows kept
 * so far are zero beyond their own width. */
static void zblock_widen(zblock_t *z, int64_t lim)
{
    int64_t mw = f2_limbs(lim);
    if (mw != z->mw && z->nrows) {
        uint64_t *map = sq_calloc((size_t)(z->nrows * mw) + 1, sizeof *map);
        for (int64_t r = 0; r < z->nrows; r++)
            memcpy(map + r * mw, z->lmap + r * z->mw, (size_t)z->mw * sizeof *map);
        sq_free(z->lmap);
        z->lmap = map;
    }
    z->lim = lim;
    z->mw = mw;
}

/* Appending rows by pieces of rows: (a) each row's nonzero limbs counted
 * (into rstart[r + 1]), (b) the counts summed, (c) each row's limb map and
 * values written at its place.  The rows are those of full, or (full NULL)
 * built by each piece into a matrix of its own, part[c] (the images under
 * d of the basis positions pos, ncols columns), and freed after (c): the
 * zeroing, the build and the release are the pieces' too. */
typedef struct {
    zblock_t *z;
    const f2mat_t *full;
    f2mat_t *part;
    const fhom_t *d;
    const int64_t *pos;
    int32_t t0;
    int64_t ncols;
    int64_t base, n, lim, pieces; /* rows 0 .. n - 1 become kept rows base ..; lim limbs */
} append_ctx_t;

static const uint64_t *append_row(const append_ctx_t *a, int64_t c, int64_t r)
{
    if (a->full)
        return f2mat_row(a->full, r);
    return f2mat_row(&a->part[c], r - a->n * c / a->pieces);
}

static void append_count(void *ctx, int64_t c)
{
    const append_ctx_t *a = ctx;
    int64_t r0 = a->n * c / a->pieces, r1 = a->n * (c + 1) / a->pieces;
    if (!a->full) {
        f2mat_init(&a->part[c], r1 - r0, a->ncols);
        if (r1 > r0)
            fhom_build_rows_subset(a->d, &a->part[c], 0, a->t0, a->t0 + 1, a->pos + r0, r1 - r0);
    }
    for (int64_t r = r0; r < r1; r++) {
        const uint64_t *row = append_row(a, c, r);
        int64_t nz = 0;
        for (int64_t l = 0; l < a->lim; l++)
            nz += row[l] != 0;
        a->z->rstart[a->base + r + 1] = nz;
    }
}

static void append_fill(void *ctx, int64_t c)
{
    const append_ctx_t *a = ctx;
    zblock_t *z = a->z;
    for (int64_t r = a->n * c / a->pieces; r < a->n * (c + 1) / a->pieces; r++) {
        const uint64_t *row = append_row(a, c, r);
        uint64_t *map = z->lmap + (a->base + r) * z->mw, *v = z->lval + z->rstart[a->base + r];
        memset(map, 0, (size_t)z->mw * sizeof *map);
        for (int64_t l = 0; l < a->lim; l++)
            if (row[l]) {
                map[l >> 6] |= UINT64_C(1) << (l & 63);
                *v++ = row[l];
            }
    }
    if (!a->full)
        f2mat_clear(&a->part[c]);
}

/* Runs a's three stages (a->n rows of a->lim limbs, a->pieces pieces) and
 * returns the number of nonzero limbs appended. */
static int64_t append_run(append_ctx_t *a, sq_pool_t *pool)
{
    zblock_t *z = a->z;
    if (a->lim > z->lim)
        zblock_widen(z, a->lim);
    int64_t k = z->nrows ? z->rstart[z->nrows] : 0, n = z->nrows + a->n;
    z->rstart = sq_realloc(z->rstart, sq_mul_size((size_t)n + 1, sizeof *z->rstart));
    z->rstart[z->nrows] = k;
    a->base = z->nrows;
    run_split(pool, 1, a->pieces, append_count, a);
    for (int64_t r = z->nrows; r < n; r++)
        z->rstart[r + 1] += z->rstart[r];
    z->lmap = sq_realloc(z->lmap, sq_mul_size((size_t)(n * z->mw) + 1, sizeof *z->lmap));
    z->lval = sq_realloc(z->lval, sq_mul_size((size_t)z->rstart[n] + 1, sizeof *z->lval));
    run_split(pool, 1, a->pieces, append_fill, a);
    z->nrows = n;
    return z->rstart[n] - k;
}

/* Appends the rows of full to z's kept rows, in the limb-map format; the
 * rows are as wide as the widest (a seed's rows, step 1's matrix, may have
 * fewer columns than the block's: they are zero beyond).  By pieces of rows
 * over pool from APPEND_PAR_MIN_LIMBS limbs (the same bits).  Returns the
 * number of nonzero limbs appended. */
static int64_t zblock_append_rows(zblock_t *z, const f2mat_t *full, sq_pool_t *pool)
{
    append_ctx_t a = {z, full, NULL, NULL, NULL, 0, 0, 0, full->rows, f2_limbs(full->cols), 1};
    a.pieces = pieces(pool, full->rows * a.lim, APPEND_PAR_MIN_LIMBS, full->rows);
    return append_run(&a, pool);
}

/* Builds and appends to z's kept rows the images under d of the basis
 * positions pos[0 .. n) of T in degree t0 (ncols columns: N's basis): as
 * fhom_build_rows_par into a zeroed matrix then zblock_append_rows, the
 * same bits, but from BUILD_PIECES_MIN_ROWS rows on two or more threads
 * each piece of rows zeroes, builds, appends and frees its own rows. */
static void zblock_build_rows(zblock_t *z, const fhom_t *d, int32_t t0, const int64_t *pos,
                              int64_t n, int64_t ncols, sq_pool_t *pool)
{
    int64_t threads = sq_pool_size(pool), np = 1;
    if (split_all)
        np = pieces(pool, n, 0, n);
    else if (threads > 1 && n >= BUILD_PIECES_MIN_ROWS)
        np = n / (BUILD_PIECES_MIN_ROWS / 4) < 4 * threads ? n / (BUILD_PIECES_MIN_ROWS / 4)
                                                           : 4 * threads;
    if (np < 2) {
        f2mat_t full = {0};
        f2mat_init(&full, n, ncols);
        fhom_build_rows_par(d, &full, 0, t0, t0 + 1, pos, n, pool);
        zblock_append_rows(z, &full, pool);
        f2mat_clear(&full);
        return;
    }
    append_ctx_t a = {z, NULL, NULL, d, pos, t0, ncols, 0, n, f2_limbs(ncols), np};
    a.part = sq_calloc((size_t)np, sizeof *a.part);
    append_run(&a, pool);
    sq_free(a.part);
}

void nassau_zblock_row_xor(uint64_t *w, const zblock_t *z, int64_t r, int64_t l0, int64_t l1)
{
    if (l1 > z->lim)
        l1 = z->lim;
    if (l0 >= l1)
        return;
    const uint64_t *map = z->lmap + r * z->mw, *v = z->lval + z->rstart[r];
    int64_t j0 = l0 >> 6, j1 = (l1 - 1) >> 6;
    for (int64_t j = 0; j < j0; j++)
        v += __builtin_popcountll(map[j]);
    uint64_t lo = ~UINT64_C(0) << (l0 & 63); /* the bits of word j0 from l0 on */
    v += __builtin_popcountll(map[j0] & ~lo);
    for (int64_t j = j0; j <= j1; j++) {
        uint64_t b = map[j];
        if (j == j0)
            b &= lo;
        if (j == j1 && (l1 & 63))
            b &= ~UINT64_C(0) >> (64 - (l1 & 63)); /* the bits below l1 */
        for (; b; b &= b - 1)
            w[j * 64 + __builtin_ctzll(b)] ^= *v++;
    }
}

/* dst ^= kept row r restricted to the columns z->npos, by its set bits in
 * those columns (inv: nassau_gather_inverse of z->npos; msk: per limb, the
 * bits of the columns z->npos, so that only their bits are looked up). */
static void zblock_gather_row(uint64_t *dst, const zblock_t *z, int64_t r, const int32_t *inv,
                              const uint64_t *msk)
{
    const uint64_t *map = z->lmap + r * z->mw, *v = z->lval + z->rstart[r];
    for (int64_t j = 0; j < z->mw; j++)
        for (uint64_t b = map[j]; b; b &= b - 1) {
            int64_t l = j * 64 + __builtin_ctzll(b);
            const int32_t *il = inv + 64 * l;
            for (uint64_t x = *v++ & msk[l]; x; x &= x - 1) {
                uint32_t u = (uint32_t)il[__builtin_ctzll(x)];
                dst[u >> 6] ^= UINT64_C(1) << (u & 63);
            }
        }
}

/* Bytes held by z. */
static size_t zblock_bytes(const zblock_t *z)
{
    size_t b = (size_t)(z->nrows ? z->rstart[z->nrows] : 0) * 8 +
               (size_t)(z->nrows * z->mw) * 8 + (size_t)z->nrows * 8;
    if (z->built)
        b += (size_t)(z->m.rows * z->m.stride) * 8 + (size_t)(z->zt + 2 * z->zn) * 8 +
             (size_t)(z->Tb.n + z->Nb.n) * 20;
    return b;
}

/* Piece c of pieces of a copy of rows [0, n): nl limbs a row, from limb
 * off of src's rows to limb 0 of dst's. */
typedef struct {
    f2mat_t *dst;
    const f2mat_t *src;
    int64_t off, nl, n, pieces;
} copy_ctx_t;

static void copy_piece(void *ctx, int64_t c)
{
    const copy_ctx_t *a = ctx;
    for (int64_t r = a->n * c / a->pieces; r < a->n * (c + 1) / a->pieces; r++)
        memcpy(f2mat_row(a->dst, r), f2mat_row(a->src, r) + a->off,
               (size_t)a->nl * sizeof(uint64_t));
}

/* Replaces z->m, the reduced [A | I] (zt x (zn + zt)), by what the
 * quasi-inverse reads: the I-segments of its pivot rows (rows 0 .. rank - 1,
 * those with a pivot in the A part), rank x zt; z->piv keeps its zn
 * entries (a pivot's row, or -1).  The rows below the rank (the kernel)
 * and the A part are never read again: at stems 130-170 this is about
 * a quarter of what the blocks hold. */
static void zblock_keep_qi(zblock_t *z, sq_pool_t *pool)
{
    int64_t rank = f2mat_aug_rank(&z->m, z->piv, z->zn);
    int64_t nl = f2_limbs(z->zt);
    f2mat_t q = {0};
    f2mat_init(&q, rank, z->zt);
    copy_ctx_t c = {&q, &z->m, f2_seg_start(z->zn) / F2_LIMB_BITS, nl, rank, 1};
    c.pieces = pieces(pool, rank * nl, KEEP_PAR_MIN_LIMBS, rank);
    run_split(pool, 1, c.pieces, copy_piece, &c);
    f2mat_clear(&z->m);
    z->m = q;
    z->piv = sq_realloc(z->piv, sq_mul_size((size_t)z->zn + 1, sizeof *z->piv));
}

void nassau_zblock_qi_apply(uint64_t *out, const zblock_t *z, const uint64_t *v)
{
    int64_t nl = f2_limbs(z->zt);
    const f2_kernels_t *K = f2_kernels();
    for (int64_t l = 0; l < f2_limbs(z->zn); l++)
        for (uint64_t w = v[l]; w; w &= w - 1) {
            int64_t c = l * F2_LIMB_BITS + __builtin_ctzll(w);
            if (c < z->zn && z->piv[c] >= 0)
                K->xor_raw(out, f2mat_row(&z->m, z->piv[c]), nl);
        }
}

/* The set-up of a block: its zero positions in T and N and their
 * generator blocks, four independent pieces. */
typedef struct {
    zblock_t *z;
    int64_t *tdim;
    const resol_profile_t *P;
    const fmod_t *T, *N;
    int32_t t0;
} setup_ctx_t;

/* Below this dimension of T's basis the set-up stays on its thread. */
#define SETUP_PAR_MIN_DIM (INT64_C(1) << 16)

static void setup_piece(void *ctx, int64_t c)
{
    const setup_ctx_t *a = ctx;
    zblock_t *z = a->z;
    int32_t t0 = a->t0;
    switch (c) {
    case 0:
        nassau_zero_positions(&z->tpos, &z->zt, a->tdim, a->P, a->T, t0, t0 + 1);
        break;
    case 1:
        nassau_zero_positions(&z->npos, &z->zn, &z->ndim, a->P, a->N, t0, t0);
        break;
    case 2:
        nassau_blocks_init(&z->Tb, a->T, t0, t0 + 1);
        break;
    default:
        nassau_blocks_init(&z->Nb, a->N, t0, t0);
        break;
    }
}

/* Piece c of the gathers of the kept rows into [A | I] (z->m), by rows. */
typedef struct {
    zblock_t *z;
    const int32_t *inv;
    const uint64_t *msk;
    int64_t n, pieces;
} gather_ctx_t;

static void gather_piece(void *ctx, int64_t c)
{
    const gather_ctx_t *a = ctx;
    for (int64_t r = a->n * c / a->pieces; r < a->n * (c + 1) / a->pieces; r++)
        zblock_gather_row(f2mat_row(&a->z->m, r), a->z, r, a->inv, a->msk);
}

/* Completes z (empty, or a seed for the same profile) as the block of
 * degree t0 of row s.  A seed holds the rows of the zero-signature basis of
 * T below the generators of degree t0 (step (s, t0)'s step 1 matrix); only
 * the rows of T's generators of degree t0 (their units) are built here. */
static void zblock_build(zblock_t *z, resol_t *R, int32_t s, int32_t t0, const resol_profile_t *P)
{
    const fmod_t *T = R->F[s - 1], *N = R->F[s - 2];
    int64_t tdim;
    setup_ctx_t su = {z, &tdim, P, T, N, t0};
    run_split(R->pool, pieces(R->pool, fmod_dim_below(T, t0, t0 + 1), SETUP_PAR_MIN_DIM, 4) > 1,
              4, setup_piece, &su);
    int64_t rows = z->zt, cols = z->zn;

    /* The seed must be exactly the rows below T's generators of degree t0. */
    int64_t below = fmod_dim_below(T, t0, t0), have = 0;
    while (have < rows && z->tpos[have] < below)
        have++;
    SQ_CHECK(z->nrows == 0 || z->nrows == have,
             "zblock_build (s=%d, t0=%d): seed of %lld rows, %lld expected", (int)s, (int)t0,
             (long long)z->nrows, (long long)have);
    int64_t from = z->nrows;
    zblock_build_rows(z, R->d[s - 1], t0, z->tpos + from, rows - from, z->ndim, R->pool);

    f2mat_init_aug(&z->m, rows, cols);
    /* inv covers whole limbs: a row's padding bits are zero, never looked up. */
    int32_t *inv = nassau_gather_inverse(z->npos, cols, 64 * f2_limbs(z->ndim));
    uint64_t *msk = sq_calloc((size_t)f2_limbs(z->ndim) + 1, sizeof *msk);
    for (int64_t j = 0; j < cols; j++)
        msk[z->npos[j] >> 6] |= UINT64_C(1) << (z->npos[j] & 63);
    gather_ctx_t g = {z, inv, msk, rows, 1};
    g.pieces = pieces(R->pool, z->rstart[rows], GATHER_PAR_MIN_LIMBS, rows);
    run_split(R->pool, 1, g.pieces, gather_piece, &g);
    sq_free(msk);
    sq_free(inv);
    z->piv = sq_malloc(sq_mul_size((size_t)z->m.cols + 1, sizeof *z->piv));
    f2mat_rref_pool(&z->m, z->piv, R->pool);
    zblock_keep_qi(z, R->pool);
    z->built = 1;
    z->bytes = zblock_bytes(z);
}

static void zblock_clear(zblock_t *z)
{
    if (!z)
        return;
    sq_free(z->rstart);
    sq_free(z->lmap);
    sq_free(z->lval);
    if (!z->built)
        return;
    sq_free(z->tpos);
    sq_free(z->npos);
    nassau_blocks_clear(&z->Tb);
    nassau_blocks_clear(&z->Nb);
    sq_free(z->piv);
    f2mat_clear(&z->m);
}

/*
 * The cache.  The steps of one row s form a chain ((s, t) needs (s, t - 1)),
 * so row s's blocks are only ever read by one step at a time.  A step in
 * degree t with subalgebra B uses blocks of degrees t - top(B) .. t - 1;
 * older ones, and ones built for another subalgebra, are dropped as the row
 * moves on.  The blocks and the handed matrices (nassau_handoff.c) share
 * one budget (resol_set_cache_budget): after every addition, whatever
 * passes it is evicted (nassau_cache_fit), so they hold at most the budget plus
 * the block each running step is reading.  Eviction frees whole blocks: a
 * block's rows are what it costs to build (the reduction is a few percent),
 * so keeping the reduced matrix without them would save little.  Row s's
 * lock (R->zlock[s]) is held by its step while it reads or changes its
 * blocks, and by an evictor of another row (which only tries it, never
 * waits: no deadlock).
 */
void nassau_row_lock(resol_t *R, int32_t s)
{
    while (atomic_exchange_explicit(&R->zlock[s], 1, memory_order_acquire))
        sched_yield(); /* an evictor: it frees a few blocks and leaves */
}

static int row_trylock(resol_t *R, int32_t s)
{
    return !atomic_exchange_explicit(&R->zlock[s], 1, memory_order_acquire);
}

void nassau_row_unlock(resol_t *R, int32_t s)
{
    atomic_store_explicit(&R->zlock[s], 0, memory_order_release);
}

void nassau_cache_note(resol_t *R, int64_t bytes)
{
    int64_t now = atomic_load(&R->zbytes) + atomic_load(&R->hbytes);
    int64_t peak = atomic_load(&R->zpeak);
    while (now > peak && !atomic_compare_exchange_weak(&R->zpeak, &peak, now))
        ;
    int64_t big = atomic_load(&R->zlargest);
    while (bytes > big && !atomic_compare_exchange_weak(&R->zlargest, &big, bytes))
        ;
}

/* Adds delta to the bytes held by the cache, keeping the peak. */
static void zcache_account(resol_t *R, int64_t delta, int64_t block_bytes)
{
    atomic_fetch_add(&R->zbytes, delta);
    nassau_cache_note(R, block_bytes);
}

/* Frees the block in slot *z (if any) and empties the slot. */
static void zcache_drop(resol_t *R, zblock_t **z)
{
    if (!*z)
        return;
    atomic_fetch_sub(&R->zbytes, (int64_t)(*z)->bytes);
    zblock_clear(*z);
    sq_free(*z);
    *z = NULL;
}

static int cache_over(resol_t *R)
{
    return atomic_load(&R->zbytes) + atomic_load(&R->hbytes) > R->zbudget;
}


/* Whether row r's block in slot k may go now: not the block of degree keep,
 * and (which: 0) any, or (1) one the step u reads no more, or (2) one no
 * step reads again (its degree is t - top: the next step stops below). */
static int evictable(const resol_t *R, int32_t k, int32_t keep, const zuse_t *u, int which)
{
    int32_t t0 = R->t_min + k, d = u ? u->t - t0 : 0;
    if (t0 == keep)
        return 0;
    if (which == 0)
        return 1;
    if (d < 0 || d > u->top)
        return 1;
    return which == 1 ? u->last[d] < u->o : d == u->top && u->last[d] < u->o;
}

/* Evicts row r's blocks that evictable() lets go, oldest first, while the
 * cache is over its budget (row r's lock held). */
static void row_evict(resol_t *R, int32_t r, int32_t keep, const zuse_t *u, int which)
{
    int32_t nt = R->t_max - R->t_min + 1;
    for (int32_t k = 0; k < nt && cache_over(R); k++) {
        zblock_t **z = &R->zcache[(int64_t)r * nt + k];
        if (*z && evictable(R, k, keep, u, which)) {
            zcache_drop(R, z);
            atomic_fetch_add(&R->zmiss, 1);
        }
    }
}

/* Brings the cache within its budget, if it can, evicting first what costs
 * least: handed matrices (each saves one build of one step); row s's
 * blocks that no step reads again, then those its running step (u, when
 * in step 3) reads no more; the blocks of other rows whose locks are free
 * (from the highest row down: the lowest run first); then row s's own,
 * oldest first, except its block of degree keep (the one being read; keep
 * < t_min: none).  Row s's lock held. */
void nassau_cache_fit(resol_t *R, int32_t s, int32_t keep, const zuse_t *u)
{
    if (!cache_over(R))
        return;
    nassau_hand_evict(R);
    if (u) {
        row_evict(R, s, keep, u, 2);
        row_evict(R, s, keep, u, 1);
    }
    for (int32_t r = R->max_s; r >= 0 && cache_over(R); r--) {
        if (r == s || !row_trylock(R, r))
            continue;
        row_evict(R, r, R->t_min - 1, NULL, 0);
        nassau_row_unlock(R, r);
    }
    row_evict(R, s, keep, NULL, 0);
}

int64_t nassau_zcache_row_bytes(const resol_t *R, int32_t s)
{
    resol_t *W = (resol_t *)R; /* the lock is not const */
    int32_t nt = R->t_max - R->t_min + 1;
    int64_t b = 0;
    nassau_row_lock(W, s);
    for (int32_t k = 0; k < nt; k++) {
        zblock_t *z = R->zcache[(int64_t)s * nt + k];
        if (z)
            b += (int64_t)z->bytes;
    }
    nassau_row_unlock(W, s);
    return b;
}

void nassau_zcache_clear(resol_t *R, int32_t s)
{
    int32_t nt = R->t_max - R->t_min + 1;
    nassau_row_lock(R, s);
    for (int32_t k = 0; k < nt; k++)
        zcache_drop(R, &R->zcache[(int64_t)s * nt + k]);
    nassau_row_unlock(R, s);
}

/* A seed for profile P made from *z, a block or seed of row s in degree
 * t0 for another profile: its kept rows on the zero-signature basis of T
 * below the generators of degree t0 that is P's too (the rows are d of
 * basis elements, the same whatever the profile).  NULL if some element
 * of P's is not among them (P's subalgebra is not larger) or no rows are
 * kept. */
static zblock_t *zblock_reseed(const resol_t *R, const zblock_t *z, int32_t s, int32_t t0,
                               const resol_profile_t *P)
{
    const fmod_t *T = R->F[s - 1];
    const resol_profile_t *Po = &R->prof[z->prof];
    int64_t below = fmod_dim_below(T, t0, t0), *op, *np, on, nn, dim;
    if (z->nrows == 0)
        return NULL;
    nassau_zero_positions(&op, &on, &dim, Po, T, t0, t0 + 1);
    nassau_zero_positions(&np, &nn, &dim, P, T, t0, t0 + 1);
    int64_t oh = 0, nh = 0;
    while (oh < on && op[oh] < below)
        oh++;
    while (nh < nn && np[nh] < below)
        nh++;
    zblock_t *w = NULL;
    int64_t *sel = sq_malloc(sq_mul_size((size_t)nh + 1, sizeof *sel)), j = 0, i;
    for (i = 0; i < nh; i++) {
        while (j < oh && op[j] < np[i])
            j++;
        if (j == oh || op[j] != np[i])
            break;
        sel[i] = j;
    }
    /* A block keeps rows for all its zero positions, a seed those below. */
    if (i == nh && z->nrows == (z->built ? on : oh)) {
        w = sq_calloc(1, sizeof *w);
        w->prof = (int)(P - R->prof);
        int64_t k = 0;
        for (i = 0; i < nh; i++)
            k += z->rstart[sel[i] + 1] - z->rstart[sel[i]];
        w->nrows = nh;
        w->lim = z->lim;
        w->mw = z->mw;
        w->rstart = sq_malloc(sq_mul_size((size_t)nh + 1, sizeof *w->rstart));
        w->lmap = sq_malloc(sq_mul_size((size_t)(nh * w->mw) + 1, sizeof *w->lmap));
        w->lval = sq_malloc(sq_mul_size((size_t)k + 1, sizeof *w->lval));
        k = 0;
        for (i = 0; i < nh; i++) {
            int64_t q0 = z->rstart[sel[i]], q1 = z->rstart[sel[i] + 1];
            w->rstart[i] = k;
            memcpy(w->lmap + i * w->mw, z->lmap + sel[i] * z->mw, (size_t)w->mw * sizeof *w->lmap);
            memcpy(w->lval + k, z->lval + q0, (size_t)(q1 - q0) * sizeof *w->lval);
            k += q1 - q0;
        }
        w->rstart[nh] = k;
        w->bytes = zblock_bytes(w);
    }
    sq_free(sel);
    sq_free(op);
    sq_free(np);
    return w;
}

/* Replaces row s's block or seed of degree t0 in slot *z, of another
 * profile, by the seed it makes for profile prof (zblock_reseed), or drops
 * it when it makes none.  Row s's lock held. */
static void zcache_reprofile(resol_t *R, zblock_t **z, int32_t s, int32_t t0, int prof)
{
    zblock_t *w = zblock_reseed(R, *z, s, t0, &R->prof[prof]);
    zcache_drop(R, z);
    if (w) {
        *z = w;
        zcache_account(R, (int64_t)w->bytes, (int64_t)w->bytes);
    }
}

/* Row s's block of degree t0 for profile prof, built if need be (row s's
 * lock held): the cache is brought within its budget before and after the
 * build, this block excepted. */
zblock_t *nassau_zcache_get(resol_t *R, int32_t s, int32_t t0, int prof, const resol_profile_t *P,
                            const zuse_t *u)
{
    int32_t nt = R->t_max - R->t_min + 1;
    zblock_t **z = &R->zcache[(int64_t)s * nt + (t0 - R->t_min)];
    if (*z && (*z)->prof != prof)
        zcache_reprofile(R, z, s, t0, prof);
    if (!*z) {
        *z = sq_calloc(1, sizeof **z);
        (*z)->prof = prof;
    }
    if (!(*z)->built) {
        nassau_cache_fit(R, s, t0, u); /* room first: only this block may pass the budget */
        size_t before = (*z)->bytes;
        zblock_build(*z, R, s, t0, P);
        zcache_account(R, (int64_t)(*z)->bytes - (int64_t)before, (int64_t)(*z)->bytes);
        nassau_cache_fit(R, s, t0, u);
    }
    return *z;
}

/* The profiles of row s: profile i is usable from t = from[i] on
 * (nassau_profile_from), and step (s, t) takes the last usable one. */
typedef struct {
    int32_t from[RESOL_MAX_PROFILES];
    int64_t top[RESOL_MAX_PROFILES];
    int n;
} rowplan_t;

static void rowplan_init(rowplan_t *pl, const resol_t *R, int32_t s)
{
    pl->n = R->nprof;
    for (int i = 0; i < R->nprof; i++) {
        pl->from[i] = nassau_profile_from(R, i, s);
        pl->top[i] = nassau_top_degree(R->prof[i].h, R->prof[i].len);
    }
}

static int rowplan_profile(const rowplan_t *pl, int32_t t2)
{
    int i = pl->n - 1;
    while (i > 0 && pl->from[i] > t2)
        i--;
    return i;
}

/* The lowest degree step (s, t2) reads blocks of: t2 - top(B). */
static int64_t reads_from(const rowplan_t *pl, int32_t t2)
{
    return t2 - pl->top[rowplan_profile(pl, t2)];
}

/* The first degree after t2 where the row's profile changes (INT32_MAX:
 * none).  Between two changes the lowest degree read rises by one a step,
 * so it is least at the first step after t and at each change. */
static int32_t rowplan_next_change(const rowplan_t *pl, int32_t t2)
{
    int32_t nx = INT32_MAX;
    for (int i = 1; i < pl->n; i++)
        if (pl->from[i] > t2 && pl->from[i] < nx)
            nx = pl->from[i];
    return nx;
}

/*
 * Along a row the subalgebra grows with t, and with it top(B): a step that
 * takes a larger subalgebra reads blocks further down than its
 * predecessor did (at stems 90-150 the window start falls back by 6-15
 * degrees at each change, to the same degree for every change within
 * profiles of one length).  So a block below the running step's window is
 * dropped only when no later step of the row reads it; one that a later
 * step reads is kept, as the seed for the profile of the first step that
 * reads it (fewer rows: a larger subalgebra has fewer zero-signature
 * elements), instead of being built again from nothing by that step.
 */
void nassau_zcache_trim(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P)
{
    int32_t nt = R->t_max - R->t_min + 1;
    int32_t last = s + R->max_n < R->t_max ? s + R->max_n : R->t_max; /* the row's last step */
    int64_t lo = t - nassau_top_degree(P->h, P->len), keep = lo;
    rowplan_t pl;
    rowplan_init(&pl, R, s);
    for (int32_t t2 = t + 1; t2 <= last; t2 = rowplan_next_change(&pl, t2))
        keep = reads_from(&pl, t2) < keep ? reads_from(&pl, t2) : keep;
    nassau_row_lock(R, s);
    for (int32_t t0 = R->t_min; t0 < lo && t0 <= R->t_max; t0++) {
        zblock_t **z = &R->zcache[(int64_t)s * nt + (t0 - R->t_min)];
        if (!*z)
            continue;
        if (t0 < keep) {
            zcache_drop(R, z);
            continue;
        }
        int32_t t2 = t + 1; /* the first later step that reads it (t0 >= keep: one does) */
        while (reads_from(&pl, t2) > t0 && rowplan_next_change(&pl, t2) <= last)
            t2 = rowplan_next_change(&pl, t2);
        int q = rowplan_profile(&pl, t2);
        if ((*z)->prof != q)
            zcache_reprofile(R, z, s, t0, q);
    }
    nassau_cache_fit(R, s, R->t_min - 1, NULL);
    nassau_row_unlock(R, s);
}

void nassau_zcache_seed(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P,
                        const f2mat_t *D1)
{
    if (t < R->t_min || t > R->t_max || t - s >= R->max_n)
        return; /* no later step of the row reads it */
    int32_t nt = R->t_max - R->t_min + 1;
    nassau_row_lock(R, s);
    zblock_t **z = &R->zcache[(int64_t)s * nt + (t - R->t_min)];
    zcache_drop(R, z);
    *z = sq_calloc(1, sizeof **z);
    (*z)->prof = (int)(P - R->prof);
    zblock_append_rows(*z, D1, R->pool);
    (*z)->bytes = zblock_bytes(*z);
    zcache_account(R, (int64_t)(*z)->bytes, (int64_t)(*z)->bytes);
    nassau_cache_fit(R, s, R->t_min - 1, NULL);
    nassau_row_unlock(R, s);
}
