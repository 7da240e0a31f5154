/*
 * arch/serial.h - polled 16550-compatible UART, on I/O ports (COM1-COM4) or
 * memory-mapped with 32-bit registers (the "mmio32" of Linux earlycon, for
 * servers without a legacy COM port). Register map: PC16550D data sheet
 * (THR/RBR 0, IER 1, FCR 2, LCR 3, MCR 4, LSR 5, SCR 7; DLL/DLM with
 * LCR.DLAB). The UART clock is assumed to be 1.8432 MHz (divisor = 115200 /
 * baud) when a baud rate is given.
 */
#ifndef HZ_ARCH_SERIAL_H
#define HZ_ARCH_SERIAL_H

#include <stdbool.h>
#include <stdint.h>

enum uart_kind { UART_PIO, UART_MMIO32 };

struct uart {
    enum uart_kind kind;
    uint64_t base; /* I/O port, or physical MMIO address (4-byte aligned) */
    uint32_t baud; /* 0: keep the firmware's divisor (MMIO without a baud) */
    bool present;  /* the probe in uart_init() answered */
};

/* Legacy COM port bases ttyS0..ttyS3: 0x3f8, 0x2f8, 0x3e8, 0x2e8. */
uint16_t uart_legacy_port(unsigned index);

/* Probe the UART, then program 8N1, FIFOs on, interrupts off, and the
 * divisor for u->baud (9600..115200, must divide 115200; others are
 * rejected by the cmdline parser before we get here). The probe writes the
 * scratch register (SCR) and reads it back, and reads a line status (LSR)
 * other than 0xff (a floating bus); the probe writes only SCR, so the
 * caller must make sure u->base is not RAM. Sets u->present; nothing else
 * is written when the probe fails. */
void uart_init(struct uart *u);

/* Send one byte, waiting at most ~10 ms for the transmitter (a missing UART
 * on bare metal never hangs the kernel; the byte is then dropped). Returns
 * false when the byte was dropped: no UART, or the wait timed out. */
bool uart_putc(const struct uart *u, char c);

#endif /* HZ_ARCH_SERIAL_H */
