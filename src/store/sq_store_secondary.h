/*
 * sq_store_secondary.h -- the secondary lift of a resolution kept in its
 * store (docs/save-format.md section 9), so that `adams d2 --save FILE`
 * resumes after a kill, extends to a larger stem, and `adams d2 --from
 * FILE` prints without lifting again.
 *
 * What is kept: the homotopies h_s(g) of resol_secondary.h, one record per
 * (s, t) (the generators of F_s in degree t), and per row s the degree
 * through which h_s is kept on every generator (`sec_row`).  A row is
 * written in one transaction once the engine has finished it, so the file
 * always holds whole rows, each a prefix of whole degrees.
 *
 *     sq_store_sec_t *K;
 *     rc = sq_store_sec_attach(&K, st, R, 1, err, sizeof err);  // st open for writing
 *     resol_sec_keep_t keep = sq_store_sec_keep(K);
 *     rc = resol_sec_new_kept(&X, R, pool, &keep, ...);         // 1: stopped by a signal
 *     sq_store_sec_detach(K);
 *
 * The tables are created by the first row written: a store that never
 * kept a lift has none, and is byte for byte what it was.  Readers that
 * do not know them ignore them (format 3 is unchanged).
 */
#ifndef SQ_STORE_SECONDARY_H
#define SQ_STORE_SECONDARY_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"
#include "resol_secondary.h"
#include "sq_store.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sq_store_sec sq_store_sec_t;

/* Attaches the secondary tables of st to R, the store's resolution
 * (loaded from st or computed into it; borrowed, as st, until detach).
 * save: 1 to write finished rows (st opened with sq_store_open), 0 to
 * read only.  Returns 0, SQ_E_INVAL (save asked of a read-only store,
 * an unstable store or not p = 2: the lift is stable, at p = 2) or
 * SQ_E_IO, with err. */
int sq_store_sec_attach(sq_store_sec_t **out, sq_store_t *st, const resol_t *R, int save,
                        char *err, size_t errlen) SQ_WARN_UNUSED;
/* Frees K (not st, not R); NULL is a no-op. */
void sq_store_sec_detach(sq_store_sec_t *K);

/* The hook for resol_sec_new_kept: load gives the kept homotopies of each
 * row (every record checked: checksum, lengths against R, padding; a
 * damaged or missing record is SQ_STORE_E_DAMAGED naming it); save (with
 * save = 1) commits the new part of each row in one transaction, then
 * asks to stop when a signal was caught (sq_store_signals_install). */
resol_sec_keep_t sq_store_sec_keep(sq_store_sec_t *K);

/* What K did: rows read whole (nothing of them computed), generators whose
 * h_s was read or computed, rows committed. */
typedef struct {
    int64_t rows_whole, gens_loaded, gens_computed, rows_saved;
} sq_store_sec_stats_t;
void sq_store_sec_stats(const sq_store_sec_t *K, sq_store_sec_stats_t *out);

/* Whether st holds secondary tables: *rows = the rows of `sec_row` (0 when
 * there are no tables).  Returns 0 or SQ_E_IO. */
int sq_store_sec_rows(sq_store_t *st, int64_t *rows, char *err, size_t errlen) SQ_WARN_UNUSED;

/* What sq_store_sec_check found. */
typedef struct {
    int64_t rows, records, damaged; /* rows, records, and the damaged among both */
    int64_t d2_cells, d2_failed;    /* cells (n, s) where d_2 d_2 = 0 was checked; failed */
    int64_t lift_gens, lift_failed; /* generators lifted afresh at the sample; disagreeing */
} sq_store_sec_report_t;

/* `adams check` of the secondary tables against R (the store's resolution,
 * loaded): every row's and record's checksum, that the records fit R
 * (generator counts, vector lengths, padding), that each row holds every
 * degree it claims and lies within R, d_2 d_2 = 0 wherever both d_2 are
 * kept (read off the homotopies, as resol_secondary does), and at up to
 * six samples (s, n) (seed: the sample's, 0: 17) the defining equation
 * of the kept h_s on the generators of the top four degrees of row s
 * through stem n: d h_s(g) equals d of a fresh lift from the kept h_{s-1}.  One line per
 * finding and a summary line to out (may be NULL).  Returns 0 when all is
 * well, SQ_STORE_E_DAMAGED when not (rep says what), or SQ_E_IO.  Cost:
 * the records read once, and at each sample the composites of one row
 * through stem n. */
int sq_store_sec_check(sq_store_t *st, const resol_t *R, uint64_t seed, FILE *out,
                       sq_store_sec_report_t *rep, char *err, size_t errlen) SQ_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif /* SQ_STORE_SECONDARY_H */
