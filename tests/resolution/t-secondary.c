/*
 * t-secondary.c -- the Adams d_2 (resol_secondary.h).
 *
 * Oracles from outside adams: the d_2 of the sphere in the literature
 * (Isaksen, "Stable stems", Mem. AMS 262 (2019), Table 8 / Bruner's
 * tables: d_2 h_4 = h_0 h_3^2, d_2 e_0 = h_1^2 d_0, d_2 f_0 = h_0^2 e_0);
 * d_2 d_2 = 0; the Leibniz rule d_2(h_i x) = h_i d_2(x) for i <= 3.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "resol_products.h"
#include "resol_secondary.h"
#include "sq_modspec.h"
#include "sq_secondary.h"
#include "sq_test.h"

static resol_t *sphere(resol_algo_t algo, int32_t max_n, int32_t max_s, fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, max_s, max_n);
    resol_run(R, algo);
    return R;
}

static uint32_t d2_entry(const resol_sec_t *X, int32_t n, int32_t s, int64_t i, int64_t j)
{
    fmat_t m;
    ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
    uint32_t v = fmat_get(&m, i, j);
    fmat_clear(&m);
    return v;
}

TEST(secondary_h4_e0_f0)
{
    fdmod_t *M;
    resol_t *R = sphere(RESOL_CLASSICAL, 20, 8, &M);
    resol_sec_t *X;
    char err[256];
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);
    ASSERT_EQ(resol_ext_dim(R, 3, 14), 1);
    ASSERT_EQ(d2_entry(X, 15, 1, 0, 0), 1); /* d_2 h_4 = h_0 h_3^2 */
    ASSERT_EQ(d2_entry(X, 17, 4, 0, 0), 1); /* d_2 e_0 = h_1^2 d_0 */
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

/* The peer's published lines (tests/data/secondary-*.txt, its classical
 * engine) through (30, 7): the same text from the classical engine. */
static void peer_lines(const char *module, const char *data, resol_algo_t algo)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, module);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, NULL, NULL, err, sizeof err))
        sq_test_fail(__FILE__, __LINE__, "%s", err);
    resol_t *R = resol_new(M, 7, 30);
    resol_run(R, algo);
    resol_sec_t *X;
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(sq_d2_write(f, R, X), 0);
    fclose(f);
    char *want = sq_test_slurp(sq_test_data_path(data));
    char *body = want;
    while (*body == '#')
        body = strchr(body, '\n') + 1;
    ASSERT_STR_EQ(buf, body);
    free(buf);
    sq_free(want);
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

TEST(secondary_peer_lines)
{
    peer_lines("S_2", "secondary-S_2.txt", RESOL_CLASSICAL);
    peer_lines("C2", "secondary-C2.txt", RESOL_CLASSICAL);
    /* every target there is one-dimensional: Nassau's basis gives the same lines
     * (the peer's secondary-C2-nassau is the same text as secondary-C2) */
    peer_lines("S_2", "secondary-S_2.txt", RESOL_NASSAU);
    peer_lines("C2", "secondary-C2.txt", RESOL_NASSAU);
}
