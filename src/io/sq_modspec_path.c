/*
 * sq_modspec_path.c -- module names on the command line: the shift suffix
 * "NAME[k]", the search path for NAME.json, and the list of shipped
 * modules (see sq_modspec.h for the order of the search).
 *
 * The shipped directory is found relative to the running executable
 * (/proc/self/exe), so an installed adams finds <prefix>/share/adams/modules
 * and one in a build folder inside the sources finds <sources>/modules,
 * wherever either was moved; the two directories CMake compiles in are the
 * fallbacks.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sq_modspec.h"

#ifndef ADAMS_MODULE_DIR
#define ADAMS_MODULE_DIR ""
#endif
#ifndef ADAMS_MODULE_INSTALL_DIR
#define ADAMS_MODULE_INSTALL_DIR ""
#endif

#define PATH_CAP SQ_MODSPEC_PATH_MAX
#define NUM_DIRS 5

/* The shift suffix is looked for in the last component of the name only
 * (brackets in a directory name are part of the path).  There it must be
 * the whole of "[k]" at the very end, or absent: a '[' or ']' anywhere else
 * is an error rather than part of a name, so a typo such as "C2[1" or
 * "C2[1]x" is reported instead of being looked up as a module. */
int sq_modspec_parse_name(char *base, size_t n, const char *spec, int32_t *shift, char *err,
                          size_t errlen)
{
    char dummy[1];
    if (!errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = '\0';
    size_t len = strlen(spec);
    *shift = 0;
    const char *last = strrchr(spec, '/');
    last = last ? last + 1 : spec;
    const char *open = strchr(last, '['), *close = strchr(last, ']');
    if (open && (strchr(open + 1, '[') || (close && strchr(close + 1, ']')))) {
        snprintf(err, errlen, "more than one '[' or ']' (expected NAME[k], k an integer)");
        return SQ_E_PARSE;
    }
    if (open && !close) {
        snprintf(err, errlen, "unclosed '[' in the shift (expected NAME[k], k an integer)");
        return SQ_E_PARSE;
    }
    if (close && (!open || close < open)) {
        snprintf(err, errlen, "']' without '[' (expected NAME[k], k an integer)");
        return SQ_E_PARSE;
    }
    if (close && close != spec + len - 1) {
        snprintf(err, errlen, "text after the shift '[...]' (expected NAME[k], the shift last)");
        return SQ_E_PARSE;
    }
    size_t blen = open ? (size_t)(open - spec) : len;
    if (blen == 0) {
        snprintf(err, errlen, "no module name before the shift (expected NAME[k])");
        return SQ_E_INVAL;
    }
    if (blen >= n) {
        snprintf(err, errlen, "the name is longer than %zu bytes", n ? n - 1 : 0);
        return SQ_E_INVAL;
    }
    if (open) {
        const char *p = open + 1;
        int neg = *p == '-';
        p += *p == '-' || *p == '+';
        long long k = 0;
        if (p == close) {
            snprintf(err, errlen, "expected NAME, PATH, NAME[k] or PATH[k] (k an integer)");
            return SQ_E_PARSE;
        }
        for (; p < close; p++) {
            if (*p < '0' || *p > '9') {
                snprintf(err, errlen, "expected NAME, PATH, NAME[k] or PATH[k] (k an integer)");
                return SQ_E_PARSE;
            }
            if (k <= SQ_MODSPEC_MAX_DEGREE)
                k = k * 10 + (*p - '0');
        }
        if (k > SQ_MODSPEC_MAX_DEGREE) {
            snprintf(err, errlen, "the shift in [...] is out of range (|k| <= %d)",
                     SQ_MODSPEC_MAX_DEGREE);
            return SQ_E_RANGE;
        }
        *shift = (int32_t)(neg ? -k : k);
    }
    memcpy(base, spec, blen);
    base[blen] = '\0';
    return 0;
}

int sq_modspec_split_shift(char *base, size_t n, const char *spec, int32_t *shift)
{
    return sq_modspec_parse_name(base, n, spec, shift, NULL, 0);
}

size_t sq_modspec_printable(char *buf, size_t n, const char *s, size_t len, size_t max)
{
    if (n == 0)
        return 0;
    size_t k = 0, i = 0;
    for (; i < len && i < max && k + 1 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        /* C1 controls U+0080..U+009F arrive as 0xC2 0x80..0x9F (a terminal
         * may take 0x9B as CSI): both bytes become one '?'. */
        if (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
            (unsigned char)s[i + 1] <= 0x9F) {
            buf[k++] = '?';
            i++;
        } else {
            buf[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
        }
    }
    if (i < len && k + 4 <= n) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return k;
}

/* The directory of the running program (no trailing '/'), or "" . */
static void exe_dir(char *dir, size_t n, const char *argv0)
{
    ssize_t k = readlink("/proc/self/exe", dir, n - 1);
    if (k > 0) {
        dir[k] = '\0';
    } else if (argv0 && strchr(argv0, '/') && strlen(argv0) < n) {
        snprintf(dir, n, "%s", argv0);
    } else {
        dir[0] = '\0';
        return;
    }
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        dir[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
}

/* The shipped directories in search order; empty strings for those that
 * are unknown.  dirs has room for NUM_DIRS paths of PATH_CAP bytes. */
static void shipped_dirs(char dirs[NUM_DIRS][PATH_CAP], const char *argv0)
{
    char exe[PATH_CAP];
    exe_dir(exe, sizeof exe, argv0);
    for (int i = 0; i < NUM_DIRS; i++)
        dirs[i][0] = '\0';
    if (exe[0]) {
        snprintf(dirs[0], PATH_CAP, "%.4000s/../share/adams/modules", exe);
        snprintf(dirs[1], PATH_CAP, "%.4000s/../modules", exe);
        snprintf(dirs[2], PATH_CAP, "%.4000s/modules", exe);
    }
    snprintf(dirs[3], PATH_CAP, "%s", ADAMS_MODULE_DIR);
    snprintf(dirs[4], PATH_CAP, "%s", ADAMS_MODULE_INSTALL_DIR);
    /* Canonical paths ("<src>/modules", not "<src>/build/../modules") read
     * better in messages; realpath allocates with malloc. */
    for (int i = 0; i < NUM_DIRS; i++) {
        char *r = dirs[i][0] ? realpath(dirs[i], NULL) : NULL;
        if (r && strlen(r) < PATH_CAP)
            snprintf(dirs[i], PATH_CAP, "%s", r);
        free(r);
    }
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int sq_modspec_resolve_name(char *path, size_t n, const char *name, const char *argv0)
{
    if (n)
        path[0] = '\0';
    if (!name[0] || strlen(name) >= n)
        return SQ_E_INVAL;
    if (strchr(name, '/') || ends_with(name, ".json")) {
        snprintf(path, n, "%s", name);
        return 0;
    }
    char cand[PATH_CAP + 256];
    snprintf(cand, sizeof cand, "./%s.json", name);
    if (is_file(cand) && strlen(cand) < n) {
        snprintf(path, n, "%s", cand);
        return 0;
    }
    return sq_modspec_shipped_path(path, n, name, argv0);
}

int sq_modspec_shipped_path(char *path, size_t n, const char *name, const char *argv0)
{
    if (n)
        path[0] = '\0';
    if (!name[0] || strlen(name) >= n || strchr(name, '/') || ends_with(name, ".json"))
        return SQ_E_INVAL;
    char cand[PATH_CAP + 256];
    char(*dirs)[PATH_CAP] = sq_malloc(sizeof(char[NUM_DIRS][PATH_CAP]));
    shipped_dirs(dirs, argv0);
    int rc = SQ_E_IO;
    for (int i = 0; i < NUM_DIRS && rc; i++) {
        if (!dirs[i][0] ||
            (size_t)snprintf(cand, sizeof cand, "%s/%s.json", dirs[i], name) >= sizeof cand)
            continue;
        if (is_file(cand) && strlen(cand) < n) {
            snprintf(path, n, "%s", cand);
            rc = 0;
        }
    }
    sq_free(dirs);
    return rc;
}

/* ---- The list of shipped modules ------------------------------------------- */

typedef struct {
    char **paths;
    char **names;
    int64_t n, cap;
} list_t;

static int list_has(const list_t *L, const char *name)
{
    for (int64_t i = 0; i < L->n; i++)
        if (strcmp(L->names[i], name) == 0)
            return 1;
    return 0;
}

static void list_add(list_t *L, const char *dir, const char *file)
{
    size_t len = strlen(file);
    char *name = sq_strdup(file);
    name[len - 5] = '\0'; /* drop ".json" */
    if (!name[0] || list_has(L, name)) {
        sq_free(name);
        return;
    }
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 16;
        L->paths = sq_realloc(L->paths, sq_mul_size((size_t)L->cap, sizeof *L->paths));
        L->names = sq_realloc(L->names, sq_mul_size((size_t)L->cap, sizeof *L->names));
    }
    size_t n = strlen(dir) + len + 2;
    L->paths[L->n] = sq_malloc(n);
    snprintf(L->paths[L->n], n, "%s/%s", dir, file);
    L->names[L->n++] = name;
}

static void list_dir(list_t *L, const char *dir)
{
    DIR *d = dir[0] ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".json"))
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = sq_malloc(n);
        snprintf(p, n, "%s/%s", dir, e->d_name);
        if (is_file(p))
            list_add(L, dir, e->d_name);
        sq_free(p);
    }
    closedir(d);
}

/* Sorts paths and names together by name (insertion sort: the lists are short). */
static void list_sort(list_t *L)
{
    for (int64_t i = 1; i < L->n; i++)
        for (int64_t j = i; j > 0 && strcmp(L->names[j - 1], L->names[j]) > 0; j--) {
            char *t = L->names[j];
            L->names[j] = L->names[j - 1];
            L->names[j - 1] = t;
            t = L->paths[j];
            L->paths[j] = L->paths[j - 1];
            L->paths[j - 1] = t;
        }
}

int sq_modspec_list_shipped(char ***paths, int64_t *count, const char *argv0)
{
    char(*dirs)[PATH_CAP] = sq_malloc(sizeof(char[NUM_DIRS][PATH_CAP]));
    shipped_dirs(dirs, argv0);
    list_t L = {0};
    for (int i = 0; i < NUM_DIRS; i++)
        list_dir(&L, dirs[i]);
    sq_free(dirs);
    list_sort(&L);
    for (int64_t i = 0; i < L.n; i++)
        sq_free(L.names[i]);
    sq_free(L.names);
    *paths = L.paths;
    *count = L.n;
    return 0;
}

void sq_modspec_list_free(char **paths, int64_t count)
{
    if (!paths)
        return;
    for (int64_t i = 0; i < count; i++)
        sq_free(paths[i]);
    sq_free(paths);
}
