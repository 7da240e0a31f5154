/*
 * arch/console_pick.c - the order `console=auto` tries UARTs in: the ACPI
 * SPCR's, the first 16550-compatible PCI UART, COM1 (arch/console_pick.h).
 * Portable; the PCI scan reads configuration space through the caller's
 * function (PCI Local Bus Specification 3.0 §6.1, §6.2).
 */
#include "arch/console_pick.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define PCI_ID 0x00      /* Vendor ID 15:0, Device ID 31:16 */
#define PCI_COMMAND 0x04 /* Command 15:0: bit 0 I/O Space, bit 1 Memory Space */
#define PCI_CLASS 0x08   /* Revision 7:0, Prog IF 15:8, Subclass 23:16, Class 31:24 */
#define PCI_HEADER 0x0c  /* Header Type 23:16; bit 23 multi-function */
#define PCI_BAR0 0x10
#define PCI_BARS 6      /* header type 0 */
#define MMIO32_SPAN 32u /* registers 0..7, 4 bytes apart (arch/serial.h) */

void console_describe(const struct uart *u, char *buf, size_t cap)
{
    if (u->kind == UART_MMIO32)
        hz_snprintf(buf, cap, "mmio32,0x%llx", (unsigned long long)u->base);
    else
        hz_snprintf(buf, cap, "I/O port 0x%llx", (unsigned long long)u->base);
}

void console_pass(struct console_choice *ch, const char *source, const char *reason)
{
    size_t n = strlen(ch->passed);
    hz_snprintf(ch->passed + n, sizeof ch->passed - n, "%s%s%s%s", n ? "; " : "",
                source ? source : "", source ? ": " : "", reason);
}

/* RAM of any kind (ACPI 6.5 §15): a UART is never there. */
static bool is_ram(uint32_t type)
{
    return type == MEM_USABLE || type == MEM_ACPI || type == MEM_NVS || type == MEM_BAD ||
           type == MEM_PMEM;
}

bool console_not_ram(const struct memmap *map, uint64_t base, uint64_t len, char *why, size_t cap)
{
    for (size_t i = 0; map && i < map->n; i++) {
        const struct mem_range *r = &map->r[i];
        if (is_ram(r->type) && base < r->end && r->base < base + len) {
            hz_snprintf(why, cap, "0x%llx is %s memory [0x%llx-0x%llx) in the memory map",
                        (unsigned long long)base, mem_type_name(r->type),
                        (unsigned long long)r->base, (unsigned long long)r->end);
            return false;
        }
    }
    if (cap)
        why[0] = 0;
    return true;
}

/* The UART behind BAR n of bus:dev.fn into *u; false when the BAR does not
 * decode, lies above 4 GiB or in RAM (that reason in ram[], cap bytes). */
static bool bar_uart(pci_cfg_read_fn rd, const struct memmap *map, unsigned b, unsigned d,
                     unsigned f, unsigned n, struct uart *u, char *ram, size_t cap)
{
    uint32_t bar = rd(b, d, f, PCI_BAR0 + 4 * n);
    uint32_t cmd = rd(b, d, f, PCI_COMMAND);
    *u = (struct uart){.baud = 115200};
    if (bar & 1) {
        u->kind = UART_PIO;
        u->base = bar & ~3u;
        return (cmd & 1) && u->base != 0 && u->base <= 0xfff8;
    }
    unsigned type = (bar >> 1) & 3; /* 0: 32-bit, 2: 64-bit (upper half in BAR n + 1) */
    u->kind = UART_MMIO32;
    u->base = bar & ~0xfu;
    if (!(cmd & 2) || u->base == 0 || (type != 0 && type != 2))
        return false;
    if (type == 2 && (n + 1 >= PCI_BARS || rd(b, d, f, PCI_BAR0 + 4 * (n + 1)) != 0))
        return false; /* above 4 GiB: not in the boot identity map */
    return console_not_ram(map, u->base, MMIO32_SPAN, ram, cap);
}

/* The first usable BAR of bus:dev.fn into *out; -1 with why otherwise. */
static int take_bar(pci_cfg_read_fn rd, const struct memmap *map, unsigned b, unsigned d,
                    unsigned f, struct console_candidate *out, char *why, size_t cap)
{
    char ram[160] = "";
    for (unsigned n = 0; n < PCI_BARS; n++) {
        uint32_t bar = rd(b, d, f, PCI_BAR0 + 4 * n);
        if (bar_uart(rd, map, b, d, f, n, &out->u, ram, sizeof ram)) {
            hz_snprintf(out->source, sizeof out->source, "pci %02x:%02x.%x BAR%u", b, d, f, n);
            return 0;
        }
        if (!(bar & 1) && ((bar >> 1) & 3) == 2)
            n++; /* skip the upper half of a 64-bit BAR */
    }
    hz_snprintf(out->source, sizeof out->source, "pci %02x:%02x.%x", b, d, f);
    hz_snprintf(why, cap, "a 16550 with no decoded I/O or 32-bit memory BAR%s%s",
                ram[0] ? ": " : "", ram);
    return -1;
}

int pci_find_uart(pci_cfg_read_fn rd, const struct memmap *map, struct console_candidate *out,
                  char *why, size_t cap)
{
    if (cap)
        why[0] = 0;
    for (unsigned b = 0; b < 256; b++) {
        for (unsigned d = 0; d < 32; d++) {
            if ((rd(b, d, 0, PCI_ID) & 0xffff) == 0xffff)
                continue;
            unsigned nfn = (rd(b, d, 0, PCI_HEADER) >> 23) & 1 ? 8 : 1;
            for (unsigned f = 0; f < nfn; f++) {
                if ((rd(b, d, f, PCI_ID) & 0xffff) == 0xffff)
                    continue;
                uint32_t cls = rd(b, d, f, PCI_CLASS);
                unsigned progif = (cls >> 8) & 0xff;
                if ((cls >> 16) != 0x0700 || progif < 2 || progif > 6 ||
                    ((rd(b, d, f, PCI_HEADER) >> 16) & 0x7f) != 0)
                    continue;
                return take_bar(rd, map, b, d, f, out, why, cap);
            }
        }
    }
    return -1;
}

void console_pick(const struct acpi_spcr *spcr, pci_cfg_read_fn rd, const struct memmap *map,
                  struct console_choice *out)
{
    memset(out, 0, sizeof *out);
    char why[CONSOLE_WHY_LEN];
    if (spcr && spcr->rejected)
        console_pass(out, NULL, spcr->why); /* "SPCR...: reason" */
    if (spcr && spcr->present) {
        struct console_candidate *c = &out->c[out->n];
        c->u.kind = spcr->base.space == ACPI_SPACE_MEM ? UART_MMIO32 : UART_PIO;
        c->u.base = spcr->base.addr;
        c->u.baud = spcr->baud;
        hz_snprintf(c->source, sizeof c->source, "SPCR");
        if (c->u.kind == UART_PIO || console_not_ram(map, c->u.base, MMIO32_SPAN, why, sizeof why))
            out->n++;
        else
            console_pass(out, "SPCR", why);
    }
    if (rd) {
        struct console_candidate *c = &out->c[out->n];
        if (pci_find_uart(rd, map, c, why, sizeof why) == 0)
            out->n++;
        else if (why[0])
            console_pass(out, c->source, why);
    }
    struct console_candidate *c = &out->c[out->n++];
    c->u = (struct uart){.kind = UART_PIO, .base = uart_legacy_port(0), .baud = 115200};
    hz_snprintf(c->source, sizeof c->source, "default COM1");
}
