/*
 * t-map-cli.c -- `adams map` through the program: the lines of the maps
 * induced by the bottom-cell inclusion and the pinch of C2 (S_2 -> C2 on
 * Ext: 1, h_1, h_1^2, h_2, h_2^2, h_3, h_1 h_3, c_0 survive, the
 * h_0-multiples die; C2 -> S^1: the classes on the top cell go to the
 * h_0-annihilated classes of S), at p = 3 (C3), threads 1 = 2, and every
 * refusal one line with exit 2 (3 for memory) and nothing on stdout.
 * `adams map M N --class` (the peer's lift_hom) and `adams yoneda`: the
 * summary lines, the files of -o DIR (the module files load in the
 * program: E0.json of h_0 has the Ext of C2; the map files are read by
 * `adams map --map`: d0 and d1 of h_0 are the inclusion of the bottom cell
 * and the pinch of C2), nothing overwritten, threads 1 = 2, and their
 * refusals.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sq_core.h"
#include "sq_test.h"

static void run_is(int line, const char *args, int rc, const char *out_want, const char *err_want)
{
    char *out, *err;
    int got = sq_test_run_adams(args, &out, &err);
    if (got != rc || (out_want && strcmp(out, out_want) != 0) ||
        (err_want && strstr(err, err_want) == NULL) ||
        (rc != 0 && (strchr(err, '\n') != err + strlen(err) - 1 || *out)))
        sq_test_fail(__FILE__, line, "adams %s: rc %d (want %d)\n--- stdout\n%s--- stderr\n%s", args,
                     got, rc, out, err);
    sq_free(out);
    sq_free(err);
}

/* "map --map <tests/data/maps/file> rest" */
static void map_is(int line, const char *file, const char *rest, int rc, const char *out,
                   const char *err)
{
    char args[2048];
    snprintf(args, sizeof args, "map --map %s/maps/%s %s", SQ_TEST_DATA_DIR, file, rest);
    run_is(line, args, rc, out, err);
}

static const char incl_C2[] = "f^* x_(0, 0, 0) = [1]\n"
                              "f^* x_(1, 1, 0) = [1]\n"
                              "f^* x_(2, 2, 0) = [1]\n"
                              "f^* x_(3, 1, 0) = [1]\n"
                              "f^* x_(6, 2, 0) = [1]\n"
                              "f^* x_(7, 1, 0) = [1]\n"
                              "f^* x_(8, 2, 0) = [1]\n"
                              "f^* x_(8, 3, 0) = [1]\n";

TEST(cli_map_C2)
{
    map_is(__LINE__, "C2_to_S2.json", "--stem 8 --max-s 5 --quiet", 0, incl_C2, "");
    map_is(__LINE__, "C2_to_S2.json", "--stem 8 --max-s 5 --quiet --threads 2", 0, incl_C2, "");
    map_is(__LINE__, "S2_1_to_C2.json", "--stem 8 --max-s 5 --quiet", 0,
           "f^* x_(2, 1, 0) = [1]\n"
           "f^* x_(3, 2, 0) = [1]\n"
           "f^* x_(4, 3, 0) = [1]\n"
           "f^* x_(7, 2, 0) = [1]\n"
           "f^* x_(8, 4, 0) = [1]\n",
           "");
}

TEST(cli_map_C3)
{
    map_is(__LINE__, "C3_to_S3.json", "--stem 12 --max-s 4 --quiet", 0,
           "f^* x_(0, 0, 0) = [1]\n"
           "f^* x_(3, 1, 0) = [1]\n"
           "f^* x_(7, 2, 0) = [1]\n"
           "f^* x_(10, 2, 0) = [1]\n"
           "f^* x_(11, 1, 0) = [1]\n",
           "");
}

TEST(cli_map_refusals)
{
    map_is(__LINE__, "C2_not_linear.json", "--stem 10 --quiet", 2, "",
           "C2_not_linear.json: not A-linear: f(Sq1 x0) != Sq1 f(x0)\n");
    map_is(__LINE__, "bad_primes.json", "--stem 10 --quiet", 2, "",
           "bad_primes.json: the source C2 is at p = 2 and the target S_3 at p = 3\n");
    map_is(__LINE__, "bad_name.json", "--stem 10 --quiet", 2, "",
           "bad_name.json: line 5: \"x0\": 'y0' is not a basis element of the target\n");
    map_is(__LINE__, "bad_degree.json", "--stem 10 --quiet", 2, "",
           "bad_degree.json: line 5: \"x0\": 'x0' is in degree 0 of the target, not 1\n");
    map_is(__LINE__, "bad_missing.json", "--stem 10 --quiet", 2, "", "no image of x1");
    map_is(__LINE__, "bad_field.json", "--stem 10 --quiet", 2, "",
           "bad_field.json: line 4: \"degree\": must be an integer\n");
    map_is(__LINE__, "bad_kind.json", "--stem 10 --quiet", 2, "",
           "A_mod_A1 is a finitely presented module: a map file maps finite modules\n");
    map_is(__LINE__, "C2_to_S2.json", "--stem 10 --from x.db", 2, "", "map: --from:");
    map_is(__LINE__, "C2_to_S2.json", "C2 --stem 10", 2, "", "give no MODULE");
    map_is(__LINE__, "C2_to_S2.json", "--stem 100000 --quiet", 2, "", "beyond the supported");
    map_is(__LINE__, "C2_to_S2.json", "--stem 200 --max-memory 1M --quiet", 3, "",
           "allowed by --max-memory");
    /* Each run alone fits in 1.5 MiB (a third of its model); both together do not. */
    map_is(__LINE__, "C2_to_S2.json", "--stem 60 --max-s 30 --max-memory 1.5M --quiet", 3, "",
           "need about");
    run_is(__LINE__, "map --stem 10", 2, "", "--map FILE and --stem N are required");
    run_is(__LINE__, "map --map /nonexistent/m.json --stem 10", 2, "", "cannot read the map file");
}

/* map M N --class (the peer's lift_hom): its three examples through the
 * program (the nonzero lines of tests/data/lift_hom, the basis the same);
 * the class of the bottom cell of C2 at s = 0 prints what the map file of
 * the inclusion prints; each refusal one line, exit 2. */
TEST(cli_map_class)
{
    run_is(__LINE__, "map S_2 S_2 --class 20,4,[1] --stem 5 --max-s 5 --quiet", 0,
           "f^* x_(0, 0, 0) = [1]\n"
           "f^* x_(0, 1, 0) = [1]\n"
           "f^* x_(0, 2, 0) = [1]\n"
           "f^* x_(1, 1, 0) = [1]\n"
           "f^* x_(3, 1, 0) = [1]\n"
           "f^* x_(3, 2, 0) = [1]\n",
           "");
    run_is(__LINE__, "map C2 S_2 --class 0,0,[1] --stem 8 --max-s 5 --quiet", 0, incl_C2, "");
    run_is(__LINE__, "map C2 S_2 --class 0,0,0 --stem 8 --max-s 5 --quiet --threads 2", 0,
           incl_C2, "");
    run_is(__LINE__, "map S_2 C2 --class 0,0,[1] --stem 8 --quiet", 2, "",
           "map: --class 0,0,[1] is not a cocycle");
    run_is(__LINE__, "map S_2 C2 --class 0,0,[1,0] --stem 8 --quiet", 2, "",
           "--class: the vector has 2 entries but Hom_A(F_0, C2)");
    run_is(__LINE__, "map S_2 C2 --class 5,0,0 --stem 8 --quiet", 2, "",
           "is zero: Ext(S_2, C2) has no class there");
    run_is(__LINE__, "map S_2 C2 --class 0,0,[2] --stem 8 --quiet", 2, "",
           "the vector has the entry 2");
    run_is(__LINE__, "map C2 S_3 --class 0,0,0 --stem 8 --quiet", 2, "",
           "C2 is at the prime 2, S_3 at 3");
    run_is(__LINE__, "map C2 --class 0,0,0 --stem 8 --quiet", 2, "",
           "--class needs two modules, M N");
    run_is(__LINE__, "map C2 S_2 C3 --class 0,0,0 --stem 8 --quiet", 2, "",
           "more than two modules given");
    run_is(__LINE__, "map C2 S_2 --class 0,0 --stem 8 --quiet", 2, "", "--class: expected N,S,");
    run_is(__LINE__, "map C2 S_2 --class 0,0,0 --map x.json --stem 8", 2, "",
           "two forms of the verb: give one");
    run_is(__LINE__, "map C2 S_2 --class 0,0,0", 2, "", "and --stem N");
    run_is(__LINE__, "map Ceta2 S_2 --class 0,0,0 --stem 8 --quiet", 2, "",
           "Ceta2 is the cofiber of a class");
}

/* A --stem whose stems of the source lie below its bottom: nothing to map
 * there, so nothing printed (exit 0), in both forms; it was refused with
 * 'stem -1 is below the bottom degree 0 of S_2', a stem the user never
 * gave.  Stem 5 gives the lines from the source's bottom (the peer's
 * lift_hom-Cnu-S_2 has them: p x_(4, 3, 0) = [1], p x_(5, 1, 0) = [1]). */
TEST(cli_map_below_source_bottom)
{
    map_is(__LINE__, "S2_4_to_Cnu.json", "--stem 3 --quiet", 0, "", "");
    run_is(__LINE__, "map S_2 Cnu --class -4,0,0 --stem 3 --quiet", 0, "", "");
    run_is(__LINE__, "map S_2 Cnu --class -4,0,0 --stem 5 --max-s 3 --quiet", 0,
           "f^* x_(4, 3, 0) = [1]\n"
           "f^* x_(5, 1, 0) = [1]\n",
           "");
    map_is(__LINE__, "S2_4_to_Cnu.json", "--stem 5 --max-s 3 --quiet", 0,
           "f^* x_(4, 3, 0) = [1]\n"
           "f^* x_(5, 1, 0) = [1]\n",
           "");
}

/* stdout of adams args (exit 0 wanted); the caller sq_frees it. */
static char *output_of(int line, const char *args)
{
    char *out, *err;
    int got = sq_test_run_adams(args, &out, &err);
    if (got != 0)
        sq_test_fail(__FILE__, line, "adams %s: rc %d\n%s", args, got, err);
    sq_free(err);
    return out;
}

TEST(cli_yoneda_summary)
{
    run_is(__LINE__, "yoneda --class 0,1,0 --quiet", 0,
           "0 -> S_2[1] -> E_0 -> S_2 -> 0\n"
           "E_0: dimension 2, degrees 0..1\n",
           "");
    run_is(__LINE__, "yoneda --class 3,1,0 --quiet --threads 2", 0,
           "0 -> S_2[4] -> E_0 -> S_2 -> 0\n"
           "E_0: dimension 2, degrees 0..4\n",
           "");
    char *a = output_of(__LINE__, "yoneda S_3 --class 10,2,0 --quiet");
    char *b = output_of(__LINE__, "yoneda S_3 --class 10,2,[1] --quiet --threads 2");
    ASSERT(strcmp(a, b) == 0);
    ASSERT(strncmp(a, "0 -> S_3[12] -> E_1 -> E_0 -> S_3 -> 0\n", 39) == 0);
    sq_free(a);
    sq_free(b);
}

/* -o DIR for h_0: E0.json is C2 (its Ext through stem 12 equals C2's), and
 * d0.json is the inclusion of the bottom cell; a second run refuses the
 * same DIR and leaves the files alone. */
TEST(cli_yoneda_files)
{
    char dir[] = "/tmp/adams-yoneda-cli-XXXXXX", args[512], path[256];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(args, sizeof args, "yoneda --class 0,1,0 -o %s --quiet", dir);
    run_is(__LINE__, args, 0, NULL, "");
    snprintf(args, sizeof args, "resolve %s/E0.json --stem 12 --max-s 6 --format csv --quiet", dir);
    char *e = output_of(__LINE__, args);
    char *c = output_of(__LINE__, "resolve C2 --stem 12 --max-s 6 --format csv --quiet");
    ASSERT(strcmp(e, c) == 0);
    sq_free(e);
    sq_free(c);
    snprintf(args, sizeof args, "map --map %s/d0.json --stem 8 --max-s 5 --quiet", dir);
    char *m = output_of(__LINE__, args);
    char *want = output_of(__LINE__, "map C2 S_2 --class 0,0,0 --stem 8 --max-s 5 --quiet");
    ASSERT(strcmp(m, want) == 0 && *m);
    sq_free(m);
    sq_free(want);
    snprintf(args, sizeof args, "map --map %s/d1.json --stem 8 --max-s 5 --quiet", dir);
    m = output_of(__LINE__, args); /* S^1 -> C2: the pinch, as its map file */
    snprintf(path, sizeof path, "map --map %s/maps/S2_1_to_C2.json --stem 8 --max-s 5 --quiet",
             SQ_TEST_DATA_DIR);
    want = output_of(__LINE__, path);
    ASSERT(strcmp(m, want) == 0 && *m);
    sq_free(m);
    sq_free(want);
    snprintf(args, sizeof args, "yoneda --class 1,1,0 -o %s --quiet", dir);
    run_is(__LINE__, args, 2, "", "already holds a representative (E0.json)");
    snprintf(args, sizeof args, "resolve %s/E0.json --stem 12 --max-s 6 --format csv --quiet", dir);
    e = output_of(__LINE__, args); /* still C2's */
    c = output_of(__LINE__, "resolve C2 --stem 12 --max-s 6 --format csv --quiet");
    ASSERT(strcmp(e, c) == 0);
    sq_free(e);
    sq_free(c);
    static const char *const files[] = {"E0.json", "d0.json", "d1.json"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        ASSERT_EQ(remove(path), 0);
    }
    ASSERT_EQ(rmdir(dir), 0);
    run_is(__LINE__, "yoneda --class 0,1,0 -o /dev/null --quiet", 2, "", "not a directory");
}

TEST(cli_yoneda_refusals)
{
    run_is(__LINE__, "yoneda --quiet", 2, "", "--class N,S,V is required");
    run_is(__LINE__, "yoneda --class 0,0,0 --quiet", 2, "", "a class of Ext^0 is a module map");
    run_is(__LINE__, "yoneda --class 5,1,0 --quiet", 2, "", "Ext of S_2 at (5, 1) is zero");
    run_is(__LINE__, "yoneda --class 0,1,[0] --quiet", 2, "", "is the zero class");
    run_is(__LINE__, "yoneda --class 0,1,[1,0] --quiet", 2, "", "the vector has 2 entries");
    run_is(__LINE__, "yoneda --class 0,1,3 --quiet", 2, "", "x_(0, 1, 3) does not exist");
    run_is(__LINE__, "yoneda --class 0,1 --quiet", 2, "", "--class: expected N,S,");
    run_is(__LINE__, "yoneda --class 200,60,0 --quiet", 2, "", "more than 40000 cells");
    run_is(__LINE__, "yoneda --class 70,10,0 --quiet", 2, "", "would have up to");
    run_is(__LINE__, "yoneda A_mod_A1 --class 1,1,0 --quiet", 2, "",
           "yoneda: A_mod_A1 is a finitely presented module");
    run_is(__LINE__, "yoneda ko --class 1,1,0 --quiet", 2, "", "yoneda: ko is a module over a subalgebra");
    run_is(__LINE__, "yoneda Ceta2 --class 1,1,0 --quiet", 2, "", "Ceta2 is the cofiber of a class");
    run_is(__LINE__, "yoneda --class 0,1,0 --stem 4", 2, "", "unknown option '--stem'");
    run_is(__LINE__, "yoneda C2 S_2 --class 0,1,0", 2, "", "more than one module");
}

/* map S_2 S_2 --class (8, 3) (c_0) is the product by c_0: for every class
 * y of Ext(S_2) through (10, 4) (each of dimension one) its line is
 * `adams product`'s y * c_0, and there is none where the product is zero
 * (c_0 * c_0 = h_1^2 d_0 and h_1 c_0 * c_0 are not). */
TEST(cli_map_class_is_the_product)
{
    static const int ys[][2] = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 1}, {2, 2},
                                {3, 1}, {3, 2}, {3, 3}, {6, 2}, {7, 1}, {7, 2}, {7, 3},
                                {7, 4}, {8, 2}, {8, 3}, {9, 3}, {9, 4}};
    char *map = output_of(__LINE__, "map S_2 S_2 --class 8,3,0 --stem 10 --max-s 4 --quiet");
    int lines = 0;
    for (size_t k = 0; k < sizeof ys / sizeof *ys; k++) {
        char args[128], want[128];
        snprintf(args, sizeof args, "product S_2 --class %d,%d,0 --by 8,3,0 --quiet", ys[k][0],
                 ys[k][1]);
        char *prod = output_of(__LINE__, args);
        char vec[64] = "";
        /* "x_(n, s) [1] * y_(8, 3) [1] = [U] at (...)"; U empty: vec stays "" */
        (void)sscanf(prod, "x_(%*d, %*d) [%*[^]]] * y_(%*d, %*d) [%*[^]]] = [%63[^]]", vec);
        int zero = strspn(vec, "0, ") == strlen(vec);
        snprintf(want, sizeof want, "f^* x_(%d, %d, 0) = [%s]\n", ys[k][0], ys[k][1], vec);
        if ((strstr(map, want) != NULL) == zero)
            sq_test_fail(__FILE__, __LINE__, "y = x_(%d, %d): product '%s', map:\n%s", ys[k][0],
                         ys[k][1], prod, map);
        lines += !zero;
        sq_free(prod);
    }
    ASSERT_EQ(lines, sq_test_count_lines(map));
    ASSERT(lines >= 4);
    sq_free(map);
}
