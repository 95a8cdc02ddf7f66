/*
 * sq_modspec_kinds.c -- the kinds of module file besides "finite
 * dimensional module": "finitely presented module" (generators and
 * relations), "real projective space" (min, max, clear_bottom), and the
 * key "cofiber" that any kind may carry.
 *
 * Both kinds are usually infinite.  Ext^{s,t} through stem N depends only
 * on the module in degrees <= N + 1 (a cell of degree d first shows in
 * stem d - 1), so the loader builds the quotient of the module by its
 * degrees above the caller's max_degree: a finite A-module whose Ext agrees
 * with the module's in every stem < max_degree.  The module layer does the
 * algebra (fpmod_build, rpmod_build); this file reads the keys, parses the
 * relation strings (sq_modspec_relation.c) and reports errors with the
 * file's line.
 */
#include <jansson.h>
#include <string.h>

#include "fpmod.h"
#include "modspec_internal.h"
#include "relation_internal.h"
#include "rpmod.h"

/* ---- Keys ------------------------------------------------------------------ */

/* Refuses key in a module of the kind `what` that does not use it. */
static int refuse_key(spec_t *S, json_t *root, const char *key, const char *what)
{
    if (!json_object_get(root, key))
        return 0;
    return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, key, 0), "\"%s\" does not belong to %s", key,
                     what);
}

/* An integer key within +-SQ_MODSPEC_MAX_DEGREE into *out. */
static int read_degree_key(spec_t *S, json_t *root, const char *key, int32_t *out)
{
    json_t *v = json_object_get(root, key);
    size_t pos = spec_key_pos(S, key, 0);
    if (!json_is_integer(v))
        return spec_fail(S, SQ_E_INVAL, pos, "\"%s\" must be an integer, not %s", key,
                         spec_type_name(v));
    json_int_t k = json_integer_value(v);
    if (k < -SQ_MODSPEC_MAX_DEGREE || k > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, pos, "\"%s\" %lld is out of range (|degree| <= %d)", key,
                         (long long)k, SQ_MODSPEC_MAX_DEGREE);
    *out = (int32_t)k;
    return 0;
}

/* With "clear_bottom" the bottom cell is not "min" but the raised min'
 * (rpmod_bottom: the next degree that is -1 mod 8).  S->rp_min becomes
 * min', so that everything that reads it -- the bottom and the span the
 * load reports (sq_modspec_info_t), hence the first stem of every chart,
 * the default filtration and the store's region -- agrees with the module
 * that is built (rpmod_build raises min' to itself).  A file whose "max"
 * lies below min' describes the zero module, and one whose min' passes the
 * largest degree cannot be built: both are refused here, with the file's
 * own numbers. */
static int raise_bottom(spec_t *S)
{
    if (!S->rp_clear_bottom)
        return 0;
    int64_t lo = rpmod_bottom(S->rp_min, 1);
    size_t pos = spec_key_pos(S, "clear_bottom", 0);
    if (lo > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, pos,
                         "\"clear_bottom\" raises \"min\" %d to %lld, beyond the largest degree %d",
                         (int)S->rp_min, (long long)lo, SQ_MODSPEC_MAX_DEGREE);
    if (S->rp_have_max && S->rp_max < lo)
        return spec_fail(S, SQ_E_INVAL, pos,
                         "\"clear_bottom\" raises \"min\" %d to %lld, above \"max\" %d: the "
                         "module would be zero",
                         (int)S->rp_min, (long long)lo, (int)S->rp_max);
    S->rp_min = (int32_t)lo;
    return 0;
}

int spec_read_projective(spec_t *S, json_t *root)
{
    static const char *const foreign[] = {"gens", "actions", "adem_relations",
                                          "milnor_relations", NULL};
    for (int i = 0; foreign[i]; i++) {
        int rc = refuse_key(S, root, foreign[i], "a real projective space (it has \"min\", "
                                                 "\"max\" and \"clear_bottom\")");
        if (rc)
            return rc;
    }
    if (!json_object_get(root, "min"))
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "type", 0),
                         "a real projective space needs \"min\", the degree of its bottom cell");
    int rc = read_degree_key(S, root, "min", &S->rp_min);
    if (rc)
        return rc;
    if (json_object_get(root, "max")) {
        rc = read_degree_key(S, root, "max", &S->rp_max);
        if (rc)
            return rc;
        if (S->rp_max < S->rp_min)
            return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "max", 0),
                             "\"max\" %d is below \"min\" %d", (int)S->rp_max, (int)S->rp_min);
        S->rp_have_max = 1;
    }
    json_t *cb = json_object_get(root, "clear_bottom");
    if (cb && !json_is_boolean(cb))
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "clear_bottom", 0),
                         "\"clear_bottom\" must be true or false, not %s", spec_type_name(cb));
    S->rp_clear_bottom = json_is_true(cb);
    return raise_bottom(S);
}

static const char *const rel_keys[2] = {"adem_relations", "milnor_relations"};

int spec_read_relations(spec_t *S, json_t *root)
{
    static const char *const foreign[] = {"actions", "min", "max", "clear_bottom", NULL};
    for (int i = 0; foreign[i]; i++) {
        int rc = refuse_key(S, root, foreign[i],
                            "a finitely presented module (it has \"gens\" and "
                            "\"adem_relations\" or \"milnor_relations\")");
        if (rc)
            return rc;
    }
    for (int l = 0; l < 2; l++) {
        json_t *v = json_object_get(root, rel_keys[l]);
        if (!v)
            continue;
        size_t pos = spec_key_pos(S, rel_keys[l], 0);
        if (!json_is_array(v))
            return spec_fail(S, SQ_E_INVAL, pos,
                             "\"%s\" must be a list of strings like \"Sq2 x0 + Sq1 x1\", not %s",
                             rel_keys[l], spec_type_name(v));
        size_t n = json_array_size(v);
        S->rel_str[l] = sq_calloc(n + 1, sizeof *S->rel_str[l]);
        S->rel_pos[l] = sq_calloc(n + 1, sizeof *S->rel_pos[l]);
        S->have_rel[l] = 1;
        size_t from = pos == SPEC_NOPOS ? 0 : pos;
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_array_get(v, i);
            if (!json_is_string(e))
                return spec_fail(S, SQ_E_INVAL, pos,
                                 "\"%s\" entry %zu must be a string like \"Sq2 x0 + Sq1 x1\", not "
                                 "%s",
                                 rel_keys[l], i + 1, spec_type_name(e));
            const char *str = json_string_value(e);
            size_t len = json_string_length(e);
            S->rel_str[l][i] = str;
            size_t at = len ? spec_find(S, from, str, len, 0) : SPEC_NOPOS;
            S->rel_pos[l][i] = at == SPEC_NOPOS ? pos : at;
            if (at != SPEC_NOPOS)
                from = at + len;
            S->nrel[l]++;
        }
    }
    if (!S->have_rel[0] && !S->have_rel[1])
        return spec_fail(S, SQ_E_INVAL, spec_key_pos(S, "type", 0),
                         "a finitely presented module needs \"adem_relations\" or "
                         "\"milnor_relations\" (a list of relations such as \"Sq1 x0\")");
    return 0;
}

void spec_free_relations(spec_t *S)
{
    for (int l = 0; l < 2; l++) {
        sq_free(S->rel_str[l]);
        sq_free(S->rel_pos[l]);
        S->rel_str[l] = NULL;
        S->rel_pos[l] = NULL;
        S->nrel[l] = 0;
    }
}

int spec_read_cofiber(spec_t *S, json_t *root, sq_modspec_info_t *info)
{
    json_t *c = json_object_get(root, "cofiber");
    info->cofiber = 0;
    if (!c)
        return 0;
    size_t pos = spec_key_pos(S, "cofiber", 0);
    static const char shape[] = "\"cofiber\" must be an object {\"s\": S, \"t\": T, \"idx\": I}: "
                                "the class x_(T - S, S, I) of the module";
    if (!json_is_object(c))
        return spec_fail(S, SQ_E_INVAL, pos, "%s, not %s", shape, spec_type_name(c));
    const char *key;
    json_t *v;
    json_object_foreach(c, key, v)
    {
        if (strcmp(key, "s") != 0 && strcmp(key, "t") != 0 && strcmp(key, "idx") != 0)
            return spec_fail(S, SQ_E_INVAL, pos, "\"cofiber\": unknown key \"%s\" (%s)",
                             spec_clip(S, key, strlen(key)), shape);
    }
    json_t *js = json_object_get(c, "s"), *jt = json_object_get(c, "t"),
           *ji = json_object_get(c, "idx");
    if (!json_is_integer(js) || !json_is_integer(jt) || !json_is_integer(ji))
        return spec_fail(S, SQ_E_INVAL, pos, "%s; \"s\", \"t\" and \"idx\" are integers", shape);
    json_int_t s = json_integer_value(js), t = json_integer_value(jt), idx = json_integer_value(ji);
    if (s < 1 || s > SQ_MODSPEC_MAX_COFIBER_S)
        return spec_fail(S, SQ_E_RANGE, pos,
                         "\"cofiber\": \"s\" is %lld; the class must have filtration 1..%d",
                         (long long)s, SQ_MODSPEC_MAX_COFIBER_S);
    if (t < -SQ_MODSPEC_MAX_DEGREE || t > SQ_MODSPEC_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, pos, "\"cofiber\": \"t\" %lld is out of range (|t| <= %d)",
                         (long long)t, SQ_MODSPEC_MAX_DEGREE);
    if (idx < 0 || idx > SQ_MODSPEC_MAX_COFIBER_IDX)
        return spec_fail(S, SQ_E_RANGE, pos,
                         "\"cofiber\": \"idx\" %lld is out of range (0..%d)", (long long)idx,
                         SQ_MODSPEC_MAX_COFIBER_IDX);
    info->cofiber = 1;
    info->cof_s = (int32_t)s;
    info->cof_t = (int32_t)t;
    info->cof_idx = (int64_t)idx;
    return 0;
}

/* ---- Real projective spaces ------------------------------------------------ */

int spec_build_projective(spec_t *S, const char *name, int32_t shift, int32_t max_degree,
                          fdmod_t **out)
{
    int32_t top = max_degree - shift; /* in the degrees of the file */
    if (S->rp_have_max && S->rp_max < top)
        top = S->rp_max;
    int64_t span = (int64_t)top - S->rp_min;
    if (span > SQ_MODSPEC_MAX_SPAN)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the projective space truncated to degree %d spans %lld degrees, more "
                         "than the largest span %d",
                         (int)max_degree, (long long)span, SQ_MODSPEC_MAX_SPAN);
    int32_t adeg = span > 1 ? (int32_t)span : 1;
    milnor_t *A = S->plen ? milnor_new_profile(adeg, S->profile, S->plen) : milnor_new(adeg);
    char msg[768];
    fdmod_t *M = NULL;
    int rc = rpmod_build(&M, A, name, S->rp_min, S->rp_have_max, S->rp_max, S->rp_clear_bottom,
                         top, S->max_tables, msg, sizeof msg);
    milnor_free(A);
    if (rc)
        return spec_fail(S, rc, SPEC_NOPOS, "%s", msg);
    if (shift) {
        fdmod_t *Ms = fdmod_new_shifted(M, shift, name);
        fdmod_free(M);
        M = Ms;
    }
    if (S->plen)
        fdmod_set_profile(M, S->profile, S->plen);
    *out = M;
    return 0;
}

/* ---- Finitely presented modules ------------------------------------------- */

/* The relations of list l parsed in A into rels (nrel[l] entries, cleared
 * by the caller even on error) and their fpmod views (terms allocated). */
static int parse_list(spec_t *S, const milnor_t *A, int l, int32_t shift, spec_rel_t *rels,
                      fpmod_rel_t *views)
{
    for (int64_t i = 0; i < S->nrel[l]; i++) {
        const char *str = S->rel_str[l][i];
        int rc = spec_parse_relation(S, A, str, strlen(str), S->rel_pos[l][i], &rels[i]);
        if (rc)
            return rc;
        fpmod_term_t *t = sq_calloc((size_t)rels[i].nterms + 1, sizeof *t);
        for (int64_t k = 0; k < rels[i].nterms; k++) {
            t[k].gen = rels[i].terms[k].gen;
            t[k].opdeg = rels[i].terms[k].opdeg;
            t[k].op = rels[i].terms[k].op;
        }
        views[i].deg = rels[i].deg + shift;
        views[i].nterms = rels[i].nterms;
        views[i].terms = t;
    }
    return 0;
}

/* The largest operation degree any relation needs (checks every string). */
static int max_op_degree(spec_t *S, int32_t *maxop)
{
    *maxop = 0;
    for (int l = 0; l < 2; l++)
        for (int64_t i = 0; i < S->nrel[l]; i++) {
            const char *str = S->rel_str[l][i];
            int32_t deg, op;
            int rc = spec_relation_degree(S, str, strlen(str), S->rel_pos[l][i], &deg, &op);
            if (rc)
                return rc;
            if (op > *maxop)
                *maxop = op;
        }
    return 0;
}

/* Both lists given: they must generate the same submodule. */
static int check_lists_agree(spec_t *S, const milnor_t *A, const int32_t *gdeg,
                             fpmod_rel_t *const views[2])
{
    int64_t bad_list = 0, bad_index = 0;
    int same = fpmod_same_submodule(A, S->ngens, gdeg, S->nrel[0], views[0], S->nrel[1],
                                    views[1], &bad_list, &bad_index);
    if (same == 1)
        return 0;
    if (same < 0)
        return spec_fail(S, same, SPEC_NOPOS,
                         "cannot compare \"adem_relations\" with \"milnor_relations\": a "
                         "relation is malformed or beyond the supported degrees");
    int l = (int)bad_list;
    const char *str = S->rel_str[l][bad_index];
    return spec_fail(S, SQ_E_INVAL, S->rel_pos[l][bad_index],
                     "%s entry %lld \"%s\" is not in the submodule generated by \"%s\": the two "
                     "lists must present the same module",
                     rel_keys[l], (long long)bad_index + 1, spec_clip(S, str, strlen(str)),
                     rel_keys[1 - l]);
}

int spec_build_presented(spec_t *S, const char *name, int32_t shift, int32_t max_degree,
                         fdmod_t **out)
{
    int32_t maxop;
    int rc = max_op_degree(S, &maxop);
    if (rc)
        return rc;
    if (maxop > SQ_MODSPEC_MAX_RELATION_DEGREE)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "a relation has an operation of degree %d, more than the largest "
                         "supported %d",
                         (int)maxop, SQ_MODSPEC_MAX_RELATION_DEGREE);
    int64_t span = (int64_t)max_degree - shift - S->gens[0].fdeg;
    int64_t adeg = span > maxop ? span : maxop;
    if (adeg > MILNOR_MAX_DEGREE)
        return spec_fail(S, SQ_E_RANGE, SPEC_NOPOS,
                         "the module truncated to degree %d needs Steenrod algebra degree %lld, "
                         "beyond the supported %d",
                         (int)max_degree, (long long)adeg, MILNOR_MAX_DEGREE);
    milnor_t *A = milnor_new(adeg > 1 ? (int32_t)adeg : 1);
    int32_t *gdeg = sq_calloc((size_t)S->ngens, sizeof *gdeg);
    const char **gname = sq_calloc((size_t)S->ngens, sizeof *gname);
    for (int64_t i = 0; i < S->ngens; i++) {
        gdeg[i] = S->gens[i].fdeg + shift;
        gname[i] = S->gens[i].name;
    }
    spec_rel_t *rels[2];
    fpmod_rel_t *views[2];
    for (int l = 0; l < 2; l++) {
        rels[l] = sq_calloc((size_t)S->nrel[l] + 1, sizeof *rels[l]);
        views[l] = sq_calloc((size_t)S->nrel[l] + 1, sizeof *views[l]);
    }
    for (int l = 0; l < 2 && !rc; l++)
        rc = parse_list(S, A, l, shift, rels[l], views[l]);
    if (!rc && S->have_rel[0] && S->have_rel[1])
        rc = check_lists_agree(S, A, gdeg, views);
    if (!rc) {
        int l = S->have_rel[1] ? 1 : 0; /* the same module either way */
        char msg[768];
        rc = fpmod_build(out, A, name, S->ngens, gdeg, gname, S->nrel[l], views[l], max_degree,
                         S->max_tables, msg, sizeof msg);
        if (rc)
            rc = spec_fail(S, rc, SPEC_NOPOS, "%s", msg);
    }
    for (int l = 0; l < 2; l++) {
        for (int64_t i = 0; i < S->nrel[l]; i++) {
            sq_free((void *)views[l][i].terms);
            spec_rel_clear(&rels[l][i]);
        }
        sq_free(rels[l]);
        sq_free(views[l]);
    }
    sq_free(gdeg);
    sq_free(gname);
    milnor_free(A);
    return rc;
}
