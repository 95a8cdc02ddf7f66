/*
 * cmd_d2.h -- `adams d2`: the Adams d_2 by the secondary Steenrod algebra
 * (cmd_d2.c; docs/secondary.md).
 */
#ifndef CMD_D2_H
#define CMD_D2_H

/* `adams d2 [MODULE] --stem N [--max-s S]`: the peer's `secondary` lines. */
int cmd_d2(int argc, char **argv);

#endif /* CMD_D2_H */
