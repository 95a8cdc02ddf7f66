/*
 * milnor_op.c -- Sq(R) * v: the product by one element applied to a vector
 * ("operation by element"), the hot path of the resolution.
 *
 * Split the Milnor matrix of Sq(R) Sq(S) (milnor_mul.c) into its R side,
 * the rows i >= 1 including the border x_i0, and the top row x_0j.  The R
 * side does not depend on S except through its column sums c_j =
 * sum_{i>=1} x_ij, and then x_0j = s_j - c_j.  So, once per call:
 *
 *   enumerate the "R-configurations": R-side matrices whose row sums match
 *   R, whose anti-diagonals are disjoint among themselves, and whose column
 *   sums have degree sum_j c_j (2^j - 1) <= |S|; keep each as two packed
 *   words, c (the column sums) and D (D_n = OR of its entries on
 *   anti-diagonal n);
 *
 * and then, for each S set in v, each configuration contributes Sq(T) iff
 * c_j <= s_j for all j and (s_j - c_j) & D_j == 0, with T_j = (s_j - c_j) | D_j.
 * With the packed layout below this test is a subtraction and two masks:
 *
 *      diff = (s | G) - c           G: a guard bit above every field; no field
 *      ok   = ((diff & (D | G)) ^ G) == 0   borrows from its neighbour, and
 *      T    = (diff | D) & ~G               field j keeps its guard iff s_j >= c_j
 *
 * The R side of every such matrix has degree |R| + deg(c) <= |R| + |S|
 * (since 2^{i+j} - 1 = 2^j (2^i - 1) + (2^j - 1)), so no field overflows.
 *
 * Packed layout (fields n = 1..9 for positions 1..9, valid while the product
 * degree |R| + |S| <= PK_MAXDEG = 511; field n holds values up to
 * 511 / (2^n - 1), and one guard bit sits above it):
 *
 *      bit:  0      9 10      18 19     26 27    33 34   39 40  44 45 48 49 51 52 53
 *            |  n=1 |G|  n=2  |G|  n=3  |G| n=4  |G| n=5 |G| n=6|G|n=7|G|n8|G|9|G|
 *
 * The configurations are built row by row (gen_row, combine), sorted by c_1
 * so that an S scans only those with c_1 <= s_1, and scanned four S's at a
 * time (the guard_scan4 kernel of f2_kernels.h; one S at a time, 64
 * configurations into a branch-free hit mask, where S is not tabled).  Below CFG_MIN_BITS set bits in v, above
 * degree 511, or when the lists outgrow their stack buffers, each S gets its
 * own matrix walk (milnor_mul.c) instead.
 *
 * The workspace (milnor_ws_t, at the end) keeps the configurations of one R
 * for all the blocks of an image d(g), built once for the largest block
 * degree (c <= s componentwise already implies deg c <= deg S, so they serve
 * every smaller degree), in heap buffers reused from one R to the next.
 */
#include <string.h>

#include "f2_kernels.h"
#include "internal.h"

/* The packed layout and its ranking (internal.h, shared with pair_algebra.c)
 * under this file's short names. */
#define PK_MAXDEG MILNOR_PK_MAXDEG
#define PK_NF MILNOR_PK_NF
#define PK_GUARD MILNOR_PK_GUARD
#define pk_shift milnor_pk_shift
#define pk_vmask milnor_pk_vmask
#define rank_of milnor_rank_pk
#define rank_rows milnor_rank_rows
#define rank_packed milnor_rank_packed

/* A list of packed (c, d) pairs, structure of arrays so that scans over it
 * vectorise. */
typedef struct {
    int64_t n, cap;
    uint64_t *c; /* packed column sums */
    uint64_t *d; /* packed anti-diagonal ORs */
} plist_t;

static inline void flip_bit(uint64_t *out, int64_t bit)
{
    out[bit >> 6] ^= UINT64_C(1) << (bit & 63);
}

/*
 * Row vectors.  Row i of an R-configuration is (x_i1, ..., x_iq) with
 * sum_j 2^j x_ij <= r_i, and x_i0 = r_i - that sum.  Packed, a row vector is
 * c (x_ij in field j: its share of the column sums), d (x_i0 in field i, x_ij
 * in field i + j: its entries in their anti-diagonal fields) and deg =
 * sum_j x_ij (2^j - 1).  The entries of one row lie on distinct
 * anti-diagonals, so an R-configuration is one row vector per row with
 * pairwise disjoint d's (field n of d_a & d_b is the overlap of two entries
 * of anti-diagonal n) and degrees summing to <= |S|; its c is the sum of the
 * c's and its D the OR of the d's.  Entries on anti-diagonals above 9 are
 * never allowed (2^10 - 1 > PK_MAXDEG), which also keeps every field in range.
 */
typedef struct {
    int32_t sdeg;
    int i;  /* the row being listed */
    int qi; /* its last usable column */
    int overflow;
    plist_t *L;
    uint16_t *deg;
} rowgen_t;

static void gen_row(rowgen_t *g, int j, uint32_t rem, int32_t deg, uint64_t c, uint64_t d)
{
    if (j > g->qi) {
        plist_t *L = g->L;
        if (L->n == L->cap) {
            g->overflow = 1;
            return;
        }
        L->c[L->n] = c;
        L->d[L->n] = d | ((uint64_t)rem << pk_shift[g->i]);
        g->deg[L->n] = (uint16_t)deg;
        L->n++;
        return;
    }
    int32_t w = milnor_w(j);
    for (uint32_t x = 0; (x << j) <= rem && deg + (int32_t)x * w <= g->sdeg && !g->overflow; x++)
        gen_row(g, j + 1, rem - (x << j), deg + (int32_t)x * w, c + ((uint64_t)x << pk_shift[j]),
                d + ((uint64_t)x << pk_shift[g->i + j]));
}

/* Combining the row vectors of rows lo..hi-1 into partial configurations. */
typedef struct {
    int64_t start[PK_NF + 1], end[PK_NF + 1]; /* row vectors of each row */
    const plist_t *rows;
    const uint16_t *deg;
    const int32_t *upto; /* row hi - 1 sorted by degree: [start, start + upto[x]) has deg < x */
    int32_t sdeg;
    int hi;
    plist_t *out;
} comb_t;

/* Appends every completion of the partial configuration (c, d, deg) by rows
 * k..hi-1 to cb->out; returns -1 on overflow. */
static int combine(comb_t *cb, int k, uint64_t c, uint64_t d, int32_t deg)
{
    const plist_t *L = cb->rows;
    if (k == cb->hi) {
        plist_t *o = cb->out;
        if (o->n == o->cap)
            return -1;
        o->c[o->n] = c;
        o->d[o->n] = d;
        o->n++;
        return 0;
    }
    if (k == cb->hi - 1) {
        /* The row is sorted by degree: only a prefix fits the budget.
         * Branch-free compaction: write every candidate, keep the good. */
        plist_t *o = cb->out;
        int64_t end = cb->start[k] + cb->upto[cb->sdeg - deg + 1];
        if (o->n + (end - cb->start[k]) > o->cap)
            return -1;
        int64_t n = o->n;
        for (int64_t e = cb->start[k]; e < end; e++) {
            o->c[n] = c + L->c[e];
            o->d[n] = d | L->d[e];
            n += (d & L->d[e]) == 0;
        }
        o->n = n;
        return 0;
    }
    for (int64_t e = cb->start[k]; e < cb->end[k]; e++) {
        if ((d & L->d[e]) || deg + cb->deg[e] > cb->sdeg)
            continue;
        if (combine(cb, k + 1, c + L->c[e], d | L->d[e], deg + cb->deg[e]) < 0)
            return -1;
    }
    return 0;
}

/*
 * Sorts a[0..n), b[0..n) (and k16[0..n) if not NULL) in place by the key
 * k16[i] (or a[i] & 511 when k16 is NULL), keys in 0..kmax, with an American
 * flag sort (count, then swap each entry into its bucket); O(n + kmax).
 * Leaves in upto[x] (x = 0..kmax+1) the number of entries with key < x.
 */
static void flag_sort(uint64_t *a, uint64_t *b, uint16_t *k16, int64_t n, int32_t kmax,
                      int32_t *upto)
{
    int32_t next[PK_MAXDEG + 2];
    for (int32_t x = 0; x <= kmax + 1; x++)
        upto[x] = 0;
    int32_t top = 0; /* the largest key present: the loops below stop there */
    for (int64_t i = 0; i < n; i++) {
        int32_t key = k16 ? k16[i] : (int32_t)(a[i] & 511);
        upto[key + 1]++;
        top = key > top ? key : top;
    }
    for (int32_t x = 1; x <= top + 1; x++)
        upto[x] += upto[x - 1];
    for (int32_t x = top + 2; x <= kmax + 1; x++)
        upto[x] = (int32_t)n;
    for (int32_t x = 0; x <= top; x++)
        next[x] = upto[x];
    for (int32_t x = 0; x <= top; x++) {
        while (next[x] < upto[x + 1]) {
            int64_t i = next[x];
            int32_t key = k16 ? k16[i] : (int32_t)(a[i] & 511);
            if (key == x) {
                next[x]++;
                continue;
            }
            int64_t to = next[key]++;
            uint64_t ta = a[i], tb = b[i];
            a[i] = a[to];
            b[i] = b[to];
            a[to] = ta;
            b[to] = tb;
            if (k16) {
                uint16_t tk = k16[i];
                k16[i] = k16[to];
                k16[to] = tk;
            }
        }
    }
}

/*
 * Buffers.  ROWV_CAP row vectors (18 bytes each) and CFG_CAP configurations
 * (16 bytes each) live on the stack, about 100 KB with the rest.  A call
 * whose lists outgrow them retries once with HEAP_FACTOR times larger
 * buffers from the heap (one allocation per such call, ~1.6 MB), and only if
 * those overflow too falls back to one matrix walk per S.  In degrees
 * 100-200 the configurations number a few hundred on average; lists beyond
 * the stack buffers come with R of several long rows, where a product has
 * hundreds of raw terms, each call costs milliseconds (so the allocation
 * does not show), and the configurations still beat the walk by 1.5x
 * (instruction and branch-miss counts, cachegrind, rows_200_40 and
 * rows_200_100 of bench/b-milnor.c).
 */
#define ROWV_CAP 2048
#define CFG_CAP 4096
#define HEAP_FACTOR 16

typedef struct {
    plist_t rows;                /* row vectors */
    uint16_t *rdeg;              /* their degrees */
    plist_t cfg;                 /* configurations; after sort_configs, d holds D | PK_GUARD */
    int32_t upto[PK_MAXDEG + 2]; /* configurations with c_1 < x: [0, upto[x]) */
} configs_t;

/* Fills C->cfg (empty, with its buffers and caps set, as C->rows) with the
 * R-configurations of op's R (length >= 1, |R| + sdeg <= PK_MAXDEG) of
 * column-sum degree <= sdeg; 0, or -1 if they do not fit.  Rows are combined
 * in order of increasing list size, so that the longest list is the
 * innermost, branch-free loop of combine(). */
static int build_configs(const milnor_op_t *op, int32_t sdeg, configs_t *C)
{
    plist_t *rows = &C->rows;
    uint16_t *rdeg = C->rdeg;
    comb_t cb;
    const int p = op->len;
    for (int i = 1; i <= p; i++) {
        rowgen_t g = {sdeg, i, 0, 0, rows, rdeg};
        while (i + g.qi + 1 <= PK_NF && (op->r[i] >> (g.qi + 1)) > 0 && milnor_w(g.qi + 1) <= sdeg)
            g.qi++;
        int64_t first = rows->n;
        gen_row(&g, 1, (uint32_t)op->r[i], 0, 0, 0);
        if (g.overflow)
            return -1;
        int at = i - 1; /* insert row i's list by increasing size */
        while (at > 0 && cb.end[at - 1] - cb.start[at - 1] > rows->n - first) {
            cb.start[at] = cb.start[at - 1];
            cb.end[at] = cb.end[at - 1];
            at--;
        }
        cb.start[at] = first;
        cb.end[at] = rows->n;
    }
    int32_t upto[PK_MAXDEG + 2];
    int64_t s0 = cb.start[p - 1];
    flag_sort(rows->c + s0, rows->d + s0, rdeg + s0, cb.end[p - 1] - s0, sdeg, upto);
    cb.rows = rows;
    cb.deg = rdeg;
    cb.upto = upto;
    cb.sdeg = sdeg;
    cb.hi = p;
    cb.out = &C->cfg;
    return combine(&cb, 0, 0, 0, 0);
}

/* Points C's lists at the given buffers, empty. */
static void configs_set(configs_t *C, uint64_t *mem, uint16_t *rdeg, int64_t rowcap, int64_t cfgcap)
{
    C->rows = (plist_t){0, rowcap, mem, mem + rowcap};
    C->rdeg = rdeg;
    C->cfg = (plist_t){0, cfgcap, mem + 2 * rowcap, mem + 2 * rowcap + cfgcap};
}

/*
 * Sorts the configurations by c_1 (flag_sort), filling C->upto, and ORs the
 * guard bits into every D.  For an S only the prefix with c_1 <= s_1 is
 * scanned, which in degrees 100-200 skips about half of them.
 */
static void sort_configs(configs_t *C, int32_t sdeg)
{
    flag_sort(C->cfg.c, C->cfg.d, NULL, C->cfg.n, sdeg, C->upto);
    for (int64_t k = 0; k < C->cfg.n; k++)
        C->cfg.d[k] |= PK_GUARD;
}

/* out ^= Sq(R) Sq(S) over the sorted configurations C, S packed with guards
 * in sg and s_1 = s1. */
static inline void scan_configs(const milnor_t *A, const configs_t *C, uint64_t sg, int32_t s1,
                                uint64_t *out, int64_t off)
{
    const int64_t n = C->upto[s1 + 1];
    /* 64 configurations at a time into a hit mask, branch-free.  With
     * dg = D | G and diff = (s | G) - c, (diff & dg) ^ G is zero iff no
     * guard was borrowed (c <= s) and s - c misses D. */
    for (int64_t k0 = 0; k0 < n; k0 += 64) {
        int64_t nb = n - k0 < 64 ? n - k0 : 64;
        const uint64_t *c = C->cfg.c + k0, *dg = C->cfg.d + k0;
        uint64_t hits = 0;
        for (int64_t b = 0; b < nb; b++) {
            uint64_t bad = ((sg - c[b]) & dg[b]) ^ PK_GUARD;
            hits |= (uint64_t)(bad == 0) << b;
        }
        while (hits) {
            int b = __builtin_ctzll(hits);
            hits &= hits - 1;
            uint64_t T = ((sg - c[b]) | dg[b]) & ~PK_GUARD;
            flip_bit(out, off + rank_packed(A, T));
        }
    }
}

static inline const uint64_t *pk_row(const milnor_t *A, int32_t deg);
static inline int unpack_pk(uint64_t w, int32_t *r);

typedef struct {
    const milnor_t *A;
    const uint64_t *v;
    const uint64_t *pk; /* the packed p-parts of the degree, or NULL */
    int64_t dim, nlimbs, limb, cur;
    uint64_t word;
    int32_t deg;
    int q;
    int32_t s[MILNOR_MAX_LEN + 1];
} siter_t;

/*
 * STEP_MAX: the p-part of the next set bit is obtained by stepping
 * milnor_next_raw (O(len) each) when the gap is at most STEP_MAX, and by
 * unranking afresh (O(len log d)) otherwise; one unranking costs about as
 * much as 8 steps in degrees 50-200 (bench/b-milnor.c, get_index_150).
 */
#define STEP_MAX 8

static void siter_init(siter_t *it, const milnor_t *A, int32_t deg, const uint64_t *v)
{
    it->A = A;
    it->v = v;
    it->deg = deg;
    it->dim = milnor_dim(A, deg);
    it->pk = deg > 0 && !A->sub ? pk_row(A, deg) : NULL;
    it->nlimbs = (it->dim + 63) / 64;
    it->limb = -1;
    it->word = 0;
    it->cur = -1;
    it->q = 0;
}

static inline int siter_next(siter_t *it)
{
    while (!it->word) {
        if (++it->limb >= it->nlimbs)
            return 0;
        it->word = it->v[it->limb];
        if (it->limb == it->nlimbs - 1 && (it->dim & 63))
            it->word &= (UINT64_C(1) << (it->dim & 63)) - 1;
    }
    int64_t k = it->limb * 64 + __builtin_ctzll(it->word);
    it->word &= it->word - 1;
    if (it->cur >= 0 && k - it->cur <= STEP_MAX) {
        for (; it->cur < k; it->cur++)
            milnor_next_raw(it->s, &it->q);
    } else {
        /* the table where the products built it (a bisection costs ~5x) */
        it->q = it->pk ? unpack_pk(it->pk[k], it->s) : milnor_unrank_raw(it->A, it->deg, k, it->s);
        it->cur = k;
    }
    return 1;
}

/*
 * CFG_MIN_BITS: the configurations are built only when v (or, for a
 * workspace, the image it serves) has at least this many set bits.
 * Building them costs about as much as 3-5 walks for R of degree 60-160 and
 * |S| of 30-40; measured break-even (instruction and branch-miss counts,
 * cachegrind, on bench/b-milnor.c style inputs) was 4-6 set bits.  Since
 * the scan takes four S's at a time it costs less per S, and the whole
 * resolution prefers 8: S_2 (90, 48) one thread 10.11e9 instructions with
 * 3, 9.75e9 with 5, 9.68e9 with 8, 9.94e9 with 12 (older build: 9.91e9
 * with 5), 10.45e9 with 32; (100, 52) 22.09e9 with 5, 21.89e9 with 8.
 */
#define CFG_MIN_BITS 8

/* 1 iff v (dim bits) has at least CFG_MIN_BITS set bits. */
static int enough_bits(const uint64_t *v, int64_t dim)
{
    int seen = 0;
    int64_t nl = (dim + 63) / 64;
    for (int64_t l = 0; l < nl; l++) {
        uint64_t w = v[l];
        if (l == nl - 1 && (dim & 63))
            w &= (UINT64_C(1) << (dim & 63)) - 1;
        for (; w; w &= w - 1)
            if (++seen >= CFG_MIN_BITS)
                return 1;
    }
    return 0;
}

/*
 * PK_ROW_MAX: the largest degree (in elements) whose packed p-parts are
 * tabled: 8 MB a degree; degrees up to 250 hold 2 million elements in all
 * (16 MB), up to 300 five million.
 */
#define PK_ROW_MAX (INT64_C(1) << 20)

/* The packed p-parts (guards set) of the basis of degree deg, in order,
 * built on first use and shared by every thread (the first to publish
 * wins); NULL above PK_MAXDEG or PK_ROW_MAX elements.  With it, a product
 * reads each S of its vector as one word, instead of unranking or stepping
 * to it and packing it (a third of the products' instructions). */
static const uint64_t *pk_row_build(const milnor_t *A, int32_t deg);

static inline const uint64_t *pk_row(const milnor_t *A, int32_t deg)
{
    if (deg > PK_MAXDEG || deg > A->max_degree || !A->pkrow)
        return NULL;
    const uint64_t *row = atomic_load_explicit(&A->pkrow[deg], memory_order_acquire);
    return row ? row : pk_row_build(A, deg);
}

/* pk_row's first use of a degree: builds and publishes its table. */
static __attribute__((noinline)) const uint64_t *pk_row_build(const milnor_t *A, int32_t deg)
{
    uint64_t *row;
    int64_t dim = milnor_dim(A, deg);
    if (dim == 0 || dim > PK_ROW_MAX)
        return NULL;
    row = sq_malloc(sq_mul_size((size_t)dim, sizeof *row));
    int32_t s[MILNOR_MAX_LEN + 1];
    int q = milnor_unrank_raw(A, deg, 0, s);
    for (int64_t k = 0; k < dim; k++) {
        if (k)
            milnor_next_raw(s, &q);
        uint64_t sg = PK_GUARD;
        for (int j = 1; j <= q; j++)
            sg |= (uint64_t)s[j] << pk_shift[j];
        row[k] = sg;
    }
    uint64_t *had = NULL;
    if (!atomic_compare_exchange_strong_explicit(&A->pkrow[deg], &had, row, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        sq_free(row); /* another thread published the same words first */
        return had;
    }
    return row;
}

/* SCAN_CHUNK: configurations per call of the guard_scan4 kernel. */
#define SCAN_CHUNK 256

/* out ^= Sq(R) Sq(S_i) at offset off[i] for the ns (1..4) S's packed with
 * guards in sg[0..ns) (the other lanes are ignored; the S's may be of
 * different degrees <= the configurations' bound) over the sorted
 * configurations C:
 * the kernel guard_scan4 (f2_kernels.h; AVX2 where the CPU has it) tests the
 * four against each configuration at once, up to the longest of their
 * c_1 <= s_1 prefixes (the test itself rejects c_1 > s_1). */
static void scan_configs4(const milnor_t *A, const f2_kernels_t *K, const configs_t *C,
                          const uint64_t *sg, int ns, uint64_t *out, const int64_t *off)
{
    uint64_t s1 = 0; /* the largest s_1: upto is non-decreasing */
    for (int i = 0; i < ns; i++)
        s1 = (sg[i] & 511) > s1 ? sg[i] & 511 : s1;
    const int64_t n = C->upto[s1 + 1];
    const uint32_t lanes = (1u << ns) - 1;
    const int32_t *zr = rank_rows(A); /* a local: out may alias A */
    const uint64_t s4[4] = {sg[0], sg[1], sg[2], sg[3]};
    uint32_t hits[SCAN_CHUNK];
    for (int64_t k0 = 0; k0 < n; k0 += SCAN_CHUNK) {
        int64_t nb = n - k0 < SCAN_CHUNK ? n - k0 : SCAN_CHUNK;
        const uint64_t *c = C->cfg.c + k0, *dg = C->cfg.d + k0;
        int64_t h = K->guard_scan4(hits, c, dg, nb, s4, PK_GUARD);
        for (int64_t j = 0; j < h; j++) {
            int64_t k = hits[j] >> 4;
            const uint64_t ck = c[k], dk = dg[k];
            for (uint32_t m = hits[j] & lanes; m; m &= m - 1) {
                /* both words have every guard set: ^ clears them */
                int lane = __builtin_ctz(m);
                uint64_t T = ((s4[lane] - ck) | dk) ^ PK_GUARD;
                flip_bit(out, off[lane] + rank_of(zr, T));
            }
        }
    }
}

/* The field (1..9) of each value bit of the packed layout (0 for guards and
 * the bits above): the length of a p-part is the field of its top bit. */
static const uint8_t pk_field_of_bit[64] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 0,    /* bits 0-9 */
    2, 2, 2, 2, 2, 2, 2, 2, 0,       /* 10-18 */
    3, 3, 3, 3, 3, 3, 3, 0,          /* 19-26 */
    4, 4, 4, 4, 4, 4, 0,             /* 27-33 */
    5, 5, 5, 5, 5, 0,                /* 34-39 */
    6, 6, 6, 6, 0,                   /* 40-44 */
    7, 7, 7, 0,                      /* 45-48 */
    8, 8, 0,                         /* 49-51 */
    9, 0,                            /* 52-53 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0};   /* 54-63 */

/* r[1..MILNOR_MAX_LEN] = the p-part packed in w (guards ignored); returns
 * its length. */
static inline int unpack_pk(uint64_t w, int32_t *r)
{
    w &= ~PK_GUARD;
    for (int n = 1; n <= PK_NF; n++)
        r[n] = (int32_t)((w >> pk_shift[n]) & pk_vmask[n]);
    for (int n = PK_NF + 1; n <= MILNOR_MAX_LEN; n++)
        r[n] = 0;
    return w ? pk_field_of_bit[63 - __builtin_clzll(w)] : 0;
}

int milnor_unrank_tab(const milnor_t *A, int32_t deg, int64_t idx, int32_t *r)
{
    /* Only a table the products built: building one here for every degree
     * asked would hold up to 720 MB for an algebra of degree 511. */
    const uint64_t *pk = deg <= PK_MAXDEG && deg <= A->max_degree && A->pkrow
                             ? atomic_load_explicit(&A->pkrow[deg], memory_order_acquire)
                             : NULL;
    if (!pk)
        return milnor_unrank_raw(A, deg, idx, r);
    return unpack_pk(pk[idx], r);
}

/* out ^= Sq(R) * (the vector of it) over the sorted configurations C. */
static void scan_vector(const milnor_t *A, const configs_t *C, siter_t *it, uint64_t *out,
                        int64_t off)
{
    const uint64_t *pk = pk_row(A, it->deg);
    if (pk) {
        /* Four S's at a time (s_1 is the low field, below the first guard). */
        const f2_kernels_t *K = f2_kernels();
        uint64_t sg[4] = {0, 0, 0, 0};
        const int64_t o4[4] = {off, off, off, off};
        int ns = 0;
        for (int64_t l = 0; l < it->nlimbs; l++) {
            uint64_t w = it->v[l];
            if (l == it->nlimbs - 1 && (it->dim & 63))
                w &= (UINT64_C(1) << (it->dim & 63)) - 1;
            for (; w; w &= w - 1) {
                sg[ns++] = pk[64 * l + __builtin_ctzll(w)];
                if (ns == 4) {
                    scan_configs4(A, K, C, sg, 4, out, o4);
                    ns = 0;
                }
            }
        }
        if (ns)
            scan_configs4(A, K, C, sg, ns, out, o4);
        return;
    }
    while (siter_next(it)) {
        uint64_t sg = PK_GUARD;
        for (int j = 1; j <= it->q; j++)
            sg |= (uint64_t)it->s[j] << pk_shift[j];
        scan_configs(A, C, sg, it->s[1], out, off);
    }
}

void milnor_op_init(milnor_op_t *op, const milnor_t *A, int32_t rdeg, int64_t ridx)
{
    SQ_CHECK(rdeg >= 0 && rdeg <= A->max_degree && ridx >= 0 && ridx < milnor_dim(A, rdeg),
             "milnor_op_init: element %lld of degree %d out of range", (long long)ridx, (int)rdeg);
    op->A = A;
    op->deg = rdeg;
    if (A->sub) {
        int32_t r[MILNOR_MAX_LEN];
        op->len = milnor_get(A, rdeg, ridx, r, MILNOR_MAX_LEN);
        memset(op->r, 0, sizeof op->r);
        memcpy(op->r + 1, r, (size_t)op->len * sizeof *r);
    } else {
        /* R through the packed table of its degree, built here if the
         * products have not yet (as pk_row builds the S's: a product's
         * degrees are <= the algebra's, so this adds no degree beyond what
         * the S's may build; bisection otherwise, 1.4% of a resolution's
         * instructions at (90, 48)) */
        const uint64_t *pk = pk_row(A, rdeg);
        op->len = pk ? unpack_pk(pk[ridx], op->r) : milnor_unrank_raw(A, rdeg, ridx, op->r);
    }
    op->r[0] = 0;
}

void milnor_op_mul_vec_add(const milnor_op_t *op, uint64_t *out, int64_t off, int32_t sdeg,
                           const uint64_t *v)
{
    const milnor_t *A = op->A;
    if (A->sub) {
        milnor_sub_op_mul_vec_add(op, out, off, sdeg, v);
        return;
    }
    milnor_check_degrees(A, op->deg, sdeg, off);
    siter_t it;
    siter_init(&it, A, sdeg, v);

    if (op->len > 0 && sdeg > 0 && op->deg + sdeg <= PK_MAXDEG && enough_bits(v, it.dim)) {
        uint64_t mem[2 * ROWV_CAP + 2 * CFG_CAP];
        uint16_t rdeg[ROWV_CAP];
        void *heap = NULL;
        configs_t C;
        configs_set(&C, mem, rdeg, ROWV_CAP, CFG_CAP);
        int ok = build_configs(op, sdeg, &C) == 0;
        if (!ok) {
            const int64_t rcap = HEAP_FACTOR * ROWV_CAP, ccap = HEAP_FACTOR * CFG_CAP;
            heap = sq_malloc(sq_mul_size((size_t)(2 * rcap + 2 * ccap), 8) +
                             sq_mul_size((size_t)rcap, sizeof(uint16_t)));
            configs_set(&C, heap, (uint16_t *)((uint64_t *)heap + 2 * rcap + 2 * ccap), rcap, ccap);
            ok = build_configs(op, sdeg, &C) == 0;
        }
        if (ok) {
            sort_configs(&C, sdeg);
            scan_vector(A, &C, &it, out, off);
        }
        sq_free(heap);
        if (ok)
            return;
    }
    while (siter_next(&it))
        milnor_mul_pp(A, out, off, op->r, op->len, it.s, it.q);
}

void milnor_mul_vec_add(const milnor_t *A, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                        int32_t sdeg, const uint64_t *v)
{
    milnor_op_t op;
    milnor_op_init(&op, A, rdeg, ridx);
    milnor_op_mul_vec_add(&op, out, off, sdeg, v);
}

/* ---- The workspace ------------------------------------------------------ */

/*
 * WS_CFG_MAX: the largest configuration list a workspace grows to (16 MB of
 * buffers); beyond it the products are walked.  Lists that large only come
 * with degrees far beyond what resolutions reach today.
 */
#define WS_CFG_MAX (INT64_C(1) << 20)

struct milnor_ws {
    milnor_op_t op;   /* the element prepared */
    int32_t max_sdeg; /* the degree bound it was prepared for */
    int built;        /* 1: C holds its configurations for degrees <= max_sdeg */
    configs_t C;
    uint64_t *mem; /* buffers of C: 2 * rowcap + 2 * cfgcap words, then rowcap uint16 */
    int64_t rowcap, cfgcap;
};

milnor_ws_t *milnor_ws_new(void)
{
    return sq_calloc(1, sizeof(milnor_ws_t));
}

void milnor_ws_free(milnor_ws_t *W)
{
    if (!W)
        return;
    sq_free(W->mem);
    sq_free(W);
}

static void ws_grow(milnor_ws_t *W, int64_t rowcap, int64_t cfgcap)
{
    sq_free(W->mem);
    W->rowcap = rowcap;
    W->cfgcap = cfgcap;
    W->mem = sq_malloc(sq_mul_size((size_t)(2 * rowcap + 2 * cfgcap), 8) +
                       sq_mul_size((size_t)rowcap, sizeof(uint16_t)));
}

static int same_element(const milnor_op_t *a, const milnor_op_t *b)
{
    if (a->A != b->A || a->deg != b->deg || a->len != b->len)
        return 0;
    for (int i = 1; i <= a->len; i++)
        if (a->r[i] != b->r[i])
            return 0;
    return 1;
}

void milnor_ws_prepare(milnor_ws_t *W, const milnor_op_t *op, int32_t max_sdeg, int64_t nbits)
{
    const milnor_t *A = op->A;
    SQ_CHECK(max_sdeg >= 0 && (int64_t)op->deg + max_sdeg <= A->max_degree,
             "milnor_ws_prepare: degrees %d + %d outside 0..%d", (int)op->deg, (int)max_sdeg,
             (int)A->max_degree);
    if (W->built && same_element(&W->op, op) && max_sdeg <= W->max_sdeg)
        return; /* still valid: configurations for a larger bound serve a smaller one */
    W->op = *op;
    W->max_sdeg = max_sdeg;
    W->built = 0;
    if (A->sub)
        return; /* subalgebras multiply through the full algebra, one vector at a time */
    if (nbits < CFG_MIN_BITS || op->len == 0 || max_sdeg == 0 || op->deg + max_sdeg > PK_MAXDEG)
        return;
    if (!W->mem)
        ws_grow(W, ROWV_CAP, CFG_CAP);
    for (;;) {
        configs_set(&W->C, W->mem, (uint16_t *)(W->mem + 2 * W->rowcap + 2 * W->cfgcap), W->rowcap,
                    W->cfgcap);
        if (build_configs(op, max_sdeg, &W->C) == 0)
            break;
        if (2 * W->cfgcap > WS_CFG_MAX)
            return;
        ws_grow(W, 2 * W->rowcap, 2 * W->cfgcap);
    }
    sort_configs(&W->C, max_sdeg);
    W->built = 1;
}

/* milnor_dim inline, for the full algebra (A->sub NULL) and 0 <= deg <=
 * its max degree (checked by the caller). */
static inline int64_t full_dim(const milnor_t *A, int32_t deg)
{
    return milnor_cnt(A, MILNOR_MAX_LEN)[deg];
}

/* The S's of several blocks gathered four at a time for scan_configs4,
 * each lane with its block's offset (the terms' ranks are within their own
 * degree; the configurations serve every degree up to max_sdeg). */
typedef struct {
    const milnor_t *A;
    const f2_kernels_t *K;
    const configs_t *C;
    uint64_t *out;
    uint64_t sg[4];
    int64_t o4[4];
    int ns;
} quad_t;

/* Adds the S's of bits [bit0, bit0 + n) of v (p-parts packed in pk, bit
 * bit0 + k being element k) to Q, landing at off; scans each full four. */
static inline void quad_add_bits(quad_t *Q, const uint64_t *pk, const uint64_t *v, int64_t bit0,
                                 int64_t n, int64_t off)
{
    if (n <= 0)
        return;
    const int64_t la = bit0 >> 6, le = (bit0 + n - 1) >> 6;
    const uint64_t lo = ~UINT64_C(0) << (bit0 & 63);
    const uint64_t hi = ~UINT64_C(0) >> (63 - ((bit0 + n - 1) & 63));
    for (int64_t l = la; l <= le; l++) {
        uint64_t w = v[l];
        if (l == la)
            w &= lo;
        if (l == le)
            w &= hi;
        for (; w; w &= w - 1) {
            Q->sg[Q->ns] = pk[64 * l + __builtin_ctzll(w) - bit0];
            Q->o4[Q->ns++] = off;
            if (Q->ns == 4) {
                scan_configs4(Q->A, Q->K, Q->C, Q->sg, 4, Q->out, Q->o4);
                Q->ns = 0;
            }
        }
    }
}

/* Scans the part-filled last four of Q, if any. */
static void quad_flush(quad_t *Q)
{
    if (Q->ns)
        scan_configs4(Q->A, Q->K, Q->C, Q->sg, Q->ns, Q->out, Q->o4);
    Q->ns = 0;
}

static void quad_init(quad_t *Q, const milnor_ws_t *W, uint64_t *out)
{
    *Q = (quad_t){W->op.A, f2_kernels(), &W->C, out, {0, 0, 0, 0}, {0, 0, 0, 0}, 0};
}

void milnor_ws_mul_blocks_add(const milnor_ws_t *W, uint64_t *out, const milnor_block_t *blk,
                              int64_t nb, const uint64_t *bits)
{
    const milnor_op_t *op = &W->op;
    SQ_CHECK(op->A != NULL, "milnor_ws_mul_blocks_add: workspace not prepared");
    const milnor_t *A = op->A;
    if (!W->built || A->sub) {
        for (int64_t b = 0; b < nb; b++)
            milnor_ws_mul_vec_add(W, out, blk[b].off, blk[b].deg, bits + blk[b].limb0);
        return;
    }
    quad_t Q;
    quad_init(&Q, W, out);
    for (int64_t b = 0; b < nb; b++) {
        const int32_t sdeg = blk[b].deg;
        const int64_t off = blk[b].off;
        const uint64_t *v = bits + blk[b].limb0;
        SQ_CHECK(sdeg >= 0 && sdeg <= W->max_sdeg,
                 "milnor_ws_mul_blocks_add: degree %d above the prepared bound %d", (int)sdeg,
                 (int)W->max_sdeg);
        milnor_check_degrees(A, op->deg, sdeg, off);
        const uint64_t *pk = sdeg > 0 ? pk_row(A, sdeg) : NULL;
        if (!pk) {
            milnor_ws_mul_vec_add(W, out, off, sdeg, v);
            continue;
        }
        quad_add_bits(&Q, pk, v, 0, full_dim(A, sdeg), off);
    }
    quad_flush(&Q);
}

/* 1 iff a bit of v in [bit0, bit0 + n) is set. */
static int any_bit(const uint64_t *v, int64_t bit0, int64_t n)
{
    if (n <= 0)
        return 0;
    const int64_t la = bit0 >> 6, le = (bit0 + n - 1) >> 6;
    const uint64_t lo = ~UINT64_C(0) << (bit0 & 63);
    const uint64_t hi = ~UINT64_C(0) >> (63 - ((bit0 + n - 1) & 63));
    if (la == le)
        return (v[la] & lo & hi) != 0;
    if ((v[la] & lo) || (v[le] & hi))
        return 1;
    for (int64_t l = la + 1; l < le; l++)
        if (v[l])
            return 1;
    return 0;
}

int milnor_ws_scans(const milnor_ws_t *W)
{
    return W->built && W->op.A && !W->op.A->sub;
}

void milnor_ws_mul_bitblocks_add(const milnor_ws_t *W, uint64_t *out, const milnor_bitblock_t *blk,
                                 int64_t nb, const uint64_t *v)
{
    SQ_CHECK(milnor_ws_scans(W), "milnor_ws_mul_bitblocks_add: workspace without configurations");
    const milnor_op_t *op = &W->op;
    const milnor_t *A = op->A;
    quad_t Q;
    quad_init(&Q, W, out);
    for (int64_t b = 0; b < nb; b++) {
        const int32_t sdeg = blk[b].deg;
        const int64_t off = blk[b].off;
        SQ_CHECK(blk[b].len >= 0 && blk[b].bit0 >= 0,
                 "milnor_ws_mul_bitblocks_add: block at bit %lld of length %lld",
                 (long long)blk[b].bit0, (long long)blk[b].len);
        if (!any_bit(v, blk[b].bit0, blk[b].len))
            continue; /* as milnor_ws_mul_vec_add is never called for a zero block */
        SQ_CHECK(sdeg >= 0 && sdeg <= W->max_sdeg,
                 "milnor_ws_mul_bitblocks_add: degree %d above the prepared bound %d", (int)sdeg,
                 (int)W->max_sdeg);
        milnor_check_degrees(A, op->deg, sdeg, off);
        const int64_t dim = full_dim(A, sdeg), n = blk[b].len < dim ? blk[b].len : dim;
        const uint64_t *pk = sdeg > 0 ? pk_row(A, sdeg) : NULL;
        if (pk) {
            quad_add_bits(&Q, pk, v, blk[b].bit0, n, off);
            continue;
        }
        /* no packed table (degree 0, or beyond the tables): walk each S */
        for (int64_t k = 0; k < n; k++) {
            const int64_t bit = blk[b].bit0 + k;
            if (!((v[bit >> 6] >> (bit & 63)) & 1))
                continue;
            int32_t sp[MILNOR_MAX_LEN + 1];
            int q = milnor_unrank_raw(A, sdeg, k, sp);
            milnor_mul_pp(A, out, off, op->r, op->len, sp, q);
        }
    }
    quad_flush(&Q);
}

void milnor_ws_mul_vec_add(const milnor_ws_t *W, uint64_t *out, int64_t off, int32_t sdeg,
                           const uint64_t *v)
{
    const milnor_op_t *op = &W->op;
    SQ_CHECK(op->A != NULL, "milnor_ws_mul_vec_add: workspace not prepared");
    SQ_CHECK(sdeg >= 0 && sdeg <= W->max_sdeg,
             "milnor_ws_mul_vec_add: degree %d above the prepared bound %d", (int)sdeg,
             (int)W->max_sdeg);
    if (op->A->sub) {
        milnor_sub_op_mul_vec_add(op, out, off, sdeg, v);
        return;
    }
    milnor_check_degrees(op->A, op->deg, sdeg, off);
    siter_t it;
    siter_init(&it, op->A, sdeg, v);
    if (W->built && sdeg > 0) {
        scan_vector(op->A, &W->C, &it, out, off);
        return;
    }
    while (siter_next(&it))
        milnor_mul_pp(op->A, out, off, op->r, op->len, it.s, it.q);
}
