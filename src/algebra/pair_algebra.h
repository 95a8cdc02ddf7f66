/*
 * pair_algebra.h -- the secondary Steenrod algebra at p = 2, in the form
 * the Adams d_2 needs (docs/secondary.md).
 *
 * Baues and Jibladze's secondary Steenrod algebra is a pair algebra
 * B_1 -> B_0 with pi_0 = A.  Chua ("The E_3 page of the Adams spectral
 * sequence", arXiv:2105.07628) splits it over the Milnor basis (after
 * Nassau's Milnor basis of B): B_0 is spanned over Z/4 by the lifts
 * sigma(Sq(R)) of the Milnor basis and by the elements Y_{k,l} v
 * (0 <= k < l, |Y_{k,l}| = 2^k + 2^l - 1, v in A), and the product of two
 * lifts is
 *
 *   sigma(Sq R) sigma(Sq S) = sum_X c_4(X) sigma(Sq T(X))
 *        + sum_{k >= 0, n >= 1, 0 <= m < n}
 *              Y_{m+k, n+k} (Sq(R - 2^k e_n - 2^k e_m) Sq(S - e_{k+1}))      (1)
 *
 * where X runs over the Milnor matrices of (R, S), T(X) their diagonal
 * sums, c_4(X) the product of the diagonals' multinomial coefficients taken
 * over the integers, mod 4; e_0 = 0; a term is present only when the
 * subtractions leave no negative entry; the Y part is mod 2.
 *
 * An element of the kernel R_B of B_0 -> A (the mod 2 coefficients of the
 * sigma part vanish) is 2 T + sum Y_{k,l} y_{k,l} with T, y_{k,l} in A.  The
 * left action of A on B_1 gives A(a, x) in A of degree |a| + |x| - 1:
 *
 *   A(Sq R, 2 T)         = Sq(R - e_1) T                     (0 if r_1 = 0)
 *   A(Sq R, Y_{k,l} y)   = A(Sq R, Y_{k,l}) y
 *   A(Sq R, Y_{k,l})     = sum_{i : i + k >= l} sum_{0 <= j <= i + k - l}
 *                            Sq(e_{k+i} + e_{l+j}) Sq(R - 2^k e_i - 2^l e_j)    (2)
 *
 * (e_0 = 0 again; with i = j the two subtractions are from the same entry).
 * These are the formulas the peer's pair algebra evaluates; they are
 * written here from the mathematics (docs/secondary.md), not from its code.
 *
 * Element layout.  An element of degree D is a run of limbs: slot 0 holds
 * T (the "twos", over A_D), then one slot per Y_{k,l} with 0 <= k < l and
 * 2^k + 2^l - 1 <= D, ordered by k then l, holding y_{k,l} over
 * A_{D + 1 - 2^k - 2^l}; every slot starts on a limb.  While products are
 * added, a second vector (the "ones") holds the mod 2 part of the sigma
 * coefficients: (ones, twos) is the coefficient mod 4.
 *
 * Threads: a pairalg_t is immutable after pairalg_new; every function may
 * be called concurrently (on distinct elements and outputs).
 */
#ifndef PAIR_ALGEBRA_H
#define PAIR_ALGEBRA_H

#include <stdint.h>

#include "milnor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most slots of an element of degree <= MILNOR_MAX_DEGREE (T and the
 * Y_{k,l}, l <= 10). */
#define PAIR_MAX_SLOTS 64

typedef struct pairalg pairalg_t;

/* The pair algebra over A (borrowed; the whole algebra, no profile,
 * SQ_CHECK), for products of degree <= milnor_max_degree(A).  Cost:
 * a table of binomial coefficients mod 4, (D + 1)(D + 2)/2 bytes, and the
 * element layout of every degree, about 660 (D + 1) bytes. */
pairalg_t *pairalg_new(const milnor_t *A);
/* Frees P; NULL is a no-op. */
void pairalg_free(pairalg_t *P);
const milnor_t *pairalg_milnor(const pairalg_t *P);

/* The layout of an element of degree D >= 0: writes the limb offset of
 * each slot into off[0..n] (off[n] the total), the (k, l) of slot j >= 1
 * into k[j], l[j] (NULL: not wanted), and returns the number of slots n.
 * Cost: a copy from pairalg_new's table (O(log^2 D) beyond the max degree). */
int pair_layout(const pairalg_t *P, int32_t D, int64_t *off, int8_t *k, int8_t *l);

/* A binomial coefficient mod 4 (0 when k < 0 or k > n); n <= max degree. */
uint32_t pair_binom4(const pairalg_t *P, int32_t n, int32_t k);

/* An element of B_0 being summed, or of R_B once finished. */
typedef struct {
    int32_t deg;
    int64_t nlimbs;  /* the whole run */
    int64_t tlimbs;  /* slot 0 (T) and the ones */
    uint64_t *v;     /* T and the Y slots */
    uint64_t *ones;  /* the mod 2 sigma part (NULL once finished) */
} pair_elt_t;

/* A zero element of degree D >= 1 (ones included). */
void pair_elt_init(pair_elt_t *e, const pairalg_t *P, int32_t D);
/* Frees e's vectors; a zeroed struct is a no-op. */
void pair_elt_clear(pair_elt_t *e);

/* e += sigma(Sq R) sigma(Sq S) (formula (1)), R basis element ridx of
 * degree rdeg, S element sidx of degree sdeg, rdeg + sdeg = e->deg.
 * Cost: the Milnor matrices of (R, S) and a few mod 2 products. */
void pair_sigma_mul_add(const pairalg_t *P, pair_elt_t *e, int32_t rdeg, int64_t ridx,
                        int32_t sdeg, int64_t sidx);

/* The coefficients mod 4 of sigma(Sq R) sigma(Sq S) on the basis of
 * degree rdeg + sdeg: coef[i] in 0..3 (milnor_dim entries, overwritten).
 * The sigma part of formula (1) alone (tests, docs). */
void pair_mul4(const pairalg_t *P, uint8_t *coef, int32_t rdeg, int64_t ridx, int32_t sdeg,
               int64_t sidx);

/* Finishes a sum: returns 0 and frees the ones when the mod 2 sigma part
 * is zero (e is in R_B), else SQ_E_INVAL (e unchanged). */
int pair_elt_finish(pair_elt_t *e);

/* Whether a finished e is zero. */
int pair_elt_is_zero(const pair_elt_t *e);

/* out += A(Sq R, Y_{k,l}) (formula (2)), 0 <= k < l, over the basis of
 * degree rdeg + 2^k + 2^l - 2 (bits off .. of out). */
void pair_a_y_add(const pairalg_t *P, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                  int k, int l);

/* out += A(Sq R, e) for a finished e: bits off .. off + dim - 1 of out,
 * over the basis of degree rdeg + e->deg - 1 (0 when rdeg = 0).  rdeg +
 * e->deg - 1 <= the max degree. */
void pair_a_mul_add(const pairalg_t *P, uint64_t *out, int64_t off, int32_t rdeg, int64_t ridx,
                    const pair_elt_t *e);

/* e += sigma(a) sigma(b) for vectors a over A_adeg and b over A_bdeg
 * (sigma(a) the sum of the lifts of a's basis elements), adeg + bdeg =
 * e->deg: the same as pair_sigma_mul_add over every pair of set bits, but
 * the Y part, bilinear, is taken once per (k, n, m) on the vectors:
 * Y_{m+k,n+k} (a with R -> R - 2^k e_n - 2^k e_m)(b with S -> S - e_{k+1}). */
void pair_sigma_mul_vec_add(const pairalg_t *P, pair_elt_t *e, int32_t adeg, const uint64_t *a,
                            int32_t bdeg, const uint64_t *b);

/* A(a, -) for one vector a over A_adeg: kappa(a) (R -> R - e_1) at once,
 * A(a, Y_{k,l}) when an element first needs it (max_deg is a hint, unused).
 * Value type, used by one thread; pair_aop_clear frees it. */
typedef struct {
    int32_t adeg;
    uint64_t *a;
    uint64_t *kappa;
    uint64_t *ay[11][12];
} pair_aop_t;

void pair_aop_init(const pairalg_t *P, pair_aop_t *op, int32_t adeg, const uint64_t *a,
                   int32_t max_deg);
void pair_aop_clear(pair_aop_t *op);
/* out += A(a, e) for a finished e of degree <= the prepared max_deg, bits
 * off .. over the basis of degree adeg + e->deg - 1 (pair_a_mul_add summed
 * over a's basis elements). */
void pair_aop_apply(const pairalg_t *P, pair_aop_t *op, uint64_t *out, int64_t off,
                    const pair_elt_t *e);

/* es[j] += sigma(a) sigma(b_j) for j < n (b_j over A_{bdeg[j]}, adeg +
 * bdeg[j] = es[j]->deg): pair_sigma_mul_vec_add on each, with each Sq(R)
 * of the Y part's d_{k,n,m}(a) prepared once in the workspace W for every
 * j.  The same bits. */
void pair_sigma_mul_vec_many(const pairalg_t *P, milnor_ws_t *W, pair_elt_t *const *es,
                             int32_t adeg, const uint64_t *a, const int32_t *bdeg,
                             const uint64_t *const *b, int64_t n);

/* out += A(a, es[j]) at bits offs[j] .. for j < n (finished elements of
 * any degrees): pair_aop_apply on each, with each Sq(R) of kappa(a) and of
 * A(a, Y_{k,l}) prepared once in the workspace W for all the elements
 * (milnor.h's workspace; one per thread).  The same bits. */
void pair_aop_apply_many(const pairalg_t *P, pair_aop_t *op, milnor_ws_t *W, uint64_t *out,
                         const int64_t *offs, const pair_elt_t *const *es, int64_t n);

/* A batch of mod 2 products Sq(R) v gathered from several calls and run
 * grouped by Sq(R): each Sq(R) prepared once in the workspace for every
 * vector it multiplies, whichever call gathered them (the elements of a
 * row's intermediates or composites share many).  Used by one thread. */
typedef struct pair_batch pair_batch_t;

pair_batch_t *pair_batch_new(void);
void pair_batch_free(pair_batch_t *B);
/* Adds every product gathered in B into its output (the sums are mod 2:
 * the same bits as in any order) and empties B. */
void pair_batch_run(const pairalg_t *P, pair_batch_t *B, milnor_ws_t *W);
/* pair_aop_apply_many, its products gathered into B (run with
 * pair_batch_run, or here once B holds many): es[j]'s vectors and out
 * must stay in place until B runs; op may be cleared at once. */
void pair_aop_apply_batch(const pairalg_t *P, pair_aop_t *op, pair_batch_t *B, milnor_ws_t *W,
                          uint64_t *out, const int64_t *offs, const pair_elt_t *const *es,
                          int64_t n);
/* out[off ..] += a b (mod 2 products, a over A_adeg with its alen bits in
 * a; b over A_bdeg, blen bits) gathered into B: a copy
 * of b is kept, out must stay in place until B runs. */
void pair_batch_add_vec(pair_batch_t *B, milnor_ws_t *W, const pairalg_t *P, int32_t adeg,
                        const uint64_t *a, int64_t alen, const uint64_t *b,
                        int32_t bdeg, int64_t blen, uint64_t *out, int64_t off);
/* pair_sigma_mul_vec_many with the Y part's products gathered into B (the
 * sigma part added at once): es[j] must stay in place until B runs, and
 * are finished only then. */
void pair_sigma_mul_vec_batch(const pairalg_t *P, pair_batch_t *B, milnor_ws_t *W,
                              pair_elt_t *const *es, int32_t adeg, const uint64_t *a,
                              const int32_t *bdeg, const uint64_t *const *b, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* PAIR_ALGEBRA_H */
