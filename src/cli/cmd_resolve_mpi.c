/*
 * cmd_resolve_mpi.c -- `adams resolve --mpi` (cli_mpi.h, docs/mpi.md): the
 * ranks agree on the run, rank 0 runs resolve's own body with the
 * coordinator of src/mpi attached to its resolution, the other ranks serve
 * steps.
 */
#include <signal.h>
#include <stdlib.h>

#include "cli.h"
#include "cli_mpi.h"
#include "cli_run.h"
#include "resol.h"
#include "sq_core.h"
#include "sq_mpi.h"

/* The rank the launcher gives this process before MPI starts (Open MPI,
 * PMIx, MPICH, Slurm), or 0: a refusal before MPI is said by rank 0 only,
 * not once per rank. */
static int launcher_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return atoi(v);
    }
    return 0;
}

/* refuse's verdict on a rank other than the first: refused, said by rank 0. */
#define REFUSED_BY_RANK0 (-1)

/* What --mpi cannot do, said in one line (by the first rank); CLI_OK when
 * nothing, REFUSED_BY_RANK0 on the other ranks when refused. */
static int refuse(const cli_opts_t *o)
{
    if (launcher_rank() != 0) {
        int rc = sq_mpi_built() && !cli_given(o, CLI_OPT_GPU) && !o->coefficients;
        return rc ? CLI_OK : REFUSED_BY_RANK0; /* the first rank says why */
    }
    if (!sq_mpi_built()) {
        cli_error("resolve: --mpi: this adams was built without MPI (configure with "
                  "-DADAMS_MPI=ON; docs/mpi.md)");
        return CLI_USAGE;
    }
    if (cli_given(o, CLI_OPT_GPU) || o->coefficients) {
        cli_error("resolve: --mpi: %s", cli_given(o, CLI_OPT_GPU)
                      ? "--gpu runs in one process and is not distributed; omit one of them"
                      : "--coefficients computes Ext(M, N) after the resolution in one "
                        "process; omit one of them");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* What --mpi cannot do with the prepared module (whatever the number of
 * ranks): the cofiber of a class.  One line; CLI_OK when nothing. */
static int refuse_kind(const cli_run_t *r)
{
    if (!r->info.cofiber)
        return CLI_OK;
    cli_error("resolve: --mpi: %s is the cofiber of a class, resolved as two resolutions in one "
              "process; run it without --mpi",
              cli_str(r->ref.base));
    return CLI_USAGE;
}

/* Rank 0's resolution: its steps go to the workers; a signal stops it. */
static void attach_rank0(resol_t *R)
{
    sq_mpi_attach(R);
    sq_mpi_catch_signals(R);
}

int cli_mpi_stopped(void)
{
    int sig = sq_mpi_signal_caught(), fail = sq_mpi_failed();
    if (fail)
        return fail; /* the rank said its line */
    cli_error("resolve --mpi: stopped by signal %d (a rank ended, or the run was interrupted); "
              "nothing is kept without --save",
              sig);
    return 128 + (sig ? sig : SIGTERM);
}

/* Rank 0: prepares (one thread: it computes no step), refuses a cofiber,
 * tells the workers, and when every rank is ready runs body. */
static int run_rank0(const cli_opts_t *o, int (*body)(cli_run_t *r))
{
    cli_opts_t o0 = *o;
    o0.threads = 1;
    cli_run_t r;
    int rc = cli_run_prepare(&r, &o0, o->operand ? o->operand : "S_2", o->stem,
                             cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1, CLI_RUN_NO_NOTES);
    if (rc == CLI_OK)
        rc = refuse_kind(&r);
    if (sq_mpi_share(rc) == CLI_OK && (rc = sq_mpi_ready(CLI_OK)) == CLI_OK) {
        sq_mpi_set_depth((int)o->threads + 1);
        cli_set_attach(attach_rank0);
        rc = body(&r);
        cli_set_attach(NULL);
    }
    cli_run_release(&r);
    return sq_mpi_finish(rc);
}

/* A worker: waits for rank 0's verdict, prepares quietly (its own
 * failure, such as memory or threads on its machine, is its one line),
 * and serves steps. */
static int run_worker(const cli_opts_t *o)
{
    int rc = sq_mpi_share(CLI_OK);
    if (rc != CLI_OK)
        return sq_mpi_finish(rc); /* rank 0 said why */
    cli_opts_t ow = *o;
    ow.progress = -1;
    ow.threads = o->threads + 1; /* and the mailbox's (sq_mpi_serve) */
    cli_run_t r;
    int mine = cli_run_prepare(&r, &ow, o->operand ? o->operand : "S_2", o->stem,
                               cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1, CLI_RUN_QUIET);
    rc = sq_mpi_ready(mine);
    if (rc == CLI_OK) {
        resol_t *R = resol_new(r.M, r.max_s, r.stem);
        if (r.cache_budget >= 0)
            resol_set_cache_budget(R, r.cache_budget);
        rc = sq_mpi_serve(R, r.pool);
        resol_free(R);
    }
    cli_run_release(&r);
    return sq_mpi_finish(rc);
}

int cli_mpi_resolve(const cli_opts_t *o, int (*body)(cli_run_t *r))
{
    int rc = refuse(o);
    /* The other ranks of a refused run exit 0 and rank 0 exits 2 after its
     * line: a rank that exited nonzero first made mpirun abort rank 0,
     * sometimes before its line was out (a flaky refusal with no line). */
    if (rc == REFUSED_BY_RANK0)
        return CLI_OK;
    if (rc != CLI_OK)
        return rc;
    char err[256];
    if (sq_mpi_start(err, sizeof err)) {
        cli_error("resolve: --mpi: %s", err);
        return CLI_FAIL;
    }
    if (sq_mpi_size() == 1) { /* nothing to distribute: the threaded run */
        cli_run_t r;
        rc = cli_run_prepare(&r, o, o->operand ? o->operand : "S_2", o->stem,
                             cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1, CLI_RUN_NO_NOTES);
        if (rc == CLI_OK)
            rc = refuse_kind(&r);
        if (rc == CLI_OK)
            rc = body(&r);
        cli_run_release(&r);
        return sq_mpi_finish(rc);
    }
    return sq_mpi_rank() == 0 ? run_rank0(o, body) : run_worker(o);
}
