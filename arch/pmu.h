/*
 * arch/pmu.h - counting core cycles and last-level-cache misses of the boot
 * CPU around a piece of work, where the CPU exposes an architectural PMU.
 *
 * Intel: architectural performance monitoring (SDM Vol. 3B, chapter
 * "Performance Monitoring", §"Architectural Performance Monitoring"):
 * CPUID leaf 0xA EAX[7:0] version > 0, EAX[15:8] general-purpose counters
 * (IA32_PERFEVTSELx at 0x186 + x, IA32_PMCx at 0xC1 + x), EAX[23:16] their
 * width, EBX bit i set = pre-defined event i not available. Events used:
 * UnHalted Core Cycles (event 0x3C, umask 0x00; EBX bit 0) and LLC Misses
 * (event 0x2E, umask 0x41; EBX bit 4). Version >= 2 also gates the counters
 * with IA32_PERF_GLOBAL_CTRL (0x38F).
 * AMD: CPUID 0x80000001 ECX[23] (PerfCtrExtCore) gives six core counters
 * at MSR C001_0200 + 2i (PERF_CTLi) / C001_0201 + 2i (PERF_CTRi) (APM Vol.
 * 2 §13.2); AMD defines no architectural LLC-miss event there (Zen's L3
 * misses are counted by the L3 PMU, C001_0230+, per family PPR), so on AMD
 * the probe reports the PMU without counting (usable = false, with why).
 *
 * Under a hypervisor the leaves may be zero or the MSRs may #GP: the probe
 * writes and reads back the first event-select MSR through
 * msr_read_safe/msr_write_safe and reports why it is not usable. Kernel
 * only, boot CPU, CPL 0 (RDMSR/WRMSR), after idt_init().
 */
#ifndef HZ_ARCH_PMU_H
#define HZ_ARCH_PMU_H

#include <stdbool.h>
#include <stdint.h>

#define PMU_EVENTS 2 /* index 0: core cycles, 1: LLC misses */

struct pmu_info {
    bool usable;      /* pmu_start/pmu_stop count both events */
    const char *kind; /* "intel-arch", "amd-perfctr-core" or "none" */
    unsigned version; /* Intel CPUID 0xA EAX[7:0]; 0 otherwise */
    const char *why;  /* !usable: the reason, for the `skip` record */
};

/* Probe once (later calls return the same answer). Never faults. */
const struct pmu_info *pmu_probe(void);

/* Zero and start the two counters, counting at CPL 0 and 3. No-op when
 * !pmu_probe()->usable. */
void pmu_start(void);

/* Stop them and store the counts (cycles, LLC misses) in v; zeros when
 * !usable. */
void pmu_stop(uint64_t v[PMU_EVENTS]);

#endif /* HZ_ARCH_PMU_H */
