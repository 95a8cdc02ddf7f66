/*
 * pmilnor_cache.c -- a cache of products of basis elements (see pmilnor.h).
 *
 * Why: a resolution multiplies the same pairs over and over.  A step (s, t)
 * multiplies every basis element a of A_{t-e} into the terms b of the
 * images d(g) of the generators of degree e, and the same pairs (a, b) come
 * back for other generators and for every row s at the same t.  Resolving
 * S_3 through stem 150 (s <= 40) makes 2.6 million products of only 204
 * thousand distinct pairs; each product walks Milnor matrices, a lookup is
 * a hash probe.
 *
 * How: the unit stored is a column: the products a * b of one basis
 * element b by every basis element a of one degree (a resolution's matrix
 * build walks exactly those: all a of degree t - e against each term b of
 * an image d(g)), so one lookup serves a whole block of rows.  64 shards,
 * each an open-addressing table (at most 70% full) under its own mutex,
 * keyed by (degree of a, degree and index of b) packed in a word.  A column
 * is the merged, sorted list of (index, coefficient) terms of each
 * product, stored in the shard's arena, which never moves or shrinks, so a
 * returned pointer stays valid until the cache is freed.  Products are
 * computed outside the lock; if two threads compute the same column, the
 * first insertion wins and the other copy is dropped
 * (both are equal).  Past max_bytes nothing more is stored and the caller
 * multiplies directly.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pmilnor_internal.h"

#define NSHARD 64
/* Arena chunks start at 16 KB and double up to 1 MB per shard: small runs
 * stay small (64 shards), large ones allocate rarely. */
#define ARENA_FIRST ((size_t)1 << 14)
#define ARENA_MAX ((size_t)1 << 20)

/* A slot: the key (0: empty) and the stored record, an int32 count n then
 * n uint32 indices then n coefficient bytes. */
typedef struct {
    uint64_t key;
    const int32_t *rec;
} slot_t;

typedef struct {
    pthread_mutex_t mu;
    slot_t *slots;
    size_t cap, used;
    uint8_t **chunks;       /* arena chunks */
    size_t nchunks, chunk_used, chunk_size;
} shard_t;

struct pmilnor_cache {
    const pmilnor_t *A;
    size_t max_bytes;
    _Atomic size_t bytes;
    _Atomic int64_t hits, misses;
    shard_t shard[NSHARD];
};

static inline uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return x;
}

pmilnor_cache_t *pmilnor_cache_new(const pmilnor_t *A, size_t max_bytes)
{
    pmilnor_cache_t *C = sq_calloc(1, sizeof *C);
    C->A = A;
    C->max_bytes = max_bytes;
    atomic_init(&C->bytes, 0);
    atomic_init(&C->hits, 0);
    atomic_init(&C->misses, 0);
    for (int i = 0; i < NSHARD; i++) {
        pthread_mutex_init(&C->shard[i].mu, NULL);
        C->shard[i].cap = 64;
        C->shard[i].slots = sq_calloc(C->shard[i].cap, sizeof(slot_t));
    }
    atomic_fetch_add(&C->bytes, (size_t)NSHARD * 64 * sizeof(slot_t));
    return C;
}

void pmilnor_cache_free(pmilnor_cache_t *C)
{
    if (!C)
        return;
    for (int i = 0; i < NSHARD; i++) {
        shard_t *S = &C->shard[i];
        for (size_t k = 0; k < S->nchunks; k++)
            sq_free(S->chunks[k]);
        sq_free(S->chunks);
        sq_free(S->slots);
        pthread_mutex_destroy(&S->mu);
    }
    sq_free(C);
}

size_t pmilnor_cache_bytes(const pmilnor_cache_t *C)
{
    return atomic_load(&((pmilnor_cache_t *)C)->bytes);
}

void pmilnor_cache_stats(const pmilnor_cache_t *C, int64_t *hits, int64_t *misses)
{
    pmilnor_cache_t *c = (pmilnor_cache_t *)C;
    if (hits)
        *hits = atomic_load(&c->hits);
    if (misses)
        *misses = atomic_load(&c->misses);
}

/* The slot of key in S: its own when present, else the empty one
 * where it would go.  S->mu held. */
static slot_t *probe(shard_t *S, uint64_t key, uint64_t h)
{
    size_t mask = S->cap - 1, i = (size_t)(h >> 6) & mask;
    for (;;) {
        slot_t *x = &S->slots[i];
        if (!x->key || x->key == key)
            return x;
        i = (i + 1) & mask;
    }
}

static void grow(pmilnor_cache_t *C, shard_t *S)
{
    size_t ocap = S->cap;
    slot_t *old = S->slots;
    S->cap = 2 * ocap;
    S->slots = sq_calloc(S->cap, sizeof(slot_t));
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key) {
            slot_t *x = probe(S, old[i].key, mix(old[i].key, 0));
            *x = old[i];
        }
    sq_free(old);
    atomic_fetch_add(&C->bytes, ocap * sizeof(slot_t));
}

/* n bytes of arena, 4-aligned.  S->mu held. */
static uint8_t *arena(pmilnor_cache_t *C, shard_t *S, size_t n)
{
    n = (n + 3) & ~(size_t)3;
    if (!S->nchunks || S->chunk_used + n > S->chunk_size) {
        size_t next = S->chunk_size ? 2 * S->chunk_size : ARENA_FIRST;
        if (next > ARENA_MAX)
            next = ARENA_MAX;
        size_t sz = n > next ? n : next;
        S->chunk_size = sz;
        S->chunks = sq_realloc(S->chunks, (S->nchunks + 1) * sizeof *S->chunks);
        S->chunks[S->nchunks++] = sq_malloc(sz);
        S->chunk_used = 0;
        atomic_fetch_add(&C->bytes, sz);
    }
    uint8_t *p = S->chunks[S->nchunks - 1] + S->chunk_used;
    S->chunk_used += n;
    return p;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The key of a column: degrees in 13 bits, the index in 19 (the column is
 * not cached when they do not fit); 1 is added so that 0 marks an empty
 * slot. */
static inline int make_key(int32_t adeg, int32_t bdeg, int64_t bidx, uint64_t *key)
{
    if (adeg < 0 || bdeg < 0 || adeg >= (1 << 13) || bdeg >= (1 << 13) || bidx < 0 ||
        bidx >= (1 << 19))
        return 0;
    *key = (((uint64_t)adeg << 32) | ((uint64_t)bdeg << 19) | (uint64_t)bidx) + 1;
    return 1;
}

/* Record layout: int32 na, int32 off[na + 1], uint32 idx[off[na]], then
 * off[na] coefficient bytes. */
static inline void fill(pmilnor_col_t *out, const int32_t *rec)
{
    int32_t na = rec[0];
    out->na = na;
    out->off = rec + 1;
    out->idx = (const uint32_t *)(const void *)(rec + 2 + na);
    out->coef = (const uint8_t *)(const void *)(rec + 2 + na + rec[1 + na]);
}

int pmilnor_cache_col(pmilnor_cache_t *C, int32_t adeg, int32_t bdeg, int64_t bidx,
                      pmilnor_col_t *out)
{
    uint64_t key;
    if (!make_key(adeg, bdeg, bidx, &key))
        return 0;
    uint64_t h = mix(key, 0);
    shard_t *S = &C->shard[h & (NSHARD - 1)];
    pthread_mutex_lock(&S->mu);
    slot_t *x = probe(S, key, h);
    if (x->key) {
        fill(out, x->rec);
        pthread_mutex_unlock(&S->mu);
        atomic_fetch_add_explicit(&C->hits, 1, memory_order_relaxed);
        return 1;
    }
    pthread_mutex_unlock(&S->mu);
    atomic_fetch_add_explicit(&C->misses, 1, memory_order_relaxed);
    if (atomic_load_explicit(&C->bytes, memory_order_relaxed) > C->max_bytes)
        return 0;
    /* Multiply outside the lock; merge each a's terms: sort (index,
     * coefficient) pairs packed in one word, add equal indices mod p. */
    const pmilnor_t *A = C->A;
    int64_t na = pmilnor_dim(A, adeg);
    pmilnor_elt_t a, b;
    pmilnor_get(A, bdeg, bidx, &b);
    pmilnor_terms_t T = {0};
    int32_t *off = sq_malloc(sizeof(int32_t) * (size_t)(na + 1));
    uint64_t *w = NULL;
    int64_t wcap = 0, n = 0;
    for (int64_t ia = 0; ia < na; ia++) {
        off[ia] = (int32_t)n;
        T.n = 0;
        pmilnor_get(A, adeg, ia, &a);
        pmilnor_mul_elts_terms(A, &T, &a, &b);
        if (n + T.n > wcap || !w) { /* w + n below: never on a NULL w */
            wcap = 2 * (n + T.n) + 16;
            w = sq_realloc(w, sizeof(uint64_t) * (size_t)wcap);
        }
        uint64_t *v = w + n;
        for (int64_t k = 0; k < T.n; k++)
            v[k] = ((uint64_t)T.idx[k] << 8) | T.coef[k];
        if (T.n > 1)
            qsort(v, (size_t)T.n, sizeof *v, cmp_u64);
        int64_t m = 0;
        for (int64_t k = 0; k < T.n;) {
            uint64_t id = v[k] >> 8;
            uint32_t c = 0;
            for (; k < T.n && (v[k] >> 8) == id; k++)
                c = (c + (uint32_t)(v[k] & 255)) % A->p;
            if (c)
                v[m++] = (id << 8) | c;
        }
        n += m;
    }
    off[na] = (int32_t)n;
    sq_free(T.idx);
    sq_free(T.coef);
    pthread_mutex_lock(&S->mu);
    x = probe(S, key, h);
    if (!x->key) {
        int32_t *rec = (int32_t *)(void *)arena(C, S, 4 * (size_t)(na + 2) + (size_t)n * 5);
        uint32_t *idx = (uint32_t *)(void *)(rec + 2 + na);
        uint8_t *coef = (uint8_t *)(void *)(idx + n);
        rec[0] = (int32_t)na;
        memcpy(rec + 1, off, sizeof(int32_t) * (size_t)(na + 1));
        for (int64_t k = 0; k < n; k++) {
            idx[k] = (uint32_t)(w[k] >> 8);
            coef[k] = (uint8_t)(w[k] & 255);
        }
        x->key = key;
        x->rec = rec;
        if (++S->used * 10 > S->cap * 7) {
            grow(C, S);
            x = probe(S, key, h);
        }
    }
    fill(out, x->rec);
    pthread_mutex_unlock(&S->mu);
    sq_free(w);
    sq_free(off);
    return 1;
}
