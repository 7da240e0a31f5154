/*
 * arch/console.h - the serial console: which UART (console=), and the
 * sink of the output stream (lib/print.h: kprintf, record_emit) that writes
 * to it, line-oriented (never screen repaints).
 */
#ifndef HZ_ARCH_CONSOLE_H
#define HZ_ARCH_CONSOLE_H

#include <stddef.h>

#include "arch/acpi.h"
#include "lib/record.h"
#include "mm/memmap.h"

/*
 * Before console_init() and any output: apply the command line's first
 * `console=` value (console_option_parse), unless it is too long, malformed,
 * or names an mmio32 UART whose registers overlap RAM in `map` (usable,
 * ACPI, NVS, bad or persistent memory: nothing is written there). A refused
 * value leaves COM1 in use (console_auto() then changes nothing) and is
 * reported by console_refused(); the strict option parse then refuses it
 * too (a configuration error). No value, or `auto`, leaves the choice to
 * console_auto().
 */
void console_early(const char *cmdline, const struct memmap *map);

/* Bring up the console: COM1 at 115200 unless console_early() chose
 * another UART (an mmio32 one mapped uncached first, mm/vm.h
 * vm_map_uncached), and make it the print sink (lib/print.h). When the chosen
 * UART does not answer the probe (arch/serial.h uart_init) COM1 is used
 * instead, and console_refused() says why. Later, a UART that takes no byte
 * for 16 bytes in a row is given up: COM1 is used instead (saying so), or
 * COM1 itself is no longer written. */
void console_init(void);

/*
 * How console_init() and console_auto() map an MMIO UART's registers
 * uncached: mm/vm.h vm_map_uncached(), which kernel/main.c hands over
 * before console_early(), so arch/ includes nothing of mm/. Returns 0, or
 * -1 when the range cannot be mapped; then, as without a mapper, the MMIO
 * UART is not used.
 */
typedef int (*console_map_fn)(uint64_t pa, uint64_t len);
void console_set_mapper(console_map_fn map);

/*
 * console=auto (the default), once ACPI is parsed (acpi_init) and before
 * the header: move the console to the first of arch/console_pick.h's
 * candidates (the SPCR's UART, the first PCI UART, COM1) that answers the
 * probe (arch/serial.h uart_init; an MMIO one mapped uncached first), and
 * print which (`console: PORT (SOURCE)`) and why others were passed over.
 * COM1 is used when nothing else answers, even if it does not. Does nothing
 * after an explicit console= (it always wins). Reads PCI configuration
 * space (arch/pci.h) when no SPCR UART answers.
 */
void console_auto(const struct acpi_info *ai, const struct memmap *map);

/* Why `console=` was not applied (a line for the log), or NULL. */
const char *console_refused(void);

/*
 * The summary's stream members (docs/results.md "summary"): "records" and
 * "crc32" (lib/print.h print_stream), and "uart", the driver's counts
 * (arch/serial.h struct uart_stats): bytes dropped, waits that timed out,
 * the longest wait in microseconds.
 */
void console_rec_summary(struct rec *r);

/* The header's "uart" object: the port, where it came from ("console=",
 * "SPCR", "pci BB:DD.F BARn", "default COM1"), why console=auto passed
 * others over (only when it did), the FIFO the probe found (arch/serial.h
 * uart_init), the bytes written per THRE and the wait bound. */
void console_rec_uart(struct rec *r);

/* Wait (bounded, arch/serial.h uart_flush) until the UART has sent every
 * byte: before the machine stops, so that a slow reader still gets the end. */
void console_flush(void);

/*
 * Parse a `console=` value: auto, ttyS0..ttyS3[,baud] or mmio32,0xADDR[,baud]
 * (baud: 9600, 19200, 38400, 57600 or 115200; an MMIO UART without a baud
 * keeps the firmware's divisor). Stores the choice for console_init(); after
 * console_init() it has no effect. Values of 64 bytes or more are refused.
 * Returns 0, or -1 with a reason in err.
 */
int console_option_parse(const char *value, char *err, size_t errlen);

#endif /* HZ_ARCH_CONSOLE_H */
