/*
 * kernel/console.c - serial console with a line lock.
 */
#include "kernel/console.h"
#include "arch/serial.h"
#include "arch/x86.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/spinlock.h"

static struct uart chosen = {UART_PIO, 0x3f8, 115200, false}; /* console= */
static struct uart uart;                                      /* in use */
static struct spinlock lock;
static volatile int crash_mode;

static int console_opt(const struct option *o, const char *value, char *err, size_t errlen)
{
    return console_option_parse(value, err, errlen);
}

HZ_OPTION(opt_console, .name = "console", .kind = OPT_CUSTOM, .parse = console_opt,
          .accepted = "ttyS0..ttyS3[,baud] or mmio32,0xADDR[,baud]; baud 9600..115200",
          .help = "serial console (default ttyS0,115200)");

static int parse_baud(const char *s, uint32_t *baud)
{
    static const uint32_t ok[] = {9600, 19200, 38400, 57600, 115200};
    uint64_t v;
    if (cmdline_parse_size(s, &v) < 0)
        return -1;
    for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        if (v == ok[i] && strchr(s, 'K') == 0 && strchr(s, 'k') == 0) {
            *baud = ok[i];
            return 0;
        }
    return -1;
}

int console_option_parse(const char *value, char *err, size_t errlen)
{
    struct uart u = {UART_PIO, 0, 115200, false};
    char buf[64];
    size_t n = strlen(value);
    if (n >= sizeof(buf)) {
        hz_snprintf(err, errlen, "value too long");
        return -1;
    }
    memcpy(buf, value, n + 1);
    char *comma = strchr(buf, ',');
    if (comma)
        *comma++ = 0;
    if (strncmp(buf, "ttyS", 4) == 0 && buf[4] >= '0' && buf[4] <= '3' && buf[5] == 0) {
        u.base = uart_legacy_port((unsigned)(buf[4] - '0'));
        if (comma && parse_baud(comma, &u.baud) < 0) {
            hz_snprintf(err, errlen, "bad baud rate '%s'", comma);
            return -1;
        }
    } else if (strcmp(buf, "mmio32") == 0) {
        u.kind = UART_MMIO32;
        u.baud = 0;
        char *addr = comma;
        char *b = addr ? strchr(addr, ',') : 0;
        if (b)
            *b++ = 0;
        uint64_t a;
        if (!addr || strncmp(addr, "0x", 2) != 0 || cmdline_parse_size(addr, &a) < 0 || a == 0 ||
            (a & 3) || a >= (1ull << 32)) {
            hz_snprintf(err, errlen, "mmio32 needs a 4-byte-aligned hex address below 4 GiB");
            return -1;
        }
        u.base = a;
        if (b && parse_baud(b, &u.baud) < 0) {
            hz_snprintf(err, errlen, "bad baud rate '%s'", b);
            return -1;
        }
    } else {
        hz_snprintf(err, errlen, "unknown console '%s'", buf);
        return -1;
    }
    chosen = u;
    return 0;
}

void console_init(void)
{
    uart = chosen;
    uart_init(&uart);
}

void console_crash_mode(void) { crash_mode = 1; }

static void take(void)
{
    if (!crash_mode) {
        spin_lock(&lock);
        return;
    }
    for (unsigned long spin = 0; spin < 50000000ul; spin++)
        if (spin_trylock(&lock))
            return;
}

static void put_line_text(const char *s, int human)
{
    for (; *s; s++) {
        if (*s == '\n')
            uart_putc(&uart, '\r');
        uart_putc(&uart, *s);
        if (human && s[0] == '@' && s[1] == 'h' && s[2] == 'z')
            uart_putc(&uart, '_');
    }
}

void kprintf(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    hz_vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    take();
    put_line_text(buf, 1);
    spin_unlock(&lock);
}

void record_emit(struct rec *r) { record_emit_line(rec_end(r)); }

void record_emit_line(const char *line)
{
    take();
    put_line_text(line, 0);
    put_line_text("\n", 0);
    spin_unlock(&lock);
}
