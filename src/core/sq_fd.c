/*
 * sq_fd.c -- descriptors above 2 (sq_fd.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sq_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int sq_fd_reserve_std(void)
{
    int ret = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        /* The lowest free descriptor is fd itself: the ones below are open. */
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got < 0) {
            ret = -1;
        } else if (got != fd) { /* cannot happen; never keep a stray descriptor */
            close(got);
            ret = -1;
        }
    }
    return ret;
}

int sq_fd_open(const char *path, int flags, mode_t mode)
{
    int fd = open(path, flags | O_CLOEXEC, mode);
    if (fd < 0 || fd > 2)
        return fd;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int e = errno;
    close(fd);
    errno = e;
    return high;
}
