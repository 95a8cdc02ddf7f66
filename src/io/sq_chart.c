/*
 * sq_chart.c -- dot chart and CSV output (system.md section 8).
 */
#include "sq_chart.h"

#include "resol_products.h"
#include "sq_core.h"

static const char *const glyphs[] = {" ", "\xc2\xb7", ":", "\xe2\x88\xb4", "\xe2\x81\x98",
                                     "\xe2\x81\x99", "\xe2\xa0\xbf", "\xe2\xa1\xbf",
                                     "\xe2\xa3\xbf", "9"};

const char *sq_chart_glyph(int64_t dim)
{
    if (dim < 0)
        return "?";
    if (dim <= 9)
        return glyphs[dim];
    return "*";
}

int sq_chart_write_dots_fn(FILE *f, sq_ext_fn ext, const void *ctx, int32_t n_min, int32_t n_max,
                           int32_t s_max)
{
    for (int32_t s = s_max; s >= 0; s--) {
        for (int32_t n = n_min; n <= n_max; n++) {
            fputs(sq_chart_glyph(ext(ctx, s, n)), f);
            fputc(' ', f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    return ferror(f) ? SQ_E_IO : 0;
}

int sq_chart_write_csv_fn(FILE *f, sq_ext_fn ext, const void *ctx, int32_t n_min, int32_t n_max,
                          int32_t s_max)
{
    for (int32_t n = n_min; n <= n_max; n++)
        for (int32_t s = 0; s <= s_max; s++)
            fprintf(f, "%d,%d,%lld\n", (int)n, (int)s, (long long)ext(ctx, s, n));
    return ferror(f) ? SQ_E_IO : 0;
}

static int64_t resol_ext(const void *R, int32_t s, int32_t n)
{
    return resol_ext_dim((const resol_t *)R, s, n);
}

int sq_chart_write_dots(FILE *f, const resol_t *R, int32_t n_min, int32_t n_max, int32_t s_max)
{
    return sq_chart_write_dots_fn(f, resol_ext, R, n_min, n_max, s_max);
}

int sq_chart_write_csv(FILE *f, const resol_t *R, int32_t n_min, int32_t n_max, int32_t s_max)
{
    return sq_chart_write_csv_fn(f, resol_ext, R, n_min, n_max, s_max);
}

const char *sq_chart_check_region(const resol_t *R, const char *name, int32_t n_min,
                                  int32_t n_max, int32_t s_max)
{
    if (n_min < resol_min_n(R) || n_max > resol_max_n(R) || s_max > resol_max_s(R) || s_max < 0)
        return NULL;
    return name ? name : fdmod_name(resol_input(R));
}

int sq_chart_filt1(const resol_t *R, int k, int32_t n, int32_t s, int32_t n_max, int32_t s_max,
                   int32_t *tn, fmat_t *m)
{
    int32_t deg = resol_filt1_degree(R, k);
    if (deg < 0)
        return 0; /* a later class may act: over a profile without Q_0, h_0 does */
    if (s + 1 > s_max || (int64_t)n + deg - 1 > n_max)
        return -1;
    *tn = n + deg - 1;
    if (resol_ext_dim(R, s, n) <= 0 || resol_ext_dim(R, s + 1, *tn) <= 0)
        return 0;
    return resol_filt1_matrix(R, k, s, s + n, m) == 0 ? 1 : -1;
}
