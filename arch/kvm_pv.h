/*
 * arch/kvm_pv.h - KVM's paravirtual interface: detection and the standing
 * PV MSRs a guest can leave enabled (Linux Documentation/virt/kvm/x86/
 * cpuid.rst and msr.rst).
 *
 * Detection: CPUID.01H:ECX[31] (a hypervisor is present), then CPUID
 * 0x40000000 EBX:ECX:EDX = "KVMKVMKVM\0\0\0" (KVM_CPUID_SIGNATURE). Only then
 * is leaf 0x40000001 (KVM_CPUID_FEATURES) EAX a KVM feature mask: another
 * hypervisor's leaf 0x40000001 means something else.
 *
 * Standing PV MSRs: once written with their enable bit (bit 0), KVM keeps
 * writing guest memory at the address they hold until they are written
 * with 0, also across INIT (KVM resets them only on a full vCPU reset).
 * So a kernel that hands the machine on must write 0 to each it enabled:
 *   KVM_FEATURE_CLOCKSOURCE  (bit 0) MSR_KVM_SYSTEM_TIME     0x12
 *   KVM_FEATURE_CLOCKSOURCE2 (bit 3) MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01
 *   KVM_FEATURE_ASYNC_PF     (bit 4) MSR_KVM_ASYNC_PF_EN     0x4b564d02
 *   KVM_FEATURE_STEAL_TIME   (bit 5) MSR_KVM_STEAL_TIME      0x4b564d03
 *   KVM_FEATURE_PV_EOI       (bit 6) MSR_KVM_PV_EOI_EN       0x4b564d04
 * MSR_KVM_WALL_CLOCK_NEW (0x4b564d00) is not standing: each write makes
 * KVM write the wall clock once at the address written (0 would write
 * guest physical 0), so it is never written here. hugezero enables only
 * steal time (arch/steal.h).
 */
#ifndef HZ_ARCH_KVM_PV_H
#define HZ_ARCH_KVM_PV_H

#include <stdbool.h>
#include <stdint.h>

#define KVM_CPUID_SIGNATURE 0x40000000u
#define KVM_CPUID_FEATURES 0x40000001u
#define KVM_FEATURE_CLOCKSOURCE 0
#define KVM_FEATURE_CLOCKSOURCE2 3
#define KVM_FEATURE_ASYNC_PF 4
#define KVM_FEATURE_STEAL_TIME 5
#define KVM_FEATURE_PV_EOI 6
#define MSR_KVM_SYSTEM_TIME 0x12u
#define MSR_KVM_WALL_CLOCK_NEW 0x4b564d00u
#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01u
#define MSR_KVM_ASYNC_PF_EN 0x4b564d02u
#define MSR_KVM_STEAL_TIME 0x4b564d03u
#define MSR_KVM_PV_EOI_EN 0x4b564d04u
#define KVM_MSR_ENABLED 1ull

/* True when the signature above is "KVMKVMKVM" (read once, from the CPUID
 * table's hypervisor signature, arch/cpu.h; cpu_init() first). */
bool kvm_pv_present(void);

/* KVM_CPUID_FEATURES EAX bit `bit` (KVM_FEATURE_*); false without KVM. */
bool kvm_pv_has(unsigned bit);

/*
 * On the calling CPU (index `cpu` < HZ_MAX_CPUS, CPL 0): write 0 to every
 * standing PV MSR KVM advertises, whoever enabled it (firmware, an earlier
 * kernel reached through INIT), and forget what this CPU enabled. Call once
 * per CPU before it enables anything and before the memory a PV MSR could
 * point at is handed out. Nothing without KVM.
 */
void kvm_pv_reset_cpu(unsigned cpu);

/* On the calling CPU: WRMSR msr = value (enable bit set) and remember it
 * for kvm_pv_off_cpu(). `msr` must be one of the standing MSRs above. */
void kvm_pv_enable(unsigned cpu, uint32_t msr, uint64_t value);

/*
 * On the calling CPU: write 0 to each PV MSR this CPU enabled, then read
 * each back. Returns how many it turned off; *left gets how many still
 * read non-zero (0 when all are off). Idempotent.
 */
unsigned kvm_pv_off_cpu(unsigned cpu, unsigned *left);

/* PV MSRs CPU `cpu` enabled and has not turned off. */
unsigned kvm_pv_enabled_count(unsigned cpu);

#endif /* HZ_ARCH_KVM_PV_H */
