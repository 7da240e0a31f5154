/*
 * mm/paging.h - x86-64 4-level paging arithmetic (SDM Vol. 3A §4.5 "4-Level
 * Paging and 5-Level Paging", Tables 4-14 to 4-20): the table indices and
 * page offsets of a virtual address, canonical 48-bit addresses, the bits
 * of a paging-structure entry, the address field of each level, and makers
 * for entries. Constants and inline functions only: the kernel's page-table
 * builder and the host unit tests (tests/unit/test_paging.c) share them.
 *
 * Levels are numbered as in the SDM walk: 4 = PML4, 3 = PDPT, 2 = PD, 1 = PT.
 * A PDPTE with PS=1 maps a 1 GiB page, a PDE with PS=1 a 2 MiB page, a PTE
 * always a 4 KiB page.
 */
#ifndef HZ_MM_PAGING_H
#define HZ_MM_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#define PAGE_SHIFT_4K 12
#define PAGE_SHIFT_2M 21
#define PAGE_SHIFT_1G 30
#define PAGE_SIZE_4K (1ULL << PAGE_SHIFT_4K)
#define PAGE_SIZE_2M (1ULL << PAGE_SHIFT_2M)
#define PAGE_SIZE_1G (1ULL << PAGE_SHIFT_1G)

#define PT_ENTRIES 512   /* entries per paging structure (4 KiB / 8 bytes) */
#define PT_INDEX_BITS 9  /* virtual-address bits consumed per level */
#define VA_BITS 48       /* linear-address width with 4-level paging */
#define PHYS_BITS_MAX 52 /* architectural limit of MAXPHYADDR (SDM Vol. 3A §4.1.4) */

enum pt_level { PT_LEVEL_PT = 1, PT_LEVEL_PD = 2, PT_LEVEL_PDPT = 3, PT_LEVEL_PML4 = 4 };

/* Paging-structure entry bits (SDM Vol. 3A §4.5, Tables 4-14 to 4-20). */
#define PTE_P (1ULL << 0)          /* present */
#define PTE_RW (1ULL << 1)         /* writable */
#define PTE_US (1ULL << 2)         /* user-mode accessible */
#define PTE_PWT (1ULL << 3)        /* page-level write-through (PAT index bit 0) */
#define PTE_PCD (1ULL << 4)        /* page-level cache disable (PAT index bit 1) */
#define PTE_A (1ULL << 5)          /* accessed */
#define PTE_D (1ULL << 6)          /* dirty; only in entries that map a page */
#define PTE_PS (1ULL << 7)         /* page size: PDE maps 2 MiB, PDPTE maps 1 GiB */
#define PTE_G (1ULL << 8)          /* global; only in entries that map a page */
#define PTE_PAT_4K (1ULL << 7)     /* PAT index bit 2 in a PTE (4 KiB page) */
#define PTE_PAT_LARGE (1ULL << 12) /* PAT index bit 2 in a PDE/PDPTE with PS=1 */
#define PTE_NX (1ULL << 63)        /* execute-disable (XD); needs IA32_EFER.NXE=1 */

/* Physical-address fields (bits 51:12, 51:21, 51:30). */
#define PTE_ADDR_4K 0x000ffffffffff000ULL /* PTE page, or any entry's next table */
#define PTE_ADDR_2M 0x000fffffffe00000ULL /* PDE with PS=1 */
#define PTE_ADDR_1G 0x000fffffc0000000ULL /* PDPTE with PS=1 */

/* Flag bits that an entry maker accepts (everything outside the address
 * field, and outside the reserved bits 20:13 / 29:13 of large pages). */
#define PTE_FLAGS_4K (~PTE_ADDR_4K)
#define PTE_FLAGS_2M (~PTE_ADDR_4K | PTE_PAT_LARGE)
#define PTE_FLAGS_1G (~PTE_ADDR_4K | PTE_PAT_LARGE)

_Static_assert(PAGE_SIZE_2M == PT_ENTRIES * PAGE_SIZE_4K, "a PT maps 2 MiB");
_Static_assert(PAGE_SIZE_1G == PT_ENTRIES * PAGE_SIZE_2M, "a PD maps 1 GiB");
_Static_assert(PTE_ADDR_2M == (PTE_ADDR_4K & ~(PAGE_SIZE_2M - 1)), "2 MiB field is 51:21");
_Static_assert(PTE_ADDR_1G == (PTE_ADDR_4K & ~(PAGE_SIZE_1G - 1)), "1 GiB field is 51:30");
_Static_assert(PTE_ADDR_4K == (((1ULL << PHYS_BITS_MAX) - 1) & ~(PAGE_SIZE_4K - 1)), "51:12");
_Static_assert((PTE_PAT_LARGE & PTE_ADDR_2M) == 0, "PAT bit 12 is below the 2 MiB field");
_Static_assert(PAGE_SHIFT_4K + 4 * PT_INDEX_BITS == VA_BITS, "4 levels translate 48 bits");

/* Bytes mapped by one entry at `level` (1: 4 KiB, 2: 2 MiB, 3: 1 GiB,
 * 4: 512 GiB); 0 for a level outside 1..4. */
static inline uint64_t pt_level_size(unsigned level)
{
    if (level < PT_LEVEL_PT || level > PT_LEVEL_PML4)
        return 0;
    return 1ULL << (PAGE_SHIFT_4K + PT_INDEX_BITS * (level - 1));
}

/* Index (0..511) of va in the paging structure at `level` (SDM Vol. 3A
 * §4.5.4: PML4 bits 47:39, PDPT 38:30, PD 29:21, PT 20:12). A level outside
 * 1..4 gives 0. Bits 63:48 are ignored, so a non-canonical address still
 * yields the indices the walk would use after sign extension. */
static inline unsigned va_index(uint64_t va, unsigned level)
{
    if (level < PT_LEVEL_PT || level > PT_LEVEL_PML4)
        return 0;
    return (unsigned)(va >> (PAGE_SHIFT_4K + PT_INDEX_BITS * (level - 1))) & (PT_ENTRIES - 1);
}

static inline unsigned va_pml4_index(uint64_t va) { return va_index(va, PT_LEVEL_PML4); }
static inline unsigned va_pdpt_index(uint64_t va) { return va_index(va, PT_LEVEL_PDPT); }
static inline unsigned va_pd_index(uint64_t va) { return va_index(va, PT_LEVEL_PD); }
static inline unsigned va_pt_index(uint64_t va) { return va_index(va, PT_LEVEL_PT); }

/* Byte offset of va inside its 4 KiB, 2 MiB or 1 GiB page. */
static inline uint64_t va_offset_4k(uint64_t va) { return va & (PAGE_SIZE_4K - 1); }
static inline uint64_t va_offset_2m(uint64_t va) { return va & (PAGE_SIZE_2M - 1); }
static inline uint64_t va_offset_1g(uint64_t va) { return va & (PAGE_SIZE_1G - 1); }

/* True when bits 63:47 of va are all equal (SDM Vol. 1 §3.3.7.1 "Canonical
 * Addressing"): 0..0x00007fffffffffff and 0xffff800000000000..~0. */
static inline bool va_is_canonical(uint64_t va)
{
    uint64_t top = va >> (VA_BITS - 1);
    return top == 0 || top == (1ULL << (64 - VA_BITS + 1)) - 1;
}

/* va with bits 63:48 replaced by copies of bit 47 (always canonical). */
static inline uint64_t va_canonical(uint64_t va)
{
    const uint64_t low = (1ULL << VA_BITS) - 1;
    return (va & (1ULL << (VA_BITS - 1))) ? (va | ~low) : (va & low);
}

/* The canonical address with the given table indices and 4 KiB offset.
 * Out-of-range inputs are masked (indices to 9 bits, offset to 12 bits). */
static inline uint64_t va_make(unsigned pml4, unsigned pdpt, unsigned pd, unsigned pt, uint64_t off)
{
    uint64_t va = ((uint64_t)(pml4 & (PT_ENTRIES - 1)) << 39) |
                  ((uint64_t)(pdpt & (PT_ENTRIES - 1)) << 30) |
                  ((uint64_t)(pd & (PT_ENTRIES - 1)) << 21) |
                  ((uint64_t)(pt & (PT_ENTRIES - 1)) << 12) | (off & (PAGE_SIZE_4K - 1));
    return va_canonical(va);
}

/* PWT/PCD/PAT flags that select IA32_PAT entry `pat_index` (0..7; masked to
 * 3 bits) in an entry that maps a page (SDM Vol. 3A §11.12.3, Table 11-11:
 * index = PAT << 2 | PCD << 1 | PWT). `large`: the entry is a PDE/PDPTE
 * with PS=1, whose PAT bit is bit 12 instead of bit 7. */
static inline uint64_t pte_pat_flags(unsigned pat_index, bool large)
{
    return ((pat_index & 1) ? PTE_PWT : 0) | ((pat_index & 2) ? PTE_PCD : 0) |
           ((pat_index & 4) ? (large ? PTE_PAT_LARGE : PTE_PAT_4K) : 0);
}

/* The PAT index (0..7) an entry that maps a page selects; `large` as above. */
static inline unsigned pte_pat_index(uint64_t entry, bool large)
{
    uint64_t pat = large ? PTE_PAT_LARGE : PTE_PAT_4K;
    return ((entry & PTE_PWT) ? 1u : 0u) | ((entry & PTE_PCD) ? 2u : 0u) |
           ((entry & pat) ? 4u : 0u);
}

/* Entry that maps `phys` with `flags` once both are checked: phys must be
 * aligned to `align_mask + 1` and fit in 52 bits, flags must stay in
 * `allowed`. Returns 0 (a not-present entry) otherwise. */
static inline uint64_t pte_make_checked(uint64_t phys, uint64_t flags, uint64_t addr_mask,
                                        uint64_t allowed)
{
    if ((phys & ~addr_mask) != 0 || (flags & ~allowed) != 0)
        return 0;
    return phys | flags;
}

/* A PML4E, PDPTE or PDE that references the next paging structure at
 * `table` (4 KiB-aligned, below 2^52). flags must not contain PTE_PS,
 * PTE_PAT_LARGE or address bits. Returns 0 (not present) on bad input. */
static inline uint64_t pte_make_table(uint64_t table, uint64_t flags)
{
    return pte_make_checked(table, flags, PTE_ADDR_4K, PTE_FLAGS_4K & ~PTE_PS);
}

/* A PTE mapping the 4 KiB page at `phys` (4 KiB-aligned, below 2^52);
 * bit 7 of flags is the PAT bit here (PTE_PAT_4K). 0 on bad input. */
static inline uint64_t pte_make_4k(uint64_t phys, uint64_t flags)
{
    return pte_make_checked(phys, flags, PTE_ADDR_4K, PTE_FLAGS_4K);
}

/* A PDE mapping the 2 MiB page at `phys` (2 MiB-aligned, below 2^52); PS is
 * added; flags may hold PTE_PAT_LARGE but no bit of 51:13. 0 on bad input. */
static inline uint64_t pte_make_2m(uint64_t phys, uint64_t flags)
{
    return pte_make_checked(phys, flags | PTE_PS, PTE_ADDR_2M, PTE_FLAGS_2M);
}

/* A PDPTE mapping the 1 GiB page at `phys` (1 GiB-aligned, below 2^52); PS
 * is added; flags may hold PTE_PAT_LARGE but no bit of 51:13. 0 on bad
 * input. Needs CPUID.80000001H:EDX.Page1GB (SDM Vol. 3A §4.1.4). */
static inline uint64_t pte_make_1g(uint64_t phys, uint64_t flags)
{
    return pte_make_checked(phys, flags | PTE_PS, PTE_ADDR_1G, PTE_FLAGS_1G);
}

/* True when `entry` at `level` maps a page (a PTE, or PS=1 in a PDE or
 * PDPTE) rather than referencing a table. PML4Es never map pages. */
static inline bool pte_is_leaf(uint64_t entry, unsigned level)
{
    if (level == PT_LEVEL_PT)
        return true;
    return (level == PT_LEVEL_PD || level == PT_LEVEL_PDPT) && (entry & PTE_PS);
}

/* Physical address an entry at `level` references: the page it maps (field
 * 51:12, 51:21 or 51:30) or the next table (51:12). 0 for a bad level. */
static inline uint64_t pte_addr(uint64_t entry, unsigned level)
{
    if (level < PT_LEVEL_PT || level > PT_LEVEL_PML4)
        return 0;
    if (pte_is_leaf(entry, level) && level == PT_LEVEL_PD)
        return entry & PTE_ADDR_2M;
    if (pte_is_leaf(entry, level) && level == PT_LEVEL_PDPT)
        return entry & PTE_ADDR_1G;
    return entry & PTE_ADDR_4K;
}

#endif /* HZ_MM_PAGING_H */
