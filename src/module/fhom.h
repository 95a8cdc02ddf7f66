/*
 * fhom.h -- homomorphisms out of a free module: d : F -> T with T free, or
 * d : F -> M with M finite (the augmentation F_0 -> M).
 *
 * d is stored as the images of the generators of F (write-once).  The
 * image of a generator g of degree e is a bit vector over
 *   - T: the basis of T in degree e spanned by generators of degree < e
 *        (fmod_dim_below(T, e, e) bits: by minimality d(g) has no part on
 *        generators of degree e), or
 *   - M: the basis of M_e (fdmod_dim(M, e) bits).
 * Applying d to a basis element (Sq(R), g) multiplies Sq(R) into d(g).
 */
#ifndef FHOM_H
#define FHOM_H

#include <stdint.h>

#include "f2mat.h"
#include "fdmod.h"
#include "fmod.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fhom fhom_t;

/* d : src -> tgt between free modules (both borrowed; must outlive d). */
fhom_t *fhom_new_free(const fmod_t *src, const fmod_t *tgt);
/* d : src -> M, M finite (borrowed). */
fhom_t *fhom_new_fd(const fmod_t *src, const fdmod_t *M);
/* Frees d; NULL is a no-op. */
void fhom_free(fhom_t *d);

const fmod_t *fhom_source(const fhom_t *d);

/* Number of bits of the image vector of a generator of degree e. */
int64_t fhom_image_bits(const fhom_t *d, int32_t e);
/* Number of target coordinates in degree t reached from source generators
 * of degree < t: fmod_dim_below(T, t, t) for a free target, dim M_t for M. */
int64_t fhom_target_dim(const fhom_t *d, int32_t t);

/* Stores d(g) = vec (fhom_image_bits(d, deg g) bits, copied) for the
 * generator with global index g.  Each generator is set once. */
void fhom_set_image(fhom_t *d, int64_t g, const uint64_t *vec);
/* The stored image of generator g (read-only), and its bit count. */
const uint64_t *fhom_image(const fhom_t *d, int64_t g, int64_t *nbits);

/* Writes into rows row0, row0+1, ... of m, columns [0, fhom_target_dim(d,t)),
 * the images of the basis of the source in degree t spanned by generators
 * of degree < bound (fmod_dim_below(src, t, bound) rows, generator-major).
 * The rows are XORed into, so they should be zero.  m must have enough rows
 * and at least fhom_target_dim(d, t) columns.  Thread-safe for distinct m. */
void fhom_build_rows(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound);

/* Like fhom_build_rows, but only for the basis positions idx[0..n-1]
 * (strictly increasing, within that restricted basis): row row0 + i of m
 * gets the image of basis element idx[i]. */
void fhom_build_rows_subset(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                            const int64_t *idx, int64_t n);

/* fhom_build_rows (idx == NULL; n ignored) or fhom_build_rows_subset
 * (idx, n), with the rows split over the idle threads of pool (NULL:
 * serial).  Same result bit for bit. */
void fhom_build_rows_par(const fhom_t *d, f2mat_t *m, int64_t row0, int32_t t, int32_t bound,
                         const int64_t *idx, int64_t n, sq_pool_t *pool);

/* out ^= d(v) for v a vector over the degree-t basis of the source spanned
 * by generators of degree < bound; out has fhom_target_dim(d, t) bits. */
void fhom_apply_add(const fhom_t *d, uint64_t *out, int32_t t, int32_t bound, const uint64_t *v);

/* fhom_apply_add with the products split over the idle threads of pool
 * (NULL: serial).  out has out_bits bits; the image must lie within them.
 * Same result bit for bit. */
void fhom_apply_add_par(const fhom_t *d, uint64_t *out, int64_t out_bits, int32_t t,
                        int32_t bound, const uint64_t *v, sq_pool_t *pool);

#ifdef __cplusplus
}
#endif

#endif /* FHOM_H */
