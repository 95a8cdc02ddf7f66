/*
 * fuzz_modspec.c -- libFuzzer target for the module-spec loader, at every
 * prime (the seeds hold p = 2 and odd-prime files).
 *
 * Each input is a module file; sq_modspec_load_module must load it or
 * return a one-line error, never crash, leak, hang or allocate wildly
 * (ASan and UBSan abort on the first problem).  Spans go up to the
 * largest (2047): a load costs what its action connects, not its span, and
 * the size limit is cut to 4 MiB, which keeps the row reductions that
 * deriving an action needs below degree ~90 (milliseconds) while every
 * refusal path stays reachable.  Built only with -DADAMS_FUZZ=ON and clang;
 * the seed corpus is tests/fuzz/corpus, replayed with the same options in
 * every build by the io test fuzz_corpus_replay.
 *
 *   build-fuzz/fuzz_modspec -max_total_time=600 -max_len=4096 \
 *       build-fuzz/fuzz-corpus-modspec tests/fuzz/corpus
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fdmod.h"
#include "sq_core.h"
#include "sq_modspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sq_modspec_module_t M;
    char err[512];
    /* Infinite kinds (finitely presented modules, projective spaces) are
     * truncated to degree 24: the builders run, the tables stay small.
     * Every prime: the one reader builds the fdmod_t of the file's prime. */
    sq_modspec_opts_t opts = {.max_tables = 4 << 20, .have_max_degree = 1, .max_degree = 24};
    int rc =
        sq_modspec_load_module(&M, (const char *)data, size, "fuzz.json", &opts, err, sizeof err);
    if (rc == 0) {
        if ((M.p == 2 && (!M.m2 || M.modd)) || (M.p != 2 && (!M.modd || M.m2)))
            sq_abort("loaded but no module of the prime %u", (unsigned)M.p);
        sq_modspec_module_free(&M);
    } else if (M.m2 || M.modd || err[0] == '\0' || strchr(err, '\n')) {
        sq_abort("bad failure: rc %d, message '%s'", rc, err);
    }
    return 0;
}
