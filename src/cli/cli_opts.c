/*
 * cli_opts.c -- the one option parser of every verb (cli_opts.h).
 */
#define _GNU_SOURCE /* getopt_long */
#include "cli_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sq_core.h"

/* Every option: its long name, whether it takes a value, and for an
 * integer value its limits (lo > hi: not an integer). */
static const struct {
    const char *name;
    int has_arg;
    int64_t lo, hi;
} opt_table[CLI_OPT_COUNT] = {
    [CLI_OPT_STEM] = {"stem", 1, -CLI_STEM_LIMIT, CLI_STEM_LIMIT},
    [CLI_OPT_MAXS] = {"max-s", 1, 0, CLI_MAXS_LIMIT},
    [CLI_OPT_FORMAT] = {"format", 1, 1, 0},
    [CLI_OPT_ALGO] = {"algorithm", 1, 1, 0},
    [CLI_OPT_THREADS] = {"threads", 1, 1, CLI_MAX_THREADS},
    [CLI_OPT_PROGRESS] = {"progress", 0, 1, 0},
    [CLI_OPT_QUIET] = {"quiet", 0, 1, 0},
    [CLI_OPT_MAXMEM] = {"max-memory", 1, 1, 0},
    [CLI_OPT_GPU] = {"gpu", 0, 1, 0},
    [CLI_OPT_SAVE] = {"save", 1, 1, 0},
    [CLI_OPT_FROM] = {"from", 1, 1, 0},
    [CLI_OPT_OUTPUT] = {"output", 1, 1, 0},
    [CLI_OPT_CLASS] = {"class", 1, 1, 0},
    [CLI_OPT_BY] = {"by", 1, 1, 0},
    [CLI_OPT_A] = {"a", 1, 1, 0},
    [CLI_OPT_B] = {"b", 1, 1, 0},
    [CLI_OPT_C] = {"c", 1, 1, 0},
    [CLI_OPT_FULL] = {"full", 0, 1, 0},
    [CLI_OPT_SPOTS] = {"spots", 1, 1, CLI_SPOTS_LIMIT},
    [CLI_OPT_SEED] = {"seed", 1, 1, INT64_MAX},
    [CLI_OPT_MAP] = {"map", 1, 1, 0},
    [CLI_OPT_PRIME] = {"prime", 1, 2, 251},
    [CLI_OPT_PROFILE] = {"profile", 1, 1, 0},
    [CLI_OPT_UNSTABLE] = {"unstable", 0, 1, 0},
    [CLI_OPT_COEFF] = {"coefficients", 1, 1, 0},
    [CLI_OPT_MPI] = {"mpi", 0, 1, 0},
    [CLI_OPT_PAGE] = {"page", 1, 2, 3},
    [CLI_OPT_D2] = {"d2", 0, 1, 0},
    [CLI_OPT_SECONDARY] = {"secondary", 0, 1, 0},
    [CLI_OPT_TRANGE] = {"t-range", 1, 1, 0},
};

/* getopt_long's value of option id (above every character). */
#define VAL(id) (256 + (int)(id))

const char *cli_opt_name(cli_opt_t id)
{
    static char buf[CLI_OPT_COUNT][24];
    if (id == CLI_OPT_OUTPUT)
        return "-o";
    if ((unsigned)id >= CLI_OPT_COUNT)
        return "?";
    snprintf(buf[id], sizeof buf[id], "--%s", opt_table[id].name);
    return buf[id];
}

/* The verb's long options for getopt_long (only its own, so that an
 * abbreviation is unambiguous among them), "help" last. */
static void build_longs(struct option *longs, const cli_verb_t *verb)
{
    int n = 0;
    for (int id = 0; id < CLI_OPT_COUNT; id++)
        if (verb->options & CLI_BIT(id))
            longs[n++] = (struct option){opt_table[id].name,
                                         opt_table[id].has_arg ? required_argument : no_argument,
                                         NULL, VAL(id)};
    longs[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longs[n] = (struct option){NULL, 0, NULL, 0};
}

/* One-line error for getopt_long's '?' or ':'. */
static void option_error(const cli_verb_t *verb, int c, int argc, char **argv)
{
    const char *v = verb->name;
    if (c == ':')
        cli_error("%s: missing value",
                  optopt >= 256 ? cli_opt_name((cli_opt_t)(optopt - 256)) : "-o");
    else if (optopt >= 256 || optopt == 'h')
        cli_error("%s: option %s takes no value (try 'adams %s --help')", v,
                  optopt == 'h' ? "--help" : cli_opt_name((cli_opt_t)(optopt - 256)), v);
    else if (optopt > 0) {
        char opt[3] = {'-', (char)optopt, '\0'};
        cli_error("%s: unknown option '%s' (try 'adams %s --help')", v, cli_str(opt), v);
    } else
        cli_error("%s: unknown option '%s' (try 'adams %s --help')", v,
                  cli_str(optind - 1 < argc ? argv[optind - 1] : "?"), v);
}

/* --format: the index of v among the verb's values, or -1 after an error. */
static int parse_format(const cli_verb_t *verb, const char *v)
{
    if (!*v) {
        cli_error("--format: missing value");
        return -1;
    }
    int n = 0;
    for (; verb->formats[n]; n++)
        if (strcmp(v, verb->formats[n]) == 0)
            return n;
    char list[256] = "";
    for (int i = 0; i < n; i++) {
        size_t k = strlen(list);
        snprintf(list + k, sizeof list - k, "%s'%s'", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                 verb->formats[i]);
    }
    cli_error("--format: expected %s, got '%s'", list, cli_str(v));
    return -1;
}

/* --algorithm: 0 or -1 after an error. */
static int parse_algo(const char *v, resol_algo_t *a)
{
    if (strcmp(v, "classical") == 0)
        *a = RESOL_CLASSICAL;
    else if (strcmp(v, "nassau") == 0)
        *a = RESOL_NASSAU;
    else if (strcmp(v, "auto") == 0)
        *a = RESOL_AUTO;
    else {
        if (*v)
            cli_error("--algorithm: expected 'classical', 'nassau' or 'auto', got '%s'",
                      cli_str(v));
        else
            cli_error("--algorithm: missing value");
        return -1;
    }
    return 0;
}

/* --t-range LO:HI, LO: or :HI (an omitted end: 0, CLI_STEM_LIMIT), each
 * end in [0, CLI_STEM_LIMIT], LO <= HI: 0, or -1 after an error. */
static int parse_t_range(const char *v, int64_t *lo, int64_t *hi)
{
    const char *colon = strchr(v, ':');
    if (!colon) {
        cli_error("--t-range: expected LO:HI (degrees t, either end may be omitted), got '%s'",
                  cli_str(v));
        return -1;
    }
    char a[32], b[32];
    size_t na = (size_t)(colon - v), nb = strlen(colon + 1);
    if (na >= sizeof a || nb >= sizeof b) {
        cli_error("--t-range: '%s' is out of range [0, %lld]", cli_str(v),
                  (long long)CLI_STEM_LIMIT);
        return -1;
    }
    memcpy(a, v, na), a[na] = '\0';
    memcpy(b, colon + 1, nb + 1);
    *lo = 0, *hi = CLI_STEM_LIMIT;
    if ((na && cli_parse_int("--t-range", a, 0, CLI_STEM_LIMIT, lo)) ||
        (nb && cli_parse_int("--t-range", b, 0, CLI_STEM_LIMIT, hi)))
        return -1;
    if (*lo > *hi) {
        cli_error("--t-range: %s: the first degree is above the last", cli_str(v));
        return -1;
    }
    return 0;
}

/* A value that must not be empty (a file name, a class). */
static int nonempty(cli_opt_t id, const char *v, const char **out)
{
    if (!*v) {
        cli_error("%s: missing value", cli_opt_name(id));
        return -1;
    }
    *out = v;
    return 0;
}

/* Stores the value v of option id in o.  Returns 0 or -1 after an error. */
static int take(cli_opts_t *o, cli_opt_t id, const char *v)
{
    o->given |= CLI_BIT(id);
    switch (id) {
    case CLI_OPT_STEM:
        return cli_parse_int("--stem", v, opt_table[id].lo, opt_table[id].hi, &o->stem);
    case CLI_OPT_MAXS:
        return cli_parse_int("--max-s", v, opt_table[id].lo, opt_table[id].hi, &o->max_s);
    case CLI_OPT_THREADS:
        return cli_parse_int("--threads", v, opt_table[id].lo, opt_table[id].hi, &o->threads);
    case CLI_OPT_SPOTS:
        return cli_parse_int("--spots", v, opt_table[id].lo, opt_table[id].hi, &o->spots);
    case CLI_OPT_SEED:
        return cli_parse_int("--seed", v, opt_table[id].lo, opt_table[id].hi, &o->seed);
    case CLI_OPT_FORMAT:
        return (o->format = parse_format(o->verb, v)) < 0 ? -1 : 0;
    case CLI_OPT_ALGO:
        return parse_algo(v, &o->algo);
    case CLI_OPT_PROGRESS:
        o->progress = 1;
        return 0;
    case CLI_OPT_QUIET:
        o->progress = -1;
        return 0;
    case CLI_OPT_MAXMEM:
        return cli_parse_size("--max-memory", v, &o->max_memory);
    case CLI_OPT_GPU:
    case CLI_OPT_FULL:
    case CLI_OPT_MPI:
    case CLI_OPT_UNSTABLE:
    case CLI_OPT_D2:
    case CLI_OPT_SECONDARY:
        return 0;
    case CLI_OPT_TRANGE:
        return parse_t_range(v, &o->t_lo, &o->t_hi);
    case CLI_OPT_PAGE:
        return cli_parse_int("--page", v, opt_table[id].lo, opt_table[id].hi, &o->page);
    case CLI_OPT_SAVE:
        return nonempty(id, v, &o->save);
    case CLI_OPT_FROM:
        return nonempty(id, v, &o->from);
    case CLI_OPT_OUTPUT:
        return nonempty(id, v, &o->output);
    case CLI_OPT_MAP:
        return nonempty(id, v, &o->map);
    case CLI_OPT_PRIME:
        return cli_parse_int("--prime", v, opt_table[id].lo, opt_table[id].hi, &o->prime);
    case CLI_OPT_PROFILE:
        return nonempty(id, v, &o->profile);
    case CLI_OPT_COEFF:
        return nonempty(id, v, &o->coefficients);
    case CLI_OPT_CLASS:
    case CLI_OPT_A:
        return nonempty(id, v, &o->cls[0]);
    case CLI_OPT_BY:
    case CLI_OPT_B:
        return nonempty(id, v, &o->cls[1]);
    case CLI_OPT_C:
        return nonempty(id, v, &o->cls[2]);
    case CLI_OPT_COUNT:
        break;
    }
    return -1;
}

/* The operand v: the first one (or the second, for a verb that takes
 * two), or -1 after an error (one too many). */
static int take_operand(cli_opts_t *o, const char *v)
{
    if (o->operand && o->two_operands && !o->operand2) {
        o->operand2 = v;
        return 0;
    }
    if (o->operand2) {
        cli_error("%s: more than two %ss given ('%s', '%s' and '%s')", o->verb->name,
                  o->verb->operand, cli_str(o->operand), cli_str(o->operand2), cli_str(v));
        return -1;
    }
    if (o->operand) {
        cli_error("%s: more than one %s given ('%s' and '%s')", o->verb->name, o->verb->operand,
                  cli_str(o->operand), cli_str(v));
        return -1;
    }
    o->operand = v;
    return 0;
}

/* A verb whose operand is a file (a store) needs one: 0 when it was given,
 * else -1 after a one-line error with the verb's synopsis. */
static int need_file(const cli_opts_t *o)
{
    const cli_verb_t *v = o->verb;
    if (o->operand || strcmp(v->operand, "file") != 0)
        return 0;
    char fmts[128] = "";
    for (int i = 0; v->formats && v->formats[i]; i++)
        snprintf(fmts + strlen(fmts), sizeof fmts - strlen(fmts), "%s%s",
                 i ? "|" : " [--format ", v->formats[i]);
    cli_error("%s: no store given (usage: adams %s FILE%s%s)", v->name, v->name, fmts,
              *fmts ? "]" : "");
    return -1;
}

/* --threads not given: $ADAMS_THREADS, else every core. */
static int default_threads(cli_opts_t *o)
{
    if (cli_given(o, CLI_OPT_THREADS))
        return 0;
    const char *env = getenv("ADAMS_THREADS");
    if (env && *env)
        return cli_parse_int("ADAMS_THREADS", env, 1, CLI_MAX_THREADS, &o->threads);
    o->threads = sq_num_cores();
    return 0;
}

/* --coefficients N for a verb other than resolve: the operand M becomes the
 * module "M*D(N)" (M S_2 when not given), whose Ext is Ext(M, N) with the
 * same products by Ext(S_p) (docs/resolution.md).  --from is refused: a
 * store holds M's resolution, not that of M ⊗ DN.  0, or 1 after one line. */
static int coefficients_operand(cli_opts_t *o)
{
    if (!o->coefficients || strcmp(o->verb->name, "resolve") == 0)
        return 0;
    if (cli_given(o, CLI_OPT_FROM)) {
        cli_error("%s: --coefficients: Ext(M, N) is computed from the resolution of M ⊗ DN, "
                  "which a store of M does not hold; omit --from",
                  o->verb->name);
        return 1;
    }
    const char *m = o->operand ? o->operand : "S_2";
    int n = snprintf(o->coeff_operand, sizeof o->coeff_operand, "%s*D(%s)", m, o->coefficients);
    if (n < 0 || (size_t)n >= sizeof o->coeff_operand) {
        cli_error("%s: --coefficients: the module names are too long", o->verb->name);
        return 1;
    }
    o->operand = o->coeff_operand;
    return 0;
}

/* cli_parse_opts, with two operands when two is 1. */
static int parse_opts(cli_opts_t *o, const cli_verb_t *verb, int argc, char **argv, int *rc,
                      int two)
{
    struct option longs[CLI_OPT_COUNT + 2];
    memset(o, 0, sizeof *o);
    o->verb = verb;
    o->two_operands = two;
    o->stem = 40;
    o->prime = 2;
    o->t_hi = CLI_STEM_LIMIT;
    o->page = 2;
    o->algo = RESOL_AUTO;
    build_longs(longs, verb);
    /* '-': operands come back in order as option 1 (no permutation, so the
     * result does not depend on POSIXLY_CORRECT); ':': a missing value is
     * ':' rather than '?'. */
    const char *shorts = verb->options & CLI_BIT(CLI_OPT_OUTPUT) ? "-:ho:" : "-:h";
    *rc = CLI_USAGE;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        int bad;
        if (c == 'h') {
            *rc = cli_write_stdout(verb->usage);
            return 1;
        } else if (c == 1) {
            bad = take_operand(o, optarg);
        } else if (c == 'o') {
            bad = take(o, CLI_OPT_OUTPUT, optarg);
        } else if (c >= 256 && c < VAL(CLI_OPT_COUNT)) {
            bad = take(o, (cli_opt_t)(c - 256), optarg ? optarg : "");
        } else {
            option_error(verb, c, argc, argv);
            bad = 1;
        }
        if (bad)
            return 1;
    }
    for (; optind < argc; optind++) /* after "--" */
        if (take_operand(o, argv[optind]))
            return 1;
    if ((verb->options & CLI_BIT(CLI_OPT_THREADS)) && default_threads(o))
        return 1;
    if (need_file(o) || coefficients_operand(o))
        return 1;
    *rc = CLI_OK;
    return 0;
}

int cli_parse_opts(cli_opts_t *o, const cli_verb_t *verb, int argc, char **argv, int *rc)
{
    return parse_opts(o, verb, argc, argv, rc, 0);
}

int cli_parse_opts2(cli_opts_t *o, const cli_verb_t *verb, int argc, char **argv, int *rc)
{
    return parse_opts(o, verb, argc, argv, rc, 1);
}
