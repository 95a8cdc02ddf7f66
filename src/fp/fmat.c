/*
 * fmat.c -- the field handle: vectors and matrices tagged with their prime,
 * each operation one test of p and a call into f2mat.c / fpmat.c
 * (docs/architecture.md).
 *
 * Nothing here computes on entries itself except the small vector helpers
 * (zero, compare, first nonzero, which are one loop of the field's own
 * kind) and fmat_kernel at p = 2, which composes f2mat_init_aug,
 * f2mat_rref_pool and f2mat_aug_kernel exactly as the classical step does.
 */
#include <string.h>

#include "f2_kernels.h"
#include "fmat.h"

int fmat_prime_ok(uint32_t p)
{
    return p == 2 || (p > 2 && fp_prime_ok(p));
}

/* ---- Vectors -------------------------------------------------------------------- */

void fvec_init(fvec_t *v, int64_t len, uint32_t p)
{
    SQ_CHECK(fmat_prime_ok(p), "fvec_init: %u is not a supported prime", (unsigned)p);
    SQ_CHECK(len >= 0, "fvec_init: negative length %lld", (long long)len);
    v->p = p;
    v->len = len;
    if (p == 2)
        v->limbs = sq_calloc((size_t)f2_limbs(len) + 1, sizeof(uint64_t));
    else
        v->bytes = sq_calloc((size_t)len + 1, 1);
}

void fvec_clear(fvec_t *v)
{
    if (v->p == 2)
        sq_free(v->limbs);
    else if (v->p)
        sq_free(v->bytes);
    memset(v, 0, sizeof *v);
}

fvec_t fvec_window(fvec_t v, int64_t start, int64_t len)
{
    SQ_CHECK(start >= 0 && len >= 0 && start + len <= v.len,
             "fvec_window: entries %lld..%lld of a vector of %lld", (long long)start,
             (long long)(start + len), (long long)v.len);
    fvec_t w = v;
    w.len = len;
    if (v.p == 2) {
        SQ_CHECK(start % F2_LIMB_BITS == 0, "fvec_window: start %lld is not on a limb boundary",
                 (long long)start);
        w.limbs = v.limbs + start / F2_LIMB_BITS;
    } else if (v.p) {
        w.bytes = v.bytes + start;
    }
    return w;
}

void fvec_zero(fvec_t v)
{
    if (v.len > 0)
        memset(v.p == 2 ? (void *)v.limbs : (void *)v.bytes, 0, fvec_bytes_for(v.p, v.len));
}

int fvec_is_zero(fvec_t v)
{
    if (v.p == 2)
        return f2_first_bit(v.limbs, v.len) < 0;
    return v.len == 0 || fpvec_is_zero(v.bytes, v.len);
}

int fvec_equal(fvec_t a, fvec_t b)
{
    if (a.p != b.p || a.len != b.len)
        return 0;
    if (a.len == 0)
        return 1;
    if (a.p != 2)
        return memcmp(a.bytes, b.bytes, (size_t)a.len) == 0;
    int64_t full = a.len / F2_LIMB_BITS, rest = a.len % F2_LIMB_BITS;
    if (memcmp(a.limbs, b.limbs, (size_t)full * sizeof(uint64_t)) != 0)
        return 0;
    uint64_t mask = ((uint64_t)1 << rest) - 1;
    return rest == 0 || ((a.limbs[full] ^ b.limbs[full]) & mask) == 0;
}

int64_t fvec_first_nonzero(fvec_t v)
{
    if (v.p == 2)
        return f2_first_bit(v.limbs, v.len);
    return v.len ? fpvec_first_nonzero(v.bytes, v.len) : -1;
}

void fvec_addmul(fvec_t dst, fvec_t src, uint32_t c)
{
    SQ_CHECK(dst.p == src.p && src.len <= dst.len,
             "fvec_addmul: p %u len %lld into p %u len %lld", (unsigned)src.p,
             (long long)src.len, (unsigned)dst.p, (long long)dst.len);
    if (src.len == 0)
        return;
    if (dst.p == 2) {
        if (c & 1)
            f2_xor_raw(dst.limbs, src.limbs, f2_limbs(src.len));
    } else {
        fpvec_addmul(dst.bytes, src.bytes, src.len, c % dst.p, dst.p);
    }
}

void fvec_scale(fvec_t v, uint32_t c)
{
    if (v.len == 0)
        return;
    if (v.p == 2) {
        if (!(c & 1))
            fvec_zero(v);
    } else {
        fpvec_scale(v.bytes, v.len, c % v.p, v.p);
    }
}

/* ---- Matrices ---------------------------------------------------------------------- */

void fmat_init(fmat_t *m, int64_t rows, int64_t cols, uint32_t p)
{
    SQ_CHECK(fmat_prime_ok(p), "fmat_init: %u is not a supported prime", (unsigned)p);
    memset(m, 0, sizeof *m);
    m->p = p;
    if (p == 2)
        f2mat_init(&m->f2, rows, cols);
    else
        fpmat_init(&m->fp, rows, cols, p);
}

void fmat_clear(fmat_t *m)
{
    if (m->p == 2)
        f2mat_clear(&m->f2);
    else if (m->p)
        fpmat_clear(&m->fp);
    memset(m, 0, sizeof *m);
}

void fmat_init_set(fmat_t *m, const fmat_t *src)
{
    memset(m, 0, sizeof *m);
    m->p = src->p;
    if (src->p == 2)
        f2mat_init_set(&m->f2, &src->f2);
    else if (src->p)
        fpmat_init_set(&m->fp, &src->fp);
}

void fmat_swap(fmat_t *a, fmat_t *b)
{
    fmat_t t = *a;
    *a = *b;
    *b = t;
}

void fmat_zero(fmat_t *m)
{
    if (m->p == 2)
        f2mat_zero(&m->f2);
    else if (m->p)
        fpmat_zero(&m->fp);
}

int fmat_equal(const fmat_t *a, const fmat_t *b)
{
    if (a->p != b->p)
        return 0;
    if (a->p == 2)
        return f2mat_equal(&a->f2, &b->f2);
    return a->p == 0 || fpmat_equal(&a->fp, &b->fp);
}

int fmat_is_canonical(const fmat_t *m)
{
    if (m->p == 2)
        return f2mat_is_canonical(&m->f2);
    return m->p == 0 || fpmat_is_canonical(&m->fp);
}

void fmat_randomize(fmat_t *m, sq_rand_t *r)
{
    if (m->p == 2)
        f2mat_randomize(&m->f2, r);
    else if (m->p)
        fpmat_randomize(&m->fp, r, 256);
}

void fmat_mul_naive(fmat_t *c, const fmat_t *a, const fmat_t *b)
{
    SQ_CHECK(a->p == b->p && fmat_prime_ok(a->p), "fmat_mul_naive: primes %u and %u",
             (unsigned)a->p, (unsigned)b->p);
    SQ_CHECK(fmat_cols(a) == fmat_rows(b), "fmat_mul_naive: %lld columns times %lld rows",
             (long long)fmat_cols(a), (long long)fmat_rows(b));
    memset(c, 0, sizeof *c);
    c->p = a->p;
    if (a->p == 2)
        f2mat_mul_naive(&c->f2, &a->f2, &b->f2);
    else
        fpmat_mul_naive(&c->fp, &a->fp, &b->fp);
}

void fmat_vec_mul_add(fvec_t out, fvec_t v, const fmat_t *a)
{
    SQ_CHECK(out.p == a->p && v.p == a->p && v.len == fmat_rows(a) && out.len == fmat_cols(a),
             "fmat_vec_mul_add: (p %u, %lld) * (p %u, %lld x %lld) into (p %u, %lld)",
             (unsigned)v.p, (long long)v.len, (unsigned)a->p, (long long)fmat_rows(a),
             (long long)fmat_cols(a), (unsigned)out.p, (long long)out.len);
    int64_t rows = fmat_rows(a), cols = fmat_cols(a);
    if (cols == 0)
        return;
    if (a->p == 2) {
        int64_t nl = f2_limbs(cols);
        for (int64_t i = 0; i < rows; i++)
            if ((v.limbs[i / F2_LIMB_BITS] >> (i % F2_LIMB_BITS)) & 1)
                f2_xor_raw(out.limbs, f2mat_row(&a->f2, i), nl);
    } else {
        for (int64_t i = 0; i < rows; i++)
            if (v.bytes[i])
                fpvec_addmul(out.bytes, fpmat_row(&a->fp, i), cols, v.bytes[i], a->p);
    }
}

/* ---- Row reduction ----------------------------------------------------------------- */

/* A zeroed struct has no columns: nothing to reduce, rank 0. */
int64_t fmat_rref(fmat_t *m, int64_t *pivots)
{
    if (m->p == 2)
        return f2mat_rref(&m->f2, pivots);
    return m->p ? fpmat_rref(&m->fp, pivots) : 0;
}

int64_t fmat_rref_pool(fmat_t *m, int64_t *pivots, sq_pool_t *pool)
{
    if (m->p == 2)
        return f2mat_rref_pool(&m->f2, pivots, pool);
    return m->p ? fpmat_rref(&m->fp, pivots) : 0;
}

int64_t fmat_rref_naive(fmat_t *m, int64_t *pivots)
{
    if (m->p == 2)
        return f2mat_rref_naive(&m->f2, pivots);
    return m->p ? fpmat_rref_naive(&m->fp, pivots) : 0;
}

int64_t fmat_rank(const fmat_t *m)
{
    if (m->p == 2)
        return f2mat_rank(&m->f2);
    return m->p ? fpmat_rank(&m->fp) : 0;
}

/* ---- Augmented matrices ---------------------------------------------------------------- */

void fmat_init_aug(fmat_t *m, int64_t rows, int64_t a_cols, uint32_t p)
{
    SQ_CHECK(fmat_prime_ok(p), "fmat_init_aug: %u is not a supported prime", (unsigned)p);
    SQ_CHECK(rows >= 0 && a_cols >= 0, "fmat_init_aug: negative dimensions");
    memset(m, 0, sizeof *m);
    m->p = p;
    if (p == 2)
        f2mat_init_aug(&m->f2, rows, a_cols);
    else
        fpmat_init_aug(&m->fp, rows, a_cols, p);
}

int64_t fmat_aug_rank(const fmat_t *m, const int64_t *pivots, int64_t a_cols)
{
    if (m->p == 2)
        return f2mat_aug_rank(&m->f2, pivots, a_cols);
    SQ_CHECK(a_cols <= fmat_cols(m), "fmat_aug_rank: a_cols %lld > cols %lld", (long long)a_cols,
             (long long)fmat_cols(m));
    int64_t r = 0; /* the pivots of the first a_cols columns: no field in it */
    for (int64_t c = 0; c < a_cols; c++)
        r += pivots[c] >= 0;
    return r;
}

void fmat_aug_kernel(fmat_t *ker, const fmat_t *m, const int64_t *pivots, int64_t a_cols)
{
    SQ_CHECK(fmat_prime_ok(m->p), "fmat_aug_kernel: a matrix without a field");
    memset(ker, 0, sizeof *ker);
    ker->p = m->p;
    if (m->p == 2)
        f2mat_aug_kernel(&ker->f2, &m->f2, pivots, a_cols);
    else
        fpmat_aug_kernel(&ker->fp, &m->fp, pivots, a_cols);
}

void fmat_aug_qi_apply(fvec_t out, const fmat_t *m, const int64_t *pivots, int64_t a_cols,
                       fvec_t v)
{
    SQ_CHECK(out.p == m->p && v.p == m->p && fmat_prime_ok(m->p),
             "fmat_aug_qi_apply: primes %u, %u, %u", (unsigned)out.p, (unsigned)m->p,
             (unsigned)v.p);
    SQ_CHECK(v.len >= a_cols && out.len >= fmat_rows(m),
             "fmat_aug_qi_apply: v has %lld entries (needs %lld), out %lld (needs %lld)",
             (long long)v.len, (long long)a_cols, (long long)out.len, (long long)fmat_rows(m));
    if (m->p == 2)
        f2mat_aug_qi_apply(out.limbs, &m->f2, pivots, a_cols, v.limbs);
    else
        fpmat_aug_qi_apply(out.bytes, &m->fp, pivots, a_cols, v.bytes);
}

/* At p = 2 there is no direct kernel: [A | I] is formed as the classical
 * step forms it (f2mat_init_aug, A copied limb by limb), reduced over the
 * pool, and its kernel read off; the pivots are those of the augmented
 * matrix's first a_cols columns, as fpmat_kernel reports them. */
static int64_t kernel_f2(f2mat_t *ker, int64_t *pivots, const f2mat_t *a, sq_pool_t *pool)
{
    f2mat_t m = {0};
    f2mat_init_aug(&m, a->rows, a->cols);
    size_t nb = (size_t)f2_limbs(a->cols) * sizeof(uint64_t);
    for (int64_t i = 0; i < a->rows && nb; i++)
        memcpy(f2mat_row(&m, i), f2mat_row(a, i), nb);
    int64_t *piv = sq_malloc(sq_mul_size((size_t)m.cols + 1, sizeof *piv));
    f2mat_rref_pool(&m, piv, pool);
    int64_t rank = f2mat_aug_rank(&m, piv, a->cols);
    f2mat_aug_kernel(ker, &m, piv, a->cols);
    if (pivots && a->cols)
        memcpy(pivots, piv, sizeof(int64_t) * (size_t)a->cols);
    sq_free(piv);
    f2mat_clear(&m);
    return rank;
}

int64_t fmat_kernel(fmat_t *ker, int64_t *pivots, const fmat_t *a, sq_pool_t *pool)
{
    SQ_CHECK(fmat_prime_ok(a->p), "fmat_kernel: a matrix without a field");
    memset(ker, 0, sizeof *ker);
    ker->p = a->p;
    if (a->p == 2)
        return kernel_f2(&ker->f2, pivots, &a->f2, pool);
    return fpmat_kernel(&ker->fp, pivots, &a->fp);
}

void fmat_init_for_kernel(fmat_t *m, int64_t rows, int64_t a_cols, uint32_t p)
{
    if (p == 2)
        fmat_init_aug(m, rows, a_cols, p);
    else
        fmat_init(m, rows, a_cols, p);
}

int64_t fmat_kernel_built(fmat_t *ker, int64_t *pivots, fmat_t *m, int64_t a_cols,
                          sq_pool_t *pool)
{
    SQ_CHECK(fmat_prime_ok(m->p), "fmat_kernel_built: a matrix without a field");
    memset(ker, 0, sizeof *ker);
    ker->p = m->p;
    if (m->p != 2)
        return fpmat_kernel(&ker->fp, pivots, &m->fp);
    f2mat_rref_pool(&m->f2, pivots, pool);
    f2mat_aug_kernel(&ker->f2, &m->f2, pivots, a_cols);
    return f2mat_aug_rank(&m->f2, pivots, a_cols);
}

/* ---- Extending images ---------------------------------------------------------------------- */

int64_t fmat_extend_to_surjection(int64_t *new_cols, const int64_t *pivots, int64_t start,
                                  int64_t end)
{
    int64_t k = 0;
    for (int64_t c = start; c < end; c++)
        if (pivots[c] < 0)
            new_cols[k++] = c;
    return k;
}

int64_t fmat_extend_image(int64_t *rows_out, const int64_t *image_pivots, const fmat_t *sub)
{
    int64_t k = 0;
    for (int64_t i = 0; i < fmat_rows(sub); i++) {
        int64_t c = fvec_first_nonzero(fmat_row(sub, i));
        if (c >= 0 && image_pivots[c] < 0)
            rows_out[k++] = i;
    }
    return k;
}
