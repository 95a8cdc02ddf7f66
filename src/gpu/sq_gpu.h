/*
 * sq_gpu.h -- the accelerator path: the batched Milnor multiply of a matrix
 * build and the row reduction of large matrices on a CUDA device, behind a
 * plain C API that may decline (docs/gpu.md).
 *
 * Plain C, no CUDA types: every entry point is always built.  In a build
 * without CUDA (gpu_stub.c) or on a machine without a usable device,
 * sq_gpu_init declines with SQ_E_NOGPU and a one-line reason, and every
 * offer of work is declined; the callers (fhom_build_rows*, f2mat_rref_pool)
 * then run their CPU path, which is the reference: a device result is the
 * CPU's result bit for bit, and verify mode checks it.
 *
 * Who calls what:
 *   - the program: sq_gpu_setup(want, ...) once at start (--gpu gives
 *     want = 1; ADAMS_GPU=1 in the environment works without it, started at
 *     the first matrix build), sq_gpu_shutdown() at the end;
 *   - src/module/fhom.c: sq_gpu_on(), sq_gpu_build_wanted(), sq_gpu_build_rows();
 *   - src/fp/rref.c: nothing directly (fp sits below gpu): sq_gpu_init
 *     installs a hook in f2mat_rref_pool, which offers large reductions;
 *   - a step: sq_gpu_stats_thread() for "how much of the step ran on the device".
 *
 * Threads: everything here may be called from any thread once sq_gpu_init
 * has returned, except sq_gpu_init/setup/shutdown themselves (call them
 * while no other thread works).  The device is shared through a few lanes
 * (one CUDA stream and its buffers each); an offer that finds every lane
 * busy is declined at once rather than waiting, so CPU threads never queue
 * behind one another on a global device lock.
 */
#ifndef SQ_GPU_H
#define SQ_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "f2mat.h"
#include "milnor.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of the program when verify mode finds a difference. */
#define SQ_GPU_VERIFY_EXIT 5

/* ---- Settings ---------------------------------------------------------- */

typedef struct {
    int enable;       /* offer work to the device (ADAMS_GPU=1; --gpu) */
    int verify;       /* run device and CPU, compare, stop on a difference
                         (ADAMS_GPU_VERIFY=1); implies enable */
    int emulate;      /* the host emulator instead of CUDA (ADAMS_GPU_EMULATE=1):
                         for tests, it runs the kernels' code on the CPU */
    int64_t min_work; /* ADAMS_GPU_MIN_WORK: a matrix build goes to the device
                         when it has at least this many products (rows x set
                         bits of the image); default 1 << 18 */
    int64_t rr_min;   /* ADAMS_GPU_RR_MIN: a row reduction goes to the device
                         when min(rows, cols) >= rr_min; default 4096 */
    int64_t mem_mb;   /* ADAMS_GPU_MEM_MB: device memory the path may hold, in
                         MiB; 0 (default): half of the device's memory */
} sq_gpu_settings_t;

/* The defaults above (enable = verify = emulate = 0). */
void sq_gpu_settings_default(sq_gpu_settings_t *s);

/* Overrides *s with the variables above that are set in the environment.
 * Returns 0, or SQ_E_INVAL with a one-line message in why[0..n) (no
 * newline) when a value is malformed; *s is then unchanged. */
int sq_gpu_settings_from_env(sq_gpu_settings_t *s, char *why, size_t n) SQ_WARN_UNUSED;

/* ---- Life cycle ---------------------------------------------------------- */

/* Starts the device path with settings s (s->enable or s->verify must be
 * set).  Returns 0 when work will now be offered to the device, or
 * SQ_E_NOGPU with a one-line reason in why[0..n) (no newline): not built
 * with CUDA, no device, a driver error, or a device this build has no code
 * for.  On a decline nothing is offered and the CPU runs everything.
 * Calling it again restarts with the new settings.  Not thread-safe. */
int sq_gpu_init(const sq_gpu_settings_t *s, char *why, size_t n) SQ_WARN_UNUSED;

/* What the program calls for --gpu (and always, to honour ADAMS_GPU):
 * reads the environment; starts the device path when want != 0 or the
 * environment asks for it.  Returns 1 when the device path is on, 0 when
 * nobody asked for it, SQ_E_NOGPU when it was asked for and declined (the
 * reason in why: print "adams: <why>; running on the CPU"), SQ_E_INVAL
 * when an ADAMS_GPU* variable is malformed (the message in why). */
int sq_gpu_setup(int want, char *why, size_t n) SQ_WARN_UNUSED;

/* Stops offering work and frees the device memory.  No work may be in
 * flight.  A no-op when the path is off. */
void sq_gpu_shutdown(void);

/* 1 when the device path is on (work is offered). */
int sq_gpu_available(void);

/* The device in use ("NVIDIA H200 (sm_90, 139 GiB)", "emulator"), or "". */
const char *sq_gpu_device(void);

/* 1 when verify mode is on. */
int sq_gpu_verify_on(void);

/* The cheap test the CPU callers make before anything else: one load of a
 * flag.  The first call reads ADAMS_GPU / ADAMS_GPU_VERIFY and starts the
 * path if they ask for it (printing the reason on stderr, one line, if it
 * declines). */
extern int sq_gpu_state_; /* -1: environment not read yet; 0 off; 1 on */
int sq_gpu_autostart_(void);
static inline int sq_gpu_on(void)
{
    int s = __atomic_load_n(&sq_gpu_state_, __ATOMIC_ACQUIRE);
    if (SQ_UNLIKELY(s < 0))
        s = sq_gpu_autostart_();
    return s > 0;
}

/* ---- The batched Milnor multiply of a matrix build ------------------------
 *
 * The rows of d on a list of basis elements (Sq(R), g) of a free module in
 * degree t, as fhom_build_rows computes them: row i is Sq(R_i) * d(g_i),
 * with d(g) cut into blocks, one per target generator h with a nonzero
 * part: the block is a vector over the Milnor basis of degree deg g - deg h
 * and its product lands at the bit offset of h's basis in degree t.
 *
 *   generators j < ngens:  degree gen_deg[j]; blocks
 *                          blocks[gen_block0[j] .. gen_block0[j + 1]);
 *   block b:               off (output bit of basis element 0 of its product's
 *                          degree), deg (its vector's degree), limb0 (its
 *                          vector: bits[limb0 ..], milnor_dim(A, deg) bits,
 *                          padding zero);
 *   rows i < nrows:        generator row_gen[i], R = element row_ridx[i] of
 *                          degree t - gen_deg[row_gen[i]].
 */
typedef struct {
    int64_t off;
    int64_t limb0;
    int32_t deg;
} sq_gpu_block_t;

typedef struct {
    const milnor_t *A; /* the full algebra (sub-Hopf algebras are declined) */
    int32_t t;
    int64_t out_bits; /* output columns written: every off + product < out_bits */
    int64_t ngens;
    const int32_t *gen_deg;
    const int64_t *gen_block0; /* ngens + 1 entries */
    const sq_gpu_block_t *blocks;
    const uint64_t *bits;
    int64_t nrows;
    const int64_t *row_gen;
    const int64_t *row_ridx;
} sq_gpu_build_t;

/* 1 when a build of `products` products (sum over rows of the set bits of
 * the row's image) passes the work gate and the path is on. */
int sq_gpu_build_wanted(int64_t products);

/* XORs row i of the build into row row0 + i of m (i < job->nrows; m has at
 * least row0 + nrows rows and out_bits columns).  The Milnor tables and the
 * configurations of each Sq(R) stay on the device from one build to the next
 * (grown in place within ADAMS_GPU_MEM_MB); output rows are XOR-accumulated
 * on the device, one launch per block of rows of bounded bytes (one for
 * most matrices).  Returns 0, or SQ_E_NOGPU (m untouched) when declined:
 * path off, every lane busy, not enough device memory, a product degree
 * above 511, a sub-Hopf algebra, or a device error.  Thread-safe. */
int sq_gpu_build_rows(const sq_gpu_build_t *job, f2mat_t *m, int64_t row0) SQ_WARN_UNUSED;

/* ---- Row reduction ---------------------------------------------------------- */

/* f2mat_rref on the device, whatever the size (the gate ADAMS_GPU_RR_MIN is
 * applied by the hook in f2mat_rref_pool, not here): the canonical RREF,
 * the same bits and pivots as the CPU, rank in *rank.  pivots as in
 * f2mat_rref (may be NULL).  Returns 0, or SQ_E_NOGPU (m untouched).
 * Thread-safe. */
int sq_gpu_rref(f2mat_t *m, int64_t *pivots, int64_t *rank) SQ_WARN_UNUSED;

/* ---- Verify mode and statistics -------------------------------------------- */

/* Compares cpu and gpu (same dimensions); on any difference prints one line
 * "adams: GPU verify: <what> differs from the CPU at (s, t) = ..., signature
 * ...: ..." with the calling thread's step context (sq_trace_get_context)
 * and ends the process with status SQ_GPU_VERIFY_EXIT. */
void sq_gpu_verify_rows(const char *what, const f2mat_t *cpu, const f2mat_t *gpu);

typedef struct {
    int64_t builds;     /* matrix builds run on the device */
    int64_t build_rows; /* their rows */
    int64_t products;   /* their products */
    int64_t launches;   /* multiply launches */
    int64_t rrs;        /* row reductions run on the device */
    int64_t rr_rows;    /* their rows */
    int64_t declined;   /* offers above the gates that ran on the CPU */
    double ms;          /* wall time spent in device work, milliseconds */
} sq_gpu_stats_t;

/* The calling thread's counters (reset = 1: then zeroes them), e.g. around
 * a step, to say how much of it ran on the device. */
void sq_gpu_stats_thread(sq_gpu_stats_t *st, int reset);

/* The process's counters since sq_gpu_init. */
void sq_gpu_stats_total(sq_gpu_stats_t *st);

#ifdef __cplusplus
}
#endif

#endif /* SQ_GPU_H */
