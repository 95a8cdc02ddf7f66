/*
 * cmd_secondary_prod.c -- `adams product --secondary` (printing only: the
 * run is cli_run.c's and cmd_d2.c's, the mathematics
 * src/resolution/resol_secondary_prod.c's, the lines
 * src/io/sq_secondary_prod.c's).
 */
#include "cmd_secondary_prod.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_class.h"
#include "cli_run.h"
#include "cmd_d2.h"
#include "fdmod.h"
#include "resol.h"
#include "resol_secondary_prod.h"
#include "sq_core.h"
#include "sq_secondary_prod.h"

/* One line for the options --secondary cannot take; CLI_OK when none. */
static int refuse_options(const cli_opts_t *o)
{
    static const cli_opt_t no[] = {CLI_OPT_BY, CLI_OPT_FROM, CLI_OPT_GPU, CLI_OPT_COEFF};
    static const char *const why[] = {
        "the secondary product multiplies the class by every class of the sphere in the "
        "region; omit --by",
        "the secondary lift of the multiplication is computed from a fresh resolution; "
        "omit --from",
        "the secondary lift runs on the CPU; omit --gpu",
        "the secondary product is of Ext(MODULE, F_2); omit --coefficients"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (cli_given(o, no[i])) {
            cli_error("product: --secondary: %s: %s", cli_opt_name(no[i]), why[i]);
            return CLI_USAGE;
        }
    if (!o->cls[0] || !cli_given(o, CLI_OPT_STEM)) {
        cli_error("product: --secondary needs --class and --stem (try 'adams product --help')");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int is_sphere(const fdmod_t *M)
{
    return fdmod_bottom(M) == 0 && fdmod_top(M) == 0 && fdmod_dim(M, 0) == 1;
}

/* The class's vector in Ext(M) at its bidegree, and its name as printed
 * ("x_(n, s, i)" or "x_(n, s)[v]"). */
static int class_of(cli_class_t *x, const resol_t *R, const char *mname, char *name, size_t n)
{
    int64_t dim = resol_ext_dim(R, x->s, x->n);
    if (dim <= 0) {
        cli_error("--class: Ext of %s at (%d, %d) is zero: there is no class there",
                  cli_str(mname), (int)x->n, (int)x->s);
        return -1;
    }
    char space[256];
    snprintf(space, sizeof space, "Ext of %s", mname);
    if (cli_class_vector("--class", x, dim, 2, space, mname))
        return -1;
    if (!x->have_vec) {
        snprintf(name, n, "x_(%d, %d, %lld)", (int)x->n, (int)x->s, (long long)x->idx);
        return 0;
    }
    size_t k = (size_t)snprintf(name, n, "x_(%d, %d)[", (int)x->n, (int)x->s);
    for (int64_t i = 0; i < dim && k + 8 < n; i++)
        k += (size_t)snprintf(name + k, n - k, i ? ", %u" : "%u", (unsigned)fvec_get(x->vec, i));
    snprintf(name + k, n - k, "]");
    return 0;
}

static void progress(void *ctx, int32_t step, int32_t steps)
{
    if (*(const int *)ctx)
        fprintf(stderr, "\rproduct --secondary: step %d of %d%s", (int)step, (int)steps,
                step == steps ? "\n" : "");
}

/* Lifts and prints, RM and RS resolved; the exit code. */
static int run(const cli_run_t *r, const resol_t *RM, const resol_t *RS, cli_class_t *x,
               int32_t max_n, int32_t max_s)
{
    char name[512], err[512];
    if (class_of(x, RM, fdmod_name(r->M), name, sizeof name))
        return CLI_USAGE;
    resol_sec_prod_t *P = NULL;
    int show = r->show;
    int rc = resol_sec_prod_new(&P, RM, RS, x->n, x->s, x->vec, max_n, max_s, r->pool, progress,
                                &show, err, sizeof err);
    if (rc != 0) {
        cli_error("product: --secondary: %s: %s", cli_str(fdmod_name(r->M)), err);
        return rc == SQ_E_INVAL ? CLI_USAGE : CLI_FAIL;
    }
    int w = sq_sec_product_write(stdout, P, RM, RS, name, x->n, x->s, max_n, max_s);
    resol_sec_prod_free(P);
    return cli_finish_output(w);
}

/* The class leaves no product in the region: one line, CLI_USAGE. */
static int top_refused(cli_class_t *x, int32_t max_s)
{
    char ms[32] = "the default";
    if (max_s != INT32_MAX)
        snprintf(ms, sizeof ms, "%d", (int)max_s);
    cli_error("product: --secondary: --class (%d, %d) leaves no product in the region: it "
              "needs N < --stem and S + 2 <= --max-s (%s)",
              (int)x->n, (int)x->s, ms);
    cli_class_clear(x);
    return CLI_USAGE;
}

int cli_product_secondary(const cli_opts_t *o)
{
    int rc = refuse_options(o);
    cli_class_t x;
    memset(&x, 0, sizeof x);
    if (rc != CLI_OK || cli_class_parse("--class", o->cls[0], &x))
        return CLI_USAGE;
    cli_run_t r, rs;
    memset(&rs, 0, sizeof rs);
    memset(&r, 0, sizeof r);
    int32_t max_s = cli_given(o, CLI_OPT_MAXS) ? (int32_t)o->max_s : INT32_MAX;
    int32_t max_n = (int32_t)o->stem;
    if (x.n > max_n - 1 || x.s > max_s - 2 || x.s < 0)
        return top_refused(&x, max_s);
    /* M through (N, S); one filtration more for a class at s = 0 (the E_3
     * page of the sphere at s = S - 1 when M is the sphere) */
    rc = cli_d2_prepare(&r, o, 0, x.s == 0 ? 1 : 0, &max_s);
    if (rc == CLI_OK && (x.n > max_n - 1 || x.s > max_s - 2)) {
        cli_run_release(&r);
        return top_refused(&x, max_s);
    }
    resol_t *RM = NULL, *RS = NULL;
    int shared = 0;
    if (rc == CLI_OK) {
        shared = is_sphere(r.M);
        if (!shared)
            rc = cli_run_prepare(&rs, o, "S_2", max_n - x.n, max_s - x.s + 1, CLI_RUN_QUIET);
    }
    if (rc == CLI_OK) {
        RM = cli_run_resolve(&r);
        RS = shared ? RM : cli_run_resolve(&rs);
        rc = run(&r, RM, RS, &x, max_n, max_s);
    }
    if (!shared)
        resol_free(RS);
    resol_free(RM);
    cli_run_release(&rs);
    cli_run_release(&r);
    cli_class_clear(&x);
    return rc;
}
