/*
 * sq_chart.h -- the outputs users know: the dot chart and n,s,dim lines.
 */
#ifndef SQ_CHART_H
#define SQ_CHART_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The glyph (UTF-8) for a cell of dimension dim >= 0: ' ', '·', ':', '∴',
 * '⁘', '⁙', '⠿', '⡿', '⣿', '9', then '*' for 10 and more. */
const char *sq_chart_glyph(int64_t dim);

/* A source of Ext dimensions: dim Ext^{s, s+n}, or -1 when not computed. */
typedef int64_t (*sq_ext_fn)(const void *ctx, int32_t s, int32_t n);

/* The dot chart and the CSV lines below, for any source of dimensions
 * (a resolution, the cofiber of a class, ...).  Same formats and return
 * values as sq_chart_write_dots and sq_chart_write_csv. */
int sq_chart_write_dots_fn(FILE *f, sq_ext_fn ext, const void *ctx, int32_t n_min, int32_t n_max,
                           int32_t s_max);
int sq_chart_write_csv_fn(FILE *f, sq_ext_fn ext, const void *ctx, int32_t n_min, int32_t n_max,
                          int32_t s_max);

/* Writes the dot chart of stems n_min..n_max and filtrations 0..s_max of a
 * computed resolution: rows from s = s_max down to 0, each stem two
 * characters (glyph, space), each row ended by '\n', then one empty line.
 * Cells not computed print as '?'.  Returns 0 or SQ_E_IO. */
int sq_chart_write_dots(FILE *f, const resol_t *R, int32_t n_min, int32_t n_max, int32_t s_max);

/* Writes one line "n,s,dim" per cell, zeros included, n-major then s, for
 * the same region.  Returns 0 or SQ_E_IO. */
int sq_chart_write_csv(FILE *f, const resol_t *R, int32_t n_min, int32_t n_max, int32_t s_max);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CHART_H */
