/*
 * t-shipped-ext.c -- the shipped module files, resolved: Nassau's algorithm
 * and the classical engine agree on every cell through (40, 30) for C2,
 * Ceta, Cnu, Csigma, the Joker and RP4 (issue 6's acceptance check, on the
 * files users get, not on modules built in test code).
 */
#include <stdio.h>

#include "resol.h"
#include "sq_modspec.h"
#include "sq_test.h"

static void agree(const char *name, int32_t max_n, int32_t max_s)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, name);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, path, NULL, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    resol_t *C = resol_new(M, max_s, max_n), *N = resol_new(M, max_s, max_n);
    resol_run(C, RESOL_CLASSICAL);
    resol_run(N, RESOL_NASSAU);
    int64_t nonzero = 0;
    for (int32_t n = resol_min_n(C); n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            int64_t c = resol_ext_dim(C, s, n), x = resol_ext_dim(N, s, n);
            if (c != x || c < 0)
                sq_test_fail(__FILE__, __LINE__, "%s Ext^{%d,%d}: classical %lld, Nassau %lld",
                             name, s, s + n, (long long)c, (long long)x);
            nonzero += c > 0;
        }
    ASSERT(nonzero > max_n);
    resol_free(C);
    resol_free(N);
    fdmod_free(M);
}

TEST(shipped_engines_agree)
{
    const char *names[] = {"C2", "Ceta", "Cnu", "Csigma", "Joker", "RP4"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        agree(names[i], 40, 30);
}
