/*
 * arch/steal.h - time the host took the CPU away from the guest ("steal").
 *
 * KVM steal time (Linux Documentation/virt/kvm/x86/msr.rst and cpuid.rst):
 * when CPUID 0x40000001 EAX bit 5 (KVM_FEATURE_STEAL_TIME) is set, a guest
 * writes the physical address of a 64-byte aligned `struct kvm_steal_time`
 * with bit 0 (KVM_MSR_ENABLED) to MSR_KVM_STEAL_TIME (0x4b564d03), per CPU;
 * the host then keeps `steal` there: nanoseconds this vCPU was runnable but
 * not running. `version` is odd while the host updates the record (a
 * seqcount: read version, steal, version again).
 *
 * Steal time is used only where CPUID 0x40000000 says "KVMKVMKVM" (arch/kvm_pv.h).
 * The records are the kernel's own steal block (one 64-byte record per CPU
 * in the kernel image's .bss, never in memory the frame allocator hands
 * out); each is placed through steal_area_refusal() (arch/steal_area.h),
 * its padding is checksummed when enabled, and steal_verify_cpu() checks
 * at the end that the host still writes there and only there. Each CPU
 * turns it off again before the machine is handed on (kvm_pv_off_cpu()).
 * Option `steal_selftest=` tries a bad placement on purpose.
 *
 * Without it (bare metal, other hypervisors, a hypervisor that hides the
 * leaf), steal_poll_gaps() is the fallback: a TSC-polling loop, interrupts
 * off, in which any step longer than STEAL_GAP_NS between two reads of the
 * TSC is time the CPU did something else (host preemption, SMI). It only
 * sees the time it polls, so it samples the host's interference beside a
 * measurement rather than during it; records name the method.
 */
#ifndef HZ_ARCH_STEAL_H
#define HZ_ARCH_STEAL_H

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

/* A TSC step longer than this (ns) in steal_poll_gaps() counts as a gap. */
#define STEAL_GAP_NS 5000

/*
 * On CPU `cpu` (< HZ_MAX_CPUS), at CPL 0: turn off every standing KVM PV
 * MSR (kvm_pv_reset_cpu()), then enable KVM steal time on the CPU's own
 * record. Does nothing more when KVM does not advertise it. Call once per
 * CPU after cpu_init(), on the BSP after mm_init() (steal_selftest=pool
 * takes a free frame, steal_set_frame_source); later calls for the same
 * CPU re-enable it.
 */
void steal_init_cpu(unsigned cpu);

/*
 * Where steal_selftest=pool finds the free frame it moves CPU 0's record
 * into behind the placement check's back: the function puts a free 2 MiB
 * frame's physical address in *pa (the frame stays free: the pool may take
 * it, which is the point) and returns 0, or -1 when there is none.
 * kernel/main.c hands over mm/'s allocator, so arch/ includes nothing of
 * mm/. Without it the self-test is a skip.
 */
typedef int (*steal_frame_fn)(uint64_t *pa);
void steal_set_frame_source(steal_frame_fn f);

/*
 * On CPU `cpu`, the calling CPU: read MSR_KVM_STEAL_TIME back and check it
 * points at the CPU's own record, and that the record's padding still has
 * the sum it had when enabled (steal_area.h). Returns 1 when steal time is
 * not on for this CPU, 0 when all is well, -1 with the reason in why[0..n).
 */
int steal_verify_cpu(unsigned cpu, char *why, size_t n);

/* Physical address of CPU `cpu`'s own record (0 for cpu >= HZ_MAX_CPUS),
 * whether or not it is enabled. */
uint64_t steal_area(unsigned cpu);

/* True when CPU `cpu` enabled steal time (and has not turned it off). */
bool steal_enabled(unsigned cpu);

/* Why the placement check (steal_area_refusal()) last refused a record
 * address for CPU `cpu`, with that address in *addr; NULL (and *addr left
 * alone) when it refused none or cpu >= HZ_MAX_CPUS. Only steal_selftest=
 * offers a bad address on purpose. */
const char *steal_refused(unsigned cpu, uint64_t *addr);

/* Why a run has no steal share (steal_total() false): its timed cells
 * account it (steal_account()), and none ran. The `summary` and the
 * verdict's trust item say so in these words (`steal_why`). */
#define STEAL_UNKNOWN_WHY "no timed cell"

/* True when KVM steal time is enabled on CPU 0 (steal_ns() is meaningful). */
bool steal_available(void);

/* "kvm_steal_time" or "tsc_poll_gaps": the method steal figures come from. */
const char *steal_method(void);

/*
 * Steal time of CPU `cpu` since it was enabled, in ns (a consistent read of
 * the host's record). 0 when steal time is not available or cpu is out of
 * range. Reads memory only: callable at any CPL.
 */
uint64_t steal_ns(unsigned cpu);

/*
 * Add one cell's figures to the run's total: lost_ns stolen (or seen as
 * gaps) during base_ns (timed time, or the poll window). Boot CPU only.
 */
void steal_account(uint64_t base_ns, uint64_t lost_ns);

/* The run's totals so far; false when nothing was accounted. */
bool steal_total(uint64_t *base_ns, uint64_t *lost_ns);

/*
 * Poll the TSC for at least `window_cyc` TSC cycles and return the sum of
 * the steps longer than `gap_cyc` cycles (TSC cycles). *polled_cyc gets the
 * span really polled (TSC cycles, >= window_cyc: the last step can overrun
 * the window), which is the base the gaps are a share of: the return value
 * never exceeds it. Pure: RDTSC and arithmetic only, so it runs at the
 * measurement CPL (arch/user.h). Call with interrupts off, or interrupt
 * handlers count as gaps.
 */
uint64_t steal_poll_gaps(uint64_t window_cyc, uint64_t gap_cyc, uint64_t *polled_cyc);

#endif /* HZ_ARCH_STEAL_H */
