/*
 * sq_chart_html.h -- the chart as one self-contained interactive HTML page
 * (docs/charts.md, "Interactive HTML").
 *
 * The page is the template src/io/sq_chart_html.html (compiled in at build
 * time by cmake/AdamsEmbed.cmake) with the JSON document of sq_chart_json.h
 * inside it, in <script type="application/json" id="adams-data">: the
 * bytes of sq_chart_write_json for the same region, except that '<', '>'
 * and '&' (which JSON allows only inside strings, i.e. in the module name)
 * are written as \u003c, \u003e, \u0026 -- the same JSON value, and no
 * "</script>" can end the element early.  The <title> holds the module name
 * with HTML escapes.  The page's script draws the chart on a canvas (pan,
 * zoom, the h_i lines toggled, hover names, products of a clicked class,
 * a search box); it loads nothing from the network.  The output depends
 * only on the resolution and the region (no date, no path).
 */
#ifndef SQ_CHART_HTML_H
#define SQ_CHART_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the HTML page above for stems n_min..n_max and filtrations
 * 0..s_max of the computed resolution R (the region within R's, as for
 * sq_chart_write_json); name (NULL: fdmod_name of R's module) may hold any
 * bytes.  Memory: the JSON document, held once in a buffer.
 * Returns 0, SQ_E_RANGE (nothing written) when the region is not within
 * R's, SQ_E_NOMEM when the buffer cannot be had, or SQ_E_IO if a write
 * failed (f's error flag). */
int sq_chart_write_html(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                        int32_t s_max);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CHART_HTML_H */
