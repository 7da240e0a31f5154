/*
 * tests/unit/acpi_build.h - builds ACPI tables (ACPI 6.5 §5.2) with correct
 * checksums for tests/unit/test_acpi*.c. Memory comes from mmap(MAP_32BIT),
 * below 2 GiB, because RSDT entries hold 32-bit addresses. guarded() places
 * a buffer right before an inaccessible page, so any read past its end
 * crashes the test.
 */
#ifndef HZ_TESTS_ACPI_BUILD_H
#define HZ_TESTS_ACPI_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arch/acpi.h"

#define ARENA_SIZE (4u << 20)

static uint8_t *arena_base;
static size_t arena_used;

/* cmocka setup: a fresh, zeroed arena below 2 GiB for each test. */
static inline int arena_setup(void **state)
{
    (void)state;
    if (!arena_base) {
        void *m = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
        if (m == MAP_FAILED || (uintptr_t)m + ARENA_SIZE > 0x80000000u)
            return -1;
        arena_base = m;
    }
    memset(arena_base, 0, arena_used);
    arena_used = 0;
    return 0;
}

/* n zeroed bytes, 16-byte aligned (aborts when the arena is full). */
static inline uint8_t *arena_alloc(size_t n)
{
    uint8_t *p = arena_base + arena_used;
    arena_used += (n + 15) & ~(size_t)15;
    if (arena_used > ARENA_SIZE)
        abort();
    return p;
}

/* n zeroed bytes (n <= 4096) ending exactly where a PROT_NONE page starts. */
static inline uint8_t *guarded(size_t n)
{
    uint8_t *m =
        mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
    if (m == MAP_FAILED || n > 4096 || mprotect(m + 4096, 4096, PROT_NONE) != 0)
        abort();
    return m + 4096 - n;
}

static inline uint64_t addr(const void *p) { return (uint64_t)(uintptr_t)p; }

static inline void wr16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void wr64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Generic Address Structure (§5.2.3.2) at p. */
static inline void wr_gas(uint8_t *p, uint8_t space, uint8_t width, uint8_t access, uint64_t a)
{
    p[0] = space;
    p[1] = width;
    p[2] = 0;
    p[3] = access;
    wr64(p + 4, a);
}

/* System Description Table Header (§5.2.6) at t; checksum left 0. */
static inline uint8_t *table_init(uint8_t *t, const char *sig, uint8_t rev, uint32_t len)
{
    memcpy(t, sig, 4);
    wr32(t + 4, len);
    t[8] = rev;
    memcpy(t + 10, "HZTEST", 6);
    memcpy(t + 16, "HZTABLE1", 8);
    wr32(t + 24, 1);
    memcpy(t + 28, "HZTC", 4);
    wr32(t + 32, 1);
    return t;
}

static inline uint8_t *table_new(const char *sig, uint8_t rev, uint32_t len)
{
    return table_init(arena_alloc(len), sig, rev, len);
}

/* Set the Checksum byte (offset 9) so the table's Length bytes sum to 0. */
static inline void table_sum(uint8_t *t)
{
    uint32_t len;
    memcpy(&len, t + 4, 4);
    t[9] = 0;
    t[9] = (uint8_t)(0x100 - acpi_checksum(t, len));
}

/* Start a MADT/SRAT entry {Type, Length} at t + *off; advance *off. */
static inline uint8_t *entry(uint8_t *t, size_t *off, uint8_t type, uint8_t len)
{
    uint8_t *e = t + *off;
    e[0] = type;
    e[1] = len;
    *off += len;
    return e;
}

/* An RSDP (§5.2.5.3) at r with both checksums; 20 bytes for rev 0, else 36. */
static inline void rsdp_fill(uint8_t *r, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
    memset(r, 0, rev >= 2 ? 36 : 20);
    memcpy(r, "RSD PTR ", 8);
    memcpy(r + 9, "HZOEM ", 6);
    r[15] = rev;
    wr32(r + 16, rsdt);
    r[8] = (uint8_t)(0x100 - acpi_checksum(r, 20));
    if (rev >= 2) {
        wr32(r + 20, 36);
        wr64(r + 24, xsdt);
        r[32] = (uint8_t)(0x100 - acpi_checksum(r, 36));
    }
}

/* Bytes of an RSDT (4-byte entries) or XSDT (8-byte entries) of n entries. */
static inline size_t root_size(const char *sig, size_t n)
{
    return ACPI_HDR_LEN + n * (memcmp(sig, "XSDT", 4) == 0 ? 8 : 4);
}

/* Build at t an RSDT or XSDT listing addrs[0..n), checksummed. */
static inline uint8_t *root_init(uint8_t *t, const char *sig, const uint64_t *addrs, size_t n)
{
    size_t esize = memcmp(sig, "XSDT", 4) == 0 ? 8 : 4;
    table_init(t, sig, 1, (uint32_t)root_size(sig, n));
    for (size_t i = 0; i < n; i++) {
        if (esize == 8)
            wr64(t + ACPI_HDR_LEN + 8 * i, addrs[i]);
        else
            wr32(t + ACPI_HDR_LEN + 4 * i, (uint32_t)addrs[i]);
    }
    table_sum(t);
    return t;
}

static inline uint8_t *root_new(const char *sig, const uint64_t *addrs, size_t n)
{
    return root_init(arena_alloc(root_size(sig, n)), sig, addrs, n);
}

/* A table header at the end of guarded memory (len <= 4096 bytes). */
static inline uint8_t *gtable(const char *sig, uint8_t rev, uint32_t len)
{
    return table_init(guarded(len), sig, rev, len);
}

/* True when some diagnostic contains s. */
static inline bool diag_has(const struct acpi_diag *d, const char *s)
{
    for (size_t i = 0; i < d->n; i++)
        if (strstr(d->msg[i], s))
            return true;
    return false;
}

/* A checksummed table with an empty body (len bytes). */
static inline uint8_t *plain_table(const char *sig, uint32_t len)
{
    uint8_t *t = table_new(sig, 1, len);
    table_sum(t);
    return t;
}

#endif /* HZ_TESTS_ACPI_BUILD_H */
