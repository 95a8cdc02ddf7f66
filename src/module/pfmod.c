/*
 * pfmod.c -- free modules at odd primes (pfmod.h): fmod.c's storage over
 * the odd-prime algebra's dimensions.
 */
#include "pfmod.h"

static int64_t pmilnor_dim_of(const void *A, int32_t deg)
{
    return pmilnor_dim((const pmilnor_t *)A, deg);
}

pfmod_t *pfmod_new(const pmilnor_t *A, int32_t min_deg, int32_t max_deg)
{
    return fmod_new_with_dims(A, pmilnor_dim_of, min_deg, max_deg);
}
