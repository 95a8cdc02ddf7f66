/*
 * pfhom.h -- homomorphisms out of a free module at an odd prime: d : F -> T
 * with T free, or d : F -> M with M finite (the augmentation F_0 -> M).
 * The odd-prime counterpart of fhom.h.
 *
 * d is stored as the images of the generators of F (write-once).  The image
 * of a generator g of degree e is a vector of residues over
 *   - T: the basis of T in degree e spanned by generators of degree < e
 *        (pfmod_dim_below(T, e, e) entries: by minimality d(g) has no part
 *        on generators of degree e), or
 *   - M: the basis of M_e (pfdmod_dim(M, e) entries).
 * Applying d to a basis element (a, g) multiplies a into d(g).
 */
#ifndef PFHOM_H
#define PFHOM_H

#include <stdint.h>

#include "fpmat.h"
#include "pfdmod.h"
#include "pfmod.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pfhom pfhom_t;

/* d : src -> tgt between free modules over the same algebra (both borrowed). */
pfhom_t *pfhom_new_free(const pfmod_t *src, const pfmod_t *tgt);
/* d : src -> M, M finite (borrowed) with the algebra's prime and profile. */
pfhom_t *pfhom_new_fd(const pfmod_t *src, const pfdmod_t *M);
/* Frees d; NULL is a no-op. */
void pfhom_free(pfhom_t *d);

/* Products in pfhom_build_rows and pfhom_apply_add go through C (NULL: they
 * are computed every time).  C must be over the source's algebra and
 * outlive d; the results are the same either way. */
void pfhom_set_cache(pfhom_t *d, pmilnor_cache_t *C);

const pfmod_t *pfhom_source(const pfhom_t *d);
/* The target free module, or NULL when the target is M. */
const pfmod_t *pfhom_target(const pfhom_t *d);

/* Number of entries of the image vector of a generator of degree e. */
int64_t pfhom_image_len(const pfhom_t *d, int32_t e);
/* Number of target coordinates in degree t reached from source generators
 * of degree < t: pfmod_dim_below(T, t, t), or dim M_t. */
int64_t pfhom_target_dim(const pfhom_t *d, int32_t t);

/* Stores d(g) = vec (pfhom_image_len(d, deg g) entries, copied) for the
 * generator with global index g.  Each generator is set once; the step that
 * creates the generators of a degree is the only writer of that degree. */
void pfhom_set_image(pfhom_t *d, int64_t g, const uint8_t *vec);
/* The stored image of generator g (read-only) and its length. */
const uint8_t *pfhom_image(const pfhom_t *d, int64_t g, int64_t *len);

/* Writes into rows row0, row0 + 1, ... of m, columns [0, pfhom_target_dim(d,
 * t)), the images of the basis of the source in degree t spanned by the
 * generators of degree < bound (pfmod_dim_below(src, t, bound) rows,
 * generator-major).  The rows are added into, so they should be zero.
 * Thread-safe for distinct m. */
void pfhom_build_rows(const pfhom_t *d, fpmat_t *m, int64_t row0, int32_t t, int32_t bound);

/* pfhom_build_rows for the rows rlo <= r < rhi of that basis only (rows
 * row0 + r of m); the other rows are not touched.  Disjoint ranges may be
 * built concurrently into the same m. */
void pfhom_build_rows_part(const pfhom_t *d, fpmat_t *m, int64_t row0, int32_t t, int32_t bound,
                           int64_t rlo, int64_t rhi);

/* out += d(v) for v a vector over the degree-t basis of the source spanned
 * by generators of degree < bound; out has pfhom_target_dim(d, t) entries. */
void pfhom_apply_add(const pfhom_t *d, uint8_t *out, int32_t t, int32_t bound, const uint8_t *v);

#ifdef __cplusplus
}
#endif

#endif /* PFHOM_H */
