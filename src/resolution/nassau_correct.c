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
#include <string.h>

#include "internal.h"
#include "nassau_zblock.h"
#include "sq_trace.h"
#include "sq_core.h"

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
    int64_t b = nassau_blocks_find(Nbt, c);
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

void nassau_correct(resol_t *R, int32_t s, int32_t t, const resol_profile_t *P,
                    const sigclass_t *Tc, const sigclass_t *Nc, f2mat_t *x, f2mat_t *dx,
                    nassau_ctimes_t *ct)
{

    int prof = (int)(P - R->prof);
    blocks_t Tbt, Nbt;
    nassau_blocks_init(&Tbt, R->F[s - 1], t, t);
    nassau_blocks_init(&Nbt, R->F[s - 2], t, t - 1);
    killbuf_t kb = {0};
    int32_t sig[NASSAU_MAX_LEN];
    /* The last ordinal reading each degree's block, for the evictions. */
    int32_t top = (int32_t)nassau_top_degree(P->h, P->len);
    uint32_t *last = sq_calloc((size_t)top + 1, sizeof *last);
    for (uint32_t o = 1; o < P->nsig; o++)
        if (class_size(Nc, o) > 0)
            last[decode_sig(P, o, sig)] = o;
    zuse_t use = {t, top, last, 0};
    nassau_row_lock(R, s);
    for (uint32_t o = 1; o < P->nsig; o++) {
        if (class_size(Nc, o) == 0 || !class_hit(dx, Nc, o))
            continue;
        int32_t sdeg = decode_sig(P, o, sig);
        int32_t t0 = t - sdeg;
        if (t0 < R->t_min)
            continue; /* nothing can kill it: the final check reports */
        double z0 = ct ? sq_wtime() : 0;
        use.o = o;
        zblock_t *z = nassau_zcache_get(R, s, t0, prof, P, &use);
        if (ct) {
            ct->zblock += 1e3 * (sq_wtime() - z0);
            ct->sigs++;
        }
        sq_trace_set_context(s, t, o);
        kill_sigma(R, s, t, t0, z, &Tbt, &Nbt, Nc, o, sig, P->len, sdeg, x, dx, &kb, ct);
        sq_trace_set_context(s, t, -1);
    }
    use.o = P->nsig;
    nassau_cache_fit(R, s, R->t_min - 1, &use);
    nassau_row_unlock(R, s);
    sq_free(last);
    killbuf_clear(&kb);
    nassau_blocks_clear(&Tbt);
    nassau_blocks_clear(&Nbt);
}
