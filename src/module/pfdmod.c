/*
 * pfdmod.c -- finite-dimensional modules at odd primes: storage (see
 * pfdmod.h).  Deriving and checking actions is in pfdmod_build.c.
 */
#include "pfdmod.h"

#include <stdio.h>
#include <string.h>

#include "fpmat.h"
#include "pfdmod_internal.h"

pfdmod_t *pfdmod_new(const char *name, uint32_t p, int32_t min_deg, int32_t max_deg)
{
    SQ_CHECK(max_deg >= min_deg && (int64_t)max_deg - min_deg < 4096,
             "pfdmod_new: bad degree range %d..%d", (int)min_deg, (int)max_deg);
    SQ_CHECK(p >= 3 && fp_prime_ok(p), "pfdmod_new: %u is not an odd prime below 256",
             (unsigned)p);
    pfdmod_t *M = sq_calloc(1, sizeof *M);
    M->name = sq_strdup(name ? name : "module");
    M->p = p;
    M->min_deg = min_deg;
    M->max_deg = max_deg;
    M->span = max_deg - min_deg + 1;
    M->dim = sq_calloc((size_t)M->span, sizeof *M->dim);
    M->names = sq_calloc((size_t)M->span, sizeof *M->names);
    M->act = sq_calloc((size_t)M->span, sizeof *M->act);
    M->gen = sq_calloc((size_t)M->span, sizeof *M->gen);
    pmilnor_profile_full(&M->prof);
    return M;
}

void pfdmod_free(pfdmod_t *M)
{
    if (!M)
        return;
    for (int32_t d = 0; d < M->span; d++) {
        for (int64_t i = 0; i < M->dim[d]; i++)
            sq_free(M->names[d][i]);
        sq_free(M->names[d]);
        if (M->act[d]) {
            for (int32_t k = 0; k < M->span; k++)
                sq_free(M->act[d][k].vecs);
            sq_free(M->act[d]);
        }
        if (M->gen[d]) {
            for (int s = 0; s < PFDMOD_MAX_GENS; s++)
                sq_free(M->gen[d][s]);
            sq_free(M->gen[d]);
        }
    }
    sq_free(M->act);
    sq_free(M->gen);
    sq_free(M->names);
    sq_free(M->dim);
    sq_free(M->name);
    sq_free(M);
}

const char *pfdmod_name(const pfdmod_t *M)
{
    return M->name;
}

uint32_t pfdmod_prime(const pfdmod_t *M)
{
    return M->p;
}

int32_t pfdmod_min_degree(const pfdmod_t *M)
{
    return M->min_deg;
}

int32_t pfdmod_max_degree(const pfdmod_t *M)
{
    return M->max_deg;
}

int32_t pfdmod_bottom(const pfdmod_t *M)
{
    for (int32_t d = 0; d < M->span; d++)
        if (M->dim[d])
            return M->min_deg + d;
    return M->max_deg + 1;
}

int32_t pfdmod_top(const pfdmod_t *M)
{
    for (int32_t d = M->span - 1; d >= 0; d--)
        if (M->dim[d])
            return M->min_deg + d;
    return M->min_deg - 1;
}

int64_t pfdmod_add_basis(pfdmod_t *M, int32_t deg, const char *name)
{
    SQ_CHECK(deg >= M->min_deg && deg <= M->max_deg, "pfdmod_add_basis: degree %d out of range",
             (int)deg);
    SQ_CHECK(!M->has_actions, "pfdmod_add_basis: basis changed after actions were set");
    int32_t d = deg - M->min_deg;
    int64_t i = M->dim[d]++;
    M->names[d] = sq_realloc(M->names[d], sq_mul_size((size_t)M->dim[d], sizeof *M->names[d]));
    if (name) {
        M->names[d][i] = sq_strdup(name);
    } else {
        char buf[48];
        snprintf(buf, sizeof buf, "x%d_%lld", (int)deg, (long long)i);
        M->names[d][i] = sq_strdup(buf);
    }
    return i;
}

int64_t pfdmod_dim(const pfdmod_t *M, int32_t deg)
{
    if (deg < M->min_deg || deg > M->max_deg)
        return 0;
    return M->dim[deg - M->min_deg];
}

const char *pfdmod_basis_name(const pfdmod_t *M, int32_t deg, int64_t idx)
{
    SQ_CHECK(idx >= 0 && idx < pfdmod_dim(M, deg), "pfdmod_basis_name: no element %lld in %d",
             (long long)idx, (int)deg);
    return M->names[deg - M->min_deg][idx];
}

int pfdmod_find(const pfdmod_t *M, const char *name, int32_t *deg, int64_t *idx)
{
    for (int32_t d = 0; d < M->span; d++)
        for (int64_t i = 0; i < M->dim[d]; i++)
            if (strcmp(M->names[d][i], name) == 0) {
                *deg = M->min_deg + d;
                *idx = i;
                return 0;
            }
    return -1;
}

void pfdmod_set_profile(pfdmod_t *M, const pmilnor_profile_t *prof)
{
    char err[200];
    SQ_CHECK(pmilnor_profile_check(M->p, prof, err, sizeof err) == 0, "pfdmod_set_profile: %s",
             err);
    M->prof = *prof;
}

const pmilnor_profile_t *pfdmod_profile(const pfdmod_t *M)
{
    return &M->prof;
}

/* The action block of input degree d (relative) and op degree k, created
 * with nops slots when absent. */
static pfdmod_block_t *block(pfdmod_t *M, int32_t d, int32_t k, int64_t nops)
{
    if (!M->act[d])
        M->act[d] = sq_calloc((size_t)M->span, sizeof *M->act[d]);
    pfdmod_block_t *b = &M->act[d][k];
    if (!b->vecs) {
        b->nops = nops;
        b->tdim = M->dim[d + k];
        b->vecs = sq_calloc(sq_mul_size(sq_mul_size((size_t)nops, (size_t)M->dim[d]),
                                        (size_t)(b->tdim ? b->tdim : 1)),
                            1);
    }
    return b;
}

void pfdmod_set_action(pfdmod_t *M, const pmilnor_t *A, int32_t op_deg, int64_t op_idx,
                       int32_t in_deg, int64_t in_idx, const uint8_t *vec)
{
    SQ_CHECK(op_deg > 0 && op_idx >= 0 && op_idx < pmilnor_dim(A, op_deg),
             "pfdmod_set_action: no operation %lld in degree %d", (long long)op_idx,
             (int)op_deg);
    SQ_CHECK(in_idx >= 0 && in_idx < pfdmod_dim(M, in_deg), "pfdmod_set_action: bad input");
    M->has_actions = 1;
    int64_t out_deg = (int64_t)in_deg + op_deg;
    if (out_deg > M->max_deg || !pfdmod_dim(M, (int32_t)out_deg))
        return;
    int32_t d = in_deg - M->min_deg;
    pfdmod_block_t *b = block(M, d, op_deg, pmilnor_dim(A, op_deg));
    SQ_CHECK(op_idx < b->nops, "pfdmod_set_action: algebra mismatch");
    uint8_t *dst = b->vecs + ((size_t)op_idx * (size_t)M->dim[d] + (size_t)in_idx) * (size_t)b->tdim;
    for (int64_t i = 0; i < b->tdim; i++)
        dst[i] = (uint8_t)(vec[i] % M->p);
}

const uint8_t *pfdmod_action(const pfdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                             int64_t in_idx)
{
    if (op_deg <= 0 || op_deg >= M->span || in_deg < M->min_deg || in_deg > M->max_deg)
        return NULL;
    int32_t d = in_deg - M->min_deg;
    if (!M->act[d])
        return NULL;
    const pfdmod_block_t *b = &M->act[d][op_deg];
    if (!b->vecs || !b->tdim || op_idx >= b->nops)
        return NULL;
    return b->vecs + ((size_t)op_idx * (size_t)M->dim[d] + (size_t)in_idx) * (size_t)b->tdim;
}

void pfdmod_act_add(const pfdmod_t *M, uint8_t *out, uint32_t coef, int32_t op_deg,
                    int64_t op_idx, int32_t in_deg, const uint8_t *v)
{
    int64_t n = pfdmod_dim(M, in_deg);
    coef %= M->p;
    if (!coef)
        return;
    if (op_deg == 0) {
        fpvec_addmul(out, v, n, coef, M->p);
        return;
    }
    int64_t tn = pfdmod_dim(M, in_deg + op_deg);
    for (int64_t j = 0; j < n; j++) {
        if (!v[j])
            continue;
        const uint8_t *a = pfdmod_action(M, op_deg, op_idx, in_deg, j);
        if (a)
            fpvec_addmul(out, a, tn, coef * v[j], M->p);
    }
}

int pfdmod_is_gen_degree(uint32_t p, int32_t gen_deg)
{
    return pfdmod_gen_slot(p, gen_deg) >= 0;
}

int pfdmod_gen_slot(uint32_t p, int32_t gen_deg)
{
    if (gen_deg == 1)
        return 0;
    int64_t g = 2 * (int64_t)(p - 1);
    for (int s = 1; s < PFDMOD_MAX_GENS && g <= INT32_MAX; s++, g *= p)
        if (g == gen_deg)
            return s;
    return -1;
}

void pfdmod_set_gen(pfdmod_t *M, const pmilnor_t *A, int32_t gen_deg, int32_t in_deg,
                    int64_t in_idx, const uint8_t *vec)
{
    (void)A;
    int s = pfdmod_gen_slot(M->p, gen_deg);
    SQ_CHECK(s >= 0, "pfdmod_set_gen: %d is not the degree of a generator", (int)gen_deg);
    SQ_CHECK(in_idx >= 0 && in_idx < pfdmod_dim(M, in_deg), "pfdmod_set_gen: bad input");
    M->has_actions = 1;
    int64_t out_deg = (int64_t)in_deg + gen_deg;
    if (out_deg > M->max_deg || !pfdmod_dim(M, (int32_t)out_deg))
        return;
    int32_t d = in_deg - M->min_deg;
    if (!M->gen[d])
        M->gen[d] = sq_calloc(PFDMOD_MAX_GENS, sizeof *M->gen[d]);
    int64_t tn = pfdmod_dim(M, (int32_t)out_deg);
    if (!M->gen[d][s])
        M->gen[d][s] = sq_calloc(sq_mul_size((size_t)M->dim[d], (size_t)tn), 1);
    uint8_t *dst = M->gen[d][s] + (size_t)in_idx * (size_t)tn;
    for (int64_t i = 0; i < tn; i++)
        dst[i] = (uint8_t)(vec[i] % M->p);
}

const uint8_t *pfdmod_gen_action(const pfdmod_t *M, int slot, int32_t in_deg, int64_t in_idx)
{
    if (in_deg < M->min_deg || in_deg > M->max_deg)
        return NULL;
    int32_t d = in_deg - M->min_deg;
    if (!M->gen[d] || !M->gen[d][slot])
        return NULL;
    int32_t gd = pfdmod_slot_degree(M->p, slot);
    int64_t tn = pfdmod_dim(M, in_deg + gd);
    return M->gen[d][slot] + (size_t)in_idx * (size_t)tn;
}

int32_t pfdmod_slot_degree(uint32_t p, int slot)
{
    if (slot == 0)
        return 1;
    int64_t g = 2 * (int64_t)(p - 1);
    for (int s = 1; s < slot; s++)
        g *= p;
    return g > INT32_MAX ? INT32_MAX : (int32_t)g;
}

pfdmod_t *pfdmod_sphere(uint32_t p)
{
    pfdmod_t *M = pfdmod_new("S_p", p, 0, 0);
    char name[16];
    snprintf(name, sizeof name, "S_%u", (unsigned)p);
    sq_free(M->name);
    M->name = sq_strdup(name);
    pfdmod_add_basis(M, 0, "x0");
    return M;
}

pfdmod_t *pfdmod_new_shifted(const pfdmod_t *M, int32_t k, const char *name)
{
    pfdmod_t *N = pfdmod_new(name ? name : M->name, M->p, M->min_deg + k, M->max_deg + k);
    N->prof = M->prof;
    for (int32_t d = 0; d < M->span; d++)
        for (int64_t i = 0; i < M->dim[d]; i++)
            pfdmod_add_basis(N, M->min_deg + d + k, M->names[d][i]);
    for (int32_t d = 0; d < M->span; d++) {
        if (M->act[d]) {
            N->act[d] = sq_calloc((size_t)N->span, sizeof *N->act[d]);
            for (int32_t kk = 0; kk < M->span; kk++) {
                const pfdmod_block_t *b = &M->act[d][kk];
                if (!b->vecs)
                    continue;
                size_t bytes = (size_t)b->nops * (size_t)M->dim[d] * (size_t)(b->tdim ? b->tdim : 1);
                N->act[d][kk] = *b;
                N->act[d][kk].vecs = sq_malloc(bytes);
                memcpy(N->act[d][kk].vecs, b->vecs, bytes);
            }
        }
        if (M->gen[d]) {
            N->gen[d] = sq_calloc(PFDMOD_MAX_GENS, sizeof *N->gen[d]);
            for (int s = 0; s < PFDMOD_MAX_GENS; s++) {
                if (!M->gen[d][s])
                    continue;
                int64_t tn = pfdmod_dim(M, M->min_deg + d + pfdmod_slot_degree(M->p, s));
                size_t bytes = (size_t)M->dim[d] * (size_t)tn;
                N->gen[d][s] = sq_malloc(bytes ? bytes : 1);
                memcpy(N->gen[d][s], M->gen[d][s], bytes);
            }
        }
    }
    N->has_actions = M->has_actions;
    return N;
}
