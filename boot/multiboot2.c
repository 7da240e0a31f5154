/*
 * boot/multiboot2.c - parse the Multiboot2 boot information block
 * (Multiboot2 Specification version 2.0, §3.6).
 *
 * Layout (§3.6.2): an 8-byte-aligned fixed part { u32 total_size; u32
 * reserved; } then tags { u32 type; u32 size; ... }, each starting on an
 * 8-byte boundary, `size` counting the tag header but not the padding. A tag
 * of type 0, size 8 ends the list. Tags read here:
 *   1  boot command line (§3.6.5)       string
 *   2  boot loader name (§3.6.9)        string
 *   3  module (§3.6.6)                  u32 mod_start, u32 mod_end, string
 *   6  memory map (§3.6.8)              u32 entry_size, u32 entry_version,
 *                                       entries { u64 base_addr, u64 length,
 *                                       u32 type, u32 reserved }
 *   12 EFI 64-bit system table (§3.6.14) u64 pointer
 *   14 ACPI old RSDP (§3.6.16)          copy of the RSDPv1 (20 bytes)
 *   15 ACPI new RSDP (§3.6.17)          copy of the RSDPv2 (36 bytes)
 *   17 EFI memory map (§3.6.19)         u32 descriptor_size, u32
 *                                       descriptor_version, then UEFI
 *                                       EFI_MEMORY_DESCRIPTORs (UEFI 2.10 §7.2)
 *   18 EFI boot services not terminated (§3.6.20): boot-services memory of
 *                                       tag 17 is then not free
 * Every field is read through memcpy into a local copy, so odd entry sizes
 * never cause misaligned or out-of-tag reads.
 */
#include "boot/bootinfo.h"

#include "lib/kstring.h"

#define MB2_INFO_MAX (1u << 20) /* larger total_size values are rejected */

enum {
    MB2_TAG_END = 0,
    MB2_TAG_CMDLINE = 1,
    MB2_TAG_LOADER = 2,
    MB2_TAG_MODULE = 3,
    MB2_TAG_MMAP = 6,
    MB2_TAG_EFI64 = 12,
    MB2_TAG_ACPI_OLD = 14,
    MB2_TAG_ACPI_NEW = 15,
    MB2_TAG_EFI_MMAP = 17,
    MB2_TAG_EFI_BS = 18,
};

struct mb2_tag {
    uint32_t type, size;
};

struct mb2_tag_module {
    uint32_t type, size, mod_start, mod_end; /* then the module's string */
};

/* Header of tags 6 and 17: entry_size/entry_version, or descriptor_size/
 * descriptor_version; the entries follow at offset 16. */
struct mb2_tag_map {
    uint32_t type, size, entry_size, entry_version;
};

struct mb2_mmap_entry {
    uint64_t base_addr, length;
    uint32_t type, reserved;
};

/* UEFI 2.10 §7.2 EFI_BOOT_SERVICES.GetMemoryMap(): EFI_MEMORY_DESCRIPTOR. */
struct efi_memory_descriptor {
    uint32_t Type, pad;
    uint64_t PhysicalStart, VirtualStart, NumberOfPages, Attribute;
};

_Static_assert(sizeof(struct mb2_mmap_entry) == 24, "Multiboot2 §3.6.8 entry");
_Static_assert(sizeof(struct efi_memory_descriptor) == 40, "UEFI EFI_MEMORY_DESCRIPTOR");

/* UEFI 2.10 §7.2 EFI_MEMORY_TYPE values. */
enum {
    EfiLoaderCode = 1,
    EfiLoaderData = 2,
    EfiBootServicesCode = 3,
    EfiBootServicesData = 4,
    EfiConventionalMemory = 7,
    EfiUnusableMemory = 8,
    EfiACPIReclaimMemory = 9,
    EfiACPIMemoryNVS = 10,
    EfiPersistentMemory = 14,
};

struct mb2_walk {
    const uint8_t *mmap, *efi_mmap; /* validated map tags, NULL if none */
    uint32_t seen;                  /* bit t: a tag of type t < 32 was read */
    unsigned modules_dropped;
};

/* Normally the loader has left boot services, so their memory is free (bs_live
 * when tag 18 says otherwise); loader memory is free too (the kernel excludes
 * its image, the info block and modules itself); runtime services, MMIO,
 * reserved and unknown types stay reserved. */
static uint32_t efi_to_e820(uint32_t efi_type, bool bs_live)
{
    switch (efi_type) {
    case EfiBootServicesCode:
    case EfiBootServicesData:
        return bs_live ? MEM_RESERVED : MEM_USABLE;
    case EfiLoaderCode:
    case EfiLoaderData:
    case EfiConventionalMemory:
        return MEM_USABLE;
    case EfiUnusableMemory:
        return MEM_BAD;
    case EfiACPIReclaimMemory:
        return MEM_ACPI;
    case EfiACPIMemoryNVS:
        return MEM_NVS;
    case EfiPersistentMemory:
        return MEM_PMEM;
    default:
        return MEM_RESERVED;
    }
}

static bool has_nul(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] == 0)
            return true;
    return false;
}

static void add_module(struct bootinfo *bi, struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
    struct mb2_tag_module t;
    if (size < sizeof(t) + 1) {
        boot_diag(bi, "mb2 tag 3 (module): size %u < %zu, ignored", size, sizeof(t) + 1);
        return;
    }
    memcpy(&t, tag, sizeof(t));
    if (!has_nul(tag + sizeof(t), size - sizeof(t))) {
        boot_diag(bi, "mb2 tag 3 (module): string without NUL, ignored");
    } else if (t.mod_end < t.mod_start) {
        boot_diag(bi, "mb2 tag 3 (module): mod_end 0x%x < mod_start 0x%x, ignored", t.mod_end,
                  t.mod_start);
    } else if (bi->nmodules >= BOOT_MODULES_MAX) {
        w->modules_dropped++;
    } else {
        struct boot_module *m = &bi->modules[bi->nmodules++];
        m->start = t.mod_start;
        m->end = t.mod_end;
        boot_copy_str(bi, "mb2 module string", m->cmdline, sizeof(m->cmdline),
                      (const char *)tag + sizeof(t), size - sizeof(t));
    }
}

/* Check the header of a map tag (6 or 17); remember the tag if it is sound. */
static void check_map(struct bootinfo *bi, const uint8_t **slot, const uint8_t *tag, uint32_t type,
                      uint32_t size, uint32_t min_entry)
{
    struct mb2_tag_map h;
    if (size < sizeof(h)) {
        boot_diag(bi, "mb2 tag %u (memory map): size %u < 16, ignored", type, size);
        return;
    }
    memcpy(&h, tag, sizeof(h));
    if (h.entry_size < min_entry) {
        boot_diag(bi, "mb2 tag %u (memory map): entry size %u < %u, ignored", h.type, h.entry_size,
                  min_entry);
    } else if ((size - sizeof(h)) % h.entry_size != 0) {
        boot_diag(bi, "mb2 tag %u (memory map): %zu bytes of entries not a multiple of %u, ignored",
                  h.type, size - sizeof(h), h.entry_size);
    } else {
        *slot = tag;
    }
}

static void add_entry(struct bootinfo *bi, uint32_t tag, size_t i, uint64_t base, uint64_t len,
                      uint32_t type)
{
    if (memmap_add(&bi->map, base, len, type) == MEMMAP_OVERFLOW)
        boot_diag(bi, "mb2 tag %u entry %zu: base 0x%lx + length 0x%lx overflows 2^64, ignored",
                  tag, i, base, len);
}

static void read_map(struct bootinfo *bi, const uint8_t *tag, bool bs_live)
{
    struct mb2_tag_map h;
    memcpy(&h, tag, sizeof(h));
    size_t count = (h.size - sizeof(h)) / h.entry_size;
    const uint8_t *p = tag + sizeof(h);
    for (size_t i = 0; i < count; i++, p += h.entry_size) {
        if (h.type == MB2_TAG_MMAP) {
            struct mb2_mmap_entry e;
            memcpy(&e, p, sizeof(e));
            add_entry(bi, h.type, i, e.base_addr, e.length, e.type);
            continue;
        }
        struct efi_memory_descriptor d;
        memcpy(&d, p, sizeof(d));
        if (d.NumberOfPages > UINT64_MAX >> 12)
            boot_diag(bi, "mb2 tag 17 entry %zu: 0x%lx pages overflow 2^64, ignored", i,
                      d.NumberOfPages);
        else
            add_entry(bi, h.type, i, d.PhysicalStart, d.NumberOfPages << 12,
                      efi_to_e820(d.Type, bs_live));
    }
}

static void read_tag(struct bootinfo *bi, struct mb2_walk *w, const uint8_t *tag, uint32_t type,
                     uint32_t size)
{
    if (type < 32 && type != MB2_TAG_MODULE && (w->seen & (1u << type))) {
        boot_diag(bi, "mb2 tag %u: duplicate, ignored", type);
        return;
    }
    if (type < 32)
        w->seen |= 1u << type;
    const char *body = (const char *)tag + 8;
    switch (type) {
    case MB2_TAG_CMDLINE:
        if (boot_copy_str(bi, "mb2 tag 1 (cmdline)", bi->cmdline, BOOT_CMDLINE_MAX, body,
                          size - 8) == -2)
            bi->cmdline_too_long = true;
        break;
    case MB2_TAG_LOADER:
        boot_copy_str(bi, "mb2 tag 2 (loader name)", bi->loader, BOOT_LOADER_MAX, body, size - 8);
        break;
    case MB2_TAG_MODULE:
        add_module(bi, w, tag, size);
        break;
    case MB2_TAG_MMAP:
        check_map(bi, &w->mmap, tag, type, size, sizeof(struct mb2_mmap_entry));
        break;
    case MB2_TAG_EFI_MMAP:
        check_map(bi, &w->efi_mmap, tag, type, size, sizeof(struct efi_memory_descriptor));
        break;
    case MB2_TAG_EFI64:
        if (size < 16)
            boot_diag(bi, "mb2 tag 12 (EFI64 system table): size %u < 16, ignored", size);
        else
            memcpy(&bi->efi_systab, body, 8);
        break;
    case MB2_TAG_ACPI_OLD:
    case MB2_TAG_ACPI_NEW: {
        uint32_t len = type == MB2_TAG_ACPI_NEW ? 36 : 20;
        if (size - 8 < len) {
            boot_diag(bi, "mb2 tag %u (ACPI RSDP): %u bytes < %u, ignored", type, size - 8, len);
        } else if (len > bi->rsdp_len) { /* the new RSDP wins in either order */
            memcpy(bi->rsdp, body, len);
            bi->rsdp_len = len;
        }
        break;
    }
    default:
        break;
    }
}

/* Walk the tags in [mbi + 8, mbi + avail); avail < total_size when the
 * block reaches `limit`. */
static void walk_tags(struct bootinfo *bi, struct mb2_walk *w, const uint8_t *mbi, uint64_t avail,
                      const char *bound)
{
    uint64_t off = 8;
    for (;;) {
        struct mb2_tag t;
        if (off + sizeof(t) > avail) {
            boot_diag(bi, "mb2: no end tag before %s (+0x%lx)", bound, avail);
            return;
        }
        memcpy(&t, mbi + off, sizeof(t));
        if (t.size < sizeof(t)) {
            boot_diag(bi, "mb2 tag %u at +0x%lx: size %u < 8, walk stopped", t.type, off, t.size);
            return;
        }
        if (t.size > avail - off) {
            boot_diag(bi, "mb2 tag %u at +0x%lx: size %u runs past %s, walk stopped", t.type, off,
                      t.size, bound);
            return;
        }
        if (t.type == MB2_TAG_END) {
            if (t.size != 8)
                boot_diag(bi, "mb2 end tag: size %u, expected 8", t.size);
            return;
        }
        read_tag(bi, w, mbi + off, t.type, t.size);
        off += (t.size + 7u) & ~7u;
    }
}

int mb2_parse(struct bootinfo *bi, const void *mbi, uint64_t limit)
{
    uint64_t addr = (uint64_t)(uintptr_t)mbi;
    uint32_t total;

    bootinfo_init(bi);
    if ((addr & 7) != 0 || !boot_readable(addr, 8, limit)) {
        boot_diag(bi, "mb2: info block at 0x%lx is NULL, misaligned or past limit 0x%lx", addr,
                  limit);
        return -1;
    }
    memcpy(&total, mbi, sizeof(total));
    if (total < 16 || total > MB2_INFO_MAX) {
        boot_diag(bi, "mb2: total_size %u outside 16..%u", total, MB2_INFO_MAX);
        return -1;
    }
    uint64_t avail = total;
    const char *bound = "total_size";
    if (avail > limit - addr) {
        boot_diag(bi, "mb2: info block runs past limit 0x%lx", limit);
        avail = limit - addr;
        bound = "limit";
    }
    bi->info_start = addr;
    bi->info_end = addr + avail;

    struct mb2_walk w = {0};
    walk_tags(bi, &w, mbi, avail, bound);
    if (w.modules_dropped)
        boot_diag(bi, "mb2: %u module(s) beyond %d ignored", w.modules_dropped, BOOT_MODULES_MAX);

    bool efi = (w.seen & (1u << MB2_TAG_EFI64 | 1u << MB2_TAG_EFI_MMAP)) != 0;
    bi->path = efi ? BOOT_MB2_EFI : BOOT_MB2_BIOS;
    bi->map_source = "none";
    if (w.efi_mmap) {
        read_map(bi, w.efi_mmap, (w.seen & 1u << MB2_TAG_EFI_BS) != 0);
        bi->map_source = "multiboot2-efi-mmap";
    } else if (w.mmap) {
        read_map(bi, w.mmap, false);
        bi->map_source = "multiboot2-mmap";
    } else {
        boot_diag(bi, "mb2: no usable memory map tag (6 or 17)");
    }
    memmap_normalise(&bi->map);
    if (bi->map.dropped)
        boot_diag(bi, "mb2: memory map full, %zu entries dropped", bi->map.dropped);
    return 0;
}
