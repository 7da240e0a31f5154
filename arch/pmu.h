/*
 * arch/pmu.h - the boot CPU's performance counters: whether they count at
 * all (the `pmu` record of every boot), and core cycles and last-level-cache
 * misses around a piece of work where the CPU exposes an architectural PMU.
 *
 * Intel: architectural performance monitoring (SDM Vol. 3B, chapter
 * "Performance Monitoring", §"Architectural Performance Monitoring"):
 * CPUID leaf 0xA EAX[7:0] version > 0, EAX[15:8] general-purpose counters
 * (IA32_PERFEVTSELx at 0x186 + x, IA32_PMCx at 0xC1 + x), EAX[23:16] their
 * width, EAX[31:24] the length of EBX, EBX bit i set = pre-defined event i
 * not available. Events used: UnHalted Core Cycles (event 0x3C, umask 0x00;
 * EBX bit 0), Instructions Retired (0xC0, 0x00; EBX bit 1) and LLC Misses
 * (0x2E, 0x41; EBX bit 4). Version >= 2 also gates the counters with
 * IA32_PERF_GLOBAL_CTRL (0x38F).
 * AMD (APM Vol. 2 §13.2): with CPUID 0x80000001 ECX[23] (PerfCtrExtCore),
 * six core counters at MSR C001_0200 + 2i (PERF_CTLi) / C001_0201 + 2i
 * (PERF_CTRi); without it the four legacy ones, PerfEvtSel0-3 at
 * C001_0000-3 and PerfCtr0-3 at C001_0004-7; 48 bits wide. Retired
 * Instructions is event 0xC0 on every family (the family PPRs). AMD defines
 * no architectural LLC-miss event there (Zen's L3 misses are counted by the
 * L3 PMU, C001_0230+, per family PPR), so on AMD the cycles/LLC pair is not
 * counted (usable = false, with why).
 *
 * The check: counter 0 counts instructions retired, at CPL 0 and 3, over a
 * loop of PMU_CHECK_LOOPS iterations of two instructions (DEC, JNZ); the
 * count must be within +-5 % of 2 x PMU_CHECK_LOOPS, read by RDMSR and by
 * RDPMC, else the counters are implausible. 10^5 iterations: the WRMSR and
 * RDMSR around the loop add a few hundred instructions, far inside the 5 %
 * (10^4); 10^6 took 1.8 s where ring 0 is emulated (PVM). Under a hypervisor the leaves
 * may be zero, the MSRs may #GP or #UD or read back nothing: every RDMSR,
 * WRMSR and RDPMC goes through arch/msr.h's safe wrappers, and the answer
 * says why counting is not available. Counting can only run where the CPU,
 * or the hypervisor's vPMU, gives counters: QEMU TCG has none, KVM with
 * `-cpu ...,pmu=off` hides them. Kernel only, boot CPU, CPL 0, after
 * idt_init(); the counters are left disabled.
 */
#ifndef HZ_ARCH_PMU_H
#define HZ_ARCH_PMU_H

#include <stdbool.h>
#include <stdint.h>

#define PMU_EVENTS 2 /* index 0: core cycles, 1: LLC misses */
#define PMU_CHECK_LOOPS 100000u
#define PMU_CHECK_TOLERANCE_PCT 5

struct pmu_info {
    bool usable;              /* pmu_start/pmu_stop count both events (Intel only) */
    const char *kind;         /* "intel-arch", "amd-perfctr-core", "amd-legacy" or "none" */
    unsigned version;         /* Intel CPUID 0xA EAX[7:0]; 0 otherwise */
    unsigned counters, width; /* general-purpose counters and their bits (0: none found) */
    const char *why;          /* !usable: the reason, for the `skip` record */
    /* The instructions-retired check. */
    bool checked;       /* the loop ran with counter 0 programmed */
    bool available;     /* it counted within PMU_CHECK_TOLERANCE_PCT, by RDMSR and RDPMC */
    uint64_t counted;   /* instructions counter 0 read by RDMSR (0 when !checked) */
    uint64_t expected;  /* 2 x PMU_CHECK_LOOPS */
    bool rdpmc_agrees;  /* RDPMC read the same count as RDMSR */
    const char *reason; /* !available: why; else what was checked */
};

/* Probe and check once (later calls return the same answer). Never faults.
 * Boot CPU, CPL 0, after idt_init(). */
const struct pmu_info *pmu_probe(void);

/* Emit the `pmu` record (docs/results.md) and a console line from
 * pmu_probe(). Once per boot, boot CPU. */
void pmu_report(void);

/* Zero and start the two counters, counting at CPL 0 and 3. No-op when
 * !pmu_probe()->usable. */
void pmu_start(void);

/* Stop them and store the counts (cycles, LLC misses) in v; zeros when
 * !usable. */
void pmu_stop(uint64_t v[PMU_EVENTS]);

#endif /* HZ_ARCH_PMU_H */
