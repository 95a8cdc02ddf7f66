/*
 * nassau.c -- profiles, the ladder and signatures (see nassau.h).
 */
#include "nassau.h"

#include "sq_core.h"

static int is_A_n(const int32_t *h, int len)
{
    for (int i = 0; i < len; i++)
        if (h[i] != len - i)
            return 0;
    return 1;
}

int nassau_ladder_next(int32_t *h, int *len)
{
    if (*len == 0 || is_A_n(h, *len)) {
        if (*len >= NASSAU_MAX_LEN)
            return -1;
        h[(*len)++] = 1;
        return 0;
    }
    for (int k = 0; k < *len; k++) {
        if (h[*len - 1 - k] == k) {
            h[*len - 1 - k]++;
            return 0;
        }
    }
    sq_abort("nassau_ladder_next: profile is not on the ladder");
}

int64_t nassau_top_degree(const int32_t *h, int len)
{
    int64_t top = 0;
    for (int i = 0; i < len; i++)
        top += (((int64_t)1 << (i + 1)) - 1) * (((int64_t)1 << h[i]) - 1);
    return top;
}

int64_t nassau_slope(const int32_t *h, int len)
{
    int64_t c = 0;
    for (int i = 0; i < len; i++)
        if (h[i] > 0) {
            int64_t d = ((int64_t)1 << (h[i] - 1)) * (((int64_t)1 << (i + 1)) - 1);
            c = d > c ? d : c;
        }
    return c;
}

int nassau_usable(const int32_t *h, int len, int32_t s, int32_t t, int32_t top)
{
    int64_t c = nassau_slope(h, len), u = (int64_t)t - top;
    return u >= c * (int64_t)s + 1 && u >= c * ((int64_t)s - 2) + nassau_top_degree(h, len) + 1;
}

uint32_t nassau_signature(const int32_t *h, int len, const int32_t *r, int rlen)
{
    uint32_t ord = 0, radix = 1;
    for (int i = 0; i < len; i++) {
        uint32_t ri = i < rlen ? (uint32_t)r[i] : 0;
        ord += (ri & ((1u << h[i]) - 1)) * radix;
        radix <<= h[i];
    }
    return ord;
}

uint32_t nassau_num_signatures(const int32_t *h, int len)
{
    int bits = 0;
    for (int i = 0; i < len; i++)
        bits += h[i];
    SQ_CHECK(bits < 32, "nassau_num_signatures: profile too large");
    return 1u << bits;
}
