/*
 * cmd_secondary_massey.c -- `adams massey --secondary` (printing only: the
 * run is cli_run.c's and cmd_d2.c's, the mathematics
 * src/resolution/resol_secondary_massey.c's, the lines
 * src/io/sq_secondary_massey.c's).
 */
#include "cmd_secondary_massey.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_class.h"
#include "cli_run.h"
#include "cmd_d2.h"
#include "fdmod.h"
#include "resol.h"
#include "resol_secondary_massey.h"
#include "sq_core.h"
#include "sq_secondary_massey.h"

/* A class [x0] + lambda x1 as given: "N,S,V", "N,S,V/W" or "N,S,/W" (W
 * the lambda part, a vector or a basis index at (N, S + 1)). */
typedef struct {
    cli_class_t c0, c1;
    int has0, has1;
    char t0[256], t1[256];
} sclass_t;

static void sclass_clear(sclass_t *x)
{
    cli_class_clear(&x->c0);
    cli_class_clear(&x->c1);
}

/* Parses text into x (N and S in x->c0 either way).  Returns 0, or -1
 * after one line. */
static int sclass_parse(const char *opt, const char *text, sclass_t *x)
{
    memset(x, 0, sizeof *x);
    const char *slash = strchr(text, '/');
    size_t l0 = slash ? (size_t)(slash - text) : strlen(text);
    if (l0 + 2 > sizeof x->t0 || (slash && strlen(slash + 1) + 32 > sizeof x->t1)) {
        cli_error("%s: the class is too long", opt);
        return -1;
    }
    memcpy(x->t0, text, l0);
    x->t0[l0] = '\0';
    x->has0 = 1;
    if (l0 > 0 && x->t0[l0 - 1] == ',') { /* "N,S,/W": no Ext part */
        x->has0 = 0;
        x->t0[l0] = '0';
        x->t0[l0 + 1] = '\0';
    }
    if (cli_class_parse(opt, x->t0, &x->c0))
        return -1;
    if (slash) {
        snprintf(x->t1, sizeof x->t1, "%d,%d,%s", (int)x->c0.n, (int)x->c0.s + 1, slash + 1);
        if (cli_class_parse(opt, x->t1, &x->c1))
            return -1;
        x->has1 = 1;
    }
    if (!x->has0 && !x->has1) {
        cli_error("%s: the class is zero: give N,S,V or N,S,V/W (W the lambda part)", opt);
        return -1;
    }
    return 0;
}

/* The name of one part: "x_(n, s, i)" or "x_(n, s)[v]". */
static size_t part_name(char *out, size_t n, const cli_class_t *c, int64_t dim)
{
    if (!c->have_vec)
        return (size_t)snprintf(out, n, "x_(%d, %d, %lld)", (int)c->n, (int)c->s,
                                (long long)c->idx);
    size_t k = (size_t)snprintf(out, n, "x_(%d, %d)[", (int)c->n, (int)c->s);
    for (int64_t i = 0; i < dim && k + 8 < n; i++)
        k += (size_t)snprintf(out + k, n - k, i ? ", %u" : "%u", (unsigned)fvec_get(c->vec, i));
    k += (size_t)snprintf(out + k, n - k, "]");
    return k;
}

/* The vectors of x in Ext of R (what names it) and its name as the peer
 * prints it: "[X0]", "λX1" or "[X0] + λX1".  v0, v1 (initialised here)
 * the parts, v1 zero-length when there is none.  Returns 0 or -1 after one
 * line. */
static int sclass_vectors(const char *opt, sclass_t *x, const resol_t *R, const char *what,
                          fvec_t *v0, fvec_t *v1, char *name, size_t n)
{
    int64_t d0 = resol_ext_dim(R, x->c0.s, x->c0.n), d1 = resol_ext_dim(R, x->c0.s + 1, x->c0.n);
    char space[256];
    snprintf(space, sizeof space, "Ext of %s", what);
    fvec_init(v0, d0 > 0 ? d0 : 0, 2);
    fvec_init(v1, 0, 2);
    if (d0 < 0 || d1 < 0) {
        cli_error("%s: (%d, %d) is outside the computed region of %s", opt, (int)x->c0.n,
                  (int)x->c0.s, cli_str(what));
        return -1;
    }
    size_t k = 0;
    name[0] = '\0';
    if (x->has0) {
        if (d0 == 0) {
            cli_error("%s: Ext of %s at (%d, %d) is zero: there is no class there", opt,
                      cli_str(what), (int)x->c0.n, (int)x->c0.s);
            return -1;
        }
        if (cli_class_vector(opt, &x->c0, d0, 2, space, what))
            return -1;
        fvec_addmul(*v0, fvec_window(x->c0.vec, 0, d0), 1);
        k += (size_t)snprintf(name + k, n - k, "[");
        k += part_name(name + k, n - k, &x->c0, d0);
        k += (size_t)snprintf(name + k, n - k, "]");
    }
    if (x->has1) {
        if (d1 == 0) {
            cli_error("%s: Ext of %s at (%d, %d) is zero: there is no lambda part there", opt,
                      cli_str(what), (int)x->c0.n, (int)x->c0.s + 1);
            return -1;
        }
        if (cli_class_vector(opt, &x->c1, d1, 2, space, what))
            return -1;
        fvec_clear(v1);
        fvec_init(v1, d1, 2);
        fvec_addmul(*v1, fvec_window(x->c1.vec, 0, d1), 1);
        k += (size_t)snprintf(name + k, n - k, x->has0 ? " + λ" : "λ");
        part_name(name + k, n - k, &x->c1, d1);
    }
    return 0;
}

/* One line for the options --secondary cannot take; CLI_OK when none. */
static int refuse_options(const cli_opts_t *o)
{
    static const cli_opt_t no[] = {CLI_OPT_C, CLI_OPT_FROM, CLI_OPT_GPU, CLI_OPT_COEFF};
    static const char *const why[] = {
        "the bracket <a, b, y> is printed for every y of the sphere in the region; omit --c",
        "the secondary lifts are computed from a fresh resolution; omit --from",
        "the secondary lifts run on the CPU; omit --gpu",
        "the secondary Massey product is of Ext(MODULE, F_2); omit --coefficients"};
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (cli_given(o, no[i])) {
            cli_error("massey: --secondary: %s: %s", cli_opt_name(no[i]), why[i]);
            return CLI_USAGE;
        }
    if (!o->cls[0] || !o->cls[1] || !cli_given(o, CLI_OPT_STEM)) {
        cli_error("massey: --secondary needs --a, --b and --stem (try 'adams massey --help')");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int is_sphere(const fdmod_t *M)
{
    return fdmod_bottom(M) == 0 && fdmod_top(M) == 0 && fdmod_dim(M, 0) == 1;
}

static void progress(void *ctx, int32_t step, int32_t steps)
{
    if (*(const int *)ctx)
        fprintf(stderr, "\rmassey --secondary: step %d of %d%s", (int)step, (int)steps,
                step == steps ? "\n" : "");
}

/* Lifts and prints, RM and RS resolved; the exit code. */
static int run(const cli_run_t *r, const resol_t *RM, const resol_t *RS, sclass_t *a, sclass_t *b,
               int32_t max_n, int32_t max_s)
{
    char an[512], bn[512], err[512];
    resol_sec_class_t ca, cb;
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    int rc = CLI_USAGE;
    if (!sclass_vectors("--a", a, RM, fdmod_name(r->M), &ca.x0, &ca.x1, an, sizeof an) &&
        !sclass_vectors("--b", b, RS, "S_2", &cb.x0, &cb.x1, bn, sizeof bn)) {
        ca.n = a->c0.n;
        ca.s = a->c0.s;
        cb.n = b->c0.n;
        cb.s = b->c0.s;
        resol_sec_massey_t *X = NULL;
        int show = r->show;
        int e = resol_sec_massey_new(&X, RM, RS, &ca, &cb, max_n, max_s, r->pool, progress,
                                     &show, err, sizeof err);
        if (e != 0) {
            cli_error("massey: --secondary: %s: %s", cli_str(fdmod_name(r->M)), err);
            rc = e == SQ_E_INVAL ? CLI_USAGE : CLI_FAIL;
        } else {
            int w = sq_sec_massey_write(stdout, X, RM, RS, an, bn, ca.n, ca.s, cb.n, cb.s, max_n,
                                        max_s);
            resol_sec_massey_free(X);
            rc = cli_finish_output(w);
        }
    }
    fvec_clear(&ca.x0);
    fvec_clear(&ca.x1);
    fvec_clear(&cb.x0);
    fvec_clear(&cb.x1);
    return rc;
}

/* The classes leave no bracket in the region: one line, CLI_USAGE. */
static int region_refused(const sclass_t *a, const sclass_t *b, int32_t max_s)
{
    char ms[32] = "the default";
    if (max_s != INT32_MAX)
        snprintf(ms, sizeof ms, "%d", (int)max_s);
    cli_error("massey: --secondary: --a (%d, %d) and --b (%d, %d) leave no bracket in the "
              "region: it needs n_a + n_b + 2 <= --stem, s_a + s_b < --max-s (%s), s_b >= 1 "
              "and s_a + s_b >= 2",
              (int)a->c0.n, (int)a->c0.s, (int)b->c0.n, (int)b->c0.s, ms);
    return CLI_USAGE;
}

static int region_ok(const sclass_t *a, const sclass_t *b, int32_t max_n, int32_t max_s)
{
    int32_t S = a->c0.s + b->c0.s;
    return b->c0.s >= 1 && a->c0.s >= 0 && S >= 2 && S < max_s &&
           a->c0.n + b->c0.n + 2 <= max_n && b->c0.n >= 0;
}

int cli_massey_secondary(const cli_opts_t *o)
{
    int rc = refuse_options(o);
    if (rc != CLI_OK)
        return rc;
    sclass_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (sclass_parse("--a", o->cls[0], &a) || sclass_parse("--b", o->cls[1], &b)) {
        sclass_clear(&a);
        sclass_clear(&b);
        return CLI_USAGE;
    }
    int32_t max_s = cli_given(o, CLI_OPT_MAXS) ? (int32_t)o->max_s : INT32_MAX;
    int32_t max_n = (int32_t)o->stem;
    if (!region_ok(&a, &b, max_n, max_s)) {
        rc = region_refused(&a, &b, max_s);
        sclass_clear(&a);
        sclass_clear(&b);
        return rc;
    }
    int32_t gn = max_n + 2 - (a.c0.n < 0 ? a.c0.n : 0);
    cli_run_t r, rs;
    memset(&rs, 0, sizeof rs);
    memset(&r, 0, sizeof r);
    /* M through (N, S); the sphere through (gn, S + 2) (the module itself
     * when it is the sphere) */
    rc = cli_d2_prepare(&r, o, gn - max_n, 2, &max_s);
    if (rc == CLI_OK && !region_ok(&a, &b, max_n, max_s))
        rc = region_refused(&a, &b, max_s);
    resol_t *RM = NULL, *RS = NULL;
    int shared = 0;
    if (rc == CLI_OK) {
        shared = is_sphere(r.M);
        if (!shared)
            rc = cli_run_prepare(&rs, o, "S_2", gn, max_s + 2, CLI_RUN_QUIET);
    }
    if (rc == CLI_OK) {
        RM = cli_run_resolve(&r);
        RS = shared ? RM : cli_run_resolve(&rs);
        rc = RM && RS ? run(&r, RM, RS, &a, &b, max_n, max_s) : CLI_FAIL;
    }
    if (!shared)
        resol_free(RS);
    resol_free(RM);
    cli_run_release(&rs);
    cli_run_release(&r);
    sclass_clear(&a);
    sclass_clear(&b);
    return rc;
}
