/*
 * kernels.c -- run-time choice of the kernels in f2_kernels.h.
 *
 * The choice is made once, under pthread_once, the first time any kernel is
 * used: the AVX2 kernels when they were compiled in and the CPU reports AVX2,
 * else the portable ones.  SQ_SIMD=generic in the environment forces the
 * portable kernels (for testing and for comparing speed).  The chosen table
 * is const and never changes afterwards, so readers need no locking.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static pthread_once_t choose_once = PTHREAD_ONCE_INIT;
static const f2_kernels_t *chosen;
static const f2_kernels_t *avx2_ok;

static void choose(void)
{
    avx2_ok = NULL;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        avx2_ok = f2__kernels_avx2_compiled();
#endif
    const char *env = getenv("SQ_SIMD");
    if (env && strcmp(env, "generic") == 0)
        chosen = &f2__kernels_generic;
    else
        chosen = avx2_ok ? avx2_ok : &f2__kernels_generic;
}

const f2_kernels_t *f2_kernels(void)
{
    pthread_once(&choose_once, choose);
    return chosen;
}

const f2_kernels_t *f2_kernels_generic(void)
{
    return &f2__kernels_generic;
}

const f2_kernels_t *f2_kernels_avx2(void)
{
    pthread_once(&choose_once, choose);
    return avx2_ok;
}

void f2_xor_raw(uint64_t *dst, const uint64_t *src, int64_t nlimbs)
{
    f2_kernels()->xor_raw(dst, src, nlimbs);
}
