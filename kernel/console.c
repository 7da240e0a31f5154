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

#define GIVE_UP_TIMEOUTS 16 /* bytes in a row the transmitter did not take */

static const struct uart com1 = {UART_PIO, 0x3f8, 115200, false};
static struct uart chosen = {UART_PIO, 0x3f8, 115200, false}; /* console= */
static struct uart uart;                                      /* in use */
static struct spinlock lock;
static volatile int crash_mode;
static char refused[CMDLINE_ERR_LEN]; /* why console= was not applied; "" if it was */
static unsigned timeouts;             /* consecutive, under the lock */

/* The strict parse agrees with the early one: what was refused there is a
 * configuration error here. */
static int console_opt(const struct option *o, const char *value, char *err, size_t errlen)
{
    if (refused[0]) {
        hz_snprintf(err, errlen, "%s", refused);
        return -1;
    }
    return console_option_parse(value, err, errlen);
}

HZ_OPTION(
    opt_console, .name = "console", .kind = OPT_CUSTOM, .parse = console_opt,
    .accepted = "ttyS0..ttyS3[,baud] or mmio32,0xADDR[,baud]; baud 9600|19200|38400|57600|115200",
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
        hz_snprintf(err, errlen, "value longer than 63 bytes");
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

static bool is_com1(const struct uart *u) { return u->kind == UART_PIO && u->base == 0x3f8; }

static void describe(const struct uart *u, char *buf, size_t cap)
{
    if (u->kind == UART_MMIO32)
        hz_snprintf(buf, cap, "mmio32,0x%llx", (unsigned long long)u->base);
    else
        hz_snprintf(buf, cap, "I/O port 0x%llx", (unsigned long long)u->base);
}

/* RAM of any kind (ACPI 6.5 §15): a UART is never there. */
static bool is_ram(uint32_t type)
{
    return type == MEM_USABLE || type == MEM_ACPI || type == MEM_NVS || type == MEM_BAD ||
           type == MEM_PMEM;
}

void console_early(const char *cmdline, const struct memmap *map)
{
    char val[64];
    int found = cmdline_find(cmdline, "console", val, sizeof(val));
    if (found < 0)
        hz_snprintf(refused, sizeof(refused), "value longer than 63 bytes");
    if (found <= 0 || console_option_parse(val, refused, sizeof(refused)) < 0)
        return;
    if (chosen.kind != UART_MMIO32)
        return;
    /* Registers 0..7, 4 bytes apart (arch/serial.h). */
    uint64_t end = chosen.base + 32;
    for (size_t i = 0; i < map->n; i++) {
        const struct mem_range *r = &map->r[i];
        if (is_ram(r->type) && chosen.base < r->end && r->base < end) {
            hz_snprintf(refused, sizeof(refused),
                        "mmio32,0x%llx is %s memory [0x%llx-0x%llx) in the memory map, not a UART",
                        (unsigned long long)chosen.base, mem_type_name(r->type),
                        (unsigned long long)r->base, (unsigned long long)r->end);
            chosen = com1;
            return;
        }
    }
}

void console_init(void)
{
    uart = chosen;
    uart_init(&uart);
    if (uart.present || is_com1(&uart))
        return;
    char what[40];
    describe(&uart, what, sizeof(what));
    hz_snprintf(refused, sizeof(refused),
                "no UART answers at %s (scratch register and line status probe)", what);
    uart = com1;
    uart_init(&uart);
}

const char *console_refused(void) { return refused[0] ? refused : NULL; }

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

static void put_text(const char *s);

/* Send one byte; after GIVE_UP_TIMEOUTS bytes in a row that the UART did
 * not take, switch to COM1 (saying so there), or stop writing to COM1. */
static void put(char c)
{
    if (uart_putc(&uart, c)) {
        timeouts = 0;
        return;
    }
    if (!uart.present || ++timeouts < GIVE_UP_TIMEOUTS)
        return;
    timeouts = 0;
    if (is_com1(&uart)) {
        uart.present = false;
        return;
    }
    char what[40], line[120];
    describe(&uart, what, sizeof(what));
    hz_snprintf(line, sizeof(line),
                "\nconsole: %s took no byte for %d bytes in a row: switched to ttyS0\n", what,
                GIVE_UP_TIMEOUTS);
    uart = com1;
    uart_init(&uart);
    put_text(line);
}

static void put_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            put('\r');
        put(*s);
    }
}

/* Human text: control bytes (a command line may hold any) as \xNN, and
 * "@hz" as "@_hz" so that it never reads as a record. */
static void put_human(const char *s)
{
    static const char hex[] = "0123456789abcdef";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c < 0x20 && c != '\n') || c == 0x7f) {
            char esc[5] = {'\\', 'x', hex[c >> 4], hex[c & 15], 0};
            put_text(esc);
            continue;
        }
        if (c == '\n')
            put('\r');
        put((char)c);
        if (s[0] == '@' && s[1] == 'h' && s[2] == 'z')
            put('_');
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
    put_human(buf);
    spin_unlock(&lock);
}

void record_emit(struct rec *r) { record_emit_line(rec_end(r)); }

void record_emit_line(const char *line)
{
    take();
    put_text(line);
    put_text("\n");
    spin_unlock(&lock);
}
