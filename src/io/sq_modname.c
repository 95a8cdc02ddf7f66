/*
 * sq_modname.c -- the basis suffix of a module name (sq_modname.h).
 */
#include "sq_modname.h"

#include <stdio.h>
#include <string.h>

#include "sq_core.h"
#include "sq_modspec.h"

int sq_modname_split_basis(char *base, size_t n, const char *spec, int *adem, char *err,
                           size_t errlen)
{
    *adem = 0;
    const char *at = strrchr(spec, '@');
    if (!at || strchr(at, '/')) {
        snprintf(base, n, "%s", spec);
        return 0;
    }
    if (strcmp(at + 1, "milnor") != 0 && strcmp(at + 1, "adem") != 0) {
        char q[256 + 8];
        sq_modspec_printable(q, sizeof q, at + 1, strlen(at + 1), 256);
        snprintf(err, errlen, "unknown basis '%s' after '@' (expected milnor or adem)", q);
        return SQ_E_INVAL;
    }
    *adem = strcmp(at + 1, "adem") == 0;
    snprintf(base, n, "%.*s", (int)(at - spec), spec);
    return 0;
}
