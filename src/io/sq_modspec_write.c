/*
 * sq_modspec_write.c -- a finite module written as a module file
 * (sq_modspec_write.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_modspec_write.h"

#include <stdlib.h>
#include <string.h>

#include "fdmod_tensor.h"
#include "sq_core.h"
#include "stalg.h"

/* s as a JSON string: quotes, backslashes and control characters as \u
 * escapes, the rest (UTF-8 included) as it is. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == '"' || ch == '\\')
            fprintf(f, "\\u%04x", (unsigned)ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* name as the reader accepts it (a new string, sq_free): white space, '+'
 * and '=' become '_', and a leading digit gets an 'x' before it (the basis
 * of a finitely presented module is named "Sq(4) x0"). */
static char *clean_name(const char *name)
{
    size_t n = strlen(name);
    char *c = sq_malloc(n + 3);
    size_t k = 0;
    if (n == 0 || (name[0] >= '0' && name[0] <= '9'))
        c[k++] = 'x';
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        c[k++] = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' ||
                         ch == '\f' || ch == '+' || ch == '='
                     ? '_'
                     : ch;
    }
    c[k] = '\0';
    return c;
}

static void put_profile(FILE *f, const fdmod_t *M)
{
    if (fdmod_prime(M) == 2) {
        int32_t h[MILNOR_MAX_LEN];
        int len = fdmod_profile(M, h), truncated = 1;
        /* Unbounded entries (30) to the end: an untruncated profile. */
        if (len == MILNOR_MAX_LEN && h[len - 1] == FDMOD_MAX_PROFILE_ENTRY) {
            truncated = 0;
            while (len > 0 && h[len - 1] == FDMOD_MAX_PROFILE_ENTRY)
                len--;
        }
        if (len == 0)
            return;
        fprintf(f, "    \"profile\": { \"truncated\": %s, \"p_part\": [",
                truncated ? "true" : "false");
        for (int i = 0; i < len; i++)
            fprintf(f, i ? ", %d" : "%d", (int)h[i]);
        fputs("] },\n", f);
        return;
    }
    const pmilnor_profile_t *pp = fdmod_pprofile(M);
    if (pmilnor_profile_is_full(pp))
        return;
    fprintf(f, "    \"profile\": { \"truncated\": %s, \"q_part\": %lu, \"p_part\": [",
            pp->truncated ? "true" : "false", (unsigned long)pp->q_part);
    for (int i = 0; i < pp->len; i++)
        fprintf(f, i ? ", %d" : "%d", (int)pp->p_part[i]);
    fputs("] },\n", f);
}

static void put_gens(FILE *f, const fdmod_t *M)
{
    fputs("    \"gens\": {", f);
    int first = 1;
    for (int32_t d = fdmod_bottom(M); d <= fdmod_top(M); d++)
        for (int64_t k = 0; k < fdmod_dim(M, d); k++) {
            fputs(first ? "\n        " : ",\n        ", f);
            char *c = clean_name(fdmod_basis_name(M, d, k));
            put_string(f, c);
            sq_free(c);
            fprintf(f, ": %d", (int)d);
            first = 0;
        }
    fputs(first ? "},\n" : "\n    },\n", f);
}

/* "OP x = c y + ..." for every nonzero action of the generator (gdeg, gidx).
 * Returns 0, or SQ_E_NOMEM when a line could not be built. */
static int put_actions_of(FILE *f, const fdmod_t *M, int32_t gdeg, int64_t gidx, int *first)
{
    char op[32] = "b"; /* the generator as the reader's alphabet writes it */
    uint32_t p = fdmod_prime(M);
    if (p == 2 || gdeg != 1)
        snprintf(op, sizeof op, "%s%d", p == 2 ? "Sq" : "P",
                 (int)(p == 2 ? gdeg : gdeg / (2 * ((int32_t)p - 1))));
    for (int32_t d = fdmod_bottom(M); d + gdeg <= fdmod_top(M); d++)
        for (int64_t k = 0; k < fdmod_dim(M, d); k++) {
            fvec_t v = fdmod_actionf(M, gdeg, gidx, d, k);
            if (!v.len || fvec_is_zero(v))
                continue;
            /* The names go through put_string, so they are escaped as JSON. */
            size_t len = 0;
            char *line = NULL;
            FILE *m = open_memstream(&line, &len);
            if (!m)
                return SQ_E_NOMEM;
            char *nm = clean_name(fdmod_basis_name(M, d, k));
            fprintf(m, "%s %s =", op, nm);
            sq_free(nm);
            int t = 0;
            for (int64_t j = 0; j < v.len; j++) {
                uint32_t c = fvec_get(v, j);
                if (!c)
                    continue;
                fputs(t++ ? " + " : " ", m);
                if (c != 1)
                    fprintf(m, "%u ", (unsigned)c);
                nm = clean_name(fdmod_basis_name(M, d + gdeg, j));
                fputs(nm, m);
                sq_free(nm);
            }
            if (fclose(m) != 0) {
                free(line);
                return SQ_E_NOMEM;
            }
            fputs(*first ? "\n        " : ",\n        ", f);
            put_string(f, line);
            free(line);
            *first = 0;
        }
    return 0;
}

int sq_modspec_write(FILE *f, const fdmod_t *M, const char *description)
{
    int32_t span = fdmod_top(M) - fdmod_bottom(M);
    fprintf(f, "{\n    \"p\": %u,\n    \"type\": \"finite dimensional module\",\n",
            (unsigned)fdmod_prime(M));
    if (description) {
        fputs("    \"description\": ", f);
        put_string(f, description);
        fputs(",\n", f);
    }
    put_profile(f, M);
    put_gens(f, M);
    fputs("    \"actions\": [", f);
    int first = 1, rc = 0;
    if (span > 0) {
        stalg_t *S = fdmod_new_algebra(M, span);
        int32_t gd[32];
        int64_t gi[32];
        int ng = stalg_gens(S, span, gd, gi, 32);
        for (int g = 0; g < ng && g < 32 && !rc; g++)
            rc = put_actions_of(f, M, gd[g], gi[g], &first);
        stalg_free(S);
    }
    fputs(first ? "]\n}\n" : "\n    ]\n}\n", f);
    return rc ? rc : ferror(f) ? SQ_E_IO : 0;
}

char *sq_modspec_write_text(const fdmod_t *M, const char *description)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    int rc = sq_modspec_write(m, M, description);
    if (fclose(m) != 0 || rc) {
        free(buf);
        return NULL;
    }
    return buf;
}
