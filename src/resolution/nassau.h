/*
 * nassau.h -- the subalgebras and signatures of Nassau's algorithm
 * (C. Nassau, arXiv:1910.04063; system.md section 5).
 *
 * A profile h = (h_1, ..., h_len) names the subalgebra B of A spanned by
 * the Sq(R) with r_i < 2^{h_i}: [1] = A(0), [2,1] = A(1), [3,2,1] = A(2).
 * The signature of Sq(R) with respect to B is (r_i mod 2^{h_i})_i; we
 * number signatures by the mixed-radix ordinal
 *     ord = sigma_1 + 2^{h_1} (sigma_2 + 2^{h_2} (sigma_3 + ...)),
 * so that increasing ordinals are the odometer order of the spec (first
 * entry fastest) and ordinal 0 is the zero signature.
 */
#ifndef NASSAU_H
#define NASSAU_H

#include <stdint.h>

#include "milnor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest profile we build (A(14) and beyond are far outside any run). */
#define NASSAU_MAX_LEN 16

/* Replaces h[0..*len) by the next profile of the ladder [1], [1,1], [2,1],
 * [2,1,1], [2,2,1], [3,2,1], ...: if h is empty or A(n), append a 1;
 * otherwise, scanning from the last entry backwards with position k = 0,
 * 1, 2, ..., increment the first entry equal to k.  Returns 0, or -1 (h
 * unchanged) when the result would be longer than NASSAU_MAX_LEN. */
int nassau_ladder_next(int32_t *h, int *len);

/* Top degree of B: sum_i (2^i - 1)(2^{h_i} - 1). */
int64_t nassau_top_degree(const int32_t *h, int len);

/* max_i 2^{h_i - 1} (2^i - 1) */
int64_t nassau_slope(const int32_t *h, int len);

/* Whether profile h may be used at (s, t) for a module of top degree top:
 * t - top >= (2^len - 1)(s + 1) + top(B). */
int nassau_usable(const int32_t *h, int len, int32_t s, int32_t t, int32_t top);

/* The signature ordinal of the p-part r[0..rlen) with respect to h. */
uint32_t nassau_signature(const int32_t *h, int len, const int32_t *r, int rlen);

/* Number of signature ordinals: 2^{h_1 + ... + h_len}. */
uint32_t nassau_num_signatures(const int32_t *h, int len);

#ifdef __cplusplus
}
#endif

#endif /* NASSAU_H */
