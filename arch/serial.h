/*
 * arch/serial.h - polled 16550-compatible UART, on I/O ports (COM1-COM4) or
 * memory-mapped with 32-bit registers (the "mmio32" of Linux earlycon, for
 * servers without a legacy COM port). Register map: PC16550D data sheet
 * (THR/RBR 0, IER 1, IIR/FCR 2, LCR 3, MCR 4, LSR 5, SCR 7; DLL/DLM with
 * LCR.DLAB). The UART clock is assumed to be 1.8432 MHz (divisor = 115200 /
 * baud) when a baud rate is given.
 *
 * The driver logic (arch/serial.c) is portable: register access and the
 * clock go through a small ops table, the kernel's in arch/serial_io.c, a
 * model UART's in tests/unit/test_serial.c.
 */
#ifndef HZ_ARCH_SERIAL_H
#define HZ_ARCH_SERIAL_H

#include <stdbool.h>
#include <stdint.h>

enum uart_kind { UART_PIO, UART_MMIO32 };

/* Longest wait for the transmitter, per byte (and for the final drain):
 * a slow reader of a virtual UART (QEMU holds the transmitter busy while its
 * chardev cannot take a byte) is waited for this long before the byte is
 * dropped and counted. */
#define UART_WAIT_US 1000000u

/* Transmit FIFO depth of a 16550A (PC16550D data sheet: 16 bytes). */
#define UART_FIFO_DEPTH 16u

struct uart;

struct uart_ops {
    uint8_t (*read)(const struct uart *u, unsigned reg);            /* reg 0..7 */
    void (*write)(const struct uart *u, unsigned reg, uint8_t val); /* reg 0..7 */
    uint64_t (*now_us)(void); /* a clock in microseconds (never goes back) */
    void (*relax)(void);      /* between two status reads (PAUSE) */
};

/* What the driver counted since uart_init() (carried over by the console
 * when it switches UART). */
struct uart_stats {
    uint64_t dropped;     /* bytes not sent: timed out, or no UART */
    uint64_t timeouts;    /* waits for THRE or TEMT that reached UART_WAIT_US */
    uint64_t wait_max_us; /* longest wait for the transmitter that ended in time */
};

struct uart {
    enum uart_kind kind;
    uint64_t base;              /* I/O port, or physical MMIO address (4-byte aligned) */
    uint32_t baud;              /* 0: keep the firmware's divisor (MMIO without a baud) */
    const struct uart_ops *ops; /* register access; NULL: no UART (uart_init refuses) */
    bool present;               /* the probe in uart_init() answered */
    unsigned fifo_depth;        /* bytes written per THRE: 16 with a 16550A FIFO, else 1 */
    const char *fifo;           /* "16550A", "16550" (FIFO unusable, off), "none" */
    unsigned room;              /* bytes the transmitter still takes before a THRE wait */
    struct uart_stats stats;
};

/* Legacy COM port bases ttyS0..ttyS3: 0x3f8, 0x2f8, 0x3e8, 0x2e8. */
uint16_t uart_legacy_port(unsigned index);

/* The kernel's register access for `kind`: IN/OUT on I/O ports, or 32-bit
 * loads/stores (arch/serial_io.c). The clock is the TSC at its calibrated
 * rate; before tsc_calibrate() a 4 GHz TSC is assumed, so a wait is at most
 * 4x longer on a TSC of 1 GHz or more. */
const struct uart_ops *uart_ops_for(enum uart_kind kind);

/* Probe the UART, then program 8N1, interrupts off, and the divisor for
 * u->baud (9600..115200, must divide 115200; others are rejected by the
 * cmdline parser before we get here). The probe writes the scratch register
 * (SCR) and reads it back, and reads a line status (LSR) other than 0xff (a
 * floating bus); the probe writes only SCR, so the caller must make sure
 * u->base is not RAM. Then the FIFO: FCR = 0x07 (enable, clear both), and
 * IIR bits 7:6 read 11b for a working 16550A FIFO (fifo_depth 16), 10b for
 * the 16550's unusable one (turned off again, depth 1), 00b for none
 * (8250/16450, depth 1) (PC16550D data sheet, "FIFO Control Register" and
 * "Interrupt Identification Register"). Sets present, fifo, fifo_depth and
 * zeroes stats; nothing else is written when the probe fails or ops is
 * NULL. */
void uart_init(struct uart *u);

/* Send one byte. At most fifo_depth bytes are written per LSR.THRE (THRE
 * means the whole transmit FIFO is empty in FIFO mode); a busy transmitter
 * is waited for up to UART_WAIT_US. Returns false when the byte was dropped
 * (no UART, or the wait timed out), counting it in u->stats. */
bool uart_putc(struct uart *u, char c);

/* Wait up to UART_WAIT_US for LSR.TEMT (every byte sent, FIFO and shift
 * register empty), before the machine is stopped. Returns false on a time
 * out (counted) or without a UART. */
bool uart_flush(struct uart *u);

#endif /* HZ_ARCH_SERIAL_H */
