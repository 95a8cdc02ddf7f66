/*
 * sq_test_resol.c -- see sq_test_resol.h.
 */
#include "sq_test_resol.h"

#include <stdio.h>
#include <string.h>

#include "sq_test.h"

void sq_test_check_s2_table(const resol_t *R, int32_t max_n, int32_t max_s)
{
    FILE *f = fopen(sq_test_data_path("ext-S2-n60-s40.csv"), "r");
    if (!f)
        sq_test_fail(__FILE__, __LINE__, "cannot open the reference table");
    char line[256];
    int64_t checked = 0;
    while (fgets(line, sizeof line, f)) {
        int n, s;
        long long dim;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%d,%d,%lld", &n, &s, &dim) != 3)
            sq_test_fail(__FILE__, __LINE__, "bad table line: %s", line);
        if (n > max_n || s > max_s)
            continue;
        int64_t got = resol_ext_dim(R, s, n);
        if (got != dim)
            sq_test_fail(__FILE__, __LINE__, "Ext^{%d,%d} (stem %d): got %lld, want %lld", s,
                         s + n, n, (long long)got, dim);
        checked++;
    }
    fclose(f);
    if (checked != (int64_t)(max_n + 1) * (max_s + 1))
        sq_test_fail(__FILE__, __LINE__, "compared %lld cells, want %lld", (long long)checked,
                     (long long)(max_n + 1) * (max_s + 1));
}

int64_t sq_test_check_s2_sseqcpp(const resol_t *R, int32_t max_n, int32_t max_s)
{
    enum { T_MAX = 236 };
    FILE *f = fopen(sq_test_data_path("ext-S2-t236-sseqcpp.csv"), "r");
    if (!f)
        sq_test_fail(__FILE__, __LINE__, "cannot open SSeqCpp's table");
    /* dim[n][s] for the cells the table lists; the rest are zero. */
    int64_t *want = sq_calloc((size_t)(T_MAX + 1) * (T_MAX + 1), sizeof *want);
    char line[256];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        int n, s, t;
        long long dim;
        if (line[0] == '#' || strncmp(line, "stem,", 5) == 0)
            continue;
        if (sscanf(line, "%d,%d,%d,%lld", &n, &s, &t, &dim) != 4 || n < 0 || s < 0 ||
            t != n + s || t > T_MAX)
            sq_test_fail(__FILE__, __LINE__, "bad SSeqCpp line: %s", line);
        want[(size_t)n * (T_MAX + 1) + (size_t)s] = dim;
        rows++;
    }
    fclose(f);
    if (rows < 6000)
        sq_test_fail(__FILE__, __LINE__, "SSeqCpp's table has %d rows", rows);
    int64_t checked = 0;
    for (int32_t n = 0; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s && n + s <= T_MAX; s++) {
            int64_t got = resol_ext_dim(R, s, n), w = want[(size_t)n * (T_MAX + 1) + (size_t)s];
            if (got != w)
                sq_test_fail(__FILE__, __LINE__, "Ext^{%d,%d} (stem %d): adams %lld, SSeqCpp %lld",
                             s, s + n, n, (long long)got, (long long)w);
            checked++;
        }
    sq_free(want);
    return checked;
}

int64_t sq_test_engines_agree(const fdmod_t *M, int32_t max_n, int32_t max_s, resol_t **nassau)
{
    resol_t *C = resol_new(M, max_s, max_n), *N = resol_new(M, max_s, max_n);
    resol_run(C, RESOL_CLASSICAL);
    resol_run(N, RESOL_NASSAU);
    int64_t nonzero = 0;
    for (int32_t n = resol_min_n(C); n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            int64_t c = resol_ext_dim(C, s, n), x = resol_ext_dim(N, s, n);
            if (c != x || c < 0)
                sq_test_fail(__FILE__, __LINE__, "%s Ext^{%d,%d}: classical %lld, Nassau %lld",
                             fdmod_name(M), s, s + n, (long long)c, (long long)x);
            nonzero += c > 0;
        }
    resol_free(C);
    if (nassau)
        *nassau = N;
    else
        resol_free(N);
    return nonzero;
}
