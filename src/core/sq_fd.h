/*
 * sq_fd.h -- file descriptors that never land on 0, 1 or 2.
 *
 * A program started with stdin, stdout or stderr closed (`2>&-`) gets
 * those numbers back from its next open(): a store's lock descriptor
 * became fd 2 and the trace lines meant for stderr were written into the
 * database (issue 20, row 1).  The program reserves them at start
 * (sq_fd_reserve_std, first thing in main); the library opens its own
 * files through sq_fd_open, which is close-on-exec and moves a descriptor
 * that still lands below 3 (a library user who did not reserve) above it.
 */
#ifndef SQ_FD_H
#define SQ_FD_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens /dev/null on each of the descriptors 0, 1 and 2 that is closed
 * (read-only for 0, write-only for 1 and 2), so that no file opened later
 * takes their place and writes to a closed stderr go nowhere.  Returns 0,
 * or -1 when /dev/null could not be opened (the descriptor stays closed).
 * Call it before anything opens a file; async-signal-safe. */
int sq_fd_reserve_std(void);

/* open(path, flags | O_CLOEXEC, mode), with a result >= 3: a descriptor
 * that lands on 0-2 is duplicated above 2 (F_DUPFD_CLOEXEC) and the low one
 * closed.  Returns the descriptor, or -1 with errno set. */
int sq_fd_open(const char *path, int flags, mode_t mode);

#ifdef __cplusplus
}
#endif

#endif /* SQ_FD_H */
