/*
 * t-steenrod-cli.c -- `adams sq0`, `adams steenrod` and `adams mahowald`
 * through the program: the peer's published lines (tests/data/sq0-*,
 * steenrod-*, each with its source line), the same output on 1 and 2
 * threads and on both engines where their bases agree, and every refusal
 * one line with exit 2 and nothing on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

/* adams args exits with rc printing out and err (NULL: not compared). */
#define run_is(line, args, rc, out, err) sq_test_expect_run(__FILE__, line, args, rc, out, err)

TEST(cli_sq0_peer_lines)
{
    char *want = sq_test_data_body("sq0-S2-n30-s7.txt");
    run_is(__LINE__, "sq0 --stem 30 --max-s 7 --quiet", 0, want, "");
    run_is(__LINE__, "sq0 S_2@adem --stem 30 --max-s 7 --quiet --threads 2", 0, want, "");
    run_is(__LINE__, "sq0 --stem 30 --max-s 7 --quiet --algorithm nassau", 0, want, "");
    sq_free(want);
}

/* Sq^0 is multiplicative, read off the program's own lines: h_0 h_2 = x_(3, 2, 0)
 * and h_1 h_3 = x_(8, 2, 0) by 'adams product', and Sq^0 x_(3, 2, 0) = [1] there;
 * likewise h_1 c_0 = x_(9, 4, 0) and h_2 c_1 = x_(22, 4, 0). */
TEST(cli_sq0_against_product)
{
    run_is(__LINE__, "product --class 3,1,0 --by 0,1,0 --quiet", 0,
           "x_(3, 1) [1] * y_(0, 1) [1] = [1] at (3, 2)\n", "");
    run_is(__LINE__, "product --class 7,1,0 --by 1,1,0 --quiet", 0,
           "x_(7, 1) [1] * y_(1, 1) [1] = [1] at (8, 2)\n", "");
    run_is(__LINE__, "product --class 8,3,0 --by 1,1,0 --quiet", 0,
           "x_(8, 3) [1] * y_(1, 1) [1] = [1] at (9, 4)\n", "");
    run_is(__LINE__, "product --class 19,3,0 --by 3,1,0 --quiet", 0,
           "x_(19, 3) [1] * y_(3, 1) [1] = [1] at (22, 4)\n", "");
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("sq0 --stem 22 --max-s 4 --quiet", &out, &err), 0);
    const char *const lines[] = {"Sq^0 x_(0, 1, 0) = [1]\n", "Sq^0 x_(1, 1, 0) = [1]\n",
                                 "Sq^0 x_(3, 1, 0) = [1]\n", "Sq^0 x_(3, 2, 0) = [1]\n",
                                 "Sq^0 x_(8, 3, 0) = [1]\n", "Sq^0 x_(9, 4, 0) = [1]\n"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!strstr(out, lines[i]))
            sq_test_fail(__FILE__, __LINE__, "sq0: no line %s", lines[i]);
    sq_free(out);
    sq_free(err);
}

TEST(cli_sq0_refusals)
{
    const char *msg = ", not the sphere S_2: the operation is computed on Ext of S_2 only\n";
    char want[512];
    snprintf(want, sizeof want, "adams: sq0: C2 is a finite module%s", msg);
    run_is(__LINE__, "sq0 C2 --stem 10", 2, "", want);
    snprintf(want, sizeof want, "adams: sq0: S_3 is a module at the odd prime 3%s", msg);
    run_is(__LINE__, "sq0 S_3 --stem 10", 2, "", want);
    snprintf(want, sizeof want, "adams: sq0: tmf2 is a module over a subalgebra (a profile)%s",
             msg);
    run_is(__LINE__, "sq0 tmf2 --stem 10", 2, "", want);
    snprintf(want, sizeof want, "adams: sq0: RP_inf is a projective space%s", msg);
    run_is(__LINE__, "sq0 RP_inf --stem 10", 2, "", want);
    run_is(__LINE__, "sq0 --stem 10 --class 1,1,0", 2, "", NULL);
}

TEST(cli_mahowald_peer_sample)
{
    char *want = sq_test_data_body("mahowald-S2-k7.txt");
    run_is(__LINE__, "mahowald --stem 6 --quiet", 0, want, "");
    run_is(__LINE__, "mahowald S_2 --stem 6 --quiet --threads 2", 0, want, "");
    sq_free(want);
}

/* Max k = 25 (the peer's default): its own cases, one with an indeterminacy. */
TEST(cli_mahowald_peer_cases_slow)
{
    char *out, *err;
    ASSERT_EQ(sq_test_run_adams("mahowald --quiet", &out, &err), 0);
    ASSERT(strstr(out, "M(x_(14, 3, 0)) = x_(31, 3, 1)\n") != NULL);
    ASSERT(strstr(out, "M(x_(14, 6, 0)) = x_(38, 6, 1) mod <x_(38, 6, 0) + x_(38, 6, 1)>\n") !=
           NULL);
    sq_free(out);
    sq_free(err);
}

TEST(cli_mahowald_refusals)
{
    run_is(__LINE__, "mahowald C2 --stem 5", 2, "",
           "adams: mahowald: C2 is a finite module, not the sphere S_2: the operation is computed "
           "on Ext of S_2 only\n");
    run_is(__LINE__, "mahowald --stem 201", 2, "",
           "adams: mahowald: --stem 201: must be 0 .. 200 (the sphere is resolved through stem "
           "2N)\n");
    run_is(__LINE__, "mahowald --stem 5 --max-s 3", 2, "", NULL);
}

TEST(cli_steenrod_peer_lines)
{
    char *want = sq_test_data_body("steenrod-c0-S2.txt");
    run_is(__LINE__, "steenrod --class 8,3,[1] --quiet", 0, want, "");
    run_is(__LINE__, "steenrod --class 8,3,0 --quiet --threads 2", 0, want, "");
    run_is(__LINE__, "steenrod S_2@adem --class 8,3,[1] --quiet --algorithm nassau", 0, want, "");
    sq_free(want);
    /* Filtration 0 alone (the unit: no contraction is read, F_1 need not be there). */
    run_is(__LINE__, "steenrod --stem 1 --max-s 0 --quiet", 0, "Sq^0 x_(0, 0, 0) = [1]\n", "");
    /* The region mode: Sq^1 h_i = h_i^2, Sq^0 h_i = h_{i+1}; the same on 2 threads. */
    char *out, *err, *out2, *err2;
    ASSERT_EQ(sq_test_run_adams("steenrod --stem 16 --quiet", &out, &err), 0);
    ASSERT(strstr(out, "Sq^1 x_(0, 1, 0) = [1]\nSq^0 x_(0, 1, 0) = [1]\n") != NULL);
    ASSERT(strstr(out, "Sq^1 x_(3, 1, 0) = [1]\nSq^0 x_(3, 1, 0) = [1]\n") != NULL);
    ASSERT_EQ(sq_test_run_adams("steenrod --stem 16 --quiet --threads 2", &out2, &err2), 0);
    ASSERT_STR_EQ(out, out2);
    sq_free(out);
    sq_free(err);
    sq_free(out2);
    sq_free(err2);
}

TEST(cli_steenrod_refusals)
{
    run_is(__LINE__, "steenrod C2 --stem 10", 2, "",
           "adams: steenrod: C2 is a finite module, not the sphere S_2: the operation is computed "
           "on Ext of S_2 only\n");
    run_is(__LINE__, "steenrod --class 2,1,0 --quiet", 2, "",
           "adams: --class: Ext of S_2 at (2, 1) is zero: there is no class there\n");
    run_is(__LINE__, "steenrod --class 8,3,[1,1] --quiet", 2, "",
           "adams: --class: the vector has 2 entries but Ext of S_2 at (8, 3) has dimension 1\n");
    run_is(__LINE__, "steenrod --class 8,3,1 --quiet", 2, "",
           "adams: --class: x_(8, 3, 1) does not exist: Ext of S_2 at (8, 3) has dimension 1\n");
    run_is(__LINE__, "steenrod --class 8,3,[2] --quiet", 2, "",
           "adams: --class: the vector has the entry 2, but the coefficients of S_2 are 0..1 "
           "(mod 2)\n");
    run_is(__LINE__, "steenrod --class 8,x --quiet", 2, "", NULL);
    run_is(__LINE__, "steenrod --class 101,3,0 --quiet", 2, "",
           "adams: --class: (101, 3): steenrod takes stems <= 100 and filtrations <= 30 (S_2 is "
           "resolved through stem 2(N + S) and filtration 2S + 1)\n");
    /* Beyond --max-memory: one line, exit 3, nothing printed. */
    sq_test_run_t m = sq_test_runf("steenrod --class 20,4,0 --max-memory 1M --quiet");
    ASSERT_EQ(m.rc, 3);
    ASSERT(m.out[0] == 0 && sq_test_count_lines(m.err) == 1);
    sq_test_run_free(&m);
    run_is(__LINE__, "steenrod --class 8,3,0 --stem 30", 2, "",
           "adams: steenrod: --class sets the region itself: give --stem and --max-s without it\n");
}
