/*
 * arch/trampoline.c - the AP trampoline's fault IDTs (arch/trampoline.h
 * "Early faults"): 32-bit interrupt gates in the trampoline page for
 * protected mode (SDM Vol. 3A §6.11, Figure 6-2), 64-bit gates in the
 * kernel image for IA-32e mode (§6.14.1), each to the stub of its vector in
 * arch/trampoline.asm.
 */
#include "arch/trampoline.h"
#include "arch/trap.h"

#define FAULT_VECTORS 32 /* the exceptions (SDM Vol. 3A Table 6-1) */

/* Stubs: 8 bytes apart in the copied page, 16 in the kernel text. */
extern const uint8_t smp_tramp_fault32[], smp_tramp_fault64[];

struct tramp_params *tramp_fault_params;
static struct idt_gate idt64[FAULT_VECTORS];

void tramp_fault_setup(uint64_t page, struct tramp_params *p)
{
    uint64_t *idt32 = (uint64_t *)(uintptr_t)(page + TRAMP_IDT32);
    uint64_t stubs32 = page + (uint64_t)(smp_tramp_fault32 - smp_trampoline);
    for (unsigned v = 0; v < FAULT_VECTORS; v++) {
        uint64_t a = stubs32 + 8 * v; /* below 1 MiB */
        /* offset 15:0, selector; P, DPL 0, 32-bit interrupt gate (0x8e), offset 31:16 */
        idt32[v] =
            (a & 0xffff) | ((uint64_t)TRAMP_CS32 << 16) | (0x8eull << 40) | ((a >> 16) << 48);
        idt64[v] = idt_gate_make((uint64_t)(uintptr_t)smp_tramp_fault64 + 16 * v, 0);
    }
    p->idt32_limit = FAULT_VECTORS * 8 - 1;
    p->idt32_base = (uint32_t)(page + TRAMP_IDT32);
    p->idt64_limit = (uint16_t)(sizeof(idt64) - 1);
    p->idt64_base = (uint32_t)(uintptr_t)idt64;
    p->selftest = TRAMP_NO_SELFTEST;
    p->selftest_stage = TRAMP_STAGE_NONE;
    p->stray_fault = 0;
    tramp_fault_params = p;
}
