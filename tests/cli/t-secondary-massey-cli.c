/*
 * t-secondary-massey-cli.c -- `adams massey --secondary` through the
 * program (docs/secondary.md, "Secondary Massey products"): the peer's
 * published secondary_massey lines (tests/data/secondary_massey-*.txt; the
 * peer's names of a and b, "[h_3]", "λh_0h_3", ..., being adams's "[x_(7,
 * 1, 0)]", "λx_(7, 2, 0)", ...), the same on 2 threads, facts from outside
 * adams (Adams periodicity P x = <x, h_0^4, h_3>), and the refusals.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_core.h"
#include "sq_test.h"

#define run_ok(line, args) sq_test_run_ok(__FILE__, line, args)


static const struct {
    const char *args, *data, *from, *to;
} peer[] = {
    {"--a 7,1,0 --b 7,1,/0", "secondary_massey-h_4-S_2.txt", "<[h_3], λh_0h_3, ",
     "<[x_(7, 1, 0)], λx_(7, 2, 0), "},
    {"--a 3,1,0 --b 7,1,0", "secondary_massey-h_2-h_3-S_2.txt", "<[h_2], [h_3], ",
     "<[x_(3, 1, 0)], [x_(7, 1, 0)], "},
    {"--a 3,1,0/0 --b 7,1,0", "secondary_massey-3h_2-h_3-S_2.txt", "<[h_2] + λh_0h_2, [h_3], ",
     "<[x_(3, 1, 0)] + λx_(3, 2, 0), [x_(7, 1, 0)], "},
    {"--a 7,1,0 --b 0,4,0", "secondary_massey-P-S_2.txt", "<[h_3], [h_0^4], ",
     "<[x_(7, 1, 0)], [x_(0, 4, 0)], "},
};

static char *massey(int line, const char *classes, const char *more)
{
    char args[512];
    snprintf(args, sizeof args,
             "massey S_2 --secondary %s --stem 30 --max-s 7 --algorithm classical --quiet%s",
             classes, more);
    return sq_test_run_ok(__FILE__, line, args);
}

TEST(secondary_massey_cli_peer_lines)
{
    for (size_t i = 0; i < sizeof peer / sizeof *peer; i++) {
        char *want = sq_test_data_renamed(peer[i].data, peer[i].from, peer[i].to);
        char *got = massey(__LINE__, peer[i].args, "");
        ASSERT_STR_EQ(got, want);
        sq_free(got);
        sq_free(want);
    }
}

TEST(secondary_massey_cli_threads)
{
    char *want = sq_test_data_renamed(peer[0].data, peer[0].from, peer[0].to);
    char *got = massey(__LINE__, peer[0].args, " --threads 2");
    ASSERT_STR_EQ(got, want);
    sq_free(got);
    sq_free(want);
}

/* text with the lambda value " + λ[...]" at the end of each line cut. */
static char *cut_lambda(const char *text)
{
    char *out = sq_malloc(strlen(text) + 1), *o = out;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *l = NULL;
        for (const char *q = p; q < p + len; q++)
            if (strncmp(q, " + λ[", strlen(" + λ[")) == 0)
                l = q;
        size_t keep = l ? (size_t)(l - p) : len;
        memcpy(o, p, keep);
        o += keep;
        *o++ = '\n';
        p += len + (e ? 1 : 0);
    }
    *o = '\0';
    return out;
}

/* Nassau's resolution: the same lines, kernels and Ext parts; only the
 * lambda parts (which depend on the choices) may differ. */
TEST(secondary_massey_cli_nassau)
{
    for (size_t i = 0; i < sizeof peer / sizeof *peer; i++) {
        char args[512];
        snprintf(args, sizeof args,
                 "massey S_2 --secondary %s --stem 30 --max-s 7 --algorithm nassau --quiet",
                 peer[i].args);
        char *got = run_ok(__LINE__, args);
        char *want = sq_test_data_renamed(peer[i].data, peer[i].from, peer[i].to);
        char *g = cut_lambda(got), *w = cut_lambda(want);
        ASSERT_STR_EQ(g, w);
        sq_free(g);
        sq_free(w);
        sq_free(got);
        sq_free(want);
    }
}

/* The line of the output whose bracket's third entry is y ("[x_(..)]" or
 * "λx_(..)"), or NULL. */
static const char *line_of(const char *out, const char *prefix, const char *y)
{
    char key[256];
    snprintf(key, sizeof key, "%s%s> = ", prefix, y);
    const char *p = strstr(out, key);
    return p && (p == out || p[-1] == '\n') ? p + strlen(key) : NULL;
}

/* Adams periodicity (J. F. Adams, "A periodicity theorem in homological
 * algebra", 1966; May's thesis): P x = <x, h_0^4, h_3> and P h_2 = <h_2,
 * h_3, h_0^4>.  Through stem 11, Ext^5 at stem 9 is P h_1, at stem 11
 * P h_2 (one class each), and Ext^6 at stem 10 is h_1 P h_1: the Ext
 * parts of the secondary brackets say so. */
TEST(secondary_massey_cli_periodicity)
{
    char *p = massey(__LINE__, "--a 7,1,0 --b 0,4,0", "");
    const char *l = line_of(p, "<[x_(7, 1, 0)], [x_(0, 4, 0)], ", "[x_(1, 1, 0)]");
    ASSERT(l && strncmp(l, "±[1]", strlen("±[1]")) == 0); /* <h_3, h_0^4, h_1> = P h_1 */
    l = line_of(p, "<[x_(7, 1, 0)], [x_(0, 4, 0)], ", "[x_(2, 2, 0)]");
    ASSERT(l && strncmp(l, "±[1]", strlen("±[1]")) == 0); /* <h_3, h_0^4, h_1^2> = h_1 P h_1 */
    sq_free(p);
    char *q = massey(__LINE__, "--a 3,1,0 --b 7,1,0", "");
    l = line_of(q, "<[x_(3, 1, 0)], [x_(7, 1, 0)], ", "[x_(0, 4, 0)]");
    ASSERT(l && strncmp(l, "±[1]", strlen("±[1]")) == 0); /* <h_2, h_3, h_0^4> = P h_2 */
    sq_free(q);
}

/* The bracket of a pure lambda class: a b1 = d_2 z makes K begin with z,
 * so <a, λ b1, y> = z y (modulo a Ext + Ext y) for y with b1 y = 0.  With
 * d_2 h_4 = h_0 h_3^2 (Adams, "On the non-existence of elements of Hopf
 * invariant one", 1960; Mahowald-Tangora), <h_3, λ h_0 h_3, y> = h_4 y:
 * the Ext part of every line with y in Ext equals the product by h_4
 * (adams product, the classical products), here exactly. */
TEST(secondary_massey_cli_h4_products)
{
    char *out = massey(__LINE__, "--a 7,1,0 --b 7,1,/0", "");
    static const int ys[][2] = {{0, 3}, {0, 4}, {0, 5}, {1, 1}, {2, 2}, {3, 1}, {3, 2}, {3, 3},
                                {6, 2}, {7, 3}, {8, 3}, {9, 4}, {11, 5}};
    for (size_t i = 0; i < sizeof ys / sizeof *ys; i++) {
        char y[64], args[256];
        snprintf(y, sizeof y, "[x_(%d, %d, 0)]", ys[i][0], ys[i][1]);
        const char *l = line_of(out, "<[x_(7, 1, 0)], λx_(7, 2, 0), ", y);
        ASSERT(l != NULL);
        snprintf(args, sizeof args, "product S_2 --class 15,1,0 --by %d,%d,0 --quiet", ys[i][0],
                 ys[i][1]);
        char *p = run_ok(__LINE__, args);
        const char *eq = strstr(p, " = ");
        const char *at = strstr(p, " at (");
        ASSERT(eq && at && at > eq);
        const char *v = eq + 3;
        size_t len = (size_t)(at - v);
        ASSERT(strncmp(l, "±", strlen("±")) == 0);
        l += strlen("±");
        if (strncmp(l, v, len) != 0 || strncmp(l + len, " + λ", strlen(" + λ")) != 0)
            sq_test_fail(__FILE__, __LINE__, "<h_3, λh_0h_3, %s> = %.40s, h_4 y = %.*s", y, l,
                         (int)len, v);
        sq_free(p);
    }
    sq_free(out);
}

/* Linearity in a's lambda part: <a + λ a1, b, y> - <a, b, y> = λ a1 K(y)
 * has no Ext part: the two runs of the peer's (h_2 and h_2 + λ h_0 h_2)
 * have the same kernels and Ext parts, line by line. */
TEST(secondary_massey_cli_lambda_linear)
{
    char *x = massey(__LINE__, "--a 3,1,0 --b 7,1,0", "");
    char *y = massey(__LINE__, "--a 3,1,0/0 --b 7,1,0", "");
    int lines = 0;
    for (const char *p = x, *q = y; *p && *q; lines++) {
        const char *pe = strchr(p, '\n'), *qe = strchr(q, '\n');
        ASSERT(pe && qe);
        const char *pb = strstr(p, ", [x_(7, 1, 0)], "), *qb = strstr(q, ", [x_(7, 1, 0)], ");
        ASSERT(pb && qb);
        const char *pl = strstr(pb, " + λ["), *ql = strstr(qb, " + λ[");
        ASSERT(pl && ql && pl < pe && ql < qe);
        ASSERT(pl - pb == ql - qb && strncmp(pb, qb, (size_t)(pl - pb)) == 0);
        p = pe + 1;
        q = qe + 1;
    }
    ASSERT(lines == 30);
    sq_free(x);
    sq_free(y);
}

/* The line of out for y (line_of) is exactly want. */
static void expect_line(int line, const char *out, const char *prefix, const char *y,
                        const char *want)
{
    const char *l = line_of(out, prefix, y);
    size_t n = strlen(want);
    if (!l || strncmp(l, want, n) != 0 || l[n] != '\n')
        sq_test_fail(__FILE__, line, "<%s%s>: want %s, got %.60s", prefix, y, want,
                     l ? l : "(no line)");
}

/* The output of args holds the line "want" (a whole line). */
static void expect_output_line(int line, const char *args, const char *want)
{
    char *out = run_ok(line, args);
    const char *p = strstr(out, want);
    if (!p || (p != out && p[-1] != '\n') || p[strlen(want)] != '\n')
        sq_test_fail(__FILE__, line, "adams %s: no line '%s'", args, want);
    sq_free(out);
}

/* The two carry terms of the lambda part (docs/secondary.md, "Secondary
 * Massey products"), each where it changes the printed line.
 *
 * (a) h_0 (carries of the Ext part over Z/4).  <h_2, h_3, λ h_0h_3>: y0 = 0,
 * [h_3] λ h_0h_3 = λ h_0h_3^2 = λ d_2 h_4, so w = h_4 and the Ext part is
 * -h_2 w = 3 h_2h_4 over Z/4 = h_2h_4 + 2 h_2h_4, and 2 = λ h_0 in
 * Mod_{Cλ²}: the carry adds λ h_0h_2h_4, nonzero (h_0 x_(18, 2) = x_(18, 3)
 * below).  Likewise <h_2, h_3, λ Ph_1> (Ext part x_(20, 5) = h_0 g, h_0 of it
 * nonzero).  The oracle: the peer's published lines (an independent program,
 * tests/data/secondary_massey-h_2-h_3-S_2.txt, lines 16 and 24): λ[0] and
 * λ[1]; without the term adams prints λ[1] and λ[0].  (With y0 = 0 the term
 * is [a] λ h_0 w, in the indeterminacy a π: the peer's choices fix it.)
 *
 * (b) a0 h_0 (carries of b0 y0 over Z).  It needs y0 with two classes of
 * equal product by b: none in the peer's runs; a search (a through stem 9,
 * b through stem 15, S_2 through (40, 10); C2, Ceta, Cnu with a = ι, b at
 * s >= 2, through (44, 11)) finds it only from stem 37 on:
 * - C2, <ι, h_0^2, y>, y = x_(37, 8, 0) + x_(37, 8, 1): h_0 x_(37, 8, i) =
 *   g = x_(37, 9, 0), h_0 g = u = x_(37, 10, 0) (adams products, below), so
 *   h_0^2 y over Z is 2u: [h_0^2][y] = 2[u] + λ(...) and its null-homotopy
 *   holds the null-homotopy of 2 on u (the cochain reading the coefficient of
 *   Sq^1 g_u), composed with f^ι.  a is at (0, 0): the peer's index (G_{s+S}
 *   in degree t + T) is adams's (G_{s+s_b} in degree t + t_b), so the line is
 *   the peer's definition (ext/examples/secondary_massey.rs).  Ext(C2) at
 *   (38, 10) is the one class ũ over u (S at (38, 10) is zero, h_0 u = 0):
 *   the term is λũ, in the indeterminacy (i_* [x_(38, 9, 0)] = λũ by the exact
 *   sequence of S -h_0-> S -> C2 in Mod_{Cλ²}), so no choice-free fact can tell
 *   it: the definition does.
 * - S_2, <h_0, h_1, y>, y = x_(40, 6, 0) + x_(40, 6, 1) (h_1 of each is
 *   x_(41, 7, 0)): the coefficient of Sq^1 g_u in f^{h_0}(g), both in G_7.
 *   The peer's index reads G_8 in degree 49, where G_8 has no generator
 *   (Ext at (41, 8) is zero): adams's is the one with the right degrees. */
TEST(secondary_massey_cli_carries)
{
    /* (a): the peer's published lines */
    char *x = massey(__LINE__, "--a 3,1,0 --b 7,1,0", "");
    expect_line(__LINE__, x, "<[x_(3, 1, 0)], [x_(7, 1, 0)], ", "λx_(7, 2, 0)", "±[1] + λ[0]");
    expect_line(__LINE__, x, "<[x_(3, 1, 0)], [x_(7, 1, 0)], ", "λx_(9, 5, 0)", "±[1] + λ[1]");
    sq_free(x);
    expect_output_line(__LINE__, "product S_2 --class 18,2,0 --by 0,1,0 --quiet",
                       "x_(18, 2) [1] * y_(0, 1) [1] = [1] at (18, 3)");
    expect_output_line(__LINE__, "product S_2 --class 20,5,0 --by 0,1,0 --quiet",
                       "x_(20, 5) [1] * y_(0, 1) [1] = [1] at (20, 6)");
    /* the carries over Z of (b), from the products of the classical basis */
    char *p = run_ok(__LINE__, "products S_2 --stem 41 --max-s 10 --algorithm classical --quiet");
    static const char *const prods[] = {"h_0 x_(37, 8, 0) = [1]", "h_0 x_(37, 8, 1) = [1]",
                                        "h_0 x_(37, 9, 0) = [1]", "h_1 x_(40, 6, 0) = [1]",
                                        "h_1 x_(40, 6, 1) = [1]"};
    for (size_t i = 0; i < sizeof prods / sizeof *prods; i++)
        ASSERT(strstr(p, prods[i]) != NULL);
    sq_free(p);
}

/* (b) of secondary_massey_cli_carries (1.6 s here, 20 s under ASan: slow). */
TEST(secondary_massey_cli_carries_b0y0_slow)
{
    char *c = run_ok(__LINE__, "massey C2 --secondary --a 0,0,0 --b 0,2,0 --stem 39 --max-s 10 "
                               "--algorithm classical --quiet");
    expect_line(__LINE__, c, "<[x_(0, 0, 0)], [x_(0, 2, 0)], ", "[x_(37, 8, 0) + x_(37, 8, 1)]",
                "±[] + λ[1]");
    sq_free(c);
    char *s = run_ok(__LINE__, "massey S_2 --secondary --a 0,1,0 --b 1,1,0 --stem 43 --max-s 8 "
                               "--algorithm classical --quiet");
    expect_line(__LINE__, s, "<[x_(0, 1, 0)], [x_(1, 1, 0)], ", "[x_(40, 6, 0) + x_(40, 6, 1)]",
                "±[0] + λ[1]");
    sq_free(s);
}

static void expect_refused(int line, const char *args, const char *words)
{
    char *out = NULL, *err = NULL, full[512];
    snprintf(full, sizeof full, "%s --quiet", args);
    int rc = sq_test_run_adams(full, &out, &err);
    if (rc != 2 || out[0] || !strstr(err, words) || strchr(err, '\n') != err + strlen(err) - 1)
        sq_test_fail(__FILE__, line, "adams %s: want one line naming '%s', exit 2; got %d\n%s",
                     args, words, rc, err);
    sq_free(out);
    sq_free(err);
}

TEST(secondary_massey_cli_refusals)
{
    /* h_0 h_0 != 0 in Ext */
    expect_refused(__LINE__, "massey --secondary --a 0,1,0 --b 0,1,0 --stem 10 --max-s 5",
                   "not zero in Ext");
    /* h_3 h_0^2 h_3 = 0 in Ext, but [h_3][h_0^2 h_3] = λ h_0 d_0 (docs/secondary.md) */
    expect_refused(__LINE__, "massey --secondary --a 7,1,0 --b 7,3,0 --stem 20 --max-s 7",
                   "Mod_{C lambda^2}");
    /* h_4 supports d_2 h_4 = h_0 h_3^2 */
    expect_refused(__LINE__, "massey --secondary --a 15,1,0 --b 0,1,0 --stem 20 --max-s 6",
                   "nonzero d_2");
    expect_refused(__LINE__, "massey --secondary --a 3,1,0 --b 7,1,0 --c 0,0,0 --stem 12",
                   "--c");
    expect_refused(__LINE__, "massey --secondary --a 3,1,0 --b 7,1,0", "--stem");
    expect_refused(__LINE__, "massey --secondary --a 3,1,0 --b 7,1,0 --stem 9 --max-s 5",
                   "leave no bracket");
    expect_refused(__LINE__, "massey --secondary --a 3,1,/ --b 7,1,0 --stem 20 --max-s 5",
                   "--a");
    expect_refused(__LINE__, "massey C3 --secondary --a 3,1,0 --b 7,1,0 --stem 20 --max-s 5",
                   "massey");
    expect_refused(__LINE__, "massey --a 3,1,0 --b 7,1,0 --c 0,0,0 --stem 20", "--secondary");
}
