/*
 * cmd_suspension.h -- `adams suspension`: the suspension maps of unstable
 * Ext (cmd_suspension.c, docs/unstable.md).
 */
#ifndef CMD_SUSPENSION_H
#define CMD_SUSPENSION_H

/* The verb; returns the exit code. */
int cmd_suspension(int argc, char **argv);

#endif /* CMD_SUSPENSION_H */
