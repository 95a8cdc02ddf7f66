/*
 * cli_dir.c -- the directory of -o DIR (cli_dir.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli_dir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_prepare_dir(const char *dir, const char *first, const char *what)
{
    struct stat st;
    char path[4200];
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT && mkdir(dir, 0777) == 0)
            return 0;
        cli_error("-o %s: cannot make the directory: %s", cli_str(dir), strerror(errno));
        return CLI_FAIL;
    }
    if (!S_ISDIR(st.st_mode)) {
        cli_error("-o %s: not a directory", cli_str(dir));
        return CLI_USAGE;
    }
    snprintf(path, sizeof path, "%s/%s", dir, first);
    if (access(path, F_OK) == 0) {
        cli_error("-o %s: already holds %s (%s): nothing is overwritten; choose another "
                  "directory",
                  cli_str(dir), what, first);
        return CLI_USAGE;
    }
    return 0;
}
