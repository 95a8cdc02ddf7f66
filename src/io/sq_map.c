/*
 * sq_map.c -- map files (sq_map.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_map.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sq_modspec.h"

#define MAP_MAX_FILE SQ_MAP_MAX_FILE
#define MAP_MAX_DEGREE 1000000

struct sq_mapfile {
    char *path;   /* as given, for messages */
    char *text;   /* the file, for line numbers */
    json_t *root; /* the parsed object */
    const char *source, *target;
    int32_t degree;
};

/* The line (1-based) of the first occurrence of "key" as a quoted string
 * at or after the quoted string after (NULL: the start), 0 when not found. */
static int line_of(const sq_mapfile_t *mf, const char *after, const char *key)
{
    char q[160];
    const char *from = mf->text;
    if (after) {
        snprintf(q, sizeof q, "\"%s\"", after);
        const char *a = strstr(mf->text, q);
        if (a)
            from = a;
    }
    snprintf(q, sizeof q, "\"%s\"", key);
    const char *k = strstr(from, q);
    if (!k)
        return 0;
    int line = 1;
    for (const char *c = mf->text; c < k; c++)
        line += *c == '\n';
    return line;
}

/* err = "FILE: line L: FIELD: message" (no line when not found). */
static int fail(const sq_mapfile_t *mf, char *err, size_t n, const char *after, const char *field,
                const char *msg, int rc)
{
    int line = line_of(mf, after, field);
    char where[32] = "";
    if (line)
        snprintf(where, sizeof where, "line %d: ", line);
    snprintf(err, n, "%s: %s\"%s\": %s", mf->path, where, field, msg);
    return rc;
}

static char *slurp(const char *path, char *err, size_t n, int *rc)
{
    struct stat st;
    FILE *f = fopen(path, "rbe");
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(err, n, "%s: cannot read the map file", path);
        if (f)
            fclose(f);
        *rc = SQ_E_IO;
        return NULL;
    }
    if (st.st_size > MAP_MAX_FILE) {
        snprintf(err, n, "%s: the map file is larger than 1 MiB", path);
        fclose(f);
        *rc = SQ_E_RANGE;
        return NULL;
    }
    size_t len = (size_t)st.st_size;
    char *b = sq_malloc(len + 1);
    size_t got = fread(b, 1, len, f);
    fclose(f);
    b[got] = 0;
    if (got != len || strlen(b) != len) {
        snprintf(err, n, "%s: cannot read the map file (short read or a NUL byte)", path);
        sq_free(b);
        *rc = SQ_E_IO;
        return NULL;
    }
    return b;
}

static const char *const map_keys[] = {"source", "target", "degree", "images", NULL};
/* Keys a map file may have besides those: free text. */
static const char *const map_optional[] = {"description", NULL};

/* The top level's fields, checked. */
static int read_fields(sq_mapfile_t *mf, char *err, size_t n)
{
    const char *key;
    json_t *v;
    json_object_foreach(mf->root, key, v)
    {
        int known = 0;
        for (int i = 0; map_keys[i]; i++)
            known |= strcmp(key, map_keys[i]) == 0;
        for (int i = 0; map_optional[i]; i++)
            known |= strcmp(key, map_optional[i]) == 0 && json_is_string(v);
        if (!known)
            return fail(mf, err, n, NULL, key,
                        "unknown key or not a string (a map file has source, target, degree, "
                        "images and a description)",
                        SQ_E_INVAL);
    }
    for (int i = 0; map_keys[i]; i++)
        if (!json_object_get(mf->root, map_keys[i])) {
            snprintf(err, n, "%s: the key \"%s\" is missing", mf->path, map_keys[i]);
            return SQ_E_INVAL;
        }
    json_t *s = json_object_get(mf->root, "source"), *t = json_object_get(mf->root, "target");
    json_t *d = json_object_get(mf->root, "degree"), *im = json_object_get(mf->root, "images");
    if (!json_is_string(s) || !json_string_length(s))
        return fail(mf, err, n, NULL, "source", "must be a module name (a string)", SQ_E_INVAL);
    if (!json_is_string(t) || !json_string_length(t))
        return fail(mf, err, n, NULL, "target", "must be a module name (a string)", SQ_E_INVAL);
    if (!json_is_integer(d))
        return fail(mf, err, n, NULL, "degree", "must be an integer", SQ_E_INVAL);
    if (json_integer_value(d) > MAP_MAX_DEGREE || json_integer_value(d) < -MAP_MAX_DEGREE)
        return fail(mf, err, n, NULL, "degree", "must be within -1000000 .. 1000000",
                    SQ_E_RANGE);
    if (!json_is_object(im))
        return fail(mf, err, n, NULL, "images",
                    "must be an object {\"x0\": \"y1 + y2\", ...}", SQ_E_INVAL);
    json_object_foreach(im, key, v)
    {
        if (!json_is_string(v))
            return fail(mf, err, n, "images", key, "the image must be a string", SQ_E_INVAL);
    }
    mf->source = json_string_value(s);
    mf->target = json_string_value(t);
    mf->degree = (int32_t)json_integer_value(d);
    return 0;
}

int sq_mapfile_read(sq_mapfile_t **out, const char *path, char *err, size_t errlen)
{
    *out = NULL;
    int rc = 0;
    char *text = slurp(path, err, errlen, &rc);
    if (!text)
        return rc;
    sq_mapfile_t *mf = sq_calloc(1, sizeof *mf);
    mf->path = sq_malloc(strlen(path) + 1);
    memcpy(mf->path, path, strlen(path) + 1);
    mf->text = text;
    json_error_t e;
    mf->root = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    if (!mf->root) {
        snprintf(err, errlen, "%s: line %d: JSON syntax: %s", path, e.line, e.text);
        rc = SQ_E_PARSE;
    } else if (!json_is_object(mf->root)) {
        snprintf(err, errlen, "%s: the top level must be an object {\"source\": ...}", path);
        rc = SQ_E_INVAL;
    } else
        rc = read_fields(mf, err, errlen);
    if (rc) {
        sq_mapfile_free(mf);
        return rc;
    }
    *out = mf;
    return 0;
}

void sq_mapfile_free(sq_mapfile_t *mf)
{
    if (!mf)
        return;
    json_decref(mf->root);
    sq_free(mf->text);
    sq_free(mf->path);
    sq_free(mf);
}

void sq_mapfile_header(const sq_mapfile_t *mf, const char **source, const char **target,
                       int32_t *degree)
{
    *source = mf->source;
    *target = mf->target;
    *degree = mf->degree;
}

/* ---- Images ----------------------------------------------------------------- */

/* One term of an image, s[0..len) trimmed: "0", "NAME", "COEFF NAME",
 * added (negated when neg) to img over tgt_deg.  Returns 0 or -1 with the
 * reason in why. */
static int add_term(const fdmod_t *tgt, int32_t deg, const char *s, size_t len, int neg, fvec_t img,
                    char *why, size_t n)
{
    uint32_t p = fdmod_prime(tgt);
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (len && (*s == '-' || *s == '+')) {
        neg ^= *s == '-';
        s++, len--;
        while (len && isspace((unsigned char)*s))
            s++, len--;
    }
    uint32_t coef = 1;
    size_t i = 0;
    if (len && isdigit((unsigned char)*s)) {
        coef = 0;
        while (i < len && isdigit((unsigned char)s[i]))
            coef = (coef * 10 + (uint32_t)(s[i++] - '0')) % p;
        if (i == len) {
            if (coef == 0)
                return 0; /* "0" */
            snprintf(why, n, "a number without a basis element");
            return -1;
        }
        while (i < len && isspace((unsigned char)s[i]))
            i++;
    }
    char name[128];
    if (len - i == 0 || len - i >= sizeof name) {
        snprintf(why, n, "an empty term or a name longer than 127 characters");
        return -1;
    }
    memcpy(name, s + i, len - i);
    name[len - i] = 0;
    int32_t d;
    int64_t idx;
    if (fdmod_find(tgt, name, &d, &idx) != 0) {
        snprintf(why, n, "'%s' is not a basis element of the target", name);
        return -1;
    }
    if (d != deg) {
        snprintf(why, n, "'%s' is in degree %d of the target, not %d", name, (int)d, (int)deg);
        return -1;
    }
    fvec_add_entry(img, idx, neg ? (p - coef) % p : coef);
    return 0;
}

/* Parses the image text into img (over tgt_deg, zeroed). */
static int parse_image(const fdmod_t *tgt, int32_t deg, const char *text, fvec_t img, char *why,
                       size_t n)
{
    const char *q = text;
    int neg = 0;
    for (;;) {
        const char *e = q;
        while (*e && *e != '+' && !(*e == '-' && e > q && isspace((unsigned char)e[-1])))
            e++;
        if (add_term(tgt, deg, q, (size_t)(e - q), neg, img, why, n) != 0)
            return -1;
        if (!*e)
            return 0;
        neg = *e == '-';
        q = e + 1;
    }
}

int sq_mapfile_build(const sq_mapfile_t *mf, const fdmod_t *src, const fdmod_t *tgt,
                     const stalg_t *S, fdmap_t **out, char *err, size_t errlen)
{
    *out = NULL;
    uint32_t p = fdmod_prime(src);
    if (p != fdmod_prime(tgt)) {
        snprintf(err, errlen, "%s: the source %s is at p = %u and the target %s at p = %u",
                 mf->path, mf->source, (unsigned)p, mf->target, (unsigned)fdmod_prime(tgt));
        return SQ_E_INVAL;
    }
    json_t *im = json_object_get(mf->root, "images");
    const char *key;
    json_t *v;
    json_object_foreach(im, key, v)
    {
        int32_t d;
        int64_t idx;
        if (fdmod_find(src, key, &d, &idx) != 0)
            return fail(mf, err, errlen, "images", key,
                        "not a basis element of the source module", SQ_E_INVAL);
    }
    fdmap_t *f = fdmap_new(src, tgt, mf->degree);
    int rc = 0;
    char why[200];
    for (int32_t d = fdmod_min_degree(src); d <= fdmod_max_degree(src) && !rc; d++)
        for (int64_t i = 0; i < fdmod_dim(src, d) && !rc; i++) {
            const char *x = fdmod_basis_name(src, d, i);
            json_t *t = json_object_get(im, x);
            if (!t) {
                snprintf(why, sizeof why, "no image of %s (every basis element of the source "
                         "needs one; write \"0\" for zero)", x);
                rc = fail(mf, err, errlen, NULL, "images", why, SQ_E_INVAL);
                break;
            }
            fvec_t img;
            int64_t dim = fdmod_dim(tgt, d + mf->degree);
            fvec_init(&img, dim > 0 ? dim : 1, p);
            if (parse_image(tgt, d + mf->degree, json_string_value(t), img, why, sizeof why))
                rc = fail(mf, err, errlen, "images", x, why, SQ_E_INVAL);
            else
                fdmap_set(f, d, i, img);
            fvec_clear(&img);
        }
    if (!rc && fdmap_check_linear(f, S, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", mf->path, why);
        rc = SQ_E_INVAL;
    }
    if (rc) {
        fdmap_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

/* ---- Writing ------------------------------------------------------------------- */

/* The image f(x) of basis element j of src_e as the reader parses it:
 * "0", or terms "NAME" / "COEFF NAME" joined by " + " (a new string). */
static char *image_text(const fdmap_t *f, int32_t e, int64_t j)
{
    const fdmod_t *src, *tgt;
    int32_t d;
    fdmap_ends(f, &src, &tgt, &d);
    uint32_t p = fdmod_prime(src);
    int64_t nt = fdmod_dim(tgt, e + d);
    fvec_t u, img;
    fvec_init(&u, fdmod_dim(src, e), p);
    fvec_init(&img, nt, p);
    fvec_set(u, j, 1);
    fdmap_apply_add(f, e, u, 1, img);
    size_t cap = 16, len = 0;
    char *s = sq_malloc(cap);
    s[0] = '\0';
    for (int64_t k = 0; k < nt; k++) {
        uint32_t c = fvec_get(img, k);
        if (!c)
            continue;
        const char *name = fdmod_basis_name(tgt, e + d, k);
        size_t need = len + strlen(name) + 16;
        if (need > cap) {
            cap = 2 * need;
            s = sq_realloc(s, cap);
        }
        len += (size_t)snprintf(s + len, cap - len, "%s", len ? " + " : "");
        if (c != 1)
            len += (size_t)snprintf(s + len, cap - len, "%u ", (unsigned)c);
        len += (size_t)snprintf(s + len, cap - len, "%s", name);
    }
    if (len == 0)
        snprintf(s, cap, "0");
    fvec_clear(&u);
    fvec_clear(&img);
    return s;
}

char *sq_map_write_text(const fdmap_t *f, const char *source, const char *target,
                        const char *description)
{
    const fdmod_t *src, *tgt;
    int32_t d;
    fdmap_ends(f, &src, &tgt, &d);
    json_t *root = json_object(), *images = json_object();
    int bad = 0; /* a string that is not UTF-8 (json_string refuses it) */
    if (description)
        bad |= json_object_set_new(root, "description", json_string(description));
    bad |= json_object_set_new(root, "source", json_string(source));
    bad |= json_object_set_new(root, "target", json_string(target));
    bad |= json_object_set_new(root, "degree", json_integer(d));
    for (int32_t e = fdmod_bottom(src); e <= fdmod_top(src); e++)
        for (int64_t j = 0; j < fdmod_dim(src, e); j++) {
            char *img = image_text(f, e, j);
            bad |= json_object_set_new(images, fdmod_basis_name(src, e, j), json_string(img));
            sq_free(img);
        }
    json_object_set_new(root, "images", images);
    char *text = bad ? NULL : json_dumps(root, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *out = sq_malloc(n + 2);
    memcpy(out, text, n);
    out[n] = '\n';
    out[n + 1] = '\0';
    free(text);
    return out;
}
