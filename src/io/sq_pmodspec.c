/*
 * sq_pmodspec.c -- the chart driver of odd primes, presol_cli_resolve (see
 * sq_pmodspec.h).  The module file is read by the one reader (sq_modspec.c).
 */
#include "sq_pmodspec.h"

#include <string.h>

#include "presol.h"
#include "presol_cofiber.h"
#include "sq_chart.h"
#include "sq_modspec.h"

/* ---- The chart driver ------------------------------------------------------------------ */

static int64_t ext_resol(const void *ctx, int32_t s, int32_t n)
{
    return presol_ext_dim((const presol_t *)ctx, s, n);
}

static int64_t ext_cofiber(const void *ctx, int32_t s, int32_t n)
{
    return presol_cofiber_ext_dim((const presol_cofiber_t *)ctx, s, n);
}

int presol_cli_resolve(const char *path, int32_t stem, int32_t max_s, int csv, FILE *out,
                       char *err, size_t errlen)
{
    pfdmod_t *M = NULL;
    sq_modspec_info_t info;
    sq_modspec_opts_t o;
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    o.info = &info;
    int rc = sq_modspec_load_file_odd(&M, path, NULL, &o, err, errlen);
    if (rc)
        return rc;
    rc = presol_check_range(M, max_s, stem, err, errlen);
    if (rc) {
        pfdmod_free(M);
        return rc;
    }
    int32_t bottom = pfdmod_bottom(M);
    if (info.cofiber) {
        presol_cofiber_t *C = NULL;
        rc = presol_cofiber_new(&C, M, info.cof_s, info.cof_t, info.cof_idx, info.cof_target,
                                max_s, stem, NULL, err, errlen);
        if (!rc) {
            rc = csv ? sq_chart_write_csv_fn(out, ext_cofiber, C, bottom, stem, max_s)
                     : sq_chart_write_dots_fn(out, ext_cofiber, C, bottom, stem, max_s);
            if (rc)
                snprintf(err, errlen, "cannot write the chart: %s", sq_strerror(rc));
        }
        presol_cofiber_free(C);
    } else {
        presol_t *R = presol_new(M, max_s, stem);
        presol_run(R);
        rc = csv ? sq_chart_write_csv_fn(out, ext_resol, R, bottom, stem, max_s)
                 : sq_chart_write_dots_fn(out, ext_resol, R, bottom, stem, max_s);
        if (rc)
            snprintf(err, errlen, "cannot write the chart: %s", sq_strerror(rc));
        presol_free(R);
    }
    pfdmod_free(M);
    return rc;
}
