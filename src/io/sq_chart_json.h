/*
 * sq_chart_json.h -- the E2 data of a chart and its filtration-one products
 * as JSON, for other tools (docs/charts.md has the schema).
 *
 *   {
 *     "format": "adams-chart", "version": 1,
 *     "module": "S_2", "min_n": 0, "max_n": 30, "max_s": 18,
 *     "classes": [ {"n": 0, "s": 0, "i": 0}, ... ],
 *     "products": [ {"h": 0, "from": [0, 0, 0], "to": [[0, 1, 0]]}, ... ]
 *   }
 *
 * classes: every generator x_(n, s, i) of the region (min_n <= n <= max_n,
 * 0 <= s <= max_s), n ascending, then s, then i.
 * products: for each class x_(n, s, k) and each h_i that acts and whose
 * target (n + 2^i - 1, s + 1) lies in the region and is not zero-dimensional
 * (the lines sq_products_write prints), the object
 *     {"h": i, "from": [n, s, k], "to": [[n + 2^i - 1, s + 1, g], ...]}
 * listing the generators g with coefficient 1 in h_i x_(n, s, k), g
 * ascending ("to": [] when the product is zero); order: n, s, i, k.  An
 * h_i x absent from the list has its target outside the region or zero.
 *
 * At an odd prime p (the same keys otherwise): "prime": p follows
 * "module"; the products are those of the filtration-one classes c = a0,
 * h0, h1, ... (resol_filt1_*; c_k in stem deg_k - 1, deg_k =
 * resol_filt1_degree: a0 in stem 0, h_i in stem 2(p - 1)p^i - 1) whose
 * target lies in the region, each record
 *     {"by": "h0", "from": [n, s, k], "to": [[n + deg - 1, s + 1, g, c], ...]}
 * naming the class, each target generator g with its coefficient c in
 * 1..p-1 (c_k x = sum of c x_g); order: n, s, class, k.
 * One class or product per line; plain ASCII apart from the module name,
 * which is written as given (UTF-8) with JSON escapes.
 */
#ifndef SQ_CHART_JSON_H
#define SQ_CHART_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the document above, the value of "version".  A tool reading a
 * larger version should expect new keys, never changed meanings of these. */
#define SQ_CHART_JSON_VERSION 1

/* Writes the JSON document above for stems n_min..n_max and filtrations
 * 0..s_max of the computed resolution R (the region must lie within R's,
 * as for sq_chart_write_svg).  name (NULL: fdmod_name of R's module) is the
 * value of "module"; R may be at any prime.  Cost: one resol_filt1_matrix
 * per nonzero bidegree and class.
 * Returns 0, SQ_E_RANGE (nothing written) when the region is not within
 * R's, or SQ_E_IO if a write failed (f's error flag). */
int sq_chart_write_json(FILE *f, const resol_t *R, const char *name, int32_t n_min, int32_t n_max,
                        int32_t s_max);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CHART_JSON_H */
