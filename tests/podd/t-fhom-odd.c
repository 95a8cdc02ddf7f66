/*
 * t-fhom-odd.c -- the one walk of fhom.c at odd primes (docs/architecture.md,
 * step 4): the row split over a pool, the algebra's product cache
 * (stalg_set_cache) and apply_add give the same bytes as the serial build
 * without a cache, on the differentials of a resolution of S_3.
 */
#include <string.h>

#include "fhom.h"
#include "podd_util.h"
#include "sq_pool.h"
#include "stalg.h"

/* The matrix of d in degree t (every row), serial or over pool. */
static void build(const fhom_t *d, int32_t t, sq_pool_t *pool, fpmat_t *m)
{
    const fmod_t *F = fhom_source(d);
    fpmat_init(m, fmod_dim_below(F, t, t), fhom_target_dim(d, t), fhom_prime(d));
    fmat_t v = fmat_view_fp(m);
    fhom_build_rows_fm(d, &v, 0, t, t, NULL, 0, pool);
}

/* A copy of d : F -> T whose source is a new free module with the same
 * generators over a handle on F's algebra with its own product cache. */
static fhom_t *copy_over_cached(const fhom_t *d, stalg_t **S, fmod_t **F2)
{
    const fmod_t *F = fhom_source(d);
    *S = stalg_new_pmilnor(stalg_pmilnor(fmod_stalg(F)));
    stalg_set_cache(*S, (size_t)1 << 22);
    ASSERT(stalg_pcache(*S) != NULL);
    *F2 = fmod_new_stalg(*S, fmod_min_degree(F), fmod_max_degree(F));
    for (int32_t e = fmod_min_degree(F); e <= fmod_gens_through(F); e++)
        fmod_set_gens(*F2, e, fmod_num_gens(F, e));
    fhom_t *c = fhom_new_free(*F2, fhom_target(d));
    for (int64_t g = 0; g < fmod_total_gens(F); g++)
        fhom_set_image_enc(c, g, fhom_image_enc(d, g, NULL));
    return c;
}

TEST(fhom_odd_pool_cache_threads)
{
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, 8, 120);
    resol_run(R, RESOL_CLASSICAL);
    sq_pool_t *pool = sq_pool_new(3);
    int64_t rows = 0, most = 0;
    for (int32_t s = 1; s <= 4; s++) {
        const fhom_t *d = resol_differential(R, s);
        stalg_t *S;
        fmod_t *F2;
        fhom_t *c = copy_over_cached(d, &S, &F2);
        for (int32_t t = 20; t <= 120; t += 13) {
            fpmat_t a, b, x;
            build(d, t, NULL, &a);
            build(d, t, pool, &b);
            build(c, t, pool, &x);
            ASSERT(fpmat_equal(&a, &b));
            ASSERT(fpmat_equal(&a, &x));
            rows += a.rows;
            most = a.rows > most ? a.rows : most;
            /* apply_add of v = (1, 2, 0, 1, 2, 0, ...) is the sum v_r row r. */
            int64_t n = a.rows, cols = a.cols;
            uint8_t *v = sq_calloc((size_t)n + 1, 1), *out = sq_calloc((size_t)cols + 1, 1);
            uint8_t *want = sq_calloc((size_t)cols + 1, 1);
            for (int64_t r = 0; r < n; r++) {
                v[r] = (uint8_t)((r + 1) % 3);
                for (int64_t j = 0; j < cols; j++)
                    want[j] = (uint8_t)((want[j] + v[r] * fpmat_row(&a, r)[j]) % 3);
            }
            fhom_apply_add_enc(c, out, t, t, v);
            ASSERT(cols == 0 || memcmp(out, want, (size_t)cols) == 0);
            sq_free(v);
            sq_free(out);
            sq_free(want);
            fpmat_clear(&a);
            fpmat_clear(&b);
            fpmat_clear(&x);
        }
        fhom_free(c);
        fmod_free(F2);
        stalg_free(S);
    }
    ASSERT(rows > 1000);
    ASSERT(most >= 128); /* the pool split ran (from 64 rows) */
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
}
