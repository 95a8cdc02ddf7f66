/*
 * fdmod_dual.c -- the dual of a finite module by the antipode on the
 * algebra generators, then the completion (fdmod_dual.h).
 */
#include "fdmod_dual.h"

#include <stdio.h>
#include <string.h>

#include "fdmod_tensor.h"
#include "stalg.h"
#include "stalg_chi.h"

/* s(n) = (-1)^{n(n-1)/2} at odd p: 1 when even. */
static int s_odd(int32_t n)
{
    int64_t m = (int64_t)n * (n - 1) / 2;
    return (int)(m & 1);
}

/* The name of the dual of a name (a trailing '*' dropped, else one added). */
static char *dual_name(const char *x)
{
    size_t n = strlen(x);
    char *d = sq_malloc(n + 2);
    if (n > 1 && x[n - 1] == '*') {
        memcpy(d, x, n - 1);
        d[n - 1] = '\0';
    } else
        snprintf(d, n + 2, "%s*", x);
    return d;
}

/* The default name: X for "D(X)", else "D(name)". */
static char *module_name(const char *name)
{
    size_t n = strlen(name);
    char *d = sq_malloc(n + 4);
    if (n > 3 && strncmp(name, "D(", 2) == 0 && name[n - 1] == ')') {
        memcpy(d, name + 2, n - 3);
        d[n - 3] = '\0';
    } else
        snprintf(d, n + 4, "D(%s)", name);
    return d;
}

/* w (zeroed, over N^n) = chi(a) z, chi(a) given by c over S_k, z basis
 * element zi of N^{n-k}. */
static void chi_apply(const fdmod_t *N, fvec_t c, int32_t k, int32_t n, int64_t zi, fvec_t w)
{
    uint32_t p = fdmod_prime(N);
    for (int64_t j = 0; j < c.len; j++) {
        uint32_t cj = fvec_get(c, j);
        if (!cj)
            continue;
        fvec_t v = fdmod_actionf(N, k, j, n - k, zi);
        if (v.len)
            fvec_addmul(w, v, cj % p);
    }
}

/* Sets the generator of degree k (chi of it: c) on every "x*" of DN. */
static void set_generator(fdmod_t *D, const fdmod_t *N, const stalg_t *S, int32_t k, fvec_t c)
{
    uint32_t p = fdmod_prime(N);
    for (int32_t n = fdmod_bottom(N) + k; n <= fdmod_top(N); n++) {
        int64_t dn = fdmod_dim(N, n), dz = fdmod_dim(N, n - k);
        if (!dn || !dz)
            continue;
        /* m[z] = chi(a) z over N^n; "x*" goes to sum_z sign m[z]_x "z*". */
        fvec_t *m = sq_malloc((size_t)dz * sizeof *m);
        for (int64_t z = 0; z < dz; z++) {
            fvec_init(&m[z], dn, p);
            chi_apply(N, c, k, n, z, m[z]);
        }
        int neg = p != 2 && (((int64_t)k * n) & 1) ^ s_odd(n) ^ s_odd(n - k);
        fvec_t vec;
        fvec_init(&vec, dz, p);
        for (int64_t x = 0; x < dn; x++) {
            fvec_zero(vec);
            for (int64_t z = 0; z < dz; z++) {
                uint32_t e = fvec_get(m[z], x);
                if (e)
                    fvec_set(vec, z, neg ? p - e : e);
            }
            if (!fvec_is_zero(vec))
                fdmod_set_genf(D, S, k, -n, x, vec);
        }
        fvec_clear(&vec);
        for (int64_t z = 0; z < dz; z++)
            fvec_clear(&m[z]);
        sq_free(m);
    }
}

int fdmod_dual(fdmod_t **out, const fdmod_t *N, const char *name, char *err, size_t errlen)
{
    *out = NULL;
    int32_t bot = fdmod_bottom(N), top = fdmod_top(N);
    if (bot > top) {
        snprintf(err, errlen, "the module %s has no cells: its dual is zero", fdmod_name(N));
        return SQ_E_INVAL;
    }
    uint32_t p = fdmod_prime(N);
    char *dflt = module_name(fdmod_name(N));
    fdmod_t *D = fdmod_new_p(name ? name : dflt, p, -top, -bot);
    sq_free(dflt);
    if (p == 2) {
        int32_t h[MILNOR_MAX_LEN];
        fdmod_set_profile(D, h, fdmod_profile(N, h));
    } else
        fdmod_set_pprofile(D, fdmod_pprofile(N));
    for (int32_t d = -top; d <= -bot; d++)
        for (int64_t i = 0; i < fdmod_dim(N, -d); i++) {
            char *nm = dual_name(fdmod_basis_name(N, -d, i));
            fdmod_add_basis(D, d, nm);
            sq_free(nm);
        }
    stalg_t *S = fdmod_new_algebra(N, top - bot);
    int32_t gd[32];
    int64_t gi[32];
    int ng = stalg_gens(S, top - bot, gd, gi, 32);
    for (int g = 0; g < ng && g < 32; g++) {
        fvec_t c;
        fvec_init(&c, stalg_dim(S, gd[g]), p);
        stalg_chi_gen(S, gd[g], c);
        set_generator(D, N, S, gd[g], c);
        fvec_clear(&c);
    }
    int rc = fdmod_complete_alg(D, S, err, errlen);
    stalg_free(S);
    if (rc)
        fdmod_free(D);
    else
        *out = D;
    return rc;
}
