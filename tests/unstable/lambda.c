/*
 * lambda.c -- the Lambda algebra oracle (see lambda.h): admissible bases
 * by enumeration, products reduced to admissible form by the relations
 * (first inadmissible pair, recursively), the differential as a
 * derivation, and ranks over F_2.
 */
#include "lambda.h"

#include <stdlib.h>
#include <string.h>

#include "sq_test.h"

#define LMAX 48 /* longest monomial */

typedef struct {
    uint8_t i[LMAX];
} mono_t;

typedef struct {
    mono_t *m;
    int64_t n, cap;
    int len; /* every monomial's length */
} poly_t;

static void poly_push(poly_t *P, const uint8_t *seq)
{
    if (P->n == P->cap) {
        P->cap = P->cap ? 2 * P->cap : 64;
        P->m = realloc(P->m, (size_t)P->cap * sizeof *P->m);
        if (!P->m)
            abort();
    }
    memset(&P->m[P->n], 0, sizeof(mono_t));
    memcpy(P->m[P->n].i, seq, (size_t)P->len);
    P->n++;
}

static int mono_cmp(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(mono_t));
}

/* Sorts P and cancels equal pairs (coefficients mod 2). */
static void poly_normalize(poly_t *P)
{
    if (P->n == 0)
        return;
    qsort(P->m, (size_t)P->n, sizeof *P->m, mono_cmp);
    int64_t w = 0;
    for (int64_t r = 0; r < P->n;) {
        int64_t e = r;
        while (e < P->n && !mono_cmp(&P->m[e], &P->m[r]))
            e++;
        if ((e - r) & 1)
            P->m[w++] = P->m[r];
        r = e;
    }
    P->n = w;
}

/* C(a, b) mod 2 (0 when a < 0 or b > a): Lucas. */
static int binom2(int a, int b)
{
    if (a < 0 || b < 0 || b > a)
        return 0;
    return (b & ~a) == 0;
}

/*
 * Left multiplication by a letter, memoized: lmul(a, W) is the admissible
 * form of lambda_a W for W admissible (length len - 1).  When W = lambda_b
 * W' with b > 2a the relation rewrites lambda_a lambda_b as a sum of
 * lambda_{a'} lambda_{b'}, and lambda_{b'} W' and then lambda_{a'} times
 * that are again left multiplications.
 */
typedef struct memo {
    mono_t key;      /* a, then W */
    int len;         /* of the key */
    poly_t val;
    struct memo *next;
} memo_t;

#define MEMO_BUCKETS (1u << 18)
static memo_t **memo_tab;

static uint32_t hash_key(const uint8_t *k, int len)
{
    uint32_t x = 2166136261u ^ (uint32_t)len;
    for (int i = 0; i < len; i++)
        x = (x ^ k[i]) * 16777619u;
    return x & (MEMO_BUCKETS - 1);
}

static void memo_reset(void)
{
    if (!memo_tab)
        return;
    for (uint32_t b = 0; b < MEMO_BUCKETS; b++)
        for (memo_t *e = memo_tab[b], *n; e; e = n) {
            n = e->next;
            free(e->val.m);
            free(e);
        }
    free(memo_tab);
    memo_tab = NULL;
}

static const poly_t *lmul(int a, const uint8_t *W, int wlen);

/* Appends lambda_a * P (every monomial of P admissible) to out. */
static void lmul_poly(poly_t *out, int a, const poly_t *P)
{
    for (int64_t q = 0; q < P->n; q++) {
        const poly_t *r = lmul(a, P->m[q].i, P->len);
        for (int64_t x = 0; x < r->n; x++)
            poly_push(out, r->m[x].i);
    }
}

static const poly_t *lmul(int a, const uint8_t *W, int wlen)
{
    uint8_t key[LMAX];
    key[0] = (uint8_t)a;
    memcpy(key + 1, W, (size_t)wlen);
    if (!memo_tab && !(memo_tab = calloc(MEMO_BUCKETS, sizeof *memo_tab)))
        abort();
    uint32_t h = hash_key(key, wlen + 1);
    for (memo_t *e = memo_tab[h]; e; e = e->next)
        if (e->len == wlen + 1 && !memcmp(e->key.i, key, (size_t)wlen + 1))
            return &e->val;
    poly_t out = {0};
    out.len = wlen + 1;
    if (wlen == 0 || W[0] <= 2 * a) {
        poly_push(&out, key);
    } else {
        int k = W[0] - 2 * a - 1;
        for (int j = 0; j <= k; j++) {
            if (!binom2(k - j - 1, j))
                continue;
            const poly_t *inner = lmul(2 * a + 1 + j, W + 1, wlen - 1);
            poly_t copy = {0};
            copy.len = inner->len;
            for (int64_t x = 0; x < inner->n; x++)
                poly_push(&copy, inner->m[x].i);
            lmul_poly(&out, a + k - j, &copy);
            free(copy.m);
        }
        poly_normalize(&out);
    }
    memo_t *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    memcpy(e->key.i, key, (size_t)wlen + 1);
    e->len = wlen + 1;
    e->val = out;
    e->next = memo_tab[h];
    memo_tab[h] = e;
    return &e->val;
}

/* Appends the admissible form of seq (P->len letters, seq[p + 1 ..]
 * admissible) to P: the letters p + 1, p, ..., 0 multiplied on from the
 * right end inwards. */
static void reduce(poly_t *P, const uint8_t *seq, int p)
{
    int len = P->len;
    poly_t cur = {0};
    cur.len = len - p - 1;
    poly_push(&cur, seq + p + 1);
    for (int q = p; q >= 0; q--) {
        poly_t nxt = {0};
        nxt.len = cur.len + 1;
        lmul_poly(&nxt, seq[q], &cur);
        poly_normalize(&nxt);
        free(cur.m);
        cur = nxt;
    }
    for (int64_t x = 0; x < cur.n; x++)
        poly_push(P, cur.m[x].i);
    free(cur.m);
}

/* The admissible monomials of length s and stem m with first letter < n
 * (n < 0: any), in lexicographic order. */
static void enumerate(poly_t *B, uint8_t *seq, int pos, int s, int left, int bound)
{
    if (pos == s) {
        if (!left)
            poly_push(B, seq);
        return;
    }
    for (int i = 0; i <= left && i <= bound; i++) {
        seq[pos] = (uint8_t)i;
        enumerate(B, seq, pos + 1, s, left - i, 2 * i);
    }
}

static void basis(poly_t *B, int s, int m, int n)
{
    memset(B, 0, sizeof *B);
    B->len = s;
    uint8_t seq[LMAX] = {0};
    if (s == 0) {
        if (m == 0)
            poly_push(B, seq);
        return;
    }
    enumerate(B, seq, 0, s, m, n < 0 ? m : n - 1);
}

static int64_t find(const poly_t *B, const mono_t *x)
{
    const mono_t *f = bsearch(x, B->m, (size_t)B->n, sizeof *B->m, mono_cmp);
    return f ? f - B->m : -1;
}

/* The matrix of d : B -> C (B of length s, C of length s + 1), rows bit
 * vectors of limbs(C->n) limbs. */
static uint64_t *dmatrix(const poly_t *B, const poly_t *C, int64_t *limbs)
{
    int s = B->len;
    *limbs = (C->n + 63) / 64 + 1;
    uint64_t *D = calloc((size_t)(B->n ? B->n : 1) * (size_t)*limbs, 8);
    if (!D)
        abort();
    poly_t P = {0};
    P.len = s + 1;
    for (int64_t r = 0; r < B->n; r++) {
        P.n = 0;
        const uint8_t *x = B->m[r].i;
        for (int p = 0; p < s; p++) {
            int k = x[p];
            for (int j = 1; 2 * j <= k; j++) {
                if (!binom2(k - j, j))
                    continue;
                uint8_t t[LMAX];
                memcpy(t, x, (size_t)p);
                t[p] = (uint8_t)(k - j);
                t[p + 1] = (uint8_t)(j - 1);
                memcpy(t + p + 2, x + p + 1, (size_t)(s - p - 1));
                reduce(&P, t, p + 1);
            }
        }
        poly_normalize(&P);
        for (int64_t q = 0; q < P.n; q++) {
            int64_t c = find(C, &P.m[q]);
            if (c < 0)
                sq_test_fail(__FILE__, __LINE__, "lambda: d leaves the subcomplex");
            D[r * *limbs + c / 64] ^= 1ULL << (c % 64);
        }
    }
    free(P.m);
    return D;
}

int64_t lambda_rank(uint64_t *D, int64_t rows, int64_t limbs, int64_t cols)
{
    int64_t rank = 0;
    for (int64_t c = 0; c < cols && rank < rows; c++) {
        int64_t piv = -1;
        for (int64_t r = rank; r < rows; r++)
            if ((D[r * limbs + c / 64] >> (c % 64)) & 1) {
                piv = r;
                break;
            }
        if (piv < 0)
            continue;
        for (int64_t w = 0; w < limbs; w++) {
            uint64_t x = D[piv * limbs + w];
            D[piv * limbs + w] = D[rank * limbs + w];
            D[rank * limbs + w] = x;
        }
        for (int64_t r = rank + 1; r < rows; r++)
            if ((D[r * limbs + c / 64] >> (c % 64)) & 1)
                for (int64_t w = c / 64; w < limbs; w++)
                    D[r * limbs + w] ^= D[rank * limbs + w];
        rank++;
    }
    return rank;
}

/* d^2 = 0: D1 : (s, m) -> (s+1, m-1), D2 : (s+1, m-1) -> (s+2, m-2). */
static void check_dd(const uint64_t *D1, int64_t r1, int64_t l1, const uint64_t *D2, int64_t l2)
{
    uint64_t *acc = calloc((size_t)l2, 8);
    if (!acc)
        abort();
    for (int64_t r = 0; r < r1; r++) {
        memset(acc, 0, (size_t)l2 * 8);
        for (int64_t c = 0; c < l1 * 64; c++)
            if ((D1[r * l1 + c / 64] >> (c % 64)) & 1)
                for (int64_t w = 0; w < l2; w++)
                    acc[w] ^= D2[c * l2 + w];
        for (int64_t w = 0; w < l2; w++)
            if (acc[w])
                sq_test_fail(__FILE__, __LINE__, "lambda: d^2 != 0");
    }
    free(acc);
}

void lambda_homology(int32_t n, int32_t max_s, int32_t max_stem, int64_t *h)
{
    /* H^{s,m} needs the ranks of d on (s, m) and (s - 1, m + 1): rows
     * s <= max_s, stems m <= max_stem + 1. */
    int32_t S = max_s + 1, M = max_stem + 1;
    if (S + 1 > LMAX)
        sq_test_fail(__FILE__, __LINE__, "lambda: filtration %d too large", (int)max_s);
    /* rank[s][m] = rank of d on (s, m); dims of the bases. */
    int64_t *rk = calloc((size_t)(S + 1) * (size_t)(M + 1), sizeof *rk);
    int64_t *dim = calloc((size_t)(S + 1) * (size_t)(M + 1), sizeof *dim);
    if (!rk || !dim)
        abort();
    for (int32_t s = 0; s <= S; s++)
        for (int32_t m = 0; m <= M; m++) {
            poly_t B;
            basis(&B, s, m, n);
            dim[s * (M + 1) + m] = B.n;
            if (m == 0 || s == S || s + 1 + 1 > LMAX || (s == max_s && m == M)) {
                free(B.m);
                continue; /* d = 0 from stem 0; the top row is not needed */
            }
            poly_t C, E;
            basis(&C, s + 1, m - 1, n);
            int64_t l1, l2;
            uint64_t *D = dmatrix(&B, &C, &l1);
            if (m >= 2 && s + 1 < S && B.n * C.n < 200000) {
                basis(&E, s + 2, m - 2, n);
                uint64_t *D2 = dmatrix(&C, &E, &l2);
                check_dd(D, B.n, l1, D2, l2);
                free(D2);
                free(E.m);
            }
            rk[s * (M + 1) + m] = lambda_rank(D, B.n, l1, C.n);
            free(D);
            free(B.m);
            free(C.m);
        }
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t m = 0; m <= max_stem; m++) {
            int64_t ker = dim[s * (M + 1) + m] - rk[s * (M + 1) + m];
            int64_t im = s > 0 ? rk[(s - 1) * (M + 1) + m + 1] : 0;
            h[s * (max_stem + 1) + m] = ker - im;
        }
    free(rk);
    free(dim);
    memo_reset();
}

/* The kernel of d on (s, m) of Lambda(n), as rows over basis(s, m, n + 1)
 * (Lambda(n)'s basis is part of Lambda(n + 1)'s), appended to R (rows of
 * lim limbs; *nr rows so far, room for cap). */
static uint64_t *kernel_rows(int s, int m, int n, const poly_t *Bn1, uint64_t *R, int64_t *nr,
                             int64_t lim)
{
    poly_t B, C;
    basis(&B, s, m, n);
    basis(&C, s + 1, m - 1, n);
    int64_t l1;
    uint64_t *D = m > 0 ? dmatrix(&B, &C, &l1) : NULL;
    if (!D) {
        l1 = 1;
        D = calloc((size_t)(B.n ? B.n : 1), 8);
        if (!D)
            abort();
    }
    /* [D | I] reduced on D's columns: the rows whose D part vanishes. */
    int64_t w = l1 + (B.n + 63) / 64;
    uint64_t *A = calloc((size_t)(B.n ? B.n : 1) * (size_t)w, 8);
    if (!A)
        abort();
    for (int64_t r = 0; r < B.n; r++) {
        memcpy(A + r * w, D + r * l1, (size_t)l1 * 8);
        A[r * w + l1 + r / 64] |= 1ULL << (r % 64);
    }
    /* Eliminating on D's columns only: the rows below the rank are zero
     * there, and their I parts are the kernel. */
    int64_t rank = lambda_rank(A, B.n, w, C.n);
    R = realloc(R, (size_t)(*nr + B.n - rank + 1) * (size_t)lim * 8);
    if (!R)
        abort();
    for (int64_t r = rank; r < B.n; r++) {
        uint64_t *row = R + *nr * lim;
        memset(row, 0, (size_t)lim * 8);
        for (int64_t j = 0; j < B.n; j++)
            if ((A[r * w + l1 + j / 64] >> (j % 64)) & 1) {
                int64_t c = find(Bn1, &B.m[j]);
                if (c < 0)
                    sq_test_fail(__FILE__, __LINE__, "lambda: Lambda(n) not in Lambda(n + 1)");
                row[c / 64] ^= 1ULL << (c % 64);
            }
        (*nr)++;
    }
    free(A);
    free(D);
    free(B.m);
    free(C.m);
    return R;
}

void lambda_suspension_rank(int32_t n, int32_t max_s, int32_t max_stem, int64_t *rk)
{
    for (int32_t s = 0; s <= max_s; s++)
        for (int32_t m = 0; m <= max_stem; m++) {
            poly_t Bn1;
            basis(&Bn1, s, m, n + 1);
            int64_t lim = (Bn1.n + 63) / 64 + 1, nb = 0, nz = 0;
            uint64_t *R = NULL;
            if (s > 0) { /* the boundaries of Lambda(n + 1) */
                poly_t P;
                basis(&P, s - 1, m + 1, n + 1);
                int64_t l;
                uint64_t *D = dmatrix(&P, &Bn1, &l);
                R = calloc((size_t)(P.n ? P.n : 1) * (size_t)lim, 8);
                if (!R)
                    abort();
                for (int64_t r = 0; r < P.n; r++)
                    memcpy(R + r * lim, D + r * l, (size_t)(l < lim ? l : lim) * 8);
                nb = P.n;
                free(D);
                free(P.m);
            }
            int64_t rb = R ? lambda_rank(R, nb, lim, Bn1.n) : 0;
            /* rank_of reordered R's rows: its first rb rows span B'. */
            nz = rb;
            R = kernel_rows(s, m, n, &Bn1, R, &nz, lim);
            rk[s * (max_stem + 1) + m] = lambda_rank(R, nz, lim, Bn1.n) - rb;
            free(R);
            free(Bn1.m);
        }
    memo_reset();
}
