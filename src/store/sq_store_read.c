/*
 * sq_store_read.c -- loading a store into a resolution, and reading its
 * E2 page and its steps without computing (docs/save-format.md section 6).
 *
 * Every row is checked before it is used: the checksum over the record's
 * counts and uncompressed payload, the lengths, the padding bits, and --
 * when loading -- that its vectors have exactly the size the steps loaded
 * before it give (resol_load_step).  So a damaged file gives an error
 * naming the bidegree, never a wrong answer.
 */
#include "f2mat.h"
#include "fhom.h"
#include "internal.h"
#include "resol_unstable.h"
#include "sq_core.h"

/* Columns of the row queries below. */
#define ROW_COLUMNS "s, t, ngens, nbits, codec, rawlen, data, crc"

typedef struct {
    int64_t s, t; /* as stored: checked against the limits before use */
    int64_t ngens, nbits, codec, rawlen, bloblen;
    const void *blob;
    uint32_t crc;
} row_t;

static void get_row(sqlite3_stmt *q, row_t *r)
{
    r->s = sqlite3_column_int64(q, 0);
    r->t = sqlite3_column_int64(q, 1);
    r->ngens = sqlite3_column_int64(q, 2);
    r->nbits = sqlite3_column_int64(q, 3);
    r->codec = sqlite3_column_int64(q, 4);
    r->rawlen = sqlite3_column_int64(q, 5);
    r->blob = sqlite3_column_blob(q, 6);
    r->bloblen = sqlite3_column_bytes(q, 6);
    r->crc = (uint32_t)sqlite3_column_int64(q, 7);
}

static int decode_row(const sq_store_t *st, const row_t *r, void **vecs, char *err,
                      size_t errlen)
{
    return sq_store_decode(st, r->s, r->t, r->ngens, r->nbits, r->codec, r->rawlen, r->blob,
                           r->bloblen, r->crc, vecs, err, errlen);
}

/* Prepares *q, the query sql over a region: ?1 is max_s, ?2 the lowest
 * stem lo, ?3 the highest max_n.  An SQLite code (SQLITE_OK, or the
 * failure with *q NULL). */
static int prepare_region(const sq_store_t *st, const char *sql, int32_t max_s, int32_t lo,
                          int32_t max_n, sqlite3_stmt **q)
{
    int rc = sqlite3_prepare_v2(st->db, sql, -1, q, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int(*q, 1, max_s);
    sqlite3_bind_int(*q, 2, lo);
    sqlite3_bind_int(*q, 3, max_n);
    return SQLITE_OK;
}

/* Calls fn(ctx, row, err, errlen) on each row with s <= max_s and stem in
 * [lo, max_n], in the order of t, then s, until one returns nonzero.
 * Returns that value, 0 after the last row, or the error of an SQLite
 * call (sq_store_sqlite_fail). */
typedef int (*row_fn)(void *ctx, const row_t *r, char *err, size_t errlen);

static int walk_region(const sq_store_t *st, int32_t max_s, int32_t lo, int32_t max_n,
                       row_fn fn, void *ctx, char *err, size_t errlen)
{
    sqlite3_stmt *q = NULL;
    int rc = prepare_region(st,
                            "SELECT " ROW_COLUMNS " FROM step WHERE s <= ?1 AND t - s "
                            "BETWEEN ?2 AND ?3 ORDER BY t, s",
                            max_s, lo, max_n, &q);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    int ret = 0;
    while (!ret && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        row_t r;
        get_row(q, &r);
        ret = fn(ctx, &r, err, errlen);
    }
    if (!ret && rc != SQLITE_DONE)
        ret = sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    sqlite3_finalize(q);
    return ret;
}

/* What sq_store_load's rows go into. */
typedef struct {
    const sq_store_t *st;
    resol_t *R;
    int flags;
    FILE *warn;
    sq_store_load_stats_t *stats;
} load_t;

/* Loads row r into L->R (a row_fn): 0 when it was loaded, dropped, or
 * damaged and SQ_STORE_REPAIR is set; else the error of the damage. */
static int load_row(void *ctx, const row_t *r, char *err, size_t errlen)
{
    const load_t *L = ctx;
    const sq_store_t *st = L->st;
    resol_t *R = L->R;
    sq_store_load_stats_t *stats = L->stats;
    void *vecs = NULL;
    char msg[1024], why[256];
    int drc = sq_store_row_limits(st, r->s, r->t, r->ngens, r->nbits, r->rawlen, msg, sizeof msg);
    int32_t s = (int32_t)r->s, t = (int32_t)r->t;
    if (!drc && !resol_load_ready(R, s, t)) {
        stats->dropped++;
        return 0;
    }
    /* The size its vectors must have, before anything is allocated. */
    int64_t want = drc ? 0 : fhom_image_len(resol_differential(R, s), t);
    if (!drc && r->nbits != want) {
        const char *u = sq_store_unit(st);
        snprintf(msg, sizeof msg,
                 "store %s: step (s=%d, t=%d) is damaged: it does not fit the steps before "
                 "it (%lld vectors of %lld %s, but its vectors have %lld %s)",
                 st->path, (int)s, (int)t, (long long)r->ngens, (long long)r->nbits, u,
                 (long long)want, u);
        drc = SQ_STORE_E_DAMAGED;
    }
    if (!drc)
        drc = decode_row(st, r, &vecs, msg, sizeof msg);
    if (!drc && resol_load_step(R, s, t, r->ngens, r->nbits, vecs, why, sizeof why) != 0) {
        snprintf(msg, sizeof msg,
                 "store %s: step (s=%d, t=%d) is damaged: it does not fit the steps before "
                 "it (%s)",
                 st->path, (int)s, (int)t, why);
        drc = SQ_STORE_E_DAMAGED;
    }
    sq_free(vecs);
    if (!drc) {
        stats->loaded++;
        return 0;
    }
    if (!(L->flags & SQ_STORE_REPAIR))
        return sq_store_fail(err, errlen, drc, "%s", msg);
    if (stats->damaged == 0) {
        stats->damaged_s = s;
        stats->damaged_t = t;
    }
    stats->damaged++;
    stats->dropped++;
    if (L->warn)
        fprintf(L->warn, "adams: warning: %s; it will be recomputed\n", msg);
    return 0;
}

int sq_store_load(sq_store_t *st, resol_t *R, int flags, FILE *warn, sq_store_load_stats_t *stats,
                  char *err, size_t errlen)
{
    sq_store_load_stats_t s0;
    if (!stats)
        stats = &s0;
    memset(stats, 0, sizeof *stats);
    stats->damaged_s = stats->damaged_t = -1;
    if (resol_prime(R) != st->prime)
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s is for the prime %u, not %u", st->path,
                             (unsigned)st->prime, (unsigned)resol_prime(R));
    if (resol_is_unstable(R) != st->unstable)
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s keeps %s resolution, not %s one", st->path,
                             st->unstable ? "an unstable" : "a stable",
                             st->unstable ? "a stable" : "an unstable");
    if (resol_min_n(R) != st->bottom)
        return sq_store_fail(err, errlen, SQ_STORE_E_BINDING,
                             "store %s is for a module with bottom degree %d, not %d", st->path,
                             (int)st->bottom, (int)resol_min_n(R));
    load_t L = {st, R, flags, warn, stats};
    return walk_region(st, resol_max_s(R), resol_min_n(R), resol_max_n(R), load_row, &L, err,
                       errlen);
}

/* What sq_store_read_ext's rows go into: dims over (lo..max_n) x (0..max_s). */
typedef struct {
    const sq_store_t *st;
    int64_t *dims;
    int32_t lo, max_s, max_n;
} dims_t;

/* Checks row r and records its count in D->dims (a row_fn). */
static int dim_row(void *ctx, const row_t *r, char *err, size_t errlen)
{
    const dims_t *D = ctx;
    int ret = decode_row(D->st, r, NULL, err, errlen); /* checked, nothing allocated */
    int64_t n = r->t - r->s;
    if (!ret && r->s >= 0 && r->s <= D->max_s && n >= D->lo && n <= D->max_n)
        D->dims[(n - D->lo) * (D->max_s + 1) + r->s] = r->ngens;
    return ret;
}

int sq_store_read_ext(sq_store_t *st, int32_t max_s, int32_t max_n, int64_t *dims, char *err,
                      size_t errlen)
{
    int32_t lo = st->bottom;
    if (max_s < 0 || max_n < lo)
        return sq_store_fail(err, errlen, SQ_E_INVAL, "store %s: empty region", st->path);
    int64_t cells = (int64_t)(max_n - lo + 1) * (max_s + 1);
    for (int64_t i = 0; i < cells; i++)
        dims[i] = -1;
    dims_t D = {st, dims, lo, max_s, max_n};
    int ret = walk_region(st, max_s, lo, max_n, dim_row, &D, err, errlen);
    for (int32_t n = lo; n <= max_n && !ret; n++)
        for (int32_t s = 0; s <= max_s && !ret; s++)
            if (dims[(int64_t)(n - lo) * (max_s + 1) + s] < 0)
                ret = sq_store_fail(err, errlen, SQ_STORE_E_MISSING,
                                    "store %s does not hold (n=%d, s=%d) (step s=%d, t=%d)",
                                    st->path, (int)n, (int)s, (int)s, (int)(s + n));
    return ret;
}

int sq_store_read_step(sq_store_t *st, int32_t s, int32_t t, int64_t *ngens, int64_t *nbits,
                       void **vecs, char *err, size_t errlen)
{
    if (vecs)
        *vecs = NULL;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db, "SELECT " ROW_COLUMNS " FROM step WHERE s = ?1 AND t = ?2",
                                -1, &q, NULL);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    sqlite3_bind_int(q, 1, s);
    sqlite3_bind_int(q, 2, t);
    int ret;
    rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        row_t r;
        void *v = NULL;
        get_row(q, &r);
        ret = decode_row(st, &r, vecs ? &v : NULL, err, errlen);
        if (!ret) {
            *ngens = r.ngens;
            *nbits = r.nbits;
            if (vecs)
                *vecs = v;
            else
                sq_free(v);
        }
    } else if (rc == SQLITE_DONE) {
        ret = sq_store_fail(err, errlen, SQ_STORE_E_MISSING,
                            "store %s does not hold the step (s=%d, t=%d)", st->path, (int)s,
                            (int)t);
    } else {
        ret = sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    }
    sqlite3_finalize(q);
    return ret;
}

int sq_store_region_missing(sq_store_t *st, int32_t max_s, int32_t max_n, int32_t *miss_s,
                            int32_t *miss_n, char *err, size_t errlen)
{
    int32_t lo = st->bottom;
    *miss_s = *miss_n = -1;
    if (max_s < 0 || max_n < lo)
        return 0;
    /* The rows of the region in (n, s) order, against the cells expected:
     * the first cell without its row is the answer.  Stops there, so the
     * cost is at most the rows stored, whatever the region asked. */
    sqlite3_stmt *q = NULL;
    int rc = prepare_region(st,
                            "SELECT t - s, s FROM step WHERE s BETWEEN 0 AND ?1 AND t - s "
                            "BETWEEN ?2 AND ?3 ORDER BY t - s, s",
                            max_s, lo, max_n, &q);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    int64_t n = lo, s = 0; /* the next cell expected */
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t rn = sqlite3_column_int64(q, 0), rs = sqlite3_column_int64(q, 1);
        if (rn != n || rs != s)
            break; /* (n, s) has no row */
        if (++s > max_s)
            s = 0, n++;
    }
    int ret = 0;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        ret = sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    else if (n <= max_n) {
        *miss_s = (int32_t)s;
        *miss_n = (int32_t)n;
        ret = sq_store_fail(err, errlen, SQ_STORE_E_MISSING,
                            "store %s does not hold (n=%d, s=%d) (step s=%d, t=%d)", st->path,
                            (int)n, (int)s, (int)s, (int)(s + n));
    }
    sqlite3_finalize(q);
    return ret;
}
