/*
 * arch/trampoline.h - the AP start-up trampoline (arch/trampoline.asm): its
 * page layout and the parameter block the boot CPU fills for each AP. This
 * file is the one definition of that layout: arch/rules.mk turns every
 * `#define TRAMP_*` line below into a NASM `%define` (build/gen/
 * trampoline.inc) for the asm side, and the struct is checked against the
 * same numbers at compile time.
 *
 * An AP leaves wait-for-SIPI in real mode at CS:IP = (page >> 4):0 (SDM Vol.
 * 3A §9.4.4.2 "Typical AP Initialization Sequence"); the code switches to
 * protected mode with its own GDT copy (§10.9.1), loads the kernel's CR3,
 * sets CR4.PAE (+PGE), EFER.LME (+NXE), turns on paging (§10.8.5
 * "Initializing IA-32e Mode") and far-jumps to smp_ap_entry64 in the kernel
 * image. Every field is little-endian; addresses are physical and equal to
 * virtual (identity map).
 *
 * Several APs may run the trampoline at once (kernel/smp.c starts them in
 * batches), so the parameter block holds nothing per AP. Until it has a slot
 * an AP touches no memory but the block's stage and stray words: no stack.
 * In 64-bit mode it reads its own APIC ID from its local APIC (the x2APIC ID
 * MSR 0x802 in x2APIC mode, which it enters itself when TRAMP_P_X2APIC says
 * the BSP uses it; else the xAPIC ID register at IA32_APIC_BASE + 0x20,
 * bits 31:24; SDM Vol. 3A §11.4.6, §11.12.5), finds the slot with that APIC
 * ID and claims it with LOCK CMPXCHG (OPEN -> TAKEN). Only then does it load
 * the slot's stack and call smp_ap_main(slot cpu). An AP whose slot is not
 * OPEN (the BSP closed it after a time-out, a duplicate, or a CPU not in the
 * table) counts itself in TRAMP_P_STRAYS, writes the ID it read to
 * TRAMP_P_STRAY_ID (last writer wins) and halts with interrupts off: it
 * never runs on a stack that is not its own. This is the scheme of Linux's
 * parallel AP bring-up (arch/x86/kernel/head_64.S, "find the CPU number by
 * APIC ID").
 */
#ifndef HZ_ARCH_TRAMPOLINE_H
#define HZ_ARCH_TRAMPOLINE_H

#include <stddef.h>
#include <stdint.h>

#define TRAMP_PAGE_SIZE 0x1000 /* the page must be 4 KiB-aligned and below 1 MiB */
#define TRAMP_PARAMS 0x0f00    /* offset of struct tramp_params in the page */

/* Offsets inside struct tramp_params. */
#define TRAMP_P_CR3 0x00            /* u32: kernel PML4 physical address (< 4 GiB) */
#define TRAMP_P_CR4 0x04            /* u32: CR4 value to load (PAE, maybe PGE) */
#define TRAMP_P_EFER 0x08           /* u32: bits ORed into IA32_EFER (LME, maybe NXE) */
#define TRAMP_P_STAGE 0x0c          /* u32: written by the AP, TRAMP_STAGE_* (last writer wins) */
#define TRAMP_P_SLOTS 0x10          /* u64: address of struct tramp_slot[TRAMP_P_NSLOTS] */
#define TRAMP_P_NSLOTS 0x18         /* u32: slots in the table */
#define TRAMP_P_X2APIC 0x1c         /* u32: 1 when the BSP runs its APIC in x2APIC mode */
#define TRAMP_P_LM_OFF 0x20         /* u32: far pointer (m16:32) to smp_ap_entry64 ... */
#define TRAMP_P_LM_SEL 0x24         /* u16: ... with selector TRAMP_CS64 */
#define TRAMP_P_PM_OFF 0x28         /* u32: far pointer to the 32-bit code, set by the AP */
#define TRAMP_P_PM_SEL 0x2c         /* u16 */
#define TRAMP_P_GDT_LIMIT 0x2e      /* u16: GDTR limit ... */
#define TRAMP_P_GDT_BASE 0x30       /* u32: ... and base: LGDT reads 6 bytes at LIMIT */
#define TRAMP_P_STRAYS 0x34         /* u32: APs that found no OPEN slot (locked increment) */
#define TRAMP_P_IDT32_LIMIT 0x3a    /* u16: IDTR of the 32-bit fault IDT at TRAMP_IDT32 ... */
#define TRAMP_P_IDT32_BASE 0x3c     /* u32: ... in the page (LIDT reads 6 bytes at LIMIT) */
#define TRAMP_P_IDT64_LIMIT 0x42    /* u16: IDTR of the 64-bit fault IDT ... */
#define TRAMP_P_IDT64_BASE 0x44     /* u32: ... (below 4 GiB: loaded in compatibility mode) */
#define TRAMP_P_SELFTEST 0x48       /* u32: APIC ID of the AP that faults on purpose ... */
#define TRAMP_P_STRAY_FAULT 0x4c    /* u32: TRAMP_FAULT() of the last AP that faulted slotless */
#define TRAMP_P_SELFTEST_STAGE 0x50 /* u32: ... in this stage: PROT (UD2), LONG (MSR 0x802) */
#define TRAMP_P_STRAY_ID 0x54       /* u32: APIC ID of the last AP that found no OPEN slot */
#define TRAMP_PARAMS_SIZE 0x58

/* One slot per AP the BSP starts: the AP with this APIC ID claims it. */
#define TRAMP_S_APIC_ID 0x00 /* u32: the APIC ID the MADT lists */
#define TRAMP_S_CLAIM 0x04   /* u32: TRAMP_SLOT_* */
#define TRAMP_S_STACK 0x08   /* u64: initial RSP, 16-byte aligned, the AP's own */
#define TRAMP_S_CPU 0x10     /* u64: CPU index, first argument of smp_ap_main */
#define TRAMP_S_FAULT 0x18   /* u32: the AP's mailbox: TRAMP_FAULT(stage, vector), 0 none */
#define TRAMP_SLOT_SIZE 0x20

#define TRAMP_SLOT_UNUSED 0 /* no AP is being started with this slot */
#define TRAMP_SLOT_OPEN 1   /* set by the BSP before the AP's INIT */
#define TRAMP_SLOT_TAKEN 2  /* set by the AP (LOCK CMPXCHG from OPEN) */
#define TRAMP_SLOT_CLOSED 3 /* set by the BSP (LOCK CMPXCHG from OPEN): given up */

/* Selectors of the trampoline's GDT; CS64 and DS equal the kernel's
 * (arch/gdt.h), so nothing changes when the AP loads its own GDT. */
#define TRAMP_CS64 0x08
#define TRAMP_DS 0x10
#define TRAMP_CS32 0x18

/* Progress the AP writes into TRAMP_P_STAGE (the boot CPU reports the last
 * one seen when an AP does not come up). */
#define TRAMP_STAGE_NONE 0
#define TRAMP_STAGE_REAL 1 /* running in real mode */
#define TRAMP_STAGE_PROT 2 /* in 32-bit protected mode */
#define TRAMP_STAGE_LONG 3 /* in 64-bit mode on the kernel's page tables */
#define TRAMP_STAGE_C 4    /* smp_ap_main() entered */

/*
 * Early faults. From protected mode until smp_ap_main() loads the kernel's
 * IDT, an AP runs with a fault IDT of its own: 32 interrupt gates in the
 * page at TRAMP_IDT32 (8-byte gates, SDM Vol. 3A §6.11, Figure 6-2) while
 * in protected mode, then 32 16-byte gates in the kernel image (§6.14.1,
 * Figure 6-8) from the moment paging turns IA-32e mode on. ESP/RSP point at
 * TRAMP_STACK_TOP in the page until the AP has its own stack: the CPU's
 * pushes of several APs may overlap there, and nothing reads them. Each
 * handler finds its APIC ID with CPUID (leaf 0BH EDX, the x2APIC ID, where
 * leaf 0BH is valid: max leaf >= 0BH and CPUID.(0BH,0):EBX[15:0] != 0,
 * SDM Vol. 2A "CPUID"; else CPUID.01H:EBX[31:24], the initial APIC ID),
 * since its APIC may be the very thing that faulted; it writes
 * TRAMP_FAULT(stage, vector) into the mailbox of the slot with that ID
 * (TRAMP_S_FAULT, whatever the slot's claim), or, with no such slot, counts
 * itself in TRAMP_P_STRAYS and writes TRAMP_P_STRAY_FAULT and
 * TRAMP_P_STRAY_ID; then it halts
 * with interrupts off. No fault of an AP resets the machine.
 */
#define TRAMP_IDT32 0x0d00     /* offset of the 32-bit fault IDT: 32 gates of 8 bytes */
#define TRAMP_STACK_TOP 0x0f00 /* the shared scratch stack: [0x0e00, 0x0f00) */
#define TRAMP_FAULT(stage, vector) (((stage) << 8) | (vector))
#define TRAMP_FAULT_STAGE(f) (((f) >> 8) & 0xff)
#define TRAMP_FAULT_VECTOR(f) ((f)&0xff)
#define TRAMP_NO_SELFTEST 0xffffffff /* TRAMP_P_SELFTEST: no AP runs the fault self-test */

struct tramp_params {
    uint32_t cr3, cr4, efer, stage;
    uint64_t slots;
    uint32_t nslots, x2apic;
    uint32_t lm_off;
    uint16_t lm_sel, pad0;
    uint32_t pm_off;
    uint16_t pm_sel, gdt_limit;
    uint32_t gdt_base, strays;
    uint16_t pad1, idt32_limit;
    uint32_t idt32_base;
    uint16_t pad2, idt64_limit;
    uint32_t idt64_base;
    uint32_t selftest, stray_fault, selftest_stage, stray_id;
} __attribute__((packed));

struct tramp_slot {
    uint32_t apic_id;
    volatile uint32_t claim;
    uint64_t stack, cpu;
    volatile uint32_t fault;
    uint32_t pad;
};

_Static_assert(offsetof(struct tramp_params, cr3) == TRAMP_P_CR3, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, cr4) == TRAMP_P_CR4, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, efer) == TRAMP_P_EFER, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, stage) == TRAMP_P_STAGE, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, slots) == TRAMP_P_SLOTS, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, nslots) == TRAMP_P_NSLOTS, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, x2apic) == TRAMP_P_X2APIC, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, strays) == TRAMP_P_STRAYS, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, lm_off) == TRAMP_P_LM_OFF, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, lm_sel) == TRAMP_P_LM_SEL, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, pm_off) == TRAMP_P_PM_OFF, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, pm_sel) == TRAMP_P_PM_SEL, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, gdt_limit) == TRAMP_P_GDT_LIMIT, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, gdt_base) == TRAMP_P_GDT_BASE, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, idt32_limit) == TRAMP_P_IDT32_LIMIT,
               "trampoline layout");
_Static_assert(offsetof(struct tramp_params, idt32_base) == TRAMP_P_IDT32_BASE,
               "trampoline layout");
_Static_assert(offsetof(struct tramp_params, idt64_limit) == TRAMP_P_IDT64_LIMIT,
               "trampoline layout");
_Static_assert(offsetof(struct tramp_params, idt64_base) == TRAMP_P_IDT64_BASE,
               "trampoline layout");
_Static_assert(offsetof(struct tramp_params, selftest) == TRAMP_P_SELFTEST, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, stray_fault) == TRAMP_P_STRAY_FAULT,
               "trampoline layout");
_Static_assert(offsetof(struct tramp_params, selftest_stage) == TRAMP_P_SELFTEST_STAGE,
               "trampoline layout");
_Static_assert(offsetof(struct tramp_params, stray_id) == TRAMP_P_STRAY_ID, "trampoline layout");
_Static_assert(sizeof(struct tramp_params) == TRAMP_PARAMS_SIZE, "trampoline layout");
_Static_assert(offsetof(struct tramp_slot, apic_id) == TRAMP_S_APIC_ID, "slot layout");
_Static_assert(offsetof(struct tramp_slot, claim) == TRAMP_S_CLAIM, "slot layout");
_Static_assert(offsetof(struct tramp_slot, stack) == TRAMP_S_STACK, "slot layout");
_Static_assert(offsetof(struct tramp_slot, cpu) == TRAMP_S_CPU, "slot layout");
_Static_assert(offsetof(struct tramp_slot, fault) == TRAMP_S_FAULT, "slot layout");
_Static_assert(sizeof(struct tramp_slot) == TRAMP_SLOT_SIZE, "slot layout");
_Static_assert(TRAMP_IDT32 + 32 * 8 <= TRAMP_STACK_TOP - 0x100, "the IDT ends below the stack");
_Static_assert(TRAMP_PARAMS + TRAMP_PARAMS_SIZE <= TRAMP_PAGE_SIZE, "block fits the page");

/* The code and data to copy to the trampoline page: [smp_trampoline,
 * smp_trampoline_end), TRAMP_PARAMS + TRAMP_PARAMS_SIZE bytes (rodata). */
extern const uint8_t smp_trampoline[], smp_trampoline_end[];

/* The parameter block the 64-bit fault handler reports through (set by
 * tramp_fault_setup; arch/trampoline.asm reads it). */
extern struct tramp_params *tramp_fault_params;

/* The 64-bit kernel entry the trampoline jumps to (arch/trampoline.asm). */
extern const uint8_t smp_ap_entry64[];

/*
 * Make the trampoline copied to `page` (4 KiB-aligned, below 1 MiB,
 * identity-mapped) ready for faults (arch/trampoline.c): the 32-bit gates
 * at page + TRAMP_IDT32, the 64-bit gates in the kernel image, both IDTRs
 * in the parameter block p (inside that page), and no self-test
 * (p->selftest = TRAMP_NO_SELFTEST, p->selftest_stage = TRAMP_STAGE_NONE). Call after copying
 * [smp_trampoline, smp_trampoline_end) and before the first START-UP.
 */
void tramp_fault_setup(uint64_t page, struct tramp_params *p);

#endif /* HZ_ARCH_TRAMPOLINE_H */
