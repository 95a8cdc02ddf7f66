/*
 * t-secondary-prod-cli.c -- `adams product --secondary` through the program
 * (docs/secondary.md): the peer's published secondary_product lines for h_0
 * on S_2 and v_1 on C2 (tests/data/secondary_product-*.txt, the peer's name
 * "[h_0]" / "[v_1]" being adams's "[x_(0, 1, 0)]" / "[x_(2, 1, 0)]"), the
 * same on 2 threads, and a class given as a vector named by it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

/* stdout of a run that must succeed (sq_test_run_ok at this file). */
#define run_ok(line, args) sq_test_run_ok(__FILE__, line, args)


TEST(secondary_product_cli_peer_lines)
{
    static const struct {
        const char *args, *data, *from, *to;
    } cases[] = {
        {"product S_2 --secondary --class 0,1,0 --stem 30 --max-s 7 --algorithm classical --quiet",
         "secondary_product-h_0-S_2.txt", "[h_0]", "[x_(0, 1, 0)]"},
        {"product C2 --secondary --class 2,1,0 --stem 30 --max-s 7 --algorithm classical --quiet",
         "secondary_product-v_1-C2.txt", "[v_1]", "[x_(2, 1, 0)]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *want = sq_test_data_renamed(cases[i].data, cases[i].from, cases[i].to);
        char *got = run_ok(__LINE__, cases[i].args);
        ASSERT_STR_EQ(got, want);
        char args[512];
        snprintf(args, sizeof args, "%s --threads 2", cases[i].args);
        char *got2 = run_ok(__LINE__, args);
        ASSERT_STR_EQ(got2, want);
        sq_free(got);
        sq_free(got2);
        sq_free(want);
    }
    /* a vector class is named by it */
    char *v = run_ok(__LINE__, "product --secondary --class 0,1,[1] --stem 4 --max-s 4 --quiet");
    const char *first = "[x_(0, 1)[1]] [x_(0, 0, 0)] = [1] + λ [0]\n";
    ASSERT(strncmp(v, first, strlen(first)) == 0);
    sq_free(v);
}
