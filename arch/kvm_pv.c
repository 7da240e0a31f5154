/*
 * arch/kvm_pv.c - KVM signature check and the standing PV MSRs: reset at
 * start, turned off at the end (arch/kvm_pv.h).
 */
#include "arch/kvm_pv.h"
#include "arch/cpu.h"
#include "arch/x86.h"
#include "lib/kstring.h"

static const struct {
    unsigned feature;
    uint32_t msr;
} standing[] = {
    {KVM_FEATURE_CLOCKSOURCE, MSR_KVM_SYSTEM_TIME},
    {KVM_FEATURE_CLOCKSOURCE2, MSR_KVM_SYSTEM_TIME_NEW},
    {KVM_FEATURE_ASYNC_PF, MSR_KVM_ASYNC_PF_EN},
    {KVM_FEATURE_STEAL_TIME, MSR_KVM_STEAL_TIME},
    {KVM_FEATURE_PV_EOI, MSR_KVM_PV_EOI_EN},
};
#define NSTANDING (sizeof(standing) / sizeof(standing[0]))

static uint8_t enabled[HZ_MAX_CPUS]; /* bit i: standing[i] enabled by this CPU */

bool kvm_pv_present(void)
{
    return cpu_has(X86_FEATURE_HYPERVISOR) && strcmp(cpu_ident()->hypervisor, "KVMKVMKVM") == 0;
}

bool kvm_pv_has(unsigned bit)
{
    static volatile int64_t features = -1; /* KVM_CPUID_FEATURES EAX, read once */
    if (features < 0) {
        uint32_t r[4] = {0};
        if (kvm_pv_present())
            cpuid(KVM_CPUID_FEATURES, 0, r);
        features = r[0];
    }
    return bit < 32 && (features >> bit) & 1;
}

void kvm_pv_reset_cpu(unsigned cpu)
{
    if (cpu < HZ_MAX_CPUS)
        enabled[cpu] = 0;
    for (unsigned i = 0; i < NSTANDING; i++)
        if (kvm_pv_has(standing[i].feature))
            wrmsr(standing[i].msr, 0);
}

void kvm_pv_enable(unsigned cpu, uint32_t msr, uint64_t value)
{
    for (unsigned i = 0; i < NSTANDING && cpu < HZ_MAX_CPUS; i++)
        if (standing[i].msr == msr) {
            wrmsr(msr, value);
            enabled[cpu] |= (uint8_t)(1u << i);
        }
}

unsigned kvm_pv_off_cpu(unsigned cpu, unsigned *left)
{
    unsigned off = 0;
    *left = 0;
    if (cpu >= HZ_MAX_CPUS)
        return 0;
    for (unsigned i = 0; i < NSTANDING; i++) {
        if (!((enabled[cpu] >> i) & 1))
            continue;
        wrmsr(standing[i].msr, 0);
        if (rdmsr(standing[i].msr)) {
            (*left)++;
            continue;
        }
        enabled[cpu] &= (uint8_t) ~(1u << i);
        off++;
    }
    return off;
}

unsigned kvm_pv_enabled_count(unsigned cpu)
{
    unsigned n = 0;
    for (unsigned i = 0; cpu < HZ_MAX_CPUS && i < NSTANDING; i++)
        n += (enabled[cpu] >> i) & 1;
    return n;
}
