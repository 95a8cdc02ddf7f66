/*
 * cmd_sq0.h -- the verbs of the algebraic Steenrod operations and the
 * algebraic Mahowald invariant on Ext of the sphere (docs/steenrod.md):
 * sq0 and steenrod (cmd_sq0.c), mahowald (cmd_mahowald.c).
 */
#ifndef CMD_SQ0_H
#define CMD_SQ0_H

#include "cli_run.h"

/* `adams sq0`: Sq^0 on every class of Ext of S_2 (the peer's sq0 lines). */
int cmd_sq0(int argc, char **argv);
/* `adams steenrod`: Sq^i on the classes of Ext of S_2 (the peer's lines). */
int cmd_steenrod(int argc, char **argv);
/* `adams mahowald`: algebraic Mahowald invariants (the peer's lines). */
int cmd_mahowald(int argc, char **argv);

/* Refuses (one line naming the module and what it is, CLI_USAGE) a prepared
 * run whose module is not the sphere S_2 over the whole algebra: the
 * operations of these verbs are computed for S_2 only.  Returns CLI_OK or
 * CLI_USAGE. */
int cli_require_sphere2(const cli_run_t *r);

/* A progress line on stderr (only when r->show, the rule of the resolution's
 * line): "adams: VERB: WHAT i+1 of n", redrawn in place; i >= n clears it. */
void cli_sphere2_progress(const cli_run_t *r, const char *what, int64_t i, int64_t n);

/* cli_run_prepare for a verb on S_2 only: prepares the run on the operand
 * (default S_2) through (stem, max_s) (max_s < 0: the default) without a
 * note, refuses a module that is not S_2 (cli_require_sphere2: its one
 * line is all that is said), then says the notes and sets the progress
 * line as cli_run_prepare would.  Returns CLI_OK or the exit code; *r
 * needs cli_run_release either way. */
int cli_sphere2_prepare(cli_run_t *r, const cli_opts_t *o, int64_t stem, int64_t max_s);

/* cli_run_verb for a verb on S_2 only: parses argv for verb, prepares the
 * run on the operand (default S_2) through --stem and --max-s, refuses a
 * module that is not S_2 (cli_require_sphere2) before any note, says the
 * notes, calls body(r) and releases the run.  Returns the exit code. */
int cli_sphere2_verb(const cli_verb_t *verb, int argc, char **argv, int (*body)(cli_run_t *r));

#endif /* CMD_SQ0_H */
