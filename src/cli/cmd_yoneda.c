/*
 * cmd_yoneda.c -- `adams yoneda`: a Yoneda representative of a class of
 * Ext(M) (the mathematics src/resolution/resol_yoneda.h's; the files the
 * module writer's, sq_modspec_write.h, and the map writer's, sq_map.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd_yoneda.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_class.h"
#include "cli_dir.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "resol_yoneda.h"
#include "sq_core.h"
#include "sq_map.h"
#include "sq_modspec.h"
#include "sq_modspec_write.h"

static const char yoneda_usage[] =
    "Usage: adams yoneda [MODULE] --class N,S,V [-o DIR] [options]\n"
    "\n"
    "A Yoneda representative of the class V of Ext^{S,T}(MODULE) at stem N (T = N + S,\n"
    "S >= 1; MODULE default S_2, a finite module over the whole algebra, any prime):\n"
    "an exact sequence of finite modules\n"
    "    0 -> S_p[T] -> E_{S-1} -> ... -> E_0 -> MODULE -> 0\n"
    "whose Yoneda class is V (docs/resolution.md \"Yoneda representatives\": the\n"
    "pushout of the minimal resolution along the class, kept in degrees <= max(T,\n"
    "top)).  Prints the sequence and the dimension and degrees of each E_i; with\n"
    "-o DIR also writes DIR/E0.json .. E<S-1>.json (module files) and DIR/d0.json\n"
    "... d<S>.json (map files: d_i out of the i-th term, d0 : E_0 -> MODULE, d<S> :\n"
    "S_p[T] -> E_<S-1>), naming the modules DIR/Ei.json as DIR was given.  DIR is\n"
    "made when missing; one already holding E0.json or d0.json is refused.\n"
    "A class is N,S,[v0,v1,...] or N,S,I, as for 'adams product'.\n"
    "\n"
    "Options: --class N,S,V, -o DIR, --algorithm, --threads K, --progress, --quiet,\n"
    "--max-memory SIZE (as for 'adams resolve'; the region is the class's), -h.\n"
    "\n"
    "Exit status: 0 ok, 1 a file not written, 2 bad argument (a class out of range\n"
    "or zero, S = 0, a module that is not finite or is over a subalgebra, a\n"
    "representative too large), 3 the resolution does not fit in memory.\n";

enum {
    YONEDA_OPTIONS = CLI_BIT(CLI_OPT_CLASS) | CLI_BIT(CLI_OPT_OUTPUT) | CLI_BIT(CLI_OPT_ALGO) |
                     CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |
                     CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM)
};
static const cli_verb_t yoneda_verb = {"yoneda", yoneda_usage, YONEDA_OPTIONS, NULL, "module"};

/* The kinds the representative cannot be built for: one line, CLI_USAGE. */
static int refuse_kind(const cli_run_t *r)
{
    static const struct {
        cli_kind_t kind;
        const char *why;
    } no[] = {
        {CLI_KIND_COFIBER, "its Ext comes from two resolutions, not one"},
        {CLI_KIND_PRESENTED, "the terms of a representative are finite modules"},
        {CLI_KIND_PROJECTIVE, "the terms of a representative are finite modules"},
        {CLI_KIND_PROFILE, "the map files of the representative need modules over the whole "
                           "algebra"},
        {CLI_KIND_INF_PROFILE, "the terms of a representative are finite modules over the "
                               "whole algebra"},
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if ((r->kinds >> no[i].kind) & 1u) {
            cli_error("yoneda: %s is %s: %s", cli_str(r->ref.base),
                      cli_kind_words(no[i].kind, r->prime), no[i].why);
            return CLI_USAGE;
        }
    return CLI_OK;
}

/* The texts of the files: [0 .. s-1] the modules E_i, [s .. 2s] the maps
 * d_0 .. d_s; names[] their file names in DIR.  Returns 0, or CLI_USAGE
 * after one line (a name that is not UTF-8). */
static int file_texts(const resol_yoneda_t *Y, const char *dir, const char *mname, char **text,
                      char (*names)[32])
{
    int32_t s = resol_yoneda_length(Y);
    char src[4200], tgt[4200], desc[256];
    for (int32_t i = 0; i < s; i++) {
        snprintf(desc, sizeof desc, "the term E_%d of a Yoneda representative (adams yoneda)",
                 (int)i);
        text[i] = sq_modspec_write_text(resol_yoneda_module(Y, i), desc);
        snprintf(names[i], sizeof names[i], "E%d.json", (int)i);
    }
    for (int32_t i = 0; i <= s; i++) {
        const fdmod_t *K = resol_yoneda_module(Y, s);
        if (i == s)
            snprintf(src, sizeof src, "%s", fdmod_name(K));
        else
            snprintf(src, sizeof src, "%s/E%d.json", dir, (int)i);
        if (i == 0)
            snprintf(tgt, sizeof tgt, "%s", mname);
        else
            snprintf(tgt, sizeof tgt, "%s/E%d.json", dir, (int)i - 1);
        snprintf(desc, sizeof desc, "d_%d of a Yoneda representative (adams yoneda)", (int)i);
        text[s + i] = sq_map_write_text(resol_yoneda_map(Y, i), src, tgt, desc);
        snprintf(names[s + i], sizeof names[s + i], "d%d.json", (int)i);
        if (!text[s + i]) {
            cli_error("-o %s: a module name is not UTF-8, which a map file cannot hold",
                      cli_str(dir));
            return CLI_USAGE;
        }
    }
    return 0;
}

/* Whether the texts load back as the readers take them: each module file
 * by the module reader (its limits on tables included), each map file
 * within the map reader's size.  Returns 0, or CLI_USAGE after one line. */
static int check_texts(char *const *text, char (*names)[32], int32_t s)
{
    char err[512];
    for (int32_t i = 0; i < s; i++) {
        sq_modspec_module_t m;
        if (sq_modspec_load_module(&m, text[i], strlen(text[i]), names[i], NULL, err,
                                   sizeof err) != 0) {
            cli_error("yoneda: the term E_%d would not load back as a module file (%s): choose "
                      "a class of lower degree", (int)i, err);
            return CLI_USAGE;
        }
        sq_modspec_module_free(&m);
    }
    for (int32_t i = s; i <= 2 * s; i++)
        if (strlen(text[i]) > SQ_MAP_MAX_FILE) {
            cli_error("yoneda: the map file %s would take %zu bytes, more than a map file may "
                      "(%d): choose a class of lower degree", names[i], strlen(text[i]),
                      SQ_MAP_MAX_FILE);
            return CLI_USAGE;
        }
    return 0;
}

/* Writes one file through PATH.tmp and a rename.  Returns 0 or -1. */
static int write_file(const char *path, const char *text)
{
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        (void)remove(tmp);
        return -1;
    }
    return 0;
}

/* Writes the files of Y into dir, all or none.  Returns 0 or the exit
 * code after one line. */
static int write_files(const resol_yoneda_t *Y, const char *dir, const char *mname)
{
    int32_t s = resol_yoneda_length(Y), n = 2 * s + 1;
    char **text = sq_calloc((size_t)n, sizeof *text);
    char(*names)[32] = sq_calloc((size_t)n, sizeof *names);
    int rc = file_texts(Y, dir, mname, text, names);
    if (rc == 0)
        rc = check_texts(text, names, s);
    char path[4300];
    int32_t done = 0;
    for (; rc == 0 && done < n; done++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[done]);
        if (write_file(path, text[done]) != 0) {
            cli_error("-o %s: cannot write %s: %s (nothing is left written)", cli_str(dir),
                      names[done], strerror(errno));
            rc = CLI_FAIL;
            break;
        }
    }
    for (int32_t i = 0; rc && i < done; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        (void)remove(path);
    }
    for (int32_t i = 0; i < n; i++)
        sq_free(text[i]);
    sq_free(text);
    sq_free(names);
    return rc;
}

/* The lines on stdout: the sequence, then each E_i's dimension and degrees. */
static void print_summary(const resol_yoneda_t *Y, const char *mname)
{
    int32_t s = resol_yoneda_length(Y);
    printf("0 -> %s", fdmod_name(resol_yoneda_module(Y, s)));
    for (int32_t i = s - 1; i >= 0; i--)
        printf(" -> E_%d", (int)i);
    printf(" -> %s -> 0\n", mname);
    for (int32_t i = 0; i < s; i++) {
        const fdmod_t *E = resol_yoneda_module(Y, i);
        int64_t dim = 0;
        for (int32_t e = fdmod_bottom(E); e <= fdmod_top(E); e++)
            dim += fdmod_dim(E, e);
        printf("E_%d: dimension %lld, degrees %d..%d\n", (int)i, (long long)dim,
               (int)fdmod_bottom(E), (int)fdmod_top(E));
    }
}

/* Prepares the run of o on the module through what the class needs:
 * filtration s, stem T = max(t, top) (the top known once loaded).  A first
 * quiet preparation refuses the kinds and the classes too large, so that
 * their line is the only one said. */
static int prepare(cli_run_t *r, const cli_opts_t *o, const char *mname, const cli_class_t *c)
{
    int64_t t = (int64_t)c->n + c->s, T = t;
    char err[512];
    int rc = cli_run_prepare(r, o, mname, t, c->s, CLI_RUN_QUIET);
    if (rc == CLI_OK)
        rc = refuse_kind(r);
    if (rc == CLI_OK && !resol_yoneda_fits(r->M, (int32_t)t, err, sizeof err)) {
        cli_error("%s", err);
        rc = CLI_USAGE;
    }
    if (rc == CLI_OK && fdmod_top(r->M) > t)
        T = fdmod_top(r->M);
    cli_run_release(r);
    if (rc == CLI_OK)
        rc = cli_run_prepare(r, o, mname, T, c->s, 0);
    return rc;
}

/* The class's vector at R's prime, checked.  Returns CLI_OK or CLI_USAGE
 * after one line. */
static int class_vector(cli_class_t *c, const resol_t *R, const char *mname)
{
    int64_t dim = resol_ext_dim(R, c->s, c->n);
    char space[512];
    snprintf(space, sizeof space, "Ext of %s", mname);
    if (dim <= 0) {
        cli_error("yoneda: --class: Ext of %s at (%d, %d) is zero: there is no class there",
                  cli_str(mname), (int)c->n, (int)c->s);
        return CLI_USAGE;
    }
    if (cli_class_vector("--class", c, dim, resol_prime(R), space, mname))
        return CLI_USAGE;
    if (fvec_is_zero(c->vec)) {
        cli_error("yoneda: --class %s is the zero class (the split extension): give a nonzero "
                  "class", c->text);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The checks before any run: --class given and parsed, s >= 1, -o short. */
static int check_args(const cli_opts_t *o, cli_class_t *c)
{
    if (!o->cls[0]) {
        cli_error("yoneda: --class N,S,V is required (try 'adams yoneda --help')");
        return CLI_USAGE;
    }
    if (cli_class_parse("--class", o->cls[0], c))
        return CLI_USAGE;
    if (c->s < 1) {
        cli_error("yoneda: --class %s: a class of Ext^0 is a module map, not an extension (S "
                  ">= 1)", c->text);
        return CLI_USAGE;
    }
    if (o->output && strlen(o->output) > 4000) {
        cli_error("-o: the directory name is too long");
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cmd_yoneda(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts(&o, &yoneda_verb, argc, argv, &rc))
        return rc;
    cli_class_t c;
    memset(&c, 0, sizeof c);
    rc = check_args(&o, &c);
    const char *mname = o.operand ? o.operand : "S_2";
    cli_run_t r;
    memset(&r, 0, sizeof r);
    if (rc == CLI_OK)
        rc = prepare(&r, &o, mname, &c);
    resol_t *R = NULL;
    resol_yoneda_t *Y = NULL;
    if (rc == CLI_OK) {
        R = cli_run_resolve(&r);
        rc = class_vector(&c, R, mname);
    }
    if (rc == CLI_OK) {
        char err[512];
        int yr = resol_yoneda_new(&Y, R, c.s, c.n, c.vec, err, sizeof err);
        if (yr) {
            cli_error("%s", err);
            rc = yr == SQ_E_NOMEM || yr == SQ_E_INVAL ? CLI_USAGE : CLI_FAIL;
        }
    }
    if (rc == CLI_OK && o.output) {
        rc = cli_prepare_dir(o.output, "E0.json", "a representative");
        if (rc == CLI_OK)
            rc = cli_prepare_dir(o.output, "d0.json", "a representative");
        if (rc == CLI_OK)
            rc = write_files(Y, o.output, mname);
    }
    if (rc == CLI_OK) {
        print_summary(Y, mname);
        rc = cli_finish_output(0);
    }
    resol_yoneda_free(Y);
    resol_free(R);
    cli_run_release(&r);
    cli_class_clear(&c);
    return rc;
}
