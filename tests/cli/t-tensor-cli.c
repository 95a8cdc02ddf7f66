/*
 * t-tensor-cli.c -- `adams tensor M N` and the module names "M*N" of every
 * verb: Ext of the products equals the peer's tables for its shipped
 * products C2_sm_Ceta, ko_sm_RP_inf, tmf_sm_RP_inf (tests/data/peer-corpus,
 * through (30, 20)) and, with ../shared present, tmf2_sm_DA1 and the Ext of
 * the peer's own files through (40, 20); the written file resolves as the
 * name does; the refusals are one line, exit 2, nothing written.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sq_core.h"
#include "sq_test.h"

#define PEER SQ_TEST_DATA_DIR "/../../../shared/data/peer-modules"
#define TABLES SQ_TEST_DATA_DIR "/peer-corpus"

/* adams resolve SPEC --stem N --max-s S --format csv; fails unless exit 0. */
static char *ext_csv(const char *spec, int n, int s)
{
    sq_test_run_t r =
        sq_test_runf("resolve '%s' --stem %d --max-s %d --format csv --quiet", spec, n, s);
    if (r.rc != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: exit %d: %s", spec, r.rc, r.err);
    char *out = r.out;
    r.out = NULL;
    sq_test_run_free(&r);
    return out;
}

/* got and want (freed here) are the same E2 page, of spec and of other. */
static void same_ext(char *got, char *want, const char *spec, const char *other)
{
    if (strcmp(got, want) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: the E2 page differs from that of %s", spec, other);
    sq_free(want);
    sq_free(got);
}

static void check_table(const char *spec, const char *table)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s-n30-s20.csv", TABLES, table);
    char *want = sq_test_slurp(path);
    ASSERT(want[0] != '\0');
    same_ext(ext_csv(spec, 30, 20), want, spec, table);
}

TEST(tensor_products_equal_peer_tables)
{
    check_table("C2*Ceta", "C2_sm_Ceta");
    check_table("ko*RP_inf", "ko_sm_RP_inf");
    check_table("tmf2*RP_inf", "tmf_sm_RP_inf");
}

static void skip_without_peer(void)
{
    if (access(PEER "/DA1.json", R_OK) != 0) {
        fprintf(stderr, "skip: %s not found (the peer's module files live outside the project)\n",
                PEER);
        exit(77);
    }
}

/* Through (40, 20): the product by name equals the peer's product file. */
TEST(tensor_products_equal_peer_files)
{
    skip_without_peer();
    check_table("tmf2*" PEER "/DA1.json", "tmf2_sm_DA1");
    const char *pairs[][2] = {{"C2*Ceta", "C2_sm_Ceta"},
                              {"tmf2*" PEER "/DA1.json", "tmf2_sm_DA1"},
                              {"ko*RP_inf", "ko_sm_RP_inf"},
                              {"tmf2*RP_inf", "tmf_sm_RP_inf"}};
    for (int i = 0; i < 4; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.json", PEER, pairs[i][1]);
        same_ext(ext_csv(pairs[i][0], 40, 20), ext_csv(path, 40, 20), pairs[i][0], path);
    }
}

/* adams tensor ARGS -o FILE succeeds, and FILE has the Ext of spec
 * through (n, s). */
static void check_written(const char *args, const char *file, const char *spec, int n, int s)
{
    sq_test_run_t r = sq_test_runf("tensor %s -o '%s'", args, file);
    if (r.rc != 0 || r.out[0] != '\0')
        sq_test_fail(__FILE__, __LINE__, "tensor %s: exit %d: %s", args, r.rc, r.err);
    sq_test_run_free(&r);
    same_ext(ext_csv(file, n, s), ext_csv(spec, n, s), file, spec);
}

TEST(tensor_file_round_trip_and_shifts)
{
    char dir[] = "/tmp/adams-tensor-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    char jc[256], star[256], korp[256];
    snprintf(jc, sizeof jc, "%s/jc.json", dir);
    snprintf(star, sizeof star, "%s/C2*Ceta.json", dir);
    snprintf(korp, sizeof korp, "%s/korp.json", dir);
    check_written("Joker 'C2[1]'", jc, "Joker*C2[1]", 30, 12);
    /* stdout: the same bytes as the file. */
    sq_test_run_t r = sq_test_runf("tensor Joker 'C2[1]'");
    char *text = sq_test_slurp(jc);
    ASSERT_EQ(r.rc, 0);
    ASSERT_STR_EQ(r.out, text);
    ASSERT(strstr(text, "\"x0*x0\": 1") != NULL); /* C2[1]'s cells are in degrees 1, 2 */
    sq_free(text);
    sq_test_run_free(&r);
    /* A file whose name holds '*' is that file, not a product. */
    check_written("S_2 C2", star, "C2", 20, 10);
    ASSERT(strstr(star, "*") != NULL);
    /* An infinite factor: truncated through degree N + 1. */
    check_written("ko RP_inf --stem 20", korp, "ko*RP_inf", 20, 10);
    remove(jc);
    remove(star);
    remove(korp);
    rmdir(dir);
}

/* One line on stderr, exit 2, nothing on stdout, no file. */
static void check_refusal(const char *args, const char *words)
{
    const char *out = "/tmp/adams-tensor-refused.json";
    remove(out);
    int writes = strncmp(args, "tensor", 6) == 0 || strncmp(args, "dual", 4) == 0;
    sq_test_run_t r = sq_test_runf("%s%s%s", args, writes ? " -o " : "", writes ? out : "");
    if (r.rc != 2 || sq_test_count_lines(r.err) != 1 || r.out[0] != '\0' ||
        !strstr(r.err, words))
        sq_test_fail(__FILE__, __LINE__, "%s: exit %d, stderr:\n%s", args, r.rc, r.err);
    ASSERT(access(out, F_OK) != 0);
    sq_test_run_free(&r);
}

TEST(tensor_refusals_one_line)
{
    check_refusal("tensor C2 C3", "a tensor product needs one prime");
    check_refusal("tensor C2 Ceta2", "cofiber of a class");
    check_refusal("tensor RP_inf C2", "give --stem N");
    check_refusal("tensor C2", "give two modules");
    check_refusal("tensor C2 C2 C2", "unexpected argument");
    check_refusal("tensor C2 nonesuch", "unknown module 'nonesuch'");
    check_refusal("tensor C2 C2 --bogus", "unknown option");
    check_refusal("resolve 'C2*C3' --stem 5", "a tensor product needs one prime");
    check_refusal("resolve 'C2*' --stem 5", "a module on each side");
    check_refusal("chart 'C2*C2*C2*C2*C2*C2*C2*C2*C2' --stem 5", "at most 8 factors");
    check_refusal("resolve 'y1*ko' --stem 5", "different subalgebras");
    remove("/tmp/adams-tensor-refused.db");
    check_refusal("resolve 'ko*RP_inf' --stem 5 --save /tmp/adams-tensor-refused.db",
                  "a tensor product with an infinite factor");
    ASSERT(access("/tmp/adams-tensor-refused.db", F_OK) != 0);
}

/* Beyond the table limit: refused from the estimate, before any action is
 * set (the factors' own loads take the seconds). */
TEST(tensor_too_large_slow)
{
    check_refusal("tensor RP_inf RP_inf --stem 200", "is too large");
    check_refusal("resolve 'RP_inf*RP_inf' --stem 199", "is too large");
}

/* ---- Duals (fdmod_dual.h, docs/modules.md "Duals") ---------------------- */

#define BPB SQ_TEST_DATA_DIR "/modules/p3-bPb.json"

/* Ext(M, N) by resolve --coefficients (Hom from M's resolution into N, no
 * dual anywhere) equals Ext(M ⊗ DN) through (n, s): the "done
 * when" for C2 through (30, 15), at p = 3 too (beta and P^1 with signs). */
static void check_coefficients(const char *m, const char *n, int stem, int s)
{
    sq_test_run_t r = sq_test_runf(
        "resolve '%s' --coefficients '%s' --stem %d --max-s %d --format csv --quiet", m, n, stem, s);
    if (r.rc != 0)
        sq_test_fail(__FILE__, __LINE__, "%s --coefficients %s: exit %d: %s", m, n, r.rc, r.err);
    char spec[1024];
    snprintf(spec, sizeof spec, "%s*D(%s)", m, n);
    same_ext(ext_csv(spec, stem, s), r.out, spec, "resolve --coefficients");
    r.out = NULL;
    sq_test_run_free(&r);
}

TEST(dual_ext_mn_is_ext_of_m_tensor_dn)
{
    check_coefficients("C2", "C2", 30, 15);
    check_coefficients("Joker", "Ceta", 30, 15);
    check_coefficients("C2", "Joker", 30, 15);
    check_coefficients("C3", "C3", 30, 15);
    check_coefficients(BPB, "C3", 30, 15);
    check_coefficients("C3", BPB, 30, 15);
    check_coefficients(BPB, BPB, 30, 15);
}

/* D(C2) is C2[-1]; D(Joker) is the shipped DJoker (cells -4..0 with the
 * Sq^4 of chi(Sq^4)); D(D(N)) resolves as N; the file of adams dual
 * resolves as the name; D(D(N))'s file is N's with x** = x. */
TEST(dual_files_and_names)
{
    same_ext(ext_csv("D(C2)", 30, 15), ext_csv("C2[-1]", 30, 15), "D(C2)", "C2[-1]");
    same_ext(ext_csv("D(C2)[1]", 30, 15), ext_csv("C2", 30, 15), "D(C2)[1]", "C2");
    same_ext(ext_csv("D(Csigma)[8]", 30, 15), ext_csv("Csigma", 30, 15), "D(Csigma)[8]", "Csigma");
    same_ext(ext_csv("C2*D(C2)[1]", 30, 15), ext_csv("C2*C2", 30, 15), "C2*D(C2)[1]", "C2*C2");
    same_ext(ext_csv("D(Joker)", 30, 15),
             ext_csv(SQ_TEST_DATA_DIR "/modules/DJoker.json", 30, 15), "D(Joker)", "DJoker");
    same_ext(ext_csv("D(D(Joker))", 30, 15), ext_csv("Joker", 30, 15), "D(D(Joker))", "Joker");
    same_ext(ext_csv("D(" BPB ")", 30, 15), ext_csv("D(D(D(" BPB ")))", 30, 15), "D(bPb)",
             "D(D(D(bPb)))");
    char dir[] = "/tmp/adams-dual-XXXXXX", file[256];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(file, sizeof file, "%s/DJ.json", dir);
    sq_test_run_t r = sq_test_runf("dual Joker -o '%s'", file);
    ASSERT_EQ(r.rc, 0);
    sq_test_run_free(&r);
    same_ext(ext_csv(file, 30, 15), ext_csv("D(Joker)", 30, 15), file, "D(Joker)");
    char *text = sq_test_slurp(file);
    ASSERT(strstr(text, "\"Sq4 x4* = x0*\"") != NULL);
    sq_free(text);
    r = sq_test_runf("dual '%s'", file);
    ASSERT_EQ(r.rc, 0);
    ASSERT(strstr(r.out, "\"x0\": 0") && strstr(r.out, "\"Sq2 x2 = x4\"") &&
           !strstr(r.out, "x0*"));
    sq_test_run_free(&r);
    remove(file);
    rmdir(dir);
}

TEST(dual_far_cells)
{
    /* Cells 300 apart: chi of the generators only (the table through degree
     * 300 ran for over ten minutes). */
    const char *far = "/tmp/adams-dual-far.json";
    FILE *f = fopen(far, "w");
    ASSERT(f != NULL);
    fputs("{\"gens\": {\"x0\": 0, \"x1\": 1, \"x2\": 300, \"x3\": 301}, \"actions\": "
          "[\"Sq1 x0 = x1\", \"Sq1 x2 = x3\"]}",
          f);
    ASSERT_EQ(fclose(f), 0);
    sq_test_run_t d = sq_test_runf("dual %s", far);
    ASSERT_EQ(d.rc, 0);
    ASSERT(strstr(d.out, "\"Sq1 x3* = x2*\"") && strstr(d.out, "\"x3*\": -301"));
    sq_test_run_free(&d);
    remove(far);
}

TEST(dual_refusals_one_line)
{
    check_refusal("dual RP_inf", "infinite (its dual is not bounded below)");
    check_refusal("dual Ceta2", "cofiber of a class");
    check_refusal("dual", "give one module");
    check_refusal("dual C2 C2", "unexpected argument");
    check_refusal("dual C2 --stem 3", "unknown option");
    check_refusal("dual nonesuch", "unknown module 'nonesuch'");
    check_refusal("resolve 'D(nonesuch)' --stem 5", "unknown module 'nonesuch'");
    check_refusal("resolve 'D(RP_inf)' --stem 5", "infinite");
    check_refusal("resolve 'C2*D(C3)' --stem 5", "a tensor product needs one prime");
    check_refusal("resolve 'D(D(D(D(D(D(D(D(D(C2)))))))))' --stem 5", "at most 8 nested");
    check_refusal("resolve 'D(C2)[x]' --stem 5", "k an integer");
    char deep[8200] = "resolve '"; /* 1300 nested duals: refused, not a stack overflow */
    for (int i = 0; i < 1300; i++)
        strcat(deep, "D(");
    strcat(deep, "C2");
    for (int i = 0; i < 1300; i++)
        strcat(deep, ")");
    strcat(deep, "' --stem 5");
    char *out = NULL, *err = NULL;
    ASSERT_EQ(sq_test_run_adams(deep, &out, &err), 2);
    ASSERT(strstr(err, "at most 8 nested") != NULL && sq_test_count_lines(err) == 1);
    sq_free(out);
    sq_free(err);
}

/* chart/products/product/massey --coefficients N (issue 24 item 2): the
 * chart of Ext(M, N) (through M ⊗ DN, docs/resolution.md) has in every
 * bidegree as many classes as resolve --coefficients (Hom from M's
 * resolution into N) prints; products and product by h_0 of the identity
 * of Ext(C2, C2) are nonzero (2 on the Moore spectrum is i eta p != 0, and
 * h_0 1 is not zero in Ext(C2, C2): x_(0, 1, 0)); --from is refused. */
static void check_chart_dims(const char *m, const char *n, int stem, int s)
{
    sq_test_run_t c = sq_test_runf(
        "chart '%s' --coefficients '%s' --stem %d --max-s %d --format json --quiet", m, n, stem, s);
    sq_test_run_t r = sq_test_runf(
        "resolve '%s' --coefficients '%s' --stem %d --max-s %d --format csv --quiet", m, n, stem, s);
    ASSERT_EQ(c.rc, 0);
    ASSERT_EQ(r.rc, 0);
    int lines = 0;
    for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
        int cn, cs, dim;
        if (sscanf(line, "%d,%d,%d", &cn, &cs, &dim) != 3)
            continue;
        char key[64];
        int count = 0;
        snprintf(key, sizeof key, "{\"n\": %d, \"s\": %d, \"i\": ", cn, cs);
        for (const char *q = strstr(c.out, key); q; q = strstr(q + 1, key))
            count++;
        if (count != dim)
            sq_test_fail(__FILE__, __LINE__, "Ext(%s, %s) at (%d, %d): chart %d, resolve %d", m,
                         n, cn, cs, count, dim);
        lines++;
    }
    ASSERT(lines > stem);
    sq_test_run_free(&c);
    sq_test_run_free(&r);
}

TEST(coefficients_chart_and_products)
{
    check_chart_dims("C2", "C2", 30, 15);
    check_chart_dims("Joker", "Ceta", 20, 10);
    check_chart_dims("C3", BPB, 30, 10);
    sq_test_run_t r = sq_test_runf("products C2 --coefficients C2 --stem 4 --max-s 3 --quiet");
    ASSERT_EQ(r.rc, 0);
    ASSERT(strstr(r.out, "h_0 x_(0, 0, 0) = [1]\n") != NULL);
    sq_test_run_free(&r);
    r = sq_test_runf("product C2 --coefficients C2 --class 0,0,0 --by 0,1,0 --quiet");
    ASSERT_EQ(r.rc, 0);
    ASSERT(strstr(r.out, "= [1] at (0, 1)") != NULL);
    sq_test_run_free(&r);
    check_refusal("chart C2 --coefficients C2 --from x.db", "omit --from");
    check_refusal("products C2 --coefficients RP_inf --stem 4", "infinite");
    check_refusal("chart C2 --coefficients C3 --stem 4", "a tensor product needs one prime");
    check_refusal("size C2 --coefficients C2", "unknown option");
}
