/*
 * podd_util.h -- helpers shared by the odd-prime tests: the reference
 * table, filtration-one products read off a resolution, ranks, the
 * indecomposables of an algebra, a module's actions given as residues, and
 * the check d o d = 0 of a resolution.
 */
#ifndef PODD_UTIL_H
#define PODD_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmod.h"
#include "fpmat.h"
#include "resol.h"
#include "sq_test.h"
#include "stalg.h"

/* The peer's modules (exit 77 from a test when the folder is absent). */
#define PODD_PEER SQ_TEST_DATA_DIR "/../../../shared/data/peer-modules"

/* A table of dims[n][s] read from "n,s,dim" lines (comments '#' skipped);
 * -1 where absent. */
typedef struct {
    int32_t max_n, max_s;
    int64_t *d;
} podd_table_t;

static inline int64_t podd_table_get(const podd_table_t *T, int32_t n, int32_t s)
{
    if (n < 0 || n > T->max_n || s < 0 || s > T->max_s)
        return -1;
    return T->d[(int64_t)n * (T->max_s + 1) + s];
}

static inline void podd_table_load(podd_table_t *T, const char *file, int32_t max_n,
                                   int32_t max_s)
{
    T->max_n = max_n;
    T->max_s = max_s;
    T->d = sq_malloc(sizeof(int64_t) * (size_t)(max_n + 1) * (size_t)(max_s + 1));
    for (int64_t i = 0; i < (int64_t)(max_n + 1) * (max_s + 1); i++)
        T->d[i] = -1;
    char *text = sq_test_slurp(sq_test_data_path(file));
    ASSERT(text[0] != 0);
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        int n, s;
        long long dim;
        if (line[0] != '#' && sscanf(line, "%d,%d,%lld", &n, &s, &dim) == 3 && n <= max_n &&
            s <= max_s && n >= 0 && s >= 0)
            T->d[(int64_t)n * (max_s + 1) + s] = dim;
        if (!end)
            break;
        line = end + 1;
    }
    sq_free(text);
}

static inline void podd_table_clear(podd_table_t *T)
{
    sq_free(T->d);
    T->d = NULL;
}

/* The matrix of multiplication by the filtration-one class dual to the
 * indecomposable (op_deg, op_idx) of the algebra, Ext^{s,t} -> Ext^{s+1,
 * t+op_deg}: entry (i, j) is the coefficient of (op, g_j) in d(g_i), g_j
 * generator j of F_s in degree t and g_i generator i of F_{s+1} in degree
 * t + op_deg (the Yoneda product with a filtration-one class read off a
 * minimal resolution).  m is initialised here. */
static inline void podd_product_matrix(fpmat_t *m, const resol_t *R, int32_t s, int32_t t,
                                       int32_t op_deg, int64_t op_idx)
{
    const fmod_t *Fs = resol_free_module(R, s), *Fs1 = resol_free_module(R, s + 1);
    const fhom_t *d = resol_differential(R, s + 1);
    int64_t cols = fmod_num_gens(Fs, t), rows = fmod_num_gens(Fs1, t + op_deg);
    fpmat_init(m, rows, cols, resol_prime(R));
    for (int64_t i = 0; i < rows; i++) {
        const uint8_t *img = (const uint8_t *)fhom_image_enc(d, fmod_gen_global(Fs1, t + op_deg, i), NULL);
        for (int64_t j = 0; j < cols; j++) {
            int64_t off = fmod_block_offset(Fs, t + op_deg, t, j);
            fpmat_set(m, i, j, img[off + op_idx]);
        }
    }
}

/* The composite "first b, then a" of two product matrices (rows index the
 * target, columns the source, as podd_product_matrix makes them): c = a b.
 * c is initialised here. */
static inline void podd_compose(fpmat_t *c, const fpmat_t *a, const fpmat_t *b)
{
    fpmat_mul_naive(c, a, b);
}

static inline int64_t podd_rank(const fpmat_t *m)
{
    if (!m->rows || !m->cols)
        return 0;
    return fpmat_rank(m);
}

/* dim of the indecomposables of the algebra in degree t: dim A_t - rank of
 * the products A_a x A_{t-a}, 0 < a < t. */
static inline int64_t podd_indecomposables(const pmilnor_t *A, int32_t t)
{
    int64_t n = pmilnor_dim(A, t);
    if (!n || t <= 0)
        return 0;
    int64_t rows = 0;
    for (int32_t a = 1; a < t; a++)
        rows += pmilnor_dim(A, a) * pmilnor_dim(A, t - a);
    fpmat_t m = {0};
    fpmat_init(&m, rows, n, pmilnor_prime(A));
    int64_t r = 0;
    for (int32_t a = 1; a < t; a++)
        for (int64_t i = 0; i < pmilnor_dim(A, a); i++)
            for (int64_t j = 0; j < pmilnor_dim(A, t - a); j++, r++)
                pmilnor_mul_add(A, fpmat_row(&m, r), 1, a, i, t - a, j);
    int64_t rank = podd_rank(&m);
    fpmat_clear(&m);
    return n - rank;
}

/* g x = vec for the algebra generator g of degree gen_deg of S (M's prime)
 * and x basis element in_idx of M_in_deg: fdmod_set_genf with vec given as
 * dim M_{in_deg + gen_deg} residues. */
static inline void podd_set_gen(fdmod_t *M, const stalg_t *S, int32_t gen_deg, int32_t in_deg,
                                int64_t in_idx, const uint8_t *vec)
{
    fvec_t v = fvec_view_bytes((uint8_t *)(uintptr_t)vec, fdmod_dim(M, in_deg + gen_deg),
                               fdmod_prime(M));
    fdmod_set_genf(M, S, gen_deg, in_deg, in_idx, v);
}

/* out += coef * (op v): fdmod_act_addf on residues, v a vector of M_in_deg
 * and op basis element op_idx of degree op_deg >= 0. */
static inline void podd_act_add(const fdmod_t *M, uint8_t *out, uint32_t coef, int32_t op_deg,
                                int64_t op_idx, int32_t in_deg, const uint8_t *v)
{
    uint32_t p = fdmod_prime(M);
    fvec_t o = fvec_view_bytes(out, fdmod_dim(M, in_deg + op_deg), p);
    fvec_t w = fvec_view_bytes((uint8_t *)(uintptr_t)v, fdmod_dim(M, in_deg), p);
    fdmod_act_addf(M, o, 0, coef, op_deg, op_idx, in_deg, w);
}

/* The stored residues of op x (fdmod_actionf), NULL when zero. */
static inline const uint8_t *podd_action(const fdmod_t *M, int32_t op_deg, int64_t op_idx,
                                         int32_t in_deg, int64_t in_idx)
{
    return fdmod_actionf(M, op_deg, op_idx, in_deg, in_idx).bytes;
}

/* d o d = 0 and the augmentation is onto, checked on every computed
 * generator of R (odd p): d_{s-1}(d_s(g)) = 0 for s >= 1, and the images of
 * F_0 span M_t in every computed degree.  Returns 0, or SQ_E_INVAL with the
 * first failure in err.  Cost about one more resolution's products. */
static inline int podd_verify(const resol_t *R, char *err, size_t errlen)
{
    const fmod_t *F0 = resol_free_module(R, 0);
    const fdmod_t *M = resol_input(R);
    int32_t t_min = resol_min_n(R);
    for (int32_t s = 1; s <= resol_max_s(R); s++) {
        const fmod_t *Fs = resol_free_module(R, s);
        const fhom_t *ds = resol_differential(R, s), *dl = resol_differential(R, s - 1);
        for (int32_t e = t_min; e <= fmod_gens_through(Fs); e++)
            for (int64_t i = 0; i < fmod_num_gens(Fs, e); i++) {
                const void *img = fhom_image_enc(ds, fmod_gen_global(Fs, e, i), NULL);
                int64_t n = fhom_target_dim(dl, e);
                uint8_t *out = sq_calloc((size_t)n + 1, 1);
                fhom_apply_add_enc(dl, out, e, e, img);
                int bad = !fpvec_is_zero(out, n);
                sq_free(out);
                if (bad) {
                    snprintf(err, errlen, "d_%d d_%d is not zero on x_(%d, %d, %lld)",
                             (int)(s - 1), (int)s, (int)(e - s), (int)s, (long long)i);
                    return SQ_E_INVAL;
                }
            }
    }
    for (int32_t t = t_min; t <= fmod_gens_through(F0) && t <= fdmod_top(M); t++) {
        int64_t rows = fmod_dim(F0, t), cols = fdmod_dim(M, t);
        if (!cols)
            continue;
        fpmat_t m = {0};
        fpmat_init(&m, rows, cols, resol_prime(R));
        fmat_t v = fmat_view_fp(&m);
        fhom_build_rows_fm(resol_differential(R, 0), &v, 0, t, t + 1, NULL, 0, NULL);
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

#endif /* PODD_UTIL_H */
