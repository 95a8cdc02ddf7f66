/*
 * cli_class.c -- a class N,S,V given on the command line (cli_class.h).
 */
#include "cli_class.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_opts.h"

void cli_class_clear(cli_class_t *c)
{
    fvec_clear(&c->vec);
}

/* Largest coefficient the syntax takes (the largest prime below 256, less
 * one); cli_class_vector checks the entries against the module's prime. */
#define CLS_MAX_ENTRY 250

/* Reads the entries "v0, v1, ...]" at p (each 0..CLS_MAX_ENTRY) into vec
 * when it is not NULL (vec->len entries); returns their number, or -1 when
 * they are malformed.  *maxv: the largest entry; *endp: the ']'. */
static int64_t scan_entries(const char *p, fvec_t *vec, long *maxv, const char **endp)
{
    int64_t len = 0;
    char *end;
    *maxv = 0;
    while (*p && *p != ']') {
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > CLS_MAX_ENTRY || len >= ((int64_t)1 << 40))
            return -1;
        if (vec && len < vec->len)
            fvec_set(*vec, len, (uint32_t)v);
        if (v > *maxv)
            *maxv = v;
        len++;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
    }
    *endp = p;
    return len;
}

/* Parses "N,S,[v0,...]" or "N,S,I"; returns 0 or -1 after an error. */
int cli_class_parse(const char *opt, const char *text, cli_class_t *c)
{
    memset(c, 0, sizeof *c);
    c->text = text;
    char *end;
    long n = strtol(text, &end, 10);
    if (end == text || *end != ',')
        goto bad;
    const char *p = end + 1;
    long s = strtol(p, &end, 10);
    if (end == p || *end != ',' || s < 0 || s > CLI_MAXS_LIMIT || n < -CLI_STEM_LIMIT ||
        n > CLI_STEM_LIMIT)
        goto bad;
    c->n = (int32_t)n;
    c->s = (int32_t)s;
    p = end + 1;
    if (*p == '[') {
        long maxv;
        c->have_vec = 1;
        c->entries = ++p;
        c->len = scan_entries(c->entries, NULL, &maxv, &p);
        if (c->len <= 0 || *p != ']' || p[1] != '\0')
            goto bad;
        return 0;
    }
    long idx = strtol(p, &end, 10);
    if (end == p || *end != '\0' || idx < 0)
        goto bad;
    c->idx = idx;
    return 0;
bad:
    cli_error("%s: expected N,S,[v0,v1,...] or N,S,I (stem, filtration, a vector of "
              "coefficients 0..p-1 or a class index), got '%s'",
              opt, text);
    return -1;
}

int cli_class_vector(const char *opt, cli_class_t *c, int64_t dim, uint32_t p, const char *space,
                     const char *what)
{
    if (!c->have_vec) {
        if (c->idx >= dim) {
            cli_error("%s: x_(%d, %d, %lld) does not exist: %s at (%d, %d) has dimension "
                      "%lld",
                      opt, (int)c->n, (int)c->s, (long long)c->idx, space, (int)c->n, (int)c->s,
                      (long long)dim);
            return -1;
        }
        fvec_init(&c->vec, dim, p);
        fvec_set(c->vec, c->idx, 1);
        c->len = dim;
        return 0;
    }
    if (c->len != dim) {
        cli_error("%s: the vector has %lld entries but %s at (%d, %d) has dimension %lld",
                  opt, (long long)c->len, space, (int)c->n, (int)c->s, (long long)dim);
        return -1;
    }
    const char *end;
    long maxv;
    fvec_init(&c->vec, dim, p);
    (void)scan_entries(c->entries, &c->vec, &maxv, &end);
    if (maxv >= (long)p) {
        cli_error("%s: the vector has the entry %ld, but the coefficients of %s are 0..%u (mod %u)",
                  opt, maxv, what, (unsigned)(p - 1), (unsigned)p);
        return -1;
    }
    return 0;
}

