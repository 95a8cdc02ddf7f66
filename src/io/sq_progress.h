/*
 * sq_progress.h -- a progress line on a terminal for long runs:
 *
 *   [#########...........]  1234/5678 bidegrees  stem 45  12.3 s  ETA 20 s
 *
 * redrawn in place (carriage return) at most ten times a second, and
 * cleared at the end.  The ETA weighs each bidegree by a cost model (cost
 * grows about 2.5x per 10 degrees), not by count, since late steps are far
 * more expensive than early ones.
 */
#ifndef SQ_PROGRESS_H
#define SQ_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "resol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sq_progress sq_progress_t;

/* A progress display on f for the steps of R (engine fixed by
 * resol_prepare).  Returns NULL-safe object; free with sq_progress_free. */
sq_progress_t *sq_progress_new(FILE *f, resol_t *R, resol_algo_t algo);
/* Clears the line and frees p; NULL is a no-op. */
void sq_progress_free(sq_progress_t *p);
/* An observer for resol_run_pool that updates p. */
resol_observer_t sq_progress_observer(sq_progress_t *p);

#ifdef __cplusplus
}
#endif

#endif /* SQ_PROGRESS_H */
