/*
 * sq_products.c -- the filtration-one products as text (sq_products.h).
 */
#include "sq_products.h"

#include "f2mat.h"
#include "resol_products.h"
#include "sq_core.h"

/* The lines of h_i on Ext^{s, s+n}; returns 0 when the target is outside
 * the region (the caller stops at this i), 1 otherwise. */
static int write_hi(FILE *f, const resol_t *R, int i, int32_t n, int32_t s, int32_t max_n,
                    int32_t max_s)
{
    int32_t tn = n + (1 << i) - 1;
    if (tn > max_n || s + 1 > max_s || !resol_has_h(R, i))
        return 0;
    f2mat_t m;
    if (resol_h_matrix(R, i, s, s + n, &m) != 0)
        return 0;
    if (m.rows > 0)
        for (int64_t k = 0; k < m.cols; k++) {
            fprintf(f, "h_%d x_(%d, %d, %lld) = [", i, (int)n, (int)s, (long long)k);
            for (int64_t g = 0; g < m.rows; g++)
                fprintf(f, g ? ", %d" : "%d", f2mat_get(&m, g, k));
            fputs("]\n", f);
        }
    f2mat_clear(&m);
    return 1;
}

int sq_products_write(FILE *f, const resol_t *R, int32_t n_min, int32_t max_n, int32_t max_s)
{
    for (int32_t n = n_min; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            if (resol_ext_dim(R, s, n) <= 0)
                continue;
            for (int i = 0; i < 31 && write_hi(f, R, i, n, s, max_n, max_s); i++)
                ;
        }
    return ferror(f) ? SQ_E_IO : 0;
}
