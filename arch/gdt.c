/*
 * arch/gdt.c - per-CPU GDT + 64-bit TSS (SDM Vol. 3A §3.4.5, §8.2.3).
 */
#include "arch/gdt.h"
#include "arch/cpu.h"
#include "arch/x86.h"
#include "lib/kstring.h"

#include <stddef.h>

struct tss64 {
    uint32_t reserved0;
    uint64_t rsp[3];
    uint64_t reserved1;
    uint64_t ist[7];
    uint64_t reserved2;
    uint16_t reserved3;
    uint16_t iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss64) == 104, "64-bit TSS is 104 bytes (SDM Vol. 3A Figure 8-11)");

struct cpu_tables {
    uint64_t gdt[7]; /* null, code, data, TSS low, TSS high, user data, user code */
    struct tss64 tss;
};

static struct cpu_tables tables[HZ_MAX_CPUS] __attribute__((aligned(64)));
static uint8_t bsp_ist[GDT_IST_BYTES] __attribute__((aligned(16)));

void gdt_init_cpu(unsigned cpu, void *ist)
{
    if (cpu >= HZ_MAX_CPUS || (!ist && cpu != 0))
        return;
    uint8_t *stacks = ist ? ist : bsp_ist;
    struct cpu_tables *t = &tables[cpu];
    memset(t, 0, sizeof(*t));
    t->gdt[1] = 0x00af9a000000ffffull; /* code: P, DPL0, S, exec/read, L */
    t->gdt[2] = 0x00cf92000000ffffull; /* data: P, DPL0, S, read/write */
    uint64_t base = (uint64_t)(uintptr_t)&t->tss;
    uint64_t limit = sizeof(t->tss) - 1;
    t->gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) /* P, type 9 */ |
                (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
    t->gdt[4] = base >> 32;
    t->gdt[5] = 0x00cff2000000ffffull; /* user data: P, DPL3, S, read/write */
    t->gdt[6] = 0x00affa000000ffffull; /* user code: P, DPL3, S, exec/read, L */
    t->tss.ist[IST_NMI - 1] = (uint64_t)(uintptr_t)(stacks + IST_STACK_SIZE);
    t->tss.ist[IST_FAULT - 1] = (uint64_t)(uintptr_t)(stacks + GDT_IST_BYTES);
    t->tss.iomap_base = sizeof(t->tss); /* no I/O bitmap */

    /* LGDT, then CS through a far return and the data segments and TR: one
     * sequence, since the compiler must not touch the stack or segments in
     * between (SDM Vol. 3A §3.4.3, §7.2.4). */
    struct desc_ptr gdtr = {sizeof(t->gdt) - 1, (uint64_t)(uintptr_t)t->gdt};
    __asm__ volatile("lgdt %0\n\t"
                     "pushq %1\n\t"
                     "leaq 1f(%%rip), %%rax\n\t"
                     "pushq %%rax\n\t"
                     "lretq\n"
                     "1:\n\t"
                     "movw %w2, %%ax\n\t"
                     "movw %%ax, %%ds\n\t"
                     "movw %%ax, %%es\n\t"
                     "movw %%ax, %%ss\n\t"
                     "ltr %w3"
                     :
                     : "m"(gdtr), "i"(GDT_KERNEL_CS), "r"(GDT_KERNEL_DS), "r"(GDT_TSS)
                     : "rax", "memory");
}

void *gdt_tss_rsp0(unsigned cpu)
{
    return cpu < HZ_MAX_CPUS ? (uint8_t *)&tables[cpu].tss + offsetof(struct tss64, rsp) : 0;
}
