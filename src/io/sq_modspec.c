/*
 * sq_modspec.c -- a finite module from a JSON module spec (see
 * sq_modspec.h and docs/modules.md).
 *
 * How a load goes.  jansson parses the text (rejecting duplicate keys, so
 * a generator given twice is an error rather than silently merged); then
 * the document is checked top-down, each step returning at the first
 * problem with a one-line message: the keys (unknown ones only warn), the
 * header ("type", "p", the legacy action keys), "shift", "gens", "profile"
 * and "actions" (sq_modspec_action.c).  Only then are the limits checked
 * (degrees, span, the size of the action tables) and the fdmod_t built, so
 * bad input never reaches an SQ_CHECK in the module layer.  The generators
 * enter the module in degree order, ties in their order in "gens" (jansson
 * keeps the insertion order of object keys).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_modspec.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "f2mat.h"
#include "fpmat.h"
#include "modspec_internal.h"

/* ---- The keys of a module file --------------------------------------------
 *
 * The rule (docs/modules.md, "Every key"): a key that changes which module
 * or which algebra is resolved is either implemented or refused with a
 * one-line error naming it; only keys that describe are passed over
 * quietly.  Every key of the peer's format is in this table; any other key
 * gets a warning (with the closest known key), and loading goes on.
 *
 *   READ      read and implemented by the loader
 *   DESCRIBE  describes the module, changes nothing: accepted quietly
 *   CHECKED   accepted only with a value that changes nothing (see
 *             check_key): "generic" must be false, the legacy action keys
 *             must be empty, "algebra" must list "milnor"
 */
enum { KEY_READ, KEY_DESCRIBE, KEY_CHECKED };

static const struct {
    const char *key;
    int role;
} key_table[] = {
    {"p", KEY_READ},
    {"type", KEY_READ},
    {"gens", KEY_READ},
    {"actions", KEY_READ},
    {"adem_relations", KEY_READ},
    {"milnor_relations", KEY_READ},
    {"min", KEY_READ},
    {"max", KEY_READ},
    {"clear_bottom", KEY_READ},
    {"profile", KEY_READ},
    {"shift", KEY_READ},
    {"cofiber", KEY_READ},
    {"name", KEY_DESCRIBE},
    {"description", KEY_DESCRIBE},
    {"file_name", KEY_DESCRIBE},
    {"products", KEY_DESCRIBE},
    {"self_maps", KEY_DESCRIBE},
    {"algebra", KEY_CHECKED},
    {"generic", KEY_CHECKED},
    {"sq_actions", KEY_CHECKED},
    {"adem_actions", KEY_CHECKED},
    {"milnor_actions", KEY_CHECKED},
    {NULL, 0},
};
static const char *const profile_keys[] = {"truncated", "p_part", "q_part", NULL};

const char *spec_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

size_t spec_key_pos(const spec_t *S, const char *key, size_t from)
{
    size_t n = strlen(key) + 2;
    char *q = sq_malloc(n + 1);
    snprintf(q, n + 1, "\"%s\"", key);
    size_t pos = SPEC_NOPOS;
    /* One pass: each copy of "key" is tested for a following ':'. */
    for (size_t p = spec_find(S, from, q, n, 0); p != SPEC_NOPOS; p = spec_find(S, p + 1, q, n, 0)) {
        size_t i = p + n;
        while (i < S->len && (S->text[i] == ' ' || S->text[i] == '\t' || S->text[i] == '\n' ||
                              S->text[i] == '\r'))
            i++;
        if (i < S->len && S->text[i] == ':') {
            pos = p;
            break;
        }
    }
    sq_free(q);
    return pos;
}

/* ---- The JSON document ------------------------------------------------------ */

/* The name in jansson's "... near '"NAME"'" (quotes stripped), clipped. */
static const char *near_name(spec_t *S, const char *text)
{
    const char *p = strstr(text, "near '");
    if (!p)
        return "?";
    p += 6;
    size_t n = strlen(p);
    if (n && p[n - 1] == '\'')
        n--;
    if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
        p++;
        n -= 2;
    }
    return spec_clip(S, p, n);
}

/* Whether the object "gens" of the document (parsed again, duplicates
 * allowed) has the key name. */
static int is_gen_name(const spec_t *S, const char *name)
{
    json_error_t e;
    json_t *root = json_loadb(S->text, S->len, 0, &e);
    json_t *gens = root ? json_object_get(root, "gens") : NULL;
    int yes = json_is_object(gens) && json_object_get(gens, name) != NULL;
    json_decref(root);
    return yes;
}

static int syntax_error(spec_t *S, const json_error_t *e)
{
    char text[JSON_ERROR_TEXT_LENGTH];
    snprintf(text, sizeof text, "%s", e->text);
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = '?';
    char where[64] = "";
    if (e->line >= 1)
        snprintf(where, sizeof where, ":%d:%d", e->line, e->column);
    if (json_error_code(e) == json_error_duplicate_key) {
        const char *name = near_name(S, text);
        int gen = is_gen_name(S, name);
        snprintf(S->err, S->errlen, "%s%s: duplicate %s \"%s\"%s", spec_file(S), where,
                 gen ? "generator" : "key", name, gen ? " in \"gens\"" : "");
        return SQ_E_INVAL;
    }
    snprintf(S->err, S->errlen, "%s%s: JSON syntax: %s", spec_file(S), where, text);
    return SQ_E_PARSE;
}

static int load_json(spec_t *S, json_t **root)
{
    json_error_t e;
    *root = json_loadb(S->text, S->len, JSON_REJECT_DUPLICATES, &e);
    if (!*root)
        return syntax_error(S, &e);
    if (!json_is_object(*root))
        return spec_fail(S, SQ_E_INVAL, SPEC_NOPOS,
                         "the top level must be an object {\"gens\": ..., \"actions\": ...}, "
                         "not %s",
                         spec_type_name(*root));
    return 0;
}

/* Index of key in key_table, or -1. */
static int key_index(const char *key)
{
    for (int i = 0; key_table[i].key; i++)
        if (strcmp(key_table[i].key, key) == 0)
            return i;
    return -1;
}

/* Warns that key is unknown unless it is in list (a NULL list: the caller
 * checked key_table), suggesting the closest candidate (from list, or
 * key_table); the key's line is searched from offset `from`.  After
 * SPEC_MAX_WARNINGS warnings the rest are only counted (the load ends with
 * one line giving their number), so a file of many unknown keys costs
 * linear time: each warning searches the text once. */
static void warn_unknown(spec_t *S, const char *key, size_t from, const char *const *list,
                         const char *where)
{
    if (!S->warn)
        return;
    for (int i = 0; list && list[i]; i++)
        if (strcmp(list[i], key) == 0)
            return; /* known */
    if (S->nwarn >= SPEC_MAX_WARNINGS) {
        S->more_warnings++; /* counted, and reported in one line at the end */
        return;
    }
    S->nwarn++;
    size_t pos = spec_key_pos(S, key, from);
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
    const char *k = spec_clip(S, key, strlen(key));
    if (best)
        spec_warn(S, pos, "unknown key \"%s\"%s ignored (did you mean \"%s\"?)", k, where, best);
    else
        spec_warn(S, pos, "unknown key \"%s\"%s ignored", k, where);
}

/* The CHECKED keys: accepted only with a value that changes nothing. */
static int check_key(spec_t *S, json_t *root, const char *key, json_t *v)
{
    if (strcmp(key, "generic") == 0) {
        if (json_is_false(v))
            return 0;
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, key, 0),
                         "\"generic\": only false is supported (the generic form of the algebra "
                         "changes the algebra resolved over)");
    }
    if (strcmp(key, "algebra") == 0) {
        size_t i;
        json_t *e;
        int milnor = 0, ok = json_is_array(v);
        json_array_foreach(v, i, e)
        {
            const char *b = json_string_value(e);
            if (!b || (strcmp(b, "milnor") != 0 && strcmp(b, "adem") != 0))
                ok = 0;
            else
                milnor |= strcmp(b, "milnor") == 0;
        }
        if (ok && milnor)
            return 0;
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, key, 0),
                         "\"algebra\" must be a list of bases that includes \"milnor\" (adams "
                         "works in the Milnor basis), e.g. [\"milnor\"]");
    }
    /* The legacy action keys. */
    if (json_is_array(v) && json_array_size(v) == 0)
        return 0;
    return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, key, 0),
                     "\"%s\" (the legacy form of the actions) is not supported; give them as "
                     "strings in \"actions\", e.g. \"%s x0 = x1\"",
                     key, S->p == 2 ? "Sq1" : "b");
    (void)root;
}

/* The value of root's optional key into *v: NULL when the key is absent,
 * else a value of the JSON type `type`, *pos where the key stands.  0, or
 * spec_fail's code after "\"key\" must be <what>, not <its type>". */
static int optional_key(spec_t *S, json_t *root, const char *key, json_type type,
                        const char *what, json_t **v, size_t *pos)
{
    *v = json_object_get(root, key);
    *pos = *v ? spec_key_pos(S, key, 0) : SPEC_NOPOS;
    if (*v && json_typeof(*v) != type)
        return spec_fail(S, SQ_E_INVAL, *pos, "\"%s\" must be %s, not %s", key, what,
                         spec_type_name(*v));
    return 0;
}

/* "p" into S->p: 2 when absent, else a prime below 256. */
static int read_prime(spec_t *S, json_t *root)
{
    json_t *v;
    size_t pos;
    S->p = 2;
    int rc = optional_key(S, root, "p", JSON_INTEGER, "a prime number", &v, &pos);
    if (rc || !v)
        return rc;
    json_int_t p = json_integer_value(v);
    if (p > 255)
        return spec_fail(S, SQ_E_RANGE, pos, "\"p\" is %lld: adams supports the primes below 256",
                         (long long)p);
    if (p < 2 || !fp_prime_ok((uint32_t)p))
        return spec_fail(S, SQ_E_INVAL, pos, "\"p\" is %lld, which is not a prime", (long long)p);
    S->p = (uint32_t)p;
    return 0;
}

/* "p", then every key against key_table, then "type" (at odd p a finite
 * dimensional module only). */
static int check_header(spec_t *S, json_t *root)
{
    const char *key;
    json_t *v;
    int rc = read_prime(S, root);
    if (rc)
        return rc;
    json_object_foreach(root, key, v)
    {
        int k = key_index(key);
        if (k < 0)
            warn_unknown(S, key, 0, NULL, "");
        else if (key_table[k].role == KEY_CHECKED) {
            rc = check_key(S, root, key, v);
            if (rc)
                return rc;
        }
    }
    static const char *const types[] = {"finite dimensional module", "finitely presented module",
                                        "real projective space"};
    v = json_object_get(root, "type");
    S->kind = SQ_MODSPEC_FINITE;
    if (v) {
        int k = -1;
        for (int i = 0; i < 3 && json_is_string(v); i++)
            if (strcmp(json_string_value(v), types[i]) == 0)
                k = i;
        if (k < 0)
            return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "type", 0),
                             "\"type\" is %s%s%s: expected \"finite dimensional module\", "
                             "\"finitely presented module\" or \"real projective space\"",
                             json_is_string(v) ? "\"" : "",
                             json_is_string(v)
                                 ? spec_clip(S, json_string_value(v), json_string_length(v))
                                 : spec_type_name(v),
                             json_is_string(v) ? "\"" : "");
        S->kind = k;
    }
    if (S->p != 2 && S->kind != SQ_MODSPEC_FINITE)
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "type", 0),
                         "\"type\" is \"%s\": at odd primes adams reads finite dimensional "
                         "modules only",
                         json_string_value(json_object_get(root, "type")));
    return 0;
}

/* An integer in [-SQ_MODSPEC_MAX_DEGREE, SQ_MODSPEC_MAX_DEGREE] for "shift". */
static int read_shift(spec_t *S, json_t *root, int32_t *shift)
{
    json_t *v;
    size_t pos;
    *shift = 0;
    int rc = optional_key(S, root, "shift", JSON_INTEGER, "an integer", &v, &pos);
    if (rc || !v)
        return rc;
    json_int_t k = json_integer_value(v);
    if (k < -SQ_MODSPEC_MAX_DEGREE || k > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, pos, "\"shift\" %lld is out of range (|shift| <= %d)",
                         (long long)k, SQ_MODSPEC_MAX_DEGREE);
    *shift = (int32_t)k;
    return 0;
}

/* ---- Generators ------------------------------------------------------------- */

/* Why name cannot be a generator, or NULL if it can. */
static const char *bad_name(const char *name)
{
    if (!*name)
        return "a generator name may not be empty";
    if (*name >= '0' && *name <= '9')
        return "a generator name may not begin with a digit";
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (*c <= ' ' || *c == 0x7f || *c == '+' || *c == '=')
            return "a generator name may not contain white space, '+' or '='";
    return NULL;
}

static int cmp_gen(const void *a, const void *b)
{
    const spec_gen_t *x = a, *y = b;
    if (x->fdeg != y->fdeg)
        return x->fdeg < y->fdeg ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_by_name(const void *a, const void *b)
{
    return strcmp(((const spec_name_t *)a)->name, ((const spec_name_t *)b)->name);
}

/* One entry of "gens" into S->gens[S->ngens]. */
static int read_gen(spec_t *S, const char *name, json_t *v, size_t gens_pos)
{
    const char *why = bad_name(name);
    const char *nm = spec_clip(S, name, strlen(name));
    if (why)
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, name, gens_pos), "generator \"%s\": %s", nm,
                         why);
    if (!json_is_integer(v))
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, name, gens_pos),
                         "generator %s: the degree must be an integer, not %s", nm, spec_type_name(v));
    json_int_t d = json_integer_value(v);
    if (d < -SQ_MODSPEC_MAX_DEGREE || d > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, spec_key_pos(S, name, gens_pos),
                         "generator %s: degree %lld is out of range (|degree| <= %d)", nm,
                         (long long)d, SQ_MODSPEC_MAX_DEGREE);
    spec_gen_t *g = &S->gens[S->ngens];
    g->name = name;
    g->order = S->ngens++;
    g->fdeg = (int32_t)d;
    return 0;
}

static int read_gens(spec_t *S, json_t *root)
{
    json_t *gens = json_object_get(root, "gens");
    size_t pos = spec_key_pos(S, "gens", 0);
    if (!gens)
        return spec_fail(S, SQ_E_INVAL, SPEC_NOPOS,
                         "missing \"gens\": an object {\"name\": degree, ...} listing the basis");
    if (!json_is_object(gens))
        return spec_fail(S, SQ_E_INVAL, pos,
                         "\"gens\" must be an object {\"name\": degree, ...}, not %s",
                         spec_type_name(gens));
    size_t n = json_object_size(gens);
    if (n == 0)
        return spec_fail(S, SQ_E_INVAL, pos, "\"gens\" is empty: a module needs a generator");
    S->gens = sq_calloc(n, sizeof *S->gens);
    const char *name;
    json_t *v;
    json_object_foreach(gens, name, v)
    {
        int rc = read_gen(S, name, v, pos);
        if (rc)
            return rc;
    }
    qsort(S->gens, (size_t)S->ngens, sizeof *S->gens, cmp_gen);
    S->by_name = sq_calloc(n, sizeof *S->by_name);
    for (int64_t i = 0; i < S->ngens; i++) {
        S->by_name[i].name = S->gens[i].name;
        S->by_name[i].gen = i;
    }
    qsort(S->by_name, (size_t)S->ngens, sizeof *S->by_name, cmp_by_name);
    return 0;
}

/* ---- Profile ---------------------------------------------------------------- */

/* Whether h_1..h_len (h_i = beyond for i > len: 0 for a truncated profile,
 * infinite otherwise) is the profile of a sub-Hopf algebra of A: for all
 * i, j >= 1, h_i <= j + h_{i+j} or h_j <= h_{i+j} (Adams and Margolis).
 * Only i, j <= len can fail.  Sets *bi, *bj to a failing pair. */
static int is_hopf_profile(const int32_t *h, int len, int32_t beyond, int *bi, int *bj)
{
    for (int i = 1; i <= len; i++)
        for (int j = 1; j <= len; j++) {
            int32_t hij = i + j <= len ? h[i + j - 1] : beyond;
            if (h[i - 1] > j + hij && h[j - 1] > hij) {
                *bi = i;
                *bj = j;
                return 0;
            }
        }
    return 1;
}

/* Stands for an infinite profile entry (see FDMOD_MAX_PROFILE_ENTRY). */
#define PROFILE_INFINITE FDMOD_MAX_PROFILE_ENTRY

static int read_p_part(spec_t *S, json_t *pp, int truncated, size_t pos)
{
    if (!json_is_array(pp) || json_array_size(pp) == 0 ||
        json_array_size(pp) > FDMOD_MAX_PROFILE_LEN)
        return spec_fail(S, SQ_E_INVAL, pos,
                         "\"profile\": \"p_part\" must be a list of 1 to %d integers, e.g. "
                         "[3, 2, 1] for A(2)",
                         FDMOD_MAX_PROFILE_LEN);
    for (size_t i = 0; i < json_array_size(pp); i++) {
        json_t *e = json_array_get(pp, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            json_integer_value(e) > FDMOD_MAX_PROFILE_ENTRY)
            return spec_fail(S, SQ_E_INVAL, pos,
                             "\"profile\": \"p_part\" entry %zu must be an integer in 0..%d",
                             i + 1, FDMOD_MAX_PROFILE_ENTRY);
        S->profile[i] = (int32_t)json_integer_value(e);
    }
    S->plen = (int)json_array_size(pp);
    int i, j;
    /* Past the list: 0 (truncated), or above every entry (not truncated). */
    if (!is_hopf_profile(S->profile, S->plen, truncated ? 0 : FDMOD_MAX_PROFILE_ENTRY + 1, &i, &j))
        return spec_fail(S, SQ_E_INVAL, pos,
                         "\"profile\": \"p_part\" is not the profile of a sub-Hopf algebra of A "
                         "(h_%d > %d + h_%d and h_%d > h_%d)",
                         i, j, i + j, j, i + j);
    /* Positions past MILNOR_MAX_LEN never occur below MILNOR_MAX_DEGREE; a
     * profile that is not truncated is infinite past its list. */
    if (S->plen > MILNOR_MAX_LEN)
        S->plen = MILNOR_MAX_LEN;
    if (!truncated)
        while (S->plen < MILNOR_MAX_LEN)
            S->profile[S->plen++] = PROFILE_INFINITE;
    return 0;
}

/* "truncated" of a profile: 1, 0, or a spec_fail code (< 0). */
static int read_truncated(spec_t *S, json_t *prof, size_t pos)
{
    json_t *tr = json_object_get(prof, "truncated");
    if (!json_is_boolean(tr))
        return spec_fail(S, SQ_E_INVAL, pos,
                         "\"profile\": \"truncated\" must be true (entries past \"p_part\" are "
                         "0) or false (they are infinite)");
    return json_is_true(tr);
}

/* The profile at an odd prime into S->oprof: "truncated", "p_part" (at most
 * PMILNOR_MAX_PROFILE entries in 0..30) and "q_part" (bit n: Q_n is kept),
 * checked with pmilnor_profile_check. */
static int read_profile_odd(spec_t *S, json_t *prof, size_t pos)
{
    int tr = read_truncated(S, prof, pos);
    if (tr < 0)
        return tr;
    S->oprof.truncated = tr;
    json_t *pp = json_object_get(prof, "p_part");
    if (pp) {
        if (!json_is_array(pp) || json_array_size(pp) > PMILNOR_MAX_PROFILE)
            return spec_fail(S, SQ_E_INVAL, pos,
                             "\"profile\": \"p_part\" must be a list of at most %d integers",
                             PMILNOR_MAX_PROFILE);
        for (size_t i = 0; i < json_array_size(pp); i++) {
            json_t *x = json_array_get(pp, i);
            if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 30)
                return spec_fail(S, SQ_E_INVAL, pos,
                                 "\"profile\": \"p_part\" entry %zu must be an integer in 0..30",
                                 i + 1);
            S->oprof.p_part[i] = (int32_t)json_integer_value(x);
        }
        S->oprof.len = (int)json_array_size(pp);
    }
    json_t *qp = json_object_get(prof, "q_part");
    if (qp) {
        if (!json_is_integer(qp) || json_integer_value(qp) < 0 ||
            json_integer_value(qp) > (json_int_t)UINT32_MAX)
            return spec_fail(S, SQ_E_INVAL, pos,
                             "\"profile\": \"q_part\" must be an integer in 0..4294967295 (bit "
                             "n: Q_n is kept)");
        S->oprof.q_part = (uint32_t)json_integer_value(qp);
    }
    char why[256];
    if (pmilnor_profile_check(S->p, &S->oprof, why, sizeof why))
        return spec_fail(S, SQ_E_INVAL, pos, "\"profile\": %s", why);
    return 0;
}

static int read_profile(spec_t *S, json_t *root)
{
    json_t *prof;
    size_t pos;
    int rc = optional_key(S, root, "profile", JSON_OBJECT,
                          "an object {\"truncated\": true, \"p_part\": [...]}", &prof, &pos);
    if (rc || !prof)
        return rc;
    const char *key;
    json_t *v;
    json_object_foreach(prof, key, v)
    {
        warn_unknown(S, key, pos, profile_keys, " in \"profile\"");
    }
    if (S->p != 2)
        return read_profile_odd(S, prof, pos);
    if (json_object_get(prof, "q_part"))
        return spec_fail(S, SQ_E_INVAL, pos,
                         "\"profile\": \"q_part\" is for odd primes; at p = 2 the profile is "
                         "\"p_part\" alone");
    int tr = read_truncated(S, prof, pos);
    if (tr < 0)
        return tr;
    return read_p_part(S, json_object_get(prof, "p_part"), tr, pos);
}

/* ---- Actions ---------------------------------------------------------------- */

static int read_actions(spec_t *S, json_t *root)
{
    const char *eg = S->p == 2 ? "Sq1 x0 = x1" : "b x0 = x1";
    json_t *acts;
    size_t pos;
    char what[64];
    snprintf(what, sizeof what, "a list of strings like \"%s\"", eg);
    int rc = optional_key(S, root, "actions", JSON_ARRAY, what, &acts, &pos);
    if (rc || !acts)
        return rc;
    size_t n = json_array_size(acts);
    const char **strs = sq_calloc(n + 1, sizeof *strs);
    for (size_t i = 0; i < n; i++) {
        json_t *a = json_array_get(acts, i);
        if (!json_is_string(a)) {
            sq_free(strs);
            return spec_fail(S, SQ_E_INVAL, pos,
                             "\"actions\" entry %zu must be a string like \"%s\", not %s",
                             i + 1, eg, spec_type_name(a));
        }
        strs[i] = json_string_value(a);
    }
    rc = spec_parse_actions(S, strs, (int64_t)n, pos);
    sq_free(strs);
    return rc;
}

/* ---- Building the module ---------------------------------------------------- */

/* Refuses a module whose action tables, or the largest row reduction that
 * deriving them needs, would exceed the load's limit (S->max_tables, at
 * most SQ_MODSPEC_MAX_TABLES), before any
 * action is set.  M holds the basis (every generator of every degree); the
 * given generators are those of S->acts with a nonzero right side.  The
 * estimate (fdmod_complete_cost) counts the pairs of degrees the action
 * connects, each with all of its generators, so a hundred thousand
 * generators in one degree count a hundred thousand times. */
int spec_check_tables(spec_t *S, const fdmod_t *M, const stalg_t *A, int32_t shift)
{
    int32_t lo = fdmod_bottom(M), hi = fdmod_top(M);
    uint32_t *given = sq_calloc((size_t)(hi - lo) + 1, sizeof *given);
    for (int64_t i = 0; i < S->nacts; i++) {
        const spec_action_t *a = &S->acts[i];
        if (a->nto == 0)
            continue;
        given[S->gens[a->from].fdeg + shift - lo] |= 1u << a->slot;
    }
    fdmod_cost_t c;
    fdmod_complete_cost_alg(&c, M, A, given);
    sq_free(given);
    return spec_check_cost(S, c.table_bytes, c.reduce_bytes, c.reduce_from, c.reduce_deg);
}

int spec_check_cost(spec_t *S, double table_bytes, double reduce_bytes, int32_t reduce_from,
                    int32_t reduce_deg)
{
    const double limit = (double)S->max_tables, mib = 1048576.0;
    /* The names of the basis: a pointer, the string and malloc's overhead. */
    double names = 64.0 * (double)S->ngens;
    if (table_bytes + names > limit)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the module is too large: its action tables would take %.0f MiB "
                         "(at most %lld)",
                         (table_bytes + names) / mib, (long long)(S->max_tables >> 20));
    if (table_bytes + names + reduce_bytes > limit)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the module is too large: deriving its action from degree %d to degree %d "
                         "needs a row reduction of %.0f MiB (the products in A of degree %d; at "
                         "most %lld MiB with the tables)",
                         (int)reduce_from, (int)(reduce_from + reduce_deg), reduce_bytes / mib,
                         (int)reduce_deg, (long long)(S->max_tables >> 20));
    return 0;
}

/* The degree *adeg the subalgebra of the profile is built to: the span,
 * or the top degree of the subalgebra (sum (2^{h_i} - 1)(2^i - 1)) when
 * that is less -- A(1) needs degree 6 however far apart the cells are.
 * milnor_new_profile lists every basis element of A through that degree
 * (12 bytes and an unranking each), so a span of 300 over a profile that
 * is not truncated is refused here rather than left to run for minutes. */
static int check_subalgebra(spec_t *S, int32_t *adeg)
{
    int64_t top = 0;
    for (int i = 1; i <= S->plen && top <= *adeg; i++)
        top += (((int64_t)1 << S->profile[i - 1]) - 1) * (((int64_t)1 << i) - 1);
    if (top < *adeg)
        *adeg = top > 1 ? (int32_t)top : 1;
    milnor_t *F = milnor_new(*adeg);
    double elements = 0;
    for (int32_t d = 0; d <= *adeg; d++)
        elements += (double)milnor_dim(F, d);
    milnor_free(F);
    if (12.0 * elements > (double)S->max_tables)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the module is too large: over the subalgebra of its profile, a span of "
                         "%d needs the %.0f basis elements of A through degree %d listed, %.0f "
                         "MiB (at most %lld)",
                         (int)*adeg, elements, (int)*adeg, 12.0 * elements / 1048576.0,
                         (long long)(S->max_tables >> 20));
    return 0;
}

char *spec_module_name(const char *display, int32_t shift)
{
    const char *base = display ? display : "module";
    const char *slash = strrchr(base, '/');
    if (slash && slash[1])
        base = slash + 1;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    /* Printable: the name appears in messages and notes. */
    char *name = sq_malloc(n + 16);
    size_t k = sq_modspec_printable(name, n + 1, base, n, n);
    if (shift)
        snprintf(name + k, 16, "[%d]", (int)shift);
    return name;
}

int spec_check_degrees(spec_t *S, int32_t shift, int32_t max_span)
{
    int32_t lo = S->gens[0].fdeg, hi = S->gens[S->ngens - 1].fdeg;
    if ((int64_t)lo + shift < -SQ_MODSPEC_MAX_DEGREE || (int64_t)hi + shift > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "degrees %d..%d shifted by %d leave the range (|degree| <= %d)", (int)lo,
                         (int)hi, (int)shift, SQ_MODSPEC_MAX_DEGREE);
    if ((int64_t)hi - lo > max_span)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the degrees span %d..%d, more than the largest span %d", (int)lo, (int)hi,
                         (int)max_span);
    return 0;
}

/* Sets the action vectors of S->acts in M and completes it. */
static int set_actions(spec_t *S, fdmod_t *M, const milnor_t *A, int32_t shift)
{
    for (int64_t i = 0; i < S->nacts; i++) {
        const spec_action_t *a = &S->acts[i];
        if (a->nto == 0)
            continue; /* zero: nothing to set (the target may lie beyond the module) */
        const spec_gen_t *from = &S->gens[a->from];
        int32_t tdeg = from->fdeg + shift + a->op;
        uint64_t *vec = sq_calloc((size_t)f2_limbs(fdmod_dim(M, tdeg)) + 1, sizeof *vec);
        for (int64_t t = 0; t < a->nto; t++) { /* every coefficient is 1 */
            int64_t j = S->gens[a->to[t]].idx;
            vec[j >> 6] ^= 1ULL << (j & 63);
        }
        fdmod_set_sq(M, A, a->op, from->fdeg + shift, from->idx, vec);
        sq_free(vec);
    }
    char msg[768];
    if (fdmod_complete(M, A, msg, sizeof msg))
        return spec_fail(S, SQ_E_INVAL, SPEC_NOPOS, "%s", msg);
    return 0;
}

static int build(spec_t *S, const char *display, int32_t shift, int32_t max_span, fdmod_t **out)
{
    int32_t lo = S->gens[0].fdeg, hi = S->gens[S->ngens - 1].fdeg;
    int rc = spec_check_degrees(S, shift, max_span);
    if (rc)
        return rc;
    /* Over a subalgebra the action is completed and checked inside it. */
    int32_t span = hi - lo > 0 ? hi - lo : 1;
    rc = S->plen ? check_subalgebra(S, &span) : 0;
    if (rc)
        return rc;
    milnor_t *A = S->plen ? milnor_new_profile(span, S->profile, S->plen) : milnor_new(span);
    char *name = spec_module_name(display, shift);
    fdmod_t *M = fdmod_new(name, lo + shift, hi + shift);
    sq_free(name);
    for (int64_t i = 0; i < S->ngens; i++)
        S->gens[i].idx = fdmod_add_basis(M, S->gens[i].fdeg + shift, S->gens[i].name);
    stalg_t *SA = stalg_new_milnor(A);
    rc = spec_check_tables(S, M, SA, shift);
    stalg_free(SA);
    if (!rc)
        rc = set_actions(S, M, A, shift);
    milnor_free(A);
    if (rc) {
        fdmod_free(M);
        return rc;
    }
    if (S->plen)
        fdmod_set_profile(M, S->profile, S->plen);
    *out = M;
    return 0;
}

/* ---- Entry points ----------------------------------------------------------- */

static void copy_description(json_t *root, const sq_modspec_opts_t *o)
{
    if (!o || !o->description || !o->description_len)
        return;
    json_t *d = root ? json_object_get(root, "description") : NULL;
    snprintf(o->description, o->description_len, "%s",
             json_is_string(d) ? json_string_value(d) : "");
}

/* Reads the keys of S->kind (after the header and "shift"). */
static int read_kind(spec_t *S, json_t *root)
{
    static const char *const fd_foreign[] = {"adem_relations", "milnor_relations", "min", "max",
                                             "clear_bottom", NULL};
    int rc = 0;
    switch (S->kind) {
    case SQ_MODSPEC_FINITE:
        for (int i = 0; fd_foreign[i] && !rc; i++)
            if (json_object_get(root, fd_foreign[i]))
                rc = spec_fail(S, SQ_E_INVAL, spec_key_pos(S, fd_foreign[i], 0),
                               "\"%s\" does not belong to a finite dimensional module (it has "
                               "\"gens\" and \"actions\"; see \"type\")",
                               fd_foreign[i]);
        if (!rc)
            rc = read_gens(S, root);
        if (!rc)
            rc = read_profile(S, root);
        if (!rc)
            rc = read_actions(S, root);
        return rc;
    case SQ_MODSPEC_PRESENTED:
        rc = read_gens(S, root);
        if (!rc)
            rc = read_profile(S, root);
        if (!rc && S->plen)
            rc = spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "profile", 0),
                           "\"profile\": finitely presented modules over a subalgebra are not "
                           "supported");
        if (!rc)
            rc = spec_read_relations(S, root);
        return rc;
    default:
        rc = spec_read_projective(S, root);
        if (!rc)
            rc = read_profile(S, root);
        return rc;
    }
}

/* What the load found out, into info. */
static void fill_info(const spec_t *S, int32_t shift, sq_modspec_info_t *info)
{
    info->kind = (sq_modspec_kind_t)S->kind;
    if (S->kind == SQ_MODSPEC_PROJECTIVE) {
        info->infinite = !S->rp_have_max;
        info->bottom = S->rp_min + shift;
        info->span = S->rp_have_max ? S->rp_max - S->rp_min : 0;
    } else {
        info->infinite = S->kind == SQ_MODSPEC_PRESENTED;
        info->bottom = S->gens[0].fdeg + shift;
        info->span = S->gens[S->ngens - 1].fdeg - S->gens[0].fdeg;
    }
    if (info->cofiber) {
        info->cof_t += shift;
        info->cof_target = shift;
    }
}

/* Builds the module of an infinite kind. */
static int build_infinite(spec_t *S, const char *display, int32_t shift,
                          const sq_modspec_opts_t *o, fdmod_t **out)
{
    int finite_rp = S->kind == SQ_MODSPEC_PROJECTIVE && S->rp_have_max;
    if (!finite_rp && !(o && o->have_max_degree))
        return spec_fail(S, SQ_E_INVAL, SPEC_NOPOS,
                         "the module is infinite: a computation must say up to which degree it "
                         "is needed (max_degree)");
    int64_t top = finite_rp ? (int64_t)S->rp_max + shift : o->max_degree;
    if (top > SQ_MODSPEC_MAX_DEGREE)
        top = SQ_MODSPEC_MAX_DEGREE;
    char *name = spec_module_name(display, shift);
    int rc = S->kind == SQ_MODSPEC_PROJECTIVE
                 ? spec_build_projective(S, name, shift, (int32_t)top, out)
                 : spec_build_presented(S, name, shift, (int32_t)top, out);
    sq_free(name);
    return rc;
}

/* The prime a caller asks for: any, 2 or odd. */
enum { WANT_ANY, WANT_2, WANT_ODD };

static int check_want(spec_t *S, int want)
{
    if (want == WANT_2 && S->p != 2)
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "p", 0),
                         "\"p\" is %u: this entry point builds modules at the prime 2 "
                         "(sq_modspec_load_module reads every prime)",
                         (unsigned)S->p);
    if (want == WANT_ODD && S->p == 2)
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "p", 0),
                         "\"p\" is 2%s: this entry point builds modules at odd primes "
                         "(sq_modspec_load_module reads every prime)",
                         json_object_get(S->root, "p") ? "" : " (no \"p\" given)");
    return 0;
}

static int load(spec_t *S, json_t **root, const char *display, const sq_modspec_opts_t *o,
                int want, sq_modspec_module_t *out)
{
    int32_t shift;
    sq_modspec_info_t info_local, *info = o && o->info ? o->info : &info_local;
    memset(info, 0, sizeof *info);
    int rc = load_json(S, root);
    S->root = *root;
    if (!rc)
        rc = check_header(S, *root);
    if (!rc)
        rc = check_want(S, want);
    if (!rc)
        rc = read_shift(S, *root, &shift);
    if (!rc)
        rc = read_kind(S, *root);
    if (!rc)
        rc = spec_read_cofiber(S, *root, info);
    if (rc)
        return rc;
    int32_t max_span = o && o->max_span > 0 && o->max_span < SQ_MODSPEC_MAX_SPAN
                           ? o->max_span
                           : SQ_MODSPEC_MAX_SPAN;
    int32_t extra = o ? o->shift : 0;
    if (extra < -SQ_MODSPEC_MAX_DEGREE || extra > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS, "shift %d is out of range (|shift| <= %d)",
                         (int)extra, SQ_MODSPEC_MAX_DEGREE);
    shift += extra;
    fill_info(S, shift, info);
    if (info->cofiber && info->infinite)
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "cofiber", 0),
                         "\"cofiber\" needs a bounded module: this %s is infinite (its Yoneda "
                         "representative would not be finite)",
                         S->kind == SQ_MODSPEC_PROJECTIVE ? "projective space"
                                                          : "finitely presented module");
    out->p = S->p;
    if (S->p != 2)
        return spec_build_odd(S, display, shift, max_span, &out->modd);
    if (S->kind == SQ_MODSPEC_FINITE)
        return build(S, display, shift, max_span, &out->m2);
    return build_infinite(S, display, shift, o, &out->m2);
}

/* A zeroed S for the text buf[0..len) named display_name, its messages
 * into err (errlen bytes; dummy, one byte, when errlen is 0). */
static void spec_init(spec_t *S, const char *buf, size_t len, const char *display_name, char *err,
                      size_t errlen, char *dummy)
{
    memset(S, 0, sizeof *S);
    S->file = display_name ? display_name : "<module>";
    S->text = buf;
    S->len = buf ? len : 0;
    S->err = errlen ? err : dummy;
    S->errlen = errlen ? errlen : 1;
    S->err[0] = '\0';
}

/* The one load behind every entry point. */
static int load_any(sq_modspec_module_t *out, const char *buf, size_t len, const char *display_name,
                    const sq_modspec_opts_t *opts, int want, char *err, size_t errlen)
{
    char dummy[1];
    spec_t S;
    spec_init(&S, buf, len, display_name, err, errlen, dummy);
    memset(out, 0, sizeof *out);
    S.warn = opts ? opts->warn : NULL;
    S.max_tables = opts && opts->max_tables > 0 && opts->max_tables < SQ_MODSPEC_MAX_TABLES
                       ? opts->max_tables
                       : SQ_MODSPEC_MAX_TABLES;
    pmilnor_profile_full(&S.oprof);
    if (opts && opts->description && opts->description_len)
        opts->description[0] = '\0';
    json_t *root = NULL;
    int rc = load(&S, &root, S.file, opts, want, out);
    if (S.more_warnings)
        spec_warn(&S, SPEC_NOPOS, "... and %lld more unknown keys ignored",
                  (long long)S.more_warnings);
    if (!rc)
        copy_description(root, opts);
    else
        sq_modspec_module_free(out);
    spec_free_actions(&S);
    spec_free_relations(&S);
    sq_free(S.gens);
    sq_free(S.by_name);
    json_decref(root);
    return rc;
}

int sq_modspec_load_module(sq_modspec_module_t *out, const char *buf, size_t len,
                           const char *display_name, const sq_modspec_opts_t *opts, char *err,
                           size_t errlen)
{
    return load_any(out, buf, len, display_name, opts, WANT_ANY, err, errlen);
}

void sq_modspec_module_free(sq_modspec_module_t *m)
{
    if (!m)
        return;
    fdmod_free(m->m2);
    fdmod_free(m->modd);
    m->m2 = NULL;
    m->modd = NULL;
}

int sq_modspec_load_buffer(fdmod_t **out, const char *buf, size_t len, const char *display_name,
                           const sq_modspec_opts_t *opts, char *err, size_t errlen)
{
    sq_modspec_module_t m;
    int rc = load_any(&m, buf, len, display_name, opts, WANT_2, err, errlen);
    *out = m.m2;
    return rc;
}

int sq_modspec_load_buffer_odd(fdmod_t **out, const char *buf, size_t len,
                               const char *display_name, const sq_modspec_opts_t *opts, char *err,
                               size_t errlen)
{
    sq_modspec_module_t m;
    int rc = load_any(&m, buf, len, display_name, opts, WANT_ODD, err, errlen);
    *out = m.modd;
    return rc;
}

int sq_modspec_load_string(fdmod_t **out, const char *json, const char *display_name, char *err,
                           size_t errlen)
{
    return sq_modspec_load_buffer(out, json, json ? strlen(json) : 0, display_name, NULL, err,
                                  errlen);
}

int sq_modspec_buffer_prime(const char *buf, size_t len, const char *display_name, uint32_t *p,
                            char *err, size_t errlen)
{
    char dummy[1];
    spec_t S;
    spec_init(&S, buf, len, display_name, err, errlen, dummy);
    json_t *root = NULL;
    int rc = load_json(&S, &root);
    if (!rc)
        rc = read_prime(&S, root);
    *p = S.p ? S.p : 2;
    json_decref(root);
    return rc;
}

/* Reads at most SQ_MODSPEC_MAX_FILE bytes of path into *buf. */
static int read_file(const char *path, const char *display_raw, char **buf, size_t *len, char *err,
                     size_t errlen)
{
    char display[SQ_MODSPEC_NAME_CLIP + 8];
    sq_modspec_printable(display, sizeof display, display_raw, strlen(display_raw),
                         SQ_MODSPEC_NAME_CLIP);
    *buf = NULL;
    FILE *f = fopen(path, "rbe");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", display, strerror(errno));
        return SQ_E_IO;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = sq_malloc(cap);
    for (;;) {
        if (n == cap) {
            if (cap > SQ_MODSPEC_MAX_FILE)
                break;
            cap *= 2;
            b = sq_realloc(b, cap);
        }
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (bad || n > SQ_MODSPEC_MAX_FILE) {
        if (bad)
            snprintf(err, errlen, "%s: cannot read: %s", display, strerror(e));
        else
            snprintf(err, errlen, "%s: the file is larger than %d MiB", display,
                     SQ_MODSPEC_MAX_FILE >> 20);
        sq_free(b);
        return bad ? SQ_E_IO : SQ_E_RANGE;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* Reads path and loads it as load_any does. */
static int load_file_any(sq_modspec_module_t *out, const char *path, const char *display_name,
                         const sq_modspec_opts_t *opts, int want, char *err, size_t errlen)
{
    const char *display = display_name ? display_name : path;
    char *buf;
    size_t len;
    char dummy[1];
    memset(out, 0, sizeof *out);
    if (opts && opts->description && opts->description_len)
        opts->description[0] = '\0';
    int rc = read_file(path, display, &buf, &len, errlen ? err : dummy, errlen ? errlen : 1);
    if (rc)
        return rc;
    rc = load_any(out, buf, len, display, opts, want, err, errlen);
    sq_free(buf);
    return rc;
}

int sq_modspec_load_file(fdmod_t **out, const char *path, const char *display_name,
                         const sq_modspec_opts_t *opts, char *err, size_t errlen)
{
    sq_modspec_module_t m;
    int rc = load_file_any(&m, path, display_name, opts, WANT_2, err, errlen);
    *out = m.m2;
    return rc;
}

int sq_modspec_load_file_odd(fdmod_t **out, const char *path, const char *display_name,
                             const sq_modspec_opts_t *opts, char *err, size_t errlen)
{
    sq_modspec_module_t m;
    int rc = load_file_any(&m, path, display_name, opts, WANT_ODD, err, errlen);
    *out = m.modd;
    return rc;
}

int sq_modspec_load_module_file(sq_modspec_module_t *out, const char *path,
                                const char *display_name, const sq_modspec_opts_t *opts, char *err,
                                size_t errlen)
{
    return load_file_any(out, path, display_name, opts, WANT_ANY, err, errlen);
}

int sq_modspec_file_prime(const char *path, const char *display_name, uint32_t *p, char *err,
                          size_t errlen)
{
    const char *display = display_name ? display_name : path;
    char *buf;
    size_t len;
    char dummy[1];
    *p = 2;
    int rc = read_file(path, display, &buf, &len, errlen ? err : dummy, errlen ? errlen : 1);
    if (rc)
        return rc;
    rc = sq_modspec_buffer_prime(buf, len, display, p, err, errlen);
    sq_free(buf);
    return rc;
}
