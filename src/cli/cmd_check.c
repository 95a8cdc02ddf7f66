/*
 * cmd_check.c -- `adams check FILE`: verifies a store and says what it
 * found (argument parsing and printing only; the checks are
 * sq_store_check).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_from.h"
#include "cli_run.h"
#include "cmd_store.h"
#include "sq_core.h"
#include "sq_pool.h"
#include "sq_store.h"

static const char check_usage[] =
    "Usage: adams check FILE [options]\n"
    "\n"
    "Verifies FILE, a store written by 'adams resolve --save FILE', and says what it\n"
    "found, one line per finding:\n"
    "  - SQLite's structure (quick_check) and the checksum of every metadata and\n"
    "    step record (a damaged record is named by its bidegree);\n"
    "  - that every stored step can be used (the steps it depends on are there);\n"
    "  - d(d(g)) = 0 for every stored generator g, from the stored differentials;\n"
    "  - minimality and exactness at a sample of bidegrees: the new generators'\n"
    "    images are independent modulo the older ones' and span the cycles;\n"
    "  - a secondary lift kept by 'adams d2 --save': its records, d_2 d_2 = 0, and\n"
    "    the defining equation of the homotopies at a sample.\n"
    "\n"
    "Options:\n"
    "  --full               minimality and exactness at every bidegree\n"
    "  --spots K            bidegrees in the sample (default 24)\n"
    "  --seed N             seed of the sample (default 17)\n"
    "  --t-range LO:HI      d o d and minimality only in the degrees LO <= t <= HI\n"
    "                       (LO: or :HI: open at one end), a slice of a long check;\n"
    "                       the last line then says 'ok for the degrees t = LO..HI\n"
    "                       only'; slices that cover every degree verify the store\n"
    "  --threads K          worker threads (default: $ADAMS_THREADS, else all cores);\n"
    "                       the same lines for any K\n"
    "  --progress           show the progress of d o d on stderr even when it is not\n"
    "                       a terminal (then one line every 10 s)\n"
    "  --quiet              no progress\n"
    "  --max-memory SIZE    refuse (exit 3) a store whose resolution is estimated\n"
    "                       above SIZE (default: the memory available)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 if the store is sound; 1 if damage was found or the store could\n"
    "not be read; 2 on a bad argument; 3 when the store's resolution does not fit in\n"
    "memory; 4 when the threads cannot be started.\n";

static const cli_verb_t check_verb = {
    "check", check_usage,
    CLI_BIT(CLI_OPT_FULL) | CLI_BIT(CLI_OPT_SPOTS) | CLI_BIT(CLI_OPT_SEED) |
        CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_MAXMEM) | CLI_BIT(CLI_OPT_PROGRESS) |
        CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_TRANGE),
    NULL, "file"};

/* The progress of d o d on stderr: on a terminal one line redrawn at most
 * twice a second and cleared at the end, else a line every 10 s.  The work
 * is the products weighed by the length of what they multiply (a product
 * a * d(h) scans d(h)), so that the share and the ETA hold at large stems. */
typedef struct {
    int tty;
    double start, last;
} check_progress_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void check_progress(void *ctx, int64_t done, int64_t total, int32_t t, int32_t tmax,
                           int64_t checked, int64_t wrong)
{
    check_progress_t *p = ctx;
    double now = now_s();
    int end = t >= tmax;
    if (!end && now - p->last < (p->tty ? 0.5 : 10.0))
        return;
    p->last = now;
    if (p->tty && end) {
        fprintf(stderr, "\r%120s\r", "");
        return;
    }
    double f = total > 0 ? (double)done / (double)total : 1.0, el = now - p->start;
    char eta[48] = "";
    if (f > 0 && f < 1)
        snprintf(eta, sizeof eta, ", ETA %.0f s", el * (1 - f) / f);
    fprintf(stderr,
            "%scheck: d o d through t = %d of %d: %lld generators, %lld wrong; %.2f%% of the "
            "work, %.0f s%s%s",
            p->tty ? "\r" : "", (int)t, (int)tmax, (long long)checked, (long long)wrong,
            100.0 * f, el, eta, p->tty ? "" : "\n");
    fflush(stderr);
}

/* The check's threads can start: a pool of that many is created and freed
 * before sq_store_check makes its own (which cannot report a failure).
 * Returns 0, or CLI_NOTHREAD after one line. */
static int threads_can_start(int64_t threads)
{
    sq_pool_t *pool = NULL;
    if (threads <= 1)
        return 0;
    if (sq_pool_create(&pool, (int)threads) != 0) {
        cli_error("could not start %lld threads (--threads or ADAMS_THREADS; the system refused "
                  "to create more)",
                  (long long)threads);
        return CLI_NOTHREAD;
    }
    sq_pool_free(pool);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &check_verb, argc, argv, &rc))
        return rc;
    sq_store_check_opts_t co = {.full = cli_given(&o, CLI_OPT_FULL),
                                .spots = (int)o.spots,
                                .seed = (uint64_t)o.seed,
                                .threads = (int)o.threads,
                                .t_range = cli_given(&o, CLI_OPT_TRANGE),
                                .t_lo = (int32_t)o.t_lo,
                                .t_hi = (int32_t)o.t_hi};
    check_progress_t prog = {isatty(STDERR_FILENO), now_s(), now_s()};
    if (o.progress > 0 || (o.progress == 0 && prog.tty)) {
        co.progress = check_progress;
        co.progress_ctx = &prog;
    }
    if ((rc = threads_can_start(o.threads)))
        return rc;
    char err[1024];
    sq_store_t *st;
    rc = sq_store_open_read(&st, o.operand, err, sizeof err);
    if (rc) {
        if (rc == SQ_STORE_E_DAMAGED)
            printf("damaged: %s\nDAMAGED\n", err);
        cli_error("%s", err);
        return CLI_FAIL;
    }
    if ((rc = cli_store_check_memory(&o, st)) != 0) {
        sq_store_close(st);
        return rc;
    }
    sq_store_check_report_t rep;
    co.module_for = cli_store_module_for; /* infinite modules: rebuilt from their definition */
    rc = sq_store_check(st, &co, stdout, &rep, err, sizeof err);
    sq_store_close(st);
    if (cli_finish_stdout() != CLI_OK)
        return CLI_FAIL;
    if (rc) {
        cli_error("%s", err);
        return CLI_FAIL;
    }
    return CLI_OK;
}
