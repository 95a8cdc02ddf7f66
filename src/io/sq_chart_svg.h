/*
 * sq_chart_svg.h -- the Adams chart as an SVG picture, for people
 * (system.md section 8; docs/charts.md shows one).
 *
 * Layout, in pixels (one unit U = SQ_CHART_SVG_UNIT both ways, so h_1 lines
 * run at 45 degrees and h_2 lines at slope 1/3; at p = 3 the h_0 lines at
 * slope 1/3):
 *
 *     +--------------------------------------------------------------+
 *     | title                                           (TOP px)     |
 *     | legend: -- h0   -- h1   -- h2      (odd p: -- a0   -- h0)     |
 *     |     +-----+-----+-----+ ...                         +        |
 *     |  s  |     |     |     |      one cell per (n, s),   |  s     |
 *     |     |  .  |     |     |      rows s = max_s at the  |        |
 *     | (LEFT px)                     top down to s = 0       (RIGHT)|
 *     |     +-----+-----+-----+ ...                         +        |
 *     |     n_min       n_min + 4 ...  stem labels    (BOTTOM px)    |
 *     +--------------------------------------------------------------+
 *
 * Cell (n, s) is the square of side U whose centre is at
 *     x = LEFT + (n - n_min + 1/2) U,   y = TOP + (max_s - s + 1/2) U.
 * The d generators of a bidegree sit in the middle of its cell, up to four
 * side by side per row (more rows when d > 4), closer and smaller as d
 * grows so that they stay inside the cell.
 *
 * What the file holds, in drawing order (later elements on top):
 *   - a white background, the grid (thin lines between cells, darker every
 *     4 stems and every 2 filtrations), axis labels every 4 stems (below)
 *     and every 2 filtrations (left and right), a title and a legend;
 *   - one <g class="NAME" stroke="COLOUR"> per drawn filtration-one class
 *     k that acts (resol_filt1_*: k = 0, 1, 2, i.e. h0, h1, h2, at p = 2;
 *     k = 0, 1, i.e. a0 and h0, at odd p), holding one <line class="NAME"
 *     .../> per nonzero entry of its matrix (resol_filt1_matrix, whatever
 *     the coefficient) whose source and target lie in the region: a line
 *     from generator j of (n, s) to generator g of (n + deg_k - 1, s + 1),
 *     deg_k = resol_filt1_degree (2^k at p = 2; 1 and 2p - 2 at odd p);
 *   - one <circle ...><title>x_(n, s, i)</title></circle> per generator,
 *     and no other circles (the title is the hover text).
 * Grid and legend use <path> and <text>, never <line> or <circle>, so the
 * counts of <line class="NAME" and of <circle are the counts of products
 * and classes.  Nothing in the file depends on anything but R and the region.
 */
#ifndef SQ_CHART_SVG_H
#define SQ_CHART_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pixels per stem and per filtration.  28 px keeps a bidegree of four
 * generators readable (dots 7 px apart) and the chart of S_2 through stem
 * 60 (34 filtrations) about 1,800 x 1,100 px; through stem 150, 4,300 px
 * wide, which a browser scrolls. */
#define SQ_CHART_SVG_UNIT 28

/* The margins around the grid, in pixels: title and legend above, stem
 * labels below, filtration labels on both sides. */
#define SQ_CHART_SVG_LEFT 44
#define SQ_CHART_SVG_RIGHT 44
#define SQ_CHART_SVG_TOP 72
#define SQ_CHART_SVG_BOTTOM 48

/* The narrowest picture: room for the title and the legend above a chart
 * of few stems (the grid stays at the left). */
#define SQ_CHART_SVG_MIN_WIDTH 720

/* The colours of the structure lines of classes k = 0, 1, 2: h_0 (odd p:
 * a_0) dark blue, h_1 (odd p: h_0) vermilion, h_2 bluish green (the last
 * two from the Okabe-Ito palette, told apart by colour-blind readers too;
 * the blue is darker than Okabe-Ito's so that thin vertical lines do not
 * read as green). */
#define SQ_CHART_SVG_H0_COLOUR "#1f3d99"
#define SQ_CHART_SVG_H1_COLOUR "#d55e00"
#define SQ_CHART_SVG_H2_COLOUR "#009e73"

/* Number of filtration-one classes drawn at p = 2 (h_0, h_1, h_2) and at
 * odd p (a_0 and h_0, as the peer's charts; h_1, in stem 2p(p - 1) - 1,
 * is in the JSON). */
#define SQ_CHART_SVG_NUM_H 3
#define SQ_CHART_SVG_NUM_ODD 2

/* The size in pixels of the picture of stems n_min..n_max and filtrations
 * 0..s_max (n_min <= n_max, s_max >= 0): width (n_max - n_min + 1) U +
 * LEFT + RIGHT (at least MIN_WIDTH), height (s_max + 1) U + TOP + BOTTOM. */
void sq_chart_svg_size(int32_t n_min, int32_t n_max, int32_t s_max, int64_t *width,
                       int64_t *height);

/* Writes the SVG chart of stems n_min..n_max and filtrations 0..s_max of
 * the computed resolution R (the region must lie within R's: n_min >=
 * resol_min_n, n_max <= resol_max_n, s_max <= resol_max_s).  name (may be
 * NULL: fdmod_name of R's module) is shown in the title, XML-escaped.
 * R may be at any prime.  Structure lines are drawn for h_0, h_1, h_2 (odd
 * p: a_0, h_0) where the class acts (resol_filt1_degree >= 0) and the
 * target bidegree lies in the region.
 * Cost: one resol_filt1_matrix per nonzero bidegree and class; output about 100
 * bytes per class and per line.  Returns 0, SQ_E_RANGE (nothing written)
 * when the region is not within R's, or SQ_E_IO if a write failed (f's
 * error flag; the caller still closes f). */
int sq_chart_write_svg(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                       int32_t s_max);

/* Where the chart of stems n_min.. and filtrations 0..s_max puts dot j of
 * the d dots of (n, s): its centre (*x, *y) in pixels and radius *r -- the
 * layout of sq_chart_write_svg, for writers that draw on the same grid
 * (the d_2 arrows and the E_3 page, sq_chart_e3.h). */
void sq_chart_svg_dot(int32_t n_min, int32_t s_max, int32_t n, int32_t s, int64_t j, int64_t d,
                      double *x, double *y, double *r);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CHART_SVG_H */
