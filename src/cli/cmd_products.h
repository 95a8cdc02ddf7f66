/*
 * cmd_products.h -- the verbs products, product and massey (cmd_products.c).
 */
#ifndef CMD_PRODUCTS_H
#define CMD_PRODUCTS_H

/* `adams products`: the filtration-one products in the peer's format. */
int cmd_products(int argc, char **argv);
/* `adams product`: a class of Ext(MODULE) times a class of Ext(S_2). */
int cmd_product(int argc, char **argv);
/* `adams massey`: the Massey product <a, b, c> with its indeterminacy. */
int cmd_massey(int argc, char **argv);

#endif /* CMD_PRODUCTS_H */
