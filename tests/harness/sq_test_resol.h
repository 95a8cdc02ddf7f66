/*
 * sq_test_resol.h -- checks on resolutions shared by several test suites.
 */
#ifndef SQ_TEST_RESOL_H
#define SQ_TEST_RESOL_H

#include "resol.h"

/* Fails the test unless every cell of tests/data/ext-S2-n60-s40.csv with
 * n <= max_n and s <= max_s equals resol_ext_dim(R, s, n); also checks that
 * (max_n + 1) * (max_s + 1) cells were compared (max_n <= 60, max_s <= 40). */
void sq_test_check_s2_table(const resol_t *R, int32_t max_n, int32_t max_s);

/* Fails the test unless every cell (n, s) of R with n <= max_n, s <= max_s
 * and n + s <= 236 equals SSeqCpp's table tests/data/ext-S2-t236-sseqcpp.csv
 * (cells it omits are zero).  Returns the number of cells compared. */
int64_t sq_test_check_s2_sseqcpp(const resol_t *R, int32_t max_n, int32_t max_s);

/* Resolves M (borrowed) through (max_n, max_s) with the classical engine and
 * with Nassau's algorithm and fails the test unless they agree on every
 * cell.  Returns the number of nonzero cells; the Nassau resolution goes to
 * *nassau (the caller frees it) when nassau is not NULL, else it is freed. */
int64_t sq_test_engines_agree(const fdmod_t *M, int32_t max_n, int32_t max_s, resol_t **nassau);

#endif
