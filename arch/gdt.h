/*
 * arch/gdt.h - per-CPU GDT and TSS (SDM Vol. 3A §3.4.5, §8.2.3 64-bit TSS).
 * Selectors: 0x08 kernel code (64-bit), 0x10 kernel data, 0x18 TSS. The TSS
 * gives each CPU its IST stacks: IST1 for NMI, IST2 for #DF and #MC, so a
 * broken kernel stack still yields a crash report.
 */
#ifndef HZ_ARCH_GDT_H
#define HZ_ARCH_GDT_H

#include <stdint.h>

#define HZ_MAX_CPUS 256
#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_TSS 0x18
#define IST_NMI 1
#define IST_FAULT 2
#define IST_STACK_SIZE 8192

/* Build and load the GDT and TSS of CPU `cpu` (0..HZ_MAX_CPUS-1), reload
 * the segment registers and TR. Out-of-range cpu is ignored (returns). */
void gdt_init_cpu(unsigned cpu);

#endif /* HZ_ARCH_GDT_H */
