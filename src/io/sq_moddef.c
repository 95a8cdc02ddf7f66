/*
 * sq_moddef.c -- definition texts of modules truncated from infinite ones
 * (sq_moddef.h).
 */
#include "sq_moddef.h"

#include <stdio.h>
#include <string.h>

#include "sq_core.h"
#include "sq_modspec.h"

static const char head[] = "adams module definition; shift ";

char *sq_moddef_text(const char *path, int32_t shift)
{
    FILE *f = fopen(path, "rbe");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = sq_malloc(cap);
    n = (size_t)snprintf(b, cap, "%s%d\n", head, (int)shift);
    for (;;) {
        if (n + 1024 > cap) {
            cap *= 2;
            b = sq_realloc(b, cap);
        }
        size_t k = fread(b + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    b[n] = '\0';
    if (bad) {
        sq_free(b);
        return NULL;
    }
    return b;
}

int sq_moddef_is(const char *text)
{
    return strncmp(text, head, sizeof head - 1) == 0;
}

int sq_moddef_load(fdmod_t **out, const char *text, const char *name, int32_t max_n, char *err,
                   size_t errlen)
{
    int shift = 0, used = 0;
    *out = NULL;
    if (!sq_moddef_is(text) || sscanf(text + sizeof head - 1, "%d%n", &shift, &used) != 1 ||
        text[sizeof head - 1 + (size_t)used] != '\n') {
        snprintf(err, errlen, "its module definition has no valid shift line");
        return SQ_E_PARSE;
    }
    const char *json = text + sizeof head - 1 + (size_t)used + 1;
    int64_t top = (int64_t)max_n + 2; /* as adams resolve truncates (stems <= max_n) */
    sq_modspec_opts_t mo = {.have_max_degree = 1,
                            .max_degree = top > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE
                                                                      : (int32_t)top,
                            .shift = shift};
    return sq_modspec_load_buffer(out, json, strlen(json), name, &mo, err, errlen);
}
