/*
 * presol.c -- the odd-prime resolution object, the classical step, the
 * serial driver and the queries (see presol.h).  The parallel driver is
 * presol_sched.c.
 *
 * The step at (s, t), as resol_classical.c at p = 2: let D be the matrix of
 * d_s on the basis of F_s in degree t spanned by generators of degree < t
 * (rows) into the basis of F_{s-1} spanned by generators of degree < t
 * (columns; by minimality nothing else is reached).  Row reduce [D | I]:
 *   - rows with a pivot in D span the image of d_s in degree t;
 *   - rows with a pivot in I give ker d_s in degree t, kept for (s + 1, t)
 *     (new generators of degree t never lie in the kernel).
 * New generators of F_s in degree t: extend_image of ker d_{s-1} (from
 * (s - 1, t)) over the image; each chosen kernel row becomes d(g).  For
 * s = 0 the target is M_t and extend_to_surjection adds a generator for
 * each basis element of M_t not hit, in increasing order.
 */
#include "presol.h"

#include <stdio.h>
#include <string.h>

#include "presol_internal.h"

int64_t presol_algebra_degree(int32_t bottom, int32_t top, int32_t max_n)
{
    int64_t need = (int64_t)max_n + 2 - bottom;
    if ((int64_t)top - bottom > need)
        need = (int64_t)top - bottom;
    return need > 1 ? need : 1;
}

int presol_check_range(const pfdmod_t *M, int32_t max_s, int32_t max_n, char *err, size_t errlen)
{
    int32_t bottom = pfdmod_bottom(M), top = pfdmod_top(M);
    if (top < bottom) {
        snprintf(err, errlen, "module %s is zero", pfdmod_name(M));
        return SQ_E_RANGE;
    }
    if (max_s < 0) {
        snprintf(err, errlen, "filtration %d is negative", (int)max_s);
        return SQ_E_RANGE;
    }
    if (max_n < bottom) {
        snprintf(err, errlen, "stem %d is below the bottom degree %d of %s", (int)max_n,
                 (int)bottom, pfdmod_name(M));
        return SQ_E_RANGE;
    }
    if ((int64_t)max_s + max_n + 1 > PRESOL_MAX_T) {
        snprintf(err, errlen,
                 "stem %d with filtration %d reaches internal degree %lld, beyond the supported "
                 "%d",
                 (int)max_n, (int)max_s, (long long)max_s + max_n + 1, PRESOL_MAX_T);
        return SQ_E_RANGE;
    }
    int64_t need = presol_algebra_degree(bottom, top, max_n);
    if (need > PMILNOR_MAX_DEGREE) {
        snprintf(err, errlen,
                 "stem %d needs Steenrod algebra degree %lld, beyond the supported %d",
                 (int)max_n, (long long)need, PMILNOR_MAX_DEGREE);
        return SQ_E_RANGE;
    }
    int64_t size = pmilnor_size(pfdmod_prime(M), (int32_t)need, pfdmod_profile(M));
    if (size > PMILNOR_MAX_ELEMENTS) {
        snprintf(err, errlen,
                 "stem %d needs the Steenrod algebra at p = %u through degree %lld: %lld basis "
                 "elements, beyond the supported %lld",
                 (int)max_n, (unsigned)pfdmod_prime(M), (long long)need, (long long)size,
                 (long long)PMILNOR_MAX_ELEMENTS);
        return SQ_E_RANGE;
    }
    return 0;
}

presol_t *presol_new(const pfdmod_t *M, int32_t max_s, int32_t max_n)
{
    char err[256];
    SQ_CHECK(presol_check_range(M, max_s, max_n, err, sizeof err) == 0, "presol_new: %s", err);
    presol_t *R = sq_calloc(1, sizeof *R);
    R->M = M;
    R->p = pfdmod_prime(M);
    R->max_s = max_s;
    R->max_n = max_n;
    R->min_n = pfdmod_bottom(M);
    R->t_min = R->min_n;
    R->t_max = max_s + max_n + 1;
    int32_t adeg = (int32_t)presol_algebra_degree(R->min_n, pfdmod_top(M), max_n);
    R->A = pmilnor_new(R->p, adeg, pfdmod_profile(M));
    R->cache = pmilnor_cache_new(R->A, PRESOL_CACHE_BYTES);
    R->F = sq_calloc((size_t)max_s + 1, sizeof *R->F);
    R->d = sq_calloc((size_t)max_s + 1, sizeof *R->d);
    for (int32_t s = 0; s <= max_s; s++) {
        R->F[s] = pfmod_new(R->A, R->t_min, R->t_max);
        R->d[s] = s == 0 ? pfhom_new_fd(R->F[0], M) : pfhom_new_free(R->F[s], R->F[s - 1]);
        pfhom_set_cache(R->d[s], R->cache);
    }
    size_t nslots = sq_mul_size((size_t)max_s + 1, (size_t)(R->t_max - R->t_min + 1));
    R->K = sq_calloc(nslots, sizeof *R->K);
    R->K_set = sq_calloc(nslots, 1);
    return R;
}

void presol_free(presol_t *R)
{
    if (!R)
        return;
    size_t nslots = (size_t)(R->max_s + 1) * (size_t)(R->t_max - R->t_min + 1);
    for (size_t i = 0; i < nslots; i++)
        fpmat_clear(&R->K[i]);
    sq_free(R->K);
    sq_free(R->K_set);
    for (int32_t s = 0; s <= R->max_s; s++) {
        pfhom_free(R->d[s]);
        pfmod_free(R->F[s]);
    }
    sq_free(R->F);
    sq_free(R->d);
    pmilnor_cache_free(R->cache);
    pmilnor_free(R->A);
    sq_free(R);
}

uint32_t presol_prime(const presol_t *R)
{
    return R->p;
}

int32_t presol_max_s(const presol_t *R)
{
    return R->max_s;
}

int32_t presol_max_n(const presol_t *R)
{
    return R->max_n;
}

int32_t presol_min_n(const presol_t *R)
{
    return R->min_n;
}

const pmilnor_t *presol_algebra(const presol_t *R)
{
    return R->A;
}

const pfdmod_t *presol_input(const presol_t *R)
{
    return R->M;
}

const pfmod_t *presol_free_module(const presol_t *R, int32_t s)
{
    SQ_CHECK(s >= 0 && s <= R->max_s, "presol_free_module: s = %d out of range", (int)s);
    return R->F[s];
}

const pfhom_t *presol_differential(const presol_t *R, int32_t s)
{
    SQ_CHECK(s >= 0 && s <= R->max_s, "presol_differential: s = %d out of range", (int)s);
    return R->d[s];
}

int presol_is_step(const presol_t *R, int32_t s, int32_t t)
{
    int32_t n = t - s;
    if (s < 0 || s > R->max_s || t < R->t_min || t > R->t_max)
        return 0;
    if (n < R->min_n || n > R->max_n + 1)
        return 0;
    if (n == R->max_n + 1 && s == R->max_s)
        return 0;
    return 1;
}

static void add_gens_row0(presol_t *R, int32_t t, const int64_t *pivots, int64_t cols)
{
    int64_t *new_cols = sq_malloc(sq_mul_size((size_t)cols + 1, sizeof *new_cols));
    int64_t k = fp_extend_to_surjection(new_cols, pivots, 0, cols);
    int64_t first = pfmod_set_gens(R->F[0], t, k);
    uint8_t *v = sq_calloc((size_t)cols + 1, 1);
    for (int64_t i = 0; i < k; i++) {
        memset(v, 0, (size_t)cols + 1);
        v[new_cols[i]] = 1;
        pfhom_set_image(R->d[0], first + i, v);
    }
    sq_free(v);
    sq_free(new_cols);
}

static void add_gens(presol_t *R, int32_t s, int32_t t, const int64_t *pivots, int64_t cols)
{
    int64_t slot = presol_kslot(R, s - 1, t);
    SQ_CHECK(R->K_set[slot], "presol step (%d, %d): kernel of d_%d missing", (int)s, (int)t,
             (int)(s - 1));
    fpmat_t *K = &R->K[slot];
    SQ_CHECK(K->cols == cols, "presol step (%d, %d): kernel has %lld columns, expected %lld",
             (int)s, (int)t, (long long)K->cols, (long long)cols);
    int64_t *rows = sq_malloc(sq_mul_size((size_t)K->rows + 1, sizeof *rows));
    int64_t k = fp_extend_image(rows, pivots, K);
    int64_t first = pfmod_set_gens(R->F[s], t, k);
    for (int64_t i = 0; i < k; i++)
        pfhom_set_image(R->d[s], first + i, fpmat_row(K, rows[i]));
    sq_free(rows);
    fpmat_clear(K);
    R->K_set[slot] = 0;
}

void presol_step(presol_t *R, int32_t s, int32_t t)
{
    int kernel_only = t - s == R->max_n + 1;
    int need_kernel = s < R->max_s;
    int64_t rows = pfmod_dim_below(R->F[s], t, t);
    int64_t cols = pfhom_target_dim(R->d[s], t);
    fpmat_t m = {0};
    fpmat_init(&m, rows, cols, R->p);
    presol_build_rows(R, s, &m, t);
    int64_t *pivots = sq_malloc(sq_mul_size((size_t)cols + 1, sizeof *pivots));
    for (int64_t c = 0; c < cols; c++)
        pivots[c] = -1;
    if (need_kernel) {
        int64_t slot = presol_kslot(R, s, t);
        fpmat_kernel(&R->K[slot], pivots, &m);
        R->K_set[slot] = 1;
    } else if (m.data) {
        fpmat_rref(&m, pivots);
    }
    if (!kernel_only) {
        if (s == 0)
            add_gens_row0(R, t, pivots, cols);
        else
            add_gens(R, s, t, pivots, cols);
    }
    sq_free(pivots);
    fpmat_clear(&m);
}

int64_t presol_ext_dim(const presol_t *R, int32_t s, int32_t n)
{
    if (s < 0 || s > R->max_s || n < R->min_n || n > R->max_n)
        return -1;
    int32_t t = s + n;
    if (t > pfmod_gens_through(R->F[s]))
        return -1;
    return pfmod_num_gens(R->F[s], t);
}

int presol_verify(const presol_t *R, char *err, size_t errlen)
{
    /* d_{s-1} d_s (g) = 0: apply d_{s-1} to d_s(g), a vector over F_{s-1} in
     * degree e = deg g spanned by generators below e. */
    for (int32_t s = 1; s <= R->max_s; s++) {
        int32_t through = pfmod_gens_through(R->F[s]);
        for (int32_t e = R->t_min; e <= through; e++)
            for (int64_t i = 0; i < pfmod_num_gens(R->F[s], e); i++) {
                int64_t g = pfmod_gen_global(R->F[s], e, i);
                const uint8_t *img = pfhom_image(R->d[s], g, NULL);
                int64_t n = pfhom_target_dim(R->d[s - 1], e);
                uint8_t *out = sq_calloc((size_t)n + 1, 1);
                pfhom_apply_add(R->d[s - 1], out, e, e, img);
                int bad = !fpvec_is_zero(out, n);
                sq_free(out);
                if (bad) {
                    snprintf(err, errlen, "d_%d d_%d is not zero on x_(%d, %d, %lld)",
                             (int)(s - 1), (int)s, (int)(e - s), (int)s, (long long)i);
                    return SQ_E_INVAL;
                }
            }
    }
    /* The augmentation is onto: F_0 -> M_t has rank dim M_t. */
    int32_t through = pfmod_gens_through(R->F[0]);
    for (int32_t t = R->t_min; t <= through && t <= pfdmod_top(R->M); t++) {
        int64_t rows = pfmod_dim(R->F[0], t), cols = pfdmod_dim(R->M, t);
        if (!cols)
            continue;
        fpmat_t m = {0};
        fpmat_init(&m, rows, cols, R->p);
        pfhom_build_rows(R->d[0], &m, 0, t, t + 1);
        int64_t rank = m.data ? fpmat_rref(&m, NULL) : 0;
        fpmat_clear(&m);
        if (rank != cols) {
            snprintf(err, errlen, "the augmentation misses M in degree %d (rank %lld of %lld)",
                     (int)t, (long long)rank, (long long)cols);
            return SQ_E_INVAL;
        }
    }
    return 0;
}
