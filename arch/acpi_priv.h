/*
 * arch/acpi_priv.h - private helpers shared by arch/acpi*.c: unaligned
 * little-endian field readers (ACPI 6.5 §5.2: table fields are little-endian
 * and not necessarily aligned) and the MADT/SRAT entry walker. Not part of
 * the ACPI interface (arch/acpi.h).
 */
#ifndef HZ_ARCH_ACPI_PRIV_H
#define HZ_ARCH_ACPI_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "arch/acpi.h"
#include "lib/kstring.h"

/* x86 is little-endian, so a byte copy is the little-endian read; the
 * builtin compiles to one load even under -ffreestanding. */
static inline uint8_t acpi_rd8(const uint8_t *p, size_t off) { return p[off]; }

static inline uint16_t acpi_rd16(const uint8_t *p, size_t off)
{
    uint16_t v;
    __builtin_memcpy(&v, p + off, sizeof v);
    return v;
}

static inline uint32_t acpi_rd32(const uint8_t *p, size_t off)
{
    uint32_t v;
    __builtin_memcpy(&v, p + off, sizeof v);
    return v;
}

static inline uint64_t acpi_rd64(const uint8_t *p, size_t off)
{
    uint64_t v;
    __builtin_memcpy(&v, p + off, sizeof v);
    return v;
}

/* Generic Address Structure (12 bytes, §5.2.3.2) at p + off. */
static inline struct acpi_gas acpi_rd_gas(const uint8_t *p, size_t off)
{
    struct acpi_gas g = {acpi_rd8(p, off), acpi_rd8(p, off + 1), acpi_rd8(p, off + 2),
                         acpi_rd8(p, off + 3), acpi_rd64(p, off + 4)};
    return g;
}

/* Identity map: a physical address is the pointer. The fuzz build puts
 * physical memory in a host window at HZ_PHYS_OFFSET (fuzz/fuzz_arena.h),
 * so that every address below its limit is readable, as in the kernel. */
#ifndef HZ_PHYS_OFFSET
#define HZ_PHYS_OFFSET 0
#endif
static inline const uint8_t *acpi_ptr(uint64_t addr)
{
    return (const uint8_t *)(uintptr_t)(addr + HZ_PHYS_OFFSET);
}

/*
 * Next entry of an interrupt-controller style list (MADT §5.2.12, SRAT
 * §5.2.16: Type byte, Length byte): the entry at *off in table t of `len`
 * bytes. Returns it and advances *off, or NULL at the end of the table or
 * on an entry with Length < 2 or running past `len` (a diagnostic naming
 * `what`; the caller stops).
 */
const uint8_t *acpi_next_entry(const uint8_t *t, uint32_t len, size_t *off, const char *what,
                               struct acpi_diag *d);

/*
 * List the table at addr (signature sig) in ts when its header and Length lie
 * below limit and the signature matches (a bad checksum is listed and
 * reported). Returns 0 when listed (or dropped for lack of room), -1 after a
 * diagnostic otherwise.
 */
int acpi_table_list(struct acpi_tables *ts, uint64_t addr, uint64_t limit, const char *sig,
                    struct acpi_diag *d);

#endif /* HZ_ARCH_ACPI_PRIV_H */
