/*
 * boot/bootinfo.h - the one boot-information structure that both boot
 * protocols fill: Multiboot2 (boot/multiboot2.c, Multiboot2 spec §3.6) and
 * PVH (boot/pvh.c, Xen arch-x86/hvm/start_info.h). Everything the kernel
 * needs is copied in, so the loader's structures are only read, never kept
 * in use or written.
 */
#ifndef HZ_BOOT_BOOTINFO_H
#define HZ_BOOT_BOOTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/memmap.h" /* a leaf: boot/ includes nothing else of mm/ */

/* Protocol numbers passed from boot/entry.asm to kmain (keep in sync). */
#define BOOT_PROTO_MB2 1
#define BOOT_PROTO_PVH 2

enum boot_path { BOOT_UNKNOWN = 0, BOOT_MB2_BIOS, BOOT_MB2_EFI, BOOT_PVH };

#define BOOT_CMDLINE_MAX 1024
#define BOOT_LOADER_MAX 64
#define BOOT_MODULES_MAX 16
#define BOOT_DIAG_MAX 16
#define BOOT_DIAG_LEN 120

#define BOOT_MODULE_CMDLINE_MAX 256

struct boot_module {
    uint64_t start, end;                   /* physical, end exclusive */
    char cmdline[BOOT_MODULE_CMDLINE_MAX]; /* its string (Multiboot2 tag 3, PVH
                                              cmdline_paddr); "" when none */
};

struct bootinfo {
    enum boot_path path;
    char cmdline[BOOT_CMDLINE_MAX]; /* NUL-terminated, "" when none */
    bool cmdline_too_long;          /* the loader's was longer than BOOT_CMDLINE_MAX - 1
                                     * bytes: cmdline is "" (a configuration error) */
    char loader[BOOT_LOADER_MAX];   /* boot-loader name, "" when none (always for PVH) */
    /* "multiboot2-mmap" (tag 6), "multiboot2-efi-mmap" (tag 17), "pvh-memmap",
     * or "none" when the loader gave no usable map */
    const char *map_source;
    struct memmap map; /* normalised (mm/memmap.h) */

    /* ACPI RSDP (ACPI 6.5 §5.2.5.3): a copy (Multiboot2 tags 14/15 carry the
     * structure itself, spec §3.6.16/§3.6.17) or its physical address (PVH
     * rsdp_paddr, recorded unchecked: arch/acpi.c validates it). */
    uint8_t rsdp[36];
    uint32_t rsdp_len;   /* 0: no RSDP from the loader; 20 (v1) or 36 (v2) */
    uint64_t rsdp_paddr; /* 0 when only a copy is known */

    struct boot_module modules[BOOT_MODULES_MAX];
    size_t nmodules;
    /* the loader's info block, end exclusive: the Multiboot2 block
     * (total_size bytes, cut at `limit`), or the hvm_start_info itself (PVH) */
    uint64_t info_start, info_end;
    uint64_t efi_systab; /* EFI system table (tag 12), 0 if none */

    /* Problems found while parsing: each is reported, none is followed. */
    char diag[BOOT_DIAG_MAX][BOOT_DIAG_LEN];
    size_t ndiag;
    size_t ndiag_dropped; /* diagnostics beyond BOOT_DIAG_MAX */
};

/* Reset bi to "nothing known" (path BOOT_UNKNOWN, empty map and strings,
 * map_source "none"). */
void bootinfo_init(struct bootinfo *bi);

/* Record a parsing problem (printf-style as hz_snprintf, lib/fmt.h;
 * truncated to BOOT_DIAG_LEN - 1 characters). Past BOOT_DIAG_MAX entries
 * only ndiag_dropped is counted. */
void boot_diag(struct bootinfo *bi, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The memory the loader's information names, as frame-allocator exclusions
 * (struct frame_excl, mm/memmap.h) appended to x[*n..cap): the information block itself, each
 * boot module and the 36 bytes of a PVH RSDP. A range reaching past 2^64
 * (a PVH rsdp_paddr near 2^64, which arch/acpi.c rejects) is clipped to end
 * at 2^64 - 1, so every exclusion has end >= base. Entries past cap are
 * dropped and counted in the return value (0 when all fitted).
 */
size_t bootinfo_exclusions(const struct bootinfo *bi, struct frame_excl *x, size_t *n, size_t cap);

/* "multiboot2-bios", "multiboot2-efi", "pvh" or "unknown". */
const char *boot_path_name(enum boot_path p);

/* For the parsers: may [addr, addr + len) be read? False for addr 0 (NULL),
 * addr >= limit, or a range ending past limit (checked without overflow). */
bool boot_readable(uint64_t addr, uint64_t len, uint64_t limit);

/*
 * For the parsers: copy the string at src, whose NUL must lie in its first
 * `avail` bytes (only those are read), into dst (cap bytes, cap >= 1).
 * Returns 0; or, with dst set to "" and a diagnostic naming `what`
 * recorded, -1 for a string without a NUL there and -2 for one longer than
 * cap - 1 bytes.
 */
int boot_copy_str(struct bootinfo *bi, const char *what, char *dst, size_t cap, const char *src,
                  size_t avail);

/*
 * Parse a Multiboot2 boot-information block at `mbi` (Multiboot2 spec 2.0
 * §3.6) into bi, which is reset first (bootinfo_init). `limit` is the highest
 * address + 1 the caller can read (the early page tables map 4 GiB); nothing
 * at or above it is read, and tags reaching past it are not followed. Reads
 * tags 1 (cmdline, kept verbatim), 2 (loader name), 3 (modules and their
 * strings; a string over BOOT_MODULE_CMDLINE_MAX - 1 bytes is a diagnostic
 * and reads as ""), 6 (memory
 * map), 12 (EFI64 system table), 14/15 (ACPI old/new RSDP copy; new wins),
 * 17 (EFI memory map, UEFI types mapped to E820 ones; boot-services memory
 * is usable unless tag 18 says boot services still run). The EFI memory map,
 * when well-formed, is used instead of tag 6. path is BOOT_MB2_EFI when tag
 * 12 or 17 is present, else BOOT_MB2_BIOS. Bad tag sizes stop the walk; bad
 * contents (unterminated strings, short tags, entry sizes that do not
 * divide, entries past 2^64) skip that tag or entry. Each is recorded with
 * boot_diag(). The map is normalised. Returns 0 (even with diagnostics), or
 * -1 when the block is unusable as a whole (NULL, not 8-byte aligned, header
 * unreadable below limit, total_size < 16 or > 1 MiB): path is then
 * BOOT_UNKNOWN and the map empty.
 */
int mb2_parse(struct bootinfo *bi, const void *mbi, uint64_t limit);

/*
 * Parse a PVH hvm_start_info at `si` (Xen public/arch-x86/hvm/start_info.h,
 * magic 0x336ec578) into bi, which is reset first (bootinfo_init). Its
 * addresses are physical (identity-mapped; plain pointers in host tests).
 * Reads the command line (its NUL is searched for in at most 64 KiB, so
 * that a long one is reported as cmdline_too_long), module list (at most
 * BOOT_MODULES_MAX, each with its cmdline_paddr string as for Multiboot2),
 * RSDP address (recorded, not read) and the memory map (version >= 1; at
 * most MEMMAP_MAX entries read). NULL pointers, ranges reaching `limit`,
 * strings without a NUL, modules or entries past 2^64 and
 * an empty memory map are recorded with boot_diag() and not followed. path
 * is BOOT_PVH, loader "", map_source "pvh-memmap"; the map is normalised.
 * Returns 0 (the map may still be empty: version 0), or -1 when si is NULL,
 * unreadable below limit or has a bad magic (path then BOOT_UNKNOWN).
 */
int pvh_parse(struct bootinfo *bi, const void *si, uint64_t limit);

#endif /* HZ_BOOT_BOOTINFO_H */
