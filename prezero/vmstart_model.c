/*
 * prezero/vmstart_model.c - the arithmetic of the VM-start model
 * (prezero/vmstart.h): the knee of a scaling curve and the 2 TiB
 * extrapolation. Portable C, integer only.
 */
#include "prezero/vmstart.h"

#include "lib/stats.h"

unsigned vs_knee(const uint64_t *gbps_x1000, unsigned n)
{
    for (unsigned t = 2; t <= n; t++) {
        unsigned __int128 prev = gbps_x1000[t - 2], cur = gbps_x1000[t - 1];
        if (prev && cur * 100 < prev * VS_KNEE_GAIN_X100)
            return t;
    }
    return 0;
}

uint64_t vs_model_gbps_x1000(unsigned threads, uint64_t per_thread_x1000, uint64_t peak_x1000)
{
    unsigned __int128 r = (unsigned __int128)threads * per_thread_x1000;
    if (peak_x1000 && r > peak_x1000)
        r = peak_x1000;
    return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

uint64_t vs_model_ns(uint64_t bytes, unsigned threads, uint64_t per_thread_x1000,
                     uint64_t peak_x1000)
{
    uint64_t rate = vs_model_gbps_x1000(threads, per_thread_x1000, peak_x1000);
    if (!rate)
        return UINT64_MAX;
    /* GB/s is bytes per ns: ns = bytes / gbps = bytes x 1000 / rate, the
     * quotient stats_gbps_x1000() takes with the time in the rate's place
     * (rounded to nearest, saturating; the kernel has no 128-bit divide). */
    return stats_gbps_x1000(bytes, rate);
}
