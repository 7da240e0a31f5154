/*
 * arch/gdt.h - per-CPU GDT and TSS (SDM Vol. 3A §3.4.5, §8.2.3 64-bit TSS).
 * Selectors: 0x08 kernel code (64-bit), 0x10 kernel data, 0x18 TSS, 0x2b
 * user data and 0x33 user code (CPL 3, for arch/user.h). The TSS
 * gives each CPU its IST stacks: IST1 for NMI, IST2 for #DF and #MC, so a
 * broken kernel stack still yields a crash report.
 */
#ifndef HZ_ARCH_GDT_H
#define HZ_ARCH_GDT_H

#include <stdint.h>

#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_TSS 0x18
#define GDT_USER_DS (0x28 | 3) /* Linux's __USER_DS and __USER_CS values: PVM-style */
#define GDT_USER_CS (0x30 | 3) /* hypervisors expect them (and SYSRET's layout) */
#define IST_NMI 1
#define IST_FAULT 2
#define IST_STACK_SIZE 8192
#define GDT_IST_BYTES (2 * IST_STACK_SIZE) /* a CPU's IST1 and IST2 stacks */

/* Build and load the GDT and TSS of CPU `cpu` (0..HZ_MAX_CPUS-1), reload
 * the segment registers and TR. `ist` is GDT_IST_BYTES bytes, 16-byte
 * aligned, that the CPU owns from now on (IST1 at the low half, IST2 at the
 * high one); NULL for CPU 0 uses a pair in .bss (the BSP runs this before
 * the frame allocator exists). An out-of-range cpu, or NULL for another
 * CPU, is ignored (returns). */
void gdt_init_cpu(unsigned cpu, void *ist);

/* The TSS RSP0 slot of CPU `cpu` (the stack a CPL 3 -> 0 transition
 * switches to, SDM Vol. 3A §6.14.4; 8 bytes at TSS offset 4, so not 8-byte
 * aligned: access it with memcpy); NULL for an out-of-range cpu. */
void *gdt_tss_rsp0(unsigned cpu);

#endif /* HZ_ARCH_GDT_H */
