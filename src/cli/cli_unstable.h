/*
 * cli_unstable.h -- what the verbs of the unstable category share
 * (cli_unstable.c): the name S^n, and the checks of a module before an
 * unstable resolution (docs/unstable.md, docs/cli.md).
 */
#ifndef CLI_UNSTABLE_H
#define CLI_UNSTABLE_H

#include <stddef.h>

#include "cli_run.h"

/* Whether name is "S^n" (the unstable sphere, 0 <= n <= 10000): 1 with
 * the module spec "S_2[n]" in buf (n bytes), 0 when it is another name,
 * or -1 after one line (a malformed S^...; the caller exits CLI_USAGE). */
int cli_unstable_sphere(const char *verb, const char *name, char *buf, size_t n);

/* Refuses (one line, CLI_USAGE) a prepared module that cannot be resolved
 * in the unstable category: the cofiber of a class (as the peer), a
 * module at an odd prime, over a subalgebra, in negative degrees, or not
 * unstable (naming the class and the operation).  On CLI_OK sets
 * r->unstable and the classical engine. */
int cli_unstable_prepare(cli_run_t *r);

#endif /* CLI_UNSTABLE_H */
