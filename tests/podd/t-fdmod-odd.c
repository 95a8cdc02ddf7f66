/*
 * t-fdmod-odd.c -- the one finite-module type and its one completion
 * (fdmod.h, issue 21 step 4) at odd primes and through the generic names
 * at p = 2: the reach analysis and the table-size guard now serve odd
 * primes.
 */
#include "fdmod.h"
#include "podd_util.h"
#include "sq_modspec.h"
#include "stalg.h"

/* n copies of the peer's C3v1 (x0 -b-> x1 -P1-> x5 -b-> x6), copy i
 * shifted by stride * i, as a module file. */
static char *spread_c3v1(int n, int stride, size_t *len)
{
    size_t cap = 200 + (size_t)n * 200, k = 0;
    char *buf = sq_malloc(cap);
    k += (size_t)snprintf(buf + k, cap - k, "{\"p\": 3, \"gens\": {");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, cap - k,
                              "%s\"a%d\": %d, \"b%d\": %d, \"c%d\": %d, \"d%d\": %d", i ? ", " : "",
                              i, stride * i, i, stride * i + 1, i, stride * i + 5, i,
                              stride * i + 6);
    k += (size_t)snprintf(buf + k, cap - k, "}, \"actions\": [");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s\"b a%d = b%d\", \"P1 b%d = c%d\", \"b c%d = d%d\"",
                              i ? ", " : "", i, i, i, i, i, i);
    k += (size_t)snprintf(buf + k, cap - k, "]}");
    *len = k;
    return buf;
}

/* 50 copies of C3v1 spread over 986 degrees: the odd reader's old estimate
 * (every degree separating two cells row reduced) refused it (a reduction
 * of 5807 MiB at degree 986); the guard of every prime counts only the
 * pairs a chain of given generators connects, so it loads, and every copy
 * carries the action of the first one. */
TEST(fdmod_odd_guard_counts_reached_pairs)
{
    size_t len;
    char *json = spread_c3v1(50, 20, &len), err[512];
    fdmod_t *M = NULL;
    int rc = sq_modspec_load_buffer_odd(&M, json, len, "spread.json", NULL, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "spread.json refused: %s", err);
    ASSERT(M != NULL);
    size_t len1;
    char *one = spread_c3v1(1, 20, &len1);
    fdmod_t *C = NULL;
    ASSERT_EQ(sq_modspec_load_buffer_odd(&C, one, len1, "one.json", NULL, err, sizeof err), 0);
    pmilnor_t *A = pmilnor_new(3, 6, NULL);
    for (int i = 0; i < 50; i += 7)
        for (int32_t k = 1; k <= 6; k++)
            for (int32_t d = 0; d + k <= 6; d++)
                for (int64_t op = 0; op < pmilnor_dim(A, k); op++) {
                    if (!fdmod_dim(C, d) || !fdmod_dim(C, d + k))
                        continue;
                    const uint8_t *w = podd_action(C, k, op, d, 0);
                    const uint8_t *v = podd_action(M, k, op, d + 20 * i, 0);
                    ASSERT_EQ(w ? w[0] : 0, v ? v[0] : 0);
                }
    /* b P1 b a0 = d0: Q_0 P(1) Q_0 is nonzero on a0 (the derived degree 6). */
    uint8_t unit = 1, out[1] = {0}, mid[1] = {0}, mid2[1] = {0};
    podd_act_add(M, mid, 1, 1, 0, 980, &unit);
    podd_act_add(M, mid2, 1, 4, 0, 981, mid);
    podd_act_add(M, out, 1, 1, 0, 985, mid2);
    ASSERT_EQ(out[0], 1);
    pmilnor_free(A);
    fdmod_free(C);
    fdmod_free(M);
    sq_free(one);
    sq_free(json);
}

/* The guard at odd p: a pair reached in two steps far apart (b, then P^81)
 * needs the row reduction of the products of its degree, refused under a
 * limit of 1 MiB with the message of p = 2, completed (and refused: not a
 * module) under the default; the cost names the degree and counts rows x
 * (A_325 + rows) bytes. */
TEST(fdmod_odd_guard_refuses_reduction)
{
    const char *json = "{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1, \"x325\": 325},"
                       " \"actions\": [\"b x0 = x1\", \"P81 x1 = x325\"]}";
    fdmod_t *M = fdmod_new_p("m", 3, 0, 325);
    fdmod_add_basis(M, 0, "x0");
    fdmod_add_basis(M, 1, "x1");
    fdmod_add_basis(M, 325, "x325");
    stalg_t *S = stalg_new(3, 325, NULL);
    uint32_t given[326] = {0};
    given[0] = 1u << 0; /* b */
    given[1] = 1u << 5; /* P^81: slot 4 + 1 */
    ASSERT_EQ(fdmod_slot_degree(3, 5), 324);
    fdmod_cost_t c;
    fdmod_complete_cost_alg(&c, M, S, given);
    ASSERT_EQ(c.reduce_deg, 325);
    ASSERT_EQ(c.reduce_from, 0);
    int64_t rows = 0;
    int32_t gd[8];
    int64_t gi[8];
    int ng = stalg_gens(S, 324, gd, gi, 8);
    for (int g = 0; g < ng; g++)
        rows += stalg_dim(S, 325 - gd[g]);
    ASSERT(c.reduce_bytes == (double)rows * (double)(stalg_dim(S, 325) + rows));
    ASSERT(c.reduce_bytes > 2e6); /* 2.5 MB; the algebra's list through 325 is 0.4 MB */
    sq_modspec_opts_t o = {.max_tables = 1 << 20};
    fdmod_t *P = NULL;
    char err[512];
    ASSERT_EQ(sq_modspec_load_buffer_odd(&P, json, strlen(json), "far.json", &o, err, sizeof err),
              SQ_E_RANGE);
    ASSERT(P == NULL);
    ASSERT(strstr(err, "far.json: the module is too large: deriving its action from degree 0 to "
                       "degree 325") != NULL);
    /* Under the default limit it is completed, and it is not a module: the
     * derived Q_0 P(81) and b after P(81) disagree on x0. */
    ASSERT_EQ(sq_modspec_load_buffer_odd(&P, json, strlen(json), "far.json", NULL, err, sizeof err),
              SQ_E_INVAL);
    ASSERT(strstr(err, "far.json: the action is not a module: on x0, b applied after P(81) gives "
                       "0, but the product b*P(81) = Q_0 P(81) acts as x325") != NULL);
    stalg_free(S);
    fdmod_free(M);
}

/* One type: a module at any prime is an fdmod_t with its prime; the generic names at
 * p = 2 give what fdmod_set_sq + fdmod_complete give (the question mark
 * complex: Sq1 x0 = x1, Sq2 x1 = x3, whose Sq(3) and Sq(0,1) are derived). */
TEST(fdmod_one_type_every_prime)
{
    fdmod_t *S3 = fdmod_sphere_p(3);
    ASSERT_EQ(fdmod_prime(S3), 3);
    ASSERT_STR_EQ(fdmod_name(S3), "S_3");
    fdmod_t *S2 = fdmod_sphere_p(2);
    ASSERT_STR_EQ(fdmod_name(S2), "S_2");
    fdmod_free(S2);
    fdmod_free(S3);
    milnor_t *A = milnor_new(3);
    stalg_t *S = stalg_new_milnor(A);
    fdmod_t *M = fdmod_new("q", 0, 3), *N = fdmod_new_p("q", 2, 0, 3);
    fdmod_t *both[2] = {M, N};
    for (int i = 0; i < 2; i++) {
        fdmod_add_basis(both[i], 0, "x0");
        fdmod_add_basis(both[i], 1, "x1");
        fdmod_add_basis(both[i], 3, "x3");
    }
    uint64_t one = 1;
    fdmod_set_sq(M, A, 1, 0, 0, &one);
    fdmod_set_sq(M, A, 2, 1, 0, &one);
    fdmod_set_genf(N, S, 1, 0, 0, fvec_view_limbs(&one, 1));
    fdmod_set_genf(N, S, 2, 1, 0, fvec_view_limbs(&one, 1));
    char err[256];
    ASSERT_EQ(fdmod_complete(M, A, err, sizeof err), 0);
    ASSERT_EQ(fdmod_complete_alg(N, S, err, sizeof err), 0);
    for (int64_t op = 0; op < milnor_dim(A, 3); op++) {
        const uint64_t *a = fdmod_action(M, 3, op, 0, 0), *b = fdmod_action(N, 3, op, 0, 0);
        ASSERT_EQ(a ? a[0] : 0, b ? b[0] : 0);
    }
    int32_t r[2] = {0, 1}; /* Sq(0,1) = Sq3 + Sq2 Sq1 acts: x0 -> x3 */
    const uint64_t *q = fdmod_action(N, 3, milnor_index(A, r, 2), 0, 0);
    ASSERT(q != NULL && q[0] == 1);
    fdmod_free(M);
    fdmod_free(N);
    stalg_free(S);
    milnor_free(A);
}
