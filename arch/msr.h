/*
 * arch/msr.h - model-specific registers that may not exist, and the CPU
 * microcode revision read through one of them.
 *
 * RDMSR/WRMSR of an MSR the CPU (or the hypervisor) does not implement
 * raises #GP(0) (SDM Vol. 2B "RDMSR"); under KVM, PVM and other hypervisors
 * the microcode MSR may #GP, read 0 or read a value the hypervisor made up.
 * msr_read_safe/msr_write_safe (and pmc_read_safe for RDPMC) turn the #GP,
 * or a #UD where a hypervisor hides the instruction, into an error instead
 * of a crash (arch/trap.h trap_expect_begin). Kernel only: RDMSR/WRMSR need
 * CPL 0.
 *
 * Microcode revision (to rule zero-store elimination and other
 * microcode-dependent behaviour in or out):
 *   Intel  IA32_BIOS_SIGN_ID (MSR 0x8B): write 0, execute CPUID leaf 1, read
 *          it; the revision is bits 63:32 (SDM Vol. 3A §10.11.7.1).
 *   AMD    MSR 0x8B, MSR_AMD64_PATCH_LEVEL: the patch level is bits 31:0
 *          (AMD APM Vol. 2, and the family BKDGs/PPRs); no write needed.
 * Under a hypervisor the value is what the hypervisor reports. QEMU (and
 * KVM) report 0x01000065 on AMD and 0x1 (0x100000000 in the MSR) on Intel
 * unless the host's revision is passed through (`-cpu host` under KVM):
 * those are placeholders, not microcode, and are flagged as such.
 */
#ifndef HZ_ARCH_MSR_H
#define HZ_ARCH_MSR_H

#include <stdbool.h>
#include <stdint.h>

#define MSR_IA32_BIOS_SIGN_ID 0x8bu /* AMD: MSR_AMD64_PATCH_LEVEL, same number */

/* RDMSR msr into *v: 0, or -1 when it raised #GP or #UD (*v = 0). Boot
 * CPU only (the expectation is global), after idt_init(). */
int msr_read_safe(uint32_t msr, uint64_t *v);

/* WRMSR msr = v: 0, or -1 when it raised #GP or #UD. As msr_read_safe. */
int msr_write_safe(uint32_t msr, uint64_t v);

/* RDPMC of performance counter `counter` (ECX: SDM Vol. 2B "RDPMC"; AMD
 * APM Vol. 3 "RDPMC": 0..3 the legacy counters, 0..5 with PerfCtrExtCore)
 * into *v: 0, or -1 when it raised #GP (no such counter) or #UD (*v = 0).
 * CPL 0, as msr_read_safe. */
int pmc_read_safe(uint32_t counter, uint64_t *v);

/* The microcode revision and where it came from. */
struct cpu_microcode {
    bool known;         /* rev is a revision the CPU or hypervisor reported */
    uint32_t rev;       /* the revision (0 when !known) */
    const char *source; /* how it was read, and any caveat; or why it is unknown */
};

/* True for the revisions QEMU and KVM report when they pass none through:
 * 0x01000065 on AMD, 0x1 on Intel (QEMU target/i386/cpu.c, "the same as
 * KVM's" default). Portable: tools/linux-bench uses it too. */
static inline bool microcode_is_qemu_default(bool amd, uint32_t rev)
{
    return amd ? rev == 0x01000065u : rev == 1;
}

/* Read the calling CPU's microcode revision as above into *m (never
 * faults: a #GP or a 0 read gives known = false with the reason; another
 * vendor than Intel or AMD/Hygon likewise). Boot CPU, after idt_init(). */
void cpu_microcode_read(struct cpu_microcode *m);

#endif /* HZ_ARCH_MSR_H */
