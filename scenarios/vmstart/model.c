/*
 * scenarios/vmstart/model.c - the arithmetic of the VM-start model
 * (scenarios/vmstart/vmstart.h): the knee of a scaling curve (the model itself is
 * lib/vmmodel.c). Portable C, integer only.
 */
#include "scenarios/vmstart/vmstart.h"

unsigned vs_knee(const uint64_t *gbps_x1000, unsigned n)
{
    for (unsigned t = 2; t <= n; t++) {
        unsigned __int128 prev = gbps_x1000[t - 2], cur = gbps_x1000[t - 1];
        if (prev && cur * 100 < prev * VS_KNEE_GAIN_X100)
            return t;
    }
    return 0;
}
