/*
 * fuzz/fuzz_acpi.c - libFuzzer harness for the ACPI parsers (arch/acpi*.c,
 * ACPI 6.5 chapter 5): RSDP, RSDT/XSDT, MADT, SRAT, FADT, the DSDT's \_S5
 * and HPET, each alone and all together through acpi_parse().
 *
 * Input: u8 flags, then chunks {u16 length, bytes}: chunk 0 is the RSDP,
 * the others are tables. Flags bits 1:0 choose how the RSDP is found (0 a
 * Multiboot2 tag-15 copy, 1 a PVH rsdp_paddr, 2 the BIOS-area scan over the
 * chunks, 3 a 20-byte tag-14 copy); bit 2 fixes every checksum after the
 * pointers are resolved, so that the fuzzer gets past the header checks.
 * The chunks are laid out at the end of the fuzz/fuzz_arena.h physical
 * memory, the last one ending at the limit (a guard page follows); every
 * physical address below the limit is readable, as in the kernel.
 *
 * Pointer values 1..255 in the fields the parsers follow (RSDP
 * RsdtAddress/XsdtAddress, RSDT/XSDT entries, FADT DSDT/X_DSDT) name a
 * chunk (index modulo the count) and become its address; others stay.
 *
 * Bit 3 is the strict mode: chunks are padded to at least 36 bytes, every
 * Length is set to its chunk's size, pointers are chunk references or lie
 * past the limit, and the gaps between the 16-byte aligned chunks are
 * ASan-poisoned. Then every table the parsers can reach is exactly one
 * chunk, and any read past a table's Length is a report.
 *
 * Checks: results are 0 or -1 and agree with ai.ok; every listed table lies
 * below the limit; counts are within their tables; diagnostics and the
 * summary line are terminated strings.
 */
#include <sanitizer/asan_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/acpi.h"
#include "fuzz/fuzz_arena.h"
#include "fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHUNKS_MAX 16
#define LAYOUT_MAX (64 * 1024)

static uint8_t layout[LAYOUT_MAX];
static struct acpi_info ai;
static struct acpi_madt madt;
static struct acpi_srat srat;
static struct bootinfo bi;

struct chunk {
    size_t off, len; /* in the layout */
    uint64_t addr;   /* in the arena */
};

static uint64_t rd(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}

/* Resolve the n-byte pointer at byte `at` of chunk c (if it lies inside);
 * strict: other values below the limit move past it. */
static void resolve(uint8_t *arena, const struct chunk *ch, size_t nch, size_t c, size_t at,
                    size_t n, bool strict)
{
    if (at + n > ch[c].len)
        return;
    uint8_t *p = arena + ch[c].off + at;
    uint64_t v = rd(p, n);
    if (v > 0 && v < 256)
        v = ch[v % nch].addr;
    else if (strict && v != 0 && v < FUZZ_ARENA_SIZE)
        v = FUZZ_ARENA_SIZE + (v & 0xffff);
    if (n == 4 && v > UINT32_MAX)
        v = UINT32_MAX;
    memcpy(p, &v, n);
}

static void fix_sum(uint8_t *p, size_t len, size_t at)
{
    if (at >= len)
        return;
    p[at] = 0;
    p[at] = (uint8_t)(0 - acpi_checksum(p, len));
}

static void check_diag(const struct acpi_diag *d)
{
    FUZZ_CHECK(d->n <= ACPI_DIAG_MAX);
    for (size_t i = 0; i < d->n; i++)
        FUZZ_CHECK(memchr(d->msg[i], 0, ACPI_DIAG_LEN));
}

/* Each parser alone on chunk p of len bytes. */
static void parse_alone(const uint8_t *p, size_t len)
{
    struct acpi_diag d = {0};
    struct acpi_rsdp r;
    struct acpi_fadt f;
    struct acpi_s5 s5;
    struct acpi_hpet h;
    int rc = acpi_rsdp_parse(p, len, "chunk", &r, &d);
    FUZZ_CHECK(rc == 0 || rc == -1);
    FUZZ_CHECK(rc != 0 || r.length <= len);
    rc = acpi_madt_parse(p, len, &madt, &d);
    FUZZ_CHECK((rc == 0) == madt.present && madt.ncpu <= ACPI_CPUS_MAX &&
               madt.ncpu_enabled <= madt.ncpu && madt.nioapic <= ACPI_IOAPICS_MAX);
    rc = acpi_srat_parse(p, len, &srat, &d);
    FUZZ_CHECK((rc == 0) == srat.present && srat.ncpu <= ACPI_CPUS_MAX &&
               srat.nmem <= ACPI_MEM_AFFINITY_MAX);
    rc = acpi_fadt_parse(p, len, &f, &d);
    FUZZ_CHECK((rc == 0) == f.present);
    rc = acpi_dsdt_find_s5(p, len, &s5, &d);
    FUZZ_CHECK((rc == 0) == s5.found);
    rc = acpi_hpet_parse(p, len, &h, &d);
    FUZZ_CHECK((rc == 0) == h.present);
    check_diag(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    unsigned flags = data[0];
    bool strict = flags & 8;
    struct chunk ch[CHUNKS_MAX];
    size_t nch = 0, used = 0, in = 1;
    memset(layout, 0, sizeof(layout));
    while (nch < CHUNKS_MAX && in + 2 <= size) {
        size_t len = rd(data + in, 2);
        in += 2;
        if (len > size - in)
            len = size - in;
        size_t room = len < ACPI_HDR_LEN && strict ? ACPI_HDR_LEN : len;
        if (used + room + 16 > LAYOUT_MAX)
            break;
        used = (used + 15) & ~(size_t)15;
        if (strict && nch > 0)
            used += 16; /* a poisoned gap even after a chunk of 16k bytes */
        ch[nch].off = used;
        ch[nch].len = room;
        memcpy(layout + used, data + in, len);
        in += len;
        used += room;
        nch++;
    }
    if (nch == 0 || ch[0].len == 0)
        return 0;
    if (strict)
        used = (used + 15) & ~(size_t)15; /* an aligned base, a gap before the limit */
    uint8_t *arena = (uint8_t *)(uintptr_t)fuzz_arena_load(layout, &used);
    uint64_t base = FUZZ_ARENA_SIZE - used; /* physical */
    for (size_t i = 0; i < nch; i++)
        ch[i].addr = base + ch[i].off;

    resolve(arena, ch, nch, 0, 16, 4, strict); /* RsdtAddress */
    resolve(arena, ch, nch, 0, 24, 8, strict); /* XsdtAddress */
    for (size_t i = 1; i < nch; i++) {
        uint8_t *t = arena + ch[i].off;
        if (ch[i].len < ACPI_HDR_LEN)
            continue;
        size_t esize = memcmp(t, "XSDT", 4) == 0 ? 8 : memcmp(t, "RSDT", 4) == 0 ? 4 : 0;
        for (size_t at = ACPI_HDR_LEN; esize && at + esize <= ch[i].len; at += esize)
            resolve(arena, ch, nch, i, at, esize, strict);
        if (memcmp(t, "FACP", 4) == 0) {
            resolve(arena, ch, nch, i, 40, 4, strict);  /* DSDT */
            resolve(arena, ch, nch, i, 140, 8, strict); /* X_DSDT */
        }
    }
    for (size_t i = 0; i < nch; i++) {
        uint8_t *t = arena + ch[i].off;
        uint32_t len = (uint32_t)ch[i].len;
        if (strict)
            memcpy(t + (i == 0 ? 20 : 4), &len, 4);
        if (flags & 4) {
            if (i == 0) {
                fix_sum(t, len < 20 ? len : 20, 8);
                uint32_t l = len >= 24 ? (uint32_t)rd(t + 20, 4) : 0;
                fix_sum(t, l < len ? l : len, 32);
            } else {
                uint32_t l = len >= 8 ? (uint32_t)rd(t + 4, 4) : 0;
                fix_sum(t, l < len ? l : len, 9);
            }
        }
    }
    for (size_t i = 0; strict && i < nch; i++) /* from each chunk's end to the next */
        ASAN_POISON_MEMORY_REGION(arena + ch[i].off + ch[i].len,
                                  (i + 1 < nch ? ch[i + 1].off : used) - ch[i].off - ch[i].len);

    bootinfo_init(&bi);
    struct acpi_range scan[CHUNKS_MAX];
    size_t nscan = 0;
    switch (flags & 3) {
    case 0:
    case 3:
        bi.rsdp_len = (flags & 3) == 3 ? 20 : 36;
        if (bi.rsdp_len > ch[0].len)
            bi.rsdp_len = (uint32_t)ch[0].len;
        memcpy(bi.rsdp, arena + ch[0].off, bi.rsdp_len);
        break;
    case 1:
        bi.rsdp_paddr = ch[0].addr;
        break;
    default:
        for (size_t i = 0; i < nch; i++)
            scan[nscan++] = (struct acpi_range){ch[i].addr, ch[i].len};
    }
    int rc = acpi_parse(&ai, &bi, scan, nscan, FUZZ_ARENA_SIZE);
    FUZZ_CHECK((rc == 0 || rc == -1) && ai.ok == (rc == 0));
    check_diag(&ai.diag);
    FUZZ_CHECK(ai.tables.n <= ACPI_TABLES_MAX);
    for (size_t i = 0; i < ai.tables.n; i++) {
        const struct acpi_table *t = &ai.tables.t[i];
        FUZZ_CHECK(t->length >= ACPI_HDR_LEN && t->addr < FUZZ_ARENA_SIZE &&
                   t->length <= FUZZ_ARENA_SIZE - t->addr);
        FUZZ_CHECK(acpi_table_intact(t) == t->checksum_ok);
    }
    FUZZ_CHECK(ai.madt.ncpu <= ACPI_CPUS_MAX && ai.srat.nmem <= ACPI_MEM_AFFINITY_MAX);
    char line[256];
    size_t want = acpi_summary(&ai, line, sizeof(line));
    FUZZ_CHECK(memchr(line, 0, sizeof(line)) && (want >= sizeof(line) || strlen(line) == want));

    for (size_t i = 0; i < nch; i++)
        parse_alone(arena + ch[i].off, ch[i].len);
    return 0;
}
