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
#include "nassau_mulpar_internal.h"
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

/* Test hook: with split_all set, the corrections' sections (translations,
 * XORs of kept rows, products) are split whatever their size, into at
 * least 3 pieces a row (a serial run runs the same pieces in order). */
static int split_all;
void nassau_correct_split_all(int on);
void nassau_correct_split_all(int on)
{
    split_all = on;
}

/* Below these the translations (class positions over all rows) and the
 * XORs of kept rows (limbs XORed) stay on the step's thread: opening a
 * section costs the step's thread a few microseconds (a lock and a
 * broadcast; a helper only comes when idle), about 50 translated positions
 * or 2,000 limbs.  A piece of a row is at least MIN_PIECE_POS positions or
 * MIN_PIECE_LIMBS limbs.  (At 2048 positions and 32,768 limbs, a third of
 * step 3's CPU at (110, 58) stayed serial in steps of 2-16 ms.) */
#define TRANS_PAR_MIN_POS 256
#define MIN_PIECE_POS 32
#define XOR_PAR_MIN_LIMBS 2048
#define MIN_PIECE_LIMBS 16

/* Scratch of kill_sigma, grown as needed and reused across signatures:
 * per row i of x (k rows) its y0, d(y0) and y0 in T's basis; per piece of
 * the translations its translated component, partial y0 and failure. */
typedef struct {
    uint64_t *Y, *D, *YT, *VZ, *YP;
    int64_t ys, ds, ts, vs;  /* limbs a row of Y, D, YT, VZ (YP: ys) */
    size_t cap[5];           /* limbs allocated for Y, D, YT, VZ, YP */
    uint8_t *bad;
    size_t cap_bad;
    milnor_ws_t *W;          /* Sq(sigma), prepared once per signature */
} killbuf_t;

/* *p holds at least n limbs (contents not kept). */
static void fit_limbs(uint64_t **p, size_t *cap, size_t n)
{
    if (n <= *cap)
        return;
    sq_free(*p);
    *p = sq_calloc(n, 8);
    *cap = n;
}

static void killbuf_fit(killbuf_t *kb, int64_t k, int64_t pieces, const zblock_t *z)
{
    kb->ys = f2_limbs(z->zt) + 1;
    kb->ds = f2_limbs(z->ndim) + 1;
    kb->ts = f2_limbs(z->Tb.start[z->Tb.n]) + 1;
    kb->vs = f2_limbs(z->zn) + 1;
    fit_limbs(&kb->Y, &kb->cap[0], (size_t)(k * kb->ys));
    fit_limbs(&kb->D, &kb->cap[1], (size_t)(k * kb->ds));
    fit_limbs(&kb->YT, &kb->cap[2], (size_t)(k * kb->ts));
    fit_limbs(&kb->VZ, &kb->cap[3], (size_t)(pieces * kb->vs));
    fit_limbs(&kb->YP, &kb->cap[4], (size_t)(pieces * kb->ys));
    if ((size_t)pieces > kb->cap_bad) {
        sq_free(kb->bad);
        kb->bad = sq_calloc((size_t)pieces, 1);
        kb->cap_bad = (size_t)pieces;
    }
}

static void killbuf_clear(killbuf_t *kb)
{
    sq_free(kb->Y);
    sq_free(kb->D);
    sq_free(kb->YT);
    sq_free(kb->VZ);
    sq_free(kb->YP);
    sq_free(kb->bad);
    milnor_ws_free(kb->W);
}

/* Translates the part j0 <= j < j1 of the sigma-component (the positions
 * class_pos(Nc, o)[j]) of dx's row i down into vz (columns of z; cleared
 * here); 1 if nonzero, 0 if zero, -1 if it cannot be translated (the final
 * check reports). */
static int translate_down(const resol_t *R, int32_t t, int32_t t0, const zblock_t *z,
                          const blocks_t *Nbt, const sigclass_t *Nc, uint32_t o,
                          const int32_t *sig, int len, const f2mat_t *dx, int64_t i, int64_t j0,
                          int64_t j1, uint64_t *vz)
{
    memset(vz, 0, (size_t)(f2_limbs(z->zn) + 1) * 8);
    int nonzero = 0;
    for (int64_t j = j0; j < j1; j++) {
        int64_t c = class_pos(Nc, o)[j];
        if (!bit(f2mat_row(dx, i), c))
            continue;
        int64_t col = down_column(z, Nbt, R->A, t, t0, c, sig, len);
        if (col < 0)
            return -1;
        vz[col >> 6] ^= 1ULL << (col & 63);
        nonzero = 1;
    }
    return nonzero;
}

/* What the pieces of one signature's correction read (kill_sigma). */
typedef struct {
    const resol_t *R;
    int32_t t, t0;
    const zblock_t *z;
    const blocks_t *Nbt;
    const sigclass_t *Nc;
    uint32_t o;
    const int32_t *sig;
    int len;
    const f2mat_t *dx;
    killbuf_t *kb;
    int64_t m;              /* pieces a row */
    const milnor_op_t *op;  /* the extra piece k * m prepares kb->W for it ... */
    int32_t maxdeg;         /* ... up to this degree (-1: not there) */
    const uint8_t *live;    /* rows with a nonzero y0 (the XORs) */
} corrpar_t;

/* Piece c = i * m + p of the translations: the p-th of m parts of row i's
 * sigma-component translated down and mapped by the quasi-inverse, into
 * Y's row i (m == 1) or the piece's partial y0 (the caller adds them). */
static void trans_piece(void *ctx, int64_t c)
{
    const corrpar_t *a = ctx;
    killbuf_t *kb = a->kb;
    int64_t k = a->dx->rows, n = class_size(a->Nc, a->o);
    if (c == k * a->m) {
        milnor_ws_prepare(kb->W, a->op, a->maxdeg, INT64_MAX);
        return;
    }
    int64_t i = c / a->m, p = c % a->m;
    uint64_t *y = a->m == 1 ? kb->Y + i * kb->ys : kb->YP + c * kb->ys;
    memset(y, 0, (size_t)kb->ys * 8);
    int r = translate_down(a->R, a->t, a->t0, a->z, a->Nbt, a->Nc, a->o, a->sig, a->len, a->dx,
                           i, n * p / a->m, n * (p + 1) / a->m, kb->VZ + c * kb->vs);
    kb->bad[c] = (uint8_t)(r < 0);
    if (r > 0)
        nassau_zblock_qi_apply(y, a->z, kb->VZ + c * kb->vs);
}

/* Piece c = i * m + p of the XORs of kept rows: limbs [l0, l1), the p-th
 * of m parts of D's row i, of d(y0) = the sum of the kept rows d(Sq(R0) g)
 * (degree t0) at y0's set bits; piece 0 of a row also writes y0 into T's
 * basis (YT). */
static void xor_piece(void *ctx, int64_t c)
{
    const corrpar_t *a = ctx;
    killbuf_t *kb = a->kb;
    const zblock_t *z = a->z;
    int64_t i = c / a->m, p = c % a->m;
    if (!a->live[i])
        return;
    const uint64_t *y0 = kb->Y + i * kb->ys;
    int64_t l0 = kb->ds * p / a->m, l1 = kb->ds * (p + 1) / a->m, zr = z->zt;
    uint64_t *w = kb->D + i * kb->ds;
    memset(w + l0, 0, (size_t)(l1 - l0) * 8);
    if (p == 0) {
        uint64_t *yt = kb->YT + i * kb->ts;
        memset(yt, 0, (size_t)kb->ts * 8);
        for (int64_t r = 0; r < zr; r++)
            if (bit(y0, r))
                yt[z->tpos[r] >> 6] |= 1ULL << (z->tpos[r] & 63);
    }
    if (!z->nrows || l0 == l1)
        return;
    for (int64_t l = 0; l < f2_limbs(zr); l++)
        for (uint64_t b = y0[l]; b; b &= b - 1) {
            int64_t r = l * 64 + __builtin_ctzll(b);
            if (r >= zr)
                break;
            nassau_zblock_row_xor(w, z, r, l0, l1); /* d(Sq(R0) g) in degree t0 */
        }
}

/* Runs pieces [0, n) of a section over the pool when split, else in order
 * on the caller. */
static void run_pieces(sq_pool_t *pool, int split, int64_t n, void (*fn)(void *, int64_t),
                       void *ctx)
{
    if (split)
        sq_pool_parallel_for(pool, n, fn, ctx);
    else
        for (int64_t c = 0; c < n; c++)
            fn(ctx, c);
}

/* Pieces a row for a section over k rows of `row` units each: 2 pieces a
 * thread in all, each of at least `least` units; 1 when not split. */
static int64_t pieces_per_row(const resol_t *R, int64_t k, int64_t row, int64_t least,
                              int split)
{
    if (split_all)
        return row < 3 ? (row > 0 ? row : 1) : 3;
    if (!split)
        return 1;
    int64_t m = (2 * (int64_t)sq_pool_size(R->pool) + k - 1) / k, most = row / least;
    return m < most ? m : (most > 1 ? most : 1);
}

/* For the phase trace (event=correct, one line a step): the serial CPU
 * time of the step's thread and its sections' CPU work (as event=phase's
 * serial= and sections=, sq_pool_section_totals) in step 3's parts: 0 the
 * blocks (nassau_zcache_get), 1 the translations and quasi-inverses, 2 the
 * XORs of kept rows and the products, 3 the rest (finding the classes hit,
 * the cache's evictions). */
typedef struct {
    double cpu, work, own; /* at the last mark */
    double ser[4], par[4];
} cmark_t;

/* Adds the time since the last mark to part k (cm NULL: nothing). */
static void cmark(cmark_t *cm, int k)
{
    if (!cm)
        return;
    double cpu = sq_thread_cputime(), work, own;
    sq_pool_section_totals(&work, &own);
    if (k >= 0) {
        cm->ser[k] += 1e3 * ((cpu - cm->cpu) - (own - cm->own));
        cm->par[k] += 1e3 * (work - cm->work);
    }
    cm->cpu = cpu;
    cm->work = work;
    cm->own = own;
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
 *
 * The rows are independent, and each stage is a section over the pool
 * (when large): (a) the translations and quasi-inverses, by row and part
 * of the sigma-class, with Sq(sigma)'s preparation as one more piece;
 * (b) the XORs of kept rows, by row and limb range of d(y0); (c) all the
 * products of the signature in one batch (nassau_mul_many_par).  Pieces
 * write disjoint memory or are added after the section: the same bits on
 * any schedule.
 */
static void kill_sigma(resol_t *R, int32_t s, int32_t t, int32_t t0, const zblock_t *z,
                       const blocks_t *Tbt, const blocks_t *Nbt, const sigclass_t *Nc, uint32_t o,
                       const int32_t *sig, int len, int32_t sdeg, f2mat_t *x, f2mat_t *dx,
                       killbuf_t *kb, nassau_ctimes_t *ct, cmark_t *cm)
{
    const milnor_t *A = R->A;
    int64_t k = x->rows, n = class_size(Nc, o), zr = z->zt;
    int threads = sq_pool_size(R->pool);
    int split = split_all || (threads > 1 && k * n >= TRANS_PAR_MIN_POS);
    int64_t m = pieces_per_row(R, k, n, MIN_PIECE_POS, split);
    killbuf_fit(kb, k, k * m, z);

    /* (a) y0 of every row, and Sq(sigma) prepared alongside. */
    milnor_op_t op;
    milnor_op_init(&op, A, sdeg, milnor_index(A, sig, len));
    if (!kb->W)
        kb->W = milnor_ws_new();
    int32_t maxdeg = t0 - fmod_min_degree(R->F[s - 1]);
    if (t0 - fmod_min_degree(R->F[s - 2]) > maxdeg)
        maxdeg = t0 - fmod_min_degree(R->F[s - 2]);
    if (maxdeg > milnor_max_degree(A) - sdeg)
        maxdeg = milnor_max_degree(A) - sdeg; /* no block reaches beyond the algebra */
    int prep = zr > 0 && maxdeg >= 0;        /* else no y0 is nonzero */
    corrpar_t a = {R, t, t0, z, Nbt, Nc, o, sig, len, dx, kb, m, &op, maxdeg, NULL};
    run_pieces(R->pool, split, k * m + prep, trans_piece, &a);
    uint8_t *live = sq_calloc((size_t)k + 1, 1);
    int64_t nlive = 0, xwork = 0;
    for (int64_t i = 0; i < k; i++) {
        uint64_t *y0 = kb->Y + i * kb->ys;
        if (m > 1) { /* y0 = the sum of the row's pieces, or 0 if one failed */
            memset(y0, 0, (size_t)kb->ys * 8);
            int bad = 0;
            for (int64_t p = 0; p < m; p++)
                bad |= kb->bad[i * m + p];
            for (int64_t p = 0; p < m && !bad; p++)
                for (int64_t l = 0; l < kb->ys; l++)
                    y0[l] ^= kb->YP[(i * m + p) * kb->ys + l];
        }
        if (f2_first_bit(y0, zr) < 0)
            continue;
        live[i] = 1;
        nlive++;
        for (int64_t l = 0; l < f2_limbs(zr); l++)
            for (uint64_t b = y0[l]; b; b &= b - 1) {
                int64_t r = l * 64 + __builtin_ctzll(b);
                if (r >= zr)
                    break;
                xwork += z->nrows ? z->rstart[r + 1] - z->rstart[r] : 0;
                if (ct)
                    ct->ybits++;
            }
    }
    cmark(cm, 1);
    if (!nlive) {
        sq_free(live);
        return;
    }

    /* (b) d(y0) of every row: the XORs of kept rows, or (rows not kept:
     * the budget) computed. */
    double a0 = ct ? sq_wtime() : 0;
    split = split_all || (threads > 1 && xwork >= XOR_PAR_MIN_LIMBS);
    a.m = pieces_per_row(R, nlive, kb->ds, MIN_PIECE_LIMBS, split);
    a.live = live;
    run_pieces(R->pool, split && z->nrows, k * a.m, xor_piece, &a);
    if (!z->nrows)
        for (int64_t i = 0; i < k; i++)
            if (live[i]) { /* the same d(y0), computed */
                fhom_apply_add_par(R->d[s - 1], kb->D + i * kb->ds, z->ndim, t0, t0 + 1,
                                   kb->YT + i * kb->ts, R->pool);
                atomic_fetch_add(&R->zmiss, 1);
            }

    /* (c) x += Sq(sigma) y0 and dx += Sq(sigma) d(y0) for every row, one
     * batch (same generator order in degrees t0 and t). */
    if (!prep)
        milnor_ws_prepare(kb->W, &op, maxdeg, INT64_MAX);
    nassau_mulvec_t *jobs = sq_calloc((size_t)(2 * nlive), sizeof *jobs);
    int64_t nj = 0;
    for (int64_t i = 0; i < k; i++)
        if (live[i]) {
            jobs[nj++] = (nassau_mulvec_t){f2mat_row(x, i), Tbt, &z->Tb, kb->YT + i * kb->ts};
            jobs[nj++] = (nassau_mulvec_t){f2mat_row(dx, i), Nbt, &z->Nb, kb->D + i * kb->ds};
        }
    nassau_mul_many_par(kb->W, t0, jobs, nj, R->pool, split_all);
    sq_free(jobs);
    sq_free(live);
    cmark(cm, 2);
    if (ct) {
        ct->kills += nlive;
        ct->apply += 1e3 * (sq_wtime() - a0);
    }
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
    cmark_t cmk = {0}, *cm = ct ? &cmk : NULL;
    cmark(cm, -1);
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
        cmark(cm, 3);
        zblock_t *z = nassau_zcache_get(R, s, t0, prof, P, &use);
        cmark(cm, 0);
        if (ct) {
            ct->zblock += 1e3 * (sq_wtime() - z0);
            ct->sigs++;
        }
        sq_trace_set_context(s, t, o);
        kill_sigma(R, s, t, t0, z, &Tbt, &Nbt, Nc, o, sig, P->len, sdeg, x, dx, &kb, ct, cm);
        sq_trace_set_context(s, t, -1);
    }
    use.o = P->nsig;
    nassau_cache_fit(R, s, R->t_min - 1, &use);
    nassau_row_unlock(R, s);
    cmark(cm, 3);
    if (cm)
        sq_trace_emit("event=correct s=%d t=%d serial=%.3f,%.3f,%.3f,%.3f "
                      "sections=%.3f,%.3f,%.3f,%.3f",
                      (int)s, (int)t, cm->ser[0], cm->ser[1], cm->ser[2], cm->ser[3],
                      cm->par[0], cm->par[1], cm->par[2], cm->par[3]);
    sq_free(last);
    killbuf_clear(&kb);
    nassau_blocks_clear(&Tbt);
    nassau_blocks_clear(&Nbt);
}
