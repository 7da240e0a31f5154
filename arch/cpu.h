/*
 * arch/cpu.h - CPUID, read once at boot into a table and queried by
 * (leaf, subleaf, register, bit) constants (SDM Vol. 2A "CPUID", AMD APM
 * Vol. 3 Appendix E). Also builds for host user space (HZ_HOSTED), where the
 * same table describes the host CPU.
 */
#ifndef HZ_ARCH_CPU_H
#define HZ_ARCH_CPU_H

#include <stdbool.h>
#include <stdint.h>

/* CPUs hugezero can run on: the size of every per-CPU table (GDT/TSS,
 * per-CPU blocks, CPU sets); smp= accepts 1..HZ_MAX_CPUS. Two-socket servers
 * expose 384-768 threads; memtest86+ handles 512. Per-CPU stacks come from
 * the frame allocator as CPUs start (kernel/smp.c), not from .bss. */
#define HZ_MAX_CPUS 1024

enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

/* One CPUID feature bit. `name` is the Linux /proc/cpuinfo spelling. */
struct cpu_feature {
    uint32_t leaf;
    uint8_t subleaf;
    uint8_t reg; /* enum cpuid_reg */
    uint8_t bit;
    const char *name;
};

#define X86_FEATURE(name_, leaf_, sub_, reg_, bit_)                                                \
    ((struct cpu_feature){(leaf_), (sub_), (reg_), (bit_), (name_)})

/* Features that matter for zeroing, paging, timing and SMP. */
#define X86_FEATURE_SSE2 X86_FEATURE("sse2", 0x1, 0, CPUID_EDX, 26)
#define X86_FEATURE_MONITOR X86_FEATURE("monitor", 0x1, 0, CPUID_ECX, 3)
#define X86_FEATURE_X2APIC X86_FEATURE("x2apic", 0x1, 0, CPUID_ECX, 21)
#define X86_FEATURE_XSAVE X86_FEATURE("xsave", 0x1, 0, CPUID_ECX, 26)
#define X86_FEATURE_OSXSAVE X86_FEATURE("osxsave", 0x1, 0, CPUID_ECX, 27)
#define X86_FEATURE_AVX X86_FEATURE("avx", 0x1, 0, CPUID_ECX, 28)
#define X86_FEATURE_HYPERVISOR X86_FEATURE("hypervisor", 0x1, 0, CPUID_ECX, 31)
#define X86_FEATURE_APIC X86_FEATURE("apic", 0x1, 0, CPUID_EDX, 9)
#define X86_FEATURE_MTRR X86_FEATURE("mtrr", 0x1, 0, CPUID_EDX, 12)
#define X86_FEATURE_PAT X86_FEATURE("pat", 0x1, 0, CPUID_EDX, 16)
#define X86_FEATURE_CLFLUSH X86_FEATURE("clflush", 0x1, 0, CPUID_EDX, 19)
#define X86_FEATURE_TSC_DEADLINE X86_FEATURE("tsc_deadline_timer", 0x1, 0, CPUID_ECX, 24)
#define X86_FEATURE_AVX2 X86_FEATURE("avx2", 0x7, 0, CPUID_EBX, 5)
#define X86_FEATURE_ERMS X86_FEATURE("erms", 0x7, 0, CPUID_EBX, 9)
#define X86_FEATURE_AVX512F X86_FEATURE("avx512f", 0x7, 0, CPUID_EBX, 16)
#define X86_FEATURE_CLFLUSHOPT X86_FEATURE("clflushopt", 0x7, 0, CPUID_EBX, 23)
#define X86_FEATURE_CLWB X86_FEATURE("clwb", 0x7, 0, CPUID_EBX, 24)
#define X86_FEATURE_MOVDIRI X86_FEATURE("movdiri", 0x7, 0, CPUID_ECX, 27)
#define X86_FEATURE_MOVDIR64B X86_FEATURE("movdir64b", 0x7, 0, CPUID_ECX, 28)
#define X86_FEATURE_FSRM X86_FEATURE("fsrm", 0x7, 0, CPUID_EDX, 4)
#define X86_FEATURE_FZRM X86_FEATURE("fzrm", 0x7, 1, CPUID_EAX, 10)
#define X86_FEATURE_FSRS X86_FEATURE("fsrs", 0x7, 1, CPUID_EAX, 11)
#define X86_FEATURE_FSRC X86_FEATURE("fsrc", 0x7, 1, CPUID_EAX, 12)
#define X86_FEATURE_NX X86_FEATURE("nx", 0x80000001, 0, CPUID_EDX, 20)
#define X86_FEATURE_PDPE1GB X86_FEATURE("pdpe1gb", 0x80000001, 0, CPUID_EDX, 26)
#define X86_FEATURE_RDTSCP X86_FEATURE("rdtscp", 0x80000001, 0, CPUID_EDX, 27)
#define X86_FEATURE_LM X86_FEATURE("lm", 0x80000001, 0, CPUID_EDX, 29)
#define X86_FEATURE_INVTSC X86_FEATURE("constant_tsc", 0x80000007, 0, CPUID_EDX, 8)
#define X86_FEATURE_CLZERO X86_FEATURE("clzero", 0x80000008, 0, CPUID_EBX, 0)
/* AMD LfenceAlwaysSerializing (APM Vol. 3, CPUID Fn8000_0021_EAX[2]). */
#define X86_FEATURE_LFENCE_RDTSC X86_FEATURE("lfence_rdtsc", 0x80000021, 0, CPUID_EAX, 2)

/* Identification, filled by cpu_init(). Strings are NUL-terminated. */
struct cpu_ident {
    char vendor[13];     /* "GenuineIntel", "AuthenticAMD", ... */
    char brand[49];      /* CPUID 0x80000002-4, leading spaces removed */
    char hypervisor[13]; /* CPUID 0x40000000 signature, "" on bare metal */
    uint32_t family;     /* display family (base + extended) */
    uint32_t model;      /* display model (base + extended << 4) */
    uint32_t stepping;
    uint32_t max_leaf;
    uint32_t max_ext_leaf;
};

/* Read every CPUID leaf the table holds, on the calling CPU. Call once at
 * boot, before any cpu_has(); safe to call again (it re-reads). */
void cpu_init(void);

/* True when the feature bit is set. A leaf above the CPU's maximum, or not
 * held in the table, reads as absent (never faults). */
bool cpu_has(struct cpu_feature f);

/* Raw register of a cached leaf; 0 for a leaf the CPU or table lacks. */
uint32_t cpu_leaf_reg(uint32_t leaf, uint32_t subleaf, enum cpuid_reg reg);

/* Vendor, family/model/stepping, brand and hypervisor signature. */
const struct cpu_ident *cpu_ident(void);

/*
 * Size in bytes of the last-level cache from the deterministic cache
 * parameters, CPUID leaf 4 (Intel, SDM Vol. 2A) or 0x8000001D (AMD APM
 * Vol. 3): ways x partitions x line size x sets of the highest-level data or
 * unified cache. 0 when neither leaf is available (e.g. QEMU's qemu64).
 */
uint64_t cpu_llc_bytes(void);

/* The same for cache level `level` (1, 2, 3, ...: the data or unified cache
 * of that level, the last one listed when several); level 0 is the last
 * level, as cpu_llc_bytes(). 0 when the leaf lacks that level. */
uint64_t cpu_cache_bytes(unsigned level);

/*
 * Which leaf cpu_cache_bytes() reads: "cpuid-4" (leaf 4 on Intel, SDM Vol. 2A
 * "CPUID", and on a CPU without 0x8000001D), "cpuid-8000001d" (AMD APM Vol. 3
 * "CPUID Fn8000_001D") or "none" (neither leaf, or the leaf lists no data
 * or unified cache, as QEMU TCG's: every size reads 0). Under a
 * hypervisor the leaf is the hypervisor's: QEMU invents it unless
 * `-cpu host,host-cache-info=on` passes the host's through.
 */
const char *cpu_cache_source(void);

/* True when running under TCG (hypervisor signature "TCGTCGTCGTCG"). */
bool cpu_is_tcg(void);

#endif /* HZ_ARCH_CPU_H */
