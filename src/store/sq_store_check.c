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
 * written by either engine passes, and a wrong vector fails.
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

typedef struct {
    const resol_t *R;
    int32_t s;
    int64_t g0, n;           /* generators g0 .. g0 + n - 1 of F_s */
    int64_t *fail;           /* per generator: 1 when d(d(g)) != 0 */
} dd_job_t;

static void dd_one(void *ctx, int64_t i)
{
    dd_job_t *J = ctx;
    const fmod_t *F = resol_free_module(J->R, J->s);
    int64_t g = J->g0 + i;
    int32_t t = fmod_gen_degree(F, g);
    const void *v = fhom_image_enc(resol_differential(J->R, J->s), g, NULL);
    const fhom_t *d1 = resol_differential(J->R, J->s - 1);
    fvec_t o;
    fvec_init(&o, fhom_target_dim(d1, t), resol_prime(J->R));
    fhom_apply_add_enc(d1, o.p == 2 ? (void *)o.limbs : (void *)o.bytes, t, t, v);
    J->fail[i] = !fvec_is_zero(o);
    fvec_clear(&o);
}

static void check_dd(const resol_t *R, sq_pool_t *pool, FILE *out, sq_store_check_report_t *rep)
{
    int lines = 0;
    for (int32_t s = 1; s <= resol_max_s(R); s++) {
        const fmod_t *F = resol_free_module(R, s);
        dd_job_t J = {R, s, 0, fmod_total_gens(F), NULL};
        if (!J.n)
            continue;
        J.fail = sq_calloc((size_t)J.n, sizeof *J.fail);
        sq_pool_parallel_for(pool, J.n, dd_one, &J);
        for (int64_t i = 0; i < J.n; i++) {
            rep->dd_checked++;
            if (!J.fail[i])
                continue;
            rep->dd_failed++;
            int32_t t = fmod_gen_degree(F, i);
            int64_t k = i - fmod_gen_global(F, t, 0);
            if (lines++ < MAX_LINES)
                say(out, "wrong: d(d(x_(%d, %d, %lld))) != 0 (step s=%d, t=%d)\n",
                    (int)(t - s), (int)s, (long long)k, (int)s, (int)t);
        }
        sq_free(J.fail);
    }
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

static void check_spots(const resol_t *R, const sq_store_check_opts_t *o, sq_pool_t *pool,
                        FILE *out, sq_store_check_report_t *rep)
{
    int32_t S = resol_max_s(R), N = resol_max_n(R), lo = resol_min_n(R);
    int64_t cells = (int64_t)(S + 1) * (N - lo + 1), n = 0;
    int32_t(*list)[2] = sq_malloc(sq_mul_size((size_t)cells + 1, sizeof *list));
    for (int32_t s = 0; s <= S; s++)
        for (int32_t k = lo; k <= N; k++)
            if (resol_step_published(R, s, s + k))
                list[n][0] = s, list[n][1] = s + k, n++;
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
            check_dd(R, pool, out, rep);
            if (rep->dd_failed)
                say(out, "d o d = 0: FAILED for %lld of %lld generators\n",
                    (long long)rep->dd_failed, (long long)rep->dd_checked);
            else
                say(out, "d o d = 0: ok on %lld generators (every stored differential)\n",
                    (long long)rep->dd_checked);
            check_spots(R, o, pool, out, rep);
            if (rep->spots_failed)
                say(out, "minimality and exactness: FAILED at %lld of %lld bidegrees (%s)\n",
                    (long long)rep->spots_failed, (long long)rep->spots_checked,
                    o->full ? "all of them" : "a sample");
            else
                say(out, "minimality and exactness: ok at %lld bidegrees (%s)\n",
                    (long long)rep->spots_checked, o->full ? "all of them" : "a sample");
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
    else
        say(out, "ok\n");
    if (bad)
        return sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED, "store %s is damaged (see above)",
                             st->path);
    return 0;
}
