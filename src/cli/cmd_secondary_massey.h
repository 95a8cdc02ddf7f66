/*
 * cmd_secondary_massey.h -- `adams massey --secondary`: Massey products in
 * Mod_{C lambda^2} in the peer's `secondary_massey` format
 * (cmd_secondary_massey.c; docs/secondary.md).
 */
#ifndef CMD_SECONDARY_MASSEY_H
#define CMD_SECONDARY_MASSEY_H

#include "cli_opts.h"

/* `adams massey [MODULE] --secondary --a N,S,V[/W] --b N,S,V[/W] --stem N
 * [--max-s S]`: <a, b, y> for every y of the sphere in the region (a of
 * Ext(MODULE), b of the sphere, W the lambda parts); the options it cannot
 * honour refused in one line.  Returns the exit code. */
int cli_massey_secondary(const cli_opts_t *o);

#endif /* CMD_SECONDARY_MASSEY_H */
