/*
 * cmd_tensor.h -- `adams tensor M N [--stem N] [-o FILE]`: the module file of
 * the tensor product M ⊗ N (docs/cli.md, docs/modules.md "Tensor products"),
 * and `adams dual N [-o FILE]`: that of the dual DN ("Duals").
 */
#ifndef CMD_TENSOR_H
#define CMD_TENSOR_H

/* The verb: writes the module file of M ⊗ N to stdout or -o FILE.  Exit
 * status as docs/cli.md: 0, 1 (a write failed), 2 (bad input: a module not
 * found or not loadable, two primes, incomparable profiles, a cofiber, an
 * infinite factor without --stem, a product beyond the limits; nothing is
 * written). */
int cmd_tensor(int argc, char **argv);

/* `adams dual N [-o FILE]`: the module file of the dual DN (fdmod_dual.h)
 * to stdout or -o FILE.  Exit status 0, 1 (a write failed), 2 (a module
 * not found or not loadable, infinite, or a cofiber; nothing written). */
int cmd_dual(int argc, char **argv);

#endif /* CMD_TENSOR_H */
