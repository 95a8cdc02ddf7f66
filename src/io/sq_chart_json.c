/*
 * sq_chart_json.c -- the chart's data as JSON (sq_chart_json.h).
 *
 * Written by hand, one record a line, rather than built as a jansson tree:
 * the document is streamed in the order it is computed, so a chart through
 * stem 150 (tens of thousands of products) needs no memory beyond one h_i
 * matrix at a time, and the layout stays diffable.
 */
#include "sq_chart_json.h"

#include "f2mat.h"
#include "resol_products.h"
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

/* The products h_i x for the classes x of (n, s); returns 0 when the target
 * of h_i is outside the region (the caller stops at this i), 1 otherwise. */
static int write_hi(FILE *f, const resol_t *R, int i, int32_t n, int32_t s, int32_t n_max,
                    int32_t s_max, int *first)
{
    int32_t tn = n + (1 << i) - 1;
    if (tn > n_max || s + 1 > s_max || !resol_has_h(R, i))
        return 0;
    f2mat_t m;
    if (resol_h_matrix(R, i, s, s + n, &m) != 0)
        return 0;
    if (m.rows > 0)
        for (int64_t k = 0; k < m.cols; k++) {
            fprintf(f, "%s\n    {\"h\": %d, \"from\": [%d, %d, %lld], \"to\": [", *first ? "" : ",",
                    i, (int)n, (int)s, (long long)k);
            int sep = 0;
            for (int64_t g = 0; g < m.rows; g++)
                if (f2mat_get(&m, g, k)) {
                    fprintf(f, "%s[%d, %d, %lld]", sep ? ", " : "", (int)tn, (int)(s + 1),
                            (long long)g);
                    sep = 1;
                }
            fputs("]}", f);
            *first = 0;
        }
    f2mat_clear(&m);
    return 1;
}

int sq_chart_write_json(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                        int32_t s_max)
{
    /* A region the resolution does not hold is the caller's error, but one
     * a user's options can reach: refused, nothing written, never an abort. */
    if (n_min < resol_min_n(R) || n_max > resol_max_n(R) || s_max > resol_max_s(R) || s_max < 0)
        return SQ_E_RANGE;
    if (!name)
        name = fdmod_name(resol_input(R));
    fprintf(f, "{\n  \"format\": \"adams-chart\",\n  \"version\": %d,\n  \"module\": ",
            SQ_CHART_JSON_VERSION);
    put_json_string(f, name);
    fprintf(f, ",\n  \"min_n\": %d,\n  \"max_n\": %d,\n  \"max_s\": %d,\n", (int)n_min, (int)n_max,
            (int)s_max);
    write_classes(f, R, n_min, n_max, s_max);
    fputs("  \"products\": [", f);
    int first = 1;
    for (int32_t n = n_min; n <= n_max; n++)
        for (int32_t s = 0; s <= s_max; s++) {
            if (resol_ext_dim(R, s, n) <= 0)
                continue;
            for (int i = 0; i < 31 && write_hi(f, R, i, n, s, n_max, s_max, &first); i++)
                ;
        }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
    return ferror(f) ? SQ_E_IO : 0;
}
