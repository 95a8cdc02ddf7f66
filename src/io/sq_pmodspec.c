/*
 * sq_pmodspec.c -- odd-prime module files (see sq_pmodspec.h and
 * docs/odd-primes.md): the JSON reader, the action strings, the builder and
 * the chart driver presol_cli_resolve.
 *
 * Every key the peer's files use is in key_table with what is done with
 * it (docs/modules.md, "Every key"): read, checked (accepted only with a
 * value that changes nothing), refused at odd primes, or descriptive.
 */
#include "sq_pmodspec.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "modspec_internal.h"
#include "presol.h"
#include "presol_cofiber.h"
#include "sq_chart.h"

#define NOPOS ((size_t)-1)
#define CLIP 48
#define MAX_WARNINGS 20

/* ---- The reading context ---------------------------------------------------- */

typedef struct {
    char file[SQ_MODSPEC_NAME_CLIP + 8]; /* display name, fit for a message */
    const char *text;
    size_t len;
    char *err;
    size_t errlen;
    FILE *warn;
    int nwarn;
    char clip[4][CLIP * 4 + 8];
    int clipi;
} ps_t;

/* s[0..n) cut to CLIP characters, control characters as '?'; the result
 * lives until four more clips are made. */
static const char *clip(ps_t *S, const char *s, size_t n)
{
    char *b = S->clip[S->clipi];
    S->clipi = (S->clipi + 1) % 4;
    size_t k = 0;
    for (size_t i = 0; i < n && i < CLIP; i++)
        b[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    if (n > CLIP) {
        memcpy(b + k, "...", 3);
        k += 3;
    }
    b[k] = 0;
    return b;
}

static const char *clips(ps_t *S, const char *s)
{
    return clip(S, s, strlen(s));
}

static int line_at(const ps_t *S, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && i < S->len; i++)
        line += S->text[i] == '\n';
    return line;
}

static size_t find(const ps_t *S, size_t from, const char *needle, size_t n)
{
    if (!n || n > S->len)
        return NOPOS;
    for (size_t i = from; i + n <= S->len; i++)
        if (S->text[i] == needle[0] && memcmp(S->text + i, needle, n) == 0)
            return i;
    return NOPOS;
}

/* Offset of "key" followed by ':' (a key of an object), from `from`. */
static size_t key_pos(const ps_t *S, const char *key, size_t from)
{
    size_t n = strlen(key) + 2;
    char *q = sq_malloc(n + 1);
    snprintf(q, n + 1, "\"%s\"", key);
    size_t pos = NOPOS;
    for (size_t p = find(S, from, q, n); p != NOPOS; p = find(S, p + 1, q, n)) {
        size_t i = p + n;
        while (i < S->len && isspace((unsigned char)S->text[i]))
            i++;
        if (i < S->len && S->text[i] == ':') {
            pos = p;
            break;
        }
    }
    sq_free(q);
    return pos;
}

/* Offset of the JSON string "s" (as written, without escapes), or NOPOS. */
static size_t str_pos(const ps_t *S, const char *s, size_t from)
{
    size_t n = strlen(s) + 2;
    char *q = sq_malloc(n + 1);
    snprintf(q, n + 1, "\"%s\"", s);
    size_t pos = find(S, from, q, n);
    sq_free(q);
    return pos;
}

static int fail(ps_t *S, int code, size_t pos, const char *fmt, ...) SQ_PRINTF(4, 5);
static int fail(ps_t *S, int code, size_t pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (pos != NOPOS)
        snprintf(S->err, S->errlen, "%s:%d: %s", S->file, line_at(S, pos), msg);
    else
        snprintf(S->err, S->errlen, "%s: %s", S->file, msg);
    return code;
}

static void warn(ps_t *S, size_t pos, const char *fmt, ...) SQ_PRINTF(3, 4);
static void warn(ps_t *S, size_t pos, const char *fmt, ...)
{
    if (!S->warn || S->nwarn >= MAX_WARNINGS)
        return;
    S->nwarn++;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (pos != NOPOS)
        fprintf(S->warn, "%s:%d: warning: %s\n", S->file, line_at(S, pos), msg);
    else
        fprintf(S->warn, "%s: warning: %s\n", S->file, msg);
}

/* ---- The keys ------------------------------------------------------------------ */

typedef enum { K_READ, K_CHECKED, K_OTHER_KIND, K_DESCRIBE } key_role_t;

static const struct {
    const char *key;
    key_role_t role;
} key_table[] = {
    {"p", K_READ},
    {"type", K_READ},
    {"gens", K_READ},
    {"actions", K_READ},
    {"profile", K_READ},
    {"shift", K_READ},
    {"cofiber", K_READ},
    {"generic", K_CHECKED},
    {"algebra", K_CHECKED},
    {"sq_actions", K_CHECKED},
    {"adem_actions", K_CHECKED},
    {"milnor_actions", K_CHECKED},
    {"adem_relations", K_OTHER_KIND},
    {"milnor_relations", K_OTHER_KIND},
    {"min", K_OTHER_KIND},
    {"max", K_OTHER_KIND},
    {"clear_bottom", K_OTHER_KIND},
    {"name", K_DESCRIBE},
    {"description", K_DESCRIBE},
    {"file_name", K_DESCRIBE},
    {"products", K_DESCRIBE},
    {"self_maps", K_DESCRIBE},
    {NULL, K_READ},
};

static int key_role(const char *key)
{
    for (int i = 0; key_table[i].key; i++)
        if (strcmp(key_table[i].key, key) == 0)
            return (int)key_table[i].role;
    return -1;
}

static void warn_unknown(ps_t *S, const char *key, const char *const *list, const char *where)
{
    const char *best = NULL;
    int bestd = 3;
    for (int i = 0;; i++) {
        const char *cand = list ? list[i] : key_table[i].key;
        if (!cand)
            break;
        int d = spec_edit_distance(key, strlen(key), cand, strlen(cand));
        if (d < bestd && (size_t)d < strlen(cand)) {
            bestd = d;
            best = cand;
        }
    }
    size_t pos = key_pos(S, key, 0);
    if (best)
        warn(S, pos, "unknown key \"%s\"%s ignored (did you mean \"%s\"?)", clips(S, key), where,
             best);
    else
        warn(S, pos, "unknown key \"%s\"%s ignored", clips(S, key), where);
}

/* The checked keys: accepted only with a value that changes nothing. */
static int check_key(ps_t *S, const char *key, json_t *v)
{
    size_t pos = key_pos(S, key, 0);
    if (strcmp(key, "generic") == 0) {
        if (json_is_false(v))
            return 0;
        return fail(S, SQ_E_INVAL, pos,
                    "\"generic\": only false is supported (the generic form of the algebra "
                    "changes the algebra resolved over)");
    }
    if (strcmp(key, "algebra") == 0) {
        if (json_is_array(v)) {
            size_t i;
            json_t *x;
            json_array_foreach(v, i, x)
            {
                if (json_is_string(x) && strcmp(json_string_value(x), "milnor") == 0)
                    return 0;
            }
        }
        return fail(S, SQ_E_INVAL, pos,
                    "\"algebra\" must be a list containing \"milnor\" (adams works in the Milnor "
                    "basis)");
    }
    /* legacy action keys */
    if ((json_is_array(v) && json_array_size(v) == 0) ||
        (json_is_object(v) && json_object_size(v) == 0))
        return 0;
    return fail(S, SQ_E_INVAL, pos,
                "\"%s\" (the legacy form of the actions) is not supported; give them as strings "
                "in \"actions\", e.g. \"b x0 = x1\"",
                key);
}

/* ---- The prime ------------------------------------------------------------------- */

static int syntax_error(ps_t *S, const json_error_t *e)
{
    char text[JSON_ERROR_TEXT_LENGTH];
    snprintf(text, sizeof text, "%s", e->text);
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = '?';
    if (json_error_code(e) == json_error_duplicate_key) {
        if (e->line >= 1)
            snprintf(S->err, S->errlen, "%s:%d:%d: duplicate key: %s", S->file, e->line,
                     e->column, text);
        else
            snprintf(S->err, S->errlen, "%s: duplicate key: %s", S->file, text);
        return SQ_E_INVAL;
    }
    if (e->line >= 1)
        snprintf(S->err, S->errlen, "%s:%d:%d: JSON syntax: %s", S->file, e->line, e->column,
                 text);
    else
        snprintf(S->err, S->errlen, "%s: JSON syntax: %s", S->file, text);
    return SQ_E_PARSE;
}

static void ps_init(ps_t *S, const char *buf, size_t len, const char *display, char *err,
                    size_t errlen, FILE *warnf)
{
    memset(S, 0, sizeof *S);
    /* The display name as the p = 2 loader shows it: paths up to
     * SQ_MODSPEC_NAME_CLIP bytes, control characters as '?'. */
    const char *d = display ? display : "<module>";
    sq_modspec_printable(S->file, sizeof S->file, d, strlen(d), SQ_MODSPEC_NAME_CLIP);
    S->text = buf;
    S->len = len;
    S->err = err;
    S->errlen = errlen;
    S->warn = warnf;
    if (errlen)
        err[0] = 0;
}

static int load_root(ps_t *S, json_t **root)
{
    json_error_t e;
    *root = json_loadb(S->text, S->len, JSON_REJECT_DUPLICATES, &e);
    if (!*root)
        return syntax_error(S, &e);
    if (!json_is_object(*root)) {
        int rc = fail(S, SQ_E_INVAL, NOPOS,
                      "the top level must be an object {\"gens\": ..., \"actions\": ...}, not %s",
                      spec_type_name(*root));
        json_decref(*root);
        *root = NULL;
        return rc;
    }
    return 0;
}

static int read_prime(ps_t *S, json_t *root, uint32_t *p)
{
    json_t *v = json_object_get(root, "p");
    if (!v) {
        *p = 2;
        return 0;
    }
    size_t pos = key_pos(S, "p", 0);
    if (!json_is_integer(v) || json_integer_value(v) < 2 || json_integer_value(v) > 100000)
        return fail(S, SQ_E_INVAL, pos, "\"p\" must be a prime number, not %s",
                    json_is_integer(v) ? "this integer" : spec_type_name(v));
    *p = (uint32_t)json_integer_value(v);
    return 0;
}

int sq_pmodspec_buffer_prime(const char *buf, size_t len, const char *display_name, uint32_t *p,
                             char *err, size_t errlen)
{
    ps_t S;
    ps_init(&S, buf, len, display_name, err, errlen, NULL);
    json_t *root;
    int rc = load_root(&S, &root);
    if (rc)
        return rc;
    rc = read_prime(&S, root, p);
    json_decref(root);
    return rc;
}

static int read_file(const char *path, const char *display, char **buf, size_t *len, char *err,
                     size_t errlen)
{
    FILE *f = fopen(path, "rbe");
    if (!f) {
        snprintf(err, errlen, "%.200s: cannot read: %s", display, strerror(errno));
        return SQ_E_IO;
    }
    size_t cap = 4096, n = 0;
    char *b = sq_malloc(cap);
    for (;;) {
        if (n == cap) {
            if (cap >= SQ_PMODSPEC_MAX_FILE) {
                fclose(f);
                sq_free(b);
                snprintf(err, errlen, "%.200s: the file is larger than %d bytes", display,
                         SQ_PMODSPEC_MAX_FILE);
                return SQ_E_RANGE;
            }
            cap *= 2;
            b = sq_realloc(b, cap);
        }
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sq_free(b);
        snprintf(err, errlen, "%.200s: cannot read: read error", display);
        return SQ_E_IO;
    }
    *buf = b;
    *len = n;
    return 0;
}

int sq_pmodspec_file_prime(const char *path, const char *display_name, uint32_t *p, char *err,
                           size_t errlen)
{
    const char *display = display_name ? display_name : path;
    char *buf;
    size_t len;
    int rc = read_file(path, display, &buf, &len, err, errlen);
    if (rc)
        return rc;
    rc = sq_pmodspec_buffer_prime(buf, len, display, p, err, errlen);
    sq_free(buf);
    return rc;
}

/* ---- Generators ------------------------------------------------------------------ */

typedef struct {
    const char *name; /* borrowed from the JSON document */
    int32_t deg;      /* after the shift */
    size_t order;     /* position in "gens" */
} gen_t;

static int cmp_gen(const void *a, const void *b)
{
    const gen_t *x = a, *y = b;
    if (x->deg != y->deg)
        return x->deg < y->deg ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static const char *bad_name(const char *name)
{
    if (!name[0])
        return "a generator name may not be empty";
    if (isdigit((unsigned char)name[0]))
        return "a generator name may not begin with a digit";
    for (const char *c = name; *c; c++)
        if (isspace((unsigned char)*c) || *c == '+' || *c == '=')
            return "a generator name may not contain white space, '+' or '='";
    return NULL;
}

/* ---- Actions ------------------------------------------------------------------------ */

typedef struct {
    int32_t gen_deg;  /* degree of b or P^n */
    int e;            /* 1 for b */
    int32_t n;        /* the n of P^n */
    int32_t in_deg;
    int64_t in_idx;
    size_t line_pos;
    const char *text;
} act_t;

/* Parses "b", "P<n>", "P^<n>": returns 0 and sets *e, *n. */
static int parse_op(const char *s, size_t len, int *e, int64_t *n)
{
    if (len == 1 && s[0] == 'b') {
        *e = 1;
        *n = 0;
        return 0;
    }
    if (len >= 2 && s[0] == 'P') {
        size_t i = 1;
        if (s[i] == '^')
            i++;
        if (i >= len)
            return -1;
        int64_t v = 0;
        for (; i < len; i++) {
            if (!isdigit((unsigned char)s[i]) || v > 100000000)
                return -1;
            v = 10 * v + (s[i] - '0');
        }
        *e = 0;
        *n = v;
        return 0;
    }
    return -1;
}

/* The closest generator name to s (edit distance <= 2), or NULL. */
static const char *closest(const gen_t *g, int64_t ng, const char *s)
{
    const char *best = NULL;
    int bestd = 3;
    for (int64_t i = 0; i < ng; i++) {
        int d = spec_edit_distance(s, strlen(s), g[i].name, strlen(g[i].name));
        if (d < bestd) {
            bestd = d;
            best = g[i].name;
        }
    }
    return best;
}

static int64_t find_gen(const gen_t *g, int64_t ng, const char *s)
{
    for (int64_t i = 0; i < ng; i++)
        if (strcmp(g[i].name, s) == 0)
            return i;
    return -1;
}

/* ---- The loader ---------------------------------------------------------------------- */

typedef struct {
    uint32_t p;
    int32_t shift;
    gen_t *gens;
    int64_t ngens;
    pmilnor_profile_t prof;
    int have_prof;
    json_t *actions;
    int cofiber;
    int32_t cof_s, cof_t;
    int64_t cof_idx;
} pspec_t;

static int read_header(ps_t *S, json_t *root, pspec_t *P)
{
    int rc = read_prime(S, root, &P->p);
    if (rc)
        return rc;
    size_t ppos = key_pos(S, "p", 0);
    if (P->p == 2)
        return fail(S, SQ_E_INVAL, ppos,
                    "\"p\" is 2: this is a module at the prime 2, for the p = 2 loader "
                    "(sq_modspec.h), not the odd-prime one");
    if (!fp_prime_ok(P->p) && P->p < 256)
        return fail(S, SQ_E_INVAL, ppos, "\"p\" is %u, which is not a prime", (unsigned)P->p);
    if (P->p > 255)
        return fail(S, SQ_E_RANGE, ppos, "\"p\" is %u: adams supports the primes below 256",
                    (unsigned)P->p);
    json_t *ty = json_object_get(root, "type");
    if (ty) {
        size_t pos = key_pos(S, "type", 0);
        if (!json_is_string(ty))
            return fail(S, SQ_E_INVAL, pos, "\"type\" must be a string, not %s", spec_type_name(ty));
        const char *t = json_string_value(ty);
        if (strcmp(t, "finitely presented module") == 0 || strcmp(t, "real projective space") == 0)
            return fail(S, SQ_E_INVAL, pos,
                        "\"type\" is \"%s\": at odd primes adams reads finite dimensional modules "
                        "only",
                        t);
        if (strcmp(t, "finite dimensional module") != 0)
            return fail(S, SQ_E_INVAL, pos,
                        "\"type\" is \"%s\": expected \"finite dimensional module\" (at odd "
                        "primes)",
                        clips(S, t));
    }
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        int role = key_role(key);
        if (role < 0) {
            warn_unknown(S, key, NULL, "");
            continue;
        }
        if (role == K_CHECKED) {
            rc = check_key(S, key, v);
            if (rc)
                return rc;
        } else if (role == K_OTHER_KIND) {
            return fail(S, SQ_E_INVAL, key_pos(S, key, 0),
                        "\"%s\" does not belong to a finite dimensional module (it has \"gens\" "
                        "and \"actions\")",
                        key);
        }
    }
    json_t *sh = json_object_get(root, "shift");
    if (sh) {
        size_t pos = key_pos(S, "shift", 0);
        if (!json_is_integer(sh))
            return fail(S, SQ_E_INVAL, pos, "\"shift\" must be an integer, not %s",
                        spec_type_name(sh));
        json_int_t k = json_integer_value(sh);
        if (k < -SQ_PMODSPEC_MAX_DEGREE || k > SQ_PMODSPEC_MAX_DEGREE)
            return fail(S, SQ_E_RANGE, pos, "\"shift\" %lld is out of range (|shift| <= %d)",
                        (long long)k, SQ_PMODSPEC_MAX_DEGREE);
        P->shift += (int32_t)k;
    }
    return 0;
}

static int read_gens(ps_t *S, json_t *root, pspec_t *P)
{
    json_t *gens = json_object_get(root, "gens");
    if (!gens)
        return fail(S, SQ_E_INVAL, NOPOS,
                    "missing \"gens\": an object {\"name\": degree, ...} listing the basis");
    size_t gpos = key_pos(S, "gens", 0);
    if (!json_is_object(gens))
        return fail(S, SQ_E_INVAL, gpos, "\"gens\" must be an object {\"name\": degree, ...}, not %s",
                    spec_type_name(gens));
    size_t n = json_object_size(gens);
    P->gens = sq_calloc(n + 1, sizeof *P->gens);
    const char *name;
    json_t *v;
    json_object_foreach(gens, name, v)
    {
        size_t pos = key_pos(S, name, gpos == NOPOS ? 0 : gpos);
        const char *why = bad_name(name);
        if (why)
            return fail(S, SQ_E_INVAL, pos, "generator \"%s\": %s", clips(S, name), why);
        if (!json_is_integer(v))
            return fail(S, SQ_E_INVAL, pos,
                        "generator %s: the degree must be an integer, not %s", clips(S, name),
                        spec_type_name(v));
        json_int_t d = json_integer_value(v);
        if (d < -SQ_PMODSPEC_MAX_DEGREE || d > SQ_PMODSPEC_MAX_DEGREE ||
            d + P->shift < -SQ_PMODSPEC_MAX_DEGREE || d + P->shift > SQ_PMODSPEC_MAX_DEGREE)
            return fail(S, SQ_E_RANGE, pos,
                        "generator %s: degree %lld is out of range (|degree| <= %d, after the "
                        "shift)",
                        clips(S, name), (long long)(d + P->shift), SQ_PMODSPEC_MAX_DEGREE);
        gen_t *g = &P->gens[P->ngens];
        g->name = name;
        g->deg = (int32_t)(d + P->shift);
        g->order = (size_t)P->ngens;
        P->ngens++;
    }
    if (!P->ngens)
        return fail(S, SQ_E_INVAL, gpos, "\"gens\" is empty: the module would be zero");
    qsort(P->gens, (size_t)P->ngens, sizeof *P->gens, cmp_gen);
    return 0;
}

static int read_profile(ps_t *S, json_t *root, pspec_t *P)
{
    pmilnor_profile_full(&P->prof);
    json_t *pr = json_object_get(root, "profile");
    if (!pr)
        return 0;
    size_t pos = key_pos(S, "profile", 0);
    if (!json_is_object(pr))
        return fail(S, SQ_E_INVAL, pos, "\"profile\" must be an object, not %s", spec_type_name(pr));
    static const char *const keys[] = {"truncated", "p_part", "q_part", NULL};
    const char *key;
    json_t *v;
    json_object_foreach(pr, key, v)
    {
        int known = 0;
        for (int i = 0; keys[i]; i++)
            known |= strcmp(keys[i], key) == 0;
        if (!known)
            warn_unknown(S, key, keys, " in \"profile\"");
    }
    json_t *tr = json_object_get(pr, "truncated");
    if (!json_is_boolean(tr))
        return fail(S, SQ_E_INVAL, pos,
                    "\"profile\": \"truncated\" must be given, true or false");
    P->prof.truncated = json_is_true(tr);
    json_t *pp = json_object_get(pr, "p_part");
    if (pp) {
        if (!json_is_array(pp) || json_array_size(pp) > PMILNOR_MAX_PROFILE)
            return fail(S, SQ_E_INVAL, pos,
                        "\"profile\": \"p_part\" must be a list of at most %d integers",
                        PMILNOR_MAX_PROFILE);
        size_t i;
        json_t *x;
        json_array_foreach(pp, i, x)
        {
            if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 30)
                return fail(S, SQ_E_INVAL, pos,
                            "\"profile\": \"p_part\" entry %zu must be an integer in 0..30", i + 1);
            P->prof.p_part[i] = (int32_t)json_integer_value(x);
        }
        P->prof.len = (int)json_array_size(pp);
    }
    json_t *qp = json_object_get(pr, "q_part");
    if (qp) {
        if (!json_is_integer(qp) || json_integer_value(qp) < 0 ||
            json_integer_value(qp) > (json_int_t)UINT32_MAX)
            return fail(S, SQ_E_INVAL, pos,
                        "\"profile\": \"q_part\" must be an integer in 0..4294967295 (bit n: Q_n "
                        "is kept)");
        P->prof.q_part = (uint32_t)json_integer_value(qp);
    }
    char why[256];
    if (pmilnor_profile_check(P->p, &P->prof, why, sizeof why))
        return fail(S, SQ_E_INVAL, pos, "\"profile\": %s", why);
    P->have_prof = !pmilnor_profile_is_full(&P->prof);
    return 0;
}

static int read_cofiber(ps_t *S, json_t *root, pspec_t *P)
{
    json_t *c = json_object_get(root, "cofiber");
    if (!c)
        return 0;
    size_t pos = key_pos(S, "cofiber", 0);
    if (!json_is_object(c))
        return fail(S, SQ_E_INVAL, pos,
                    "\"cofiber\" must be an object {\"s\": s, \"t\": t, \"idx\": i}, not %s",
                    spec_type_name(c));
    static const char *const keys[] = {"s", "t", "idx", NULL};
    json_int_t val[3];
    for (int i = 0; i < 3; i++) {
        json_t *x = json_object_get(c, keys[i]);
        if (!json_is_integer(x))
            return fail(S, SQ_E_INVAL, pos, "\"cofiber\": \"%s\" must be an integer", keys[i]);
        val[i] = json_integer_value(x);
    }
    const char *key;
    json_t *v;
    json_object_foreach(c, key, v)
    {
        if (strcmp(key, "s") && strcmp(key, "t") && strcmp(key, "idx"))
            warn_unknown(S, key, keys, " in \"cofiber\"");
    }
    if (val[0] < 1 || val[0] > 1000)
        return fail(S, SQ_E_INVAL, pos,
                    "\"cofiber\": \"s\" is %lld; the class must have filtration 1..1000",
                    (long long)val[0]);
    if (val[1] < -SQ_PMODSPEC_MAX_DEGREE - 1000 || val[1] > SQ_PMODSPEC_MAX_DEGREE + 1000)
        return fail(S, SQ_E_RANGE, pos, "\"cofiber\": \"t\" %lld is out of range",
                    (long long)val[1]);
    if (val[2] < 0 || val[2] > 1000000)
        return fail(S, SQ_E_INVAL, pos, "\"cofiber\": \"idx\" %lld is out of range",
                    (long long)val[2]);
    P->cofiber = 1;
    P->cof_s = (int32_t)val[0];
    P->cof_t = (int32_t)val[1];
    P->cof_idx = val[2];
    return 0;
}

/* Skips white space. */
static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

/* Reads one action string into the module's generator tables. */
static int read_action(ps_t *S, const pspec_t *P, pfdmod_t *M, const pmilnor_t *A, const char *text,
                       size_t pos, act_t *acts, int64_t *nacts)
{
    const char *t = clips(S, text);
    const char *end = text + strlen(text);
    const char *eq = strchr(text, '=');
    if (!eq || strchr(eq + 1, '='))
        return fail(S, SQ_E_INVAL, pos,
                    "%s: expected \"<b or P<n>> <generator> = <sum of [coefficient] generator>\" "
                    "(or \"= 0\")",
                    t);
    /* left side: OP GEN */
    const char *a = skip_ws(text, eq), *b = a;
    while (b < eq && !isspace((unsigned char)*b))
        b++;
    const char *c = skip_ws(b, eq), *d = c;
    while (d < eq && !isspace((unsigned char)*d))
        d++;
    if (a == b || c == d || skip_ws(d, eq) != eq)
        return fail(S, SQ_E_INVAL, pos,
                    "%s: expected \"<b or P<n>> <generator> = <sum of [coefficient] generator>\" "
                    "(or \"= 0\")",
                    t);
    int e;
    int64_t n;
    if (parse_op(a, (size_t)(b - a), &e, &n) || (!e && n < 1))
        return fail(S, SQ_E_INVAL, pos,
                    "%s: unknown operation %s; the generators are b (the Bockstein) and P1, P%u, "
                    "P%u, ...",
                    t, clip(S, a, (size_t)(b - a)), (unsigned)P->p, (unsigned)(P->p * P->p));
    if (!e) {
        int64_t x = n;
        while (x % P->p == 0)
            x /= P->p;
        if (x != 1)
            return fail(S, SQ_E_INVAL, pos,
                        "%s: only the generators b, P1, P%u, P%u, ... may act; P%lld is not one",
                        t, (unsigned)P->p, (unsigned)(P->p * P->p), (long long)n);
    }
    int64_t gdeg64 = e ? 1 : 2 * (int64_t)(P->p - 1) * n;
    char gname[256];
    snprintf(gname, sizeof gname, "%.*s", (int)(d - c), c);
    int64_t gi = find_gen(P->gens, P->ngens, gname);
    if (gi < 0) {
        const char *near = closest(P->gens, P->ngens, gname);
        if (near)
            return fail(S, SQ_E_INVAL, pos, "%s: unknown generator %s (did you mean %s?)", t,
                        clips(S, gname), clips(S, near));
        return fail(S, SQ_E_INVAL, pos, "%s: unknown generator %s", t, clips(S, gname));
    }
    int32_t in_deg = P->gens[gi].deg;
    int64_t in_idx;
    int32_t dd;
    SQ_CHECK(pfdmod_find(M, gname, &dd, &in_idx) == 0, "pmodspec: generator lost");
    for (int64_t i = 0; i < *nacts; i++)
        if (acts[i].e == e && acts[i].n == (e ? 0 : n) && acts[i].in_deg == in_deg &&
            acts[i].in_idx == in_idx)
            return fail(S, SQ_E_INVAL, pos, "%s: %.*s %s is already given on line %d by \"%s\"",
                        t, (int)(b - a), a, clips(S, gname), line_at(S, acts[i].line_pos),
                        clips(S, acts[i].text));
    /* right side */
    int64_t out_deg = in_deg + gdeg64;
    int64_t tn = out_deg <= pfdmod_max_degree(M) ? pfdmod_dim(M, (int32_t)out_deg) : 0;
    uint8_t *vec = sq_calloc((size_t)tn + 1, 1);
    const char *r = skip_ws(eq + 1, end);
    int nonzero = 0;
    int rc = 0;
    if (r == end) {
        rc = fail(S, SQ_E_INVAL, pos, "%s: nothing after '='; write \"= 0\" for zero", t);
        goto done;
    }
    {
        const char *q = r;
        while (q < end) {
            /* A term ends at '+', or before a '-' that follows white space
             * (names may contain '-': "x-1 - y" is x-1 minus y). */
            const char *te = q;
            while (te < end && *te != '+' &&
                   !(*te == '-' && te > q && isspace((unsigned char)te[-1]) &&
                     skip_ws(q, te) < te))
                te++;
            const char *u = skip_ws(q, te), *ue = te;
            while (ue > u && isspace((unsigned char)ue[-1]))
                ue--;
            if (u == ue) {
                rc = fail(S, SQ_E_INVAL, pos, "%s: an empty term", t);
                goto done;
            }
            int neg = 0;
            if (*u == '-') {
                neg = 1;
                u = skip_ws(u + 1, ue);
            }
            int64_t coef = 1;
            int have_coef = 0;
            if (u < ue && isdigit((unsigned char)*u)) {
                coef = 0;
                while (u < ue && isdigit((unsigned char)*u)) {
                    coef = (10 * coef + (*u - '0')) % (int64_t)P->p;
                    u++;
                }
                have_coef = 1;
                if (u < ue && *u == '*')
                    u++;
                u = skip_ws(u, ue);
            }
            if (u == ue) {
                if (have_coef && coef == 0 && !neg) { /* the term "0" */
                    q = te < end && *te == '+' ? te + 1 : te;
                    continue;
                }
                rc = fail(S, SQ_E_INVAL, pos, "%s: a term without a generator", t);
                goto done;
            }
            char tname[256];
            snprintf(tname, sizeof tname, "%.*s", (int)(ue - u), u);
            int64_t ti = find_gen(P->gens, P->ngens, tname);
            if (ti < 0) {
                const char *near = closest(P->gens, P->ngens, tname);
                if (near)
                    rc = fail(S, SQ_E_INVAL, pos, "%s: unknown generator %s (did you mean %s?)",
                              t, clips(S, tname), clips(S, near));
                else
                    rc = fail(S, SQ_E_INVAL, pos, "%s: unknown generator %s", t, clips(S, tname));
                goto done;
            }
            if (P->gens[ti].deg != out_deg) {
                rc = fail(S, SQ_E_INVAL, pos, "%s: %s has degree %d, not %d + %lld", t,
                          clips(S, tname), (int)P->gens[ti].deg, (int)in_deg, (long long)gdeg64);
                goto done;
            }
            int32_t od;
            int64_t oi;
            SQ_CHECK(pfdmod_find(M, tname, &od, &oi) == 0, "pmodspec: generator lost");
            if (neg)
                coef = (P->p - coef % P->p) % P->p;
            vec[oi] = (uint8_t)((vec[oi] + coef) % P->p);
            q = te < end && *te == '+' ? te + 1 : te;
            if (te < end && skip_ws(te + 1, end) == end) {
                rc = fail(S, SQ_E_INVAL, pos, "%s: an empty term after '+'", t);
                goto done;
            }
        }
    }
    for (int64_t i = 0; i < tn; i++)
        nonzero |= vec[i] != 0;
    if (nonzero) {
        int64_t ix = pmilnor_beps_pn(A, e, (int32_t)(e ? 0 : n), NULL);
        if (ix < 0) {
            rc = fail(S, SQ_E_INVAL, pos, "%s: %.*s is not in the subalgebra of the profile", t,
                      (int)(b - a), a);
            goto done;
        }
        pfdmod_set_gen(M, A, (int32_t)gdeg64, in_deg, in_idx, vec);
    }
    acts[*nacts].e = e;
    acts[*nacts].n = e ? 0 : (int32_t)n;
    acts[*nacts].gen_deg = (int32_t)gdeg64;
    acts[*nacts].in_deg = in_deg;
    acts[*nacts].in_idx = in_idx;
    acts[*nacts].line_pos = pos;
    acts[*nacts].text = text;
    (*nacts)++;
done:
    sq_free(vec);
    return rc;
}

static char *module_name(const char *display, int32_t shift)
{
    const char *base = strrchr(display, '/');
    base = base ? base + 1 : display;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    char buf[300];
    if (shift)
        snprintf(buf, sizeof buf, "%.*s[%d]", (int)(n < 200 ? n : 200), base, (int)shift);
    else
        snprintf(buf, sizeof buf, "%.*s", (int)(n < 200 ? n : 200), base);
    return sq_strdup(buf);
}

static int build(ps_t *S, json_t *root, pspec_t *P, const char *display, pfdmod_t **out)
{
    int32_t bottom = P->gens[0].deg, top = P->gens[P->ngens - 1].deg;
    int32_t span = top - bottom;
    if (span > PMILNOR_MAX_DEGREE || span >= 4096)
        return fail(S, SQ_E_RANGE, NOPOS, "the degrees span %d..%d, more than the largest span %d",
                    (int)bottom, (int)top, 4095);
    int32_t adeg = span > 1 ? span : 1;
    int64_t size = pmilnor_size(P->p, adeg, &P->prof);
    if (size > PMILNOR_MAX_ELEMENTS)
        return fail(S, SQ_E_RANGE, NOPOS,
                    "the degrees span %d..%d: the algebra at p = %u through degree %d has %lld "
                    "basis elements, more than the %lld supported",
                    (int)bottom, (int)top, (unsigned)P->p, (int)span, (long long)size,
                    (long long)PMILNOR_MAX_ELEMENTS);
    char *name = module_name(display, P->shift);
    pfdmod_t *M = pfdmod_new(name, P->p, bottom, top);
    sq_free(name);
    pfdmod_set_profile(M, &P->prof);
    for (int64_t i = 0; i < P->ngens; i++)
        pfdmod_add_basis(M, P->gens[i].deg, P->gens[i].name);
    pmilnor_t *A = pmilnor_new(P->p, adeg, &P->prof);
    int rc = 0;
    json_t *acts = json_object_get(root, "actions");
    if (acts) {
        size_t apos = key_pos(S, "actions", 0);
        if (!json_is_array(acts)) {
            rc = fail(S, SQ_E_INVAL, apos, "\"actions\" must be a list of strings, not %s",
                      spec_type_name(acts));
            goto out;
        }
        size_t na = json_array_size(acts);
        act_t *list = sq_calloc(na + 1, sizeof *list);
        int64_t nlist = 0;
        size_t from = apos == NOPOS ? 0 : apos, i;
        json_t *x;
        json_array_foreach(acts, i, x)
        {
            if (!json_is_string(x)) {
                rc = fail(S, SQ_E_INVAL, from, "\"actions\" entry %zu must be a string, not %s",
                          i + 1, spec_type_name(x));
                break;
            }
            const char *text = json_string_value(x);
            size_t pos = str_pos(S, text, from);
            if (pos == NOPOS)
                pos = str_pos(S, text, 0);
            else
                from = pos + 1;
            rc = read_action(S, P, M, A, text, pos, list, &nlist);
            if (rc)
                break;
        }
        sq_free(list);
        if (rc)
            goto out;
    }
    {
        char why[768];
        if (pfdmod_complete(M, A, why, sizeof why)) {
            rc = fail(S, SQ_E_INVAL, NOPOS, "%s", why);
            goto out;
        }
    }
out:
    pmilnor_free(A);
    if (rc) {
        pfdmod_free(M);
        return rc;
    }
    *out = M;
    return 0;
}

int sq_pmodspec_load_buffer(pfdmod_t **out, const char *buf, size_t len, const char *display_name,
                            const sq_pmodspec_opts_t *opts, char *err, size_t errlen)
{
    sq_pmodspec_opts_t none;
    memset(&none, 0, sizeof none);
    const sq_pmodspec_opts_t *o = opts ? opts : &none;
    *out = NULL;
    ps_t S;
    ps_init(&S, buf, len, display_name, err, errlen, o->warn);
    if (o->description && o->description_len)
        o->description[0] = 0;
    json_t *root;
    int rc = load_root(&S, &root);
    if (rc)
        return rc;
    pspec_t P;
    memset(&P, 0, sizeof P);
    P.shift = o->shift;
    if (P.shift < -SQ_PMODSPEC_MAX_DEGREE || P.shift > SQ_PMODSPEC_MAX_DEGREE) {
        rc = fail(&S, SQ_E_RANGE, NOPOS, "the shift %d is out of range", (int)P.shift);
        goto out;
    }
    rc = read_header(&S, root, &P);
    if (!rc)
        rc = read_gens(&S, root, &P);
    if (!rc)
        rc = read_profile(&S, root, &P);
    if (!rc)
        rc = read_cofiber(&S, root, &P);
    if (!rc)
        rc = build(&S, root, &P, display_name ? display_name : "<module>", out);
    if (!rc) {
        json_t *desc = json_object_get(root, "description");
        if (o->description && o->description_len && json_is_string(desc))
            snprintf(o->description, o->description_len, "%s", json_string_value(desc));
        if (o->info) {
            sq_pmodspec_info_t *I = o->info;
            memset(I, 0, sizeof *I);
            I->bottom = pfdmod_bottom(*out);
            I->span = pfdmod_top(*out) - pfdmod_bottom(*out);
            I->cofiber = P.cofiber;
            I->cof_s = P.cof_s;
            I->cof_t = P.cof_t + P.shift; /* the peer adds "shift" to t */
            I->cof_idx = P.cof_idx;
            I->cof_target = P.shift;
        }
    }
out:
    sq_free(P.gens);
    json_decref(root);
    return rc;
}

int sq_pmodspec_load_file(pfdmod_t **out, const char *path, const char *display_name,
                          const sq_pmodspec_opts_t *opts, char *err, size_t errlen)
{
    *out = NULL;
    const char *display = display_name ? display_name : path;
    char *buf;
    size_t len;
    int rc = read_file(path, display, &buf, &len, err, errlen);
    if (rc)
        return rc;
    rc = sq_pmodspec_load_buffer(out, buf, len, display, opts, err, errlen);
    sq_free(buf);
    return rc;
}

/* ---- The chart driver ------------------------------------------------------------------ */

static int64_t ext_resol(const void *ctx, int32_t s, int32_t n)
{
    return presol_ext_dim((const presol_t *)ctx, s, n);
}

static int64_t ext_cofiber(const void *ctx, int32_t s, int32_t n)
{
    return presol_cofiber_ext_dim((const presol_cofiber_t *)ctx, s, n);
}

int presol_cli_resolve(const char *path, int32_t stem, int32_t max_s, int csv, FILE *out,
                       char *err, size_t errlen)
{
    pfdmod_t *M = NULL;
    sq_pmodspec_info_t info;
    sq_pmodspec_opts_t o;
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    o.info = &info;
    int rc = sq_pmodspec_load_file(&M, path, NULL, &o, err, errlen);
    if (rc)
        return rc;
    rc = presol_check_range(M, max_s, stem, err, errlen);
    if (rc) {
        pfdmod_free(M);
        return rc;
    }
    int32_t bottom = pfdmod_bottom(M);
    if (info.cofiber) {
        presol_cofiber_t *C = NULL;
        rc = presol_cofiber_new(&C, M, info.cof_s, info.cof_t, info.cof_idx, info.cof_target,
                                max_s, stem, NULL, err, errlen);
        if (!rc) {
            rc = csv ? sq_chart_write_csv_fn(out, ext_cofiber, C, bottom, stem, max_s)
                     : sq_chart_write_dots_fn(out, ext_cofiber, C, bottom, stem, max_s);
            if (rc)
                snprintf(err, errlen, "cannot write the chart: %s", sq_strerror(rc));
        }
        presol_cofiber_free(C);
    } else {
        presol_t *R = presol_new(M, max_s, stem);
        presol_run(R);
        rc = csv ? sq_chart_write_csv_fn(out, ext_resol, R, bottom, stem, max_s)
                 : sq_chart_write_dots_fn(out, ext_resol, R, bottom, stem, max_s);
        if (rc)
            snprintf(err, errlen, "cannot write the chart: %s", sq_strerror(rc));
        presol_free(R);
    }
    pfdmod_free(M);
    return rc;
}
