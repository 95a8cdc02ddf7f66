/*
 * cli_dir.h -- the directory of -o DIR for verbs that write several files
 * (export: Bruner's hDiff.s; yoneda: a representative's module and map
 * files).
 */
#ifndef CLI_DIR_H
#define CLI_DIR_H

/* DIR ready to receive files: made when missing (CLI_FAIL with one line
 * when it cannot be); refused (CLI_USAGE, one line) when it is not a
 * directory or already holds the file first, "-o DIR: already holds WHAT
 * (FIRST): nothing is overwritten; choose another directory".  Returns
 * 0 or the exit code. */
int cli_prepare_dir(const char *dir, const char *first, const char *what);

#endif /* CLI_DIR_H */
