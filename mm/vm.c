/*
 * mm/vm.c - kernel page tables: identity direct map + kernel protections.
 */
#include "mm/vm.h"
#include "arch/cpu.h"
#include "arch/x86.h"
#include "lib/kstring.h"
#include "lib/print.h"
#include "mm/paging.h"

extern char __kernel_start[], __rodata_start[], __data_start[], __kernel_end[];

static struct frames *fr;
static uint64_t *pml4;
static struct vm_info info;
static vm_mixed_fn mixed_fn;
static uint64_t uc_base, uc_end; /* the device range vm_map_uncached() made UC */

uint64_t vm_alloc_table(void)
{
    uint64_t pa;
    if (frames_alloc(fr, PAGE_SIZE_4K, 1ull << 32, &pa) != FRAMES_OK)
        return 0;
    memset((void *)(uintptr_t)pa, 0, PAGE_SIZE_4K);
    info.tables++;
    return pa;
}

static uint64_t kva(const char *p) { return (uint64_t)(uintptr_t)p; }

static bool overlaps(uint64_t b, uint64_t e, uint64_t lo, uint64_t hi) { return b < hi && lo < e; }

/* Leaf flags for the 4 KiB page at pa (only kernel-image and low pages are
 * mapped this small, so only they get special permissions). */
static uint64_t leaf_flags(uint64_t pa, uint64_t size)
{
    uint64_t nx = info.nx ? PTE_NX : 0;
    if (size == PAGE_SIZE_4K && pa >= kva(__kernel_start) && pa < kva(__kernel_end)) {
        if (pa < kva(__rodata_start))
            return PTE_P | PTE_US; /* text: read-only, executable */
        if (pa < kva(__data_start))
            return PTE_P | PTE_US | nx; /* rodata */
    }
    if (size == PAGE_SIZE_4K && overlaps(pa, pa + size, uc_base, uc_end))
        return PTE_P | PTE_RW | PTE_US | nx | pte_pat_flags(VM_PAT_UC, false);
    return PTE_P | PTE_RW | PTE_US | nx;
}

/* Must [base, base + size) be mapped with smaller pages? */
static bool must_split(uint64_t base, uint64_t size, unsigned level)
{
    if (level == PT_LEVEL_PT)
        return false;
    if (level == PT_LEVEL_PDPT && !info.pages_1g)
        return true;
    if (base == 0) /* page 0 stays unmapped */
        return true;
    if (overlaps(base, base + size, kva(__kernel_start), kva(__kernel_end)) ||
        overlaps(base, base + size, uc_base, uc_end))
        return true;
    if (mixed_fn && mixed_fn(base, size)) {
        if (level == PT_LEVEL_PDPT)
            info.mixed_1g++;
        return true;
    }
    return false;
}

/* Fill table (at `level`) with the identity map of [base, base + 512 * size). */
static int map_table(uint64_t *table, unsigned level, uint64_t base)
{
    uint64_t size = pt_level_size(level);
    for (unsigned i = 0; i < PT_ENTRIES; i++) {
        uint64_t pa = base + i * size;
        if (pa >= info.map_end)
            break;
        if (pa == 0 && level == PT_LEVEL_PT)
            continue; /* NULL page */
        if (!must_split(pa, size, level)) {
            uint64_t fl = leaf_flags(pa, size);
            table[i] = level == PT_LEVEL_PT   ? pte_make_4k(pa, fl)
                       : level == PT_LEVEL_PD ? pte_make_2m(pa, fl)
                                              : pte_make_1g(pa, fl);
            continue;
        }
        uint64_t sub = vm_alloc_table();
        if (!sub)
            return FRAMES_ENOMEM;
        if (level == PT_LEVEL_PDPT && info.pages_1g)
            info.split_1g++;
        int rc = map_table((uint64_t *)(uintptr_t)sub, level - 1, pa);
        if (rc)
            return rc;
        table[i] = pte_make_table(sub, PTE_P | PTE_RW | PTE_US);
    }
    return 0;
}

int vm_init(struct frames *f, const struct memmap *m, vm_mixed_fn mixed)
{
    fr = f;
    mixed_fn = mixed;
    info = (struct vm_info){0};
    info.pages_1g = cpu_has(X86_FEATURE_PDPE1GB);
    info.nx = cpu_has(X86_FEATURE_NX);
    /* RAM and ACPI memory anywhere; device ranges only below 4 GiB (the
     * LAPIC, I/O APIC, HPET and an mmio32 console all live there). */
    uint64_t end = 1ull << 32;
    for (size_t i = 0; i < m->n; i++) {
        uint32_t t = m->r[i].type;
        bool ram = t == MEM_USABLE || t == MEM_ACPI || t == MEM_NVS || t == MEM_PMEM;
        if (ram && m->r[i].end > end)
            end = m->r[i].end;
    }
    info.map_end = (end + PAGE_SIZE_1G - 1) & ~(PAGE_SIZE_1G - 1);

    uint64_t root = vm_alloc_table();
    if (!root)
        goto nomem;
    pml4 = (uint64_t *)(uintptr_t)root;
    for (uint64_t base = 0; base < info.map_end; base += pt_level_size(PT_LEVEL_PML4)) {
        uint64_t pdpt = vm_alloc_table();
        if (!pdpt || map_table((uint64_t *)(uintptr_t)pdpt, PT_LEVEL_PDPT, base))
            goto nomem;
        pml4[va_pml4_index(base)] = pte_make_table(pdpt, PTE_P | PTE_RW | PTE_US);
    }
    write_cr3(root);
    kprintf("vm: identity map of %llu GiB with %s pages (%u split for the kernel image, page 0, "
            "an MMIO console or MTRR types; %u mixed-type), NX %s, %u page-table pages\n",
            (unsigned long long)(info.map_end >> 30), info.pages_1g ? "1 GiB" : "2 MiB",
            info.split_1g, info.mixed_1g, info.nx ? "on" : "unavailable", info.tables);
    if (!info.pages_1g)
        kprintf("vm: no pdpe1gb (CPUID 0x80000001 EDX[26]): falling back to 2 MiB pages\n");
    return 0;
nomem:
    kprintf("vm: out of page-table memory below 4 GiB; keeping the boot map\n");
    pml4 = 0;
    return FRAMES_ENOMEM;
}

const struct vm_info *vm_info(void) { return &info; }

uint64_t *vm_entry(uint64_t va, unsigned level, bool create)
{
    if (!pml4 || !va_is_canonical(va) || level < PT_LEVEL_PT || level > PT_LEVEL_PML4)
        return 0;
    uint64_t *table = pml4;
    for (unsigned l = PT_LEVEL_PML4; l > level; l--) {
        uint64_t *e = &table[va_index(va, l)];
        if (!(*e & PTE_P)) {
            uint64_t t = create ? vm_alloc_table() : 0;
            if (!t)
                return 0;
            *e = pte_make_table(t, PTE_P | PTE_RW | PTE_US);
        } else if (pte_is_leaf(*e, l)) {
            return 0;
        }
        table = (uint64_t *)(uintptr_t)pte_addr(*e, l);
    }
    return &table[va_index(va, level)];
}

void vm_flush_all(void) { write_cr3(read_cr3()); }

int vm_map_uncached(uint64_t pa, uint64_t len)
{
    uint64_t base = pa & ~(PAGE_SIZE_4K - 1);
    uint64_t end = (pa + len + PAGE_SIZE_4K - 1) & ~(PAGE_SIZE_4K - 1);
    if (pml4 || len == 0 || end > (1ull << 32) || end <= base)
        return -1;
    uc_base = base;
    uc_end = end;
    /* boot/entry.asm's map: PML4[0] -> PDPT[0..3] -> 2 MiB PDEs. */
    uint64_t *t = (uint64_t *)(uintptr_t)(read_cr3() & PTE_ADDR_4K);
    for (unsigned l = PT_LEVEL_PML4; l > PT_LEVEL_PD; l--)
        t = (uint64_t *)(uintptr_t)(t[va_index(base, l)] & PTE_ADDR_4K);
    for (uint64_t a = base & ~(PAGE_SIZE_2M - 1); a < end; a += PAGE_SIZE_2M) {
        t[va_pd_index(a)] |= pte_pat_flags(VM_PAT_UC, true);
        invlpg((void *)(uintptr_t)a);
    }
    return 0;
}

int vm_set_exec(uint64_t base, uint64_t len)
{
    for (uint64_t pa = base & ~(PAGE_SIZE_4K - 1); pa < base + len; pa += PAGE_SIZE_4K) {
        uint64_t *e = vm_entry(pa, PT_LEVEL_PT, false);
        if (!e || !(*e & PTE_P))
            return -1; /* only the 4 KiB-mapped low 2 MiB and kernel image qualify */
        *e &= ~PTE_NX;
        invlpg((void *)(uintptr_t)pa);
    }
    return 0;
}
