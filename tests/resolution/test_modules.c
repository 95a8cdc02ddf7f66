/*
 * test_modules.c -- see test_modules.h.
 */
#include "test_modules.h"

#include <stdio.h>

#include "sq_modspec.h"
#include "sq_test.h"

fdmod_t *test_module(const char *name, const int *degrees, int n, const test_action_t *acts,
                     int nacts)
{
    int lo = degrees[0], hi = degrees[n - 1];
    fdmod_t *M = fdmod_new(name, lo, hi);
    int64_t *idx = sq_calloc((size_t)n, sizeof *idx);
    char nm[16];
    for (int i = 0; i < n; i++) {
        snprintf(nm, sizeof nm, "x%d", i);
        idx[i] = fdmod_add_basis(M, degrees[i], nm);
    }
    milnor_t *A = milnor_new(hi - lo > 0 ? hi - lo : 1);
    /* Sum the actions with the same (op, from) into one vector. */
    for (int a = 0; a < nacts; a++) {
        int dup = 0;
        for (int b = 0; b < a; b++)
            dup |= acts[b].op == acts[a].op && acts[b].from == acts[a].from;
        if (dup)
            continue;
        uint64_t v[4] = {0};
        int to_deg = degrees[acts[a].from] + acts[a].op;
        for (int b = a; b < nacts; b++)
            if (acts[b].op == acts[a].op && acts[b].from == acts[a].from) {
                ASSERT_EQ(degrees[acts[b].to], to_deg);
                v[idx[acts[b].to] >> 6] ^= 1ULL << (idx[acts[b].to] & 63);
            }
        fdmod_set_sq(M, A, acts[a].op, degrees[acts[a].from], idx[acts[a].from], v);
    }
    char err[512];
    if (fdmod_complete(M, A, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "module %s: %s", name, err);
    milnor_free(A);
    sq_free(idx);
    return M;
}

static fdmod_t *two_cell(const char *name, int k)
{
    int deg[] = {0, k};
    test_action_t act[] = {{k, 0, 1}};
    return test_module(name, deg, 2, act, 1);
}

fdmod_t *test_module_C2(void)
{
    return two_cell("C2", 1);
}

fdmod_t *test_module_Ceta(void)
{
    return two_cell("Ceta", 2);
}

fdmod_t *test_module_Cnu(void)
{
    return two_cell("Cnu", 4);
}

fdmod_t *test_module_Csigma(void)
{
    return two_cell("Csigma", 8);
}

fdmod_t *test_module_Joker(void)
{
    int deg[] = {0, 1, 2, 3, 4};
    test_action_t act[] = {{1, 0, 1}, {2, 0, 2}, {2, 1, 3}, {2, 2, 4}, {1, 3, 4}};
    return test_module("Joker", deg, 5, act, 5);
}

fdmod_t *test_module_RP4(void)
{
    /* H^*(RP^4) above the bottom: x^k in degree k, Sq^i x^k = binom(k, i) x^{k+i}. */
    int deg[] = {1, 2, 3, 4};
    test_action_t act[] = {{1, 0, 1}, {2, 1, 3}, {1, 2, 3}};
    return test_module("RP4", deg, 4, act, 3);
}

fdmod_t *test_module_shipped(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, name);
    sq_modspec_module_t m;
    if (sq_modspec_load_module_file(&m, path, NULL, NULL, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    return m.p == 2 ? m.m2 : m.modd;
}
