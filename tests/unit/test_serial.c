/*
 * tests/unit/test_serial.c - arch/serial.c against model UARTs behind the
 * driver's ops table: a 16450 (no FIFO: one holding register, a second
 * write before THRE overruns it), a 16550A (16-byte transmit FIFO, IIR bits
 * 7:6 = 11b once FCR enables it), the original 16550 (IIR 10b: FIFO
 * unusable) and no UART at all. The model's clock advances 1 us per
 * register access; its transmitter sends one byte per `us_per_byte` and can
 * be stalled (a reader that takes nothing), so the wait bound and the
 * counters are checked in model time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/serial.h"

enum model_kind { M_16450, M_16550A, M_16550, M_ABSENT };

static struct model {
    enum model_kind kind;
    uint64_t now;               /* us */
    uint64_t us_per_byte;       /* transmitter speed */
    uint64_t stall_until;       /* the transmitter takes nothing before this */
    bool fifo_on;               /* FCR bit 0, when the kind has a FIFO */
    uint8_t scr, fcr_last, lcr; /* scratch register, last FCR and LCR written */
    uint8_t q[64];              /* THR (16450) or transmit FIFO */
    unsigned nq;
    bool shift_busy;
    uint8_t shift; /* the byte being sent */
    uint64_t shift_done;
    char out[4096]; /* what reached the line */
    unsigned nout;
    unsigned overruns;         /* bytes written with no room: lost */
    unsigned burst, burst_max; /* THR writes since the last LSR read that showed THRE */
} m;

static unsigned capacity(void) { return m.fifo_on ? 16 : 1; }

static void advance(void)
{
    m.now++;
    if (m.shift_busy && m.now >= m.shift_done) {
        m.out[m.nout++ % sizeof(m.out)] = (char)m.shift;
        m.shift_busy = false;
    }
    if (!m.shift_busy && m.nq && m.now >= m.stall_until) {
        m.shift = m.q[0];
        memmove(m.q, m.q + 1, --m.nq);
        m.shift_busy = true;
        m.shift_done = m.now + m.us_per_byte;
    }
}

static uint8_t model_read(const struct uart *u, unsigned reg)
{
    advance();
    if (m.kind == M_ABSENT)
        return 0xff;
    switch (reg) {
    case 2: /* IIR: no interrupt pending, FIFO bits */
        if (!m.fifo_on)
            return 0x01;
        return m.kind == M_16550A ? 0xc1 : 0x81;
    case 5: { /* LSR */
        uint8_t lsr = 0;
        if (m.nq == 0) {
            lsr |= 0x20;
            m.burst = 0;
        }
        if (m.nq == 0 && !m.shift_busy)
            lsr |= 0x40;
        return lsr;
    }
    case 7:
        return m.scr;
    default:
        return 0;
    }
}

static void model_write(const struct uart *u, unsigned reg, uint8_t v)
{
    advance();
    if (m.kind == M_ABSENT)
        return;
    if (reg == 7)
        m.scr = v;
    if (reg == 3)
        m.lcr = v;
    if (m.lcr & 0x80) /* DLAB: registers 0 and 1 are the divisor latch */
        return;
    if (reg == 2) {
        m.fcr_last = v;
        m.fifo_on = m.kind != M_16450 && (v & 1);
    }
    if (reg == 0) {
        if (++m.burst > m.burst_max)
            m.burst_max = m.burst;
        if (m.nq >= capacity())
            m.overruns++;
        else
            m.q[m.nq++] = v;
    }
}

static uint64_t model_now(void) { return m.now; }
static void model_relax(void) {}

static const struct uart_ops ops = {model_read, model_write, model_now, model_relax};

static struct uart setup(enum model_kind kind, uint64_t us_per_byte)
{
    memset(&m, 0, sizeof(m));
    m.kind = kind;
    m.us_per_byte = us_per_byte;
    struct uart u = {.kind = UART_PIO, .base = 0x3f8, .baud = 115200, .ops = &ops};
    uart_init(&u);
    return u;
}

/* Send text and drain; the line must carry exactly text. */
static void send_all(struct uart *u, const char *text)
{
    for (const char *p = text; *p; p++)
        assert_true(uart_putc(u, *p));
    assert_true(uart_flush(u));
    assert_int_equal(m.nout, strlen(text));
    assert_memory_equal(m.out, text, strlen(text));
    assert_int_equal(m.overruns, 0);
}

static const char text[] =
    "@hz {\"t\":\"fault\",\"v\":1,\"seq\":57,\"clear_ns\":550155,\"service_ns\":612000}\r\n"
    "@hz {\"t\":\"fault\",\"v\":1,\"seq\":58,\"clear_ns\":550187,\"service_ns\":611300}\r\n";

static void test_16450_one_byte_per_thre(void **state)
{
    struct uart u = setup(M_16450, 87); /* 87 us: a byte at 115200 baud */
    assert_true(u.present);
    assert_string_equal(u.fifo, "none");
    assert_int_equal(u.fifo_depth, 1);
    send_all(&u, text);
    assert_int_equal(m.burst_max, 1);
    assert_int_equal(u.stats.dropped, 0);
    assert_int_equal(u.stats.timeouts, 0);
}

static void test_16550a_fills_its_fifo(void **state)
{
    struct uart u = setup(M_16550A, 87);
    assert_string_equal(u.fifo, "16550A");
    assert_int_equal(u.fifo_depth, 16);
    assert_int_equal(m.fcr_last, 0x07);
    send_all(&u, text);
    assert_int_equal(m.burst_max, 16); /* the whole FIFO per THRE, never more */
}

static void test_16550_fifo_left_off(void **state)
{
    struct uart u = setup(M_16550, 87);
    assert_true(u.present);
    assert_string_equal(u.fifo, "16550");
    assert_int_equal(u.fifo_depth, 1);
    assert_int_equal(m.fcr_last, 0x00);
    assert_false(m.fifo_on);
    send_all(&u, text);
}

static void test_absent_uart_counts_drops(void **state)
{
    struct uart u = setup(M_ABSENT, 87);
    assert_false(u.present);
    assert_false(uart_putc(&u, 'x'));
    assert_false(uart_putc(&u, 'y'));
    assert_false(uart_flush(&u));
    assert_int_equal(u.stats.dropped, 2);
    struct uart none = {.kind = UART_PIO, .base = 0x3f8}; /* no ops: refused */
    uart_init(&none);
    assert_false(none.present);
}

static void test_slow_reader_is_waited_for(void **state)
{
    struct uart u = setup(M_16450, 87);
    assert_true(uart_putc(&u, 'a'));
    m.stall_until = m.now + UART_WAIT_US * 9 / 10; /* a reader 0.9 s late */
    assert_true(uart_putc(&u, 'b'));
    assert_true(uart_putc(&u, 'c'));
    assert_true(uart_flush(&u));
    assert_int_equal(m.nout, 3);
    assert_memory_equal(m.out, "abc", 3);
    assert_int_equal(u.stats.dropped, 0);
    assert_int_equal(u.stats.timeouts, 0);
    assert_true(u.stats.wait_max_us >= UART_WAIT_US * 9 / 10 - 200);
    assert_true(u.stats.wait_max_us < UART_WAIT_US);
}

static void test_stuck_reader_is_bounded_and_counted(void **state)
{
    struct uart u = setup(M_16550A, 87);
    m.stall_until = UINT64_MAX;
    for (unsigned i = 0; i < 16; i++) /* the FIFO takes 16 */
        assert_true(uart_putc(&u, (char)('a' + i)));
    uint64_t t0 = m.now;
    assert_false(uart_putc(&u, 'q'));
    assert_true(m.now - t0 >= UART_WAIT_US);
    assert_true(m.now - t0 < UART_WAIT_US + UART_WAIT_US / 100);
    assert_int_equal(u.stats.dropped, 1);
    assert_int_equal(u.stats.timeouts, 1);
    assert_false(uart_flush(&u));
    assert_int_equal(u.stats.timeouts, 2);
    m.stall_until = 0; /* the reader is back: the next byte goes out */
    assert_true(uart_putc(&u, 'r'));
    assert_true(uart_flush(&u));
    assert_int_equal(m.nout, 17);
    assert_memory_equal(m.out, "abcdefghijklmnopr", 17);
    assert_int_equal(m.overruns, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_16450_one_byte_per_thre),
        cmocka_unit_test(test_16550a_fills_its_fifo),
        cmocka_unit_test(test_16550_fifo_left_off),
        cmocka_unit_test(test_absent_uart_counts_drops),
        cmocka_unit_test(test_slow_reader_is_waited_for),
        cmocka_unit_test(test_stuck_reader_is_bounded_and_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
