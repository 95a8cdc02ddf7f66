/*
 * internal.h -- what the files of the store layer share: the store object,
 * checksums, the byte layout of records (docs/save-format.md).
 */
#ifndef SQ_STORE_INTERNAL_H
#define SQ_STORE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "sq_store.h"

/* The magic of the file: PRAGMA application_id, the bytes "ADMS". */
#define SQ_STORE_APP_ID 0x41444D53

/* On-disk codes of the step table's codec column.  Frozen: these numbers are
 * in files (docs/save-format.md section 4.4). */
enum { SQ_STORE_CODEC_RAW = 0, SQ_STORE_CODEC_ZSTD = 1 };

/* Compression cutoffs (docs/benchmarks.md, "The store"; bench/b-store.c
 * sizes, on the sphere through (100, 53): 5,454 records, 571 KB of
 * vectors).  Level 1 stores 71% of the payload when every record is tried,
 * 73% from 128 bytes, 80% from 512, 99% from 4096; levels 3 and 9 gain
 * under 2% more for 1.2-2.5x the time.  Below SQ_STORE_ZSTD_MIN bytes a
 * record is stored raw (a frame costs ~10 bytes of header and a call, and
 * such records hold little), and a frame is kept only when it is at most
 * 7/8 of the payload. */
#define SQ_STORE_ZSTD_MIN 128
#define SQ_STORE_ZSTD_LEVEL 1

/* Largest payload a record may claim (a damaged count must not make a
 * reader allocate terabytes): 16 GiB. */
#define SQ_STORE_MAX_RAWLEN ((int64_t)1 << 34)

struct sq_store {
    sqlite3 *db;
    char *path;
    int lock_fd;            /* the flock'ed descriptor of a writable store, or -1 */
    int readonly;
    /* metadata */
    int format;
    int header_format;      /* PRAGMA user_version, which must equal `format` */
    uint32_t prime;         /* the metadata `prime`: 2, or an odd prime (format 3) */
    int unstable;           /* the metadata `category` is `unstable` (format 4) */
    resol_algo_t engine;
    uint32_t row_key;       /* CRC-32C state of the rows' binding prefix (sq_store_row_key);
                             * 0 in a format-1 store, whose rows are not bound */
    int32_t bottom;
    int32_t region_s, region_n, done_s, done_n;
    char *module_name, *module_text, *module_hash, *profile, *program;
    char *store_id;         /* 16 hex digits, chosen at creation (format 2); NULL in format 1 */
    /* the writer (sq_store_write.c) */
    resol_t *R;
    resol_observer_t next;
    pthread_t thread;
    int running;
    pthread_mutex_t mu;
    pthread_cond_t cv;      /* work queued, or closing */
    pthread_cond_t idle;    /* the queue drained */
    int32_t (*queue)[2];
    int64_t qhead, qtail, qcap;
    int busy, closing;
    int err;                /* sticky writer error */
    char errmsg[512];
    int64_t committed, commits;
    double writer_cpu;      /* CPU seconds of the writer threads that ran */
};

/* ---- checksums and hashes (sq_store_crc.c) ---- */

/* CRC-32C (Castagnoli; reflected 0x82F63B78, init and final XOR ~0): the
 * running form, crc = sq_crc32c_update(crc, p, n) starting from 0. */
uint32_t sq_crc32c_update(uint32_t crc, const void *p, size_t n);
static inline uint32_t sq_crc32c(const void *p, size_t n)
{
    return sq_crc32c_update(0, p, n);
}
/* 64-bit FNV-1a of n bytes. */
uint64_t sq_fnv1a64(const void *p, size_t n);

/* ---- little-endian bytes ---- */

static inline void sq_put_le32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static inline void sq_put_le64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t sq_get_le64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static inline int sq_host_is_le(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* The CRC-32C state of a format-2 row's binding prefix: "adams row",
 * store_id, engine, module_hash, each followed by one 0x00 byte
 * (docs/save-format.md section 4.3). */
uint32_t sq_store_row_key(const char *store_id, const char *engine, const char *module_hash);
/* The checksum of a step record of st: CRC-32C of st's binding prefix (none
 * in format 1), le32(s) le32(t) le64(ngens) le64(nbits), the payload (LE
 * limbs). */
uint32_t sq_store_step_crc(const sq_store_t *st, int32_t s, int32_t t, int64_t ngens,
                           int64_t nbits, const uint8_t *payload, size_t len);

struct ZSTD_CCtx_s; /* zstd's compression context (zstd.h's ZSTD_CCtx) */

/* The zstd scratch a record of rawlen bytes needs in sq_store_insert_record
 * (0 below SQ_STORE_ZSTD_MIN: such records are kept raw). */
size_t sq_store_zbound(int64_t rawlen);
/* Runs the prepared insert ins, whose 8 parameters are a step record's
 * columns (s, t, count, nbits, codec, rawlen, data, crc), for raw[0 ..
 * rawlen): zstd-compressed into zbuf (sq_store_zbound(rawlen) bytes, NULL
 * when that is 0) when that saves an eighth, else raw.  Resets ins; returns
 * SQLITE_OK or SQLite's error.  The step table and the secondary tables
 * share the layout (docs/save-format.md sections 4 and 9). */
int sq_store_insert_record(sqlite3_stmt *ins, struct ZSTD_CCtx_s *zc, int32_t s, int32_t t,
                           int64_t count, int64_t nbits, const uint8_t *raw, int64_t rawlen,
                           uint32_t crc, uint8_t *zbuf);
/* The checksum of a metadata row: CRC-32C of key, 0x00, value. */
uint32_t sq_store_meta_crc(const char *key, const char *value);

/* Payload bytes of ngens vectors of nbits entries at the prime p
 * (docs/save-format.md section 4.2): ngens * ceil(nbits/64) * 8 at p = 2
 * (bits in LE limbs), ngens * nbits at odd p (one residue a byte); -1 when
 * out of range. */
int64_t sq_store_rawlen(uint32_t p, int64_t ngens, int64_t nbits);

/* The hard limits of a row, checked before anything is allocated for it:
 * 0 <= s <= RESOL_MAX_T, bottom <= t - s <= RESOL_MAX_T, 0 <= ngens <= nbits
 * (a minimal resolution's new generators have independent images), rawlen
 * = sq_store_rawlen(st's prime, ngens, nbits) <= SQ_STORE_MAX_RAWLEN.
 * Returns 0 or SQ_STORE_E_DAMAGED naming the store and the row. */
int sq_store_row_limits(const sq_store_t *st, int64_t s, int64_t t, int64_t ngens, int64_t nbits,
                        int64_t rawlen, char *err, size_t errlen);

/* Decodes one step row (codec, blob, rawlen) into vecs, in the field's
 * encoding of the store's prime (fmat.h: at p = 2 host limbs, ngens *
 * f2_limbs(nbits); at odd p ngens * nbits residue bytes), allocated here;
 * NULL when empty, after checking its limits (sq_store_row_limits), the
 * lengths, the checksum and the padding bits (p = 2) or that every byte is
 * a residue below p (odd p).  With vecs NULL the row is only checked,
 * streaming through a fixed buffer (no allocation of its size).  Returns 0
 * or SQ_STORE_E_DAMAGED with a message naming (s, t). */
int sq_store_decode(const sq_store_t *st, int64_t s, int64_t t, int64_t ngens, int64_t nbits,
                    int64_t codec, int64_t rawlen, const void *blob, int64_t bloblen,
                    uint32_t crc, void **vecs, char *err, size_t errlen);

/* ---- helpers (sq_store.c) ---- */

/* err = fmt (NULL-safe); returns code. */
int sq_store_fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The error of the last SQLite call on db as SQ_E_IO / SQ_STORE_E_DAMAGED /
 * SQ_STORE_E_BUSY, with "what FILE: sqlite's message (errno text)" in err. */
int sq_store_sqlite_fail(const sq_store_t *st, int rc, const char *what, char *err,
                         size_t errlen);
/* Writes a metadata row (key, value, crc). */
int sq_store_meta_put(sq_store_t *st, const char *key, const char *value);
/* The text of an odd-prime profile (metadata `profile` and the module
 * text): "[]" for the whole algebra, else
 * {"truncated":T,"q_part":Q,"p_part":[h_1,...]} (sq_store_module.c). */
void sq_store_profile_text(char *buf, size_t n, const pmilnor_profile_t *prof);
/* "classical" / "nassau". */
const char *sq_store_engine_name(resol_algo_t a);
/* What a vector's coordinates are called in messages: "bits" at p = 2,
 * "entries" at odd p. */
static inline const char *sq_store_unit(const sq_store_t *st)
{
    return st->prime == 2 ? "bits" : "entries";
}

#endif /* SQ_STORE_INTERNAL_H */
