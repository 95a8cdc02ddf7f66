/*
 * cmd_map.c -- `adams map`: the map on Ext induced by a module map given
 * by a map file (the format io's sq_map.h, the map module's fdmap.h, the
 * mathematics src/resolution/resol_map.h; the runs cli_run.c's).
 */
#define _POSIX_C_SOURCE 200809L
#include "cmd_map.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_class.h"
#include "cli_module.h"
#include "cli_opts.h"
#include "cli_run.h"
#include "fdmap.h"
#include "resol_extmn.h"
#include "resol_map.h"
#include "sq_core.h"
#include "sq_map.h"

static const char map_usage[] =
    "Usage: adams map --map FILE --stem N [--max-s S] [options]\n"
    "       adams map M N --class N_C,S_C,V --stem N [--max-s S] [options]\n"
    "\n"
    "Prints the map on Ext induced by the module map f : M -> N of the map file\n"
    "(docs/modules.md \"Maps\": its source M, target N and degree d, f raising degrees\n"
    "by d).  f induces, contravariantly, f^* : Ext^{s,t}(N) -> Ext^{s,t-d}(M), stem n\n"
    "of N to stem n - d of M; one line per class of Ext(N) whose image is not zero:\n"
    "    f^* x_(n, s, i) = [v]\n"
    "v is the image in the basis x_(n - d, s, j) of Ext(M) (entries 0..p-1).  Order:\n"
    "stems n, then s, then i.  The region: the stems n <= N of N (from its bottom)\n"
    "and s <= S (default: the target's (N - bottom)/(2p - 2) + 3 + span); M is\n"
    "resolved through stem N - d.  Both modules must be finite (not presented,\n"
    "projective or cofibers) and over the whole algebra, at the same prime.\n"
    "\n"
    "With --class, the map f^* : Ext^{s,t}(N) -> Ext^{s+S_C,t+T_C}(M) (stem n to\n"
    "n + N_C) induced by composing with a class of Ext^{S_C,T_C}(M, N) at stem N_C\n"
    "(T_C = N_C + S_C; the peer's lift_hom): V is a cocycle phi of Hom_A(F_{S_C}, N)\n"
    "lowering degrees by T_C, F the minimal resolution of M: the images phi(g) in N's\n"
    "basis of the generators g of F_{S_C} by degree, then index, concatenated\n"
    "(docs/resolution.md \"Maps by a class of Ext(M, N)\"); N_C,S_C,I is the I-th unit\n"
    "vector.  At S_C = 0 it is a module map M -> N of degree -T_C; with N = S_p it is\n"
    "a class of Ext(M) and f^* the product by it.  Lines as above.\n"
    "\n"
    "Options: --map FILE, --stem N, --max-s S, --algorithm auto|nassau|classical,\n"
    "--threads K, --progress, --quiet, --max-memory SIZE (each of the two runs),\n"
    "-h/--help (as for 'adams resolve').  --from is refused: the map needs the\n"
    "resolutions of both modules, which one store does not hold.\n"
    "\n"
    "Exit status: 0 ok, 1 output not written, 2 bad argument (a map that is not\n"
    "A-linear, modules at different primes, names that are not the modules'), 3\n"
    "the region does not fit in memory, 4 the threads cannot be started.\n";

/* --map and the options of a run (--from refused below; no --gpu). */
enum {
    MAP_OPTIONS = CLI_BIT(CLI_OPT_MAP) | CLI_BIT(CLI_OPT_STEM) | CLI_BIT(CLI_OPT_MAXS) |
                  CLI_BIT(CLI_OPT_ALGO) | CLI_BIT(CLI_OPT_THREADS) | CLI_BIT(CLI_OPT_PROGRESS) |
                  CLI_BIT(CLI_OPT_QUIET) | CLI_BIT(CLI_OPT_MAXMEM) | CLI_BIT(CLI_OPT_FROM) |
                  CLI_BIT(CLI_OPT_CLASS)
};
static const cli_verb_t map_verb = {"map", map_usage, MAP_OPTIONS, NULL, "module"};

/* The two prepared runs, the map and the resolutions of one invocation. */
typedef struct {
    cli_run_t rm, rn; /* source M, target N */
    sq_mapfile_t *mf;
    fdmap_t *f;
    resol_t *RM, *RN;
    resol_map_t *F;
    cli_class_t c;             /* --class */
    const char *mname, *nname; /* --class: the operands M and N */
} job_t;

static void job_clear(job_t *j)
{
    cli_class_clear(&j->c);
    resol_map_free(j->F);
    resol_free(j->RM);
    resol_free(j->RN);
    fdmap_free(j->f);
    sq_mapfile_free(j->mf);
    cli_run_release(&j->rm);
    cli_run_release(&j->rn);
}

/* --max-memory: each run passed alone (cli_run_prepare); both are held at
 * once, so their sum is refused by cli_check_memory's rule too.  Returns
 * CLI_OK or CLI_NOMEM after one line. */
static int check_both(const job_t *j, const cli_opts_t *o, const char *source, const char *target)
{
    if (o->max_memory <= 0)
        return CLI_OK;
    const fdmod_t *M = j->rm.M, *N = j->rn.M;
    resol_estimate_t em, en;
    int th = o->threads > 0 ? (int)o->threads : 1;
    resol_estimate(M, (resol_algo_t)j->rm.algo, j->rm.max_s, j->rm.stem, th, &em);
    resol_estimate(N, (resol_algo_t)j->rn.algo, j->rn.max_s, j->rn.stem, th, &en);
    double exact = em.exact_bytes + en.exact_bytes,
           model = em.model_bytes + en.model_bytes - resol_estimate_base_bytes(), mb = 1 << 20;
    if (exact > o->max_memory || model / 3 > o->max_memory) { /* cli_check_memory's rule */
        cli_error("map: the resolutions of %s and %s need about %.1f MB together (at least "
                  "%.1f MB); %.1f MB allowed by --max-memory: resolve a smaller region",
                  cli_str(source), cli_str(target), model / mb, exact / mb, o->max_memory / mb);
        return CLI_NOMEM;
    }
    return CLI_OK;
}

/* The bottom degree of the module named spec (loaded through degree
 * max_degree, quietly).  Returns 0, or -1 after a one-line error. */
static int module_bottom(const char *spec, int32_t max_degree, int32_t *bottom)
{
    cli_module_ref_t ref;
    sq_modspec_info_t info;
    if (cli_find_module(spec, &ref, 1))
        return -1;
    fdmod_t *X = cli_open_module(&ref, max_degree + 2, &info, 1);
    if (!X)
        return -1;
    *bottom = fdmod_bottom(X);
    fdmod_free(X);
    return 0;
}

/* Prepares both runs and builds the map (nothing resolved yet).  Returns
 * CLI_OK or the exit code after one line. */
static int prepare(job_t *j, const cli_opts_t *o)
{
    char err[512];
    int rc = sq_mapfile_read(&j->mf, o->map, err, sizeof err);
    if (rc) {
        cli_error("map: %s", err);
        return CLI_USAGE;
    }
    const char *source, *target;
    int32_t d;
    sq_mapfile_header(j->mf, &source, &target, &d);
    int64_t stem = o->stem, max_s = cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1;
    rc = cli_run_prepare(&j->rn, o, target, stem, max_s, 0);
    int32_t bottom = 0;
    if (rc == CLI_OK && module_bottom(source, (int32_t)(stem - d < 0 ? 0 : stem - d), &bottom))
        rc = CLI_USAGE;
    if (rc == CLI_OK) /* below the source's bottom: no class, the lines as from its bottom */
        rc = cli_run_prepare(&j->rm, o, source, stem - d < bottom ? bottom : stem - d,
                             j->rn.max_s, CLI_RUN_QUIET);
    if (rc != CLI_OK)
        return rc;
    const fdmod_t *M = j->rm.M, *N = j->rn.M;
    rc = check_both(j, o, source, target);
    if (rc != CLI_OK)
        return rc;
    if (j->rm.prime != j->rn.prime) {
        cli_error("map: %s: the source %s is at p = %u and the target %s at p = %u", o->map,
                  cli_str(source), (unsigned)j->rm.prime, cli_str(target), (unsigned)j->rn.prime);
        return CLI_USAGE;
    }
    int32_t span = fdmod_top(M) - fdmod_bottom(M);
    if (fdmod_top(N) - fdmod_bottom(N) > span)
        span = fdmod_top(N) - fdmod_bottom(N);
    stalg_t *S = stalg_new(j->rm.prime, span > 1 ? span : 1, NULL);
    rc = sq_mapfile_build(j->mf, M, N, S, &j->f, err, sizeof err);
    stalg_free(S);
    if (rc) {
        cli_error("map: %s", err);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The lines f^* x_(n, s, i) = [v], stems, then s, then i. */
static void print_map(const job_t *j, int32_t max_n, int32_t max_s)
{
    for (int32_t n = fdmod_bottom(j->rn.M); n <= max_n; n++)
        for (int32_t s = 0; s <= max_s; s++) {
            fmat_t m;
            if (resol_map_matrix(j->F, s, n, &m) != 0)
                continue;
            for (int64_t i = 0; i < fmat_rows(&m); i++) {
                fvec_t row = fmat_row(&m, i);
                if (fvec_is_zero(row))
                    continue;
                printf("f^* x_(%d, %d, %lld) = [", (int)n, (int)s, (long long)i);
                for (int64_t c = 0; c < fmat_cols(&m); c++)
                    printf(c ? ", %u" : "%u", (unsigned)fmat_get(&m, i, c));
                printf("]\n");
            }
            fmat_clear(&m);
        }
}

/* The class form: prepares N through --stem/--max-s and M through what
 * the class and the lift read (resol_map_new_class: filtration s_c + S and
 * s_c + 1, stems N + n_c and the degree t_c + top(N)).  Returns CLI_OK or
 * the exit code after one line. */
static int prepare_class(job_t *j, const cli_opts_t *o)
{
    if (cli_class_parse("--class", o->cls[0], &j->c))
        return CLI_USAGE;
    j->mname = o->operand;
    j->nname = o->operand2;
    int64_t stem = o->stem, max_s = cli_given(o, CLI_OPT_MAXS) ? o->max_s : -1;
    int rc = cli_run_prepare(&j->rn, o, o->operand2, stem, max_s, CLI_RUN_NO_NOTES);
    if (rc != CLI_OK)
        return rc;
    int64_t sc = j->c.s, nc = j->c.n, top = fdmod_top(j->rn.M);
    int64_t ms = sc + (j->rn.max_s > 1 ? j->rn.max_s : 1);
    int64_t mn = stem + nc > nc + top - 1 ? stem + nc : nc + top - 1;
    int32_t bottom;
    if (module_bottom(o->operand, (int32_t)(mn < 0 ? 0 : mn), &bottom))
        return CLI_USAGE;
    if (mn < bottom) /* no class of M there: the lines are those of the region above */
        mn = bottom;
    if (ms > CLI_MAXS_LIMIT || mn > CLI_STEM_LIMIT) {
        cli_error("map: --class %s: the source %s would be resolved through (%lld, %lld), "
                  "beyond the limits", j->c.text, cli_str(o->operand), (long long)mn,
                  (long long)ms);
        return CLI_USAGE;
    }
    rc = cli_run_prepare(&j->rm, o, o->operand, mn, ms, CLI_RUN_QUIET);
    if (rc == CLI_OK)
        rc = check_both(j, o, o->operand, o->operand2);
    if (rc != CLI_OK)
        return rc;
    cli_run_notes(&j->rn, 1); /* said once both modules are accepted */
    char err[256];
    if (resol_extmn_check(j->rm.M, j->rn.M, err, sizeof err)) {
        cli_error("map: --class: %s", err);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The class's cochain phi at M's prime, checked to be a cocycle, and the
 * chain map lifted from it.  Returns CLI_OK or the exit code after one
 * line. */
static int build_class(job_t *j, int32_t max_n)
{
    const fdmod_t *N = j->rn.M;
    int32_t sc = j->c.s, tc = j->c.n + j->c.s;
    int64_t dim = resol_extmn_cochain_dim(j->RM, N, sc, tc);
    char space[512];
    snprintf(space, sizeof space, "Hom_A(F_%d, %s) of the resolution F of %s (lowering degrees "
             "by %d)", (int)sc, cli_str(j->nname), cli_str(j->mname), (int)tc);
    if (dim == 0) {
        cli_error("map: --class: %s at (%d, %d) is zero: Ext(%s, %s) has no class there", space,
                  (int)j->c.n, (int)sc, cli_str(j->mname), cli_str(j->nname));
        return CLI_USAGE;
    }
    if (cli_class_vector("--class", &j->c, dim, j->rm.prime, space, cli_str(j->mname)))
        return CLI_USAGE;
    if (resol_extmn_class_kind(j->RM, N, sc, tc, j->c.vec) == RESOL_EXTMN_NOT_COCYCLE) {
        cli_error("map: --class %s is not a cocycle (phi(d h) != 0 for a generator h of F_%d): "
                  "not a class of Ext(%s, %s)", j->c.text, (int)sc + 1, cli_str(j->mname),
                  cli_str(j->nname));
        return CLI_USAGE;
    }
    if (resol_map_new_class(&j->F, j->RM, j->RN, sc, j->c.n, j->c.vec, j->rn.max_s, max_n)) {
        cli_error("map: the region needed was not computed (a bug: please report)");
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* The operands and the options of the two forms; CLI_OK or CLI_USAGE
 * after one line. */
static int check_form(const cli_opts_t *o)
{
    int cls = o->cls[0] != NULL;
    if (cls && o->map) {
        cli_error("map: --map FILE and --class N,S,V are two forms of the verb: give one");
        return CLI_USAGE;
    }
    if ((!cls && !o->map) || !cli_given(o, CLI_OPT_STEM)) {
        cli_error("map: --map FILE and --stem N are required, or M N --class N,S,V and --stem N "
                  "(try 'adams map --help')");
        return CLI_USAGE;
    }
    if (o->from) {
        cli_error("map: --from: the map needs the resolutions of both modules, which one store "
                  "does not hold; omit --from");
        return CLI_USAGE;
    }
    if (!cls && o->operand) {
        cli_error("map: '%s': the modules are the map file's source and target; give no "
                  "MODULE",
                  cli_str(o->operand));
        return CLI_USAGE;
    }
    if (cls && !o->operand2) {
        cli_error("map: --class needs two modules, M N (the class is one of Ext(M, N))");
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cmd_map(int argc, char **argv)
{
    cli_opts_t o;
    int rc;
    if (cli_parse_opts2(&o, &map_verb, argc, argv, &rc))
        return rc;
    rc = check_form(&o);
    if (rc != CLI_OK)
        return rc;
    job_t j;
    memset(&j, 0, sizeof j);
    rc = o.map ? prepare(&j, &o) : prepare_class(&j, &o);
    if (rc == CLI_OK) {
        j.RN = cli_run_resolve(&j.rn);
        j.RM = cli_run_resolve(&j.rm);
        int32_t max_s = j.rn.max_s;
        if (!o.map)
            rc = build_class(&j, (int32_t)o.stem);
        else if (resol_map_new(&j.F, j.RM, j.RN, j.f, max_s, (int32_t)o.stem) != 0) {
            cli_error("map: the region needed was not computed (a bug: please report)");
            rc = CLI_FAIL;
        }
        if (rc == CLI_OK) {
            print_map(&j, (int32_t)o.stem, max_s);
            rc = cli_finish_output(0);
        }
    }
    job_clear(&j);
    return rc;
}
