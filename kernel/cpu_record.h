/*
 * kernel/cpu_record.h - the CPU part of a `header` record (docs/results.md),
 * shared by the kernel (kernel/header.c) and tools/linux-bench so both
 * describe a machine the same way. Portable C.
 */
#ifndef HZ_KERNEL_CPU_RECORD_H
#define HZ_KERNEL_CPU_RECORD_H

#include "arch/msr.h"
#include "lib/record.h"

/* Add the members `cpu` (vendor, family, model, stepping, brand),
 * `hypervisor`, `tcg` and `features` (one bool per zeroing-relevant CPUID
 * bit, Linux /proc/cpuinfo names) to r. Needs cpu_init() first. */
void rec_cpu_members(struct rec *r);

/* Add `microcode` ("0x..." hex string, or "unknown") and `microcode_source`
 * (how it was read and any caveat, or why it is unknown) from *m. */
void rec_microcode(struct rec *r, const struct cpu_microcode *m);

#endif /* HZ_KERNEL_CPU_RECORD_H */
