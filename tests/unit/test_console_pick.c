/*
 * tests/unit/test_console_pick.c - the SPCR parser (arch/acpi_spcr.c,
 * Microsoft SPCR revision 2 layout) on tables at the end of guarded memory,
 * acpi_parse() picking the SPCR up, and console=auto's order
 * (arch/console_pick.c): the SPCR's UART, the first 16550-compatible PCI
 * UART of a modelled configuration space, then COM1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "arch/acpi.h"
#include "arch/console_pick.h"
#include "tests/unit/acpi_build.h"

static struct acpi_spcr s;
static struct acpi_diag d;

/* An SPCR of len bytes (>= 59): interface type, Base Address, baud code. */
static uint8_t *spcr(uint32_t len, uint8_t type, uint8_t space, uint8_t width, uint64_t a,
                     uint8_t baud)
{
    uint8_t *t = gtable("SPCR", 2, len);
    t[36] = type;
    wr_gas(t + 40, space, width, width == 32 ? 3 : 1, a);
    t[58] = baud;
    table_sum(t);
    return t;
}

static int parse(const uint8_t *t)
{
    memset(&d, 0, sizeof d);
    uint32_t len;
    memcpy(&len, t + 4, 4);
    return acpi_spcr_parse(t, len, &s, &d);
}

static void test_spcr_io(void **state)
{
    (void)state;
    assert_int_equal(parse(spcr(80, 0, ACPI_SPACE_IO, 8, 0x2f8, 7)), 0);
    assert_true(s.present && !s.rejected);
    assert_string_equal(s.why, "");
    assert_int_equal(s.interface_type, 0);
    assert_int_equal(s.base.space, ACPI_SPACE_IO);
    assert_int_equal(s.base.addr, 0x2f8);
    assert_int_equal(s.baud, 115200);
    assert_int_equal(d.n, 0);
}

static void test_spcr_mmio(void **state)
{
    (void)state;
    assert_int_equal(parse(spcr(88, 0x12, ACPI_SPACE_MEM, 32, 0xfe032000, 0)), 0);
    assert_int_equal(s.base.space, ACPI_SPACE_MEM);
    assert_int_equal(s.base.addr, 0xfe032000);
    assert_int_equal(s.baud, 0); /* "as configured": the firmware's divisor stays */
    assert_int_equal(parse(spcr(80, 5, ACPI_SPACE_IO, 8, 0x3f8, 3)), 0);
    assert_int_equal(s.baud, 9600);
}

/* Revision 3+: a UART clock other than 1.8432 MHz keeps the firmware's
 * divisor; 1.8432 MHz, 0, or the Reserved field of revision 2 do not. */
static void test_spcr_clock(void **state)
{
    (void)state;
    static const struct {
        uint8_t rev;
        uint32_t clock, baud;
    } v[] = {{3, 48000000, 0}, {4, 1843200, 115200}, {3, 0, 115200}, {2, 48000000, 115200}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t *t = spcr(88, 0x12, ACPI_SPACE_MEM, 32, 0xfe032000, 7);
        t[8] = v[i].rev;
        wr32(t + 76, v[i].clock);
        table_sum(t);
        assert_int_equal(parse(t), 0);
        assert_int_equal(s.revision, v[i].rev);
        assert_int_equal(s.baud, v[i].baud);
    }
}

/* Each malformed table: rejected, nothing kept, the reason as given. */
static void rejected(const uint8_t *t, const char *why)
{
    assert_int_equal(parse(t), -1);
    assert_true(s.rejected && !s.present);
    assert_int_equal(s.base.addr, 0);
    assert_string_equal(s.why, why);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.msg[0], why);
}

static void test_spcr_malformed(void **state)
{
    (void)state;
    rejected(spcr(60, 0, ACPI_SPACE_IO, 8, 0x2f8, 7), "SPCR: Length 60 < 80");
    rejected(spcr(80, 3, ACPI_SPACE_MEM, 32, 0x9000000, 7),
             "SPCR: interface type 0x3 (Arm PL011) is not 16550-compatible");
    rejected(spcr(80, 0x20, ACPI_SPACE_IO, 8, 0x2f8, 7),
             "SPCR: interface type 0x20 (unknown) is not 16550-compatible");
    rejected(spcr(80, 0, ACPI_SPACE_IO, 0, 0x2f8, 7), "SPCR: Register Bit Width 0");
    rejected(spcr(80, 0, ACPI_SPACE_IO, 8, 0, 7), "SPCR: Base Address 0 (no console)");
    rejected(spcr(80, 0, ACPI_SPACE_IO, 8, 0xfff9, 7),
             "SPCR: I/O port 0xfff9, width 8: not an 8-bit port below 0xfff8");
    rejected(spcr(80, 0, ACPI_SPACE_MEM, 8, 0xfe000000, 7),
             "SPCR: memory 0xfe000000, width 8: not 32-bit registers, aligned, below 4 GiB");
    rejected(spcr(80, 0x12, ACPI_SPACE_MEM, 32, 0x100000000ull, 7),
             "SPCR: memory 0x100000000, width 32: not 32-bit registers, aligned, below 4 GiB");
    rejected(spcr(80, 0, 2, 8, 0x2f8, 7),
             "SPCR: address space 2 is neither memory (0) nor I/O (1)");
    rejected(spcr(80, 0, ACPI_SPACE_IO, 8, 0x2f8, 5), "SPCR: Configured Baud Rate code 5 unknown");
    uint8_t *t = spcr(80, 0, ACPI_SPACE_IO, 8, 0x2f8, 7);
    t[9] ^= 1;
    assert_int_equal(parse(t), -1);
    assert_non_null(strstr(s.why, "bad checksum"));
}

/* acpi_parse lists the SPCR and parses it; one with a bad checksum is
 * rejected with that reason. */
static void test_spcr_in_acpi_parse(void **state)
{
    (void)state;
    static struct acpi_info ai;
    for (int bad = 0; bad < 2; bad++) {
        uint8_t *t = table_new("SPCR", 2, 80);
        t[36] = 0;
        wr_gas(t + 40, ACPI_SPACE_IO, 8, 1, 0x2f8);
        t[58] = 7;
        table_sum(t);
        t[9] = (uint8_t)(t[9] + bad);
        uint64_t a[] = {addr(t)};
        uint8_t *rsdp = arena_alloc(20);
        rsdp_fill(rsdp, 0, (uint32_t)addr(root_new("RSDT", a, 1)), 0);
        struct bootinfo bi = {0};
        struct acpi_range scan = {addr(rsdp), 20};
        assert_int_equal(acpi_parse(&ai, &bi, &scan, 1, 1ull << 32), 0);
        assert_int_equal(ai.spcr.present, !bad);
        assert_int_equal(ai.spcr.rejected, bad);
        if (bad)
            assert_non_null(strstr(ai.spcr.why, "bad checksum"));
        else
            assert_int_equal(ai.spcr.base.addr, 0x2f8);
    }
}

/* ---- console=auto's order, over a modelled PCI configuration space ---- */

struct fn {
    unsigned bus, dev, fn;
    uint32_t reg[16]; /* dwords 0x00..0x3c */
};
static struct fn pci[4];
static size_t npci;
static unsigned reads;

static uint32_t model_read(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
    reads++;
    for (size_t i = 0; i < npci; i++)
        if (pci[i].bus == bus && pci[i].dev == dev && pci[i].fn == fn && off < 64)
            return pci[i].reg[off / 4];
    return 0xffffffffu;
}

/* A function with class:subclass:progif `cls`, Command `cmd`, BARs. */
static struct fn *add_fn(unsigned bus, unsigned dev, unsigned fn, uint32_t cls, uint16_t cmd,
                         uint32_t bar0, uint32_t bar1, uint32_t bar2)
{
    struct fn *f = &pci[npci++];
    *f = (struct fn){bus, dev, fn, {0}};
    f->reg[0] = 0x000c1415; /* Vendor 0x1415, Device 0x000c */
    f->reg[1] = cmd;
    f->reg[2] = cls << 8;
    f->reg[4] = bar0;
    f->reg[5] = bar1;
    f->reg[6] = bar2;
    return f;
}

static const struct memmap ram = {.r = {{0, 0x80000000ull, MEM_USABLE}}, .n = 1};
static struct console_choice ch;

static void assert_cand(size_t i, enum uart_kind kind, uint64_t base, uint32_t baud,
                        const char *source)
{
    assert_true(i < ch.n);
    assert_int_equal(ch.c[i].u.kind, kind);
    assert_int_equal(ch.c[i].u.base, base);
    assert_int_equal(ch.c[i].u.baud, baud);
    assert_string_equal(ch.c[i].source, source);
}

static int reset_pci(void **state)
{
    npci = 0;
    reads = 0;
    return arena_setup(state);
}

static void test_order_spcr_pci_com1(void **state)
{
    (void)state;
    add_fn(0, 1, 0, 0x060400, 7, 0, 0, 0);      /* a PCI bridge: not a UART */
    add_fn(0, 2, 0, 0x070000, 1, 0xc001, 0, 0); /* 8250 (prog IF 0): not 16550 */
    add_fn(0, 3, 0, 0x070002, 1, 0xc061, 0, 0); /* the first 16550: I/O BAR0 */
    add_fn(0, 4, 0, 0x070002, 1, 0xc081, 0, 0); /* a second one: not taken */
    assert_int_equal(parse(spcr(80, 0, ACPI_SPACE_IO, 8, 0x2f8, 6)), 0);
    console_pick(&s, model_read, &ram, &ch);
    assert_int_equal(ch.n, 3);
    assert_cand(0, UART_PIO, 0x2f8, 57600, "SPCR");
    assert_cand(1, UART_PIO, 0xc060, 115200, "pci 00:03.0 BAR0");
    assert_cand(2, UART_PIO, 0x3f8, 115200, "default COM1");
    assert_string_equal(ch.passed, "");
}

static void test_order_rejected_spcr(void **state)
{
    (void)state;
    add_fn(0, 3, 0, 0x070002, 1, 0xc061, 0, 0);
    assert_int_equal(parse(spcr(80, 0, ACPI_SPACE_IO, 0, 0x2f8, 7)), -1);
    console_pick(&s, model_read, &ram, &ch);
    assert_int_equal(ch.n, 2);
    assert_cand(0, UART_PIO, 0xc060, 115200, "pci 00:03.0 BAR0");
    assert_cand(1, UART_PIO, 0x3f8, 115200, "default COM1");
    assert_string_equal(ch.passed, "SPCR: Register Bit Width 0");
}

static void test_order_nothing(void **state)
{
    (void)state;
    console_pick(NULL, model_read, &ram, &ch);
    assert_int_equal(ch.n, 1);
    assert_cand(0, UART_PIO, 0x3f8, 115200, "default COM1");
    assert_string_equal(ch.passed, "");
    assert_int_equal(reads, 256 * 32); /* one Vendor ID read per absent device */
    reads = 0;
    console_pick(NULL, NULL, NULL, &ch); /* no PCI scan at all */
    assert_int_equal(ch.n, 1);
    assert_int_equal(reads, 0);
}

static void test_spcr_mmio_in_ram(void **state)
{
    (void)state;
    assert_int_equal(parse(spcr(80, 0x12, ACPI_SPACE_MEM, 32, 0x1000, 7)), 0);
    console_pick(&s, NULL, &ram, &ch);
    assert_int_equal(ch.n, 1);
    assert_string_equal(ch.passed,
                        "SPCR: 0x1000 is usable memory [0x0-0x80000000) in the memory map");
}

static void test_pci_bars(void **state)
{
    (void)state;
    /* Multi-function device 02:1f: fn 3 is the UART; I/O BAR0 with
     * Command.IO off, a 64-bit BAR1/2 above 4 GiB, 32-bit BAR3 in RAM,
     * BAR4 a usable 32-bit memory BAR. */
    struct fn *f0 = add_fn(2, 0x1f, 0, 0x0c0330, 2, 0, 0, 0);
    f0->reg[3] = 0x00800000; /* Header Type bit 7: multi-function */
    struct fn *u = add_fn(2, 0x1f, 3, 0x070006, 2, 0xd001, 0xf000000c, 0x1);
    u->reg[7] = 0x00100000;
    u->reg[8] = 0xfe001000;
    console_pick(NULL, model_read, &ram, &ch);
    assert_int_equal(ch.n, 2);
    assert_cand(0, UART_MMIO32, 0xfe001000, 115200, "pci 02:1f.3 BAR4");
    /* Without BAR4: no usable BAR, said so; the RAM one named. */
    u->reg[8] = 0;
    console_pick(NULL, model_read, &ram, &ch);
    assert_int_equal(ch.n, 1);
    assert_string_equal(ch.passed, "pci 02:1f.3: a 16550 with no decoded I/O or 32-bit memory "
                                   "BAR: 0x100000 is usable memory [0x0-0x80000000) in the "
                                   "memory map");
    /* A single-function device 0 hides functions 1-7. */
    f0->reg[3] = 0;
    console_pick(NULL, model_read, &ram, &ch);
    assert_int_equal(ch.n, 1);
    assert_string_equal(ch.passed, "");
}

static void test_not_ram(void **state)
{
    (void)state;
    char why[160];
    static const struct memmap m = {.r = {{0, 0x9f000, MEM_USABLE},
                                          {0xf0000, 0x100000, MEM_RESERVED},
                                          {0x7ffe0000, 0x80000000, MEM_ACPI}},
                                    .n = 3};
    assert_true(console_not_ram(&m, 0xf0000, 32, why, sizeof why)); /* reserved: may be a UART */
    assert_string_equal(why, "");
    assert_false(console_not_ram(&m, 0x7ffdfff0, 32, why, sizeof why));
    assert_string_equal(why, "0x7ffdfff0 is acpi memory [0x7ffe0000-0x80000000) in the memory map");
    assert_true(console_not_ram(&m, 0x9f000, 32, why, sizeof why)); /* ends where RAM ends */
    assert_false(console_not_ram(&m, 0x9efe0, 33, why, sizeof why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_spcr_io, arena_setup),
        cmocka_unit_test_setup(test_spcr_mmio, arena_setup),
        cmocka_unit_test_setup(test_spcr_clock, arena_setup),
        cmocka_unit_test_setup(test_spcr_malformed, arena_setup),
        cmocka_unit_test_setup(test_spcr_in_acpi_parse, arena_setup),
        cmocka_unit_test_setup(test_order_spcr_pci_com1, reset_pci),
        cmocka_unit_test_setup(test_order_rejected_spcr, reset_pci),
        cmocka_unit_test_setup(test_order_nothing, reset_pci),
        cmocka_unit_test_setup(test_spcr_mmio_in_ram, reset_pci),
        cmocka_unit_test_setup(test_pci_bars, reset_pci),
        cmocka_unit_test_setup(test_not_ram, reset_pci),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
