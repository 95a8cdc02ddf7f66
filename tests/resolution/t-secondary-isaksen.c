/*
 * t-secondary-isaksen.c -- the Adams d_2 and the E_3 page of the sphere through stem 60
 * against Isaksen's published chart: tests/data/d2-sphere-isaksen.txt (every class of
 * E_2 through stem 61, filtration 33, by its name in the chart, the last page the
 * chart has it on, every d_2 arrow and every h_0, h_1, h_2 line; its header says where
 * the values come from).
 *
 * Asserted in every bidegree (n, s), 0 <= n <= 61, s <= 33:
 *   - E_2: the chart's number of classes is adams's dim Ext (the chart is of the same
 *     E_2 page, so the comparisons below are meaningful);
 *   - the rank of d_2 out of (n, s) is the number of the chart's classes there that
 *     support a d_2 (basis-free);
 *   - n <= 60: dim E_3 is the number of the chart's classes that survive to E_3;
 *   - by names: each class of the chart is mapped into adams's basis.  A class alone
 *     in its bidegree is its one nonzero vector; a name that is a sum of products of
 *     atoms (h_i by resol_filt1_product; other atoms: the one class of their
 *     bidegree, or the chart's class of that name there once mapped) is computed by
 *     resol_product; a class left ("-" in the file, or a name through an atom known
 *     only up to a span) is found from its h_0, h_1, h_2 lines when they leave one
 *     vector off the span of the exactly known classes of its bidegree, or else, the
 *     only one of its bidegree, is "the other basis vector": any vector off the span W
 *     of the others, up to W.  Every line of the chart between exactly known classes
 *     is then an h_i product of adams (a missing line: the product is 0), and d_2 of
 *     every mapped class is the sum of the chart's targets of its arrows (0 without an
 *     arrow): exactly where no class involved is known up to a span, else up to d_2 of
 *     the source's span and the targets' spans.  Left to the rank and E_3 lines:
 *     A', A + A' and their h_0-multiples (61, 6-7), whose lines leave stem 61; and the
 *     classes of (31, 8-10) the chart is inconsistent about ("?" in the file), known
 *     up to h_0^{7+k} h_5, so d_2 l and d_2 h_0 l are checked up to h_0^{8,9} h_5.
 * The counts are printed and pinned.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "resol_products.h"
#include "resol_secondary.h"
#include "sq_test.h"

enum { MAX_N = 61, MAX_S = 33, MAX_CLS = 1024, MAX_ARROWS = 256, MAX_LINES = 1024 };

/* A class of the chart: its position, the last page the chart has it on (2: not on
 * E_3), its factors ("-": none), its name; and its image in adams's basis: kind DET (vec),
 * SPAN (vec up to the span of amb) or UNK. */
enum { DET, SPAN, UNK };

typedef struct {
    int n, s, page;
    char fac[160], name[96];
    int kind, by_lines; /* by_lines: found from its h_i lines (lines_solve) */
    uint32_t vec, amb[8];
    int namb;
} chart_cls_t;

typedef struct {
    chart_cls_t c[MAX_CLS];
    int nc;
    int src[MAX_ARROWS], dst[MAX_ARROWS];
    int na;
    int hsrc[MAX_LINES], hdst[MAX_LINES], hi[MAX_LINES]; /* h_hi lines */
    int nh;
} chart_t;

static uint32_t fvec_mask(fvec_t v)
{
    uint32_t m = 0;
    ASSERT(v.len <= 32);
    for (int64_t i = 0; i < v.len; i++)
        if (fvec_get(v, i))
            m |= 1u << i;
    return m;
}

/* Inserts v into the xor basis b (size *nb, at most 32); returns whether it was
 * independent of b. */
static int basis_add(uint32_t *b, int *nb, uint32_t v)
{
    for (int i = 0; i < *nb; i++)
        if ((v ^ b[i]) < v)
            v ^= b[i];
    if (!v)
        return 0;
    b[(*nb)++] = v;
    /* keep b sorted descending so that the reduction above is a full one */
    for (int i = *nb - 1; i > 0 && b[i] > b[i - 1]; i--) {
        uint32_t t = b[i];
        b[i] = b[i - 1];
        b[i - 1] = t;
    }
    return 1;
}

static int in_span(const uint32_t *b, int nb, uint32_t v)
{
    uint32_t c[32];
    int nc = 0;
    for (int i = 0; i < nb; i++)
        basis_add(c, &nc, b[i]);
    return !basis_add(c, &nc, v);
}

static void load_chart(chart_t *ch)
{
    char *text = sq_test_slurp(sq_test_data_path("d2-sphere-isaksen.txt"));
    ch->nc = ch->na = ch->nh = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (line[0] == 'c') {
            ASSERT(ch->nc < MAX_CLS);
            chart_cls_t *c = &ch->c[ch->nc];
            int id, off = 0;
            ASSERT(sscanf(line, "c %d %d %d %d %n", &id, &c->n, &c->s, &c->page, &off) == 4);
            ASSERT_EQ(id, ch->nc);
            char *semi = strchr(line + off, ';');
            ASSERT(semi != NULL);
            char *f0 = line + off;
            size_t fl = (size_t)(semi - f0);
            while (fl > 0 && f0[fl - 1] == ' ')
                fl--;
            ASSERT(fl < sizeof c->fac);
            memcpy(c->fac, f0, fl);
            c->fac[fl] = 0;
            snprintf(c->name, sizeof c->name, "%s", semi + 2);
            c->kind = UNK;
            c->namb = 0;
            c->by_lines = 0;
            ch->nc++;
        } else if (line[0] == 'h') {
            ASSERT(ch->nh < MAX_LINES);
            int page;
            ASSERT(sscanf(line, "h %d %d %d %d", &ch->hsrc[ch->nh], &ch->hdst[ch->nh],
                          &ch->hi[ch->nh], &page) == 4);
            ch->nh++;
        } else if (line[0] == 'd') {
            ASSERT(ch->na < MAX_ARROWS);
            ASSERT(sscanf(line, "d %d %d", &ch->src[ch->na], &ch->dst[ch->na]) == 2);
            ch->na++;
        }
        line = nl ? nl + 1 : NULL;
    }
    sq_free(text);
}

/* An element known up to a span: vec + span(amb), at (n, s). */
typedef struct {
    int n, s;
    uint32_t vec, amb[8];
    int namb;
} aff_t;

static void aff_add_amb(aff_t *x, uint32_t v)
{
    if (v && x->namb < 8 && !in_span(x->amb, x->namb, v))
        x->amb[x->namb++] = v;
}

/* a b for a at (n1, s1), b at (n2, s2) (masks over the classes there). */
static uint32_t mul_mask(const resol_t *R, int n1, int s1, uint32_t a, int n2, int s2, uint32_t b)
{
    int64_t d1 = resol_ext_dim(R, s1, n1), d2 = resol_ext_dim(R, s2, n2);
    int64_t dz = resol_ext_dim(R, s1 + s2, n1 + n2);
    ASSERT(d1 > 0 && d2 > 0 && dz >= 0);
    if (!a || !b || dz == 0)
        return 0;
    fvec_t x, y, z;
    fvec_init(&x, d1, 2);
    fvec_init(&y, d2, 2);
    fvec_init(&z, dz, 2);
    for (int64_t i = 0; i < d1; i++)
        fvec_set(x, i, (a >> i) & 1u);
    for (int64_t i = 0; i < d2; i++)
        fvec_set(y, i, (b >> i) & 1u);
    ASSERT_EQ(resol_product(R, R, s1, n1 + s1, x, s2, n2 + s2, y, z), 0);
    uint32_t m = fvec_mask(z);
    fvec_clear(&x);
    fvec_clear(&y);
    fvec_clear(&z);
    return m;
}

/* h_i a for a at (n, s). */
static uint32_t h_mask(const resol_t *R, int i, int n, int s, uint32_t a)
{
    int64_t d = resol_ext_dim(R, s, n), dz = resol_ext_dim(R, s + 1, n + (1 << i) - 1);
    ASSERT(d > 0 && dz >= 0);
    if (!a || dz == 0)
        return 0;
    fvec_t x, z;
    fvec_init(&x, d, 2);
    fvec_init(&z, dz, 2);
    for (int64_t j = 0; j < d; j++)
        fvec_set(x, j, (a >> j) & 1u);
    ASSERT_EQ(resol_filt1_product(R, i, s, n + s, x, z), 0);
    uint32_t m = fvec_mask(z);
    fvec_clear(&x);
    fvec_clear(&z);
    return m;
}

static aff_t aff_mul(const resol_t *R, aff_t x, aff_t y)
{
    aff_t z = {x.n + y.n, x.s + y.s, 0, {0}, 0};
    z.vec = mul_mask(R, x.n, x.s, x.vec, y.n, y.s, y.vec);
    for (int i = 0; i < x.namb; i++) {
        aff_add_amb(&z, mul_mask(R, x.n, x.s, x.amb[i], y.n, y.s, y.vec));
        for (int j = 0; j < y.namb; j++)
            aff_add_amb(&z, mul_mask(R, x.n, x.s, x.amb[i], y.n, y.s, y.amb[j]));
    }
    for (int j = 0; j < y.namb; j++)
        aff_add_amb(&z, mul_mask(R, x.n, x.s, x.vec, y.n, y.s, y.amb[j]));
    return z;
}

static aff_t aff_h(const resol_t *R, int i, aff_t x)
{
    aff_t z = {x.n + (1 << i) - 1, x.s + 1, 0, {0}, 0};
    z.vec = h_mask(R, i, x.n, x.s, x.vec);
    for (int j = 0; j < x.namb; j++)
        aff_add_amb(&z, h_mask(R, i, x.n, x.s, x.amb[j]));
    return z;
}

/* The atom w ("f0@18,4", no exponent): the one class of its bidegree, or the chart
 * class of that bidegree named by the atom alone once it is mapped.  0: unknown. */
static int atom_of(const resol_t *R, const chart_t *ch, const char *w, aff_t *out)
{
    const char *at = strchr(w, '@');
    ASSERT(at != NULL);
    int an, as;
    ASSERT(sscanf(at + 1, "%d,%d", &an, &as) == 2);
    aff_t a = {an, as, 1, {0}, 0};
    if (resol_ext_dim(R, as, an) == 1) {
        *out = a;
        return 1;
    }
    for (int i = 0; i < ch->nc; i++) {
        const chart_cls_t *c = &ch->c[i];
        if (c->n == an && c->s == as && strcmp(c->fac, w) == 0 && c->kind != UNK) {
            a.vec = c->vec;
            a.namb = c->namb;
            memcpy(a.amb, c->amb, sizeof a.amb);
            *out = a;
            return 1;
        }
    }
    return 0;
}

/* The product named by factors ("h0^2 P2d0@30,12 i@23,7", of the class c): the
 * product of its atoms, then of its h_i's.  0: an atom is unknown (*z untouched). */
static int product_of(const resol_t *R, const chart_t *ch, const chart_cls_t *c,
                      const char *factors, aff_t *z)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", factors);
    int hexp[8] = {0}, have = 0;
    aff_t x = {0, 0, 0, {0}, 0};
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        char *caret = strchr(w, '^');
        int e = caret ? atoi(caret + 1) : 1;
        if (caret)
            *caret = 0;
        if (w[0] == 'h' && w[1] >= '0' && w[1] <= '7' && w[2] == 0) {
            hexp[w[1] - '0'] += e;
            continue;
        }
        aff_t a;
        if (!atom_of(R, ch, w, &a))
            return 0;
        for (int k = 0; k < e; k++) {
            x = have ? aff_mul(R, x, a) : a;
            have = 1;
        }
    }
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < hexp[i]; k++) {
            if (!have) { /* a product of h_i's only */
                aff_t h = {(1 << i) - 1, 1, 1, {0}, 0};
                x = h;
                have = 1;
                continue;
            }
            x = aff_h(R, i, x);
        }
    ASSERT(have);
    if (x.n != c->n || x.s != c->s)
        sq_test_fail(__FILE__, __LINE__, "%s at (%d, %d): factors at (%d, %d)", c->name, c->n,
                     c->s, x.n, x.s);
    *z = x;
    return 1;
}

/* The class c by its factors: a sum of products separated by " + ". */
static int class_of(const resol_t *R, const chart_t *ch, const chart_cls_t *c, aff_t *z)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", c->fac);
    aff_t sum = {c->n, c->s, 0, {0}, 0};
    char *term = buf;
    for (;;) {
        char *plus = strstr(term, " + ");
        if (plus)
            *plus = 0;
        aff_t t;
        if (!product_of(R, ch, c, term, &t))
            return 0;
        sum.vec ^= t.vec;
        for (int a = 0; a < t.namb; a++)
            aff_add_amb(&sum, t.amb[a]);
        if (!plus)
            break;
        term = plus + 3;
    }
    *z = sum;
    return 1;
}

/* Maps every class of one bidegree (n, s) into adams's basis: the one class of a
 * one-dimensional group is its nonzero vector; a product name is computed (exact, or
 * up to a span when an atom is); one class left without either is any vector off
 * the span of the others (and their spans), up to that span. */
static void map_bidegree(const resol_t *R, chart_t *ch, int n, int s)
{
    int idx[32], k = 0;
    for (int i = 0; i < ch->nc; i++)
        if (ch->c[i].n == n && ch->c[i].s == s) {
            ASSERT(k < 32);
            idx[k++] = i;
        }
    int64_t dim = resol_ext_dim(R, s, n);
    if (dim != k)
        sq_test_fail(__FILE__, __LINE__, "E_2 at (%d, %d): adams %lld, the chart %d", n, s,
                     (long long)dim, k);
    if (k == 0)
        return;
    if (k == 1) {
        ch->c[idx[0]].kind = DET;
        ch->c[idx[0]].vec = 1;
        return;
    }
    uint32_t b[32], w[32];
    int nb = 0, nw = 0, nunk = 0, unk = -1;
    for (int j = 0; j < k; j++) { /* the exact ones: independent, nonzero */
        chart_cls_t *c = &ch->c[idx[j]];
        aff_t z = {n, s, c->vec, {0}, 0};
        if (!c->by_lines && (strcmp(c->fac, "-") == 0 || strcmp(c->fac, "?") == 0 ||
                             !class_of(R, ch, c, &z))) {
            nunk++;
            unk = idx[j];
            continue;
        }
        c->vec = z.vec;
        c->namb = z.namb;
        memcpy(c->amb, z.amb, sizeof c->amb);
        c->kind = z.namb ? SPAN : DET;
        if (!z.namb && !basis_add(b, &nb, c->vec))
            sq_test_fail(__FILE__, __LINE__,
                         "(%d, %d): %s is %s in adams (the chart has it a basis class)", n, s,
                         c->name, c->vec ? "dependent on the other named classes" : "zero");
    }
    for (int j = 0; j < k; j++) {
        const chart_cls_t *c = &ch->c[idx[j]];
        if (c->kind == UNK)
            continue;
        basis_add(w, &nw, c->vec);
        for (int a = 0; a < c->namb; a++)
            basis_add(w, &nw, c->amb[a]);
    }
    if (nunk == 1 && nw == k - 1) { /* the other basis vector, up to the span w */
        chart_cls_t *c = &ch->c[unk];
        uint32_t x0 = 0;
        for (int j = 0; j < k && !x0; j++)
            if (!in_span(w, nw, 1u << j))
                x0 = 1u << j;
        ASSERT(x0 != 0 && nw <= 8);
        c->kind = SPAN;
        c->vec = x0;
        c->namb = nw;
        memcpy(c->amb, w, (size_t)nw * sizeof w[0]);
    }
}

/* Whether h_i from (n, s) lands in the chart's range. */
static int line_in_range(int n, int s, int i)
{
    return n + (1 << i) - 1 <= MAX_N && s + 1 <= MAX_S;
}

/* The chart's h_i c: the sum of the targets of its h_i lines (0 without one; the chart
 * draws every h_0, h_1, h_2 product).  0 when a target is not mapped exactly. */
static int line_image(const chart_t *ch, int c, int i, uint32_t *out)
{
    uint32_t v = 0;
    for (int l = 0; l < ch->nh; l++)
        if (ch->hsrc[l] == c && ch->hi[l] == i) {
            const chart_cls_t *t = &ch->c[ch->hdst[l]];
            if (t->kind != DET)
                return 0;
            v ^= t->vec;
        }
    *out = v;
    return 1;
}

/* A class not known exactly by its name, when its h_0, h_1, h_2 lines leave one vector
 * of its bidegree off the span of the exactly known classes there (and in its span, if
 * it has one): that vector.  Returns how many it found. */
static int lines_solve(const resol_t *R, chart_t *ch)
{
    int found = 0;
    for (int c = 0; c < ch->nc; c++) {
        chart_cls_t *x = &ch->c[c];
        int64_t dim = resol_ext_dim(R, x->s, x->n);
        if (x->kind == DET || dim > 16 || strcmp(x->fac, "?") == 0)
            continue;
        uint32_t b[32];
        int nb = 0;
        for (int j = 0; j < ch->nc; j++)
            if (ch->c[j].n == x->n && ch->c[j].s == x->s && ch->c[j].kind == DET)
                basis_add(b, &nb, ch->c[j].vec);
        uint32_t want[3];
        int have[3];
        for (int i = 0; i < 3; i++)
            have[i] = line_in_range(x->n, x->s, i) && line_image(ch, c, i, &want[i]);
        uint32_t sol = 0;
        int nsol = 0;
        for (uint32_t v = 1; v < (1u << dim); v++) {
            if (in_span(b, nb, v) || (x->kind == SPAN && !in_span(x->amb, x->namb, v ^ x->vec)))
                continue;
            int ok = 1;
            for (int i = 0; i < 3 && ok; i++)
                if (have[i] && h_mask(R, i, x->n, x->s, v) != want[i])
                    ok = 0;
            if (ok) {
                sol = v;
                nsol++;
            }
        }
        if (nsol == 1) {
            x->kind = DET;
            x->vec = sol;
            x->namb = 0;
            x->by_lines = 1;
            found++;
        }
    }
    return found;
}

/* d_2 of a vector at (n, s) (a mask over the classes at (n - 1, s + 2)). */
static uint32_t d2_of(const resol_sec_t *X, int n, int s, uint32_t v)
{
    fmat_t m;
    ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
    uint32_t out = 0;
    for (int64_t i = 0; i < fmat_rows(&m); i++)
        if ((v >> i) & 1u)
            for (int64_t j = 0; j < fmat_cols(&m); j++)
                if (fmat_get(&m, i, j))
                    out ^= 1u << j;
    fmat_clear(&m);
    return out;
}

static void check_chart(resol_algo_t algo)
{
    static chart_t ch;
    load_chart(&ch);
    ASSERT_EQ(ch.nc, 535);
    ASSERT_EQ(ch.na, 98);

    int bad = 0, bad_lines = 0, exact = 0, upto = 0, skipped = 0, ranks = 0, e3s = 0;
    fdmod_t *M = fdmod_sphere();
    resol_t *R = resol_new(M, MAX_S + 2, MAX_N + 1);
    resol_run(R, algo);
    resol_sec_t *X;
    char err[256];
    ASSERT_EQ(resol_sec_new(&X, R, NULL, NULL, NULL, err, sizeof err), 0);

    for (int n = 0; n <= MAX_N; n++)
        for (int s = 0; s <= MAX_S; s++)
            map_bidegree(R, &ch, n, s);
    int by_lines = 0;
    for (int pass = 0; pass < 4; pass++) { /* then by lines, and names again */
        int f = lines_solve(R, &ch);
        if (!f)
            break;
        by_lines += f;
        for (int n = 0; n <= MAX_N; n++)
            for (int s = 0; s <= MAX_S; s++) {
                int unk = 0;
                for (int i = 0; i < ch.nc; i++)
                    unk |= ch.c[i].n == n && ch.c[i].s == s && ch.c[i].kind != DET;
                if (unk)
                    map_bidegree(R, &ch, n, s);
            }
    }

    /* the chart's h_0, h_1, h_2 lines are adams's products */
    int lines = 0;
    for (int c = 0; c < ch.nc; c++)
        for (int i = 0; i < 3; i++) {
            const chart_cls_t *x = &ch.c[c];
            uint32_t want;
            if (x->kind != DET || !line_in_range(x->n, x->s, i) || !line_image(&ch, c, i, &want))
                continue;
            uint32_t got = h_mask(R, i, x->n, x->s, x->vec);
            if (got != want) {
                fprintf(stderr, "h%d %s at (%d, %d): adams %#x, the chart's lines %#x\n", i,
                        x->name, x->n, x->s, got, want);
                bad_lines++;
            }
            lines++;
        }

    for (int n = 1; n <= MAX_N; n++)
        for (int s = 1; s <= MAX_S; s++) {
            ASSERT(resol_sec_has(X, s, n) || resol_ext_dim(R, s, n) == 0);
            int sources = 0, alive = 0;
            for (int i = 0; i < ch.nc; i++)
                if (ch.c[i].n == n && ch.c[i].s == s) {
                    int has = 0;
                    for (int a = 0; a < ch.na; a++)
                        has |= ch.src[a] == i;
                    sources += has;
                    alive += ch.c[i].page > 2;
                }
            if (resol_ext_dim(R, s, n) > 0 && resol_ext_dim(R, s + 2, n - 1) > 0) {
                fmat_t m;
                ASSERT_EQ(resol_sec_d2(X, s, n, &m), 0);
                int64_t r = fmat_rank(&m);
                fmat_clear(&m);
                if (r != sources) {
                    fprintf(stderr, "rank of d_2 out of (%d, %d): adams %lld, the chart %d\n",
                            n, s, (long long)r, sources);
                    bad++;
                }
                ranks++;
            } else if (sources) {
                fprintf(stderr, "(%d, %d): the chart has a d_2 into a zero group\n", n, s);
                bad++;
            }
            if (n <= MAX_N - 1) {
                int64_t e3 = resol_sec_e3_dim(X, s, n);
                if (e3 != alive) {
                    fprintf(stderr, "E_3 at (%d, %d): adams %lld, the chart %d\n", n, s,
                            (long long)e3, alive);
                    bad++;
                }
                e3s++;
            }
        }

    for (int i = 0; i < ch.nc; i++) {
        chart_cls_t *c = &ch.c[i];
        if (c->n < 1 || resol_ext_dim(R, c->s + 2, c->n - 1) <= 0)
            continue; /* d_2 lands in a zero group */
        if (c->kind == UNK) {
            skipped++;
            continue;
        }
        uint32_t want = 0, amb[40];
        int namb = 0, unknown = 0;
        for (int a = 0; a < ch.na; a++)
            if (ch.src[a] == i) {
                chart_cls_t *t = &ch.c[ch.dst[a]];
                ASSERT(t->n == c->n - 1 && t->s == c->s + 2);
                if (t->kind == UNK)
                    unknown = 1;
                want ^= t->vec;
                for (int j = 0; j < t->namb; j++) {
                    ASSERT(namb < 40);
                    amb[namb++] = t->amb[j];
                }
            }
        if (unknown) {
            skipped++;
            continue;
        }
        for (int j = 0; j < c->namb; j++) {
            ASSERT(namb < 40);
            amb[namb++] = d2_of(X, c->n, c->s, c->amb[j]);
        }
        uint32_t got = d2_of(X, c->n, c->s, c->vec);
        uint32_t ab[32];
        int nab = 0;
        for (int j = 0; j < namb; j++)
            basis_add(ab, &nab, amb[j]);
        if (!in_span(ab, nab, got ^ want)) {
            fprintf(stderr, "d_2 %s at (%d, %d): adams %#x, the chart %#x (up to a span of %d)\n",
                    c->name, c->n, c->s, got, want, nab);
            bad++;
        }
        if (nab == 0)
            exact++;
        else
            upto++;
    }
    fprintf(stderr,
            "isaksen chart: %d classes, %d arrows, %d h_i lines; %d classes found by their lines; "
            "%d products by lines checked, %d differ; %d ranks, %d E_3 dims; d_2 by name: %d "
            "exact, %d up to a span, %d classes not named; %d disagreements\n",
            ch.nc, ch.na, ch.nh, by_lines, lines, bad_lines, ranks, e3s, exact, upto, skipped,
            bad);
    ASSERT_EQ(bad, 0);
    ASSERT_EQ(bad_lines, 0);
    ASSERT_EQ(ranks, 218);
    ASSERT_EQ(e3s, 1980);
    ASSERT(lines >= 1494 && by_lines >= 11);
    ASSERT(exact >= 237 && upto + skipped <= 6);
    resol_sec_free(X);
    resol_free(R);
    fdmod_free(M);
}

/* Through (62, 35): about 2 s of CPU per engine (Release). */
TEST(secondary_isaksen_chart_slow)
{
    check_chart(RESOL_CLASSICAL);
    check_chart(RESOL_NASSAU); /* names, not bases: the same checks hold */
}

/* The command of issue 22's "done when", `adams d2 S_2 --stem 60` (filtrations through 33,
 * its default there), against the chart with no basis of adams's library involved: in
 * every bidegree of stem <= 60 whose d_2 lands in a nonzero group of filtration <= 33,
 * one line per class of the chart there, each with one entry per class of the chart at
 * the target; the lines' rank is the chart's number of classes supporting an arrow; and
 * where source and target are one-dimensional (the lines that cannot depend on a basis)
 * the entry is whether the chart has the arrow. */
TEST(secondary_isaksen_cli_slow)
{
    static chart_t ch;
    load_chart(&ch);
    static int dim[MAX_N + 1][MAX_S + 1], src[MAX_N + 1][MAX_S + 1];
    memset(dim, 0, sizeof dim);
    memset(src, 0, sizeof src);
    for (int i = 0; i < ch.nc; i++)
        dim[ch.c[i].n][ch.c[i].s]++;
    for (int i = 0; i < ch.nc; i++) {
        int has = 0;
        for (int a = 0; a < ch.na; a++)
            has |= ch.src[a] == i;
        src[ch.c[i].n][ch.c[i].s] += has;
    }
    sq_test_run_t r = sq_test_runf("d2 S_2 --stem 60");
    ASSERT_EQ(r.rc, 0);
    /* rows[n][s]: the lines of (n, s) as bit masks, in order of i */
    static uint32_t rows[MAX_N + 1][MAX_S + 1][8];
    static int nrows[MAX_N + 1][MAX_S + 1];
    memset(nrows, 0, sizeof nrows);
    int lines = 0;
    for (char *line = r.out; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        int n, s, i, off = 0;
        ASSERT(sscanf(line, "d_2 x_(%d, %d, %d) = [%n", &n, &s, &i, &off) == 3 && off > 0);
        ASSERT(n >= 1 && n <= 60 && s >= 1 && s + 2 <= MAX_S);
        ASSERT(nrows[n][s] == i && i < 8);
        uint32_t m = 0;
        int cols = 0;
        for (char *p = line + off; *p && *p != ']'; p++)
            if (*p == '0' || *p == '1')
                m |= (uint32_t)(*p - '0') << cols++;
        if (cols != dim[n - 1][s + 2])
            sq_test_fail(__FILE__, __LINE__, "%s: %d entries, the chart has %d classes at (%d, %d)",
                         line, cols, dim[n - 1][s + 2], n - 1, s + 2);
        rows[n][s][nrows[n][s]++] = m;
        lines++;
        line = nl ? nl + 1 : NULL;
    }
    int basis_free = 0;
    for (int n = 1; n <= 60; n++)
        for (int s = 1; s + 2 <= MAX_S; s++) {
            if (!dim[n][s] || !dim[n - 1][s + 2]) {
                ASSERT_EQ(nrows[n][s], 0);
                continue;
            }
            if (nrows[n][s] != dim[n][s])
                sq_test_fail(__FILE__, __LINE__, "(%d, %d): %d lines, the chart has %d classes", n,
                             s, nrows[n][s], dim[n][s]);
            uint32_t b[32];
            int nb = 0;
            for (int i = 0; i < nrows[n][s]; i++)
                basis_add(b, &nb, rows[n][s][i]);
            if (nb != src[n][s])
                sq_test_fail(__FILE__, __LINE__, "(%d, %d): d_2 of rank %d, the chart %d", n, s, nb,
                             src[n][s]);
            if (dim[n][s] == 1 && dim[n - 1][s + 2] == 1) {
                ASSERT_EQ((int)rows[n][s][0], src[n][s]);
                basis_free++;
            }
        }
    fprintf(stderr, "adams d2 S_2 --stem 60: %d lines, %d of them basis-free, as the chart\n",
            lines, basis_free);
    ASSERT(lines == 230 && basis_free == 170);
    sq_test_run_free(&r);
}
