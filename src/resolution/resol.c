/*
 * resol.c -- the resolution object, its queries and the serial driver.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "sq_pool.h"
#include "sq_trace.h"
#include "sq_core.h"

/* The checks of resol_check_range that do not depend on the algebra. */
static int check_region(const fdmod_t *M, int32_t max_s, int32_t max_n, char *err,
                        size_t errlen)
{
    int32_t bottom = fdmod_bottom(M), top = fdmod_top(M);
    if (top < bottom) {
        /* An infinite module truncated below its bottom cell (the p = 2
         * loaders build the part in degrees <= max_n + 2, and keep the
         * bottom degree as the module's lowest degree): the stem is what
         * is wrong, not the module. */
        if (fdmod_prime(M) == 2 && max_n < fdmod_min_degree(M))
            snprintf(err, errlen, "stem %d is below the bottom degree %d of %s", (int)max_n,
                     (int)fdmod_min_degree(M), fdmod_name(M));
        else
            snprintf(err, errlen, "module %s is zero", fdmod_name(M));
        return SQ_E_RANGE;
    }
    if (max_s < 0) {
        snprintf(err, errlen, "filtration %d is negative", (int)max_s);
        return SQ_E_RANGE;
    }
    if (max_n < bottom) {
        snprintf(err, errlen, "stem %d is below the bottom degree %d of %s", (int)max_n,
                 (int)bottom, fdmod_name(M));
        return SQ_E_RANGE;
    }
    return 0;
}

/* The internal degree of the run's last step against the prime's limit. */
static int check_max_t(int32_t max_s, int32_t max_n, int32_t limit, char *err, size_t errlen)
{
    if ((int64_t)max_s + max_n + 1 <= limit)
        return 0;
    snprintf(err, errlen,
             "stem %d with filtration %d reaches internal degree %lld, beyond the supported %d",
             (int)max_n, (int)max_s, (long long)max_s + max_n + 1, (int)limit);
    return SQ_E_RANGE;
}

/* The algebra's degree (need) against the prime's limit, and at odd p its
 * element count. */
static int check_algebra(const fdmod_t *M, int32_t max_n, int64_t need, char *err,
                         size_t errlen)
{
    uint32_t p = fdmod_prime(M);
    int32_t limit = p == 2 ? MILNOR_MAX_DEGREE : PMILNOR_MAX_DEGREE;
    if (need > limit) {
        snprintf(err, errlen,
                 "stem %d needs Steenrod algebra degree %lld, beyond the supported %d",
                 (int)max_n, (long long)need, (int)limit);
        return SQ_E_RANGE;
    }
    int64_t size = p == 2 ? 0 : pmilnor_size(p, (int32_t)need, fdmod_pprofile(M));
    if (size > PMILNOR_MAX_ELEMENTS) {
        snprintf(err, errlen,
                 "stem %d needs the Steenrod algebra at p = %u through degree %lld: %lld basis "
                 "elements, beyond the supported %lld",
                 (int)max_n, (unsigned)p, (long long)need, (long long)size,
                 (long long)PMILNOR_MAX_ELEMENTS);
        return SQ_E_RANGE;
    }
    return 0;
}

/* Each prime keeps its order of the checks (and so its message when
 * several fail): p = 2 the algebra's degree first, odd p the internal
 * degree first. */
int resol_check_range(const fdmod_t *M, int32_t max_s, int32_t max_n, char *err, size_t errlen)
{
    int rc = check_region(M, max_s, max_n, err, errlen);
    if (rc)
        return rc;
    int64_t need = resol_algebra_degree(fdmod_bottom(M), fdmod_top(M), max_n);
    if (fdmod_prime(M) != 2) {
        rc = check_max_t(max_s, max_n, RESOL_MAX_T_ODD, err, errlen);
        return rc ? rc : check_algebra(M, max_n, need, err, errlen);
    }
    rc = check_algebra(M, max_n, need, err, errlen);
    return rc ? rc : check_max_t(max_s, max_n, RESOL_MAX_T, err, errlen);
}

/* Why the algebra stops at degree max_n + 2 - bottom: F_s is generated in
 * degrees >= bottom + s (a minimal resolution of a module that starts in
 * degree `bottom` over a connected algebra), and a step at (s, t) has
 * t <= max_n + s + 1 (stem max_n + 1 computes only a kernel).  So a basis
 * element (Sq(R), g) of F_s or F_{s-1} in a degree the run reaches has
 * |R| <= max_n + 2 - bottom, and so has every product Sq(R) * (a block of
 * d(g)).  The module's own action needs degrees up to top - bottom.  The
 * filtration does not enter: a tall region (--max-s 500 at stem 20) needs
 * the algebra to degree 22, not 521. */
int64_t resol_algebra_degree(int32_t bottom, int32_t top, int32_t max_n)
{
    int64_t need = (int64_t)max_n + 2 - bottom;
    if ((int64_t)top - bottom > need)
        need = (int64_t)top - bottom;
    return need > 1 ? need : 1;
}

int32_t resol_default_max_s(uint32_t p, int32_t max_n, int32_t bottom, int32_t span)
{
    int64_t above = (int64_t)max_n - bottom, q = 2 * ((int64_t)p - 1);
    return (int32_t)((above > 0 ? above / q : 0) + 3 + span);
}

milnor_t *resol_algebra_f2(const fdmod_t *M, int32_t adeg)
{
    int32_t h[16];
    int hl = fdmod_profile(M, h);
    /* A truncated subalgebra B has no element above its top degree
     * sum (2^i - 1)(2^{h_i} - 1), so nothing multiplies beyond twice that
     * (products of two elements of B): its tables need not go further, and
     * a module over A(1) spanning 2000 degrees does not list all of A up to
     * its span. */
    if (hl) {
        int64_t topB = 0;
        for (int i = 0; i < hl && topB <= adeg; i++)
            topB += (((int64_t)1 << (i + 1)) - 1) * (((int64_t)1 << h[i]) - 1);
        if (2 * topB < adeg)
            adeg = 2 * topB > 1 ? (int32_t)(2 * topB) : 1;
    }
    return hl ? milnor_new_profile(adeg, h, hl) : milnor_new(adeg);
}

resol_t *resol_new(const fdmod_t *M, int32_t max_s, int32_t max_n)
{
    return resol_new_in(M, max_s, max_n, 0);
}

resol_t *resol_new_in(const fdmod_t *M, int32_t max_s, int32_t max_n, int unstable)
{
    char err[256];
    SQ_CHECK(resol_check_range(M, max_s, max_n, err, sizeof err) == 0, "resol_new: %s", err);
    resol_t *R = sq_calloc(1, sizeof *R);
    R->M = M;
    R->p = fdmod_prime(M);
    R->max_s = max_s;
    R->max_n = max_n;
    R->min_n = fdmod_bottom(M);
    R->top = fdmod_top(M);
    R->t_min = R->min_n;
    R->t_max = max_s + max_n + 1;
    R->zbudget = RESOL_CACHE_BUDGET_DEFAULT;
    int32_t adeg = (int32_t)resol_algebra_degree(R->min_n, fdmod_top(M), max_n);
    if (R->p == 2) {
        R->A = resol_algebra_f2(M, adeg);
        R->S = stalg_new_milnor(R->A);
    } else {
        R->pA = pmilnor_new(R->p, adeg, fdmod_pprofile(M));
        R->S = stalg_new_pmilnor(R->pA);
        stalg_set_cache(R->S, RESOL_PCACHE_BYTES);
    }
    int32_t hp[16];
    SQ_CHECK(!unstable || ((R->p == 2 ? !fdmod_profile(M, hp)
                                      : pmilnor_profile_is_full(fdmod_pprofile(M))) &&
                           R->min_n >= 0),
             "resol_new_unstable: %s is not over A in degrees >= 0", fdmod_name(M));
    if (unstable)
        R->U = ubasis_new_stalg(R->S);
    R->F = sq_calloc((size_t)max_s + 1, sizeof *R->F);
    R->d = sq_calloc((size_t)max_s + 1, sizeof *R->d);
    for (int32_t s = 0; s <= max_s; s++) {
        R->F[s] = unstable ? fmod_new_unstable(R->S, R->U, R->t_min, R->t_max)
                           : fmod_new_stalg(R->S, R->t_min, R->t_max);
        R->d[s] = s == 0 ? fhom_new_fd(R->F[0], M) : fhom_new_free(R->F[s], R->F[s - 1]);
    }
    size_t nslots = sq_mul_size((size_t)max_s + 1, (size_t)(R->t_max - R->t_min + 1));
    R->K = sq_calloc(nslots, sizeof *R->K);
    R->K_set = sq_calloc(nslots, 1);
    R->zlock = sq_calloc((size_t)max_s + 1, sizeof *R->zlock);
    return R;
}

void resol_set_cache_budget(resol_t *R, int64_t bytes)
{
    SQ_CHECK(bytes >= 0, "resol_set_cache_budget: %lld bytes", (long long)bytes);
    R->zbudget = bytes;
}

void resol_cache_stats(const resol_t *R, int64_t *peak, int64_t *evicted, int64_t *largest)
{
    resol_t *W = (resol_t *)R; /* atomic loads take a non-const pointer */
    *peak = atomic_load(&W->zpeak);
    *evicted = atomic_load(&W->zmiss);
    if (largest)
        *largest = atomic_load(&W->zlargest);
}

void resol_free(resol_t *R)
{
    if (!R)
        return;
    size_t nslots = (size_t)(R->max_s + 1) * (size_t)(R->t_max - R->t_min + 1);
    for (size_t i = 0; i < nslots; i++)
        fmat_clear(&R->K[i]);
    sq_free(R->K);
    sq_free(R->K_set);
    resol_nassau_clear(R);
    sq_free((void *)R->zlock);
    for (int32_t s = 0; s <= R->max_s; s++) {
        fhom_free(R->d[s]);
        fmod_free(R->F[s]);
    }
    sq_free(R->F);
    sq_free(R->d);
    stalg_free(R->S);
    ubasis_free(R->U);
    milnor_free(R->A);
    pmilnor_free(R->pA);
    sq_free(R);
}

uint32_t resol_prime(const resol_t *R)
{
    return R->p;
}

int32_t resol_max_s(const resol_t *R)
{
    return R->max_s;
}

int32_t resol_max_n(const resol_t *R)
{
    return R->max_n;
}

int32_t resol_min_n(const resol_t *R)
{
    return R->min_n;
}

const milnor_t *resol_algebra(const resol_t *R)
{
    SQ_CHECK(R->p == 2, "resol_algebra: the resolution is at p = %u", (unsigned)R->p);
    return R->A;
}

const pmilnor_t *resol_palgebra(const resol_t *R)
{
    SQ_CHECK(R->p != 2, "resol_palgebra: the resolution is at p = 2");
    return R->pA;
}

const stalg_t *resol_stalg(const resol_t *R)
{
    return R->S;
}

const fdmod_t *resol_input(const resol_t *R)
{
    return R->M;
}

const fmod_t *resol_free_module(const resol_t *R, int32_t s)
{
    SQ_CHECK(s >= 0 && s <= R->max_s, "resol_free_module: s = %d out of range", (int)s);
    return R->F[s];
}

const fhom_t *resol_differential(const resol_t *R, int32_t s)
{
    SQ_CHECK(s >= 0 && s <= R->max_s, "resol_differential: s = %d out of range", (int)s);
    return R->d[s];
}

int64_t resol_ext_dim(const resol_t *R, int32_t s, int32_t n)
{
    if (s < 0 || s > R->max_s)
        return -1;
    int32_t t = s + n;
    if (t > fmod_gens_through(R->F[s]))
        return -1;
    return fmod_num_gens(R->F[s], t);
}

int resol_engine_check(const fdmod_t *M, resol_algo_t algo, char *err, size_t errlen)
{
    int32_t h[16];
    if (algo == RESOL_NASSAU && fdmod_prime(M) != 2) {
        snprintf(err, errlen, "Nassau's algorithm works at the prime 2 only; %s is at the prime %u "
                 "(use --algorithm classical or auto)",
                 fdmod_name(M), (unsigned)fdmod_prime(M));
        return SQ_E_INVAL;
    }
    if (algo == RESOL_NASSAU && fdmod_profile(M, h) > 0) {
        snprintf(err, errlen,
                 "Nassau's algorithm needs a module over the whole Steenrod algebra; %s is over a "
                 "subalgebra (use --algorithm classical or auto)",
                 fdmod_name(M));
        return SQ_E_INVAL;
    }
    return 0;
}

/* The cutoff of auto, measured with bench/run.sh-style runs on one thread
 * (docs/benchmarks.md, "auto"): Nassau's gain comes from large subalgebras,
 * which only stems above ~40 reach; below, its per-step overhead makes it
 * up to 2.1x slower than the classical engine in tall regions ((20, 500):
 * 0.17 s vs 0.08 s; (45, 300): 0.40 vs 0.23), while both are under a
 * second; from stem ~50 on it wins ((60, 33): 0.30 vs 0.60; (70, 300):
 * 2.3 vs 3.1; (100, 53): ~2.5x). */
#define RESOL_AUTO_NASSAU_MIN_STEMS 40

resol_algo_t resol_auto_engine(const fdmod_t *M, int32_t max_n)
{
    int32_t h[16];
    if (fdmod_prime(M) != 2 || fdmod_profile(M, h) > 0)
        return RESOL_CLASSICAL; /* Nassau is at p = 2, over the whole algebra only */
    if ((int64_t)max_n - fdmod_bottom(M) <= RESOL_AUTO_NASSAU_MIN_STEMS)
        return RESOL_CLASSICAL;
    return RESOL_NASSAU;
}

resol_algo_t resol_prepare(resol_t *R, resol_algo_t algo)
{
    int32_t h[16];
    int sub = fdmod_profile(R->M, h) > 0;
    SQ_CHECK(!(sub && algo == RESOL_NASSAU), "resol_prepare: Nassau over a subalgebra");
    SQ_CHECK(!(R->p != 2 && algo == RESOL_NASSAU), "resol_prepare: Nassau at p = %u",
             (unsigned)R->p);
    SQ_CHECK(!(R->U && algo == RESOL_NASSAU), "resol_prepare: Nassau in the unstable category");
    if (algo == RESOL_AUTO)
        algo = R->U ? RESOL_CLASSICAL : resol_auto_engine(R->M, R->max_n);
    R->algo = algo;
    if (algo == RESOL_NASSAU)
        resol_nassau_init(R);
    return algo;
}

/* Whether the step (s, t) belongs to the run, and with which engine:
 * 0 = skip, 1 = classical, 2 = Nassau.  Classical runs compute every
 * bidegree of the region plus the kernel-only edge at stem max_n + 1 for
 * the rows below the top; Nassau needs that edge only for row 0, whose
 * kernels feed the classical row 1. */
int resol_step_kind(const resol_t *R, int32_t s, int32_t t)
{
    int32_t n = t - s;
    if (n < R->min_n || n > R->max_n + 1)
        return 0;
    if (n == R->max_n + 1) {
        if (s == R->max_s)
            return 0;
        if (R->algo == RESOL_NASSAU && s > 0)
            return 0;
    }
    return (R->algo == RESOL_NASSAU && s >= 2) ? 2 : 1;
}

void resol_run_step(resol_t *R, int32_t s, int32_t t)
{
    int kind = resol_step_kind(R, s, t);
    int trace = sq_trace_on(SQ_TRACE_STEP);
    double t0 = trace ? sq_wtime() : 0, c0 = trace ? sq_thread_cputime() : 0;
    sq_trace_set_context(s, t, -1);
    if (kind == 1)
        resol_step_classical(R, s, t);
    else if (kind == 2)
        resol_step_nassau(R, s, t);
    sq_trace_set_context(-1, -1, -1);
    if (trace) {
        char sub[64] = "F2";
        if (kind == 2) {
            int32_t h[NASSAU_MAX_LEN];
            int len = resol_nassau_subalgebra(R, s, t, h, NASSAU_MAX_LEN);
            size_t k = 0;
            for (int i = 0; i < len && k < sizeof sub - 8; i++)
                k += (size_t)snprintf(sub + k, sizeof sub - k, i ? ",%d" : "[%d", (int)h[i]);
            if (len)
                snprintf(sub + k, sizeof sub - k, "]");
        } else {
            snprintf(sub, sizeof sub, "classical");
        }
        int64_t gens = t - s == R->max_n + 1 ? 0 : fmod_num_gens(R->F[s], t);
        sq_trace_emit("event=step s=%d t=%d n=%d subalgebra=%s new_gens=%lld ms=%.3f thread=%d "
                      "cpu_ms=%.3f",
                      (int)s, (int)t, (int)(t - s), sub, (long long)gens,
                      1e3 * (sq_wtime() - t0), sq_pool_thread_index(),
                      1e3 * (sq_thread_cputime() - c0));
    }
}

void resol_request_stop(resol_t *R)
{
    atomic_store_explicit(&R->stop, 1, memory_order_relaxed);
}

int resol_stop_requested(const resol_t *R)
{
    return atomic_load_explicit(&((resol_t *)R)->stop, memory_order_relaxed);
}

void resol_clear_stop(resol_t *R)
{
    atomic_store_explicit(&R->stop, 0, memory_order_relaxed);
}

/* ---- Steps computed elsewhere ------------------------------------------ */

static int in_region(const resol_t *R, int32_t s, int32_t t)
{
    return s >= 0 && s <= R->max_s && t - s >= R->min_n && t - s <= R->max_n;
}

int resol_step_published(const resol_t *R, int32_t s, int32_t t)
{
    return s >= 0 && s <= R->max_s && fmod_gens_through(R->F[s]) >= t;
}

int resol_step_preloaded(const resol_t *R, int32_t s, int32_t t)
{
    if (t - s == R->max_n + 1)
        return resol_step_published(R, s + 1, t);
    return resol_step_published(R, s, t);
}

int resol_load_ready(const resol_t *R, int32_t s, int32_t t)
{
    if (!in_region(R, s, t) || resol_step_published(R, s, t))
        return 0;
    if (in_region(R, s, t - 1) && !resol_step_published(R, s, t - 1))
        return 0;
    if (s >= 1 && !resol_step_published(R, s - 1, t - 1))
        return 0; /* (s - 1, t - 1) has stem t - s: always a step of the region */
    return 1;
}

/* The first vector of vecs (n of them, nbits entries each, in the encoding
 * at p) whose storage past nbits is not zero (p = 2) or with an entry that
 * is not a residue (odd p), or -1. */
static int64_t first_bad_vector(uint32_t p, const void *vecs, int64_t n, int64_t nbits)
{
    if (p != 2) {
        const uint8_t *b = vecs;
        for (int64_t i = 0; i < n * nbits; i++)
            if (b[i] >= p)
                return i / nbits;
        return -1;
    }
    const uint64_t *v = vecs;
    int64_t limbs = f2_limbs(nbits);
    if (nbits & 63)
        for (int64_t i = 0; i < n; i++)
            if (v[i * limbs + limbs - 1] >> (nbits & 63))
                return i;
    return -1;
}

int resol_load_step(resol_t *R, int32_t s, int32_t t, int64_t ngens, int64_t nbits,
                    const void *vecs, char *err, size_t errlen)
{
    if (!in_region(R, s, t)) {
        snprintf(err, errlen, "step (s=%d, t=%d) is outside the region s <= %d, %d <= n <= %d",
                 (int)s, (int)t, (int)R->max_s, (int)R->min_n, (int)R->max_n);
        return SQ_E_INVAL;
    }
    if (!resol_load_ready(R, s, t)) {
        snprintf(err, errlen, "step (s=%d, t=%d) cannot be loaded: %s", (int)s, (int)t,
                 resol_step_published(R, s, t) ? "it is already set"
                                                : "a step it depends on is missing");
        return SQ_E_INVAL;
    }
    const char *unit = R->p == 2 ? "bits" : "entries";
    int64_t want = fhom_image_len(R->d[s], t);
    if (ngens < 0 || nbits != want) {
        snprintf(err, errlen,
                 "step (s=%d, t=%d): %lld vectors of %lld %s, but its vectors have %lld %s",
                 (int)s, (int)t, (long long)ngens, (long long)nbits, unit, (long long)want, unit);
        return SQ_E_INVAL;
    }
    int64_t bad = nbits ? first_bad_vector(R->p, vecs, ngens, nbits) : -1;
    if (bad >= 0) {
        if (R->p == 2)
            snprintf(err, errlen, "step (s=%d, t=%d): vector %lld has bits past %lld", (int)s,
                     (int)t, (long long)bad, (long long)nbits);
        else
            snprintf(err, errlen, "step (s=%d, t=%d): vector %lld has an entry that is not a "
                     "residue mod %u", (int)s, (int)t, (long long)bad, (unsigned)R->p);
        return SQ_E_INVAL;
    }
    static const uint64_t zero = 0;
    size_t vb = fvec_bytes_for(R->p, nbits);
    int64_t first = fmod_set_gens(R->F[s], t, ngens);
    for (int64_t i = 0; i < ngens; i++)
        fhom_set_image_enc(R->d[s], first + i,
                           vb ? (const void *)((const uint8_t *)vecs + (size_t)i * vb)
                              : (const void *)&zero);
    return 0;
}

int resol_lift(const resol_t *R, int32_t s, int32_t t, const uint64_t *v, uint64_t *out)
{
    SQ_CHECK(s >= 1 && s <= R->max_s && t <= fmod_gens_through(R->F[s]) && R->p == 2,
             "resol_lift: (%d, %d) not computed at p = 2", (int)s, (int)t);
    const fhom_t *d = R->d[s];
    int64_t rows = fmod_dim(R->F[s], t), cols = fhom_target_dim(d, t);
    f2mat_t m = {0};
    f2mat_init_aug(&m, rows, cols);
    fhom_build_rows(d, &m, 0, t, t + 1);
    int64_t *piv = sq_malloc(sq_mul_size((size_t)m.cols + 1, sizeof *piv));
    f2mat_rref(&m, piv);
    int64_t rank = f2mat_aug_rank(&m, piv, cols);
    memset(out, 0, (size_t)f2_limbs(rows) * sizeof *out);
    f2mat_aug_qi_apply(out, &m, piv, cols, v);
    /* v is a boundary iff it reduces to zero against the image rows. */
    uint64_t *w = sq_calloc((size_t)f2_limbs(cols) + 1, sizeof *w);
    memcpy(w, v, (size_t)f2_limbs(cols) * sizeof *w);
    for (int64_t i = 0; i < rank; i++) {
        int64_t c = f2_first_bit(f2mat_row(&m, i), cols);
        if (c >= 0 && ((w[c >> 6] >> (c & 63)) & 1))
            for (int64_t l = 0; l < f2_limbs(cols); l++)
                w[l] ^= f2mat_row(&m, i)[l];
    }
    int ok = f2_first_bit(w, cols) < 0;
    if (!ok)
        memset(out, 0, (size_t)f2_limbs(rows) * sizeof *out);
    sq_free(w);
    sq_free(piv);
    f2mat_clear(&m);
    return ok ? 0 : SQ_E_INVAL;
}
