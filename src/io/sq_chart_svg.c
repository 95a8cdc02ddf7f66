/*
 * sq_chart_svg.c -- the Adams chart as SVG (sq_chart_svg.h).
 *
 * How it is drawn.  The picture is written in one pass over the region, in
 * painter's order: background, grid, labels, then the structure lines of
 * h_0, h_1, h_2 (each in its own group with its colour), then the dots on
 * top, so that a dot hides the ends of the lines that meet it and stays
 * visible where many lines cross.  The place of a dot depends only on its
 * bidegree, its index and the dimension there (dot_pos), so the lines need
 * no table of positions: both ends are recomputed.
 *
 * Why pixels and not a viewBox in chart units: text and strokes then have
 * the same size on every chart, from stem 20 to stem 150, and a browser
 * shows the file at 100% with scroll bars instead of shrinking a wide chart
 * until it cannot be read.
 */
#include "sq_chart_svg.h"

#include <math.h>
#include <string.h>

#include "fmat.h"
#include "resol_products.h"
#include "sq_chart.h"
#include "sq_core.h"

#define U SQ_CHART_SVG_UNIT

typedef struct {
    int32_t n_min, n_max, s_max;
} region_t;

static const char *const h_colour[SQ_CHART_SVG_NUM_H] = {
    SQ_CHART_SVG_H0_COLOUR, SQ_CHART_SVG_H1_COLOUR, SQ_CHART_SVG_H2_COLOUR};

void sq_chart_svg_size(int32_t n_min, int32_t n_max, int32_t s_max, int64_t *width, int64_t *height)
{
    int64_t stems = n_max >= n_min ? (int64_t)n_max - n_min + 1 : 0;
    int64_t rows = s_max >= 0 ? (int64_t)s_max + 1 : 0;
    *width = stems * U + SQ_CHART_SVG_LEFT + SQ_CHART_SVG_RIGHT;
    if (*width < SQ_CHART_SVG_MIN_WIDTH)
        *width = SQ_CHART_SVG_MIN_WIDTH;
    *height = rows * U + SQ_CHART_SVG_TOP + SQ_CHART_SVG_BOTTOM;
}

/* Centre of cell (n, s). */
static double cell_x(const region_t *g, int32_t n)
{
    return SQ_CHART_SVG_LEFT + ((double)(n - g->n_min) + 0.5) * U;
}

static double cell_y(const region_t *g, int32_t s)
{
    return SQ_CHART_SVG_TOP + ((double)(g->s_max - s) + 0.5) * U;
}

/* Spacing between the dots of a bidegree of dimension d and their radius.
 * Up to three dots sit 9 px apart with radius 3.5 (the common case: easy to
 * hit with the mouse, lines between them clearly apart); four or more
 * dots go in rows of four, closer, and shrink so that the block stays
 * within the cell with a margin of 3 px. */
static void dot_layout(int64_t d, int64_t *cols, int64_t *rows, double *sp, double *r)
{
    *cols = d <= 4 ? d : 4;
    *rows = (d + *cols - 1) / *cols;
    *sp = d <= 3 ? 9.0 : 6.0;
    int64_t span = *cols > *rows ? *cols : *rows;
    if (span > 1 && (double)(span - 1) * *sp > U - 10.0)
        *sp = (U - 10.0) / (double)(span - 1);
    *r = d <= 1 ? 3.5 : fmin(3.5, 0.45 * *sp);
}

/* Centre of dot j of the d dots of (n, s). */
static void dot_pos(const region_t *g, int32_t n, int32_t s, int64_t j, int64_t d, double *x,
                    double *y)
{
    int64_t cols, rows;
    double sp, r;
    dot_layout(d, &cols, &rows, &sp, &r);
    int64_t c = j % cols, w = j / cols;
    *x = cell_x(g, n) + ((double)c - (double)(cols - 1) / 2) * sp;
    *y = cell_y(g, s) + ((double)w - (double)(rows - 1) / 2) * sp;
}

void sq_chart_svg_dot(int32_t n_min, int32_t s_max, int32_t n, int32_t s, int64_t j, int64_t d,
                      double *x, double *y, double *r)
{
    region_t g = {n_min, n_min, s_max};
    int64_t cols, rows;
    double sp;
    dot_layout(d, &cols, &rows, &sp, r);
    dot_pos(&g, n, s, j, d, x, y);
}

/* Writes s with &, <, >, " escaped. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        const char *e = *s == '&'   ? "&amp;"
                        : *s == '<' ? "&lt;"
                        : *s == '>' ? "&gt;"
                        : *s == '"' ? "&quot;"
                                    : NULL;
        if (e)
            fputs(e, f);
        else
            fputc(*s, f);
    }
}

/* The grid: thin lines through every cell centre, darker ones every 4
 * stems and every 2 filtrations, and a frame.  Two <path>s, so the grid
 * is never mistaken for a structure line. */
static void write_grid(FILE *f, const region_t *g)
{
    double x0 = SQ_CHART_SVG_LEFT, x1 = x0 + (double)(g->n_max - g->n_min + 1) * U;
    double y0 = SQ_CHART_SVG_TOP, y1 = y0 + (double)(g->s_max + 1) * U;
    for (int major = 0; major < 2; major++) {
        fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1\" d=\"",
                major ? "#c4c4c4" : "#ececec");
        for (int32_t n = g->n_min; n <= g->n_max; n++)
            if ((n % 4 == 0) == major)
                fprintf(f, "M%.1f %.1fV%.1f", cell_x(g, n), y0, y1);
        for (int32_t s = 0; s <= g->s_max; s++)
            if ((s % 2 == 0) == major)
                fprintf(f, "M%.1f %.1fH%.1f", x0, cell_y(g, s), x1);
        fputs("\"/>\n", f);
    }
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#888888\" stroke-width=\"1\"/>\n",
            x0, y0, x1 - x0, y1 - y0);
}

/* Stem labels every 4 stems below the grid, filtration labels every 2
 * filtrations on both sides, and the axis names. */
static void write_labels(FILE *f, const region_t *g)
{
    double x0 = SQ_CHART_SVG_LEFT, x1 = x0 + (double)(g->n_max - g->n_min + 1) * U;
    double y1 = SQ_CHART_SVG_TOP + (double)(g->s_max + 1) * U;
    fputs("<g font-size=\"13\" fill=\"#333333\">\n", f);
    fputs("<g text-anchor=\"middle\">\n", f);
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        if (n % 4 == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%d</text>\n", cell_x(g, n), y1 + 17, (int)n);
    fprintf(f,
            "<text x=\"%.1f\" y=\"%.1f\" font-style=\"italic\">stem n = t \xe2\x88\x92 s</text>\n",
            (x0 + x1) / 2, y1 + 38);
    fputs("</g>\n", f);
    fputs("<g text-anchor=\"end\">\n", f);
    for (int32_t s = 0; s <= g->s_max; s += 2)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%d</text>\n", x0 - 8, cell_y(g, s) + 4.5, (int)s);
    fputs("</g>\n<g text-anchor=\"start\">\n", f);
    for (int32_t s = 0; s <= g->s_max; s += 2)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%d</text>\n", x1 + 8, cell_y(g, s) + 4.5, (int)s);
    fputs("</g>\n", f);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-style=\"italic\">s</text>\n",
            x0 - 8, (double)SQ_CHART_SVG_TOP - 6);
    fputs("</g>\n", f);
}

/* The number of filtration-one classes drawn: h_0, h_1, h_2 at p = 2;
 * a_0 and h_0 at odd p (as the peer's charts: h_1 is in stem 11 at p = 3,
 * a line of slope 1/11 across a chart mostly empty there). */
static int num_drawn(const resol_t *R)
{
    return resol_prime(R) == 2 ? SQ_CHART_SVG_NUM_H : SQ_CHART_SVG_NUM_ODD;
}

/* Writes the name of class k ("h0", "a0") with its index as a subscript. */
static void put_class_name(FILE *f, const resol_t *R, int k)
{
    char name[16];
    resol_filt1_name(R, k, name, sizeof name);
    fprintf(f, "%c<tspan font-size=\"10\" baseline-shift=\"sub\">%s</tspan>", name[0],
            name + 1);
}

/* What class k detects and how its lines run, for the legend: "(2,
 * vertical)", "(η, slope 1)", "(ν, slope 1/3)" at p = 2; "(3, vertical)",
 * "(α1, slope 1/3)" at p = 3. */
static void put_class_role(FILE *f, const resol_t *R, int k)
{
    static const char *const p2[SQ_CHART_SVG_NUM_H] = {"(2, vertical)", "(\xce\xb7, slope 1)",
                                                       "(\xce\xbd, slope 1/3)"};
    uint32_t p = resol_prime(R);
    int32_t stem = resol_filt1_degree(R, k) - 1;
    if (p == 2)
        fputs(p2[k], f);
    else if (k == 0)
        fprintf(f, "(%u, vertical)", (unsigned)p);
    else
        fprintf(f,
                "(\xce\xb1<tspan font-size=\"10\" baseline-shift=\"sub\">1</tspan>, slope "
                "1/%d)",
                (int)stem);
}

/* The title (first line) and the legend (second line) above the grid.  The
 * legend's samples are <path>s, one per drawn class that acts.  The hint
 * about the dots (about 350 px of text) is left out where it would not fit
 * in the picture's width. */
static void write_title(FILE *f, const resol_t *R, const region_t *g, const char *name,
                        int64_t width)
{
    double x = SQ_CHART_SVG_LEFT;
    fprintf(f, "<text x=\"%.1f\" y=\"22\" font-size=\"16\" font-weight=\"bold\" fill=\"#111111\">",
            x);
    put_escaped(f, name);
    fprintf(f,
            ": Ext<tspan font-size=\"11\" baseline-shift=\"super\">s,t</tspan>, the Adams "
            "E<tspan font-size=\"11\" baseline-shift=\"sub\">2</tspan> page "
            "<tspan font-weight=\"normal\">(stems %d\xe2\x80\x93%d, filtrations 0\xe2\x80\x93%d)"
            "</tspan></text>\n",
            (int)g->n_min, (int)g->n_max, (int)g->s_max);
    fputs("<g font-size=\"13\" fill=\"#333333\">\n", f);
    double lx = x;
    for (int k = 0; k < num_drawn(R); k++) {
        if (resol_filt1_degree(R, k) < 0)
            continue;
        fprintf(f,
                "<path d=\"M%.1f 44h22\" stroke=\"%s\" stroke-width=\"2.5\"/>"
                "<text x=\"%.1f\" y=\"48.5\">",
                lx, h_colour[k], lx + 28);
        put_class_name(f, R, k);
        fputc(' ', f);
        put_class_role(f, R, k);
        fputs("</text>\n", f);
        lx += 150;
    }
    if (lx + 10 + 350 <= (double)width)
        fprintf(f,
                "<text x=\"%.1f\" y=\"48.5\" fill=\"#555555\">dots: generators x_(n, s, i); "
                "hover for names</text>\n",
                lx + 10);
    fputs("</g>\n", f);
}

/* The lines of class k: one per nonzero entry (g, j) of the matrix of
 * x -> c_k x on each nonzero bidegree whose target lies in the region
 * (sq_chart_filt1), whatever the coefficient. */
static void write_lines(FILE *f, const resol_t *R, const region_t *g, int k)
{
    int32_t deg = resol_filt1_degree(R, k);
    if (deg < 0)
        return;
    char name[16];
    resol_filt1_name(R, k, name, sizeof name);
    /* Vertical lines 2 px wide on whole-pixel centres cover two pixel
     * columns exactly, crisp and in their full colour; the slanted lines
     * are antialiased anyway and a little thinner keeps crossings apart. */
    fprintf(f, "<g class=\"%s\" stroke=\"%s\" stroke-width=\"%s\" stroke-linecap=\"round\">\n",
            name, h_colour[k], deg == 1 ? "2" : "1.7");
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 0; s <= g->s_max; s++) {
            int32_t tn;
            fmat_t m;
            if (sq_chart_filt1(R, k, n, s, g->n_max, g->s_max, &tn, &m) <= 0)
                continue;
            int64_t d = fmat_cols(&m), e = fmat_rows(&m);
            for (int64_t t = 0; t < e; t++)
                for (int64_t j = 0; j < d; j++) {
                    if (!fmat_get(&m, t, j))
                        continue;
                    double xa, ya, xb, yb;
                    dot_pos(g, n, s, j, d, &xa, &ya);
                    dot_pos(g, tn, s + 1, t, e, &xb, &yb);
                    fprintf(f,
                            "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                            "y2=\"%.1f\"/>\n",
                            name, xa, ya, xb, yb);
                }
            fmat_clear(&m);
        }
    fputs("</g>\n", f);
}

/* One circle per generator, its name as hover text.  The transparent
 * stroke widens the area that shows the name to 4 px around the dot. */
static void write_dots(FILE *f, const resol_t *R, const region_t *g)
{
    fputs("<g class=\"classes\" fill=\"#000000\" stroke=\"#ffffff\" stroke-opacity=\"0\" "
          "stroke-width=\"8\">\n",
          f);
    for (int32_t n = g->n_min; n <= g->n_max; n++)
        for (int32_t s = 0; s <= g->s_max; s++) {
            int64_t d = resol_ext_dim(R, s, n);
            for (int64_t j = 0; j < d; j++) {
                int64_t cols, rows;
                double sp, r, x, y;
                dot_layout(d, &cols, &rows, &sp, &r);
                dot_pos(g, n, s, j, d, &x, &y);
                fprintf(f,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.2f\"><title>x_(%d, %d, %lld)"
                        "</title></circle>\n",
                        x, y, r, (int)n, (int)s, (long long)j);
            }
        }
    fputs("</g>\n", f);
}

int sq_chart_write_svg(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                       int32_t s_max)
{
    if (!(name = sq_chart_check_region(R, name, n_min, n_max, s_max)))
        return SQ_E_RANGE;
    region_t g = {n_min, n_max < n_min ? n_min - 1 : n_max, s_max};
    int64_t w, h;
    sq_chart_svg_size(g.n_min, g.n_max, g.s_max, &w, &h);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%lld\" "
            "height=\"%lld\" viewBox=\"0 0 %lld %lld\" font-family=\"DejaVu Sans, Helvetica, "
            "Arial, sans-serif\">\n",
            (long long)w, (long long)h, (long long)w, (long long)h);
    fputs("<desc>", f);
    put_escaped(f, name);
    fprintf(f,
            ": the Adams E2 page Ext^{s,t} over the mod %u Steenrod algebra, stems %d to %d, "
            "filtrations 0 to %d, with the products by ",
            (unsigned)resol_prime(R), (int)n_min, (int)n_max, (int)s_max);
    for (int k = 0; k < num_drawn(R); k++) {
        char c[16];
        resol_filt1_name(R, k, c, sizeof c);
        fprintf(f, "%s%s", k == 0 ? "" : k + 1 < num_drawn(R) ? ", " : " and ", c);
    }
    fputs(" (written by adams)</desc>\n", f);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", f);
    write_grid(f, &g);
    write_labels(f, &g);
    write_title(f, R, &g, name, w);
    for (int k = 0; k < num_drawn(R); k++)
        write_lines(f, R, &g, k);
    write_dots(f, R, &g);
    fputs("</svg>\n", f);
    return ferror(f) ? SQ_E_IO : 0;
}
