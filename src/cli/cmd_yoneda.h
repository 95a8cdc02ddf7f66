/*
 * cmd_yoneda.h -- the verb yoneda (cmd_yoneda.c).
 */
#ifndef CMD_YONEDA_H
#define CMD_YONEDA_H

/* `adams yoneda [MODULE] --class N,S,V [-o DIR]`: a Yoneda representative
 * of a class of Ext(MODULE) as module files and map files. */
int cmd_yoneda(int argc, char **argv);

#endif /* CMD_YONEDA_H */
