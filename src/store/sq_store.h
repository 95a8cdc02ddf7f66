/*
 * sq_store.h -- the store: one resolution run kept in an SQLite database,
 * so that a run resumes after a kill, extends to a larger region, and its
 * E2 page is read back without computing.  The file format is specified in
 * docs/save-format.md; this header is its library side.
 *
 * A saving run (what `adams resolve --save FILE` does):
 *
 *     sq_store_t *st;
 *     sq_store_binding_t b = {.module = M, .module_name = "S_2", .engine = algo,
 *                             .max_s = S, .max_n = N};
 *     rc = sq_store_open(&st, path, &b, err, sizeof err);   // refused: one line in err
 *     algo = sq_store_engine(st);                            // auto -> the store's engine
 *     R = resol_new(M, S, N);
 *     sq_store_signals_install(R);                           // optional: SIGINT/SIGTERM
 *     rc = sq_store_run(st, R, pool, progress_observer_or_NULL, 0, &res, stderr,
 *                       err, sizeof err);                    // 0 done, 1 stopped, < 0 error
 *     sq_store_signals_restore();
 *     ... print the chart from R when rc == 0 ...
 *     sq_store_close(st);
 *
 * or the pieces sq_store_run is made of: sq_store_load, sq_store_begin (an
 * observer for resol_run_pool whose single writer thread commits finished
 * steps in group commits), resol_run_pool, sq_store_finish.
 *
 * Reading: sq_store_open_read, then sq_store_info, sq_store_read_ext (the E2
 * page, checksums verified), sq_store_read_step (one bidegree's
 * differentials), sq_store_check (`adams check`).
 *
 * Errors: functions return 0 or a negative code -- SQ_E_IO (the file could
 * not be created, read or written: missing or read-only directory, disk
 * full, ...), SQ_E_INVAL (bad arguments), or one of the SQ_STORE_E_* below
 * -- and write a one-line message (no "adams: " prefix, no newline) naming
 * the file and the cause into err (errlen bytes; err may be NULL).
 * sq_store_strerror names every code.
 *
 * Threads: a store is used by one thread at a time, except that while a
 * run is between sq_store_begin and sq_store_finish its observer may be
 * called from any pool thread (it only queues).  Several processes may
 * read a store; only one may write it (an exclusive flock, held from
 * sq_store_open to sq_store_close).
 */
#ifndef SQ_STORE_H
#define SQ_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_core.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The store format this library writes for a stable resolution
 * (docs/save-format.md): 3 records the prime and keeps resolutions at
 * every prime (p = 2 rows as in format 2, odd-prime rows one residue a
 * byte).  It reads formats 1 to SQ_STORE_FORMAT_MAX; a format-2 store
 * (p = 2) is resumed and extended in place and stays format 2 (its rows
 * are those format 3 writes at p = 2). */
#define SQ_STORE_FORMAT 3
#define SQ_STORE_FORMAT_TEXT "3"
/* The format of a store of an unstable resolution (resol_new_unstable):
 * format 3 with the required metadata key `category` = `unstable`, so that
 * an adams that reads formats 1 to 3 refuses it rather than read its rows
 * as a stable resolution's.  SQ_STORE_FORMAT_MAX: the highest format this
 * library reads. */
#define SQ_STORE_FORMAT_UNSTABLE 4
#define SQ_STORE_FORMAT_UNSTABLE_TEXT "4"
#define SQ_STORE_FORMAT_MAX 4

/* Error codes of the store, besides SQ_E_IO and SQ_E_INVAL. */
enum {
    SQ_STORE_E_DAMAGED = -100, /* a record fails its checksum or is inconsistent, or SQLite
                                * reports the file malformed */
    SQ_STORE_E_BUSY = -101,    /* another process is writing the store */
    SQ_STORE_E_BINDING = -102, /* the store is for another module, prime, profile or engine */
    SQ_STORE_E_FORMAT = -103,  /* not an adams store, or a format this program does not read */
    SQ_STORE_E_MISSING = -104  /* a step the caller asked for is not in the store */
};

/* A description of code (the SQ_STORE_E_* above or any SQ_E_*). */
const char *sq_store_strerror(int code);

typedef struct sq_store sq_store_t;

/* What a run binds a store to (docs/save-format.md section 3). */
typedef struct {
    const fdmod_t *module;   /* the module resolved, at any prime (borrowed; only read during
                              * open) */
    const char *module_name; /* its name for messages and the metadata; NULL: fdmod_name */
    const char *module_text; /* its identity; NULL: sq_store_module_text(module).  Give the
                              * canonical text of the module's definition for a module
                              * truncated from an infinite one, whose truncation grows with
                              * the stem (section 3 of the format) */
    resol_algo_t engine;     /* RESOL_CLASSICAL, RESOL_NASSAU, or RESOL_AUTO: the store's engine,
                              * or for a new store resol_auto_engine(module, max_n) */
    int32_t max_s, max_n;    /* the region of the run (recorded as `region`) */
    int unstable;            /* 1: the run is an unstable resolution (resol_new_unstable, the
                              * classical engine); its store has format 4 and category
                              * `unstable`, and a stable run is refused by it (and the reverse) */
} sq_store_binding_t;

/* Opens the store at path for a run, creating it when the file does not
 * exist, and takes the single-writer lock.  An existing store must have the
 * same category (stable or unstable: b->unstable), prime, profile, module
 * text and engine as b (engine RESOL_AUTO takes the store's); otherwise
 * SQ_STORE_E_BINDING with one line naming both.
 * Sets the metadata `region` to b's region.  Also refused: another process
 * writing it (SQ_STORE_E_BUSY), a file that is not a store or has a newer
 * format (SQ_STORE_E_FORMAT), damaged metadata (SQ_STORE_E_DAMAGED), a
 * missing or read-only directory, a read-only file (SQ_E_IO).  On success
 * *out is the store (sq_store_close frees it); on failure *out is NULL and
 * nothing was created or changed. */
int sq_store_open(sq_store_t **out, const char *path, const sq_store_binding_t *b, char *err,
                  size_t errlen) SQ_WARN_UNUSED;

/* Opens an existing store for reading only (no lock, nothing written;
 * works while another process writes it).  Checks the magic, the format
 * and every metadata checksum. */
int sq_store_open_read(sq_store_t **out, const char *path, char *err, size_t errlen) SQ_WARN_UNUSED;

/* Closes the store: stops a writer still running (committing what it has,
 * as sq_store_finish), checkpoints the WAL back into the file (a finished
 * store is one self-contained file), releases the lock.  NULL is a no-op. */
void sq_store_close(sq_store_t *st);

/* The engine of the store (never RESOL_AUTO). */
resol_algo_t sq_store_engine(const sq_store_t *st);
/* The path the store was opened with. */
const char *sq_store_path(const sq_store_t *st);

/* The store's module identity: its canonical text (sq_store_module_text)
 * or the text its first writer gave; borrowed from st. */
const char *sq_store_stored_module_text(const sq_store_t *st);

/* What a store holds, from its metadata and the step table. */
typedef struct {
    int format;                  /* the store's format: 1, 2, SQ_STORE_FORMAT or
                                  * SQ_STORE_FORMAT_UNSTABLE */
    uint32_t prime;              /* 2, or an odd prime (format 3) */
    resol_algo_t engine;         /* RESOL_CLASSICAL or RESOL_NASSAU */
    int32_t bottom;              /* bottom degree of the module (lowest stem) */
    int32_t region_s, region_n;  /* region of the latest run that wrote */
    int32_t done_s, done_n;      /* region of the latest run that completed; -1, -1: none */
    int64_t steps;               /* rows of the step table */
    int64_t generators;          /* sum of their generator counts */
    int64_t payload_bytes;       /* vectors, uncompressed */
    int64_t stored_bytes;        /* vectors as stored (compressed where it paid) */
    int64_t file_bytes;          /* size of the database file (without a WAL) */
    char module_name[256];
    char module_hash[17];        /* 16 hex digits */
    char profile[128];           /* "[]" or e.g. "[3,2,1]" */
    char program[64];            /* the program that last opened it for writing */
    int unstable;                /* 1: an unstable resolution (category `unstable`, format 4) */
} sq_store_info_t;

/* Fills *info.  Returns 0 or an error (SQ_E_IO, SQ_STORE_E_DAMAGED). */
int sq_store_info(sq_store_t *st, sq_store_info_t *info, char *err, size_t errlen) SQ_WARN_UNUSED;

/* ---- Running -------------------------------------------------------------- */

/* What sq_store_load did. */
typedef struct {
    int64_t loaded;          /* steps published into R */
    int64_t dropped;         /* stored steps of R's region not loaded: a step they depend on is
                              * missing or damaged (they are recomputed) */
    int64_t damaged;         /* stored steps that failed their checks (only with SQ_STORE_REPAIR) */
    int32_t damaged_s, damaged_t; /* the first damaged one, or -1 */
} sq_store_load_stats_t;

/* Flags of sq_store_load. */
enum {
    SQ_STORE_REPAIR = 1 /* a damaged step is dropped with a warning and recomputed, with every
                         * step after it that depends on it, instead of being an error */
};

/* Loads every stored step of R's region into R (resol_load_step), in
 * increasing (t, s) order, each checked first (checksum, lengths, padding,
 * vector size); a step whose load predecessors are missing is skipped (and
 * will be recomputed by the run).  R must be new (nothing run) and resolve
 * the store's module, unstable (resol_is_unstable) exactly when the store
 * is (else SQ_STORE_E_BINDING, nothing loaded).  Without SQ_STORE_REPAIR a damaged step is an error
 * (SQ_STORE_E_DAMAGED) naming its bidegree, and R then holds the steps
 * before it; with it, warnings go to warn (may be NULL).  stats may be
 * NULL.  Cost: reads and decompresses the region's rows once. */
int sq_store_load(sq_store_t *st, resol_t *R, int flags, FILE *warn, sq_store_load_stats_t *stats,
                  char *err, size_t errlen) SQ_WARN_UNUSED;

/* Starts the writer for a run of R (R borrowed until sq_store_finish) and
 * writes into *obs the observer to give resol_run_pool: it queues every
 * finished step of the region (not the kernel-only steps at stem
 * max_n + 1), then calls next (may be NULL; e.g. the progress line).  One
 * writer thread commits the queued steps in group commits (one transaction
 * per batch of steps finished while the previous one was written, in
 * finishing order).  A write error is sticky: the writer rolls back, calls
 * resol_request_stop(R) and keeps the error for sq_store_finish.  Returns 0,
 * SQ_E_INVAL (a read-only store, or a writer already running), or
 * SQ_E_NOTHREAD. */
int sq_store_begin(sq_store_t *st, resol_t *R, const resol_observer_t *next,
                   resol_observer_t *obs) SQ_WARN_UNUSED;

/* Waits until the writer has committed every queued step, stops it, and
 * records the run's region as `done` when every step of it is published
 * and stored.  Returns 0 or the writer's error (message in err).  Call it
 * after resol_run_pool returns, before R is freed. */
int sq_store_finish(sq_store_t *st, char *err, size_t errlen) SQ_WARN_UNUSED;

/* Steps committed by this process, and transactions used for them. */
int64_t sq_store_committed(const sq_store_t *st);
int64_t sq_store_commits(const sq_store_t *st);
/* CPU seconds used by the writer threads of this store so far (counted when
 * each stops, in sq_store_finish): the store's cost besides loading. */
double sq_store_writer_seconds(const sq_store_t *st);

/* What sq_store_run did. */
typedef struct {
    sq_store_load_stats_t load;
    int64_t computed;     /* steps committed by this run */
    int64_t total;        /* steps of the region (the kernel-only edge excluded) */
    int64_t stored;       /* steps of the region now in the store */
} sq_store_run_result_t;

/* The whole saving run: sq_store_load (with flags: SQ_STORE_REPAIR or 0), sq_store_begin,
 * resol_run_pool(R, sq_store_engine(st), pool, ...), sq_store_finish.
 * Returns 0 when the region is complete and stored, 1 when the run was
 * stopped (resol_request_stop: a signal) and everything that finished is
 * stored (rerun to resume), or a negative error (message in err; what was
 * committed stays valid).  res may be NULL. */
int sq_store_run(sq_store_t *st, resol_t *R, sq_pool_t *pool, const resol_observer_t *next,
                 int flags, sq_store_run_result_t *res, FILE *warn, char *err,
                 size_t errlen) SQ_WARN_UNUSED;

/* ---- Signals -------------------------------------------------------------- */

/* Installs SIGINT and SIGTERM handlers for a run of R: the first signal
 * calls resol_request_stop(R) (the steps in flight finish and are
 * committed, then sq_store_run returns 1); a second signal ends the process
 * at once with status 128 + signal, after one line on stderr (the store
 * keeps every committed step).  Also ignores SIGXFSZ, so that a file size
 * limit (ulimit -f) is a write error the store reports, not a kill.
 * Returns 0, or SQ_E_INVAL if already installed or a disposition could not
 * be set (then nothing is changed).  Process-wide: one run at a time. */
int sq_store_signals_install(resol_t *R);
/* The first signal caught since sq_store_signals_install, or 0. */
int sq_store_signals_caught(void);
/* Restores the dispositions sq_store_signals_install replaced. */
void sq_store_signals_restore(void);

/* ---- Reading ---------------------------------------------------------------- */

/* The E2 page of the region s <= max_s, bottom <= n <= max_n from the
 * store, without computing: dims[(n - bottom) * (max_s + 1) + s] =
 * dim Ext^{s, s+n}.  Every row used is checked (its payload read and its
 * checksum verified).  Returns 0, SQ_STORE_E_MISSING naming the first
 * bidegree not in the store, SQ_STORE_E_DAMAGED naming a damaged one, or
 * SQ_E_IO. */
int sq_store_read_ext(sq_store_t *st, int32_t max_s, int32_t max_n, int64_t *dims, char *err,
                      size_t errlen) SQ_WARN_UNUSED;

/* Whether the store holds a row for every step of the region s <= max_s,
 * bottom <= n <= max_n (without checking them: sq_store_read_ext does).
 * Returns 0 when it does; SQ_STORE_E_MISSING, with *miss_s and *miss_n the
 * first cell without a row in (n, s) order and err naming it and the store;
 * or SQ_E_IO.  Cost: reads at most the rows stored, never sized by the
 * region asked. */
int sq_store_region_missing(sq_store_t *st, int32_t max_s, int32_t max_n, int32_t *miss_s,
                            int32_t *miss_n, char *err, size_t errlen) SQ_WARN_UNUSED;

/* One stored step: its generator count, the entries of each vector
 * (*nbits: bits at p = 2) and, when vecs is not NULL, the vectors in the
 * field's encoding of the store's prime (fmat.h): at p = 2 ngens *
 * f2_limbs(nbits) limbs in host order, at odd p ngens * nbits residue
 * bytes; allocated with sq_malloc (the caller sq_frees them), NULL when
 * there are none.  The layout is in docs/save-format.md section 4.
 * Returns 0, SQ_STORE_E_MISSING, SQ_STORE_E_DAMAGED or SQ_E_IO. */
int sq_store_read_step(sq_store_t *st, int32_t s, int32_t t, int64_t *ngens, int64_t *nbits,
                       void **vecs, char *err, size_t errlen) SQ_WARN_UNUSED;

/* ---- Checking (`adams check`) ---------------------------------------------- */

typedef struct {
    const fdmod_t *module; /* the store's module (borrowed); NULL: rebuilt from its text */
    int full;           /* minimality and exactness at every bidegree, not a sample */
    int spots;          /* bidegrees sampled otherwise (0: 24) */
    uint64_t seed;      /* of the sample (0: 17) */
    int threads;        /* for d o d and the reductions (0 or 1: one) */
    int t_range;        /* 1: d o d and minimality only for the degrees t_lo <= t <= t_hi
                         * (a slice of the check; the checksums are checked in full) */
    int32_t t_lo, t_hi;
    /* When module is NULL and the store's text is not a canonical module
     * text (a module truncated from an infinite one: its definition, given
     * by the program that wrote the store), this rebuilds the module from
     * the text, truncated for stems <= max_n: 0 with *out set, or an error
     * with err.  NULL: such a store gets its checksums checked only (and
     * the report's last line says so). */
    int (*module_for)(void *ctx, const char *text, const char *name, int32_t max_n,
                      fdmod_t **out, char *err, size_t errlen);
    void *module_ctx;
    /* Progress of d o d (NULL: none): called from the calling thread after
     * each degree t (of tmax) with the work done and in all, the generators
     * checked so far (every one of degree <= t) and the wrong among them. */
    void (*progress)(void *ctx, int64_t done, int64_t total, int32_t t, int32_t tmax,
                     int64_t checked, int64_t wrong);
    void *progress_ctx;
} sq_store_check_opts_t;

typedef struct {
    int64_t meta_damaged;    /* metadata rows failing their checksum (or missing keys) */
    int64_t steps;           /* rows of the step table */
    int64_t steps_damaged;   /* rows failing their checks */
    int64_t steps_unreachable; /* intact rows not loadable: a step they depend on is missing */
    int64_t generators;      /* generators loaded (checked below) */
    int64_t dd_checked, dd_failed;     /* generators with d(d(g)) computed; nonzero */
    int64_t spots_checked, spots_failed; /* bidegrees checked for minimality and exactness */
    int64_t spots_too_large; /* bidegrees left out of the sample: their matrices exceed 64 MB */
    int module_rebuilt;      /* 1 when the module could be rebuilt from its text (rows 0 and 1
                              * checked too), 0 when not (a caller-supplied text and no
                              * module_for): then only the checksums were checked */
    int sqlite_ok;           /* PRAGMA quick_check said ok */
    int64_t sec_damaged;     /* secondary rows and records (sq_store_secondary.h) damaged */
    int64_t sec_d2_failed;   /* cells where the kept d_2 d_2 is not zero */
} sq_store_check_report_t;

/* Verifies a store: SQLite's quick_check, the checksum of every metadata
 * and step row, that the steps connect (each one's load predecessors are
 * present), d o d = 0 on every stored generator (d_{s-1}(d_s(g)) computed
 * from the stored differentials; d_0 d_1 through o->module or the module
 * rebuilt from its canonical text), and, at a sample of bidegrees (every one with
 * full), minimality and exactness: the new generators' images are
 * independent modulo the image of the older ones and together they span
 * ker d_{s-1} (onto M_t in row 0); a kept secondary lift as
 * sq_store_sec_check says.  Writes one line per finding, then a
 * summary, to out (may be NULL).  Returns 0 when all is well,
 * SQ_STORE_E_DAMAGED when anything failed (rep says what), or SQ_E_IO.
 * Cost: about that of computing the stored region once, with the classical
 * engine at the sampled bidegrees. */
int sq_store_check(sq_store_t *st, const sq_store_check_opts_t *o, FILE *out,
                   sq_store_check_report_t *rep, char *err, size_t errlen) SQ_WARN_UNUSED;

/* ---- The module's identity -------------------------------------------------- */

/* The canonical JSON text of M at its prime (docs/save-format.md section
 * 3): its degrees and the action of the Milnor primitives of its algebra
 * (at odd p the Q_i and the P(0, ..., p^j), coefficients included).  Two
 * modules with the same text are the same module.  Returns a new string
 * (sq_free).  Cost: one Milnor basis of degree top - bottom and one
 * look-up per (primitive, basis element). */
char *sq_store_module_text(const fdmod_t *M);

/* The module described by a canonical text, rebuilt (named `name`), when
 * its algebra is generated by its generators (Sq^{2^k} at p = 2, beta and
 * the P^{p^k} at odd p: the whole algebra, A(n), ...) and the text is
 * canonical; *out = NULL otherwise.  Returns 0 or SQ_E_PARSE (err says
 * why). */
int sq_store_module_from_text(fdmod_t **out, const char *text, const char *name, char *err,
                              size_t errlen) SQ_WARN_UNUSED;

/* ---- Test hooks -------------------------------------------------------------- */

/* Makes the writer of this process kill itself (SIGKILL) at its k-th
 * transaction (1-based; 0 disables): phase 0 after the batch's rows are
 * inserted and before COMMIT, phase 1 just after COMMIT returned.  For
 * the kill tests; call before sq_store_begin. */
void sq_store_test_kill_at(int64_t k, int phase);

#ifdef __cplusplus
}
#endif

#endif /* SQ_STORE_H */
