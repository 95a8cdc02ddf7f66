/*
 * cmd_secondary_prod.h -- `adams product --secondary`: products in
 * Mod_{C lambda^2} in the peer's `secondary_product` format
 * (cmd_secondary_prod.c; docs/secondary.md).
 */
#ifndef CMD_SECONDARY_PROD_H
#define CMD_SECONDARY_PROD_H

#include "cli_opts.h"

/* `adams product [MODULE] --secondary --class N,S,V --stem N [--max-s S]`:
 * the secondary product of the class with every class of the sphere in
 * the region; the options it cannot honour refused in one line.  Returns
 * the exit code. */
int cli_product_secondary(const cli_opts_t *o);

#endif /* CMD_SECONDARY_PROD_H */
