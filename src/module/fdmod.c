/*
 * fdmod.c -- finite-dimensional modules over A at every prime: storage
 * (see fdmod.h).  Completing and checking actions is in fdmod_build.c.
 */
#include "fdmod.h"

#include <stdio.h>
#include <string.h>

#include "f2mat.h"
#include "fpmat.h"
#include "internal.h"
#include "sq_core.h"

/*
 * How the action is stored.  For each input degree d a row of blocks is
 * allocated on the first action set from d, one block per operation degree
 * k = 1 .. max_deg - d; a block holds Sq(R) x for every R in A_k and every x
 * in M_d.  Degrees from which nothing acts have no row, and a block that was
 * never set is empty, so the table costs memory only for the pairs of
 * degrees (d, d + k) that carry an action: a module of span 2000 with three
 * cells and one Sq^1 stores one block, not 2000^2.
 *
 *     act[d - min_deg] --> NULL                         (nothing acts from d)
 *                      --> [ - | blk(d,1) | blk(d,2) | ... | blk(d,max-d) ]
 *     blk(d,k).vecs    --> nops * dim M_d vectors of dim M_{d+k} entries (limbs at p = 2, bytes at odd p),
 *                          (op index, basis index) in row-major order, or NULL
 */

/* Action block for one (input degree, op degree) pair. */
typedef struct {
    int64_t nops;       /* dim A_k (0: not allocated) */
    int64_t stride;     /* bytes per output vector: fvec_bytes_for(p, dim M_{d+k}) */
    void *vecs;         /* nops * dim M_d vectors (limbs at p = 2, bytes at odd p) */
    int mixed;          /* 1: some element other than the generator of degree k was set nonzero */
} action_block_t;

struct fdmod {
    char *name;
    uint32_t p;
    int32_t min_deg, max_deg;
    int32_t span;          /* max_deg - min_deg + 1 */
    int32_t bot, top;      /* lowest and highest nonzero degree (bot > top: M = 0) */
    int64_t *dim;          /* per degree */
    char ***names;         /* per degree, per index */
    action_block_t **act;  /* per input degree: NULL or max_deg - d + 1 blocks (index k) */
    int32_t profile[FDMOD_MAX_PROFILE_LEN]; /* p = 2 */
    int profile_len;
    pmilnor_profile_t pprof; /* odd p */
    int has_actions;
};

fdmod_t *fdmod_new(const char *name, int32_t min_deg, int32_t max_deg)
{
    return fdmod_new_p(name, 2, min_deg, max_deg);
}

fdmod_t *fdmod_new_p(const char *name, uint32_t p, int32_t min_deg, int32_t max_deg)
{
    SQ_CHECK(max_deg >= min_deg && (int64_t)max_deg - min_deg < FDMOD_MAX_RANGE,
             "fdmod_new: bad degree range %d..%d", (int)min_deg, (int)max_deg);
    SQ_CHECK(fmat_prime_ok(p), "fdmod_new: %u is not 2 or an odd prime below 256", (unsigned)p);
    fdmod_t *M = sq_calloc(1, sizeof *M);
    M->name = sq_strdup(name ? name : "module");
    M->p = p;
    pmilnor_profile_full(&M->pprof);
    M->min_deg = min_deg;
    M->max_deg = max_deg;
    M->span = max_deg - min_deg + 1;
    M->bot = max_deg + 1;
    M->top = min_deg - 1;
    M->dim = sq_calloc((size_t)M->span, sizeof *M->dim);
    M->names = sq_calloc((size_t)M->span, sizeof *M->names);
    M->act = sq_calloc((size_t)M->span, sizeof *M->act);
    return M;
}

/* Number of blocks in the row of input degree index d (0-based). */
static int32_t row_len(const fdmod_t *M, int32_t d)
{
    return M->span - d;
}

void fdmod_free(fdmod_t *M)
{
    if (!M)
        return;
    for (int32_t d = 0; d < M->span; d++) {
        for (int64_t i = 0; i < M->dim[d]; i++)
            sq_free(M->names[d][i]);
        sq_free(M->names[d]);
        if (M->act[d]) {
            for (int32_t k = 0; k < row_len(M, d); k++)
                sq_free(M->act[d][k].vecs);
            sq_free(M->act[d]);
        }
    }
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

uint32_t fdmod_prime(const fdmod_t *M)
{
    return M->p;
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
    return M->bot;
}

int32_t fdmod_top(const fdmod_t *M)
{
    return M->top;
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
    SQ_CHECK(M->act[d] == NULL, "fdmod_add_basis after fdmod_set_action");
    SQ_CHECK(M->p == 2 || !M->has_actions,
             "fdmod_add_basis: basis changed after actions were set");
    int64_t idx = M->dim[d]++;
    /* Capacity doubles at each power of two, so n names cost O(n). */
    if ((idx & (idx - 1)) == 0)
        M->names[d] = sq_realloc(M->names[d],
                                 sq_mul_size(idx ? 2 * (size_t)idx : 1, sizeof(char *)));
    if (name) {
        M->names[d][idx] = sq_strdup(name);
    } else if (M->p != 2) {
        char buf[48];
        snprintf(buf, sizeof buf, "x%d_%lld", (int)deg, (long long)idx);
        M->names[d][idx] = sq_strdup(buf);
    } else {
        int64_t global = idx;
        for (int32_t e = 0; e < d; e++)
            global += M->dim[e];
        char buf[32];
        snprintf(buf, sizeof buf, "x%lld", (long long)global);
        M->names[d][idx] = sq_strdup(buf);
    }
    if (deg < M->bot)
        M->bot = deg;
    if (deg > M->top)
        M->top = deg;
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

/* The block of (in_deg, op_deg), or NULL when its row is not allocated
 * or the pair is outside the range. */
static action_block_t *block(const fdmod_t *M, int32_t in_deg, int32_t op_deg)
{
    if (in_deg < M->min_deg || in_deg > M->max_deg || op_deg <= 0 ||
        (int64_t)op_deg > (int64_t)M->max_deg - in_deg)
        return NULL;
    action_block_t *row = M->act[in_deg - M->min_deg];
    return row ? &row[op_deg] : NULL;
}

/* As block(), allocating the row if needed (the pair must be in range). */
static action_block_t *block_alloc(fdmod_t *M, int32_t in_deg, int32_t op_deg)
{
    int32_t d = in_deg - M->min_deg;
    if (!M->act[d])
        M->act[d] = sq_calloc((size_t)row_len(M, d), sizeof(action_block_t));
    return block(M, in_deg, op_deg);
}

/* Whether op_idx of A_{op_deg} is the generator Sq(op_deg), op_deg a power of two. */
static int is_generator(const milnor_t *A, int32_t op_deg, int64_t op_idx)
{
    if (op_deg <= 0 || (op_deg & (op_deg - 1)) != 0)
        return 0;
    int32_t r = op_deg;
    return milnor_index(A, &r, 1) == op_idx;
}

/* Stores op x = vec (fvec_bytes_for(p, dim M_{in_deg + op_deg}) bytes in
 * the field's encoding; at odd p reduced mod p here), op basis element
 * op_idx of the nops of degree op_deg; is_gen: op is the generator of its
 * degree. */
static void set_vec(fdmod_t *M, int64_t nops, int is_gen, int32_t op_deg, int64_t op_idx,
                    int32_t in_deg, int64_t in_idx, const void *vec)
{
    SQ_CHECK(op_deg > 0, "fdmod_set_action: op degree must be positive");
    SQ_CHECK(in_idx >= 0 && in_idx < fdmod_dim(M, in_deg), "fdmod_set_action: bad input");
    M->has_actions = 1;
    if ((int64_t)in_deg + op_deg > M->max_deg)
        return;
    int64_t out_dim = fdmod_dim(M, in_deg + op_deg);
    if (out_dim == 0)
        return;
    action_block_t *b = block_alloc(M, in_deg, op_deg);
    SQ_CHECK(b != NULL, "fdmod_set_action: degree out of range");
    if (!b->vecs) {
        b->nops = nops;
        b->stride = (int64_t)fvec_bytes_for(M->p, out_dim);
        b->vecs = sq_calloc(sq_mul_size((size_t)(b->nops * fdmod_dim(M, in_deg)),
                                        (size_t)b->stride), 1);
    }
    SQ_CHECK(op_idx >= 0 && op_idx < b->nops, "fdmod_set_action: bad op index");
    uint8_t *dst = (uint8_t *)b->vecs + (op_idx * fdmod_dim(M, in_deg) + in_idx) * b->stride;
    memcpy(dst, vec, (size_t)b->stride);
    if (M->p != 2)
        for (int64_t l = 0; l < b->stride; l++)
            dst[l] = (uint8_t)(dst[l] % M->p);
    if (!b->mixed && !is_gen)
        for (int64_t l = 0; l < b->stride; l++)
            if (dst[l]) {
                b->mixed = 1;
                break;
            }
}

void fdmod_set_action(fdmod_t *M, const milnor_t *A, int32_t op_deg, int64_t op_idx,
                      int32_t in_deg, int64_t in_idx, const uint64_t *vec)
{
    SQ_CHECK(M->p == 2, "fdmod_set_action: a module at p = %u", (unsigned)M->p);
    set_vec(M, milnor_dim(A, op_deg), is_generator(A, op_deg, op_idx), op_deg, op_idx, in_deg,
            in_idx, vec);
}

void fdmod_set_actionf(fdmod_t *M, const stalg_t *S, int32_t op_deg, int64_t op_idx,
                       int32_t in_deg, int64_t in_idx, fvec_t vec)
{
    SQ_CHECK(stalg_prime(S) == M->p && vec.p == M->p, "fdmod_set_actionf: another prime");
    SQ_CHECK(op_deg > 0 && op_idx >= 0 && op_idx < stalg_dim(S, op_deg),
             "fdmod_set_action: no operation %lld in degree %d", (long long)op_idx, (int)op_deg);
    SQ_CHECK(vec.len >= fdmod_dim(M, in_deg + op_deg), "fdmod_set_actionf: vector too short");
    set_vec(M, stalg_dim(S, op_deg), stalg_gen_index(S, op_deg) == op_idx, op_deg, op_idx, in_deg,
            in_idx, M->p == 2 ? (const void *)vec.limbs : (const void *)vec.bytes);
}

void fdmod_set_genf(fdmod_t *M, const stalg_t *S, int32_t gen_deg, int32_t in_deg,
                    int64_t in_idx, fvec_t vec)
{
    SQ_CHECK(fdmod_gen_slot(M->p, gen_deg) >= 0, "fdmod_set_gen: %d is not the degree of a generator",
             (int)gen_deg);
    SQ_CHECK(in_idx >= 0 && in_idx < fdmod_dim(M, in_deg), "fdmod_set_gen: bad input");
    M->has_actions = 1;
    int64_t g = stalg_gen_index(S, gen_deg);
    if (g >= 0)
        fdmod_set_actionf(M, S, gen_deg, g, in_deg, in_idx, vec);
}

int32_t fdmod_slot_degree(uint32_t p, int s)
{
    if (s < 0 || s >= FDMOD_MAX_SLOTS)
        return -1;
    int64_t g = p == 2 ? 1 : 2 * (int64_t)(p - 1);
    if (p != 2 && s == 0)
        return 1;
    for (int i = p == 2 ? 0 : 1; i < s && g <= INT32_MAX; i++)
        g *= p;
    return g > INT32_MAX ? -1 : (int32_t)g;
}

int fdmod_gen_slot(uint32_t p, int32_t deg)
{
    for (int s = 0; s < FDMOD_MAX_SLOTS; s++) {
        int32_t g = fdmod_slot_degree(p, s);
        if (g < 0 || g > deg)
            return -1;
        if (g == deg)
            return s;
    }
    return -1;
}

int fdmod_block_kind(const fdmod_t *M, int32_t op_deg, int32_t in_deg)
{
    const action_block_t *b = block(M, in_deg, op_deg);
    if (!b || !b->vecs)
        return FDMOD_BLOCK_NONE;
    return b->mixed ? FDMOD_BLOCK_MIXED : FDMOD_BLOCK_GEN;
}

/* The stored vector op x, or NULL (zero). */
static const void *action_ptr(const fdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                              int64_t in_idx)
{
    action_block_t *b = block(M, in_deg, op_deg);
    if (!b || !b->vecs || op_idx < 0 || op_idx >= b->nops)
        return NULL;
    return (const uint8_t *)b->vecs + (op_idx * fdmod_dim(M, in_deg) + in_idx) * b->stride;
}

const uint64_t *fdmod_action(const fdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                             int64_t in_idx)
{
    return action_ptr(M, op_deg, op_idx, in_deg, in_idx);
}

fvec_t fdmod_actionf(const fdmod_t *M, int32_t op_deg, int64_t op_idx, int32_t in_deg,
                     int64_t in_idx)
{
    fvec_t v = {.p = M->p, .len = 0};
    const void *a = action_ptr(M, op_deg, op_idx, in_deg, in_idx);
    if (!a)
        return v;
    v.len = fdmod_dim(M, in_deg + op_deg);
    /* A read-only view: the storage is the module's, written only while it is built. */
    if (M->p == 2)
        v.limbs = (uint64_t *)(uintptr_t)a;
    else
        v.bytes = (uint8_t *)(uintptr_t)a;
    return v;
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

void fdmod_act_addf(const fdmod_t *M, fvec_t out, int64_t off, uint32_t coef, int32_t op_deg,
                    int64_t op_idx, int32_t in_deg, fvec_t v)
{
    if (M->p == 2) {
        if (coef & 1)
            fdmod_act_add(M, out.limbs, off, op_deg, op_idx, in_deg, v.limbs);
        return;
    }
    int64_t n = fdmod_dim(M, in_deg);
    coef %= M->p;
    if (!coef || !n)
        return;
    uint8_t *o = out.bytes + off;
    if (op_deg == 0) {
        fpvec_addmul(o, v.bytes, n, coef, M->p);
        return;
    }
    int64_t tn = fdmod_dim(M, in_deg + op_deg);
    for (int64_t j = 0; j < n; j++) {
        if (!v.bytes[j])
            continue;
        const uint8_t *a = action_ptr(M, op_deg, op_idx, in_deg, j);
        if (a)
            fpvec_addmul(o, a, tn, coef * v.bytes[j], M->p);
    }
}

void fdmod_set_pprofile(fdmod_t *M, const pmilnor_profile_t *prof)
{
    char err[200];
    SQ_CHECK(M->p != 2 && pmilnor_profile_check(M->p, prof, err, sizeof err) == 0,
             "fdmod_set_pprofile: %s", M->p == 2 ? "a module at p = 2" : err);
    M->pprof = *prof;
}

const pmilnor_profile_t *fdmod_pprofile(const fdmod_t *M)
{
    return &M->pprof;
}

void fdmod_set_profile(fdmod_t *M, const int32_t *h, int len)
{
    SQ_CHECK(len >= 0 && len <= FDMOD_MAX_PROFILE_LEN, "fdmod_set_profile: length %d", len);
    for (int i = 0; i < len; i++)
        SQ_CHECK(h[i] >= 0 && h[i] <= FDMOD_MAX_PROFILE_ENTRY, "fdmod_set_profile: entry %d",
                 (int)h[i]);
    /* Positions past MILNOR_MAX_LEN never occur in degrees <= MILNOR_MAX_DEGREE. */
    if (len > MILNOR_MAX_LEN)
        len = MILNOR_MAX_LEN;
    for (int i = 0; i < len; i++)
        M->profile[i] = h[i];
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
    return fdmod_sphere_p(2);
}

fdmod_t *fdmod_sphere_p(uint32_t p)
{
    char name[16];
    snprintf(name, sizeof name, "S_%u", (unsigned)p);
    fdmod_t *M = fdmod_new_p(name, p, 0, 0);
    fdmod_add_basis(M, 0, "x0");
    return M;
}

fdmod_t *fdmod_new_over(const milnor_t *A, const char *name, int32_t min_deg, int32_t max_deg)
{
    fdmod_t *M = fdmod_new(name ? name : "module", min_deg, max_deg);
    int32_t h[MILNOR_MAX_LEN];
    int hl = milnor_profile(A, h);
    if (hl > 0)
        fdmod_set_profile(M, h, hl);
    return M;
}

fdmod_t *fdmod_new_shifted(const fdmod_t *M, int32_t k, const char *name)
{
    fdmod_t *N = fdmod_new_p(name ? name : M->name, M->p, M->min_deg + k, M->max_deg + k);
    for (int32_t d = 0; d < M->span; d++)
        for (int64_t i = 0; i < M->dim[d]; i++)
            fdmod_add_basis(N, M->min_deg + d + k, M->names[d][i]);
    for (int32_t d = 0; d < M->span; d++) {
        if (!M->act[d])
            continue;
        N->act[d] = sq_calloc((size_t)row_len(M, d), sizeof(action_block_t));
        for (int32_t j = 0; j < row_len(M, d); j++) {
            const action_block_t *b = &M->act[d][j];
            if (!b->vecs)
                continue;
            size_t n = sq_mul_size(sq_mul_size((size_t)b->nops, (size_t)M->dim[d]),
                                   (size_t)b->stride);
            N->act[d][j] = *b;
            N->act[d][j].vecs = sq_malloc(n ? n : 1);
            memcpy(N->act[d][j].vecs, b->vecs, n);
        }
    }
    fdmod_set_profile(N, M->profile, M->profile_len);
    N->pprof = M->pprof;
    N->has_actions = M->has_actions;
    return N;
}
