/*
 * sq_bruner.c -- Bruner's format: the writer (as the peer's save_bruner)
 * and the reader (as the peer's bruner example, with every field checked).
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "sq_bruner.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "fhom.h"
#include "fmat.h"
#include "fmod.h"
#include "sq_core.h"
#include "stalg.h"

/* Most files (s + 1) and generators per file the reader takes. */
#define BRUNER_MAX_FILES 4096
#define BRUNER_MAX_GENS 10000000

/* ---- Writing -------------------------------------------------------------------- */

/* The rows of d(x) for generator g of F_s (s >= 1) in degree t: one per
 * target generator with a nonzero part.  Returns the number of rows and
 * writes them into *buf (grown). */
static int64_t d_rows(const resol_t *R, int32_t s, int32_t t, int64_t g, char **buf, size_t *cap)
{
    const fhom_t *d = resol_differential(R, s);
    const fmod_t *T = resol_free_module(R, s - 1);
    const stalg_t *S = resol_stalg(R);
    int64_t len;
    const void *img = fhom_image_enc(d, g, &len);
    fvec_t v = fvec_view_limbs((uint64_t *)(uintptr_t)img, len);
    size_t k = 0;
    int64_t rows = 0;
    (*buf)[0] = '\0';
    for (int32_t e = fmod_min_degree(T); e < t; e++) {
        int64_t dim = stalg_dim(S, t - e);
        for (int64_t j = 0; j < fmod_num_gens(T, e); j++) {
            int64_t off = fmod_block_offset(T, t, e, j);
            int any = 0;
            for (int64_t a = 0; a < dim && off + a < len; a++) {
                if (!fvec_get(v, off + a))
                    continue;
                /* room for a row head and one element: 64 + 12 per entry */
                if (k + 64 + 12 * STALG_MAX_LEN + 8 > *cap) {
                    *cap = 2 * *cap + 64 + 12 * STALG_MAX_LEN + 8;
                    *buf = sq_realloc(*buf, *cap);
                }
                if (!any)
                    k += (size_t)snprintf(*buf + k, *cap - k, "%lld %d %lld i",
                                          (long long)fmod_gen_global(T, e, j), (int)(t - e),
                                          (long long)dim);
                any = 1;
                stalg_elt_t el;
                stalg_get(S, t - e, a, &el);
                (*buf)[k++] = '(';
                for (int i = 0; i < el.len; i++)
                    k += (size_t)snprintf(*buf + k, *cap - k, i ? ",%d" : "%d", (int)el.r[i]);
                (*buf)[k++] = ')';
                (*buf)[k] = '\0';
            }
            if (any) {
                k += (size_t)snprintf(*buf + k, *cap - k, ".\n");
                rows++;
            }
        }
    }
    return rows;
}

/* The rows of the augmentation of generator g of F_0 in degree t: one per
 * basis element of M in d(g), "j 0 1 i(0)." with j its index over all
 * degrees of M.  Returns the number of rows, written to f. */
static int64_t aug_rows(FILE *f, const resol_t *R, int32_t t, int64_t g)
{
    const fdmod_t *M = resol_input(R);
    int64_t len, below = 0, rows = 0;
    const void *img = fhom_image_enc(resol_differential(R, 0), g, &len);
    fvec_t v = fvec_view_limbs((uint64_t *)(uintptr_t)img, len);
    for (int32_t e = fdmod_min_degree(M); e < t; e++)
        below += fdmod_dim(M, e);
    for (int64_t j = 0; j < len; j++)
        rows += fvec_get(v, j) != 0;
    fprintf(f, "%lld\n", (long long)rows);
    for (int64_t j = 0; j < len; j++)
        if (fvec_get(v, j))
            fprintf(f, "%lld 0 1 i(0).\n", (long long)(below + j));
    return rows;
}

/* Writes dir/hDiff.s; 0 or SQ_E_IO with err. */
static int write_file(const char *dir, const resol_t *R, int32_t s, int32_t max_n, char *err,
                      size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/hDiff.%d", dir, (int)s);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return SQ_E_IO;
    }
    const fmod_t *F = resol_free_module(R, s);
    int32_t lo = fdmod_bottom(resol_input(R)) + s, hi = max_n + s;
    int64_t total = 0;
    for (int32_t t = lo; t <= hi; t++)
        total += fmod_num_gens(F, t);
    fprintf(f, "        %lld        %d\n\n", (long long)total, (int)hi);
    size_t cap = 256;
    char *buf = sq_malloc(cap);
    for (int32_t t = lo; t <= hi; t++)
        for (int64_t i = 0; i < fmod_num_gens(F, t); i++) {
            int64_t g = fmod_gen_global(F, t, i);
            fprintf(f, "%d\n\n", (int)t);
            if (s == 0) {
                aug_rows(f, R, t, g);
                fputs("\n\n\n", f);
                continue;
            }
            int64_t rows = d_rows(R, s, t, g, &buf, &cap);
            fprintf(f, "%lld\n%s\n", (long long)rows, buf);
        }
    sq_free(buf);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
        return SQ_E_IO;
    }
    return 0;
}

int sq_bruner_write(const char *dir, const resol_t *R, int32_t max_n, int32_t max_s, char *err,
                    size_t errlen)
{
    for (int32_t s = 0; s <= max_s; s++) {
        int rc = write_file(dir, R, s, max_n, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- Reading -------------------------------------------------------------------- */

/* A term of d(x): the target generator (global index in F_{s-1}) and a
 * Milnor basis element of degree op (index within the degree). */
typedef struct {
    int64_t gen;
    int32_t op;
    int64_t idx;
} term_t;

typedef struct {
    int32_t t;
    int64_t first, count; /* its terms: terms[first .. first + count) */
} gen_t;

typedef struct {
    int32_t max_deg;
    int64_t ngens;
    gen_t *gens;
    term_t *terms;
    int64_t nterms, cap;
} level_t;

struct sq_bruner {
    int32_t max_s, bottom, max_n;
    level_t *lv;
    stalg_t *S;
};

/* The reader's state on one file. */
typedef struct {
    FILE *f;
    const char *path;
    int64_t line;
    char *buf;
    size_t cap;
    char *err;
    size_t errlen;
} rd_t;

/* The next non-empty line (trimmed of trailing space) into r->buf: 1, 0
 * at the end. */
static int next_line(rd_t *r)
{
    for (;;) {
        ssize_t n = getline(&r->buf, &r->cap, r->f);
        if (n < 0)
            return 0;
        r->line++;
        while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r' ||
                         r->buf[n - 1] == ' ' || r->buf[n - 1] == '\t'))
            r->buf[--n] = '\0';
        const char *p = r->buf;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p)
            return 1;
    }
}

static int bad(rd_t *r, const char *what)
{
    snprintf(r->err, r->errlen, "%s:%lld: %s", r->path, (long long)r->line, what);
    return SQ_E_INVAL;
}

/* An integer in [lo, hi] at *p (after blanks); advances *p.  0 or -1. */
static int take_int(const char **p, long long lo, long long hi, long long *out)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    char *end;
    errno = 0;
    long long v = strtoll(*p, &end, 10);
    if (end == *p || errno || v < lo || v > hi)
        return -1;
    *p = end;
    *out = v;
    return 0;
}

static void push_term(level_t *L, term_t x)
{
    if (L->nterms == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->terms = sq_realloc(L->terms, (size_t)L->cap * sizeof *L->terms);
    }
    L->terms[L->nterms++] = x;
}

/* Whether g is a generator of prev; its degree into *deg. */
static int64_t gen_of_degree(const level_t *prev, int64_t g, int32_t *deg)
{
    if (g < 0 || g >= prev->ngens)
        return -1;
    *deg = prev->gens[g].t;
    return g;
}

/* One row "gen op dim i(r,..)(r,..)." of generator x (degree t) of level s. */
static int read_row(rd_t *r, const sq_bruner_t *B, int32_t s, const level_t *prev, level_t *L,
                    int32_t t)
{
    const char *p = r->buf;
    long long gen, op, dim;
    if (take_int(&p, 0, INT64_MAX, &gen) || take_int(&p, 0, MILNOR_MAX_DEGREE, &op) ||
        take_int(&p, 0, INT64_MAX, &dim))
        return bad(r, "expected 'generator degree dimension i(...)...' (three integers first)");
    while (*p == ' ')
        p++;
    if (*p++ != 'i')
        return bad(r, "expected 'i' before the operations");
    if (s == 0) { /* the augmentation: a basis element of the module */
        if (op != 0 || dim != 1 || strcmp(p, "(0).") != 0)
            return bad(r, "a row of hDiff.0 must be 'j 0 1 i(0).'");
        return 0;
    }
    int32_t gdeg;
    if (gen_of_degree(prev, gen, &gdeg) < 0)
        return bad(r, "the target generator is not one of the previous file's");
    if (op < 1 || gdeg + op != t)
        return bad(r, "the operation's degree plus its generator's is not the degree of the "
                      "generator (or is 0: not a minimal resolution)");
    if (dim != stalg_dim(B->S, (int32_t)op))
        return bad(r, "the dimension field is not that of A in the operation's degree");
    int n = 0;
    while (*p == '(') {
        p++;
        stalg_elt_t e = {0, 0, {0}};
        for (;;) {
            long long x;
            if (e.len == STALG_MAX_LEN || take_int(&p, 0, MILNOR_MAX_DEGREE, &x))
                return bad(r, "expected a Milnor basis element (r_1,...,r_k)");
            e.r[e.len++] = (int32_t)x;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p++ != ')')
                return bad(r, "expected ',' or ')' in a Milnor basis element");
            break;
        }
        if (stalg_elt_degree(B->S, &e) != op)
            return bad(r, "a Milnor basis element is not of the operation's degree");
        int64_t idx = stalg_index(B->S, &e);
        if (idx < 0)
            return bad(r, "not a Milnor basis element");
        push_term(L, (term_t){gen, (int32_t)op, idx});
        n++;
    }
    if (!n || strcmp(p, ".") != 0)
        return bad(r, "expected operations '(r,...)' ending in '.'");
    return 0;
}

/* Reads one file into L; prev is level s - 1 (NULL for s = 0). */
static int read_level(rd_t *r, const sq_bruner_t *B, int32_t s, const level_t *prev, level_t *L)
{
    long long ngens, maxdeg, t, rows;
    const char *p;
    if (!next_line(r))
        return bad(r, "empty file: expected the header 'generators largest-degree'");
    p = r->buf;
    if (take_int(&p, 0, BRUNER_MAX_GENS, &ngens) ||
        take_int(&p, -RESOL_MAX_T, RESOL_MAX_T, &maxdeg) || *p)
        return bad(r, "expected the header 'generators largest-degree' (two integers)");
    L->max_deg = (int32_t)maxdeg;
    int64_t room = 0; /* grown as generators come: the header alone allocates nothing */
    for (int64_t i = 0; i < ngens; i++) {
        if (i == room) {
            room = room ? 2 * room : 64;
            L->gens = sq_realloc(L->gens, (size_t)room * sizeof *L->gens);
        }
        if (!next_line(r))
            return bad(r, "fewer generators than the header says");
        p = r->buf;
        if (take_int(&p, -RESOL_MAX_T, maxdeg, &t) || *p)
            return bad(r, "expected a generator's degree (an integer up to the header's "
                          "largest degree)");
        if (i && t < L->gens[i - 1].t)
            return bad(r, "generators out of order: degrees must not decrease");
        if (!next_line(r))
            return bad(r, "expected the number of rows of the generator");
        p = r->buf;
        if (take_int(&p, 0, INT32_MAX, &rows) || *p)
            return bad(r, "expected the number of rows of the generator (an integer)");
        if (s > 0 && rows == 0)
            return bad(r, "a generator with d = 0: not a minimal resolution");
        L->gens[i] = (gen_t){(int32_t)t, L->nterms, 0};
        L->ngens = i + 1;
        for (long long k = 0; k < rows; k++) {
            if (!next_line(r))
                return bad(r, "fewer rows than the generator's count");
            int rc = read_row(r, B, s, prev, L, (int32_t)t);
            if (rc)
                return rc;
        }
        L->gens[i].count = L->nterms - L->gens[i].first;
    }
    if (next_line(r))
        return bad(r, "more than the header's number of generators");
    return 0;
}

void sq_bruner_free(sq_bruner_t *B)
{
    if (!B)
        return;
    for (int32_t s = 0; s <= B->max_s; s++) {
        sq_free(B->lv[s].gens);
        sq_free(B->lv[s].terms);
    }
    sq_free(B->lv);
    stalg_free(B->S);
    sq_free(B);
}

int sq_bruner_read(sq_bruner_t **out, const char *dir, char *err, size_t errlen)
{
    *out = NULL;
    sq_bruner_t *B = sq_calloc(1, sizeof *B);
    B->S = stalg_new(2, MILNOR_MAX_DEGREE, NULL);
    B->max_s = -1;
    rd_t r = {NULL, NULL, 0, NULL, 0, err, errlen};
    char path[4096];
    int rc = 0;
    for (int32_t s = 0; s < BRUNER_MAX_FILES; s++) {
        snprintf(path, sizeof path, "%s/hDiff.%d", dir, (int)s);
        r.f = fopen(path, "r");
        if (!r.f) {
            if (s == 0) {
                snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
                rc = SQ_E_IO;
            }
            break;
        }
        r.path = path;
        r.line = 0;
        B->lv = sq_realloc(B->lv, (size_t)(s + 1) * sizeof *B->lv);
        memset(&B->lv[s], 0, sizeof B->lv[s]);
        B->max_s = s;
        rc = read_level(&r, B, s, s ? &B->lv[s - 1] : NULL, &B->lv[s]);
        fclose(r.f);
        if (rc)
            break;
    }
    free(r.buf);
    if (!rc && B->lv[0].ngens == 0) {
        snprintf(err, errlen, "%s/hDiff.0 has no generator", dir);
        rc = SQ_E_INVAL;
    }
    if (rc) {
        sq_bruner_free(B);
        return rc;
    }
    B->bottom = B->lv[0].gens[0].t;
    B->max_n = INT32_MAX;
    for (int32_t s = 0; s <= B->max_s; s++)
        if (B->lv[s].max_deg - s < B->max_n)
            B->max_n = B->lv[s].max_deg - s;
    *out = B;
    return 0;
}

void sq_bruner_region(const sq_bruner_t *B, int32_t *bottom, int32_t *max_n, int32_t *max_s)
{
    *bottom = B->bottom;
    *max_n = B->max_n;
    *max_s = B->max_s;
}

/* The generators of level L in degree t: the first index and the count. */
static int64_t gens_in_degree(const level_t *L, int32_t t, int64_t *first)
{
    int64_t lo = 0, hi = L->ngens; /* first index with degree >= t */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (L->gens[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    int64_t end = lo;
    while (end < L->ngens && L->gens[end].t == t)
        end++;
    return end - lo;
}

int64_t sq_bruner_ext_dim(const void *ctx, int32_t s, int32_t n)
{
    const sq_bruner_t *B = ctx;
    if (s < 0 || s > B->max_s)
        return -1;
    int64_t first;
    return gens_in_degree(&B->lv[s], n + s, &first);
}

static int term_cmp(const void *a, const void *b)
{
    const term_t *x = a, *y = b;
    if (x->gen != y->gen)
        return x->gen < y->gen ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Writes the terms of generator x of level s (s >= 1): sorted as in the
 * resolution's basis, pairs cancelled (mod 2).  Returns how many. */
static int64_t write_gen_terms(FILE *f, const sq_bruner_t *B, int32_t s, const gen_t *x)
{
    const level_t *prev = &B->lv[s - 1];
    term_t *v = sq_malloc((size_t)(x->count ? x->count : 1) * sizeof *v);
    memcpy(v, B->lv[s].terms + x->first, (size_t)x->count * sizeof *v);
    qsort(v, (size_t)x->count, sizeof *v, term_cmp);
    int64_t written = 0;
    for (int64_t i = 0; i < x->count;) {
        int64_t j = i;
        while (j < x->count && term_cmp(&v[i], &v[j]) == 0)
            j++;
        if ((j - i) % 2) {
            const gen_t *g = &prev->gens[v[i].gen];
            int64_t first;
            gens_in_degree(prev, g->t, &first);
            stalg_elt_t e;
            stalg_get(B->S, v[i].op, v[i].idx, &e);
            fputs(written++ ? " + P(" : "P(", f);
            for (int k = 0; k < e.len; k++)
                fprintf(f, k ? ", %d" : "%d", (int)e.r[k]);
            fprintf(f, ") x_(%d,%d,%lld)", (int)(g->t - (s - 1)), (int)(s - 1),
                    (long long)(v[i].gen - first));
        }
        i = j;
    }
    sq_free(v);
    return written;
}

int sq_bruner_write_differentials(FILE *f, const sq_bruner_t *B, int32_t max_n, int32_t max_s)
{
    if (max_s > B->max_s)
        max_s = B->max_s;
    for (int32_t n = B->bottom; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            int64_t first, count = gens_in_degree(&B->lv[s], n + s, &first);
            for (int64_t i = 0; i < count; i++) {
                fprintf(f, "d x_(%d,%d,%lld) = ", (int)n, (int)s, (long long)i);
                if (s == 0 || !write_gen_terms(f, B, s, &B->lv[s].gens[first + i]))
                    fputs("0", f);
                if (fputc('\n', f) == EOF)
                    return SQ_E_IO;
            }
        }
    return ferror(f) ? SQ_E_IO : 0;
}

/* ---- The change of basis (the peer's `bruner`) ---------------------------------- */

static uint64_t *bits_new(int64_t n)
{
    return sq_calloc((size_t)(f2_limbs(n) ? f2_limbs(n) : 1), sizeof(uint64_t));
}

static int bit_of(const uint64_t *v, int64_t i)
{
    return (int)((v[i / 64] >> (i % 64)) & 1u);
}

/* w (R's F_{s-1} in degree t) += a * v, a = (op, idx) and v = f(b') in R's
 * F_{s-1} in degree e = t - op. */
static void act_add(const resol_t *R, int32_t s, int32_t t, int32_t op, int64_t idx, int32_t e,
                    const uint64_t *v, uint64_t *w, int64_t wlen)
{
    const fmod_t *T = resol_free_module(R, s - 1);
    const stalg_t *S = resol_stalg(R);
    fvec_t out = fvec_view_limbs(w, wlen);
    for (int32_t dh = fmod_min_degree(T); dh <= e; dh++)
        for (int64_t j = 0; j < fmod_num_gens(T, dh); j++) {
            int64_t off = fmod_block_offset(T, e, dh, j), dim = stalg_dim(S, e - dh);
            fvec_t blk;
            fvec_init(&blk, dim, 2);
            int any = 0;
            for (int64_t a = 0; a < dim; a++)
                if (bit_of(v, off + a)) {
                    fvec_set(blk, a, 1);
                    any = 1;
                }
            if (any)
                stalg_mul_vec_add(S, out, fmod_block_offset(T, t, dh, j), 1, op, idx, e - dh, blk);
            fvec_clear(&blk);
        }
}

/* f_s(b) for B's generator b of level s (s >= 1), into a new vector over
 * R's F_s in degree b's; NULL with err when f_{s-1}(d b) is no boundary. */
static uint64_t *chain_image(const sq_bruner_t *B, const resol_t *R, int32_t s, const gen_t *b,
                             uint64_t *const *prev, char *err, size_t errlen)
{
    const fmod_t *T = resol_free_module(R, s - 1);
    int64_t wlen = fmod_dim_below(T, b->t, b->t);
    uint64_t *w = bits_new(wlen);
    for (int64_t k = 0; k < b->count; k++) {
        const term_t *x = &B->lv[s].terms[b->first + k];
        int32_t e = B->lv[s - 1].gens[x->gen].t;
        act_add(R, s, b->t, x->op, x->idx, e, prev[x->gen], w, wlen);
    }
    uint64_t *out = bits_new(fmod_dim(resol_free_module(R, s), b->t));
    int rc = resol_lift(R, s, b->t, w, out);
    sq_free(w);
    if (rc) {
        sq_free(out);
        snprintf(err, errlen,
                 "hDiff.%d: the image of a generator of degree %d is not a boundary of the "
                 "sphere's resolution: the files are not a resolution of the sphere",
                 (int)s, (int)b->t);
        return NULL;
    }
    return out;
}

/* Prints the rows of bidegree (n, s): R's generators against B's. */
static void basis_rows(FILE *f, const sq_bruner_t *B, const resol_t *R, int32_t n, int32_t s,
                       uint64_t *const *img)
{
    const fmod_t *F = resol_free_module(R, s);
    int32_t t = n + s;
    int64_t first, cnt = gens_in_degree(&B->lv[s], t, &first);
    for (int64_t i = 0; i < fmod_num_gens(F, t); i++) {
        int64_t at = fmod_block_offset(F, t, t, i);
        fprintf(f, "x_(%d,%d,%lld) = [", (int)n, (int)s, (long long)i);
        for (int64_t j = 0; j < cnt; j++)
            fprintf(f, j ? ", %d" : "%d", bit_of(img[first + j], at));
        fputs("]\n", f);
    }
}

int sq_bruner_basis(FILE *f, const sq_bruner_t *B, const resol_t *R, int32_t max_n,
                    int32_t max_s, char *err, size_t errlen)
{
    if (B->lv[0].ngens != 1 || B->lv[0].gens[0].t != 0) {
        snprintf(err, errlen, "the change of basis is computed for the sphere only: hDiff.0 must "
                              "hold one generator, in degree 0");
        return SQ_E_INVAL;
    }
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++)
            if (sq_bruner_ext_dim(B, s, n) != resol_ext_dim(R, s, n)) {
                snprintf(err, errlen,
                         "the files have %lld generators at (n, s) = (%d, %d), the sphere's "
                         "minimal resolution %lld: they do not resolve the sphere",
                         (long long)sq_bruner_ext_dim(B, s, n), (int)n, (int)s,
                         (long long)resol_ext_dim(R, s, n));
                return SQ_E_INVAL;
            }
    uint64_t ***img = sq_calloc((size_t)max_s + 1, sizeof *img);
    int rc = 0;
    for (int32_t s = 0; s <= max_s && !rc; s++) {
        const level_t *L = &B->lv[s];
        img[s] = sq_calloc((size_t)(L->ngens ? L->ngens : 1), sizeof **img);
        for (int64_t g = 0; g < L->ngens && !rc; g++) {
            if (L->gens[g].t > max_n + s)
                break;
            if (s == 0) {
                img[0][g] = bits_new(1);
                img[0][g][0] = 1;
            } else if (!(img[s][g] = chain_image(B, R, s, &L->gens[g], img[s - 1], err, errlen)))
                rc = SQ_E_INVAL;
        }
    }
    if (!rc) {
        fputs("sseq_basis | bruner_basis\n", f);
        for (int32_t n = 0; n <= max_n; n++)
            for (int32_t s = 0; s <= max_s; s++)
                basis_rows(f, B, R, n, s, img[s]);
        rc = ferror(f) ? SQ_E_IO : 0;
    }
    for (int32_t s = 0; s <= max_s; s++) {
        for (int64_t g = 0; img[s] && g < B->lv[s].ngens; g++)
            sq_free(img[s][g]);
        sq_free(img[s]);
    }
    sq_free(img);
    return rc;
}
