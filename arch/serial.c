/*
 * arch/serial.c - polled 16550 driver (PC16550D data sheet register map).
 */
#include "arch/serial.h"
#include "arch/x86.h"

enum { THR = 0, IER = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5, SCR = 7 };
#define LSR_THRE 0x20
#define LCR_DLAB 0x80

static const uint16_t legacy[4] = {0x3f8, 0x2f8, 0x3e8, 0x2e8};

uint16_t uart_legacy_port(unsigned index) { return index < 4 ? legacy[index] : 0; }

static void wr(const struct uart *u, unsigned reg, uint8_t v)
{
    if (u->kind == UART_PIO)
        outb((uint16_t)(u->base + reg), v);
    else
        *(volatile uint32_t *)(uintptr_t)(u->base + reg * 4) = v;
}

static uint8_t rd(const struct uart *u, unsigned reg)
{
    if (u->kind == UART_PIO)
        return inb((uint16_t)(u->base + reg));
    return (uint8_t) * (volatile uint32_t *)(uintptr_t)(u->base + reg * 4);
}

void uart_init(struct uart *u)
{
    wr(u, SCR, 0x5a);
    u->present = rd(u, SCR) == 0x5a && rd(u, LSR) != 0xff;
    if (!u->present)
        return;
    wr(u, IER, 0x00);
    if (u->baud) {
        uint16_t div = (uint16_t)(115200u / u->baud);
        wr(u, LCR, LCR_DLAB);
        wr(u, THR, (uint8_t)div);
        wr(u, IER, (uint8_t)(div >> 8));
    }
    wr(u, LCR, 0x03); /* 8N1, DLAB off */
    wr(u, FCR, 0x07); /* FIFO on, clear both */
    wr(u, MCR, 0x03); /* DTR | RTS */
}

bool uart_putc(const struct uart *u, char c)
{
    if (!u->present)
        return false;
    /* ~10 ms at 115200 baud is ~115 characters; bound the wait in reads. */
    unsigned spin = 0;
    for (; spin < 200000 && !(rd(u, LSR) & LSR_THRE); spin++)
        cpu_relax();
    if (spin == 200000)
        return false;
    wr(u, THR, (uint8_t)c);
    return true;
}
