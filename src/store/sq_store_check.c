/*
 * sq_store_check.c -- `adams check`: what a store holds is what it says.
 *
 * Four layers of checks, each independent of how the store was written:
 *   1. SQLite's own structure (PRAGMA quick_check);
 *   2. every step row's checksum, lengths and padding (the metadata's were
 *      checked when the store was opened);
 *   3. d o d = 0: for every stored generator g of F_s (s >= 1),
 *      d_{s-1}(d_s(g)) is computed from the stored differentials and must
 *      vanish (in M for s = 1, through the module rebuilt from its
 *      canonical text);
 *   4. minimality and exactness at a sample of bidegrees (all with full):
 *      with D the matrix of d_s on F_s in degree t, the images of the ngens
 *      new generators are independent modulo those of the older basis
 *      (rank D_all - rank D_old = ngens: no generator is superfluous), and
 *      rank D_all = dim ker d_{s-1} in degree t (dim M_t in row 0): the new
 *      generators cover the cycles, which with d o d = 0 is exactness.
 * The last two use only the stored differentials, not the engine: a store
 * written by either engine passes, and a wrong vector fails.  With
 * t_range they cover the bidegrees of degree t_lo <= t <= t_hi only (a
 * slice of a check too long for one sitting; the last line says so).
 */
#include <stdlib.h>

#include "fmat.h"
#include "fhom.h"
#include "internal.h"
#include "sq_store_secondary.h"
#include "resol_unstable.h"
#include "sq_core.h"

#define MAX_LINES 20 /* findings printed per kind; the rest are counted */

static void say(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(FILE *out, const char *fmt, ...)
{
    if (!out)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
}

/* n bytes as "12 KB", "3.4 MB". */
static const char *human(char *buf, int64_t n)
{
    if (n < 10000)
        snprintf(buf, 32, "%lld bytes", (long long)n);
    else if (n < 10000000)
        snprintf(buf, 32, "%.0f KB", (double)n / 1e3);
    else
        snprintf(buf, 32, "%.1f MB", (double)n / 1e6);
    return buf;
}

/* A metadata value for a line of the report: control bytes as '?', cut to
 * n - 1 bytes. */
static const char *clean(char *buf, size_t n, const char *v)
{
    snprintf(buf, n, "%s", v ? v : "");
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return buf;
}

/* PRAGMA quick_check: 1 when it says ok. */
static int quick_check(sq_store_t *st, FILE *out)
{
    sqlite3_stmt *q = NULL;
    int ok = 0, lines = 0;
    if (sqlite3_prepare_v2(st->db, "PRAGMA quick_check", -1, &q, NULL) != SQLITE_OK) {
        say(out, "damaged: sqlite quick_check cannot run: %s\n", sqlite3_errmsg(st->db));
        return 0;
    }
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(q, 0);
        if (r && strcmp(r, "ok") == 0)
            ok = 1;
        else if (lines++ < MAX_LINES)
            say(out, "damaged: sqlite quick_check: %s\n", r ? r : "?");
    }
    if (rc != SQLITE_DONE) {
        say(out, "damaged: sqlite quick_check: %s\n", sqlite3_errmsg(st->db));
        ok = 0;
    }
    sqlite3_finalize(q);
    return ok && lines == 0;
}

/* Scans every step row: checksums, and the bounding box of the rows a
 * loader can reach.  Rows arrive in (t, s) order; the row (s, n) (n = t -
 * s) is reachable when (s - 1, n) and (s, n - 1) are (each where it is a
 * step: s >= 1, n > bottom), the load predecessors of docs/save-format.md
 * section 6.  next[n - bottom] is the first s not yet reached at stem n,
 * so that check is two look-ups.  The box holds only reachable rows: an
 * intact row at (s = 30000, n = 5) with nothing below it is reported as
 * unreachable, not a reason to build a resolution 30000 rows tall.
 * *outside counts the intact rows left outside the box. */
static int scan_rows(sq_store_t *st, FILE *out, sq_store_check_report_t *rep, int32_t *max_s,
                     int32_t *max_n, int64_t *outside)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "SELECT s, t, ngens, nbits, codec, rawlen, data, crc FROM step "
                                "ORDER BY t, s",
                                -1, &q, NULL);
    if (rc != SQLITE_OK) {
        say(out, "damaged: cannot read the steps: %s\n", sqlite3_errmsg(st->db));
        return -1;
    }
    *max_s = -1;
    *max_n = st->bottom - 1;
    *outside = 0;
    int32_t *next = NULL;
    int64_t ncap = 0, nlost = 0, lcap = 0;
    int32_t(*lost)[2] = NULL; /* intact rows not reached: (s, n) */
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t s = sqlite3_column_int64(q, 0), t = sqlite3_column_int64(q, 1);
        char msg[512];
        rep->steps++;
        /* Checked without keeping the vectors (nothing sized by the row's
         * counts is allocated; the load below checks their sizes). */
        int drc = sq_store_decode(st, s, t, sqlite3_column_int64(q, 2),
                                  sqlite3_column_int64(q, 3), sqlite3_column_int64(q, 4),
                                  sqlite3_column_int64(q, 5), sqlite3_column_blob(q, 6),
                                  sqlite3_column_bytes(q, 6),
                                  (uint32_t)sqlite3_column_int64(q, 7), NULL, msg, sizeof msg);
        if (drc) {
            if (rep->steps_damaged++ < MAX_LINES)
                say(out, "damaged: %s\n", msg);
            continue;
        }
        /* In range (sq_store_row_limits): 0 <= s, bottom <= n <= RESOL_MAX_T. */
        int64_t k = t - s - st->bottom;
        if (k >= ncap) {
            int64_t cap = ncap ? ncap : 64;
            while (cap <= k)
                cap *= 2;
            next = sq_realloc(next, sq_mul_size((size_t)cap, sizeof *next));
            memset(next + ncap, 0, (size_t)(cap - ncap) * sizeof *next);
            ncap = cap;
        }
        if (next[k] == s && (k == 0 || next[k - 1] > s)) {
            next[k]++;
            if (s > *max_s)
                *max_s = (int32_t)s;
            if (t - s > *max_n)
                *max_n = (int32_t)(t - s);
        } else {
            if (nlost == lcap) {
                lcap = lcap ? 2 * lcap : 16;
                lost = sq_realloc(lost, sq_mul_size((size_t)lcap, sizeof *lost));
            }
            lost[nlost][0] = (int32_t)s;
            lost[nlost][1] = (int32_t)(t - s);
            nlost++;
        }
    }
    if (rc != SQLITE_DONE) {
        say(out, "damaged: cannot read the steps: %s\n", sqlite3_errmsg(st->db));
        rep->steps_damaged++;
    }
    sqlite3_finalize(q);
    for (int64_t i = 0; i < nlost; i++) /* those inside the box the loader counts */
        if (lost[i][0] > *max_s || lost[i][1] > *max_n)
            (*outside)++;
    sq_free(lost);
    sq_free(next);
    if (rep->steps_damaged > MAX_LINES)
        say(out, "damaged: ... and %lld more damaged steps\n",
            (long long)(rep->steps_damaged - MAX_LINES));
    return 0;
}

/* ---- d o d ---------------------------------------------------------------- */

/*
 * d(d(g)) is computed bidegree by bidegree, in increasing t (then s), so
 * that a check stopped early has verified every generator of degree below
 * the one in flight.  At p = 2 the generators of a bidegree go in groups of
 * up to DD_GROUP: the positions of F_{s-1}'s basis where their images are
 * set are split by pattern (which of the group's images hold them), d_{s-1}
 * is applied once to each pattern's positions, and d(d(g)) is the sum of
 * the patterns g belongs to.  Each basis element (a, h) of the union is then
 * multiplied out once (a * d(h)) instead of once per generator whose image
 * holds it.  The applies are split over the pool (fhom_apply_add_par: the
 * same bits for any thread count).  At odd p each generator is applied on
 * its own, the generators of a bidegree over the pool.
 */
#define DD_GROUP 6

typedef struct {
    const resol_t *R;
    sq_pool_t *pool;
    int64_t **cost;          /* p = 2: cost[r][h] of dd_costs for d_r, r < max_s */
    int64_t done, total;     /* progress: the work (dd_weight) done and in all */
} dd_run_t;

/* Odd p (and the fallback): one generator. */
typedef struct {
    const resol_t *R;
    int32_t s, t;
    int64_t g0;
    int *fail;
} dd_job_t;

static void dd_one(void *ctx, int64_t i)
{
    dd_job_t *J = ctx;
    const void *v = fhom_image_enc(resol_differential(J->R, J->s), J->g0 + i, NULL);
    const fhom_t *d1 = resol_differential(J->R, J->s - 1);
    fvec_t o;
    fvec_init(&o, fhom_target_dim(d1, J->t), resol_prime(J->R));
    fhom_apply_add_enc(d1, o.p == 2 ? (void *)o.limbs : (void *)o.bytes, J->t, J->t, v);
    J->fail[i] = !fvec_is_zero(o);
    fvec_clear(&o);
}

/* The work of the positions set in x (over the degree-t basis of F below
 * t): the sum of cost[h] over them, h the generator of each. */
static int64_t dd_weight(const fmod_t *F, int32_t t, const uint64_t *x, int64_t limbs,
                         const int64_t *cost)
{
    int64_t total = 0;
    for (int64_t h = 0, end = 0, l = 0; l < limbs; l++)
        for (uint64_t w = x[l]; w; w &= w - 1) {
            int64_t pos = l * 64 + __builtin_ctzll(w);
            while (pos >= end)
                end += fmod_block_dim(F, t, fmod_gen_degree(F, h++));
            total += cost[h - 1];
        }
    return total;
}

/* The work of a group of k images (generators g0 .. g0 + k - 1 of F_s in
 * degree t, p = 2): that of the union of their positions. */
static int64_t dd_group_weight(const resol_t *R, int32_t s, int32_t t, int64_t g0, int k,
                               const int64_t *cost)
{
    const fhom_t *d = resol_differential(R, s);
    int64_t limbs = f2_limbs(fhom_image_len(d, t));
    uint64_t *u = sq_calloc((size_t)limbs + 1, sizeof *u);
    for (int i = 0; i < k; i++) {
        const uint64_t *v = fhom_image(d, g0 + i, NULL);
        for (int64_t l = 0; l < limbs; l++)
            u[l] |= v[l];
    }
    int64_t w = dd_weight(resol_free_module(R, s - 1), t, u, limbs, cost);
    sq_free(u);
    return w;
}

/* The parallel apply of d o d: out ^= d(x) (p = 2; x over the degree-t
 * basis of d's source below t) cut into chunks of about equal work, each
 * applied into a buffer of its own on the pool, the buffers XORed into out
 * (the same bits for any cut).  A set position (a, h) weighs 16 plus the
 * set bits of d(h) (cost[h], per generator h of degree < t): a product
 * scans d(h), and the generators' images differ in length by 100x, so
 * cutting by counts of positions alone leaves a thread most of the work. */
typedef struct {
    const fhom_t *d;
    int32_t t;
    uint64_t **xs;   /* the chunks' positions */
    uint64_t *bufs;  /* chunks x cl */
    int64_t cl;
} dd_par_t;

static void dd_par_chunk(void *ctx, int64_t c)
{
    const dd_par_t *P = ctx;
    fhom_apply_add(P->d, P->bufs + c * P->cl, P->t, P->t, P->xs[c]);
}

static void dd_apply(const fhom_t *d, uint64_t *out, int64_t cl, int32_t t, const uint64_t *x,
                     int64_t L, const int64_t *cost, sq_pool_t *pool)
{
    int nt = sq_pool_size(pool);
    int64_t limbs = f2_limbs(L), nset = 0;
    const fmod_t *F = fhom_source(d);
    for (int64_t l = 0; nt > 1 && l < limbs; l++)
        nset += __builtin_popcountll(x[l]);
    int64_t total = nset >= 32 ? dd_weight(F, t, x, limbs, cost) : 0;
    if (nt <= 1 || nset < 32) {
        fhom_apply_add(d, out, t, t, x);
        return;
    }
    int64_t C = 4 * (int64_t)nt;
    dd_par_t P = {d, t, sq_calloc((size_t)C, sizeof(uint64_t *)),
                  sq_calloc(sq_mul_size((size_t)C, (size_t)cl), sizeof(uint64_t)), cl};
    for (int64_t c = 0; c < C; c++)
        P.xs[c] = sq_calloc((size_t)limbs + 1, sizeof(uint64_t));
    int64_t cum = 0;
    for (int64_t h = 0, end = 0, l = 0; l < limbs; l++)
        for (uint64_t w = x[l]; w; w &= w - 1) {
            int b = __builtin_ctzll(w);
            int64_t pos = l * 64 + b;
            while (pos >= end)
                end += fmod_block_dim(F, t, fmod_gen_degree(F, h++));
            int64_t c = (int64_t)((double)cum * (double)C / (double)total);
            c = c < C ? c : C - 1;
            P.xs[c][l] |= (uint64_t)1 << b;
            cum += cost[h - 1];
        }
    sq_pool_parallel_for(pool, C, dd_par_chunk, &P);
    for (int64_t c = 0; c < C; c++) {
        for (int64_t l = 0; l < cl; l++)
            out[l] ^= P.bufs[c * cl + l];
        sq_free(P.xs[c]);
    }
    sq_free(P.xs);
    sq_free(P.bufs);
}

/* cost[h] for dd_apply and the progress: 16 + the set bits of d(h), for
 * every generator h of the source of d (p = 2).  A new array (sq_free). */
static int64_t *dd_costs(const fhom_t *d)
{
    int64_t n = fmod_total_gens(fhom_source(d));
    int64_t *cost = sq_malloc(((size_t)n + 1) * sizeof *cost);
    for (int64_t h = 0; h < n; h++) {
        int64_t nb = 0, pop = 0;
        const uint64_t *v = fhom_image(d, h, &nb);
        for (int64_t l = 0; v && l < f2_limbs(nb); l++)
            pop += __builtin_popcountll(v[l]);
        cost[h] = 16 + pop;
    }
    return cost;
}

/* p = 2: fail[i] = (d(d(g0 + i)) != 0) for a group of k <= DD_GROUP
 * generators of F_s in degree t; returns the products made. */
static int64_t dd_group_f2(const resol_t *R, int32_t s, int32_t t, int64_t g0, int k,
                           const int64_t *cost, sq_pool_t *pool, int *fail)
{
    const fhom_t *d = resol_differential(R, s), *d1 = resol_differential(R, s - 1);
    int64_t L = fhom_image_len(d, t), limbs = f2_limbs(L);
    int64_t cols = fhom_target_dim(d1, t), cl = f2_limbs(cols) + 1;
    const uint64_t *v[DD_GROUP];
    for (int i = 0; i < k; i++)
        v[i] = fhom_image(d, g0 + i, NULL);
    uint64_t *acc = sq_calloc(sq_mul_size((size_t)k, (size_t)cl), sizeof *acc);
    uint64_t *out = k > 1 ? sq_calloc((size_t)cl, sizeof *out) : NULL;
    uint64_t *w = k > 1 ? sq_calloc((size_t)limbs + 1, sizeof *w) : NULL;
    int64_t made = 0;
    for (unsigned pat = 1; pat < (1u << k); pat++) {
        const uint64_t *x = v[0];
        if (k > 1) { /* the positions set exactly in the images of pat */
            int64_t pop = 0;
            for (int64_t l = 0; l < limbs; l++) {
                uint64_t m = ~(uint64_t)0;
                for (int i = 0; i < k; i++)
                    m &= (pat >> i) & 1u ? v[i][l] : ~v[i][l];
                w[l] = m;
                pop += __builtin_popcountll(m);
            }
            if (!pop)
                continue;
            x = w;
            memset(out, 0, (size_t)cl * sizeof *out);
        }
        dd_apply(d1, k > 1 ? out : acc, cl, t, x, L, cost, pool);
        if (k > 1)
            for (int i = 0; i < k; i++)
                if ((pat >> i) & 1u)
                    for (int64_t l = 0; l < cl; l++)
                        acc[(int64_t)i * cl + l] ^= out[l];
    }
    made = dd_group_weight(R, s, t, g0, k, cost);
    for (int i = 0; i < k; i++) {
        fail[i] = 0;
        for (int64_t l = 0; l < cl; l++)
            fail[i] |= acc[(int64_t)i * cl + l] != 0;
    }
    sq_free(w);
    sq_free(out);
    sq_free(acc);
    return made;
}

/* d(d(g)) for the generators of F_s in degree t, in order: failures
 * counted and named (the first MAX_LINES in all). */
static void dd_bidegree(dd_run_t *D, int32_t s, int32_t t, FILE *out,
                        sq_store_check_report_t *rep, int *lines)
{
    const fmod_t *F = resol_free_module(D->R, s);
    int64_t n = fmod_num_gens(F, t), g0 = fmod_gen_global(F, t, 0);
    int *fail = sq_calloc((size_t)n + 1, sizeof *fail);
    if (resol_prime(D->R) == 2) {
        for (int64_t i = 0; i < n; i += DD_GROUP) {
            int k = n - i < DD_GROUP ? (int)(n - i) : DD_GROUP;
            D->done += dd_group_f2(D->R, s, t, g0 + i, k, D->cost[s - 1], D->pool, fail + i);
        }
    } else {
        dd_job_t J = {D->R, s, t, g0, fail};
        sq_pool_parallel_for(D->pool, n, dd_one, &J);
        D->done += n * fhom_image_len(resol_differential(D->R, s), t);
    }
    for (int64_t i = 0; i < n; i++) {
        rep->dd_checked++;
        if (!fail[i])
            continue;
        rep->dd_failed++;
        if ((*lines)++ < MAX_LINES)
            say(out, "wrong: d(d(x_(%d, %d, %lld))) != 0 (step s=%d, t=%d)\n", (int)(t - s),
                (int)s, (long long)i, (int)s, (int)t);
        if (out) /* a long check stopped early has said what it found */
            fflush(out);
    }
    sq_free(fail);
}

/* The work of d o d (what dd_bidegree adds to done) in the degrees
 * lo <= t <= hi, for the progress. */
static int64_t dd_total(const resol_t *R, int64_t *const *cost, int32_t lo, int32_t hi)
{
    int64_t total = 0;
    for (int32_t s = 1; s <= resol_max_s(R); s++) {
        const fmod_t *F = resol_free_module(R, s);
        const fhom_t *d = resol_differential(R, s);
        for (int64_t g = 0; g < fmod_total_gens(F);) {
            int32_t t = fmod_gen_degree(F, g);
            int64_t n = fmod_num_gens(F, t), L = fhom_image_len(d, t);
            if (t < lo || t > hi) {
                g += n;
                continue;
            }
            for (int64_t i = 0; i < n; i += DD_GROUP) {
                int k = n - i < DD_GROUP ? (int)(n - i) : DD_GROUP;
                total += resol_prime(R) == 2 ? dd_group_weight(R, s, t, g + i, k, cost[s - 1])
                                             : k * L;
            }
            g += n;
        }
    }
    return total;
}

static void check_dd(const resol_t *R, sq_pool_t *pool, const sq_store_check_opts_t *o,
                     FILE *out, sq_store_check_report_t *rep)
{
    int lines = 0;
    int32_t S = resol_max_s(R), tmax = -1, tmin = INT32_MAX;
    dd_run_t D = {R, pool, sq_calloc((size_t)S + 1, sizeof(int64_t *)), 0, 0};
    for (int32_t r = 0; r < S && resol_prime(R) == 2; r++)
        D.cost[r] = dd_costs(resol_differential(R, r));
    for (int32_t s = 1; s <= S; s++) {
        const fmod_t *F = resol_free_module(R, s);
        int64_t ng = fmod_total_gens(F);
        if (ng) {
            tmin = fmod_gen_degree(F, 0) < tmin ? fmod_gen_degree(F, 0) : tmin;
            tmax = fmod_gen_degree(F, ng - 1) > tmax ? fmod_gen_degree(F, ng - 1) : tmax;
        }
    }
    if (o->t_range) { /* a slice: the degrees t_lo..t_hi only */
        tmin = tmin > o->t_lo ? tmin : o->t_lo;
        tmax = tmax < o->t_hi ? tmax : o->t_hi;
    }
    if (o->progress)
        D.total = dd_total(R, D.cost, tmin, tmax);
    for (int32_t t = tmin; t <= tmax; t++) {
        for (int32_t s = 1; s <= S; s++)
            if (t <= fmod_max_degree(resol_free_module(R, s)) &&
                fmod_num_gens(resol_free_module(R, s), t) > 0)
                dd_bidegree(&D, s, t, out, rep, &lines);
        if (o->progress)
            o->progress(o->progress_ctx, D.done, D.total, t, tmax, rep->dd_checked,
                        rep->dd_failed);
    }
    for (int32_t r = 0; r <= S; r++)
        sq_free(D.cost[r]);
    sq_free(D.cost);
}

/* ---- minimality and exactness ----------------------------------------------- */

/* Rank of the matrix of d on the source's basis in degree t spanned by
 * generators of degree < bound. */
static int64_t rank_of(const fhom_t *d, int32_t t, int32_t bound, int64_t *rows, sq_pool_t *pool)
{
    const fmod_t *F = fhom_source(d);
    *rows = fmod_dim_below(F, t, bound);
    int64_t cols = fhom_target_dim(d, t);
    if (*rows == 0 || cols == 0)
        return 0; /* an empty matrix (and f2mat's rows of an empty one are not to be formed) */
    fmat_t m = {0};
    fmat_init(&m, *rows, cols, fhom_prime(d));
    fhom_build_rows_fm(d, &m, 0, t, bound, NULL, 0, pool);
    int64_t r = fmat_rref_pool(&m, NULL, pool);
    fmat_clear(&m);
    return r;
}

/* Checks the bidegree (s, t); returns 0 when minimal and exact there. */
static int check_spot(const resol_t *R, int32_t s, int32_t t, sq_pool_t *pool, FILE *out,
                      int print)
{
    const fhom_t *d = resol_differential(R, s);
    int64_t ngens = fmod_num_gens(resol_free_module(R, s), t);
    int64_t rows_old, rows_all;
    int64_t r_old = rank_of(d, t, t, &rows_old, pool);
    int64_t r_all = rank_of(d, t, t + 1, &rows_all, pool);
    int64_t cycles;
    if (s == 0) {
        cycles = fdmod_dim(resol_input(R), t);
    } else {
        int64_t rows1;
        int64_t r1 = rank_of(resol_differential(R, s - 1), t, t + 1, &rows1, pool);
        cycles = rows1 - r1;
    }
    int ok = 1;
    if (r_all - r_old != ngens) {
        ok = 0;
        if (print)
            say(out,
                "wrong: step (s=%d, t=%d) is not minimal: its %lld generators add %lld to the "
                "rank of the image\n",
                (int)s, (int)t, (long long)ngens, (long long)(r_all - r_old));
    }
    if (r_all != cycles) {
        ok = 0;
        if (print)
            say(out,
                "wrong: step (s=%d, t=%d) is not exact: the image has dimension %lld, the %s "
                "%lld\n",
                (int)s, (int)t, (long long)r_all, s == 0 ? "module" : "cycles",
                (long long)cycles);
    }
    return ok ? 0 : -1;
}

/* The largest matrix a spot builds (bits): the spots of check_spot whose
 * matrices exceed SPOT_MAX_BITS (64 MB) are not sampled: at stem 200 a
 * matrix of d_s in one degree can have 400,000 rows and as many columns,
 * which neither fits in memory nor reduces in any reasonable time. */
#define SPOT_MAX_BITS ((int64_t)1 << 29)

static int spot_fits(const resol_t *R, int32_t s, int32_t t)
{
    for (int32_t r = s; r >= 0 && r >= s - 1; r--) {
        const fhom_t *d = resol_differential(R, r);
        double bits = (double)fmod_dim_below(resol_free_module(R, r), t, t + 1) *
                      (double)fhom_target_dim(d, t);
        if (bits > (double)SPOT_MAX_BITS)
            return 0;
    }
    return 1;
}

static void check_spots(const resol_t *R, const sq_store_check_opts_t *o, sq_pool_t *pool,
                        FILE *out, sq_store_check_report_t *rep)
{
    int32_t S = resol_max_s(R), N = resol_max_n(R), lo = resol_min_n(R);
    int64_t cells = (int64_t)(S + 1) * (N - lo + 1), n = 0;
    int32_t(*list)[2] = sq_malloc(sq_mul_size((size_t)cells + 1, sizeof *list));
    for (int32_t s = 0; s <= S; s++)
        for (int32_t k = lo; k <= N; k++)
            if (resol_step_published(R, s, s + k) &&
                (!o->t_range || (s + k >= o->t_lo && s + k <= o->t_hi))) {
                if (spot_fits(R, s, s + k))
                    list[n][0] = s, list[n][1] = s + k, n++;
                else
                    rep->spots_too_large++;
            }
    int64_t want = o->full ? n : (o->spots > 0 ? o->spots : 24);
    if (want > n)
        want = n;
    /* A partial Fisher-Yates shuffle with the fixed seed picks the sample. */
    sq_rand_t rng;
    sq_rand_init(&rng, o->seed ? o->seed : 17);
    if (want < n)
        for (int64_t i = 0; i < want; i++) {
            int64_t j = i + (int64_t)sq_rand_below(&rng, (uint64_t)(n - i));
            int32_t a = list[i][0], b = list[i][1];
            list[i][0] = list[j][0], list[i][1] = list[j][1];
            list[j][0] = a, list[j][1] = b;
        }
    for (int64_t i = 0; i < want; i++) {
        rep->spots_checked++;
        if (check_spot(R, list[i][0], list[i][1], pool, out, rep->spots_failed < MAX_LINES))
            rep->spots_failed++;
    }
    sq_free(list);
}

static int check_snapshot(sq_store_t *st, const sq_store_check_opts_t *o, FILE *out,
                          sq_store_check_report_t *rep, char *err, size_t errlen);

/* The secondary lift kept beside R (stable p = 2 stores with the tables
 * only: others print nothing more). */
static void check_secondary(sq_store_t *st, const resol_t *R, uint64_t seed, FILE *out,
                            sq_store_check_report_t *rep)
{
    int64_t rows = 0;
    char serr[512];
    if (st->unstable || st->prime != 2 || sq_store_sec_rows(st, &rows, serr, sizeof serr) != 0 ||
        rows == 0)
        return;
    sq_store_sec_report_t sr;
    int rc = sq_store_sec_check(st, R, seed, out, &sr, serr, sizeof serr);
    if (rc && rc != SQ_STORE_E_DAMAGED) {
        say(out, "damaged: %s\n", serr);
        rep->sec_damaged++;
    }
    rep->sec_damaged += sr.damaged;
    rep->sec_d2_failed += sr.d2_failed + sr.lift_failed;
}

int sq_store_check(sq_store_t *st, const sq_store_check_opts_t *o, FILE *out,
                   sq_store_check_report_t *rep, char *err, size_t errlen)
{
    sq_store_check_opts_t o0 = {0};
    if (!o)
        o = &o0;
    memset(rep, 0, sizeof *rep);
    /* One read transaction: every count and row below comes from one
     * snapshot, even while a writer commits (issue 20, row 20). */
    int brc = sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL);
    if (brc != SQLITE_OK)
        return sq_store_sqlite_fail(st, brc, "cannot read store", err, errlen);
    int rc = check_snapshot(st, o, out, rep, err, errlen);
    sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

static int check_snapshot(sq_store_t *st, const sq_store_check_opts_t *o, FILE *out,
                          sq_store_check_report_t *rep, char *err, size_t errlen)
{
    sq_store_info_t info;
    int rc = sq_store_info(st, &info, err, errlen);
    if (rc)
        return rc;
    char c1[256], c2[128], c3[128];
    say(out, "store %s: format %d, written by %s\n", st->path, st->format,
        clean(c1, sizeof c1, st->program));
    if (st->format < 2)
        say(out, "note: format %d: its rows are not bound to their store (a row copied from "
                 "another store is not detected by the checksums); a new run writes format %d\n",
            st->format, SQ_STORE_FORMAT);
    say(out, "module %s (hash %s, profile %s), engine %s, prime %u%s\n",
        clean(c1, sizeof c1, st->module_name), clean(c2, sizeof c2, st->module_hash),
        clean(c3, sizeof c3, st->profile), sq_store_engine_name(st->engine),
        (unsigned)st->prime,
        st->unstable ? "; unstable: Ext in the category of unstable modules" : "");
    if (st->done_s >= 0)
        say(out, "region: last run s <= %d, n <= %d; done s <= %d, n <= %d\n", (int)st->region_s,
            (int)st->region_n, (int)st->done_s, (int)st->done_n);
    else
        say(out, "region: last run s <= %d, n <= %d; not completed yet\n", (int)st->region_s,
            (int)st->region_n);
    rep->sqlite_ok = quick_check(st, out);
    int32_t max_s, max_n;
    int64_t outside;
    if (scan_rows(st, out, rep, &max_s, &max_n, &outside))
        return sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED, "store %s is damaged", st->path);
    char b1[32], b2[32], b3[32];
    say(out, "steps: %lld stored, %lld with intact checksums; %lld generators; vectors %s, %s as "
             "stored; file %s\n",
        (long long)rep->steps, (long long)(rep->steps - rep->steps_damaged),
        (long long)info.generators, human(b1, info.payload_bytes), human(b2, info.stored_bytes),
        human(b3, info.file_bytes));
    fdmod_t *own = NULL;
    const fdmod_t *M = NULL;
    char merr[256];
    if (o->module)
        M = o->module;
    else if (sq_store_module_from_text(&own, st->module_text, st->module_name, merr,
                                       sizeof merr) == 0 &&
             own)
        M = own;
    else if (o->module_for && max_s >= 0) {
        fdmod_free(own);
        own = NULL;
        if (o->module_for(o->module_ctx, st->module_text, st->module_name, max_n, &own, merr,
                          sizeof merr) == 0 &&
            own) {
            M = own;
        } else {
            say(out, "damaged: the store's module cannot be rebuilt from its definition: %s\n",
                merr);
            rep->steps_damaged++;
        }
    }
    if (M && fdmod_prime(M) != st->prime) {
        say(out, "damaged: the store's module is at the prime %u, its metadata says %u\n",
            (unsigned)fdmod_prime(M), (unsigned)st->prime);
        rep->steps_damaged++;
        M = NULL;
    }
    if (M && fdmod_bottom(M) != st->bottom) {
        say(out, "damaged: the store's module has bottom degree %d, its metadata says %d\n",
            (int)fdmod_bottom(M), (int)st->bottom);
        rep->steps_damaged++;
        M = NULL;
    }
    rep->module_rebuilt = M != NULL;
    char rerr[256];
    if (max_s >= 0 && M && resol_check_range(M, max_s, max_n, rerr, sizeof rerr) != 0) {
        say(out, "damaged: the stored steps reach (s=%d, n=%d): %s\n", (int)max_s, (int)max_n,
            rerr);
        rep->steps_damaged++;
        M = NULL;
    }
    resol_t *R = NULL;
    if (M && max_s >= 0 && st->unstable &&
        resol_try_new_unstable(&R, M, max_s, max_n, rerr, sizeof rerr) != 0) {
        say(out, "damaged: the store keeps an unstable resolution, but its module is not one "
                 "(%s)\n",
            rerr);
        rep->steps_damaged++;
        M = NULL;
    }
    if (M && max_s >= 0) {
        /* An unstable store's free modules are the unstable ones, so the
         * checks below multiply in F(n) (fhom's unstable tiles). */
        if (!R)
            R = resol_new(M, max_s, max_n);
        sq_store_load_stats_t ls;
        char lerr[512];
        rc = sq_store_load(st, R, SQ_STORE_REPAIR, NULL, &ls, lerr, sizeof lerr);
        if (rc) {
            say(out, "damaged: %s\n", lerr);
            rep->steps_damaged++;
        } else {
            rep->steps_unreachable = ls.dropped - ls.damaged + outside;
            for (int32_t s = 0; s <= max_s; s++)
                rep->generators += fmod_total_gens(resol_free_module(R, s));
            if (rep->steps_unreachable)
                say(out,
                    "damaged: %lld intact steps cannot be used: a step they depend on is "
                    "missing or damaged\n",
                    (long long)rep->steps_unreachable);
            sq_pool_t *pool = o->threads > 1 ? sq_pool_new(o->threads) : NULL;
            char slice[96] = ""; /* a slice of the degrees (t_range) */
            if (o->t_range)
                snprintf(slice, sizeof slice, " of degree t = %d..%d", (int)o->t_lo,
                         (int)o->t_hi);
            check_dd(R, pool, o, out, rep);
            if (rep->dd_failed)
                say(out, "d o d = 0: FAILED for %lld of %lld generators%s\n",
                    (long long)rep->dd_failed, (long long)rep->dd_checked, slice);
            else
                say(out, "d o d = 0: ok on %lld generators (every stored differential%s)\n",
                    (long long)rep->dd_checked, slice);
            check_spots(R, o, pool, out, rep);
            char left[160] = "";
            if (rep->spots_too_large)
                snprintf(left, sizeof left,
                         "; %lld bidegrees whose matrices exceed %lld MB left out",
                         (long long)rep->spots_too_large, (long long)(SPOT_MAX_BITS >> 23));
            const char *which = o->full && !rep->spots_too_large ? "all of them"
                                : o->full                        ? "all the others"
                                                                 : "a sample";
            if (rep->spots_failed)
                say(out, "minimality and exactness: FAILED at %lld of %lld bidegrees (%s%s%s)\n",
                    (long long)rep->spots_failed, (long long)rep->spots_checked, which, slice,
                    left);
            else
                say(out, "minimality and exactness: ok at %lld bidegrees (%s%s%s)\n",
                    (long long)rep->spots_checked, which, slice, left);
            sq_pool_free(pool);
            check_secondary(st, R, o->seed, out, rep);
        }
        resol_free(R);
    } else if (outside) {
        rep->steps_unreachable = outside;
        say(out, "damaged: %lld intact steps cannot be used: a step they depend on is missing or "
                 "damaged\n",
            (long long)outside);
    }
    fdmod_free(own);
    int bad = !rep->sqlite_ok || rep->steps_damaged || rep->steps_unreachable || rep->dd_failed ||
              rep->spots_failed || rep->sec_damaged || rep->sec_d2_failed;
    if (bad)
        say(out, "DAMAGED\n");
    else if (!rep->module_rebuilt && max_s >= 0)
        say(out, "checksums ok; d o d = 0 and minimality NOT checked: the store's module (%s) "
                 "cannot be rebuilt from the store alone\n",
            clean(c1, sizeof c1, st->module_name));
    else if (o->t_range && max_s >= 0)
        say(out, "ok for the degrees t = %d..%d only (d o d and minimality of the other degrees "
                 "not checked)\n",
            (int)o->t_lo, (int)o->t_hi);
    else
        say(out, "ok\n");
    if (bad)
        return sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED, "store %s is damaged (see above)",
                             st->path);
    return 0;
}
