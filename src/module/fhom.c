/*
 * fhom.c -- homomorphisms out of free modules, at every prime (see fhom.h).
 *
 * Building the matrix of d in degree t is the multiply-heavy part of every
 * step.  One walk (`walk`) goes over the source generators g of degree
 * e < bound and the requested rows (a, g) of each, a of degree t - e (all,
 * a row range, or an idx subset; split over a pool by build_rows_cpu), and
 * hands each generator's run of rows to the tile of the prime, both below
 * in this file so that the compiler inlines them into the walk:
 *   - tile_f2 (p = 2): d(g) is cut once into per-target-generator blocks
 *     (each a vector over A_{e - deg h}, realigned to start on a limb), zero
 *     blocks dropped; every row is the sum over blocks of Sq(R) * block at
 *     the target generator's offset (the Milnor workspace; the GPU offer at
 *     the end of the file takes whole builds);
 *   - tile_fp (odd p): d(g) is cut once into its nonzero terms c (a', h);
 *     every row adds c (a a') at h's offset, from the algebra's product
 *     cache (stalg_set_cache) or pmilnor_mul_elts_add.
 */
#include "fhom.h"

#include <string.h>

#include "f2_kernels.h"
#include "sq_core.h"
#include "sq_gpu.h"

/*
 * Images are stored per source degree: img[e - min][i] is d of generator i
 * of degree e, fvec_bytes_for(p, len) bytes in the field's encoding.  The
 * slot array of a degree is allocated by the step that creates those
 * generators (the only writer of that degree); readers only look at degrees
 * whose steps are done, so nothing shared is ever reallocated under a
 * reader.
 */
struct fhom {
    const fmod_t *src;
    const fmod_t *tgt;      /* NULL when the target is finite */
    const fdmod_t *M;       /* the finite target (M's prime is the source's), else NULL */
    const stalg_t *S;       /* the source's algebra */
    const milnor_t *A2;     /* below S at p = 2, else NULL */
    const pmilnor_t *Ap;    /* below S at odd p, else NULL */
    const ubasis_t *U;      /* unstable free modules: the source's bases, else NULL */
    uint32_t p;
    int32_t min_deg, span;
    void ***img;            /* per source degree, per generator */
};

static fhom_t *fhom_alloc(const fmod_t *src)
{
    fhom_t *d = sq_calloc(1, sizeof *d);
    d->src = src;
    d->S = fmod_stalg(src);
    d->p = stalg_prime(d->S);
    d->A2 = stalg_milnor(d->S);
    d->Ap = stalg_pmilnor(d->S);
    d->U = fmod_unstable(src);
    d->min_deg = fmod_min_degree(src);
    d->span = fmod_max_degree(src) - d->min_deg + 1;
    d->img = sq_calloc((size_t)d->span + 1, sizeof *d->img);
    return d;
}

/* The slot of generator g (global index): its degree and index within it. */
static void **slot(const fhom_t *d, int64_t g, int32_t *deg)
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
    SQ_CHECK(stalg_prime(fmod_stalg(src)) == stalg_prime(fmod_stalg(tgt)),
             "fhom_new_free: different primes");
    SQ_CHECK(fmod_unstable(src) == fmod_unstable(tgt),
             "fhom_new_free: a stable and an unstable free module");
    fhom_t *d = fhom_alloc(src);
    d->tgt = tgt;
    return d;
}

fhom_t *fhom_new_fd(const fmod_t *src, const fdmod_t *M)
{
    fhom_t *d = fhom_alloc(src);
    SQ_CHECK(fdmod_prime(M) == d->p, "fhom_new_fd: the source is at p = %u, the module at %u",
             (unsigned)d->p, (unsigned)fdmod_prime(M));
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

const fmod_t *fhom_target(const fhom_t *d)
{
    return d->tgt;
}

uint32_t fhom_prime(const fhom_t *d)
{
    return d->p;
}

int64_t fhom_image_len(const fhom_t *d, int32_t e)
{
    return d->tgt ? fmod_dim_below(d->tgt, e, e) : fdmod_dim(d->M, e);
}

int64_t fhom_image_bits(const fhom_t *d, int32_t e)
{
    return fhom_image_len(d, e);
}

int64_t fhom_target_dim(const fhom_t *d, int32_t t)
{
    return d->tgt ? fmod_dim_below(d->tgt, t, t) : fdmod_dim(d->M, t);
}

void fhom_set_image_enc(fhom_t *d, int64_t g, const void *vec)
{
    SQ_CHECK(g >= 0 && g < fmod_total_gens(d->src), "fhom_set_image: no generator %lld",
             (long long)g);
    int32_t e = fmod_gen_degree(d->src, g);
    if (!d->img[e - d->min_deg])
        d->img[e - d->min_deg] = sq_calloc((size_t)fmod_num_gens(d->src, e), sizeof(void *));
    void **s = slot(d, g, NULL);
    SQ_CHECK(*s == NULL, "fhom_set_image: generator %lld set twice", (long long)g);
    size_t bytes = fvec_bytes_for(d->p, fhom_image_len(d, e));
    *s = sq_calloc(bytes ? bytes : sizeof(uint64_t), 1);
    if (bytes)
        memcpy(*s, vec, bytes);
}

void fhom_set_image(fhom_t *d, int64_t g, const uint64_t *vec)
{
    fhom_set_image_enc(d, g, vec);
}

const void *fhom_image_enc(const fhom_t *d, int64_t g, int64_t *len)
{
    SQ_CHECK(g >= 0 && g < fmod_total_gens(d->src), "fhom_image: no generator %lld",
             (long long)g);
    int32_t e;
    void **s = slot(d, g, &e);
    SQ_CHECK(s && *s, "fhom_image: generator %lld has no image", (long long)g);
    if (len)
        *len = fhom_image_len(d, e);
    return *s;
}

const uint64_t *fhom_image(const fhom_t *d, int64_t g, int64_t *nbits)
{
    return fhom_image_enc(d, g, nbits);
}

/* ---- The target's blocks in an image -------------------------------------------- */

/*
 * The target generators h of degree < e in basis order, for cutting d(g),
 * g of degree e: the block of h in d(g) is [off_e, off_e + len) (len =
 * dim A_{e - deg h}), and in degree t it starts at off_t (the generators of
 * degree < e come first in degree t in the same order, so the offsets are
 * a prefix's).  for (tgt_it_t b = TGT_FIRST(d); tgt_next(d, &b, e, t);).
 */
typedef struct {
    int32_t deg;          /* degree of h */
    int64_t left;         /* generators of that degree from h on */
    int64_t len, len_t;   /* dim A_{e - deg}, dim A_{t - deg} */
    int64_t off_e, off_t;
} tgt_it_t;

/* The block of a generator of degree g in degree g + deg: dim A_deg from
 * the algebra below the handle (no call through stalg.c), or F(g)'s part
 * of it when unstable (one predictable test). */
static inline int64_t alg_dim(const fhom_t *d, int32_t deg, int32_t g)
{
    if (SQ_UNLIKELY(d->U != NULL))
        return ubasis_dim(d->U, deg, g);
    return d->A2 ? milnor_dim(d->A2, deg) : pmilnor_dim(d->Ap, deg);
}

#define TGT_FIRST(d) ((tgt_it_t){fmod_min_degree((d)->tgt) - 1, 0, 0, 0, 0, 0})

/* Inlined into both cuts (so that b lives in registers). */
static inline __attribute__((always_inline)) int tgt_next(const fhom_t *d, tgt_it_t *b,
                                                          int32_t e, int32_t t)
{
    b->off_e += b->len;
    b->off_t += b->len_t;
    if (--b->left > 0)
        return 1;
    while (++b->deg < e) {
        b->left = fmod_num_gens(d->tgt, b->deg);
        if (b->left) {
            b->len = alg_dim(d, e - b->deg, b->deg);
            b->len_t = alg_dim(d, t - b->deg, b->deg);
            return 1;
        }
    }
    return 0;
}

/* ---- The p = 2 tile ------------------------------------------------------------ */

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

/* One nonzero block of d(g): Sq(R) * vec lands at `off` (target offset in
 * degree t); deg: of the block's algebra part, deg g - deg h; limb0: the
 * start of vec in the scratch (milnor_ws_mul_blocks_add reads them). */
typedef milnor_block_t block_t;

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

/* Room for limbs more limbs of block vectors at the end of sp's scratch
 * (returned; push_block keeps them). */
static uint64_t *reserve_limbs(split_t *sp, int64_t limbs)
{
    if (sp->nlimbs + limbs > sp->cap_limbs) {
        sp->cap_limbs = 2 * (sp->nlimbs + limbs);
        sp->bits = sq_realloc(sp->bits, sq_mul_size((size_t)sp->cap_limbs, 8));
    }
    return sp->bits + sp->nlimbs;
}

/* Keeps the reserved limbs as a block of degree deg (pop set bits)
 * landing at off. */
static void push_block(split_t *sp, int64_t off, int32_t deg, int64_t limbs, int64_t pop)
{
    sp->nbits += pop;
    if (deg > sp->max_deg)
        sp->max_deg = deg;
    if (sp->nblocks == sp->cap_blocks) {
        sp->cap_blocks = sp->cap_blocks ? 2 * sp->cap_blocks : 16;
        sp->blocks = sq_realloc(sp->blocks, sq_mul_size((size_t)sp->cap_blocks,
                                                        sizeof *sp->blocks));
    }
    sp->blocks[sp->nblocks++] = (block_t){off, deg, sp->nlimbs};
    sp->nlimbs += limbs;
}

/* Set bits of v[0..limbs): popcnt where the CPU has it (the f2 kernel; a
 * library call per limb otherwise). */
static int64_t popcount_limbs(const uint64_t *v, int64_t limbs)
{
    return f2_kernels()->popcount_range(v, 0, 64 * limbs);
}

/* Empties sp for the image of generator g, which it returns. */
static const uint64_t *split_reset(split_t *sp, const fhom_t *d, int64_t g)
{
    sp->nblocks = 0;
    sp->nlimbs = 0;
    sp->max_deg = 0;
    sp->nbits = 0;
    return fhom_image(d, g, NULL);
}

/* Cuts d(g) (g of degree e, free target) into its nonzero blocks. */
static void split_image(split_t *sp, const fhom_t *d, int64_t g, int32_t e, int32_t t)
{
    const uint64_t *img = split_reset(sp, d, g);
    for (tgt_it_t b = TGT_FIRST(d); tgt_next(d, &b, e, t);) {
        int64_t limbs = f2_limbs(b.len);
        uint64_t *dst = reserve_limbs(sp, limbs);
        extract_bits(dst, img, b.off_e, b.len);
        int64_t pop = popcount_limbs(dst, limbs);
        if (pop)
            push_block(sp, b.off_t, e - b.deg, limbs, pop);
    }
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
    milnor_ws_mul_blocks_add(W, out, sp->blocks, sp->nblocks, sp->bits);
}

/* ---- The odd-prime tile -------------------------------------------------------- */

/* One nonzero term of d(g): c * (a', h), landing at `off` in degree t. */
typedef struct {
    int64_t off;            /* offset of h's block in degree t */
    uint32_t c;
    int32_t deg;            /* a' is basis element idx of degree deg */
    int64_t idx;
    pmilnor_elt_t e;        /* a', unpacked */
} term_t;

typedef struct {
    term_t *terms;
    int64_t n, cap;
} terms_t;

/* Cuts d(g) (g of degree e, free target) into its nonzero terms. */
static void split_terms(terms_t *T, const fhom_t *d, int64_t g, int32_t e, int32_t t)
{
    const uint8_t *img = fhom_image_enc(d, g, NULL);
    T->n = 0;
    for (tgt_it_t b = TGT_FIRST(d); tgt_next(d, &b, e, t);)
        for (int64_t k = 0; k < b.len; k++) {
            if (!img[b.off_e + k])
                continue;
            if (T->n == T->cap) {
                T->cap = T->cap ? 2 * T->cap : 64;
                T->terms = sq_realloc(T->terms, sq_mul_size((size_t)T->cap, sizeof *T->terms));
            }
            term_t *x = &T->terms[T->n++];
            x->off = b.off_t;
            x->c = img[b.off_e + k];
            x->deg = e - b.deg;
            x->idx = k;
            pmilnor_get(d->Ap, e - b.deg, k, &x->e);
        }
}

/* ---- The walk ------------------------------------------------------------------ */

/*
 * What a walk computes.  Build: row dst0 + k of m gets a_k d(g) for the
 * k-th requested row of a generator's run.  Apply (m == NULL): out +=
 * v[pos + a] a d(g) over the rows of the run (v, out in the encoding).
 */
typedef struct {
    const fhom_t *d;
    int32_t t;
    fmat_t *m;
    void *out;
    const void *v;
} walk_t;

/* The per-call scratch of the tiles (one per thread). */
typedef struct {
    split_t sp;          /* p = 2 */
    milnor_ws_t *W;
    milnor_op_t op;
    terms_t T;           /* odd p */
    pmilnor_cache_t *C;
    uint64_t *ublk;      /* unstable: a block of d(g), and a product in the Milnor order */
    uint64_t *uscr;
    uint8_t *ubytes;     /* unstable at odd p: a product in the algebra's order */
    split_t *sps;        /* p = 2 builds: the images of one degree's generators (tile_f2_degree) */
    int64_t *next;       /* their runs' next rows */
    int64_t cap_sps;
} scratch_t;

/* The run of rows of generator g (degree e, block at basis position pos):
 * row k < n is basis element a_k = ridx ? ridx[k] - pos : a0 + k of degree
 * t - e. */
typedef struct {
    int64_t g, pos, a0, n, dst0;
    int32_t e;
    const int64_t *ridx;
} run_t;

static inline int64_t run_a(const run_t *u, int64_t k)
{
    return u->ridx ? u->ridx[k] - u->pos : u->a0 + k;
}

/* p = 2: where row k (basis element a) of the run goes: its row of the
 * matrix (build), or out when v's entry is set (apply), else NULL. */
static inline __attribute__((always_inline)) uint64_t *row_out_f2(const walk_t *w,
                                                                  const run_t *u, int64_t k,
                                                                  int64_t a)
{
    if (w->m)
        return f2mat_row(&w->m->f2, u->dst0 + k);
    const uint64_t *v = w->v;
    int64_t bit = u->pos + a;
    return ((v[bit >> 6] >> (bit & 63)) & 1) ? (uint64_t *)w->out : NULL;
}

/* Odd p: out += c_a a d(g) for each row a of the run (c_a = 1, or v's
 * entry), term by term of d(g) so that a cached column serves every row.
 * The runs are ranges here (row subsets are p = 2 only); the row pointers
 * and bounds are locals, since every byte stored may alias a field. */
static void tile_fp(const walk_t *w, scratch_t *x, const run_t *u)
{
    const fhom_t *d = w->d;
    const uint8_t *v = w->v ? (const uint8_t *)w->v + u->pos : NULL; /* v[a]: row a's coefficient */
    uint8_t *out = w->out;
    uint8_t *data = w->m ? w->m->fp.data : NULL;
    if (!v && !data)
        return; /* rows without storage: a matrix of no columns, nothing to add */
    const int64_t stride = w->m ? w->m->fp.stride : 0, drow = u->dst0 - u->a0; /* row of a */
    const int64_t a0 = u->a0, a1 = u->a0 + u->n;
    const uint32_t p = d->p;
    const int32_t rdeg = w->t - u->e;
    if (!d->tgt) {
        int64_t n;
        const uint8_t *bytes = fhom_image_enc(d, u->g, &n);
        const fvec_t img = fvec_view_bytes((uint8_t *)(uintptr_t)bytes, n, p);
        const int64_t len = fdmod_dim(d->M, w->t);
        for (int64_t a = a0; a < a1; a++) {
            uint32_t c = v ? v[a] : 1;
            if (!c)
                continue;
            uint8_t *dst = v ? out : data + (drow + a) * stride;
            fdmod_act_addf(d->M, fvec_view_bytes(dst, len, p), 0, c, rdeg, a, u->e, img);
        }
        return;
    }
    terms_t *T = &x->T;
    split_terms(T, d, u->g, u->e, w->t);
    for (int64_t k = 0; k < T->n; k++) {
        const term_t *y = &T->terms[k];
        pmilnor_col_t col;
        if (x->C && pmilnor_cache_col(x->C, rdeg, y->deg, y->idx, &col)) {
            for (int64_t a = a0; a < a1; a++) {
                uint32_t c = v ? v[a] : 1;
                if (!c)
                    continue;
                uint32_t cc = c * y->c % p;
                uint8_t *o = (v ? out : data + (drow + a) * stride) + y->off;
                for (int32_t j = col.off[a]; j < col.off[a + 1]; j++)
                    o[col.idx[j]] = (uint8_t)((o[col.idx[j]] + cc * col.coef[j]) % p);
            }
            continue;
        }
        for (int64_t a = a0; a < a1; a++) {
            uint32_t c = v ? v[a] : 1;
            if (!c)
                continue;
            pmilnor_elt_t ae;
            pmilnor_get(d->Ap, rdeg, a, &ae);
            uint8_t *dst = v ? out : data + (drow + a) * stride;
            pmilnor_mul_elts_add(d->Ap, dst + y->off, c * y->c % p, &ae, &y->e);
        }
    }
}

/* Unstable free modules (p = 2): d(g) cut once into its nonzero blocks as
 * split_image does, each block's vector (over F(deg h)'s prefix of the
 * excess order) scattered into the Milnor order (ubasis_scatter), so that
 * the workspace multiplies it; a block's deg is e - deg h. */
static void split_image_u(split_t *sp, const fhom_t *d, int64_t g, int32_t e, int32_t t,
                          uint64_t *tmp)
{
    const uint64_t *img = split_reset(sp, d, g);
    for (tgt_it_t b = TGT_FIRST(d); tgt_next(d, &b, e, t);) {
        int32_t sdeg = e - b.deg;
        extract_bits(tmp, img, b.off_e, b.len);
        int64_t pop = popcount_limbs(tmp, f2_limbs(b.len));
        if (!pop)
            continue;
        int64_t limbs = f2_limbs(milnor_dim(d->A2, sdeg));
        ubasis_scatter(d->U, reserve_limbs(sp, limbs), sdeg, b.deg, tmp);
        push_block(sp, b.off_t, sdeg, limbs, pop);
    }
}

/* Unstable: out ^= Sq(R) * d(g), R the element am of degree rdeg, d(g)
 * cut by split_image_u: the workspace multiplies Sq(R) into each block in
 * the Milnor order, and the product's terms of excess <= deg h land in
 * F(deg h)'s block (ubasis_gather_add). */
static void mul_blocks_u(const fhom_t *d, scratch_t *x, uint64_t *out, int32_t rdeg, int64_t am,
                         int32_t e)
{
    if (!x->sp.nblocks)
        return;
    milnor_op_init(&x->op, d->A2, rdeg, am);
    milnor_ws_prepare(x->W, &x->op, x->sp.max_deg, x->sp.nbits);
    for (int64_t b = 0; b < x->sp.nblocks; b++) {
        const block_t *bl = &x->sp.blocks[b];
        int32_t tdeg = rdeg + bl->deg;
        memset(x->uscr, 0, (size_t)f2_limbs(milnor_dim(d->A2, tdeg)) * 8);
        milnor_ws_mul_vec_add(x->W, x->uscr, 0, bl->deg, x->sp.bits + bl->limb0);
        ubasis_gather_add(d->U, out, bl->off, tdeg, e - bl->deg, x->uscr);
    }
}

/* p = 2: out ^= Sq(a_k) d(g) for each row (or set bit of v) of the run.
 * unstable is a constant of each caller (tile_f2, tile_u), so each gets
 * its own code: for an unstable module a row a_k is a position of the
 * excess order, translated to the Milnor index, and the products are
 * mul_blocks_u's. */
static inline __attribute__((always_inline)) void tile_f2_rows(const walk_t *w, scratch_t *x,
                                                               const run_t *u, const int unstable)
{
    const fhom_t *d = w->d;
    int32_t rdeg = w->t - u->e;
    int have = 0;
    for (int64_t k = 0; k < u->n; k++) {
        int64_t a = run_a(u, k);
        uint64_t *out = row_out_f2(w, u, k, a);
        if (!out)
            continue;
        int64_t am = unstable ? ubasis_milnor(d->U, rdeg, a) : a;
        if (!d->tgt) {
            fdmod_act_add(d->M, out, 0, rdeg, am, u->e, fhom_image(d, u->g, NULL));
            continue;
        }
        if (!have) {
            if (unstable)
                split_image_u(&x->sp, d, u->g, u->e, w->t, x->ublk);
            else
                split_image(&x->sp, d, u->g, u->e, w->t);
            have = 1;
        }
        if (unstable)
            mul_blocks_u(d, x, out, rdeg, am, u->e);
        else
            mul_blocks(x->W, &x->op, d->A2, &x->sp, out, rdeg, a);
    }
}

static void tile_f2(const walk_t *w, scratch_t *x, const run_t *u)
{
    tile_f2_rows(w, x, u, 0);
}

static void tile_u(const walk_t *w, scratch_t *x, const run_t *u)
{
    tile_f2_rows(w, x, u, 1);
}

/*
 * p = 2 builds, free stable target: the runs u[0..nu) of the generators of
 * one degree e, row by row of A_{t-e} rather than generator by generator,
 * so that one Sq(R) is unpacked and its configurations built once for
 * every generator with a row R (milnor_ws_prepare for the largest block
 * degree of them all: configurations for a larger bound serve a smaller
 * one).  Each row gets the same products as from tile_f2.
 */
static void tile_f2_degree(const walk_t *w, scratch_t *x, const run_t *u, int64_t nu)
{
    const fhom_t *d = w->d;
    if (nu > x->cap_sps) {
        x->sps = sq_realloc(x->sps, sq_mul_size((size_t)nu, sizeof *x->sps));
        x->next = sq_realloc(x->next, sq_mul_size((size_t)nu, sizeof *x->next));
        memset(x->sps + x->cap_sps, 0, (size_t)(nu - x->cap_sps) * sizeof *x->sps);
        x->cap_sps = nu;
    }
    int32_t maxdeg = 0, rdeg = w->t - u[0].e;
    int64_t nbits = 0;
    for (int64_t i = 0; i < nu; i++) {
        split_image(&x->sps[i], d, u[i].g, u[i].e, w->t);
        maxdeg = x->sps[i].max_deg > maxdeg ? x->sps[i].max_deg : maxdeg;
        nbits += x->sps[i].nbits;
        x->next[i] = 0;
    }
    for (;;) {
        int64_t a = INT64_MAX;
        for (int64_t i = 0; i < nu; i++)
            if (x->next[i] < u[i].n && run_a(&u[i], x->next[i]) < a)
                a = run_a(&u[i], x->next[i]);
        if (a == INT64_MAX)
            return;
        int prepared = 0;
        for (int64_t i = 0; i < nu; i++) {
            if (x->next[i] >= u[i].n || run_a(&u[i], x->next[i]) != a)
                continue;
            const split_t *sp = &x->sps[i];
            uint64_t *out = f2mat_row(&w->m->f2, u[i].dst0 + x->next[i]++);
            if (!sp->nblocks)
                continue;
            if (!prepared) {
                milnor_op_init(&x->op, d->A2, rdeg, a);
                milnor_ws_prepare(x->W, &x->op, maxdeg, nbits);
                prepared = 1;
            }
            milnor_ws_mul_blocks_add(x->W, out, sp->blocks, sp->nblocks, sp->bits);
        }
    }
}

/* Unstable free modules at odd p: out += c_a a d(g) for each row a of the
 * run (c_a = 1, or v's entry), term by term of d(g) (each term c (a', h),
 * a' a position of F(deg h)'s block, translated to the algebra's index),
 * the product a a' in the algebra's order and its terms of excess <=
 * deg h added into h's block (ubasis_gather_addf). */
static void tile_u_fp(const walk_t *w, scratch_t *x, const run_t *u)
{
    const fhom_t *d = w->d;
    const uint8_t *v = w->v ? (const uint8_t *)w->v + u->pos : NULL;
    uint8_t *data = w->m ? w->m->fp.data : NULL;
    if (!v && !data)
        return;
    const int64_t stride = w->m ? w->m->fp.stride : 0, drow = u->dst0 - u->a0;
    const uint32_t p = d->p;
    const int32_t rdeg = w->t - u->e;
    int64_t n;
    const uint8_t *img = fhom_image_enc(d, u->g, &n);
    for (int64_t a = u->a0; a < u->a0 + u->n; a++) {
        uint32_t c = v ? v[a] : 1;
        if (!c)
            continue;
        uint8_t *dst = v ? (uint8_t *)w->out : data + (drow + a) * stride;
        int64_t am = ubasis_milnor(d->U, rdeg, a);
        if (!d->tgt) {
            fvec_t iv = fvec_view_bytes((uint8_t *)(uintptr_t)img, n, p);
            fdmod_act_addf(d->M, fvec_view_bytes(dst, fdmod_dim(d->M, w->t), p), 0, c, rdeg, am,
                           u->e, iv);
            continue;
        }
        pmilnor_elt_t ae;
        pmilnor_get(d->Ap, rdeg, am, &ae);
        for (tgt_it_t b = TGT_FIRST(d); tgt_next(d, &b, u->e, w->t);) {
            int32_t sdeg = u->e - b.deg, tdeg = rdeg + sdeg;
            int64_t tdim = pmilnor_dim(d->Ap, tdeg);
            for (int64_t k = 0; k < b.len; k++) {
                uint32_t y = img[b.off_e + k];
                if (!y)
                    continue;
                pmilnor_elt_t ye;
                pmilnor_get(d->Ap, sdeg, ubasis_milnor(d->U, sdeg, k), &ye);
                memset(x->ubytes, 0, (size_t)tdim);
                pmilnor_mul_elts_add(d->Ap, x->ubytes, 1, &ae, &ye);
                ubasis_gather_addf(d->U, fvec_view_bytes(dst, b.off_t + b.len_t, p), b.off_t,
                                   tdeg, b.deg, c * y % p, fvec_view_bytes(x->ubytes, tdim, p));
            }
        }
    }
}

/*
 * The walk over the source basis in degree t spanned by generators of
 * degree < bound.  With idx == NULL: the basis positions lo <= q < hi, row
 * row0 + q - lo for position q (apply: the entries of v in [lo, hi)).
 * Otherwise only the positions idx[0..n-1] (increasing) of that basis, row
 * row0 + i for idx[i].  Each generator's run of rows goes to the tile of
 * the prime (one test per generator, never per row).
 */
static void walk(const walk_t *w, int64_t row0, int32_t bound, const int64_t *idx, int64_t n,
                 int64_t lo, int64_t hi)
{
    const fhom_t *d = w->d;
    const int32_t t = w->t;
    scratch_t x;
    memset(&x, 0, sizeof x);
    if (d->U) {
        int64_t lim = ubasis_scratch_limbs(d->U);
        x.ublk = sq_calloc((size_t)lim, 8);
        x.uscr = sq_calloc((size_t)lim, 8);
        x.ubytes = sq_calloc((size_t)ubasis_max_dim(d->U) + 1, 1);
    }
    if (d->p == 2 && d->tgt)
        x.W = milnor_ws_new();
    if (d->p != 2)
        x.C = stalg_pcache(d->S); /* odd p: the algebra's cache (stalg_set_cache), or none */
    int64_t pos = 0, next = 0; /* basis position of the generator block; next idx entry */
    int32_t top = fmod_top_below(d->src, bound);
    /* p = 2 builds into a free stable target go degree by degree (tile_f2_degree). */
    const int by_degree = d->p == 2 && d->tgt && !d->U && w->m;
    run_t *runs = NULL;
    int64_t cap_runs = 0;
    for (int32_t e = fmod_min_degree(d->src); e <= top && e <= t; e++) {
        int64_t ng = fmod_num_gens(d->src, e), nu = 0;
        if (!ng)
            continue;
        int64_t nr = alg_dim(d, t - e, e);
        if (by_degree && ng > cap_runs) {
            cap_runs = ng;
            runs = sq_realloc(runs, sq_mul_size((size_t)ng, sizeof *runs));
        }
        for (int64_t i = 0; i < ng; i++, pos += nr) {
            run_t u = {0, pos, 0, 0, 0, e, NULL};
            if (idx) {
                if (next >= n || idx[next] >= pos + nr)
                    continue; /* no requested row in this block */
                int64_t first = next;
                for (; next < n && idx[next] < pos + nr; next++)
                    SQ_CHECK(idx[next] >= pos && (next == first || idx[next] > idx[next - 1]),
                             "fhom_build_rows_subset: positions not increasing or out of range");
                u.ridx = idx + first;
                u.n = next - first;
                u.dst0 = row0 + first;
            } else {
                if (pos + nr <= lo || pos >= hi)
                    continue;
                u.a0 = lo > pos ? lo - pos : 0;
                u.n = (hi - pos < nr ? hi - pos : nr) - u.a0;
                u.dst0 = row0 + pos + u.a0 - lo;
                if (!u.n)
                    continue;
            }
            u.g = fmod_gen_global(d->src, e, i);
            if (by_degree)
                runs[nu++] = u;
            else if (SQ_UNLIKELY(d->U != NULL))
                d->p == 2 ? tile_u(w, &x, &u) : tile_u_fp(w, &x, &u);
            else if (d->p == 2)
                tile_f2(w, &x, &u);
            else
                tile_fp(w, &x, &u);
        }
        if (nu == 1)
            tile_f2(w, &x, runs);
        else if (nu > 1)
            tile_f2_degree(w, &x, runs, nu);
    }
    SQ_CHECK(!idx || next == n, "fhom_build_rows_subset: positions not increasing or out of range");
    sq_free(runs);
    for (int64_t i = 0; i < x.cap_sps; i++)
        split_clear(&x.sps[i]);
    sq_free(x.sps);
    sq_free(x.next);
    milnor_ws_free(x.W);
    split_clear(&x.sp);
    sq_free(x.T.terms);
    sq_free(x.ublk);
    sq_free(x.uscr);
    sq_free(x.ubytes);
}

/* Rows of the matrix of d (see walk) into m. */
static void build(const fhom_t *d, fmat_t *m, int64_t row0, int32_t t, int32_t bound,
                  const int64_t *idx, int64_t n, int64_t lo, int64_t hi)
{
    SQ_CHECK(fmat_prime(m) == d->p || fmat_prime(m) == 0, "fhom_build_rows: a matrix over F_%u for a map at p = %u",
             (unsigned)fmat_prime(m), (unsigned)d->p);
    walk_t w = {d, t, m, NULL, NULL};
    walk(&w, row0, bound, idx, n, lo, hi);
}

/* A parallel build: chunk k covers rows [k * n / K, (k + 1) * n / K). */
typedef struct {
    const fhom_t *d;
    fmat_t *m;
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
 * Cutoff: at p = 2, below 256 rows a build costs well under a millisecond
 * and the wake-up of other threads would dominate; an odd-prime row costs
 * one product per term of the image (microseconds), so 64 rows pay, in
 * chunks of at least 32 (the odd-prime engine's former split).  Chunks are four
 * per thread so that uneven rows (rows of low-degree generators multiply
 * longer images) still balance.  Set by eye on bench/b-resolve; revisit with the pool.
 */
#define PAR_BUILD_MIN_ROWS 256
#define PAR_BUILD_MIN_ROWS_ODD 64

/* The CPU build of fhom_build_rows_fm (n: the row count when idx is set;
 * otherwise counted here, and only when a pool may split the rows). */
static void build_rows_cpu(const fhom_t *d, fmat_t *m, int64_t row0, int32_t t, int32_t bound,
                           const int64_t *idx, int64_t n, sq_pool_t *pool)
{
    int64_t min_rows = d->p == 2 ? PAR_BUILD_MIN_ROWS : PAR_BUILD_MIN_ROWS_ODD;
    int serial = !pool || sq_pool_size(pool) == 1;
    if (!serial && !idx)
        n = fmod_dim_below(d->src, t, bound);
    if (serial || n < min_rows) {
        build(d, m, row0, t, bound, idx, n, 0, idx ? 0 : INT64_MAX);
        return;
    }
    int64_t chunks = 4 * (int64_t)sq_pool_size(pool);
    if (d->p != 2 && n / chunks < PAR_BUILD_MIN_ROWS_ODD / 2)
        chunks = (n + PAR_BUILD_MIN_ROWS_ODD / 2 - 1) / (PAR_BUILD_MIN_ROWS_ODD / 2);
    par_build_t c = {d, m, row0, n, chunks, t, bound, idx};
    sq_pool_parallel_for(pool, c.chunks, build_chunk, &c);
}

static int gpu_offer(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                     const int64_t *idx, int64_t n, sq_pool_t *pool);

void fhom_build_rows_fm(const fhom_t *d, fmat_t *m, int64_t row0, int32_t t, int32_t bound,
                        const int64_t *idx, int64_t n, sq_pool_t *pool)
{
    SQ_CHECK(!idx || d->p == 2, "fhom_build_rows_fm: row subsets are for p = 2");
    if (SQ_UNLIKELY(sq_gpu_on()) && d->p == 2 && !d->U &&
        gpu_offer(d, &m->f2, row0, t, bound, idx, n, pool) == 0)
        return; /* built on the device (issue 15; see the end of this file) */
    build_rows_cpu(d, m, row0, t, bound, idx, n, pool);
}

void fhom_build_rows(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound)
{
    fmat_t v = fmat_view_f2(m);
    fhom_build_rows_fm(d, &v, row0, t, bound, NULL, 0, NULL);
}

void fhom_build_rows_subset(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                            const int64_t *idx, int64_t n)
{
    fmat_t v = fmat_view_f2(m);
    fhom_build_rows_fm(d, &v, row0, t, bound, idx, n, NULL);
}

void fhom_build_rows_par(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                         const int64_t *idx, int64_t n, sq_pool_t *pool)
{
    fmat_t v = fmat_view_f2(m);
    fhom_build_rows_fm(d, &v, row0, t, bound, idx, n, pool);
}

/* fhom_apply_add_enc on the entries of v at positions [lo, hi) only. */
static void apply_range(const fhom_t *d, void *out, int32_t t, int32_t bound, const void *v,
                        int64_t lo, int64_t hi)
{
    walk_t w = {d, t, NULL, out, v};
    walk(&w, 0, bound, NULL, 0, lo, hi);
}

void fhom_apply_add_enc(const fhom_t *d, void *out, int32_t t, int32_t bound, const void *v)
{
    apply_range(d, out, t, bound, v, 0, INT64_MAX);
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
    SQ_CHECK(d->p == 2, "fhom_apply_add_par: p = 2 only");
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
 * The p = 2 builds (fhom_build_rows_fm at p = 2) offer their matrix to the device (src/gpu) when
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
    if (!d->tgt || d->p != 2)
        return SQ_E_NOGPU;
    const milnor_t *A = d->A2;
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
            fmat_t cv = fmat_view_f2(&c);
            build_rows_cpu(d, &cv, 0, t, bound, idx, n, pool);
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
