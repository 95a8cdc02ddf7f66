/*
 * sq_chart_json.c -- the chart's data as JSON (sq_chart_json.h).
 *
 * Written by hand, one record a line, rather than built as a jansson tree:
 * the document is streamed in the order it is computed, so a chart through
 * stem 150 (tens of thousands of products) needs no memory beyond one h_i
 * matrix at a time, and the layout stays diffable.
 */
#include "sq_chart_json.h"

#include "fmat.h"
#include "resol_products.h"
#include "sq_chart.h"
#include "sq_core.h"

/* Writes s as a JSON string: quotes, backslashes and control characters
 * escaped; bytes >= 0x80 (UTF-8) copied. */
static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void write_classes(FILE *f, const resol_t *R, int32_t n_min, int32_t n_max, int32_t s_max)
{
    int first = 1;
    fputs("  \"classes\": [", f);
    for (int32_t n = n_min; n <= n_max; n++)
        for (int32_t s = 0; s <= s_max; s++) {
            int64_t d = resol_ext_dim(R, s, n);
            for (int64_t i = 0; i < d; i++) {
                fprintf(f, "%s\n    {\"n\": %d, \"s\": %d, \"i\": %lld}", first ? "" : ",", (int)n,
                        (int)s, (long long)i);
                first = 0;
            }
        }
    fputs(first ? "],\n" : "\n  ],\n", f);
}

/* The products c_k x of the filtration-one class k for the classes x of
 * (n, s), one record per x; returns 0 when the walk over k stops here
 * (sq_chart_filt1), 1 otherwise.  p = 2 records name the class by "h": k;
 * odd p ones by "by": its name, with each target's coefficient. */
static int write_filt1(FILE *f, const resol_t *R, int k, int32_t n, int32_t s, int32_t n_max,
                       int32_t s_max, int *first)
{
    int32_t tn;
    fmat_t m;
    int rc = sq_chart_filt1(R, k, n, s, n_max, s_max, &tn, &m);
    if (rc <= 0)
        return rc == 0;
    int odd = fmat_prime(&m) != 2;
    char name[16];
    resol_filt1_name(R, k, name, sizeof name);
    for (int64_t j = 0; j < fmat_cols(&m); j++) {
        fputs(*first ? "\n    {" : ",\n    {", f);
        if (odd)
            fprintf(f, "\"by\": \"%s\"", name);
        else
            fprintf(f, "\"h\": %d", k);
        fprintf(f, ", \"from\": [%d, %d, %lld], \"to\": [", (int)n, (int)s, (long long)j);
        const char *sep = "";
        for (int64_t g = 0; g < fmat_rows(&m); g++) {
            uint32_t c = fmat_get(&m, g, j);
            if (!c)
                continue;
            fprintf(f, "%s[%d, %d, %lld", sep, (int)tn, (int)(s + 1), (long long)g);
            if (odd)
                fprintf(f, ", %u", (unsigned)c);
            fputc(']', f);
            sep = ", ";
        }
        fputs("]}", f);
        *first = 0;
    }
    fmat_clear(&m);
    return 1;
}

int sq_chart_write_json(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                        int32_t s_max)
{
    if (!(name = sq_chart_check_region(R, name, n_min, n_max, s_max)))
        return SQ_E_RANGE;
    fprintf(f, "{\n  \"format\": \"adams-chart\",\n  \"version\": %d,\n  \"module\": ",
            SQ_CHART_JSON_VERSION);
    put_json_string(f, name);
    if (resol_prime(R) != 2)
        fprintf(f, ",\n  \"prime\": %u", (unsigned)resol_prime(R));
    fprintf(f, ",\n  \"min_n\": %d,\n  \"max_n\": %d,\n  \"max_s\": %d,\n", (int)n_min, (int)n_max,
            (int)s_max);
    write_classes(f, R, n_min, n_max, s_max);
    fputs("  \"products\": [", f);
    int first = 1;
    for (int32_t n = n_min; n <= n_max; n++)
        for (int32_t s = 0; s <= s_max; s++) {
            if (resol_ext_dim(R, s, n) <= 0)
                continue;
            for (int k = 0; k < 31 && write_filt1(f, R, k, n, s, n_max, s_max, &first); k++)
                ;
        }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
    return ferror(f) ? SQ_E_IO : 0;
}
