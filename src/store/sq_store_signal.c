/*
 * sq_store_signal.c -- SIGINT/SIGTERM for a saving run: the first signal
 * asks the run to stop after the steps in flight (their results are then
 * committed by the writer and the run reports itself stopped), a second one
 * ends the process at once.
 *
 * The handler only does async-signal-safe things: an atomic store into the
 * run (resol_request_stop), a write(2) and _exit(2).  The resolution to
 * stop is kept in a lock-free atomic pointer.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "sq_core.h"

static _Atomic(resol_t *) target;
static atomic_int caught;
static int installed;
static struct sigaction old_int, old_term, old_xfsz;

static void on_signal(int sig)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&caught, &expected, sig)) {
        static const char msg[] = "\nadams: second signal: stopping at once (the store keeps "
                                  "every step committed so far)\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(128 + sig);
    }
    resol_t *R = atomic_load(&target);
    if (R)
        resol_request_stop(R);
}

int sq_store_signals_install(resol_t *R)
{
    if (installed)
        return SQ_E_INVAL;
    atomic_store(&target, R);
    atomic_store(&caught, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    if (sigaction(SIGINT, &sa, &old_int) != 0)
        return SQ_E_INVAL;
    if (sigaction(SIGTERM, &sa, &old_term) != 0) {
        sigaction(SIGINT, &old_int, NULL);
        return SQ_E_INVAL;
    }
    if (sigaction(SIGXFSZ, &ign, &old_xfsz) != 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        return SQ_E_INVAL;
    }
    installed = 1;
    return 0;
}

int sq_store_signals_caught(void)
{
    return atomic_load(&caught);
}

void sq_store_signals_restore(void)
{
    if (!installed)
        return;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGXFSZ, &old_xfsz, NULL);
    atomic_store(&target, NULL);
    installed = 0;
}
