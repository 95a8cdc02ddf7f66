/*
 * sq_pmodspec.h -- the chart driver of odd primes, presol_cli_resolve.  The
 * module files of every prime are read by the one reader, sq_modspec.h
 * (sq_modspec_load_module; sq_modspec_load_file_odd when a pfdmod_t is
 * needed; sq_modspec_file_prime for the file's "p"); docs/odd-primes.md
 * lists the keys at odd primes.  This header goes when the odd-prime
 * resolution folds into resol (docs/architecture.md, step 5).
 */
#ifndef SQ_PMODSPEC_H
#define SQ_PMODSPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pfdmod.h"
#include "sq_core.h"
#include "sq_modspec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The driver for the program: loads the odd-prime module file at path,
 * resolves it (or its cofiber, when the file has "cofiber") with the
 * classical engine through stem `stem` and filtration max_s on one thread,
 * and writes to out what sq_chart.h writes for p = 2: with csv, one line
 * "n,s,dim" per cell, n-major then s, stems bottom..stem, s 0..max_s; else
 * the dot chart (rows s = max_s .. 0, two characters per stem, then an
 * empty line).  Warnings go to stderr.  Returns 0, or a negative SQ_E_* code
 * with a one-line message in err (loading, range, write errors); nothing is
 * written to out on error. */
int presol_cli_resolve(const char *path, int32_t stem, int32_t max_s, int csv, FILE *out,
                       char *err, size_t errlen) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* SQ_PMODSPEC_H */
