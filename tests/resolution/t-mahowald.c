/*
 * t-mahowald.c -- algebraic Mahowald invariants (resol_mahowald.h) against
 * the literature and the peer's own cases, read from
 * tests/data/mahowald-invariants.txt (each claim's source is cited there):
 * M(h_0^j) is the class of filtration j in the lowest positive stem where
 * Ext^j is nonzero (Mahowald--Ravenel), M(h_i) = h_{i+1}, and the peer's
 * rstest cases (compared modulo the indeterminacy where the bases differ).
 * Also: every class is detected at most once (at its least k).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "fmat.h"
#include "resol.h"
#include "resol_mahowald.h"
#include "sq_core.h"
#include "sq_test.h"

enum { MAX_REC = 4096, MAX_LEN = 16 };

typedef struct {
    int32_t k, n, s, out_n;
    int64_t i;
    int ylen, nind;
    uint8_t y[MAX_LEN], ind[4][MAX_LEN];
} rec_t;

typedef struct {
    rec_t r[MAX_REC];
    int count;
    int32_t k;
} recs_t;

static int collect(void *ctx, const resol_mahowald_t *m)
{
    recs_t *R = ctx;
    ASSERT(R->count < MAX_REC);
    ASSERT(m->y.len <= MAX_LEN && fmat_rows(m->indet) <= 4);
    rec_t *r = &R->r[R->count++];
    memset(r, 0, sizeof *r);
    r->k = R->k;
    r->n = m->n;
    r->s = m->s;
    r->i = m->i;
    r->out_n = m->out_n;
    r->ylen = (int)m->y.len;
    for (int64_t j = 0; j < m->y.len; j++)
        r->y[j] = (uint8_t)fvec_get(m->y, j);
    r->nind = (int)fmat_rows(m->indet);
    for (int64_t q = 0; q < fmat_rows(m->indet); q++)
        for (int64_t j = 0; j < fmat_cols(m->indet); j++)
            r->ind[q][j] = (uint8_t)fmat_get(m->indet, q, j);
    return 0;
}

/* Every invariant for Max k = kmax (the peer's regions), into *out; the
 * sphere's resolution into *RSo (the caller frees it and *Mo). */
static void run_all(int32_t kmax, recs_t *out, resol_t **RSo, fdmod_t **Mo)
{
    int32_t sn, ss;
    resol_mahowald_region(kmax, &sn, &ss);
    fdmod_t *S = fdmod_sphere();
    resol_t *RS = resol_new(S, ss, sn);
    resol_run(RS, RESOL_CLASSICAL);
    out->count = 0;
    for (int32_t k = 1; k <= kmax; k++) {
        int32_t pn, ps;
        resol_mahowald_region_k(k, &pn, &ps);
        char err[256];
        fdmod_t *M = resol_mahowald_module(k, pn + 2, err, sizeof err);
        if (!M)
            sq_test_fail(__FILE__, __LINE__, "%s", err);
        resol_t *RP = resol_new(M, ps, pn);
        resol_run(RP, RESOL_CLASSICAL);
        out->k = k;
        ASSERT_EQ(resol_mahowald_k(RS, RP, k, collect, out), 0);
        resol_free(RP);
        fdmod_free(M);
    }
    *RSo = RS;
    *Mo = S;
}

static const rec_t *find(const recs_t *R, int32_t n, int32_t s, int64_t i)
{
    const rec_t *hit = NULL;
    for (int q = 0; q < R->count; q++)
        if (R->r[q].n == n && R->r[q].s == s && R->r[q].i == i) {
            ASSERT(hit == NULL); /* detected once */
            hit = &R->r[q];
        }
    return hit;
}

/* Whether y + v (v a 0/1 string) lies in the span of r's indeterminacy. */
static int equal_mod_indet(const rec_t *r, const char *v)
{
    uint8_t d[MAX_LEN] = {0};
    ASSERT_EQ((int)strlen(v), r->ylen);
    for (int j = 0; j < r->ylen; j++)
        d[j] = (uint8_t)(r->y[j] ^ (v[j] == '1'));
    for (int mask = 0; mask < (1 << r->nind); mask++) {
        uint8_t e[MAX_LEN];
        memcpy(e, d, sizeof e);
        for (int q = 0; q < r->nind; q++)
            if (mask >> q & 1)
                for (int j = 0; j < r->ylen; j++)
                    e[j] ^= r->ind[q][j];
        int zero = 1;
        for (int j = 0; j < r->ylen; j++)
            zero &= e[j] == 0;
        if (zero)
            return 1;
    }
    return 0;
}

/* The claims of tests/data/mahowald-invariants.txt reachable with kmax. */
static void check_claims(int32_t kmax)
{
    static recs_t R;
    resol_t *RS;
    fdmod_t *S;
    run_all(kmax, &R, &RS, &S);
    ASSERT(R.count > 10);
    char *text = sq_test_slurp(sq_test_data_path("mahowald-invariants.txt"));
    int checked = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int a, b, K, s, t, i, ot, nind;
        char v[64];
        if (line[0] == '#')
            continue;
        if (strncmp(line, "h0 ", 3) == 0) {
            ASSERT_EQ(sscanf(line, "h0 %d %d", &a, &b), 2);
            if (b + 1 > kmax)
                continue;
            const rec_t *r = find(&R, 0, a, 0);
            ASSERT(r != NULL);
            ASSERT_EQ(r->out_n, b);
            ASSERT_EQ(resol_ext_dim(RS, a, b), 1);
            for (int32_t n = 1; n < b; n++) /* the lowest positive stem */
                ASSERT_EQ(resol_ext_dim(RS, a, n), 0);
            ASSERT(r->ylen == 1 && r->y[0] == 1 && r->nind == 0);
            checked++;
        } else if (strncmp(line, "h ", 2) == 0) {
            ASSERT_EQ(sscanf(line, "h %d", &a), 1);
            if ((1 << a) > kmax) /* h_a is first detected at k = 2^a */
                continue;
            const rec_t *r = find(&R, (1 << a) - 1, 1, 0);
            ASSERT(r != NULL);
            ASSERT_EQ(r->out_n, (1 << (a + 1)) - 1);
            ASSERT(r->ylen == 1 && r->y[0] == 1 && r->nind == 0);
            checked++;
        } else {
            ASSERT_EQ(sscanf(line, "peer %d %d %d %d %d %63s %d", &K, &s, &t, &i, &ot, v, &nind), 7);
            if (K > kmax)
                continue;
            const rec_t *r = find(&R, t - s, s, i);
            ASSERT(r != NULL);
            ASSERT_EQ(r->k, K); /* first detected at the peer's k */
            ASSERT_EQ(r->out_n, ot - s);
            ASSERT_EQ(r->nind, nind);
            ASSERT(equal_mod_indet(r, v));
            checked++;
        }
    }
    ASSERT(checked >= 8);
    sq_free(text);
    resol_free(RS);
    fdmod_free(S);
}

TEST(mahowald_literature_k19) { check_claims(19); }
TEST(mahowald_literature_k25_slow) { check_claims(25); }

TEST(mahowald_refusals)
{
    fdmod_t *S = fdmod_sphere();
    resol_t *RS = resol_new(S, 3, 6);
    resol_run(RS, RESOL_CLASSICAL);
    char err[256];
    fdmod_t *M = resol_mahowald_module(3, 3, err, sizeof err);
    ASSERT(M != NULL);
    resol_t *RP = resol_new(M, 2, 1);
    resol_run(RP, RESOL_CLASSICAL);
    recs_t *R = sq_calloc(1, sizeof *R);
    ASSERT_EQ(resol_mahowald_k(RS, RP, 4, collect, R), SQ_E_INVAL); /* not RP_-4 */
    ASSERT_EQ(resol_mahowald_k(RP, RP, 3, collect, R), SQ_E_INVAL); /* not the sphere */
    ASSERT(resol_mahowald_module(0, 3, err, sizeof err) == NULL);
    sq_free(R);
    resol_free(RP);
    fdmod_free(M);
    resol_free(RS);
    fdmod_free(S);
}
