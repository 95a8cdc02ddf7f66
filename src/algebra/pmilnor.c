/*
 * pmilnor.c -- the Milnor basis at an odd prime: enumeration, ranking,
 * profiles (see pmilnor.h).  The product is in pmilnor_mul.c.
 *
 * Reduced degrees.  |P(R)| = 2(p - 1) * sum_i r_i w_i with w_i = (p^i - 1) /
 * (p - 1) = 1 + p + ... + p^{i-1}; n = sum r_i w_i is the reduced degree.
 * Every Q_n has degree 2p^n - 1 = 1 mod 2(p - 1), so a degree d holds the
 * masks q with popcount(q) = d mod 2(p - 1) and |Q(E)| <= d, each with the
 * p-parts of reduced degree (d - |Q(E)|) / (2p - 2).
 *
 * Counting tables.  cnt[i][m] is the number of p-parts using positions
 * 1..i only (within the profile's bounds) of reduced degree m;
 * cum[i][m] = sum_{v >= 0} cnt[i - 1][m - v w_i].  The p-parts of reduced
 * degree m are in lexicographic order on (r_K, ..., r_1), K = npos, so the
 * rank of R is sum over positions i (from K down) of the number of p-parts
 * agreeing above i and smaller at i:
 *     sum_{v < r_i} cnt[i - 1][m_i - v w_i] = cum[i][m_i] - cum[i][m_i - r_i w_i],
 * m_i the reduced degree left for positions <= i.
 */
#include "pmilnor.h"

#include <stdio.h>
#include <string.h>

#include "pmilnor_internal.h"

void pmilnor_profile_full(pmilnor_profile_t *prof)
{
    memset(prof, 0, sizeof *prof);
    prof->q_part = ~(uint32_t)0;
}

int pmilnor_profile_is_full(const pmilnor_profile_t *prof)
{
    return !prof->truncated && prof->q_part == ~(uint32_t)0 && prof->len == 0;
}

/* h_i of the profile (1-based); -1 stands for infinity. */
static int32_t prof_h(const pmilnor_profile_t *prof, int i)
{
    if (i >= 1 && i <= prof->len)
        return prof->p_part[i - 1];
    return prof->truncated ? 0 : -1;
}

int pmilnor_profile_check(uint32_t p, const pmilnor_profile_t *prof, char *err, size_t errlen)
{
    (void)p;
    if (prof->len < 0 || prof->len > PMILNOR_MAX_PROFILE) {
        snprintf(err, errlen, "\"p_part\" has %d entries; at most %d are supported", prof->len,
                 PMILNOR_MAX_PROFILE);
        return SQ_E_INVAL;
    }
    for (int i = 0; i < prof->len; i++)
        if (prof->p_part[i] < 0 || prof->p_part[i] > 30) {
            snprintf(err, errlen, "\"p_part\" entry %d is %d; entries must lie in 0..30", i + 1,
                     (int)prof->p_part[i]);
            return SQ_E_INVAL;
        }
    /* h_i <= j + h_{i+j} or h_j <= h_{i+j}, for i, j >= 1 (infinity = -1). */
    int top = prof->len + 2;
    for (int i = 1; i <= top; i++)
        for (int j = 1; j <= top; j++) {
            int32_t hi = prof_h(prof, i), hj = prof_h(prof, j), hij = prof_h(prof, i + j);
            if (hij < 0)
                continue; /* h_{i+j} infinite: both hold */
            int ok1 = hi >= 0 && hi <= j + hij;
            int ok2 = hj >= 0 && hj <= hij;
            if (!ok1 && !ok2) {
                snprintf(err, errlen,
                         "\"p_part\" is not the profile of a sub-Hopf algebra (h_%d > %d + h_%d "
                         "and h_%d > h_%d)",
                         i, j, i + j, j, i + j);
                return SQ_E_INVAL;
            }
        }
    /* Q_n left out, Q_m kept, m < n: xi_{n-m}^{p^m} must vanish in the quotient. */
    for (int n = 0; n < 32; n++) {
        if ((prof->q_part >> n) & 1)
            continue;
        for (int m = 0; m < n; m++) {
            if (!((prof->q_part >> m) & 1))
                continue;
            int32_t h = prof_h(prof, n - m);
            if (h < 0 || h > m) {
                snprintf(err, errlen,
                         "\"q_part\" leaves out Q_%d but keeps Q_%d while h_%d > %d: not a sub-Hopf "
                         "algebra",
                         n, m, n - m, m);
                return SQ_E_INVAL;
            }
        }
    }
    return 0;
}

/* Largest value of r_i allowed by the profile (INT32_MAX: unbounded). */
static int32_t prof_rmax(uint32_t p, const pmilnor_profile_t *prof, int i)
{
    int32_t h = prof_h(prof, i);
    if (h < 0)
        return INT32_MAX;
    int64_t v = 1;
    for (int32_t k = 0; k < h && v <= INT32_MAX; k++)
        v *= p;
    return v - 1 > INT32_MAX ? INT32_MAX : (int32_t)(v - 1);
}

/* The shape of an algebra: positions, weights, bounds, exterior degrees. */
static void shape(pmilnor_t *A, uint32_t p, int32_t max_degree, const pmilnor_profile_t *prof)
{
    A->p = p;
    A->q = 2 * p - 2;
    A->max_deg = max_degree;
    A->max_red = max_degree / (int32_t)A->q;
    if (prof)
        A->prof = *prof;
    else
        pmilnor_profile_full(&A->prof);
    A->npos = 0;
    int64_t w = 1, pk = p;
    while (A->npos < PMILNOR_MAX_LEN && w <= A->max_red) {
        A->npos++;
        A->w[A->npos] = (int32_t)w;
        A->rmax[A->npos] = prof_rmax(p, &A->prof, A->npos);
        w += pk;
        pk *= p;
    }
    SQ_CHECK(w > A->max_red, "pmilnor: degree %d needs more than %d p-part positions",
             (int)max_degree, PMILNOR_MAX_LEN);
    A->nq = 0;
    int64_t qd = 1, pn = 1;
    while (A->nq < PMILNOR_MAX_LEN && 2 * pn - 1 <= max_degree) {
        qd = 2 * pn - 1;
        A->qdeg[A->nq++] = (int32_t)qd;
        pn *= p;
    }
    SQ_CHECK(2 * pn - 1 > max_degree, "pmilnor: degree %d needs more than %d exterior indices",
             (int)max_degree, PMILNOR_MAX_LEN);
    A->qallow = A->prof.q_part & (uint32_t)((1u << A->nq) - 1);
}

static int64_t mask_degree(const pmilnor_t *A, uint32_t q)
{
    int64_t d = 0;
    for (int n = 0; q; n++, q >>= 1)
        if (q & 1)
            d += A->qdeg[n];
    return d;
}

/* cnt and cum for reduced degrees 0..max_red. */
static void count_tables(pmilnor_t *A)
{
    int64_t M = A->max_red + 1;
    A->cnt = sq_calloc(sq_mul_size((size_t)(A->npos + 1), (size_t)M), sizeof *A->cnt);
    A->cum = sq_calloc(sq_mul_size((size_t)(A->npos + 1), (size_t)M), sizeof *A->cum);
    A->cnt[0] = 1;
    for (int i = 1; i <= A->npos; i++) {
        int64_t *c = A->cnt + i * M, *pc = A->cnt + (i - 1) * M, *cu = A->cum + i * M;
        int32_t w = A->w[i];
        for (int64_t m = 0; m < M; m++) {
            cu[m] = pc[m] + (m >= w ? cu[m - w] : 0);
            /* cnt[i][m] = sum_{v <= rmax} cnt[i-1][m - v w] = cum[m] - cum[m - (rmax+1) w]. */
            int64_t cut = (int64_t)A->rmax[i] + 1;
            int64_t low = cut > m / w ? -1 : m - cut * w;
            c[m] = cu[m] - (low >= 0 ? cu[low] : 0);
        }
    }
}

static inline int64_t npp(const pmilnor_t *A, int32_t n)
{
    return A->cnt[(int64_t)A->npos * (A->max_red + 1) + n];
}

int64_t pmilnor_size(uint32_t p, int32_t max_degree, const pmilnor_profile_t *prof)
{
    pmilnor_t A;
    memset(&A, 0, sizeof A);
    shape(&A, p, max_degree, prof);
    count_tables(&A);
    int64_t total = 0;
    for (uint32_t q = 0; q < (1u << A.nq); q++) {
        if (q & ~A.qallow)
            continue;
        int64_t qd = mask_degree(&A, q);
        for (int64_t d = qd; d <= max_degree; d++)
            if ((d - qd) % A.q == 0)
                total += npp(&A, (int32_t)((d - qd) / A.q));
    }
    sq_free(A.cnt);
    sq_free(A.cum);
    return total;
}

/* Emits the p-parts of reduced degree m into the pool in lexicographic
 * order on (r_K, ..., r_1): positions from the top, values increasing. */
static void gen_pparts(pmilnor_t *A, int i, int32_t m, uint16_t *cur, int64_t *at)
{
    if (i == 0) {
        if (m == 0) {
            memcpy(A->pool + *at * A->npos, cur + 1, (size_t)A->npos * sizeof *cur);
            (*at)++;
        }
        return;
    }
    int64_t M = A->max_red + 1;
    int32_t w = A->w[i];
    for (int64_t v = 0; v <= A->rmax[i] && v * w <= m; v++) {
        if (A->cnt[(int64_t)(i - 1) * M + (m - v * w)] == 0)
            continue;
        cur[i] = (uint16_t)v;
        gen_pparts(A, i - 1, (int32_t)(m - v * w), cur, at);
    }
    cur[i] = 0;
}

pmilnor_t *pmilnor_new(uint32_t p, int32_t max_degree, const pmilnor_profile_t *prof)
{
    SQ_CHECK(p >= 3 && p < 256 && p % 2 == 1, "pmilnor_new: p = %u is not an odd prime < 256",
             (unsigned)p);
    for (uint32_t d = 3; d * d <= p; d += 2)
        SQ_CHECK(p % d, "pmilnor_new: p = %u is not prime", (unsigned)p);
    SQ_CHECK(max_degree >= 0 && max_degree <= PMILNOR_MAX_DEGREE,
             "pmilnor_new: max degree %d out of range", (int)max_degree);
    if (prof) {
        char err[200];
        SQ_CHECK(pmilnor_profile_check(p, prof, err, sizeof err) == 0, "pmilnor_new: %s", err);
    }
    int64_t size = pmilnor_size(p, max_degree, prof);
    SQ_CHECK(size <= PMILNOR_MAX_ELEMENTS, "pmilnor_new: %lld basis elements, beyond %lld",
             (long long)size, (long long)PMILNOR_MAX_ELEMENTS);
    pmilnor_t *A = sq_calloc(1, sizeof *A);
    shape(A, p, max_degree, prof);
    count_tables(A);
    /* The p-part lists, one per reduced degree.  Entries fit 16 bits: r_i <=
     * max_red <= PMILNOR_MAX_DEGREE / 4. */
    int64_t M = A->max_red + 1, total = 0;
    A->pp_start = sq_calloc((size_t)M + 1, sizeof *A->pp_start);
    for (int32_t n = 0; n < M; n++) {
        A->pp_start[n] = total;
        total += npp(A, n);
    }
    A->pp_start[M] = total;
    A->pool = sq_calloc(sq_mul_size((size_t)total + 1, (size_t)(A->npos ? A->npos : 1)),
                        sizeof *A->pool);
    uint16_t cur[PMILNOR_MAX_LEN + 1] = {0};
    for (int32_t n = 0; n < M; n++) {
        int64_t at = A->pp_start[n];
        gen_pparts(A, A->npos, n, cur, &at);
        SQ_CHECK(at == A->pp_start[n + 1], "pmilnor_new: p-part count mismatch in degree %d",
                 (int)n);
    }
    /* The blocks of every degree: masks increasing. */
    int64_t D = (int64_t)max_degree + 1, nblk = 0, cap = 64;
    A->dim = sq_calloc((size_t)D, sizeof *A->dim);
    A->blk_start = sq_calloc((size_t)D + 1, sizeof *A->blk_start);
    A->blk = sq_malloc(sq_mul_size((size_t)cap, sizeof *A->blk));
    for (int64_t d = 0; d < D; d++) {
        A->blk_start[d] = nblk;
        int64_t off = 0;
        for (uint32_t q = 0; q < (1u << A->nq); q++) {
            if (q & ~A->qallow)
                continue;
            int64_t qd = mask_degree(A, q);
            if (qd > d || (d - qd) % A->q)
                continue;
            int32_t n = (int32_t)((d - qd) / A->q);
            int64_t c = npp(A, n);
            if (!c)
                continue;
            if (nblk == cap) {
                cap *= 2;
                A->blk = sq_realloc(A->blk, sq_mul_size((size_t)cap, sizeof *A->blk));
            }
            A->blk[nblk].q = q;
            A->blk[nblk].n = n;
            A->blk[nblk].off = off;
            nblk++;
            off += c;
        }
        A->dim[d] = off;
    }
    A->blk_start[D] = nblk;
    /* Lucas tables for the product (pmilnor_mul.c). */
    pmilnor_mul_tables_init(A);
    return A;
}

void pmilnor_free(pmilnor_t *A)
{
    if (!A)
        return;
    sq_free(A->cnt);
    sq_free(A->cum);
    sq_free(A->pp_start);
    sq_free(A->pool);
    sq_free(A->dim);
    sq_free(A->blk_start);
    sq_free(A->blk);
    pmilnor_mul_tables_clear(A);
    sq_free(A);
}

uint32_t pmilnor_prime(const pmilnor_t *A)
{
    return A->p;
}

int32_t pmilnor_max_degree(const pmilnor_t *A)
{
    return A->max_deg;
}

const pmilnor_profile_t *pmilnor_profile(const pmilnor_t *A)
{
    return &A->prof;
}

int64_t pmilnor_dim(const pmilnor_t *A, int32_t deg)
{
    if (deg < 0 || deg > A->max_deg)
        return 0;
    return A->dim[deg];
}

void pmilnor_get(const pmilnor_t *A, int32_t deg, int64_t idx, pmilnor_elt_t *e)
{
    SQ_CHECK(deg >= 0 && deg <= A->max_deg && idx >= 0 && idx < A->dim[deg],
             "pmilnor_get: no element %lld in degree %d", (long long)idx, (int)deg);
    int64_t lo = A->blk_start[deg], hi = A->blk_start[deg + 1] - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (A->blk[mid].off <= idx)
            lo = mid;
        else
            hi = mid - 1;
    }
    const pmilnor_blk_t *b = &A->blk[lo];
    const uint16_t *pp = A->pool + (A->pp_start[b->n] + idx - b->off) * A->npos;
    e->q = b->q;
    e->len = 0;
    for (int i = 0; i < PMILNOR_MAX_LEN; i++) {
        e->r[i] = i < A->npos ? pp[i] : 0;
        if (e->r[i])
            e->len = i + 1;
    }
}

int64_t pmilnor_elt_degree(uint32_t p, const pmilnor_elt_t *e)
{
    /* pk stays exact while <= INT32_MAX and saturates above (any factor
     * that large overflows the result anyway). */
    int64_t d = 0, pk = 1;
    for (int n = 0; n < 32 && (e->q >> n); n++) {
        if ((e->q >> n) & 1) {
            if (pk > INT32_MAX)
                return -1;
            d += 2 * pk - 1;
            if (d > INT32_MAX)
                return -1;
        }
        if (pk <= INT32_MAX)
            pk *= p;
    }
    pk = p;
    for (int i = 0; i < e->len; i++) {
        if (e->r[i]) {
            if (pk > INT32_MAX || e->r[i] < 0 || e->r[i] > (INT32_MAX - d) / (2 * (pk - 1)))
                return -1;
            d += (int64_t)e->r[i] * 2 * (pk - 1);
            if (d > INT32_MAX)
                return -1;
        }
        if (pk <= INT32_MAX)
            pk *= p;
    }
    return d;
}

int64_t pmilnor_index(const pmilnor_t *A, const pmilnor_elt_t *e)
{
    if (e->q & ~A->qallow)
        return -1;
    int64_t qd = mask_degree(A, e->q);
    int64_t red = 0;
    for (int i = 0; i < e->len; i++) {
        if (!e->r[i])
            continue;
        if (i >= A->npos || e->r[i] > A->rmax[i + 1])
            return -1;
        red += (int64_t)e->r[i] * A->w[i + 1];
        if (red > A->max_red)
            return -1;
    }
    int64_t d = qd + red * A->q;
    if (d > A->max_deg)
        return -1;
    /* The block of the mask (blocks are sorted by mask). */
    int64_t lo = A->blk_start[d], hi = A->blk_start[d + 1] - 1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (A->blk[mid].q == e->q) {
            lo = mid;
            break;
        }
        if (A->blk[mid].q < e->q)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    if (lo > hi || A->blk[lo].q != e->q)
        return -1;
    return A->blk[lo].off + pmilnor_pp_rank(A, e->r, e->len, (int32_t)red);
}

int64_t pmilnor_pp_rank(const pmilnor_t *A, const int32_t *r, int len, int32_t red)
{
    int64_t M = A->max_red + 1, rank = 0, m = red;
    for (int i = len; i >= 1; i--) {
        int64_t ri = r[i - 1];
        if (!ri)
            continue;
        const int64_t *cu = A->cum + (int64_t)i * M;
        int64_t low = m - ri * A->w[i];
        rank += cu[m] - (low >= 0 ? cu[low] : 0);
        m = low;
    }
    return rank;
}

void pmilnor_format_elt(char *buf, size_t n, const pmilnor_elt_t *e)
{
    if (!n)
        return;
    buf[0] = 0;
    size_t k = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        if (k < n)                                                                                 \
            k += (size_t)snprintf(buf + k, n - k, __VA_ARGS__);                                    \
    } while (0)
    if (!e->q && !e->len) {
        PUT("1");
        return;
    }
    int first = 1;
    for (int i = 0; i < 32; i++)
        if ((e->q >> i) & 1) {
            PUT("%sQ_%d", first ? "" : " ", i);
            first = 0;
        }
    if (e->len) {
        PUT("%sP(", first ? "" : " ");
        for (int i = 0; i < e->len; i++)
            PUT(i ? ", %d" : "%d", (int)e->r[i]);
        PUT(")");
    }
#undef PUT
}

void pmilnor_format(char *buf, size_t n, const pmilnor_t *A, int32_t deg, int64_t idx)
{
    pmilnor_elt_t e;
    pmilnor_get(A, deg, idx, &e);
    pmilnor_format_elt(buf, n, &e);
}

int64_t pmilnor_beps_pn(const pmilnor_t *A, int e, int32_t n, int32_t *deg)
{
    pmilnor_elt_t x;
    memset(&x, 0, sizeof x);
    x.q = e ? 1u : 0u;
    x.r[0] = n;
    x.len = n ? 1 : 0;
    int64_t d = pmilnor_elt_degree(A->p, &x);
    if (deg)
        *deg = (int32_t)d;
    return d < 0 ? -1 : pmilnor_index(A, &x);
}
