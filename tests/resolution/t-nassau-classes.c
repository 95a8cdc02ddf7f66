/*
 * t-nassau-classes.c -- the signature classes of Nassau's step
 * (nassau_classes.c) against a slow reference: every basis position's
 * ordinal looked up and the whole basis sorted stably by it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "nassau_zblock.h"
#include "sq_test.h"

/* The reference: the ordinal of every position, then a stable counting
 * sort of the positions by ordinal. */
static void classes_ref(sigclass_t *c, const resol_profile_t *P, const fmod_t *F, int32_t t,
                        int32_t bound)
{
    const milnor_t *A = fmod_algebra(F);
    int64_t dim = fmod_dim_below(F, t, bound), p = 0;
    uint32_t *ord = malloc((size_t)dim * sizeof *ord + 1);
    for (int32_t e = fmod_min_degree(F); e <= fmod_top_below(F, bound) && e <= t; e++)
        for (int64_t i = 0; i < fmod_num_gens(F, e); i++)
            for (int64_t r = 0; r < milnor_dim(A, t - e); r++)
                ord[p++] = P->ord ? P->ord[t - e][r] : 0;
    ASSERT_EQ(p, dim);
    c->dim = dim;
    c->pos = malloc((size_t)dim * sizeof *c->pos + 1);
    c->start = calloc((size_t)P->nsig + 2, sizeof *c->start);
    int64_t k = 0;
    for (uint32_t o = 0; o < P->nsig; o++) {
        c->start[o] = k;
        for (int64_t q = 0; q < dim; q++)
            if (ord[q] == o)
                c->pos[k++] = q;
    }
    c->start[P->nsig] = k;
    ASSERT_EQ(k, dim);
    free(ord);
}

/* Compares nassau_class_init and nassau_class_init_zero with the reference
 * on F in degree t below bound; returns the positions compared. */
static int64_t compare(const resol_profile_t *P, const fmod_t *F, int32_t t, int32_t bound)
{
    sigclass_t ref, got, zero;
    classes_ref(&ref, P, F, t, bound);
    nassau_class_init(&got, P, F, t, bound);
    nassau_class_init_zero(&zero, P, F, t, bound);
    ASSERT_EQ(got.dim, ref.dim);
    ASSERT_EQ(zero.dim, ref.dim);
    for (uint32_t o = 0; o <= P->nsig; o++)
        ASSERT_EQ(got.start[o], ref.start[o]);
    ASSERT(memcmp(got.pos, ref.pos, (size_t)ref.dim * sizeof *ref.pos) == 0);
    ASSERT_EQ(class_size(&zero, 0), class_size(&ref, 0));
    for (uint32_t o = 1; o < P->nsig; o++)
        ASSERT_EQ(class_size(&zero, o), 0);
    ASSERT(memcmp(zero.pos, ref.pos, (size_t)class_size(&ref, 0) * sizeof *ref.pos) == 0);
    int64_t n = ref.dim;
    free(ref.pos);
    free(ref.start);
    nassau_class_clear(&got);
    nassau_class_clear(&zero);
    return n;
}

TEST(nassau_classes_vs_reference)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 12, 60);
    resol_run(R, RESOL_NASSAU);
    ASSERT(R->nprof >= 6); /* [1] .. [3,2,1] at least */
    int64_t checked = 0;
    for (int i = 0; i < R->nprof; i++)
        for (int32_t s = 0; s <= 12; s += 3)
            for (int32_t t = s; t <= s + 60; t += 7) {
                checked += compare(&R->prof[i], R->F[s], t, t);
                checked += compare(&R->prof[i], R->F[s], t, t + 1);
            }
    ASSERT(checked > 100000);
    resol_free(R);
    fdmod_free(M);
}

/* nassau_profile_from (the cache's plan of a row, nassau_zcache.c) against
 * the profile each step takes: the last one usable from its degree on. */
TEST(nassau_profile_from_vs_choice)
{
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, 30, 150);
    resol_nassau_init(R);
    ASSERT(R->nprof >= 8);
    int64_t checked = 0;
    for (int32_t s = 2; s <= 30; s++)
        for (int32_t t = R->t_min; t <= R->t_max; t++) {
            int want = 0;
            for (int i = 1; i < R->nprof; i++)
                if (t >= nassau_profile_from(R, i, s))
                    want = i;
            int32_t h[NASSAU_MAX_LEN];
            int len = resol_nassau_subalgebra(R, s, t, h, NASSAU_MAX_LEN);
            ASSERT_EQ(len, R->prof[want].len);
            ASSERT(memcmp(h, R->prof[want].h, (size_t)len * sizeof *h) == 0);
            checked++;
        }
    ASSERT(checked > 4000);
    resol_free(R);
    fdmod_free(M);
}
