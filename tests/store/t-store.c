/*
 * t-store.c -- the store's format and round trips: checksums, golden
 * bytes, the module's identity, save -> load is the same resolution,
 * a stopped run resumed with any thread count gives the same records, the
 * view ext and the region bookkeeping.
 */
#include <sqlite3.h>
#include <string.h>

#include "f2mat.h"
#include "sq_pool.h"
#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

TEST(store_crc32c_check_value)
{
    /* The check value of CRC-32C, and the bitwise oracle agrees with the
     * value stored for a record (below, store_golden_bytes). */
    ASSERT_EQ(st_crc32c("123456789", 9), 0xE3069283u);
    ASSERT_EQ(st_crc32c("", 0), 0);
}

/* A small classical store of the sphere: (n <= 6, s <= 3). */
static void small_store(const char *path)
{
    fdmod_t *M = st_sphere();
    char err[512];
    ASSERT_EQ(st_run(path, M, RESOL_CLASSICAL, 3, 6, 1, -1, err, sizeof err), 0);
    fdmod_free(M);
}

TEST(store_golden_bytes)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "g.db");
    small_store(p);
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    /* The magic and the format number in the file header. */
    FILE *f = fopen(p, "rb");
    unsigned char hdr[100];
    ASSERT_EQ(fread(hdr, 1, 100, f), 100);
    fclose(f);
    ASSERT(memcmp(hdr + 68, "ADMS", 4) == 0);
    /* Format 3 (the prime recorded; at p = 2 the rows of format 2, below). */
    ASSERT(hdr[60] == 0 && hdr[61] == 0 && hdr[62] == 0 && hdr[63] == 3);
    /* Golden records, frozen: a change of the layout or the checksum fails
     * here.  (s=1, t=2): h_1, d(h_1) = Sq(2) g_0, one vector of 1 bit.
     * (s=2, t=4): h_1^2, over F_1 in degree 4 below 4, i.e. the blocks
     * A_3 = {Sq(3), Sq(0,1)} of h_0 and A_2 = {Sq(2)} of h_1 (3 bits):
     * d = Sq(0,1) h_0 + Sq(2) h_1 = bits 1 and 2 = 0x06.  (s=3, t=6): h_1^3,
     * 4 bits, 0x0d. */
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT s, t, ngens, nbits, codec, rawlen, data, crc FROM step "
                                 "WHERE (s, t) IN (VALUES (1, 2), (2, 4), (3, 6)) ORDER BY t",
                                 -1, &q, NULL),
              SQLITE_OK);
    static const struct {
        int s, t, ngens, nbits;
        unsigned char bytes[8];
        uint32_t crc;
    } want[] = {
        {1, 2, 1, 1, {0x01, 0, 0, 0, 0, 0, 0, 0}, 0x6336cd58u},
        {2, 4, 1, 3, {0x06, 0, 0, 0, 0, 0, 0, 0}, 0xfc3975a7u},
        {3, 6, 1, 4, {0x0d, 0, 0, 0, 0, 0, 0, 0}, 0xccdb8a5eu},
    };
    int rows = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        int s = sqlite3_column_int(q, 0), t = sqlite3_column_int(q, 1);
        int64_t ngens = sqlite3_column_int64(q, 2), nbits = sqlite3_column_int64(q, 3);
        int64_t rawlen = sqlite3_column_int64(q, 5);
        const unsigned char *data = sqlite3_column_blob(q, 6);
        uint32_t crc = (uint32_t)sqlite3_column_int64(q, 7);
        ASSERT_EQ(sqlite3_column_int(q, 4), 0); /* small: stored raw */
        ASSERT_EQ(rawlen, ngens * ((nbits + 63) / 64) * 8);
        /* The checksum, recomputed by the oracle from the spec's layout. */
        unsigned char buf[24 + 128] = {0};
        for (int i = 0; i < 4; i++) {
            buf[i] = (unsigned char)((uint32_t)s >> (8 * i));
            buf[4 + i] = (unsigned char)((uint32_t)t >> (8 * i));
        }
        for (int i = 0; i < 8; i++) {
            buf[8 + i] = (unsigned char)((uint64_t)ngens >> (8 * i));
            buf[16 + i] = (unsigned char)((uint64_t)nbits >> (8 * i));
        }
        ASSERT(rawlen <= 64);
        if (rawlen)
            memcpy(buf + 24, data, (size_t)rawlen);
        ASSERT_EQ(st_row_crc(p, s, t, ngens, nbits, buf + 24, (size_t)rawlen), crc);
        ASSERT(rows < 3);
        ASSERT_EQ(s, want[rows].s);
        ASSERT_EQ(t, want[rows].t);
        ASSERT_EQ(ngens, want[rows].ngens);
        ASSERT_EQ(nbits, want[rows].nbits);
        ASSERT_EQ(rawlen, 8);
        ASSERT(memcmp(data, want[rows].bytes, 8) == 0);
        /* Frozen: the checksum the spec gives this record in a store whose
         * id is 0123456789abcdef (the id of a real store is random). */
        static const char pre[] = "adams row\0" "0123456789abcdef\0" "classical\0"
                                  "99a02d2369a2856e";
        unsigned char fixed[sizeof pre + 24 + 8];
        memcpy(fixed, pre, sizeof pre);
        memcpy(fixed + sizeof pre, buf, 24 + 8);
        ASSERT_EQ(st_crc32c(fixed, sizeof fixed), want[rows].crc);
        rows++;
    }
    sqlite3_finalize(q);
    ASSERT_EQ(rows, 3);
    sqlite3_close(db);
    st_tmpdir_remove(dir);
}

TEST(store_module_text)
{
    fdmod_t *S = st_sphere(), *C = st_C2(), *A1 = st_sphere_A1();
    char *ts = sq_store_module_text(S), *tc = sq_store_module_text(C);
    char *ta = sq_store_module_text(A1);
    ASSERT_STR_EQ(ts, "{\"p\":2,\"profile\":[],\"degrees\":[0],\"actions\":{}}");
    ASSERT_STR_EQ(tc, "{\"p\":2,\"profile\":[],\"degrees\":[0,1],"
                      "\"actions\":{\"Sq(1)\":[[0,[1]]]}}");
    ASSERT_STR_EQ(ta, "{\"p\":2,\"profile\":[2,1],\"degrees\":[0],\"actions\":{}}");
    /* Rebuilt from its text, a module gives the same text. */
    fdmod_t *R;
    char err[256];
    ASSERT_EQ(sq_store_module_from_text(&R, tc, "C2", err, sizeof err), 0);
    ASSERT(R != NULL);
    char *tr = sq_store_module_text(R);
    ASSERT_STR_EQ(tr, tc);
    fdmod_free(R);
    ASSERT(sq_store_module_from_text(&R, "{\"p\":3}", "x", err, sizeof err) == SQ_E_PARSE);
    ASSERT(R == NULL);
    sq_free(tr);
    sq_free(ts);
    sq_free(tc);
    sq_free(ta);
    fdmod_free(S);
    fdmod_free(C);
    fdmod_free(A1);
}

/* Save, then load into a new resolution: the same differentials as a run
 * in memory, and nothing is computed again. */
static void roundtrip(resol_algo_t algo)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "r.db");
    fdmod_t *M = st_sphere();
    char err[512];
    ASSERT_EQ(st_run(p, M, algo, 15, 30, 2, -1, err, sizeof err), 0);
    resol_t *ref = resol_new(M, 15, 30);
    resol_run(ref, algo);
    sq_store_t *st;
    sq_store_binding_t b = {.module = M, .engine = RESOL_AUTO, .max_s = 15, .max_n = 30};
    ASSERT_EQ(sq_store_open(&st, p, &b, err, sizeof err), 0);
    ASSERT_EQ(sq_store_engine(st), algo);
    resol_t *R = resol_new(M, 15, 30);
    sq_store_run_result_t res;
    ASSERT_EQ(sq_store_run(st, R, NULL, NULL, 0, &res, NULL, err, sizeof err), 0);
    ASSERT_EQ(res.computed, 0);
    ASSERT_EQ(res.load.loaded, res.total);
    ASSERT_EQ(res.load.dropped, 0);
    for (int32_t s = 0; s <= 15; s++) {
        const fmod_t *Fa = resol_free_module(ref, s), *Fb = resol_free_module(R, s);
        ASSERT_EQ(fmod_total_gens(Fa), fmod_total_gens(Fb));
        for (int64_t g = 0; g < fmod_total_gens(Fa); g++) {
            int64_t na, nb;
            const uint64_t *va = fhom_image(resol_differential(ref, s), g, &na);
            const uint64_t *vb = fhom_image(resol_differential(R, s), g, &nb);
            ASSERT_EQ(na, nb);
            ASSERT(memcmp(va, vb, (size_t)f2_limbs(na) * 8) == 0);
        }
        for (int32_t n = 0; n <= 30; n++)
            ASSERT_EQ(resol_ext_dim(R, s, n), resol_ext_dim(ref, s, n));
    }
    sq_store_info_t info;
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT_EQ(info.done_s, 15);
    ASSERT_EQ(info.done_n, 30);
    ASSERT_EQ(info.steps, 16 * 31);
    sq_store_close(st);
    resol_free(R);
    resol_free(ref);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_roundtrip_classical)
{
    roundtrip(RESOL_CLASSICAL);
}

TEST(store_roundtrip_nassau)
{
    roundtrip(RESOL_NASSAU);
}

/* Runs stopped after k steps (resol_request_stop) and resumed with other
 * thread counts end with exactly the records of an uninterrupted run. */
static void resume_threads(resol_algo_t algo)
{
    char *dir = st_tmpdir_new();
    const char *ref = st_path(dir, "ref.db"), *p = st_path(dir, "p.db");
    fdmod_t *M = st_sphere();
    char err[512];
    ASSERT_EQ(st_run(ref, M, algo, 18, 36, 1, -1, err, sizeof err), 0);
    static const int threads[] = {2, 3, 1, 2, 4};
    static const int64_t stops[] = {1, 40, 90, 150, 200};
    int stopped = 0;
    for (int i = 0; i < 5; i++) {
        int rc = st_run(p, M, algo, 18, 36, threads[i], stops[i], err, sizeof err);
        ASSERT(rc == 0 || rc == 1);
        stopped += rc == 1;
    }
    ASSERT(stopped >= 4);
    ASSERT_EQ(st_run(p, M, algo, 18, 36, 2, -1, err, sizeof err), 0);
    st_assert_same_steps(ref, p, 18, 36);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}

TEST(store_resume_classical_threads)
{
    resume_threads(RESOL_CLASSICAL);
}

TEST(store_resume_nassau_threads)
{
    resume_threads(RESOL_NASSAU);
}

/* The view ext gives (n, s, dim) straight from SQLite, zeros included. */
TEST(store_view_ext)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "v.db");
    small_store(p);
    int64_t dims[7 * 4];
    st_read_ext(p, 3, 6, dims);
    sqlite3 *db;
    ASSERT_EQ(sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT n, s, dim FROM ext", -1, &q, NULL), SQLITE_OK);
    int rows = 0, last = -1;
    while (sqlite3_step(q) == SQLITE_ROW) {
        int n = sqlite3_column_int(q, 0), s = sqlite3_column_int(q, 1);
        ASSERT(n * 4 + s > last); /* n-major, then s */
        last = n * 4 + s;
        ASSERT_EQ(sqlite3_column_int64(q, 2), dims[n * 4 + s]);
        rows++;
    }
    ASSERT_EQ(rows, 7 * 4);
    /* h_0^3 at (0, 3), h_1 at (1, 1), h_2 at (3, 1), h_1^2 at (2, 2). */
    ASSERT_EQ(dims[0 * 4 + 3], 1);
    ASSERT_EQ(dims[1 * 4 + 1], 1);
    ASSERT_EQ(dims[3 * 4 + 1], 1);
    ASSERT_EQ(dims[2 * 4 + 2], 1);
    ASSERT_EQ(dims[4 * 4 + 1], 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    st_tmpdir_remove(dir);
}

/* The metadata after an interrupted run and after its completion. */
TEST(store_region_bookkeeping)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "b.db");
    fdmod_t *M = st_sphere();
    char err[512];
    ASSERT_EQ(st_run(p, M, RESOL_AUTO, 10, 20, 1, 30, err, sizeof err), 1);
    sq_store_t *st;
    sq_store_info_t info;
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT_EQ(info.done_s, -1);
    ASSERT_EQ(info.region_s, 10);
    ASSERT_EQ(info.region_n, 20);
    ASSERT_EQ(info.engine, RESOL_CLASSICAL); /* auto, through stem 20 */
    int64_t dims[21 * 11];
    ASSERT_EQ(sq_store_read_ext(st, 10, 20, dims, err, sizeof err), SQ_STORE_E_MISSING);
    ASSERT(strstr(err, "does not hold") != NULL);
    sq_store_close(st);
    ASSERT_EQ(st_run(p, M, RESOL_AUTO, 10, 20, 2, -1, err, sizeof err), 0);
    /* A smaller run inside the done region keeps it. */
    ASSERT_EQ(st_run(p, M, RESOL_AUTO, 5, 10, 1, -1, err, sizeof err), 0);
    ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
    ASSERT_EQ(sq_store_info(st, &info, err, sizeof err), 0);
    ASSERT_EQ(info.done_s, 10);
    ASSERT_EQ(info.done_n, 20);
    ASSERT_EQ(info.region_s, 5);
    ASSERT_EQ(sq_store_read_ext(st, 10, 20, dims, err, sizeof err), 0);
    sq_store_close(st);
    fdmod_free(M);
    st_tmpdir_remove(dir);
}
