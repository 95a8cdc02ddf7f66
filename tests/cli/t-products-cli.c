/*
 * t-products-cli.c -- `adams products`, `adams product`, `adams massey`
 * through the program: the peer's lines, known products and Massey
 * products, and one-line errors with exit 2 for bad requests.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_products.h"
#include "sq_test.h"

static void run_is(int line, const char *args, int rc, const char *out_want, const char *err_want)
{
    char *out, *err;
    int got = sq_test_run_adams(args, &out, &err);
    if (got != rc || (out_want && strcmp(out, out_want) != 0) ||
        (err_want && strcmp(err, err_want) != 0))
        sq_test_fail(__FILE__, line, "adams %s: rc %d (want %d)\n--- stdout\n%s--- stderr\n%s", args,
                     got, rc, out, err);
    sq_free(out);
    sq_free(err);
}

TEST(cli_products_peer_lines)
{
    char *want = sq_test_data_body("filtration-one-C2-n10-s5.txt");
    char *body = want;
    run_is(__LINE__, "products C2 --stem 10 --max-s 5 --quiet", 0, body, "");
    run_is(__LINE__, "products C2 --stem 10 --max-s 5 --quiet --algorithm nassau", 0, body, "");
    sq_free(want);
}

TEST(cli_product_and_massey)
{
    /* h_1 h_3 = x_(8, 2, 0); h_0^2 h_2 = h_1^3 at (3, 3). */
    run_is(__LINE__, "product --class 7,1,0 --by 1,1,[1] --quiet", 0,
           "x_(7, 1) [1] * y_(1, 1) [1] = [1] at (8, 2)\n", "");
    run_is(__LINE__, "product --class 3,1,0 --by 0,2,0 --quiet", 0,
           "x_(3, 1) [1] * y_(0, 2) [1] = [1] at (3, 3)\n", "");
    /* <h_0, h_1, h_0> = h_1^2; <h_2, h_1, h_2> = h_1 h_3 */
    run_is(__LINE__, "massey --a 0,1,0 --b 1,1,0 --c 0,1,0 --quiet", 0,
           "<a, b, c> = [1] at (2, 2)\nindeterminacy: 0\n", "");
    run_is(__LINE__, "massey --a 3,1,0 --b 1,1,0 --c 3,1,0 --quiet", 0,
           "<a, b, c> = [1] at (8, 2)\nindeterminacy: 0\n", "");
}

TEST(cli_products_errors)
{
    run_is(__LINE__, "massey --a 0,1,0 --b 0,1,0 --c 0,1,0 --quiet", 2, "",
           "adams: massey: <a, b, c> is not defined: a b or b c is not zero (check with 'adams "
           "product')\n");
    run_is(__LINE__, "product --class 2,1,0 --by 1,1,0 --quiet", 2, "",
           "adams: --class: Ext of S_2 at (2, 1) is zero: there is no class there\n");
    run_is(__LINE__, "product --class 7,1,[1,0] --by 1,1,0 --quiet", 2, "",
           "adams: --class: the vector has 2 entries but Ext of S_2 at (7, 1) has dimension 1\n");
    run_is(__LINE__, "product --class 7,1,3 --by 1,1,0 --quiet", 2, "",
           "adams: --class: x_(7, 1, 3) does not exist: Ext of S_2 at (7, 1) has dimension 1\n");
    run_is(__LINE__, "product --class seven --by 1,1,0", 2, "",
           "adams: --class: expected N,S,[v0,v1,...] or N,S,I (stem, filtration, a vector of "
           "coefficients 0..p-1 or a class index), got 'seven'\n");
    run_is(__LINE__, "product --class '7,1,[2]' --by 1,1,0 --quiet", 2, "",
           "adams: --class: the vector has the entry 2, but the coefficients of S_2 are 0..1 "
           "(mod 2)\n");
    run_is(__LINE__, "product --class 7,1,0", 2, "",
           "adams: product: --class and --by are both required (try 'adams product --help')\n");
    run_is(__LINE__, "products --max-s 3", 2, "", "adams: products: --stem is required\n");
    run_is(__LINE__, "products --stem 10 --bogus", 2, "",
           "adams: products: unknown option '--bogus' (try 'adams products --help')\n");
    run_is(__LINE__, "products C4 --stem 10 --quiet", 2, "",
           "adams: products: C4 is the cofiber of a class: its Ext comes from two resolutions; "
           "only 'adams resolve' prints it so far\n");
}

/* --from FILE: the products read from a store equal the computed ones. */
TEST(cli_products_from_store)
{
    char db[] = "/tmp/adams-products-XXXXXX";
    int fd = mkstemp(db);
    ASSERT(fd >= 0);
    close(fd);
    unlink(db);
    char args[512];
    snprintf(args, sizeof args, "resolve C2 --stem 10 --max-s 5 --save %s --quiet", db);
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
    sq_free(out);
    sq_free(err);
    char *want = sq_test_data_body("filtration-one-C2-n10-s5.txt");
    char *body = want;
    snprintf(args, sizeof args, "products --from %s --quiet", db);
    run_is(__LINE__, args, 0, body, "");
    snprintf(args, sizeof args, "products --from %s --stem 20 --quiet", db);
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 2);
    ASSERT(strstr(err, "does not hold (n=11, s=0)") != NULL && sq_test_count_lines(err) == 1);
    sq_free(out);
    sq_free(err);
    sq_free(want);
    unlink(db);
    snprintf(args, sizeof args, "rm -f %s-wal %s-shm", db, db);
    ASSERT_EQ(system(args), 0);
}

/* adams chart --from FILE draws the same chart as computing it. */
TEST(cli_chart_from_store)
{
    char db[] = "/tmp/adams-chart-XXXXXX";
    int fd = mkstemp(db);
    ASSERT(fd >= 0);
    close(fd);
    unlink(db);
    char args[512];
    char *out, *err, *out2, *err2;
    snprintf(args, sizeof args, "resolve Ceta --stem 20 --max-s 10 --save %s --quiet", db);
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
    sq_free(out);
    sq_free(err);
    snprintf(args, sizeof args, "chart --from %s --format json", db);
    ASSERT_EQ(sq_test_run_adams(args, &out, &err), 0);
    ASSERT_EQ(sq_test_run_adams("chart Ceta --stem 20 --max-s 10 --format json --quiet", &out2,
                                &err2),
              0);
    ASSERT_STR_EQ(out, out2);
    ASSERT(strlen(out) > 100);
    sq_free(out);
    sq_free(err);
    sq_free(out2);
    sq_free(err2);
    unlink(db);
    snprintf(args, sizeof args, "rm -f %s-wal %s-shm", db, db);
    ASSERT_EQ(system(args), 0);
}

/* Whether out has the line `line` (without its newline). */
static int has_line(const char *out, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = out; (p = strstr(p, line)) != NULL; p++)
        if ((p == out || p[-1] == '\n') && p[n] == '\n')
            return 1;
    return 0;
}

/* The verbs at p = 3 (issue 21 step 6), checked against facts about
 * Ext(S_3) (tests/resolution/t-products-odd.c has the library's checks):
 * the a_0-tower on 1, a_0 h_0 = 0 (no a_0 line on x_(3, 1, 0): the target
 * is zero), h_0^2 = 0, the h_i on 1 in stems 3, 11, 35, a_0 h_1 != 0,
 * b_0 = <h_0, h_0, h_0> at (10, 2) and a_1 = <h_0, a_0, h_0> at (7, 2),
 * a_0 on the bottom class of C3 = S/3 is zero; entries beyond p - 1 and
 * undefined Massey products refused. */
TEST(cli_products_odd)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("products S_3 --stem 60 --max-s 20 --quiet", &out, &err), 0);
    ASSERT_STR_EQ(err, "");
    char line[64];
    for (int s = 0; s < 20; s++) {
        snprintf(line, sizeof line, "a_0 x_(0, %d, 0) = [1]", s);
        ASSERT(has_line(out, line));
    }
    ASSERT(has_line(out, "h_0 x_(0, 0, 0) = [1]"));
    ASSERT(has_line(out, "h_1 x_(0, 0, 0) = [1]"));
    ASSERT(has_line(out, "h_2 x_(0, 0, 0) = [1]"));
    ASSERT(strstr(out, "h_3 x_") == NULL); /* h_3 is in stem 107 */
    ASSERT(strstr(out, "a_0 x_(3, 1, 0)") == NULL && strstr(out, "h_0 x_(3, 1, 0)") == NULL);
    ASSERT(strstr(out, "h_1 x_(11, 1, 0)") == NULL); /* Ext^{2, 24} = 0: h_1^2 = 0 */
    ASSERT(strstr(out, "h_0 x_(0, 1, 0)") == NULL);  /* h_0 a_0 = 0 */
    /* The same lines as the library's writer on the same region. */
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, 20, 60);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, NULL, NULL), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_EQ(sq_products_write(f, R, 0, 60, 20), 0);
    ASSERT_EQ(fclose(f), 0);
    ASSERT_STR_EQ(out, buf);
    free(buf);
    resol_free(R);
    fdmod_free(M);
    sq_free(out);
    sq_free(err);
    run_is(__LINE__, "product S_3 --class 0,0,0 --by 3,1,0 --quiet", 0,
           "x_(0, 0) [1] * y_(3, 1) [1] = [1] at (3, 1)\n", "");
    run_is(__LINE__, "product S_3 --class 3,1,0 --by 0,1,0 --quiet", 0,
           "x_(3, 1) [1] * y_(0, 1) [1] = [] at (3, 2)\n", "");
    run_is(__LINE__, "product S_3 --class 3,1,0 --by 3,1,0 --quiet", 0,
           "x_(3, 1) [1] * y_(3, 1) [1] = [] at (6, 2)\n", "");
    run_is(__LINE__, "product S_3 --class 11,1,0 --by 0,1,0 --quiet", 0,
           "x_(11, 1) [1] * y_(0, 1) [1] = [2] at (11, 2)\n", "");
    /* 2 a_0 times 2 . 1 is 4 a_0 = a_0. */
    run_is(__LINE__, "product S_3 --class '0,0,[2]' --by '0,1,[2]' --quiet", 0,
           "x_(0, 0) [2] * y_(0, 1) [2] = [1] at (0, 1)\n", "");
    run_is(__LINE__, "product C3 --class 0,0,0 --by 0,1,0 --quiet", 0,
           "x_(0, 0) [1] * y_(0, 1) [1] = [] at (0, 1)\n", "");
    run_is(__LINE__, "massey S_3 --a 3,1,0 --b 3,1,0 --c 3,1,0 --quiet", 0,
           "<a, b, c> = [2] at (10, 2)\nindeterminacy: 0\n", "");
    run_is(__LINE__, "massey S_3 --a 3,1,0 --b 0,1,0 --c 3,1,0 --quiet", 0,
           "<a, b, c> = [2] at (7, 2)\nindeterminacy: 0\n", "");
    run_is(__LINE__, "massey S_3 --a 0,1,0 --b 0,1,0 --c 3,1,0 --quiet", 2, "",
           "adams: massey: <a, b, c> is not defined: a b or b c is not zero (check with 'adams "
           "product')\n");
    run_is(__LINE__, "product S_3 --class '0,0,[3]' --by 0,1,0 --quiet", 2, "",
           "adams: --class: the vector has the entry 3, but the coefficients of S_3 are 0..2 "
           "(mod 3)\n");
    run_is(__LINE__, "product S_5 --class 0,0,0 --by '0,1,[5]' --quiet", 2, "",
           "adams: --by: the vector has the entry 5, but the coefficients of S_5 are 0..4 "
           "(mod 5)\n");
    run_is(__LINE__, "product S_3 --class 0,0,0 --by 1,1,0 --quiet", 2, "",
           "adams: --by: Ext of S_3 at (1, 1) is zero: there is no class there\n");
}
