/*
 * arch/msr.c - RDMSR/WRMSR that survive #GP, and the microcode revision
 * (arch/msr.h; SDM Vol. 3A §10.11.7.1, AMD APM Vol. 2).
 *
 * A safe access runs between trap_expect_begin() and trap_expect_end()
 * (arch/trap.h): a #GP or #UD of that RDMSR or WRMSR becomes an error; any
 * other fault still gets the crash report.
 */
#include "arch/msr.h"
#include "arch/cpu.h"
#include "arch/trap.h"
#include "arch/x86.h"
#include "lib/kstring.h"

int msr_read_safe(uint32_t msr, uint64_t *v)
{
    trap_expect_begin();
    uint64_t x = rdmsr(msr);
    bool fault = trap_expect_end() != 0;
    *v = fault ? 0 : x;
    return fault ? -1 : 0;
}

int msr_write_safe(uint32_t msr, uint64_t v)
{
    trap_expect_begin();
    wrmsr(msr, v);
    return trap_expect_end() ? -1 : 0;
}

int pmc_read_safe(uint32_t counter, uint64_t *v)
{
    trap_expect_begin();
    uint64_t x = rdpmc(counter);
    bool fault = trap_expect_end() != 0;
    *v = fault ? 0 : x;
    return fault ? -1 : 0;
}

void cpu_microcode_read(struct cpu_microcode *m)
{
    const struct cpu_ident *id = cpu_ident();
    bool intel = strcmp(id->vendor, "GenuineIntel") == 0;
    bool amd = strcmp(id->vendor, "AuthenticAMD") == 0 || strcmp(id->vendor, "HygonGenuine") == 0;
    uint64_t v;
    uint32_t r[4];
    *m = (struct cpu_microcode){false, 0, "unknown: not an Intel or AMD CPU"};
    if (!intel && !amd)
        return;
    if (intel && msr_write_safe(MSR_IA32_BIOS_SIGN_ID, 0) < 0) {
        m->source = "unknown: WRMSR 0x8B (IA32_BIOS_SIGN_ID) raised #GP";
        return;
    }
    if (intel)
        cpuid(1, 0, r); /* loads the revision into the MSR (SDM §10.11.7.1) */
    if (msr_read_safe(MSR_IA32_BIOS_SIGN_ID, &v) < 0) {
        m->source = "unknown: RDMSR 0x8B raised #GP";
        return;
    }
    uint32_t rev = intel ? (uint32_t)(v >> 32) : (uint32_t)v;
    if (rev == 0) {
        m->source = "unknown: MSR 0x8B reads 0";
        return;
    }
    m->known = true;
    m->rev = rev;
    if (!id->hypervisor[0])
        m->source = intel ? "MSR 0x8B (IA32_BIOS_SIGN_ID) bits 63:32"
                          : "MSR 0x8B (MSR_AMD64_PATCH_LEVEL) bits 31:0";
    else if (microcode_is_qemu_default(amd, rev))
        m->source = "MSR 0x8B as the hypervisor reports it: the QEMU/KVM default, not the "
                    "host's microcode";
    else
        m->source = "MSR 0x8B as the hypervisor reports it";
}
