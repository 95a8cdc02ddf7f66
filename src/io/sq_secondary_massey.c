/*
 * sq_secondary_massey.c -- secondary Massey products in the peer's line
 * format (sq_secondary_massey.h).
 */
#include "sq_secondary_massey.h"

#include "fmat.h"
#include "sq_core.h"

static void put_vec(FILE *f, fvec_t v, int64_t n)
{
    fputc('[', f);
    for (int64_t i = 0; i < n; i++)
        fprintf(f, i ? ", %u" : "%u", (unsigned)fvec_get(v, i));
    fputc(']', f);
}

/* "x_(n, s, i) + ..." for the set entries of v (len entries). */
static void put_basis(FILE *f, fvec_t v, int64_t len, int32_t n, int32_t s)
{
    for (int64_t i = 0, k = 0; i < len; i++)
        if (fvec_get(v, i))
            fprintf(f, "%sx_(%d, %d, %lld)", k++ ? " + " : "", (int)n, (int)s, (long long)i);
}

static int64_t weight(fvec_t v, int64_t len)
{
    int64_t w = 0;
    for (int64_t i = 0; i < len; i++)
        w += fvec_get(v, i) != 0;
    return w;
}

/* The name of y = (y0, y1) at (n, s) as the peer prints it. */
static void put_name(FILE *f, fvec_t y, int64_t ny, int64_t nyl, int32_t n, int32_t s)
{
    fvec_t y0 = fvec_window(y, 0, ny), y1;
    fvec_init(&y1, nyl, 2);
    for (int64_t i = 0; i < nyl; i++)
        fvec_set(y1, i, fvec_get(y, ny + i));
    int64_t w0 = weight(y0, ny), w1 = weight(y1, nyl);
    if (w0) {
        fputc('[', f);
        put_basis(f, y0, ny, n, s);
        fputc(']', f);
    }
    if (w1) {
        fputs(w0 ? " + λ" : "λ", f);
        if (w1 > 1)
            fputc('(', f);
        put_basis(f, y1, nyl, n, s + 1);
        if (w1 > 1)
            fputc(')', f);
    }
    fvec_clear(&y1);
}

static int write_bidegree(FILE *f, const resol_sec_massey_t *X, const resol_t *RM,
                          const resol_t *RS, const char *aname, const char *bname, int32_t nab,
                          int32_t S, int32_t n, int32_t s)
{
    int32_t ns = n + nab + 1, ss = s + S - 1;
    int64_t ne = resol_ext_dim(RM, ss, ns), nl = resol_ext_dim(RM, ss + 1, ns);
    int64_t ny = resol_ext_dim(RS, s, n), nyl = resol_ext_dim(RS, s + 1, n);
    if (ne < 0 || nl < 0 || ny < 0 || nyl < 0)
        return SQ_E_RANGE;
    if (ne + nl == 0)
        return 0;
    fmat_t ker;
    if (resol_sec_massey_kernel(X, n, s, &ker) != 0)
        return SQ_E_RANGE;
    fvec_t ext, lam;
    fvec_init(&ext, ne + 1, 2);
    fvec_init(&lam, nl + 1, 2);
    int rc = 0;
    for (int64_t r = 0; r < fmat_rows(&ker) && rc == 0; r++) {
        fvec_t y = fmat_row(&ker, r);
        rc = resol_sec_massey_eval(X, n, s, y, ext, lam);
        if (rc)
            break;
        fprintf(f, "<%s, %s, ", aname, bname);
        put_name(f, y, ny, nyl, n, s);
        fputs("> = ±", f);
        put_vec(f, ext, ne);
        fputs(" + λ", f);
        put_vec(f, lam, nl);
        fputc('\n', f);
    }
    fvec_clear(&ext);
    fvec_clear(&lam);
    fmat_clear(&ker);
    return rc;
}

int sq_sec_massey_write(FILE *f, const resol_sec_massey_t *X, const resol_t *RM,
                        const resol_t *RS, const char *aname, const char *bname, int32_t na,
                        int32_t sa, int32_t nb, int32_t sb, int32_t max_n, int32_t max_s)
{
    int32_t nab = na + nb, S = sa + sb;
    for (int32_t n = resol_min_n(RS); n + nab + 2 <= max_n; n++)
        for (int32_t s = 0; s + S <= max_s; s++) {
            if (!resol_sec_massey_has(X, n, s))
                continue;
            int rc = write_bidegree(f, X, RM, RS, aname, bname, nab, S, n, s);
            if (rc)
                return rc;
        }
    return ferror(f) ? SQ_E_IO : 0;
}
