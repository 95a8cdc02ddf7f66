/*
 * cli_unstable.c -- S^n and the checks of an unstable run (cli_unstable.h).
 */
#include "cli_unstable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stalg.h"
#include "resol_unstable.h"

/* The largest n of S^n: far beyond any region the algebra reaches. */
#define CLI_SPHERE_MAX 10000

int cli_unstable_sphere(const char *verb, const char *name, char *buf, size_t n)
{
    if (strncmp(name, "S^", 2) != 0)
        return 0;
    const char *d = name + 2;
    char *end;
    errno = 0;
    long v = strtol(d, &end, 10);
    if (*d < '0' || *d > '9' || *end || errno || v > CLI_SPHERE_MAX) {
        cli_error("%s: '%s': the unstable sphere is S^n with n an integer from 0 to %d",
                  verb, cli_str(name), CLI_SPHERE_MAX);
        return -1;
    }
    snprintf(buf, n, "S_2[%ld]", v);
    return 1;
}

int cli_unstable_prepare(cli_run_t *r)
{
    const char *verb = r->o->verb->name;
    if (r->info.cofiber) {
        cli_error("%s: --unstable: %s is the cofiber of a class (a \"cofiber\" key): unstable "
                  "resolutions take finite modules and projective spaces only",
                  verb, cli_str(r->ref.base));
        return CLI_USAGE;
    }
    char err[512];
    int32_t span = fdmod_top(r->M) - fdmod_bottom(r->M);
    stalg_t *S = stalg_new(r->prime, span > 1 ? span : 1, NULL);
    int rc = resol_unstable_check(r->M, S, err, sizeof err);
    stalg_free(S);
    if (rc) {
        cli_error("%s: --unstable: %s", verb, err);
        return CLI_USAGE;
    }
    r->unstable = 1;
    r->algo = RESOL_CLASSICAL;
    return CLI_OK;
}
