/*
 * arch/msr.c - RDMSR/WRMSR that survive #GP, and the microcode revision
 * (arch/msr.h; SDM Vol. 3A §10.11.7.1, AMD APM Vol. 2).
 *
 * While a safe access runs, a #GP handler is installed that accepts only a
 * #GP raised by the RDMSR (0F 32) or WRMSR (0F 30) at the faulting RIP: it
 * notes the fault and resumes after the 2-byte instruction. Any other #GP
 * still gets the crash report.
 */
#include "arch/msr.h"
#include "arch/cpu.h"
#include "arch/trap.h"
#include "arch/x86.h"
#include "lib/kstring.h"

#define GP_VECTOR 13

static volatile bool expect_gp, got_gp;

static bool msr_gp(struct trap_frame *f)
{
    const uint8_t *ip = (const uint8_t *)(uintptr_t)f->rip;
    if (!expect_gp || ip[0] != 0x0f || (ip[1] != 0x32 && ip[1] != 0x30))
        return false;
    got_gp = true;
    f->rax = f->rdx = 0;
    f->rip += 2;
    return true;
}

/* The fences keep the compiler from moving the MSR access (an asm without
 * a memory operand) out from between arm() and disarm(). */
static void arm(void)
{
    got_gp = false;
    expect_gp = true;
    trap_set_handler(GP_VECTOR, msr_gp);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static bool disarm(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    trap_set_handler(GP_VECTOR, 0);
    expect_gp = false;
    return got_gp;
}

int msr_read_safe(uint32_t msr, uint64_t *v)
{
    arm();
    uint64_t x = rdmsr(msr);
    bool gp = disarm();
    *v = gp ? 0 : x;
    return gp ? -1 : 0;
}

int msr_write_safe(uint32_t msr, uint64_t v)
{
    arm();
    wrmsr(msr, v);
    return disarm() ? -1 : 0;
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
