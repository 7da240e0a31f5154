/*
 * arch/acpi.h - ACPI table discovery and parsing (ACPI 6.5 chapter 5): the
 * RSDP (§5.2.5), the RSDT/XSDT (§5.2.7/§5.2.8), MADT (§5.2.12), SRAT
 * (§5.2.16), SLIT (§5.2.17), FADT (§5.2.9), the DSDT's \_S5 package (§7.4.2.5), the HPET
 * table (IA-PC HPET Specification 1.0a §3.2.4) and the SPCR (Microsoft "Serial Port Console
 * Redirection Table", revisions 2-4; ACPI 6.5 §5.2.6 reserves its signature).
 *
 * The kernel is identity-mapped, so a table's physical address is used as a
 * pointer; host tests pass addresses of their own buffers. Every parser is a
 * pure function over memory: it reads nothing past the table's own Length,
 * nor past the caller's `avail`/`limit` bound. Malformed tables and entries
 * are recorded in a struct acpi_diag and skipped, never followed. Nothing
 * here prints; acpi_summary() formats a line for the caller to print.
 *
 * All ACPI multi-byte fields are little-endian and need not be aligned
 * (§5.2 "ACPI System Description Tables").
 */
#ifndef HZ_ARCH_ACPI_H
#define HZ_ARCH_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/bootinfo.h"

#define ACPI_DIAG_MAX 16
#define ACPI_DIAG_LEN 120
#define ACPI_TABLES_MAX 64
#define ACPI_CPUS_MAX                                                                              \
    2048 /* MADT/SRAT CPU entries kept: room beyond HZ_MAX_CPUS for disabled ones */
#define ACPI_IOAPICS_MAX 16
#define ACPI_MEM_AFFINITY_MAX 64
#define ACPI_HDR_LEN 36 /* System Description Table Header, §5.2.6 */

/* Problems found while parsing: each is reported, none is followed. */
struct acpi_diag {
    char msg[ACPI_DIAG_MAX][ACPI_DIAG_LEN];
    size_t n;
    size_t dropped; /* messages beyond ACPI_DIAG_MAX */
};

/* Record a problem (printf-style via hz_snprintf, truncated to ACPI_DIAG_LEN).
 * d may be NULL, then nothing is recorded. */
void acpi_diag(struct acpi_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Generic Address Structure, §5.2.3.2. space: 0 system memory, 1 system I/O. */
struct acpi_gas {
    uint8_t space;       /* Address Space ID */
    uint8_t bit_width;   /* Register Bit Width */
    uint8_t bit_offset;  /* Register Bit Offset */
    uint8_t access_size; /* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
    uint64_t addr;       /* 0: register not present */
};
#define ACPI_SPACE_MEM 0
#define ACPI_SPACE_IO 1

/* 8-bit sum of len bytes at p; a valid ACPI table sums to 0 (§5.2.6). */
uint8_t acpi_checksum(const void *p, size_t len);

/* ---- RSDP (§5.2.5.3) ---- */

struct acpi_rsdp {
    const char *source; /* "multiboot2-copy", "pvh-rsdp-paddr", "bios-scan" */
    uint64_t paddr;     /* where the RSDP is; 0 when only a copy is known */
    uint8_t revision;   /* 0: ACPI 1.0; >= 2: ACPI 2.0+ */
    char oem_id[7];     /* OEMID, NUL-terminated, non-printable bytes as '?' */
    uint32_t length;    /* bytes validated: 20, or Length (>= 36) */
    uint32_t rsdt;      /* RsdtAddress */
    uint64_t xsdt;      /* XsdtAddress; 0 when unknown (revision < 2) */
};

/*
 * Validate an RSDP candidate at p, of which `avail` bytes may be read:
 * signature "RSD PTR ", the ACPI 1.0 checksum over the first 20 bytes and,
 * for Revision >= 2, the extended checksum over Length bytes (Length must be
 * >= 36 and <= avail). A Revision >= 2 structure with fewer than 36 bytes
 * available (a 20-byte Multiboot2 tag-14 copy) is accepted as ACPI 1.0
 * (RSDT only), with a diagnostic. Fills *out (source and paddr are left 0 for the caller)
 * and returns 0, or returns -1 after a diagnostic naming `where`.
 */
int acpi_rsdp_parse(const void *p, size_t avail, const char *where, struct acpi_rsdp *out,
                    struct acpi_diag *d);

/* A readable memory range [base, base + len) given to the scanner. */
struct acpi_range {
    uint64_t base;
    uint64_t len; /* bytes */
};

/*
 * Scan ranges[0..n) for an RSDP at every 16-byte-aligned address (§5.2.5.1),
 * first range first; a range's base is rounded up to 16. Addresses without
 * the signature are passed over silently; a candidate with the signature but
 * a bad checksum or Length is reported and the scan goes on. Only bytes
 * inside the ranges are read. Returns 0 with *out filled (paddr = its
 * address, source "bios-scan"), or -1 when none is valid.
 */
int acpi_rsdp_scan(const struct acpi_range *ranges, size_t n, struct acpi_rsdp *out,
                   struct acpi_diag *d);

/*
 * The IA-PC BIOS search areas (§5.2.5.1): the first KiB of the EBDA, whose
 * real-mode segment is the 16-bit word at physical 0x40E, then
 * 0xE0000-0xFFFFF. The EBDA range is left out when segment << 4 is below
 * 0x400 or the KiB would reach 0xA0000. Returns the count written (1 or 2).
 */
size_t acpi_bios_ranges(uint16_t ebda_segment, struct acpi_range out[2]);

/*
 * Choose the RSDP: the Multiboot2 copy bi->rsdp (bi->rsdp_len bytes), then
 * the PVH address bi->rsdp_paddr (read only below `limit`), then scan[0..nscan)
 * (pass nscan 0 on UEFI, where the BIOS areas mean nothing). Rejected
 * sources are reported. Returns 0 with *out (out->source says which), or -1.
 */
int acpi_rsdp_locate(const struct bootinfo *bi, const struct acpi_range *scan, size_t nscan,
                     uint64_t limit, struct acpi_rsdp *out, struct acpi_diag *d);

/* ---- RSDT/XSDT and the table list (§5.2.6-§5.2.8) ---- */

struct acpi_table {
    char sig[5];      /* Signature, NUL-terminated, non-printable bytes as '?' */
    uint8_t revision; /* header Revision */
    bool checksum_ok; /* whole table summed to 0 when listed */
    uint32_t length;  /* header Length, bytes; addr + length <= limit */
    uint64_t addr;    /* physical (= virtual) address */
};

struct acpi_tables {
    struct acpi_table t[ACPI_TABLES_MAX];
    size_t n;
    size_t dropped; /* tables beyond ACPI_TABLES_MAX */
    bool xsdt;      /* root is the XSDT (else the RSDT) */
    uint64_t root;  /* address of the root table used; 0 if none */
};

/*
 * Walk the XSDT (64-bit entries) when rsdp->xsdt is set and the XSDT is
 * valid (signature, Length, checksum), else the RSDT (32-bit entries). The
 * root itself is listed first; then every entry whose 36-byte header and
 * Length lie below `limit`. Entries that are 0, below `limit` only in part,
 * or with Length < 36 are reported and not listed; tables with a bad
 * checksum are reported and listed with checksum_ok false. Returns 0, or -1
 * when neither root table is usable (out->n is then 0).
 */
int acpi_tables_walk(const struct acpi_rsdp *rsdp, uint64_t limit, struct acpi_tables *out,
                     struct acpi_diag *d);

/*
 * The index-th (0-based) listed table with signature sig (4 characters),
 * whatever its checksum, or NULL.
 */
const struct acpi_table *acpi_find_table(const struct acpi_tables *t, const char *sig,
                                         size_t index);

/*
 * Re-sum a listed table now (for the "kernel never wrote memory it does not
 * own" check: every t->t[i] is one ACPI table in firmware memory). True when
 * it still sums to 0.
 */
bool acpi_table_intact(const struct acpi_table *t);

/*
 * Check a table header at p with `avail` readable bytes: avail >= 36,
 * Signature == sig, 36 <= Length <= avail, and the checksum over Length.
 * Returns Length, or 0 after a diagnostic.
 */
uint32_t acpi_table_check(const void *p, size_t avail, const char *sig, struct acpi_diag *d);

/* ---- MADT, "APIC" (§5.2.12) ---- */

struct acpi_cpu {
    uint32_t apic_id;    /* local APIC ID (type 0) or x2APIC ID (type 9) */
    uint32_t uid;        /* ACPI Processor UID */
    bool x2apic;         /* from a Processor Local x2APIC entry (type 9) */
    bool enabled;        /* Local APIC Flags bit 0, Enabled */
    bool online_capable; /* bit 1, Online Capable (ACPI 6.3+) */
};

struct acpi_ioapic {
    uint8_t id;
    uint32_t addr;     /* I/O APIC Address, physical */
    uint32_t gsi_base; /* Global System Interrupt Base */
};

struct acpi_madt {
    bool present;
    uint32_t flags;        /* MADT Flags; bit 0 PCAT_COMPAT */
    uint32_t lapic_addr32; /* Local Interrupt Controller Address (header) */
    uint64_t lapic_addr;   /* the one to use: the override if any */
    bool lapic_override;   /* a type-5 entry was found */
    struct acpi_cpu cpu[ACPI_CPUS_MAX];
    size_t ncpu, ncpu_enabled, cpu_dropped;
    struct acpi_ioapic ioapic[ACPI_IOAPICS_MAX];
    size_t nioapic, ioapic_dropped;
    size_t skipped; /* entries of other types, or too short for their type */
};

/*
 * Parse a MADT at p (`avail` readable bytes; header checked with
 * acpi_table_check). Entries start at offset 44. Types 0 (Processor Local
 * APIC, §5.2.12.2), 1 (I/O APIC, §5.2.12.3), 5 (Local APIC Address
 * Override, §5.2.12.8) and 9 (Processor Local x2APIC, §5.2.12.12) are kept,
 * in table order; others are counted in `skipped`. An entry with Length < 2
 * or running past the table stops the walk (diagnostic); what was read
 * before stays. Returns 0, or -1 when the table itself is unusable
 * (out->present false).
 */
int acpi_madt_parse(const void *p, size_t avail, struct acpi_madt *out, struct acpi_diag *d);

/* ---- SRAT, "SRAT" (§5.2.16) ---- */

struct acpi_cpu_affinity {
    uint32_t apic_id; /* APIC ID (type 0) or x2APIC ID (type 2) */
    uint32_t domain;  /* Proximity Domain */
    bool x2apic;
    bool enabled; /* Flags bit 0 */
};

struct acpi_mem_affinity {
    uint64_t base, length; /* bytes */
    uint32_t domain;
    bool enabled;      /* Flags bit 0 */
    bool hotpluggable; /* bit 1 */
    bool nonvolatile;  /* bit 2 */
};

struct acpi_srat {
    bool present;
    struct acpi_cpu_affinity cpu[ACPI_CPUS_MAX];
    size_t ncpu, cpu_dropped;
    struct acpi_mem_affinity mem[ACPI_MEM_AFFINITY_MAX];
    size_t nmem, mem_dropped;
    size_t skipped; /* entries of other types, or too short for their type */
};

/*
 * Parse an SRAT at p (`avail` readable bytes). Entries start at offset 48.
 * Types 0 (Processor Local APIC/SAPIC Affinity, §5.2.16.1: domain bits 7:0
 * at byte 2, bits 31:8 at bytes 9-11), 1 (Memory Affinity, §5.2.16.2) and 2
 * (Processor Local x2APIC Affinity, §5.2.16.3) are kept; others counted in
 * `skipped`. In an SRAT of revision < 2 (ACPI 2.0) only domain bits 7:0 of
 * types 0 and 1 count. Entry errors stop the walk as for the MADT. Returns 0,
 * or -1 when the table itself is unusable (Length < 48, bad checksum).
 */
int acpi_srat_parse(const void *p, size_t avail, struct acpi_srat *out, struct acpi_diag *d);

/* Proximity domain of an enabled CPU with this (x2)APIC ID; -1 if none. */
int64_t acpi_srat_cpu_domain(const struct acpi_srat *s, uint32_t apic_id);

/* Proximity domain of the enabled memory range holding physical address
 * pa; -1 if none. */
int64_t acpi_srat_mem_domain(const struct acpi_srat *s, uint64_t pa);

/* ---- SLIT, "SLIT" (§5.2.17) ---- */

#define ACPI_SLIT_MAX 16 /* localities kept; more -> diag, table ignored */

struct acpi_slit {
    bool present;  /* a SLIT with a sane length and entries was parsed */
    bool rejected; /* a SLIT was found and not used (bad header, length or entry) */
    uint32_t n;    /* Number of System Localities (u64 at offset 36) */
    uint8_t dist[ACPI_SLIT_MAX][ACPI_SLIT_MAX]; /* Entry[i][j]: locality i to j */
};

/*
 * Parse a SLIT at p (`avail` readable bytes; header checked with
 * acpi_table_check). Layout (§5.2.17): header (36), Number of System
 * Localities u64 at 36, then n x n one-byte entries from offset 44, row i
 * being locality i. The table is used only when Length >= 44, 1 <= n <=
 * ACPI_SLIT_MAX, Length == 44 + n * n, every Entry[i][i] is 10 (the
 * normalised local distance) and every other entry is 10..254 or 255 (no
 * path between the two localities); values 0-9 are reserved. Otherwise a
 * diagnostic names the first fault, out->rejected is set and -1 returned
 * (out->present false, dist left 0). Returns 0 when out->present.
 */
int acpi_slit_parse(const void *p, size_t avail, struct acpi_slit *out, struct acpi_diag *d);

/* ---- FADT, "FACP" (§5.2.9), DSDT \_S5 and HPET ---- */

#define ACPI_FADT_TMR_VAL_EXT (1u << 8)
#define ACPI_FADT_RESET_REG_SUP (1u << 10)
#define ACPI_FADT_HW_REDUCED (1u << 20)

struct acpi_fadt {
    bool present;
    uint8_t revision;
    uint32_t length;
    uint32_t flags;           /* Fixed Feature Flags, offset 112 */
    bool hw_reduced;          /* HW_REDUCED_ACPI */
    uint64_t dsdt;            /* X_DSDT (offset 140) when present and non-zero, else DSDT (40) */
    struct acpi_gas pm_timer; /* X_PM_TMR_BLK (208) or PM_TMR_BLK (76) as I/O */
    bool pm_timer_32bit;      /* TMR_VAL_EXT: 32-bit counter, else 24-bit */
    struct acpi_gas pm1a_cnt, pm1b_cnt; /* X_ at 172/184, else 64/68 as I/O */
    bool reset_supported;          /* RESET_REG_SUP, table reaches 129, RESET_REG address != 0 */
    struct acpi_gas reset_reg;     /* offset 116 */
    uint8_t reset_value;           /* offset 128 */
    struct acpi_gas sleep_control; /* SLEEP_CONTROL_REG (244), HW-reduced S5 */
};

/*
 * Parse a FADT at p (`avail` readable bytes; Length >= 116, the ACPI 1.0
 * size). Fields past the table's Length read as absent (0). With
 * HW_REDUCED_ACPI the PM timer and PM1 fields are ignored (left 0), as
 * §5.2.9 requires. Legacy 32-bit blocks become I/O-space GASes whose width
 * is the matching *_LEN byte times 8. Returns 0 or -1.
 */
int acpi_fadt_parse(const void *p, size_t avail, struct acpi_fadt *out, struct acpi_diag *d);

struct acpi_s5 {
    bool found;
    uint8_t slp_typa, slp_typb; /* for PM1x_CNT bits 12:10 (§4.8.3.2.1) */
};

/*
 * Find the \_S5 package in a DSDT at p (`avail` readable bytes; header
 * checked): NameOp 0x08, optional root prefix '\', "_S5_", PackageOp 0x12,
 * PkgLength (1-4 bytes, §20.2.4), NumElements, then elements encoded as
 * BytePrefix 0x0A nn, ZeroOp 0x00 or OneOp 0x01 (§20.2.3). One element gives
 * SLP_TYPb 0. Every read stays below the DSDT's Length. Returns 0 with
 * out->found, or -1 ("not found", with a diagnostic) when no such package
 * exists or its elements use other encodings.
 */
int acpi_dsdt_find_s5(const void *p, size_t avail, struct acpi_s5 *out, struct acpi_diag *d);

struct acpi_hpet {
    bool present;
    uint32_t block_id;    /* Event Timer Block ID (offset 36) */
    struct acpi_gas base; /* BASE_ADDRESS (offset 40), normally memory space */
    uint8_t number;       /* HPET Number */
    uint16_t min_tick;    /* Main Counter Minimum Clock_tick in Periodic Mode */
};

/* Parse an HPET table (Length >= 56). Returns 0 or -1. */
int acpi_hpet_parse(const void *p, size_t avail, struct acpi_hpet *out, struct acpi_diag *d);

/* ---- SPCR, "SPCR" (Microsoft SPCR specification) ---- */

#define ACPI_SPCR_WHY_LEN 96

struct acpi_spcr {
    bool present;                /* a usable 16550-compatible console was described */
    bool rejected;               /* an SPCR was found and not used: why says so */
    char why[ACPI_SPCR_WHY_LEN]; /* "" unless rejected */
    uint8_t revision;
    uint8_t interface_type; /* DBG2 serial subtype: 0, 1, 5 or 0x12 when present */
    struct acpi_gas base;   /* Base Address: I/O (width 8) or memory (width 32) */
    uint32_t baud;          /* from Configured Baud Rate; 0: keep the firmware's divisor (also for a
                               UART clock other than 1.8432 MHz) */
};

/*
 * Parse an SPCR at p (`avail` readable bytes; header checked with
 * acpi_table_check). Layout (SPCR revision 2, 80 bytes): Interface Type u8
 * at 36 (the DBG2 serial port subtypes: 0x00 full 16550, 0x01 16550 subset,
 * 0x05 NVIDIA 16550, 0x12 16550 with its registers in the Generic Address
 * Structure are 16550-compatible), Base Address GAS at 40, Configured Baud
 * Rate u8 at 58 (0 as configured, 3 9600, 4 19200, 6 57600, 7 115200).
 * Used only when Length >= 80, the type is 16550-compatible, the Base
 * Address is not 0, and it is I/O space with Register Bit Width 8 (address
 * up to 0xfff8) or system memory with width 32, 4-byte aligned, below 4 GiB
 * (the registers the mmio32 driver reads, arch/serial.h), and the baud code
 * is known. From revision 3, a UART Clock Frequency (u32 at 76) other than 0
 * or 1843200 Hz makes baud 0: the driver's divisor assumes 1.8432 MHz, so
 * the firmware's divisor is kept. Otherwise out->why and a diagnostic name the first fault,
 * out->rejected is set and -1 returned. Returns 0 when out->present.
 */
int acpi_spcr_parse(const void *p, size_t avail, struct acpi_spcr *out, struct acpi_diag *d);

/* ---- everything together ---- */

struct acpi_info {
    bool ok; /* an RSDP and a root table were found */
    struct acpi_rsdp rsdp;
    struct acpi_tables tables; /* root, its entries, then the DSDT */
    struct acpi_madt madt;
    struct acpi_srat srat;
    struct acpi_slit slit; /* rejected also when every listed SLIT has a bad checksum */
    struct acpi_fadt fadt;
    struct acpi_s5 s5;
    struct acpi_hpet hpet;
    struct acpi_spcr spcr; /* rejected also when every listed SPCR has a bad checksum */
    struct acpi_diag diag;
};

/*
 * Locate the RSDP (acpi_rsdp_locate), walk the root table, parse the first
 * valid MADT, SRAT, SLIT, FADT, HPET and SPCR, list the FADT's DSDT and scan it for
 * \_S5. Tables with a bad checksum are not parsed. Returns 0 when ai->ok,
 * else -1 (everything else left empty). Pure: host-testable.
 */
int acpi_parse(struct acpi_info *ai, const struct bootinfo *bi, const struct acpi_range *scan,
               size_t nscan, uint64_t limit);

/*
 * Kernel only: acpi_parse() into a static acpi_info with limit 4 GiB (the
 * boot identity map); on BIOS boots the EBDA and 0xE0000-0xFFFFF are
 * scanned as a last resort (reads the BDA word at 0x40E: the first MiB must
 * be mapped). Returns 0 or -1 as acpi_parse.
 */
int acpi_init(const struct bootinfo *bi);

/* The result of acpi_init() (all zero before it). */
const struct acpi_info *acpi_get(void);

/*
 * One human line describing ai into buf (cap bytes, NUL-terminated when
 * cap > 0), e.g. "ACPI rev 2 (multiboot2-copy) XSDT 0x7fe14a0, 9 tables;
 * MADT 4/4 CPUs, 1 IOAPIC, LAPIC 0xfee00000; FADT rev 6, PM timer io 0x608
 * 24-bit, reset io 0xcf9=0x6, S5 5/5; HPET 0xfed00000". Returns the length
 * the full line would have had (as hz_snprintf).
 */
size_t acpi_summary(const struct acpi_info *ai, char *buf, size_t cap);

#endif /* HZ_ARCH_ACPI_H */
