/*
 * resol_nassau.c -- one step of Nassau's algorithm (system.md section 5).
 *
 * At (s, t), s >= 2, with S = F_s, T = F_{s-1}, N = F_{s-2} and B the
 * subalgebra chosen for (s, t), every basis element (Sq(R), g) has the
 * signature of R.  The step:
 *   1. builds d_{s-1} on the zero-signature basis of T in degree t (full
 *      rows in N), reduces [those rows restricted to the zero-signature
 *      columns of N | I]; the kernel K is the zero-signature cycle space;
 *   2. builds d_s on the zero-signature basis of S, restricted to the
 *      zero-signature columns of T, reduces it, and extends its image onto
 *      K: each kernel row not hit is a new generator with provisional
 *      image x (scattered into T's coordinates) and dx from step 1's rows;
 *   3. for each nonzero signature sigma in increasing order, if some dx has
 *      a sigma-component, reduces [d_{s-1} on T's sigma-basis, restricted
 *      to N's sigma-columns | I] and corrects x by the quasi-inverse image
 *      of that component (d is block triangular in this order, so earlier
 *      components stay zero);
 *   4. asserts dx == 0 and stores d(g) = x.
 * It reads generators of degree < t of T and S and < t - 1 of N only, so
 * it needs (s, t - 1) and (s - 1, t - 1) but not (s - 1, t).  Step 2's
 * matrix is built first: it is (s + 1, t)'s step-1 matrix and is handed to
 * that step (nassau_handoff.c); step 1's comes from (s - 1, t) when it was
 * handed in time.
 */
#include <string.h>

#include "internal.h"
#include "nassau_zblock.h"
#include "sq_core.h"
#include "sq_trace.h"

/* ---- the ladder and signature tables ------------------------------------ */

static void profile_tables(resol_t *R, resol_profile_t *P)
{
    int32_t adeg = milnor_max_degree(R->A);
    P->nsig = nassau_num_signatures(P->h, P->len);
    if (P->len == 0) {
        P->ord = NULL;
        P->zr = NULL;
        P->nzr = NULL;
        return;
    }
    P->ord = sq_calloc((size_t)adeg + 1, sizeof *P->ord);
    P->zr = sq_calloc((size_t)adeg + 1, sizeof *P->zr);
    P->nzr = sq_calloc((size_t)adeg + 1, sizeof *P->nzr);
    int32_t r[MILNOR_MAX_LEN];
    for (int32_t d = 0; d <= adeg; d++) {
        int64_t dim = milnor_dim(R->A, d), z = 0;
        P->ord[d] = sq_malloc(sq_mul_size((size_t)dim + 1, sizeof(uint32_t)));
        for (int64_t k = 0; k < dim; k++) {
            int len = milnor_get(R->A, d, k, r, MILNOR_MAX_LEN);
            P->ord[d][k] = nassau_signature(P->h, P->len, r, len);
            z += P->ord[d][k] == 0;
        }
        P->zr[d] = sq_malloc(sq_mul_size((size_t)z + 1, sizeof(uint32_t)));
        P->nzr[d] = z;
        for (int64_t k = 0, j = 0; k < dim; k++)
            if (P->ord[d][k] == 0)
                P->zr[d][j++] = (uint32_t)k;
    }
}

void resol_nassau_init(resol_t *R)
{
    if (R->nprof)
        return;
    R->zcache = sq_calloc(sq_mul_size((size_t)R->max_s + 1, (size_t)(R->t_max - R->t_min + 1)),
                          sizeof *R->zcache);
    R->zhand = sq_calloc(sq_mul_size((size_t)R->max_s + 1, (size_t)(R->t_max - R->t_min + 1)),
                         sizeof *R->zhand);
    int32_t h[NASSAU_MAX_LEN];
    int len = 0;
    R->prof[0].len = 0;
    profile_tables(R, &R->prof[0]);
    R->nprof = 1;
    /* The most demanding step is at s = 2 and its largest t, max_n + 3 (a
     * kernel step at stem max_n + 1): t - (2^len - 1)(s + 1) falls with s. */
    int32_t t2 = R->max_n + 3 < R->t_max ? R->max_n + 3 : R->t_max;
    while (R->nprof < RESOL_MAX_PROFILES) {
        if (nassau_ladder_next(h, &len) != 0 || !nassau_usable(h, len, 2, t2, R->top))
            break;
        resol_profile_t *P = &R->prof[R->nprof++];
        memcpy(P->h, h, sizeof h);
        P->len = len;
        profile_tables(R, P);
    }
}

void resol_nassau_clear(resol_t *R)
{
    if (R->zcache) {
        for (int32_t s = 0; s <= R->max_s; s++)
            nassau_zcache_clear(R, s);
        sq_free(R->zcache);
        R->zcache = NULL;
    }
    nassau_hand_clear(R);
    if (!R->nprof)
        return; /* nothing built: every classical run, every odd prime */
    int32_t adeg = milnor_max_degree(R->A);
    for (int i = 0; i < R->nprof; i++) {
        if (!R->prof[i].ord)
            continue;
        for (int32_t d = 0; d <= adeg; d++) {
            sq_free(R->prof[i].ord[d]);
            sq_free(R->prof[i].zr[d]);
        }
        sq_free(R->prof[i].ord);
        sq_free(R->prof[i].zr);
        sq_free(R->prof[i].nzr);
    }
    R->nprof = 0;
}

static int choose_profile(const resol_t *R, int32_t s, int32_t t)
{
    int best = 0;
    for (int i = 1; i < R->nprof; i++)
        if (nassau_usable(R->prof[i].h, R->prof[i].len, s, t, R->top))
            best = i;
    return best;
}

int32_t nassau_profile_from(const resol_t *R, int i, int32_t s)
{
    const resol_profile_t *P = &R->prof[i];
    if (i == 0)
        return INT32_MIN;
    /* nassau_usable's two bounds on t - top, then the formula checked. */
    int64_t c = nassau_slope(P->h, P->len);
    int64_t a = c * s + 1, b = c * (s - 2) + nassau_top_degree(P->h, P->len) + 1;
    int64_t t = R->top + (a > b ? a : b);
    if (t > INT32_MAX / 2)
        return INT32_MAX / 2;
    while (!nassau_usable(P->h, P->len, s, (int32_t)t, R->top))
        t++;
    while (nassau_usable(P->h, P->len, s, (int32_t)t - 1, R->top))
        t--;
    return (int32_t)t;
}

int resol_nassau_subalgebra(const resol_t *R, int32_t s, int32_t t, int32_t *h, int maxlen)
{
    const resol_profile_t *P = &R->prof[choose_profile(R, s, t)];
    SQ_CHECK(P->len <= maxlen, "resol_nassau_subalgebra: maxlen too small");
    memcpy(h, P->h, (size_t)P->len * sizeof *h);
    return P->len;
}

/* ---- the serial parts of a step, split ----------------------------------- */

/* The three signature classes of a step (S = F_s, T = F_{s-1} in degree t,
 * N = F_{s-2} below t), one chunk each when T's basis is large enough to pay
 * for waking threads: each is a pass over its basis (nassau_class_init). */
#define CLASSES_PAR_MIN_DIM (INT64_C(1) << 15)

/* Test hook: with split_all set, the splits below are taken whatever the
 * size (tests/resolution/t-sched.c: the bits do not change).  Set it before
 * any pool starts. */
static int split_all;
void resol_nassau_split_all(int on);
void resol_nassau_split_all(int on)
{
    split_all = on;
}

typedef struct {
    resol_t *R;
    const resol_profile_t *P;
    int32_t s, t;
    sigclass_t *c[3];
} classes_par_t;

/* Only N's nonzero classes are read (step 3); S and T need class 0. */
static void classes_chunk(void *ctx, int64_t k)
{
    const classes_par_t *q = ctx;
    if (k == 2)
        nassau_class_init(q->c[k], q->P, q->R->F[q->s - k], q->t, q->t - 1);
    else
        nassau_class_init_zero(q->c[k], q->P, q->R->F[q->s - k], q->t, q->t);
}

static void classes_init(resol_t *R, const resol_profile_t *P, int32_t s, int32_t t,
                         sigclass_t *Sc, sigclass_t *Tc, sigclass_t *Nc)
{
    classes_par_t q = {R, P, s, t, {Sc, Tc, Nc}};
    if (!split_all && fmod_dim_below(R->F[s - 1], t, t) < CLASSES_PAR_MIN_DIM)
        for (int64_t k = 0; k < 3; k++)
            classes_chunk(&q, k);
    else
        sq_pool_parallel_for(R->pool, 3, classes_chunk, &q);
}

/* The provisional images x (in T's coordinates) and their boundaries dx of
 * the k new generators: row i of x is the kernel row chosen[i] scattered to
 * T's zero-signature positions z, row i of dx the sum of the rows of D1 at
 * its set bits.  Chunk c does generator c / nb and limbs [b L / nb,
 * (b + 1) L / nb) of its dx row, b = c % nb (block 0 also fills x's row):
 * every word has one writer, so the bits do not depend on the split. */
#define BOUNDARIES_PAR_MIN_LIMBS (INT64_C(1) << 17)

typedef struct {
    const f2mat_t *K, *D1;
    const int64_t *chosen, *z;
    int64_t zT, nb;
    f2mat_t *x, *dx;
} bound_par_t;

static void boundaries_chunk(void *ctx, int64_t c)
{
    const bound_par_t *q = ctx;
    int64_t i = c / q->nb, b = c % q->nb, L = q->dx->stride;
    int64_t l0 = b * L / q->nb, l1 = (b + 1) * L / q->nb;
    const uint64_t *row = f2mat_row(q->K, q->chosen[i]);
    uint64_t *out = f2mat_row(q->dx, i);
    for (int64_t j = 0; j < q->zT; j++) {
        if (!bit(row, j))
            continue;
        if (b == 0)
            f2mat_flip(q->x, i, q->z[j]);
        const uint64_t *src = f2mat_row(q->D1, j);
        for (int64_t l = l0; l < l1; l++)
            out[l] ^= src[l];
    }
}

static void boundaries(const f2mat_t *K, const f2mat_t *D1, const int64_t *chosen,
                       const int64_t *z, int64_t zT, f2mat_t *x, f2mat_t *dx, sq_pool_t *pool)
{
    int64_t k = x->rows, nb = 1, work = 0, threads = sq_pool_size(pool);
    if (k == 0)
        return;
    if (threads > 1) {
        for (int64_t i = 0; i < k; i++)
            for (int64_t l = 0; l < f2_limbs(zT); l++)
                work += __builtin_popcountll(f2mat_row(K, chosen[i])[l]);
        work *= dx->stride;
    }
    if (split_all)
        work = BOUNDARIES_PAR_MIN_LIMBS;
    if (work >= BOUNDARIES_PAR_MIN_LIMBS && k < 2 * threads) {
        int64_t most = dx->stride / (split_all ? 1 : 16); /* 16 limbs a block */
        nb = (2 * threads + k - 1) / k;
        if (nb > most)
            nb = most > 1 ? most : 1;
    }
    bound_par_t q = {K, D1, chosen, z, zT, nb, x, dx};
    if (work >= BOUNDARIES_PAR_MIN_LIMBS)
        sq_pool_parallel_for(pool, k * nb, boundaries_chunk, &q);
    else
        for (int64_t c = 0; c < k * nb; c++)
            boundaries_chunk(&q, c);
}

void resol_step_nassau(resol_t *R, int32_t s, int32_t t)
{
    SQ_CHECK(s >= 2, "resol_step_nassau: s = %d < 2", (int)s);
    const int prof = choose_profile(R, s, t);
    const resol_profile_t *P = &R->prof[prof];
    const fhom_t *dS = R->d[s];
    /* event=phase: wall times of steps 1 (build, reduce), 2 (build,
     * reduce and extend), the provisional boundaries, and step 3; and per
     * phase ser[k], its serial CPU time (this thread's, outside the chunks
     * of split sections), and par[k], its sections' CPU work summed over
     * threads (sq_pool_section_totals). */
    int trace = sq_trace_on(SQ_TRACE_PHASE);
    double ph[6] = {0}, ser[6] = {0}, par[6] = {0}, tp = 0, cp = 0, sw0 = 0, so0 = 0;
    if (trace) {
        tp = sq_wtime();
        cp = sq_thread_cputime();
        sq_pool_section_totals(&sw0, &so0);
    }
#define PHASE(k)                                                                                   \
    do {                                                                                           \
        if (trace) {                                                                               \
            double now_ = sq_wtime(), cpu_ = sq_thread_cputime(), sw_, so_;                        \
            sq_pool_section_totals(&sw_, &so_);                                                    \
            ph[k] += 1e3 * (now_ - tp);                                                            \
            ser[k] += 1e3 * ((cpu_ - cp) - (so_ - so0));                                           \
            par[k] += 1e3 * (sw_ - sw0);                                                           \
            tp = now_;                                                                             \
            cp = cpu_;                                                                             \
            sw0 = sw_;                                                                             \
            so0 = so_;                                                                             \
        }                                                                                          \
    } while (0)
    sigclass_t Sc, Tc, Nc;
    classes_init(R, P, s, t, &Sc, &Tc, &Nc);

    int64_t zT = class_size(&Tc, 0), zN = class_size(&Nc, 0), zS = class_size(&Sc, 0);

    /* Step 2's matrix first: it is also step (s + 1, t)'s step-1 matrix,
     * handed over as soon as it is built (that step may be starting on
     * another thread, and it too builds its step 2 first). */
    f2mat_t D2 = {0}, M2 = {0};
    f2mat_init(&D2, zS, Tc.dim);
    fhom_build_rows_par(dS, &D2, 0, t, t, class_pos(&Sc, 0), zS, R->pool);
    PHASE(2);
    f2mat_init(&M2, zS, zT);
    nassau_gather_rows(&M2, &D2, class_pos(&Tc, 0), zT, R->pool);
    nassau_hand_offer(R, s, t, class_pos(&Sc, 0), &D2);
    f2mat_clear(&D2);
    int64_t *piv2 = sq_malloc(sq_mul_size((size_t)zT + 1, sizeof *piv2));
    f2mat_rref_pool(&M2, piv2, R->pool);
    PHASE(3);

    /* Step 1: the zero-signature cycles of T. */
    f2mat_t D1 = {0}, M1 = {0}, K = {0};
    nassau_step1_rows(R, s, t, class_pos(&Tc, 0), zT, Nc.dim, &D1);
    nassau_zcache_trim(R, s, t, P);
    nassau_zcache_seed(R, s, t, P, &D1);
    PHASE(0);
    nassau_restrict_aug(&M1, &D1, class_pos(&Nc, 0), zN, R->pool);
    int64_t *piv1 = sq_malloc(sq_mul_size((size_t)M1.cols + 1, sizeof *piv1));
    f2mat_rref_pool(&M1, piv1, R->pool);
    f2mat_aug_kernel(&K, &M1, piv1, zN);
    sq_free(piv1);
    f2mat_clear(&M1);
    PHASE(1);

    /* Step 2's end: the image extended onto K. */
    int64_t *chosen = sq_malloc(sq_mul_size((size_t)K.rows + 1, sizeof *chosen));
    fmat_t Kv = fmat_view_f2(&K);
    int64_t k = fmat_extend_image(chosen, piv2, &Kv);
    sq_free(piv2);
    f2mat_clear(&M2);
    PHASE(3);

    /* Provisional images x (in T's coordinates) and their boundaries dx. */
    f2mat_t x = {0}, dx = {0};
    f2mat_init(&x, k, Tc.dim);
    f2mat_init(&dx, k, Nc.dim);
    boundaries(&K, &D1, chosen, class_pos(&Tc, 0), zT, &x, &dx, R->pool);
    sq_free(chosen);
    f2mat_clear(&K);
    f2mat_clear(&D1);

    PHASE(4);

    /* Step 3 and the check. */
    nassau_ctimes_t ct = {0};
    if (k > 0)
        nassau_correct(R, s, t, P, &Tc, &Nc, &x, &dx, trace ? &ct : NULL);
    PHASE(5);
#undef PHASE
    if (trace)
        sq_trace_emit("event=phase s=%d t=%d prof=%d zT=%lld zN=%lld zS=%lld gens=%lld "
                      "build1=%.3f rref1=%.3f build2=%.3f rref2=%.3f boundaries=%.3f "
                      "correct=%.3f zblock=%.3f apply=%.3f sigs=%lld kills=%lld ybits=%lld "
                      "zcache_mb=%.1f row_mb=%.1f hand_mb=%.1f "
                      "serial=%.3f,%.3f,%.3f,%.3f,%.3f,%.3f sections=%.3f,%.3f,%.3f,%.3f,%.3f,%.3f",
                      (int)s, (int)t, P->len, (long long)zT, (long long)zN, (long long)zS,
                      (long long)k, ph[0], ph[1], ph[2], ph[3], ph[4], ph[5], ct.zblock, ct.apply,
                      (long long)ct.sigs, (long long)ct.kills, (long long)ct.ybits,
                      (double)atomic_load(&R->zbytes) / 1048576.0,
                      (double)nassau_zcache_row_bytes(R, s) / 1048576.0,
                      (double)atomic_load(&R->hbytes) / 1048576.0, ser[0], ser[1], ser[2], ser[3],
                      ser[4], ser[5], par[0], par[1], par[2], par[3], par[4], par[5]);
    for (int64_t i = 0; i < k; i++) {
        int64_t b = f2_first_bit(f2mat_row(&dx, i), Nc.dim);
        if (b >= 0)
            sq_abort("Nassau step (s=%d, t=%d): d(x) != 0 for new generator %lld, signature "
                     "ordinal %u of the profile of length %d (a bug, not an answer)",
                     (int)s, (int)t, (long long)i, nassau_class_of(&Nc, P->nsig, b), P->len);
    }

    if (t - s == R->max_n)
        nassau_zcache_clear(R, s); /* the row is finished */

    /* Step 4: publish. */
    int64_t first = fmod_set_gens(R->F[s], t, k);
    for (int64_t i = 0; i < k; i++)
        fhom_set_image(R->d[s], first + i, f2mat_row(&x, i));
    f2mat_clear(&x);
    f2mat_clear(&dx);
    nassau_class_clear(&Sc);
    nassau_class_clear(&Tc);
    nassau_class_clear(&Nc);
}
