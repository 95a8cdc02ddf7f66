/*
 * t-dual.c -- the dual DN of a finite module (fdmod_dual.h): D(D(N)) is N's
 * module file exactly (p = 2 and 3, over A and over a subalgebra); D(C2)
 * is C2 shifted down by one (cells -1, 0 joined by Sq^1); D(Joker) has
 * Sq^4 from the top cell's dual to the bottom's (the transpose of chi(Sq^4)
 * = Sq^4 + Sq^3 Sq^1, which is x0 -> x4 on the Joker, though Sq^4 x0 = 0
 * there); at p = 3 beta and P^1 of the dual of cells 0, 1, 5, 6 joined by
 * beta, P^1, beta carry the signs of the header (P^1 x5* = 2 x1*: chi(P^1) =
 * -P^1, no Koszul sign, s(5)/s(1) = 1).  Ext of the duals against
 * independent computations is in tests/cli/t-tensor-cli.c.
 */
#include <string.h>

#include "fdmod.h"
#include "fdmod_dual.h"
#include "sq_core.h"
#include "sq_modspec.h"
#include "sq_modspec_write.h"
#include "sq_test.h"

static fdmod_t *load(const char *json, const char *name)
{
    sq_modspec_module_t m;
    sq_modspec_opts_t mo = {0};
    char err[512];
    int rc = sq_modspec_load_module(&m, json, strlen(json), name, &mo, err, sizeof err);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    return m.p == 2 ? m.m2 : m.modd;
}

static fdmod_t *dual(const fdmod_t *N)
{
    fdmod_t *D = NULL;
    char err[512] = "";
    if (fdmod_dual(&D, N, NULL, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "D(%s): %s", fdmod_name(N), err);
    return D;
}

static const char joker[] =
    "{\"gens\": {\"x0\": 0, \"x1\": 1, \"x2\": 2, \"x3\": 3, \"x4\": 4}, \"actions\": "
    "[\"Sq1 x0 = x1\", \"Sq2 x0 = x2\", \"Sq2 x1 = x3\", \"Sq2 x2 = x4\", \"Sq1 x3 = x4\"]}";
static const char bpb[] = "{\"p\": 3, \"gens\": {\"x0\": 0, \"x1\": 1, \"x5\": 5, \"x6\": 6}, "
                          "\"actions\": [\"b x0 = x1\", \"P1 x1 = x5\", \"b x5 = x6\"]}";

TEST(dual_twice_is_the_same_file)
{
    static const char *const mods[][2] = {
        {"{\"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"Sq1 x0 = x1\"]}", "C2"},
        {joker, "Joker"},
        {"{\"gens\": {\"a\": 0, \"b\": 2, \"c\": 4, \"d\": 6}, \"actions\": [\"Sq2 a = b\", "
         "\"Sq4 a = c\", \"Sq2 c = d\", \"Sq4 b = d\"]}",
         "Csq"},
        {"{\"profile\": {\"truncated\": true, \"p_part\": [2, 1]}, \"gens\": {\"x0\": 0, "
         "\"x2\": 2}, \"actions\": [\"Sq2 x0 = x2\"]}",
         "A1cells"},
        {bpb, "bPb"},
        {"{\"p\": 5, \"gens\": {\"x0\": 0, \"x1\": 1, \"x8\": 8, \"x9\": 9}, \"actions\": [\"b "
         "x0 = x1\", \"P1 x1 = x9\", \"P1 x0 = x8\", \"b x8 = 4 x9\"]}",
         "C5cells"},
    };
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
        fdmod_t *N = load(mods[i][0], mods[i][1]);
        fdmod_t *D = dual(N), *DD = dual(D);
        ASSERT(strncmp(fdmod_name(D), "D(", 2) == 0);
        ASSERT_STR_EQ(fdmod_name(DD), fdmod_name(N));
        ASSERT_EQ(fdmod_bottom(D), -fdmod_top(N));
        ASSERT_EQ(fdmod_top(D), -fdmod_bottom(N));
        char *a = sq_modspec_write_text(N, "x"), *b = sq_modspec_write_text(DD, "x");
        if (strcmp(a, b) != 0)
            sq_test_fail(__FILE__, __LINE__, "D(D(%s)) differs:\n%s\nfrom\n%s", mods[i][1], b, a);
        sq_free(a);
        sq_free(b);
        fdmod_free(DD);
        fdmod_free(D);
        fdmod_free(N);
    }
}

/* The written file of D(json) equals want (the description dropped). */
static void check_dual_text(const char *json, const char *name, const char *want)
{
    fdmod_t *N = load(json, name);
    fdmod_t *D = dual(N);
    char *t = sq_modspec_write_text(D, NULL);
    if (!strstr(t, want))
        sq_test_fail(__FILE__, __LINE__, "D(%s):\n%s\nlacks\n%s", name, t, want);
    sq_free(t);
    fdmod_free(D);
    fdmod_free(N);
}

TEST(dual_of_small_modules)
{
    check_dual_text("{\"gens\": {\"x0\": 0, \"x1\": 1}, \"actions\": [\"Sq1 x0 = x1\"]}", "C2",
                    "\"gens\": {\n        \"x1*\": -1,\n        \"x0*\": 0\n    },\n"
                    "    \"actions\": [\n        \"Sq1 x1* = x0*\"\n    ]");
    check_dual_text(joker, "Joker",
                    "\"Sq1 x4* = x3*\",\n        \"Sq1 x1* = x0*\",\n        \"Sq2 x4* = x2*\",\n"
                    "        \"Sq2 x3* = x1*\",\n        \"Sq2 x2* = x0*\",\n"
                    "        \"Sq4 x4* = x0*\"");
    check_dual_text(bpb, "bPb",
                    "\"b x6* = x5*\",\n        \"b x1* = x0*\",\n        \"P1 x5* = 2 x1*\"");
}

TEST(dual_of_nothing_refused)
{
    fdmod_t *N = fdmod_new_p("empty", 2, 0, 3), *D = (fdmod_t *)1;
    char err[256] = "";
    ASSERT_EQ(fdmod_dual(&D, N, NULL, err, sizeof err), SQ_E_INVAL);
    ASSERT(D == NULL);
    ASSERT(strstr(err, "no cells") != NULL);
    fdmod_free(N);
}
