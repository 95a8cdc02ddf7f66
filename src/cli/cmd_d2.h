/*
 * cmd_d2.h -- `adams d2`: the Adams d_2 by the secondary Steenrod algebra
 * (cmd_d2.c; docs/secondary.md).
 */
#ifndef CMD_D2_H
#define CMD_D2_H

/* `adams d2 [MODULE] --stem N [--max-s S]`: the peer's `secondary` lines. */
int cmd_d2(int argc, char **argv);

#include "cli_opts.h"

/* `adams resolve --page 3`: the E_3 dimensions (the chart or the csv of
 * --format) through --stem and --max-s, the resolution run two filtrations
 * and one stem further; --save, --coefficients, --mpi, --gpu and --format
 * differentials refused in one line.  Returns the exit code. */
int cli_resolve_page3(const cli_opts_t *o);

#include "cli_run.h"
#include "resol_secondary.h"

/* Prepares the run of o (its operand, --stem, --max-s) for a d_2 through
 * that region (the kinds d2 refuses refused; extra_n stems and extra_s
 * filtrations more resolved; filtration 3 and stem top - 1 at least);
 * *out_s the filtration asked.  Returns the exit code; r needs
 * cli_run_release either way. */
int cli_d2_prepare(cli_run_t *r, const cli_opts_t *o, int extra_n, int extra_s, int32_t *out_s);

/* The secondary lift of R (r's run), or NULL after one line (*rc the exit
 * code: a module refused by the condition CLI_USAGE). */
resol_sec_t *cli_d2_lift(const cli_run_t *r, const resol_t *R, int *rc);

#endif /* CMD_D2_H */
