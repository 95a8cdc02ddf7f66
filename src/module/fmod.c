/*
 * fmod.c -- free modules (see fmod.h).
 *
 * Storage is two arrays over the degree range: the number of generators of
 * each degree and the global index of its first generator.  Dimensions are
 * sums over degrees, O(span) per call; callers that need many offsets in
 * one degree compute them once per step.
 */
#include "fmod.h"

#include <stdatomic.h>

#include "sq_core.h"
#include "stalg.h"
#include "ubasis.h"

/*
 * Threads: one writer (the step that owns the next degree) and many readers
 * of lower degrees.  The per-degree entries of a degree are written before
 * `through` is advanced with release order, and readers load `through`
 * with acquire order, so a reader that sees a degree sees its entries.
 * Readers never look above the degrees their step depends on.
 */
struct fmod {
    const stalg_t *S;                         /* the algebra handle */
    stalg_t *own;                             /* S when the module made it, else NULL */
    const void *alg;      /* the algebra below S (milnor_t, pmilnor_t), or the ubasis_t */
    /* The dimension of a generator's block: the algebra's in degree k for
     * a generator of degree g (unstable: the excess bound g), no dispatch. */
    int64_t (*dim)(const void *alg, int32_t k, int32_t g);
    const ubasis_t *U;    /* the unstable bases of an unstable free module, else NULL */
    int32_t min_deg, max_deg;
    _Atomic int32_t through;  /* highest degree set */
    int64_t *ngens;           /* per degree */
    int64_t *first;           /* global index of the first generator of each degree */
    _Atomic int64_t total;
};

static int64_t milnor_dim_of(const void *A, int32_t deg, int32_t g)
{
    (void)g;
    return milnor_dim((const milnor_t *)A, deg);
}

static int64_t pmilnor_dim_of(const void *A, int32_t deg, int32_t g)
{
    (void)g;
    return pmilnor_dim((const pmilnor_t *)A, deg);
}

static int64_t unstable_dim_of(const void *U, int32_t deg, int32_t g)
{
    return ubasis_dim((const ubasis_t *)U, deg, g);
}

/* The dimension function is the algebra's own, chosen once here, so that
 * fmod_dim_below pays one indirect call per degree as before the handle. */
fmod_t *fmod_new_stalg(const stalg_t *S, int32_t min_deg, int32_t max_deg)
{
    SQ_CHECK(S != NULL, "fmod_new_stalg: no algebra");
    SQ_CHECK(max_deg >= min_deg - 1, "fmod_new_stalg: bad degree range");
    fmod_t *F = sq_calloc(1, sizeof *F);
    F->S = S;
    if (stalg_prime(S) == 2) {
        F->alg = stalg_milnor(S);
        F->dim = milnor_dim_of;
    } else {
        F->alg = stalg_pmilnor(S);
        F->dim = pmilnor_dim_of;
    }
    F->min_deg = min_deg;
    F->max_deg = max_deg;
    atomic_init(&F->through, min_deg - 1);
    atomic_init(&F->total, 0);
    size_t span = (size_t)(max_deg - min_deg + 1);
    F->ngens = sq_calloc(span + 1, sizeof *F->ngens);
    F->first = sq_calloc(span + 1, sizeof *F->first);
    return F;
}

fmod_t *fmod_new_unstable(const stalg_t *S, const ubasis_t *U, int32_t min_deg, int32_t max_deg)
{
    SQ_CHECK(U != NULL && stalg_milnor(S) == stalg_milnor(ubasis_stalg(U)) &&
                 stalg_pmilnor(S) == stalg_pmilnor(ubasis_stalg(U)),
             "fmod_new_unstable: the bases are not of the handle's algebra");
    SQ_CHECK(min_deg >= 0, "fmod_new_unstable: generators in negative degree %d", (int)min_deg);
    fmod_t *F = fmod_new_stalg(S, min_deg, max_deg);
    F->U = U;
    F->alg = U;
    F->dim = unstable_dim_of;
    return F;
}

const ubasis_t *fmod_unstable(const fmod_t *F)
{
    return F->U;
}

int64_t fmod_block_dim(const fmod_t *F, int32_t t, int32_t deg)
{
    return F->dim(F->alg, t - deg, deg);
}

fmod_t *fmod_new(const milnor_t *A, int32_t min_deg, int32_t max_deg)
{
    stalg_t *S = stalg_new_milnor(A);
    fmod_t *F = fmod_new_stalg(S, min_deg, max_deg);
    F->own = S;
    return F;
}

fmod_t *fmod_new_pmilnor(const pmilnor_t *A, int32_t min_deg, int32_t max_deg)
{
    stalg_t *S = stalg_new_pmilnor(A);
    fmod_t *F = fmod_new_stalg(S, min_deg, max_deg);
    F->own = S;
    return F;
}

void fmod_free(fmod_t *F)
{
    if (!F)
        return;
    sq_free(F->ngens);
    sq_free(F->first);
    stalg_free(F->own);
    sq_free(F);
}

const stalg_t *fmod_stalg(const fmod_t *F)
{
    return F->S;
}

const milnor_t *fmod_algebra(const fmod_t *F)
{
    return stalg_milnor(F->S);
}

int32_t fmod_min_degree(const fmod_t *F)
{
    return F->min_deg;
}

int32_t fmod_max_degree(const fmod_t *F)
{
    return F->max_deg;
}

int32_t fmod_gens_through(const fmod_t *F)
{
    return atomic_load_explicit(&((fmod_t *)F)->through, memory_order_acquire);
}

int32_t fmod_top_below(const fmod_t *F, int32_t bound)
{
    int32_t through = fmod_gens_through(F);
    return bound - 1 < through ? bound - 1 : through;
}

int64_t fmod_set_gens(fmod_t *F, int32_t deg, int64_t count)
{
    int32_t through = atomic_load_explicit(&F->through, memory_order_relaxed);
    int64_t total = atomic_load_explicit(&F->total, memory_order_relaxed);
    SQ_CHECK(deg > through && deg <= F->max_deg, "fmod_set_gens: degree %d not after %d",
             (int)deg, (int)through);
    SQ_CHECK(count >= 0, "fmod_set_gens: negative count");
    for (int32_t d = through + 1; d < deg; d++) {
        F->ngens[d - F->min_deg] = 0;
        F->first[d - F->min_deg] = total;
    }
    F->ngens[deg - F->min_deg] = count;
    F->first[deg - F->min_deg] = total;
    atomic_store_explicit(&F->total, total + count, memory_order_release);
    atomic_store_explicit(&F->through, deg, memory_order_release);
    return total;
}

int64_t fmod_num_gens(const fmod_t *F, int32_t deg)
{
    if (deg < F->min_deg || deg > fmod_gens_through(F))
        return 0;
    return F->ngens[deg - F->min_deg];
}

int64_t fmod_gen_global(const fmod_t *F, int32_t deg, int64_t i)
{
    SQ_CHECK(i >= 0 && i < fmod_num_gens(F, deg), "fmod_gen_global: no generator %lld in degree %d",
             (long long)i, (int)deg);
    return F->first[deg - F->min_deg] + i;
}

int64_t fmod_total_gens(const fmod_t *F)
{
    return atomic_load_explicit(&((fmod_t *)F)->total, memory_order_acquire);
}

int32_t fmod_gen_degree(const fmod_t *F, int64_t g)
{
    SQ_CHECK(g >= 0 && g < fmod_total_gens(F), "fmod_gen_degree: bad generator %lld",
             (long long)g);
    /* Binary search for the last degree whose first index is <= g and that has generators. */
    int32_t lo = F->min_deg, hi = fmod_gens_through(F);
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (F->first[mid - F->min_deg] <= g)
            lo = mid;
        else
            hi = mid - 1;
    }
    while (F->ngens[lo - F->min_deg] == 0)
        lo--;
    return lo;
}

int64_t fmod_dim_below(const fmod_t *F, int32_t t, int32_t bound)
{
    int32_t top = fmod_top_below(F, bound);
    if (top > t)
        top = t;
    int64_t dim = 0;
    for (int32_t d = F->min_deg; d <= top; d++) {
        int64_t n = F->ngens[d - F->min_deg];
        if (n)
            dim += n * F->dim(F->alg, t - d, d);
    }
    return dim;
}

int64_t fmod_dim(const fmod_t *F, int32_t t)
{
    return fmod_dim_below(F, t, t + 1);
}

int64_t fmod_block_offset(const fmod_t *F, int32_t t, int32_t deg, int64_t i)
{
    return fmod_dim_below(F, t, deg) + i * F->dim(F->alg, t - deg, deg);
}
