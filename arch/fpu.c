/*
 * arch/fpu.c - enable x87/SSE/AVX/AVX-512 state on the calling CPU
 * (arch/fpu.h). Kernel only: it writes CR0, CR4 and XCR0.
 *
 * The kernel's own C code is built -mgeneral-regs-only and its interrupt
 * handlers save only general registers, so vector registers belong to the
 * arch/clear_* routines alone and no XSAVE area is needed.
 *
 * The kernel never executes XGETBV: under KVM PVM (the hypervisor of the
 * development host) guest-kernel instructions that follow a trapping one
 * (XSETBV, CPUID, MOV CR) go through KVM's instruction emulator, which
 * cannot run XGETBV and stops the VM with an emulation failure. The value
 * written is kept instead (fpu_xcr0()).
 */
#include "arch/fpu.h"
#include "arch/cpu.h"
#include "arch/x86.h"
#include "lib/fmt.h"

/* The XCR0 value fpu_init() wrote (every CPU writes the same one). */
static uint64_t xcr0_written;

unsigned fpu_init(void)
{
    unsigned on = FPU_X87;

    uint64_t cr0 = read_cr0();
    cr0 |= CR0_MP | CR0_NE;              /* WAIT honours TS; native x87 error reporting */
    cr0 &= ~(uint64_t)(CR0_EM | CR0_TS); /* no x87 emulation, no lazy-FPU #NM */
    write_cr0(cr0);

    uint64_t cr4 = read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT;
    if (cpu_has(X86_FEATURE_XSAVE))
        cr4 |= CR4_OSXSAVE;
    write_cr4(cr4);
    if (cpu_has(X86_FEATURE_SSE2))
        on |= FPU_SSE;

    if (cr4 & CR4_OSXSAVE) {
        uint64_t supported = cpu_leaf_reg(0xd, 0, CPUID_EAX);
        uint64_t xcr0 = XCR0_X87 | XCR0_SSE;
        if (cpu_has(X86_FEATURE_AVX) && (supported & XCR0_AVX))
            xcr0 |= XCR0_AVX;
        if ((xcr0 & XCR0_AVX) && (supported & XCR0_ZMM_STATE) == XCR0_ZMM_STATE)
            xcr0 |= XCR0_ZMM_STATE;
        xsetbv(0, xcr0); /* #GP on an unsupported bit: XSETBV never drops bits silently */
        xcr0_written = xcr0;
        on |= FPU_XSAVE;
        if ((xcr0 & XCR0_YMM_STATE) == XCR0_YMM_STATE && cpu_has(X86_FEATURE_AVX))
            on |= FPU_AVX;
        if ((xcr0 & XCR0_ZMM_STATE) == XCR0_ZMM_STATE && cpu_has(X86_FEATURE_AVX512F))
            on |= FPU_AVX512;
    }
    fninit();
    return on;
}

uint64_t fpu_xcr0(void) { return xcr0_written; }

int fpu_describe(unsigned enabled, char *buf, size_t cap)
{
    static const char *const names[] = {"x87", "sse", "xsave", "avx", "avx512"};
    int len = 0;

    if (cap)
        buf[0] = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!(enabled & (1u << i)))
            continue;
        size_t at = (size_t)len < cap ? (size_t)len : cap;
        len += hz_snprintf(buf + at, cap - at, "%s%s", len ? " " : "", names[i]);
    }
    if (len == 0)
        len = hz_snprintf(buf, cap, "none");
    return len;
}
