/*
 * cli.h -- shared helpers of the adams command-line program.
 */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>

/* Exit codes: 0 success, 1 runtime failure (I/O), 2 bad usage or input. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Prints "adams: <message>" on stderr (one line). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a decimal integer in [lo, hi] for option `opt`; on failure prints
 * a one-line error and returns -1, else 0. */
int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out);

/* The verbs. */
int cmd_resolve(int argc, char **argv);
/* `adams modules`: lists the shipped module files (cmd_modules.c). */
int cmd_modules(int argc, char **argv);

#endif /* CLI_H */
