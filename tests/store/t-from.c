/*
 * t-from.c -- the readers of a store through the program: `chart --from`
 * and `products --from` decide what is available from the rows, as `ext`
 * does (issue 19: a missing row gave a truncated answer with exit 0); a
 * negative stored stem is a region, not "none" (issue 20, row 12); and
 * `adams check` checks d o d and minimality on the stores of infinite
 * modules (row 21) instead of saying "ok" after the checksums, and
 * `--from` reads them (it refused them).
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sq_store.h"
#include "sq_test.h"
#include "store_test.h"

static int adams(char **o, char **e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int adams(char **o, char **e, const char *fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return sq_test_run_adams(args, o, e);
}

/* A row deleted: chart, products and ext refuse the region (one line,
 * naming the store and the bidegree); a region without it still reads. */
TEST(store_from_missing_row_refused)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "s.db");
    char *o, *e;
    ASSERT_EQ(adams(&o, &e, "resolve --stem 20 --max-s 8 --save %s --quiet%s", p, ""), 0);
    sq_free(o), sq_free(e);
    ASSERT_EQ(adams(&o, &e, "chart --from %s --format json%s", p, ""), 0);
    char *full = o;
    sq_free(e);
    st_sql(p, "DELETE FROM step WHERE s = 3 AND t = 15");
    static const char *const verbs[] = {"chart --from %s --format json",
                                        "products --from %s",
                                        "chart --from %s --stem 20 --max-s 8 --format json"};
    for (int i = 0; i < 3; i++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%s", verbs[i]);
        char *at = strstr(cmd, "%s");
        char args[4200];
        snprintf(args, sizeof args, "%.*s%s%s", (int)(at - cmd), cmd, p, at + 2);
        int rc = sq_test_run_adams(args, &o, &e);
        printf("%s: exit %d: %s", args, rc, e);
        ASSERT_EQ(rc, 2);
        ASSERT(strstr(e, p) && strstr(e, "(n=12, s=3)") && sq_test_count_lines(e) == 1);
        ASSERT_EQ(strlen(o), 0);
        sq_free(o), sq_free(e);
    }
    ASSERT_EQ(adams(&o, &e, "ext %s%s", p, ""), 1);
    ASSERT(strstr(e, "(n=12, s=3)") != NULL);
    sq_free(o), sq_free(e);
    /* Below the hole: read from the rows. */
    ASSERT_EQ(adams(&o, &e, "chart --from %s --stem 11 --max-s 8 --format json%s", p, ""), 0);
    sq_free(o), sq_free(e);
    /* Recomputed by a resume: the same chart as before. */
    ASSERT_EQ(adams(&o, &e, "resolve --stem 20 --max-s 8 --save %s --quiet%s", p, ""), 0);
    sq_free(o), sq_free(e);
    ASSERT_EQ(adams(&o, &e, "chart --from %s --format json%s", p, ""), 0);
    ASSERT_STR_EQ(o, full);
    sq_free(o), sq_free(e), sq_free(full);
    /* A region far beyond the store: refused at once, nothing of its size
     * allocated. */
    ASSERT_EQ(adams(&o, &e, "chart --from %s --stem 90000 --max-s 90000 --format json%s", p, ""),
              2);
    ASSERT(strstr(e, "does not hold") != NULL);
    sq_free(o), sq_free(e);
    st_tmpdir_remove(dir);
}

/* Row 12: every stem of the region negative. */
TEST(store_from_negative_stems)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "j.db");
    char *o, *e, *o2, *e2;
    ASSERT_EQ(adams(&o, &e, "resolve 'Joker[-50]' --stem -30 --max-s 8 --save %s --quiet%s", p,
                    ""),
              0);
    sq_free(o), sq_free(e);
    int rc = adams(&o, &e, "chart --from %s --format json%s", p, "");
    printf("chart --from: exit %d %s", rc, e);
    ASSERT_EQ(rc, 0);
    ASSERT_EQ(adams(&o2, &e2, "chart 'Joker[-50]' --stem -30 --max-s 8 --format json%s%s", "",
                    ""),
              0);
    ASSERT_STR_EQ(o, o2);
    sq_free(o), sq_free(e), sq_free(o2), sq_free(e2);
    ASSERT_EQ(adams(&o, &e, "products --from %s%s", p, ""), 0);
    sq_free(o), sq_free(e);
    st_tmpdir_remove(dir);
}

/* Row 21: stores of infinite modules get d o d and minimality checked. */
TEST(store_check_infinite_modules)
{
    char *dir = st_tmpdir_new();
    const char *p = st_path(dir, "m.db");
    static const char *const mods[] = {"RP_inf", "A_mod_A1", "RP_-1_inf"};
    for (int i = 0; i < 3; i++) {
        char *o, *e;
        remove(p);
        ASSERT_EQ(adams(&o, &e, "resolve %s --stem 14 --save %s --quiet", mods[i], p), 0);
        sq_free(o), sq_free(e);
        ASSERT_EQ(adams(&o, &e, "check %s --full%s", p, ""), 0);
        ASSERT(strstr(o, "d o d = 0: ok") && strstr(o, "minimality and exactness: ok"));
        ASSERT(strlen(o) >= 3 && strcmp(o + strlen(o) - 3, "\nok\n" + 1) == 0);
        sq_free(o), sq_free(e);
        /* --from reads them too (the module rebuilt from its definition). */
        char *o2, *e2;
        ASSERT_EQ(adams(&o, &e, "chart --from %s --format json", p), 0);
        ASSERT_EQ(adams(&o2, &e2, "chart %s --stem 14 --format json --quiet", mods[i]), 0);
        ASSERT_STR_EQ(o, o2);
        sq_free(o), sq_free(e), sq_free(o2), sq_free(e2);
        /* Without a way to rebuild the module (the library alone), the
         * report says what was checked instead of "ok". */
        sq_store_t *st;
        char err[1024];
        ASSERT_EQ(sq_store_open_read(&st, p, err, sizeof err), 0);
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        sq_store_check_report_t rep;
        ASSERT_EQ(sq_store_check(st, NULL, f, &rep, err, sizeof err), 0);
        fclose(f);
        ASSERT(!rep.module_rebuilt && strstr(out, "NOT checked") && !strstr(out, "\nok\n"));
        free(out);
        sq_store_close(st);
    }
    /* A wrong vector with a valid checksum is found in such a store (a
     * flip that gives another valid minimal resolution is not wrong:
     * rows are tried until d o d or exactness breaks). */
    int caught = 0;
    for (int32_t t = 3; t <= 16 && !caught; t++)
        for (int32_t s = 1; s <= 4 && !caught; s++) {
            st_row_t r;
            if (!st_get_row(p, s, t, &r))
                continue;
            if (r.ngens > 0 && r.codec == 0 && r.len >= 8) {
                r.data[0] ^= 1;
                st_put_row(p, r.s, r.t, r.ngens, r.nbits, r.codec, r.rawlen, r.data, r.len,
                           st_row_crc(p, r.s, r.t, r.ngens, r.nbits, r.data, r.len));
                char *o, *e;
                int rc = adams(&o, &e, "check %s --full", p);
                caught = rc == 1 && strstr(o, "wrong: ") && strstr(o, "DAMAGED");
                sq_free(o), sq_free(e);
                r.data[0] ^= 1;
                st_put_row(p, r.s, r.t, r.ngens, r.nbits, r.codec, r.rawlen, r.data, r.len,
                           r.crc);
            }
            sq_free(r.data);
        }
    ASSERT(caught);
    st_tmpdir_remove(dir);
}
