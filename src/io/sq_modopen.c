/*
 * sq_modopen.c -- a module named as on the command line, found and loaded
 * (sq_modopen.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_modopen.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "fdmod_dual.h"
#include "fdmod_tensor.h"
#include "sq_core.h"
#include "sq_modname.h"

/* A name as messages show it: printable, clipped. */
typedef struct {
    char s[SQ_MODREF_NAME_CLIP + 8];
} shown_t;

static shown_t show(const char *s)
{
    shown_t b;
    sq_modspec_printable(b.s, sizeof b.s, s, strlen(s), SQ_MODREF_NAME_CLIP);
    return b;
}

/* A note to note(ctx) when there is one. */
static void say(sq_modref_note_fn note, void *ctx, const char *fmt, ...)
{
    if (!note)
        return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    note(ctx, buf);
}

/* 1 when spec as a whole names an existing module file: a '*' in it is
 * then part of the name, not a tensor product (docs/modules.md). */
static int names_file(const char *spec)
{
    char named[SQ_MODSPEC_PATH_MAX], base[SQ_MODSPEC_PATH_MAX], path[SQ_MODSPEC_PATH_MAX];
    char err[512];
    int adem;
    int32_t shift;
    if (sq_modname_split_basis(named, sizeof named, spec, &adem, err, sizeof err) ||
        sq_modspec_parse_name(base, sizeof base, named, &shift, NULL, 0) ||
        sq_modspec_resolve_name(path, sizeof path, base, NULL))
        return 0;
    return access(path, F_OK) == 0;
}

/* The last '*' of spec outside parentheses, or NULL. */
static const char *top_star(const char *spec)
{
    const char *star = NULL;
    int depth = 0;
    for (const char *c = spec; *c; c++) {
        depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        if (*c == '*' && depth == 0)
            star = c;
    }
    return star;
}

/* 1 when spec is "D(...)" with the parentheses matched (the inner name
 * nonempty). */
static int is_dual(const char *spec)
{
    size_t n = strlen(spec);
    if (n < 4 || strncmp(spec, "D(", 2) != 0 || spec[n - 1] != ')')
        return 0;
    int depth = 0;
    for (size_t i = 1; i < n; i++) {
        depth += spec[i] == '(' ? 1 : spec[i] == ')' ? -1 : 0;
        if (depth == 0 && i + 1 < n)
            return 0;
    }
    return depth == 0;
}

/* The module inside the dual ref: a copy of N of "D(N)" (sq_free it). */
static char *dual_inner(const sq_modref_t *ref)
{
    size_t n = strlen(ref->base);
    char *in = sq_malloc(n);
    memcpy(in, ref->base + 2, n - 3);
    in[n - 3] = '\0';
    return in;
}

/* The factors of the tensor product ref: copies of the names left and
 * right of its last '*' (sq_free both). */
static void split_factors(const sq_modref_t *ref, char **left, char **right)
{
    *left = sq_strdup(ref->base);
    (*left)[ref->tensor - 1] = '\0';
    *right = sq_strdup(ref->base + ref->tensor);
}

/* "M*N": checks the name and finds each factor now (their notes, their
 * errors). */
static int find_tensor(sq_modref_t *ref, const char *spec, sq_modref_note_fn note, void *ctx,
                       char *err, size_t errlen)
{
    int stars = 0;
    for (const char *c = spec; *c; c++)
        stars += *c == '*';
    const char *star = top_star(spec);
    size_t n = strlen(spec);
    if (stars >= SQ_MODREF_MAX_FACTORS || n >= sizeof ref->base || star == spec ||
        star[1] == '\0') {
        snprintf(err, errlen, "module '%s': %s", show(spec).s,
                 stars >= SQ_MODREF_MAX_FACTORS || n >= sizeof ref->base
                     ? "a tensor product M*N*... has at most 8 factors and a name that fits a "
                       "path"
                     : "a tensor product needs a module on each side of '*' (M*N)");
        return SQ_E_INVAL;
    }
    memcpy(ref->base, spec, n + 1);
    ref->tensor = (int32_t)(star - spec) + 1;
    char *side[2];
    split_factors(ref, &side[0], &side[1]);
    sq_modref_t *f = sq_malloc(sizeof *f);
    int rc = sq_modref_find(f, side[0], note, ctx, err, errlen);
    if (rc == 0)
        rc = sq_modref_find(f, side[1], note, ctx, err, errlen);
    sq_free(f);
    sq_free(side[0]);
    sq_free(side[1]);
    return rc;
}

/* "D(N)": checks the name and finds N now (its notes, its errors). */
static int find_dual(sq_modref_t *ref, const char *spec, sq_modref_note_fn note, void *ctx,
                     char *err, size_t errlen)
{
    size_t n = strlen(spec);
    int depth = 0, deepest = 0;
    for (const char *c = spec; *c; c++) {
        depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        deepest = depth > deepest ? depth : deepest;
    }
    if (n >= sizeof ref->base || deepest > SQ_MODREF_MAX_FACTORS) {
        snprintf(err, errlen, "module '%s': a dual D(N) has at most 8 nested parentheses and a "
                 "name that fits a path", show(spec).s);
        return SQ_E_INVAL;
    }
    memcpy(ref->base, spec, n + 1);
    ref->dual = 1;
    char *inner = dual_inner(ref);
    sq_modref_t *f = sq_malloc(sizeof *f);
    int rc = sq_modref_find(f, inner, note, ctx, err, errlen);
    sq_free(f);
    sq_free(inner);
    return rc;
}

int sq_modref_find(sq_modref_t *ref, const char *spec, sq_modref_note_fn note, void *ctx,
                   char *err, size_t errlen)
{
    char named[SQ_MODSPEC_PATH_MAX], shipped[SQ_MODSPEC_PATH_MAX], why[1024];
    memset(ref, 0, sizeof *ref);
    if (top_star(spec) && !names_file(spec))
        return find_tensor(ref, spec, note, ctx, err, errlen);
    if (is_dual(spec) && !names_file(spec))
        return find_dual(ref, spec, note, ctx, err, errlen);
    if (strncmp(spec, "D(", 2) == 0 && !names_file(spec)) { /* "D(N)[k]": the dual shifted */
        char *dual = sq_malloc(strlen(spec) + 1);
        int32_t shift = 0;
        int rc = 0, found = sq_modspec_split_shift(dual, strlen(spec) + 1, spec, &shift) == 0 &&
                            strcmp(dual, spec) != 0 && is_dual(dual);
        if (found) {
            rc = find_dual(ref, dual, note, ctx, err, errlen);
            ref->shift = shift;
        }
        sq_free(dual);
        if (found)
            return rc;
    }
    if (sq_modname_split_basis(named, sizeof named, spec, &ref->adem, why, sizeof why) ||
        sq_modspec_parse_name(ref->base, sizeof ref->base, named, &ref->shift, why, sizeof why)) {
        snprintf(err, errlen, "module '%s': %s", show(spec).s, why);
        return SQ_E_INVAL;
    }
    if (sq_modspec_resolve_name(ref->path, sizeof ref->path, ref->base, NULL) != 0) {
        if (strcmp(ref->base, "S_2") != 0) {
            snprintf(err, errlen,
                     "unknown module '%s' (no %s.json here nor among the shipped modules; see "
                     "'adams modules')",
                     show(ref->base).s, show(ref->base).s);
            return SQ_E_INVAL;
        }
        ref->builtin_sphere = 1;
        ref->path[0] = '\0';
    }
    /* ./NAME.json was found for a bare NAME that is also shipped. */
    if (note && !ref->builtin_sphere && strncmp(ref->path, "./", 2) == 0 &&
        sq_modspec_shipped_path(shipped, sizeof shipped, ref->base, NULL) == 0)
        say(note, ctx, "using %s, which shadows the shipped module %s", show(ref->path).s,
            show(ref->base).s);
    if (ref->adem)
        say(note, ctx, "@adem changes only the names of basis elements; adams works in the "
                       "Milnor basis, and no dimension depends on the basis");
    return 0;
}

int sq_modref_prime(const sq_modref_t *ref, uint32_t *p)
{
    char err[1024];
    *p = 2;
    if (ref->builtin_sphere)
        return 0;
    if (ref->dual) {
        char *inner = dual_inner(ref);
        sq_modref_t *f = sq_malloc(sizeof *f);
        if (sq_modref_find(f, inner, NULL, NULL, err, sizeof err) == 0)
            sq_modref_prime(f, p);
        sq_free(f);
        sq_free(inner);
        return 0;
    }
    if (ref->tensor) { /* the left factor's: a second prime is refused when it is built */
        char *side[2];
        split_factors(ref, &side[0], &side[1]);
        sq_modref_t *f = sq_malloc(sizeof *f);
        if (sq_modref_find(f, side[0], NULL, NULL, err, sizeof err) == 0)
            sq_modref_prime(f, p);
        sq_free(f);
        sq_free(side[0]);
        sq_free(side[1]);
        return 0;
    }
    /* A file whose "p" cannot be read is left to the p = 2 loader, whose
     * messages name the mistake (JSON syntax, duplicates, ...). */
    if (sq_modspec_file_prime(ref->path, ref->path, p, err, sizeof err) != 0)
        *p = 2;
    return 0;
}

/* Opens the factor named spec into *F, *fi. */
static int open_factor(fdmod_t **F, const char *spec, int32_t max_degree, sq_modspec_info_t *fi,
                       FILE *warn, char *err, size_t errlen)
{
    sq_modref_t *f = sq_malloc(sizeof *f);
    *F = NULL;
    int rc = sq_modref_find(f, spec, NULL, NULL, err, errlen);
    if (rc == 0)
        rc = sq_modref_open(F, f, max_degree, fi, warn, err, errlen);
    sq_free(f);
    return rc;
}

/* A factor is the cofiber of a class: refused. */
static int refuse_cofiber(const sq_modref_t *ref, const char *side, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "module '%s': the factor %s is the cofiber of a class, whose module adams does not "
             "build (its Ext comes from two resolutions); a tensor product needs two modules",
             show(ref->base).s, show(side).s);
    return SQ_E_INVAL;
}

/* The product of the two factors of ref (sq_modref_open). */
static int open_tensor(fdmod_t **P, const sq_modref_t *ref, int32_t max_degree,
                       sq_modspec_info_t *info, FILE *warn, char *err, size_t errlen)
{
    char *side[2], why[1024];
    fdmod_t *F[2] = {NULL, NULL};
    sq_modspec_info_t fi[2];
    split_factors(ref, &side[0], &side[1]);
    int rc = open_factor(&F[0], side[0], max_degree, &fi[0], warn, err, errlen);
    if (rc == 0)
        rc = open_factor(&F[1], side[1], max_degree, &fi[1], warn, err, errlen);
    for (int s = 0; s < 2 && rc == 0; s++)
        if (fi[s].cofiber)
            rc = refuse_cofiber(ref, side[s], err, errlen);
    /* A factor truncated above degree D tensor one with bottom b is exact
     * through degree D + b: a negative b needs D = max_degree - b. */
    for (int s = 0; s < 2 && rc == 0; s++)
        if (fi[s].infinite && fi[1 - s].bottom < 0) {
            int64_t d = (int64_t)max_degree - fi[1 - s].bottom;
            fdmod_free(F[s]);
            rc = open_factor(&F[s], side[s],
                             d > SQ_MODSPEC_MAX_DEGREE ? SQ_MODSPEC_MAX_DEGREE : (int32_t)d,
                             &fi[s], NULL, err, errlen);
        }
    int inf = rc == 0 && (fi[0].infinite || fi[1].infinite);
    if (rc == 0 &&
        (rc = fdmod_tensor(P, F[0], F[1], NULL, inf ? max_degree : INT32_MAX, 0, why,
                           sizeof why)) != 0)
        snprintf(err, errlen, "module '%s': %s", show(ref->base).s, show(why).s);
    if (rc == 0) {
        memset(info, 0, sizeof *info);
        info->kind = SQ_MODSPEC_FINITE;
        info->infinite = inf;
        info->bottom = fdmod_bottom(*P);
        info->span = inf ? fi[0].span + fi[1].span : fdmod_top(*P) - fdmod_bottom(*P);
    }
    fdmod_free(F[0]);
    fdmod_free(F[1]);
    sq_free(side[0]);
    sq_free(side[1]);
    return rc;
}

/* The dual of ref's module (sq_modref_open): the whole module, which must
 * be finite. */
static int open_dual(fdmod_t **D, const sq_modref_t *ref, int32_t max_degree,
                     sq_modspec_info_t *info, FILE *warn, char *err, size_t errlen)
{
    char *inner = dual_inner(ref), why[1024];
    fdmod_t *N = NULL;
    sq_modspec_info_t fi;
    /* A finite module is read whole at any max_degree; an infinite one is
     * refused, so a small one keeps its truncation cheap. */
    (void)max_degree;
    int rc = open_factor(&N, inner, 64, &fi, warn, err, errlen);
    if (rc == 0 && (fi.cofiber || fi.infinite)) {
        snprintf(err, errlen,
                 "module '%s': %s is %s; adams dualizes finite modules only",
                 show(ref->base).s, show(inner).s,
                 fi.cofiber ? "the cofiber of a class, whose module adams does not build"
                            : "infinite (its dual is not bounded below)");
        rc = SQ_E_INVAL;
    }
    if (rc == 0 && (rc = fdmod_dual(D, N, NULL, why, sizeof why)) != 0)
        snprintf(err, errlen, "module '%s': %s", show(ref->base).s, show(why).s);
    if (rc == 0 && ref->shift != 0) { /* "D(N)[k]" */
        size_t n = strlen(fdmod_name(*D)) + 16;
        char *name = sq_malloc(n);
        snprintf(name, n, "%s[%d]", fdmod_name(*D), (int)ref->shift);
        fdmod_t *shifted = fdmod_new_shifted(*D, ref->shift, name);
        sq_free(name);
        fdmod_free(*D);
        *D = shifted;
    }
    if (rc == 0) {
        memset(info, 0, sizeof *info);
        info->kind = SQ_MODSPEC_FINITE;
        info->bottom = fdmod_bottom(*D);
        info->span = fdmod_top(*D) - fdmod_bottom(*D);
    }
    fdmod_free(N);
    sq_free(inner);
    return rc;
}

int sq_modref_open(fdmod_t **M, const sq_modref_t *ref, int32_t max_degree,
                   sq_modspec_info_t *info, FILE *warn, char *err, size_t errlen)
{
    *M = NULL;
    if (ref->tensor)
        return open_tensor(M, ref, max_degree, info, warn, err, errlen);
    if (ref->dual)
        return open_dual(M, ref, max_degree, info, warn, err, errlen);
    static const char sphere[] = "{\"p\": 2, \"gens\": {\"x0\": 0}, \"actions\": []}";
    char why[1024];
    sq_modspec_opts_t mo = {.warn = warn,
                            .have_max_degree = 1,
                            .max_degree = max_degree,
                            .info = info,
                            .shift = ref->shift};
    sq_modspec_module_t m;
    int rc = ref->builtin_sphere
                 ? sq_modspec_load_module(&m, sphere, sizeof sphere - 1, "S_2", &mo, why,
                                          sizeof why)
                 : sq_modspec_load_module_file(&m, ref->path, ref->path, &mo, why, sizeof why);
    if (rc) {
        snprintf(err, errlen, "%s", why);
        return rc < 0 ? rc : SQ_E_INVAL;
    }
    *M = m.p == 2 ? m.m2 : m.modd;
    return 0;
}
