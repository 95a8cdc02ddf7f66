/*
 * t-audit.c -- the audit of docs/cli.md walked through the program: every
 * verb (resolve, products, product, massey, chart, ext, check) x every
 * option x every module kind (finite, finitely presented, projective
 * space, cofiber, profile, infinite profile, odd prime, shifted, @adem).
 *
 * Each cell is either implemented -- exit 0, and the output changes with
 * the option as the option says (the same bytes under --threads,
 * --algorithm, --max-memory, --gpu; fewer cells under a smaller --stem or
 * --max-s; csv or json under --format; a store that `ext` prints back
 * under --save; the computed output under --from; the same bytes in the
 * file of -o; nothing on stderr under --quiet) -- or refused: exit 2, one
 * line on stderr naming the option (the verb, when the verb refuses the
 * kind whatever the options) and the kind, nothing on stdout.  An option a
 * verb does not have is an unknown option (exit 2).  The expectations are
 * written here from docs/cli.md's table, not read from the program's.
 * A region too large for memory is refused at once (exit 3) under every
 * verb that computes, and by check (the store's resolution).  Tiny regions: each test takes a few seconds.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sq_test.h"

/* ---- The module kinds -------------------------------------------------- */

enum { K_FINITE, K_PRESENTED, K_PROJECTIVE, K_COFIBER, K_PROFILE, K_INF_PROFILE, K_ODD, K_SHIFTED,
       K_ADEM, K_COUNT };

static const struct {
    const char *name;   /* the kind, for failure messages */
    const char *module; /* a shell word */
    int bottom;         /* its bottom degree: the stem of its bottom class */
    const char *words;  /* what a refusal names the kind by */
    const char *nassau; /* what --algorithm nassau's refusal names it by; NULL: accepted */
} kinds[K_COUNT] = {
    [K_FINITE] = {"finite", "C2", 0, "finite", NULL},
    [K_PRESENTED] = {"finitely presented", "A_mod_A1", 0, "finitely presented",
                     "finitely presented"},
    [K_PROJECTIVE] = {"projective space", "RP_inf", 1, "projective space", "projective space"},
    [K_COFIBER] = {"cofiber", "Ceta2", 0, "cofiber", "cofiber"},
    [K_PROFILE] = {"profile", "ko", 0, "subalgebra", "subalgebra"},
    [K_INF_PROFILE] = {"infinite profile", "y1", 0, "subalgebra", "subalgebra"},
    [K_ODD] = {"odd prime", "S_3", 0, "odd prime 3", "prime 3"},
    [K_SHIFTED] = {"shifted", "'C2[2]'", 2, "shifted", NULL},
    [K_ADEM] = {"@adem", "C2@adem", 0, "@adem", NULL},
};

/* Whether a store can hold the kind (resolve --save refuses the others;
 * odd primes since store format 3). */
static int storable(int k)
{
    return k != K_COFIBER;
}

/* ---- Running ------------------------------------------------------------ */

/* The harness's runner (sq_test.h), under short names. */
typedef sq_test_run_t run_t;
#define run sq_test_runf
#define run_free sq_test_run_free

/* A refusal: exit 2, nothing on stdout, one line naming what and kind. */
static void expect_refused(int line, const char *args, const run_t *r, const char *what,
                           const char *kind)
{
    if (r->rc != 2 || r->out[0] || sq_test_count_lines(r->err) != 1 || !strstr(r->err, what) ||
        !strstr(r->err, kind))
        sq_test_fail(__FILE__, line,
                     "adams %s: want a refusal (exit 2, one line naming '%s' and '%s'); got "
                     "exit %d\n--- stdout\n%.400s\n--- stderr\n%s",
                     args, what, kind, r->rc, r->out, r->err);
}

static void expect_ok(int line, const char *args, const run_t *r)
{
    if (r->rc != 0 || !r->out[0])
        sq_test_fail(__FILE__, line, "adams %s: want exit 0 with output; got exit %d\n%s", args,
                     r->rc, r->err);
}

/* A scratch directory for stores and files. */
static char scratch[64];

static void scratch_make(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/adams-audit-XXXXXX");
    ASSERT(mkdtemp(scratch) != NULL);
}

static void scratch_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    ASSERT_EQ(system(cmd), 0);
}

/* The store of kind k through (6, 4), written by resolve --save; its path. */
static const char *store_of(int k)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/k%d.db", scratch, k);
    if (access(path, F_OK) != 0) {
        run_t r = run("resolve %s --stem 6 --max-s 4 --save %s --quiet", kinds[k].module, path);
        ASSERT_EQ(r.rc, 0);
        run_free(&r);
    }
    return path;
}

/* ---- The computing verbs ----------------------------------------------- */

/* The options of the computing verbs (the columns of the table). */
enum { O_STEM, O_MAXS, O_FORMAT, O_ALGO_C, O_ALGO_N, O_THREADS, O_PROGRESS, O_QUIET, O_MAXMEM,
       O_GPU, O_SAVE, O_FROM, O_OUTPUT, O_COUNT };

static const char *const opt_names[O_COUNT] = {
    "--stem", "--max-s", "--format", "--algorithm", "--algorithm", "--threads", "--progress",
    "--quiet", "--max-memory", "--gpu", "--save", "--from", "-o"};

/* Which options each verb has. */
static int verb_has(const char *verb, int o)
{
    /* product and massey have --stem and --max-s for --secondary (refused
     * without it) */
    (void)verb;
    int region = 1;
    switch (o) {
    case O_STEM:
    case O_MAXS: return region;
    case O_FORMAT: return strcmp(verb, "resolve") == 0 || strcmp(verb, "chart") == 0;
    case O_SAVE: return strcmp(verb, "resolve") == 0;
    case O_FROM: return strcmp(verb, "resolve") != 0 && strcmp(verb, "size") != 0;
    case O_GPU: return strcmp(verb, "size") != 0;
    case O_OUTPUT: return strcmp(verb, "chart") == 0;
    default: return 1;
    }
}

/* The region arguments of verb for kind k (tiny). */
static void region_args(char *buf, size_t n, const char *verb, int k)
{
    int b = kinds[k].bottom;
    if (strcmp(verb, "product") == 0) /* by h_1 (p = 2), h_0 (odd p) */
        snprintf(buf, n, "--class %d,0,0 --by %s", b, k == K_ODD ? "3,1,0" : "1,1,0");
    else if (strcmp(verb, "massey") == 0 && k == K_ODD) /* <a_0, h_0, a_0>, in (4, 2) */
        snprintf(buf, n, "--a 0,1,0 --b 3,1,0 --c 0,1,0");
    else if (strcmp(verb, "massey") == 0)
        snprintf(buf, n, "--a 1,1,0 --b 0,1,0 --c %d,0,0", b);
    else
        snprintf(buf, n, "--stem 6 --max-s 4");
}

/* docs/cli.md: what refuses the cell (verb, option o, kind k): NULL when it
 * is implemented; else *what is what the line names (the option, or the
 * verb when the verb refuses the kind) and the result the kind's words. */
static const char *refusal(const char *verb, int o, int k, const char **what)
{
    int resolve = strcmp(verb, "resolve") == 0;
    /* chart, products, product and massey work at every prime: at odd p
     * --gpu is refused (as for resolve), and --from while no store holds
     * the kind. */
    int odd_verb = !resolve && k == K_ODD;
    if ((strcmp(verb, "product") == 0 || strcmp(verb, "massey") == 0) &&
        (o == O_STEM || o == O_MAXS)) {
        *what = opt_names[o]; /* product, massey --stem/--max-s: only with --secondary */
        return "--secondary";
    }
    if (odd_verb && (o == O_GPU || (o == O_FROM && !storable(k)))) {
        *what = opt_names[o];
        return kinds[k].words;
    }
    if (!resolve && k == K_COFIBER) {
        /* The verb refuses the kind; with --from, --from refuses it (no
         * store holds it). */
        *what = o == O_FROM ? "--from" : verb;
        return kinds[k].words;
    }
    *what = opt_names[o];
    if (o == O_ALGO_N)
        return kinds[k].nassau;
    if (resolve && k == K_ODD && o == O_GPU)
        return kinds[k].words;
    if (resolve && k == K_COFIBER && (o == O_SAVE || o == O_PROGRESS))
        return kinds[k].words;
    return NULL;
}

/* The arguments adding option o to a run of verb on kind k. */
static void option_args(char *buf, size_t n, const char *verb, int o, int k, const char *region)
{
    const char *m = kinds[k].module;
    char path[160];
    snprintf(path, sizeof path, "%s/out-%s-%d", scratch, verb, k);
    switch (o) {
    case O_STEM: /* S_3 has nothing in stems 1..6 but h_0 (3, 1): stem 2 drops h_0 x_(0, 0, 0) */
        snprintf(buf, n, "%s %s %s --stem %d --quiet", verb, m, region, k == K_ODD ? 2 : 3);
        break;
    case O_MAXS: snprintf(buf, n, "%s %s %s --max-s 1 --quiet", verb, m, region); break;
    case O_FORMAT:
        snprintf(buf, n, "%s %s %s --format %s --quiet", verb, m, region,
                 strcmp(verb, "chart") == 0 ? "json" : "csv");
        break;
    case O_ALGO_C: snprintf(buf, n, "%s %s %s --algorithm classical --quiet", verb, m, region); break;
    case O_ALGO_N: snprintf(buf, n, "%s %s %s --algorithm nassau --quiet", verb, m, region); break;
    case O_THREADS: snprintf(buf, n, "%s %s %s --threads 2 --quiet", verb, m, region); break;
    case O_PROGRESS: snprintf(buf, n, "%s %s %s --progress", verb, m, region); break;
    case O_QUIET: snprintf(buf, n, "%s %s %s --quiet", verb, m, region); break;
    case O_MAXMEM: snprintf(buf, n, "%s %s %s --max-memory 4G --quiet", verb, m, region); break;
    case O_GPU: snprintf(buf, n, "%s %s %s --gpu --quiet", verb, m, region); break;
    case O_SAVE: snprintf(buf, n, "%s %s %s --save %s.db --quiet", verb, m, region, path); break;
    case O_FROM:
        /* The store of an unstorable kind cannot exist: the cell is the
         * verb's own refusal, so any store does. */
        snprintf(buf, n, "%s %s %s --from %s --quiet", verb, m, region,
                 store_of(storable(k) ? k : K_FINITE));
        break;
    case O_OUTPUT: snprintf(buf, n, "%s %s %s -o %s.svg --quiet", verb, m, region, path); break;
    default: buf[0] = '\0';
    }
}

/* Checks that the implemented cell's output is what the option says,
 * against base (the verb on the kind with --quiet alone). */
/* chart --format html for the run args (which has --format json, output
 * r): a page that holds the json output byte for byte (sq_chart_html.h). */
static void check_chart_html(int line, const char *args, const run_t *r)
{
    char html[1100];
    const char *f = strstr(args, "--format json");
    ASSERT(f != NULL);
    snprintf(html, sizeof html, "%.*s--format html%s", (int)(f - args), args,
             f + strlen("--format json"));
    run_t h = run("%s", html);
    if (h.rc != 0 || strncmp(h.out, "<!DOCTYPE html>", 15) != 0 || !strstr(h.out, r->out))
        sq_test_fail(__FILE__, line, "adams %s: not a page holding the json data", html);
    run_free(&h);
}

static void check_effect(int line, const char *args, const char *verb, int o, int k,
                         const run_t *r, const run_t *base)
{
    int massey_undefined = strcmp(verb, "massey") == 0 && base->rc == 2 &&
                           strstr(base->err, "is not defined") != NULL;
    if (massey_undefined) { /* <a, b, c> undefined on this module: the same answer */
        if (r->rc != 2 || !strstr(r->err, "is not defined"))
            sq_test_fail(__FILE__, line, "adams %s: exit %d\n%s", args, r->rc, r->err);
        return;
    }
    if (o == O_OUTPUT) {
        if (r->rc != 0 || r->out[0])
            sq_test_fail(__FILE__, line, "adams %s: exit %d\n%s", args, r->rc, r->err);
        char path[200];
        snprintf(path, sizeof path, "%s/out-%s-%d.svg", scratch, verb, k);
        char *file = sq_test_slurp(path);
        if (strcmp(file, base->out) != 0)
            sq_test_fail(__FILE__, line, "adams %s: the file differs from stdout", args);
        sq_free(file);
        return;
    }
    if (o == O_STEM || o == O_MAXS) { /* a smaller region: less output (maybe none) */
        if (r->rc != 0 || (base->out[0] && strlen(r->out) >= strlen(base->out)))
            sq_test_fail(__FILE__, line,
                         "adams %s: exit %d; a smaller region did not shrink the output\n%s",
                         args, r->rc, r->err);
        return;
    }
    if (r->rc != 0 || (base->out[0] && !r->out[0]))
        sq_test_fail(__FILE__, line, "adams %s: want exit 0 with output; got exit %d\n%s", args,
                     r->rc, r->err);
    int same = strcmp(r->out, base->out) == 0;
    switch (o) {
    case O_FORMAT:
        if (strcmp(verb, "chart") == 0 ? r->out[0] != '{' : !strstr(r->out, ",0,"))
            sq_test_fail(__FILE__, line, "adams %s: not the format asked:\n%.200s", args, r->out);
        if (strcmp(verb, "chart") == 0)
            check_chart_html(line, args, r);
        break;
    case O_QUIET:
        if (r->err[0])
            sq_test_fail(__FILE__, line, "adams %s: stderr under --quiet:\n%s", args, r->err);
        if (!same)
            sq_test_fail(__FILE__, line, "adams %s: output differs from the plain run", args);
        break;
    case O_ALGO_C:
    case O_ALGO_N:
    case O_THREADS:
    case O_MAXMEM:
    case O_GPU:
    case O_FROM:
    case O_PROGRESS:
        if (!same)
            sq_test_fail(__FILE__, line, "adams %s: output differs from the plain run", args);
        break;
    case O_SAVE: {
        if (!same)
            sq_test_fail(__FILE__, line, "adams %s: output differs from the plain run", args);
        char path[200];
        snprintf(path, sizeof path, "%s/out-%s-%d.db", scratch, verb, k);
        run_t e = run("ext %s", path);
        if (e.rc != 0 || strcmp(e.out, base->out) != 0)
            sq_test_fail(__FILE__, line, "adams ext of the store of '%s' differs from the run",
                         args);
        run_free(&e);
        break;
    }
    default: break;
    }
}

/* Walks the row of verb: every kind x every option. */
static void walk_verb(const char *verb)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        char region[128], args[1024];
        region_args(region, sizeof region, verb, k);
        run_t base = run("%s %s %s --quiet", verb, kinds[k].module, region);
        for (int o = 0; o < O_COUNT; o++) {
            option_args(args, sizeof args, verb, o, k, region);
            run_t r = run("%s", args);
            const char *what, *kind = refusal(verb, o, k, &what);
            if (!verb_has(verb, o))
                expect_refused(__LINE__, args, &r, "unknown option", opt_names[o]);
            else if (kind)
                expect_refused(__LINE__, args, &r, what, kind);
            else
                check_effect(__LINE__, args, verb, o, k, &r, &base);
            run_free(&r);
        }
        run_free(&base);
    }
    scratch_remove();
}

TEST(audit_resolve)
{
    walk_verb("resolve");
}

TEST(audit_products)
{
    walk_verb("products");
}

TEST(audit_product)
{
    walk_verb("product");
}

TEST(audit_massey)
{
    walk_verb("massey");
}

TEST(audit_chart)
{
    walk_verb("chart");
}

/* ---- ext and check: the stores of every kind a store holds -------------- */

TEST(audit_ext_check)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        if (!storable(k))
            continue; /* --save refuses them: no store holds them (audit_resolve) */
        const char *db = store_of(k);
        run_t plain = run("resolve %s --stem 6 --max-s 4 --format csv --quiet", kinds[k].module);
        run_t csv = run("ext %s --format csv", db);
        expect_ok(__LINE__, "ext --format csv", &csv);
        ASSERT_STR_EQ(csv.out, plain.out);
        run_t all = run("ext %s", db), part = run("ext %s --stem 5 --max-s 3", db);
        expect_ok(__LINE__, "ext", &all);
        expect_ok(__LINE__, "ext --stem 5 --max-s 3", &part);
        ASSERT(strlen(part.out) < strlen(all.out));
        run_free(&plain), run_free(&csv), run_free(&all), run_free(&part);
        static const char *const check_opts[] = {"", "--full", "--spots 3", "--seed 5",
                                                 "--threads 2", "--max-memory 4G",
                                                 "--progress", "--quiet", "--t-range 2:5"};
        for (size_t i = 0; i < sizeof check_opts / sizeof *check_opts; i++) {
            run_t c = run("check %s %s", db, check_opts[i]);
            if (c.rc != 0)
                sq_test_fail(__FILE__, __LINE__, "adams check %s (%s): exit %d\n%s%s",
                             check_opts[i], kinds[k].name, c.rc, c.out, c.err);
            run_free(&c);
        }
        /* Options ext and check do not have. */
        run_t u = run("ext %s --threads 2", db);
        expect_refused(__LINE__, "ext --threads 2", &u, "unknown option", "--threads");
        run_free(&u);
        u = run("check %s --stem 3", db);
        expect_refused(__LINE__, "check --stem 3", &u, "unknown option", "--stem");
        run_free(&u);
    }
    scratch_remove();
}

/* ---- A region too large for memory, under every verb ------------------- */

static void expect_exit(int line, int want, const char *args)
{
    run_t r = run("%s", args);
    if (r.rc != want || r.out[0] || sq_test_count_lines(r.err) != 1)
        sq_test_fail(__FILE__, line, "adams %s: exit %d (want %d)\n%s", args, r.rc, want, r.err);
    run_free(&r);
}

TEST(audit_region_too_large)
{
    expect_exit(__LINE__, 3, "resolve --stem 30 --max-s 99999");
    expect_exit(__LINE__, 3, "products --stem 30 --max-s 99999");
    expect_exit(__LINE__, 3, "chart --stem 30 --max-s 99999");
    expect_exit(__LINE__, 3, "product --class 30,99999,0 --by 1,1,0");
    expect_exit(__LINE__, 3, "massey --a 1,1,0 --b 0,1,0 --c 30,99999,0");
    expect_exit(__LINE__, 3, "resolve C2 --stem 20 --max-memory 1K");
    expect_exit(__LINE__, 3, "chart Joker --stem 20 --max-memory 1K");
    expect_exit(__LINE__, 3, "products ko --stem 20 --max-memory 1K");
    expect_exit(__LINE__, 3, "resolve S_3 --stem 400 --max-s 100 --max-memory 10M");
    expect_exit(__LINE__, 3, "resolve Ceta2 --stem 20 --max-memory 1K");
    /* ext and check compute nothing: a region beyond the store is refused
     * from its rows, before anything of its size is allocated. */
    scratch_make();
    char args[256];
    snprintf(args, sizeof args, "ext %s --stem 99000 --max-s 99000", store_of(K_FINITE));
    expect_exit(__LINE__, 1, args);
    snprintf(args, sizeof args, "chart --from %s --stem 99000 --max-s 99000", store_of(K_FINITE));
    expect_exit(__LINE__, 2, args);
    snprintf(args, sizeof args, "check %s --max-memory 1K", store_of(K_FINITE));
    expect_exit(__LINE__, 3, args);
    scratch_remove();
}

/* size (issue 24): the resolution's sizes, every kind x option as resolve's
 * (no --format, --save, --gpu, --from); the cofiber of a class refused. */
TEST(audit_size)
{
    walk_verb("size");
}

/* algebra (issue 24) has no module: its options each change the output. */
TEST(audit_algebra)
{
    run_t base = run("algebra --stem 8");
    expect_ok(__LINE__, "algebra --stem 8", &base);
    ASSERT_EQ(sq_test_count_lines(base.out), 9);
    const char *const variants[] = {"algebra --stem 8 --prime 3", "algebra --stem 8 --profile 2,1",
                                    "algebra --stem 8 --prime 3 --profile 'A(1)'"};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        run_t r = run("%s", variants[i]);
        expect_ok(__LINE__, variants[i], &r);
        if (strcmp(r.out, base.out) == 0 || sq_test_count_lines(r.out) != 9)
            sq_test_fail(__FILE__, __LINE__, "adams %s: the option changed nothing", variants[i]);
        run_free(&r);
    }
    run_t q = run("algebra --stem 8 --quiet");
    expect_refused(__LINE__, "algebra --quiet", &q, "unknown option", "--quiet");
    run_free(&q);
    run_free(&base);
}

/* export --format bruner and import (issue 24): export writes the files of
 * a finite module over A at p = 2 (fin, shift, adem), which import reads
 * back to the Ext resolve prints; every other kind is refused with one
 * line naming --format bruner and the kind, nothing written. */
TEST(audit_export_import)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        char args[512], dir[128];
        snprintf(dir, sizeof dir, "%s/bruner%d", scratch, k);
        snprintf(args, sizeof args, "export %s --stem 6 --max-s 4 -o %s --quiet", kinds[k].module,
                 dir);
        run_t r = run("%s", args);
        int ok = k == K_FINITE || k == K_SHIFTED || k == K_ADEM;
        if (!ok) {
            expect_refused(__LINE__, args, &r, "--format bruner", kinds[k].words);
            if (access(dir, F_OK) == 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s: refused but wrote %s", args, dir);
            run_free(&r);
            continue;
        }
        if (r.rc != 0 || r.out[0] || r.err[0])
            sq_test_fail(__FILE__, __LINE__, "adams %s: exit %d\n%s", args, r.rc, r.err);
        run_free(&r);
        run_t a = run("import %s --format csv", dir);
        run_t b = run("resolve %s --stem 6 --max-s 4 --format csv --quiet", kinds[k].module);
        if (a.rc != 0 || strcmp(a.out, b.out) != 0)
            sq_test_fail(__FILE__, __LINE__, "import of %s: not resolve's Ext\n%s", dir, a.err);
        run_free(&a);
        run_free(&b);
    }
    scratch_remove();
}

/* resolve --format differentials (issue 24): every kind prints one line
 * 'd x_(n,s,i) = ...' per generator, the same under --threads; the cofiber
 * of a class refuses it, one line naming the option and the kind. */
TEST(audit_resolve_differentials)
{
    for (int k = 0; k < K_COUNT; k++) {
        char args[512];
        snprintf(args, sizeof args, "resolve %s --stem 6 --max-s 4 --format differentials --quiet",
                 kinds[k].module);
        run_t r = run("%s", args);
        if (k == K_COFIBER) {
            expect_refused(__LINE__, args, &r, "--format differentials", kinds[k].words);
            run_free(&r);
            continue;
        }
        expect_ok(__LINE__, args, &r);
        for (const char *l = r.out; *l; l = strchr(l, '\n') + 1)
            if (strncmp(l, "d x_(", 5) != 0 || !strstr(l, ") = "))
                sq_test_fail(__FILE__, __LINE__, "adams %s: not a differential line: %.80s", args,
                             l);
        run_t t = run("%s --threads 2", args);
        if (t.rc != 0 || strcmp(t.out, r.out) != 0)
            sq_test_fail(__FILE__, __LINE__, "adams %s --threads 2: output differs", args);
        run_free(&t);
        run_free(&r);
    }
}

/* map (issue 24): a map file from each kind to itself (the identity where
 * the kind is accepted: fin, odd, shift, adem), walked over the options
 * of docs/cli.md's map rows.  The refused kinds name the kind (the verb
 * itself); --from is refused whatever the kind; --gpu, --format, --save
 * and -o are unknown options. */
TEST(audit_map)
{
    static const char *const ids[K_COUNT] = {
        [K_FINITE] = "\"x0\": \"x0\", \"x1\": \"x1\"", [K_ODD] = "\"x0\": \"x0\"",
        [K_SHIFTED] = "\"x0\": \"x0\", \"x1\": \"x1\"", [K_ADEM] = "\"x0\": \"x0\", \"x1\": \"x1\""};
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        const char *words = k == K_INF_PROFILE ? "infinite profile" : kinds[k].words;
        char name[64], path[128], plain[256];
        snprintf(name, sizeof name, "%s", kinds[k].module[0] == '\'' ? kinds[k].module + 1
                                                                     : kinds[k].module);
        name[strcspn(name, "'")] = 0;
        snprintf(path, sizeof path, "%s/map%d.json", scratch, k);
        FILE *f = fopen(path, "w");
        ASSERT(f != NULL);
        fprintf(f, "{\"source\": \"%s\", \"target\": \"%s\", \"degree\": 0, \"images\": {%s}}\n",
                name, name, ids[k] ? ids[k] : "\"x0\": \"x0\"");
        ASSERT_EQ(fclose(f), 0);
        snprintf(plain, sizeof plain, "map --map %s --stem 6 --max-s 3", path);
        run_t base = run("%s --quiet", plain);
        const char *const same[] = {"--threads 2", "--algorithm classical", "--max-memory 4G",
                                    "--progress"};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s --quiet %s", plain, same[i]);
            if (!ids[k])
                expect_refused(__LINE__, plain, &r, "map", words);
            else if (r.rc != 0 || strcmp(r.out, base.out) != 0 || !base.out[0])
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: exit %d or output differs", plain,
                             same[i], r.rc);
            run_free(&r);
        }
        run_t q = run("%s", plain), n = run("%s --quiet --algorithm nassau", plain);
        run_t s = run("map --map %s --stem 2 --max-s 3 --quiet", path);
        if (ids[k]) {
            if (q.rc != 0 || strcmp(q.out, base.out) != 0 || !s.out[0] ||
                strlen(s.out) >= strlen(base.out))
                sq_test_fail(__FILE__, __LINE__, "adams %s: --quiet or --stem changed nothing",
                             plain);
            if (k == K_ODD)
                expect_refused(__LINE__, plain, &n, "--algorithm nassau", kinds[k].nassau);
            else if (n.rc != 0 || strcmp(n.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s --algorithm nassau differs", plain);
        } else
            expect_refused(__LINE__, plain, &n, "map", words);
        run_free(&q);
        run_free(&n);
        run_free(&s);
        run_t fr = run("%s --from %s/none.db", plain, scratch);
        expect_refused(__LINE__, plain, &fr, "--from", "map");
        run_free(&fr);
        const char *const unknown[] = {"--gpu", "--format csv", "--save x.db", "-o x"};
        for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
            run_t r = run("%s %s", plain, unknown[i]);
            expect_refused(__LINE__, unknown[i], &r, "unknown option", "map");
            run_free(&r);
        }
        run_free(&base);
    }
    scratch_remove();
}

/* map M N --class (issue 24): the class of Ext(K, S_p) at (bottom, 0) of
 * each kind K (its bottom cell, index 0: a cocycle, as S_p is trivial),
 * walked over docs/cli.md's map rows as audit_map: the accepted kinds
 * (fin, odd, shift, adem) print the same lines under every run option and
 * fewer under a smaller --stem; the others are refused naming the verb and
 * the kind; --from is refused; --gpu, --format, --save, -o are unknown. */
TEST(audit_map_class)
{
    for (int k = 0; k < K_COUNT; k++) {
        const char *words = k == K_INF_PROFILE ? "infinite profile" : kinds[k].words;
        int ok = k == K_FINITE || k == K_ODD || k == K_SHIFTED || k == K_ADEM;
        char plain[256];
        snprintf(plain, sizeof plain, "map %s %s --class %d,0,0 --stem 6 --max-s 3",
                 kinds[k].module, k == K_ODD ? "S_3" : "S_2", kinds[k].bottom);
        run_t base = run("%s --quiet", plain);
        const char *const same[] = {"--threads 2", "--algorithm classical", "--max-memory 4G",
                                    "--progress", ""};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s --quiet %s", plain, same[i]);
            if (!ok)
                expect_refused(__LINE__, plain, &r, "map", words);
            else if (r.rc != 0 || strcmp(r.out, base.out) != 0 || !base.out[0])
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: exit %d or output differs", plain,
                             same[i], r.rc);
            run_free(&r);
        }
        run_t q = run("%s", plain), n = run("%s --quiet --algorithm nassau", plain);
        run_t sm = run("map %s %s --class %d,0,0 --stem 2 --max-s 3 --quiet", kinds[k].module,
                       k == K_ODD ? "S_3" : "S_2", kinds[k].bottom);
        if (ok) {
            if (q.rc != 0 || strcmp(q.out, base.out) != 0 || !sm.out[0] ||
                strlen(sm.out) >= strlen(base.out))
                sq_test_fail(__FILE__, __LINE__, "adams %s: --quiet or --stem changed nothing",
                             plain);
            if (k == K_ODD)
                expect_refused(__LINE__, plain, &n, "--algorithm nassau", kinds[k].nassau);
            else if (n.rc != 0 || strcmp(n.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s --algorithm nassau differs", plain);
        } else
            expect_refused(__LINE__, plain, &n, "map", words);
        run_free(&q);
        run_free(&n);
        run_free(&sm);
        run_t fr = run("%s --from /nonexistent/none.db", plain);
        expect_refused(__LINE__, plain, &fr, "--from", "map");
        run_free(&fr);
        const char *const unknown[] = {"--gpu", "--format csv", "--save x.db", "-o x"};
        for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
            run_t r = run("%s %s", plain, unknown[i]);
            expect_refused(__LINE__, unknown[i], &r, "unknown option", "map");
            run_free(&r);
        }
        run_free(&base);
    }
}

/* yoneda (issue 24): the class of filtration one at the kind's bottom + 1
 * (h_1 on the bottom cell; a_0 at p = 3) of each kind: the accepted kinds
 * (fin, odd, shift, adem) print the same lines under every run option and
 * write E0.json, d0.json, d1.json with -o; the others are refused naming the
 * verb and the kind (with --algorithm nassau, the engine's refusal first);
 * --stem, --max-s, --format, --save, --from, --gpu are not options. */
TEST(audit_yoneda)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        const char *words = k == K_INF_PROFILE ? "infinite profile" : kinds[k].words;
        int ok = k == K_FINITE || k == K_ODD || k == K_SHIFTED || k == K_ADEM;
        char plain[256];
        snprintf(plain, sizeof plain, "yoneda %s --class %d,1,0", kinds[k].module,
                 k == K_ODD ? 0 : kinds[k].bottom + 1);
        run_t base = run("%s --quiet", plain);
        const char *const same[] = {"--threads 2", "--algorithm classical", "--max-memory 4G",
                                    "--progress", ""};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s --quiet %s", plain, same[i]);
            if (!ok)
                expect_refused(__LINE__, plain, &r, "yoneda", words);
            else if (r.rc != 0 || strcmp(r.out, base.out) != 0 || !base.out[0])
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: exit %d or output differs", plain,
                             same[i], r.rc);
            run_free(&r);
        }
        run_t q = run("%s", plain), n = run("%s --quiet --algorithm nassau", plain);
        run_t o = run("%s --quiet -o %s/y%d", plain, scratch, k);
        if (ok) {
            if (q.rc != 0 || strcmp(q.out, base.out) != 0 || o.rc != 0 ||
                strcmp(o.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s: --quiet or -o changed the lines",
                             plain);
            static const char *const files[] = {"E0.json", "d0.json", "d1.json"};
            for (int i = 0; i < 3; i++) {
                char path[256];
                snprintf(path, sizeof path, "%s/y%d/%s", scratch, k, files[i]);
                if (access(path, F_OK) != 0)
                    sq_test_fail(__FILE__, __LINE__, "adams %s -o: no %s", plain, files[i]);
            }
            if (k == K_ODD)
                expect_refused(__LINE__, plain, &n, "--algorithm nassau", kinds[k].nassau);
            else if (n.rc != 0 || strcmp(n.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s --algorithm nassau differs", plain);
        } else {
            /* the engine's refusal comes first (R1, R2), as for resolve */
            expect_refused(__LINE__, plain, &n, "--algorithm nassau", kinds[k].nassau);
            expect_refused(__LINE__, plain, &o, "yoneda", words);
        }
        run_free(&q);
        run_free(&n);
        run_free(&o);
        const char *const unknown[] = {"--stem 4", "--max-s 2", "--format csv", "--save x.db",
                                       "--from x.db", "--gpu"};
        for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
            run_t r = run("%s %s", plain, unknown[i]);
            expect_refused(__LINE__, unknown[i], &r, "unknown option", "yoneda");
            run_free(&r);
        }
        run_free(&base);
    }
    scratch_remove();
}

/* tensor (issue 24): `tensor K K` of every kind with itself writes a module
 * file (stdout, and the same bytes with -o) whose Ext is that of the name
 * "K*K"; an infinite kind needs --stem (refused without, naming it); the
 * cofiber is refused naming it; tensor has no --quiet.  Every verb takes
 * "M*N" as a module (the product is a finite module). */
TEST(audit_tensor)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        const char *m = kinds[k].module;
        char plain[512], path[256];
        snprintf(path, sizeof path, "%s/t%d.json", scratch, k);
        snprintf(plain, sizeof plain, "tensor %s %s --stem 6", m, m);
        run_t r = run("%s", plain), o = run("%s -o %s", plain, path);
        if (k == K_COFIBER) {
            expect_refused(__LINE__, plain, &r, "tensor", kinds[k].words);
            expect_refused(__LINE__, plain, &o, "tensor", kinds[k].words);
            ASSERT(access(path, F_OK) != 0);
        } else {
            expect_ok(__LINE__, plain, &r);
            char *text = sq_test_slurp(path);
            ASSERT_EQ(o.rc, 0);
            ASSERT_STR_EQ(text, r.out);
            sq_free(text);
            run_t a = run("resolve %s --stem 6 --max-s 3 --format csv --quiet", path);
            run_t b = run("resolve %s*%s --stem 6 --max-s 3 --format csv --quiet", m, m);
            expect_ok(__LINE__, path, &a);
            if (b.rc != 0 || strcmp(a.out, b.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams resolve %s*%s differs from its file", m,
                             m);
            run_free(&a);
            run_free(&b);
        }
        run_t s = run("tensor %s %s", m, m);
        if (k == K_PRESENTED || k == K_PROJECTIVE)
            expect_refused(__LINE__, "tensor without --stem", &s, "--stem", "infinite");
        else if (k != K_COFIBER)
            expect_ok(__LINE__, "tensor without --stem", &s);
        run_t q = run("%s --quiet", plain);
        expect_refused(__LINE__, "tensor --quiet", &q, "unknown option", "--quiet");
        run_free(&q);
        run_free(&s);
        run_free(&r);
        run_free(&o);
    }
    const char *const verbs[] = {"resolve", "products", "chart", "size"};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        run_t r = run("%s 'C2*Ceta' --stem 6 --max-s 3 --quiet", verbs[i]);
        expect_ok(__LINE__, verbs[i], &r);
        run_free(&r);
    }
    scratch_remove();
}

/* dual (issue 24): `dual K` of every finite kind writes a module file (the
 * same bytes with -o) whose Ext is that of the name "D(K)", and D(D(K))
 * resolves as K; the infinite kinds (finitely presented, projective space)
 * and the cofiber are refused naming what they are (line 21); dual has no
 * --stem or --quiet.  Every verb takes "D(N)" as a module. */
TEST(audit_dual)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        const char *m = kinds[k].module;
        char plain[512], path[256];
        snprintf(path, sizeof path, "%s/d%d.json", scratch, k);
        snprintf(plain, sizeof plain, "dual %s", m);
        run_t r = run("%s", plain), o = run("%s -o %s", plain, path);
        if (k == K_COFIBER || k == K_PRESENTED || k == K_PROJECTIVE) {
            const char *why = k == K_COFIBER ? "cofiber" : "infinite";
            expect_refused(__LINE__, plain, &r, "dualizes finite modules only", why);
            expect_refused(__LINE__, plain, &o, "dualizes finite modules only", why);
            ASSERT(access(path, F_OK) != 0);
        } else {
            expect_ok(__LINE__, plain, &r);
            char *text = sq_test_slurp(path);
            ASSERT_EQ(o.rc, 0);
            ASSERT_STR_EQ(text, r.out);
            sq_free(text);
            run_t a = run("resolve %s --stem 6 --max-s 3 --format csv --quiet", path);
            run_t b = run("resolve 'D(%s)' --stem 6 --max-s 3 --format csv --quiet", m);
            run_t c = run("resolve 'D(D(%s))' --stem 6 --max-s 3 --format csv --quiet", m);
            run_t d = run("resolve %s --stem 6 --max-s 3 --format csv --quiet", m);
            expect_ok(__LINE__, path, &a);
            if (b.rc != 0 || strcmp(a.out, b.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams resolve D(%s) differs from its file", m);
            if (c.rc != 0 || d.rc != 0 || strcmp(c.out, d.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams resolve D(D(%s)) differs from %s", m, m);
            run_free(&a);
            run_free(&b);
            run_free(&c);
            run_free(&d);
        }
        const char *const unknown[] = {"--stem 4", "--quiet", "--max-s 2", "--format csv"};
        for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
            run_t q = run("%s %s", plain, unknown[i]);
            expect_refused(__LINE__, unknown[i], &q, "unknown option", "dual");
            run_free(&q);
        }
        run_free(&r);
        run_free(&o);
    }
    const char *const verbs[] = {"resolve", "products", "chart", "size"};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        run_t r = run("%s 'C2*D(Ceta)' --stem 6 --max-s 3 --quiet", verbs[i]);
        expect_ok(__LINE__, verbs[i], &r);
        run_free(&r);
    }
    scratch_remove();
}

/* resolve --coefficients (issue 24): Ext(K, N) of every kind K, N the
 * kind's own module where it is finite (S_2 for the infinite kinds, ko and
 * y1 for the profiles), walked over docs/cli.md's rows: the same bytes
 * under --threads, --algorithm classical, --max-memory, --gpu (p = 2),
 * --progress; less under a smaller --stem or --max-s; csv under --format;
 * nothing on stderr under --quiet; --save and --format differentials
 * refused naming --coefficients; --algorithm nassau as resolve; the
 * cofiber refused naming the option and the kind; the other verbs have no
 * --coefficients. */
TEST(audit_coefficients)
{
    static const char *const coef[K_COUNT] = {
        [K_FINITE] = "C2", [K_PRESENTED] = "S_2", [K_PROJECTIVE] = "S_2", [K_COFIBER] = "C2",
        [K_PROFILE] = "ko", [K_INF_PROFILE] = "y1", [K_ODD] = "S_3", [K_SHIFTED] = "C2",
        [K_ADEM] = "C2"};
    for (int k = 0; k < K_COUNT; k++) {
        char plain[256];
        snprintf(plain, sizeof plain, "resolve %s --coefficients %s --stem 6 --max-s 3",
                 kinds[k].module, coef[k]);
        run_t base = run("%s --quiet", plain), loud = run("%s", plain);
        if (k == K_COFIBER) {
            expect_refused(__LINE__, plain, &base, "--coefficients", kinds[k].words);
            run_free(&base);
            run_free(&loud);
            continue;
        }
        expect_ok(__LINE__, plain, &base);
        if (base.err[0] || strcmp(loud.out, base.out) != 0 || !loud.err[0])
            sq_test_fail(__FILE__, __LINE__, "%s: --quiet changed the output or said something",
                         plain);
        const char *const same[] = {"--threads 2", "--algorithm classical", "--max-memory 4G",
                                    "--progress", "--gpu"};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s --quiet %s", plain, same[i]);
            if (k == K_ODD && strcmp(same[i], "--gpu") == 0)
                expect_refused(__LINE__, plain, &r, "--gpu", kinds[k].words);
            else if (r.rc != 0 || strcmp(r.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "%s %s: exit %d or output differs", plain,
                             same[i], r.rc);
            run_free(&r);
        }
        run_t n = run("%s --quiet --algorithm nassau", plain);
        if (kinds[k].nassau)
            expect_refused(__LINE__, plain, &n, "--algorithm nassau", kinds[k].nassau);
        else if (n.rc != 0 || strcmp(n.out, base.out) != 0)
            sq_test_fail(__FILE__, __LINE__, "%s --algorithm nassau differs", plain);
        run_t st = run("resolve %s --coefficients %s --stem 3 --max-s 3 --quiet",
                       kinds[k].module, coef[k]);
        run_t ms = run("resolve %s --coefficients %s --stem 6 --max-s 1 --quiet",
                       kinds[k].module, coef[k]);
        run_t csv = run("%s --quiet --format csv", plain);
        if (st.rc || ms.rc || strlen(st.out) >= strlen(base.out) ||
            strlen(ms.out) >= strlen(base.out) || csv.rc || !strstr(csv.out, ",0,"))
            sq_test_fail(__FILE__, __LINE__, "%s: --stem, --max-s or --format changed nothing",
                         plain);
        run_free(&n);
        run_free(&st);
        run_free(&ms);
        run_free(&csv);
        const char *const refused[] = {"--save", "--format differentials"};
        for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
            run_t r = run("%s %s%s", plain, refused[i], i == 0 ? " x.db" : "");
            expect_refused(__LINE__, refused[i], &r, "--coefficients", refused[i]);
            run_free(&r);
        }
        run_free(&base);
        run_free(&loud);
    }
    /* chart, products, product and massey draw Ext(M, N) through M ⊗ DN
     * (docs/resolution.md): the module they name is "M*D(N)", never M's
     * own Ext; --from refused; the other verbs have no --coefficients. */
    const char *const with[] = {"chart --format json --stem 6 --max-s 3",
                                "products --stem 6 --max-s 3", "product --class 0,0,0 --by 0,1,0",
                                "massey --a 0,1,0 --b 1,1,0 --c 0,1,0"};
    for (size_t i = 0; i < sizeof with / sizeof *with; i++) {
        run_t r = run("%s C2 --coefficients C2 --quiet", with[i]);
        run_t t = run("%s 'C2*D(C2)' --quiet", with[i]);
        expect_ok(__LINE__, with[i], &r);
        if (t.rc != 0 || strcmp(r.out, t.out) != 0)
            sq_test_fail(__FILE__, __LINE__, "%s --coefficients C2 differs from C2*D(C2)",
                         with[i]);
        run_t f = run("%s C2 --coefficients C2 --from x.db", with[i]);
        expect_refused(__LINE__, with[i], &f, "--coefficients", "omit --from");
        run_free(&r);
        run_free(&t);
        run_free(&f);
    }
    for (int k = 0; k < K_COUNT; k++) { /* every kind: the chart of K*D(N) */
        const char *n = k == K_ODD ? "C3" : "C2";
        run_t r = run("chart %s --coefficients %s --stem 6 --max-s 3 --format json --quiet",
                      kinds[k].module, n);
        run_t t = run("chart '%s*D(%s)' --stem 6 --max-s 3 --format json --quiet",
                      kinds[k].module, n);
        if (k == K_COFIBER)
            expect_refused(__LINE__, "chart --coefficients", &r, "a tensor product", "cofiber");
        else if (r.rc != 0 || t.rc != 0 || strcmp(r.out, t.out) != 0)
            sq_test_fail(__FILE__, __LINE__, "chart %s --coefficients %s: exit %d, %s",
                         kinds[k].module, n, r.rc, r.err);
        run_free(&r);
        run_free(&t);
    }
    const char *const verbs[] = {"size", "map", "tensor", "export", "yoneda --class 1,1,0"};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        run_t r = run("%s C2 --coefficients C2", verbs[i]);
        expect_refused(__LINE__, verbs[i], &r, "unknown option", "--coefficients");
        run_free(&r);
    }
}

/* sq0, steenrod, mahowald (issue 26): the operations on Ext of S_2 only.
 * Every kind's module is refused with one line naming the verb and the
 * module (the kind's words where the module is more than finite); on S_2
 * (and S_2@adem) the run options leave the bytes alone, a smaller --stem
 * prints fewer, --quiet leaves stderr empty; the options the verbs do not
 * have are unknown. */
TEST(audit_sphere_verbs)
{
    static const char *const base[] = {"sq0 --stem 12 --max-s 4", "steenrod --stem 14 --max-s 6",
                                       "mahowald --stem 6"};
    static const char *const smaller[] = {"sq0 --stem 8 --max-s 4", "steenrod --stem 8 --max-s 6",
                                          "mahowald --stem 3"};
    for (int v = 0; v < 3; v++) {
        char verb[16];
        snprintf(verb, sizeof verb, "%.*s", (int)strcspn(base[v], " "), base[v]);
        for (int k = 0; k < K_COUNT; k++) {
            char name[64];
            snprintf(name, sizeof name, "%s", kinds[k].module[0] == '\'' ? kinds[k].module + 1
                                                                         : kinds[k].module);
            name[strcspn(name, "'[@")] = 0;
            run_t r = run("%s %s", base[v], kinds[k].module);
            expect_refused(__LINE__, base[v], &r, verb, name);
            if (k == K_COFIBER || k == K_ODD || k == K_PROFILE || k == K_INF_PROFILE)
                expect_refused(__LINE__, base[v], &r, "not the sphere",
                               k == K_INF_PROFILE ? "infinite profile" : kinds[k].words);
            run_free(&r);
        }
        run_t b = run("%s --quiet", base[v]);
        expect_ok(__LINE__, base[v], &b);
        const char *const same[] = {"--threads 2", "--max-memory 4G", "S_2@adem", "--progress",
                                    v < 2 ? "--algorithm classical" : "--threads 1"};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s --quiet %s", base[v], same[i]);
            if (r.rc != 0 || strcmp(r.out, b.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: exit %d or output differs", base[v],
                             same[i], r.rc);
            run_free(&r);
        }
        run_t q = run("%s", base[v]), s = run("%s --quiet", smaller[v]);
        if (q.rc != 0 || strcmp(q.out, b.out) != 0 || b.err[0] || !s.out[0] ||
            strlen(s.out) >= strlen(b.out))
            sq_test_fail(__FILE__, __LINE__, "adams %s: --quiet or --stem changed nothing", base[v]);
        run_free(&q);
        run_free(&s);
        const char *const unknown[] = {"--gpu", "--format csv", "--save x.db", "-o x",
                                       "--from x.db"};
        for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
            run_t r = run("%s %s", base[v], unknown[i]);
            expect_refused(__LINE__, unknown[i], &r, "unknown option", verb);
            run_free(&r);
        }
        run_free(&b);
    }
    /* --class is steenrod's alone. */
    run_t r = run("sq0 --class 8,3,0");
    expect_refused(__LINE__, "sq0 --class", &r, "unknown option", "sq0");
    run_free(&r);
}

/* resolve --mpi (issue 27, docs/mpi.md) outside mpirun.  A build without
 * MPI refuses it in one line naming --mpi (R17), whatever the kind; a
 * build with MPI runs it as one rank: the bytes of the run without --mpi
 * for every kind but the cofiber (R17), also with --save; with either,
 * --gpu and --coefficients are refused naming --mpi; the other verbs have
 * no --mpi.  tests/mpi/run.sh runs it under mpirun on 2-4 ranks. */
TEST(audit_mpi)
{
    run_t probe = run("resolve C2 --stem 4 --mpi --quiet");
    int built = !(probe.rc == 2 && strstr(probe.err, "built without MPI"));
    if (!built)
        expect_refused(__LINE__, "resolve C2 --mpi", &probe, "--mpi", "without MPI");
    run_free(&probe);
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        char plain[128];
        snprintf(plain, sizeof plain, "resolve %s --stem 6 --max-s 4 --quiet", kinds[k].module);
        run_t base = run("%s", plain), r = run("%s --mpi", plain);
        if (!built)
            expect_refused(__LINE__, plain, &r, "--mpi", "without MPI");
        else if (k == K_COFIBER)
            expect_refused(__LINE__, plain, &r, "--mpi", kinds[k].words);
        else if (r.rc != 0 || strcmp(r.out, base.out) != 0 || r.err[0])
            sq_test_fail(__FILE__, __LINE__, "adams %s --mpi: exit %d or output differs\n%s",
                         plain, r.rc, r.err);
        run_free(&r);
        if (built && k == K_FINITE) {
            run_t s = run("%s --mpi --save %s/mpi.db", plain, scratch);
            if (s.rc != 0 || strcmp(s.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s --mpi --save: exit %d or differs",
                             plain, s.rc);
            run_free(&s);
        }
        run_free(&base);
    }
    const char *const refused[] = {"--gpu", "--coefficients C2"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        run_t r = run("resolve C2 --stem 6 --mpi %s", refused[i]);
        expect_refused(__LINE__, refused[i], &r, "--mpi",
                       built ? (i == 0 ? "--gpu" : "--coefficients") : "without MPI");
        run_free(&r);
    }
    const char *const verbs[] = {"products", "chart", "size", "map", "tensor", "export", "ext"};
    for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++) {
        run_t r = run("%s C2 --mpi", verbs[i]);
        expect_refused(__LINE__, verbs[i], &r, "unknown option", "--mpi");
        run_free(&r);
    }
    scratch_remove();
}

/* d2 (issue 22): the Adams d_2 of a finite module over A at p = 2 (fin,
 * shift, adem), every option as it says (the same bytes under --threads,
 * --algorithm, --max-memory, --from; fewer lines under a smaller --stem or
 * --max-s; nothing on stderr under --quiet; the same under --save, resumed
 * and read back by --from: issue 22 item 2); every other kind refused with
 * one line naming d2 and the kind, --save too (no store made); --save with
 * --from refused; --format, --gpu, -o unknown options. */
TEST(audit_d2)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        const char *m = kinds[k].module;
        int ok = k == K_FINITE || k == K_SHIFTED || k == K_ADEM;
        char args[512];
        snprintf(args, sizeof args, "d2 %s --stem 14 --max-s 6", m);
        run_t base = run("%s --quiet", args);
        char sdb[160];
        snprintf(sdb, sizeof sdb, "%s/d2-%d.db", scratch, k);
        if (!ok) {
            expect_refused(__LINE__, args, &base, "d2", kinds[k].words);
            run_t r = run("%s --save %s", args, sdb);
            expect_refused(__LINE__, args, &r, "d2", kinds[k].words);
            if (access(sdb, F_OK) == 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s --save: a store was made", args);
            run_free(&r);
            run_free(&base);
            continue;
        }
        for (int i = 0; i < 3; i++) { /* made, resumed whole, then read back */
            run_t r = i < 2 ? run("%s --save %s --quiet", args, sdb)
                            : run("d2 --from %s --quiet", sdb);
            if (r.rc != 0 || strcmp(r.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s --save (%d): not the same lines\n%s",
                             args, i, r.err);
            run_free(&r);
        }
        run_t sf = run("%s --save %s --from %s", args, sdb, sdb);
        expect_refused(__LINE__, args, &sf, "--save", "--from");
        run_free(&sf);
        /* chart --d2 --from: the kept lift drawn, the fresh chart's bytes */
        run_t cf = run("chart --from %s --d2 --format json", sdb);
        run_t cc = run("chart %s --stem 14 --max-s 6 --d2 --format json --quiet", m);
        if (cf.rc != 0 || cc.rc != 0 || strcmp(cf.out, cc.out) != 0)
            sq_test_fail(__FILE__, __LINE__, "adams chart --d2 --from (%s): not the bytes\n%s",
                         m, cf.err);
        run_free(&cf);
        run_free(&cc);
        expect_ok(__LINE__, args, &base);
        if (base.err[0])
            sq_test_fail(__FILE__, __LINE__, "adams %s --quiet: stderr %s", args, base.err);
        static const char *const same[] = {"--threads 2", "--algorithm classical",
                                           "--algorithm nassau", "--max-memory 8G",
                                           "--threads 1 --progress"};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s %s --quiet", args, same[i]);
            if (r.rc != 0 || strcmp(r.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: not the same lines", args,
                             same[i]);
            run_free(&r);
        }
        static const char *const fewer[] = {"--stem 9 --max-s 6", "--stem 14 --max-s 4"};
        for (size_t i = 0; i < sizeof fewer / sizeof *fewer; i++) {
            run_t r = run("d2 %s %s --quiet", m, fewer[i]);
            if (r.rc != 0 ||
                sq_test_count_lines(r.out) >= sq_test_count_lines(base.out))
                sq_test_fail(__FILE__, __LINE__, "adams %s: not fewer lines", fewer[i]);
            run_free(&r);
        }
        static const char *const unknown[][2] = {
            {"--format csv", "'--format'"}, {"--gpu", "'--gpu'"}, {"-o x", "'-o'"}};
        for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
            run_t r = run("%s %s", args, unknown[i][0]);
            expect_refused(__LINE__, args, &r, "unknown option", unknown[i][1]);
            run_free(&r);
        }
        if (k == K_FINITE) { /* --from: the same lines from a store */
            char db[128];
            snprintf(db, sizeof db, "%s/d2.db", scratch);
            run_t s = run("resolve %s --stem 14 --max-s 6 --save %s --quiet", m, db);
            ASSERT_EQ(s.rc, 0);
            run_free(&s);
            run_t r = run("d2 --from %s --quiet", db);
            if (r.rc != 0 || strcmp(r.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams d2 --from: not the same lines\n%s",
                             r.err);
            run_free(&r);
        }
        run_free(&base);
    }
    /* resolve --page 3 and chart --d2 / --page 3: the same kinds, the same refusals */
    static const char *const pages[][2] = {{"resolve", "--page 3 --format csv"},
                                           {"chart", "--d2"},
                                           {"chart", "--page 3"},
                                           {"chart", "--d2 --format json"}};
    for (int k = 0; k < K_COUNT; k++)
        for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
            char args[512];
            const char *verb = pages[i][0];
            snprintf(args, sizeof args, "%s %s --stem 12 --max-s 5 %s", verb, kinds[k].module,
                     pages[i][1]);
            run_t r = run("%s --quiet", args);
            if (k == K_FINITE || k == K_SHIFTED || k == K_ADEM) {
                expect_ok(__LINE__, args, &r);
                run_t t = run("%s --quiet --threads 2", args);
                if (t.rc != 0 || strcmp(t.out, r.out) != 0)
                    sq_test_fail(__FILE__, __LINE__, "adams %s --threads 2: not the same", args);
                run_free(&t);
            } else
                expect_refused(__LINE__, args, &r, verb, kinds[k].words);
            run_free(&r);
        }
    /* a truncated store is refused too */
    char db[128];
    snprintf(db, sizeof db, "%s/d2fp.db", scratch);
    run_t s = run("resolve %s --stem 6 --max-s 4 --save %s --quiet", kinds[K_PRESENTED].module, db);
    ASSERT_EQ(s.rc, 0);
    run_free(&s);
    run_t r = run("d2 --from %s", db);
    expect_refused(__LINE__, "d2 --from (fp store)", &r, "d2: --from", "truncated");
    run_free(&r);
    scratch_remove();
}

/* --save on an unstable run of kind k (args, its plain chart base): the
 * same chart; ext, check and chart --from read the store; a stable run and
 * products --from refused by it naming the category, and the unstable run
 * by the kind's stable store. */
static void audit_unstable_store(int k, const char *args, const run_t *base)
{
    char f[128];
    snprintf(f, sizeof f, "%s/u%d.db", scratch, k);
    run_t sv = run("%s --save %s --quiet", args, f), again = run("%s --save %s --quiet", args, f);
    run_t ex = run("ext %s", f), ck = run("check %s", f);
    run_t cf = run("chart --from %s --format json", f);
    if (sv.rc || strcmp(sv.out, base->out) || again.rc || strcmp(again.out, base->out) ||
        ex.rc || strcmp(ex.out, base->out) || ck.rc || cf.rc || !cf.out[0])
        sq_test_fail(__FILE__, __LINE__,
                     "adams %s --save: the store does not give the same chart (save %d, "
                     "resume %d, ext %d, check %d, chart --from %d)",
                     args, sv.rc, again.rc, ex.rc, ck.rc, cf.rc);
    run_t st = run("resolve %s --stem %d --max-s 4 --save %s", kinds[k].module,
                   kinds[k].bottom + 6, f);
    expect_refused(__LINE__, "a stable run on an unstable store", &st,
                   "keeps the unstable resolution", "this run is stable");
    run_t pr = run("products --from %s", f);
    expect_refused(__LINE__, "products --from an unstable store", &pr,
                   "keeps an unstable resolution", "--from");
    run_t us = run("%s --save %s", args, store_of(k));
    expect_refused(__LINE__, "an unstable run on a stable store", &us,
                   "keeps the stable resolution", "this run is unstable");
    run_free(&sv), run_free(&again), run_free(&ex), run_free(&ck), run_free(&cf);
    run_free(&st), run_free(&pr), run_free(&us);
}

/* resolve --unstable (and S^n) and suspension over every kind
 * (docs/cli.md, refusal 19): the unstable kinds (RP_inf, C2[2], S_3) run, the
 * same bytes under --threads, --max-memory, --progress (and resolve's
 * --algorithm classical), fewer under a smaller --stem; the rest and the
 * options an unstable run does not have are refused in one line; --save
 * keeps the run in an unstable store (audit_unstable_store). */
TEST(audit_unstable)
{
    scratch_make();
    for (int k = 0; k < K_COUNT; k++) {
        const char *m = kinds[k].module;
        const char *why = k == K_COFIBER                           ? "cofiber"
                          : k == K_PROFILE || k == K_INF_PROFILE ? "subalgebra"
                                                                 : "not unstable";
        int ok = k == K_PROJECTIVE || k == K_SHIFTED || k == K_ODD;
        static const char *const verbs[] = {"resolve --unstable", "suspension"};
        for (int v = 0; v < 2; v++) {
            char args[512];
            snprintf(args, sizeof args, "%s %s --stem %d --max-s 4", verbs[v], m,
                     kinds[k].bottom + 6);
            run_t base = run("%s --quiet", args);
            if (!ok) {
                expect_refused(__LINE__, args, &base, why, "");
                run_free(&base);
                continue;
            }
            expect_ok(__LINE__, args, &base);
            static const char *const same[] = {"--threads 2", "--max-memory 8G",
                                               "--threads 1 --progress", "--algorithm classical"};
            for (size_t i = 0; i < sizeof same / sizeof *same - (size_t)v; i++) {
                run_t r = run("%s %s --quiet", args, same[i]);
                if (r.rc != 0 || strcmp(r.out, base.out) != 0)
                    sq_test_fail(__FILE__, __LINE__, "adams %s %s: not the same", args, same[i]);
                run_free(&r);
            }
            run_t f = run("%s %s --stem %d --max-s 4 --quiet", verbs[v], m, kinds[k].bottom + 4);
            if (f.rc != 0 || strlen(f.out) >= strlen(base.out))
                sq_test_fail(__FILE__, __LINE__, "adams %s: not less under a smaller --stem", args);
            run_free(&f);
            if (v == 0) {
                run_t c = run("%s --format csv --quiet", args);
                if (c.rc != 0 || !strchr(c.out, ','))
                    sq_test_fail(__FILE__, __LINE__, "adams %s --format csv: no csv", args);
                run_free(&c);
                static const char *const refused[][2] = {
                    {"--coefficients C2", "--coefficients"},
                    {"--format differentials", "--format differentials"},
                    {"--algorithm nassau", "--algorithm nassau"}};
                for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
                    run_t r = run("%s %s", args, refused[i][0]);
                    expect_refused(__LINE__, args, &r, refused[i][1], "unstable");
                    run_free(&r);
                }
                audit_unstable_store(k, args, &base);
            } else {
                static const char *const unknown[] = {"--format csv", "--save x.db", "--gpu",
                                                      "--algorithm classical", "--unstable"};
                for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
                    run_t r = run("%s %s", args, unknown[i]);
                    expect_refused(__LINE__, args, &r, "unknown option", "");
                    run_free(&r);
                }
            }
            run_free(&base);
        }
    }
    /* --unstable is resolve's only */
    run_t r = run("chart S_2 --stem 4 --unstable");
    expect_refused(__LINE__, "chart --unstable", &r, "unknown option", "--unstable");
    run_free(&r);
    scratch_remove();
}

/* product --secondary (issue 22 item 4): products in Mod_{C lambda^2} of a
 * finite module over A at p = 2 (fin, shift, adem), the same lines under
 * --threads 2, --max-memory, --progress; the same line set (the lambda
 * parts may change: docs/secondary.md) under --algorithm; fewer lines under
 * a smaller --stem or --max-s; every other kind refused naming product and
 * the kind; --by, --from, --gpu, --coefficients refused naming the option;
 * --save, --format, -o unknown options; a class at the top of the region
 * refused; massey --secondary's refused options. */
TEST(audit_product_secondary)
{
    for (int k = 0; k < K_COUNT; k++) {
        const char *m = kinds[k].module;
        int ok = k == K_FINITE || k == K_SHIFTED || k == K_ADEM;
        char args[512];
        snprintf(args, sizeof args, "product %s --secondary --class %d,0,0 --stem 9 --max-s 5",
                 m, kinds[k].bottom);
        run_t base = run("%s --quiet", args);
        if (!ok) {
            expect_refused(__LINE__, args, &base, "product", kinds[k].words);
            run_free(&base);
            continue;
        }
        expect_ok(__LINE__, args, &base);
        if (base.err[0])
            sq_test_fail(__FILE__, __LINE__, "adams %s --quiet: stderr %s", args, base.err);
        static const char *const same[] = {"--threads 2", "--max-memory 8G",
                                           "--threads 1 --progress"};
        for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
            run_t r = run("%s %s --quiet", args, same[i]);
            if (r.rc != 0 || strcmp(r.out, base.out) != 0)
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: not the same lines", args,
                             same[i]);
            run_free(&r);
        }
        static const char *const algo[] = {"--algorithm classical", "--algorithm nassau"};
        for (size_t i = 0; i < sizeof algo / sizeof *algo; i++) {
            run_t r = run("%s %s --quiet", args, algo[i]);
            if (r.rc != 0 || sq_test_count_lines(r.out) != sq_test_count_lines(base.out))
                sq_test_fail(__FILE__, __LINE__, "adams %s %s: not the same lines", args,
                             algo[i]);
            run_free(&r);
        }
        static const char *const fewer[] = {"--stem 6 --max-s 5", "--stem 9 --max-s 2"};
        for (size_t i = 0; i < sizeof fewer / sizeof *fewer; i++) {
            run_t r = run("product %s --secondary --class %d,0,0 %s --quiet", m,
                          kinds[k].bottom, fewer[i]);
            if (r.rc != 0 || sq_test_count_lines(r.out) >= sq_test_count_lines(base.out))
                sq_test_fail(__FILE__, __LINE__, "adams %s: not fewer lines", fewer[i]);
            run_free(&r);
        }
        static const char *const no[][2] = {{"--by 1,1,0", "--by"},
                                            {"--from x.db", "--from"},
                                            {"--gpu", "--gpu"},
                                            {"--coefficients C2", "--coefficients"},
                                            {"--save x.db", "unknown option"},
                                            {"--format csv", "unknown option"},
                                            {"-o x", "unknown option"}};
        for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
            run_t r = run("%s %s", args, no[i][0]);
            expect_refused(__LINE__, args, &r, no[i][1], i < 4 ? "--secondary" : "");
            run_free(&r);
        }
        run_t top = run("product %s --secondary --class %d,0,0 --stem 9 --max-s 1", m,
                        kinds[k].bottom);
        expect_refused(__LINE__, "product --secondary --max-s 1", &top, "--class", "--max-s");
        run_free(&top);
        run_free(&base);
    }
    run_t r = run("product --secondary --class 15,1,0 --stem 20 --max-s 6 --quiet");
    expect_refused(__LINE__, "product --secondary --class 15,1,0", &r, "--secondary",
                   "nonzero d_2");
    run_free(&r);
    /* massey --secondary: the options it cannot take, one line each */
    static const char *const mno[][2] = {{"--c 0,0,0", "--c"},
                                         {"--from x.db", "--from"},
                                         {"--gpu", "--gpu"},
                                         {"--coefficients C2", "--coefficients"}};
    for (size_t i = 0; i < sizeof mno / sizeof *mno; i++) {
        r = run("massey --secondary --a 3,1,0 --b 7,1,0 --stem 12 --max-s 5 %s", mno[i][0]);
        expect_refused(__LINE__, "massey --secondary", &r, "--secondary", mno[i][1]);
        run_free(&r);
    }
}

