/*
 * main.c -- the adams program: dispatch to a verb.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_products.h"

#define ADAMS_VERSION "0.1.0"

static const char usage[] =
    "adams " ADAMS_VERSION " -- the Adams E2 page: Ext over the mod 2 Steenrod algebra\n"
    "\n"
    "Usage: adams <command> [options]\n"
    "\n"
    "Commands:\n"
    "  resolve [MODULE]   compute a minimal free resolution of MODULE and print\n"
    "                     its Ext groups (the Adams E2 page); see 'adams resolve --help'\n"
    "  modules            list the shipped modules (C2, Ceta, Joker, ko, tmf2, ...)\n"
    "  products [MODULE]  the products by h_0, h_1, h_2, ... of every class\n"
    "  product [MODULE]   a class times a class of Ext of the sphere\n"
    "  massey [MODULE]    the Massey product <a, b, c> and its indeterminacy\n"

    "\n"
    "Options:\n"
    "  -h, --help         show this help\n"
    "  --version          print the version\n"
    "\n"
    "Example:\n"
    "  adams resolve S_2 --stem 40     the E2 page of the sphere through stem 40\n";

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("adams: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_parse_int(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    if (!text || !*text) {
        cli_error("%s: missing value", opt);
        return -1;
    }
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end != '\0' || end == text) {
        cli_error("%s: expected an integer, got '%s'", opt, text);
        return -1;
    }
    if (v < lo || v > hi) {
        cli_error("%s: %s is out of range [%lld, %lld]", opt, text, (long long)lo, (long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return CLI_USAGE;
    }
    const char *verb = argv[1];
    if (strcmp(verb, "-h") == 0 || strcmp(verb, "--help") == 0 || strcmp(verb, "help") == 0) {
        fputs(usage, stdout);
        return CLI_OK;
    }
    if (strcmp(verb, "--version") == 0) {
        puts("adams " ADAMS_VERSION);
        return CLI_OK;
    }
    if (strcmp(verb, "resolve") == 0)
        return cmd_resolve(argc - 1, argv + 1);
    if (strcmp(verb, "modules") == 0)
        return cmd_modules(argc - 1, argv + 1);
    if (strcmp(verb, "products") == 0)
        return cmd_products(argc - 1, argv + 1);
    if (strcmp(verb, "product") == 0)
        return cmd_product(argc - 1, argv + 1);
    if (strcmp(verb, "massey") == 0)
        return cmd_massey(argc - 1, argv + 1);

    cli_error("unknown command '%s' (try 'adams --help')", verb);
    return CLI_USAGE;
}
