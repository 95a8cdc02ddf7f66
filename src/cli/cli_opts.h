/*
 * cli_opts.h -- the one option parser of every verb (cli_opts.c).
 *
 * Every verb of the adams program (resolve, products, product, massey,
 * chart, ext, check) describes itself by a cli_verb_t: the options it
 * accepts, its --format values and its operand (a module or a store file).
 * cli_parse_opts reads the arguments with getopt_long's rules
 * (docs/cli.md): options and the operand in any order, "--opt VALUE" and
 * "--opt=VALUE", unambiguous abbreviations among the verb's own options,
 * "--" ending the options.  The limits of every value live here, once.
 */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdint.h>

#include "resol.h"

/* Every option any verb has; a verb accepts a subset (cli_verb_t.options). */
typedef enum {
    CLI_OPT_STEM,     /* --stem N */
    CLI_OPT_MAXS,     /* --max-s S */
    CLI_OPT_FORMAT,   /* --format FMT (the verb's list) */
    CLI_OPT_ALGO,     /* --algorithm auto|nassau|classical */
    CLI_OPT_THREADS,  /* --threads K */
    CLI_OPT_PROGRESS, /* --progress */
    CLI_OPT_QUIET,    /* --quiet */
    CLI_OPT_MAXMEM,   /* --max-memory SIZE */
    CLI_OPT_GPU,      /* --gpu */
    CLI_OPT_SAVE,     /* --save FILE */
    CLI_OPT_FROM,     /* --from FILE */
    CLI_OPT_OUTPUT,   /* -o FILE, --output FILE */
    CLI_OPT_CLASS,    /* --class N,S,V (product) */
    CLI_OPT_BY,       /* --by N,S,V (product) */
    CLI_OPT_A,        /* --a N,S,V (massey) */
    CLI_OPT_B,        /* --b N,S,V (massey) */
    CLI_OPT_C,        /* --c N,S,V (massey) */
    CLI_OPT_FULL,     /* --full (check) */
    CLI_OPT_SPOTS,    /* --spots K (check) */
    CLI_OPT_SEED,     /* --seed N (check) */
    CLI_OPT_MAP,      /* --map FILE (map) */
    CLI_OPT_PRIME,    /* --prime P (algebra) */
    CLI_OPT_PROFILE,  /* --profile LIST (algebra) */
    CLI_OPT_UNSTABLE, /* --unstable (resolve: the unstable category, docs/unstable.md) */
    CLI_OPT_COEFF,    /* --coefficients MODULE (resolve: Ext(M, N)) */
    CLI_OPT_MPI,      /* --mpi (resolve over MPI ranks, docs/mpi.md) */
    CLI_OPT_PAGE,     /* --page R (resolve, chart: the E_R page; R = 2 or 3) */
    CLI_OPT_D2,       /* --d2 (chart: the d_2 arrows) */
    CLI_OPT_SECONDARY, /* --secondary (product: products in Mod_{C lambda^2}) */
    CLI_OPT_TRANGE,   /* --t-range LO:HI (check: the degrees verified) */
    CLI_OPT_COUNT
} cli_opt_t;

#define CLI_BIT(id) (1u << (id))

/* The limits of the values, for every verb (and the class parser). */
#define CLI_STEM_LIMIT RESOL_MAX_T  /* |--stem| and |stem of a class| */
#define CLI_MAXS_LIMIT RESOL_MAX_T  /* --max-s and the filtration of a class */
#define CLI_SPOTS_LIMIT 1000000     /* --spots */
/* CLI_MAX_THREADS (cli.h) bounds --threads and ADAMS_THREADS. */

/* What a verb is, for the parser. */
typedef struct {
    const char *name;            /* "resolve" */
    const char *usage;           /* the --help text */
    uint32_t options;            /* CLI_BIT(id) of every option it accepts */
    const char *const *formats;  /* --format values, NULL-terminated; NULL: none */
    const char *operand;         /* what the operand is: "module" or "file" */
} cli_verb_t;

/* Room for the module "M*D(N)" that --coefficients N names for the verbs
 * other than resolve (Ext(M, N) = Ext(M ⊗ DN), docs/resolution.md). */
#define CLI_COEFF_OPERAND_MAX 8200

/* The parsed arguments.  A value not given holds its default. */
typedef struct {
    const cli_verb_t *verb;
    const char *operand;   /* MODULE or FILE; NULL when none was given */
    const char *operand2;  /* the second operand (cli_parse_opts2); NULL when none */
    int two_operands;      /* cli_parse_opts2: a second operand is taken */
    uint32_t given;        /* CLI_BIT(id) of every option given */
    int64_t stem;          /* default 40 */
    int64_t max_s;         /* meaningful when given */
    int64_t threads;       /* --threads, else $ADAMS_THREADS, else the cores */
    int64_t spots, seed;   /* 0 when not given */
    int format;            /* index into verb->formats; 0 when not given */
    resol_algo_t algo;     /* RESOL_AUTO when not given */
    int progress;          /* -1 --quiet, 1 --progress, 0 neither (the last one given wins) */
    double max_memory;     /* bytes; 0 when not given */
    const char *save, *from, *output;
    const char *map;       /* --map FILE */
    const char *cls[3];    /* --class/--a, --by/--b, --c */
    int64_t prime;         /* --prime; 2 when not given */
    const char *profile;   /* --profile LIST; NULL when not given */
    const char *coefficients; /* --coefficients MODULE; NULL when not given */
    int64_t page;          /* --page R; 2 when not given */
    int64_t t_lo, t_hi;    /* --t-range LO:HI; 0 and CLI_STEM_LIMIT when not given */
    char coeff_operand[CLI_COEFF_OPERAND_MAX]; /* chart, products, product, massey with
                            * --coefficients N: "M*D(N)", which operand then points to */
} cli_opts_t;

/* Whether option id was given. */
static inline int cli_given(const cli_opts_t *o, cli_opt_t id)
{
    return (int)((o->given >> id) & 1u);
}

/* "--stem", "-o", ...: the name of option id as the user writes it. */
const char *cli_opt_name(cli_opt_t id);

/* Parses argv[1..argc) (argv[0] is the verb) for verb into *o.  Returns 0
 * when the verb should run, or 1 when it should return *rc at once: after
 * the help was printed (*rc CLI_OK, or CLI_FAIL when it could not be
 * written) or after a one-line error (*rc CLI_USAGE: an unknown option,
 * one the verb does not have, a missing or malformed value, a second
 * operand, a bad ADAMS_THREADS, no operand for a verb whose operand is a
 * file). */
int cli_parse_opts(cli_opts_t *o, const cli_verb_t *verb, int argc, char **argv, int *rc);

/* cli_parse_opts for a verb that takes two operands (map M N --class):
 * the second goes to o->operand2; a third is refused with one line. */
int cli_parse_opts2(cli_opts_t *o, const cli_verb_t *verb, int argc, char **argv, int *rc);

#endif /* CLI_OPTS_H */
