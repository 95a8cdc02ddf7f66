/*
 * sq_chart_e3.h -- the charts of the next page (docs/secondary.md): the E_2
 * chart with the Adams d_2 drawn as arrows, and the E_3 page, as SVG and
 * as JSON.  They draw on the grid of sq_chart_svg.h and extend the JSON
 * document of sq_chart_json.h; the E_2 writers are unchanged.
 *
 * SVG, --d2: the E_2 picture of sq_chart_write_svg with one more group
 *   <g class="d2" stroke="#b8002e"> of <line class="d2" .../>, one per
 *   nonzero entry of d_2 (source dot to target dot), under the dots.
 * SVG, page 3: the same grid, title "E3 page", one <circle> per class of a
 *   basis of E_3 (resol_sec_e3_basis; hover: "E3 (n, s, i) = [rep]", the
 *   representative over the classes x_(n, s, j)), and the lines of h_0,
 *   h_1, h_2 between them (the products of the representatives, in the
 *   target's E_3 basis: d_2 h_i = 0 for i <= 2, so h_i acts on E_3).
 * JSON, --d2: the document of sq_chart_write_json with one more key,
 *   "d2": [ {"from": [n, s, i], "to": [[n - 1, s + 2, j], ...]}, ... ]
 *   for every class whose target is in the region and not zero-dimensional.
 * JSON, page 3: {"format": "adams-chart", "version": 1, "module": ...,
 *   "min_n", "max_n", "max_s", "page": 3, "classes": [{"n", "s", "i",
 *   "rep": [v...]}], "products": [{"h": k, "from": [n, s, i], "to":
 *   [[n', s + 1, g], ...]}]} in the E_3 bases.
 * The region must lie where X knows what is drawn: d_2 from every class
 * (--d2: stems <= max_n, s + 2 <= max_s of X's resolution) or E_3 (page 3:
 * resol_sec_e3_dim >= 0 everywhere); else SQ_E_RANGE and nothing written.
 */
#ifndef SQ_CHART_E3_H
#define SQ_CHART_E3_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"
#include "resol_secondary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The colour of the d_2 arrows. */
#define SQ_CHART_D2_COLOUR "#b8002e"

/* page 2 with d2 = 1: the E_2 chart with the d_2 arrows; page 3: the E_3
 * chart (d2 must be 0).  json: the JSON document instead of SVG.  name as
 * sq_chart_write_svg.  Returns 0, SQ_E_RANGE (nothing written) or
 * SQ_E_IO. */
int sq_chart_write_page(FILE *f, const resol_t *R, const resol_sec_t *X, int page, int d2,
                        int json, const char *name, int32_t n_min, int32_t n_max, int32_t s_max);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CHART_E3_H */
