/*
 * fhom.h -- homomorphisms out of a free module, at every prime: d : F -> T
 * with T free, or d : F -> M with M finite (the augmentation F_0 -> M).
 * The prime is the source's algebra's (fmod_stalg).
 *
 * d is stored as the images of the generators of F (write-once).  The
 * image of a generator g of degree e is a vector, in the field's encoding
 * (fmat.h: bits at p = 2, bytes at odd p), over
 *   - T: the basis of T in degree e spanned by generators of degree < e
 *        (fmod_dim_below(T, e, e) entries: by minimality d(g) has no part
 *        on generators of degree e), or
 *   - M: the basis of M_e (fdmod_dim(M, e) entries).
 * Applying d to a basis element (a, g) multiplies a into d(g).
 *
 * The functions named *_enc and *_fm work at every prime; those taking
 * uint64_t / f2mat_t are their p = 2 forms.
 */
#ifndef FHOM_H
#define FHOM_H

#include <stdint.h>

#include "f2mat.h"
#include "fdmod.h"
#include "fmat.h"
#include "fmod.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fhom fhom_t;

/* d : src -> tgt between free modules at the same prime (both borrowed;
 * must outlive d). */
fhom_t *fhom_new_free(const fmod_t *src, const fmod_t *tgt);
/* d : src -> M, M finite (borrowed), at the prime of src (SQ_CHECK). */
fhom_t *fhom_new_fd(const fmod_t *src, const fdmod_t *M);
/* Frees d; NULL is a no-op. */
void fhom_free(fhom_t *d);

const fmod_t *fhom_source(const fhom_t *d);
/* The target free module, or NULL when the target is finite. */
const fmod_t *fhom_target(const fhom_t *d);
/* The prime (the source's algebra's). */
uint32_t fhom_prime(const fhom_t *d);

/* Number of entries of the image vector of a generator of degree e. */
int64_t fhom_image_len(const fhom_t *d, int32_t e);
/* The same, named for p = 2 (entries are bits). */
int64_t fhom_image_bits(const fhom_t *d, int32_t e);
/* Number of target coordinates in degree t reached from source generators
 * of degree < t: fmod_dim_below(T, t, t) for a free target, dim M_t for M. */
int64_t fhom_target_dim(const fhom_t *d, int32_t t);

/* Stores d(g) = vec (fhom_image_len(d, deg g) entries in the encoding,
 * fvec_bytes_for(p, len) bytes copied) for the generator with global index
 * g.  Each generator is set once; the step that creates the generators of
 * a degree is the only writer of that degree. */
void fhom_set_image_enc(fhom_t *d, int64_t g, const void *vec);
/* The stored image of generator g (read-only, in the encoding), and its
 * length in entries. */
const void *fhom_image_enc(const fhom_t *d, int64_t g, int64_t *len);
/* The two above at p = 2 (limbs). */
void fhom_set_image(fhom_t *d, int64_t g, const uint64_t *vec);
const uint64_t *fhom_image(const fhom_t *d, int64_t g, int64_t *nbits);

/* Every prime: writes into rows row0, row0 + 1, ... of m (over d's field),
 * columns [0, fhom_target_dim(d, t)), the images of the basis of the
 * source in degree t spanned by generators of degree < bound
 * (fmod_dim_below(src, t, bound) rows, generator-major; idx == NULL, n
 * ignored), or of the positions idx[0..n-1] of that basis only (strictly
 * increasing; row row0 + i for idx[i]; p = 2 only, SQ_CHECK).  The rows are
 * added into, so they should be zero.  The rows are split over the idle
 * threads of pool (NULL: serial); the same result byte for byte.  At p = 2
 * the build is offered to the GPU when that path is on (docs/gpu.md).
 * Thread-safe for distinct m. */
void fhom_build_rows_fm(const fhom_t *d, fmat_t *m, int64_t row0, int32_t t, int32_t bound,
                        const int64_t *idx, int64_t n, sq_pool_t *pool);

/* Every prime: out += d(v) for v a vector over the degree-t basis of the
 * source spanned by generators of degree < bound, out with
 * fhom_target_dim(d, t) entries (both in the encoding). */
void fhom_apply_add_enc(const fhom_t *d, void *out, int32_t t, int32_t bound, const void *v);

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
 * (NULL: serial); p = 2 only (SQ_CHECK).  out has out_bits bits; the image must lie within them.
 * Same result bit for bit. */
void fhom_apply_add_par(const fhom_t *d, uint64_t *out, int64_t out_bits, int32_t t,
                        int32_t bound, const uint64_t *v, sq_pool_t *pool);

#ifdef __cplusplus
}
#endif

#endif /* FHOM_H */
