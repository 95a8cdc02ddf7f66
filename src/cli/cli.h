/*
 * cli.h -- shared helpers of the adams command-line program (cli.c).
 *
 * Every message the program prints goes through cli_error or cli_note:
 * one line on stderr, "adams: ..." (errors) or "adams: note: ..." (notes),
 * with control characters shown as '?' whatever the strings quoted in it
 * (names from the command line or from files).  docs/cli.md lists the
 * exit codes, options, notes and environment variables.
 */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>

/* Exit codes (docs/cli.md): CLI_NOMEM when the region does not fit in
 * memory (the estimate refuses it, or an allocation failed), CLI_NOTHREAD
 * when worker threads could not be started; 5 is the GPU verify mode's
 * stop on a difference (SQ_GPU_VERIFY_EXIT). */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_NOMEM = 3, CLI_NOTHREAD = 4 };

/* Most worker threads --threads and ADAMS_THREADS accept. */
#define CLI_MAX_THREADS 4096
/* Longest string from the command line quoted in a message (longer ones
 * are cut and end in "..."). */
#define CLI_NAME_CLIP 256

/* Prints "adams: <message>" on stderr: one line (control characters in the
 * formatted message become '?'). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "adams: note: <message>" on stderr, one line as cli_error. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* s fit for quoting in a message: control characters as '?', cut to
 * CLI_NAME_CLIP bytes.  Returns one of four static buffers, reused in turn
 * (so up to four may appear in one message).  Not thread-safe. */
const char *cli_str(const char *s);

/* Parses a decimal integer in [lo, hi] for option `opt`; on failure prints
 * a one-line error and returns -1, else 0. */
int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out);

/* Parses a size in bytes for option `opt`: an integer or decimal with an
 * optional suffix K, M, G, T (powers of 1024; "8G", "500M", "1.5G").
 * Returns 0, or -1 after a one-line error. */
int cli_parse_size(const char *opt, const char *text, double *out);

/* Installs the program's handlers and test hooks, once, before any thread
 * starts: an allocation failure prints one line and exits CLI_NOMEM; the
 * environment variables ADAMS_FAULT_ALLOC_BYTES (allocations above that
 * many bytes fail) and ADAMS_FAULT_THREADS (creating the k-th worker
 * thread fails) exist for the tests of those paths (docs/cli.md). */
void cli_install_handlers(void);

/* Writes text (a help or version text) to stdout and flushes it.  Returns
 * CLI_OK, or CLI_FAIL after a one-line error when the write failed
 * ('adams --help >/dev/full'). */
int cli_write_stdout(const char *text);

/* Flushes stdout; returns CLI_OK, or CLI_FAIL after a one-line error
 * ("could not write the output: <why>"). */
int cli_finish_stdout(void);

/* The exit code once a writer of stdout returned wrc (an SQ_E_* code, 0
 * when it succeeded): stdout flushed; one line and CLI_FAIL when anything
 * failed ("could not write the output: Broken pipe", "... File too
 * large": the reason from errno when the system gave one). */
int cli_finish_output(int wrc);

/* Ignores SIGPIPE and SIGXFSZ, so that a write to a closed pipe or past
 * the file-size limit fails with EPIPE or EFBIG and ends in one line and
 * exit 1 (cli_finish_output) instead of killing the program silently. */
void cli_ignore_write_signals(void);

/* The verbs. */
int cmd_resolve(int argc, char **argv);
/* `adams modules`: lists the shipped module files (cmd_modules.c). */
int cmd_modules(int argc, char **argv);
/* `adams algebra`: the dimensions of A, A(n), a profile (cmd_algebra.c). */
int cmd_algebra(int argc, char **argv);
/* `adams size`: the dimension of each F_s by degree (cmd_size.c). */
int cmd_size(int argc, char **argv);
/* `adams export`, `adams import`: Bruner's format (cmd_export.c). */
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif /* CLI_H */
