/*
 * sq_products.c -- the filtration-one products as text (sq_products.h).
 */
#include "sq_products.h"

#include "fdmod.h"
#include "fmat.h"
#include "resol_products.h"
#include "sq_core.h"

/* The lines of the filtration-one class k on Ext^{s, s+n}; returns 0 when
 * the target is outside the region (the caller stops at this k), 1
 * otherwise (also when the class does not act: over an odd profile without
 * Q_0, a_0 does not and h_0 does; at p = 2 no h_i acts after one that does
 * not, so the lines are those of the loop that stopped there). */
static int write_class(FILE *f, const resol_t *R, int k, int32_t n, int32_t s, int32_t max_n,
                       int32_t max_s)
{
    int32_t raw = fdmod_slot_degree(resol_prime(R), k); /* acting or not */
    if (raw < 0 || (int64_t)n + raw - 1 > max_n || s + 1 > max_s)
        return 0;
    fmat_t m;
    if (resol_filt1_degree(R, k) < 0 || resol_filt1_matrix(R, k, s, s + n, &m) != 0)
        return 1;
    /* "h0" -> "h_0", "a0" -> "a_0": the peer's h_i. */
    char name[16];
    resol_filt1_name(R, k, name, sizeof name);
    int64_t rows = fmat_rows(&m), cols = fmat_cols(&m);
    if (rows > 0)
        for (int64_t j = 0; j < cols; j++) {
            fprintf(f, "%c_%s x_(%d, %d, %lld) = [", name[0], name + 1, (int)n, (int)s,
                    (long long)j);
            for (int64_t g = 0; g < rows; g++)
                fprintf(f, g ? ", %u" : "%u", (unsigned)fmat_get(&m, g, j));
            fputs("]\n", f);
        }
    fmat_clear(&m);
    return 1;
}

int sq_products_write(FILE *f, const resol_t *R, int32_t n_min, int32_t max_n, int32_t max_s)
{
    for (int32_t n = n_min; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            if (resol_ext_dim(R, s, n) <= 0)
                continue;
            for (int k = 0; k < 31 && write_class(f, R, k, n, s, max_n, max_s); k++)
                ;
        }
    return ferror(f) ? SQ_E_IO : 0;
}
