/*
 * tests/unit/test_acpi_tables.c - the per-table parsers: MADT (ACPI 6.5
 * §5.2.12), SRAT (§5.2.16), FADT (§5.2.9), the DSDT \_S5 scan (§7.4.2.5,
 * §20.2) and HPET (IA-PC HPET 1.0a §3.2.4). Tables sit at the end of
 * guarded memory, so reading one byte past a table's Length crashes.
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
static struct acpi_madt madt;
static struct acpi_srat srat;
static struct acpi_fadt fadt;
static struct acpi_s5 s5;
static char want[200];

static int setup(void **state)
{
    memset(&d, 0, sizeof d);
    return arena_setup(state);
}

static void assert_cpu(const struct acpi_cpu *c, uint32_t id, uint32_t uid, bool x2, bool en,
                       bool oc)
{
    assert_int_equal(c->apic_id, id);
    assert_int_equal(c->uid, uid);
    assert_int_equal(c->x2apic, x2);
    assert_int_equal(c->enabled, en);
    assert_int_equal(c->online_capable, oc);
}

static void assert_gas(const struct acpi_gas *g, uint8_t space, uint8_t width, uint8_t access,
                       uint64_t a)
{
    assert_int_equal(g->space, space);
    assert_int_equal(g->bit_width, width);
    assert_int_equal(g->bit_offset, 0);
    assert_int_equal(g->access_size, access);
    assert_int_equal(g->addr, a);
}

static void test_madt_mixed(void **state)
{
    uint8_t *t = gtable("APIC", 5, 44 + 8 + 8 + 12 + 10 + 12 + 16 + 16);
    wr32(t + 36, 0xFEE00000);
    wr32(t + 40, 1);
    size_t off = 44;
    uint8_t *e = entry(t, &off, 0, 8); /* UID 0, APIC 0, enabled */
    wr32(e + 4, 1);
    e = entry(t, &off, 0, 8); /* UID 1, APIC 2, disabled, online capable */
    e[2] = 1;
    e[3] = 2;
    wr32(e + 4, 2);
    e = entry(t, &off, 1, 12); /* I/O APIC 8 */
    e[2] = 8;
    wr32(e + 4, 0xFEC00000);
    wr32(e + 8, 24);
    e = entry(t, &off, 2, 10); /* Interrupt Source Override: skipped */
    wr32(e + 4, 2);
    e = entry(t, &off, 5, 12); /* Local APIC Address Override */
    wr64(e + 4, 0x123450000ull);
    e = entry(t, &off, 9, 16); /* x2APIC 0x100, UID 7, enabled */
    wr32(e + 4, 0x100);
    wr32(e + 8, 1);
    wr32(e + 12, 7);
    e = entry(t, &off, 9, 16); /* x2APIC 0x101, UID 8, neither flag */
    wr32(e + 4, 0x101);
    wr32(e + 12, 8);
    table_sum(t);

    assert_int_equal(acpi_madt_parse(t, 126, &madt, &d), 0);
    assert_true(madt.present);
    assert_int_equal(madt.flags, 1);
    assert_int_equal(madt.lapic_addr32, 0xFEE00000);
    assert_int_equal(madt.lapic_addr, 0x123450000ull);
    assert_true(madt.lapic_override);
    assert_int_equal(madt.ncpu, 4);
    assert_int_equal(madt.ncpu_enabled, 2);
    assert_cpu(&madt.cpu[0], 0, 0, false, true, false);
    assert_cpu(&madt.cpu[1], 2, 1, false, false, true);
    assert_cpu(&madt.cpu[2], 0x100, 7, true, true, false);
    assert_cpu(&madt.cpu[3], 0x101, 8, true, false, false);
    assert_int_equal(madt.nioapic, 1);
    assert_int_equal(madt.ioapic[0].id, 8);
    assert_int_equal(madt.ioapic[0].addr, 0xFEC00000);
    assert_int_equal(madt.ioapic[0].gsi_base, 24);
    assert_int_equal(madt.skipped, 1);
    assert_int_equal(d.n, 0);
}

static void test_madt_bad_table(void **state)
{
    uint8_t *t = gtable("APIC", 5, 52);
    wr32(t + 36, 0xFEE00000);
    entry(t, &(size_t){44}, 0, 8);
    table_sum(t);
    t[47] ^= 1; /* the LAPIC entry's APIC ID: checksum now wrong */
    assert_int_equal(acpi_madt_parse(t, 52, &madt, &d), -1);
    assert_false(madt.present);
    assert_int_equal(madt.ncpu, 0);
    snprintf(want, sizeof want, "APIC at 0x%llx: bad checksum", (unsigned long long)addr(t));
    assert_string_equal(d.msg[0], want);

    t[47] ^= 1;
    assert_int_equal(acpi_madt_parse(t, 50, &madt, &d), -1); /* Length > avail */
    snprintf(want, sizeof want, "APIC at 0x%llx: Length 52 outside 36..50",
             (unsigned long long)addr(t));
    assert_string_equal(d.msg[1], want);

    t = gtable("APIC", 5, 40);
    table_sum(t);
    assert_int_equal(acpi_madt_parse(t, 40, &madt, &d), -1);
    assert_string_equal(d.msg[2], "APIC: Length 40 < 44");
    assert_int_equal(d.n, 3);
}

static void test_madt_bad_entries(void **state)
{
    /* LAPIC, then an entry of Length 0: the walk stops there. */
    uint8_t *t = gtable("APIC", 5, 68);
    size_t off = 44;
    wr32(entry(t, &off, 0, 8) + 4, 1);
    entry(t, &off, 0, 0);
    off = 60;
    wr32(entry(t, &off, 0, 8) + 4, 1);
    table_sum(t);
    assert_int_equal(acpi_madt_parse(t, 68, &madt, &d), 0);
    assert_int_equal(madt.ncpu, 1);
    assert_string_equal(d.msg[0],
                        "APIC: entry type 0 at offset 52 has Length 0 (table ends at 68)");

    /* An I/O APIC claiming 20 bytes with 12 left. */
    t = gtable("APIC", 5, 64);
    off = 44;
    wr32(entry(t, &off, 0, 8) + 4, 1);
    entry(t, &off, 1, 20);
    table_sum(t);
    assert_int_equal(acpi_madt_parse(t, 64, &madt, &d), 0);
    assert_int_equal(madt.ncpu, 1);
    assert_int_equal(madt.nioapic, 0);
    assert_string_equal(d.msg[1],
                        "APIC: entry type 1 at offset 52 has Length 20 (table ends at 64)");

    /* An I/O APIC one byte longer than what is left. */
    t = gtable("APIC", 5, 63);
    off = 44;
    wr32(entry(t, &off, 0, 8) + 4, 1);
    entry(t, &off, 1, 12);
    table_sum(t);
    assert_int_equal(acpi_madt_parse(t, 63, &madt, &d), 0);
    assert_int_equal(madt.nioapic, 0);
    assert_string_equal(d.msg[2],
                        "APIC: entry type 1 at offset 52 has Length 12 (table ends at 63)");

    /* One stray byte at the end. */
    t = gtable("APIC", 5, 53);
    off = 44;
    wr32(entry(t, &off, 0, 8) + 4, 1);
    t[52] = 9;
    table_sum(t);
    assert_int_equal(acpi_madt_parse(t, 53, &madt, &d), 0);
    assert_int_equal(madt.ncpu, 1);
    assert_string_equal(d.msg[3], "APIC: 1 byte(s) left at offset 52, an entry needs 2");

    /* A LAPIC entry too short for its type is skipped; the walk goes on. */
    t = gtable("APIC", 5, 58);
    off = 44;
    entry(t, &off, 0, 6);
    wr32(entry(t, &off, 0, 8) + 4, 1);
    table_sum(t);
    assert_int_equal(acpi_madt_parse(t, 58, &madt, &d), 0);
    assert_int_equal(madt.ncpu, 1);
    assert_int_equal(madt.skipped, 1);
    assert_string_equal(d.msg[4], "APIC: type 0 entry at offset 44: Length 6 < 8");
    assert_int_equal(d.n, 5);
}

/* An SRAT of the given revision: CPUs in domains 0 and 0x201, memory
 * [0, 2G) in 0, [4G, 6G) in 0x201 (hot-pluggable), [6G, 8G) disabled. */
static uint8_t *srat_two_domains(uint8_t rev)
{
    uint8_t *t = gtable("SRAT", rev, 48 + 16 * 2 + 24 + 40 * 3 + 18);
    wr32(t + 36, 1);
    size_t off = 48;
    uint8_t *e = entry(t, &off, 0, 16); /* APIC 0, domain 0 */
    wr32(e + 4, 1);
    e = entry(t, &off, 0, 16); /* APIC 1, domain 0x201 split into bytes 2 and 9 */
    e[2] = 0x01;
    e[3] = 1;
    wr32(e + 4, 1);
    e[9] = 0x02;
    e = entry(t, &off, 2, 24); /* x2APIC 0x200, domain 0x201 */
    wr32(e + 4, 0x201);
    wr32(e + 8, 0x200);
    wr32(e + 12, 1);
    static const struct {
        uint64_t base, len;
        uint32_t dom, flags;
    } m[3] = {{0, 2ull << 30, 0, 1},
              {4ull << 30, 2ull << 30, 0x201, 3},
              {6ull << 30, 2ull << 30, 0x201, 4}};
    for (size_t i = 0; i < 3; i++) {
        e = entry(t, &off, 1, 40);
        wr32(e + 2, m[i].dom);
        wr64(e + 8, m[i].base);
        wr64(e + 16, m[i].len);
        wr32(e + 28, m[i].flags);
    }
    entry(t, &off, 3, 18); /* GICC affinity: not ours */
    table_sum(t);
    return t;
}

static void test_srat(void **state)
{
    uint8_t *t = srat_two_domains(3);
    assert_int_equal(acpi_srat_parse(t, 242, &srat, &d), 0);
    assert_true(srat.present);
    assert_int_equal(srat.ncpu, 3);
    assert_int_equal(srat.nmem, 3);
    assert_int_equal(srat.skipped, 1);
    assert_int_equal(srat.cpu[1].domain, 0x201);
    assert_false(srat.cpu[1].x2apic);
    assert_true(srat.cpu[2].x2apic);
    assert_true(srat.mem[1].hotpluggable);
    assert_false(srat.mem[1].nonvolatile);
    assert_false(srat.mem[2].enabled);
    assert_true(srat.mem[2].nonvolatile);
    assert_int_equal(acpi_srat_cpu_domain(&srat, 0), 0);
    assert_int_equal(acpi_srat_cpu_domain(&srat, 1), 0x201);
    assert_int_equal(acpi_srat_cpu_domain(&srat, 0x200), 0x201);
    assert_int_equal(acpi_srat_cpu_domain(&srat, 5), -1);
    assert_int_equal(acpi_srat_mem_domain(&srat, 0x1000), 0);
    assert_int_equal(acpi_srat_mem_domain(&srat, (2ull << 30) - 1), 0);
    assert_int_equal(acpi_srat_mem_domain(&srat, 2ull << 30), -1); /* hole */
    assert_int_equal(acpi_srat_mem_domain(&srat, 5ull << 30), 0x201);
    assert_int_equal(acpi_srat_mem_domain(&srat, 7ull << 30), -1); /* disabled */
    assert_int_equal(d.n, 0);

    /* Revision 1 (ACPI 2.0): 8-bit domains. */
    t = srat_two_domains(1);
    assert_int_equal(acpi_srat_parse(t, 242, &srat, &d), 0);
    assert_int_equal(acpi_srat_cpu_domain(&srat, 1), 1);
    assert_int_equal(acpi_srat_mem_domain(&srat, 5ull << 30), 1);
    assert_int_equal(acpi_srat_cpu_domain(&srat, 0x200), 0x201); /* type 2 is 32-bit */

    t = gtable("SRAT", 3, 44);
    table_sum(t);
    assert_int_equal(acpi_srat_parse(t, 44, &srat, &d), -1);
    assert_false(srat.present);
    assert_string_equal(d.msg[0], "SRAT: Length 44 < 48");
}

/* A FADT of `len` bytes with the 32-bit blocks set and the given flags. */
static uint8_t *fadt_new(uint32_t len, uint8_t rev, uint32_t flags)
{
    uint8_t *t = gtable("FACP", rev, len);
    wr32(t + 40, 0x7FE0000);
    wr32(t + 64, 0x604);
    wr32(t + 76, 0x608);
    t[89] = 2;
    t[91] = 4;
    if (len >= 116)
        wr32(t + 112, flags);
    if (len >= 129) {
        wr_gas(t + 116, ACPI_SPACE_IO, 8, 1, 0xCF9);
        t[128] = 6;
    }
    return t;
}

static void test_fadt_short(void **state)
{
    uint8_t *t = fadt_new(116, 1, ACPI_FADT_TMR_VAL_EXT | ACPI_FADT_RESET_REG_SUP);
    table_sum(t);
    assert_int_equal(acpi_fadt_parse(t, 116, &fadt, &d), 0);
    assert_true(fadt.present);
    assert_int_equal(fadt.revision, 1);
    assert_int_equal(fadt.length, 116);
    assert_int_equal(fadt.dsdt, 0x7FE0000);
    assert_gas(&fadt.pm_timer, ACPI_SPACE_IO, 32, 0, 0x608);
    assert_true(fadt.pm_timer_32bit);
    assert_gas(&fadt.pm1a_cnt, ACPI_SPACE_IO, 16, 0, 0x604);
    assert_gas(&fadt.pm1b_cnt, 0, 0, 0, 0);
    assert_false(fadt.reset_supported); /* RESET_REG is past an ACPI 1.0 table */
    assert_gas(&fadt.reset_reg, 0, 0, 0, 0);
    assert_gas(&fadt.sleep_control, 0, 0, 0, 0);
    assert_false(fadt.hw_reduced);

    t = fadt_new(129, 2, ACPI_FADT_RESET_REG_SUP); /* just reaches RESET_VALUE */
    table_sum(t);
    assert_int_equal(acpi_fadt_parse(t, 129, &fadt, &d), 0);
    assert_true(fadt.reset_supported);
    assert_gas(&fadt.reset_reg, ACPI_SPACE_IO, 8, 1, 0xCF9);
    assert_int_equal(fadt.reset_value, 6);
    assert_false(fadt.pm_timer_32bit);

    t = fadt_new(100, 1, 0);
    table_sum(t);
    assert_int_equal(acpi_fadt_parse(t, 100, &fadt, &d), -1);
    assert_false(fadt.present);
    assert_string_equal(d.msg[0], "FACP: Length 100 < 116 (ACPI 1.0 size)");
    assert_int_equal(d.n, 1);
}

static void test_fadt_long(void **state)
{
    uint8_t *t = fadt_new(276, 6, ACPI_FADT_RESET_REG_SUP);
    wr64(t + 140, 0x100000000ull);                      /* X_DSDT */
    wr_gas(t + 184, ACPI_SPACE_MEM, 16, 2, 0xFED80000); /* X_PM1b_CNT_BLK */
    wr_gas(t + 208, ACPI_SPACE_IO, 32, 3, 0xB008);      /* X_PM_TMR_BLK */
    wr_gas(t + 244, ACPI_SPACE_IO, 8, 1, 0x404);        /* SLEEP_CONTROL_REG */
    table_sum(t);
    assert_int_equal(acpi_fadt_parse(t, 276, &fadt, &d), 0);
    assert_int_equal(fadt.dsdt, 0x100000000ull);
    assert_gas(&fadt.pm_timer, ACPI_SPACE_IO, 32, 3, 0xB008);
    assert_false(fadt.pm_timer_32bit);
    assert_gas(&fadt.pm1a_cnt, ACPI_SPACE_IO, 16, 0, 0x604); /* X_ is 0: legacy */
    assert_gas(&fadt.pm1b_cnt, ACPI_SPACE_MEM, 16, 2, 0xFED80000);
    assert_true(fadt.reset_supported);
    assert_gas(&fadt.reset_reg, ACPI_SPACE_IO, 8, 1, 0xCF9);
    assert_int_equal(fadt.reset_value, 6);
    assert_gas(&fadt.sleep_control, ACPI_SPACE_IO, 8, 1, 0x404);

    /* HW-reduced: PM timer and PM1 ignored, RESET_REG kept. */
    t = fadt_new(276, 6, ACPI_FADT_HW_REDUCED | ACPI_FADT_RESET_REG_SUP | ACPI_FADT_TMR_VAL_EXT);
    table_sum(t);
    assert_int_equal(acpi_fadt_parse(t, 276, &fadt, &d), 0);
    assert_true(fadt.hw_reduced);
    assert_gas(&fadt.pm_timer, 0, 0, 0, 0);
    assert_false(fadt.pm_timer_32bit);
    assert_gas(&fadt.pm1a_cnt, 0, 0, 0, 0);
    assert_true(fadt.reset_supported);
    assert_int_equal(d.n, 0);
}

/* A DSDT whose AML body is aml[0..n), at the end of guarded memory. */
static uint8_t *dsdt_with(const char *aml, size_t n)
{
    uint8_t *t = gtable("DSDT", 2, (uint32_t)(ACPI_HDR_LEN + n));
    memcpy(t + ACPI_HDR_LEN, aml, n);
    table_sum(t);
    return t;
}
#define DSDT(s) dsdt_with(s, sizeof(s) - 1)
#define S5_OK(s, a, b)                                                                             \
    do {                                                                                           \
        uint8_t *t_ = DSDT(s);                                                                     \
        assert_int_equal(acpi_dsdt_find_s5(t_, ACPI_HDR_LEN + sizeof(s) - 1, &s5, &d), 0);         \
        assert_true(s5.found);                                                                     \
        assert_int_equal(s5.slp_typa, (a));                                                        \
        assert_int_equal(s5.slp_typb, (b));                                                        \
    } while (0)
#define S5_MISSING(s)                                                                              \
    do {                                                                                           \
        uint8_t *t_ = DSDT(s);                                                                     \
        assert_int_equal(acpi_dsdt_find_s5(t_, ACPI_HDR_LEN + sizeof(s) - 1, &s5, &d), -1);        \
        assert_false(s5.found);                                                                    \
        assert_string_equal(d.msg[d.n - 1], "DSDT: \\_S5 package not found");                      \
    } while (0)

static void test_s5_found(void **state)
{
    /* Method (_PTS, 1) { Local0 = Arg0 } then Name (_S5, Package (4) {5, 5, 0, 0}) */
    S5_OK("\x14\x08_PTS\x01\x70\x68\x60\x08_S5_\x12\x08\x04\x0A\x05\x0A\x05\x00\x00", 5, 5);
    /* Name (\_S5, Package (4) {Zero, One, Zero, Zero}) */
    S5_OK("\x08\\_S5_\x12\x06\x04\x00\x01\x00\x00", 0, 1);
    /* Two-byte PkgLength (0x42 0x01 = 18) with padding inside the package */
    S5_OK("\x08_S5_\x12\x42\x01\x02\x0A\x07\x0A\x06\xA3\xA3\xA3\xA3\xA3\xA3\xA3\xA3\xA3\xA3\xA3", 7,
          6);
    /* One element: SLP_TYPb 0 */
    S5_OK("\x08_S5_\x12\x04\x01\x0A\x05", 5, 0);
    /* A "_S5_" in a string comes first and is passed over */
    S5_OK("\x0D_S5_\x00\x08_S5_\x12\x05\x02\x0A\x03\x01", 3, 1);
    assert_int_equal(d.n, 0);
}

static void test_s5_not_found(void **state)
{
    S5_MISSING("\x14\x08_PTS\x01\x70\x68\x60");
    S5_MISSING("\x0D_S5_\x00");             /* only in a string */
    S5_MISSING("\x08_S5_\x0A\x05");         /* a Name, but not a package */
    S5_MISSING("\x08_S5_\x12\x08\x04\x0A"); /* PkgLength runs past the table */
    S5_MISSING("\x08_S5_\x12\x03\x02\x0A"); /* BytePrefix without its byte */
    S5_MISSING("\x08_S5_\x12\x42");         /* PkgLength's second byte missing */
    S5_MISSING("\x08_S5_\x12\x02\x00");     /* zero elements */
    assert_int_equal(d.n, 7);
    S5_MISSING("\x08_S5_\x12\x08\x02\x0B\x05\x00\x0B\x05\x00"); /* WordPrefix: not read */
    assert_string_equal(d.msg[7], "DSDT: \\_S5 element 0: opcode 0x0b not read");
    assert_int_equal(d.n, 9);

    uint8_t *t = DSDT("\x08_S5_\x12\x04\x01\x0A\x05");
    t[ACPI_HDR_LEN + 9] = 6; /* checksum now wrong: not scanned */
    assert_int_equal(acpi_dsdt_find_s5(t, ACPI_HDR_LEN + 10, &s5, &d), -1);
    snprintf(want, sizeof want, "DSDT at 0x%llx: bad checksum", (unsigned long long)addr(t));
    assert_string_equal(d.msg[9], want);
    assert_int_equal(d.n, 10);
}

static void test_hpet(void **state)
{
    struct acpi_hpet h;
    uint8_t *t = gtable("HPET", 1, 56);
    wr32(t + 36, 0x8086A201);
    wr_gas(t + 40, ACPI_SPACE_MEM, 64, 0, 0xFED00000);
    t[52] = 0;
    wr16(t + 53, 0x37EE);
    table_sum(t);
    assert_int_equal(acpi_hpet_parse(t, 56, &h, &d), 0);
    assert_true(h.present);
    assert_int_equal(h.block_id, 0x8086A201);
    assert_gas(&h.base, ACPI_SPACE_MEM, 64, 0, 0xFED00000);
    assert_int_equal(h.number, 0);
    assert_int_equal(h.min_tick, 0x37EE);

    t = gtable("HPET", 1, 52);
    table_sum(t);
    assert_int_equal(acpi_hpet_parse(t, 52, &h, &d), -1);
    assert_false(h.present);
    assert_string_equal(d.msg[0], "HPET: Length 52 < 56");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_madt_mixed, setup),
        cmocka_unit_test_setup(test_madt_bad_table, setup),
        cmocka_unit_test_setup(test_madt_bad_entries, setup),
        cmocka_unit_test_setup(test_srat, setup),
        cmocka_unit_test_setup(test_fadt_short, setup),
        cmocka_unit_test_setup(test_fadt_long, setup),
        cmocka_unit_test_setup(test_s5_found, setup),
        cmocka_unit_test_setup(test_s5_not_found, setup),
        cmocka_unit_test_setup(test_hpet, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
