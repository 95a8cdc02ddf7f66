/*
 * sq_store_record.c -- checksums and the byte layout of step records
 * (docs/save-format.md sections 4.2-4.4).
 *
 * CRC-32C by slicing-by-8: eight 256-entry tables, built once, let the loop
 * fold 8 bytes per iteration (about 2 GB/s here, far more than the store
 * needs: the vectors of a stem-100 run are tens of MB).  The running form
 * starts from 0 and applies the initial and final inversions inside, so
 * update(update(0, a), b) = crc(a || b).
 */
#include <pthread.h>
#include <stdlib.h>
#include <zstd.h>

#include "f2mat.h"
#include "internal.h"
#include "resol.h"
#include "sq_core.h"

static uint32_t crc_tab[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
        crc_tab[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int k = 1; k < 8; k++)
            crc_tab[k][i] = (crc_tab[k - 1][i] >> 8) ^ crc_tab[0][crc_tab[k - 1][i] & 0xff];
}

uint32_t sq_crc32c_update(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc_once, crc_init);
    const uint8_t *b = p;
    uint32_t c = ~crc;
    while (n >= 8) {
        uint32_t lo = c ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                           (uint32_t)b[3] << 24);
        uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                      (uint32_t)b[7] << 24;
        c = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^ crc_tab[5][(lo >> 16) & 0xff] ^
            crc_tab[4][lo >> 24] ^ crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
            crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
        b += 8;
        n -= 8;
    }
    while (n--)
        c = (c >> 8) ^ crc_tab[0][(c ^ *b++) & 0xff];
    return ~c;
}

uint64_t sq_fnv1a64(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint32_t sq_store_row_key(const char *store_id, const char *engine, const char *module_hash)
{
    static const char tag[] = "adams row"; /* with its 0x00 */
    uint32_t c = sq_crc32c_update(0, tag, sizeof tag);
    c = sq_crc32c_update(c, store_id, strlen(store_id) + 1);
    c = sq_crc32c_update(c, engine, strlen(engine) + 1);
    return sq_crc32c_update(c, module_hash, strlen(module_hash) + 1);
}

uint32_t sq_store_step_crc(const sq_store_t *st, int32_t s, int32_t t, int64_t ngens,
                           int64_t nbits, const uint8_t *payload, size_t len)
{
    uint8_t h[24];
    sq_put_le32(h, (uint32_t)s);
    sq_put_le32(h + 4, (uint32_t)t);
    sq_put_le64(h + 8, (uint64_t)ngens);
    sq_put_le64(h + 16, (uint64_t)nbits);
    uint32_t c = sq_crc32c_update(st->row_key, h, sizeof h);
    return len ? sq_crc32c_update(c, payload, len) : c;
}

uint32_t sq_store_meta_crc(const char *key, const char *value)
{
    uint32_t c = sq_crc32c_update(0, key, strlen(key) + 1); /* the key and its 0x00 */
    return sq_crc32c_update(c, value, strlen(value));
}

int64_t sq_store_rawlen(uint32_t p, int64_t ngens, int64_t nbits)
{
    if (ngens < 0 || nbits < 0 || nbits > SQ_STORE_MAX_RAWLEN * 8)
        return -1;
    if (p != 2) /* one residue a byte */
        return nbits > SQ_STORE_MAX_RAWLEN || (ngens && nbits > SQ_STORE_MAX_RAWLEN / ngens)
                   ? -1
                   : ngens * nbits;
    int64_t limbs = f2_limbs(nbits);
    if (ngens && limbs > SQ_STORE_MAX_RAWLEN / 8 / ngens)
        return -1;
    return ngens * limbs * 8;
}

#define DAMAGED(...) sq_store_fail(err, errlen, SQ_STORE_E_DAMAGED, __VA_ARGS__)

int sq_store_row_limits(const sq_store_t *st, int64_t s, int64_t t, int64_t ngens, int64_t nbits,
                        int64_t rawlen, char *err, size_t errlen)
{
    const char *f = st->path;
    if (s < 0 || s > RESOL_MAX_T || t < s + (int64_t)st->bottom || t - s > RESOL_MAX_T)
        return DAMAGED("store %s: step (s=%lld, t=%lld) is damaged: outside any region (s and "
                       "the stem t - s are at most %d, the stem at least the bottom %d)",
                       f, (long long)s, (long long)t, RESOL_MAX_T, (int)st->bottom);
    /* A minimal resolution has at most as many new generators as their
     * vectors have coordinates (their images are independent), so ngens <=
     * nbits: this bounds every count before anything is allocated. */
    int64_t want = sq_store_rawlen(st->prime, ngens, nbits);
    if (want < 0 || rawlen != want || ngens > nbits)
        return DAMAGED("store %s: step (s=%lld, t=%lld) is damaged: its counts disagree (%lld "
                       "generators of %lld %s, %lld payload bytes)",
                       f, (long long)s, (long long)t, (long long)ngens, (long long)nbits,
                       sq_store_unit(st), (long long)rawlen);
    return 0;
}

/* The residues of the payload bytes p[0..n) at offset off, at the odd
 * prime q (nbits bytes a vector): the index of the first vector with a
 * byte >= q, or -1. */
static int64_t scan_residues(const uint8_t *p, size_t n, int64_t off, int64_t nbits, uint32_t q)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] >= q)
            return (off + (int64_t)i) / nbits;
    return -1;
}

/* The checks of the payload bytes p[0..n) at offset off of the payload:
 * the running checksum, and at p = 2 the padding bits past nbits in each
 * vector's last limb (L limbs a vector), at odd p that each byte is a
 * residue.  Returns the index of the first vector that fails, or -1. */
static int64_t scan_bytes(uint32_t *crc, const uint8_t *p, size_t n, int64_t off, int64_t nbits,
                          uint32_t prime)
{
    *crc = sq_crc32c_update(*crc, p, n);
    if (prime != 2)
        return scan_residues(p, n, off, nbits, prime);
    if (!(nbits & 63))
        return -1;
    int64_t vbytes = f2_limbs(nbits) * 8;
    int bit = (int)(nbits & 63);
    for (size_t i = 0; i < n; i++) {
        int64_t at = (off + (int64_t)i) % vbytes; /* byte within its vector */
        int64_t from_last = at - (vbytes - 8);   /* byte within the last limb */
        if (from_last < 0)
            continue;
        int lo = (int)from_last * 8; /* bits lo .. lo + 7 of the last limb */
        unsigned mask = lo + 8 <= bit ? 0u : lo >= bit ? 0xffu : 0xffu << (bit - lo);
        if (p[i] & mask)
            return (off + (int64_t)i) / vbytes;
    }
    return -1;
}

/* The message of a vector whose padding bits are set (p = 2) or with an
 * entry that is not a residue (odd p). */
static int bad_vector(const sq_store_t *st, int32_t s, int32_t t, int64_t i, int64_t nbits,
                      char *err, size_t errlen)
{
    if (st->prime != 2)
        return DAMAGED("store %s: step (s=%d, t=%d) is damaged: vector %lld has an entry that "
                       "is not a residue mod %u",
                       st->path, (int)s, (int)t, (long long)i, (unsigned)st->prime);
    return DAMAGED("store %s: step (s=%d, t=%d) is damaged: vector %lld has bits past its %lld "
                   "coordinates",
                   st->path, (int)s, (int)t, (long long)i, (long long)nbits);
}

/* Checks a record without keeping its vectors: the payload streams through
 * a fixed buffer (a forged frame that claims gigabytes allocates nothing). */
static int verify_only(const sq_store_t *st, int32_t s, int32_t t, int64_t ngens, int64_t nbits,
                       int64_t codec, int64_t rawlen, const void *blob, int64_t bloblen,
                       uint32_t crc, char *err, size_t errlen)
{
    const char *f = st->path;
    uint32_t c = sq_store_step_crc(st, s, t, ngens, nbits, NULL, 0);
    int64_t bad = -1;
    if (codec == SQ_STORE_CODEC_RAW || rawlen == 0) {
        if (bloblen != rawlen)
            return DAMAGED("store %s: step (s=%d, t=%d) is damaged: %lld bytes stored, %lld "
                           "expected",
                           f, (int)s, (int)t, (long long)bloblen, (long long)rawlen);
        if (rawlen && codec != SQ_STORE_CODEC_RAW)
            return DAMAGED("store %s: step (s=%d, t=%d) is damaged: unknown codec %lld", f,
                           (int)s, (int)t, (long long)codec);
        if (rawlen)
            bad = scan_bytes(&c, blob, (size_t)rawlen, 0, nbits, st->prime);
    } else if (codec == SQ_STORE_CODEC_ZSTD) {
        ZSTD_DCtx *dc = ZSTD_createDCtx();
        if (!dc)
            return sq_store_fail(err, errlen, SQ_E_NOMEM,
                                 "store %s: cannot read step (s=%d, t=%d): out of memory", f,
                                 (int)s, (int)t);
        uint8_t buf[65536];
        ZSTD_inBuffer in = {blob, bloblen > 0 ? (size_t)bloblen : 0, 0};
        int64_t got = 0;
        size_t zr = 1;
        const char *why = NULL;
        while (!why) {
            ZSTD_outBuffer out = {buf, sizeof buf, 0};
            zr = ZSTD_decompressStream(dc, &out, &in);
            if (ZSTD_isError(zr)) {
                why = ZSTD_getErrorName(zr);
                break;
            }
            if ((int64_t)out.pos > rawlen - got) {
                why = "longer than its length";
                break;
            }
            int64_t b = scan_bytes(&c, buf, out.pos, got, nbits, st->prime);
            if (bad < 0)
                bad = b;
            got += (int64_t)out.pos;
            if (zr == 0)
                break; /* the frame is complete */
            if (out.pos == 0 && in.pos == in.size)
                why = "truncated";
        }
        ZSTD_freeDCtx(dc);
        if (!why && (got != rawlen || in.pos != in.size))
            why = "wrong length";
        if (why)
            return DAMAGED("store %s: step (s=%d, t=%d) is damaged: its compressed data does not "
                           "decode (%s)",
                           f, (int)s, (int)t, why);
    } else {
        return DAMAGED("store %s: step (s=%d, t=%d) is damaged: unknown codec %lld", f, (int)s,
                       (int)t, (long long)codec);
    }
    if (c != crc)
        return DAMAGED("store %s: step (s=%d, t=%d) is damaged: checksum mismatch (stored "
                       "%08x, computed %08x)",
                       f, (int)s, (int)t, (unsigned)crc, (unsigned)c);
    if (bad >= 0)
        return bad_vector(st, s, t, bad, nbits, err, errlen);
    return 0;
}

int sq_store_decode(const sq_store_t *st, int64_t s64, int64_t t64, int64_t ngens, int64_t nbits,
                    int64_t codec, int64_t rawlen, const void *blob, int64_t bloblen,
                    uint32_t crc, void **vecs, char *err, size_t errlen)
{
    const char *f = st->path;
    int lrc = sq_store_row_limits(st, s64, t64, ngens, nbits, rawlen, err, errlen);
    if (lrc)
        return lrc;
    int32_t s = (int32_t)s64, t = (int32_t)t64; /* in range: checked above */
    if (!vecs)
        return verify_only(st, s, t, ngens, nbits, codec, rawlen, blob, bloblen, crc, err,
                           errlen);
    *vecs = NULL;
    uint8_t *raw = NULL;
    if (rawlen > 0) {
        if (codec == SQ_STORE_CODEC_RAW) {
            if (bloblen != rawlen)
                return DAMAGED("store %s: step (s=%d, t=%d) is damaged: %lld bytes stored, %lld "
                               "expected",
                               f, (int)s, (int)t, (long long)bloblen, (long long)rawlen);
            raw = sq_malloc((size_t)rawlen);
            memcpy(raw, blob, (size_t)rawlen);
        } else if (codec == SQ_STORE_CODEC_ZSTD) {
            unsigned long long claim =
                bloblen > 0 ? ZSTD_getFrameContentSize(blob, (size_t)bloblen) : 0;
            if (claim != (unsigned long long)rawlen)
                return DAMAGED("store %s: step (s=%d, t=%d) is damaged: its compressed data "
                               "does not decode (wrong length)",
                               f, (int)s, (int)t);
            raw = sq_malloc((size_t)rawlen);
            size_t got = ZSTD_decompress(raw, (size_t)rawlen, blob, (size_t)bloblen);
            if (ZSTD_isError(got) || got != (size_t)rawlen) {
                sq_free(raw);
                return DAMAGED("store %s: step (s=%d, t=%d) is damaged: its compressed data "
                               "does not decode (%s)",
                               f, (int)s, (int)t,
                               ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong length");
            }
        } else {
            return DAMAGED("store %s: step (s=%d, t=%d) is damaged: unknown codec %lld", f,
                           (int)s, (int)t, (long long)codec);
        }
    } else if (bloblen != 0) {
        return DAMAGED("store %s: step (s=%d, t=%d) is damaged: %lld bytes stored, none expected",
                       f, (int)s, (int)t, (long long)bloblen);
    }
    uint32_t c = sq_store_step_crc(st, s, t, ngens, nbits, raw, (size_t)rawlen);
    if (c != crc) {
        sq_free(raw);
        return DAMAGED("store %s: step (s=%d, t=%d) is damaged: checksum mismatch (stored "
                       "%08x, computed %08x)",
                       f, (int)s, (int)t, (unsigned)crc, (unsigned)c);
    }
    if (rawlen == 0)
        return 0;
    if (st->prime != 2) { /* residue bytes: the field's encoding as they are */
        int64_t bad = scan_residues(raw, (size_t)rawlen, 0, nbits, st->prime);
        if (bad >= 0) {
            sq_free(raw);
            return bad_vector(st, s, t, bad, nbits, err, errlen);
        }
        *vecs = raw;
        return 0;
    }
    /* The payload is LE limbs; on a little-endian host they are the host's. */
    uint64_t *v = (uint64_t *)(void *)raw; /* malloc alignment suits uint64_t */
    int64_t nlimbs = rawlen / 8;
    if (!sq_host_is_le())
        for (int64_t i = 0; i < nlimbs; i++)
            v[i] = sq_get_le64(raw + 8 * i);
    int64_t limbs = f2_limbs(nbits);
    if (nbits & 63)
        for (int64_t i = 0; i < ngens; i++)
            if (v[i * limbs + limbs - 1] >> (nbits & 63)) {
                sq_free(raw);
                return bad_vector(st, s, t, i, nbits, err, errlen);
            }
    *vecs = v;
    return 0;
}

size_t sq_store_zbound(int64_t rawlen)
{
    return rawlen >= SQ_STORE_ZSTD_MIN ? ZSTD_compressBound((size_t)rawlen) : 0;
}

int sq_store_insert_record(sqlite3_stmt *ins, struct ZSTD_CCtx_s *zc, int32_t s, int32_t t,
                           int64_t count, int64_t nbits, const uint8_t *raw, int64_t rawlen,
                           uint32_t crc, uint8_t *zbuf)
{
    int codec = SQ_STORE_CODEC_RAW;
    const void *blob = raw;
    size_t bloblen = (size_t)rawlen;
    size_t cap = sq_store_zbound(rawlen);
    if (cap > 0) {
        size_t k = ZSTD_compressCCtx(zc, zbuf, cap, raw, (size_t)rawlen, SQ_STORE_ZSTD_LEVEL);
        if (!ZSTD_isError(k) && k <= (size_t)rawlen / 8 * 7) {
            codec = SQ_STORE_CODEC_ZSTD;
            blob = zbuf;
            bloblen = k;
        }
    }
    sqlite3_bind_int(ins, 1, s);
    sqlite3_bind_int(ins, 2, t);
    sqlite3_bind_int64(ins, 3, count);
    sqlite3_bind_int64(ins, 4, nbits);
    sqlite3_bind_int(ins, 5, codec);
    sqlite3_bind_int64(ins, 6, rawlen);
    sqlite3_bind_blob64(ins, 7, blob, bloblen, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 8, (sqlite3_int64)crc);
    int rc = sqlite3_step(ins);
    sqlite3_reset(ins);
    sqlite3_clear_bindings(ins);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
