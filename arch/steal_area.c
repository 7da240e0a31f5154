/*
 * arch/steal_area.c - placement and write checks of a KVM steal-time
 * record (arch/steal_area.h).
 */
#include "arch/steal_area.h"
#include "lib/fmt.h"

const char *steal_area_refusal(uint64_t addr, uint64_t own, uint64_t own_end)
{
    if (addr % STEAL_REC_BYTES)
        return "not 64-byte aligned (MSR_KVM_STEAL_TIME bits 5:1 are reserved)";
    if (addr < own || addr > own_end || own_end - addr < STEAL_REC_BYTES)
        return "outside the kernel's own steal block: memory the kernel does not own "
               "(another user's, the frame pool's, or no RAM at all)";
    return 0;
}

int steal_msr_check(uint64_t msr, uint64_t want, char *why, size_t n)
{
    if (msr == (want | 1))
        return 0;
    if (!(msr & 1))
        hz_snprintf(why, n, "MSR_KVM_STEAL_TIME reads 0x%llx: disabled", (unsigned long long)msr);
    else if (msr & (STEAL_REC_BYTES - 2))
        hz_snprintf(why, n, "MSR_KVM_STEAL_TIME reads 0x%llx: reserved bits 5:1 set",
                    (unsigned long long)msr);
    else
        hz_snprintf(why, n, "the host writes steal time at 0x%llx, not at its own record 0x%llx",
                    (unsigned long long)(msr & ~(uint64_t)(STEAL_REC_BYTES - 1)),
                    (unsigned long long)want);
    return -1;
}

uint64_t steal_pad_sum(const volatile void *rec)
{
    const volatile uint8_t *p = rec;
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned i = STEAL_PAD_FROM; i < STEAL_REC_BYTES; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
