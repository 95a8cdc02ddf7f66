/*
 * sq_bruner.h -- minimal resolutions in Bruner's format (the files
 * hDiff.0, hDiff.1, ... of his programs; docs/formats.md): written from a
 * resolution at p = 2 as the peer's save_bruner writes them, and read
 * back.
 */
#ifndef SQ_BRUNER_H
#define SQ_BRUNER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes R's region (stems <= max_n, 0 <= s <= max_s) into the directory
 * dir, which must exist: one file hDiff.s per s (docs/formats.md),
 * generators by degree, each d(x) by target generator (its index over all
 * degrees of F_{s-1}) and its Milnor basis elements "(r_1,...,r_k)"; for
 * s = 0 the augmentation, "j 0 1 i(0)." for each basis element j of the
 * module (numbered over all degrees) in d(x) -- the sphere's "0 0 1 i(0).".
 * Preconditions: R at p = 2 over the whole algebra, its input a finite
 * module, the region within R's.  Returns 0, or SQ_E_IO with a one-line
 * reason in err (a file that could not be written; files written before
 * stay). */
int sq_bruner_write(const char *dir, const resol_t *R, int32_t max_n, int32_t max_s, char *err,
                    size_t errlen);

/* A resolution read from Bruner's files. */
typedef struct sq_bruner sq_bruner_t;

/* Reads dir/hDiff.0, dir/hDiff.1, ... (up to the first missing one) into
 * *out.  Every field is checked: the header's count of generators, degrees
 * non-decreasing and within the header's largest degree, each term's
 * target generator (an index of F_{s-1} in degree t - op_deg), its
 * operation degree (>= 1 for s >= 1: a minimal resolution), the dimension
 * of A in that degree, and each Milnor basis element (of that degree).
 * Returns 0, or SQ_E_INVAL / SQ_E_IO with a one-line reason naming the
 * file and line in err (*out NULL).  Ownership: sq_bruner_free. */
int sq_bruner_read(sq_bruner_t **out, const char *dir, char *err, size_t errlen);

/* Frees B; NULL is a no-op. */
void sq_bruner_free(sq_bruner_t *B);

/* What the files hold: *max_s the largest s read (the number of files -
 * 1), *bottom the lowest degree of a generator of F_0, *max_n the largest
 * stem n such that every file covers the degrees t <= n + s (its header's
 * largest degree minus s, the least over the files). */
void sq_bruner_region(const sq_bruner_t *B, int32_t *bottom, int32_t *max_n, int32_t *max_s);

/* dim Ext^{s, s+n}: the number of generators of F_s in degree s + n (the
 * resolution is minimal); -1 outside 0..max_s.  An sq_ext_fn for the chart
 * writers (ctx is the sq_bruner_t). */
int64_t sq_bruner_ext_dim(const void *B, int32_t s, int32_t n);

/* Writes every d(x) with stem <= max_n and s <= max_s in the format of
 * sq_differentials_write (the same bytes for a resolution and its files).
 * Returns 0 or SQ_E_IO. */
int sq_bruner_write_differentials(FILE *f, const sq_bruner_t *B, int32_t max_n, int32_t max_s);

/* The change of basis between B's resolution of the sphere and R's, as the
 * peer's `bruner` example prints it: the identity of F_2 lifted to a chain
 * map f from B's resolution to R's (f_0 sends B's generator to x_(0,0,0);
 * f_s(b) is the lift through R's d_s of f_{s-1}(d b)), and for every
 * bidegree (stems 0..max_n ascending, then s = 0..max_s) and generator
 * x_(n,s,i) of R the line
 *     x_(n,s,i) = [c_0, c_1, ...]
 * after a first line "sseq_basis | bruner_basis": c_j the coefficient of
 * x_(n,s,i) in f_s(b_j), b_j the j-th generator of B in that bidegree.
 * Preconditions: R a resolution of the sphere S_2 through (max_s, max_n),
 * max_s and max_n within sq_bruner_region's.  Returns 0,
 * SQ_E_IO, or SQ_E_INVAL with a one-line reason in err when B is not a
 * resolution of the sphere (F_0 not one generator in degree 0, another
 * number of generators than R's in a bidegree, or a d(b) whose image is
 * not a boundary: d o d != 0). */
int sq_bruner_basis(FILE *f, const sq_bruner_t *B, const resol_t *R, int32_t max_n,
                    int32_t max_s, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SQ_BRUNER_H */
