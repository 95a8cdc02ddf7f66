/*
 * resol_remote.c -- what a distributed run needs of a resolution
 * (resol.h, "A run driven from outside"; docs/mpi.md): the runner hook,
 * running a step in a process that loaded its predecessors, and a step's
 * payload as resol_load_step takes it.
 */
#include <string.h>

#include "internal.h"
#include "sq_core.h"

void resol_set_runner(resol_t *R, resol_runner_fn run, void *ctx)
{
    R->runner = run;
    R->runner_ctx = run ? ctx : NULL;
}

resol_algo_t resol_engine(const resol_t *R)
{
    return R->algo;
}

int resol_step_kernel_only(const resol_t *R, int32_t s, int32_t t)
{
    return resol_step_kind(R, s, t) != 0 && t - s == R->max_n + 1;
}

void resol_run_step_here(resol_t *R, int32_t s, int32_t t, sq_pool_t *pool)
{
    SQ_CHECK(resol_step_kind(R, s, t) != 0 && !resol_step_kernel_only(R, s, t),
             "resol_run_step_here: (%d, %d) is not a step that publishes", (int)s, (int)t);
    /* A classical step reads the kernel of d_{s-1} in degree t.  When the
     * step (s - 1, t) ran here it is kept; when it was loaded, the step
     * recomputes it itself (add_gens); when it is the kernel-only step at
     * stem max_n + 1, which no process publishes, compute it now. */
    if (resol_step_kind(R, s, t) == 1 && s >= 1 && resol_step_kernel_only(R, s - 1, t) &&
        !R->K_set[resol_kslot(R, s - 1, t)])
        resol_kernel_classical(R, s - 1, t);
    R->pool = pool; /* kept: steps run here concurrently share it */
    resol_run_step(R, s, t);
}

int64_t resol_step_payload(const resol_t *R, int32_t s, int32_t t, int64_t *ngens, int64_t *nbits,
                           void *out)
{
    SQ_CHECK(resol_step_published(R, s, t) && t - s <= R->max_n,
             "resol_step_payload: (%d, %d) is not published", (int)s, (int)t);
    const fhom_t *d = R->d[s];
    int64_t n = fmod_num_gens(R->F[s], t);
    int64_t b = fhom_image_len(d, t);
    size_t vb = fvec_bytes_for(R->p, b);
    *ngens = n;
    *nbits = b;
    if (out && n > 0 && vb > 0) {
        int64_t g0 = fmod_gen_global(R->F[s], t, 0);
        for (int64_t i = 0; i < n; i++)
            memcpy((uint8_t *)out + (size_t)i * vb, fhom_image_enc(d, g0 + i, NULL), vb);
    }
    return (int64_t)sq_mul_size((size_t)n, vb);
}
