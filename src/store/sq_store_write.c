/*
 * sq_store_write.c -- the writer: an observer that queues finished steps
 * and one thread that commits them (docs/save-format.md section 5).
 *
 * How it works.  The scheduler calls the observer with its lock held, once
 * per finished step, in finishing order; the observer appends (s, t) to a
 * queue (its own mutex; never held while anything slow runs) and wakes
 * the writer.  The writer takes the whole queue as one batch, then --
 * without the mutex -- reads each step's generators and differentials
 * from the resolution (write-once data the step published before it was
 * reported, so the reads race with nothing), lays them out (LE limbs at
 * p = 2, one residue a byte at odd p),
 * checksums them, compresses them when that pays, and inserts them all in
 * one transaction: the group commit.  While it writes, the next batch
 * accumulates.  So the computing threads never wait for the disk, and the
 * number of transactions adapts to the rate at which steps finish.
 *
 * Because a batch is a prefix of the finishing order and a step finishes
 * after its predecessors, every committed state of the file is closed under
 * the dependencies of the steps: what the loader needs to resume.
 *
 * Errors are sticky: the first failed statement rolls the transaction
 * back, records the message, asks the run to stop (resol_request_stop) and
 * makes the writer drop everything after it; sq_store_finish reports it.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <time.h>
#include <zstd.h>

#include "f2mat.h"
#include "fmat.h"
#include "internal.h"
#include "sq_core.h"

static int64_t kill_at_k;
static int kill_at_phase;

void sq_store_test_kill_at(int64_t k, int phase)
{
    kill_at_k = k;
    kill_at_phase = phase;
}

/* A reusable buffer. */
typedef struct {
    uint8_t *b;
    size_t cap;
} buf_t;

static uint8_t *buf_need(buf_t *b, size_t n)
{
    if (n > b->cap) {
        sq_free(b->b);
        b->cap = n + n / 4 + 64;
        b->b = sq_malloc(b->cap);
    }
    return b->b;
}

/* Writes one step's row (the statement is prepared). */
static int put_step(sq_store_t *st, sqlite3_stmt *ins, ZSTD_CCtx *zc, buf_t *raw, buf_t *z,
                    int32_t s, int32_t t)
{
    const resol_t *R = st->R;
    const fmod_t *F = resol_free_module(R, s);
    const fhom_t *d = resol_differential(R, s);
    int64_t ngens = fmod_num_gens(F, t);
    int64_t nbits = fhom_image_len(d, t);
    int64_t limbs = f2_limbs(nbits);
    uint32_t prime = resol_prime(R);
    int64_t vbytes = (int64_t)fvec_bytes_for(prime, nbits); /* limbs * 8 at p = 2 */
    int64_t rawlen = ngens * vbytes;
    uint8_t *p = buf_need(raw, (size_t)rawlen + 8);
    if (ngens > 0 && prime != 2) { /* residue bytes: the field's encoding as it is */
        int64_t g0 = fmod_gen_global(F, t, 0);
        for (int64_t i = 0; i < ngens; i++)
            memcpy(p + (size_t)(i * vbytes), fhom_image_enc(d, g0 + i, NULL), (size_t)vbytes);
    } else if (ngens > 0) {
        int64_t g0 = fmod_gen_global(F, t, 0);
        int le = sq_host_is_le();
        for (int64_t i = 0; i < ngens; i++) {
            const uint64_t *v = fhom_image(d, g0 + i, NULL);
            uint8_t *dst = p + (size_t)(i * limbs * 8);
            if (le)
                memcpy(dst, v, (size_t)limbs * 8);
            else
                for (int64_t l = 0; l < limbs; l++)
                    sq_put_le64(dst + 8 * l, v[l]);
        }
    }
    uint32_t crc = sq_store_step_crc(st, s, t, ngens, nbits, p, (size_t)rawlen);
    size_t cap = sq_store_zbound(rawlen);
    return sq_store_insert_record(ins, zc, s, t, ngens, nbits, p, rawlen, crc,
                                  cap ? buf_need(z, cap) : NULL);
}

static int commit_batch(sq_store_t *st, sqlite3_stmt *ins, ZSTD_CCtx *zc, buf_t *raw, buf_t *z,
                        int32_t (*batch)[2], int64_t n)
{
    int rc = sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    for (int64_t i = 0; i < n && rc == SQLITE_OK; i++)
        rc = put_step(st, ins, zc, raw, z, batch[i][0], batch[i][1]);
    if (rc == SQLITE_OK && kill_at_k && st->commits + 1 == kill_at_k && kill_at_phase == 0)
        raise(SIGKILL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        char msg[sizeof st->errmsg];
        int code = sq_store_sqlite_fail(st, rc, "cannot write store", msg, sizeof msg);
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
        pthread_mutex_lock(&st->mu);
        st->err = code;
        snprintf(st->errmsg, sizeof st->errmsg, "%s", msg);
        pthread_mutex_unlock(&st->mu);
        resol_request_stop(st->R);
        return rc;
    }
    if (kill_at_k && st->commits + 1 == kill_at_k && kill_at_phase == 1)
        raise(SIGKILL);
    return SQLITE_OK;
}

static void *writer_main(void *arg)
{
    sq_store_t *st = arg;
    sqlite3_stmt *ins = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "INSERT OR REPLACE INTO step(s, t, ngens, nbits, codec, rawlen, "
                                "data, crc) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &ins, NULL);
    ZSTD_CCtx *zc = ZSTD_createCCtx();
    buf_t raw = {0}, z = {0};
    int32_t(*batch)[2] = NULL;
    int64_t bcap = 0;
    pthread_mutex_lock(&st->mu);
    if (rc != SQLITE_OK && !st->err) {
        st->err = sq_store_sqlite_fail(st, rc, "cannot write store", st->errmsg,
                                       sizeof st->errmsg);
        resol_request_stop(st->R);
    }
    if (!zc && !st->err) { /* put_step needs it: fail like a write, sticky */
        st->err = sq_store_fail(st->errmsg, sizeof st->errmsg, SQ_E_NOMEM,
                                "cannot write store %s: out of memory (a compression context)",
                                st->path);
        resol_request_stop(st->R);
    }
    for (;;) {
        while (st->qhead == st->qtail && !st->closing)
            pthread_cond_wait(&st->cv, &st->mu);
        if (st->qhead == st->qtail)
            break; /* closing, and nothing left */
        int64_t n = st->qtail - st->qhead;
        if (n > bcap) {
            bcap = n * 2;
            batch = sq_realloc(batch, (size_t)bcap * sizeof *batch);
        }
        memcpy(batch, st->queue + st->qhead, (size_t)n * sizeof *batch);
        st->qhead = st->qtail = 0;
        int failed = st->err != 0;
        st->busy = 1;
        pthread_mutex_unlock(&st->mu);
        int ok = !failed && commit_batch(st, ins, zc, &raw, &z, batch, n) == SQLITE_OK;
        pthread_mutex_lock(&st->mu);
        st->busy = 0;
        if (ok) {
            st->committed += n;
            st->commits++;
        }
        pthread_cond_broadcast(&st->idle);
    }
    pthread_mutex_unlock(&st->mu);
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        st->writer_cpu += (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec; /* read after join */
    sqlite3_finalize(ins);
    ZSTD_freeCCtx(zc);
    sq_free(raw.b);
    sq_free(z.b);
    sq_free(batch);
    return NULL;
}

static void on_step(void *ctx, int64_t done, int64_t total, int32_t s, int32_t t)
{
    sq_store_t *st = ctx;
    if (t - s <= resol_max_n(st->R)) { /* not a kernel-only step: it has a row */
        pthread_mutex_lock(&st->mu);
        if (st->qtail == st->qcap) {
            st->qcap = st->qcap ? 2 * st->qcap : 256;
            st->queue = sq_realloc(st->queue, (size_t)st->qcap * sizeof *st->queue);
        }
        st->queue[st->qtail][0] = s;
        st->queue[st->qtail][1] = t;
        st->qtail++;
        pthread_cond_signal(&st->cv);
        pthread_mutex_unlock(&st->mu);
    }
    if (st->next.step_done)
        st->next.step_done(st->next.ctx, done, total, s, t);
}

int sq_store_begin(sq_store_t *st, resol_t *R, const resol_observer_t *next,
                   resol_observer_t *obs)
{
    if (st->readonly || st->running)
        return SQ_E_INVAL;
    st->R = R;
    st->next = next ? *next : (resol_observer_t){0};
    st->qhead = st->qtail = 0;
    st->closing = st->busy = 0;
    st->err = 0;
    st->errmsg[0] = '\0';
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->cv, NULL);
    pthread_cond_init(&st->idle, NULL);
    if (pthread_create(&st->thread, NULL, writer_main, st) != 0) {
        pthread_mutex_destroy(&st->mu);
        pthread_cond_destroy(&st->cv);
        pthread_cond_destroy(&st->idle);
        return SQ_E_NOTHREAD;
    }
    st->running = 1;
    *obs = (resol_observer_t){on_step, st};
    return 0;
}

/* Whether the store has a row for every step of the region s <= S,
 * bottom <= n <= N (one count). */
static int rows_cover(sq_store_t *st, int32_t S, int32_t N, int *complete)
{
    int32_t lo = st->bottom;
    *complete = 0;
    if (S < 0 || N < lo)
        return SQLITE_OK;
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(st->db,
                                "SELECT count(*) FROM step WHERE s BETWEEN 0 AND ?1 AND t - s "
                                "BETWEEN ?2 AND ?3",
                                -1, &q, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(q, 1, S);
        sqlite3_bind_int(q, 2, lo);
        sqlite3_bind_int(q, 3, N);
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            *complete = sqlite3_column_int64(q, 0) == (int64_t)(S + 1) * (N - lo + 1);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(q);
    return rc;
}

/* Whether every step of R's region is published and has a row. */
static int region_stored(sq_store_t *st, const resol_t *R, int *complete)
{
    int32_t S = resol_max_s(R), N = resol_max_n(R);
    *complete = 1;
    for (int32_t s = 0; s <= S && *complete; s++)
        if (!resol_step_published(R, s, s + N))
            *complete = 0;
    if (!*complete)
        return SQLITE_OK;
    return rows_cover(st, S, N, complete);
}

/* The `done` region after a run of (S, N) completed: never smaller than
 * the old one (a later run of a smaller region keeps what an earlier one
 * completed): the rectangle spanning both when the store holds all of it,
 * else the new region when it contains the old, else the old. */
static int next_done(sq_store_t *st, int32_t S, int32_t N, int32_t *ds, int32_t *dn)
{
    *ds = S, *dn = N;
    if (st->done_s < 0)
        return SQLITE_OK;
    int32_t us = S > st->done_s ? S : st->done_s, un = N > st->done_n ? N : st->done_n;
    int all = 0;
    int rc = rows_cover(st, us, un, &all);
    if (rc != SQLITE_OK)
        return rc;
    if (all)
        *ds = us, *dn = un;
    else if (!(S >= st->done_s && N >= st->done_n))
        *ds = st->done_s, *dn = st->done_n;
    return SQLITE_OK;
}

int sq_store_finish(sq_store_t *st, char *err, size_t errlen)
{
    if (!st->running)
        return sq_store_fail(err, errlen, SQ_E_INVAL, "sq_store_finish: no writer running");
    pthread_mutex_lock(&st->mu);
    st->closing = 1;
    pthread_cond_signal(&st->cv);
    pthread_mutex_unlock(&st->mu);
    pthread_join(st->thread, NULL);
    st->running = 0;
    pthread_mutex_destroy(&st->mu);
    pthread_cond_destroy(&st->cv);
    pthread_cond_destroy(&st->idle);
    if (st->err)
        return sq_store_fail(err, errlen, st->err, "%s", st->errmsg);
    /* The region is done: record it, unless the old done region holds it. */
    int complete = 0;
    int rc = region_stored(st, st->R, &complete);
    int32_t ds = 0, dn = 0;
    if (rc == SQLITE_OK && complete)
        rc = next_done(st, resol_max_s(st->R), resol_max_n(st->R), &ds, &dn);
    if (rc == SQLITE_OK && complete && (ds != st->done_s || dn != st->done_n)) {
        char v[64];
        snprintf(v, sizeof v, "%d %d", (int)ds, (int)dn);
        rc = sq_store_meta_put(st, "done", v);
        if (rc == SQLITE_OK) {
            st->done_s = ds;
            st->done_n = dn;
        }
    }
    if (rc != SQLITE_OK)
        return sq_store_sqlite_fail(st, rc, "cannot write store", err, errlen);
    return 0;
}

int sq_store_run(sq_store_t *st, resol_t *R, sq_pool_t *pool, const resol_observer_t *next,
                 int flags, sq_store_run_result_t *res, FILE *warn, char *err, size_t errlen)
{
    sq_store_run_result_t r0;
    if (!res)
        res = &r0;
    memset(res, 0, sizeof *res);
    int rc = sq_store_load(st, R, flags, warn, &res->load, err, errlen);
    if (rc)
        return rc;
    resol_observer_t obs;
    if ((rc = sq_store_begin(st, R, next, &obs)))
        return sq_store_fail(err, errlen, rc, "cannot start the writer of store %s: %s", st->path,
                             sq_strerror(rc));
    int64_t before = st->committed;
    int stopped = resol_run_pool(R, st->engine, pool, &obs);
    rc = sq_store_finish(st, err, errlen);
    res->computed = st->committed - before;
    int32_t S = resol_max_s(R), N = resol_max_n(R), lo = resol_min_n(R);
    res->total = (int64_t)(S + 1) * (N - lo + 1);
    res->stored = res->load.loaded + res->computed;
    if (rc)
        return rc;
    return stopped ? 1 : 0;
}
