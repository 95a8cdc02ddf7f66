/*
 * nassau_correct.c -- step 3 of Nassau's step: killing the nonzero
 * signature components of the boundaries of the new generators.
 *
 * Why it is cheap.  Order the signatures as in the spec; then d_{s-1} is
 * block triangular, and its diagonal block on signature sigma is a copy of
 * its zero-signature block in degree t0 = t - |sigma|:
 *
 *     coefficient of (Sq(sigma + S0), h) in d(Sq(sigma + R0) g)
 *   = coefficient of (Sq(S0), h)         in d(Sq(R0) g),
 *
 * for R0, S0 of zero signature (checked exhaustively in tests: see
 * t-nassau.c, nassau_diagonal_blocks).  So to kill the sigma-component v of
 * dx we translate v down to degree t0 (S -> S - sigma) and apply the
 * quasi-inverse of the zero-signature block of d_{s-1} in degree t0: y0.
 * The correction is y = Sq(sigma) y0, not the translate of y0 back up:
 * d(y) = Sq(sigma) d(y0) by A-linearity, and left multiplication by
 * Sq(sigma) is triangular with the translation on its diagonal (see
 * kill_sigma), so d(y) has the same sigma-component v and nothing before
 * it.  d(y0) is a sum of rows of the zero-signature block in degree t0 with
 * all of N's columns, kept with the block when it is built; so a
 * correction costs a few XORs of cached rows and products by the small
 * element Sq(sigma), where multiplying y out in degree t (the old way)
 * cost a full row of d in degree t per basis element of y, 60-75% of
 * the whole resolution at stems 90-110 (docs/benchmarks.md).
 * The blocks are much smaller than the sigma-blocks of degree t, and one
 * serves every sigma of the same degree.
 */
#include <sched.h>
#include <string.h>

#include "internal.h"
#include "sq_trace.h"
#include "sq_core.h"


static void blocks_init(blocks_t *b, const fmod_t *F, int32_t t, int32_t bound)
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

static void blocks_clear(blocks_t *b)
{
    sq_free(b->start);
    sq_free(b->deg);
    sq_free(b->idx);
}

/* The block containing position pos. */
static int64_t blocks_find(const blocks_t *b, int64_t pos)
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

/* The reduced zero-signature block of d_{s-1} in degree t0: rows the
 * zero-signature basis of T (generators of degree <= t0), columns that of
 * N (generators of degree < t0).  Cached per row (see resol_zcache). */
struct nassau_zblock {
    int built;        /* 1: complete; 0: only the seed (the rows below) */
    int prof;         /* the profile (ladder index) it was built or seeded for */
    int64_t nrows;    /* rows kept in rstart/lidx/lval */
    size_t bytes;
    int64_t zt, zn;   /* zero-signature rows (of T) and columns (of N) */
    int64_t *tpos;    /* their positions in T and N in degree t0, increasing */
    int64_t *npos;
    int64_t ndim;     /* dimension of N in degree t0 (generators < t0) */
    blocks_t Tb, Nb;
    f2mat_t m;
    int64_t *piv;
    /* d on the zero-signature rows, all of N's columns, limb-sparse: row r
     * is the limbs lval[k] at limb positions lidx[k], rstart[r] <= k <
     * rstart[r + 1] (a quarter of the limbs are nonzero at stems 90-110,
     * so this takes ~1/3 of the dense matrix). */
    int64_t *rstart;
    uint32_t *lidx;
    uint64_t *lval;
};
typedef struct nassau_zblock zblock_t;

/* Appends the rows of full to z's kept rows, limb-sparse; returns the
 * number of nonzero limbs appended. */
static int64_t zblock_append_rows(zblock_t *z, const f2mat_t *full)
{
    int64_t lim = f2_limbs(full->cols), nz = 0;
    SQ_CHECK(lim <= UINT32_MAX, "zblock_append_rows: %lld limbs", (long long)lim);
    for (int64_t r = 0; r < full->rows; r++) {
        const uint64_t *row = f2mat_row(full, r);
        for (int64_t l = 0; l < lim; l++)
            nz += row[l] != 0;
    }
    int64_t k = z->nrows ? z->rstart[z->nrows] : 0;
    z->rstart = sq_realloc(z->rstart, sq_mul_size((size_t)(z->nrows + full->rows) + 1,
                                                  sizeof *z->rstart));
    z->lidx = sq_realloc(z->lidx, sq_mul_size((size_t)(k + nz) + 1, sizeof *z->lidx));
    z->lval = sq_realloc(z->lval, sq_mul_size((size_t)(k + nz) + 1, sizeof *z->lval));
    for (int64_t r = 0; r < full->rows; r++) {
        const uint64_t *row = f2mat_row(full, r);
        z->rstart[z->nrows + r] = k;
        for (int64_t l = 0; l < lim; l++)
            if (row[l]) {
                z->lidx[k] = (uint32_t)l;
                z->lval[k++] = row[l];
            }
    }
    z->nrows += full->rows;
    z->rstart[z->nrows] = k;
    return nz;
}

/* dst ^= kept row r restricted to the columns z->npos, by its set bits in
 * those columns (inv: nassau_gather_inverse of z->npos; msk: per limb, the
 * bits of the columns z->npos, so that only their bits are looked up). */
static void zblock_gather_row(uint64_t *dst, const zblock_t *z, int64_t r, const int32_t *inv,
                              const uint64_t *msk)
{
    for (int64_t q = z->rstart[r]; q < z->rstart[r + 1]; q++) {
        const int32_t *il = inv + 64 * (int64_t)z->lidx[q];
        for (uint64_t w = z->lval[q] & msk[z->lidx[q]]; w; w &= w - 1) {
            uint32_t u = (uint32_t)il[__builtin_ctzll(w)];
            dst[u >> 6] ^= UINT64_C(1) << (u & 63);
        }
    }
}

/* The positions of class 0 of nassau_class_init(P, F, t, bound) (the
 * basis elements of signature ordinal 0, ascending), into *pos (*n of
 * them), without sorting the other classes: the zero-ordinal elements of
 * each A_{t-e} are listed once, then placed after each generator of degree
 * e.  *dim: the size of the whole basis. */
static void zero_positions(int64_t **pos, int64_t *n, int64_t *dim, const resol_profile_t *P,
                           const fmod_t *F, int32_t t, int32_t bound)
{
    const milnor_t *A = fmod_algebra(F);
    int32_t top = fmod_top_below(F, bound);
    int64_t cnt = 0, maxnr = 0;
    for (int32_t e = fmod_min_degree(F); e <= top && e <= t; e++) {
        int64_t nr = milnor_dim(A, t - e), z = nr;
        if (fmod_num_gens(F, e) == 0)
            continue;
        if (P->ord) {
            z = 0;
            for (int64_t r = 0; r < nr; r++)
                z += P->ord[t - e][r] == 0;
        }
        cnt += z * fmod_num_gens(F, e);
        maxnr = nr > maxnr ? nr : maxnr;
    }
    int64_t *out = sq_malloc(sq_mul_size((size_t)cnt + 1, sizeof *out));
    int64_t *zr = sq_malloc(sq_mul_size((size_t)maxnr + 1, sizeof *zr));
    int64_t p = 0, k = 0;
    for (int32_t e = fmod_min_degree(F); e <= top && e <= t; e++) {
        int64_t nr = milnor_dim(A, t - e), z = 0;
        if (fmod_num_gens(F, e) == 0)
            continue;
        for (int64_t r = 0; r < nr; r++)
            if (!P->ord || P->ord[t - e][r] == 0)
                zr[z++] = r;
        for (int64_t i = 0; i < fmod_num_gens(F, e); i++, p += nr)
            for (int64_t j = 0; j < z; j++)
                out[k++] = p + zr[j];
    }
    sq_free(zr);
    SQ_CHECK(k == cnt && p == fmod_dim_below(F, t, bound),
             "zero_positions: basis size mismatch (%lld, %lld)", (long long)k, (long long)p);
    *pos = out;
    *n = cnt;
    *dim = p;
}

/* Bytes held by z. */
static size_t zblock_bytes(const zblock_t *z)
{
    size_t b = (size_t)(z->nrows ? z->rstart[z->nrows] : 0) * 12 + (size_t)z->nrows * 8;
    if (z->built)
        b += (size_t)(z->m.rows * z->m.stride) * 8 + (size_t)(z->zt + z->zn) * 8 +
             (size_t)(z->Tb.n + z->Nb.n) * 20;
    return b;
}

/* Completes z (empty, or a seed for the same profile) as the block of
 * degree t0 of row s.  A seed holds the rows of the zero-signature basis of
 * T below the generators of degree t0 (step (s, t0)'s step 1 matrix); only
 * the rows of T's generators of degree t0 (their units) are built here. */
static void zblock_build(zblock_t *z, resol_t *R, int32_t s, int32_t t0, const resol_profile_t *P)
{
    const fmod_t *T = R->F[s - 1], *N = R->F[s - 2];
    int64_t rows, cols, tdim;
    zero_positions(&z->tpos, &rows, &tdim, P, T, t0, t0 + 1);
    zero_positions(&z->npos, &cols, &z->ndim, P, N, t0, t0);
    blocks_init(&z->Tb, T, t0, t0 + 1);
    blocks_init(&z->Nb, N, t0, t0);
    z->zt = rows;
    z->zn = cols;

    /* The seed must be exactly the rows below T's generators of degree t0. */
    int64_t below = fmod_dim_below(T, t0, t0), have = 0;
    while (have < rows && z->tpos[have] < below)
        have++;
    SQ_CHECK(z->nrows == 0 || z->nrows == have,
             "zblock_build (s=%d, t0=%d): seed of %lld rows, %lld expected", (int)s, (int)t0,
             (long long)z->nrows, (long long)have);
    int64_t from = z->nrows;
    f2mat_t full = {0};
    f2mat_init(&full, rows - from, z->ndim);
    fhom_build_rows_par(R->d[s - 1], &full, 0, t0, t0 + 1, z->tpos + from, rows - from, R->pool);
    zblock_append_rows(z, &full);
    f2mat_clear(&full);

    f2mat_init_aug(&z->m, rows, cols);
    /* inv covers whole limbs: a row's padding bits are zero, never looked up. */
    int32_t *inv = nassau_gather_inverse(z->npos, cols, 64 * f2_limbs(z->ndim));
    uint64_t *msk = sq_calloc((size_t)f2_limbs(z->ndim) + 1, sizeof *msk);
    for (int64_t j = 0; j < cols; j++)
        msk[z->npos[j] >> 6] |= UINT64_C(1) << (z->npos[j] & 63);
    for (int64_t r = 0; r < rows; r++)
        zblock_gather_row(f2mat_row(&z->m, r), z, r, inv, msk);
    sq_free(msk);
    sq_free(inv);
    z->piv = sq_malloc(sq_mul_size((size_t)z->m.cols + 1, sizeof *z->piv));
    f2mat_rref_pool(&z->m, z->piv, R->pool);
    z->built = 1;
    z->bytes = zblock_bytes(z);
}

static void zblock_clear(zblock_t *z)
{
    if (!z)
        return;
    sq_free(z->rstart);
    sq_free(z->lidx);
    sq_free(z->lval);
    if (!z->built)
        return;
    sq_free(z->tpos);
    sq_free(z->npos);
    blocks_clear(&z->Tb);
    blocks_clear(&z->Nb);
    sq_free(z->piv);
    f2mat_clear(&z->m);
}

/* The signature digits of ordinal o and their degree. */
static int32_t decode_sig(const resol_profile_t *P, uint32_t o, int32_t *sig)
{
    int32_t deg = 0;
    for (int i = 0; i < P->len; i++) {
        sig[i] = (int32_t)(o & ((1u << P->h[i]) - 1));
        o >>= P->h[i];
        deg += sig[i] * ((1 << (i + 1)) - 1);
    }
    return deg;
}

/* Index in degree `deg - shift * |sigma|` of the p-part of element k of
 * degree deg with sigma subtracted (dir = -1) or added (dir = +1). */
static int64_t shift_index(const milnor_t *A, int32_t deg, int64_t k, const int32_t *sig, int len,
                           int dir)
{
    int32_t r[MILNOR_MAX_LEN + NASSAU_MAX_LEN] = {0};
    int rl = milnor_get(A, deg, k, r, MILNOR_MAX_LEN);
    int n = rl > len ? rl : len;
    for (int i = 0; i < len; i++)
        r[i] += dir * sig[i];
    return milnor_index(A, r, n);
}

/* The column of the zero-signature block in degree t0 that corresponds to
 * position c (of signature sigma) of N in degree t, or -1 if none (the
 * unit part of a generator of degree t0: such a column is never hit). */
static int64_t down_column(const zblock_t *z, const blocks_t *Nbt, const milnor_t *A, int32_t t,
                           int32_t t0, int64_t c, const int32_t *sig, int len)
{
    int64_t b = blocks_find(Nbt, c);
    int32_t e = Nbt->deg[b];
    if (e >= t0 || b >= z->Nb.n)
        return -1;
    int64_t k0 = shift_index(A, t - e, c - Nbt->start[b], sig, len, -1);
    int64_t p = z->Nb.start[b] + k0, lo = 0, hi = z->zn; /* p among the columns */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (z->npos[mid] < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < z->zn && z->npos[lo] == p ? lo : -1;
}

/* Whether some row of dx has a bit in the class o of Nc. */
static int class_hit(const f2mat_t *dx, const sigclass_t *Nc, uint32_t o)
{
    const int64_t *cols = class_pos(Nc, o);
    for (int64_t i = 0; i < dx->rows; i++)
        for (int64_t j = 0; j < class_size(Nc, o); j++)
            if (bit(f2mat_row(dx, i), cols[j]))
                return 1;
    return 0;
}

/* Scratch of kill_sigma, grown as needed and reused across signatures. */
typedef struct {
    f2mat_t Y;      /* rows: the zero-signature preimages y0 of the generators */
    uint64_t *vz;   /* one translated component */
    uint64_t *w;    /* d(y0) in degree t0 */
    uint64_t *blk;  /* one generator block of w or y0 */
    uint64_t *yt;   /* y0 scattered into T's basis in degree t0 */
    int64_t cap_t;
    milnor_ws_t *W; /* Sq(sigma), prepared once per signature */
    int64_t cap_zc, cap_zr, cap_n;
} killbuf_t;

static void killbuf_fit(killbuf_t *kb, int64_t zc, int64_t zr, int64_t ncols, int64_t tdim)
{
    if (tdim > kb->cap_t) {
        sq_free(kb->yt);
        kb->yt = sq_calloc((size_t)f2_limbs(tdim) + 1, 8);
        kb->cap_t = tdim;
    }
    if (tdim > ncols)
        ncols = tdim; /* blk serves both */
    if (zc > kb->cap_zc) {
        sq_free(kb->vz);
        kb->vz = sq_calloc((size_t)f2_limbs(zc) + 1, 8);
        kb->cap_zc = zc;
    }
    kb->cap_zr = zr > kb->cap_zr ? zr : kb->cap_zr;
    if (ncols > kb->cap_n) {
        sq_free(kb->w);
        sq_free(kb->blk);
        kb->w = sq_calloc((size_t)f2_limbs(ncols) + 1, 8);
        kb->blk = sq_calloc((size_t)f2_limbs(ncols) + 1, 8);
        kb->cap_n = ncols;
    }
}

static void killbuf_clear(killbuf_t *kb)
{
    f2mat_clear(&kb->Y);
    sq_free(kb->vz);
    sq_free(kb->w);
    sq_free(kb->blk);
    sq_free(kb->yt);
    milnor_ws_free(kb->W);
}

/* Translates the sigma-component of dx's row i down into kb->vz (columns
 * of z); 1 if nonzero, 0 if zero, -1 if it cannot be translated (the
 * final check reports). */
static int translate_down(const resol_t *R, int32_t t, int32_t t0, const zblock_t *z,
                          const blocks_t *Nbt, const sigclass_t *Nc, uint32_t o,
                          const int32_t *sig, int len, const f2mat_t *dx, int64_t i,
                          killbuf_t *kb)
{
    memset(kb->vz, 0, (size_t)(f2_limbs(z->zn) + 1) * 8);
    int nonzero = 0;
    for (int64_t j = 0; j < class_size(Nc, o); j++) {
        int64_t c = class_pos(Nc, o)[j];
        if (!bit(f2mat_row(dx, i), c))
            continue;
        int64_t col = down_column(z, Nbt, R->A, t, t0, c, sig, len);
        if (col < 0)
            return -1;
        kb->vz[col >> 6] ^= 1ULL << (col & 63);
        nonzero = 1;
    }
    return nonzero;
}

/*
 * Kills the sigma-component of every row of dx, using that d is A-linear
 * and left multiplication by Sq(sigma) (sigma in B) is triangular:
 *
 *   for every S, the terms of Sq(sigma) Sq(S) have signatures >= sigma, and
 *   those of signature sigma are exactly Sq(sigma + S) when S has signature
 *   0 and none otherwise
 *
 * (checked exhaustively in tests: t-nassau.c, nassau_left_triangular).  So
 * if y0 (zero-signature, degree t0 = t - |sigma|) is the quasi-inverse
 * image of the translated component v, then y = Sq(sigma) y0 has
 * d(y) = Sq(sigma) d(y0), whose signatures below sigma vanish and whose
 * sigma-component is v.  d(y0) needs only rows of d on zero-signature basis
 * elements in degree t0 (cheap products, built once per signature for all
 * generators together); the rest is products by the small Sq(sigma).
 */
static void kill_sigma(resol_t *R, int32_t s, int32_t t, int32_t t0, const zblock_t *z,
                       const blocks_t *Tbt, const blocks_t *Nbt, const sigclass_t *Nc, uint32_t o,
                       const int32_t *sig, int len, int32_t sdeg, f2mat_t *x, f2mat_t *dx,
                       killbuf_t *kb, nassau_ctimes_t *ct)
{
    const milnor_t *A = R->A;
    int64_t k = x->rows, zc = z->zn, zr = z->zt;
    killbuf_fit(kb, zc, zr, z->ndim, z->Tb.start[z->Tb.n]);
    if (kb->Y.rows != k || kb->Y.cols < zr) {
        f2mat_clear(&kb->Y);
        f2mat_init(&kb->Y, k, zr > kb->cap_zr ? zr : kb->cap_zr);
    }
    int any = 0;
    for (int64_t i = 0; i < k; i++) {
        uint64_t *y0 = f2mat_row(&kb->Y, i);
        memset(y0, 0, (size_t)kb->Y.stride * 8);
        if (translate_down(R, t, t0, z, Nbt, Nc, o, sig, len, dx, i, kb) <= 0)
            continue;
        f2mat_aug_qi_apply(y0, &z->m, z->piv, zc, kb->vz);
        any = 1;
    }
    if (!any)
        return;

    double a0 = ct ? sq_wtime() : 0;
    milnor_op_t op;
    milnor_op_init(&op, A, sdeg, milnor_index(A, sig, len));
    if (!kb->W)
        kb->W = milnor_ws_new();
    int32_t maxdeg = t0 - fmod_min_degree(R->F[s - 1]);
    if (t0 - fmod_min_degree(R->F[s - 2]) > maxdeg)
        maxdeg = t0 - fmod_min_degree(R->F[s - 2]);
    if (maxdeg > milnor_max_degree(A) - sdeg)
        maxdeg = milnor_max_degree(A) - sdeg; /* no block reaches beyond the algebra */
    milnor_ws_prepare(kb->W, &op, maxdeg, INT64_MAX);
    int64_t tdim = z->Tb.start[z->Tb.n];
    for (int64_t i = 0; i < k; i++) {
        const uint64_t *y0 = f2mat_row(&kb->Y, i);
        if (f2_first_bit(y0, zr) < 0)
            continue;
        memset(kb->w, 0, (size_t)(f2_limbs(z->ndim) + 1) * 8);
        memset(kb->yt, 0, (size_t)(f2_limbs(tdim) + 1) * 8);
        uint64_t *xi = f2mat_row(x, i), *dxi = f2mat_row(dx, i);
        for (int64_t r = 0; r < zr; r++) {
            if (!bit(y0, r))
                continue;
            if (z->nrows)
                for (int64_t q = z->rstart[r]; q < z->rstart[r + 1]; q++)
                    kb->w[z->lidx[q]] ^= z->lval[q]; /* d(Sq(R0) g) in degree t0 */
            kb->yt[z->tpos[r] >> 6] |= 1ULL << (z->tpos[r] & 63);
            if (ct)
                ct->ybits++;
        }
        if (!z->nrows) { /* the rows were not kept (budget): the same d(y0), computed */
            fhom_apply_add_par(R->d[s - 1], kb->w, z->ndim, t0, t0 + 1, kb->yt, R->pool);
            atomic_fetch_add(&R->zmiss, 1);
        }
        /* x += Sq(sigma) y0 and dx += Sq(sigma) d(y0), generator block by
         * generator block (same generator order in degrees t0 and t). */
        nassau_mul_blocks_par(kb->W, xi, Tbt, &z->Tb, t0, kb->yt, R->pool);
        nassau_mul_blocks_par(kb->W, dxi, Nbt, &z->Nb, t0, kb->w, R->pool);
        if (ct)
            ct->kills++;
    }
    if (ct)
        ct->apply += 1e3 * (sq_wtime() - a0);
}

/*
 * The cache.  The steps of one row s form a chain ((s, t) needs (s, t - 1)),
 * so row s's blocks are only ever read by one step at a time.  A step in
 * degree t with subalgebra B uses blocks of degrees t - top(B) .. t - 1;
 * older ones, and ones built for another subalgebra, are dropped as the row
 * moves on.  The blocks and the handed matrices (nassau_handoff.c) share
 * one budget (resol_set_cache_budget): after every addition, whatever
 * passes it is evicted (cache_fit), so they hold at most the budget plus
 * the block each running step is reading.  Eviction frees whole blocks: a
 * block's rows are what it costs to build (the reduction is a few percent),
 * so keeping the reduced matrix without them would save little.  Row s's
 * lock (R->zlock[s]) is held by its step while it reads or changes its
 * blocks, and by an evictor of another row (which only tries it, never
 * waits: no deadlock).
 */
static void row_lock(resol_t *R, int32_t s)
{
    while (atomic_exchange_explicit(&R->zlock[s], 1, memory_order_acquire))
        sched_yield(); /* an evictor: it frees a few blocks and leaves */
}

static int row_trylock(resol_t *R, int32_t s)
{
    return !atomic_exchange_explicit(&R->zlock[s], 1, memory_order_acquire);
}

static void row_unlock(resol_t *R, int32_t s)
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

/* What the running step (s, t) of a row will still read: the blocks of
 * degree t - d for d <= top, d read last by the ordinal last[d] (0: not
 * at all); the step is at ordinal o. */
typedef struct {
    int32_t t, top;
    const uint32_t *last;
    uint32_t o;
} zuse_t;

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
static void cache_fit(resol_t *R, int32_t s, int32_t keep, const zuse_t *u)
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
        row_unlock(R, r);
    }
    row_evict(R, s, keep, NULL, 0);
}

int64_t nassau_zcache_row_bytes(const resol_t *R, int32_t s)
{
    resol_t *W = (resol_t *)R; /* the lock is not const */
    int32_t nt = R->t_max - R->t_min + 1;
    int64_t b = 0;
    row_lock(W, s);
    for (int32_t k = 0; k < nt; k++) {
        zblock_t *z = R->zcache[(int64_t)s * nt + k];
        if (z)
            b += (int64_t)z->bytes;
    }
    row_unlock(W, s);
    return b;
}

void nassau_zcache_clear(resol_t *R, int32_t s)
{
    int32_t nt = R->t_max - R->t_min + 1;
    row_lock(R, s);
    for (int32_t k = 0; k < nt; k++)
        zcache_drop(R, &R->zcache[(int64_t)s * nt + k]);
    row_unlock(R, s);
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
    zero_positions(&op, &on, &dim, Po, T, t0, t0 + 1);
    zero_positions(&np, &nn, &dim, P, T, t0, t0 + 1);
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
        w->rstart = sq_malloc(sq_mul_size((size_t)nh + 1, sizeof *w->rstart));
        w->lidx = sq_malloc(sq_mul_size((size_t)k + 1, sizeof *w->lidx));
        w->lval = sq_malloc(sq_mul_size((size_t)k + 1, sizeof *w->lval));
        k = 0;
        for (i = 0; i < nh; i++) {
            w->rstart[i] = k;
            for (int64_t q = z->rstart[sel[i]]; q < z->rstart[sel[i] + 1]; q++, k++) {
                w->lidx[k] = z->lidx[q];
                w->lval[k] = z->lval[q];
            }
        }
        w->rstart[nh] = k;
        w->bytes = zblock_bytes(w);
    }
    sq_free(sel);
    sq_free(op);
    sq_free(np);
    return w;
}

/* Row s's block of degree t0 for profile prof, built if need be (row s's
 * lock held): the cache is brought within its budget before and after the
 * build, this block excepted. */
static zblock_t *zcache_get(resol_t *R, int32_t s, int32_t t0, int prof, const resol_profile_t *P,
                            const zuse_t *u)
{
    int32_t nt = R->t_max - R->t_min + 1;
    zblock_t **z = &R->zcache[(int64_t)s * nt + (t0 - R->t_min)];
    if (*z && (*z)->prof != prof) {
        zblock_t *w = zblock_reseed(R, *z, s, t0, P);
        zcache_drop(R, z);
        if (w) {
            *z = w;
            zcache_account(R, (int64_t)w->bytes, (int64_t)w->bytes);
        }
    }
    if (!*z) {
        *z = sq_calloc(1, sizeof **z);
        (*z)->prof = prof;
    }
    if (!(*z)->built) {
        cache_fit(R, s, t0, u); /* room first: only this block may pass the budget */
        size_t before = (*z)->bytes;
        zblock_build(*z, R, s, t0, P);
        zcache_account(R, (int64_t)(*z)->bytes - (int64_t)before, (int64_t)(*z)->bytes);
        cache_fit(R, s, t0, u);
    }
    return *z;
}

void nassau_zcache_trim(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P)
{
    int32_t nt = R->t_max - R->t_min + 1;
    int64_t lo = t - nassau_top_degree(P->h, P->len);
    row_lock(R, s);
    for (int32_t t0 = R->t_min; t0 < lo && t0 <= R->t_max; t0++)
        zcache_drop(R, &R->zcache[(int64_t)s * nt + (t0 - R->t_min)]);
    cache_fit(R, s, R->t_min - 1, NULL);
    row_unlock(R, s);
}

void nassau_zcache_seed(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P,
                        const f2mat_t *D1)
{
    if (t < R->t_min || t > R->t_max || t - s >= R->max_n)
        return; /* no later step of the row reads it */
    int32_t nt = R->t_max - R->t_min + 1;
    row_lock(R, s);
    zblock_t **z = &R->zcache[(int64_t)s * nt + (t - R->t_min)];
    zcache_drop(R, z);
    *z = sq_calloc(1, sizeof **z);
    (*z)->prof = (int)(P - R->prof);
    zblock_append_rows(*z, D1);
    (*z)->bytes = zblock_bytes(*z);
    zcache_account(R, (int64_t)(*z)->bytes, (int64_t)(*z)->bytes);
    cache_fit(R, s, R->t_min - 1, NULL);
    row_unlock(R, s);
}

void nassau_correct(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P,
                    const sigclass_t *Tc, const sigclass_t *Nc, f2mat_t *x, f2mat_t *dx,
                    nassau_ctimes_t *ct)
{

    int prof = (int)(P - R->prof);
    blocks_t Tbt, Nbt;
    blocks_init(&Tbt, R->F[s - 1], t, t);
    blocks_init(&Nbt, R->F[s - 2], t, t - 1);
    killbuf_t kb = {0};
    int32_t sig[NASSAU_MAX_LEN];
    /* The last ordinal reading each degree's block, for the evictions. */
    int32_t top = (int32_t)nassau_top_degree(P->h, P->len);
    uint32_t *last = sq_calloc((size_t)top + 1, sizeof *last);
    for (uint32_t o = 1; o < P->nsig; o++)
        if (class_size(Nc, o) > 0)
            last[decode_sig(P, o, sig)] = o;
    zuse_t use = {t, top, last, 0};
    row_lock(R, s);
    for (uint32_t o = 1; o < P->nsig; o++) {
        if (class_size(Nc, o) == 0 || !class_hit(dx, Nc, o))
            continue;
        int32_t sdeg = decode_sig(P, o, sig);
        int32_t t0 = t - sdeg;
        if (t0 < R->t_min)
            continue; /* nothing can kill it: the final check reports */
        double z0 = ct ? sq_wtime() : 0;
        use.o = o;
        zblock_t *z = zcache_get(R, s, t0, prof, P, &use);
        if (ct) {
            ct->zblock += 1e3 * (sq_wtime() - z0);
            ct->sigs++;
        }
        sq_trace_set_context(s, t, o);
        kill_sigma(R, s, t, t0, z, &Tbt, &Nbt, Nc, o, sig, P->len, sdeg, x, dx, &kb, ct);
        sq_trace_set_context(s, t, -1);
    }
    use.o = P->nsig;
    cache_fit(R, s, R->t_min - 1, &use);
    row_unlock(R, s);
    sq_free(last);
    killbuf_clear(&kb);
    blocks_clear(&Tbt);
    blocks_clear(&Nbt);
}
