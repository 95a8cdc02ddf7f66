/*
 * t-chart-html.c -- the interactive chart page (sq_chart_html.h):
 *   - the page holds the JSON document of sq_chart_write_json for the same
 *     region, byte for byte, in its data element (S_2 and S_3);
 *   - a hostile module name (</script>, quotes, <, >, &) cannot leave its
 *     place: the page has only the template's own "</script" and "<i>"-free
 *     text, the title is HTML-escaped, and the data still parses to the
 *     name as given (jansson);
 *   - the output is deterministic (two writes are equal) and the same
 *     through `adams chart -o FILE.html` (html chosen by the extension);
 *   - a region beyond the resolution writes nothing (SQ_E_RANGE), a full
 *     disk is SQ_E_IO.
 * The page in a browser is tests/browser/chart_html.py.
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdmod.h"
#include "resol.h"
#include "sq_chart_html.h"
#include "sq_chart_json.h"
#include "sq_test.h"

typedef int (*writer_fn)(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                         int32_t s_max);

/* The whole output of w, NUL-terminated (free with free()); *rc its code. */
static char *output_of(writer_fn w, const resol_t *R, const char *name, int32_t n_max,
                       int32_t s_max, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT(f != NULL);
    *rc = w(f, R, name, 0, n_max, s_max);
    ASSERT_EQ(fclose(f), 0);
    ASSERT(buf != NULL && strlen(buf) == len);
    return buf;
}

static int64_t count(const char *hay, const char *needle)
{
    int64_t c = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        c++;
    return c;
}

#define DATA_OPEN "<script type=\"application/json\" id=\"adams-data\">"

/* The text of the page's data element (free with free()). */
static char *data_of(const char *html)
{
    const char *a = strstr(html, DATA_OPEN);
    ASSERT(a != NULL);
    a += strlen(DATA_OPEN);
    const char *b = strstr(a, "</script>");
    ASSERT(b != NULL);
    char *d = malloc((size_t)(b - a) + 1);
    ASSERT(d != NULL);
    memcpy(d, a, (size_t)(b - a));
    d[b - a] = '\0';
    return d;
}

static resol_t *resolved(fdmod_t *M, int32_t n_max, int32_t s_max)
{
    resol_t *R = resol_new(M, s_max, n_max);
    resol_run(R, RESOL_CLASSICAL);
    return R;
}

/* Ext of the sphere S_2 through (n_max, s_max); *M its module. */
static resol_t *sphere_through(fdmod_t **M, int32_t n_max, int32_t s_max)
{
    *M = fdmod_sphere();
    return resolved(*M, n_max, s_max);
}

static void release(resol_t *R, fdmod_t *M)
{
    resol_free(R);
    fdmod_free(M);
}

/* The page's data is the JSON export, byte for byte, and the page is a
 * whole document, the same on a second write. */
static void check_same_as_json(fdmod_t *M, int32_t n_max, int32_t s_max)
{
    resol_t *R = resolved(M, n_max, s_max);
    int rc;
    char *json = output_of(sq_chart_write_json, R, NULL, n_max, s_max, &rc);
    ASSERT_EQ(rc, 0);
    char *html = output_of(sq_chart_write_html, R, NULL, n_max, s_max, &rc);
    ASSERT_EQ(rc, 0);
    char *again = output_of(sq_chart_write_html, R, NULL, n_max, s_max, &rc);
    ASSERT_EQ(rc, 0);
    ASSERT_STR_EQ(html, again);
    char *data = data_of(html);
    ASSERT_STR_EQ(data, json);
    ASSERT(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    ASSERT(strstr(html, "</html>\n") != NULL);
    ASSERT(!strstr(html, "@ADAMS_"));       /* both markers replaced */
    ASSERT(!strstr(html, "http://") && !strstr(html, "https://")); /* nothing to fetch */
    ASSERT_EQ(count(html, "<script"), 2);   /* the data and the page's own script */
    free(data);
    free(json);
    free(html);
    free(again);
    resol_free(R);
}

TEST(chart_html_holds_the_json_S2)
{
    fdmod_t *M = fdmod_sphere();
    check_same_as_json(M, 30, 16);
    fdmod_free(M);
}

TEST(chart_html_holds_the_json_S3)
{
    fdmod_t *M = fdmod_sphere_p(3);
    check_same_as_json(M, 40, 12);
    fdmod_free(M);
}

TEST(chart_html_escapes_a_hostile_name)
{
    static const char name[] = "</script><script>alert(1)</script><i>\"q'&amp;\\";
    fdmod_t *M;
    resol_t *R = sphere_through(&M, 10, 6);
    int rc;
    char *plain = output_of(sq_chart_write_html, R, "S_2", 10, 6, &rc);
    ASSERT_EQ(rc, 0);
    char *html = output_of(sq_chart_write_html, R, name, 10, 6, &rc);
    ASSERT_EQ(rc, 0);
    /* Only the template's own closing tags: the name adds none. */
    ASSERT_EQ(count(html, "</script"), count(plain, "</script"));
    ASSERT_EQ(count(html, "<script"), 2);
    ASSERT(!strstr(html, "<i>"));
    ASSERT(strstr(html, "<title>Adams chart of &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
                        "&lt;i&gt;&quot;q&#39;&amp;amp;\\</title>") != NULL);
    /* The data is JSON whose "module" is the name as given. */
    char *data = data_of(html);
    json_error_t e;
    json_t *doc = json_loads(data, 0, &e);
    ASSERT(doc != NULL);
    ASSERT_STR_EQ(json_string_value(json_object_get(doc, "module")), name);
    json_decref(doc);
    free(data);
    free(html);
    free(plain);
    release(R, M);
}

TEST(chart_html_region_and_write_errors)
{
    fdmod_t *M;
    resol_t *R = sphere_through(&M, 20, 10);
    int rc;
    char *out = output_of(sq_chart_write_html, R, NULL, 21, 10, &rc);
    ASSERT_EQ(rc, SQ_E_RANGE);
    ASSERT_EQ(strlen(out), 0);
    free(out);
    out = output_of(sq_chart_write_html, R, NULL, 20, 11, &rc);
    ASSERT_EQ(rc, SQ_E_RANGE);
    ASSERT_EQ(strlen(out), 0);
    free(out);
    FILE *f = fopen("/dev/full", "w");
    if (f) {
        ASSERT_EQ(sq_chart_write_html(f, R, NULL, 0, 20, 10), SQ_E_IO);
        fclose(f);
    }
    release(R, M);
}

/* `adams chart -o FILE.html` writes html (the extension chooses it), equal
 * to --format html, whose data equals --format json's output. */
TEST(chart_html_through_the_program)
{
    char dir[] = "/tmp/adams-t-chart-html-XXXXXX";
    ASSERT(mkdtemp(dir) != NULL);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' chart S_2 --stem 20 --quiet -o '%s/a.html' && "
             "'%s' chart S_2 --stem 20 --quiet --format html > '%s/b.out' && "
             "'%s' chart S_2 --stem 20 --quiet -o '%s/c.json'",
             SQ_ADAMS_BIN, dir, SQ_ADAMS_BIN, dir, SQ_ADAMS_BIN, dir);
    ASSERT_EQ(system(cmd), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/a.html", dir);
    char *a = sq_test_slurp(path);
    snprintf(path, sizeof path, "%s/b.out", dir);
    char *b = sq_test_slurp(path);
    snprintf(path, sizeof path, "%s/c.json", dir);
    char *c = sq_test_slurp(path);
    ASSERT(strncmp(a, "<!DOCTYPE html>", 15) == 0);
    ASSERT_STR_EQ(a, b);
    char *data = data_of(a);
    ASSERT(c[0] == '{');
    ASSERT_STR_EQ(data, c);
    free(data);
    sq_free(a);
    sq_free(b);
    sq_free(c);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_EQ(system(cmd), 0);
}
