/*
 * lib/published.c - the clear_pages() series' published fault figures
 * (lib/published.h).
 */
#include "lib/published.h"
#include "lib/kstring.h"

/* Milan's 1 GiB hugetlb demand faults (v8, 2025-10-27), GB/s x 10. */
static const struct pub_fault milan[] = {
    {"none/voluntary", "v8", 171, 180, 8ull << 20},
    {"full/lazy", "v8", 173, 422, 0},
};

const char *pub_fault_cpu(const char *vendor, unsigned family, unsigned model)
{
    if (!vendor || strcmp(vendor, "AuthenticAMD") != 0 || family != 0x19)
        return 0;
    return model == 0x01 ? "milan" : "milan_family";
}

const struct pub_fault *pub_fault_find(const char *cpu, const char *preempt)
{
    if (!cpu || !preempt)
        return 0;
    for (unsigned i = 0; i < sizeof(milan) / sizeof(milan[0]); i++)
        if (strcmp(milan[i].preempt, preempt) == 0)
            return &milan[i];
    return 0;
}

uint64_t pub_fault_gain_x1000(const struct pub_fault *p)
{
    return p->after_x10 * 1000 / p->before_x10;
}
