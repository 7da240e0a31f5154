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
 * image, which takes its stack and CPU index from the block and calls
 * smp_ap_main(). Every field is little-endian; addresses are physical and
 * equal to virtual (identity map).
 */
#ifndef HZ_ARCH_TRAMPOLINE_H
#define HZ_ARCH_TRAMPOLINE_H

#include <stddef.h>
#include <stdint.h>

#define TRAMP_PAGE_SIZE 0x1000 /* the page must be 4 KiB-aligned and below 1 MiB */
#define TRAMP_PARAMS 0x0f00    /* offset of struct tramp_params in the page */

/* Offsets inside struct tramp_params. */
#define TRAMP_P_CR3 0x00       /* u32: kernel PML4 physical address (< 4 GiB) */
#define TRAMP_P_CR4 0x04       /* u32: CR4 value to load (PAE, maybe PGE) */
#define TRAMP_P_EFER 0x08      /* u32: bits ORed into IA32_EFER (LME, maybe NXE) */
#define TRAMP_P_STAGE 0x0c     /* u32: written by the AP, TRAMP_STAGE_* */
#define TRAMP_P_STACK 0x10     /* u64: initial RSP, 16-byte aligned */
#define TRAMP_P_CPU 0x18       /* u64: CPU index, first argument of smp_ap_main */
#define TRAMP_P_LM_OFF 0x20    /* u32: far pointer (m16:32) to smp_ap_entry64 ... */
#define TRAMP_P_LM_SEL 0x24    /* u16: ... with selector TRAMP_CS64 */
#define TRAMP_P_PM_OFF 0x28    /* u32: far pointer to the 32-bit code, set by the AP */
#define TRAMP_P_PM_SEL 0x2c    /* u16 */
#define TRAMP_P_GDT_LIMIT 0x2e /* u16: GDTR limit ... */
#define TRAMP_P_GDT_BASE 0x30  /* u32: ... and base: LGDT reads 6 bytes at LIMIT */
#define TRAMP_PARAMS_SIZE 0x38

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

struct tramp_params {
    uint32_t cr3, cr4, efer, stage;
    uint64_t stack, cpu;
    uint32_t lm_off;
    uint16_t lm_sel, pad0;
    uint32_t pm_off;
    uint16_t pm_sel, gdt_limit;
    uint32_t gdt_base, pad1;
} __attribute__((packed));

_Static_assert(offsetof(struct tramp_params, cr3) == TRAMP_P_CR3, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, cr4) == TRAMP_P_CR4, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, efer) == TRAMP_P_EFER, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, stage) == TRAMP_P_STAGE, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, stack) == TRAMP_P_STACK, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, cpu) == TRAMP_P_CPU, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, lm_off) == TRAMP_P_LM_OFF, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, lm_sel) == TRAMP_P_LM_SEL, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, pm_off) == TRAMP_P_PM_OFF, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, pm_sel) == TRAMP_P_PM_SEL, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, gdt_limit) == TRAMP_P_GDT_LIMIT, "trampoline layout");
_Static_assert(offsetof(struct tramp_params, gdt_base) == TRAMP_P_GDT_BASE, "trampoline layout");
_Static_assert(sizeof(struct tramp_params) == TRAMP_PARAMS_SIZE, "trampoline layout");
_Static_assert(TRAMP_PARAMS + TRAMP_PARAMS_SIZE <= TRAMP_PAGE_SIZE, "block fits the page");

/* The code and data to copy to the trampoline page: [smp_trampoline,
 * smp_trampoline_end), TRAMP_PARAMS + TRAMP_PARAMS_SIZE bytes (rodata). */
extern const uint8_t smp_trampoline[], smp_trampoline_end[];

/* The 64-bit kernel entry the trampoline jumps to (arch/trampoline.asm). */
extern const uint8_t smp_ap_entry64[];

#endif /* HZ_ARCH_TRAMPOLINE_H */
