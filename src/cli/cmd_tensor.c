/*
 * cmd_tensor.c -- `adams tensor M N` and `adams dual N`: the module file of
 * M ⊗ N and of the dual DN (cmd_tensor.h).  The module itself is the one
 * every verb builds for a module named "M*N" or "D(N)" (cli_module.c,
 * fdmod_tensor.h, fdmod_dual.h); these verbs write it with
 * sq_modspec_write.
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd_tensor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_run.h"
#include "sq_core.h"
#include "sq_modspec_write.h"

static const char tensor_usage[] =
    "Usage: adams tensor M N [--stem N] [-o FILE]\n"
    "\n"
    "Writes the module file (docs/modules.md) of the tensor product M ⊗ N of two\n"
    "modules at the same prime: the cohomology of the smash product.  The basis is\n"
    "the pairs x*y, ordered by degree, then x, then y; the action is the Cartan\n"
    "formula.  A module over a subalgebra (ko, tmf2) tensor one over a larger\n"
    "algebra is over the smaller.  'M*N' names the same product wherever a module\n"
    "is named: 'adams resolve C2*Ceta --stem 40'.\n"
    "\n"
    "Options:\n"
    "  --stem N        keep the degrees <= N + 1 (what Ext through stem N needs);\n"
    "                  required when a factor is infinite (RP_inf, A_mod_A1)\n"
    "  -o, --output FILE  write the file there (default: standard output)\n"
    "\n"
    "Exit status: 0 on success, 1 if the file could not be written, 2 on bad input\n"
    "(nothing is written).\n";

static const char dual_usage[] =
    "Usage: adams dual N [-o FILE]\n"
    "\n"
    "Writes the module file (docs/modules.md) of the Spanier-Whitehead dual DN of a\n"
    "finite module N: (DN)^{-n} = Hom(N^n, F_p), a acting on a functional f by\n"
    "(a f)(x) = (-1)^{|a||f|} f(chi(a) x), chi the antipode.  The basis element x*\n"
    "of degree -|x| is dual to x (up to the sign of docs/modules.md, 'Duals');\n"
    "D(DN) is N's file.  'D(N)' names the same dual wherever a module is named:\n"
    "'adams resolve \"C2*D(C2)\" --stem 30' is Ext(C2, C2).\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE  write the file there (default: standard output)\n"
    "\n"
    "Exit status: 0 on success, 1 if the file could not be written, 2 on bad input\n"
    "(an infinite module or a cofiber; nothing is written).\n";

typedef struct {
    const char *verb, *usage;
    int nmod; /* the modules the verb takes: 2 (tensor), 1 (dual) */
    const char *m[2];
    const char *output;
    int64_t stem; /* -1: not given */
} tensor_opts_t;

/* Parses argv; returns -1 to go on, else the exit code. */
static int parse(tensor_opts_t *o, int argc, char **argv)
{
    int n = 0;
    const char *want = o->nmod == 2 ? "give two modules, M N" : "give one module, N";
    o->stem = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return cli_write_stdout(o->usage);
        int is_out = strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0;
        int is_stem = o->nmod == 2 && strcmp(a, "--stem") == 0;
        if (is_out || is_stem) {
            if (i + 1 >= argc) {
                cli_error("%s: %s needs a value (try 'adams %s --help')", o->verb, a, o->verb);
                return CLI_USAGE;
            }
            if (is_out)
                o->output = argv[++i];
            else if (cli_parse_int("--stem", argv[++i], 0, SQ_MODSPEC_MAX_DEGREE - 1, &o->stem))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("%s: unknown option '%s' (try 'adams %s --help')", o->verb, cli_str(a),
                      o->verb);
            return CLI_USAGE;
        } else if (n < o->nmod) {
            o->m[n++] = a;
        } else {
            cli_error("%s: unexpected argument '%s': %s", o->verb, cli_str(a), want);
            return CLI_USAGE;
        }
    }
    if (n < o->nmod) {
        cli_error("%s: %s (try 'adams %s --help')", o->verb, want, o->verb);
        return CLI_USAGE;
    }
    return -1;
}

/* Finds the dual's module and refuses an output that is its file.  Fills
 * ref (the dual "D(N)"). */
static int check_dual(const tensor_opts_t *o, cli_module_ref_t *ref, cli_module_ref_t *f)
{
    if (cli_find_module(o->m[0], f, 0))
        return CLI_USAGE;
    int rc = cli_check_output(o->output, f->path, NULL);
    if (rc)
        return rc;
    if (strlen(o->m[0]) + 4 > sizeof ref->base) {
        cli_error("dual: the module name is too long");
        return CLI_USAGE;
    }
    memset(ref, 0, sizeof *ref);
    snprintf(ref->base, sizeof ref->base, "D(%s)", o->m[0]);
    ref->dual = 1;
    return CLI_OK;
}

/* Finds the two factors and refuses an infinite one without --stem and an
 * output that is one of their files.  Fills ref (the product "M*N"). */
static int check_factors(const tensor_opts_t *o, cli_module_ref_t *ref, cli_module_ref_t *f)
{
    if (o->nmod == 1)
        return check_dual(o, ref, f);
    for (int s = 0; s < 2; s++) {
        if (cli_find_module(o->m[s], &f[s], 0))
            return CLI_USAGE;
        sq_modspec_info_t info;
        fdmod_t *M = o->stem < 0 ? cli_open_module(&f[s], 64, &info, 1) : NULL;
        if (o->stem < 0 && !M)
            return CLI_USAGE;
        fdmod_free(M);
        if (o->stem < 0 && info.infinite) {
            cli_error("tensor: %s is infinite: give --stem N to write the product through degree "
                      "N + 1 (what Ext through stem N needs)",
                      cli_str(o->m[s]));
            return CLI_USAGE;
        }
    }
    int rc = cli_check_output(o->output, f[0].path, f[1].path);
    if (rc)
        return rc;
    size_t a = strlen(o->m[0]), b = strlen(o->m[1]);
    if (a + b + 2 > sizeof ref->base) {
        cli_error("tensor: the module names are too long");
        return CLI_USAGE;
    }
    memset(ref, 0, sizeof *ref);
    snprintf(ref->base, sizeof ref->base, "%s*%s", o->m[0], o->m[1]);
    ref->tensor = (int32_t)a + 1;
    return CLI_OK;
}

/* Writes text to path whole, or nothing (a temporary file renamed). */
static int write_file(const char *path, const char *text)
{
    size_t n = strlen(path) + 16;
    char *tmp = sq_malloc(n);
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "we");
    int ok = f && fputs(text, f) >= 0;
    int e = errno;
    if (f && fclose(f) != 0 && ok)
        ok = 0, e = errno;
    if (ok && rename(tmp, path) != 0)
        ok = 0, e = errno;
    if (!ok) {
        if (f)
            remove(tmp);
        cli_error("cannot write '%s': %s", cli_str(path), strerror(e));
    }
    sq_free(tmp);
    return ok ? CLI_OK : CLI_FAIL;
}

/* Either verb once its options are set. */
static int run(tensor_opts_t o, int argc, char **argv)
{
    int rc = parse(&o, argc, argv);
    if (rc >= 0)
        return rc;
    cli_module_ref_t *refs = sq_malloc(3 * sizeof *refs);
    rc = check_factors(&o, &refs[0], &refs[1]);
    fdmod_t *P = NULL;
    sq_modspec_info_t info;
    if (rc == CLI_OK) {
        int32_t top = o.stem < 0 ? SQ_MODSPEC_MAX_DEGREE : (int32_t)o.stem + 1;
        P = cli_open_module(&refs[0], top, &info, 0);
        rc = P ? CLI_OK : CLI_USAGE;
    }
    sq_free(refs);
    if (rc != CLI_OK)
        return rc;
    char desc[256];
    if (o.nmod == 1)
        snprintf(desc, sizeof desc, "the dual %.80s (adams dual)", fdmod_name(P));
    else if (info.infinite)
        snprintf(desc, sizeof desc, "the tensor product %.80s (adams tensor), degrees <= %d",
                 fdmod_name(P), (int)o.stem + 1);
    else
        snprintf(desc, sizeof desc, "the tensor product %.80s (adams tensor)", fdmod_name(P));
    char *text = sq_modspec_write_text(P, desc);
    fdmod_free(P);
    if (!text) {
        cli_error("tensor: out of memory writing the module file");
        return CLI_NOMEM;
    }
    rc = o.output ? write_file(o.output, text) : cli_write_stdout(text);
    sq_free(text);
    return rc;
}

int cmd_tensor(int argc, char **argv)
{
    tensor_opts_t o = {.verb = "tensor", .usage = tensor_usage, .nmod = 2};
    return run(o, argc, argv);
}

int cmd_dual(int argc, char **argv)
{
    tensor_opts_t o = {.verb = "dual", .usage = dual_usage, .nmod = 1};
    return run(o, argc, argv);
}
