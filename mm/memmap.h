/*
 * mm/memmap.h - the physical memory map: collected from the boot loader
 * (E820-style types, ACPI 6.5 §15 "System Address Map Interfaces"), then
 * normalised: sorted, overlaps resolved in favour of the non-usable type,
 * adjacent ranges of one type merged, usable ranges trimmed to 4 KiB pages.
 * Portable C: the host unit tests build it. A leaf: it includes nothing of
 * the project, so every layer may (boot/bootinfo.h does; tests/tools/
 * test_docs.py checks both).
 */
#ifndef HZ_MM_MEMMAP_H
#define HZ_MM_MEMMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ACPI/E820 address-range types. */
enum mem_type {
    MEM_USABLE = 1,
    MEM_RESERVED = 2,
    MEM_ACPI = 3, /* ACPI reclaimable: tables */
    MEM_NVS = 4,  /* ACPI NVS */
    MEM_BAD = 5,  /* unusable */
    MEM_DISABLED = 6,
    MEM_PMEM = 7, /* persistent memory */
};

#define MEMMAP_MAX 256

/* Highest end kept (2^64 - 4096): ranges reaching past it, including those
 * ending exactly at 2^64, are clipped there, so `end` never wraps to 0. */
#define MEMMAP_END_MAX (~(uint64_t)0 - 4095)

struct mem_range {
    uint64_t base;
    uint64_t end;  /* exclusive, base < end <= MEMMAP_END_MAX */
    uint32_t type; /* enum mem_type, or another loader value (treated as reserved) */
};

struct memmap {
    struct mem_range r[MEMMAP_MAX];
    size_t n;
    size_t dropped; /* entries lost because the map was full */
};

/* Memory the frame allocator must not hand out (mm/frames.h frames_init):
 * [base, end), end exclusive and >= base; `reason` ("kernel image") is
 * copied. Here, in the leaf header, so that boot/ can name what the boot
 * information occupies without including the allocator. */
struct frame_excl {
    uint64_t base, end;
    const char *reason;
};

/*
 * memmap_add() results: 0 added; MEMMAP_EMPTY zero-length entry ignored;
 * MEMMAP_OVERFLOW base + len wraps past 2^64 (ignored); MEMMAP_FULL no room.
 */
enum { MEMMAP_OK = 0, MEMMAP_EMPTY = -1, MEMMAP_OVERFLOW = -2, MEMMAP_FULL = -3 };

/* Empty map (n = 0, dropped = 0). */
void memmap_init(struct memmap *m);

/*
 * Append [base, base + len) bytes of `type` (any value; unknown ones count as
 * reserved). No order or alignment is required. An entry that continues the
 * last one (same type, base == last end) extends it instead of taking a slot,
 * which keeps long sorted EFI maps small. Returns MEMMAP_OK, MEMMAP_EMPTY
 * (len 0, or nothing left below MEMMAP_END_MAX), MEMMAP_OVERFLOW (base + len
 * > 2^64; exactly 2^64 is clipped, not an overflow) or MEMMAP_FULL (n ==
 * MEMMAP_MAX; `dropped` is incremented).
 */
int memmap_add(struct memmap *m, uint64_t base, uint64_t len, uint32_t type);

/*
 * Sort by base, split overlaps so every byte has one type (any non-usable
 * type beats MEM_USABLE; among non-usable types the higher precedence wins:
 * BAD > NVS > RESERVED/other > ACPI > PMEM, and between two different types
 * of one precedence, e.g. RESERVED and DISABLED, the lower type number wins),
 * merge touching ranges of the same type, and shrink usable ranges inward to
 * 4 KiB boundaries (dropping those that vanish). Entries with end <= base are
 * dropped. Splitting can need more than MEMMAP_MAX entries: then a usable
 * piece is forgotten, or a weaker non-usable piece takes the stronger type,
 * and `dropped` is incremented; no byte ever turns usable that a loader
 * marked otherwise. In place, no allocation, O(n^2). Idempotent.
 */
void memmap_normalise(struct memmap *m);

/* Total bytes of MEM_USABLE ranges of a normalised map. */
uint64_t memmap_usable_bytes(const struct memmap *m);

/* Architectural bounds of MAXPHYADDR, CPUID 0x80000008 EAX[7:0] (SDM Vol. 3A
 * §4.1.4): at most 52 bits; 36 is assumed when the leaf is absent or reads 0. */
#define MEMMAP_PHYS_BITS_MAX 52u
#define MEMMAP_PHYS_BITS_DEFAULT 36u

/* The first byte past MAXPHYADDR for `bits` from CPUID 0x80000008 EAX[7:0]
 * (2^bits): bits 0 means "unknown" and gives 2^36; values above 52, or
 * below 32 (not a 64-bit CPU), are brought to the nearer bound. */
uint64_t memmap_phys_limit(unsigned bits);

/*
 * Cut every range of a normalised map at `limit` (bytes, a multiple of 4 KiB
 * such as memmap_phys_limit()): ranges at or above it are removed, a range
 * crossing it ends there. Nothing past the CPU's physical address width can
 * be mapped (a PTE with those bits set faults with RSVD, SDM Vol. 3A §4.7).
 * Returns the bytes of MEM_USABLE RAM removed (0 when nothing was cut); the
 * map stays normalised.
 */
uint64_t memmap_clamp(struct memmap *m, uint64_t limit);

/* Number of 1 GiB-aligned 1 GiB frames lying wholly inside one usable range
 * of a normalised map (before any allocator exclusions such as the kernel
 * image). */
uint64_t memmap_count_1g(const struct memmap *m);

/* "usable", "reserved", "acpi", "nvs", "bad", "disabled", "pmem", "other". */
const char *mem_type_name(uint32_t type);

#endif /* HZ_MM_MEMMAP_H */
