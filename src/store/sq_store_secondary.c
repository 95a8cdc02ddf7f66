/*
 * sq_store_secondary.c -- the secondary lift kept in a store: the tables
 * `sec_row` and `sec_hom` (docs/save-format.md section 9), the hook that
 * loads and saves the rows of resol_secondary's homotopies, and their
 * check.
 *
 * A record (s, t) holds h_s(g) for the generators g of F_s in degree t,
 * each a vector over F_{s-2} in degree t - 1, laid out as a step record
 * at p = 2 (LE limbs, zero padding; zstd when it pays).  Its checksum
 * binds it to its store, engine and module as a step's does, under its
 * own tag, so a step record cannot pass for one and the reverse.
 */
#include "sq_store_secondary.h"

#include <stdlib.h>
#include <zstd.h>

#include "f2mat.h"
#include "fhom.h"
#include "fmat.h"
#include "internal.h"
#include "sq_core.h"

#define DAMAGED(...) sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED, __VA_ARGS__)

struct sq_store_sec {
    sq_store_t *st;
    const resol_t *R;
    int save, tables;
    uint32_t key_row, key_hom; /* CRC-32C states of the two binding prefixes */
    sq_store_sec_stats_t stats;
};

static const char create_sql[] =
    "CREATE TABLE IF NOT EXISTS sec_row (s INTEGER PRIMARY KEY NOT NULL, "
    "emax INTEGER NOT NULL, crc INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sec_hom (s INTEGER NOT NULL, t INTEGER NOT NULL, "
    "ngens INTEGER NOT NULL, nbits INTEGER NOT NULL, codec INTEGER NOT NULL, "
    "rawlen INTEGER NOT NULL, data BLOB NOT NULL, crc INTEGER NOT NULL, "
    "PRIMARY KEY (s, t)) WITHOUT ROWID;";

/* The binding prefix of tag: tag, store_id, engine, module_hash, each with
 * its 0x00 (a format-1 store has no store_id: the empty text). */
static uint32_t sec_key(const sq_store_t *st, const char *tag)
{
    const char *id = st->store_id ? st->store_id : "";
    const char *eng = sq_store_engine_name(st->engine);
    uint32_t c = sq_crc32c_update(0, tag, strlen(tag) + 1);
    c = sq_crc32c_update(c, id, strlen(id) + 1);
    c = sq_crc32c_update(c, eng, strlen(eng) + 1);
    return sq_crc32c_update(c, st->module_hash, strlen(st->module_hash) + 1);
}

static uint32_t row_crc(const sq_store_sec_t *K, int64_t s, int64_t emax)
{
    uint8_t h[8];
    sq_put_le32(h, (uint32_t)s);
    sq_put_le32(h + 4, (uint32_t)emax);
    return sq_crc32c_update(K->key_row, h, sizeof h);
}

static uint32_t hom_crc(const sq_store_sec_t *K, int32_t s, int32_t t, int64_t ngens,
                        int64_t nbits, const uint8_t *p, size_t len)
{
    uint8_t h[24];
    sq_put_le32(h, (uint32_t)s);
    sq_put_le32(h + 4, (uint32_t)t);
    sq_put_le64(h + 8, (uint64_t)ngens);
    sq_put_le64(h + 16, (uint64_t)nbits);
    uint32_t c = sq_crc32c_update(K->key_hom, h, sizeof h);
    return len ? sq_crc32c_update(c, p, len) : c;
}

static int has_tables(sq_store_t *st, int *yes)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                                "name IN ('sec_row', 'sec_hom')",
                                -1, &q, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        *yes = sqlite3_column_int(q, 0) == 2;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc;
}

int sq_store_sec_attach(sq_store_sec_t **out, sq_store_t *st, const resol_t *R, int save,
                        char *err, size_t errlen)
{
    *out = NULL;
    if (save && st->readonly)
        return sq_store_fail(err, errlen, SQ_E_INVAL, "store %s is open for reading only",
                             st->path);
    if (st->unstable || st->prime != 2)
        return sq_store_fail(err, errlen, SQ_E_INVAL,
                             "store %s: the secondary lift is kept for stable resolutions at "
                             "p = 2 only",
                             st->path);
    int yes = 0, rc = has_tables(st, &yes);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    sq_store_sec_t *K = sq_calloc(1, sizeof *K);
    K->st = st;
    K->R = R;
    K->save = save;
    K->tables = yes;
    K->key_row = sec_key(st, "adams sec row");
    K->key_hom = sec_key(st, "adams sec hom");
    *out = K;
    return 0;
}

void sq_store_sec_detach(sq_store_sec_t *K)
{
    sq_free(K);
}

void sq_store_sec_stats(const sq_store_sec_t *K, sq_store_sec_stats_t *out)
{
    *out = K->stats;
}

int sq_store_sec_rows(sq_store_t *st, int64_t *rows, char *err, size_t errlen)
{
    *rows = 0;
    int yes = 0, rc = has_tables(st, &yes);
    sqlite3_stmt *q = NULL;
    if (rc == SQLITE_OK && yes &&
        (rc = sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sec_row", -1, &q, NULL)) ==
            SQLITE_OK &&
        (rc = sqlite3_step(q)) == SQLITE_ROW) {
        *rows = sqlite3_column_int64(q, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc == SQLITE_OK ? 0 : sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
}

/* ---- One record ------------------------------------------------------------ */

/* The stored emax of row s (with its checksum checked), or -1 when the row
 * is not kept.  Returns 0 or an error. */
static int read_emax(sq_store_sec_t *K, int32_t s, int64_t *emax, char *err, size_t errlen)
{
    sq_store_t *st = K->st;
    sqlite3_stmt *q = NULL;
    *emax = -1;
    int rc = sqlite3_prepare_v2(st->db, "SELECT emax, crc FROM sec_row WHERE s = ?", -1, &q,
                                NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(q, 1, s);
        rc = sqlite3_step(q);
    }
    int ret = 0;
    if (rc == SQLITE_ROW) {
        int64_t e = sqlite3_column_int64(q, 0), crc = sqlite3_column_int64(q, 1);
        if (e < 0 || e > RESOL_MAX_T + s || crc != (int64_t)row_crc(K, s, e))
            ret = DAMAGED("store %s: the secondary row s=%d is damaged: checksum mismatch", st->path,
                          (int)s);
        else
            *emax = e;
    } else if (rc != SQLITE_DONE)
        ret = sq_store_sqlite_fail(st, rc, "cannot read store", err, errlen);
    sqlite3_finalize(q);
    return ret;
}

/* Decodes the record (s, t) of the current row of q (ngens, nbits, codec,
 * rawlen, data, crc), which must hold ngens vectors of nbits bits, into
 * h[0 .. ngens) (NULL: checked only).  Returns 0 or SQ_STORE_E_DAMAGED. */
static int decode(const sq_store_sec_t *K, sqlite3_stmt *q, int32_t s, int32_t t, int64_t ngens,
                  int64_t nbits, fvec_t *h, char *err, size_t errlen)
{
    const char *f = K->st->path;
    int64_t n = sqlite3_column_int64(q, 0), b = sqlite3_column_int64(q, 1);
    int64_t codec = sqlite3_column_int64(q, 2), rawlen = sqlite3_column_int64(q, 3);
    const void *blob = sqlite3_column_blob(q, 4);
    int64_t bloblen = sqlite3_column_bytes(q, 4), crc = sqlite3_column_int64(q, 5);
    int64_t limbs = f2_limbs(nbits);
    if (n != ngens || b != nbits || rawlen != ngens * limbs * 8)
        return DAMAGED("store %s: secondary record (s=%d, t=%d) is damaged: its counts (%lld "
                       "generators of %lld bits) disagree with the resolution (%lld of %lld)",
                       f, (int)s, (int)t, (long long)n, (long long)b, (long long)ngens,
                       (long long)nbits);
    uint8_t *raw = sq_malloc((size_t)rawlen + 8);
    const char *why = NULL;
    if (codec == SQ_STORE_CODEC_RAW && bloblen == rawlen) {
        if (rawlen)
            memcpy(raw, blob, (size_t)rawlen);
    } else if (codec == SQ_STORE_CODEC_ZSTD && bloblen > 0) {
        unsigned long long claim = ZSTD_getFrameContentSize(blob, (size_t)bloblen);
        size_t got = claim == (unsigned long long)rawlen
                         ? ZSTD_decompress(raw, (size_t)rawlen, blob, (size_t)bloblen)
                         : 0;
        if (claim != (unsigned long long)rawlen || ZSTD_isError(got) || got != (size_t)rawlen)
            why = "its compressed data does not decode";
    } else
        why = "its codec or length is wrong";
    if (!why && (int64_t)hom_crc(K, s, t, ngens, nbits, raw, (size_t)rawlen) != crc)
        why = "checksum mismatch";
    for (int64_t i = 0; !why && i < ngens; i++) {
        uint64_t w[1];
        if (nbits & 63) {
            w[0] = sq_get_le64(raw + (size_t)((i * limbs + limbs - 1) * 8));
            if (w[0] >> (nbits & 63))
                why = "a vector has bits past its length";
        }
    }
    if (!why && h)
        for (int64_t i = 0; i < ngens; i++) {
            const uint8_t *v = raw + (size_t)(i * limbs * 8);
            int zero = 1;
            for (int64_t l = 0; l < limbs * 8 && zero; l++)
                zero = v[l] == 0;
            memset(&h[i], 0, sizeof h[i]);
            if (zero)
                continue; /* h_s(g) = 0: a zero-length vector, as the engine keeps it */
            fvec_init(&h[i], nbits, 2);
            for (int64_t l = 0; l < limbs; l++)
                h[i].limbs[l] = sq_get_le64(v + 8 * l);
        }
    sq_free(raw);
    if (why)
        return DAMAGED("store %s: secondary record (s=%d, t=%d) is damaged: %s", f, (int)s,
                       (int)t, why);
    return 0;
}

/* ---- Loading ----------------------------------------------------------------- */

static int sec_load(void *ctx, int32_t s, fvec_t *h, int64_t ngen, int64_t *n, char *err,
                    size_t errlen)
{
    sq_store_sec_t *K = ctx;
    *n = 0;
    if (!K->tables)
        return 0;
    int64_t emax;
    int rc = read_emax(K, s, &emax, err, errlen);
    if (rc || emax < 0)
        return rc;
    const fmod_t *F = resol_free_module(K->R, s), *F2 = resol_free_module(K->R, s - 2);
    int64_t m = 0;
    while (m < ngen && fmod_gen_degree(F, m) <= emax)
        m++;
    sqlite3_stmt *q = NULL;
    rc = sqlite3_prepare_v2(K->st->db,
                            "SELECT ngens, nbits, codec, rawlen, data, crc FROM sec_hom "
                            "WHERE s = ? AND t = ?",
                            -1, &q, NULL);
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(K->st, rc, "cannot read store", err, errlen);
    int64_t g = 0;
    int ret = 0;
    while (g < m && !ret) {
        int32_t t = fmod_gen_degree(F, g);
        int64_t k = fmod_num_gens(F, t);
        sqlite3_bind_int(q, 1, s);
        sqlite3_bind_int(q, 2, t);
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW)
            ret = decode(K, q, s, t, k, fmod_dim(F2, t - 1), h + g, err, errlen);
        else if (rc == SQLITE_DONE)
            ret = DAMAGED("store %s: secondary record (s=%d, t=%d) is missing (row s=%d is kept "
                          "through degree %lld)",
                          K->st->path, (int)s, (int)t, (int)s, (long long)emax);
        else
            ret = sq_store_sqlite_fail(K->st, rc, "cannot read store", err, errlen);
        sqlite3_reset(q);
        if (!ret)
            g += k;
    }
    sqlite3_finalize(q);
    if (ret) {
        for (int64_t i = 0; i < g; i++)
            fvec_clear(&h[i]);
        return ret;
    }
    *n = m;
    K->stats.gens_loaded += m;
    K->stats.rows_whole += m == ngen;
    return 0;
}

/* ---- Saving ------------------------------------------------------------------- */

/* Inserts the record (s, t) of the k vectors h[0 .. k) of nbits bits. */
static int put_hom(sq_store_sec_t *K, sqlite3_stmt *ins, ZSTD_CCtx *zc, int32_t s, int32_t t,
                   const fvec_t *h, int64_t k, int64_t nbits)
{
    int64_t limbs = f2_limbs(nbits), rawlen = k * limbs * 8;
    uint8_t *p = sq_calloc((size_t)rawlen + 8, 1);
    for (int64_t i = 0; i < k; i++)
        for (int64_t l = 0; l < limbs && h[i].len; l++)
            sq_put_le64(p + (size_t)((i * limbs + l) * 8), h[i].limbs[l]);
    uint32_t crc = hom_crc(K, s, t, k, nbits, p, (size_t)rawlen);
    size_t cap = sq_store_zbound(rawlen);
    uint8_t *z = cap ? sq_malloc(cap) : NULL;
    int rc = sq_store_insert_record(ins, zc, s, t, k, nbits, p, rawlen, crc, z);
    sq_free(p);
    sq_free(z);
    return rc;
}

/* Writes the records of h[n0 .. ngen) and row s's emax, in the open
 * transaction. */
static int put_row(sq_store_sec_t *K, int32_t s, int32_t emax, const fvec_t *h, int64_t n0,
                   int64_t ngen)
{
    sqlite3 *db = K->st->db;
    sqlite3_stmt *ins = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "INSERT OR REPLACE INTO sec_hom(s, t, ngens, nbits, codec, "
                                "rawlen, data, crc) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &ins, NULL);
    ZSTD_CCtx *zc = rc == SQLITE_OK ? ZSTD_createCCtx() : NULL;
    if (rc == SQLITE_OK && !zc)
        rc = SQLITE_NOMEM;
    const fmod_t *F = resol_free_module(K->R, s), *F2 = resol_free_module(K->R, s - 2);
    for (int64_t g = n0; g < ngen && rc == SQLITE_OK;) {
        int32_t t = fmod_gen_degree(F, g);
        int64_t k = fmod_num_gens(F, t);
        rc = put_hom(K, ins, zc, s, t, h + g, k, fmod_dim(F2, t - 1));
        g += k;
    }
    ZSTD_freeCCtx(zc);
    sqlite3_finalize(ins);
    sqlite3_stmt *r = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO sec_row(s, emax, crc) VALUES(?, ?, ?)",
                                -1, &r, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(r, 1, s);
        sqlite3_bind_int(r, 2, emax);
        sqlite3_bind_int64(r, 3, (sqlite3_int64)row_crc(K, s, emax));
        rc = sqlite3_step(r) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
    }
    sqlite3_finalize(r);
    return rc;
}

static int sec_save(void *ctx, int32_t s, int32_t emax, const fvec_t *h, int64_t n0,
                    int64_t ngen, char *err, size_t errlen)
{
    sq_store_sec_t *K = ctx;
    K->stats.gens_computed += ngen - n0;
    if (!K->save)
        return 0;
    int64_t old = -1;
    int rc = K->tables ? read_emax(K, s, &old, NULL, 0) : 0;
    if (rc == 0 && old >= emax)
        return sq_store_signals_caught() ? 1 : 0; /* nothing new */
    sqlite3 *db = K->st->db;
    rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, create_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = put_row(K, s, emax, h, n0, ngen);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        int code = sq_store_sqlite_fail(K->st, rc, "cannot write store", err, errlen);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return code;
    }
    K->tables = 1;
    K->stats.rows_saved++;
    return sq_store_signals_caught() ? 1 : 0;
}

resol_sec_keep_t sq_store_sec_keep(sq_store_sec_t *K)
{
    resol_sec_keep_t k = {K, sec_load, sec_save};
    return k;
}

/* ---- Checking ----------------------------------------------------------------- */

#define MAX_LINES 20

/* The d_2 coefficients of one row: cf[g] = h_s(g) on the generators of
 * F_{s-2} in degree |g| - 1 (as resol_secondary reads them). */
typedef struct {
    int64_t emax, n; /* kept through emax; generators 0 .. n - 1 */
    fvec_t *cf;
} coef_row_t;

static void coef_take(coef_row_t *c, const resol_t *R, int32_t s, int64_t g0, const fvec_t *h,
                      int64_t k)
{
    const fmod_t *F = resol_free_module(R, s), *F2 = resol_free_module(R, s - 2);
    for (int64_t i = 0; i < k; i++) {
        int32_t e = fmod_gen_degree(F, g0 + i);
        int64_t m = fmod_num_gens(F2, e - 1);
        fvec_init(&c->cf[g0 + i], m, 2);
        for (int64_t j = 0; j < m && h[i].len; j++)
            if (fvec_get(h[i], fmod_block_offset(F2, e - 1, e - 1, j)))
                fvec_set(c->cf[g0 + i], j, 1);
    }
}

/* Reads and checks row s (its emax and every record it claims) into c. */
static void check_row(sq_store_sec_t *K, int32_t s, int64_t emax, coef_row_t *c, FILE *out,
                      sq_store_sec_report_t *rep)
{
    const resol_t *R = K->R;
    char err[512];
    c->emax = -1;
    if (s < 3 || s > resol_max_s(R)) {
        if (rep->damaged++ < MAX_LINES && out)
            fprintf(out, "damaged: secondary row s=%d lies outside the stored resolution (s <= "
                         "%d)\n",
                    (int)s, (int)resol_max_s(R));
        return;
    }
    const fmod_t *F = resol_free_module(R, s), *F2 = resol_free_module(R, s - 2);
    int32_t a = fmod_gens_through(F), b = fmod_gens_through(F2) + 1;
    if (emax > (a < b ? a : b)) {
        if (rep->damaged++ < MAX_LINES && out)
            fprintf(out, "damaged: secondary row s=%d is kept through degree %lld, beyond the "
                         "stored resolution (%d)\n",
                    (int)s, (long long)emax, (int)(a < b ? a : b));
        return;
    }
    int64_t tot = fmod_total_gens(F), n = 0;
    while (n < tot && fmod_gen_degree(F, n) <= emax)
        n++;
    fvec_t *h = sq_calloc((size_t)n + 1, sizeof *h);
    int64_t m = 0;
    int rc = sec_load(K, s, h, n, &m, err, sizeof err);
    if (rc || m != n) {
        if (rep->damaged++ < MAX_LINES && out)
            fprintf(out, "damaged: %s\n", rc ? err : "a secondary row is shorter than it says");
        sq_free(h);
        return;
    }
    c->emax = emax;
    c->n = n;
    c->cf = sq_calloc((size_t)n + 1, sizeof *c->cf);
    coef_take(c, R, s, 0, h, n);
    for (int64_t g = 0; g < n; g++)
        fvec_clear(&h[g]);
    sq_free(h);
}

/* Every record of sec_hom: checksum and counts against R (also those no
 * row claims). */
static int check_records(sq_store_sec_t *K, FILE *out, sq_store_sec_report_t *rep)
{
    const resol_t *R = K->R;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(K->st->db,
                                "SELECT ngens, nbits, codec, rawlen, data, crc, s, t FROM sec_hom "
                                "ORDER BY s, t",
                                -1, &q, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t s = sqlite3_column_int64(q, 6), t = sqlite3_column_int64(q, 7);
        char err[512];
        rep->records++;
        int bad = 0;
        if (s < 3 || s > resol_max_s(R) || t < s + (int64_t)resol_min_n(R) ||
            t - 1 > fmod_gens_through(resol_free_module(R, (int32_t)s - 2)) ||
            t > fmod_gens_through(resol_free_module(R, (int32_t)s))) {
            bad = 1;
            snprintf(err, sizeof err,
                     "secondary record (s=%lld, t=%lld) lies outside the stored resolution",
                     (long long)s, (long long)t);
        } else {
            const fmod_t *F = resol_free_module(R, (int32_t)s);
            const fmod_t *F2 = resol_free_module(R, (int32_t)s - 2);
            bad = decode(K, q, (int32_t)s, (int32_t)t, fmod_num_gens(F, (int32_t)t),
                         fmod_dim(F2, (int32_t)t - 1), NULL, err, sizeof err) != 0;
        }
        if (bad && rep->damaged++ < MAX_LINES && out)
            fprintf(out, "damaged: %s\n", err);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE || rc == SQLITE_OK ? 0 : rc;
}

/* d_2 d_2 = 0 from (n, s) (t = n + s): the rows s + 2 and s + 4 must keep
 * the degrees t + 1 and t + 2. */
static int d2d2_fails(const resol_t *R, const coef_row_t *rows, int32_t s, int32_t t)
{
    const coef_row_t *A = &rows[s + 2], *B = &rows[s + 4];
    const fmod_t *F2 = resol_free_module(R, s + 2), *F4 = resol_free_module(R, s + 4);
    int64_t na = fmod_num_gens(resol_free_module(R, s), t), nb = fmod_num_gens(F2, t + 1);
    int64_t nc = fmod_num_gens(F4, t + 2);
    if (!na || !nb || !nc)
        return 0;
    int64_t ja = fmod_gen_global(F2, t + 1, 0), kb = fmod_gen_global(F4, t + 2, 0);
    for (int64_t i = 0; i < na; i++)
        for (int64_t k = 0; k < nc; k++) {
            unsigned x = 0;
            for (int64_t j = 0; j < nb; j++)
                x ^= fvec_get(A->cf[ja + j], i) & fvec_get(B->cf[kb + k], j);
            if (x)
                return 1;
        }
    return 0;
}

/* ---- A fresh lift at a sample ----------------------------------------------------- */

/* One sample: the resolution R' through (s, n) loaded from the store, rows
 * 3 .. s - 1 read whole, row s read below its top SAMPLE_DEGREES degrees
 * (the top is n + s - 1) and those lifted afresh from the kept h_{s-1}:
 * each fresh h_s(g) is a preimage of g's intermediate, so the defining
 * equation of the kept h_s(g) holds exactly when d h_s(g) is the same
 * (whatever preimages either run chose). */
#define SAMPLE_DEGREES 4
typedef struct {
    sq_store_sec_t *K;
    int32_t s;
    int64_t checked, failed;
    int error;
} sample_t;

static int sample_load(void *ctx, int32_t r, fvec_t *h, int64_t ngen, int64_t *n, char *err,
                       size_t errlen)
{
    sample_t *S = ctx;
    int rc = sec_load(S->K, r, h, ngen, n, err, errlen);
    if (rc || r < S->s || *n == 0)
        return rc;
    const fmod_t *F = resol_free_module(S->K->R, r);
    int32_t top = fmod_gen_degree(F, ngen - 1);
    while (*n > 0 && fmod_gen_degree(F, *n - 1) > top - SAMPLE_DEGREES)
        fvec_clear(&h[--*n]);
    return 0;
}

/* Whether d(a) = d(b) for a and b over F_{r-2} in degree e (zero-length:
 * zero): the fresh and the kept h_r(g). */
static int same_boundary(const resol_t *R, int32_t r, int32_t e, fvec_t a, fvec_t b)
{
    const fhom_t *d = resol_differential(R, r - 2);
    int64_t bits = fhom_target_dim(d, e);
    uint64_t *out = sq_calloc((size_t)f2_limbs(bits) + 1, sizeof *out);
    if (a.len)
        fhom_apply_add(d, out, e, e + 1, a.limbs);
    if (b.len)
        fhom_apply_add(d, out, e, e + 1, b.limbs);
    int zero = 1;
    for (int64_t l = 0; l < f2_limbs(bits) && zero; l++)
        zero = out[l] == 0;
    sq_free(out);
    return zero;
}

static int sample_save(void *ctx, int32_t r, int32_t emax, const fvec_t *h, int64_t n0,
                       int64_t ngen, char *err, size_t errlen)
{
    (void)emax;
    sample_t *S = ctx;
    if (r < S->s)
        return 0;
    const resol_t *R = S->K->R;
    const fmod_t *F = resol_free_module(R, r), *F2 = resol_free_module(R, r - 2);
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(S->K->st->db,
                                "SELECT ngens, nbits, codec, rawlen, data, crc FROM sec_hom "
                                "WHERE s = ? AND t = ?",
                                -1, &q, NULL);
    for (int64_t g = n0; g < ngen && !S->error;) {
        int32_t t = fmod_gen_degree(F, g);
        int64_t k = fmod_num_gens(F, t);
        fvec_t *kept = sq_calloc((size_t)k + 1, sizeof *kept);
        if (rc == SQLITE_OK) {
            sqlite3_bind_int(q, 1, r);
            sqlite3_bind_int(q, 2, t);
        }
        if (rc != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW ||
            decode(S->K, q, r, t, k, fmod_dim(F2, t - 1), kept, err, errlen) != 0)
            S->error = 1;
        if (rc == SQLITE_OK)
            sqlite3_reset(q);
        for (int64_t i = 0; i < k && !S->error; i++) {
            S->checked++;
            S->failed += !same_boundary(R, r, t - 1, h[g + i], kept[i]);
        }
        for (int64_t i = 0; i < k; i++)
            fvec_clear(&kept[i]);
        sq_free(kept);
        g += k;
    }
    sqlite3_finalize(q);
    return 1; /* the sampled row is done: stop */
}

/* Lifts row s through stem n afresh at its top degree (see sample_t);
 * returns the generators compared and adds the mismatches to *failed
 * (-1: the sample could not be set up, err says why). */
static int64_t check_sample(sq_store_t *st, const resol_t *R, int32_t s, int32_t n,
                            int64_t *failed, char *err, size_t errlen)
{
    int32_t ms, mn;
    if (sq_store_region_missing(st, s, n, &ms, &mn, err, errlen) != 0)
        return -1;
    resol_t *Rs = resol_new(resol_input(R), s, n);
    sq_store_load_stats_t ls;
    int64_t got = -1;
    sq_store_sec_t *K = NULL;
    if (sq_store_load(st, Rs, 0, NULL, &ls, err, errlen) == 0 && ls.dropped == 0 &&
        sq_store_sec_attach(&K, st, Rs, 0, err, errlen) == 0) {
        sample_t S = {K, s, 0, 0, 0};
        resol_sec_keep_t keep = {&S, sample_load, sample_save};
        resol_sec_t *X = NULL;
        int rc = resol_sec_new_kept(&X, Rs, NULL, &keep, NULL, NULL, err, errlen);
        resol_sec_free(X);
        if (rc == 1 && !S.error) {
            got = S.checked;
            *failed += S.failed;
        } else if (rc == SQ_E_RANGE || rc == SQ_E_INVAL) { /* a kept row below does not lift */
            got = 1;
            *failed += 1;
            snprintf(err, errlen, "the kept rows below s=%d give intermediates with no preimage",
                     (int)s);
        } else if (rc == 0 || rc == 1)
            snprintf(err, errlen, "the row s=%d could not be read at stem %d", (int)s, (int)n);
    }
    sq_store_sec_detach(K);
    resol_free(Rs);
    return got;
}

/* Up to six samples (s, n) where rows 3 .. s keep stem n (seeded). */
static void check_samples(sq_store_t *st, const resol_t *R, const coef_row_t *rows, int32_t S,
                          uint64_t seed, FILE *out, sq_store_sec_report_t *rep)
{
    sq_rand_t rng;
    sq_rand_init(&rng, seed ? seed : 17);
    int32_t bottom = resol_min_n(R);
    for (int k = 0; k < 6; k++) {
        int32_t s = 3 + (int32_t)sq_rand_below(&rng, (uint64_t)(S >= 3 ? S - 2 : 1));
        int64_t reach = INT64_MAX; /* the largest stem every row 3 .. s keeps */
        for (int32_t r = 3; r <= s && r <= S; r++)
            if (rows[r].emax - r + 1 < reach)
                reach = rows[r].emax < 0 ? -1 : rows[r].emax - r + 1;
        if (s > S || reach < bottom || reach > resol_max_n(R))
            continue;
        int32_t n = bottom + (int32_t)sq_rand_below(&rng, (uint64_t)(reach - bottom + 1));
        char err[512] = "";
        int64_t f = 0, c = check_sample(st, R, s, n, &f, err, sizeof err);
        if (c < 0) {
            if (rep->damaged++ < MAX_LINES && out)
                fprintf(out, "damaged: %s\n", err);
            continue;
        }
        rep->lift_gens += c;
        rep->lift_failed += f;
        if (f && out && strncmp(err, "the kept rows", 13) == 0)
            fprintf(out, "the defining equation of the kept homotopies FAILED: %s (lifting "
                         "row s=%d through stem %d)\n",
                    err, (int)s, (int)n);
        else if (f && out)
            fprintf(out, "the defining equation of the kept h_%d (row s=%d through stem %d, "
                         "its top %d degrees): FAILED on %lld of %lld generators\n",
                    (int)s, (int)s, (int)n, SAMPLE_DEGREES, (long long)f, (long long)c);
    }
}

int sq_store_sec_check(sq_store_t *st, const resol_t *R, uint64_t seed, FILE *out,
                       sq_store_sec_report_t *rep, char *err, size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    sq_store_sec_t *K = NULL;
    int rc = sq_store_sec_attach(&K, st, R, 0, err, errlen);
    if (rc)
        return rc;
    if (!K->tables) {
        sq_store_sec_detach(K);
        return 0;
    }
    int32_t S = resol_max_s(R);
    coef_row_t *rows = sq_calloc((size_t)S + 5, sizeof *rows);
    for (int32_t s = 0; s <= S + 4; s++)
        rows[s].emax = -1;
    sqlite3_stmt *q = NULL;
    int src = sqlite3_prepare_v2(st->db, "SELECT s, emax, crc FROM sec_row ORDER BY s", -1, &q,
                                 NULL);
    while (src == SQLITE_OK && (src = sqlite3_step(q)) == SQLITE_ROW) {
        int64_t s = sqlite3_column_int64(q, 0), e = sqlite3_column_int64(q, 1);
        rep->rows++;
        if (s < 0 || s > RESOL_MAX_T || e < 0 || e > 2 * (int64_t)RESOL_MAX_T ||
            sqlite3_column_int64(q, 2) != (int64_t)row_crc(K, s, e)) {
            if (rep->damaged++ < MAX_LINES && out)
                fprintf(out, "damaged: the secondary row s=%lld: checksum mismatch\n",
                        (long long)s);
        } else if (s > S) {
            if (rep->damaged++ < MAX_LINES && out)
                fprintf(out, "damaged: secondary row s=%lld lies outside the stored resolution "
                             "(s <= %d)\n",
                        (long long)s, (int)S);
        } else
            check_row(K, (int32_t)s, e, &rows[s], out, rep);
        src = SQLITE_OK;
    }
    sqlite3_finalize(q);
    if (src == SQLITE_DONE || src == SQLITE_OK)
        src = check_records(K, out, rep);
    for (int32_t s = 1; src == 0 && s + 4 <= S; s++) {
        if (rows[s + 2].emax < 0 || rows[s + 4].emax < 0)
            continue;
        for (int32_t t = s; t + 2 <= rows[s + 4].emax && t + 1 <= rows[s + 2].emax; t++) {
            if (!fmod_num_gens(resol_free_module(R, s), t))
                continue;
            rep->d2_cells++;
            if (d2d2_fails(R, rows, s, t)) {
                if (rep->d2_failed++ < MAX_LINES && out)
                    fprintf(out, "d_2 d_2 = 0 FAILED from (n=%d, s=%d)\n", (int)(t - s), (int)s);
            }
        }
    }
    if (src == 0 && !rep->damaged)
        check_samples(st, R, rows, S, seed, out, rep);
    for (int32_t s = 0; s <= S + 4; s++) {
        for (int64_t g = 0; rows[s].cf && g < rows[s].n; g++)
            fvec_clear(&rows[s].cf[g]);
        sq_free(rows[s].cf);
    }
    sq_free(rows);
    sq_store_sec_detach(K);
    if (src)
        return sq_store_sqlite_fail(st, src, "cannot read store", err, errlen);
    if (out)
        fprintf(out,
                "secondary lift: %lld rows, %lld records, %lld damaged; d_2 d_2 = 0 %s on %lld "
                "cells; the defining equation %s on %lld generators (a sample)\n",
                (long long)rep->rows, (long long)rep->records, (long long)rep->damaged,
                rep->d2_failed ? "FAILED" : "ok", (long long)rep->d2_cells,
                rep->lift_failed ? "FAILED" : "ok", (long long)rep->lift_gens);
    return rep->damaged || rep->d2_failed || rep->lift_failed ? SQ_STORE_E_DAMAGED : 0;
}
