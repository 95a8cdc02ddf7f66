/*
 * cli_run.h -- the one "prepare a run" path of every verb that computes or
 * reads a resolution (cli_run.c): resolve, products, product, massey and
 * chart, with or without --from.
 *
 * cli_run_prepare does, in this order and for every verb alike: find the
 * module and its prime, load it, refuse what the (verb, option, module
 * kind) cell does not implement (the audit table of docs/cli.md, one line
 * naming the option and the kind, CLI_USAGE), choose the engine, check the
 * region (CLI_USAGE), estimate its memory and refuse what cannot fit
 * (CLI_NOMEM, before anything large is allocated), set up the GPU, start
 * the worker threads (CLI_NOTHREAD), and fix the cache budget and the
 * progress line.  cli_from.h is the same for a resolution read from a
 * store.
 */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include <stdint.h>

#include "cli_module.h"
#include "cli_opts.h"
#include "fdmod.h"
#include "resol.h"
#include "sq_modspec.h"
#include "sq_pool.h"

/* The module kinds of the audit (docs/cli.md); a module may be several
 * (a shifted profile). */
typedef enum {
    CLI_KIND_FINITE,
    CLI_KIND_PRESENTED,
    CLI_KIND_PROJECTIVE,
    CLI_KIND_COFIBER,
    CLI_KIND_PROFILE,
    CLI_KIND_INF_PROFILE,
    CLI_KIND_ODD,
    CLI_KIND_SHIFTED,
    CLI_KIND_ADEM,
    CLI_KIND_COUNT
} cli_kind_t;

/* A prepared run.  Everything owned is released by cli_run_release. */
typedef struct {
    const cli_opts_t *o;
    cli_module_ref_t ref;
    uint32_t prime;
    uint32_t kinds;            /* CLI_BIT(kind) of every kind the module is */
    fdmod_t *M;                /* the module, at its prime (owned) */
    sq_modspec_info_t info;    /* what the loader found */
    int algo;                  /* the engine (RESOL_CLASSICAL at odd p) */
    int32_t stem, max_s;       /* the region */
    int32_t bottom;            /* the module's bottom degree */
    int default_max_s;         /* max_s was chosen, not given */
    int quiet;                 /* no notes */
    int show;                  /* draw the progress line */
    int64_t cache_budget;      /* for resol_set_cache_budget; < 0: the library's */
    double model_bytes;        /* the estimate's modelled peak (resol_cache_budget) */
    sq_pool_t *pool;           /* NULL: one thread */
    int gpu;                   /* sq_gpu_setup was called (sq_gpu_shutdown at release) */
    int unstable;              /* resolve in the unstable category (cli_unstable.h) */
} cli_run_t;

/* Flags of cli_run_prepare. */
enum {
    CLI_RUN_QUIET = 1,   /* no notes (a second resolution: the sphere of product/massey) */
    CLI_RUN_NO_NOTES = 2 /* the caller says the notes (cli_run_notes) itself, later */
};

/* Prepares a run of o->verb on the module named spec through (stem,
 * max_s) (max_s < 0: the default (stem - bottom)/2 + 3 + span, said on
 * stderr).  Returns CLI_OK with *r ready, or the exit code after one line
 * (CLI_USAGE, CLI_NOMEM, CLI_NOTHREAD); *r needs cli_run_release either
 * way. */
int cli_run_prepare(cli_run_t *r, const cli_opts_t *o, const char *spec, int64_t stem,
                    int64_t max_s, int flags);

/* The notes of a prepared run (the filtration chosen, the engine auto
 * chose), unless quiet; engine: whether to say the engine. */
void cli_run_notes(const cli_run_t *r, int engine);

/* Resolves the prepared module r->M (any prime) through r's region on r's
 * pool, with r's cache budget and progress line.  Returns the resolution
 * (the caller frees it). */
resol_t *cli_run_resolve(const cli_run_t *r);

/* A function every resolution of the program's runs is given right after
 * it is made (cli_run_resolve, the saving run of --save): resolve --mpi
 * attaches its coordinator (cmd_resolve_mpi.c).  NULL (the default): none.
 * cli_attach calls it on R. */
void cli_set_attach(void (*fn)(resol_t *R));
void cli_attach(resol_t *R);

/* Frees what r owns (module, pool) and shuts the GPU down if it was set
 * up.  Safe on a zeroed or half-prepared r. */
void cli_run_release(cli_run_t *r);

/* The whole of a verb that resolves one module (size, export): parses
 * argv for verb, calls check(o) (NULL: none; its nonzero exit code ends
 * the verb before anything is said), prepares the run on the operand
 * (default S_2) through --stem and --max-s (the default filtration when
 * not given), calls body(r) when it is ready, and releases the run.
 * Returns the exit code (body's, check's, the parser's or the
 * preparation's). */
int cli_run_verb(const cli_verb_t *verb, int argc, char **argv, int (*check)(const cli_opts_t *o),
                 int (*body)(cli_run_t *r));

/* "a module at the odd prime 3", "the cofiber of a class", ...: how
 * messages name kind k (p: the module's prime).  A static string (the
 * odd prime's is overwritten by the next call). */
const char *cli_kind_words(cli_kind_t k, uint32_t p);

/* The estimate of a resolution of M (any prime) with engine algo through
 * (max_s, stem) (resol_estimate) on o's threads, refused when it cannot
 * fit: the exact part above --max-memory (else the memory available), or
 * even a third of the modelled peak.  Says the estimate of a long run on
 * stderr unless quiet.  Returns 0 or CLI_NOMEM after one line. */
int cli_check_memory(const cli_opts_t *o, const fdmod_t *M, int algo, int32_t stem, int32_t max_s,
                     int quiet);

/* Refuses (one line, CLI_USAGE) an output file that is the same file as
 * one of the inputs (a store, a module file; NULL or "" skipped): writing
 * it would destroy the input.  Returns CLI_OK or CLI_USAGE. */
int cli_check_output(const char *out, const char *in1, const char *in2);

#endif /* CLI_RUN_H */
