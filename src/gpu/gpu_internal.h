/*
 * gpu_internal.h -- what the C files of src/gpu share; not installed.
 *
 * Lanes.  The device is used through SQ_GPU_LANES lanes, each one backend
 * stream with its own device and staging buffers and its own cache of
 * Milnor configurations.  A caller takes a free lane with one atomic
 * exchange (lane_acquire) and gives it back when done; if every lane is
 * busy the offer is declined and the caller runs its CPU path, so no CPU
 * thread ever waits for another one's device work.  Buffers grow (never per
 * product: per build, and only when a larger build comes) and are kept.
 *
 * Memory.  Every device allocation goes through gpu_dev_reserve, which
 * keeps the total within the cap (ADAMS_GPU_MEM_MB, default half of the
 * device); an allocation that would pass it fails, the lane first drops its
 * configuration cache, and if that is not enough the offer is declined.
 */
#ifndef SQ_GPU_INTERNAL_H
#define SQ_GPU_INTERNAL_H

#include "gpu_backend.h"
#include "sq_gpu.h"

#define SQ_GPU_LANES 4

/* The Milnor table on the device: cnt[k * SQ_GPU_CNT_STRIDE + d], k = 0..11,
 * d = 0..511 (gpu_milnor.c). */
#define SQ_GPU_CNT_ROWS 12
#define SQ_GPU_CNT_STRIDE (SQ_GK_MAXDEG + 1)

/* A growable buffer: device memory (dev = 1, counted against the cap) or
 * staging host memory from the backend. */
typedef struct {
    void *p;
    size_t cap;
} gpu_buf_t;

/* A cached configuration list: cfg entries [cfg0, cfg0 + n) of the lane's
 * pools, its upto table at upto0 (bound + 2 entries). */
typedef struct {
    int64_t cfg0, upto0, bound;
} gpu_centry_t;

typedef struct {
    int busy; /* atomic: 1 while a caller holds the lane */
    void *st; /* backend stream */
    /* The build: arena of per-build arrays, output rows, configuration pools. */
    gpu_buf_t d_arena, h_arena, d_out, h_out;
    gpu_buf_t d_cfg_c, d_cfg_d, d_upto;
    int64_t cfg_used, upto_used; /* entries of the pools in use */
    /* The host side of the cache: per degree, element -> entry (or -1). */
    int64_t *cslot[SQ_GK_MAXDEG + 1];
    gpu_centry_t *cent;
    int64_t ncent, capcent;
    /* Configurations listed for this build, to upload (host scratch). */
    uint64_t *new_c, *new_d, *tmp_c, *tmp_d;
    int64_t new_n, new_cap;
    int32_t *new_upto;
    int64_t new_upto_n, new_upto_cap;
    /* The row reduction. */
    gpu_buf_t d_m, h_m, d_w, d_u, d_ppos, d_prow, d_tab;
    uint64_t *w, *u;
    uint8_t *done;
    int64_t *pivrow;
    int64_t hcap_rows, hcap_cols;
} gpu_lane_t;

/* The process-wide state (sq_gpu.c). */
typedef struct {
    sq_gpu_settings_t set;
    const sq_gpu_backend_t *be;
    gpu_lane_t lanes[SQ_GPU_LANES];
    gpu_buf_t cntbuf; /* device copy of the Milnor table ... */
    int64_t *d_cnt;   /* ... = cntbuf.p */
    int64_t cnt[SQ_GPU_CNT_ROWS * SQ_GPU_CNT_STRIDE];
    size_t cap;  /* device bytes the path may hold */
    size_t used; /* atomic: device bytes held */
    char device[200];
} gpu_global_t;

extern gpu_global_t sq_gpu_g;

/* A free lane, or NULL when all are busy (counted as a declined call). */
gpu_lane_t *gpu_lane_acquire(void);
void gpu_lane_release(gpu_lane_t *L);
/* Releases L after a job that returned rc (0: done on the device; else
 * counted as declined) and returns rc. */
int gpu_lane_done(gpu_lane_t *L, int rc);
/* Frees everything a lane holds (device and host). */
void gpu_lane_free(gpu_lane_t *L);
/* Drops the lane's configuration cache (keeps its buffers). */
void gpu_lane_cache_reset(gpu_lane_t *L);

/* Makes b hold at least n bytes of device memory (contents lost unless
 * keep, then the first `keep` bytes are copied on L's stream).  0, or
 * SQ_E_NOGPU when the cap or the device refuses. */
int gpu_dev_reserve(gpu_lane_t *L, gpu_buf_t *b, size_t n, size_t keep);
void gpu_dev_release(gpu_buf_t *b);
/* Makes b hold at least n bytes of staging host memory (contents lost). */
int gpu_host_reserve(gpu_buf_t *b, size_t n);
void gpu_host_release(gpu_buf_t *b);

/* The most output bytes per multiply launch (gpu_build.c; tests lower it
 * to force several row blocks).  Not synchronised: set before work. */
extern size_t gpu_out_block_max;

/* Verify mode found a difference: prints "adams: GPU verify: <what> differs
 * from the CPU at <step context>: <detail>" (one line) and ends the process
 * with SQ_GPU_VERIFY_EXIT (sq_gpu.c). */
SQ_NORETURN void gpu_verify_fail(const char *what, const char *detail);

/* Counters (sq_gpu.c): add to the calling thread's and the process's. */
void gpu_count_build(int64_t rows, int64_t products, int64_t launches, double ms);
void gpu_count_rr(int64_t rows, double ms);
void gpu_count_declined(void);

/* ---- Milnor data on the host (gpu_milnor.c) ---- */

/* Fills cnt[k * SQ_GPU_CNT_STRIDE + d] (k = 0..11, d = 0..511) with the
 * number of p-parts of degree d and length <= k. */
void gpu_cnt_table(int64_t *cnt);

/* Packs the p-part s[0..len-1] (s_1..s_len, degree <= 511) into the fields
 * of gpu_kernels.h, guard bits not set. */
uint64_t gpu_pack(const int32_t *s, int len);

/* Lists into c[], d[] the R-configurations of R = r[0..len-1] (degree |R|)
 * whose column sums have degree <= bound, |R| + bound <= 511.  Returns their
 * number, or -1 if there are more than cap. */
int64_t gpu_configs(const int32_t *r, int len, int32_t bound, uint64_t *c, uint64_t *d,
                    int64_t cap);

/* Sorts c[0..n), d[0..n) by c_1 (stable), ORs the guard bits into d and
 * fills upto[x] (x = 0..bound+1) = the number with c_1 < x.  tc, td:
 * scratch of n entries each. */
void gpu_configs_sort(uint64_t *c, uint64_t *d, int64_t n, int32_t bound, int32_t *upto,
                      uint64_t *tc, uint64_t *td);

/* ---- The host half of a reduction round (gpu_rref.c) ---- */

/* Panel scan: given the panel words w[0..rows) of limb L (lc <= 64 valid
 * bits) and done[i] = 1 for the rows that are already pivot rows, picks
 * new pivot rows among the others in row order, writes their rows to
 * ppos[0..P) and pivot bits to pcol[0..P), and fills u[i] for every row:
 * the combination of the new pivot rows (bit t: ppos[t]) to XOR into row i
 * so that afterwards the pivot rows are reduced within the panel, the other
 * rows not yet pivots are zero in the panel, and the earlier pivot rows are
 * zero on the new pivot columns.  Returns P (0..lc). */
int gpu_panel_scan(const uint64_t *w, const uint8_t *done, int64_t rows, int lc, uint64_t *u,
                   int64_t *ppos, int *pcol);

#endif /* SQ_GPU_INTERNAL_H */
