/*
 * arch/steal.c - KVM steal time per CPU and the TSC-gap fallback
 * (arch/steal.h). The record layout is KVM's uapi `struct kvm_steal_time`
 * (Linux arch/x86/include/uapi/asm/kvm_para.h): steal (u64), version (u32),
 * flags (u32), preempted (u8), padding to 64 bytes.
 */
#include "arch/steal.h"
#include "arch/cpu.h"
#include "arch/kvm_pv.h"
#include "arch/steal_area.h"
#include "arch/x86.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/results.h"

struct kvm_steal_time {
    uint64_t steal;
    uint32_t version;
    uint32_t flags;
    uint8_t preempted;
    uint8_t pad8[3];
    uint32_t pad[11];
};
_Static_assert(sizeof(struct kvm_steal_time) == STEAL_REC_BYTES, "KVM's record is 64 bytes");

/* The kernel's own steal block, written by the host; the kernel image is
 * identity-mapped (virtual == physical), so &st[cpu] is the address the
 * MSR takes. */
static volatile struct kvm_steal_time st[HZ_MAX_CPUS] __attribute__((aligned(64)));
static bool enabled[HZ_MAX_CPUS];
static uint64_t pad_sum[HZ_MAX_CPUS];    /* steal_pad_sum() when enabled */
static uint64_t placed[HZ_MAX_CPUS];     /* the record address the CPU gave the host */
static const char *refused[HZ_MAX_CPUS]; /* why the last placement was refused, 0 none */
static uint64_t refused_at[HZ_MAX_CPUS]; /* ... and the address it offered */
static uint64_t total_base, total_lost;

enum { SELFTEST_NONE, SELFTEST_MISALIGNED, SELFTEST_OUTSIDE, SELFTEST_POOL };
static int opt_selftest;
static const char *const selftest_choices[] = {"none", "misaligned", "outside", "pool", 0};
HZ_OPTION(opt_steal_selftest, .name = "steal_selftest", .kind = OPT_ENUM, .dest = &opt_selftest,
          .choices = selftest_choices, .accepted = "none|misaligned|outside|pool",
          .help = "misaligned / outside: offer CPU 0's steal record at a misaligned address or "
                  "past RAM (must be refused); pool: move it into a free frame behind the "
                  "check's back, as a bug would (KVM only; ownership.steal must fail)");

#define STEAL_OUTSIDE_ADDR (1ull << 45) /* 32 TiB: past the RAM of any guest it runs in */

uint64_t steal_area(unsigned cpu) { return cpu < HZ_MAX_CPUS ? (uintptr_t)&st[cpu] : 0; }

bool steal_enabled(unsigned cpu) { return cpu < HZ_MAX_CPUS && enabled[cpu]; }

const char *steal_refused(unsigned cpu, uint64_t *addr)
{
    if (cpu >= HZ_MAX_CPUS || !refused[cpu])
        return 0;
    *addr = refused_at[cpu];
    return refused[cpu];
}

/* Give the host the record at addr for CPU cpu, after the placement check.
 * False (after saying why) when refused. */
static bool place(unsigned cpu, uint64_t addr)
{
    const char *why = steal_area_refusal(addr, steal_area(0), steal_area(0) + sizeof(st));
    if (why) {
        kprintf("steal: CPU %u: record at 0x%llx refused: %s\n", cpu, (unsigned long long)addr,
                why);
        refused[cpu] = why;
        refused_at[cpu] = addr;
        return false;
    }
    pad_sum[cpu] = steal_pad_sum((const volatile void *)(uintptr_t)addr);
    placed[cpu] = addr;
    kvm_pv_enable(cpu, MSR_KVM_STEAL_TIME, addr | KVM_MSR_ENABLED);
    enabled[cpu] = true;
    return true;
}

static steal_frame_fn frame_source; /* steal_set_frame_source() */

void steal_set_frame_source(steal_frame_fn f) { frame_source = f; }

/* steal_selftest=: bad placements on purpose, on CPU 0. */
static void selftest(void)
{
    if (opt_selftest == SELFTEST_MISALIGNED || opt_selftest == SELFTEST_OUTSIDE) {
        uint64_t bad = opt_selftest == SELFTEST_OUTSIDE ? STEAL_OUTSIDE_ADDR : steal_area(0) + 8;
        kprintf("steal: steal_selftest=%s: offering CPU 0's record at 0x%llx\n",
                selftest_choices[opt_selftest], (unsigned long long)bad);
        if (place(0, bad))
            result_fail("steal.selftest", "a %s record at 0x%llx was given to the host",
                        selftest_choices[opt_selftest], (unsigned long long)bad);
        else
            result_pass("steal.selftest");
        return;
    }
    uint64_t frame;
    if (!enabled[0]) {
        result_skip("steal.selftest", "steal_selftest=pool needs KVM steal time");
        return;
    }
    if (!frame_source || frame_source(&frame) < 0) {
        result_skip("steal.selftest", "no free frame to move the record into");
        return;
    }
    kprintf("steal: steal_selftest=pool: CPU 0's record moved to free frame 0x%llx behind the "
            "placement check's back; ownership.steal must fail\n",
            (unsigned long long)frame);
    kvm_pv_enable(0, MSR_KVM_STEAL_TIME, frame | KVM_MSR_ENABLED);
}

void steal_init_cpu(unsigned cpu)
{
    kvm_pv_reset_cpu(cpu); /* whatever firmware or an earlier kernel left on */
    bool on = cpu < HZ_MAX_CPUS && kvm_pv_has(KVM_FEATURE_STEAL_TIME);
    if (cpu < HZ_MAX_CPUS)
        enabled[cpu] = false;
    on = on && place(cpu, steal_area(cpu));
    if (cpu != 0)
        return;
    kprintf("steal: %s\n", on ? "KVM steal time on (CPUID 0x40000000 \"KVMKVMKVM\", "
                                "0x40000001 EAX[5], MSR 0x4b564d03)"
                           : kvm_pv_present()
                               ? "KVM does not offer steal time: cells sample TSC-poll gaps"
                               : "no KVM (CPUID 0x40000000 signature): cells sample TSC-poll "
                                 "gaps");
    if (opt_selftest != SELFTEST_NONE)
        selftest();
}

int steal_verify_cpu(unsigned cpu, char *why, size_t n)
{
    if (!steal_enabled(cpu))
        return 1;
    if (steal_msr_check(rdmsr(MSR_KVM_STEAL_TIME), placed[cpu], why, n) < 0)
        return -1;
    if (steal_pad_sum(&st[cpu]) != pad_sum[cpu]) {
        hz_snprintf(why, n,
                    "bytes %u-63 of its record at 0x%llx changed (the host writes only "
                    "bytes 0-16)",
                    STEAL_PAD_FROM, (unsigned long long)placed[cpu]);
        return -1;
    }
    return 0;
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
