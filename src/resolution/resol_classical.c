/*
 * resol_classical.c -- the classical step of a minimal resolution.
 *
 * At (s, t): let D be the matrix of d_s on the basis of F_s in degree t
 * spanned by generators of degree < t (rows) into the basis of F_{s-1}
 * spanned by generators of degree < t (columns; by minimality nothing else
 * is reached).  Row reduce [D | I]:
 *   - rows with a pivot in D span the image of d_s in degree t;
 *   - rows with a pivot in I give ker d_s in degree t, kept for (s + 1, t).
 *     (New generators of degree t never lie in the kernel: their images are
 *     independent modulo the image of the old part.)
 * New generators of F_s in degree t: extend_image of ker d_{s-1} (computed
 * at (s - 1, t)) over the image; each chosen kernel row becomes d(g).  For
 * s = 0 the target is M_t and extend_to_surjection adds a generator for
 * each basis element of M_t not hit, in increasing order.
 *
 * Resuming from a store: when (s - 1, t) was loaded rather than run, its
 * kernel was never computed (kernels are not stored); the step (s, t)
 * computes it first (resol_kernel_classical: the kernel-only part of step
 * (s - 1, t), the same matrix and canonical reduction, so the same bits).
 * A step whose successor (s + 1, t) is already published skips its kernel.
 */
#include <string.h>

#include "internal.h"
#include "sq_core.h"

static void add_gens_row0(resol_t *R, int32_t t, const int64_t *pivots, int64_t cols)
{
    int64_t *new_cols = sq_malloc(sq_mul_size((size_t)cols + 1, sizeof *new_cols));
    int64_t k = f2_extend_to_surjection(new_cols, pivots, 0, cols);
    int64_t first = fmod_set_gens(R->F[0], t, k);
    uint64_t *v = sq_calloc((size_t)f2_limbs(cols) + 1, sizeof *v);
    for (int64_t i = 0; i < k; i++) {
        memset(v, 0, (size_t)(f2_limbs(cols) + 1) * sizeof *v);
        v[new_cols[i] >> 6] |= 1ULL << (new_cols[i] & 63);
        fhom_set_image(R->d[0], first + i, v);
    }
    sq_free(v);
    sq_free(new_cols);
}

static void add_gens(resol_t *R, int32_t s, int32_t t, const int64_t *pivots, int64_t cols)
{
    int64_t slot = resol_kslot(R, s - 1, t);
    if (!R->K_set[slot]) {
        SQ_CHECK(resol_step_published(R, s - 1, t),
                 "classical step (%d, %d): kernel of d_%d missing", (int)s, (int)t,
                 (int)(s - 1));
        resol_kernel_classical(R, s - 1, t);
    }
    f2mat_t *K = &R->K[slot];
    SQ_CHECK(K->cols == cols, "classical step (%d, %d): kernel has %lld columns, expected %lld",
             (int)s, (int)t, (long long)K->cols, (long long)cols);
    int64_t *rows = sq_malloc(sq_mul_size((size_t)K->rows + 1, sizeof *rows));
    int64_t k = f2_extend_image(rows, pivots, K);
    int64_t first = fmod_set_gens(R->F[s], t, k);
    for (int64_t i = 0; i < k; i++)
        fhom_set_image(R->d[s], first + i, f2mat_row(K, rows[i]));
    sq_free(rows);
    f2mat_clear(K);
    R->K_set[slot] = 0;
}

void resol_kernel_classical(resol_t *R, int32_t s, int32_t t)
{
    int64_t rows = fmod_dim_below(R->F[s], t, t);
    int64_t cols = fhom_target_dim(R->d[s], t);
    f2mat_t m = {0};
    f2mat_init_aug(&m, rows, cols);
    fhom_build_rows_par(R->d[s], &m, 0, t, t, NULL, 0, R->pool);
    int64_t *pivots = sq_malloc(sq_mul_size((size_t)m.cols + 1, sizeof *pivots));
    f2mat_rref_pool(&m, pivots, R->pool);
    int64_t slot = resol_kslot(R, s, t);
    f2mat_aug_kernel(&R->K[slot], &m, pivots, cols);
    R->K_set[slot] = 1;
    sq_free(pivots);
    f2mat_clear(&m);
}

void resol_step_classical(resol_t *R, int32_t s, int32_t t)
{
    int kernel_only = t - s == R->max_n + 1;
    /* Nassau's rows s >= 2 compute their own cycles: only row 0 feeds row 1.
     * (s + 1, t) cannot run before this step, so it is published only if it
     * was loaded from a store, and then needs no kernel. */
    int need_kernel = s < R->max_s && (R->algo == RESOL_CLASSICAL || s == 0) &&
                      !resol_step_published(R, s + 1, t);
    int64_t rows = fmod_dim_below(R->F[s], t, t);
    int64_t cols = fhom_target_dim(R->d[s], t);
    f2mat_t m = {0};
    if (need_kernel)
        f2mat_init_aug(&m, rows, cols);
    else
        f2mat_init(&m, rows, cols);
    fhom_build_rows_par(R->d[s], &m, 0, t, t, NULL, 0, R->pool);
    int64_t *pivots = sq_malloc(sq_mul_size((size_t)m.cols + 1, sizeof *pivots));
    f2mat_rref_pool(&m, pivots, R->pool);
    if (need_kernel) {
        int64_t slot = resol_kslot(R, s, t);
        f2mat_aug_kernel(&R->K[slot], &m, pivots, cols);
        R->K_set[slot] = 1;
    }
    if (!kernel_only) {
        if (s == 0)
            add_gens_row0(R, t, pivots, cols);
        else
            add_gens(R, s, t, pivots, cols);
    }
    sq_free(pivots);
    f2mat_clear(&m);
}
