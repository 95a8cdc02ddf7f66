/*
 * fdmod_tensor.c -- the tensor product of two finite modules by the Cartan
 * formula on the algebra generators, then the completion (fdmod_tensor.h).
 */
#include "fdmod_tensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stalg.h"

/* A profile written out: h[i] the exponent bound of xi_{i+1} (30 for
 * unbounded), q the exterior generators kept (odd p). */
typedef struct {
    int32_t h[PMILNOR_MAX_PROFILE];
    uint32_t q;
} prof_t;

/* One factor: the module, the algebra its table is indexed by. */
typedef struct {
    const fdmod_t *M;
    stalg_t *S;
    int32_t bot, top;
} factor_t;

/* The product being built. */
typedef struct {
    uint32_t p;
    factor_t f[2];
    fdmod_t *P;
    stalg_t *S;
    int32_t bot, top;
    int64_t *off; /* off[(D - bot) * (f0 span + 1) + (dx - f0.bot)]: the first index of the
                   * pairs with |x| = dx in degree D */
} tensor_t;

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    if (errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

/* ---- Profiles ------------------------------------------------------------ */

static void profile_of(const fdmod_t *M, prof_t *pr)
{
    memset(pr, 0, sizeof *pr);
    if (fdmod_prime(M) == 2) {
        int32_t h[MILNOR_MAX_LEN];
        int len = fdmod_profile(M, h);
        for (int i = 0; i < PMILNOR_MAX_PROFILE; i++)
            pr->h[i] = len == 0 ? FDMOD_MAX_PROFILE_ENTRY : i < len ? h[i] : 0;
        pr->q = ~0u;
        return;
    }
    const pmilnor_profile_t *pp = fdmod_pprofile(M);
    for (int i = 0; i < PMILNOR_MAX_PROFILE; i++)
        pr->h[i] = i < pp->len ? pp->p_part[i] : pp->truncated ? 0 : FDMOD_MAX_PROFILE_ENTRY;
    pr->q = pp->q_part;
}

/* 1 when the algebra of a lies in that of b. */
static int contained(const prof_t *a, const prof_t *b)
{
    for (int i = 0; i < PMILNOR_MAX_PROFILE; i++)
        if (a->h[i] > b->h[i])
            return 0;
    return (a->q & ~b->q) == 0;
}

stalg_t *fdmod_new_algebra(const fdmod_t *M, int32_t deg)
{
    stalg_profile_t sp;
    stalg_profile_full(&sp);
    if (fdmod_prime(M) == 2) {
        int32_t h[MILNOR_MAX_LEN];
        int len = fdmod_profile(M, h);
        if (len > 0) {
            sp.truncated = 1;
            sp.len = len;
            memcpy(sp.p_part, h, (size_t)len * sizeof *h);
        }
    } else {
        const pmilnor_profile_t *pp = fdmod_pprofile(M);
        sp.truncated = pp->truncated;
        sp.q_part = pp->q_part;
        sp.len = pp->len;
        memcpy(sp.p_part, pp->p_part, sizeof sp.p_part);
    }
    return stalg_new(fdmod_prime(M), deg > 1 ? deg : 1, &sp);
}

/* Refuses an algebra at odd p too large to build (pmilnor_new's limits). */
static int check_algebra(const fdmod_t *M, int32_t deg, char *err, size_t errlen)
{
    uint32_t p = fdmod_prime(M);
    if (p == 2)
        return deg <= MILNOR_MAX_DEGREE ? 0
                                        : fail(err, errlen, SQ_E_RANGE,
                                               "the product spans %d degrees, more than the %d "
                                               "the algebra reaches",
                                               (int)deg, MILNOR_MAX_DEGREE);
    if (deg > PMILNOR_MAX_DEGREE ||
        pmilnor_size(p, deg > 1 ? deg : 1, fdmod_pprofile(M)) > PMILNOR_MAX_ELEMENTS)
        return fail(err, errlen, SQ_E_RANGE,
                    "the product spans %d degrees: the algebra at p = %u through that degree has "
                    "more than the %lld basis elements supported",
                    (int)deg, (unsigned)p, (long long)PMILNOR_MAX_ELEMENTS);
    return 0;
}

/* ---- The basis --------------------------------------------------------------- */

static int64_t dimf(const factor_t *f, int32_t d)
{
    return d < f->bot || d > f->top ? 0 : fdmod_dim(f->M, d);
}

/* The first index of the pairs with |x| = dx in degree D of the product. */
static int64_t pair_off(const tensor_t *T, int32_t D, int32_t dx)
{
    int32_t w = T->f[0].top - T->f[0].bot + 1;
    return T->off[(int64_t)(D - T->bot) * w + (dx - T->f[0].bot)];
}

/* Fills T->off and returns the total dimension (degrees bot..top). */
static int64_t count_basis(tensor_t *T)
{
    int32_t w = T->f[0].top - T->f[0].bot + 1;
    int64_t total = 0;
    T->off = sq_malloc((size_t)(T->top - T->bot + 1) * (size_t)w * sizeof *T->off);
    for (int32_t D = T->bot; D <= T->top; D++) {
        int64_t k = 0;
        for (int32_t dx = T->f[0].bot; dx <= T->f[0].top; dx++) {
            T->off[(int64_t)(D - T->bot) * w + (dx - T->f[0].bot)] = k;
            k += dimf(&T->f[0], dx) * dimf(&T->f[1], D - dx);
        }
        total += k;
        if (total > FDMOD_TENSOR_MAX_DIM)
            return total;
    }
    return total;
}

static void add_basis(tensor_t *T)
{
    const fdmod_t *M = T->f[0].M, *N = T->f[1].M;
    for (int32_t D = T->bot; D <= T->top; D++)
        for (int32_t dx = T->f[0].bot; dx <= T->f[0].top; dx++)
            for (int64_t a = 0; a < dimf(&T->f[0], dx); a++)
                for (int64_t b = 0; b < dimf(&T->f[1], D - dx); b++) {
                    const char *x = fdmod_basis_name(M, dx, a), *y = fdmod_basis_name(N, D - dx, b);
                    size_t n = strlen(x) + strlen(y) + 2;
                    char *nm = sq_malloc(n);
                    snprintf(nm, n, "%s*%s", x, y);
                    fdmod_add_basis(T->P, D, nm);
                    sq_free(nm);
                }
}

/* ---- The action of a generator --------------------------------------------- */

/* A term of the coproduct of a generator: e0 ⊗ e1 (degrees d0, d1), with
 * the Koszul sign (-1)^{|x|} when odd_sign. */
typedef struct {
    stalg_elt_t e[2];
    int32_t d[2];
    int64_t idx[2]; /* index of e[s] in factor s's algebra (-1: acts as zero; unused for d 0) */
    int odd_sign;
} term_t;

/* The terms of psi(g) for the generator of degree gdeg; returns how many
 * (terms has room for gdeg + 2). */
static int coproduct(uint32_t p, int32_t gdeg, term_t *terms)
{
    int n = 0;
    memset(terms, 0, (size_t)(gdeg + 2) * sizeof *terms);
    if (p != 2 && gdeg == 1) { /* beta ⊗ 1 + 1 ⊗ beta */
        terms[0].e[0].q = 1u;
        terms[0].d[0] = 1;
        terms[1].e[1].q = 1u;
        terms[1].d[1] = 1;
        terms[1].odd_sign = 1;
        return 2;
    }
    int32_t unit = p == 2 ? 1 : 2 * ((int32_t)p - 1), total = gdeg / unit;
    for (int32_t i = 0; i <= total; i++, n++) {
        int32_t j = total - i;
        terms[n].e[0].len = i > 0;
        terms[n].e[0].r[0] = i;
        terms[n].d[0] = i * unit;
        terms[n].e[1].len = j > 0;
        terms[n].e[1].r[0] = j;
        terms[n].d[1] = j * unit;
    }
    return n;
}

/* Looks up the index of each side of each term in its factor's algebra. */
static void term_indices(const tensor_t *T, term_t *terms, int nt)
{
    for (int t = 0; t < nt; t++)
        for (int s = 0; s < 2; s++)
            terms[t].idx[s] = terms[t].d[s] > stalg_max_degree(T->f[s].S)
                                  ? -1
                                  : stalg_index(T->f[s].S, &terms[t].e[s]);
}

/* The nonzero entries of op x, op = basis element oi of degree ed of
 * factor f's algebra (oi < 0: zero), x basis element idx of degree d of
 * f: into idxs/coefs (room for the target's dimension); returns how many,
 * 0 when op is not in f's algebra or the target is empty. */
static int64_t apply(const factor_t *f, int64_t oi, int32_t ed, int32_t d, int64_t idx,
                     int64_t *idxs, uint32_t *coefs)
{
    if (ed == 0) {
        idxs[0] = idx;
        coefs[0] = 1;
        return 1;
    }
    if (oi < 0 || dimf(f, d + ed) == 0)
        return 0;
    fvec_t v = fdmod_actionf(f->M, ed, oi, d, idx);
    int64_t n = 0;
    for (int64_t k = 0; k < v.len; k++) {
        uint32_t c = fvec_get(v, k);
        if (c) {
            idxs[n] = k;
            coefs[n++] = c;
        }
    }
    return n;
}

/* Scratch for act(): the entries of both sides. */
typedef struct {
    int64_t *idx[2];
    uint32_t *coef[2];
} scratch_t;

/* vec (zeroed, over degree D + gdeg) = g (x ⊗ y), x = (dx, a), y = (D - dx, b),
 * by the terms of psi(g).  Returns 1 when vec is nonzero. */
static int act(const tensor_t *T, const term_t *terms, int nt, int32_t D, int32_t dx, int64_t a,
               int64_t b, scratch_t *sc, fvec_t vec)
{
    uint32_t p = T->p;
    int32_t dy = D - dx, gdeg = terms[0].d[0] + terms[0].d[1];
    for (int t = 0; t < nt; t++) {
        int32_t tx = dx + terms[t].d[0], ty = dy + terms[t].d[1];
        if (tx + ty > T->top)
            continue;
        int64_t nu = apply(&T->f[0], terms[t].idx[0], terms[t].d[0], dx, a, sc->idx[0], sc->coef[0]);
        int64_t nw =
            nu ? apply(&T->f[1], terms[t].idx[1], terms[t].d[1], dy, b, sc->idx[1], sc->coef[1]) : 0;
        if (!nw)
            continue;
        uint32_t sign = terms[t].odd_sign && (dx & 1) ? p - 1 : 1;
        int64_t base = pair_off(T, D + gdeg, tx), wy = dimf(&T->f[1], ty);
        for (int64_t u = 0; u < nu; u++)
            for (int64_t w = 0; w < nw; w++) {
                uint32_t c = (uint32_t)((uint64_t)sc->coef[0][u] * sc->coef[1][w] % p);
                fvec_add_entry(vec, base + sc->idx[0][u] * wy + sc->idx[1][w],
                               (uint32_t)((uint64_t)c * sign % p));
            }
    }
    return !fvec_is_zero(vec);
}

/* Every generator on every basis element: with set == 0 only records in
 * given (per degree, the slots of the generators acting nonzero); with
 * set == 1 sets the actions. */
static void each_action(tensor_t *T, uint32_t *given, int set)
{
    int32_t gd[32];
    int64_t gi[32];
    int ng = stalg_gens(T->S, T->top - T->bot, gd, gi, 32);
    int64_t room = 1;
    for (int32_t d = T->f[0].bot; d <= T->f[0].top; d++)
        room = dimf(&T->f[0], d) > room ? dimf(&T->f[0], d) : room;
    for (int32_t d = T->f[1].bot; d <= T->f[1].top; d++)
        room = dimf(&T->f[1], d) > room ? dimf(&T->f[1], d) : room;
    scratch_t sc;
    for (int s = 0; s < 2; s++) {
        sc.idx[s] = sq_malloc((size_t)room * sizeof *sc.idx[s]);
        sc.coef[s] = sq_malloc((size_t)room * sizeof *sc.coef[s]);
    }
    for (int g = 0; g < ng && g < 32; g++) {
        term_t *terms = sq_malloc((size_t)(gd[g] + 2) * sizeof *terms);
        int nt = coproduct(T->p, gd[g], terms);
        term_indices(T, terms, nt);
        for (int32_t D = T->bot; D + gd[g] <= T->top; D++) {
            int64_t tdim = fdmod_dim(T->P, D + gd[g]), k = 0;
            if (tdim == 0 || fdmod_dim(T->P, D) == 0)
                continue;
            fvec_t vec;
            fvec_init(&vec, tdim, T->p);
            int done = 0;
            for (int32_t dx = T->f[0].bot; dx <= T->f[0].top && !done; dx++)
                for (int64_t a = 0; a < dimf(&T->f[0], dx) && !done; a++)
                    for (int64_t b = 0; b < dimf(&T->f[1], D - dx) && !done; b++, k++) {
                        fvec_zero(vec);
                        if (!act(T, terms, nt, D, dx, a, b, &sc, vec))
                            continue;
                        if (set)
                            fdmod_set_genf(T->P, T->S, gd[g], D, k, vec);
                        else {
                            given[D - T->bot] |= 1u << fdmod_gen_slot(T->p, gd[g]);
                            done = 1;
                        }
                    }
            fvec_clear(&vec);
        }
        sq_free(terms);
    }
    for (int s = 0; s < 2; s++) {
        sq_free(sc.idx[s]);
        sq_free(sc.coef[s]);
    }
}

/* ---- The product --------------------------------------------------------------- */

static void release(tensor_t *T)
{
    for (int s = 0; s < 2; s++)
        stalg_free(T->f[s].S);
    stalg_free(T->S);
    sq_free(T->off);
}

/* The checks before anything is allocated: primes, profiles, degrees.
 * Sets *small to the factor whose algebra the product is over. */
static int check_factors(const fdmod_t *M, const fdmod_t *N, int32_t max_degree, int *small,
                         char *err, size_t errlen)
{
    if (fdmod_prime(M) != fdmod_prime(N))
        return fail(err, errlen, SQ_E_INVAL,
                    "%s is at the prime %u and %s at the prime %u: a tensor product needs one "
                    "prime",
                    fdmod_name(M), (unsigned)fdmod_prime(M), fdmod_name(N),
                    (unsigned)fdmod_prime(N));
    prof_t a, b;
    profile_of(M, &a);
    profile_of(N, &b);
    if (!contained(&a, &b) && !contained(&b, &a))
        return fail(err, errlen, SQ_E_INVAL,
                    "%s and %s are modules over different subalgebras, neither of which "
                    "contains the other (a tensor product is over one algebra)",
                    fdmod_name(M), fdmod_name(N));
    *small = contained(&a, &b) ? 0 : 1;
    if (fdmod_bottom(M) > fdmod_top(M) || fdmod_bottom(N) > fdmod_top(N) ||
        (int64_t)fdmod_bottom(M) + fdmod_bottom(N) > max_degree)
        return fail(err, errlen, SQ_E_INVAL, "the tensor product of %s and %s is zero%s",
                    fdmod_name(M), fdmod_name(N),
                    max_degree == INT32_MAX ? "" : " in the degrees kept");
    int64_t lo = (int64_t)fdmod_bottom(M) + fdmod_bottom(N);
    int64_t hi = (int64_t)fdmod_top(M) + fdmod_top(N);
    if (hi > max_degree)
        hi = max_degree;
    if (hi - lo >= FDMOD_MAX_RANGE || lo < -INT32_MAX / 2 || hi > INT32_MAX / 2)
        return fail(err, errlen, SQ_E_RANGE,
                    "the tensor product of %s and %s spans degrees %lld..%lld, more than a "
                    "module may",
                    fdmod_name(M), fdmod_name(N), (long long)lo, (long long)hi);
    return check_algebra(*small ? N : M, (int32_t)(hi - lo), err, errlen);
}

/* The estimate against the limit, before any action is set. */
static int check_cost(tensor_t *T, int64_t dim, int64_t max_bytes, char *err, size_t errlen)
{
    uint32_t *given = sq_calloc((size_t)(T->top - T->bot) + 1, sizeof *given);
    each_action(T, given, 0);
    fdmod_cost_t c;
    fdmod_complete_cost_alg(&c, T->P, T->S, given);
    sq_free(given);
    double limit = (double)(max_bytes > 0 ? max_bytes : SQ_MODULE_TABLE_LIMIT);
    double total = c.table_bytes + c.reduce_bytes + 64.0 * (double)dim;
    if (total > limit)
        return fail(err, errlen, SQ_E_RANGE,
                    "the tensor product %s is too large: its action tables and their derivation "
                    "would take %.0f MiB (at most %.0f)",
                    fdmod_name(T->P), total / 1048576.0, limit / 1048576.0);
    return 0;
}

int fdmod_tensor(fdmod_t **out, const fdmod_t *M, const fdmod_t *N, const char *name,
                 int32_t max_degree, int64_t max_bytes, char *err, size_t errlen)
{
    int small = 0;
    *out = NULL;
    int rc = check_factors(M, N, max_degree, &small, err, errlen);
    if (rc)
        return rc;
    tensor_t T;
    memset(&T, 0, sizeof T);
    T.p = fdmod_prime(M);
    T.f[0] = (factor_t){M, NULL, fdmod_bottom(M), fdmod_top(M)};
    T.f[1] = (factor_t){N, NULL, fdmod_bottom(N), fdmod_top(N)};
    T.bot = T.f[0].bot + T.f[1].bot;
    T.top = T.f[0].top + T.f[1].top > max_degree ? max_degree : T.f[0].top + T.f[1].top;
    int64_t dim = count_basis(&T);
    if (dim > FDMOD_TENSOR_MAX_DIM) {
        release(&T);
        return fail(err, errlen, SQ_E_RANGE,
                    "the tensor product of %s and %s has more than %lld basis elements",
                    fdmod_name(M), fdmod_name(N), (long long)FDMOD_TENSOR_MAX_DIM);
    }
    size_t nl = strlen(fdmod_name(M)) + strlen(fdmod_name(N)) + 2;
    char *dflt = sq_malloc(nl);
    snprintf(dflt, nl, "%s*%s", fdmod_name(M), fdmod_name(N));
    T.P = fdmod_new_p(name ? name : dflt, T.p, T.bot, T.top);
    sq_free(dflt);
    const fdmod_t *over = small ? N : M;
    if (T.p == 2) {
        int32_t h[MILNOR_MAX_LEN];
        fdmod_set_profile(T.P, h, fdmod_profile(over, h));
    } else
        fdmod_set_pprofile(T.P, fdmod_pprofile(over));
    for (int s = 0; s < 2; s++) { /* what lands beyond the product's span never matters */
        int32_t span = T.f[s].top - T.f[s].bot;
        T.f[s].S = fdmod_new_algebra(T.f[s].M, span < T.top - T.bot ? span : T.top - T.bot);
    }
    T.S = fdmod_new_algebra(T.P, T.top - T.bot);
    add_basis(&T);
    rc = check_cost(&T, dim, max_bytes, err, errlen);
    if (!rc) {
        each_action(&T, NULL, 1);
        rc = fdmod_complete_alg(T.P, T.S, err, errlen);
    }
    release(&T);
    if (rc)
        fdmod_free(T.P);
    else
        *out = T.P;
    return rc;
}
