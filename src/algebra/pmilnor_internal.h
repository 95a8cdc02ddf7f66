/*
 * pmilnor_internal.h -- the layout of pmilnor_t, shared by pmilnor.c (basis)
 * and pmilnor_mul.c (product).  Not part of the public API.
 */
#ifndef PMILNOR_INTERNAL_H
#define PMILNOR_INTERNAL_H

#include "pmilnor.h"

/* Digits (base p) of the entries of a Milnor matrix: entries are at most
 * the largest reduced degree, PMILNOR_MAX_DEGREE / 4 = 2047 < 3^7. */
#define PMILNOR_MAX_DIGITS 8

/* The p-parts of reduced degree n, behind the mask q, start at index off of
 * their degree. */
typedef struct {
    uint32_t q;
    int32_t n;
    int64_t off;
} pmilnor_blk_t;

struct pmilnor {
    uint32_t p, q;                      /* q = 2p - 2 */
    int32_t max_deg, max_red;           /* max_red = max_deg / q */
    pmilnor_profile_t prof;
    int npos;                           /* p-part positions with w_i <= max_red */
    int32_t w[PMILNOR_MAX_LEN + 1];     /* w[i] = (p^i - 1) / (p - 1), 1-based */
    int32_t rmax[PMILNOR_MAX_LEN + 1];  /* profile bound on r_i (INT32_MAX: none) */
    int nq;                             /* exterior indices with |Q_n| <= max_deg */
    int32_t qdeg[PMILNOR_MAX_LEN];      /* |Q_n| = 2p^n - 1 */
    uint32_t qallow;                    /* masks allowed: profile q_part, n < nq */
    int64_t *cnt, *cum;                 /* (npos + 1) x (max_red + 1), see pmilnor.c */
    int64_t *pp_start;                  /* first p-part of each reduced degree in pool */
    uint16_t *pool;                     /* p-parts, npos entries each */
    int64_t *dim;                       /* per degree */
    int64_t *blk_start;                 /* per degree, into blk; max_deg + 2 entries */
    pmilnor_blk_t *blk;
    /* Product tables (pmilnor_mul.c). */
    int ndig;                           /* digits per entry */
    int lw;                             /* lane width of packed digits: 4, 8 or 16 bits */
    uint64_t *pdig;                     /* per value: its base-p digits, one per lane */
    uint64_t bias, high;                /* carry test: (a + b + bias) & high != 0 */
    uint8_t *ifd;                       /* per value: prod over digits of 1/digit! mod p */
    uint8_t fact[256];                  /* k! mod p, k < p */
    int32_t pw[PMILNOR_MAX_LEN + 1];    /* p^j, saturated at INT32_MAX */
};

/* A growing list of (index, coefficient) terms of a product, indices
 * possibly repeated (the caller merges them). */
typedef struct {
    uint32_t *idx;
    uint8_t *coef;
    int64_t n, cap;
} pmilnor_terms_t;

/* Appends the terms of r * s to T (coefficients mod p, unmerged). */
void pmilnor_mul_elts_terms(const pmilnor_t *A, pmilnor_terms_t *T, const pmilnor_elt_t *r,
                            const pmilnor_elt_t *s);

/* Rank of the p-part r[0..len) of reduced degree red among the p-parts of
 * that reduced degree (lexicographic on (r_K, ..., r_1)). */
int64_t pmilnor_pp_rank(const pmilnor_t *A, const int32_t *r, int len, int32_t red);

/* Builds and frees the product's tables. */
void pmilnor_mul_tables_init(pmilnor_t *A);
void pmilnor_mul_tables_clear(pmilnor_t *A);

#endif /* PMILNOR_INTERNAL_H */
