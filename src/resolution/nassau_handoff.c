/*
 * nassau_handoff.c -- step (s, t)'s step-2 matrix handed to step (s + 1, t)
 * as its step-1 matrix (see internal.h).
 *
 * Step 2 of (s, t) builds d_s on the zero-signature basis of F_s in degree
 * t (generators of degree < t), all of F_{s-1}'s columns; step 1 of
 * (s + 1, t) builds d_s on the same rows, F_{s-1}'s columns of generators
 * of degree < t - 1: the same bits (a generator of degree < t has its
 * boundary on generators of lower degree, minimality), row by row: a row is
 * d_s of one basis element, whatever the subalgebra.  Each such
 * matrix was built twice; now the first build is kept for the second step
 * when that step has not started yet, while the consumer's row trails by
 * at most HAND_LAG degrees and within the cache budget (resol_set_cache_budget),
 * which the handed matrices share with the cached blocks: they are the
 * first evicted when the blocks grow past it (nassau_hand_evict; the
 * consumer then builds its matrix, as if nothing had been handed).  When the two
 * steps chose different subalgebras, the later one's (smaller, so with
 * more zero-signature elements) rows include the earlier one's: those are
 * copied and only the others built.  The later step
 * builds it itself when nothing was handed over, so the bits never depend
 * on the schedule, only the time does.
 *
 * A slot per consumer step (s + 1, t): NULL (nothing yet), a hand (the
 * matrix), or TAKEN (the consumer started: an offer comes too late and is
 * refused).  Offer and take are one atomic operation each.
 */
#include <string.h>

#include "internal.h"
#include "sq_core.h"

struct nassau_hand {
    size_t bytes;
    int64_t n;
    int64_t *pos; /* the rows' basis positions in F_s, degree t, increasing */
    f2mat_t m;    /* d_s on them */
};

static void hand_free(struct nassau_hand *h)
{
    f2mat_clear(&h->m);
    sq_free(h->pos);
    sq_free(h);
}

/* How far (in degrees t) the consumer's row may trail the producer's. */
#define HAND_LAG 32

static struct nassau_hand taken_mark;
#define TAKEN (&taken_mark)

static size_t hand_bytes(const f2mat_t *m)
{
    return (size_t)(m->rows * m->stride) * 8 + sizeof(struct nassau_hand);
}

static _Atomic(struct nassau_hand *) *slot(resol_t *R, int32_t s, int32_t t)
{
    int32_t nt = R->t_max - R->t_min + 1;
    return &R->zhand[(int64_t)s * nt + (t - R->t_min)];
}

void nassau_hand_offer(resol_t *R, int32_t s, int32_t t, const int64_t *pos, f2mat_t *D2)
{
    if (!R->zhand || s + 1 > R->max_s || resol_step_kind(R, s + 1, t) != 2)
        return; /* no step (s + 1, t) in the run */
    _Atomic(struct nassau_hand *) *sl = slot(R, s + 1, t);
    if (atomic_load(sl) != NULL)
        return; /* the consumer has started */
    /* Row s + 1 more than HAND_LAG degrees behind: the matrix would wait
     * long, with others, in memory (on many threads the rows run apart). */
    if (t - HAND_LAG - (s + 1) >= R->min_n && t - HAND_LAG >= R->t_min &&
        atomic_load(slot(R, s + 1, t - HAND_LAG)) != TAKEN)
        return;
    int64_t b = (int64_t)hand_bytes(D2) + 8 * D2->rows;
    if (atomic_load(&R->hbytes) + atomic_load(&R->zbytes) + b > R->zbudget)
        return; /* over the cache budget (blocks and handed matrices): the consumer builds it */
    struct nassau_hand *h = sq_calloc(1, sizeof *h);
    h->bytes = (size_t)b;
    h->n = D2->rows;
    h->pos = sq_malloc(sq_mul_size((size_t)h->n + 1, sizeof *h->pos));
    memcpy(h->pos, pos, (size_t)h->n * sizeof *pos);
    f2mat_swap(&h->m, D2);
    struct nassau_hand *expect = NULL;
    if (!atomic_compare_exchange_strong(sl, &expect, h)) {
        f2mat_swap(&h->m, D2); /* taken meanwhile: the caller keeps (and frees) it */
        hand_free(h);
        return;
    }
    int64_t now = atomic_fetch_add(&R->hbytes, b) + b;
    int64_t peak = atomic_load(&R->hpeak);
    while (now > peak && !atomic_compare_exchange_weak(&R->hpeak, &peak, now))
        ;
    nassau_cache_note(R, b);
}

void nassau_hand_evict(resol_t *R)
{
    if (!R->zhand)
        return;
    int64_t n = (int64_t)(R->max_s + 1) * (R->t_max - R->t_min + 1);
    for (int64_t k = 0; k < n; k++) {
        if (atomic_load(&R->hbytes) + atomic_load(&R->zbytes) <= R->zbudget)
            return;
        struct nassau_hand *h = atomic_load(&R->zhand[k]);
        if (!h || h == TAKEN || !atomic_compare_exchange_strong(&R->zhand[k], &h, NULL))
            continue; /* empty, taken, or taken meanwhile */
        atomic_fetch_sub(&R->hbytes, (int64_t)h->bytes);
        atomic_fetch_add(&R->zmiss, 1);
        hand_free(h);
    }
}

/* D1's rows from h where h has the same position (both lists increasing):
 * the others' indices (into pos) go to miss; returns their number. */
static int64_t hand_match(const struct nassau_hand *h, const int64_t *pos, int64_t n, f2mat_t *D1,
                          int64_t *miss, int32_t s, int32_t t)
{
    int64_t cols = D1->cols, lim = f2_limbs(cols), nmiss = 0, j = 0;
    for (int64_t r = 0; r < n; r++) {
        while (j < h->n && h->pos[j] < pos[r])
            j++;
        if (j == h->n || h->pos[j] != pos[r]) {
            miss[nmiss++] = r;
            continue;
        }
        const uint64_t *src = f2mat_row(&h->m, j);
        uint64_t *dst = f2mat_row(D1, r);
        for (int64_t l = 0; l < lim; l++)
            dst[l] = src[l];
        /* Minimality: nothing on the generators of degree t - 1. */
        uint64_t over = (cols & 63) ? dst[lim - 1] >> (cols & 63) : 0;
        for (int64_t l = lim; l < f2_limbs(h->m.cols); l++)
            over |= src[l];
        SQ_CHECK(over == 0, "nassau_hand (s=%d, t=%d): a handed row reaches degree t - 1", (int)s,
                 (int)t);
    }
    return nmiss;
}

void nassau_step1_rows(resol_t *R, int32_t s, int32_t t, const int64_t *pos, int64_t n,
                       int64_t cols, f2mat_t *D1)
{
    const fhom_t *dT = R->d[s - 1];
    f2mat_init(D1, n, cols);
    struct nassau_hand *h = R->zhand ? atomic_exchange(slot(R, s, t), TAKEN) : NULL;
    if (!h || h == TAKEN) {
        fhom_build_rows_par(dT, D1, 0, t, t, pos, n, R->pool);
        return;
    }
    atomic_fetch_sub(&R->hbytes, (int64_t)h->bytes);
    SQ_CHECK(h->m.cols >= cols, "nassau_hand (s=%d, t=%d): %lld columns handed, %lld wanted",
             (int)s, (int)t, (long long)h->m.cols, (long long)cols);
    int64_t *miss = sq_malloc(sq_mul_size((size_t)n + 1, sizeof *miss));
    int64_t nmiss = hand_match(h, pos, n, D1, miss, s, t);
    hand_free(h);
    if (nmiss) {
        /* Rows of the consumer's subalgebra that the producer's did not
         * have (a smaller subalgebra has more zero-signature elements). */
        int64_t *mpos = sq_malloc(sq_mul_size((size_t)nmiss + 1, sizeof *mpos));
        for (int64_t k = 0; k < nmiss; k++)
            mpos[k] = pos[miss[k]];
        f2mat_t part = {0};
        f2mat_init(&part, nmiss, cols);
        fhom_build_rows_par(dT, &part, 0, t, t, mpos, nmiss, R->pool);
        for (int64_t k = 0; k < nmiss; k++)
            memcpy(f2mat_row(D1, miss[k]), f2mat_row(&part, k), (size_t)f2_limbs(cols) * 8);
        f2mat_clear(&part);
        sq_free(mpos);
    }
    sq_free(miss);
}

void nassau_hand_clear(resol_t *R)
{
    if (!R->zhand)
        return;
    int64_t n = (int64_t)(R->max_s + 1) * (R->t_max - R->t_min + 1);
    for (int64_t k = 0; k < n; k++) {
        struct nassau_hand *h = atomic_exchange(&R->zhand[k], NULL);
        if (h && h != TAKEN)
            hand_free(h);
    }
    sq_free((void *)R->zhand);
    R->zhand = NULL;
    atomic_store(&R->hbytes, 0);
}
