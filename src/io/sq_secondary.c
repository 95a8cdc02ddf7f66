/*
 * sq_secondary.c -- the Adams d_2 in the peer's line format.
 */
#include "sq_secondary.h"

#include "fmat.h"
#include "sq_core.h"

int sq_d2_write(FILE *f, const resol_t *R, const resol_sec_t *X, int32_t max_n, int32_t max_s)
{
    if (max_s > resol_max_s(R))
        max_s = resol_max_s(R);
    for (int32_t n = resol_min_n(R); n + 1 <= max_n && n <= resol_max_n(R); n++)
        for (int32_t s = 3; s <= max_s; s++) {
            if (resol_ext_dim(R, s, n) <= 0 || !resol_sec_has(X, s - 2, n + 1))
                continue;
            fmat_t m;
            if (resol_sec_d2(X, s - 2, n + 1, &m) != 0)
                return SQ_E_IO;
            for (int64_t i = 0; i < fmat_rows(&m); i++) {
                fprintf(f, "d_2 x_(%d, %d, %lld) = [", (int)(n + 1), (int)(s - 2), (long long)i);
                for (int64_t j = 0; j < fmat_cols(&m); j++)
                    fprintf(f, j ? ", %u" : "%u", (unsigned)fmat_get(&m, i, j));
                fputs("]\n", f);
            }
            fmat_clear(&m);
        }
    return ferror(f) ? SQ_E_IO : 0;
}
