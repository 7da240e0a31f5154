/*
 * arch/console_pick.h - which UART `console=auto` (the default) uses, in
 * order: the firmware's console from the ACPI SPCR (arch/acpi.h), the first
 * 16550-compatible PCI UART (PCI Code and ID Assignment Specification 1.11
 * §1.8: class 07h, subclass 00h, programming interface 02h-06h: 16550 and
 * its FIFO successors), then COM1. Portable: the PCI configuration space
 * is read through a function the caller gives (the kernel's is
 * arch/pci.h pci_cfg_read), so host tests model it.
 */
#ifndef HZ_ARCH_CONSOLE_PICK_H
#define HZ_ARCH_CONSOLE_PICK_H

#include <stddef.h>
#include <stdint.h>

#include "arch/acpi.h"
#include "arch/serial.h"
#include "mm/memmap.h"

#define CONSOLE_SOURCE_LEN 24
#define CONSOLE_WHY_LEN 320
#define CONSOLE_CANDIDATES 3

/* The dword at offset `off` (4-aligned, below 256) of the configuration
 * space of bus:dev.fn (bus 0-255, dev 0-31, fn 0-7); 0xffffffff when no
 * function answers there (PCI Local Bus Specification 3.0 §6.1). */
typedef uint32_t (*pci_cfg_read_fn)(unsigned bus, unsigned dev, unsigned fn, unsigned off);

struct console_candidate {
    struct uart u;                   /* kind, base, baud (ops and the rest unset) */
    char source[CONSOLE_SOURCE_LEN]; /* "SPCR", "pci 00:03.0 BAR0", "default COM1" */
};

struct console_choice {
    struct console_candidate c[CONSOLE_CANDIDATES]; /* in order; the last is COM1 */
    size_t n;
    char passed[CONSOLE_WHY_LEN]; /* why a candidate was left out ("; " between); "" if none */
};

/*
 * The candidates, best first: the SPCR's UART when spcr->present (NULL: no
 * ACPI), the first PCI UART (pci_find_uart; rd NULL: no PCI scan), then COM1
 * at 115200, always last. An SPCR that was rejected (spcr->why), an MMIO
 * UART whose 32 register bytes overlap RAM in `map`, and a PCI UART without
 * a usable BAR add their reason to out->passed and are left out. The caller
 * probes them in order (arch/serial.h uart_init) and uses the first that
 * answers, adding console_pass() reasons for those that did not.
 */
void console_pick(const struct acpi_spcr *spcr, pci_cfg_read_fn rd, const struct memmap *map,
                  struct console_choice *out);

/*
 * Scan every bus, device and function through rd for a 16550-compatible
 * UART (header type 0; class 07h, subclass 00h, interface 02h-06h) and take
 * its first BAR that decodes: an I/O BAR (bit 0 set) with Command.IO on,
 * base up to 0xfff8, or a 32-bit memory BAR (or a 64-bit one whose upper
 * half is 0) with Command.Memory on, 4-byte aligned, not RAM in `map`,
 * driven as mmio32 (32-bit registers 4 bytes apart, as Linux's
 * earlyprintk=pciserial does for memory BARs). PCI Local Bus Specification
 * 3.0 §6.2.2 (Command), §6.2.5.1 (BARs). Returns 0 with *out (source "pci
 * BB:DD.F BARn", baud 115200), or -1: none found (why "") or the first
 * UART had no usable BAR (out->source "pci BB:DD.F", why says so, cap bytes).
 */
int pci_find_uart(pci_cfg_read_fn rd, const struct memmap *map, struct console_candidate *out,
                  char *why, size_t cap);

/* "" when [base, base + len) overlaps no RAM of `map` (usable, ACPI, NVS,
 * bad or persistent memory, ACPI 6.5 §15: a UART is never there), else a
 * reason naming the range, into why (cap bytes). Returns true when clear. */
bool console_not_ram(const struct memmap *map, uint64_t base, uint64_t len, char *why, size_t cap);

/* Append "SOURCE: reason" (source NULL: the reason alone) to ch->passed
 * ("; " between; cut at the end). */
void console_pass(struct console_choice *ch, const char *source, const char *reason);

/* The port as the header names it: "I/O port 0x3f8" or "mmio32,0xADDR". */
void console_describe(const struct uart *u, char *buf, size_t cap);

#endif /* HZ_ARCH_CONSOLE_PICK_H */
