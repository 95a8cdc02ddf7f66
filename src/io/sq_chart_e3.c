/*
 * sq_chart_e3.c -- the d_2 arrows and the E_3 page as charts
 * (sq_chart_e3.h).
 *
 * The E_2 writers are reused as they are: their output is written into
 * memory and the new part spliced in (the d_2 group before the dots; the
 * "d2" key before the JSON's closing brace; for page 3 the grid, labels and
 * legend before the structure lines, then our lines and dots).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "sq_chart_e3.h"

#include <stdlib.h>
#include <string.h>

#include "fmat.h"
#include "resol_products.h"
#include "sq_chart.h"
#include "sq_chart_json.h"
#include "sq_chart_svg.h"
#include "sq_core.h"

typedef struct {
    int32_t n_min, n_max, s_max;
} reg_t;

/* The E_2 document (svg or json) in memory; NULL when the writer failed. */
static char *e2_text(const resol_t *R, const char *name, const reg_t *g, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    int rc = json ? sq_chart_write_json(m, R, name, g->n_min, g->n_max, g->s_max)
                  : sq_chart_write_svg(m, R, name, g->n_min, g->n_max, g->s_max);
    fclose(m);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Whether X knows d_2 from every class of g whose target is in g. */
static int d2_known(const resol_sec_t *X, const resol_t *R, const reg_t *g)
{
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 1; s + 2 <= g->s_max; s++)
            if (resol_ext_dim(R, s, n) > 0 && n - 1 >= g->n_min &&
                resol_ext_dim(R, s + 2, n - 1) > 0 && !resol_sec_has(X, s, n))
                return 0;
    return 1;
}

/* Calls cell(f, g, n, s, m, first) for every bidegree (n, s) of g whose
 * d_2 goes to a nonzero group in g, m its matrix (rows: the classes of
 * (n, s); columns: those of (n - 1, s + 2)). */
typedef void (*d2_cell_fn)(FILE *f, const reg_t *g, int32_t n, int32_t s, const fmat_t *m,
                           int *first);

static void each_d2(FILE *f, const resol_t *R, const resol_sec_t *X, const reg_t *g,
                    d2_cell_fn cell, int *first)
{
    for (int32_t n = g->n_min + 1; n <= g->n_max; n++)
        for (int32_t s = 1; s + 2 <= g->s_max; s++) {
            fmat_t m;
            if (resol_ext_dim(R, s, n) <= 0 || resol_ext_dim(R, s + 2, n - 1) <= 0 ||
                resol_sec_d2(X, s, n, &m) != 0)
                continue;
            cell(f, g, n, s, &m, first);
            fmat_clear(&m);
        }
}

static void d2_svg_cell(FILE *f, const reg_t *g, int32_t n, int32_t s, const fmat_t *m,
                        int *first)
{
    (void)first;
    int64_t di = fmat_rows(m), dj = fmat_cols(m);
    for (int64_t i = 0; i < di; i++)
        for (int64_t j = 0; j < dj; j++) {
            if (!fmat_get(m, i, j))
                continue;
            double xa, ya, xb, yb, r;
            sq_chart_svg_dot(g->n_min, g->s_max, n, s, i, di, &xa, &ya, &r);
            sq_chart_svg_dot(g->n_min, g->s_max, n - 1, s + 2, j, dj, &xb, &yb, &r);
            fprintf(f,
                    "<line class=\"d2\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">"
                    "<title>d_2 x_(%d, %d, %lld) -&gt; x_(%d, %d, %lld)</title></line>\n",
                    xa, ya, xb, yb, (int)n, (int)s, (long long)i, (int)(n - 1), (int)(s + 2),
                    (long long)j);
        }
}

static void d2_json_cell(FILE *f, const reg_t *g, int32_t n, int32_t s, const fmat_t *m,
                         int *first)
{
    (void)g;
    for (int64_t i = 0; i < fmat_rows(m); i++) {
        fprintf(f, "%s\n    {\"from\": [%d, %d, %lld], \"to\": [", *first ? "" : ",", (int)n,
                (int)s, (long long)i);
        const char *sep = "";
        for (int64_t j = 0; j < fmat_cols(m); j++)
            if (fmat_get(m, i, j)) {
                fprintf(f, "%s[%d, %d, %lld]", sep, (int)(n - 1), (int)(s + 2), (long long)j);
                sep = ", ";
            }
        fputs("]}", f);
        *first = 0;
    }
}

static void write_d2_svg(FILE *f, const resol_t *R, const resol_sec_t *X, const reg_t *g)
{
    int first = 1;
    fprintf(f, "<g class=\"d2\" stroke=\"%s\" stroke-width=\"1.6\" stroke-linecap=\"round\">\n",
            SQ_CHART_D2_COLOUR);
    each_d2(f, R, X, g, d2_svg_cell, &first);
    fputs("</g>\n", f);
}

static void write_d2_json(FILE *f, const resol_t *R, const resol_sec_t *X, const reg_t *g)
{
    int first = 1;
    fputs(",\n  \"d2\": [", f);
    each_d2(f, R, X, g, d2_json_cell, &first);
    fputs(first ? "]" : "\n  ]", f);
}

/* ---- The E_3 page ------------------------------------------------------------- */

/* The E_3 bases of the region, one per bidegree (NULL where E_3 is zero). */
typedef struct {
    const reg_t *g;
    fmat_t *reps, *image; /* [(n - n_min) * (s_max + 1) + s] */
} e3_t;

static int64_t cell(const e3_t *E, int32_t n, int32_t s)
{
    return (int64_t)(n - E->g->n_min) * (E->g->s_max + 1) + s;
}

static int e3_load(e3_t *E, const resol_sec_t *X, const reg_t *g)
{
    int64_t cells = (int64_t)(g->n_max - g->n_min + 1) * (g->s_max + 1);
    E->g = g;
    E->reps = sq_calloc((size_t)cells + 1, sizeof *E->reps);
    E->image = sq_calloc((size_t)cells + 1, sizeof *E->image);
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 0; s <= g->s_max; s++)
            if (resol_sec_e3_basis(X, s, n, &E->reps[cell(E, n, s)], &E->image[cell(E, n, s)]))
                return SQ_E_RANGE;
    return 0;
}

static void e3_clear(e3_t *E, const reg_t *g)
{
    int64_t cells = (int64_t)(g->n_max - g->n_min + 1) * (g->s_max + 1);
    for (int64_t c = 0; c < cells; c++) {
        fmat_clear(&E->reps[c]);
        fmat_clear(&E->image[c]);
    }
    sq_free(E->reps);
    sq_free(E->image);
}

static int64_t e3_dim(const e3_t *E, int32_t n, int32_t s)
{
    return fmat_rows(&E->reps[cell(E, n, s)]);
}

/* h_k on E_3 at (n, s): *m (rows: the target's E_3 basis; columns: the
 * source's), *tn the target stem.  Returns 1, 0 (nothing to draw), -1 (the
 * walk over k stops: the target is beyond the region). */
static int e3_filt1(const resol_t *R, const e3_t *E, int k, int32_t n, int32_t s, int32_t *tn,
                    fmat_t *m)
{
    fmat_t h;
    int rc = sq_chart_filt1(R, k, n, s, E->g->n_max, E->g->s_max, tn, &h);
    if (rc <= 0)
        return rc;
    int64_t ds = e3_dim(E, n, s), dt = e3_dim(E, *tn, s + 1);
    if (ds == 0 || dt == 0) {
        fmat_clear(&h);
        return 0;
    }
    const fmat_t *rs = &E->reps[cell(E, n, s)];
    const fmat_t *rt = &E->reps[cell(E, *tn, s + 1)], *it = &E->image[cell(E, *tn, s + 1)];
    fmat_init(m, dt, ds, 2);
    int64_t e2s = fmat_cols(&h), e2t = fmat_rows(&h);
    fvec_t v, c;
    fvec_init(&v, e2t, 2);
    fvec_init(&c, dt, 2);
    for (int64_t j = 0; j < ds; j++) {
        fvec_zero(v);
        for (int64_t a = 0; a < e2s; a++)
            if (fmat_get(rs, j, a))
                for (int64_t b = 0; b < e2t; b++)
                    if (fmat_get(&h, b, a))
                        fvec_add_entry(v, b, 1);
        if (resol_sec_e3_coords(rt, it, v, c) == 0)
            for (int64_t b = 0; b < dt; b++)
                if (fvec_get(c, b))
                    fmat_set(m, b, j, 1);
    }
    fvec_clear(&v);
    fvec_clear(&c);
    fmat_clear(&h);
    return 1;
}

static const char *const colour[3] = {SQ_CHART_SVG_H0_COLOUR, SQ_CHART_SVG_H1_COLOUR,
                                      SQ_CHART_SVG_H2_COLOUR};

static void write_e3_svg(FILE *f, const resol_t *R, const e3_t *E)
{
    const reg_t *g = E->g;
    for (int k = 0; k < 3; k++) {
        fprintf(f, "<g class=\"h%d\" stroke=\"%s\" stroke-width=\"%s\" stroke-linecap=\"round\">\n",
                k, colour[k], k == 0 ? "2" : "1.7");
        for (int32_t n = g->n_min; n <= g->n_max; n++)
            for (int32_t s = 0; s <= g->s_max; s++) {
                int32_t tn;
                fmat_t m;
                if (e3_filt1(R, E, k, n, s, &tn, &m) <= 0)
                    continue;
                for (int64_t t = 0; t < fmat_rows(&m); t++)
                    for (int64_t j = 0; j < fmat_cols(&m); j++) {
                        if (!fmat_get(&m, t, j))
                            continue;
                        double xa, ya, xb, yb, r;
                        sq_chart_svg_dot(g->n_min, g->s_max, n, s, j, fmat_cols(&m), &xa, &ya, &r);
                        sq_chart_svg_dot(g->n_min, g->s_max, tn, s + 1, t, fmat_rows(&m), &xb, &yb,
                                         &r);
                        fprintf(f,
                                "<line class=\"h%d\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                                "y2=\"%.1f\"/>\n",
                                k, xa, ya, xb, yb);
                    }
                fmat_clear(&m);
            }
        fputs("</g>\n", f);
    }
    fputs("<g class=\"classes\" fill=\"#000000\" stroke=\"#ffffff\" stroke-opacity=\"0\" "
          "stroke-width=\"8\">\n",
          f);
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 0; s <= g->s_max; s++) {
            const fmat_t *rp = &E->reps[cell(E, n, s)];
            int64_t d = fmat_rows(rp);
            for (int64_t j = 0; j < d; j++) {
                double x, y, r;
                sq_chart_svg_dot(g->n_min, g->s_max, n, s, j, d, &x, &y, &r);
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.2f\"><title>E3 (%d, %d, %lld) = [",
                        x, y, r, (int)n, (int)s, (long long)j);
                for (int64_t a = 0; a < fmat_cols(rp); a++)
                    fprintf(f, a ? ", %u" : "%u", (unsigned)fmat_get(rp, j, a));
                fputs("]</title></circle>\n", f);
            }
        }
    fputs("</g>\n", f);
}

/* The page-3 JSON: the E_2 document's head (format, version, module,
 * region), "page": 3, then the E_3 classes and products. */
static int write_e3_json(FILE *f, const resol_t *R, const e3_t *E, const char *name)
{
    const reg_t *g = E->g;
    char *head = e2_text(R, name, g, 1);
    if (!head)
        return SQ_E_RANGE;
    char *cut = strstr(head, "  \"classes\": [");
    SQ_CHECK(cut != NULL, "sq_chart_write_page: the E2 JSON has no classes");
    *cut = 0;
    fputs(head, f);
    free(head);
    fputs("  \"page\": 3,\n", f);
    fputs("  \"classes\": [", f);
    int first = 1;
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 0; s <= g->s_max; s++) {
            const fmat_t *rp = &E->reps[cell(E, n, s)];
            for (int64_t j = 0; j < fmat_rows(rp); j++) {
                fprintf(f, "%s\n    {\"n\": %d, \"s\": %d, \"i\": %lld, \"rep\": [", first ? "" : ",",
                        (int)n, (int)s, (long long)j);
                for (int64_t a = 0; a < fmat_cols(rp); a++)
                    fprintf(f, a ? ", %u" : "%u", (unsigned)fmat_get(rp, j, a));
                fputs("]}", f);
                first = 0;
            }
        }
    fputs(first ? "],\n" : "\n  ],\n", f);
    fputs("  \"products\": [", f);
    first = 1;
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 0; s <= g->s_max; s++)
            for (int k = 0; k < 31; k++) {
                int32_t tn;
                fmat_t m;
                int rc = e3_filt1(R, E, k, n, s, &tn, &m);
                if (rc < 0)
                    break;
                if (rc == 0)
                    continue;
                for (int64_t j = 0; j < fmat_cols(&m); j++) {
                    fprintf(f, "%s\n    {\"h\": %d, \"from\": [%d, %d, %lld], \"to\": [",
                            first ? "" : ",", k, (int)n, (int)s, (long long)j);
                    const char *sep = "";
                    for (int64_t t = 0; t < fmat_rows(&m); t++)
                        if (fmat_get(&m, t, j)) {
                            fprintf(f, "%s[%d, %d, %lld]", sep, (int)tn, (int)(s + 1), (long long)t);
                            sep = ", ";
                        }
                    fputs("]}", f);
                    first = 0;
                }
                fmat_clear(&m);
            }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
    return 0;
}

/* The page-3 SVG: the E_2 picture's frame (up to its first structure
 * line group) with "E3" in its title, then our lines and dots. */
static int write_e3_svg_doc(FILE *f, const resol_t *R, const e3_t *E, const char *name)
{
    char *t = e2_text(R, name, E->g, 0);
    if (!t)
        return SQ_E_RANGE;
    char *cut = strstr(t, "<g class=\"h0\"");
    if (!cut)
        cut = strstr(t, "<g class=\"classes\"");
    SQ_CHECK(cut != NULL, "sq_chart_write_page: the E2 picture has no dots group");
    *cut = 0;
    /* the title's E<sub>2</sub> becomes E<sub>3</sub>, and the <desc> says E3 */
    const char *e2 = "baseline-shift=\"sub\">2</tspan> page";
    char *p = strstr(t, e2);
    if (p)
        p[strlen("baseline-shift=\"sub\">")] = '3';
    char *d = strstr(t, "the Adams E2 page");
    if (d)
        d[strlen("the Adams E")] = '3';
    fputs(t, f);
    free(t);
    write_e3_svg(f, R, E);
    fputs("</svg>\n", f);
    return 0;
}

int sq_chart_write_page(FILE *f, const resol_t *R, const resol_sec_t *X, int page, int d2,
                        int json, const char *name, int32_t n_min, int32_t n_max, int32_t s_max)
{
    reg_t g = {n_min, n_max, s_max};
    if (!(name = sq_chart_check_region(R, name, n_min, n_max, s_max)))
        return SQ_E_RANGE;
    if (page == 3) {
        e3_t E;
        int rc = e3_load(&E, X, &g);
        if (rc == 0) {
            if (json)
                rc = write_e3_json(f, R, &E, name);
            else
                rc = write_e3_svg_doc(f, R, &E, name);
        }
        e3_clear(&E, &g);
        return rc ? rc : ferror(f) ? SQ_E_IO : 0;
    }
    if (!d2 || !d2_known(X, R, &g))
        return SQ_E_RANGE;
    char *t = e2_text(R, name, &g, json);
    if (!t)
        return SQ_E_RANGE;
    if (json) {
        size_t len = strlen(t);
        SQ_CHECK(len >= 3 && strcmp(t + len - 3, "\n}\n") == 0, "the E2 JSON's end");
        t[len - 3] = 0;
        fputs(t, f);
        write_d2_json(f, R, X, &g);
        fputs("\n}\n", f);
    } else {
        char *cut = strstr(t, "<g class=\"classes\"");
        SQ_CHECK(cut != NULL, "sq_chart_write_page: the E2 picture has no dots group");
        fwrite(t, 1, (size_t)(cut - t), f);
        write_d2_svg(f, R, X, &g);
        fputs(cut, f);
    }
    free(t);
    return ferror(f) ? SQ_E_IO : 0;
}
