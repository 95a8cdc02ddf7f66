/*
 * sq_mpi.c -- `adams resolve --mpi` with MPI (sq_mpi.h, docs/mpi.md).
 *
 * Messages (MPI_COMM_WORLD, MPI_BYTE): a header of five int64 -- s, t,
 * generators, bits, and a spare word (the engine of START, the exit code of
 * STOP) -- then for RESULT and LOAD the vectors d(g) of the step's new
 * generators in resol_load_step's encoding, for FAIL a line of text.
 *
 *   START  0 -> w   the engine (after rank 0 fixed it: a store may decide)
 *   LOAD   0 -> w   a step computed elsewhere (or stored): publish it
 *   STEP   0 -> w   run (s, t); its predecessors' LOADs came before it
 *   RESULT w -> 0   the step's payload
 *   FAIL   w -> 0   a worker could not go on (one line)
 *   STOP   0 -> w   leave (the exit code); the worker answers BYE
 *
 * MPI keeps the messages from one rank to another in order, and rank 0
 * sends a step only when every predecessor is done, after forwarding its
 * LOAD: so a worker always has what a step reads when the step arrives.
 * One thread of a rank calls MPI at a time (MPI_THREAD_SERIALIZED): rank
 * 0's main thread (the store's writer and the progress line are fed by the
 * scheduler's observer, as in a threaded run), a worker's mailbox (below).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, sigaction */
#include "sq_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sq_core.h"
#include "sq_trace.h"

enum { T_START = 1, T_LOAD, T_STEP, T_RESULT, T_FAIL, T_STOP, T_BYE };
enum { HDR = 5 };

static int rank_, size_;
static int serving_;    /* the workers serve steps (sq_mpi_ready) */
static int finished_;   /* the workers were told STOP */
static int fail_code_;  /* a worker's FAIL, or 0 */
static int depth_ = 2;  /* steps in flight per worker (sq_mpi_set_depth) */

int sq_mpi_built(void)
{
    return 1;
}

int sq_mpi_start(char *err, size_t errlen)
{
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI could not start");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (provided < MPI_THREAD_SERIALIZED) {
        snprintf(err, errlen, "this MPI does not allow threads (MPI_THREAD_SERIALIZED)");
        MPI_Finalize();
        return -1;
    }
    if (size_ > 1)
        sq_trace_set_rank(rank_);
    return 0;
}

int sq_mpi_rank(void)
{
    return rank_;
}

int sq_mpi_size(void)
{
    return size_;
}

int sq_mpi_ready(int code)
{
    int out = code;
    MPI_Allreduce(&code, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    serving_ = out == 0 && size_ > 1;
    return out;
}

int sq_mpi_share(int code)
{
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
}

/* ---- Messages --------------------------------------------------------------- */

/* A message buffer shared by the sends of one forward (refs). */
typedef struct {
    int refs;
    int len;
    int64_t data[]; /* HDR words, then the payload */
} msg_t;

static msg_t *msg_new(int64_t payload)
{
    int64_t len = HDR * 8 + payload;
    SQ_CHECK(len <= INT_MAX - 64, "--mpi: a message of %lld bytes", (long long)len);
    msg_t *m = sq_malloc(sizeof *m + (size_t)len + 8);
    m->refs = 0;
    m->len = (int)len;
    memset(m->data, 0, HDR * 8);
    return m;
}

/* Sends in flight (rank 0's LOADs), freed when complete. */
static struct {
    MPI_Request *req;
    msg_t **msg;
    int n, cap;
} pend;

static void pend_reap(int wait)
{
    int k = 0;
    for (int i = 0; i < pend.n; i++) {
        int done = 0;
        if (wait)
            MPI_Wait(&pend.req[i], MPI_STATUS_IGNORE), done = 1;
        else
            MPI_Test(&pend.req[i], &done, MPI_STATUS_IGNORE);
        if (done) {
            if (--pend.msg[i]->refs == 0)
                sq_free(pend.msg[i]);
            continue;
        }
        pend.req[k] = pend.req[i];
        pend.msg[k++] = pend.msg[i];
    }
    pend.n = k;
}

static void send_async(msg_t *m, int to, int tag)
{
    if (pend.n == pend.cap) {
        pend.cap = pend.cap ? 2 * pend.cap : 64;
        pend.req = sq_realloc(pend.req, (size_t)pend.cap * sizeof *pend.req);
        pend.msg = sq_realloc(pend.msg, (size_t)pend.cap * sizeof *pend.msg);
    }
    m->refs++;
    MPI_Isend(m->data, m->len, MPI_BYTE, to, tag, MPI_COMM_WORLD, &pend.req[pend.n]);
    pend.msg[pend.n++] = m;
}

static void send_small(int to, int tag, int64_t a, int64_t b, int64_t extra)
{
    int64_t h[HDR] = {a, b, 0, 0, extra};
    MPI_Send(h, (int)sizeof h, MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

/* Receives the message st announced (MPI_Probe/Iprobe) into a new buffer. */
static msg_t *recv_msg(const MPI_Status *st)
{
    int n = 0;
    MPI_Get_count(st, MPI_BYTE, &n);
    msg_t *m = msg_new(n > HDR * 8 ? n - HDR * 8 : 0);
    MPI_Recv(m->data, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return m;
}

/* Waits for a message from src (MPI_ANY_SOURCE: any), polling so that a
 * stop request of R (may be NULL) or the deadline (sq_wtime; 0: none)
 * ends the wait: returns 1 with *st, or 0. */
static int poll_msg(int src, MPI_Status *st, const resol_t *R, double deadline)
{
    long ns = 20000;
    for (;;) {
        int flag = 0;
        MPI_Iprobe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return 1;
        pend_reap(0);
        if ((R && resol_stop_requested(R)) || (deadline > 0 && sq_wtime() > deadline))
            return 0;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        if (ns < 1000000)
            ns += ns / 2;
    }
}

/* ---- Rank 0: the coordinator ------------------------------------------------ */

/* The message of the published step (s, t): its payload (RESULT, LOAD). */
static msg_t *step_msg(const resol_t *R, int32_t s, int32_t t)
{
    int64_t ngens, nbits;
    int64_t bytes = resol_step_payload(R, s, t, &ngens, &nbits, NULL);
    msg_t *m = msg_new(bytes);
    resol_step_payload(R, s, t, &ngens, &nbits, m->data + HDR);
    m->data[0] = s, m->data[1] = t, m->data[2] = ngens, m->data[3] = nbits;
    return m;
}

/* Sends every step R already holds (loaded from a store) to every worker,
 * in increasing (t, s): the order resol_load_step needs. */
static void send_published(const resol_t *R)
{
    int32_t S = resol_max_s(R), lo = resol_min_n(R), N = resol_max_n(R);
    for (int32_t t = lo; t <= S + N; t++)
        for (int32_t s = 0; s <= S && s <= t - lo; s++) {
            if (t - s > N || !resol_step_published(R, s, t))
                continue;
            msg_t *m = step_msg(R, s, t);
            for (int w = 1; w < size_; w++)
                send_async(m, w, T_LOAD);
            if (!m->refs)
                sq_free(m);
        }
}

typedef struct {
    int *busy;      /* per rank: its steps in flight (at most depth) */
    int *owner;     /* per row s: the rank that ran its last step, or 0 */
    int inflight;
    int depth;      /* steps in flight per rank (sq_mpi_set_depth, ADAMS_MPI_DEPTH) */
} coord_t;

/* The rank for a step of row s: an idle one (the row's last one first,
 * its caches are warm), else the least busy below the depth; 0 if none. */
static int pick_rank(const coord_t *C, int32_t s)
{
    int o = C->owner[s], best = 0;
    if (o > 0 && !C->busy[o])
        return o;
    for (int w = 1; w < size_; w++)
        if (C->busy[w] < C->depth && (!best || C->busy[w] < C->busy[best]))
            best = w;
    if (best && o > 0 && C->busy[o] == C->busy[best])
        return o;
    return best;
}

/* Hands out ready steps while a rank is idle (kernel-only steps are done
 * at once: rank 0 needs nothing of them, and the rank that runs the step
 * above one computes its kernel). */
static void hand_out(coord_t *C, resol_t *R, resol_sched_t *S)
{
    int32_t s, t;
    while (C->inflight < (size_ - 1) * C->depth && resol_sched_next(S, &s, &t)) {
        if (resol_step_kernel_only(R, s, t)) {
            resol_sched_done(S, s, t);
            continue;
        }
        int w = pick_rank(C, s);
        send_small(w, T_STEP, s, t, 0);
        C->busy[w]++;
        C->owner[s] = w;
        C->inflight++;
    }
}

/* A worker's result: published here, forwarded to the others, reported. */
static void take_result(coord_t *C, resol_t *R, resol_sched_t *S, msg_t *m, int from)
{
    char err[512];
    int32_t s = (int32_t)m->data[0], t = (int32_t)m->data[1];
    int rc = resol_load_step(R, s, t, m->data[2], m->data[3], m->data + HDR, err, sizeof err);
    SQ_CHECK(rc == 0, "--mpi: the result of rank %d: %s", from, err);
    if (sq_trace_on(SQ_TRACE_STEP))
        sq_trace_emit("event=mpi_step s=%d t=%d from=%d bytes=%d forwards=%d", (int)s, (int)t,
                      from, m->len, size_ - 2);
    for (int w = 1; w < size_; w++)
        if (w != from)
            send_async(m, w, T_LOAD);
    if (!m->refs)
        sq_free(m);
    C->busy[from]--;
    C->inflight--;
    resol_sched_done(S, s, t);
}

static int coordinate(void *ctx, resol_t *R, const resol_observer_t *obs)
{
    (void)ctx;
    for (int w = 1; w < size_; w++)
        send_small(w, T_START, 0, 0, (int64_t)resol_engine(R));
    send_published(R);
    coord_t C = {sq_calloc((size_t)size_, sizeof *C.busy),
                 sq_calloc((size_t)resol_max_s(R) + 1, sizeof *C.owner), 0, depth_};
    const char *dv = getenv("ADAMS_MPI_DEPTH");
    if (dv && atoi(dv) >= 1 && atoi(dv) <= 64)
        C.depth = atoi(dv);
    resol_sched_t *S = resol_sched_new(R, obs);
    int stopped = 0;
    for (;;) {
        hand_out(&C, R, S);
        if (resol_sched_finished(S))
            break;
        SQ_CHECK(C.inflight > 0 || resol_stop_requested(R),
                 "--mpi: no step ready and none in flight (a dependency cycle?)");
        MPI_Status st;
        if (resol_stop_requested(R) || !poll_msg(MPI_ANY_SOURCE, &st, R, 0)) {
            stopped = 1; /* the steps in flight are left: a resumed run redoes them */
            break;
        }
        msg_t *m = recv_msg(&st);
        if (st.MPI_TAG == T_RESULT) {
            take_result(&C, R, S, m, st.MPI_SOURCE);
            continue;
        }
        if (st.MPI_TAG == T_FAIL) {
            fprintf(stderr, "adams: rank %d: %.*s\n", st.MPI_SOURCE,
                    (int)(m->len - HDR * 8), (const char *)(m->data + HDR));
            fail_code_ = m->data[4] > 0 ? (int)m->data[4] : 1;
            resol_request_stop(R);
        }
        sq_free(m);
    }
    SQ_CHECK(stopped || C.inflight == 0, "--mpi: %d steps in flight at the end", C.inflight);
    resol_sched_free(S);
    sq_free(C.busy);
    sq_free(C.owner);
    return stopped;
}

void sq_mpi_set_depth(int steps)
{
    depth_ = steps < 1 ? 1 : steps > 4096 ? 4096 : steps;
}

void sq_mpi_attach(resol_t *R)
{
    resol_set_runner(R, coordinate, NULL);
}

/* ---- Signals (rank 0, a run without a store) -------------------------------- */

static resol_t *volatile sig_target;
static volatile sig_atomic_t sig_caught;

static void on_signal(int sig)
{
    if (!sig_caught)
        sig_caught = sig;
    if (sig_target)
        resol_request_stop(sig_target);
}

void sq_mpi_catch_signals(resol_t *R)
{
    sig_target = R;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int sq_mpi_signal_caught(void)
{
    return (int)sig_caught;
}

/* ---- Workers ----------------------------------------------------------------
 *
 * A worker runs the steps it is sent on its pool, several at once, as the
 * threaded run does: sq_pool_run over a source whose first job is the
 * mailbox -- the one thread that calls MPI (MPI_THREAD_SERIALIZED): it
 * publishes LOADs at once (a step's predecessors are loaded before its
 * STEP arrives, and steps may run meanwhile: resol_run_step_here), queues
 * STEPs and wakes the pool, and sends the results the steps leave in the
 * outbox.  The pool has one thread more than --threads for the mailbox,
 * which mostly sleeps.
 */

typedef struct {
    resol_t *R;
    sq_pool_t *pool;
    pthread_mutex_t mu;         /* the queue, the outbox, quit */
    int32_t (*q)[2];            /* steps to run, FIFO */
    int64_t qhead, qn, qcap;
    msg_t **out;                /* results to send */
    int64_t on, ocap;
    int mailbox_started;        /* under the pool lock (the source's next) */
    int quit;                   /* STOP came: no new step starts */
    int failed;
    int64_t nstep;
} worker_t;

static char mailbox_job;        /* the mailbox's job pointer */

/* ADAMS_MPI_FAULT=R:K (tests): rank R kills itself (SIGKILL) when it is
 * sent its K-th step. */
static int fault_due(int64_t nstep)
{
    const char *f = getenv("ADAMS_MPI_FAULT");
    int r = -1;
    long k = -1;
    return f && sscanf(f, "%d:%ld", &r, &k) == 2 && r == rank_ && k == nstep;
}

static void send_fail(const char *line, int code)
{
    size_t n = strlen(line);
    msg_t *m = msg_new((int64_t)n);
    memcpy(m->data + HDR, line, n);
    m->data[4] = code;
    MPI_Send(m->data, m->len, MPI_BYTE, 0, T_FAIL, MPI_COMM_WORLD);
    sq_free(m);
}

static void queue_step(worker_t *W, int32_t s, int32_t t)
{
    pthread_mutex_lock(&W->mu);
    if (W->qhead + W->qn == W->qcap) {
        if (W->qhead > 0) {
            memmove(W->q, W->q + W->qhead, (size_t)W->qn * sizeof *W->q);
            W->qhead = 0;
        } else {
            W->qcap = W->qcap ? 2 * W->qcap : 64;
            W->q = sq_realloc(W->q, (size_t)W->qcap * sizeof *W->q);
        }
    }
    W->q[W->qhead + W->qn][0] = s;
    W->q[W->qhead + W->qn][1] = t;
    W->qn++;
    pthread_mutex_unlock(&W->mu);
    sq_pool_wake(W->pool);
}

/* Sends the results waiting in the outbox; returns how many. */
static int64_t flush_outbox(worker_t *W)
{
    pthread_mutex_lock(&W->mu);
    msg_t **out = W->out;
    int64_t n = W->on;
    W->out = NULL, W->on = 0, W->ocap = 0;
    pthread_mutex_unlock(&W->mu);
    for (int64_t i = 0; i < n; i++) {
        MPI_Send(out[i]->data, out[i]->len, MPI_BYTE, 0, T_RESULT, MPI_COMM_WORLD);
        sq_free(out[i]);
    }
    sq_free(out);
    return n;
}

/* One message from rank 0; returns 1 when it was STOP. */
static int handle(worker_t *W, const MPI_Status *st)
{
    char err[512];
    msg_t *m = recv_msg(st);
    int tag = st->MPI_TAG, stop = 0;
    if (tag == T_START) {
        resol_prepare(W->R, (resol_algo_t)m->data[4]);
    } else if (tag == T_LOAD && !W->failed) {
        if (resol_load_step(W->R, (int32_t)m->data[0], (int32_t)m->data[1], m->data[2],
                            m->data[3], m->data + HDR, err, sizeof err)) {
            send_fail(err, 1);
            W->failed = 1;
        }
    } else if (tag == T_STEP && !W->failed) {
        if (fault_due(++W->nstep))
            raise(SIGKILL);
        queue_step(W, (int32_t)m->data[0], (int32_t)m->data[1]);
    } else if (tag == T_STOP) {
        send_small(0, T_BYE, 0, 0, 0);
        pthread_mutex_lock(&W->mu);
        W->quit = 1;
        pthread_mutex_unlock(&W->mu);
        stop = 1;
    }
    sq_free(m);
    return stop;
}

/* The mailbox: until STOP, receive and send, sleeping a little (at most
 * 0.2 ms) when there is nothing to do. */
static void mailbox(worker_t *W)
{
    long ns = 10000;
    for (;;) {
        int64_t sent = flush_outbox(W);
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag && handle(W, &st))
            return;
        if (flag || sent) {
            ns = 10000;
            continue;
        }
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        if (ns < 200000)
            ns += ns / 2;
    }
}

static int w_next(void *ctx, void **job)
{
    worker_t *W = ctx;
    if (!W->mailbox_started) {
        W->mailbox_started = 1;
        *job = &mailbox_job;
        return 1;
    }
    pthread_mutex_lock(&W->mu);
    int have = !W->quit && W->qn > 0;
    if (have) {
        int32_t *st = sq_malloc(2 * sizeof *st);
        st[0] = W->q[W->qhead][0], st[1] = W->q[W->qhead][1];
        W->qhead++, W->qn--;
        *job = st;
    }
    pthread_mutex_unlock(&W->mu);
    return have;
}

static void w_run(void *ctx, void *job, int thread)
{
    worker_t *W = ctx;
    (void)thread;
    if (job == &mailbox_job) {
        mailbox(W);
        return;
    }
    const int32_t *st = job;
    resol_run_step_here(W->R, st[0], st[1], W->pool);
    msg_t *r = step_msg(W->R, st[0], st[1]);
    pthread_mutex_lock(&W->mu);
    if (W->on == W->ocap) {
        W->ocap = W->ocap ? 2 * W->ocap : 16;
        W->out = sq_realloc(W->out, (size_t)W->ocap * sizeof *W->out);
    }
    W->out[W->on++] = r;
    pthread_mutex_unlock(&W->mu);
}

static void w_done(void *ctx, void *job)
{
    (void)ctx;
    if (job != &mailbox_job)
        sq_free(job);
}

int sq_mpi_serve(resol_t *R, sq_pool_t *pool)
{
    worker_t W;
    memset(&W, 0, sizeof W);
    W.R = R;
    W.pool = pool;
    pthread_mutex_init(&W.mu, NULL);
    sq_pool_source_t src = {w_next, w_run, w_done, &W};
    if (pool) {
        sq_pool_run(pool, &src);
    } else { /* one thread: the mailbox runs the steps between messages */
        SQ_CHECK(0, "--mpi: a worker needs a pool");
    }
    for (int64_t i = 0; i < W.on; i++)
        sq_free(W.out[i]);
    sq_free(W.out);
    sq_free(W.q);
    pthread_mutex_destroy(&W.mu);
    finished_ = 1;
    return 0;
}

/* ---- The end ---------------------------------------------------------------- */

int sq_mpi_finish(int code)
{
    if (rank_ == 0 && serving_ && !finished_) {
        int have = 0, want = size_ - 1;
        for (int w = 1; w < size_; w++)
            send_small(w, T_STOP, 0, 0, code);
        /* Wait for every BYE (results still on the way are dropped); a dead
         * rank never answers: after the deadline we leave without it. */
        double deadline = sq_wtime() + (sig_caught || code >= 128 ? 0.2 : code ? 3.0 : 30.0);
        MPI_Status st;
        while (have < want && poll_msg(MPI_ANY_SOURCE, &st, NULL, deadline)) {
            msg_t *m = recv_msg(&st);
            have += st.MPI_TAG == T_BYE;
            sq_free(m);
        }
        finished_ = 1;
        if (have < want)
            return code; /* leave without MPI_Finalize, which would wait for the dead */
        pend_reap(1);
    }
    MPI_Finalize();
    return code;
}

int sq_mpi_failed(void)
{
    return fail_code_;
}
