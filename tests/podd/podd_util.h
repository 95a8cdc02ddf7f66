/*
 * podd_util.h -- helpers shared by the odd-prime tests: the reference
 * table, filtration-one products read off a resolution, ranks, the
 * indecomposables of an algebra.
 */
#ifndef PODD_UTIL_H
#define PODD_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpmat.h"
#include "presol.h"
#include "sq_test.h"

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
static inline void podd_product_matrix(fpmat_t *m, const presol_t *R, int32_t s, int32_t t,
                                       int32_t op_deg, int64_t op_idx)
{
    const pfmod_t *Fs = presol_free_module(R, s), *Fs1 = presol_free_module(R, s + 1);
    const pfhom_t *d = presol_differential(R, s + 1);
    int64_t cols = pfmod_num_gens(Fs, t), rows = pfmod_num_gens(Fs1, t + op_deg);
    fpmat_init(m, rows, cols, presol_prime(R));
    for (int64_t i = 0; i < rows; i++) {
        const uint8_t *img = pfhom_image(d, pfmod_gen_global(Fs1, t + op_deg, i), NULL);
        for (int64_t j = 0; j < cols; j++) {
            int64_t off = pfmod_block_offset(Fs, t + op_deg, t, j);
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

#endif /* PODD_UTIL_H */
