/*
 * cmd_products.c -- `adams products`, `adams product` and `adams massey`:
 * printing only (the options are cli_opts.c's, the checks before a run
 * cli_run.c's, the mathematics src/resolution/resol_products.c's).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd_products.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_class.h"
#include "cli_module.h"
#include "cli_opts.h"
#include "cli_from.h"
#include "cli_run.h"
#include "cmd_secondary_massey.h"
#include "cmd_secondary_prod.h"
#include "resol_products.h"
#include "sq_core.h"
#include "sq_products.h"

static const char products_usage[] =
    "Usage: adams products [MODULE] --stem N [--max-s S] [options]\n"
    "\n"
    "Prints the products by h_0, h_1, h_2, ... (at an odd prime p: a_0, h_0, h_1, ...)\n"
    "of every class of Ext(MODULE) in the region, one line each in the format of the\n"
    "peer sseq's filtration_one:\n"
    "    h_i x_(n, s, k) = [v]\n"
    "v is h_i x_(n, s, k) in the basis of Ext at (n + |h_i| - 1, s + 1) (|h_i| = 2^i;\n"
    "at odd p |a_0| = 1, |h_i| = 2(p-1)p^i, and the entries are 0..p-1); lines whose\n"
    "target is zero are left out; order: stems, then s, then the class, then k.\n"
    "\n"
    "Options: --stem N, --max-s S (default (N - bottom)/(2p - 2) + 3 + span), --algorithm\n"
    "auto|nassau|classical, --threads K, --progress, --quiet, --max-memory SIZE,\n"
    "--gpu, -h/--help (as for 'adams resolve'); --from FILE reads the resolution\n"
    "from a store (adams resolve --save FILE) instead of computing it (the region:\n"
    "the store's, or --stem/--max-s within it; a MODULE or --algorithm given with it\n"
    "must be the store's; --threads, --progress and --gpu are refused with it).\n"
    "--coefficients N: the products on Ext(MODULE, N), N a finite module, as those on\n"
    "Ext of the module MODULE*D(N) (docs/resolution.md; product and massey too; not\n"
    "with --from).\n"
    "Both engines give the same lines as the peer's classical engine where their bases\n"
    "agree (checked for S_2 and C2; docs/products.md).\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument, 3 the region does not\n"
    "fit in memory, 4 the threads cannot be started.\n";

static const char product_usage[] =
    "Usage: adams product [MODULE] --class N,S,V --by N,S,V [options]\n"
    "\n"
    "Multiplies the class x of Ext(MODULE) at stem N, filtration S by the class y of\n"
    "Ext(S_p) given by --by (p the module's prime; Ext(MODULE) is a module over\n"
    "Ext(S_p)) and prints\n"
    "    x_(N, S) [V] * y_(N', S') [V'] = [U] at (N + N', S + S')\n"
    "A class is N,S,[v0,v1,...] (a vector over the basis x_(N, S, i), coefficients\n"
    "0..p-1) or N,S,I (the basis class x_(N, S, I)).  Options: --algorithm, --threads,\n"
    "--progress, --quiet, --max-memory, --gpu (as for 'adams resolve'), --from FILE\n"
    "(Ext(MODULE) read from a store, as for 'adams products'; Ext(S_p) is computed),\n"
    "-h.\n"
    "\n"
    "adams product [MODULE] --secondary --class N,S,V --stem N' [--max-s S'] (p = 2):\n"
    "the products in Mod_{C lambda^2} of the class x (a d_2-cycle) with every class y\n"
    "of the sphere that survives to E_3, y at (n, s) with n < N' - N and s < S' - S,\n"
    "in the format of the peer's secondary_product (docs/secondary.md):\n"
    "    [x_(N, S, I)] [x_(n, s, i) + ...] = [ext] + λ [lambda]\n"
    "    [x_(N, S, I)] λ x_(n, s, i) = λ [v]       (y supports a d_2: x y)\n"
    "ext is x y at (N + n, S + s); lambda is at (N + n, S + s + 1), modulo the image of\n"
    "d_2.  The modules and refusals of 'adams d2'; --by, --from, --gpu and\n"
    "--coefficients are refused with --secondary, --stem and --max-s without it.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument, 3 the region does not\n"
    "fit in memory, 4 the threads cannot be started.\n";

static const char massey_usage[] =
    "Usage: adams massey [MODULE] --a N,S,V --b N,S,V --c N,S,V [options]\n"
    "\n"
    "The Massey product <a, b, c> for a, b classes of Ext(S_p) (p the module's prime)\n"
    "and c a class of Ext(MODULE) with a b = 0 and b c = 0: prints a representative\n"
    "and a basis of the indeterminacy a Ext(MODULE) + Ext(S_p) c, in the basis of Ext\n"
    "at (n_a + n_b + n_c + 1, s_a + s_b + s_c - 1):\n"
    "    <a, b, c> = [U] at (N, S)\n"
    "    indeterminacy: [W1], [W2], ...     (or: indeterminacy: 0)\n"
    "At an odd prime the representative is a H for the null-homotopy d H + H d = B C\n"
    "of the lifts of b and c (docs/products.md: its sign convention).  Classes as for\n"
    "'adams product'.  Options as for 'adams product'.\n"
    "\n"
    "adams massey [MODULE] --secondary --a N,S,V[/W] --b N,S,V[/W] --stem N'\n"
    "             [--max-s S']   (p = 2)\n"
    "The Massey products <a, b, y> in Mod_{C lambda^2} of the peer's\n"
    "secondary_massey: a = [V] + λ W of Ext(MODULE) (W over Ext at (N, S + 1);\n"
    "N,S,/W for λ W alone), b of the sphere likewise, [a][b] = 0, for every\n"
    "y = [y0] + λ y1 of the sphere at (n, s) with [b] y = 0, n + n_a + n_b + 2 <= N',\n"
    "s + s_a + s_b <= S' (docs/secondary.md):\n"
    "    <[x_(N, S, I)], [..], [x_(n, s, i) + ...] + λx_(n, s+1, j)> = ±[e] + λ[l]\n"
    "e at (n + n_a + n_b + 1, s + s_a + s_b - 1), l one filtration above, up\n"
    "to sign.  The modules and refusals of 'adams d2'; --c, --from, --gpu and\n"
    "--coefficients are refused with --secondary, --stem and --max-s without it.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument (including a b != 0 or\n"
    "b c != 0), 3 the region does not fit in memory, 4 the threads cannot be started.\n";

/* Checks c against Ext of R (what `what` names) and makes its vector at
 * R's prime (an index becomes a basis vector).  Returns 0 or -1 after an
 * error. */
static int resolve_class(const char *opt, cli_class_t *c, const resol_t *R, const char *what)
{
    int64_t dim = resol_ext_dim(R, c->s, c->n);
    if (dim < 0) {
        cli_error("%s: (%d, %d) is outside the computed region of %s", opt, (int)c->n, (int)c->s,
                  what);
        return -1;
    }
    if (dim == 0) {
        cli_error("%s: Ext of %s at (%d, %d) is zero: there is no class there", opt, what,
                  (int)c->n, (int)c->s);
        return -1;
    }
    char space[256];
    snprintf(space, sizeof space, "Ext of %s", what);
    return cli_class_vector(opt, c, dim, resol_prime(R), space, what);
}

/* A class vector for Ext of R at (n, s): its dimension's entries at R's
 * prime, zeroed (at least one, so that a view of it is never empty). */
static fvec_t class_alloc(const resol_t *R, int32_t s, int32_t n)
{
    int64_t dim = resol_ext_dim(R, s, n);
    fvec_t v;
    fvec_init(&v, dim > 0 ? dim : 0, resol_prime(R));
    return v;
}

static void print_vec(FILE *f, fvec_t v, int64_t n)
{
    fputc('[', f);
    for (int64_t i = 0; i < n; i++)
        fprintf(f, i ? ", %u" : "%u", (unsigned)fvec_get(v, i));
    fputc(']', f);
}

/* ---- Shared options and runs ----------------------------------------------- */

typedef cli_opts_t opts_t;

/* The options every verb here shares: those of a run and --from. */
#define RUN_OPTS                                                                                 \
    (CLI_BIT(CLI_OPT_ALGO) | CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |              \
     CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM) | CLI_BIT(CLI_OPT_GPU) |                   \
     CLI_BIT(CLI_OPT_FROM) | CLI_BIT(CLI_OPT_COEFF))

static const cli_verb_t verbs[] = {
    {"products", products_usage, RUN_OPTS | CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS), NULL,
     "module"},
    {"product", product_usage,
     RUN_OPTS | CLI_BIT(CLI_OPT_CLASS) | CLI_BIT(CLI_OPT_BY) | CLI_BIT(CLI_OPT_SECONDARY) |
         CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS),
     NULL, "module"},
    {"massey", massey_usage,
     RUN_OPTS | CLI_BIT(CLI_OPT_A) | CLI_BIT(CLI_OPT_B) | CLI_BIT(CLI_OPT_C) |
         CLI_BIT(CLI_OPT_SECONDARY) | CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS),
     NULL, "module"},
};

/* Parses argv for the verb named verb (cli_parse_opts).  Returns 0 when
 * the verb should run, or 1 when it should return *rc at once (the help
 * printed, or a one-line error). */
static int parse(opts_t *o, int argc, char **argv, const char *verb, int *rc)
{
    const cli_verb_t *v = &verbs[0];
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
        if (strcmp(verbs[i].name, verb) == 0)
            v = &verbs[i];
    return cli_parse_opts(o, v, argc, argv, rc);
}

/* The exit code of the last failed resolve (CLI_USAGE, CLI_NOMEM,
 * CLI_NOTHREAD). */
static int resolve_failure = CLI_USAGE;

/* The resolution of the module o->operand: computed through the shared
 * prepare path (cli_run.h), or read from the store of --from.  region: the
 * region is (*max_n, *max_s) (*max_s < 0: the default filtration); else it
 * is --stem and --max-s (with --from: or the store's).  On success writes
 * the region back to *max_n, *max_s and returns R (*M its module, the
 * caller frees both; info->bottom its bottom); NULL with *M = NULL and
 * resolve_failure set otherwise. */
static resol_t *resolve_region(const opts_t *o, int region, int64_t *max_n, int64_t *max_s,
                               fdmod_t **M, sq_modspec_info_t *info)
{
    memset(info, 0, sizeof *info);
    *M = NULL;
    if (o->from) {
        resol_t *R = NULL;
        int flags = region ? CLI_FROM_REGION : 0;
        if (strcmp(o->verb->name, "products") != 0)
            flags |= CLI_FROM_COMPUTES; /* the sphere's Ext is computed */
        resolve_failure = cli_from_prepare(o, o->operand, flags, &R, M, max_n, max_s);
        if (R)
            info->bottom = fdmod_bottom(*M);
        return R;
    }
    if (!region) {
        *max_n = o->stem;
        *max_s = cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1;
    }
    cli_run_t r;
    resolve_failure = cli_run_prepare(&r, o, o->operand ? o->operand : "S_2", *max_n, *max_s, 0);
    resol_t *R = NULL;
    if (resolve_failure == CLI_OK) {
        R = cli_run_resolve(&r);
        *max_s = r.max_s;
        info->bottom = r.bottom;
        *M = r.M; /* kept: R refers to it */
        r.M = NULL;
    }
    cli_run_release(&r);
    return R;
}

/* The resolution of o->operand through (max_n, max_s): resolve_region. */
static resol_t *resolve(const opts_t *o, int32_t max_n, int32_t max_s, fdmod_t **M,
                        sq_modspec_info_t *info)
{
    int64_t n = max_n, s = max_s;
    return resolve_region(o, 1, &n, &s, M, info);
}

/* The resolution of the sphere at R's prime through (max_n, max_s),
 * quietly, with the options of o (threads, memory, GPU); its name ("S_2",
 * "S_3", ...) into name (16 bytes). */
static resol_t *resolve_sphere(const opts_t *o, const resol_t *R, int32_t max_n, int32_t max_s,
                               fdmod_t **M, char *name)
{
    cli_run_t r;
    *M = NULL;
    snprintf(name, 16, "S_%u", (unsigned)resol_prime(R));
    resolve_failure = cli_run_prepare(&r, o, name, max_n, max_s, CLI_RUN_QUIET);
    resol_t *RS = NULL;
    if (resolve_failure == CLI_OK) {
        RS = cli_run_resolve(&r);
        *M = r.M;
        r.M = NULL;
    }
    cli_run_release(&r);
    return RS;
}

static int finish(int rc)
{
    return cli_finish_output(rc);
}

/* ---- The verbs -------------------------------------------------------------- */

int cmd_products(int argc, char **argv)
{
    opts_t o;
    int prc;
    if (parse(&o, argc, argv, "products", &prc))
        return prc;
    if (!cli_given(&o, CLI_OPT_STEM) && !o.from) {
        cli_error("products: --stem is required");
        return CLI_USAGE;
    }
    fdmod_t *M;
    sq_modspec_info_t info;
    int64_t stem, max_s;
    resol_t *R = resolve_region(&o, 0, &stem, &max_s, &M, &info);
    if (!R)
        return resolve_failure;
    int rc = sq_products_write(stdout, R, info.bottom, (int32_t)stem, resol_max_s(R));
    resol_free(R);
    fdmod_free(M);
    return finish(rc);
}

int cmd_product(int argc, char **argv)
{
    opts_t o;
    int prc;
    if (parse(&o, argc, argv, "product", &prc))
        return prc;
    if (cli_given(&o, CLI_OPT_SECONDARY))
        return cli_product_secondary(&o);
    if (cli_given(&o, CLI_OPT_STEM) || cli_given(&o, CLI_OPT_MAXS)) {
        cli_error("product: %s: the region is the classes' own; --stem and --max-s go with "
                  "--secondary",
                  cli_opt_name(cli_given(&o, CLI_OPT_STEM) ? CLI_OPT_STEM : CLI_OPT_MAXS));
        return CLI_USAGE;
    }
    cli_class_t x, y;
    if (!o.cls[0] || !o.cls[1]) {
        cli_error("product: --class and --by are both required (try 'adams product --help')");
        return CLI_USAGE;
    }
    if (cli_class_parse("--class", o.cls[0], &x) || cli_class_parse("--by", o.cls[1], &y))
        return CLI_USAGE;
    if (y.n < 0) {
        cli_error("--by: Ext of the sphere is zero in negative stems");
        return CLI_USAGE;
    }
    fdmod_t *M, *S = NULL;
    sq_modspec_info_t info;
    resol_t *R = resolve(&o, x.n + y.n, x.s + y.s, &M, &info);
    if (!R)
        return resolve_failure;
    char sname[16];
    resol_t *RS = resolve_sphere(&o, R, y.n, y.s, &S, sname);
    int rc = RS ? CLI_USAGE : resolve_failure;
    fvec_t out = class_alloc(R, x.s + y.s, x.n + y.n);
    if (RS && !resolve_class("--class", &x, R, fdmod_name(M)) &&
        !resolve_class("--by", &y, RS, sname)) {
        if (resol_product(R, RS, x.s, x.s + x.n, x.vec, y.s, y.s + y.n, y.vec, out) != 0)
            cli_error("product: the region needed was not computed (a bug: please report)");
        else {
            printf("x_(%d, %d) ", (int)x.n, (int)x.s);
            print_vec(stdout, x.vec, x.len);
            printf(" * y_(%d, %d) ", (int)y.n, (int)y.s);
            print_vec(stdout, y.vec, y.len);
            printf(" = ");
            print_vec(stdout, out, resol_ext_dim(R, x.s + y.s, x.n + y.n));
            printf(" at (%d, %d)\n", (int)(x.n + y.n), (int)(x.s + y.s));
            rc = finish(0);
        }
    }
    fvec_clear(&out);
    cli_class_clear(&x);
    cli_class_clear(&y);
    resol_free(RS);
    fdmod_free(S);
    resol_free(R);
    fdmod_free(M);
    return rc;
}

int cmd_massey(int argc, char **argv)
{
    opts_t o;
    int prc;
    if (parse(&o, argc, argv, "massey", &prc))
        return prc;
    if (cli_given(&o, CLI_OPT_SECONDARY))
        return cli_massey_secondary(&o);
    if (cli_given(&o, CLI_OPT_STEM) || cli_given(&o, CLI_OPT_MAXS)) {
        cli_error("massey: %s: the region is the classes' own; --stem and --max-s go with "
                  "--secondary",
                  cli_opt_name(cli_given(&o, CLI_OPT_STEM) ? CLI_OPT_STEM : CLI_OPT_MAXS));
        return CLI_USAGE;
    }
    cli_class_t a, b, c;
    if (!o.cls[0] || !o.cls[1] || !o.cls[2]) {
        cli_error("massey: --a, --b and --c are all required (try 'adams massey --help')");
        return CLI_USAGE;
    }
    if (cli_class_parse("--a", o.cls[0], &a) || cli_class_parse("--b", o.cls[1], &b) ||
        cli_class_parse("--c", o.cls[2], &c))
        return CLI_USAGE;
    if (a.s < 1 || b.s < 1) {
        cli_error("massey: a and b must have filtration at least 1");
        return CLI_USAGE;
    }
    int32_t n = a.n + b.n + c.n + 1, s = a.s + b.s + c.s - 1;
    fdmod_t *M, *S = NULL;
    sq_modspec_info_t info;
    /* Ext(M) is read up to (n, s) and at b c; Ext(S) up to a b, one stem more. */
    int32_t mn = n > b.n + c.n ? n : b.n + c.n;
    int32_t ms = s > b.s + c.s ? s : b.s + c.s;
    resol_t *R = resolve(&o, mn, ms, &M, &info);
    if (!R)
        return resolve_failure;
    char sname[16];
    resol_t *RS = resolve_sphere(&o, R, a.n + b.n + 1, a.s + b.s, &S, sname);
    int rc = RS ? CLI_USAGE : resolve_failure;
    fvec_t out = class_alloc(R, s, n);
    if (RS && !resolve_class("--a", &a, RS, sname) && !resolve_class("--b", &b, RS, sname) &&
        !resolve_class("--c", &c, R, fdmod_name(M))) {
        int r = resol_massey(R, RS, a.s, a.s + a.n, a.vec, b.s, b.s + b.n, b.vec, c.s,
                             c.s + c.n, c.vec, out);
        fmat_t ind = {0};
        if (r == SQ_E_INVAL)
            cli_error("massey: <a, b, c> is not defined: a b or b c is not zero (check with "
                      "'adams product')");
        else if (r == 0 && resol_massey_indeterminacy(R, RS, a.s, a.s + a.n, a.vec, b.s,
                                                      b.s + b.n, c.s, c.s + c.n, c.vec,
                                                      &ind) == 0) {
            int64_t dim = resol_ext_dim(R, s, n);
            printf("<a, b, c> = ");
            print_vec(stdout, out, dim);
            printf(" at (%d, %d)\nindeterminacy: ", (int)n, (int)s);
            if (fmat_rows(&ind) == 0)
                printf("0");
            for (int64_t i = 0; i < fmat_rows(&ind); i++) {
                if (i)
                    printf(", ");
                print_vec(stdout, fmat_row(&ind, i), dim);
            }
            printf("\n");
            rc = finish(0);
        } else
            cli_error("massey: the region needed was not computed (a bug: please report)");
        fmat_clear(&ind);
    }
    fvec_clear(&out);
    cli_class_clear(&a);
    cli_class_clear(&b);
    cli_class_clear(&c);
    resol_free(RS);
    fdmod_free(S);
    resol_free(R);
    fdmod_free(M);
    return rc;
}
