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
#include "sq_test_resol.h"

static void agree(const char *name, int32_t max_n, int32_t max_s)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, name);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, path, NULL, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    ASSERT(sq_test_engines_agree(M, max_n, max_s, NULL) > max_n);
    fdmod_free(M);
}

TEST(shipped_engines_agree)
{
    const char *names[] = {"C2", "Ceta", "Cnu", "Csigma", "Joker", "RP4"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        agree(names[i], 40, 30);
}
