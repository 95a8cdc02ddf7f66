/*
 * sq_secondary_prod.c -- secondary products in the peer's line format
 * (sq_secondary_prod.h).
 */
#include "sq_secondary_prod.h"

#include "fmat.h"
#include "resol_secondary.h"
#include "sq_core.h"

static void put_vec(FILE *f, fvec_t v, int64_t n)
{
    fputc('[', f);
    for (int64_t i = 0; i < n; i++)
        fprintf(f, i ? ", %u" : "%u", (unsigned)fvec_get(v, i));
    fputc(']', f);
}

/* Whether column c is a pivot (first nonzero entry) of a row of m. */
static int is_pivot(const fmat_t *m, int64_t c)
{
    for (int64_t i = 0; i < fmat_rows(m); i++)
        if (fvec_first_nonzero(fmat_row(m, i)) == c)
            return 1;
    return 0;
}

/* The lines of one bidegree b = (n, s) of the sphere. */
static int write_bidegree(FILE *f, const resol_sec_prod_t *P, const resol_t *RM,
                          const resol_t *RS, const char *name, int32_t n0, int32_t s0, int32_t n,
                          int32_t s)
{
    int64_t ny = resol_ext_dim(RS, s, n);
    int64_t ne = resol_ext_dim(RM, s + s0, n + n0), nl = resol_ext_dim(RM, s + s0 + 1, n + n0);
    if (ny <= 0 || ne < 0 || nl < 0 || (ne == 0 && nl == 0))
        return 0;
    fmat_t reps, image;
    if (resol_sec_e3_basis(resol_sec_prod_unit(P), s, n, &reps, &image) != 0)
        return SQ_E_RANGE;
    fvec_t y, ext, lam;
    fvec_init(&y, ny, 2);
    fvec_init(&ext, ne + 1, 2);
    fvec_init(&lam, nl + 1, 2);
    int rc = 0;
    for (int64_t i = 0; ne > 0 && i < ny && rc == 0; i++) {
        if (is_pivot(&reps, i) || is_pivot(&image, i))
            continue;
        fvec_zero(y);
        fvec_set(y, i, 1);
        rc = resol_sec_prod_eval(P, n, s, y, ext, lam);
        fprintf(f, "[%s] λ x_(%d, %d, %lld) = λ ", name, (int)n, (int)s, (long long)i);
        put_vec(f, ext, ne);
        fputc('\n', f);
    }
    for (int64_t r = 0; r < fmat_rows(&reps) + fmat_rows(&image) && rc == 0; r++) {
        fvec_t row = r < fmat_rows(&reps) ? fmat_row(&reps, r) : fmat_row(&image, r - fmat_rows(&reps));
        fvec_zero(y);
        fvec_addmul(y, fvec_window(row, 0, ny), 1);
        rc = resol_sec_prod_eval(P, n, s, y, ext, lam);
        fprintf(f, "[%s] [", name);
        for (int64_t i = 0, k = 0; i < ny; i++)
            if (fvec_get(y, i))
                fprintf(f, "%sx_(%d, %d, %lld)", k++ ? " + " : "", (int)n, (int)s, (long long)i);
        fputs("] = ", f);
        put_vec(f, ext, ne);
        fputs(" + λ ", f);
        put_vec(f, lam, nl);
        fputc('\n', f);
    }
    fvec_clear(&y);
    fvec_clear(&ext);
    fvec_clear(&lam);
    fmat_clear(&reps);
    fmat_clear(&image);
    return rc;
}

int sq_sec_product_write(FILE *f, const resol_sec_prod_t *P, const resol_t *RM,
                         const resol_t *RS, const char *name, int32_t n0, int32_t s0,
                         int32_t max_n, int32_t max_s)
{
    for (int32_t n = resol_min_n(RS); n <= max_n - n0 - 1; n++)
        for (int32_t s = 0; s <= max_s - s0 - 1; s++) {
            int rc = write_bidegree(f, P, RM, RS, name, n0, s0, n, s);
            if (rc)
                return rc;
        }
    return ferror(f) ? SQ_E_IO : 0;
}
