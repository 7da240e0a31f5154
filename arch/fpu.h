/*
 * arch/fpu.h - turn on the x87, SSE, AVX and AVX-512 register state on the
 * calling CPU so the arch/clear_* vector routines can run in the kernel
 * (kernel only; user space gets this from its OS).
 *
 * Sources: CR0.MP/EM/TS/NE and CR4.OSFXSR/OSXMMEXCPT/OSXSAVE, SDM Vol. 3A §2.5;
 * XCR0, SDM Vol. 3A §2.6; enabling the XSAVE feature set and its state
 * components, SDM Vol. 1 §13.3; supported XCR0 bits, CPUID.(EAX=0DH,ECX=0):EAX
 * (SDM Vol. 1 §13.2); AVX-512 state (XCR0[7:5]), SDM Vol. 1 §15.2.
 */
#ifndef HZ_ARCH_FPU_H
#define HZ_ARCH_FPU_H

#include <stddef.h>
#include <stdint.h>

/* What fpu_init() enabled (bit set = usable). */
#define FPU_X87 (1u << 0)    /* x87, after FNINIT */
#define FPU_SSE (1u << 1)    /* XMM registers: CR4.OSFXSR (SSE2 present) */
#define FPU_XSAVE (1u << 2)  /* CR4.OSXSAVE: XGETBV/XSETBV usable */
#define FPU_AVX (1u << 3)    /* XCR0[2:1] = 11b and CPUID AVX */
#define FPU_AVX512 (1u << 4) /* XCR0[7:5] = 111b as well and CPUID AVX512F */

/*
 * Enable the FPU and vector state on the calling CPU (call on every CPU,
 * after cpu_init(), before any clear strategy that uses XMM/YMM/ZMM):
 * CR0.MP=1, CR0.EM=0, CR0.TS=0, CR0.NE=1; CR4.OSFXSR and CR4.OSXMMEXCPT; when
 * CPUID.1:ECX.XSAVE: CR4.OSXSAVE and XCR0 = x87 | SSE, plus AVX (bit 2) when
 * CPUID reports AVX and 0DH.0:EAX[2], plus opmask/ZMM_Hi256/Hi16_ZMM (bits
 * 5-7) when AVX is on and 0DH.0:EAX[7:5] are all set. Then FNINIT. Returns
 * the FPU_* bits now usable, from the XCR0 value written (XSETBV faults with
 * #GP rather than ignore a bit, SDM Vol. 2C "XSETBV"). Note that the cached
 * CPUID table keeps the OSXSAVE bit it saw at cpu_init() time.
 */
unsigned fpu_init(void);

/* The XCR0 value fpu_init() wrote (the same on every CPU); 0 before it ran or
 * without XSAVE. Stands in for XGETBV in the kernel (see arch/fpu.c). */
uint64_t fpu_xcr0(void);

/*
 * Write the names of the FPU_* bits in `enabled` into buf (cap bytes, always
 * NUL-terminated when cap > 0), space-separated in the order "x87 sse xsave
 * avx avx512"; "none" for 0. Returns the length the full text has (as
 * snprintf).
 */
int fpu_describe(unsigned enabled, char *buf, size_t cap);

#endif /* HZ_ARCH_FPU_H */
