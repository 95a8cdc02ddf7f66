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
    char *want = sq_test_slurp(sq_test_data_path("filtration-one-C2-n10-s5.txt"));
    char *body = want;
    while (*body == '#')
        body = strchr(body, '\n') + 1;
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
    char *want = sq_test_slurp(sq_test_data_path("filtration-one-C2-n10-s5.txt"));
    char *body = want;
    while (*body == '#')
        body = strchr(body, '\n') + 1;
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
