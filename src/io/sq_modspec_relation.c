/*
 * sq_modspec_relation.c -- the relation strings of a finitely presented
 * module spec (grammar and result layout in relation_internal.h):
 *
 *     "Sq8 x0 + Sq1 x7"                    Adem letters
 *     "P(1, 3) x7 + P(4, 2) x7"            Milnor basis elements
 *     "Sq10 y + Sq7 Sq3 y + 3 Sq8 Sq2 y"   products, a coefficient mod 2
 *
 * How a relation is read.  Two passes, so that a caller can size the
 * algebra before building it.  The first (rel_read, no algebra) splits the
 * string at '+' and reads each term left to right: an optional all-digit
 * coefficient (generator names never begin with a digit), then words that
 * are operations, until the last word, which must be a generator.  An
 * operation in parentheses may contain white space ("P(1, 3)"), so words
 * are not split first: at each position the parser either sees the last
 * word of the term (a generator name) or reads one operation from there.
 * The last word is taken as an operation rather than a name only when it
 * is no generator and looks like one ("Sq2 Sq1" has no generator; "Sq2 xx"
 * is an unknown generator).  Each term's total degree is checked against
 * the first term's.  The second pass (spec_parse_relation) looks the
 * operations up in the algebra, multiplies each term's operations right to
 * left into one bit vector (the product is associative), and adds the
 * terms of each generator mod 2.
 *
 * Every integer is read saturating just above MILNOR_MAX_DEGREE, so no
 * input overflows; the coefficient keeps only its last digit.  Messages
 * quote the relation (clipped) and name the offending part, one line each,
 * at the line of the string in the text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relation_internal.h"

/* One operation of a term: the p-part, its degree, its index in the
 * algebra (second pass) and where it is written (for messages). */
typedef struct {
    int32_t r[MILNOR_MAX_LEN];
    int len;
    int32_t deg;
    int64_t idx;
    size_t at, n; /* bytes str[at .. at + n) */
} rel_op_t;

typedef struct {
    int odd;
    int64_t gen;
    int32_t opdeg;
    int64_t op0, nops; /* ops[op0 .. op0 + nops), left to right */
    size_t at, n;      /* the term's bytes, white space trimmed */
} rel_term_t;

typedef struct {
    spec_t *S;
    const char *s; /* the relation */
    size_t n;
    size_t pos; /* its offset in the text */
    rel_term_t *terms;
    int64_t nterms, capterms;
    rel_op_t *ops;
    int64_t nops, capops;
    int32_t deg; /* total degree (of the first term) */
} rel_t;

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static const char *rel_text(rel_t *R)
{
    return spec_clip(R->S, R->s, R->n);
}

static void rel_free(rel_t *R)
{
    sq_free(R->terms);
    sq_free(R->ops);
    R->terms = NULL;
    R->ops = NULL;
}

/* Reads the digits at s[*i ..) (at least one), saturating at
 * MILNOR_MAX_DEGREE + 1 so that nothing overflows. */
static int64_t read_number(const char *s, size_t *i, size_t end)
{
    int64_t v = 0;
    for (; *i < end && is_digit(s[*i]); (*i)++)
        if (v <= MILNOR_MAX_DEGREE)
            v = v * 10 + (s[*i] - '0');
    return v > MILNOR_MAX_DEGREE ? MILNOR_MAX_DEGREE + 1 : v;
}

/* End of the run of non-white-space bytes at s[i ..), at most end. */
static size_t word_end(const char *s, size_t i, size_t end)
{
    while (i < end && !is_ws(s[i]))
        i++;
    return i;
}

static int malformed(rel_t *R, size_t at, size_t n, const char *why)
{
    return spec_fail(R->S, SQ_E_INVAL, R->pos, "%s: malformed operation %s: %s", rel_text(R),
                     spec_clip(R->S, R->s + at, n), why);
}

static int too_large(rel_t *R, size_t at, size_t n, const char *what)
{
    return spec_fail(R->S, SQ_E_RANGE, R->pos,
                     "%s: %s: %s is beyond the largest supported degree %d", rel_text(R),
                     spec_clip(R->S, R->s + at, n), what, MILNOR_MAX_DEGREE);
}

/* "P(r1, r2, ...)" or "Sq(r1, ...)" at s[at ..), '(' at s[open]: into op,
 * *i past the ')'. */
static int read_ppart(rel_t *R, size_t at, size_t open, size_t end, size_t *i, rel_op_t *op)
{
    const char *s = R->s;
    /* What to quote: through the ')' and the rest of its word, or the
     * whole (trimmed) term when there is no ')'. */
    size_t shown = open;
    while (shown < end && s[shown] != ')')
        shown++;
    if (shown < end)
        shown = word_end(s, shown, end);
    else
        while (shown > at && is_ws(s[shown - 1]))
            shown--;
    size_t qn = shown - at;
    size_t j = open + 1;
    int64_t deg = 0;
    for (int64_t k = 1;; k++) {
        while (j < end && is_ws(s[j]))
            j++;
        if (j == end)
            return malformed(R, at, qn, "missing ')'");
        if (k == 1 && s[j] == ')')
            break;
        if (s[j] == '-')
            return malformed(R, at, qn, "entries must be non-negative integers");
        if (!is_digit(s[j]))
            return malformed(R, at, qn, "expected a non-negative integer after '(' or ','");
        int64_t v = read_number(s, &j, end);
        if (v > MILNOR_MAX_DEGREE)
            return too_large(R, at, qn, "an entry");
        if (v > 0) {
            if (k > MILNOR_MAX_LEN)
                return too_large(R, at, qn, "the degree");
            deg += v * (((int64_t)1 << k) - 1);
            if (deg > MILNOR_MAX_DEGREE)
                return too_large(R, at, qn, "the degree");
            op->r[k - 1] = (int32_t)v;
            op->len = (int)k;
        }
        while (j < end && is_ws(s[j]))
            j++;
        if (j == end)
            return malformed(R, at, qn, "missing ')'");
        if (s[j] == ')')
            break;
        if (s[j] != ',')
            return malformed(R, at, qn, "expected ',' or ')' after an entry");
        j++;
    }
    j++; /* the ')' */
    if (j < end && !is_ws(s[j]))
        return malformed(R, at, qn, "expected white space after ')'");
    op->deg = (int32_t)deg;
    op->at = at;
    op->n = j - at;
    *i = j;
    return 0;
}

/* One operation at s[*i ..) (the word ends at wend, the term at end) into
 * op; *i past it. */
static int read_op(rel_t *R, size_t *i, size_t wend, size_t end, rel_op_t *op)
{
    const char *s = R->s;
    size_t at = *i, wn = wend - at;
    memset(op, 0, sizeof *op);
    if (wn >= 2 && s[at] == 'P' && s[at + 1] == '(')
        return read_ppart(R, at, at + 1, end, i, op);
    if (wn < 2 || s[at] != 'S' || s[at + 1] != 'q')
        return spec_fail(R->S, SQ_E_INVAL, R->pos,
                         "%s: %s is not an operation (expected SqN, Sq^N, P(r1, r2, ...) or "
                         "Sq(r1, r2, ...))",
                         rel_text(R), spec_clip(R->S, s + at, wn));
    if (wn >= 3 && s[at + 2] == '(')
        return read_ppart(R, at, at + 2, end, i, op);
    size_t j = at + 2;
    if (j < wend && s[j] == '^')
        j++;
    if (j == wend || !is_digit(s[j]))
        return malformed(R, at, wn, "expected SqN, Sq^N or Sq(r1, r2, ...)");
    int64_t v = read_number(s, &j, wend);
    if (j != wend)
        return malformed(R, at, wn, "expected SqN, Sq^N or Sq(r1, r2, ...)");
    if (v > MILNOR_MAX_DEGREE)
        return too_large(R, at, wn, "the degree");
    op->r[0] = (int32_t)v;
    op->len = v > 0;
    op->deg = (int32_t)v;
    op->at = at;
    op->n = wn;
    *i = wend;
    return 0;
}

/* The generator closest to name[0..n) by edit distance (at most 2, and
 * less than its length), or NULL. */
static const char *near_gen(const spec_t *S, const char *name, size_t n)
{
    const char *best = NULL;
    int bestd = 3;
    for (int64_t i = 0; i < S->ngens; i++) {
        size_t len = strlen(S->gens[i].name);
        int d = spec_edit_distance(name, n, S->gens[i].name, len);
        if (d < bestd && (size_t)d < len) {
            bestd = d;
            best = S->gens[i].name;
        }
    }
    return best;
}

static int unknown_gen(rel_t *R, size_t at, size_t n, const char *best)
{
    char hint[SPEC_CLIP + 32] = "";
    if (best)
        snprintf(hint, sizeof hint, " (did you mean %s?)", spec_clip(R->S, best, strlen(best)));
    return spec_fail(R->S, SQ_E_INVAL, R->pos, "%s: unknown generator %s%s", rel_text(R),
                     spec_clip(R->S, R->s + at, n), hint);
}

static void push_op(rel_t *R, const rel_op_t *op)
{
    if (R->nops == R->capops) {
        R->capops = R->capops ? 2 * R->capops : 8;
        R->ops = sq_realloc(R->ops, sq_mul_size((size_t)R->capops, sizeof *R->ops));
    }
    R->ops[R->nops++] = *op;
}

static void push_term(rel_t *R, const rel_term_t *t)
{
    if (R->nterms == R->capterms) {
        R->capterms = R->capterms ? 2 * R->capterms : 8;
        R->terms = sq_realloc(R->terms, sq_mul_size((size_t)R->capterms, sizeof *R->terms));
    }
    R->terms[R->nterms++] = *t;
}

/* One term s[a .. b) into R->terms (its operations into R->ops). */
static int read_term(rel_t *R, size_t a, size_t b)
{
    const char *s = R->s;
    spec_t *S = R->S;
    while (a < b && is_ws(s[a]))
        a++;
    while (b > a && is_ws(s[b - 1]))
        b--;
    if (a == b)
        return spec_fail(S, SQ_E_INVAL, R->pos, "%s: an empty term (a stray '+')", rel_text(R));
    rel_term_t t = {.odd = 1, .gen = -1, .op0 = R->nops, .at = a, .n = b - a};
    size_t i = a;
    if (is_digit(s[i])) {
        size_t w = word_end(s, i, b);
        for (size_t k = i; k < w; k++)
            if (!is_digit(s[k]))
                return spec_fail(S, SQ_E_INVAL, R->pos,
                                 "%s: %s is not a coefficient, an operation or a generator",
                                 rel_text(R), spec_clip(S, s + i, w - i));
        t.odd = (s[w - 1] - '0') & 1;
        i = w;
    }
    int64_t opdeg = 0;
    for (;;) {
        while (i < b && is_ws(s[i]))
            i++;
        if (i == b)
            return spec_fail(S, SQ_E_INVAL, R->pos,
                             "%s: the term %s has no generator (a term is [coefficient] "
                             "[operations] generator)",
                             rel_text(R), spec_clip(S, s + a, b - a));
        size_t w = word_end(s, i, b);
        if (w == b) { /* the last word: a generator, unless it is none and looks like an op */
            int64_t g = spec_gen_lookup(S, s + i, w - i);
            if (g >= 0) {
                t.gen = g;
                break;
            }
            const char *best = near_gen(S, s + i, w - i);
            int oplike = w - i >= 2 &&
                         ((s[i] == 'S' && s[i + 1] == 'q') || (s[i] == 'P' && s[i + 1] == '('));
            if (best || !oplike)
                return unknown_gen(R, i, w - i, best);
        }
        rel_op_t op;
        int rc = read_op(R, &i, w, b, &op);
        if (rc)
            return rc;
        opdeg += op.deg;
        if (opdeg > MILNOR_MAX_DEGREE)
            return spec_fail(S, SQ_E_RANGE, R->pos,
                             "%s: the operations of %s have degree %lld, beyond the largest "
                             "supported degree %d",
                             rel_text(R), spec_clip(S, s + a, b - a), (long long)opdeg,
                             MILNOR_MAX_DEGREE);
        push_op(R, &op);
        t.nops++;
    }
    t.opdeg = (int32_t)opdeg;
    int32_t total = t.opdeg + S->gens[t.gen].fdeg;
    if (R->nterms > 0 && total != R->deg)
        return spec_fail(S, SQ_E_INVAL, R->pos,
                         "%s: terms of degree %d and %d; a relation must be homogeneous",
                         rel_text(R), (int)R->deg, (int)total);
    R->deg = total;
    push_term(R, &t);
    return 0;
}

/* The first pass: every term of the relation into R. */
static int rel_read(rel_t *R)
{
    size_t a = 0;
    while (a < R->n && is_ws(R->s[a]))
        a++;
    if (a == R->n)
        return spec_fail(R->S, SQ_E_INVAL, R->pos,
                         "\"%s\": an empty relation: expected \"[coefficient] [operations] "
                         "generator + ...\"",
                         rel_text(R));
    a = 0;
    for (;;) {
        size_t b = a;
        while (b < R->n && R->s[b] != '+')
            b++;
        int rc = read_term(R, a, b);
        if (rc)
            return rc;
        if (b == R->n)
            return 0;
        a = b + 1;
    }
}

int spec_relation_degree(spec_t *S, const char *str, size_t n, size_t pos, int32_t *deg,
                         int32_t *opdeg)
{
    rel_t R = {.S = S, .s = str, .n = n, .pos = pos};
    int rc = rel_read(&R);
    if (!rc) {
        int32_t top = 0;
        for (int64_t i = 0; i < R.nterms; i++)
            if (R.terms[i].opdeg > top)
                top = R.terms[i].opdeg;
        if (deg)
            *deg = R.deg;
        if (opdeg)
            *opdeg = top;
    }
    rel_free(&R);
    return rc;
}

/* ---- The second pass: products in the algebra ------------------------------ */

static size_t limbs(const milnor_t *A, int32_t deg)
{
    int64_t d = milnor_dim(A, deg);
    return d > 0 ? (size_t)(d + 63) / 64 : 1;
}

/* Looks every operation up in A: degree within its range, element within
 * its profile. */
static int rel_index(rel_t *R, const milnor_t *A)
{
    spec_t *S = R->S;
    int32_t max = milnor_max_degree(A);
    for (int64_t i = 0; i < R->nterms; i++) {
        const rel_term_t *t = &R->terms[i];
        if (t->opdeg > max)
            return spec_fail(S, SQ_E_RANGE, R->pos,
                             "%s: the term %s needs operations of degree %d, beyond the "
                             "algebra's maximum degree %d",
                             rel_text(R), spec_clip(S, R->s + t->at, t->n), (int)t->opdeg,
                             (int)max);
        for (int64_t j = t->op0; j < t->op0 + t->nops; j++) {
            rel_op_t *op = &R->ops[j];
            op->idx = milnor_index(A, op->r, op->len);
            if (op->idx >= 0)
                continue;
            int32_t h[MILNOR_MAX_LEN];
            int hl = milnor_profile(A, h);
            char prof[128];
            size_t k = 0;
            for (int q = 0; q < hl; q++)
                k += (size_t)snprintf(prof + k, sizeof prof - k, "%s%d", q ? "," : "", (int)h[q]);
            prof[k] = '\0';
            return spec_fail(S, SQ_E_INVAL, R->pos,
                             "%s: %s is not in the subalgebra of the profile [%s]", rel_text(R),
                             spec_clip(S, R->s + op->at, op->n), prof);
        }
    }
    return 0;
}

/* The product of the operations of t, as a new bit vector over degree
 * t->opdeg (the unit when there are none).  The product is associative, so
 * it is built from the right: v = op_last, then v = op_j * v. */
static uint64_t *term_vector(const rel_t *R, const milnor_t *A, const rel_term_t *t)
{
    int32_t vdeg = 0;
    uint64_t *v = sq_calloc(limbs(A, 0), sizeof *v);
    v[0] = 1;
    for (int64_t j = t->op0 + t->nops - 1; j >= t->op0; j--) {
        const rel_op_t *op = &R->ops[j];
        int32_t nd = vdeg + op->deg;
        uint64_t *w = sq_calloc(limbs(A, nd), sizeof *w);
        milnor_mul_vec_add(A, w, 0, op->deg, op->idx, vdeg, v);
        sq_free(v);
        v = w;
        vdeg = nd;
    }
    return v;
}

static int cmp_term(const void *a, const void *b)
{
    const rel_term_t *x = a, *y = b;
    if (x->gen != y->gen)
        return x->gen < y->gen ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

int spec_parse_relation(spec_t *S, const milnor_t *A, const char *str, size_t n, size_t pos,
                        spec_rel_t *out)
{
    memset(out, 0, sizeof *out);
    rel_t R = {.S = S, .s = str, .n = n, .pos = pos};
    int rc = rel_read(&R);
    if (!rc)
        rc = rel_index(&R, A);
    if (rc) {
        rel_free(&R);
        return rc;
    }
    out->deg = R.deg;
    out->terms = sq_calloc((size_t)R.nterms + 1, sizeof *out->terms);
    qsort(R.terms, (size_t)R.nterms, sizeof *R.terms, cmp_term);
    for (int64_t i = 0; i < R.nterms;) {
        const rel_term_t *t = &R.terms[i];
        size_t nl = limbs(A, t->opdeg);
        uint64_t *acc = sq_calloc(nl, sizeof *acc);
        int64_t j = i;
        for (; j < R.nterms && R.terms[j].gen == t->gen; j++) {
            if (!R.terms[j].odd)
                continue;
            uint64_t *v = term_vector(&R, A, &R.terms[j]);
            for (size_t k = 0; k < nl; k++)
                acc[k] ^= v[k];
            sq_free(v);
        }
        uint64_t any = 0;
        for (size_t k = 0; k < nl; k++)
            any |= acc[k];
        if (any)
            out->terms[out->nterms++] = (spec_term_t){t->gen, t->opdeg, acc};
        else
            sq_free(acc);
        i = j;
    }
    rel_free(&R);
    return 0;
}

void spec_rel_clear(spec_rel_t *r)
{
    for (int64_t i = 0; i < r->nterms && r->terms; i++)
        sq_free(r->terms[i].op);
    sq_free(r->terms);
    memset(r, 0, sizeof *r);
}
