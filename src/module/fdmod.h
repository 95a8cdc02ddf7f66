/*
 * fdmod.h -- finite-dimensional modules over the mod p Steenrod algebra,
 * every prime (p = 2 and odd p < 256): one type, one completion.
 *
 * A module M is a graded F_p-vector space with finitely many nonzero
 * degrees min_deg..max_deg, a named basis in each degree, and the action of
 * every Milnor basis element of positive degree (Sq(R) at p = 2, Q(E)P(R)
 * at odd p):
 *
 *     action[d][k] : for op index i in A_k and basis index j of M_d,
 *                    the vector op_i x_j in M_{d+k}, in the field's encoding
 *                    (fmat.h: f2_limbs(dim M_{d+k}) limbs at p = 2,
 *                    dim M_{d+k} bytes at odd p)
 *
 * The unit acts as the identity and is not stored; blocks of degree pairs
 * on which nothing was set are not stored either (they act as zero).  A
 * module is built (add basis elements, set actions), then read-only:
 * several threads may call the const functions at once.  The functions
 * that take a milnor_t (fdmod_new, fdmod_set_action, fdmod_complete, ...)
 * are the p = 2 forms; those that take a stalg_t or an fvec_t serve every
 * prime.
 */
#ifndef FDMOD_H
#define FDMOD_H

#include <stdint.h>

#include "fmat.h"
#include "milnor.h"
#include "pmilnor.h"
#include "stalg.h"
#include "sq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fdmod fdmod_t;

/* Number of degrees a module may range over: max_deg - min_deg <
 * FDMOD_MAX_RANGE.  Only the degrees and pairs of degrees that carry
 * something cost memory (a few bytes per degree otherwise); the action of
 * the algebra reaches only MILNOR_MAX_DEGREE, so loaders keep the span of
 * the basis to that (SQ_MODSPEC_MAX_SPAN). */
#define FDMOD_MAX_RANGE 4096
/* Longest profile fdmod_set_profile accepts (and module files may give):
 * entries past MILNOR_MAX_LEN never matter in degrees <= MILNOR_MAX_DEGREE
 * and are dropped, so fdmod_profile returns at most MILNOR_MAX_LEN. */
#define FDMOD_MAX_PROFILE_LEN 16
/* Largest profile entry h_i: r_i < 2^30 holds for every Milnor basis
 * element of degree <= MILNOR_MAX_DEGREE, so 30 stands for "infinite" (the
 * entries of a profile that is not truncated). */
#define FDMOD_MAX_PROFILE_ENTRY 30

/* New empty module called `name` (copied) whose degrees lie in
 * [min_deg, max_deg] (max_deg >= min_deg, max_deg - min_deg <
 * FDMOD_MAX_RANGE).  Cost: O(max_deg - min_deg) bytes; the action table
 * grows only with the actions set. */
fdmod_t *fdmod_new(const char *name, int32_t min_deg, int32_t max_deg);
/* Frees M; NULL is a no-op. */
void fdmod_free(fdmod_t *M);

const char *fdmod_name(const fdmod_t *M);
/* The declared degree range.  Degrees outside it have dimension 0. */
int32_t fdmod_min_degree(const fdmod_t *M);
int32_t fdmod_max_degree(const fdmod_t *M);
/* Lowest and highest degree with a nonzero basis (min > max if M = 0).  O(1). */
int32_t fdmod_bottom(const fdmod_t *M);
int32_t fdmod_top(const fdmod_t *M);

/* Appends a basis element of degree deg named `name` (copied; NULL gives
 * "x<global index>").  Must be called before any action is set (on an
 * element of degree deg; SQ_CHECK).  Returns its index within the degree.
 * Amortized O(1) (O(degrees below) when name is NULL). */
int64_t fdmod_add_basis(fdmod_t *M, int32_t deg, const char *name);
/* dim M_deg (0 outside the range). */
int64_t fdmod_dim(const fdmod_t *M, int32_t deg);
/* Name of basis element idx of degree deg. */
const char *fdmod_basis_name(const fdmod_t *M, int32_t deg, int64_t idx);
/* Finds a basis element by name; returns 0 and sets *deg, *idx, or -1. */
int fdmod_find(const fdmod_t *M, const char *name, int32_t *deg, int64_t *idx);

/* Sets Sq(R) x = vec, where Sq(R) is basis element op_idx of A_{op_deg}
 * (op_deg > 0) and x is basis element in_idx of M_{in_deg}; vec has
 * f2_limbs(dim M_{in_deg + op_deg}) limbs.  A is used for dim A_{op_deg}. */
void fdmod_set_action(fdmod_t *M, const milnor_t *A, int32_t op_deg, int64_t op_idx,
                      int32_t in_deg, int64_t in_idx, const uint64_t *vec);
/* The stored vector Sq(R) x (read-only), or NULL when it is zero because
 * the target degree is outside the range or nothing was set. */
const uint64_t *fdmod_action(const fdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                             int64_t in_idx);

/* out[off ..] ^= Sq(R) v, for v a vector of M_{in_deg} and Sq(R) basis
 * element op_idx of A_{op_deg} (op_deg >= 0; the unit copies v).  Bits of
 * out from off on are coordinates of M_{in_deg + op_deg}. */
void fdmod_act_add(const fdmod_t *M, uint64_t *out, int64_t off, int32_t op_deg, int64_t op_idx,
                   int32_t in_deg, const uint64_t *v);

/* ---- Building a module from the action of the Sq^{2^k} ------------------
 *
 * Topologists give a module by the action of the algebra generators
 * Sq^1, Sq^2, Sq^4, ... (Milnor Sq(2^k)).  fdmod_set_sq records one such
 * action; fdmod_complete then derives the action of every Milnor basis
 * element and checks that the result is a module.  A Sq^{2^k} never set
 * acts as zero. */

/* Sets Sq^{op_deg} x = vec (op_deg a power of two), x = basis element
 * in_idx of M_{in_deg}; vec has f2_limbs(dim M_{in_deg + op_deg}) limbs. */
void fdmod_set_sq(fdmod_t *M, const milnor_t *A, int32_t op_deg, int32_t in_deg, int64_t in_idx,
                  const uint64_t *vec);

/* Derives the action of every Milnor basis element of positive degree from
 * that of the Sq^{2^k}: degree by degree, each Sq(R) not a generator is
 * written as a sum of products Sq^{2^k} phi with phi of lower degree, and
 * Sq(R) x = sum Sq^{2^k} (phi x).  Then checks every product
 * Sq^{2^k} * Sq(R) against the action (for every basis element x):
 * (Sq^{2^k} Sq(R)) x = Sq^{2^k} (Sq(R) x).  These relations (the Adem
 * relations among them) hold exactly when M is a module.  A must reach
 * degree top - bottom, or the top degree of A when A is a finite subalgebra
 * (A(1) tops out at 6) and that is less (SQ_CHECK).  Precondition: only
 * Sq^{2^k} were set (fdmod_set_sq).
 * Returns 0, or SQ_E_INVAL with a one-line description of the first
 * violated relation in err (errlen bytes); also SQ_E_INVAL when A is a
 * subalgebra not generated by its Sq^{2^k} in some degree <= top - bottom.
 * Cost: proportional to what the given action connects, not to the span.
 * A degree f is reached from e when a chain of given nonzero Sq^{2^k}
 * leads from M_e to M_f through nonzero degrees; every Sq(R) is zero from
 * M_e to M_f otherwise (and is not stored).  The action of A_{f-e} is
 * derived on the reached pairs, and the products of A_d (d = f - e) are
 * row reduced only for the d of pairs reached by two steps or more (a
 * single step Sq^{2^k} leaves every other element of A_{2^k} zero).  So
 * a few cells over a span of 2047 cost microseconds, while a pair reached
 * in two steps through d = 129 costs 31 MB and 0.3 s, d = 192 650 MB and
 * 10 s (the rows are all products Sq^{2^k} phi of degree d: 13,171 for
 * d = 128, 67,419 for d = 192; fdmod_complete_cost says how much before
 * anything is set). */
int fdmod_complete(fdmod_t *M, const milnor_t *A, char *err, size_t errlen) SQ_WARN_UNUSED;

/* What fdmod_complete would take on a module with M's basis whose given
 * Sq^{2^k} out of degree deg are the bits k of given[deg - fdmod_bottom(M)]
 * (fdmod_top(M) - fdmod_bottom(M) + 1 entries), so a loader can refuse
 * before setting anything: table_bytes, the action table once completed
 * (the blocks of every reached pair, those of the given Sq^{2^k}
 * included); reduce_bytes, the largest row reduction of products (freed
 * after its degree), of degree reduce_deg, first needed from degree
 * reduce_from (0, 0 when none).  M's actions are not read.  Precondition
 * (SQ_CHECK): A reaches degree fdmod_top(M) - fdmod_bottom(M), or its own
 * top degree as in fdmod_complete.  Cost: that
 * of finding the reached pairs, O(n^2 / 64 * log span) for n nonzero
 * degrees. */
typedef struct {
    double table_bytes;
    double reduce_bytes;
    int32_t reduce_deg, reduce_from;
} fdmod_cost_t;
void fdmod_complete_cost(fdmod_cost_t *c, const fdmod_t *M, const milnor_t *A,
                         const uint32_t *given);

/* Checks that the stored action table of M (every Milnor basis element of
 * positive degree, as fdmod_complete leaves it or as a builder such as
 * fpmod_build sets it) is a module over A: for every basis element x and
 * every product Sq^{2^k} * Sq(R) of basis elements of A (A may be a
 * sub-Hopf algebra from milnor_new_profile; only the Sq^{2^k} in A are
 * used), (Sq^{2^k} Sq(R)) x = Sq^{2^k} (Sq(R) x).  Unset actions count as
 * zero.  These relations hold exactly when M is an A-module (A is generated
 * by the Sq^{2^k}; over a subalgebra B they are the relations of B when B
 * is generated by its Sq^{2^k}, as A(n) is).  fdmod_complete ends with
 * this check.
 * Precondition (SQ_CHECK): A reaches degree fdmod_top(M) - fdmod_bottom(M),
 * or its own top degree as in fdmod_complete.
 * Cost: one Milnor product per Sq^{2^k} * Sq(R) of each degree d that some
 * pair (M_e, M_{e+d}) needs: a pair needs checking when a Sq^{2^k} applied
 * after a stored block can reach it, or when its own block holds an
 * element other than Sq(d) (for the rest both sides are zero, because
 * Sq(2^k) is indecomposable); plus, per basis element and product, the
 * table look-ups of both sides.  M is only read.  Returns 0,
 * or SQ_E_INVAL with a one-line description of the first violated relation
 * in err (errlen bytes, always NUL-terminated when errlen > 0). */
int fdmod_check_module(const fdmod_t *M, const milnor_t *A, char *err,
                       size_t errlen) SQ_WARN_UNUSED;

/* ---- The algebra a module lives over ------------------------------------
 *
 * By default a module is over the whole Steenrod algebra A.  A profile
 * h = (h_1, ..., h_len) (the peer's truncated "p_part") makes it a module
 * over the sub-Hopf algebra B spanned by the Sq(R) with r_i < 2^{h_i}
 * (r_i = 0 for i > len): [3,2,1] is A(2), and F_2 over A(2) resolves to
 * Ext_{A(2)}, the E2 page of tmf.  len <= FDMOD_MAX_PROFILE_LEN, each h_i
 * in 0..FDMOD_MAX_PROFILE_ENTRY; entries past MILNOR_MAX_LEN are dropped
 * (they never matter). */
void fdmod_set_profile(fdmod_t *M, const int32_t *h, int len);
/* Writes the profile into h (room for MILNOR_MAX_LEN) and returns its
 * length (<= MILNOR_MAX_LEN); 0 means the whole algebra A. */
int fdmod_profile(const fdmod_t *M, int32_t *h);

/* New empty module called name (NULL: "module") with degrees in [min_deg,
 * max_deg] over A's subalgebra (fdmod_new, then fdmod_set_profile with
 * A's profile): what a builder of modules over A starts from. */
fdmod_t *fdmod_new_over(const milnor_t *A, const char *name, int32_t min_deg, int32_t max_deg);

/* A copy of M with every degree raised by k (the suspension Sigma^k M),
 * called `name` (NULL: M's name): same basis names, actions and profile.
 * Ownership: the caller frees it.  Cost: a copy of M's tables. */
fdmod_t *fdmod_new_shifted(const fdmod_t *M, int32_t k, const char *name);

/* The sphere S_2: F_2 in degree 0, basis element "x0". */
fdmod_t *fdmod_sphere(void);

/* ---- Every prime ----------------------------------------------------------
 *
 * The same module at any prime p (2 or an odd prime < 256).  At p = 2 these
 * are the functions above; a module made by fdmod_new is at p = 2. */

/* New empty module over F_p (fmat_prime_ok(p)), otherwise as fdmod_new.
 * Default basis names are "x<global index>" at p = 2, "x<deg>_<index>" at
 * odd p; at odd p no basis element may be added once an action is set
 * (SQ_CHECK). */
fdmod_t *fdmod_new_p(const char *name, uint32_t p, int32_t min_deg, int32_t max_deg);
/* The prime of M. */
uint32_t fdmod_prime(const fdmod_t *M);

/* The degree of generator slot s at p: 2^s at p = 2; at odd p 1 (beta) for
 * s = 0 and 2(p - 1)p^{s-1} (P^{p^{s-1}}) for s >= 1; -1 past INT32_MAX
 * or s >= FDMOD_MAX_SLOTS.  The "given" bits of fdmod_complete_cost are
 * these slots. */
#define FDMOD_MAX_SLOTS 31
int32_t fdmod_slot_degree(uint32_t p, int s);
/* The slot of the generator degree deg at p, or -1 when deg is not one. */
int fdmod_gen_slot(uint32_t p, int32_t deg);

/* Sets op x = vec for op basis element op_idx of S_{op_deg} (op_deg > 0; S
 * at M's prime) and x basis element in_idx of M_{in_deg}; vec (at M's
 * prime) has at least dim M_{in_deg + op_deg} entries, reduced mod p and
 * copied; ignored when that degree is empty. */
void fdmod_set_actionf(fdmod_t *M, const stalg_t *S, int32_t op_deg, int64_t op_idx,
                       int32_t in_deg, int64_t in_idx, fvec_t vec);
/* Sets g x = vec for the algebra generator g of degree gen_deg of S
 * (stalg_gen_index; SQ_CHECK that gen_deg is a generator degree at M's
 * prime).  When S does not contain it (a profile without it), nothing is
 * set: it acts as zero. */
void fdmod_set_genf(fdmod_t *M, const stalg_t *S, int32_t gen_deg, int32_t in_deg,
                    int64_t in_idx, fvec_t vec);
/* The stored vector op x as a read-only view of dim M_{in_deg + op_deg}
 * entries, or a view with NULL storage (len 0) when it is zero. */
fvec_t fdmod_actionf(const fdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                     int64_t in_idx);
/* out[off ..] += coef * (op v), v a vector of M_{in_deg}, op basis element
 * op_idx of A_{op_deg} (op_deg >= 0; the unit adds coef * v).  At p = 2
 * fdmod_act_add when coef is odd; at odd p a byte loop.  One test of p per
 * call. */
void fdmod_act_addf(const fdmod_t *M, fvec_t out, int64_t off, uint32_t coef, int32_t op_deg,
                    int64_t op_idx, int32_t in_deg, fvec_t v);

/* The odd-prime profile (pmilnor.h's; the whole algebra by default; valid
 * by pmilnor_profile_check, SQ_CHECK).  At p = 2 the profile is the h-list
 * of fdmod_set_profile. */
void fdmod_set_pprofile(fdmod_t *M, const pmilnor_profile_t *prof);
const pmilnor_profile_t *fdmod_pprofile(const fdmod_t *M);

/* The completion, the check and the cost at every prime: as fdmod_complete,
 * fdmod_check_module and fdmod_complete_cost, over the algebra handle S
 * (at M's prime, with M's profile).  The generators are those
 * stalg_gen_index finds: Sq^{2^k} at p = 2, beta and P^{p^k} at odd p.  At
 * odd p the algebra must reach top - bottom.  Over a subalgebra that its
 * generators do not generate, the module is refused (SQ_E_INVAL, "not
 * generated") as soon as two cells lie as far apart as the first element
 * they miss. */
int fdmod_complete_alg(fdmod_t *M, const stalg_t *S, char *err, size_t errlen) SQ_WARN_UNUSED;
int fdmod_check_module_alg(const fdmod_t *M, const stalg_t *S, char *err,
                           size_t errlen) SQ_WARN_UNUSED;
void fdmod_complete_cost_alg(fdmod_cost_t *c, const fdmod_t *M, const stalg_t *S,
                             const uint32_t *given);
/* Checks (a b) x = a (b x) for every pair of basis elements a, b of S of
 * positive degree and every x (no assumption on generators; for tests and
 * tables set directly).  Returns 0 or SQ_E_INVAL with the first failure. */
int fdmod_check_module_all(const fdmod_t *M, const stalg_t *S, char *err,
                           size_t errlen) SQ_WARN_UNUSED;

/* The sphere S_p: F_p in degree 0, basis element "x0", called "S_<p>". */
fdmod_t *fdmod_sphere_p(uint32_t p);

#ifdef __cplusplus
}
#endif

#endif /* FDMOD_H */
