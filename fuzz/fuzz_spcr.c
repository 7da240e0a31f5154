/*
 * fuzz/fuzz_spcr.c - libFuzzer harness for the SPCR parser
 * (arch/acpi_spcr.c, Microsoft "Serial Port Console Redirection Table") and
 * the console=auto candidates built on it (arch/console_pick.c
 * console_pick, without a PCI scan).
 *
 * Input: u8 flags, then the SPCR's bytes (the rest). Flags bit 0 fixes the
 * checksum and bit 1 sets Length to the size (so the fuzzer gets past the
 * header to the fields). The table is copied to a heap buffer of exactly
 * its size, so a read past its end is an ASan report.
 *
 * Checks: present and rejected exclude each other, rc agrees; a rejected
 * table has a reason (NUL-terminated, starting "SPCR"); a present one has
 * Length >= 80 within the input, a valid checksum, a 16550-compatible
 * interface type, the Base Address of the table's bytes, not 0, I/O with
 * width 8 up to 0xfff8 or memory with width 32, aligned, below 4 GiB, and a
 * baud of 0 or a standard rate (0 for a revision-3 UART clock other than 0
 * or 1.8432 MHz). The candidates: 1 or 2, COM1 at 115200
 * last; the SPCR's first exactly when present and its registers miss the
 * modelled RAM [0, 2 GiB); a reason for every table left out.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/acpi.h"
#include "arch/console_pick.h"
#include "fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_present(const struct acpi_spcr *s, const uint8_t *t, size_t n)
{
    uint32_t len;
    memcpy(&len, t + 4, 4);
    FUZZ_CHECK(n >= 80 && len >= 80 && len <= n && acpi_checksum(t, len) == 0);
    FUZZ_CHECK(memcmp(t, "SPCR", 4) == 0 && s->interface_type == t[36]);
    uint8_t ty = s->interface_type;
    FUZZ_CHECK(ty == 0 || ty == 1 || ty == 5 || ty == 0x12);
    uint64_t addr;
    memcpy(&addr, t + 44, 8);
    FUZZ_CHECK(s->base.addr == addr && addr != 0 && s->base.space == t[40] &&
               s->base.bit_width == t[41]);
    if (s->base.space == ACPI_SPACE_IO)
        FUZZ_CHECK(s->base.bit_width == 8 && addr <= 0xfff8);
    else
        FUZZ_CHECK(s->base.space == ACPI_SPACE_MEM && s->base.bit_width == 32 && (addr & 3) == 0 &&
                   addr < (1ull << 32));
    uint32_t b = s->baud, clock;
    FUZZ_CHECK(b == 0 || b == 9600 || b == 19200 || b == 57600 || b == 115200);
    memcpy(&clock, t + 76, 4);
    if (t[8] >= 3 && clock != 0 && clock != 1843200)
        FUZZ_CHECK(b == 0);
}

static void check_pick(const struct acpi_spcr *s, const struct memmap *ram)
{
    struct console_choice ch;
    console_pick(s, NULL, ram, &ch);
    FUZZ_CHECK(ch.n >= 1 && ch.n <= 2 && memchr(ch.passed, 0, sizeof ch.passed));
    const struct console_candidate *last = &ch.c[ch.n - 1];
    FUZZ_CHECK(last->u.kind == UART_PIO && last->u.base == 0x3f8 && last->u.baud == 115200);
    FUZZ_CHECK(strcmp(last->source, "default COM1") == 0);
    bool in_ram = s->present && s->base.space == ACPI_SPACE_MEM && s->base.addr < (2ull << 30);
    FUZZ_CHECK((ch.n == 2) == (s->present && !in_ram));
    if (ch.n == 2)
        FUZZ_CHECK(strcmp(ch.c[0].source, "SPCR") == 0 && ch.c[0].u.base == s->base.addr &&
                   ch.c[0].u.baud == s->baud);
    FUZZ_CHECK((ch.passed[0] != 0) == (s->rejected || in_ram));
    if (ch.passed[0])
        FUZZ_CHECK(strncmp(ch.passed, "SPCR", 4) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t flags = data[0];
    size_t n = size - 1;
    uint8_t *t = malloc(n ? n : 1);
    FUZZ_CHECK(t);
    memcpy(t, data + 1, n);
    if ((flags & 2) && n >= 8) {
        uint32_t len = (uint32_t)n;
        memcpy(t + 4, &len, 4);
    }
    if ((flags & 1) && n >= 10) {
        t[9] = 0;
        t[9] = (uint8_t)(0 - acpi_checksum(t, n));
    }
    struct acpi_spcr s;
    struct acpi_diag d = {0};
    int rc = acpi_spcr_parse(t, n, &s, &d);
    FUZZ_CHECK(rc == 0 || rc == -1);
    FUZZ_CHECK((rc == 0) == s.present && s.present != s.rejected);
    FUZZ_CHECK(memchr(s.why, 0, sizeof s.why) && d.n <= ACPI_DIAG_MAX);
    if (s.present)
        check_present(&s, t, n);
    else
        FUZZ_CHECK(strncmp(s.why, "SPCR", 4) == 0 && d.n == 1);
    static const struct memmap ram = {.r = {{0, 2ull << 30, MEM_USABLE}}, .n = 1};
    check_pick(&s, &ram);
    free(t);
    return 0;
}
