/*
 * t-kernels.c -- every SIMD kernel against kernels_generic.c, on random data
 * with lengths around the vector widths, several strides, sparse index
 * words (u = 0 rows must stay untouched) and every table shape.
 */
#include <string.h>

#include "f2_kernels.h"
#include "sq_test.h"

static void fill(uint64_t *p, int64_t n, sq_rand_t *rng)
{
    for (int64_t i = 0; i < n; i++)
        p[i] = sq_rand_u64(rng);
}

TEST(kernels_dispatch)
{
    const f2_kernels_t *k = f2_kernels();
    ASSERT(k != NULL);
    ASSERT(f2_kernels_generic() != NULL);
    const char *env = getenv("SQ_SIMD");
    if (env && strcmp(env, "generic") == 0)
        ASSERT_STR_EQ(k->name, "generic");
    else if (f2_kernels_avx2())
        ASSERT_STR_EQ(k->name, "avx2");
    printf("     kernels in use: %s\n", k->name);
}

/* The kernel tables to compare with the generic one (the AVX2 one when the
 * CPU has it; otherwise the test compares generic with itself). */
static const f2_kernels_t *other(void)
{
    const f2_kernels_t *a = f2_kernels_avx2();
    return a ? a : f2_kernels_generic();
}

TEST(kernels_xor)
{
    sq_rand_t *rng = sq_test_rand();
    const f2_kernels_t *G = f2_kernels_generic(), *S = other();
    uint64_t src[80], d1[84], d2[84];
    for (int64_t n = 0; n <= 70; n++)
        for (int off = 0; off < 3; off++) {
            fill(src, 80, rng);
            fill(d1, 84, rng);
            memcpy(d2, d1, sizeof d1);
            G->xor_raw(d1 + off, src, n);
            S->xor_raw(d2 + off, src, n);
            ASSERT(memcmp(d1, d2, sizeof d1) == 0);
            /* Limbs outside [off, off + n) are untouched. */
            for (int64_t i = 0; i < n; i++)
                ASSERT((d1[off + i] ^ d2[off + i]) == 0);
        }
    /* The public entry point is the dispatched kernel. */
    fill(src, 80, rng);
    fill(d1, 84, rng);
    memcpy(d2, d1, sizeof d1);
    f2_xor_raw(d1, src, 77);
    G->xor_raw(d2, src, 77);
    ASSERT(memcmp(d1, d2, sizeof d1) == 0);
}

TEST(kernels_table_build)
{
    sq_rand_t *rng = sq_test_rand();
    const f2_kernels_t *G = f2_kernels_generic(), *S = other();
    static const int64_t ws[] = {1, 3, 4, 5, 8, 9, 16, 31, 32, 33};
    for (size_t wi = 0; wi < sizeof ws / sizeof *ws; wi++)
        for (int kk = 0; kk <= 8; kk++) {
            int64_t w = ws[wi], es = (w + 3) & ~(int64_t)3, ps = w + 2;
            uint64_t *prow = sq_malloc(sizeof(uint64_t) * (size_t)(8 * ps));
            uint64_t *t1 = sq_malloc(sizeof(uint64_t) * (size_t)(256 * es));
            uint64_t *t2 = sq_malloc(sizeof(uint64_t) * (size_t)(256 * es));
            fill(prow, 8 * ps, rng);
            fill(t1, 256 * es, rng);
            memcpy(t2, t1, sizeof(uint64_t) * (size_t)(256 * es));
            G->table_build(t1, es, prow, ps, kk, w);
            S->table_build(t2, es, prow, ps, kk, w);
            for (int x = 0; x < (1 << kk); x++) {
                ASSERT(memcmp(t1 + x * es, t2 + x * es, sizeof(uint64_t) * (size_t)w) == 0);
                /* Entry x is the XOR of the rows selected by x. */
                for (int64_t l = 0; l < w; l++) {
                    uint64_t e = 0;
                    for (int j = 0; j < kk; j++)
                        if ((x >> j) & 1)
                            e ^= prow[j * ps + l];
                    ASSERT(t1[x * es + l] == e);
                }
            }
            sq_free(prow);
            sq_free(t1);
            sq_free(t2);
        }
}

TEST(kernels_table_apply)
{
    sq_rand_t *rng = sq_test_rand();
    const f2_kernels_t *G = f2_kernels_generic(), *S = other();
    static const int64_t ws[] = {1, 2, 4, 7, 8, 12, 13, 32, 35};
    for (size_t wi = 0; wi < sizeof ws / sizeof *ws; wi++)
        for (int k = 1; k <= 8; k++) {
            int maxg = 64 / k;
            int groups[] = {1, 2, maxg / 2 > 0 ? maxg / 2 : 1, maxg};
            for (int gi = 0; gi < 4; gi++) {
                int ng = groups[gi];
                int64_t w = ws[wi], es = (w + 3) & ~(int64_t)3, stride = w + (int64_t)(gi % 3);
                int64_t nrows = 1 + (int64_t)sq_rand_below(rng, 40);
                int64_t ntab = ((int64_t)ng << k) * es;
                uint64_t *tab = sq_malloc(sizeof(uint64_t) * (size_t)ntab);
                uint64_t *r1 = sq_malloc(sizeof(uint64_t) * (size_t)(nrows * stride));
                uint64_t *r2 = sq_malloc(sizeof(uint64_t) * (size_t)(nrows * stride));
                uint64_t *u = sq_malloc(sizeof(uint64_t) * (size_t)nrows);
                fill(tab, ntab, rng);
                for (int g = 0; g < ng; g++) /* entry 0 of a group is zero (contract) */
                    memset(tab + ((int64_t)g << k) * es, 0, sizeof(uint64_t) * (size_t)es);
                fill(r1, nrows * stride, rng);
                memcpy(r2, r1, sizeof(uint64_t) * (size_t)(nrows * stride));
                uint64_t umask = ng * k == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (ng * k)) - 1);
                for (int64_t i = 0; i < nrows; i++) {
                    uint64_t x = sq_rand_u64(rng) & umask;
                    switch (sq_rand_below(rng, 4)) {
                    case 0:
                        x = 0;
                        break;
                    case 1:
                        x &= sq_rand_u64(rng) & sq_rand_u64(rng);
                        break;
                    default:
                        break;
                    }
                    u[i] = x;
                }
                G->table_apply(r1, stride, nrows, u, tab, es, k, ng, w);
                S->table_apply(r2, stride, nrows, u, tab, es, k, ng, w);
                ASSERT(memcmp(r1, r2, sizeof(uint64_t) * (size_t)(nrows * stride)) == 0);
                /* Check one row by hand. */
                int64_t i = (int64_t)sq_rand_below(rng, (uint64_t)nrows);
                uint64_t *chk = sq_malloc(sizeof(uint64_t) * (size_t)(nrows * stride));
                fill(chk, nrows * stride, rng);
                memcpy(r1, chk, sizeof(uint64_t) * (size_t)(nrows * stride));
                S->table_apply(r1, stride, nrows, u, tab, es, k, ng, w);
                for (int64_t l = 0; l < stride; l++) {
                    uint64_t e = chk[i * stride + l];
                    if (l < w)
                        for (int g = 0; g < ng; g++) {
                            uint64_t idx = (u[i] >> (g * k)) & (((uint64_t)1 << k) - 1);
                            e ^= tab[(((int64_t)g << k) + (int64_t)idx) * es + l];
                        }
                    ASSERT(r1[i * stride + l] == e);
                }
                sq_free(chk);
                sq_free(tab);
                sq_free(r1);
                sq_free(r2);
                sq_free(u);
            }
        }
}

/* guard_scan4 against its definition: one 8-bit field under a guard bit,
 * so that about a third of the pairs pass in each lane. */
TEST(kernels_guard_scan4)
{
    sq_rand_t *rng = sq_test_rand();
    const f2_kernels_t *ks[2] = {f2_kernels_generic(), other()};
    const uint64_t guard = 0x100;
    uint64_t c[300], dg[300], sg[4];
    uint32_t hits[300];
    for (int64_t n = 0; n <= 300; n += n < 20 ? 1 : 37) {
        for (int i = 0; i < 4; i++)
            sg[i] = guard | sq_rand_below(rng, 256);
        for (int64_t k = 0; k < n; k++) {
            c[k] = sq_rand_below(rng, 256);
            dg[k] = guard | (sq_rand_u64(rng) & sq_rand_u64(rng) & 0xff);
        }
        for (int w = 0; w < 2; w++) {
            int64_t h = ks[w]->guard_scan4(hits, c, dg, n, sg, guard), j = 0;
            for (int64_t k = 0; k < n; k++) {
                uint32_t m = 0;
                for (int i = 0; i < 4; i++)
                    if ((sg[i] & 0xff) >= c[k] && (((sg[i] & 0xff) - c[k]) & dg[k]) == 0)
                        m |= 1u << i;
                if (m) {
                    ASSERT(j < h);
                    ASSERT(hits[j] == (((uint32_t)k << 4) | m));
                    j++;
                }
            }
            ASSERT(j == h);
        }
    }
}

/* popcount_range against a bit-by-bit count, every offset and length
 * across limb edges (and len <= 0: zero). */
TEST(kernels_popcount_range)
{
    sq_rand_t *rng = sq_test_rand();
    const f2_kernels_t *ks[2] = {f2_kernels_generic(), other()};
    uint64_t v[6];
    fill(v, 6, rng);
    v[2] &= sq_rand_u64(rng); /* some sparser limbs */
    for (int64_t off = 0; off < 140; off += off < 70 ? 1 : 7)
        for (int64_t len = -1; off + len <= 6 * 64; len += len < 140 ? 1 : 23) {
            int64_t want = 0;
            for (int64_t b = off; b < off + len; b++)
                want += (int64_t)((v[b >> 6] >> (b & 63)) & 1);
            for (int w = 0; w < 2; w++)
                ASSERT(ks[w]->popcount_range(v, off, len) == want);
        }
}
