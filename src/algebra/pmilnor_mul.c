/*
 * pmilnor_mul.c -- Milnor's product formula at an odd prime.
 *
 * Q(E) P(R) * Q(F) P(S), in two stages:
 *
 * 1. Move P(R) right past Q(F) = Q_{f_0} Q_{f_1} ..., one Q_k at a time
 *    (k increasing), with Milnor's commutation formula
 *        P(R) Q_k = Q_k P(R) + sum_{j >= 1} Q_{k+j} P(R - p^k e_j),
 *    dropping terms where r_j < p^k.  Each new Q_{k+j} is sorted into the
 *    mask on its left: Q(E) Q_m = (-1)^{#{e in E : e > m}} Q(E + m), and 0
 *    when m is in E already.  This is a depth-first walk over the choices
 *    (one j per Q_k), carrying the sign and the current mask and p-part.
 *
 * 2. For each term c Q(E') P(R'), multiply P(R') P(S) by Milnor matrices
 *    x_{ij} (i rows for R', j columns for S; x_{i0}, x_{0j} the
 *    remainders): sum_j p^j x_{ij} = r'_i and sum_i x_{ij} = s_j.  The term
 *    is P(T), t_n = sum_{i+j=n} x_{ij}, with the coefficient
 *    prod_n multinomial(t_n; x_{0n}, ..., x_{n0}) mod p.  By Lucas the
 *    multinomial is zero unless the base-p digits of the entries of each
 *    anti-diagonal add without carry, and then it is the product over
 *    digit positions of (digit sum)! / prod (digit)!.  The walk keeps the
 *    digit sums of every anti-diagonal and abandons a branch as soon as one
 *    reaches p (digit sums only grow as entries are added).  1/digit! is
 *    multiplied in per entry (table ifd), the digit-sum factorials at the
 *    leaf.
 *
 * Nothing is allocated: the walks use a small struct on the stack.
 */
#include <string.h>

#include "pmilnor_internal.h"

/*
 * Packed digits.  A value's base-p digits sit in lanes of lw bits of one
 * word, so the digit sums of an anti-diagonal are one word too, and adding
 * an entry is one addition.  A carry (a lane sum >= p) is detected by adding
 * bias = 2^{lw-1} - p to every lane and testing the top bit of each lane:
 * the lane sum is at most 2p - 2, so lw = 4 works for p <= 7 (sixteen
 * lanes), lw = 8 for p <= 127 (eight lanes; p >= 11 needs at most four
 * digits below 2048) and lw = 16 above (four lanes; two digits).
 */
void pmilnor_mul_tables_init(pmilnor_t *A)
{
    uint32_t p = A->p;
    int64_t V = (int64_t)A->max_red + 1;
    int nd = 1;
    for (int64_t pk = p; pk < V; pk *= p)
        nd++;
    SQ_CHECK(nd <= PMILNOR_MAX_DIGITS, "pmilnor: entries need %d digits", nd);
    A->ndig = nd;
    A->lw = p <= 7 ? 4 : p <= 127 ? 8 : 16;
    SQ_CHECK(nd * A->lw <= 64, "pmilnor: %d digits of %d bits do not fit a word", nd, A->lw);
    A->bias = A->high = 0;
    for (int k = 0; k < nd; k++) {
        A->bias |= (uint64_t)((1u << (A->lw - 1)) - p) << (k * A->lw);
        A->high |= (uint64_t)(1u << (A->lw - 1)) << (k * A->lw);
    }
    int64_t pj = 1;
    for (int j = 0; j <= PMILNOR_MAX_LEN; j++) {
        A->pw[j] = (int32_t)(pj > INT32_MAX ? INT32_MAX : pj);
        if (pj <= INT32_MAX)
            pj *= p;
    }
    A->pdig = sq_calloc((size_t)V, sizeof *A->pdig);
    A->ifd = sq_calloc((size_t)V, 1);
    uint8_t invfact[256];
    uint32_t f = 1;
    for (uint32_t k = 0; k < p; k++) {
        if (k)
            f = f * k % p;
        A->fact[k] = (uint8_t)f;
    }
    /* 1/k! by Fermat: x^{p-2}. */
    for (uint32_t k = 0; k < p; k++) {
        uint32_t x = A->fact[k], r = 1, e = p - 2;
        while (e) {
            if (e & 1)
                r = r * x % p;
            x = x * x % p;
            e >>= 1;
        }
        invfact[k] = (uint8_t)r;
    }
    for (int64_t v = 0; v < V; v++) {
        int64_t x = v;
        uint32_t c = 1;
        uint64_t packed = 0;
        for (int k = 0; k < nd; k++) {
            uint32_t d = (uint32_t)(x % p);
            packed |= (uint64_t)d << (k * A->lw);
            c = c * invfact[d] % p;
            x /= p;
        }
        A->pdig[v] = packed;
        A->ifd[v] = (uint8_t)c;
    }
}

void pmilnor_mul_tables_clear(pmilnor_t *A)
{
    sq_free(A->pdig);
    sq_free(A->ifd);
    A->pdig = NULL;
    A->ifd = NULL;
}

/* The state of one product's walks. */
typedef struct {
    const pmilnor_t *A;
    uint32_t p;
    uint8_t *out;                           /* dense output, or NULL: append to terms */
    pmilnor_terms_t *terms;
    uint32_t coef;                          /* the caller's factor */
    /* stage 2 */
    uint32_t q, qcoef;                      /* the term's mask and coefficient */
    int rl, sl;
    int32_t r[PMILNOR_MAX_LEN + 1];         /* 1-based */
    int32_t s[PMILNOR_MAX_LEN + 1];
    int32_t rowrem[PMILNOR_MAX_LEN + 1];
    int32_t colrem[PMILNOR_MAX_LEN + 1];
    int32_t pw[PMILNOR_MAX_LEN + 1];        /* p^j, saturated */
    uint64_t dsum[2 * PMILNOR_MAX_LEN + 2]; /* packed digit sums per anti-diagonal */
} mul_t;

/* Adds the digits of v to the digit sums *ds if no sum reaches p; returns 1
 * if added, 0 (*ds unchanged) on a carry. */
static inline int dig_add(const mul_t *M, uint64_t *ds, int32_t v)
{
    uint64_t x = *ds + M->A->pdig[v];
    if ((x + M->A->bias) & M->A->high)
        return 0;
    *ds = x;
    return 1;
}

static inline void dig_sub(const mul_t *M, uint64_t *ds, int32_t v)
{
    *ds -= M->A->pdig[v];
}

/* All entries placed except the column remainders x_{0j}: add them, read
 * off T and the coefficient, and add the term. */
static void leaf(mul_t *M, uint32_t cx)
{
    const uint32_t p = M->p;
    int j = 1;
    for (; j <= M->sl; j++) {
        if (!dig_add(M, &M->dsum[j], M->colrem[j]))
            break;
        cx = cx * M->A->ifd[M->colrem[j]] % p;
    }
    if (j > M->sl) {
        pmilnor_elt_t t;
        t.q = M->q;
        t.len = 0;
        int ndiag = M->rl + M->sl;
        uint32_t c = cx;
        const int lw = M->A->lw;
        const uint64_t lmask = ((uint64_t)1 << lw) - 1;
        for (int n = 1; n <= ndiag; n++) {
            int32_t tn = 0, pk = 1;
            uint64_t ds = M->dsum[n];
            for (int k = 0; ds; k++, ds >>= lw) {
                uint32_t d = (uint32_t)(ds & lmask);
                if (d) {
                    c = c * M->A->fact[d] % p;
                    tn += (int32_t)d * pk;
                }
                pk *= (int32_t)p;
            }
            if (n - 1 < PMILNOR_MAX_LEN)
                t.r[n - 1] = tn;
            if (tn)
                t.len = n;
        }
        if (c) {
            /* Over a sub-Hopf algebra B the total of the terms outside B is
             * zero (B is closed under products), so they are dropped. */
            int64_t idx = pmilnor_index(M->A, &t);
            if (idx >= 0) {
                uint32_t add = M->coef * M->qcoef % p * c % p;
                if (M->out) {
                    M->out[idx] = (uint8_t)((M->out[idx] + add) % p);
                } else {
                    pmilnor_terms_t *T = M->terms;
                    if (T->n == T->cap) {
                        T->cap = T->cap ? 2 * T->cap : 16;
                        T->idx = sq_realloc(T->idx, sq_mul_size((size_t)T->cap, sizeof *T->idx));
                        T->coef = sq_realloc(T->coef, (size_t)T->cap);
                    }
                    T->idx[T->n] = (uint32_t)idx;
                    T->coef[T->n++] = (uint8_t)add;
                }
            }
        }
    }
    for (j--; j >= 1; j--)
        dig_sub(M, &M->dsum[j], M->colrem[j]);
}

/* Chooses x_{ij} (i >= 1, j >= 1) row by row; x_{i0} closes row i. */
static void cell(mul_t *M, int i, int j, uint32_t cx)
{
    if (i > M->rl) {
        leaf(M, cx);
        return;
    }
    if (j > M->sl) {
        int32_t v = M->rowrem[i];
        if (!dig_add(M, &M->dsum[i], v))
            return;
        cell(M, i + 1, 1, cx * M->A->ifd[v] % M->p);
        dig_sub(M, &M->dsum[i], v);
        return;
    }
    int32_t pj = M->pw[j];
    int32_t maxv = M->rowrem[i] / pj;
    if (maxv > M->colrem[j])
        maxv = M->colrem[j];
    uint64_t *ds = &M->dsum[i + j];
    for (int32_t v = 0; v <= maxv; v++) {
        if (!dig_add(M, ds, v))
            continue;
        M->rowrem[i] -= v * pj;
        M->colrem[j] -= v;
        cell(M, i, j + 1, v ? cx * M->A->ifd[v] % M->p : cx);
        M->rowrem[i] += v * pj;
        M->colrem[j] += v;
        dig_sub(M, ds, v);
    }
}

/* Stage 2 for the term qcoef Q(q) P(r[1..rl]). */
static void pmul(mul_t *M)
{
    for (int i = 1; i <= M->rl; i++)
        M->rowrem[i] = M->r[i];
    for (int j = 1; j <= M->sl; j++)
        M->colrem[j] = M->s[j];
    cell(M, 1, 1, 1);
}

/* Stage 1: moves P(r) past the Q_k of fq (bits from position `from` on). */
static void qstep(mul_t *M, uint32_t fq, int from, uint32_t q, uint32_t c, const int32_t *r,
                  int rl)
{
    int k = from;
    while (k < 32 && !((fq >> k) & 1))
        k++;
    if (k >= 32) {
        M->q = q;
        M->qcoef = c;
        M->rl = rl;
        for (int i = 1; i <= rl; i++)
            M->r[i] = r[i];
        pmul(M);
        return;
    }
    int64_t pk = 1;
    for (int e = 0; e < k && pk <= INT32_MAX; e++)
        pk *= M->p;
    for (int i = 0; i <= rl; i++) {
        int m = k + i;
        if (m >= 32 || ((q >> m) & 1))
            continue;
        if (i > 0 && r[i] < pk)
            continue;
        int32_t r2[PMILNOR_MAX_LEN + 1];
        memcpy(r2, r, sizeof r2);
        if (i > 0)
            r2[i] -= (int32_t)pk;
        int rl2 = rl;
        while (rl2 > 0 && r2[rl2] == 0)
            rl2--;
        int above = __builtin_popcount(m + 1 < 32 ? q >> (m + 1) : 0);
        uint32_t c2 = (above & 1) ? (M->p - c) % M->p : c;
        qstep(M, fq, k + 1, q | (1u << m), c2, r2, rl2);
    }
}

static void mul_run(const pmilnor_t *A, uint8_t *out, pmilnor_terms_t *terms, uint32_t coef,
                    const pmilnor_elt_t *r, const pmilnor_elt_t *s)
{
    coef %= A->p;
    if (!coef)
        return;
    mul_t M;
    M.A = A;
    M.p = A->p;
    M.out = out;
    M.terms = terms;
    M.coef = coef;
    memset(M.dsum, 0, sizeof M.dsum);
    int32_t rr[PMILNOR_MAX_LEN + 1] = {0};
    int rl = 0;
    for (int i = 0; i < r->len; i++) {
        rr[i + 1] = r->r[i];
        if (r->r[i])
            rl = i + 1;
    }
    M.sl = 0;
    memset(M.s, 0, sizeof M.s);
    for (int j = 0; j < s->len; j++) {
        M.s[j + 1] = s->r[j];
        if (s->r[j])
            M.sl = j + 1;
    }
    memcpy(M.pw, A->pw, sizeof M.pw);
    SQ_ASSERT(pmilnor_elt_degree(A->p, r) + pmilnor_elt_degree(A->p, s) <= A->max_deg);
    qstep(&M, s->q, 0, r->q, 1, rr, rl);
}

void pmilnor_mul_elts_add(const pmilnor_t *A, uint8_t *out, uint32_t coef, const pmilnor_elt_t *r,
                          const pmilnor_elt_t *s)
{
    mul_run(A, out, NULL, coef, r, s);
}

void pmilnor_mul_elts_terms(const pmilnor_t *A, pmilnor_terms_t *T, const pmilnor_elt_t *r,
                            const pmilnor_elt_t *s)
{
    mul_run(A, NULL, T, 1, r, s);
}

void pmilnor_mul_add(const pmilnor_t *A, uint8_t *out, uint32_t coef, int32_t rdeg, int64_t ridx,
                     int32_t sdeg, int64_t sidx)
{
    pmilnor_elt_t r, s;
    pmilnor_get(A, rdeg, ridx, &r);
    pmilnor_get(A, sdeg, sidx, &s);
    SQ_CHECK((int64_t)rdeg + sdeg <= A->max_deg, "pmilnor_mul_add: degree %lld beyond %d",
             (long long)rdeg + sdeg, (int)A->max_deg);
    pmilnor_mul_elts_add(A, out, coef, &r, &s);
}

void pmilnor_mul_vec_add(const pmilnor_t *A, uint8_t *out, uint32_t coef, int32_t rdeg,
                         int64_t ridx, int32_t sdeg, const uint8_t *v)
{
    pmilnor_elt_t r, s;
    pmilnor_get(A, rdeg, ridx, &r);
    SQ_CHECK((int64_t)rdeg + sdeg <= A->max_deg, "pmilnor_mul_vec_add: degree %lld beyond %d",
             (long long)rdeg + sdeg, (int)A->max_deg);
    coef %= A->p;
    int64_t n = pmilnor_dim(A, sdeg);
    for (int64_t k = 0; k < n; k++) {
        if (!v[k])
            continue;
        pmilnor_get(A, sdeg, k, &s);
        pmilnor_mul_elts_add(A, out, coef * v[k], &r, &s);
    }
}
