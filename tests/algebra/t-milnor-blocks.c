/*
 * t-milnor-blocks.c -- milnor_ws_mul_blocks_add (the S's of several blocks
 * four at a time, each lane with its block's offset) against the slow
 * reference: every set bit of every block multiplied alone by
 * milnor_mul_add (one Milnor matrix walk per product).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "milnor.h"
#include "sq_test.h"

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

TEST(milnor_ws_blocks_vs_walk)
{
    const int32_t maxd = 120;
    milnor_t *A = milnor_new(maxd);
    milnor_ws_t *W = milnor_ws_new();
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int64_t products = 0;
    for (int round = 0; round < 1000; round++) {
        int32_t rdeg = (int32_t)(rnd(&seed) % 40), top = (int32_t)(rnd(&seed) % 50) + 1;
        int64_t ridx = (int64_t)(rnd(&seed) % (uint64_t)milnor_dim(A, rdeg));
        /* One to six blocks of degrees <= top at increasing offsets, each
         * with room for its product's degree. */
        int64_t nb = (int64_t)(rnd(&seed) % 6) + 1, limbs = 0, off = 0, nbits = 0;
        milnor_block_t blk[6];
        uint64_t *bits = calloc(4096, sizeof *bits);
        int32_t maxdeg = 0;
        for (int64_t b = 0; b < nb; b++) {
            int32_t d = (int32_t)(rnd(&seed) % (uint64_t)(top + 1));
            int64_t dim = milnor_dim(A, d), l = (dim + 63) / 64;
            ASSERT(limbs + l <= 4096);
            blk[b] = (milnor_block_t){off, d, limbs};
            for (int64_t k = 0; k < dim; k++)
                if (rnd(&seed) % 3 == 0) {
                    bits[limbs + k / 64] |= UINT64_C(1) << (k % 64);
                    nbits++;
                }
            limbs += l;
            off += milnor_dim(A, rdeg + d) + (int64_t)(rnd(&seed) % 70);
            maxdeg = d > maxdeg ? d : maxdeg;
        }
        int64_t olimbs = (off + 63) / 64 + 1;
        uint64_t *got = calloc((size_t)olimbs, sizeof *got), *want = calloc((size_t)olimbs, 8);
        milnor_op_t op;
        milnor_op_init(&op, A, rdeg, ridx);
        milnor_ws_prepare(W, &op, maxdeg, nbits);
        milnor_ws_mul_blocks_add(W, got, blk, nb, bits);
        for (int64_t b = 0; b < nb; b++)
            for (int64_t k = 0; k < milnor_dim(A, blk[b].deg); k++)
                if ((bits[blk[b].limb0 + k / 64] >> (k % 64)) & 1) {
                    milnor_mul_add(A, want, blk[b].off, rdeg, ridx, blk[b].deg, k);
                    products++;
                }
        ASSERT(memcmp(got, want, (size_t)olimbs * sizeof *got) == 0);
        free(got);
        free(want);
        free(bits);
    }
    ASSERT(products > 5000);
    milnor_ws_free(W);
    milnor_free(A);
}

/* milnor_ws_mul_bitblocks_add: blocks read in place at any bit offset of
 * one array with noise bits between them (which must not be read), some
 * cut short (len < dim: the bits past len are not part of the vector),
 * degree-0 blocks (no packed table: walked), and empty blocks of a degree
 * above the prepared bound (skipped, as a caller skips zero blocks); the
 * same slow reference. */
TEST(milnor_ws_bitblocks_vs_walk)
{
    const int32_t maxd = 120;
    milnor_t *A = milnor_new(maxd);
    milnor_ws_t *W = milnor_ws_new();
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    int64_t products = 0, scanned = 0;
    for (int round = 0; round < 1000; round++) {
        int32_t rdeg = (int32_t)(rnd(&seed) % 40), top = (int32_t)(rnd(&seed) % 50) + 1;
        int64_t ridx = (int64_t)(rnd(&seed) % (uint64_t)milnor_dim(A, rdeg));
        int64_t nb = (int64_t)(rnd(&seed) % 7) + 1, bit = 0, off = 0, nbits = 0;
        milnor_bitblock_t blk[8];
        uint64_t *bits = calloc(4096, sizeof *bits);
        int32_t maxdeg = 0;
        for (int64_t b = 0; b < nb; b++) {
            int32_t d = (int32_t)(rnd(&seed) % (uint64_t)(top + 1));
            if (rnd(&seed) % 8 == 0)
                d = 0;
            int64_t dim = milnor_dim(A, d), len = dim;
            if (rnd(&seed) % 5 == 0)
                len = (int64_t)(rnd(&seed) % (uint64_t)(dim + 1));
            int64_t gap = (int64_t)(rnd(&seed) % 130);
            for (int64_t k = 0; k < gap; k++) /* noise outside every block */
                if (rnd(&seed) % 2)
                    bits[(bit + k) / 64] |= UINT64_C(1) << ((bit + k) % 64);
            bit += gap;
            ASSERT(bit + dim <= 4096 * 64);
            blk[b] = (milnor_bitblock_t){off, d, bit, len};
            for (int64_t k = 0; k < dim; k++)
                if (rnd(&seed) % 3 == 0) {
                    bits[(bit + k) / 64] |= UINT64_C(1) << ((bit + k) % 64);
                    nbits += k < len;
                }
            bit += len; /* the bits past len are the next gap's noise */
            off += milnor_dim(A, rdeg + d) + (int64_t)(rnd(&seed) % 70);
            maxdeg = d > maxdeg ? d : maxdeg;
        }
        /* an empty block of a degree above the bound, at the end */
        int64_t nall = nb;
        if (maxdeg + 1 + rdeg <= maxd && rnd(&seed) % 4 == 0) {
            int64_t dim = milnor_dim(A, maxdeg + 1);
            for (int64_t k = 0; k < dim; k++)
                bits[(bit + k) / 64] &= ~(UINT64_C(1) << ((bit + k) % 64));
            blk[nall++] = (milnor_bitblock_t){off, maxdeg + 1, bit, dim};
        }
        int64_t olimbs = (off + 63) / 64 + 1;
        uint64_t *got = calloc((size_t)olimbs, sizeof *got), *want = calloc((size_t)olimbs, 8);
        milnor_op_t op;
        milnor_op_init(&op, A, rdeg, ridx);
        milnor_ws_prepare(W, &op, maxdeg, nbits);
        if (milnor_ws_scans(W)) {
            milnor_ws_mul_bitblocks_add(W, got, blk, nall, bits);
            scanned++;
            for (int64_t b = 0; b < nb; b++)
                for (int64_t k = 0; k < blk[b].len; k++) {
                    int64_t at = blk[b].bit0 + k;
                    if ((bits[at / 64] >> (at % 64)) & 1) {
                        milnor_mul_add(A, want, blk[b].off, rdeg, ridx, blk[b].deg, k);
                        products++;
                    }
                }
        }
        ASSERT(memcmp(got, want, (size_t)olimbs * sizeof *got) == 0);
        free(got);
        free(want);
        free(bits);
    }
    printf("     %lld of 1000 rounds scanned, %lld products\n", (long long)scanned,
           (long long)products);
    ASSERT(scanned > 300);
    ASSERT(products > 5000);
    milnor_ws_free(W);
    milnor_free(A);
}

/* The packed p-parts' unpacking (milnor_op_init builds the table of R's
 * degree; milnor_get then reads it): every element of degrees 0..200, with
 * and without its degree's table, round-trips through milnor_index (the
 * coin-change ranking, independent of the tables), has the degree asked,
 * no trailing zero, and the same p-part both ways. */
TEST(milnor_packed_unpack_roundtrip)
{
    const int32_t maxd = 200;
    milnor_t *A = milnor_new(maxd);
    int64_t checked = 0;
    for (int32_t d = 0; d <= maxd; d++) {
        int64_t dim = milnor_dim(A, d);
        int32_t before[MILNOR_MAX_LEN];
        int lb = milnor_get(A, d, dim - 1, before, MILNOR_MAX_LEN); /* no table yet */
        milnor_op_t op;
        milnor_op_init(&op, A, d, dim - 1); /* builds degree d's table */
        ASSERT(op.len == lb);
        for (int i = 0; i < lb; i++)
            ASSERT(op.r[i + 1] == before[i]);
        for (int64_t k = 0; k < dim; k++) {
            int32_t r[MILNOR_MAX_LEN];
            int len = milnor_get(A, d, k, r, MILNOR_MAX_LEN);
            ASSERT(len == 0 || r[len - 1] != 0);
            ASSERT(milnor_pdegree(r, len) == d);
            ASSERT(milnor_index(A, r, len) == k);
            checked++;
        }
    }
    ASSERT(checked > 100000);
    milnor_free(A);
}

/* The scans' ranking (int32 rows of fixed stride, degrees up to 511)
 * against the walk's (milnor_mul_add, the coin-change table of
 * internal.h), products landing in degrees 480-511 of an algebra of degree
 * 511, where the ranking reads the top of its rows. */
TEST(milnor_scan_rank_top_degrees)
{
    milnor_t *A = milnor_new(511);
    uint64_t seed = 0x6a09e667f3bcc909ULL;
    for (int round = 0; round < 12; round++) {
        int32_t rdeg = 200 + (int32_t)(rnd(&seed) % 150);
        int32_t sdeg = 511 - rdeg - (int32_t)(rnd(&seed) % 32);
        int64_t ridx = (int64_t)(rnd(&seed) % (uint64_t)milnor_dim(A, rdeg));
        int64_t sdim = milnor_dim(A, sdeg), tdim = milnor_dim(A, rdeg + sdeg);
        uint64_t *v = calloc((size_t)(sdim + 63) / 64, 8);
        for (int b = 0; b < 12; b++) {
            int64_t k = (int64_t)(rnd(&seed) % (uint64_t)sdim);
            v[k / 64] |= UINT64_C(1) << (k % 64);
        }
        uint64_t *got = calloc((size_t)(tdim + 63) / 64, 8), *want = calloc((size_t)(tdim + 63) / 64, 8);
        milnor_mul_vec_add(A, got, 0, rdeg, ridx, sdeg, v);
        for (int64_t k = 0; k < sdim; k++)
            if ((v[k / 64] >> (k % 64)) & 1)
                milnor_mul_add(A, want, 0, rdeg, ridx, sdeg, k);
        ASSERT(memcmp(got, want, (size_t)((tdim + 63) / 64) * 8) == 0);
        free(v);
        free(got);
        free(want);
    }
    milnor_free(A);
}
