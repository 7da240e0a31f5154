/*
 * arch/x86.h - one inline wrapper per x86-64 instruction the kernel issues
 * from C. Each is named after its instruction (SDM Vol. 2). Anything longer
 * than a few instructions lives in a .asm file with a C prototype.
 *
 * These wrappers are usable from the kernel and, where the instruction is
 * legal at CPL 3 (cpuid, rdtsc, rdtscp, lfence, mfence, sfence, pause,
 * xgetbv), from host user-space programs.
 */
#ifndef HZ_ARCH_X86_H
#define HZ_ARCH_X86_H

#include <stdint.h>

/* XCR0 state-component bits (SDM Vol. 1 §13.1, §13.3). */
#define XCR0_X87 (1ull << 0)
#define XCR0_SSE (1ull << 1)                 /* XMM registers, MXCSR */
#define XCR0_AVX (1ull << 2)                 /* upper halves of YMM0-15 */
#define XCR0_OPMASK (1ull << 5)              /* k0-k7 */
#define XCR0_ZMM_HI256 (1ull << 6)           /* upper halves of ZMM0-15 */
#define XCR0_HI16_ZMM (1ull << 7)            /* ZMM16-31 */
#define XCR0_YMM_STATE (XCR0_SSE | XCR0_AVX) /* XCR0[2:1] */
/* XCR0[2:1] and [7:5] */
#define XCR0_ZMM_STATE (XCR0_YMM_STATE | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

/* CPUID leaf/subleaf -> eax, ebx, ecx, edx (SDM Vol. 2A "CPUID"). */
static inline void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(subleaf));
}

/* RDTSC: time-stamp counter in TSC cycles; not ordered (SDM Vol. 2B). */
static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* RDTSCP: TSC cycles, waits for earlier instructions to execute; *aux gets
 * IA32_TSC_AUX (SDM Vol. 2B "RDTSCP"). */
static inline uint64_t rdtscp(uint32_t *aux)
{
    uint32_t lo, hi, c;
    __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(c));
    if (aux)
        *aux = c;
    return ((uint64_t)hi << 32) | lo;
}

static inline void lfence(void) { __asm__ volatile("lfence" ::: "memory"); }
static inline void mfence(void) { __asm__ volatile("mfence" ::: "memory"); }
/* CLFLUSH / CLFLUSHOPT: write back and invalidate the line holding p in
 * every cache level; CLFLUSHOPT is ordered only by fences (SDM Vol. 2A). */
static inline void clflush(const volatile void *p)
{
    __asm__ volatile("clflush %0" ::"m"(*(const volatile char *)p) : "memory");
}
static inline void clflushopt(const volatile void *p)
{
    __asm__ volatile("clflushopt %0" ::"m"(*(const volatile char *)p) : "memory");
}
/* REP STOSQ: store `val` to `count` 8-byte words from dst up (DF clear,
 * as the ABI leaves it; SDM Vol. 2B "STOS"). Legal at any CPL. */
static inline void rep_stosq(void *dst, uint64_t val, uint64_t count)
{
    __asm__ volatile("rep stosq" : "+D"(dst), "+c"(count) : "a"(val) : "memory");
}
static inline void sfence(void) { __asm__ volatile("sfence" ::: "memory"); }
static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }

/* XGETBV: read XCR[index] (SDM Vol. 2C); needs CR4.OSXSAVE=1. */
static inline uint64_t xgetbv(uint32_t index)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(index));
    return ((uint64_t)hi << 32) | lo;
}

/*
 * a * b / c with a 128-bit intermediate (MUL then DIV, SDM Vol. 2A). The
 * kernel links no libgcc, so C's unsigned __int128 division is unavailable.
 * Returns UINT64_MAX when c == 0 or the quotient does not fit in 64 bits.
 */
static inline uint64_t mul_div_u64(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t lo, hi, q, r;
    __asm__("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), "rm"(b));
    if (c == 0 || hi >= c)
        return UINT64_MAX;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(c));
    (void)r;
    return q;
}

#ifndef HZ_HOSTED /* privileged instructions: kernel only */

static inline void xsetbv(uint32_t index, uint64_t v)
{
    __asm__ volatile("xsetbv" ::"c"(index), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;
    __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
    return ((uint64_t)hi << 32) | lo;
}

/* RDPMC: performance counter ECX (SDM Vol. 2B "RDPMC"); use pmc_read_safe. */
static inline uint64_t rdpmc(uint32_t counter)
{
    uint32_t lo, hi;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
    __asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline void outb(uint16_t port, uint8_t v)
{
    __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}
static inline void outw(uint16_t port, uint16_t v)
{
    __asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port));
}
static inline void outl(uint16_t port, uint32_t v)
{
    __asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline uint32_t inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

#define HZ_DEFINE_CR(n)                                                                            \
    static inline uint64_t read_cr##n(void)                                                        \
    {                                                                                              \
        uint64_t v;                                                                                \
        __asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));                                          \
        return v;                                                                                  \
    }                                                                                              \
    static inline void write_cr##n(uint64_t v)                                                     \
    {                                                                                              \
        __asm__ volatile("mov %0, %%cr" #n ::"r"(v) : "memory");                                   \
    }
HZ_DEFINE_CR(0)
HZ_DEFINE_CR(2)
HZ_DEFINE_CR(3)
HZ_DEFINE_CR(4)
#undef HZ_DEFINE_CR

static inline void invlpg(const volatile void *va)
{
    __asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
}
static inline void wbinvd(void) { __asm__ volatile("wbinvd" ::: "memory"); }
static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void hlt(void) { __asm__ volatile("hlt" ::: "memory"); }

/* FNINIT: x87 control word 037FH, empty stack (SDM Vol. 2A "FINIT/FNINIT"). */
static inline void fninit(void) { __asm__ volatile("fninit"); }

/* The LGDT/LIDT operand: limit (table bytes - 1) and linear base (SDM Vol.
 * 3A §3.5.1, Figure 3-11). */
struct desc_ptr {
    uint16_t limit;
    uint64_t base;
} __attribute__((packed));

/* LIDT (SDM Vol. 2A "LGDT/LIDT"): load IDTR from *d. */
static inline void lidt(const struct desc_ptr *d) { __asm__ volatile("lidt %0" ::"m"(*d)); }

static inline uint64_t read_rflags(void)
{
    uint64_t v;
    __asm__ volatile("pushfq; popq %0" : "=r"(v));
    return v;
}

/* MSR numbers used by the kernel (SDM Vol. 4). */
#define MSR_IA32_APIC_BASE 0x1b
#define MSR_IA32_MTRRCAP 0xfe
#define MSR_IA32_MTRR_DEF_TYPE 0x2ff
#define MSR_IA32_PAT 0x277
#define MSR_EFER 0xc0000080
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_TSC_AUX 0xc0000103

#endif /* !HZ_HOSTED */

/* Control-register and EFER bits (SDM Vol. 3A §2.5, §2.2.1). */
#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_TS (1u << 3)
#define CR0_NE (1u << 5)
#define CR0_WP (1u << 16)
#define CR4_PAE (1u << 5)
#define CR4_PGE (1u << 7)
#define CR4_OSFXSR (1u << 9)
#define CR4_OSXMMEXCPT (1u << 10)
#define CR4_OSXSAVE (1u << 18)
#define EFER_LME (1u << 8)
#define EFER_NXE (1u << 11)

#endif /* HZ_ARCH_X86_H */
