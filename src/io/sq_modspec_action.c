/*
 * sq_modspec_action.c -- the action strings of a module spec, at every
 * prime: one grammar, two alphabets.
 *
 *     "Sq2 x0 = x2 + x3"        p = 2: Sq^2 x0 = x2 + x3
 *     "Sq4 x1 = 0"              (the same as leaving it out)
 *     "Sq1 x0 = 1 x1"           a coefficient, read mod p
 *     "P1 x1 = 2 x5 - x6"       odd p: P^1 x1 = 2 x5 - x6
 *     "b x0 = x1"               odd p: the Bockstein
 *
 * and the message helpers shared with sq_modspec.c.
 *
 * How an action is read.  The string is split at its one '='; the left
 * side must be two words, an operation and a generator, the right side a
 * sum of terms "0", "NAME" or "COEFF NAME", separated by '+' or by a '-'
 * after white space ("x - y"; "x-1" is a name), a term optionally signed
 * ("-x").  The operation must be an algebra generator: Sq^{2^k} ("Sq4",
 * also "Sq^4") at p = 2, b or P^{p^k} ("P3", also "P^3") at odd p; the
 * module is given by them and fdmod_complete_alg derives the
 * rest.  Every name must be a generator, every target must sit in degree
 * |from| + |op|, and (op, from) may be given once.  The sum is reduced mod
 * p (x + x = 0 at p = 2).  Each check reports the action's line, found by
 * searching the text for the quoted string (the n-th copy for the n-th
 * equal string).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modspec_internal.h"

/* ---- Message helpers ------------------------------------------------------ */

size_t spec_line(const spec_t *S, size_t pos)
{
    size_t line = 1;
    for (size_t i = 0; i < pos && i < S->len; i++)
        line += S->text[i] == '\n';
    return line;
}

const char *spec_file(spec_t *S)
{
    sq_modspec_printable(S->file_shown, sizeof S->file_shown, S->file, strlen(S->file),
                         SQ_MODSPEC_NAME_CLIP);
    return S->file_shown;
}

int spec_fail(spec_t *S, int rc, size_t pos, const char *fmt, ...)
{
    if (!S->errlen)
        return rc;
    const char *file = spec_file(S);
    int k = pos == SPEC_NOPOS ? snprintf(S->err, S->errlen, "%s: ", file)
                              : snprintf(S->err, S->errlen, "%s:%zu: ", file, spec_line(S, pos));
    if (k >= 0 && (size_t)k < S->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(S->err + k, S->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return rc;
}

void spec_warn(spec_t *S, size_t pos, const char *fmt, ...)
{
    if (!S->warn)
        return;
    const char *file = spec_file(S);
    if (pos == SPEC_NOPOS)
        fprintf(S->warn, "%s: warning: ", file);
    else
        fprintf(S->warn, "%s:%zu: warning: ", file, spec_line(S, pos));
    va_list ap;
    va_start(ap, fmt);
    vfprintf(S->warn, fmt, ap);
    va_end(ap);
    fputc('\n', S->warn);
}

const char *spec_clip(spec_t *S, const char *s, size_t n)
{
    char *b = S->clip[S->clip_next];
    S->clip_next = (S->clip_next + 1) % 4;
    sq_modspec_printable(b, sizeof S->clip[0], s, n, SPEC_CLIP);
    return b;
}

size_t spec_find(const spec_t *S, size_t from, const char *needle, size_t nlen, int64_t occ)
{
    if (!S->text || nlen == 0 || from == SPEC_NOPOS)
        return SPEC_NOPOS;
    for (size_t i = from; i + nlen <= S->len; i++)
        if (S->text[i] == needle[0] && memcmp(S->text + i, needle, nlen) == 0 && occ-- == 0)
            return i;
    return SPEC_NOPOS;
}

int spec_edit_distance(const char *a, size_t an, const char *b, size_t bn)
{
    if (an > 64 || bn > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= bn; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= an; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= bn; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[bn];
}

/* strcmp of name[0..n) against the C string s. */
static int cmp_name(const char *name, size_t n, const char *s)
{
    size_t sn = strlen(s);
    int c = memcmp(name, s, n < sn ? n : sn);
    if (c)
        return c;
    return n < sn ? -1 : n > sn;
}

int64_t spec_gen_lookup(const spec_t *S, const char *name, size_t n)
{
    int64_t lo = 0, hi = S->ngens;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = cmp_name(name, n, S->by_name[mid].name);
        if (c == 0)
            return S->by_name[mid].gen;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* ---- Reading one action ---------------------------------------------------- */

typedef struct {
    spec_t *S;
    const char *const *strs; /* all action strings */
    int64_t i;               /* this one's index */
    const char *str;         /* strs[i] */
    size_t actions_pos;      /* offset of the key "actions" in the text */
} act_ctx_t;

/* Offset in the text of action string j (the n-th quoted copy after the
 * key "actions" for the n-th equal string), or SPEC_NOPOS.  Only called
 * for messages: it costs O(j * length + text). */
static size_t action_pos(const act_ctx_t *c, int64_t j)
{
    const char *str = c->strs[j];
    int64_t occ = 0;
    for (int64_t k = 0; k < j; k++)
        occ += strcmp(c->strs[k], str) == 0;
    size_t qn = strlen(str) + 2;
    char *quoted = sq_malloc(qn + 1);
    snprintf(quoted, qn + 1, "\"%s\"", str);
    size_t pos = spec_find(c->S, c->actions_pos, quoted, qn, occ);
    sq_free(quoted);
    return pos;
}

typedef struct {
    const char *p;
    size_t n;
} tok_t;

/* Splits s[0..n) at white space into at most max tokens; returns the number
 * of tokens, max + 1 if there are more. */
static int split_words(const char *s, size_t n, tok_t *t, int max)
{
    int k = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i == n)
            break;
        size_t start = i;
        while (i < n && !isspace((unsigned char)s[i]))
            i++;
        if (k == max)
            return max + 1;
        t[k].p = s + start;
        t[k].n = i - start;
        k++;
    }
    return k;
}

/* The shape of an action, for messages: "Sq<n>" at p = 2, "<b or P<n>>" at
 * odd p. */
static const char *op_shape(const spec_t *S)
{
    return S->p == 2 ? "Sq<n>" : "<b or P<n>>";
}

static int malformed(act_ctx_t *c)
{
    const char *p = c->str;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i),
                         "an empty action: expected \"%s <generator> = <generator> + ...\"",
                         op_shape(c->S));
    return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i),
                     "%s: expected \"%s <generator> = <generator> + ...\" (or \"= 0\")",
                     spec_clip(c->S, c->str, strlen(c->str)), op_shape(c->S));
}

const char *spec_op_name(const spec_t *S, const spec_action_t *a, char *buf, size_t n)
{
    if (S->p == 2)
        snprintf(buf, n, "Sq%d", (int)a->op);
    else if (a->e)
        snprintf(buf, n, "b");
    else
        snprintf(buf, n, "P%d", (int)a->n);
    return buf;
}

/* The number after the letters of an operation token (t.p[i..t.n), digits
 * only, at least one) into *v, or -1; -2 when it passes 2^30. */
static int op_number(tok_t t, size_t i, int64_t *v)
{
    *v = 0;
    if (i < t.n && t.p[i] == '^')
        i++;
    if (i == t.n)
        return -1;
    for (; i < t.n; i++) {
        if (!isdigit((unsigned char)t.p[i]))
            return -1;
        *v = *v * 10 + (t.p[i] - '0');
        if (*v > ((int64_t)1 << 30))
            return -2;
    }
    return 0;
}

static int op_too_large(act_ctx_t *c, tok_t t)
{
    return spec_fail(c->S, SQ_E_RANGE, action_pos(c, c->i), "%s: %s is beyond every supported degree",
                     spec_clip(c->S, c->str, strlen(c->str)), spec_clip(c->S, t.p, t.n));
}

/* The alphabet of p = 2: Sq^{2^k} ("Sq4", "Sq^4"). */
static int parse_op_2(act_ctx_t *c, tok_t t, spec_action_t *a)
{
    int64_t v = 0;
    int rc = t.n >= 3 && memcmp(t.p, "Sq", 2) == 0 ? op_number(t, 2, &v) : -1;
    if (rc == -2)
        return op_too_large(c, t);
    if (rc == 0 && v > 0 && (v & (v - 1)) == 0) {
        a->op = (int32_t)v;
        a->n = (int32_t)v;
        while (((int64_t)1 << a->slot) != v)
            a->slot++;
        return 0;
    }
    return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i),
                     "%s: only the generators Sq1, Sq2, Sq4, ... may act; %s is not one",
                     spec_clip(c->S, c->str, strlen(c->str)), spec_clip(c->S, t.p, t.n));
}

/* The alphabet of an odd prime: b (the Bockstein Q_0) and P^{p^k} ("P3",
 * "P^3"). */
static int parse_op_odd(act_ctx_t *c, tok_t t, spec_action_t *a)
{
    const int64_t p = c->S->p;
    const char *str = spec_clip(c->S, c->str, strlen(c->str));
    if (t.n == 1 && t.p[0] == 'b') {
        a->e = 1;
        a->op = 1;
        return 0;
    }
    int64_t v = 0;
    int rc = t.n >= 2 && t.p[0] == 'P' ? op_number(t, 1, &v) : -1;
    if (rc == -2 || 2 * (p - 1) * v > ((int64_t)1 << 30))
        return op_too_large(c, t);
    if (rc < 0 || v < 1)
        return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i),
                         "%s: unknown operation %s; the generators are b (the Bockstein) and P1, "
                         "P%u, P%u, ...",
                         str, spec_clip(c->S, t.p, t.n), (unsigned)p, (unsigned)(p * p));
    int k = 0;
    int64_t x = v;
    while (x % p == 0) {
        x /= p;
        k++;
    }
    if (x != 1)
        return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i),
                         "%s: only the generators b, P1, P%u, P%u, ... may act; P%lld is not one",
                         str, (unsigned)p, (unsigned)(p * p), (long long)v);
    a->n = (int32_t)v;
    a->op = (int32_t)(2 * (p - 1) * v);
    a->slot = k + 1;
    return 0;
}

/* Index of the generator named by t, or a spec_fail code (< 0). */
static int64_t parse_gen(act_ctx_t *c, tok_t t)
{
    int64_t g = spec_gen_lookup(c->S, t.p, t.n);
    if (g >= 0)
        return g;
    const spec_t *S = c->S;
    const char *best = NULL;
    int bestd = 3;
    for (int64_t i = 0; i < S->ngens; i++) {
        size_t len = strlen(S->gens[i].name);
        int d = spec_edit_distance(t.p, t.n, S->gens[i].name, len);
        if (d < bestd && (size_t)d < len) {
            bestd = d;
            best = S->gens[i].name;
        }
    }
    char hint[SPEC_CLIP + 32] = "";
    if (best)
        snprintf(hint, sizeof hint, " (did you mean %s?)", spec_clip(c->S, best, strlen(best)));
    return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i), "%s: unknown generator %s%s",
                     spec_clip(c->S, c->str, strlen(c->str)), spec_clip(c->S, t.p, t.n), hint);
}

/* Adds coef * g to the sum of a (mod p). */
static void add_term(spec_action_t *a, int64_t g, uint32_t coef, uint32_t p)
{
    for (int64_t i = 0; i < a->nto; i++)
        if (a->to[i] == g) {
            a->coef[i] = (uint8_t)((a->coef[i] + coef) % p);
            return;
        }
    a->to[a->nto] = g;
    a->coef[a->nto++] = (uint8_t)(coef % p);
}

/* Adds one term "0", "NAME", "COEFF NAME" of the sum to a, negated when
 * neg (a term after " - ", or written "-NAME", "- COEFF NAME").  Returns 0
 * or a spec_fail code. */
static int parse_term(act_ctx_t *c, const char *s, size_t n, int neg, spec_action_t *a)
{
    const uint32_t p = c->S->p;
    tok_t t[2];
    int k = split_words(s, n, t, 2);
    if (k >= 1 && t[0].p[0] == '-' && spec_gen_lookup(c->S, t[0].p, t[0].n) < 0) {
        neg = !neg; /* a leading sign that is not part of a name */
        const char *r = t[0].p + 1;
        k = split_words(r, (size_t)(s + n - r), t, 2);
    }
    uint32_t coef = 1;
    if (k == 0 || k > 2)
        return malformed(c);
    if (k == 1 && t[0].n == 1 && t[0].p[0] == '0')
        return 0;
    if (k == 2) {
        coef = 0;
        for (size_t i = 0; i < t[0].n; i++) {
            if (!isdigit((unsigned char)t[0].p[i]))
                return malformed(c);
            coef = (coef * 10 + (uint32_t)(t[0].p[i] - '0')) % p;
        }
        t[0] = t[1];
    }
    int64_t g = parse_gen(c, t[0]);
    if (g < 0)
        return (int)g;
    const spec_gen_t *from = &c->S->gens[a->from];
    if ((int64_t)c->S->gens[g].fdeg != (int64_t)from->fdeg + a->op)
        return spec_fail(c->S, SQ_E_INVAL, action_pos(c, c->i), "%s: %s has degree %d, not %d + %d",
                         spec_clip(c->S, c->str, strlen(c->str)),
                         spec_clip(c->S, c->S->gens[g].name, strlen(c->S->gens[g].name)),
                         (int)c->S->gens[g].fdeg, (int)from->fdeg, (int)a->op);
    add_term(a, g, neg ? (p - coef) % p : coef, p);
    return 0;
}

/* The end of the term that starts at s: at '+', or at a '-' after white
 * space when the term has begun ("x - y"; "x-1" is a name). */
static const char *term_end(const char *s)
{
    int begun = 0;
    for (const char *q = s; *q; q++) {
        if (*q == '+' || (*q == '-' && begun && q > s && isspace((unsigned char)q[-1])))
            return q;
        begun |= !isspace((unsigned char)*q);
    }
    return s + strlen(s);
}

/* Parses the right side rhs into a->to, a->coef: terms separated by '+'
 * and " - ", coefficients read mod p, zero terms dropped. */
static int parse_sum(act_ctx_t *c, const char *rhs, spec_action_t *a)
{
    int64_t terms = 1;
    for (const char *q = rhs; *q; q++)
        terms += *q == '+' || *q == '-';
    a->to = sq_malloc(sq_mul_size((size_t)terms, sizeof *a->to));
    a->coef = sq_malloc((size_t)terms);
    int neg = 0;
    for (const char *q = rhs;;) {
        const char *e = term_end(q);
        int rc = parse_term(c, q, (size_t)(e - q), neg, a);
        if (rc)
            return rc;
        if (!*e)
            break;
        neg = *e == '-';
        q = e + 1;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < a->nto; i++)
        if (a->coef[i]) {
            a->to[k] = a->to[i];
            a->coef[k++] = a->coef[i];
        }
    a->nto = k;
    return 0;
}

/* Checks that (op, from) of this action was not given before. */
static int check_repeat(act_ctx_t *c, const spec_action_t *a)
{
    spec_t *S = c->S;
    spec_gen_t *g = &S->gens[a->from];
    if (!(g->ops >> a->slot & 1)) {
        g->ops |= 1u << a->slot;
        return 0;
    }
    int64_t j = 0;
    while (j < c->i && !(S->acts[j].op == a->op && S->acts[j].from == a->from))
        j++;
    char where[32] = "", op[32];
    size_t earlier = action_pos(c, j);
    if (earlier != SPEC_NOPOS)
        snprintf(where, sizeof where, " on line %zu", spec_line(S, earlier));
    return spec_fail(S, SQ_E_INVAL, action_pos(c, c->i), "%s: %s %s is already given%s by \"%s\"",
                     spec_clip(S, c->str, strlen(c->str)), spec_op_name(S, a, op, sizeof op),
                     spec_clip(S, g->name, strlen(g->name)), where,
                     spec_clip(S, c->strs[j], strlen(c->strs[j])));
}

/* Whether the operation of a lies in the subalgebra of the profile:
 * Sq^{2^k} when k < h_1 (p = 2); b when the q_part keeps Q_0, P^{p^k} when
 * k < h_1 (odd p). */
static int in_profile(const spec_t *S, const spec_action_t *a)
{
    if (S->p == 2)
        return S->plen == 0 || ((int64_t)1 << S->profile[0]) > a->op;
    const pmilnor_profile_t *pr = &S->oprof;
    if (a->e)
        return (int)(pr->q_part & 1u);
    int64_t h1 = pr->len >= 1 ? pr->p_part[0] : pr->truncated ? 0 : INT32_MAX;
    return a->slot - 1 < h1;
}

/* A nonzero action's operation must lie in the algebra of the profile. */
static int check_profile(act_ctx_t *c, const spec_action_t *a)
{
    spec_t *S = c->S;
    if (a->nto == 0 || in_profile(S, a))
        return 0;
    char prof[128] = "", op[32];
    size_t k = 0;
    for (int i = 0; S->p == 2 && i < S->plen; i++)
        k += (size_t)snprintf(prof + k, sizeof prof - k, "%s%d", i ? "," : " [",
                              (int)S->profile[i]);
    if (k)
        snprintf(prof + k, sizeof prof - k, "]");
    return spec_fail(S, SQ_E_INVAL, action_pos(c, c->i),
                     "%s: %s is not in the subalgebra of the profile%s",
                     spec_clip(S, c->str, strlen(c->str)), spec_op_name(S, a, op, sizeof op), prof);
}

/* Parses strs[i] into S->acts[i]. */
static int parse_one(spec_t *S, const char *const *strs, int64_t i, size_t actions_pos)
{
    const char *str = strs[i];
    act_ctx_t c = {S, strs, i, str, actions_pos};
    const char *eq = strchr(str, '=');
    tok_t lhs[2];
    if (!eq || strchr(eq + 1, '=') || split_words(str, (size_t)(eq - str), lhs, 2) != 2)
        return malformed(&c);
    spec_action_t *a = &S->acts[i];
    int rc = S->p == 2 ? parse_op_2(&c, lhs[0], a) : parse_op_odd(&c, lhs[0], a);
    if (rc)
        return rc;
    int64_t from = parse_gen(&c, lhs[1]);
    if (from < 0)
        return (int)from;
    a->from = from;
    rc = parse_sum(&c, eq + 1, a);
    if (!rc)
        rc = check_repeat(&c, a);
    return rc ? rc : check_profile(&c, a);
}

int spec_parse_actions(spec_t *S, const char *const *strs, int64_t n, size_t actions_pos)
{
    S->acts = sq_calloc((size_t)n + 1, sizeof *S->acts);
    S->nacts = n;
    for (int64_t i = 0; i < n; i++) {
        int rc = parse_one(S, strs, i, actions_pos);
        if (rc)
            return rc;
    }
    return 0;
}

void spec_free_actions(spec_t *S)
{
    for (int64_t i = 0; i < S->nacts && S->acts; i++) {
        sq_free(S->acts[i].to);
        sq_free(S->acts[i].coef);
    }
    sq_free(S->acts);
    S->acts = NULL;
    S->nacts = 0;
}
