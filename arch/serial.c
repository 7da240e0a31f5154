/*
 * arch/serial.c - polled 16550 driver logic (PC16550D data sheet register
 * map), portable: every register access and the clock go through u->ops.
 */
#include "arch/serial.h"

enum { THR = 0, IER = 1, IIR = 2, FCR = 2, LCR = 3, MCR = 4, LSR = 5, SCR = 7 };
#define LSR_THRE 0x20
#define LSR_TEMT 0x40
#define LCR_DLAB 0x80
#define FCR_ENABLE_CLEAR 0x07 /* FIFO enable, clear RCVR and XMIT FIFOs */
#define IIR_FIFO_MASK 0xc0

static const uint16_t legacy[4] = {0x3f8, 0x2f8, 0x3e8, 0x2e8};

uint16_t uart_legacy_port(unsigned index) { return index < 4 ? legacy[index] : 0; }

static void wr(const struct uart *u, unsigned reg, uint8_t v) { u->ops->write(u, reg, v); }
static uint8_t rd(const struct uart *u, unsigned reg) { return u->ops->read(u, reg); }

static void probe_fifo(struct uart *u)
{
    wr(u, FCR, FCR_ENABLE_CLEAR);
    uint8_t bits = rd(u, IIR) & IIR_FIFO_MASK;
    u->fifo_depth = 1;
    if (bits == IIR_FIFO_MASK) {
        u->fifo = "16550A";
        u->fifo_depth = UART_FIFO_DEPTH;
    } else if (bits == 0x80) {
        u->fifo = "16550"; /* the original 16550's FIFO does not work: off */
        wr(u, FCR, 0x00);
    } else {
        u->fifo = "none";
    }
}

void uart_init(struct uart *u)
{
    u->present = false;
    u->fifo = "none";
    u->fifo_depth = 1;
    u->room = 0;
    u->stats = (struct uart_stats){0, 0, 0};
    if (!u->ops)
        return;
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
    probe_fifo(u);
    wr(u, MCR, 0x03); /* DTR | RTS */
}

/* Wait for LSR bit `bit`, up to UART_WAIT_US; counts a time out. */
static bool wait_lsr(struct uart *u, uint8_t bit)
{
    if (rd(u, LSR) & bit) /* the common case reads no clock */
        return true;
    uint64_t t0 = u->ops->now_us();
    for (;;) {
        u->ops->relax();
        bool ready = rd(u, LSR) & bit;
        uint64_t waited = u->ops->now_us() - t0;
        if (ready) {
            if (waited > u->stats.wait_max_us)
                u->stats.wait_max_us = waited;
            return true;
        }
        if (waited >= UART_WAIT_US) {
            u->stats.timeouts++;
            return false;
        }
    }
}

bool uart_putc(struct uart *u, char c)
{
    if (!u->present) {
        u->stats.dropped++;
        return false;
    }
    if (!u->room) {
        if (!wait_lsr(u, LSR_THRE)) {
            u->stats.dropped++;
            return false;
        }
        u->room = u->fifo_depth;
    }
    wr(u, THR, (uint8_t)c);
    u->room--;
    return true;
}

bool uart_flush(struct uart *u) { return u->present && wait_lsr(u, LSR_TEMT); }
