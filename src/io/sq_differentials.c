/*
 * sq_differentials.c -- every d(x) of a resolution in the peer's
 * `differentials` format (sq_differentials.h).
 */
#include "sq_differentials.h"

#include <stdio.h>

#include "fhom.h"
#include "fmat.h"
#include "fmod.h"
#include "sq_core.h"
#include "stalg.h"

/* The name of basis element (deg, idx) as the peer writes it: P(r_1, ...)
 * at p = 2 (its Milnor basis has no exterior part), stalg_format at odd p. */
static void op_name(char *buf, size_t n, const stalg_t *S, int32_t deg, int64_t idx)
{
    if (stalg_prime(S) != 2) {
        stalg_format(buf, n, S, deg, idx);
        return;
    }
    stalg_elt_t e;
    stalg_get(S, deg, idx, &e);
    size_t k = (size_t)snprintf(buf, n, "P(");
    for (int i = 0; i < e.len && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, i ? ", %d" : "%d", (int)e.r[i]);
    if (k < n)
        snprintf(buf + k, n - k, ")");
}

/* Writes the terms of d(x) for the generator of global index g of F_s in
 * degree t (s >= 1); returns the number of terms written. */
static int64_t write_terms(FILE *f, const resol_t *R, int32_t s, int32_t t, int64_t g)
{
    const fhom_t *d = resol_differential(R, s);
    const fmod_t *T = resol_free_module(R, s - 1);
    const stalg_t *S = resol_stalg(R);
    int64_t len;
    const void *img = fhom_image_enc(d, g, &len);
    uint32_t p = resol_prime(R);
    fvec_t v = p == 2 ? fvec_view_limbs((uint64_t *)(uintptr_t)img, len)
                      : fvec_view_bytes((uint8_t *)(uintptr_t)img, len, p);
    int64_t terms = 0;
    char op[160];
    for (int32_t e = fmod_min_degree(T); e < t; e++) {
        int64_t ng = fmod_num_gens(T, e);
        int64_t dim = stalg_dim(S, t - e);
        for (int64_t j = 0; j < ng; j++) {
            int64_t off = fmod_block_offset(T, t, e, j);
            for (int64_t k = 0; k < dim && off + k < len; k++) {
                uint32_t c = fvec_get(v, off + k);
                if (!c)
                    continue;
                fputs(terms++ ? " + " : "", f);
                if (c != 1)
                    fprintf(f, "%u ", c);
                if (t - e) {
                    op_name(op, sizeof op, S, t - e, k);
                    fprintf(f, "%s ", op);
                }
                fprintf(f, "x_(%d,%d,%lld)", e - (s - 1), s - 1, (long long)j);
            }
        }
    }
    return terms;
}

int sq_differentials_write(FILE *f, const resol_t *R, int32_t n_min, int32_t max_n,
                           int32_t max_s)
{
    for (int32_t n = n_min; n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            const fmod_t *F = resol_free_module(R, s);
            int32_t t = n + s;
            int64_t ng = fmod_num_gens(F, t);
            for (int64_t i = 0; i < ng; i++) {
                fprintf(f, "d x_(%d,%d,%lld) = ", n, s, (long long)i);
                if (s == 0 || !write_terms(f, R, s, t, fmod_gen_global(F, t, i)))
                    fputs("0", f);
                if (fputc('\n', f) == EOF)
                    return SQ_E_IO;
            }
        }
    return ferror(f) ? SQ_E_IO : 0;
}
