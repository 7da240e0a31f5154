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

#define COM1                                                                                       \
    {                                                                                              \
        .kind = UART_PIO, .base = 0x3f8, .baud = 115200                                            \
    }

static const struct uart com1 = COM1;
static struct uart chosen = COM1; /* console= */
static struct uart uart;          /* in use */
static struct spinlock lock;
static volatile int crash_mode;
static char refused[CMDLINE_ERR_LEN]; /* why console= was not applied; "" if it was */
static unsigned timeouts;             /* consecutive, under the lock */
static uint64_t records;              /* records printed: the next one's seq */
static uint32_t crc = 0xffffffffu;    /* CRC-32 register over those lines (console.h) */

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
    struct uart u = {.kind = UART_PIO, .baud = 115200};
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

/* The UART `u`, its statistics carried over from the one in use. */
static void use(const struct uart *u)
{
    struct uart_stats kept = uart.stats;
    uart = *u;
    uart.ops = uart_ops_for(uart.kind);
    uart_init(&uart);
    uart.stats.dropped += kept.dropped;
    uart.stats.timeouts += kept.timeouts;
    if (kept.wait_max_us > uart.stats.wait_max_us)
        uart.stats.wait_max_us = kept.wait_max_us;
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
    use(&chosen);
    if (uart.present || is_com1(&uart))
        return;
    char what[40];
    describe(&uart, what, sizeof(what));
    hz_snprintf(refused, sizeof(refused),
                "no UART answers at %s (scratch register and line status probe)", what);
    use(&com1);
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
    use(&com1);
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

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320: zlib's crc32) of one byte into
 * the running register. */
static uint32_t crc32_byte(uint32_t reg, unsigned char b)
{
    reg ^= b;
    for (int k = 0; k < 8; k++)
        reg = (reg >> 1) ^ (0xedb88320u & (0u - (reg & 1u)));
    return reg;
}

static void put_rec(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        crc = crc32_byte(crc, (unsigned char)s[i]);
        put(s[i]);
    }
}

/* Where `,"seq":N` goes: after the "v" member rec_begin() writes second
 * (`@hz {"t":"TYPE","v":1`). Every `"` inside TYPE is escaped, so the
 * first `","v":` ends it. 0 for a line not in that form. */
static size_t seq_at(const char *line)
{
    static const char head[] = HZ_RECORD_PREFIX "{\"t\":\"";
    static const char v[] = "\",\"v\":";
    if (strncmp(line, head, sizeof(head) - 1) != 0)
        return 0;
    for (const char *p = line + sizeof(head) - 1; *p; p++) {
        if (*p != '"' || strncmp(p, v, sizeof(v) - 1) != 0)
            continue;
        p += sizeof(v) - 1;
        while (*p >= '0' && *p <= '9')
            p++;
        return (size_t)(p - line);
    }
    return 0;
}

void record_emit_line(const char *line)
{
    take();
    size_t n = strlen(line), at = seq_at(line);
    char seq[32];
    int sn = hz_snprintf(seq, sizeof(seq), ",\"seq\":%llu", (unsigned long long)records);
    put_rec(line, at);
    if (at)
        put_rec(seq, (size_t)sn);
    put_rec(line + at, n - at);
    crc = crc32_byte(crc, '\n'); /* the line end counts as one \n (console.h) */
    put_text("\n");
    records++;
    spin_unlock(&lock);
}

void console_rec_summary(struct rec *r)
{
    take();
    uint64_t n = records;
    uint32_t sum = ~crc;
    struct uart_stats st = uart.stats;
    spin_unlock(&lock);
    rec_u64(r, "records", n);
    rec_hex(r, "crc32", sum);
    rec_obj_begin(r, "uart");
    rec_u64(r, "dropped", st.dropped);
    rec_u64(r, "timeouts", st.timeouts);
    rec_u64(r, "wait_max_us", st.wait_max_us);
    rec_obj_end(r);
}

void console_rec_uart(struct rec *r)
{
    char what[40];
    describe(&uart, what, sizeof(what));
    rec_obj_begin(r, "uart");
    rec_str(r, "port", what);
    rec_str(r, "fifo", uart.fifo);
    rec_u64(r, "fifo_depth", uart.fifo_depth);
    rec_u64(r, "wait_max_ms", UART_WAIT_US / 1000);
    rec_obj_end(r);
}

void console_flush(void)
{
    take();
    uart_flush(&uart);
    spin_unlock(&lock);
}
