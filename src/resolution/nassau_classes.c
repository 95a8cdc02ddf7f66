/*
 * nassau_classes.c -- the basis of a free module in one degree, grouped by
 * the signature of its Milnor parts (see internal.h), and the small bit
 * gathering helpers of Nassau's step.
 */
#include <string.h>

#include "internal.h"
#include "sq_core.h"

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


/* dst bit j = src bit cols[j], j < n (dst zeroed beforehand). */
void nassau_gather(uint64_t *dst, const uint64_t *src, const int64_t *cols, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        if (bit(src, cols[j]))
            dst[j >> 6] |= 1ULL << (j & 63);
}

/* A matrix [rows restricted to cols | I] from full rows. */
void nassau_restrict_aug(f2mat_t *m, const f2mat_t *full, const int64_t *cols, int64_t ncols)
{
    f2mat_init_aug(m, full->rows, ncols);
    for (int64_t i = 0; i < full->rows; i++)
        nassau_gather(f2mat_row(m, i), f2mat_row(full, i), cols, ncols);
}

