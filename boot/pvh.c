/*
 * boot/pvh.c - parse the PVH start info (Xen public/arch-x86/hvm/start_info.h),
 * which QEMU (-kernel with an XEN_ELFNOTE_PHYS32_ENTRY note), Firecracker,
 * cloud-hypervisor and Xen pass in %ebx:
 *
 *   struct hvm_start_info {             offset
 *       u32 magic;                      0   0x336ec578
 *       u32 version;                    4   0 or 1
 *       u32 flags;                      8   SIF_* (unused here)
 *       u32 nr_modules;                 12
 *       u64 modlist_paddr;              16  -> hvm_modlist_entry[nr_modules]
 *       u64 cmdline_paddr;              24  -> NUL-terminated string, 0: none
 *       u64 rsdp_paddr;                 32  ACPI RSDP, 0: none
 *       u64 memmap_paddr;               40  version >= 1 only
 *       u32 memmap_entries;             48  version >= 1 only
 *       u32 reserved;                   52
 *   };
 *   struct hvm_modlist_entry { u64 paddr, size, cmdline_paddr, reserved; };
 *   struct hvm_memmap_table_entry { u64 addr, size; u32 type, reserved; };
 *
 * All addresses are physical; the kernel identity-maps them below `limit`.
 * Every pointer followed here is checked (non-NULL, whole object below
 * `limit`) first, and every structure is read through memcpy into a local
 * copy. rsdp_paddr is only recorded: the ACPI code validates the RSDP.
 */
#include "boot/bootinfo.h"

#include <stddef.h>

#include "lib/kstring.h"

#define HVM_START_MAGIC 0x336ec578u
#define CMDLINE_SCAN (64u << 10) /* bytes searched for a string's NUL */

struct hvm_start_info {
    uint32_t magic, version, flags, nr_modules;
    uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr;
    uint64_t memmap_paddr; /* version >= 1 */
    uint32_t memmap_entries, reserved;
};

struct hvm_modlist_entry {
    uint64_t paddr, size, cmdline_paddr, reserved;
};

struct hvm_memmap_table_entry {
    uint64_t addr, size;
    uint32_t type, reserved;
};

/* Version 0 of hvm_start_info ends before memmap_paddr. */
#define HVM_START_INFO_V0_SIZE offsetof(struct hvm_start_info, memmap_paddr)

_Static_assert(sizeof(struct hvm_start_info) == 56, "start_info.h layout");
_Static_assert(HVM_START_INFO_V0_SIZE == 40, "start_info.h version 0 layout");
_Static_assert(sizeof(struct hvm_modlist_entry) == 32, "start_info.h layout");
_Static_assert(sizeof(struct hvm_memmap_table_entry) == 24, "start_info.h layout");

static const void *phys(uint64_t paddr) { return (const void *)(uintptr_t)paddr; }

/* The string at paddr (0: none) into dst, cap bytes; `what` names it. */
/* boot_copy_str's result: 0, or -1/-2 (also -1 for a pointer past limit). */
static int read_str(struct bootinfo *bi, const char *what, char *dst, size_t cap, uint64_t paddr,
                    uint64_t limit)
{
    if (paddr == 0)
        return 0;
    if (!boot_readable(paddr, 1, limit)) {
        boot_diag(bi, "%s at 0x%lx: past limit, ignored", what, paddr);
        return -1;
    }
    uint64_t avail = limit - paddr < CMDLINE_SCAN ? limit - paddr : CMDLINE_SCAN;
    return boot_copy_str(bi, what, dst, cap, phys(paddr), (size_t)avail);
}

static void read_modules(struct bootinfo *bi, const struct hvm_start_info *s, uint64_t limit)
{
    uint32_t n = s->nr_modules;
    if (n == 0)
        return;
    if (n > BOOT_MODULES_MAX) {
        boot_diag(bi, "pvh: %u modules, only the first %d read", n, BOOT_MODULES_MAX);
        n = BOOT_MODULES_MAX;
    }
    if (!boot_readable(s->modlist_paddr, (uint64_t)n * sizeof(struct hvm_modlist_entry), limit)) {
        boot_diag(bi, "pvh modlist at 0x%lx: NULL or past limit, ignored", s->modlist_paddr);
        return;
    }
    const uint8_t *p = phys(s->modlist_paddr);
    for (uint32_t i = 0; i < n; i++) {
        struct hvm_modlist_entry e;
        memcpy(&e, p + i * sizeof(e), sizeof(e));
        if (e.size > UINT64_MAX - e.paddr) {
            boot_diag(bi, "pvh module %u: paddr 0x%lx + size 0x%lx overflows 2^64, ignored", i,
                      e.paddr, e.size);
            continue;
        }
        struct boot_module *m = &bi->modules[bi->nmodules++];
        m->start = e.paddr;
        m->end = e.paddr + e.size;
        read_str(bi, "pvh module cmdline", m->cmdline, sizeof(m->cmdline), e.cmdline_paddr, limit);
    }
}

static void read_memmap(struct bootinfo *bi, const struct hvm_start_info *s, uint64_t limit)
{
    uint32_t n = s->memmap_entries;
    if (n == 0)
        return;
    if (n > MEMMAP_MAX) {
        boot_diag(bi, "pvh: %u memmap entries, only the first %d read", n, MEMMAP_MAX);
        n = MEMMAP_MAX;
    }
    uint64_t bytes = (uint64_t)n * sizeof(struct hvm_memmap_table_entry);
    if (!boot_readable(s->memmap_paddr, bytes, limit)) {
        boot_diag(bi, "pvh memmap at 0x%lx: NULL or past limit, ignored", s->memmap_paddr);
        return;
    }
    const uint8_t *p = phys(s->memmap_paddr);
    for (uint32_t i = 0; i < n; i++) {
        struct hvm_memmap_table_entry e;
        memcpy(&e, p + i * sizeof(e), sizeof(e));
        if (memmap_add(&bi->map, e.addr, e.size, e.type) == MEMMAP_OVERFLOW)
            boot_diag(bi, "pvh memmap entry %u: addr 0x%lx + size 0x%lx overflows 2^64, ignored", i,
                      e.addr, e.size);
    }
}

int pvh_parse(struct bootinfo *bi, const void *si, uint64_t limit)
{
    uint64_t addr = (uint64_t)(uintptr_t)si;
    struct hvm_start_info s = {0};

    bootinfo_init(bi);
    if (!boot_readable(addr, HVM_START_INFO_V0_SIZE, limit)) {
        boot_diag(bi, "pvh: start info at 0x%lx is NULL or past limit 0x%lx", addr, limit);
        return -1;
    }
    memcpy(&s, si, HVM_START_INFO_V0_SIZE);
    if (s.magic != HVM_START_MAGIC) {
        boot_diag(bi, "pvh: bad magic 0x%x, expected 0x%x", s.magic, HVM_START_MAGIC);
        return -1;
    }
    uint64_t size = HVM_START_INFO_V0_SIZE;
    if (s.version == 0) {
        boot_diag(bi, "pvh: start info version 0 has no memory map");
    } else if (!boot_readable(addr, sizeof(s), limit)) {
        boot_diag(bi, "pvh: start info version %u runs past limit, memory map ignored", s.version);
    } else {
        memcpy(&s, si, sizeof(s));
        size = sizeof(s);
    }

    bi->path = BOOT_PVH;
    memcpy(bi->loader, "pvh", 4); /* PVH names no loader: docs/results.md says "pvh" */
    bi->map_source = "pvh-memmap";
    bi->info_start = addr;
    bi->info_end = addr + size;
    if (read_str(bi, "pvh cmdline", bi->cmdline, BOOT_CMDLINE_MAX, s.cmdline_paddr, limit) == -2)
        bi->cmdline_too_long = true;
    read_modules(bi, &s, limit);
    bi->rsdp_paddr = s.rsdp_paddr; /* not read here: arch/acpi.c checks and reads it */
    read_memmap(bi, &s, limit);
    memmap_normalise(&bi->map);
    if (bi->map.n == 0)
        boot_diag(bi, "pvh: empty memory map");
    if (bi->map.dropped)
        boot_diag(bi, "pvh: memory map full, %zu entries dropped", bi->map.dropped);
    return 0;
}
