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
 *
 * Every prime: the matrices are fmat_t and the builds the one fhom walk;
 * each matrix operation tests p once (fmat.c).  At p = 2 the kernel is
 * built into [D | I] and reduced by f2mat_rref_pool (today's M4RI path);
 * at odd p fpmat_kernel (bitsliced at p = 3) gives the same canonical
 * kernel and pivots (fmat_kernel_built).
 */
#include <string.h>

#include "internal.h"
#include "sq_core.h"

static void add_gens_row0(resol_t *R, int32_t t, const int64_t *pivots, int64_t cols)
{
    int64_t *new_cols = sq_malloc(sq_mul_size((size_t)cols + 1, sizeof *new_cols));
    int64_t k = fmat_extend_to_surjection(new_cols, pivots, 0, cols);
    int64_t first = fmod_set_gens(R->F[0], t, k);
    fvec_t v;
    fvec_init(&v, cols, R->p);
    for (int64_t i = 0; i < k; i++) {
        fvec_zero(v);
        fvec_set(v, new_cols[i], 1);
        fhom_set_image_enc(R->d[0], first + i, v.bytes);
    }
    fvec_clear(&v);
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
    fmat_t *K = &R->K[slot];
    SQ_CHECK(fmat_cols(K) == cols,
             "classical step (%d, %d): kernel has %lld columns, expected %lld", (int)s, (int)t,
             (long long)fmat_cols(K), (long long)cols);
    int64_t *rows = sq_malloc(sq_mul_size((size_t)fmat_rows(K) + 1, sizeof *rows));
    int64_t k = fmat_extend_image(rows, pivots, K);
    int64_t first = fmod_set_gens(R->F[s], t, k);
    for (int64_t i = 0; i < k; i++)
        fhom_set_image_enc(R->d[s], first + i, fmat_row(K, rows[i]).bytes);
    sq_free(rows);
    fmat_clear(K);
    R->K_set[slot] = 0;
}

/* Builds the matrix of d_s in degree t (rows: F_s below t; cols columns)
 * and reduces it: with need_kernel, its kernel into the slot of (s, t).
 * Returns the pivots (fmat_seg_start(p, cols) + rows + 1 entries; the image
 * pivots are the first cols), which the caller frees. */
static int64_t *reduce(resol_t *R, int32_t s, int32_t t, int64_t rows, int64_t cols,
                       int need_kernel)
{
    int64_t n = fmat_seg_start(R->p, cols) + rows + 1;
    int64_t *pivots = sq_malloc(sq_mul_size((size_t)n, sizeof *pivots));
    for (int64_t c = 0; c < cols; c++)
        pivots[c] = -1;
    fmat_t m = {0};
    if (need_kernel)
        fmat_init_for_kernel(&m, rows, cols, R->p);
    else
        fmat_init(&m, rows, cols, R->p);
    fhom_build_rows_fm(R->d[s], &m, 0, t, t, NULL, 0, R->pool);
    if (need_kernel) {
        int64_t slot = resol_kslot(R, s, t);
        fmat_kernel_built(&R->K[slot], pivots, &m, cols, R->pool);
        R->K_set[slot] = 1;
    } else {
        fmat_rref_pool(&m, pivots, R->pool);
    }
    fmat_clear(&m);
    return pivots;
}

void resol_kernel_classical(resol_t *R, int32_t s, int32_t t)
{
    int64_t rows = fmod_dim_below(R->F[s], t, t);
    int64_t cols = fhom_target_dim(R->d[s], t);
    sq_free(reduce(R, s, t, rows, cols, 1));
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
    int64_t *pivots = reduce(R, s, t, rows, cols, need_kernel);
    if (!kernel_only) {
        if (s == 0)
            add_gens_row0(R, t, pivots, cols);
        else
            add_gens(R, s, t, pivots, cols);
    }
    sq_free(pivots);
}
