/*
 * tests/unit/test_acpi.c - RSDP validation and discovery (ACPI 6.5 §5.2.5),
 * the RSDT/XSDT walk (§5.2.7-§5.2.8), acpi_parse() end to end and
 * acpi_summary(). Per-table parsers: test_acpi_tables.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "arch/acpi.h"
#include "tests/unit/acpi_build.h"

static struct acpi_diag d;
static struct acpi_rsdp rsdp;
static struct acpi_tables ts;
static struct bootinfo bi;
static struct acpi_info ai;
static char want[400];

static int setup(void **state)
{
    memset(&d, 0, sizeof d);
    memset(&bi, 0, sizeof bi);
    return arena_setup(state);
}

static void test_checksum(void **state)
{
    uint8_t b[4] = {1, 2, 3, 250};
    assert_int_equal(acpi_checksum(b, 4), 0);
    b[3] = 0;
    assert_int_equal(acpi_checksum(b, 4), 6);
    assert_int_equal(acpi_checksum(b, 0), 0);
}

static void test_rsdp_v1(void **state)
{
    uint8_t *r = guarded(20); /* reading byte 20 would fault */
    rsdp_fill(r, 0, 0x12345678, 0);
    assert_int_equal(acpi_rsdp_parse(r, 20, "t", &rsdp, &d), 0);
    assert_int_equal(rsdp.revision, 0);
    assert_int_equal(rsdp.rsdt, 0x12345678);
    assert_int_equal(rsdp.xsdt, 0);
    assert_int_equal(rsdp.length, 20);
    assert_string_equal(rsdp.oem_id, "HZOEM ");
    assert_null(rsdp.source);
    assert_int_equal(d.n, 0);
}

static void test_rsdp_v2(void **state)
{
    uint8_t *r = guarded(36);
    rsdp_fill(r, 2, 0x1000, 0x100002000ull);
    assert_int_equal(acpi_rsdp_parse(r, 36, "t", &rsdp, &d), 0);
    assert_int_equal(rsdp.revision, 2);
    assert_int_equal(rsdp.rsdt, 0x1000);
    assert_int_equal(rsdp.xsdt, 0x100002000ull);
    assert_int_equal(rsdp.length, 36);
    assert_int_equal(d.n, 0);

    /* A tag-14 style copy of a v2 RSDP: 20 bytes, so RSDT only. */
    assert_int_equal(acpi_rsdp_parse(r, 20, "t", &rsdp, &d), 0);
    assert_int_equal(rsdp.revision, 2);
    assert_int_equal(rsdp.xsdt, 0);
    assert_int_equal(rsdp.length, 20);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.msg[0], "t: revision 2 but 20 bytes: used as ACPI 1.0 (RSDT only)");
}

static void test_rsdp_bad(void **state)
{
    uint8_t *r = arena_alloc(64);
    rsdp_fill(r, 0, 0x1000, 0);
    r[8] ^= 1;
    assert_int_equal(acpi_rsdp_parse(r, 20, "t", &rsdp, &d), -1);
    assert_string_equal(d.msg[0], "t: bad RSDP checksum (first 20 bytes)");

    rsdp_fill(r, 2, 0x1000, 0x2000);
    r[32] ^= 1;
    assert_int_equal(acpi_rsdp_parse(r, 36, "t", &rsdp, &d), -1);
    assert_string_equal(d.msg[1], "t: bad RSDP extended checksum");

    rsdp_fill(r, 2, 0x1000, 0x2000);
    wr32(r + 20, 20); /* Length is outside the v1 checksum */
    assert_int_equal(acpi_rsdp_parse(r, 36, "t", &rsdp, &d), -1);
    assert_string_equal(d.msg[2], "t: RSDP Length 20 outside 36..36");
    wr32(r + 20, 40);
    assert_int_equal(acpi_rsdp_parse(r, 36, "t", &rsdp, &d), -1);
    assert_string_equal(d.msg[3], "t: RSDP Length 40 outside 36..36");

    rsdp_fill(r, 0, 0x1000, 0);
    r[0] = 'X';
    assert_int_equal(acpi_rsdp_parse(r, 20, "t", &rsdp, &d), -1);
    assert_string_equal(d.msg[4], "t: no \"RSD PTR \" signature");
    assert_int_equal(acpi_rsdp_parse(r, 10, "t", &rsdp, &d), -1);
    assert_string_equal(d.msg[5], "t: 10 bytes, an RSDP needs 20");
    assert_int_equal(d.n, 6);
}

static void test_bios_ranges(void **state)
{
    struct acpi_range r[2];
    assert_int_equal(acpi_bios_ranges(0x9FC0, r), 2);
    assert_int_equal(r[0].base, 0x9FC00);
    assert_int_equal(r[0].len, 1024);
    assert_int_equal(r[1].base, 0xE0000);
    assert_int_equal(r[1].len, 0x20000);
    assert_int_equal(acpi_bios_ranges(0x9F00, r), 2); /* 0x9F000 + 1 KiB fits */
    assert_int_equal(r[0].base, 0x9F000);
    assert_int_equal(acpi_bios_ranges(0, r), 1); /* no EBDA */
    assert_int_equal(r[0].base, 0xE0000);
    assert_int_equal(acpi_bios_ranges(0x9FC1, r), 1); /* KiB would reach 0xA0000 */
    assert_int_equal(acpi_bios_ranges(0x3F, r), 1);   /* below 0x400: the IVT */
    assert_int_equal(acpi_bios_ranges(0x40, r), 2);
    assert_int_equal(r[0].base, 0x400);
}

static void test_scan(void **state)
{
    uint8_t *empty = arena_alloc(64);
    uint8_t *area = guarded(256); /* page end - 256: 16-byte aligned */
    rsdp_fill(area + 32, 0, 0x1111, 0);
    area[32 + 8] ^= 0xff;               /* bad checksum: reported, skipped */
    rsdp_fill(area + 72, 0, 0x2222, 0); /* valid but not on a 16-byte boundary */
    rsdp_fill(area + 96, 2, 0x3333, 0x4444);
    memcpy(area + 240, "RSD PTR ", 8); /* 16 bytes before the end: not examined */
    struct acpi_range r[2] = {{addr(empty), 64}, {addr(area) + 1, 255}};
    assert_int_equal(acpi_rsdp_scan(r, 2, &rsdp, &d), 0);
    assert_string_equal(rsdp.source, "bios-scan");
    assert_int_equal(rsdp.paddr, addr(area) + 96);
    assert_int_equal(rsdp.revision, 2);
    assert_int_equal(rsdp.rsdt, 0x3333);
    assert_int_equal(rsdp.xsdt, 0x4444);
    assert_int_equal(d.n, 1);
    snprintf(want, sizeof want, "RSDP at 0x%llx: bad RSDP checksum (first 20 bytes)",
             (unsigned long long)addr(area) + 32);
    assert_string_equal(d.msg[0], want);

    /* Only the bad and the misaligned candidates: nothing found. */
    area[96] = 0;
    assert_int_equal(acpi_rsdp_scan(r, 2, &rsdp, &d), -1);
    assert_int_equal(d.n, 2);
    assert_int_equal(acpi_rsdp_scan(r, 1, &rsdp, &d), -1); /* empty range: silent */
    assert_int_equal(d.n, 2);
}

static void test_locate(void **state)
{
    rsdp_fill(bi.rsdp, 2, 0x1000, 0x2000);
    bi.rsdp_len = 36;
    uint8_t *pvh = guarded(36);
    rsdp_fill(pvh, 2, 0x3000, 0x4000);
    bi.rsdp_paddr = addr(pvh);
    uint8_t *low = arena_alloc(64);
    rsdp_fill(low + 16, 0, 0x5000, 0);
    struct acpi_range r = {addr(low), 64};

    assert_int_equal(acpi_rsdp_locate(&bi, &r, 1, UINT64_MAX, &rsdp, &d), 0);
    assert_string_equal(rsdp.source, "multiboot2-copy");
    assert_int_equal(rsdp.paddr, 0);
    assert_int_equal(rsdp.xsdt, 0x2000);
    assert_int_equal(d.n, 0);

    bi.rsdp[8] ^= 1;
    assert_int_equal(acpi_rsdp_locate(&bi, &r, 1, UINT64_MAX, &rsdp, &d), 0);
    assert_string_equal(rsdp.source, "pvh-rsdp-paddr");
    assert_int_equal(rsdp.paddr, addr(pvh));
    assert_int_equal(rsdp.xsdt, 0x4000);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.msg[0], "multiboot2 RSDP copy: bad RSDP checksum (first 20 bytes)");

    uint64_t limit = addr(pvh) + 10; /* the PVH RSDP is not below the limit */
    assert_int_equal(acpi_rsdp_locate(&bi, &r, 1, limit, &rsdp, &d), 0);
    assert_string_equal(rsdp.source, "bios-scan");
    assert_int_equal(rsdp.paddr, addr(low) + 16);
    assert_int_equal(rsdp.rsdt, 0x5000);
    snprintf(want, sizeof want, "PVH rsdp_paddr 0x%llx: not below limit 0x%llx",
             (unsigned long long)addr(pvh), (unsigned long long)limit);
    assert_string_equal(d.msg[2], want);

    assert_int_equal(acpi_rsdp_locate(&bi, NULL, 0, limit, &rsdp, &d), -1);
    assert_string_equal(d.msg[d.n - 1],
                        "no valid RSDP (loader copy, PVH address, 0 scan range(s))");
    assert_int_equal(acpi_rsdp_locate(NULL, &r, 1, UINT64_MAX, &rsdp, &d), 0);
    assert_string_equal(rsdp.source, "bios-scan");
}

/* XSDT -> {apic_x}, RSDT -> {apic_r}; rsdp points at both. */
static uint8_t *apic_x, *apic_r, *xsdt, *rsdt;
static void two_roots(void)
{
    apic_x = plain_table("APIC", 44);
    apic_r = plain_table("APIC", 48);
    xsdt = root_new("XSDT", (uint64_t[]){addr(apic_x)}, 1);
    rsdt = root_new("RSDT", (uint64_t[]){addr(apic_r)}, 1);
    rsdp = (struct acpi_rsdp){.revision = 2, .rsdt = (uint32_t)addr(rsdt), .xsdt = addr(xsdt)};
}

static void test_walk_xsdt_preferred(void **state)
{
    two_roots();
    assert_int_equal(acpi_tables_walk(&rsdp, UINT64_MAX, &ts, &d), 0);
    assert_true(ts.xsdt);
    assert_int_equal(ts.root, addr(xsdt));
    assert_int_equal(ts.n, 2);
    assert_string_equal(ts.t[0].sig, "XSDT");
    assert_int_equal(ts.t[0].length, 44);
    assert_int_equal(ts.t[0].revision, 1);
    assert_true(ts.t[0].checksum_ok);
    assert_string_equal(ts.t[1].sig, "APIC");
    assert_int_equal(ts.t[1].addr, addr(apic_x));
    assert_int_equal(ts.t[1].length, 44);
    assert_true(ts.t[1].checksum_ok);
    assert_ptr_equal(acpi_find_table(&ts, "APIC", 0), &ts.t[1]);
    assert_null(acpi_find_table(&ts, "APIC", 1));
    assert_null(acpi_find_table(&ts, "FACP", 0));
    assert_int_equal(d.n, 0);

    rsdp.xsdt = 0; /* ACPI 1.0: the RSDT, silently */
    assert_int_equal(acpi_tables_walk(&rsdp, UINT64_MAX, &ts, &d), 0);
    assert_false(ts.xsdt);
    assert_int_equal(ts.t[1].addr, addr(apic_r));
    assert_int_equal(d.n, 0);
}

static void test_walk_rsdt_fallback(void **state)
{
    two_roots();
    xsdt[20] ^= 1;
    assert_int_equal(acpi_tables_walk(&rsdp, UINT64_MAX, &ts, &d), 0);
    assert_false(ts.xsdt);
    assert_int_equal(ts.root, addr(rsdt));
    assert_int_equal(ts.n, 2);
    assert_string_equal(ts.t[0].sig, "RSDT");
    assert_int_equal(ts.t[1].addr, addr(apic_r));
    assert_int_equal(ts.t[1].length, 48);
    assert_int_equal(d.n, 2);
    snprintf(want, sizeof want, "XSDT at 0x%llx: bad checksum", (unsigned long long)addr(xsdt));
    assert_string_equal(d.msg[0], want);
    assert_string_equal(d.msg[1], "XSDT unusable: falling back to the RSDT");

    memcpy(rsdt, "XSDT", 4); /* wrong signature as well: nothing usable */
    assert_int_equal(acpi_tables_walk(&rsdp, UINT64_MAX, &ts, &d), -1);
    assert_int_equal(ts.n, 0);
    snprintf(want, sizeof want, "RSDT at 0x%llx: signature is \"XSDT\"",
             (unsigned long long)addr(rsdt));
    assert_string_equal(d.msg[4], want);
    assert_string_equal(d.msg[5], "no usable RSDT or XSDT");
}

static void test_walk_bad_entries(void **state)
{
    uint8_t *root = arena_alloc(root_size("XSDT", 6) + 4);
    uint8_t *t1 = plain_table("HPET", 56);
    uint8_t *t3 = plain_table("APIC", 44);
    t3[40] = 1;                                               /* checksum now off by one */
    uint8_t *t4 = table_init(arena_alloc(48), "SRAT", 1, 20); /* Length < header */
    uint8_t *t2 = plain_table("FACP", 100);
    uint64_t limit = addr(t2) + 64;
    uint64_t e[6] = {addr(t1), addr(t2), 0, addr(t3), addr(t4), limit - 10};
    root_init(root, "XSDT", e, 6);
    wr32(root + 4, (uint32_t)root_size("XSDT", 6) + 4); /* 4 trailing bytes */
    table_sum(root);
    rsdp = (struct acpi_rsdp){.revision = 2, .xsdt = addr(root)};

    assert_int_equal(acpi_tables_walk(&rsdp, limit, &ts, &d), 0);
    assert_int_equal(ts.n, 3);
    assert_string_equal(ts.t[1].sig, "HPET");
    assert_string_equal(ts.t[2].sig, "APIC");
    assert_false(ts.t[2].checksum_ok);
    assert_int_equal(d.n, 6);
    const unsigned long long L = limit;
    assert_string_equal(d.msg[0], "XSDT: 4 trailing byte(s) ignored");
    snprintf(want, sizeof want, "XSDT entry 1 at 0x%llx: Length 100 runs past limit 0x%llx",
             (unsigned long long)addr(t2), L);
    assert_string_equal(d.msg[1], want);
    assert_string_equal(d.msg[2], "XSDT entry 2: address 0");
    snprintf(want, sizeof want, "APIC at 0x%llx: bad checksum", (unsigned long long)addr(t3));
    assert_string_equal(d.msg[3], want);
    snprintf(want, sizeof want, "XSDT entry 4 at 0x%llx: Length 20 < 36",
             (unsigned long long)addr(t4));
    assert_string_equal(d.msg[4], want);
    snprintf(want, sizeof want, "XSDT entry 5 at 0x%llx: header not below limit 0x%llx", L - 10, L);
    assert_string_equal(d.msg[5], want);

    /* The root itself past the limit. */
    assert_int_equal(acpi_tables_walk(&rsdp, addr(root) + 40, &ts, &d), -1);
    assert_int_equal(ts.n, 0);
}

static void test_walk_overflow(void **state)
{
    uint8_t *t = plain_table("SSDT", 36);
    uint64_t e[70];
    for (size_t i = 0; i < 70; i++)
        e[i] = addr(t);
    rsdp = (struct acpi_rsdp){.rsdt = (uint32_t)addr(root_new("RSDT", e, 70))};
    assert_int_equal(acpi_tables_walk(&rsdp, UINT64_MAX, &ts, &d), 0);
    assert_int_equal(ts.n, ACPI_TABLES_MAX);
    assert_int_equal(ts.dropped, 71 - ACPI_TABLES_MAX);
    assert_non_null(acpi_find_table(&ts, "SSDT", 62));
    assert_null(acpi_find_table(&ts, "SSDT", 63));

    memset(e, 0, sizeof e); /* 20 zero entries: 16 messages kept, 4 dropped */
    rsdp.rsdt = (uint32_t)addr(root_new("RSDT", e, 20));
    assert_int_equal(acpi_tables_walk(&rsdp, UINT64_MAX, &ts, &d), 0);
    assert_int_equal(d.n, ACPI_DIAG_MAX);
    assert_int_equal(d.dropped, 4);
    assert_string_equal(d.msg[15], "RSDT entry 15: address 0");
}

/* XSDT -> FACP (-> DSDT with \_S5 {5, 5, 0, 0}), APIC, HPET, SRAT. */
static uint8_t *w_madt;
static void world(void)
{
    static const uint8_t aml[] = "\x08_S5_\x12\x08\x04\x0A\x05\x0A\x05\x00\x00";
    uint8_t *dsdt = table_new("DSDT", 2, ACPI_HDR_LEN + sizeof aml);
    memcpy(dsdt + ACPI_HDR_LEN, aml, sizeof aml);
    table_sum(dsdt);
    uint8_t *f = table_new("FACP", 6, 276);
    wr32(f + 40, (uint32_t)addr(dsdt));
    wr32(f + 64, 0x604);
    f[89] = 2;
    wr32(f + 76, 0x608);
    f[91] = 4;
    wr32(f + 112, ACPI_FADT_RESET_REG_SUP);
    wr_gas(f + 116, ACPI_SPACE_IO, 8, 1, 0xCF9);
    f[128] = 6;
    table_sum(f);
    uint8_t *m = w_madt = table_new("APIC", 5, 44 + 8 + 8 + 12);
    wr32(m + 36, 0xFEE00000);
    size_t off = 44;
    uint8_t *e = entry(m, &off, 0, 8);
    wr32(e + 4, 1);
    e = entry(m, &off, 0, 8);
    e[2] = e[3] = 1;
    wr32(e + 4, 1);
    e = entry(m, &off, 1, 12);
    wr32(e + 4, 0xFEC00000);
    table_sum(m);
    uint8_t *h = table_new("HPET", 1, 56);
    wr_gas(h + 40, ACPI_SPACE_MEM, 64, 0, 0xFED00000);
    table_sum(h);
    uint8_t *s = table_new("SRAT", 3, 48 + 40);
    e = entry(s, &(size_t){48}, 1, 40);
    wr64(e + 16, 1ull << 30);
    wr32(e + 28, 1);
    table_sum(s);
    uint8_t *x = root_new("XSDT", (uint64_t[]){addr(f), addr(m), addr(h), addr(s)}, 4);
    rsdp_fill(bi.rsdp, 2, 0, addr(x));
    bi.rsdp_len = 36;
}

static void test_parse_all(void **state)
{
    world();
    assert_int_equal(acpi_parse(&ai, &bi, NULL, 0, 0x80000000u), 0);
    assert_true(ai.ok);
    assert_int_equal(ai.diag.n, 0);
    assert_int_equal(ai.tables.n, 6);
    static const char *const sigs[] = {"XSDT", "FACP", "APIC", "HPET", "SRAT", "DSDT"};
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(ai.tables.t[i].sig, sigs[i]);
        assert_true(acpi_table_intact(&ai.tables.t[i]));
    }
    assert_int_equal(ai.madt.ncpu, 2);
    assert_int_equal(ai.srat.nmem, 1);
    assert_int_equal(ai.srat.mem[0].length, 1ull << 30);
    assert_true(ai.s5.found);
    assert_int_equal(ai.s5.slp_typa, 5);
    assert_int_equal(ai.hpet.base.addr, 0xFED00000);
    assert_int_equal(ai.fadt.dsdt, ai.tables.t[5].addr);

    char buf[300];
    size_t n = acpi_summary(&ai, buf, sizeof buf);
    snprintf(want, sizeof want,
             "ACPI rev 2 (multiboot2-copy) XSDT 0x%llx, 6 tables; MADT 2/2 CPUs, 1 IOAPIC, "
             "LAPIC 0xfee00000; SRAT 0 CPU + 1 memory affinities; FADT rev 6, PM timer io "
             "0x608 24-bit, reset io 0xcf9=0x6, S5 5/5; HPET 0xfed00000",
             (unsigned long long)ai.tables.root);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
    assert_int_equal(acpi_summary(&ai, buf, 10), n); /* truncated, same length */
    assert_string_equal(buf, "ACPI rev ");

    w_madt[50] ^= 0x40; /* a stray write into firmware memory shows */
    assert_false(acpi_table_intact(&ai.tables.t[2]));
    assert_true(acpi_table_intact(&ai.tables.t[1]));

    /* Now the MADT's checksum is bad: listed, reported once, not parsed. */
    assert_int_equal(acpi_parse(&ai, &bi, NULL, 0, 0x80000000u), 0);
    assert_false(ai.madt.present);
    assert_false(ai.tables.t[2].checksum_ok);
    assert_int_equal(ai.diag.n, 1);
    acpi_summary(&ai, buf, sizeof buf);
    assert_non_null(strstr(buf, "HPET 0xfed00000; 1 problem(s)"));
}

static void test_parse_none(void **state)
{
    assert_int_equal(acpi_parse(&ai, &bi, NULL, 0, UINT64_MAX), -1);
    assert_false(ai.ok);
    assert_int_equal(ai.diag.n, 1);
    char buf[40];
    assert_int_equal(acpi_summary(&ai, buf, sizeof buf), 14);
    assert_string_equal(buf, "ACPI not found");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_checksum, setup),
        cmocka_unit_test_setup(test_rsdp_v1, setup),
        cmocka_unit_test_setup(test_rsdp_v2, setup),
        cmocka_unit_test_setup(test_rsdp_bad, setup),
        cmocka_unit_test_setup(test_bios_ranges, setup),
        cmocka_unit_test_setup(test_scan, setup),
        cmocka_unit_test_setup(test_locate, setup),
        cmocka_unit_test_setup(test_walk_xsdt_preferred, setup),
        cmocka_unit_test_setup(test_walk_rsdt_fallback, setup),
        cmocka_unit_test_setup(test_walk_bad_entries, setup),
        cmocka_unit_test_setup(test_walk_overflow, setup),
        cmocka_unit_test_setup(test_parse_all, setup),
        cmocka_unit_test_setup(test_parse_none, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
