/*
 * cmd_tensor.c -- `adams tensor M N`: the module file of M ⊗ N
 * (cmd_tensor.h).  The product itself is the one every verb builds for a
 * module named "M*N" (cli_module.c, fdmod_tensor.h); this verb writes it
 * with sq_modspec_write.
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

typedef struct {
    const char *m[2];
    const char *output;
    int64_t stem; /* -1: not given */
} tensor_opts_t;

/* Parses argv; returns -1 to go on, else the exit code. */
static int parse(tensor_opts_t *o, int argc, char **argv)
{
    int n = 0;
    memset(o, 0, sizeof *o);
    o->stem = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return cli_write_stdout(tensor_usage);
        int is_out = strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0;
        if (is_out || strcmp(a, "--stem") == 0) {
            if (i + 1 >= argc) {
                cli_error("tensor: %s needs a value (try 'adams tensor --help')", a);
                return CLI_USAGE;
            }
            if (is_out)
                o->output = argv[++i];
            else if (cli_parse_int("--stem", argv[++i], 0, SQ_MODSPEC_MAX_DEGREE - 1, &o->stem))
                return CLI_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("tensor: unknown option '%s' (try 'adams tensor --help')", cli_str(a));
            return CLI_USAGE;
        } else if (n < 2) {
            o->m[n++] = a;
        } else {
            cli_error("tensor: unexpected argument '%s': give two modules, M N", cli_str(a));
            return CLI_USAGE;
        }
    }
    if (n < 2) {
        cli_error("tensor: give two modules, M N (try 'adams tensor --help')");
        return CLI_USAGE;
    }
    return -1;
}

/* Finds the two factors and refuses an infinite one without --stem and an
 * output that is one of their files.  Fills ref (the product "M*N"). */
static int check_factors(const tensor_opts_t *o, cli_module_ref_t *ref, cli_module_ref_t *f)
{
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

int cmd_tensor(int argc, char **argv)
{
    tensor_opts_t o;
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
    if (info.infinite)
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
