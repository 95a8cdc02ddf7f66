/*
 * fuzz_modspec.c -- libFuzzer target for the module-spec loader.
 *
 * Each input is a module file; sq_modspec_load_buffer must load it or
 * return a one-line error, never crash, leak, hang or allocate wildly
 * (ASan and UBSan abort on the first problem).  The span is capped at 32:
 * fdmod_complete's cost grows steeply with the span (span 128 takes
 * seconds), and everything the parser does is already reached with small
 * spans.  Built only with -DADAMS_FUZZ=ON and clang; the seed corpus is
 * tests/fuzz/corpus, replayed in every build by the io test
 * fuzz_corpus_replay.
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
    fdmod_t *M = NULL;
    char err[512];
    /* Infinite kinds (finitely presented modules, projective spaces) are
     * truncated to degree 24: the builders run, the tables stay small. */
    sq_modspec_opts_t opts = {.max_span = 32, .have_max_degree = 1, .max_degree = 24};
    int rc =
        sq_modspec_load_buffer(&M, (const char *)data, size, "fuzz.json", &opts, err, sizeof err);
    if (rc == 0) {
        if (!M)
            sq_abort("loaded but no module");
        fdmod_free(M);
    } else if (M || err[0] == '\0' || strchr(err, '\n')) {
        sq_abort("bad failure: rc %d, message '%s'", rc, err);
    }
    return 0;
}
