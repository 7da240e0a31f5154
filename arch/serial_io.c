/*
 * arch/serial_io.c - the kernel's register access and clock for the UART
 * driver (arch/serial.h): IN/OUT for I/O-port UARTs, 32-bit MMIO for
 * mmio32, the TSC for the wait bound.
 */
#include "arch/serial.h"
#include "arch/tsc.h"
#include "arch/x86.h"

#define TSC_HZ_BEFORE_CALIBRATION 4000000000ull /* assumed: waits run long, never short */

static void pio_write(const struct uart *u, unsigned reg, uint8_t v)
{
    outb((uint16_t)(u->base + reg), v);
}

static uint8_t pio_read(const struct uart *u, unsigned reg)
{
    return inb((uint16_t)(u->base + reg));
}

static void mmio_write(const struct uart *u, unsigned reg, uint8_t v)
{
    *(volatile uint32_t *)(uintptr_t)(u->base + reg * 4) = v;
}

static uint8_t mmio_read(const struct uart *u, unsigned reg)
{
    return (uint8_t) * (volatile uint32_t *)(uintptr_t)(u->base + reg * 4);
}

static uint64_t tsc_us(void)
{
    uint64_t hz = tsc_info()->hz;
    uint64_t per_us = (hz ? hz : TSC_HZ_BEFORE_CALIBRATION) / 1000000u;
    return rdtsc() / (per_us ? per_us : 1);
}

static const struct uart_ops pio_ops = {pio_read, pio_write, tsc_us, cpu_relax};
static const struct uart_ops mmio_ops = {mmio_read, mmio_write, tsc_us, cpu_relax};

const struct uart_ops *uart_ops_for(enum uart_kind kind)
{
    return kind == UART_MMIO32 ? &mmio_ops : &pio_ops;
}
