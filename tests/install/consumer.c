/*
 * consumer.c -- a program built against an installed adams, the way a user
 * builds one (tests/install/run.sh builds it with find_package(adams) and
 * with pkg-config, statically and shared).  It uses only the public API
 * through the umbrella header, and touches every layer: the module reader
 * (jansson), the resolution on a thread pool, the chart writer.
 *
 * Output: "adams MAJOR.MINOR.PATCH", then the lines "n,s,dim" of Ext of the
 * sphere S_2 for stems 0..10 and filtrations 0..6 (run.sh compares them with
 * tests/data/ext-S2-n60-s40.csv).  Exit 1 on any error.
 */
#include <adams/adams.h>

#include <stdio.h>
#include <string.h>

#define MAX_N 10
#define MAX_S 6

int main(void)
{
    char v[64], err[256];
    snprintf(v, sizeof v, "%d.%d.%d", ADAMS_VERSION_MAJOR, ADAMS_VERSION_MINOR,
             ADAMS_VERSION_PATCH);
    if (strcmp(v, ADAMS_VERSION_STRING) != 0 || !ADAMS_VERSION_AT_LEAST(0, 0, 1)) {
        fprintf(stderr, "version macros disagree: %s vs %s\n", v, ADAMS_VERSION_STRING);
        return 1;
    }
    printf("adams %s\n", ADAMS_VERSION_STRING);

    fdmod_t *M = NULL;
    if (sq_modspec_load_string(&M, "{\"p\": 2, \"gens\": {\"x0\": 0}, \"actions\": []}", "S_2",
                               err, sizeof err) != 0) {
        fprintf(stderr, "loading the sphere: %s\n", err);
        return 1;
    }
    if (resol_check_range(M, MAX_S, MAX_N, err, sizeof err) != 0) {
        fprintf(stderr, "range: %s\n", err);
        fdmod_free(M);
        return 1;
    }
    resol_t *R = resol_new(M, MAX_S, MAX_N);
    sq_pool_t *pool = sq_pool_new(2);
    resol_run_pool(R, RESOL_AUTO, pool, NULL);
    int rc = sq_chart_write_csv(stdout, R, 0, MAX_N, MAX_S);
    if (rc != 0)
        fprintf(stderr, "writing: %s\n", sq_strerror(rc));
    sq_pool_free(pool);
    resol_free(R);
    fdmod_free(M);
    return rc != 0;
}
