/*
 * t-modspec-relation.c -- the relation strings of finitely presented module
 * specs (src/io/sq_modspec_relation.c): products of operations match the
 * Milnor product computed here independently, spellings of one element
 * agree, terms cancel mod 2, the peer's j and (x, y) relations parse with
 * their degrees, and every class of mistake gets its one-line message and
 * code.
 *
 * The spec_t is built by hand as the loader does it (sq_modspec.c,
 * read_gens): gens sorted by (file degree, order), by_name sorted by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "milnor.h"
#include "relation_internal.h"
#include "sq_test.h"

#define MAXG 8

typedef struct {
    spec_t S;
    spec_gen_t gens[MAXG];
    spec_name_t names[MAXG];
    char err[512];
} fix_t;

static int cmp_gen(const void *a, const void *b)
{
    const spec_gen_t *x = a, *y = b;
    if (x->fdeg != y->fdeg)
        return x->fdeg < y->fdeg ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const spec_name_t *)a)->name, ((const spec_name_t *)b)->name);
}

/* A spec with generators "name:deg" (in "gens" order), text NULL (every
 * message on line 1). */
static void fix_init(fix_t *F, const char *const *names, const int32_t *degs, int n)
{
    memset(F, 0, sizeof *F);
    ASSERT(n <= MAXG);
    for (int i = 0; i < n; i++) {
        F->gens[i].name = names[i];
        F->gens[i].order = i;
        F->gens[i].fdeg = degs[i];
    }
    qsort(F->gens, (size_t)n, sizeof *F->gens, cmp_gen);
    for (int i = 0; i < n; i++) {
        F->names[i].name = F->gens[i].name;
        F->names[i].gen = i;
    }
    qsort(F->names, (size_t)n, sizeof *F->names, cmp_name);
    F->S.file = "t.json";
    F->S.gens = F->gens;
    F->S.ngens = n;
    F->S.by_name = F->names;
    F->S.err = F->err;
    F->S.errlen = sizeof F->err;
}

/* The j spectrum's generators: x0 in degree 0, x7 in degree 7. */
static void fix_j(fix_t *F)
{
    static const char *const names[] = {"x7", "x0"};
    static const int32_t degs[] = {7, 0};
    fix_init(F, names, degs, 2);
}

/* The second peer example: x in degree 0, y in degree 7. */
static void fix_xy(fix_t *F)
{
    static const char *const names[] = {"x", "y"};
    static const int32_t degs[] = {0, 7};
    fix_init(F, names, degs, 2);
}

static int64_t gen_of(fix_t *F, const char *name)
{
    int64_t g = spec_gen_lookup(&F->S, name, strlen(name));
    ASSERT(g >= 0);
    return g;
}

static void parse_ok(fix_t *F, const milnor_t *A, const char *str, spec_rel_t *r)
{
    int rc = spec_parse_relation(&F->S, A, str, strlen(str), 0, r);
    if (rc)
        sq_test_fail(__FILE__, __LINE__, "\"%s\": rc %d: %s", str, rc, F->err);
}

static void parse_err(fix_t *F, const milnor_t *A, const char *str, int want_rc, const char *want)
{
    spec_rel_t r;
    memset(&r, 0x5a, sizeof r);
    F->err[0] = '\0';
    int rc = spec_parse_relation(&F->S, A, str, strlen(str), 0, &r);
    if (rc != want_rc)
        sq_test_fail(__FILE__, __LINE__, "\"%s\": rc %d, want %d (%s)", str, rc, want_rc, F->err);
    ASSERT_STR_EQ(F->err, want);
    ASSERT_EQ(r.nterms, 0);
    ASSERT(r.terms == NULL);
    /* The first pass reports the same, unless the error needs the algebra. */
    int32_t deg = -77;
    F->err[0] = '\0';
    rc = spec_relation_degree(&F->S, str, strlen(str), 0, &deg, NULL);
    if (rc) {
        ASSERT_EQ(rc, want_rc);
        ASSERT_STR_EQ(F->err, want);
        ASSERT_EQ(deg, -77);
    }
}

static void vec_eq(const milnor_t *A, int32_t deg, const uint64_t *got, const uint64_t *want)
{
    int64_t dim = milnor_dim(A, deg);
    for (int64_t k = 0; k < dim; k++) {
        int g = (int)(got[k >> 6] >> (k & 63) & 1), w = (int)(want[k >> 6] >> (k & 63) & 1);
        if (g != w) {
            char name[64];
            milnor_format(name, sizeof name, A, deg, k);
            sq_test_fail(__FILE__, __LINE__, "degree %d, %s: got %d, want %d", (int)deg, name, g,
                         w);
        }
    }
}

/* Both relations parse to the same nonzero terms (generators, degrees and
 * operations). */
static void same(fix_t *F, const milnor_t *A, const char *a, const char *b)
{
    spec_rel_t ra, rb;
    parse_ok(F, A, a, &ra);
    parse_ok(F, A, b, &rb);
    if (ra.nterms < 1 || ra.nterms != rb.nterms || ra.deg != rb.deg)
        sq_test_fail(__FILE__, __LINE__, "\"%s\" vs \"%s\": %lld/%lld terms, degrees %d/%d", a, b,
                     (long long)ra.nterms, (long long)rb.nterms, (int)ra.deg, (int)rb.deg);
    for (int64_t k = 0; k < ra.nterms; k++) {
        ASSERT_EQ(ra.terms[k].gen, rb.terms[k].gen);
        ASSERT_EQ(ra.terms[k].opdeg, rb.terms[k].opdeg);
        vec_eq(A, ra.terms[k].opdeg, ra.terms[k].op, rb.terms[k].op);
    }
    spec_rel_clear(&ra);
    spec_rel_clear(&rb);
}

static int64_t idx1(const milnor_t *A, int32_t n)
{
    int32_t r[1] = {n};
    return milnor_index(A, r, n > 0);
}

TEST(relation_sq7sq3)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(40);
    spec_rel_t r;
    parse_ok(&F, A, "Sq7 Sq3 x7", &r);
    ASSERT_EQ(r.deg, 17);
    ASSERT_EQ(r.nterms, 1);
    ASSERT_EQ(r.terms[0].gen, gen_of(&F, "x7"));
    ASSERT_EQ(r.terms[0].opdeg, 10);
    uint64_t want[4] = {0};
    milnor_mul_add(A, want, 0, 7, idx1(A, 7), 3, idx1(A, 3));
    vec_eq(A, 10, r.terms[0].op, want);
    /* Sq^7 Sq^3 is admissible, so not zero. */
    ASSERT(want[0] != 0);
    spec_rel_clear(&r);
    spec_rel_clear(&r);
    milnor_free(A);
}

TEST(relation_order)
{
    /* Left to right: Sq1 Sq2 = Sq(3), Sq2 Sq1 = Sq(3) + Sq(0,1). */
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(16);
    spec_rel_t r;
    int32_t r01[2] = {0, 1};
    parse_ok(&F, A, "Sq1 Sq2 x0", &r);
    ASSERT_EQ(r.nterms, 1);
    ASSERT_EQ(r.terms[0].op[0], 1ULL << idx1(A, 3));
    spec_rel_clear(&r);
    parse_ok(&F, A, "Sq2 Sq1 x0", &r);
    ASSERT_EQ(r.nterms, 1);
    ASSERT_EQ(r.terms[0].op[0], 1ULL << idx1(A, 3) | 1ULL << milnor_index(A, r01, 2));
    spec_rel_clear(&r);
    /* Sq3 x0 + Sq2 Sq1 x0 = Sq(0,1) x0, one merged term. */
    parse_ok(&F, A, "Sq3 x0 + Sq2 Sq1 x0", &r);
    ASSERT_EQ(r.nterms, 1);
    ASSERT_EQ(r.terms[0].op[0], 1ULL << milnor_index(A, r01, 2));
    spec_rel_clear(&r);
    milnor_free(A);
}

TEST(relation_adem)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(16);
    same(&F, A, "Sq2 Sq2 x0", "Sq3 Sq1 x0");
    same(&F, A, "Sq2 Sq2 x0", "P(1,1) x0");
    same(&F, A, "Sq2 Sq2 x0", "Sq(1, 1) x0");
    spec_rel_t r;
    parse_ok(&F, A, "Sq2 Sq2 x0", &r);
    int32_t r11[2] = {1, 1};
    ASSERT_EQ(r.terms[0].op[0], 1ULL << milnor_index(A, r11, 2));
    spec_rel_clear(&r);
    milnor_free(A);
}

TEST(relation_spellings)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(16);
    same(&F, A, "Sq4 x0", "Sq^4 x0");
    same(&F, A, "Sq4 x0", "P(4) x0");
    same(&F, A, "Sq4 x0", "Sq(4) x0");
    same(&F, A, "Sq4 x0", "  P( 4 ,\t0 , 0 )\t\tx0  ");
    same(&F, A, "Sq4 x0", "1 Sq4 x0");
    same(&F, A, "Sq4 x0", "0001 Sq04 x0");
    same(&F, A, "P(0, 1) x0", "Sq(0,1,0) x0");
    milnor_free(A);
}

TEST(relation_unit)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(8);
    spec_rel_t r;
    parse_ok(&F, A, "x7", &r);
    ASSERT_EQ(r.deg, 7);
    ASSERT_EQ(r.nterms, 1);
    ASSERT_EQ(r.terms[0].gen, gen_of(&F, "x7"));
    ASSERT_EQ(r.terms[0].opdeg, 0);
    ASSERT_EQ(r.terms[0].op[0], 1);
    spec_rel_clear(&r);
    same(&F, A, "x7", "Sq0 x7");
    same(&F, A, "x7", "Sq^0 x7");
    same(&F, A, "x7", "P() x7");
    same(&F, A, "x7", "Sq( ) x7");
    same(&F, A, "x7", "P(0, 0) x7");
    same(&F, A, "x7", "1 x7");
    same(&F, A, "x7", "Sq0 P() Sq0 x7");
    /* An algebra of max degree 0 suffices for a bare generator. */
    milnor_t *A0 = milnor_new(0);
    parse_ok(&F, A0, "x0", &r);
    ASSERT_EQ(r.nterms, 1);
    spec_rel_clear(&r);
    milnor_free(A0);
    milnor_free(A);
}

TEST(relation_mod2)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(16);
    spec_rel_t r;
    static const char *const zero[] = {
        "Sq1 x0 + Sq1 x0", "Sq2 Sq2 x0 + Sq3 Sq1 x0", "2 Sq1 x0", "0 x0 + 10 x0",
        "Sq1 Sq1 x0",      "Sq1 x0 + 3 Sq1 x0",
    };
    for (size_t i = 0; i < sizeof zero / sizeof *zero; i++) {
        memset(&r, 0x5a, sizeof r);
        parse_ok(&F, A, zero[i], &r);
        if (r.nterms != 0)
            sq_test_fail(__FILE__, __LINE__, "\"%s\": %lld terms", zero[i], (long long)r.nterms);
        spec_rel_clear(&r);
    }
    parse_ok(&F, A, "Sq1 x0 + Sq1 x0", &r);
    ASSERT_EQ(r.deg, 1);
    spec_rel_clear(&r);
    same(&F, A, "3 Sq1 x0", "Sq1 x0");
    same(&F, A, "Sq1 x0 + Sq1 x0 + Sq1 x0", "Sq1 x0");
    same(&F, A, "12345678901234567890123456789 Sq1 x0", "Sq1 x0");
    /* A zero term still counts for homogeneity. */
    parse_err(&F, A, "Sq1 x0 + 0 x7", SQ_E_INVAL,
              "t.json:1: Sq1 x0 + 0 x7: terms of degree 1 and 7; a relation must be homogeneous");
    milnor_free(A);
}

/* Degrees of the peer's j.json relations, both ways, and the terms of the
 * mixed ones. */
TEST(relation_j)
{
    static const char *const adem[] = {"Sq1 x0", "Sq2 x0",
                                       "Sq4 x0", "Sq8 x0 + Sq1 x7",
                                       "Sq7 x7", "Sq10 x7 + Sq7 Sq3 x7 + Sq8 Sq2 x7"};
    static const char *const milnor[] = {"P(1) x0",           "P(2) x0", "P(4) x0",
                                         "P(8) x0 + P(1) x7", "P(7) x7", "P(1, 3) x7 + P(4, 2) x7"};
    static const int32_t degs[] = {1, 2, 4, 8, 14, 17};
    static const int32_t opdegs[] = {1, 2, 4, 8, 7, 10};
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(10);
    for (int i = 0; i < 6; i++) {
        const char *two[2] = {adem[i], milnor[i]};
        for (int w = 0; w < 2; w++) {
            int32_t deg = -1, opdeg = -1;
            ASSERT_EQ(spec_relation_degree(&F.S, two[w], strlen(two[w]), 0, &deg, &opdeg), 0);
            ASSERT_EQ(deg, degs[i]);
            ASSERT_EQ(opdeg, opdegs[i]);
            spec_rel_t r;
            parse_ok(&F, A, two[w], &r);
            ASSERT_EQ(r.deg, degs[i]);
            ASSERT(r.nterms >= 1);
            for (int64_t k = 0; k < r.nterms; k++) {
                ASSERT_EQ(r.terms[k].opdeg + F.gens[r.terms[k].gen].fdeg, degs[i]);
                if (k)
                    ASSERT(r.terms[k - 1].gen < r.terms[k].gen);
            }
            spec_rel_clear(&r);
        }
        /* The letters Sq^n are the Milnor Sq(n). */
        if (i < 5)
            same(&F, A, adem[i], milnor[i]);
    }
    /* "Sq8 x0 + Sq1 x7": two terms, sorted by generator (x0 before x7). */
    spec_rel_t r;
    parse_ok(&F, A, "Sq1 x7 + Sq8 x0", &r);
    ASSERT_EQ(r.nterms, 2);
    ASSERT_EQ(r.terms[0].gen, gen_of(&F, "x0"));
    ASSERT_EQ(r.terms[0].opdeg, 8);
    ASSERT_EQ(r.terms[0].op[0], 1ULL << idx1(A, 8));
    ASSERT_EQ(r.terms[1].gen, gen_of(&F, "x7"));
    ASSERT_EQ(r.terms[1].opdeg, 1);
    ASSERT_EQ(r.terms[1].op[0], 1);
    spec_rel_clear(&r);
    /* The last one: Sq^10 + Sq^7 Sq^3 + Sq^8 Sq^2 in the Milnor basis. */
    parse_ok(&F, A, adem[5], &r);
    uint64_t want[1] = {0};
    want[0] ^= 1ULL << idx1(A, 10);
    milnor_mul_add(A, want, 0, 7, idx1(A, 7), 3, idx1(A, 3));
    milnor_mul_add(A, want, 0, 8, idx1(A, 8), 2, idx1(A, 2));
    ASSERT_EQ(r.nterms, 1);
    vec_eq(A, 10, r.terms[0].op, want);
    spec_rel_clear(&r);
    milnor_free(A);
}

TEST(relation_xy)
{
    static const char *const adem[] = {
        "Sq2 x", "Sq3 x + Sq2 Sq1 x", "Sq14 x + Sq7 y + Sq6 Sq1 y",
        "Sq10 y + Sq7 Sq3 y + Sq8 Sq2 y + Sq9 Sq1 y + Sq6 Sq3 Sq1 y"};
    static const int32_t adeg[] = {2, 3, 14, 17};
    static const char *const milnor[] = {"P(2) x", "P(0, 1) x",
                                         "P(4, 2) y + P(1, 3) y + P(3, 0, 1) y + P(0, 1, 1) y"};
    static const int32_t mdeg[] = {2, 3, 17};
    fix_t F;
    fix_xy(&F);
    milnor_t *A = milnor_new(14);
    for (int i = 0; i < 4; i++) {
        int32_t deg = -1;
        ASSERT_EQ(spec_relation_degree(&F.S, adem[i], strlen(adem[i]), 0, &deg, NULL), 0);
        ASSERT_EQ(deg, adeg[i]);
        spec_rel_t r;
        parse_ok(&F, A, adem[i], &r);
        ASSERT_EQ(r.deg, adeg[i]);
        spec_rel_clear(&r);
    }
    for (int i = 0; i < 3; i++) {
        int32_t opdeg = -1;
        ASSERT_EQ(spec_relation_degree(&F.S, milnor[i], strlen(milnor[i]), 0, NULL, &opdeg), 0);
        ASSERT_EQ(opdeg, mdeg[i] - (i == 2 ? 7 : 0));
        spec_rel_t r;
        parse_ok(&F, A, milnor[i], &r);
        ASSERT_EQ(r.deg, mdeg[i]);
        ASSERT_EQ(r.nterms, 1);
        spec_rel_clear(&r);
    }
    /* "Sq3 x + Sq2 Sq1 x" is Sq(0,1) x: the same as "P(0, 1) x". */
    same(&F, A, adem[1], milnor[1]);
    /* Largest op degree: 14 (on x), not 7 (on y). */
    int32_t opdeg = -1;
    ASSERT_EQ(spec_relation_degree(&F.S, adem[2], strlen(adem[2]), 0, NULL, &opdeg), 0);
    ASSERT_EQ(opdeg, 14);
    milnor_free(A);
}

/* "P(R) P(S) P(T) x0" against (Sq(R) Sq(S)) Sq(T), associated the other
 * way from the parser and built from p-parts, on seeded random triples. */
TEST(relation_random_products)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(48);
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(200);
    for (int64_t it = 0; it < iters; it++) {
        int32_t p[3][3] = {{0}};
        int32_t d[3];
        char str[256];
        size_t k = 0;
        for (int e = 0; e < 3; e++) {
            p[e][0] = (int32_t)sq_rand_below(rng, 6);
            p[e][1] = (int32_t)sq_rand_below(rng, 3);
            p[e][2] = (int32_t)sq_rand_below(rng, 2);
            d[e] = milnor_pdegree(p[e], 3);
            k += (size_t)snprintf(str + k, sizeof str - k, "P(%d, %d, %d) ", (int)p[e][0],
                                  (int)p[e][1], (int)p[e][2]);
        }
        snprintf(str + k, sizeof str - k, "x0");
        uint64_t rs[4] = {0}, want[4] = {0};
        milnor_mul_pparts_add(A, rs, 0, p[0], 3, p[1], 3);
        int64_t tidx = milnor_index(A, p[2], 3);
        for (int64_t b = 0; b < milnor_dim(A, d[0] + d[1]); b++)
            if (rs[b >> 6] >> (b & 63) & 1)
                milnor_mul_add(A, want, 0, d[0] + d[1], b, d[2], tidx);
        spec_rel_t r;
        parse_ok(&F, A, str, &r);
        int32_t top = d[0] + d[1] + d[2];
        ASSERT_EQ(r.deg, top);
        int zero = 1;
        for (int w = 0; w < 4; w++)
            zero &= want[w] == 0;
        if (zero) {
            ASSERT_EQ(r.nterms, 0);
        } else {
            if (r.nterms != 1)
                sq_test_fail(__FILE__, __LINE__, "seed=%llu iter=%lld \"%s\": %lld terms",
                             (unsigned long long)sq_test_seed(), (long long)it, str,
                             (long long)r.nterms);
            vec_eq(A, top, r.terms[0].op, want);
        }
        spec_rel_clear(&r);
    }
    milnor_free(A);
}

TEST(relation_errors)
{
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(64);
    /* Generators. */
    parse_err(&F, A, "Sq1 y0", SQ_E_INVAL,
              "t.json:1: Sq1 y0: unknown generator y0 (did you mean x0?)");
    parse_err(&F, A, "Sq1 x0 + Sq1 foo", SQ_E_INVAL,
              "t.json:1: Sq1 x0 + Sq1 foo: unknown generator foo");
    parse_err(&F, A, "Sq1 Sq2", SQ_E_INVAL,
              "t.json:1: Sq1 Sq2: the term Sq1 Sq2 has no generator (a term is [coefficient] "
              "[operations] generator)");
    parse_err(&F, A, "x0 + 3", SQ_E_INVAL,
              "t.json:1: x0 + 3: the term 3 has no generator (a term is [coefficient] "
              "[operations] generator)");
    parse_err(&F, A, "Sq1 P(1, 3)", SQ_E_INVAL,
              "t.json:1: Sq1 P(1, 3): the term Sq1 P(1, 3) has no generator (a term is "
              "[coefficient] [operations] generator)");
    /* Empty terms. */
    parse_err(&F, A, "", SQ_E_INVAL,
              "t.json:1: \"\": an empty relation: expected \"[coefficient] [operations] "
              "generator + ...\"");
    parse_err(&F, A, "  \t", SQ_E_INVAL,
              "t.json:1: \"  ?\": an empty relation: expected \"[coefficient] [operations] "
              "generator + ...\"");
    parse_err(&F, A, "Sq1 x0 +", SQ_E_INVAL, "t.json:1: Sq1 x0 +: an empty term (a stray '+')");
    parse_err(&F, A, "+ Sq1 x0", SQ_E_INVAL, "t.json:1: + Sq1 x0: an empty term (a stray '+')");
    parse_err(&F, A, "x0 + + x0", SQ_E_INVAL, "t.json:1: x0 + + x0: an empty term (a stray '+')");
    /* Malformed operations. */
    parse_err(&F, A, "Sq x0", SQ_E_INVAL,
              "t.json:1: Sq x0: malformed operation Sq: expected SqN, Sq^N or Sq(r1, r2, ...)");
    parse_err(&F, A, "Sqx x0", SQ_E_INVAL,
              "t.json:1: Sqx x0: malformed operation Sqx: expected SqN, Sq^N or Sq(r1, r2, ...)");
    parse_err(&F, A, "Sq^ x0", SQ_E_INVAL,
              "t.json:1: Sq^ x0: malformed operation Sq^: expected SqN, Sq^N or Sq(r1, r2, ...)");
    parse_err(&F, A, "Sq2a x0", SQ_E_INVAL,
              "t.json:1: Sq2a x0: malformed operation Sq2a: expected SqN, Sq^N or Sq(r1, r2, "
              "...)");
    parse_err(&F, A, "Sq1 x0 + P(1,", SQ_E_INVAL,
              "t.json:1: Sq1 x0 + P(1,: malformed operation P(1,: missing ')'");
    parse_err(&F, A, "P(1, x0", SQ_E_INVAL,
              "t.json:1: P(1, x0: malformed operation P(1, x0: expected a non-negative integer "
              "after '(' or ','");
    parse_err(&F, A, "P(1 2) x0", SQ_E_INVAL,
              "t.json:1: P(1 2) x0: malformed operation P(1 2): expected ',' or ')' after an "
              "entry");
    parse_err(&F, A, "P(-1) x0", SQ_E_INVAL,
              "t.json:1: P(-1) x0: malformed operation P(-1): entries must be non-negative "
              "integers");
    parse_err(&F, A, "P(1,) x0", SQ_E_INVAL,
              "t.json:1: P(1,) x0: malformed operation P(1,): expected a non-negative integer "
              "after '(' or ','");
    parse_err(&F, A, "P(1)x0", SQ_E_INVAL,
              "t.json:1: P(1)x0: malformed operation P(1)x0: expected white space after ')'");
    parse_err(&F, A, "Sq1 3 x0", SQ_E_INVAL,
              "t.json:1: Sq1 3 x0: 3 is not an operation (expected SqN, Sq^N, P(r1, r2, ...) "
              "or Sq(r1, r2, ...))");
    parse_err(&F, A, "Q1 x0", SQ_E_INVAL,
              "t.json:1: Q1 x0: Q1 is not an operation (expected SqN, Sq^N, P(r1, r2, ...) or "
              "Sq(r1, r2, ...))");
    parse_err(&F, A, "3x x0", SQ_E_INVAL,
              "t.json:1: 3x x0: 3x is not a coefficient, an operation or a generator");
    /* Homogeneity. */
    parse_err(&F, A, "Sq1 x0 + Sq1 x7", SQ_E_INVAL,
              "t.json:1: Sq1 x0 + Sq1 x7: terms of degree 1 and 8; a relation must be "
              "homogeneous");
    /* Numbers too large. */
    parse_err(&F, A, "Sq2048 x0", SQ_E_RANGE,
              "t.json:1: Sq2048 x0: Sq2048: the degree is beyond the largest supported degree "
              "2047");
    parse_err(&F, A, "Sq99999999999999999999999999 x0", SQ_E_RANGE,
              "t.json:1: Sq99999999999999999999999999 x0: Sq99999999999999999999999999: the "
              "degree is beyond the largest supported degree 2047");
    parse_err(&F, A, "P(99999999999999999999999) x0", SQ_E_RANGE,
              "t.json:1: P(99999999999999999999999) x0: P(99999999999999999999999): an entry is "
              "beyond the largest supported degree 2047");
    parse_err(&F, A, "P(1000, 1000) x0", SQ_E_RANGE,
              "t.json:1: P(1000, 1000) x0: P(1000, 1000): the degree is beyond the largest "
              "supported degree 2047");
    parse_err(&F, A, "P(0,0,0,0,0,0,0,0,0,0,0,1) x0", SQ_E_RANGE,
              "t.json:1: P(0,0,0,0,0,0,0,0,0,0,0,1) x0: P(0,0,0,0,0,0,0,0,0,0,0,1): the degree "
              "is beyond the largest supported degree 2047");
    parse_err(&F, A, "Sq1024 Sq1024 x0", SQ_E_RANGE,
              "t.json:1: Sq1024 Sq1024 x0: the operations of Sq1024 Sq1024 x0 have degree 2048, "
              "beyond the largest supported degree 2047");
    /* Beyond the algebra (SQ_E_RANGE, naming its limit). */
    parse_err(&F, A, "Sq59 x7 + Sq65 Sq1 x0", SQ_E_RANGE,
              "t.json:1: Sq59 x7 + Sq65 Sq1 x0: the term Sq65 Sq1 x0 needs operations of "
              "degree 66, beyond the algebra's maximum degree 64");
    /* Control characters are quoted as '?'. */
    parse_err(&F, A, "Sq1 x\x01", SQ_E_INVAL,
              "t.json:1: Sq1 x?: unknown generator x? (did you mean x0?)");
    milnor_free(A);
}

TEST(relation_edges)
{
    fix_t F;
    fix_j(&F);
    /* The largest degrees are accepted (an algebra of degree 2047 has
     * 3.9e9 basis elements there, too many bits for a test: the first pass
     * only). */
    static const char *const top[] = {"P(0,0,0,0,0,0,0,0,0,0,1) x0", "Sq1023 Sq1024 x0",
                                      "Sq2040 x7"};
    for (int i = 0; i < 3; i++) {
        int32_t deg = -1, opdeg = -1;
        ASSERT_EQ(spec_relation_degree(&F.S, top[i], strlen(top[i]), 0, &deg, &opdeg), 0);
        ASSERT_EQ(opdeg, i == 2 ? 2040 : 2047);
        ASSERT_EQ(deg, 2047);
    }
    milnor_t *A = milnor_new(255);
    spec_rel_t r;
    parse_ok(&F, A, "P(0,0,0,0,0,0,0,1) x0 + Sq127 Sq128 x0", &r);
    ASSERT_EQ(r.deg, 255);
    ASSERT_EQ(r.nterms, 1);
    spec_rel_clear(&r);
    /* Trailing zeros beyond every supported length are fine. */
    same(&F, A, "Sq1 x0",
         "P(1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
         "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0) x0");
    /* Only n bytes are read: the rest of the buffer is not part of it. */
    const char *buf = "Sq1 x0 + garbage";
    ASSERT_EQ(spec_parse_relation(&F.S, A, buf, 6, 0, &r), 0);
    ASSERT_EQ(r.nterms, 1);
    ASSERT_EQ(r.deg, 1);
    spec_rel_clear(&r);
    /* A generator whose name looks like an operation is still a generator
     * in the last place. */
    fix_t G;
    static const char *const names[] = {"Sq1", "P(1)"};
    static const int32_t degs[] = {0, 1};
    fix_init(&G, names, degs, 2);
    parse_ok(&G, A, "Sq1 Sq1 + P(1)", &r);
    ASSERT_EQ(r.deg, 1);
    ASSERT_EQ(r.nterms, 2);
    spec_rel_clear(&r);
    milnor_free(A);
}

TEST(relation_profile)
{
    fix_t F;
    fix_j(&F);
    int32_t h[2] = {2, 1}; /* A(1) */
    milnor_t *B = milnor_new_profile(20, h, 2);
    same(&F, B, "Sq2 Sq2 x0", "P(1, 1) x0");
    /* Products stay in B; above its top degree 6 they vanish. */
    spec_rel_t r;
    parse_ok(&F, B, "Sq2 Sq2 Sq2 Sq2 x0", &r);
    ASSERT_EQ(r.deg, 8);
    ASSERT_EQ(r.nterms, 0);
    spec_rel_clear(&r);
    parse_err(&F, B, "Sq4 x0", SQ_E_INVAL,
              "t.json:1: Sq4 x0: Sq4 is not in the subalgebra of the profile [2,1]");
    parse_err(&F, B, "Sq2 P(0, 2) x0", SQ_E_INVAL,
              "t.json:1: Sq2 P(0, 2) x0: P(0, 2) is not in the subalgebra of the profile [2,1]");
    milnor_free(B);
}

TEST(relation_line)
{
    fix_t F;
    fix_j(&F);
    const char *text =
        "{\n  \"gens\": {\"x0\": 0, \"x7\": 7},\n  \"adem_relations\": [\"Sq1 y7\"]\n}";
    F.S.text = text;
    F.S.len = strlen(text);
    size_t pos = (size_t)(strstr(text, "\"Sq1 y7\"") - text);
    int32_t deg;
    ASSERT_EQ(spec_relation_degree(&F.S, "Sq1 y7", 6, pos, &deg, NULL), SQ_E_INVAL);
    ASSERT_STR_EQ(F.err, "t.json:3: Sq1 y7: unknown generator y7 (did you mean x7?)");
    /* No position: no line. */
    ASSERT_EQ(spec_relation_degree(&F.S, "Sq1 y7", 6, SPEC_NOPOS, &deg, NULL), SQ_E_INVAL);
    ASSERT_STR_EQ(F.err, "t.json: Sq1 y7: unknown generator y7 (did you mean x7?)");
}

/* Random strings over the grammar's characters: never a crash or a leak
 * (under ASan), the only codes are 0, SQ_E_INVAL and SQ_E_RANGE, the two
 * passes agree, and a result is well formed. */
TEST(relation_random_strings)
{
    static const char alpha[] = "SqP()^,+ \t0123789x-";
    static const char *const words[] = {"Sq", "P(", "x0", "x7", " + ", "Sq1", "Sq^2", ", ", ")"};
    static const char *const ops[] = {"Sq1 ",     "Sq2 ", "Sq^3 ", "P(1, 1) ",
                                      "Sq(0,1) ", "Sq0 ", "Sq7 "};
    fix_t F;
    fix_j(&F);
    milnor_t *A = milnor_new(64);
    sq_rand_t *rng = sq_test_rand();
    int64_t iters = sq_test_iters(20000), ok = 0;
    for (int64_t it = 0; it < iters; it++) {
        char str[96];
        size_t n = 0;
        if (it & 1) { /* characters and fragments */
            size_t len = (size_t)sq_rand_below(rng, 40);
            while (n < len) {
                if (sq_rand_below(rng, 2)) {
                    str[n++] = alpha[sq_rand_below(rng, sizeof alpha - 1)];
                } else {
                    const char *w = words[sq_rand_below(rng, sizeof words / sizeof *words)];
                    for (; *w && n < sizeof str; w++)
                        str[n++] = *w;
                }
            }
        } else { /* terms on x0 (degree 7 when x7 is allowed), one byte maybe changed */
            int nt = 1 + (int)sq_rand_below(rng, 3);
            for (int t = 0; t < nt; t++) {
                char term[64];
                size_t k = (size_t)snprintf(term, sizeof term, "%s", t ? "+ " : "");
                if (sq_rand_below(rng, 4) == 0)
                    k += (size_t)snprintf(term + k, sizeof term - k, "%d ",
                                          (int)sq_rand_below(rng, 4));
                int no = (int)sq_rand_below(rng, 3);
                for (int o = 0; o < no; o++)
                    k += (size_t)snprintf(term + k, sizeof term - k, "%s",
                                          ops[sq_rand_below(rng, sizeof ops / sizeof *ops)]);
                k += (size_t)snprintf(term + k, sizeof term - k, "x0 ");
                if (n + k < sizeof str) {
                    memcpy(str + n, term, k);
                    n += k;
                }
            }
            if (n && sq_rand_below(rng, 3) == 0)
                str[sq_rand_below(rng, n)] = alpha[sq_rand_below(rng, sizeof alpha - 1)];
        }
        spec_rel_t r;
        int32_t deg = 0, opdeg = 0;
        int rc1 = spec_relation_degree(&F.S, str, n, 0, &deg, &opdeg);
        int rc2 = spec_parse_relation(&F.S, A, str, n, 0, &r);
        if (!(rc2 == 0 || rc2 == SQ_E_INVAL || rc2 == SQ_E_RANGE) ||
            (rc1 != rc2 && !(rc1 == 0 && rc2 == SQ_E_RANGE && opdeg > 64)))
            sq_test_fail(__FILE__, __LINE__, "seed=%llu iter=%lld \"%.*s\": rc %d / %d (%s)",
                         (unsigned long long)sq_test_seed(), (long long)it, (int)n, str, rc1, rc2,
                         F.err);
        if (rc2 == 0) {
            ok++;
            ASSERT_EQ(r.deg, deg);
            for (int64_t k = 0; k < r.nterms; k++) {
                ASSERT_EQ(r.terms[k].opdeg + F.gens[r.terms[k].gen].fdeg, deg);
                ASSERT(r.terms[k].opdeg <= opdeg);
                if (k)
                    ASSERT(r.terms[k - 1].gen < r.terms[k].gen);
            }
        }
        spec_rel_clear(&r);
    }
    ASSERT(ok > iters / 20);
    milnor_free(A);
}
