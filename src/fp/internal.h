/*
 * internal.h -- declarations shared by the files of the fp layer only (not
 * installed).
 */
#ifndef F2_INTERNAL_H
#define F2_INTERNAL_H

#include "f2_kernels.h"

/* The portable kernels (kernels_generic.c). */
extern const f2_kernels_t f2__kernels_generic;

/* The AVX2 kernels (kernels_avx2.c), or NULL when the file was compiled
 * without AVX2 support.  Whether the CPU has AVX2 is checked by the caller. */
const f2_kernels_t *f2__kernels_avx2_compiled(void);

#endif /* F2_INTERNAL_H */
