/*
 * test_modules.h -- small finite modules built in test code from the action
 * of Sq^{2^k} on basis elements.
 */
#ifndef TEST_MODULES_H
#define TEST_MODULES_H

#include "fdmod.h"

/* One action "Sq^op x_from = x_to" between basis elements numbered in the
 * order of `degrees` (several entries with the same `from` and `op` add). */
typedef struct {
    int op, from, to;
} test_action_t;

/* Builds the module with basis x_i in degree degrees[i] (i < n, degrees
 * nondecreasing) and the given actions, completed by fdmod_complete (the
 * test fails if that reports an error). */
fdmod_t *test_module(const char *name, const int *degrees, int n, const test_action_t *acts,
                     int nacts);

/* The shipped module modules/NAME.json at its prime (the test fails if it
 * does not load). */
fdmod_t *test_module_shipped(const char *name);

fdmod_t *test_module_C2(void);     /* cells 0, 1; Sq1 */
fdmod_t *test_module_Ceta(void);   /* cells 0, 2; Sq2 */
fdmod_t *test_module_Cnu(void);    /* cells 0, 4; Sq4 */
fdmod_t *test_module_Csigma(void); /* cells 0, 8; Sq8 */
fdmod_t *test_module_Joker(void);  /* cells 0..4 */
fdmod_t *test_module_RP4(void);    /* cells 1..4 of real projective space */

#endif
