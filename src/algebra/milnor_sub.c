/*
 * milnor_sub.c -- sub-Hopf algebras of A given by a profile, with the same
 * API as A (milnor.h, milnor_new_profile).
 *
 * B(h) is spanned by the Sq(R) with r_i < 2^{h_i} (r_i = 0 past the
 * profile); it is closed under the product.  Its basis in each degree is
 * A's basis filtered, in A's order.  A milnor_t for B keeps a full algebra
 * for the arithmetic and index maps both ways; every public function
 * redirects here when A->sub is set: products are computed in A on mapped
 * vectors and mapped back.  These algebras are small (A(2) has dimension
 * 64 in all) and serve the classical engine only, so simplicity wins over
 * speed here.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct milnor_sub {
    milnor_t *full;
    int32_t h[MILNOR_MAX_LEN];
    int len;
    int64_t *dim;  /* per degree */
    int64_t **b2a; /* [deg][B index] -> A index, increasing (B's order is A's) */
};

/* The elements of B, listed directly (r_i < 2^{h_i}, degree <= max): the
 * cost is B's size, not A's, which matters for a small profile over a wide
 * span (A(2) in degrees up to 237: 64 elements, against ~10^5 of A). */
typedef struct {
    const struct milnor_sub *S;
    int32_t max_degree;
    int64_t *cap;
    int32_t r[MILNOR_MAX_LEN];
} subgen_t;

static void push(struct milnor_sub *S, int64_t *cap, int32_t d, int64_t a)
{
    if (S->dim[d] == cap[d]) {
        cap[d] = cap[d] ? 2 * cap[d] : 4;
        S->b2a[d] = sq_realloc(S->b2a[d], sq_mul_size((size_t)cap[d], sizeof **S->b2a));
    }
    S->b2a[d][S->dim[d]++] = a;
}

static void list_elements(subgen_t *g, int i, int32_t deg)
{
    struct milnor_sub *S = (struct milnor_sub *)g->S;
    if (i == S->len) {
        push(S, g->cap, deg, milnor_index(S->full, g->r, S->len));
        return;
    }
    int32_t w = (INT32_C(1) << (i + 1)) - 1; /* the degree of xi_{i+1} */
    int64_t bound = INT64_C(1) << S->h[i];
    for (int64_t x = 0; x < bound && deg + x * w <= g->max_degree; x++) {
        g->r[i] = (int32_t)x;
        list_elements(g, i + 1, deg + (int32_t)(x * w));
    }
    g->r[i] = 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

milnor_t *milnor_new_profile(int32_t max_degree, const int32_t *h, int len)
{
    SQ_CHECK(len >= 0 && len <= MILNOR_MAX_LEN, "milnor_new_profile: length %d", len);
    milnor_t *B = milnor_new(0); /* the shell: only max_degree and sub are used */
    B->max_degree = max_degree;
    struct milnor_sub *S = sq_calloc(1, sizeof *S);
    S->full = milnor_new(max_degree);
    S->len = len;
    for (int i = 0; i < len; i++) {
        SQ_CHECK(h[i] >= 0 && h[i] <= 30, "milnor_new_profile: entry %d", (int)h[i]);
        S->h[i] = h[i];
    }
    S->dim = sq_calloc((size_t)max_degree + 1, sizeof *S->dim);
    S->b2a = sq_calloc((size_t)max_degree + 1, sizeof *S->b2a);
    subgen_t g = {S, max_degree, sq_calloc((size_t)max_degree + 1, sizeof(int64_t)), {0}};
    list_elements(&g, 0, 0);
    sq_free(g.cap);
    for (int32_t d = 0; d <= max_degree; d++)
        if (S->dim[d] > 1)
            qsort(S->b2a[d], (size_t)S->dim[d], sizeof **S->b2a, cmp_i64);
    B->sub = S;
    return B;
}

/* B's index of A's element a of degree d, or -1: a binary search. */
static int64_t a_to_b(const struct milnor_sub *S, int32_t d, int64_t a)
{
    int64_t lo = 0, hi = S->dim[d];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (S->b2a[d][mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < S->dim[d] && S->b2a[d][lo] == a ? lo : -1;
}

void milnor_sub_free(milnor_t *B)
{
    struct milnor_sub *S = B->sub;
    for (int32_t d = 0; d <= B->max_degree; d++)
        sq_free(S->b2a[d]);
    sq_free(S->b2a);
    sq_free(S->dim);
    milnor_free(S->full);
    sq_free(S);
    B->sub = NULL;
}

int milnor_profile(const milnor_t *A, int32_t *h)
{
    if (!A->sub)
        return 0;
    memcpy(h, A->sub->h, (size_t)A->sub->len * sizeof *h);
    return A->sub->len;
}

int64_t milnor_sub_dim(const milnor_t *B, int32_t deg)
{
    return (deg < 0 || deg > B->max_degree) ? 0 : B->sub->dim[deg];
}

int milnor_sub_get(const milnor_t *B, int32_t deg, int64_t idx, int32_t *r, int maxlen)
{
    SQ_CHECK(deg >= 0 && deg <= B->max_degree && idx >= 0 && idx < milnor_sub_dim(B, deg),
             "milnor_get: element %lld of degree %d outside the subalgebra", (long long)idx,
             (int)deg);
    return milnor_get(B->sub->full, deg, B->sub->b2a[deg][idx], r, maxlen);
}

int64_t milnor_sub_index(const milnor_t *B, const int32_t *r, int len)
{
    int64_t a = milnor_index(B->sub->full, r, len);
    if (a < 0)
        return -1;
    return a_to_b(B->sub, milnor_pdegree(r, len), a);
}

/* out[off ..] ^= the A-vector w of degree d, mapped into B's basis. */
static void map_back(const milnor_t *B, uint64_t *out, int64_t off, int32_t d, const uint64_t *w)
{
    int64_t n = milnor_dim(B->sub->full, d);
    for (int64_t a = 0; a < n; a++) {
        if (!((w[a >> 6] >> (a & 63)) & 1))
            continue;
        int64_t b = a_to_b(B->sub, d, a);
        SQ_CHECK(b >= 0, "subalgebra product left the subalgebra (degree %d)", (int)d);
        out[(off + b) >> 6] ^= 1ULL << ((off + b) & 63);
    }
}

void milnor_sub_op_mul_vec_add(const milnor_op_t *op, uint64_t *out, int64_t off, int32_t sdeg,
                               const uint64_t *v)
{
    const milnor_t *B = op->A;
    const milnor_t *A = B->sub->full;
    milnor_check_degrees(B, op->deg, sdeg, off);
    int32_t d = op->deg + sdeg;
    uint64_t *vf = sq_calloc((size_t)(milnor_dim(A, sdeg) / 64 + 1), 8);
    uint64_t *w = sq_calloc((size_t)(milnor_dim(A, d) / 64 + 1), 8);
    for (int64_t b = 0; b < milnor_sub_dim(B, sdeg); b++)
        if ((v[b >> 6] >> (b & 63)) & 1) {
            int64_t a = B->sub->b2a[sdeg][b];
            vf[a >> 6] |= 1ULL << (a & 63);
        }
    milnor_op_t full = *op;
    full.A = A;
    milnor_op_mul_vec_add(&full, w, 0, sdeg, vf);
    map_back(B, out, off, d, w);
    sq_free(vf);
    sq_free(w);
}

void milnor_sub_mul_pparts_add(const milnor_t *B, uint64_t *out, int64_t off, const int32_t *r,
                               int rlen, const int32_t *s, int slen)
{
    const milnor_t *A = B->sub->full;
    int32_t d = milnor_pdegree(r, rlen) + milnor_pdegree(s, slen);
    SQ_CHECK(d <= B->max_degree, "milnor_mul_pparts_add: degree too large");
    uint64_t *w = sq_calloc((size_t)(milnor_dim(A, d) / 64 + 1), 8);
    milnor_mul_pparts_add(A, w, 0, r, rlen, s, slen);
    map_back(B, out, off, d, w);
    sq_free(w);
}
