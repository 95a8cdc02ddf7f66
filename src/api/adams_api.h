/*
 * adams_api.h -- a small, stable C interface for bindings (the Python
 * package in python/, docs/python.md): opaque handles and plain C types
 * only, so that a caller through ctypes or cffi's ABI mode needs no struct
 * layout and no compiler.
 *
 * A resolution handle is made in two calls, so that another thread can stop
 * the long one:
 *
 *     adams_res_t *h;
 *     rc = adams_prepare(&h, "S_2", 60, -1, 2, 0, "s2.db", err, sizeof err);
 *     rc = adams_run(h, err, sizeof err);    // long; adams_interrupt(h) from any thread
 *     adams_ext_dim(h, 15, 1);                // 1 (h_4)
 *     adams_free(h);
 *
 * or read from a store with adams_open_store.  Modules are named as on the
 * command line (docs/cli.md): a shipped module ("S_2", "C2", "ko", "S_3"),
 * a file path (with '/' or ending in ".json"), either with a shift "[k]"
 * and the peer's basis suffix "@milnor" or "@adem" (which changes no
 * number).
 *
 * Errors.  Every function that can fail returns 0 or one of the ADAMS_E_*
 * codes below and writes a one-line message (no "adams: " prefix, no
 * newline) into err (errlen bytes, NUL-terminated when errlen > 0; err may be
 * NULL).  Bad input (an unknown module, a malformed file, a class that does
 * not exist, a region outside what was computed) is an error, never an
 * abort: the functions here check every argument before the library's
 * preconditions (SQ_CHECK) could fail.
 *
 * Classes.  A class of Ext^{s,t} at stem n = t - s is given as (n, s) and a
 * vector of int32_t coefficients 0..p-1 over the basis x_(n, s, 0), ...,
 * x_(n, s, d - 1) (d = adams_ext_dim), exactly d of them; results come back
 * the same way, in arrays of exactly the target's dimension.
 *
 * Threads: one thread at a time per handle, except adams_interrupt, which
 * any thread (or a signal handler) may call at any time before adams_free
 * begins.  Different handles are independent.
 */
#ifndef ADAMS_API_H
#define ADAMS_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: bumped when a function changes. */
#define ADAMS_API_VERSION 1

/* Error codes (the exit codes of the program in brackets, docs/cli.md). */
enum {
    ADAMS_OK = 0,
    ADAMS_E_INPUT = -1,       /* bad input: module, file, region, class, argument [2] */
    ADAMS_E_MEMORY = -2,      /* the region does not fit in memory (resol_estimate) [3] */
    ADAMS_E_THREADS = -3,     /* the threads could not be started [4] */
    ADAMS_E_STORE = -4,       /* a store could not be opened, read or written, or is for
                               * another module or engine [1 or 2]; or adams_svg's buffer
                               * could not be written */
    ADAMS_E_INTERRUPTED = -5, /* adams_interrupt stopped the run (a store keeps what finished) */
    ADAMS_E_STATE = -6        /* the handle is not in the state the call needs (e.g. not run) */
};

typedef struct adams_res adams_res_t;

/* ADAMS_API_VERSION of the library loaded (a binding checks it). */
int adams_api_version(void);

/* ---- Making a resolution --------------------------------------------------- */

/* Loads the module named `module` (as on the command line; see above) at
 * its prime, and prepares its resolution through stem `stem` and
 * filtration max_s (max_s < 0: the program's default, resol_default_max_s:
 * (stem - bottom)/(2p - 2) + 3 + the module's span), on `threads` threads
 * (<= 1: one).  max_memory: the bytes the run may use (<= 0: the memory
 * available), refused up front as
 * the program does when the estimate cannot fit.  save (NULL: none): a
 * store path, with the semantics of `adams resolve --save`: created, or
 * resumed and extended when it holds this module (anything else there is
 * refused: another module, engine or file; a module truncated from an
 * infinite one is identified by its definition, sq_moddef.h, as the
 * program does).  Nothing is computed yet.
 * A module file asking for the cofiber of a class (the key "cofiber",
 * docs/modules.md) gives the cofiber's Ext (resol_cofiber.h; no store, no
 * products, no chart).  Refused (ADAMS_E_INPUT): an unknown module or
 * unreadable file, a region outside the algebra's (resol_check_range),
 * save with a cofiber; ADAMS_E_MEMORY,
 * ADAMS_E_THREADS, ADAMS_E_STORE as the codes say.  On success *out is the
 * handle (adams_free frees it); on failure *out is NULL. */
int adams_prepare(adams_res_t **out, const char *module, int32_t stem, int32_t max_s, int threads,
                  double max_memory, const char *save, char *err, size_t errlen);

/* Computes the prepared resolution (saving into the store as it goes when
 * one was given; only what the store lacks is computed).  Long: call it
 * without holding locks the interrupting thread needs.  Returns 0 (the
 * whole region is computed), ADAMS_E_INTERRUPTED (adams_interrupt was
 * called: the steps in flight finished, the store keeps them; the handle
 * cannot be run again -- prepare a new one to resume), ADAMS_E_STORE (a
 * write failed; what was committed stays valid), ADAMS_E_STATE (already
 * run). */
int adams_run(adams_res_t *h, char *err, size_t errlen);

/* Asks a run of h to stop as soon as the steps in flight finish; before
 * adams_run, the run stops at once.  A cofiber stops only before it starts
 * (its construction has no stopping point).  Async-signal-safe (one atomic
 * store); any thread.  NULL is a no-op. */
void adams_interrupt(adams_res_t *h);

/* Opens the store at path read-only (no lock: another process may be
 * writing it) and loads its completed region: a handle as after adams_run.
 * Returns 0, ADAMS_E_STORE (not a store, damaged, no completed run, its
 * module cannot be rebuilt from it) or ADAMS_E_MEMORY (the region does not
 * fit, as for adams_prepare with max_memory 0). */
int adams_open_store(adams_res_t **out, const char *path, char *err, size_t errlen);

/* Frees h, its module and every resolution it holds; NULL is a no-op. */
void adams_free(adams_res_t *h);

/* ---- What a handle holds (any state) --------------------------------------- */

/* The prime and the region: stems *min_stem..*max_stem, filtrations
 * 0..*max_s. */
void adams_region(const adams_res_t *h, uint32_t *prime, int32_t *min_stem, int32_t *max_stem,
                  int32_t *max_s);
/* The module's name ("S_2", "C2[1]"; borrowed from h). */
const char *adams_module_name(const adams_res_t *h);
/* "classical" or "nassau": the engine of the run (the store's with one). */
const char *adams_engine(const adams_res_t *h);
/* 1 when the whole region is computed (adams_run returned 0, or a store). */
int adams_is_done(const adams_res_t *h);
/* 1 when h is the cofiber of a class (Ext only: the functions below other
 * than adams_ext_dim give ADAMS_E_INPUT, adams_filt1_degree -1). */
int adams_is_cofiber(const adams_res_t *h);

/* ---- Ext (after adams_run or adams_open_store) ------------------------------ */

/* dim Ext^{s, s+n}, or -1 when (n, s) is outside the region or h is not
 * done. */
int64_t adams_ext_dim(const adams_res_t *h, int32_t n, int32_t s);

/* The filtration-one classes k = 0, 1, ... (h_k at p = 2; a_0, h_0, h_1,
 * ... at odd p; resol_products.h): the internal degree t of class k, or -1
 * when it does not act (or k is outside 0..30, or h is not done). */
int32_t adams_filt1_degree(const adams_res_t *h, int k);
/* Its name ("h0", "a0", ...) into buf (n bytes, n >= 8); "" when k is
 * outside 0..30 or h is not done. */
void adams_filt1_name(const adams_res_t *h, int k, char *buf, size_t n);

/* out = c_k x for the class x (xlen coefficients) at (n, s): the target is
 * (n + t_k - 1, s + 1), t_k = adams_filt1_degree; outlen must be its Ext
 * dimension.  Returns 0 or ADAMS_E_INPUT (k does not act, a bidegree
 * outside the region, a length or coefficient wrong), ADAMS_E_STATE. */
int adams_filt1_product(const adams_res_t *h, int k, int32_t n, int32_t s, const int32_t *x,
                        int64_t xlen, int32_t *out, int64_t outlen, char *err, size_t errlen);

/* dim Ext^{s, s+n}(S_p) of the sphere at h's prime, resolving the sphere
 * through (n, s) when h does not hold it that far (kept in h for later
 * products; on h's threads).  Returns the dimension (>= 0), or a negative
 * ADAMS_E_* code with a message (a negative stem or filtration, a region
 * refused by the estimate). */
int64_t adams_sphere_dim(adams_res_t *h, int32_t n, int32_t s, char *err, size_t errlen);

/* The Yoneda product out = y . x of the class x at (n, s) of Ext(M) and
 * the class y at (n2, s2) of Ext(S_p) (resol_product): out at (n + n2,
 * s + s2), outlen its Ext dimension (that bidegree must lie in h's
 * region).  Resolves the sphere as adams_sphere_dim.  Returns 0,
 * ADAMS_E_INPUT, ADAMS_E_MEMORY, ADAMS_E_STATE. */
int adams_product(adams_res_t *h, int32_t n, int32_t s, const int32_t *x, int64_t xlen,
                  int32_t n2, int32_t s2, const int32_t *y, int64_t ylen, int32_t *out,
                  int64_t outlen, char *err, size_t errlen);

/* The Massey product <a, b, c> (resol_massey, conventions in
 * resol_products.h): a at (na, sa) and b at (nb, sb) classes of Ext(S_p),
 * sa, sb >= 1, c at (nc, sc) of Ext(M), with a b = 0 and b c = 0.  out (outlen
 * = the Ext dimension d of the target (na + nb + nc + 1, sa + sb + sc - 1),
 * which must lie in h's region, as must (nb + nc, sb + sc)) receives a
 * representative; ind (ind_cap >= d * d entries, or NULL with ind_cap 0)
 * receives a basis of the indeterminacy, *ind_rows rows of d entries
 * (ind_rows may be NULL).  Returns 0, ADAMS_E_INPUT (also: a b or b c is
 * not zero: "not defined"), ADAMS_E_MEMORY, ADAMS_E_STATE. */
int adams_massey(adams_res_t *h, int32_t na, int32_t sa, const int32_t *a, int64_t alen,
                 int32_t nb, int32_t sb, const int32_t *b, int64_t blen, int32_t nc, int32_t sc,
                 const int32_t *c, int64_t clen, int32_t *out, int64_t outlen, int32_t *ind,
                 int64_t ind_cap, int64_t *ind_rows, char *err, size_t errlen);

/* The SVG chart of the whole region (sq_chart_write_svg), in a new buffer
 * *buf of *len bytes plus a NUL (free with adams_free_buffer).  Returns 0,
 * ADAMS_E_STATE, or ADAMS_E_STORE when the buffer could not be written. */
int adams_svg(const adams_res_t *h, char **buf, size_t *len, char *err, size_t errlen);

/* Frees a buffer from adams_svg; NULL is a no-op. */
void adams_free_buffer(char *buf);

#ifdef __cplusplus
}
#endif

#endif /* ADAMS_API_H */
