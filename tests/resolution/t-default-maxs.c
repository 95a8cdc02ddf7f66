/*
 * t-default-maxs.c -- the default filtration (resol_default_max_s) shows
 * every nonzero group of Ext except the tower on the bottom class, at
 * p = 2 and at odd p: each module is resolved 6 rows above its default and
 * nothing nonzero may lie above the default off the bottom stem.  The
 * reason is outside adams: the vanishing line of slope 1/(2(p - 1))
 * (Adams at p = 2; Liulevicius / May at odd p), whose towers (h_0 at
 * p = 2; a_0, and the a_1 of slope 1/4 at p = 3) are the steepest
 * families.  Also the formula itself on a few values.
 */
#include <stdint.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_test.h"

/* The highest filtration of a nonzero class of R off the bottom stem, in
 * stems bottom + 1 .. max_n. */
static int32_t highest_off_tower(const resol_t *R)
{
    int32_t top = -1;
    for (int32_t n = resol_min_n(R) + 1; n <= resol_max_n(R); n++)
        for (int32_t s = 0; s <= resol_max_s(R); s++)
            if (resol_ext_dim(R, s, n) > 0 && s > top)
                top = s;
    return top;
}

/* The sphere at p through stem n: nothing above the default but a_0/h_0. */
static void check_sphere(uint32_t p, int32_t n)
{
    fdmod_t *M = p == 2 ? fdmod_sphere() : fdmod_sphere_p(p);
    int32_t def = resol_default_max_s(p, n, 0, 0);
    resol_t *R = resol_new(M, def + 6, n);
    ASSERT_EQ(resol_run_pool(R, RESOL_CLASSICAL, NULL, NULL), 0);
    int32_t top = highest_off_tower(R);
    ASSERT(top >= 1);
    ASSERT(top <= def);
    /* The tower on the bottom class reaches the extra rows. */
    ASSERT_EQ(resol_ext_dim(R, def + 6, 0), 1);
    resol_free(R);
    fdmod_free(M);
}

TEST(default_max_s_formula)
{
    ASSERT_EQ(resol_default_max_s(2, 40, 0, 0), 23);
    ASSERT_EQ(resol_default_max_s(2, 12, 0, 1), 10);
    ASSERT_EQ(resol_default_max_s(3, 60, 0, 0), 18);
    ASSERT_EQ(resol_default_max_s(5, 40, 0, 0), 8);
    ASSERT_EQ(resol_default_max_s(3, 10, 20, 0), 3); /* below the bottom: the margin */
    ASSERT_EQ(resol_default_max_s(3, 21, 5, 2), 9);
}

TEST(default_max_s_holds_every_class_off_the_tower)
{
    check_sphere(2, 40);
    check_sphere(3, 100);
    check_sphere(5, 120);
    check_sphere(7, 120);
}
