/*
 * gpu_test.h -- helpers shared by the tests of src/gpu (tests/gpu).
 */
#ifndef GPU_TEST_H
#define GPU_TEST_H

#include "gpu_internal.h"
#include "sq_gpu.h"
#include "sq_test.h"

/* Starts the device path on the emulator with the given gates (verify off). */
static inline void gpu_test_emulate(int64_t min_work, int64_t rr_min)
{
    sq_gpu_settings_t s;
    sq_gpu_settings_default(&s);
    s.enable = 1;
    s.emulate = 1;
    s.min_work = min_work;
    s.rr_min = rr_min;
    char why[256];
    int rc = sq_gpu_init(&s, why, sizeof why);
    if (rc != 0)
        sq_test_fail(__FILE__, __LINE__, "emulator declined: %s", why);
}

/* Starts the device path on the real device, or skips the test (exit 77)
 * when there is none -- unless SQ_REQUIRE_GPU=1, when a decline fails it. */
static inline void gpu_test_device_or_skip(const sq_gpu_settings_t *s)
{
    char why[256];
    if (sq_gpu_init(s, why, sizeof why) == 0)
        return;
    const char *req = getenv("SQ_REQUIRE_GPU");
    if (req && strcmp(req, "1") == 0)
        sq_test_fail(__FILE__, __LINE__, "SQ_REQUIRE_GPU=1 but the device path declined: %s", why);
    printf("skip: %s\n", why);
    fflush(stdout);
    exit(77);
}

/* Fails unless a and b have the same dimensions and bits. */
#define ASSERT_MAT_EQ(a, b)                                                                        \
    do {                                                                                           \
        const f2mat_t *ma_ = (a), *mb_ = (b);                                                      \
        ASSERT_EQ(ma_->rows, mb_->rows);                                                           \
        ASSERT_EQ(ma_->cols, mb_->cols);                                                           \
        for (int64_t i_ = 0; i_ < ma_->rows; i_++)                                                 \
            if (memcmp(f2mat_row(ma_, i_), f2mat_row(mb_, i_), (size_t)f2_limbs(ma_->cols) * 8) != \
                0)                                                                                 \
                sq_test_fail(__FILE__, __LINE__, "matrices %s and %s differ in row %lld of %lld",  \
                             #a, #b, (long long)i_, (long long)ma_->rows);                         \
    } while (0)

#endif
