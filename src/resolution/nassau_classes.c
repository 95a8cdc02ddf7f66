/*
 * nassau_classes.c -- the basis of a free module in one degree, grouped by
 * the signature of its Milnor parts (see internal.h), and the small bit
 * gathering helpers of Nassau's step.
 */
#include <string.h>

#include "internal.h"
#include "nassau_zblock.h"
#include "sq_core.h"
#include "sq_pool.h"

void nassau_class_init(sigclass_t *c, const resol_profile_t *P, const fmod_t *F, int32_t t,
                          int32_t bound)
{
    const milnor_t *A = fmod_algebra(F);
    c->dim = fmod_dim_below(F, t, bound);
    c->pos = sq_malloc(sq_mul_size((size_t)c->dim + 1, sizeof *c->pos));
    c->start = sq_calloc((size_t)P->nsig + 2, sizeof *c->start);
    uint32_t *ord = sq_malloc(sq_mul_size((size_t)c->dim + 1, sizeof *ord));
    int64_t p = 0;
    int32_t top = fmod_top_below(F, bound);
    for (int32_t e = fmod_min_degree(F); e <= top && e <= t; e++) {
        int64_t nr = milnor_dim(A, t - e);
        for (int64_t i = 0; i < fmod_num_gens(F, e); i++)
            for (int64_t r = 0; r < nr; r++)
                ord[p++] = P->ord ? P->ord[t - e][r] : 0;
    }
    SQ_CHECK(p == c->dim, "sigclass_init: basis size mismatch");
    for (int64_t k = 0; k < c->dim; k++)
        c->start[ord[k] + 1]++;
    for (uint32_t o = 0; o < P->nsig; o++)
        c->start[o + 1] += c->start[o];
    int64_t *fill = sq_malloc(sq_mul_size((size_t)P->nsig + 1, sizeof *fill));
    memcpy(fill, c->start, (size_t)P->nsig * sizeof *fill);
    for (int64_t k = 0; k < c->dim; k++)
        c->pos[fill[ord[k]]++] = k;
    sq_free(fill);
    sq_free(ord);
}

/* Class 0 alone (nassau_zblock.h): the zero-ordinal elements of each
 * A_{t-e} (listed once per profile, P->zr) placed after each generator of
 * degree e. */
void nassau_zero_positions(int64_t **pos, int64_t *n, int64_t *dim, const resol_profile_t *P,
                           const fmod_t *F, int32_t t, int32_t bound)
{
    const milnor_t *A = fmod_algebra(F);
    int32_t top = fmod_top_below(F, bound);
    int64_t cnt = 0;
    for (int32_t e = fmod_min_degree(F); e <= top && e <= t; e++)
        if (fmod_num_gens(F, e) > 0) /* P's tables stop at the algebra's degree */
            cnt += (P->ord ? P->nzr[t - e] : milnor_dim(A, t - e)) * fmod_num_gens(F, e);
    int64_t *out = sq_malloc(sq_mul_size((size_t)cnt + 1, sizeof *out));
    int64_t p = 0, k = 0;
    for (int32_t e = fmod_min_degree(F); e <= top && e <= t; e++) {
        int64_t ng = fmod_num_gens(F, e), nr = milnor_dim(A, t - e);
        if (ng == 0)
            continue;
        if (!P->ord) {
            for (int64_t j = 0; j < ng * nr; j++)
                out[k++] = p + j;
            p += ng * nr;
            continue;
        }
        const uint32_t *zr = P->zr[t - e];
        int64_t z = P->nzr[t - e];
        for (int64_t i = 0; i < ng; i++, p += nr)
            for (int64_t j = 0; j < z; j++)
                out[k++] = p + zr[j];
    }
    SQ_CHECK(k == cnt && p == fmod_dim_below(F, t, bound),
             "nassau_zero_positions: basis size mismatch (%lld, %lld)", (long long)k, (long long)p);
    *pos = out;
    *n = cnt;
    *dim = p;
}

void nassau_class_init_zero(sigclass_t *c, const resol_profile_t *P, const fmod_t *F, int32_t t,
                            int32_t bound)
{
    int64_t n;
    nassau_zero_positions(&c->pos, &n, &c->dim, P, F, t, bound);
    c->start = sq_malloc(sq_mul_size((size_t)P->nsig + 2, sizeof *c->start));
    c->start[0] = 0;
    for (uint32_t o = 1; o <= P->nsig; o++)
        c->start[o] = n;
}

void nassau_class_clear(sigclass_t *c)
{
    sq_free(c->pos);
    sq_free(c->start);
}



/* The signature ordinal of basis position b. */
uint32_t nassau_class_of(const sigclass_t *c, uint32_t nsig, int64_t b)
{
    for (uint32_t o = 0; o < nsig; o++)
        for (int64_t j = c->start[o]; j < c->start[o + 1]; j++)
            if (c->pos[j] == b)
                return o;
    return nsig;
}


/* Rows gathered per chunk: below this many set bits in all a gather stays
 * on its thread (a section's wake-up costs about as much as 10^4 bits). */
#define GATHER_PAR_MIN_BITS (INT64_C(1) << 14)

int32_t *nassau_gather_inverse(const int64_t *cols, int64_t n, int64_t dim)
{
    SQ_CHECK(n <= INT32_MAX, "nassau_gather_inverse: %lld columns", (long long)n);
    int32_t *inv = sq_malloc(sq_mul_size((size_t)dim + 1, sizeof *inv));
    for (int64_t p = 0; p < dim; p++)
        inv[p] = -1;
    for (int64_t j = 0; j < n; j++) {
        SQ_CHECK(cols[j] >= 0 && cols[j] < dim, "nassau_gather_inverse: column %lld of %lld",
                 (long long)cols[j], (long long)dim);
        inv[cols[j]] = (int32_t)j;
    }
    return inv;
}

void nassau_gather_inv(uint64_t *dst, const uint64_t *src, int64_t dim, const int32_t *inv)
{
    int64_t lim = f2_limbs(dim);
    for (int64_t l = 0; l < lim; l++) {
        uint64_t w = src[l];
        if (l == lim - 1 && (dim & 63))
            w &= (UINT64_C(1) << (dim & 63)) - 1;
        const int32_t *il = inv + 64 * l;
        for (; w; w &= w - 1) {
            int32_t j = il[__builtin_ctzll(w)];
            /* Positions outside cols (j < 0) flip nothing: a mask, not a branch. */
            uint32_t u = (uint32_t)(j >= 0 ? j : 0);
            dst[u >> 6] ^= (uint64_t)(j >= 0) << (u & 63);
        }
    }
}

typedef struct {
    f2mat_t *m;
    const f2mat_t *full;
    const int32_t *inv;
    const uint64_t *msk;
    int64_t chunks;
} gather_par_t;

/* nassau_gather_inv with each limb masked first to the gathered columns
 * (msk), so that only their bits are looked up: they are an eighth or
 * less of the columns (zero signature), the other bits most of a row's. */
static void gather_masked(uint64_t *dst, const uint64_t *src, int64_t lim, const int32_t *inv,
                          const uint64_t *msk)
{
    for (int64_t l = 0; l < lim; l++) {
        const int32_t *il = inv + 64 * l;
        for (uint64_t w = src[l] & msk[l]; w; w &= w - 1) {
            uint32_t u = (uint32_t)il[__builtin_ctzll(w)];
            dst[u >> 6] ^= UINT64_C(1) << (u & 63);
        }
    }
}

static void gather_chunk(void *ctx, int64_t k)
{
    const gather_par_t *g = ctx;
    int64_t a = k * g->full->rows / g->chunks, b = (k + 1) * g->full->rows / g->chunks;
    for (int64_t i = a; i < b; i++)
        gather_masked(f2mat_row(g->m, i), f2mat_row(g->full, i), f2_limbs(g->full->cols), g->inv,
                      g->msk);
}

/* Set bits of m, up to cap. */
static int64_t count_bits_upto(const f2mat_t *m, int64_t cap)
{
    int64_t n = 0, lim = f2_limbs(m->cols);
    for (int64_t i = 0; i < m->rows && n < cap; i++)
        for (int64_t l = 0; l < lim; l++)
            n += __builtin_popcountll(f2mat_row(m, i)[l]);
    return n;
}

void nassau_gather_rows(f2mat_t *m, const f2mat_t *full, const int64_t *cols, int64_t ncols,
                        sq_pool_t *pool)
{
    SQ_CHECK(m->rows == full->rows && m->cols >= ncols,
             "nassau_gather_rows: %lld x %lld from %lld rows", (long long)m->rows,
             (long long)m->cols, (long long)full->rows);
    int32_t *inv = nassau_gather_inverse(cols, ncols, full->cols);
    uint64_t *msk = sq_calloc((size_t)f2_limbs(full->cols) + 1, sizeof *msk);
    for (int64_t j = 0; j < ncols; j++)
        msk[cols[j] >> 6] |= UINT64_C(1) << (cols[j] & 63); /* cols[j] < full->cols: checked */
    int64_t chunks = pool ? 4 * (int64_t)sq_pool_size(pool) : 1;
    if (chunks <= 4 || full->rows < chunks ||
        count_bits_upto(full, GATHER_PAR_MIN_BITS) < GATHER_PAR_MIN_BITS)
        chunks = 1;
    gather_par_t g = {m, full, inv, msk, chunks};
    if (chunks == 1)
        gather_chunk(&g, 0);
    else
        sq_pool_parallel_for(pool, chunks, gather_chunk, &g);
    sq_free(msk);
    sq_free(inv);
}

/* A matrix [rows restricted to cols | I] from full rows. */
void nassau_restrict_aug(f2mat_t *m, const f2mat_t *full, const int64_t *cols, int64_t ncols,
                         sq_pool_t *pool)
{
    f2mat_init_aug(m, full->rows, ncols);
    nassau_gather_rows(m, full, cols, ncols, pool);
}

