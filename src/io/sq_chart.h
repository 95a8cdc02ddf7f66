/*
 * sq_chart.h -- the outputs users know: the dot chart and n,s,dim lines.
 */
#ifndef SQ_CHART_H
#define SQ_CHART_H

#include <stdint.h>
#include <stdio.h>

#include "fmat.h"
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

/* The writers' common start: the name to show (name, or fdmod_name of R's
 * module when name is NULL), or NULL when the region (stems n_min..n_max,
 * filtrations 0..s_max) is not within R's -- the caller's error, but one a
 * user's options can reach: the writers then return SQ_E_RANGE with
 * nothing written, never abort. */
const char *sq_chart_check_region(const resol_t *R, const char *name, int32_t n_min,
                                  int32_t n_max, int32_t s_max);

/* The products by the filtration-one class k of R (resol_filt1_degree,
 * resol_filt1_name, resol_filt1_matrix: h_k at p = 2; a_0, h_0, h_1, ... at
 * odd p) on Ext^{s, s+n}, for a chart of stems up to n_max and filtrations
 * up to s_max: the one walk of the SVG and JSON writers.  *tn is the
 * target stem n + resol_filt1_degree(R, k) - 1.  Returns 1 with *m the
 * matrix of resol_filt1_matrix (rows: the classes of (*tn, s + 1); columns:
 * those of (n, s); the caller fmat_clears it); 0 when class k does not act
 * in R (a later one may: over a profile without Q_0 at odd p, a_0 does not
 * act and h_0 does) or the source or target group is zero; -1 when its
 * target lies beyond n_max or s_max (the targets of the classes after k
 * lie further right, so a walk over k stops here).  On 0 and -1, *m holds
 * nothing to free.
 * Threads: reads R only. */
int sq_chart_filt1(const resol_t *R, int k, int32_t n, int32_t s, int32_t n_max, int32_t s_max,
                   int32_t *tn, fmat_t *m);

#ifdef __cplusplus
}
#endif

#endif /* SQ_CHART_H */
