/*
 * mm/vm.h - the kernel's own page tables (SDM Vol. 3A §4.5, 4-level paging),
 * replacing boot/entry.asm's 4 GiB boot map:
 *   - an identity direct map of [0, max(4 GiB, end of RAM/ACPI memory)) with
 *     1 GiB PDPTEs (PS=1) where CPUID.80000001H:EDX[26] (pdpe1gb) allows,
 *     else 2 MiB PDEs;
 *   - smaller pages only where they are needed: 4 KiB pages for the kernel
 *     image (text read-only and executable, rodata read-only + NX, data/bss
 *     writable + NX) and for the first 2 MiB (page 0 left not present, so a
 *     NULL dereference faults); 2 MiB pages for a 1 GiB range the MTRRs
 *     give mixed memory types (SDM Vol. 3A §11.11.9); 4 KiB pages, UC,
 *     for the registers of an MMIO console (vm_map_uncached);
 *   - everything else writable and NX (when the CPU has NX).
 * Page-table pages come from the 4 KiB frame allocator (mm/frames.h).
 */
#ifndef HZ_MM_VM_H
#define HZ_MM_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "mm/frames.h"

struct vm_info {
    bool pages_1g;     /* direct map uses 1 GiB pages */
    bool nx;           /* NX used for data */
    uint64_t map_end;  /* identity map covers [0, map_end) */
    unsigned tables;   /* page-table pages allocated */
    unsigned split_1g; /* 1 GiB ranges mapped with smaller pages */
    unsigned mixed_1g; /* ... of which because the MTRR type is mixed */
};

/*
 * Callback for memory types: true when [base, base + size) does not have one
 * MTRR type (so a page of that size would get an implementation-defined
 * type). NULL means "never mixed".
 */
typedef bool (*vm_mixed_fn)(uint64_t base, uint64_t size);

/*
 * Build the tables for the normalised map `m` with page-table pages from f
 * (allocated below 4 GiB, which the boot map reaches), load CR3, and print
 * the result. Returns 0, or a FRAMES_E* code when page-table memory ran out
 * (the boot map then stays in use and the error is printed).
 */
int vm_init(struct frames *f, const struct memmap *m, vm_mixed_fn mixed);

/* The result of vm_init (zeros before). */
const struct vm_info *vm_info(void);

/*
 * Pointer to the entry for `va` at `level` (PT_LEVEL_* of mm/paging.h),
 * creating missing intermediate tables (writable, executable: leaves decide)
 * from the allocator when `create`. NULL when va is not canonical, a leaf
 * (PS=1) sits above the level, or a table could not be allocated. The
 * caller flushes the TLB (invlpg or vm_flush_all) after changing a present
 * entry.
 */
uint64_t *vm_entry(uint64_t va, unsigned level, bool create);

/* Allocate one zeroed 4 KiB page-table page; 0 when none is left. */
uint64_t vm_alloc_table(void);

/* Reload CR3: flush every non-global TLB entry (SDM Vol. 3A §4.10.4.1). */
void vm_flush_all(void);

/* PAT entry that PCD=1 PWT=1 selects: UC in the power-on IA32_PAT, which
 * the kernel never changes (SDM Vol. 3A §11.12.4, Table 11-12). */
#define VM_PAT_UC 3

/*
 * Map the device registers [pa, pa + len) (an MMIO UART) uncacheable in the
 * identity map, whatever the MTRRs say of the range: before vm_init(), in
 * boot/entry.asm's map (its 2 MiB pages over the range get PCD|PWT); and
 * vm_init() then maps the range's 4 KiB pages UC, with 4 KiB pages around
 * them. The caller checks the range is not RAM. One range is kept: a
 * second call replaces it (the first one's 2 MiB boot pages stay UC until
 * vm_init: slower, never wrong). Returns 0, or -1 after vm_init(), for len
 * 0 or past 4 GiB.
 */
int vm_map_uncached(uint64_t pa, uint64_t len);

/* Make [base, base + len) of the identity map executable (the AP start-up
 * trampoline below 1 MiB). Splits large pages as needed. Returns 0 or -1. */
int vm_set_exec(uint64_t base, uint64_t len);

#endif /* HZ_MM_VM_H */
