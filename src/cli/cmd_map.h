/*
 * cmd_map.h -- the verb map (cmd_map.c).
 */
#ifndef CMD_MAP_H
#define CMD_MAP_H

/* `adams map --map FILE --stem N`: the map on Ext induced by a module map. */
int cmd_map(int argc, char **argv);

#endif /* CMD_MAP_H */
