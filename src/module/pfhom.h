/*
 * pfhom.h -- homomorphisms out of a free module at an odd prime: the names
 * the odd-prime engine (presol) uses, thin wrappers over fhom.h, which
 * holds the storage and the one walk at every prime.  They go with presol
 * in step 5 of docs/architecture.md.
 *
 * The image of a generator g of degree e is a vector of residues (bytes)
 * over
 *   - T: the basis of T in degree e spanned by generators of degree < e
 *        (pfmod_dim_below(T, e, e) entries), or
 *   - M: the basis of M_e (pfdmod_dim(M, e) entries).
 */
#ifndef PFHOM_H
#define PFHOM_H

#include <stdint.h>

#include "fhom.h"
#include "fmat.h"
#include "fpmat.h"
#include "pfdmod.h"
#include "pfmod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The storage is fhom.h's; this name keeps the odd-prime code's types. */
typedef struct fhom pfhom_t;

/* d : src -> M, M finite (borrowed) at the prime of src's algebra (odd;
 * SQ_CHECK).  Defined in fhom.c (until fdmod is one type at every prime). */
pfhom_t *pfhom_new_fd(const pfmod_t *src, const pfdmod_t *M);

/* d : src -> tgt between free modules over the same algebra (both borrowed). */
static inline pfhom_t *pfhom_new_free(const pfmod_t *src, const pfmod_t *tgt)
{
    SQ_CHECK(pfmod_algebra(src) == pfmod_algebra(tgt), "pfhom_new_free: different algebras");
    return fhom_new_free(src, tgt);
}

/* The rest as in fhom.h, with residues for entries. */
static inline void pfhom_free(pfhom_t *d)
{
    fhom_free(d);
}
static inline const pfmod_t *pfhom_source(const pfhom_t *d)
{
    return fhom_source(d);
}
static inline const pfmod_t *pfhom_target(const pfhom_t *d)
{
    return fhom_target(d);
}
static inline int64_t pfhom_image_len(const pfhom_t *d, int32_t e)
{
    return fhom_image_len(d, e);
}
static inline int64_t pfhom_target_dim(const pfhom_t *d, int32_t t)
{
    return fhom_target_dim(d, t);
}
static inline void pfhom_set_image(pfhom_t *d, int64_t g, const uint8_t *vec)
{
    fhom_set_image_enc(d, g, vec);
}
static inline const uint8_t *pfhom_image(const pfhom_t *d, int64_t g, int64_t *len)
{
    return (const uint8_t *)fhom_image_enc(d, g, len);
}

/* fhom_build_rows_fm on m, serial (pool NULL) or over a pool. */
static inline void pfhom_build_rows_par(const pfhom_t *d, fpmat_t *m, int64_t row0, int32_t t,
                                        int32_t bound, sq_pool_t *pool)
{
    fmat_t v = fmat_view_fp(m);
    fhom_build_rows_fm(d, &v, row0, t, bound, NULL, 0, pool);
}
static inline void pfhom_build_rows(const pfhom_t *d, fpmat_t *m, int64_t row0, int32_t t,
                                    int32_t bound)
{
    pfhom_build_rows_par(d, m, row0, t, bound, NULL);
}
static inline void pfhom_apply_add(const pfhom_t *d, uint8_t *out, int32_t t, int32_t bound,
                                   const uint8_t *v)
{
    fhom_apply_add_enc(d, out, t, bound, v);
}

#ifdef __cplusplus
}
#endif

#endif /* PFHOM_H */
