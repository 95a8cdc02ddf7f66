/*
 * fdmod.c -- finite-dimensional modules over A (see fdmod.h).
 */
#include "fdmod.h"

#include <stdio.h>
#include <string.h>

#include "f2mat.h"
#include "sq_core.h"

/* Action block for one (input degree, op degree) pair. */
typedef struct {
    int64_t nops;       /* dim A_k (0: not allocated) */
    int64_t limbs;      /* limbs per output vector */
    uint64_t *vecs;     /* nops * dim M_d vectors */
} action_block_t;

struct fdmod {
    char *name;
    int32_t min_deg, max_deg;
    int64_t *dim;          /* per degree */
    char ***names;         /* per degree, per index */
    action_block_t *act;   /* [(d - min) * span + k], k in 0..span-1 */
    int32_t span;
    int32_t profile[16];
    int profile_len;
};

fdmod_t *fdmod_new(const char *name, int32_t min_deg, int32_t max_deg)
{
    SQ_CHECK(max_deg >= min_deg && max_deg - min_deg < 4096, "fdmod_new: bad degree range");
    fdmod_t *M = sq_calloc(1, sizeof *M);
    M->name = sq_strdup(name ? name : "module");
    M->min_deg = min_deg;
    M->max_deg = max_deg;
    M->span = max_deg - min_deg + 1;
    M->dim = sq_calloc((size_t)M->span, sizeof *M->dim);
    M->names = sq_calloc((size_t)M->span, sizeof *M->names);
    M->act = sq_calloc(sq_mul_size((size_t)M->span, (size_t)M->span), sizeof *M->act);
    return M;
}

void fdmod_free(fdmod_t *M)
{
    if (!M)
        return;
    for (int32_t d = 0; d < M->span; d++) {
        for (int64_t i = 0; i < M->dim[d]; i++)
            sq_free(M->names[d][i]);
        sq_free(M->names[d]);
    }
    for (int64_t i = 0; i < (int64_t)M->span * M->span; i++)
        sq_free(M->act[i].vecs);
    sq_free(M->act);
    sq_free(M->names);
    sq_free(M->dim);
    sq_free(M->name);
    sq_free(M);
}

const char *fdmod_name(const fdmod_t *M)
{
    return M->name;
}

int32_t fdmod_min_degree(const fdmod_t *M)
{
    return M->min_deg;
}

int32_t fdmod_max_degree(const fdmod_t *M)
{
    return M->max_deg;
}

int32_t fdmod_bottom(const fdmod_t *M)
{
    for (int32_t d = 0; d < M->span; d++)
        if (M->dim[d])
            return M->min_deg + d;
    return M->max_deg + 1;
}

int32_t fdmod_top(const fdmod_t *M)
{
    for (int32_t d = M->span - 1; d >= 0; d--)
        if (M->dim[d])
            return M->min_deg + d;
    return M->min_deg - 1;
}

int64_t fdmod_dim(const fdmod_t *M, int32_t deg)
{
    if (deg < M->min_deg || deg > M->max_deg)
        return 0;
    return M->dim[deg - M->min_deg];
}

int64_t fdmod_add_basis(fdmod_t *M, int32_t deg, const char *name)
{
    SQ_CHECK(deg >= M->min_deg && deg <= M->max_deg, "fdmod_add_basis: degree %d out of range",
             (int)deg);
    int32_t d = deg - M->min_deg;
    for (int32_t k = 0; k < M->span; k++)
        SQ_CHECK(M->act[(int64_t)d * M->span + k].vecs == NULL,
                 "fdmod_add_basis after fdmod_set_action");
    int64_t idx = M->dim[d]++;
    M->names[d] = sq_realloc(M->names[d], sq_mul_size((size_t)M->dim[d], sizeof(char *)));
    if (name) {
        M->names[d][idx] = sq_strdup(name);
    } else {
        int64_t global = idx;
        for (int32_t e = 0; e < d; e++)
            global += M->dim[e];
        char buf[32];
        snprintf(buf, sizeof buf, "x%lld", (long long)global);
        M->names[d][idx] = sq_strdup(buf);
    }
    return idx;
}

const char *fdmod_basis_name(const fdmod_t *M, int32_t deg, int64_t idx)
{
    SQ_CHECK(idx >= 0 && idx < fdmod_dim(M, deg), "fdmod_basis_name: bad index");
    return M->names[deg - M->min_deg][idx];
}

int fdmod_find(const fdmod_t *M, const char *name, int32_t *deg, int64_t *idx)
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

static action_block_t *block(const fdmod_t *M, int32_t in_deg, int32_t op_deg)
{
    if (in_deg < M->min_deg || in_deg > M->max_deg || op_deg <= 0 || op_deg >= M->span)
        return NULL;
    return &M->act[(int64_t)(in_deg - M->min_deg) * M->span + op_deg];
}

void fdmod_set_action(fdmod_t *M, const milnor_t *A, int32_t op_deg, int64_t op_idx,
                      int32_t in_deg, int64_t in_idx, const uint64_t *vec)
{
    SQ_CHECK(op_deg > 0, "fdmod_set_action: op degree must be positive");
    SQ_CHECK(in_idx >= 0 && in_idx < fdmod_dim(M, in_deg), "fdmod_set_action: bad input");
    int64_t out_dim = fdmod_dim(M, in_deg + op_deg);
    if (out_dim == 0)
        return;
    action_block_t *b = block(M, in_deg, op_deg);
    SQ_CHECK(b != NULL, "fdmod_set_action: degree out of range");
    if (!b->vecs) {
        b->nops = milnor_dim(A, op_deg);
        b->limbs = f2_limbs(out_dim);
        b->vecs = sq_calloc(sq_mul_size((size_t)(b->nops * fdmod_dim(M, in_deg)), (size_t)b->limbs),
                            sizeof(uint64_t));
    }
    SQ_CHECK(op_idx >= 0 && op_idx < b->nops, "fdmod_set_action: bad op index");
    memcpy(b->vecs + (op_idx * fdmod_dim(M, in_deg) + in_idx) * b->limbs, vec,
           (size_t)b->limbs * sizeof(uint64_t));
}

const uint64_t *fdmod_action(const fdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                             int64_t in_idx)
{
    action_block_t *b = block(M, in_deg, op_deg);
    if (!b || !b->vecs)
        return NULL;
    return b->vecs + (op_idx * fdmod_dim(M, in_deg) + in_idx) * b->limbs;
}

static void xor_bits_at(uint64_t *out, int64_t off, const uint64_t *v, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        if ((v[j >> 6] >> (j & 63)) & 1)
            out[(off + j) >> 6] ^= 1ULL << ((off + j) & 63);
}

void fdmod_act_add(const fdmod_t *M, uint64_t *out, int64_t off, int32_t op_deg, int64_t op_idx,
                   int32_t in_deg, const uint64_t *v)
{
    int64_t in_dim = fdmod_dim(M, in_deg);
    int64_t out_dim = fdmod_dim(M, in_deg + op_deg);
    if (in_dim == 0 || out_dim == 0)
        return;
    if (op_deg == 0) {
        xor_bits_at(out, off, v, in_dim);
        return;
    }
    for (int64_t j = 0; j < in_dim; j++) {
        if (!((v[j >> 6] >> (j & 63)) & 1))
            continue;
        const uint64_t *w = fdmod_action(M, op_deg, op_idx, in_deg, j);
        if (w)
            xor_bits_at(out, off, w, out_dim);
    }
}

void fdmod_set_profile(fdmod_t *M, const int32_t *h, int len)
{
    SQ_CHECK(len >= 0 && len <= 16, "fdmod_set_profile: length %d", len);
    for (int i = 0; i < len; i++) {
        SQ_CHECK(h[i] >= 0 && h[i] <= 30, "fdmod_set_profile: entry %d", (int)h[i]);
        M->profile[i] = h[i];
    }
    M->profile_len = len;
}

int fdmod_profile(const fdmod_t *M, int32_t *h)
{
    for (int i = 0; i < M->profile_len; i++)
        h[i] = M->profile[i];
    return M->profile_len;
}

fdmod_t *fdmod_sphere(void)
{
    fdmod_t *M = fdmod_new("S_2", 0, 0);
    fdmod_add_basis(M, 0, "x0");
    return M;
}

fdmod_t *fdmod_new_shifted(const fdmod_t *M, int32_t k, const char *name)
{
    fdmod_t *N = fdmod_new(name ? name : M->name, M->min_deg + k, M->max_deg + k);
    for (int32_t d = 0; d < M->span; d++)
        for (int64_t i = 0; i < M->dim[d]; i++)
            fdmod_add_basis(N, M->min_deg + d + k, M->names[d][i]);
    for (int64_t i = 0; i < (int64_t)M->span * M->span; i++) {
        const action_block_t *b = &M->act[i];
        if (!b->vecs)
            continue;
        int64_t n = b->nops * M->dim[i / M->span] * b->limbs;
        N->act[i] = *b;
        N->act[i].vecs = sq_malloc(sq_mul_size((size_t)n, sizeof(uint64_t)));
        memcpy(N->act[i].vecs, b->vecs, (size_t)n * sizeof(uint64_t));
    }
    fdmod_set_profile(N, M->profile, M->profile_len);
    return N;
}
