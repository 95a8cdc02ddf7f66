/*
 * presol_cofiber.h -- the odd-prime names of the one cofiber construction
 * (resol_cofiber.h, issue 21 step 6): presol_cofiber_t is resol_cofiber_t
 * and every presol_cofiber_* below is a one-line wrapper over its
 * resol_cofiber_*, kept for its callers until they move (then this header
 * goes).
 */
#ifndef PRESOL_COFIBER_H
#define PRESOL_COFIBER_H

#include <stddef.h>
#include <stdint.h>

#include "pfdmod.h"
#include "resol_cofiber.h"
#include "sq_pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct resol_cofiber presol_cofiber_t;

/* resol_cofiber_new. */
static inline SQ_WARN_UNUSED int presol_cofiber_new(presol_cofiber_t **out, const pfdmod_t *M,
                                                    int32_t s, int32_t t, int64_t idx,
                                                    int32_t target, int32_t max_s, int32_t max_n,
                                                    sq_pool_t *pool, char *err, size_t errlen)
{
    return resol_cofiber_new(out, M, s, t, idx, target, max_s, max_n, pool, err, errlen);
}

/* resol_cofiber_free. */
static inline void presol_cofiber_free(presol_cofiber_t *C)
{
    resol_cofiber_free(C);
}

/* resol_cofiber_ext_dim. */
static inline int64_t presol_cofiber_ext_dim(const presol_cofiber_t *C, int32_t s, int32_t n)
{
    return resol_cofiber_ext_dim(C, s, n);
}

/* resol_cofiber_module. */
static inline const pfdmod_t *presol_cofiber_module(const presol_cofiber_t *C)
{
    return resol_cofiber_module(C);
}

#ifdef __cplusplus
}
#endif

#endif /* PRESOL_COFIBER_H */
