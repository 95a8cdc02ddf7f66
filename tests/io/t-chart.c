/*
 * t-chart.c -- the SVG chart and its JSON data (sq_chart_svg.h,
 * sq_chart_json.h) against the resolution they draw:
 *   - one circle per generator: the number of circles is the sum of the
 *     Ext dimensions of the region, and every <title> names x_(n, s, i) of
 *     an existing class, each class once;
 *   - one line of the colour of h_i per nonzero entry of the matrices of
 *     h_i (resol_h_matrix) over the region, i = 0, 1, 2, each running from
 *     (n, s) towards (n + 2^i - 1, s + 1);
 *   - the JSON parses (jansson), holds the same classes and, for every h_i
 *     whose target lies in the region, the same nonzero entries;
 *   - the file is plausible XML: starts with <svg, ends with </svg>, tags
 *     balanced; the picture has the size sq_chart_svg_size announces;
 *   - over a subalgebra without Sq^4 (ko: A(1)) there are no h_2 lines, and
 *     h_2 is not in the legend;
 *   - a write error is reported (SQ_E_IO);
 *   - the whole output equals golden files (tests/data/golden/: S_2 through
 *     (20, 13), C2 through (12, 10), S_3 through (24, 15)), which are themselves checked against
 *     the peer's tables and the products known in the literature;
 *   - at p = 3 and p = 5 the lines are the products cell by cell: the SVG's
 *     a0 and h0 lines, the JSON's records of every class ("by", with the
 *     coefficients) equal the nonzero entries of resol_filt1_matrix; the
 *     golden S_3 chart holds the products known at p = 3;
 *   - through the program: the clear_bottom spaces start at their raised
 *     bottom, and a stem below a shifted module's bottom is named as such.
 * The browser's view of the picture is tests/cli/t-chart-browser.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdmod.h"
#include "resol.h"
#include "resol_products.h"
#include "sq_chart_json.h"
#include "sq_chart_svg.h"
#include "sq_modspec.h"
#include "sq_test.h"

#define MAX_N 30
#define MAX_S 18
#define MAX_H 31

/* The whole output of a writer, as a string (free with free()). */
typedef int (*writer_fn)(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                         int32_t s_max);

static char *write_to_string(writer_fn w, const resol_t *R, const char *name, int32_t n_min,
                             int32_t n_max, int32_t s_max)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT(f != NULL);
    ASSERT_EQ(w(f, R, name, n_min, n_max, s_max), 0);
    ASSERT_EQ(fclose(f), 0);
    ASSERT(buf != NULL && strlen(buf) == len);
    return buf;
}

static int64_t count(const char *hay, const char *needle)
{
    int64_t c = 0;
    size_t n = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + n, needle))
        c++;
    return c;
}

static resol_t *sphere(fdmod_t **M)
{
    *M = fdmod_sphere();
    resol_t *R = resol_new(*M, MAX_S, MAX_N);
    resol_run(R, RESOL_CLASSICAL);
    return R;
}

static int64_t ext_total(const resol_t *R, int32_t n_min, int32_t n_max, int32_t s_max)
{
    int64_t total = 0;
    for (int32_t n = n_min; n <= n_max; n++)
        for (int32_t s = 0; s <= s_max; s++)
            total += resol_ext_dim(R, s, n);
    return total;
}

/* The number of nonzero entries of the matrices of h_i over the region
 * (source and target in it); 0 when h_i does not act. */
static int64_t h_entries(const resol_t *R, int i, int32_t n_min, int32_t n_max, int32_t s_max)
{
    if (!resol_has_h(R, i))
        return 0;
    int64_t c = 0;
    int32_t step = (1 << i) - 1;
    for (int32_t n = n_min; n + step <= n_max; n++)
        for (int32_t s = 0; s + 1 <= s_max; s++) {
            if (resol_ext_dim(R, s, n) <= 0 || resol_ext_dim(R, s + 1, n + step) <= 0)
                continue;
            f2mat_t m;
            ASSERT_EQ(resol_h_matrix(R, i, s, s + n, &m), 0);
            for (int64_t g = 0; g < m.rows; g++)
                for (int64_t k = 0; k < m.cols; k++)
                    c += f2mat_get(&m, g, k);
            f2mat_clear(&m);
        }
    return c;
}

/* Every <title> names x_(n, s, i) of an existing class of the region, each
 * class once; returns the number of titles. */
static int64_t check_titles(const char *svg, const resol_t *R, int32_t n_min, int32_t n_max,
                            int32_t s_max)
{
    int64_t cells = (int64_t)(n_max - n_min + 1) * (s_max + 1);
    int64_t *seen = sq_calloc((size_t)cells, sizeof *seen);
    int64_t titles = 0;
    for (const char *p = strstr(svg, "<title>"); p; p = strstr(p + 1, "<title>")) {
        int n, s, i, used = 0;
        if (sscanf(p, "<title>x_(%d, %d, %d)</title>%n", &n, &s, &i, &used) != 3 || used == 0)
            sq_test_fail(__FILE__, __LINE__, "a title that is not x_(n, s, i): %.40s", p);
        if (n < n_min || n > n_max || s < 0 || s > s_max || i < 0 || i >= resol_ext_dim(R, s, n))
            sq_test_fail(__FILE__, __LINE__, "x_(%d, %d, %d) is not a class of the region", n, s,
                         i);
        /* Classes of one cell come in order i = 0, 1, ...: count them. */
        int64_t *c = &seen[(int64_t)(n - n_min) * (s_max + 1) + s];
        ASSERT_EQ(*c, i);
        (*c)++;
        titles++;
    }
    for (int32_t n = n_min; n <= n_max; n++)
        for (int32_t s = 0; s <= s_max; s++)
            ASSERT_EQ(seen[(int64_t)(n - n_min) * (s_max + 1) + s], resol_ext_dim(R, s, n));
    sq_free(seen);
    return titles;
}

/* Every <line class="hI" runs from the dot block of (n, s) to that of
 * (n + 2^I - 1, s + 1): dx and dy within the half-width of a cell of the
 * chart's vectors (2^I - 1) U and -U (y grows downwards). */
static void check_line_geometry(const char *svg, int i)
{
    char needle[32];
    snprintf(needle, sizeof needle, "<line class=\"h%d\"", i);
    for (const char *p = strstr(svg, needle); p; p = strstr(p + 1, needle)) {
        double x1, y1, x2, y2;
        ASSERT_EQ(sscanf(p, "<line class=\"h%*d\" x1=\"%lf\" y1=\"%lf\" x2=\"%lf\" y2=\"%lf\"/>",
                         &x1, &y1, &x2, &y2),
                  4);
        double dx = x2 - x1, dy = y2 - y1;
        if (fabs(dx - ((1 << i) - 1) * SQ_CHART_SVG_UNIT) > SQ_CHART_SVG_UNIT / 2.0 ||
            fabs(dy + SQ_CHART_SVG_UNIT) > SQ_CHART_SVG_UNIT / 2.0)
            sq_test_fail(__FILE__, __LINE__, "h_%d line %.40s: (dx, dy) = (%g, %g)", i, p, dx, dy);
    }
}

/* Crude XML sanity: the document is one <svg> element and its tags are
 * balanced. */
static void check_xml_shape(const char *svg)
{
    size_t len = strlen(svg);
    ASSERT(strncmp(svg, "<svg ", 5) == 0);
    ASSERT(len > 7 && strcmp(svg + len - 7, "</svg>\n") == 0);
    ASSERT_EQ(count(svg, "<svg"), 1);
    ASSERT_EQ(count(svg, "<g "), count(svg, "</g>"));
    ASSERT_EQ(count(svg, "<text "), count(svg, "</text>"));
    ASSERT_EQ(count(svg, "<tspan "), count(svg, "</tspan>"));
    ASSERT_EQ(count(svg, "<circle "), count(svg, "</circle>"));
    ASSERT_EQ(count(svg, "<title>"), count(svg, "</title>"));
    ASSERT_EQ(count(svg, "<"), count(svg, ">"));
    /* No stray markup characters in text: every '&' starts an entity. */
    for (const char *p = strchr(svg, '&'); p; p = strchr(p + 1, '&'))
        ASSERT(strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
               strncmp(p, "&gt;", 4) == 0 || strncmp(p, "&quot;", 6) == 0);
}

/* The checks on the SVG of R over the region. */
static void check_svg(const char *svg, const resol_t *R, int32_t n_min, int32_t n_max,
                      int32_t s_max)
{
    check_xml_shape(svg);
    int64_t w, h, fw, fh;
    sq_chart_svg_size(n_min, n_max, s_max, &w, &h);
    ASSERT_EQ(sscanf(svg,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                     "width=\"%" SCNd64 "\" height=\"%" SCNd64 "\"",
                     &fw, &fh),
              2);
    ASSERT_EQ(fw, w);
    ASSERT_EQ(fh, h);
    int64_t total = ext_total(R, n_min, n_max, s_max);
    ASSERT(total > 0);
    ASSERT_EQ(count(svg, "<circle "), total);
    ASSERT_EQ(check_titles(svg, R, n_min, n_max, s_max), total);
    static const char *const colour[SQ_CHART_SVG_NUM_H] = {
        SQ_CHART_SVG_H0_COLOUR, SQ_CHART_SVG_H1_COLOUR, SQ_CHART_SVG_H2_COLOUR};
    for (int i = 0; i < SQ_CHART_SVG_NUM_H; i++) {
        char needle[80];
        snprintf(needle, sizeof needle, "<line class=\"h%d\"", i);
        ASSERT_EQ(count(svg, needle), h_entries(R, i, n_min, n_max, s_max));
        /* The lines of h_i are exactly the lines of its group, in its colour. */
        snprintf(needle, sizeof needle, "<g class=\"h%d\" stroke=\"%s\"", i, colour[i]);
        ASSERT_EQ(count(svg, needle), resol_has_h(R, i) ? 1 : 0);
        for (int j = 0; j < i; j++)
            ASSERT(strcmp(colour[i], colour[j]) != 0);
        check_line_geometry(svg, i);
    }
    ASSERT_EQ(count(svg, "<line "), h_entries(R, 0, n_min, n_max, s_max) +
                                        h_entries(R, 1, n_min, n_max, s_max) +
                                        h_entries(R, 2, n_min, n_max, s_max));
}

TEST(chart_svg_s2_counts)
{
    fdmod_t *M;
    resol_t *R = sphere(&M);
    char *svg = write_to_string(sq_chart_write_svg, R, NULL, 0, MAX_N, MAX_S);
    check_svg(svg, R, 0, MAX_N, MAX_S);
    /* The known shape through stem 30: the h_0-tower of stem 0 reaches the
     * top, h_1 and h_2 act on 1, and there are lines of every colour. */
    ASSERT(strstr(svg, "<title>x_(0, 18, 0)</title>") != NULL);
    ASSERT(h_entries(R, 0, 0, MAX_N, MAX_S) > 50);
    ASSERT(h_entries(R, 1, 0, MAX_N, MAX_S) > 20);
    ASSERT(h_entries(R, 2, 0, MAX_N, MAX_S) > 20);
    ASSERT(strstr(svg, "S_2: Ext") != NULL);
    free(svg);
    /* A smaller window of the same resolution, and a name to escape. */
    svg = write_to_string(sq_chart_write_svg, R, "a<b & \"c\"", 0, 12, 5);
    check_svg(svg, R, 0, 12, 5);
    ASSERT(strstr(svg, "a&lt;b &amp; &quot;c&quot;") != NULL);
    free(svg);
    resol_free(R);
    fdmod_free(M);
}

/* The JSON: same classes, same products as the matrices. */
static void check_json(const char *text, const resol_t *R, const char *name, int32_t n_min,
                       int32_t n_max, int32_t s_max)
{
    json_error_t jerr;
    json_t *doc = json_loads(text, 0, &jerr);
    if (!doc)
        sq_test_fail(__FILE__, __LINE__, "JSON does not parse: line %d: %s", jerr.line, jerr.text);
    ASSERT(json_is_object(doc));
    ASSERT_STR_EQ(json_string_value(json_object_get(doc, "format")), "adams-chart");
    ASSERT_EQ(json_integer_value(json_object_get(doc, "version")), SQ_CHART_JSON_VERSION);
    ASSERT_STR_EQ(json_string_value(json_object_get(doc, "module")), name);
    ASSERT_EQ(json_integer_value(json_object_get(doc, "min_n")), n_min);
    ASSERT_EQ(json_integer_value(json_object_get(doc, "max_n")), n_max);
    ASSERT_EQ(json_integer_value(json_object_get(doc, "max_s")), s_max);

    json_t *classes = json_object_get(doc, "classes");
    ASSERT(json_is_array(classes));
    ASSERT_EQ(json_array_size(classes), ext_total(R, n_min, n_max, s_max));
    long long prev = -1;
    size_t k;
    json_t *c;
    json_array_foreach(classes, k, c)
    {
        long long n = json_integer_value(json_object_get(c, "n"));
        long long s = json_integer_value(json_object_get(c, "s"));
        long long i = json_integer_value(json_object_get(c, "i"));
        ASSERT_EQ(json_object_size(c), 3);
        ASSERT(n >= n_min && n <= n_max && s >= 0 && s <= s_max && i >= 0);
        ASSERT(i < resol_ext_dim(R, (int32_t)s, (int32_t)n));
        long long key = ((n - n_min) * (s_max + 1) + s) * 1000 + i; /* n, s, i ascending */
        ASSERT(key > prev);
        prev = key;
    }

    int64_t per_h[MAX_H] = {0};
    json_t *products = json_object_get(doc, "products");
    ASSERT(json_is_array(products));
    ASSERT(json_array_size(products) > 0);
    json_t *p;
    json_array_foreach(products, k, p)
    {
        long long h = json_integer_value(json_object_get(p, "h"));
        json_t *from = json_object_get(p, "from"), *to = json_object_get(p, "to");
        ASSERT(h >= 0 && h < MAX_H && json_array_size(from) == 3 && json_is_array(to));
        long long n = json_integer_value(json_array_get(from, 0));
        long long s = json_integer_value(json_array_get(from, 1));
        long long i = json_integer_value(json_array_get(from, 2));
        ASSERT(i >= 0 && i < resol_ext_dim(R, (int32_t)s, (int32_t)n));
        long long tn = n + (1LL << h) - 1, ts = s + 1;
        ASSERT(tn <= n_max && ts <= s_max);
        f2mat_t m;
        ASSERT_EQ(resol_h_matrix(R, (int)h, (int32_t)s, (int32_t)(s + n), &m), 0);
        ASSERT(m.rows > 0);
        /* "to" lists exactly the nonzero entries of column i, ascending. */
        size_t j = 0;
        for (int64_t g = 0; g < m.rows; g++) {
            if (!f2mat_get(&m, g, i))
                continue;
            json_t *e = json_array_get(to, j++);
            ASSERT(json_array_size(e) == 3);
            ASSERT_EQ(json_integer_value(json_array_get(e, 0)), tn);
            ASSERT_EQ(json_integer_value(json_array_get(e, 1)), ts);
            ASSERT_EQ(json_integer_value(json_array_get(e, 2)), g);
        }
        ASSERT_EQ(json_array_size(to), j);
        per_h[h] += (int64_t)j;
        f2mat_clear(&m);
    }
    for (int h = 0; h < MAX_H && (1 << h) - 1 <= n_max - n_min; h++)
        ASSERT_EQ(per_h[h], h_entries(R, h, n_min, n_max, s_max));
    json_decref(doc);
}

TEST(chart_json_s2_counts)
{
    fdmod_t *M;
    resol_t *R = sphere(&M);
    char *text = write_to_string(sq_chart_write_json, R, NULL, 0, MAX_N, MAX_S);
    check_json(text, R, "S_2", 0, MAX_N, MAX_S);
    /* The counts of the picture's lines are the JSON's entries of h_0..h_2. */
    char *svg = write_to_string(sq_chart_write_svg, R, NULL, 0, MAX_N, MAX_S);
    json_t *doc = json_loads(text, 0, NULL);
    int64_t lines[SQ_CHART_SVG_NUM_H] = {0};
    size_t k;
    json_t *p;
    json_array_foreach(json_object_get(doc, "products"), k, p)
    {
        long long h = json_integer_value(json_object_get(p, "h"));
        if (h < SQ_CHART_SVG_NUM_H)
            lines[h] += (int64_t)json_array_size(json_object_get(p, "to"));
    }
    for (int i = 0; i < SQ_CHART_SVG_NUM_H; i++) {
        char needle[32];
        snprintf(needle, sizeof needle, "<line class=\"h%d\"", i);
        ASSERT_EQ(count(svg, needle), lines[i]);
    }
    ASSERT_EQ(count(svg, "<circle "), json_array_size(json_object_get(doc, "classes")));
    json_decref(doc);
    free(svg);
    free(text);
    /* A name with characters JSON escapes. */
    text = write_to_string(sq_chart_write_json, R, "q\"\\\n", 0, 6, 3);
    check_json(text, R, "q\"\\\n", 0, 6, 3);
    free(text);
    resol_free(R);
    fdmod_free(M);
}

/* A shipped module, loaded from modules/ in the sources. */
static fdmod_t *shipped(const char *name)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/../../modules/%s.json", SQ_TEST_DATA_DIR, name);
    fdmod_t *M = NULL;
    if (sq_modspec_load_file(&M, path, path, NULL, err, sizeof err) != 0)
        sq_test_fail(__FILE__, __LINE__, "%s: %s", name, err);
    return M;
}

TEST(chart_other_modules)
{
    /* Joker: several generators in some bidegrees, cells in degrees 0..4. */
    fdmod_t *M = shipped("Joker");
    resol_t *R = resol_new(M, 10, 24);
    resol_run(R, RESOL_CLASSICAL);
    int wide = 0;
    for (int32_t n = 0; n <= 24; n++)
        for (int32_t s = 0; s <= 10; s++)
            wide |= resol_ext_dim(R, s, n) > 1;
    ASSERT(wide);
    char *svg = write_to_string(sq_chart_write_svg, R, NULL, 0, 24, 10);
    check_svg(svg, R, 0, 24, 10);
    free(svg);
    char *text = write_to_string(sq_chart_write_json, R, NULL, 0, 24, 10);
    check_json(text, R, fdmod_name(M), 0, 24, 10);
    free(text);
    resol_free(R);
    fdmod_free(M);

    /* ko = Ext over A(1): Sq^4 is not in A(1), so h_2 does not act. */
    M = shipped("ko");
    R = resol_new(M, 12, 20);
    resol_run(R, RESOL_CLASSICAL);
    ASSERT(!resol_has_h(R, 2));
    svg = write_to_string(sq_chart_write_svg, R, NULL, 0, 20, 12);
    check_svg(svg, R, 0, 20, 12);
    ASSERT_EQ(count(svg, "<line class=\"h2\""), 0);
    ASSERT_EQ(count(svg, SQ_CHART_SVG_H2_COLOUR), 0); /* not in the legend either */
    ASSERT(count(svg, "<line class=\"h1\"") > 0);
    free(svg);
    resol_free(R);
    fdmod_free(M);
}

TEST(chart_write_error)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        printf("SKIP: no /dev/full here\n");
        exit(77);
    }
    fdmod_t *M;
    resol_t *R = sphere(&M);
    /* The SVG through stem 30 is far larger than stdio's buffer. */
    ASSERT_EQ(sq_chart_write_svg(f, R, NULL, 0, MAX_N, MAX_S), SQ_E_IO);
    fclose(f);
    f = fopen("/dev/full", "w");
    ASSERT(f != NULL);
    ASSERT_EQ(sq_chart_write_json(f, R, NULL, 0, MAX_N, MAX_S), SQ_E_IO);
    fclose(f);
    resol_free(R);
    fdmod_free(M);
}

/* ---- Through the program ------------------------------------------------- */

/* A fresh folder under /tmp for one test's files (removed by rm_dir). */
static void make_dir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/adams-t-chart-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
}

static void rm_dir(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_EQ(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    ASSERT(fputs(text, f) >= 0);
    ASSERT_EQ(fclose(f), 0);
}

/* adams ARGS (a printf format) must exit with `want`; returns its stdout
 * (free with sq_free); its stderr goes to *err when err is not NULL. */
static char *run_ok(int want, char **err, const char *fmt, ...) SQ_PRINTF(3, 4);
static char *run_ok(int want, char **err, const char *fmt, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *out, *e;
    int rc = sq_test_run_adams(args, &out, &e);
    if (rc != want)
        sq_test_fail(__FILE__, __LINE__, "adams %s: exit %d, want %d; stderr: %s", args, rc, want,
                     e);
    if (err)
        *err = e;
    else
        sq_free(e);
    return out;
}

/* The peer's tmf_RP.json: RP_{-16}^{-1} over A(2) with clear_bottom, whose
 * bottom cell is raised to -9 (the next degree that is -1 mod 8) and whose
 * cells -8, -7, -6, -4, 0 are dropped. */
static const char tmf_rp[] =
    "{\"p\": 2, \"algebra\": [\"milnor\"],\n"
    " \"profile\": {\"truncated\": true, \"p_part\": [3, 2, 1]},\n"
    " \"type\": \"real projective space\", \"min\": -16, \"max\": -1, \"clear_bottom\": true}\n";

/* Issue 20 row 4 (chart aborted: its region began at the file's min -16, the
 * resolution at the raised -9) and row 14 (resolve began its chart at -16,
 * its default --max-s came from the unraised bottom, and ext of a store of
 * the same run began at -9): every verb now starts at the raised bottom,
 * with one default filtration, and ext equals resolve byte for byte. */
TEST(chart_clear_bottom_region)
{
    char dir[64], mod[128], db[128];
    make_dir(dir, sizeof dir);
    snprintf(mod, sizeof mod, "%s/tmf_RP.json", dir);
    snprintf(db, sizeof db, "%s/t.db", dir);
    write_file(mod, tmf_rp);

    /* (20 - (-9))/2 + 3 + span (-1 - (-9) = 8) = 25. */
    char *err;
    char *json = run_ok(0, &err, "chart '%s' --stem 20 --format json", mod);
    ASSERT(strstr(err, "using 25 ") != NULL);
    sq_free(err);
    json_t *doc = json_loads(json, 0, NULL);
    ASSERT(doc != NULL);
    ASSERT_EQ(json_integer_value(json_object_get(doc, "min_n")), -9);
    ASSERT_EQ(json_integer_value(json_object_get(doc, "max_n")), 20);
    ASSERT_EQ(json_integer_value(json_object_get(doc, "max_s")), 25);
    /* The bottom class x_(-9, 0, 0): the cell x_{-9} generates. */
    json_t *first = json_array_get(json_object_get(doc, "classes"), 0);
    ASSERT_EQ(json_integer_value(json_object_get(first, "n")), -9);
    ASSERT_EQ(json_integer_value(json_object_get(first, "s")), 0);
    json_decref(doc);
    sq_free(json);
    char *svg = run_ok(0, NULL, "chart '%s' --stem 20", mod);
    ASSERT(strncmp(svg, "<svg ", 5) == 0);
    ASSERT(strstr(svg, "<title>x_(-9, 0, 0)</title>") != NULL);
    sq_free(svg);

    char *csv = run_ok(0, &err, "resolve '%s' --stem 20 --format csv", mod);
    ASSERT(strstr(err, "using 25 ") != NULL);
    sq_free(err);
    ASSERT(strncmp(csv, "-9,0,1\n", 7) == 0);
    ASSERT_EQ(sq_test_count_lines(csv), (20 - (-9) + 1) * (25 + 1));
    sq_free(csv);
    char *dots = run_ok(0, NULL, "resolve '%s' --stem 20", mod);
    char *saved = run_ok(0, NULL, "resolve '%s' --stem 20 --save '%s'", mod, db);
    char *ext = run_ok(0, NULL, "ext '%s'", db);
    ASSERT_STR_EQ(saved, dots);
    ASSERT_STR_EQ(ext, dots);
    /* One two-character column per stem -9..20 (the glyphs are UTF-8). */
    ASSERT(strncmp(dots, "\xc2\xb7 ", 3) == 0);
    sq_free(dots);
    sq_free(saved);
    sq_free(ext);
    rm_dir(dir);
}

/* A "max" below the raised bottom would be the zero module; a raised bottom
 * beyond the largest degree cannot be built: one line each, exit 2. */
TEST(chart_clear_bottom_refusals)
{
    char dir[64], mod[128];
    make_dir(dir, sizeof dir);
    snprintf(mod, sizeof mod, "%s/m.json", dir);
    write_file(mod, "{\"p\": 2, \"profile\": {\"truncated\": true, \"p_part\": [3, 2, 1]},\n"
                    " \"type\": \"real projective space\", \"min\": -16, \"max\": -12,\n"
                    " \"clear_bottom\": true}\n");
    char *err;
    sq_free(run_ok(2, &err, "resolve '%s' --stem 10", mod));
    ASSERT(strstr(err, "raises \"min\" -16 to -9, above \"max\" -12") != NULL);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    sq_free(err);
    write_file(mod, "{\"p\": 2, \"profile\": {\"truncated\": true, \"p_part\": [3, 2, 1]},\n"
                    " \"type\": \"real projective space\", \"min\": 10000, \"clear_bottom\": true}\n");
    sq_free(run_ok(2, &err, "resolve '%s' --stem 10", mod));
    ASSERT(strstr(err, "raises \"min\" 10000 to 10007, beyond the largest degree 10000") != NULL);
    ASSERT_EQ(sq_test_count_lines(err), 1);
    sq_free(err);
    rm_dir(dir);
}

/* Issue 20 row 18: an infinite module shifted far up, asked for a stem below
 * its bottom, said "module ... is zero" (what the loader builds is the
 * module truncated to degrees <= stem + 2, here nothing): the stem is what
 * is wrong, and the message says so, with the bottom degree. */
TEST(range_stem_below_shifted_bottom)
{
    static const char *const cases[][2] = {
        {"resolve 'RP_inf[10000]' --stem 20",
         "stem 20 is below the bottom degree 10001 of RP_inf[10000]"},
        {"resolve 'A_mod_A1[9000]' --stem 20",
         "stem 20 is below the bottom degree 9000 of A_mod_A1[9000]"},
        {"products 'RP_inf[10000]' --stem 20", "stem 20 is below the bottom degree 10001"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *err;
        sq_free(run_ok(2, &err, "%s", cases[k][0]));
        if (!strstr(err, cases[k][1]) || strstr(err, "is zero") || sq_test_count_lines(err) != 1)
            sq_test_fail(__FILE__, __LINE__, "adams %s: %s", cases[k][0], err);
        sq_free(err);
    }
    /* The library's own check, on the truncated module. */
    char err[256];
    fdmod_t *M = NULL;
    sq_modspec_opts_t o = {.shift = 10000, .have_max_degree = 1, .max_degree = 22};
    char path[4096];
    snprintf(path, sizeof path, "%s/../../modules/RP_inf.json", SQ_TEST_DATA_DIR);
    ASSERT_EQ(sq_modspec_load_file(&M, path, NULL, &o, err, sizeof err), 0);
    ASSERT_EQ(resol_check_range(M, 5, 20, err, sizeof err), SQ_E_RANGE);
    ASSERT(strstr(err, "stem 20 is below the bottom degree 10001") != NULL);
    fdmod_free(M);
}

/* ---- Golden files (issue 19) --------------------------------------------- *
 *
 * The writers' whole output for S_2 through (20, 13) and C2 through (12, 10)
 * (the program's default filtrations for --stem 20 and --stem 12) must equal
 * tests/data/golden/ byte for byte, from the library and from the program.
 * The goldens themselves are checked against what is known independently of
 * adams (tests/data/README.md): the classes against the peer's tables, the
 * lines against products known since Adams and May, read off the picture
 * (each line's ends are the centres of two dots with their titles) and off
 * the JSON. */

/* A product fact: h_h from the cell (n, s) reaches the cell (n + 2^h - 1,
 * s + 1) (present = 1: some class of the source has a nonzero product
 * there), or no class of the source has a nonzero h_h product (0). */
typedef struct {
    int h, n, s, present;
} fact_t;

/* Known in Ext of the sphere (Adams, May; e.g. Isaksen's charts): the
 * h_0-towers on 1 (every s), h_2 (3 long), h_3 (4), Ph_2 (3), h_4 (8),
 * h_3^2 (2), d_0 (3), e_0, g (3), P^2 h_2 (3); h_1 on 1, h_1, h_1^2, h_3,
 * h_1 h_3, c_0, P h_1, h_4, h_1 h_4, d_0, P^2 h_1; h_2 on 1, h_0, h_0^2, h_2,
 * h_2^2 (h_2^3 = h_1^2 h_3), h_4, h_0 h_4, d_0 (h_2 d_0 = h_0 e_0), P h_2
 * (= h_0^2 d_0).  And the zeros: h_0 h_1 = 0, h_0^3 h_2 = 0, h_0^4 h_3 = 0,
 * h_0 c_0 = 0, h_0 P h_1 = 0, h_0^8 h_4 = 0, h_0 h_1 h_3 = 0, h_1^4 = 0,
 * h_1 h_2 = 0, h_2 h_3 = 0, h_1 P h_2 = 0, h_1 h_0 h_4 = 0. */
static const fact_t s2_facts[] = {
    {0, 0, 0, 1},  {0, 0, 5, 1},  {0, 0, 12, 1}, {0, 3, 1, 1},  {0, 3, 2, 1},  {0, 7, 1, 1},
    {0, 7, 2, 1},  {0, 7, 3, 1},  {0, 11, 5, 1}, {0, 11, 6, 1}, {0, 14, 2, 1}, {0, 14, 4, 1},
    {0, 14, 5, 1}, {0, 15, 1, 1}, {0, 15, 4, 1}, {0, 15, 7, 1}, {0, 17, 4, 1}, {0, 19, 9, 1},
    {0, 19, 10, 1}, {0, 20, 4, 1}, {0, 20, 5, 1}, {1, 0, 0, 1},  {1, 1, 1, 1},  {1, 2, 2, 1},
    {1, 7, 1, 1},  {1, 8, 2, 1},  {1, 8, 3, 1},  {1, 9, 5, 1},  {1, 15, 1, 1}, {1, 16, 2, 1},
    {1, 14, 4, 1}, {1, 17, 9, 1}, {2, 0, 0, 1},  {2, 0, 1, 1},  {2, 0, 2, 1},  {2, 3, 1, 1},
    {2, 6, 2, 1},  {2, 15, 1, 1}, {2, 15, 2, 1}, {2, 14, 4, 1}, {2, 11, 5, 1},
    {0, 1, 1, 0},  {0, 2, 2, 0},  {0, 3, 3, 0},  {0, 7, 4, 0},  {0, 8, 2, 0},  {0, 8, 3, 0},
    {0, 9, 5, 0},  {0, 15, 8, 0}, {0, 16, 2, 0}, {0, 14, 6, 0}, {1, 0, 1, 0},  {1, 0, 5, 0},
    {1, 3, 1, 0},  {1, 3, 3, 0},  {1, 7, 2, 0},  {1, 11, 5, 0}, {1, 15, 2, 0}, {2, 1, 1, 0},
    {2, 7, 1, 0},  {2, 2, 2, 0},
};

/* Known in Ext of the Moore spectrum C2 (the long exact sequence of
 * multiplication by h_0): the bottom class i has h_0 i = 0, h_1 i and h_2 i
 * nonzero; h_1 on h_1 i; the lift of h_1 to the top cell (2, 1) has h_0
 * times it = h_1^2 i (<h_0, h_1, h_0> = h_1^2) and h_1 times it nonzero
 * (it maps to h_1^2 on the top cell); h_0 h_1 i = 0 and h_1 h_2 i = 0. */
static const fact_t c2_facts[] = {
    {1, 0, 0, 1}, {2, 0, 0, 1}, {1, 1, 1, 1}, {0, 2, 1, 1}, {1, 2, 1, 1},
    {0, 0, 0, 0}, {0, 1, 1, 0}, {1, 3, 1, 0},
};

/* A product line read off a golden: the filtration-one class h (h_h at
 * p = 2; a_0 for h = 0 and h_{h-1} for h >= 1 at odd p), source class,
 * target class, and the coefficient c (JSON; 0 for a line of the SVG,
 * which does not show it). */
typedef struct {
    int h, n, s, i, n2, s2, i2, c;
} pline_t;

/* The stem of filtration-one class h at the prime p, from the definitions
 * (not from the library): 2^h - 1 at p = 2; 0 (a_0) and 2(p - 1)p^{h-1} - 1
 * at odd p. */
static int filt1_stem(int p, int h)
{
    if (p == 2)
        return (1 << h) - 1;
    if (h == 0)
        return 0;
    int t = 2 * (p - 1);
    for (int j = 1; j < h; j++)
        t *= p;
    return t - 1;
}

/* The class of a line's SVG class or JSON "by" name: "hI" is I at p = 2
 * and I + 1 at odd p, "a0" is 0 at odd p; -1 for anything else. */
static int filt1_index(int p, const char *name)
{
    int i, used = 0;
    if (p != 2 && strcmp(name, "a0") == 0)
        return 0;
    if (sscanf(name, "h%d%n", &i, &used) != 1 || name[used] != '\0' || i < 0 || i > 29)
        return -1;
    return p == 2 ? i : i + 1;
}

/* The number of classes the SVG draws at p. */
static int svg_drawn(int p)
{
    return p == 2 ? SQ_CHART_SVG_NUM_H : SQ_CHART_SVG_NUM_ODD;
}

typedef struct {
    pline_t *v;
    int64_t len, cap;
} plines_t;

static void plines_add(plines_t *L, pline_t p)
{
    if (L->len == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->v = sq_realloc(L->v, (size_t)L->cap * sizeof *L->v);
    }
    L->v[L->len++] = p;
}

/* The dimensions of a table "n,s,dim" ('#' lines skipped) over the region,
 * into dims[(n - n_min) * (s_max + 1) + s]; every cell of the region must
 * be listed. */
static void read_table(const char *file, int32_t n_min, int32_t n_max, int32_t s_max,
                       int64_t *dims)
{
    char *text = sq_test_slurp(sq_test_data_path(file));
    ASSERT(text[0] != '\0');
    int64_t cells = (int64_t)(n_max - n_min + 1) * (s_max + 1), seen = 0;
    for (int64_t c = 0; c < cells; c++)
        dims[c] = -1;
    for (char *line = text; *line;) {
        char *next = strchr(line, '\n');
        int n, s;
        long long d;
        if (line[0] != '#' && sscanf(line, "%d,%d,%lld", &n, &s, &d) == 3 && n >= n_min &&
            n <= n_max && s >= 0 && s <= s_max) {
            dims[(int64_t)(n - n_min) * (s_max + 1) + s] = d;
            seen++;
        }
        line = next ? next + 1 : line + strlen(line);
    }
    ASSERT_EQ(seen, cells);
    sq_free(text);
}

/* The classes and lines of a golden SVG at the prime p: every circle
 * titled x_(n, s, i), every line's two ends the centres of two circles. */
static void svg_lines(const char *svg, int p, int64_t *dims, int32_t n_min, int32_t s_max,
                      plines_t *L)
{
    typedef struct {
        double x, y;
        int n, s, i;
    } dot_t;
    dot_t *dots = NULL;
    int64_t ndots = 0;
    for (const char *q = strstr(svg, "<circle "); q; q = strstr(q + 1, "<circle ")) {
        dot_t d;
        ASSERT_EQ(sscanf(q, "<circle cx=\"%lf\" cy=\"%lf\" r=\"%*f\"><title>x_(%d, %d, %d)</title>",
                         &d.x, &d.y, &d.n, &d.s, &d.i),
                  5);
        dots = sq_realloc(dots, (size_t)(ndots + 1) * sizeof *dots);
        dots[ndots++] = d;
        dims[(int64_t)(d.n - n_min) * (s_max + 1) + d.s]++;
    }
    for (const char *q = strstr(svg, "<line "); q; q = strstr(q + 1, "<line ")) {
        char name[8];
        double x1, y1, x2, y2;
        ASSERT_EQ(sscanf(q,
                         "<line class=\"%7[a-z0-9]\" x1=\"%lf\" y1=\"%lf\" x2=\"%lf\" "
                         "y2=\"%lf\"/>",
                         name, &x1, &y1, &x2, &y2),
                  5);
        int h = filt1_index(p, name);
        if (h < 0 || h >= svg_drawn(p))
            sq_test_fail(__FILE__, __LINE__, "a line of class '%s' at p = %d", name, p);
        int a = -1, b = -1;
        for (int64_t k = 0; k < ndots; k++) {
            if (fabs(dots[k].x - x1) < 0.01 && fabs(dots[k].y - y1) < 0.01)
                a = (int)k;
            if (fabs(dots[k].x - x2) < 0.01 && fabs(dots[k].y - y2) < 0.01)
                b = (int)k;
        }
        if (a < 0 || b < 0)
            sq_test_fail(__FILE__, __LINE__, "a line whose ends are not dots: %.80s", q);
        plines_add(L, (pline_t){h, dots[a].n, dots[a].s, dots[a].i, dots[b].n, dots[b].s,
                                dots[b].i, 0});
    }
    sq_free(dots);
}

/* The classes and the nonzero products by the classes h < max_h of a
 * golden JSON at the prime p ("h" at p = 2, "by" and the coefficients at
 * odd p). */
static void json_lines(const char *text, int p, int max_h, int64_t *dims, int32_t n_min,
                       int32_t s_max, plines_t *L)
{
    json_t *doc = json_loads(text, 0, NULL);
    ASSERT(doc != NULL);
    if (p == 2)
        ASSERT(json_object_get(doc, "prime") == NULL);
    else
        ASSERT_EQ(json_integer_value(json_object_get(doc, "prime")), p);
    size_t k, j;
    json_t *cl, *e;
    json_array_foreach(json_object_get(doc, "classes"), k, cl)
    {
        int n = (int)json_integer_value(json_object_get(cl, "n"));
        int s = (int)json_integer_value(json_object_get(cl, "s"));
        dims[(int64_t)(n - n_min) * (s_max + 1) + s]++;
    }
    json_t *r;
    json_array_foreach(json_object_get(doc, "products"), k, r)
    {
        int h = p == 2 ? (int)json_integer_value(json_object_get(r, "h"))
                       : filt1_index(p, json_string_value(json_object_get(r, "by")));
        ASSERT(h >= 0 && json_object_get(r, p == 2 ? "by" : "h") == NULL);
        json_t *from = json_object_get(r, "from");
        if (h >= max_h)
            continue;
        json_array_foreach(json_object_get(r, "to"), j, e)
        {
            /* [n, s, g] at p = 2 (coefficient 1), [n, s, g, c] at odd p. */
            ASSERT_EQ(json_array_size(e), p == 2 ? 3 : 4);
            int c = p == 2 ? 1 : (int)json_integer_value(json_array_get(e, 3));
            ASSERT(c >= 1 && c < p);
            plines_add(L, (pline_t){h, (int)json_integer_value(json_array_get(from, 0)),
                                    (int)json_integer_value(json_array_get(from, 1)),
                                    (int)json_integer_value(json_array_get(from, 2)),
                                    (int)json_integer_value(json_array_get(e, 0)),
                                    (int)json_integer_value(json_array_get(e, 1)),
                                    (int)json_integer_value(json_array_get(e, 2)), c});
        }
    }
    json_decref(doc);
}

/* The lines agree with the facts, and every line goes from (n, s) to
 * (n + the stem of its class, s + 1). */
static void check_facts(const plines_t *L, int p, const fact_t *facts, size_t nfacts,
                        const char *what)
{
    for (int64_t k = 0; k < L->len; k++) {
        const pline_t *l = &L->v[k];
        ASSERT(l->h >= 0 && l->h < svg_drawn(p));
        ASSERT_EQ(l->n2, l->n + filt1_stem(p, l->h));
        ASSERT_EQ(l->s2, l->s + 1);
    }
    for (size_t f = 0; f < nfacts; f++) {
        int found = 0;
        for (int64_t k = 0; k < L->len; k++)
            found |= L->v[k].h == facts[f].h && L->v[k].n == facts[f].n &&
                     L->v[k].s == facts[f].s;
        if (found != facts[f].present)
            sq_test_fail(__FILE__, __LINE__, "%s: class %d on (%d, %d) is %s, known to be %s",
                         what, facts[f].h, facts[f].n, facts[f].s, found ? "drawn" : "missing",
                         facts[f].present ? "nonzero" : "zero");
    }
}

/* The same set of lines (order aside: both are written in one order), the
 * coefficients too when both sides have them. */
static void same_lines(const plines_t *a, const plines_t *b)
{
    ASSERT_EQ(a->len, b->len);
    for (int64_t k = 0; k < a->len; k++) {
        int found = 0;
        for (int64_t j = 0; j < b->len && !found; j++) {
            pline_t x = a->v[k], y = b->v[j];
            if (!x.c || !y.c)
                x.c = y.c = 0;
            found = memcmp(&x, &y, sizeof x) == 0;
        }
        if (!found)
            sq_test_fail(__FILE__, __LINE__,
                         "class %d on x_(%d, %d, %d) -> x_(%d, %d, %d) (coefficient %d) is "
                         "only on one side",
                         a->v[k].h, a->v[k].n, a->v[k].s, a->v[k].i, a->v[k].n2, a->v[k].s2,
                         a->v[k].i2, a->v[k].c);
    }
}

/* Known in Ext of the 3-primary sphere (class 0 is a_0, class 1 is h_0):
 * the a_0-tower on 1 (every s); h_0 on 1 (alpha_1); a_0 h_0 = 0 and
 * h_0^2 = 0 (their groups (3, 2) and (6, 2) are zero) and h_0 a_0 = 0;
 * a_0 b_0 != 0 (Toda's d_2 h_1 = a_0 b_0); a_0 h_1 != 0 (Liulevicius's
 * basis of Ext^2); h_0 b_0 != 0 (it detects alpha_1 beta_1 != 0 in stem
 * 13, whose only class in Ext is in filtration 3). */
static const fact_t s3_facts[] = {
    {0, 0, 0, 1},  {0, 0, 1, 1}, {0, 0, 7, 1},  {0, 0, 14, 1}, {1, 0, 0, 1}, {0, 10, 2, 1},
    {0, 11, 1, 1}, {1, 10, 2, 1}, {0, 3, 1, 0}, {1, 3, 1, 0},  {1, 0, 1, 0},
};

typedef struct {
    const char *module, *svg, *json, *table;
    int p;
    int32_t n_max, s_max;
    const fact_t *facts;
    size_t nfacts;
} golden_t;

static const golden_t goldens[] = {
    {"S_2", "golden/chart-S2-n20-s13.svg", "golden/chart-S2-n20-s13.json", "ext-S2-n60-s40.csv", 2,
     20, 13, s2_facts, sizeof s2_facts / sizeof s2_facts[0]},
    {"C2", "golden/chart-C2-n12-s10.svg", "golden/chart-C2-n12-s10.json",
     "peer-corpus/C2-n30-s20.csv", 2, 12, 10, c2_facts, sizeof c2_facts / sizeof c2_facts[0]},
    {"S_3", "golden/chart-S3-n24-s15.svg", "golden/chart-S3-n24-s15.json", "ext-S3-n100-s30.csv",
     3, 24, 15, s3_facts, sizeof s3_facts / sizeof s3_facts[0]},
};

/* The goldens are right: their classes are the peer's Ext, their lines
 * the known products, and the picture draws what the JSON lists. */
TEST(chart_golden_files_are_right)
{
    for (size_t g = 0; g < sizeof goldens / sizeof goldens[0]; g++) {
        const golden_t *G = &goldens[g];
        int64_t cells = (int64_t)(G->n_max + 1) * (G->s_max + 1);
        int64_t *want = sq_calloc((size_t)cells, sizeof *want);
        int64_t *in_svg = sq_calloc((size_t)cells, sizeof *in_svg);
        int64_t *in_json = sq_calloc((size_t)cells, sizeof *in_json);
        read_table(G->table, 0, G->n_max, G->s_max, want);
        char *svg = sq_test_slurp(sq_test_data_path(G->svg));
        char *json = sq_test_slurp(sq_test_data_path(G->json));
        ASSERT(svg[0] != '\0' && json[0] != '\0');
        check_xml_shape(svg);
        plines_t ls = {0}, lj = {0};
        svg_lines(svg, G->p, in_svg, 0, G->s_max, &ls);
        json_lines(json, G->p, svg_drawn(G->p), in_json, 0, G->s_max, &lj);
        for (int64_t c = 0; c < cells; c++) {
            ASSERT_EQ(in_svg[c], want[c]);
            ASSERT_EQ(in_json[c], want[c]);
        }
        check_facts(&ls, G->p, G->facts, G->nfacts, G->svg);
        check_facts(&lj, G->p, G->facts, G->nfacts, G->json);
        same_lines(&ls, &lj);
        sq_free(ls.v);
        sq_free(lj.v);
        sq_free(svg);
        sq_free(json);
        sq_free(want);
        sq_free(in_svg);
        sq_free(in_json);
    }
}

/* The writers equal the goldens byte for byte: from the library (the
 * classical engine, as auto picks at these stems) and from the program. */
TEST(chart_golden_files_equal_writers)
{
    for (size_t g = 0; g < sizeof goldens / sizeof goldens[0]; g++) {
        const golden_t *G = &goldens[g];
        /* The spheres built in the library (the odd golden is S_3's); the
         * program reads modules/. */
        fdmod_t *M = strcmp(G->module, "S_2") == 0 ? fdmod_sphere()
                     : G->p != 2                   ? fdmod_sphere_p((uint32_t)G->p)
                                                   : shipped(G->module);
        resol_t *R = resol_new(M, G->s_max, G->n_max);
        resol_run(R, RESOL_CLASSICAL);
        char *svg = write_to_string(sq_chart_write_svg, R, fdmod_name(M), 0, G->n_max, G->s_max);
        char *json =
            write_to_string(sq_chart_write_json, R, fdmod_name(M), 0, G->n_max, G->s_max);
        char *want_svg = sq_test_slurp(sq_test_data_path(G->svg));
        char *want_json = sq_test_slurp(sq_test_data_path(G->json));
        ASSERT_STR_EQ(svg, want_svg);
        ASSERT_STR_EQ(json, want_json);
        free(svg);
        free(json);
        char *out = run_ok(0, NULL, "chart %s --stem %d --max-s %d --quiet", G->module,
                           (int)G->n_max, (int)G->s_max);
        ASSERT_STR_EQ(out, want_svg);
        sq_free(out);
        out = run_ok(0, NULL, "chart %s --stem %d --max-s %d --format json --quiet", G->module,
                     (int)G->n_max, (int)G->s_max);
        ASSERT_STR_EQ(out, want_json);
        sq_free(out);
        sq_free(want_svg);
        sq_free(want_json);
        resol_free(R);
        fdmod_free(M);
    }
}

/* The nonzero entries of the matrices of the filtration-one classes
 * h < max_h of R (resol_filt1_matrix) whose source and target lie in the
 * region, as lines with their coefficients; each class's stem is checked
 * against its definition and each matrix's size against Ext. */
static void matrix_lines(const resol_t *R, int max_h, int32_t n_min, int32_t n_max,
                         int32_t s_max, plines_t *L)
{
    int p = (int)resol_prime(R);
    for (int h = 0; h < max_h; h++) {
        int32_t deg = resol_filt1_degree(R, h);
        if (deg < 0)
            continue;
        ASSERT_EQ(deg - 1, filt1_stem(p, h));
        for (int32_t n = n_min; n + deg - 1 <= n_max; n++)
            for (int32_t s = 0; s + 1 <= s_max; s++) {
                fmat_t m;
                ASSERT_EQ(resol_filt1_matrix(R, h, s, s + n, &m), 0);
                ASSERT_EQ(fmat_rows(&m), resol_ext_dim(R, s + 1, n + deg - 1));
                ASSERT_EQ(fmat_cols(&m), resol_ext_dim(R, s, n));
                for (int64_t g = 0; g < fmat_rows(&m); g++)
                    for (int64_t j = 0; j < fmat_cols(&m); j++) {
                        int c = (int)fmat_get(&m, g, j);
                        if (c)
                            plines_add(L, (pline_t){h, n, s, (int)j, n + deg - 1, s + 1, (int)g,
                                                    c});
                    }
                fmat_clear(&m);
            }
    }
}

/* At p = 3 and p = 5 the chart's lines are the products, cell by cell: the
 * SVG draws one line per nonzero entry of the matrices of a_0 and h_0 (and
 * nothing else), the JSON lists every nonzero entry of every class whose
 * target lies in the region (h_1, h_2 too) with its coefficient; dots and
 * classes are Ext; the legend and the description name a0 and h0. */
TEST(chart_odd_lines_equal_products)
{
    static const struct {
        int p;
        int32_t n_max, s_max;
    } cases[] = {{3, 40, 14}, {5, 50, 10}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int p = cases[c].p;
        int32_t n_max = cases[c].n_max, s_max = cases[c].s_max;
        fdmod_t *M = fdmod_sphere_p((uint32_t)p);
        resol_t *R = resol_new(M, s_max, n_max);
        resol_run(R, RESOL_CLASSICAL);
        char *svg = write_to_string(sq_chart_write_svg, R, NULL, 0, n_max, s_max);
        char *json = write_to_string(sq_chart_write_json, R, NULL, 0, n_max, s_max);
        check_xml_shape(svg);
        int64_t cells = (int64_t)(n_max + 1) * (s_max + 1);
        int64_t *in_svg = sq_calloc((size_t)cells, sizeof *in_svg);
        int64_t *in_json = sq_calloc((size_t)cells, sizeof *in_json);
        plines_t ls = {0}, lj = {0}, want_s = {0}, want_j = {0};
        svg_lines(svg, p, in_svg, 0, s_max, &ls);
        json_lines(json, p, 31, in_json, 0, s_max, &lj);
        for (int32_t n = 0; n <= n_max; n++)
            for (int32_t s = 0; s <= s_max; s++) {
                ASSERT_EQ(in_svg[(int64_t)n * (s_max + 1) + s], resol_ext_dim(R, s, n));
                ASSERT_EQ(in_json[(int64_t)n * (s_max + 1) + s], resol_ext_dim(R, s, n));
            }
        matrix_lines(R, SQ_CHART_SVG_NUM_ODD, 0, n_max, s_max, &want_s);
        matrix_lines(R, 31, 0, n_max, s_max, &want_j);
        same_lines(&ls, &want_s);
        same_lines(&lj, &want_j);
        /* The region holds a_0, h_0, h_1 (stem 11 at p = 3, 39 at p = 5)
         * and at p = 3 h_2 (stem 35): the JSON has lines of each. */
        int seen[4] = {0};
        for (int64_t k = 0; k < lj.len; k++)
            if (lj.v[k].h < 4)
                seen[lj.v[k].h] = 1;
        ASSERT(seen[0] && seen[1] && seen[2] && seen[3] == (p == 3));
        ASSERT(count(svg, "<line class=\"a0\"") > 0 && count(svg, "<line class=\"h0\"") > 0);
        ASSERT_EQ(count(svg, "<g class=\"a0\" stroke=\"" SQ_CHART_SVG_H0_COLOUR "\""), 1);
        ASSERT_EQ(count(svg, "<g class=\"h0\" stroke=\"" SQ_CHART_SVG_H1_COLOUR "\""), 1);
        ASSERT_EQ(count(svg, "<g class="), 3); /* a0, h0 and the dots */
        ASSERT_EQ(count(svg, SQ_CHART_SVG_H2_COLOUR), 0);
        char want[160];
        snprintf(want, sizeof want,
                 "a<tspan font-size=\"10\" baseline-shift=\"sub\">0</tspan> (%d, vertical)", p);
        ASSERT(strstr(svg, want) != NULL);
        snprintf(want, sizeof want, "slope 1/%d)", 2 * p - 3);
        ASSERT(strstr(svg, want) != NULL);
        snprintf(want, sizeof want, "over the mod %d Steenrod algebra", p);
        ASSERT(strstr(svg, want) != NULL);
        ASSERT(strstr(svg, "with the products by a0 and h0 (written by adams)") != NULL);
        sq_free(ls.v);
        sq_free(lj.v);
        sq_free(want_s.v);
        sq_free(want_j.v);
        sq_free(in_svg);
        sq_free(in_json);
        free(svg);
        free(json);
        resol_free(R);
        fdmod_free(M);
    }
}

/* The commands: `adams chart S_3 --stem 60 -o FILE` (the default
 * filtration at p = 3, 60/4 + 3 = 18: resol_default_max_s) and `--format json` at p = 5 write what the
 * library writes for the same region. */
TEST(chart_odd_program)
{
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/s3.svg", dir);
    sq_free(run_ok(0, NULL, "chart S_3 --stem 60 -o %s --quiet", path));
    char *file = sq_test_slurp(path);
    fdmod_t *M = fdmod_sphere_p(3);
    resol_t *R = resol_new(M, 18, 60);
    resol_run(R, RESOL_CLASSICAL);
    char *svg = write_to_string(sq_chart_write_svg, R, NULL, 0, 60, 18);
    ASSERT_STR_EQ(file, svg);
    ASSERT(count(svg, "<line class=\"a0\"") > 30 && count(svg, "<line class=\"h0\"") > 30);
    free(svg);
    sq_free(file);
    resol_free(R);
    fdmod_free(M);
    char *out = run_ok(0, NULL, "chart S_5 --stem 40 --max-s 12 --format json --quiet");
    M = fdmod_sphere_p(5);
    R = resol_new(M, 12, 40);
    resol_run(R, RESOL_CLASSICAL);
    char *json = write_to_string(sq_chart_write_json, R, NULL, 0, 40, 12);
    ASSERT_STR_EQ(out, json);
    ASSERT(strstr(json, "\"prime\": 5,") && strstr(json, "{\"by\": \"h1\", \"from\": [0, 0, 0]"));
    free(json);
    sq_free(out);
    resol_free(R);
    fdmod_free(M);
    rm_dir(dir);
}

/* Over a profile without Q_0 (the algebra of the P^k alone, at p = 3) a_0
 * does not act and h_0 does: the picture draws h_0 and no a_0 (nor its
 * legend), and the JSON lists the h_0 products (it used to stop at the
 * first class that does not act, and listed none). */
TEST(chart_odd_profile_without_a0)
{
    char dir[64], path[128];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/P3.json", dir);
    write_file(path, "{\"p\": 3, \"type\": \"finite dimensional module\", \"gens\": {\"x0\": 0}, "
                     "\"actions\": [], \"profile\": {\"truncated\": false, \"q_part\": 0, "
                     "\"p_part\": []}}\n");
    char *svg = run_ok(0, NULL, "chart %s --stem 16 --max-s 5 --quiet", path);
    check_xml_shape(svg);
    ASSERT_EQ(count(svg, "<g class=\"a0\""), 0);
    ASSERT_EQ(count(svg, "<g class=\"h0\""), 1);
    ASSERT(count(svg, "<line class=\"h0\"") > 0);
    ASSERT(strstr(svg, "a<tspan") == NULL);
    char *json = run_ok(0, NULL, "chart %s --stem 16 --max-s 5 --format json --quiet", path);
    /* h_0 on 1 and the h_1 line of 1 (stem 11) are listed; no a_0. */
    ASSERT(strstr(json, "{\"by\": \"h0\", \"from\": [0, 0, 0], \"to\": [[3, 1, 0, 1]]}") != NULL);
    ASSERT(strstr(json, "{\"by\": \"h1\", \"from\": [0, 0, 0]") != NULL);
    ASSERT(strstr(json, "\"a0\"") == NULL);
    sq_free(svg);
    sq_free(json);
    rm_dir(dir);
}

/* A region outside the resolution's (below its bottom stem, past its stem
 * or filtration) is refused with SQ_E_RANGE and nothing written, where the
 * writers used to abort (the clear_bottom chart reached this). */
TEST(chart_region_outside_refused)
{
    fdmod_t *M;
    resol_t *R = sphere(&M);
    static const int32_t bad[][3] = {{-1, 10, 5}, {0, MAX_N + 1, 5}, {0, 10, MAX_S + 1},
                                     {0, 10, -1}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        ASSERT(f != NULL);
        ASSERT_EQ(sq_chart_write_svg(f, R, NULL, bad[k][0], bad[k][1], bad[k][2]), SQ_E_RANGE);
        ASSERT_EQ(sq_chart_write_json(f, R, NULL, bad[k][0], bad[k][1], bad[k][2]), SQ_E_RANGE);
        ASSERT_EQ(fclose(f), 0);
        ASSERT_EQ(len, 0);
        free(buf);
    }
    resol_free(R);
    fdmod_free(M);
}
