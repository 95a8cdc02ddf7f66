/*
 * t-fuzz-replay.c -- the store-reader fuzz target's seed corpus
 * (tests/fuzz/corpus-store: forged rows, splices, damaged metadata)
 * replayed in every build, through the target's own function, so that the
 * forged-row cases run under the ASan/UBSan stage too and not only when
 * libFuzzer is built.
 */
#include "../fuzz/fuzz_store.c" /* first: it defines _GNU_SOURCE */

#include <dirent.h>

#include "sq_test.h"

#define STORE_CORPUS SQ_TEST_DATA_DIR "/../fuzz/corpus-store"

TEST(store_fuzz_corpus_replay)
{
    const char *dir = getenv("ADAMS_STORE_CORPUS"); /* another corpus, e.g. libFuzzer's */
    if (!dir || !*dir)
        dir = STORE_CORPUS;
    DIR *d = opendir(dir);
    ASSERT(d != NULL);
    LLVMFuzzerInitialize(NULL, NULL);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        ASSERT(f != NULL);
        uint8_t *buf = sq_malloc(1 << 16);
        size_t n = fread(buf, 1, 1 << 16, f);
        fclose(f);
        ASSERT_EQ(LLVMFuzzerTestOneInput(buf, n), 0); /* aborts on a defect */
        sq_free(buf);
        files++;
    }
    closedir(d);
    printf("%d inputs replayed\n", files);
    ASSERT(files >= (dir == getenv("ADAMS_STORE_CORPUS") ? 1 : 30));
}
