/*
 * arch/steal.c - KVM steal time per CPU and the TSC-gap fallback
 * (arch/steal.h). The record layout is KVM's uapi `struct kvm_steal_time`
 * (Linux arch/x86/include/uapi/asm/kvm_para.h): steal (u64), version (u32),
 * flags (u32), preempted (u8), padding to 64 bytes.
 */
#include "arch/steal.h"
#include "arch/cpu.h"
#include "arch/x86.h"
#include "kernel/console.h"

struct kvm_steal_time {
    uint64_t steal;
    uint32_t version;
    uint32_t flags;
    uint8_t preempted;
    uint8_t pad8[3];
    uint32_t pad[11];
};
_Static_assert(sizeof(struct kvm_steal_time) == 64, "KVM's record is 64 bytes");

/* Written by the host; the kernel image is identity-mapped (virtual ==
 * physical), so &st[cpu] is the address the MSR takes. */
static volatile struct kvm_steal_time st[HZ_MAX_CPUS] __attribute__((aligned(64)));
static bool enabled[HZ_MAX_CPUS];
static uint64_t total_base, total_lost;

static bool advertised(void)
{
    if (!cpu_has(X86_FEATURE_HYPERVISOR))
        return false;
    uint32_t r[4];
    cpuid(0x40000000u, 0, r);
    if (r[0] < KVM_CPUID_FEATURES) /* max hypervisor leaf */
        return false;
    cpuid(KVM_CPUID_FEATURES, 0, r);
    return (r[0] >> KVM_FEATURE_STEAL_TIME) & 1;
}

void steal_init_cpu(unsigned cpu)
{
    bool on = cpu < HZ_MAX_CPUS && advertised();
    if (on) {
        wrmsr(MSR_KVM_STEAL_TIME, (uint64_t)(uintptr_t)&st[cpu] | KVM_MSR_ENABLED);
        enabled[cpu] = true;
    }
    if (cpu == 0)
        kprintf("steal: %s\n", on ? "KVM steal time on (CPUID 0x40000001 EAX[5], MSR 0x4b564d03)"
                                  : "no KVM steal time: cells sample TSC-poll gaps instead");
}

bool steal_available(void) { return enabled[0]; }

const char *steal_method(void) { return enabled[0] ? "kvm_steal_time" : "tsc_poll_gaps"; }

uint64_t steal_ns(unsigned cpu)
{
    if (cpu >= HZ_MAX_CPUS || !enabled[cpu])
        return 0;
    for (;;) {
        uint32_t v = st[cpu].version;
        __asm__ volatile("" ::: "memory");
        uint64_t s = st[cpu].steal;
        __asm__ volatile("" ::: "memory");
        if (!(v & 1) && st[cpu].version == v)
            return s;
        cpu_relax();
    }
}

void steal_account(uint64_t base_ns, uint64_t lost_ns)
{
    total_base += base_ns;
    total_lost += lost_ns;
}

bool steal_total(uint64_t *base_ns, uint64_t *lost_ns)
{
    *base_ns = total_base;
    *lost_ns = total_lost;
    return total_base != 0;
}

uint64_t steal_poll_gaps(uint64_t window_cyc, uint64_t gap_cyc, uint64_t *polled_cyc)
{
    uint64_t start = rdtsc(), prev = start, gaps = 0;
    while (prev - start < window_cyc) {
        uint64_t now = rdtsc();
        if (now - prev > gap_cyc)
            gaps += now - prev;
        prev = now;
    }
    *polled_cyc = prev - start;
    return gaps;
}
