/*
 * arch/console.c - the serial console: the UART console= picks (or, with
 * console=auto, the SPCR's, a PCI UART's or COM1: arch/console_pick.h), the
 * print sink (lib/print.h) that writes to it.
 */
#include "arch/console.h"
#include "arch/console_pick.h"
#include "arch/pci.h"
#include "arch/serial.h"
#include "arch/x86.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/print.h"

#define GIVE_UP_TIMEOUTS 16 /* bytes in a row the transmitter did not take */

#define COM1                                                                                       \
    {                                                                                              \
        .kind = UART_PIO, .base = 0x3f8, .baud = 115200                                            \
    }

static const struct uart com1 = COM1;
static struct uart chosen = COM1;     /* console= */
static bool chosen_auto = true;       /* console=auto (the default) */
static struct uart uart;              /* in use */
static char refused[CMDLINE_ERR_LEN]; /* why console= was not applied; "" if it was */
static unsigned timeouts;             /* consecutive, under the print lock */
static char source[CONSOLE_SOURCE_LEN] = "default COM1"; /* where `uart` came from */
static char passed[CONSOLE_WHY_LEN];                     /* why console=auto left candidates out */

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

HZ_OPTION(opt_console, .name = "console", .kind = OPT_CUSTOM, .parse = console_opt,
          .accepted = "auto, ttyS0..ttyS3[,baud] or mmio32,0xADDR[,baud]; baud "
                      "9600|19200|38400|57600|115200",
          .help = "serial console (default auto: the ACPI SPCR's, a PCI UART's, or ttyS0,115200)");

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
    if (strcmp(buf, "auto") == 0) {
        chosen = com1;
        chosen_auto = true;
        return 0;
    }
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
    chosen_auto = false;
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

void console_early(const char *cmdline, const struct memmap *map)
{
    char val[64];
    int found = cmdline_find(cmdline, "console", val, sizeof(val));
    if (found < 0)
        hz_snprintf(refused, sizeof(refused), "value longer than 63 bytes");
    if (found <= 0 || console_option_parse(val, refused, sizeof(refused)) < 0)
        return;
    if (chosen_auto)
        return;
    char why[160];
    /* Registers 0..7, 4 bytes apart (arch/serial.h). */
    if (chosen.kind == UART_MMIO32 && !console_not_ram(map, chosen.base, 32, why, sizeof why)) {
        hz_snprintf(refused, sizeof(refused), "mmio32,%s, not a UART", why);
        chosen = com1;
        return;
    }
    hz_snprintf(source, sizeof source, "console=");
}

static void put(char c);

static console_map_fn mapper; /* console_set_mapper() */

void console_set_mapper(console_map_fn map) { mapper = map; }

/* [pa, pa + len) uncached through the mapper: 0, or -1 (none, or refused). */
static int map_uncached(uint64_t pa, uint64_t len) { return mapper ? mapper(pa, len) : -1; }

void console_init(void)
{
    static const struct print_sink sink = {.put = put};
    if (chosen.kind == UART_MMIO32 && map_uncached(chosen.base, 32) < 0) {
        hz_snprintf(refused, sizeof(refused), "mmio32 at 0x%llx: no uncached mapping",
                    (unsigned long long)chosen.base);
        hz_snprintf(source, sizeof source, "default COM1");
        chosen = com1;
    }
    use(&chosen);
    print_set_sink(&sink);
    if (uart.present || is_com1(&uart))
        return;
    char what[40];
    console_describe(&uart, what, sizeof(what));
    hz_snprintf(refused, sizeof(refused),
                "no UART answers at %s (scratch register and line status probe)", what);
    hz_snprintf(source, sizeof source, "default COM1");
    use(&com1);
}

/* Probe candidate c (mapping an MMIO UART uncached first); true when it
 * answered and is now in use. */
static bool try_candidate(const struct console_candidate *c)
{
    struct uart u = c->u;
    if (u.kind == UART_MMIO32 && map_uncached(u.base, 32) < 0)
        return false;
    u.ops = uart_ops_for(u.kind);
    uart_init(&u);
    if (!u.present)
        return false;
    use(&c->u);
    return true;
}

void console_auto(const struct acpi_info *ai, const struct memmap *map)
{
    if (!chosen_auto)
        return;
    struct console_choice ch;
    console_pick(ai->ok ? &ai->spcr : NULL, pci_cfg_read, map, &ch);
    size_t i = 0;
    for (; i + 1 < ch.n && !try_candidate(&ch.c[i]); i++) {
        char what[40], why[64];
        console_describe(&ch.c[i].u, what, sizeof what);
        hz_snprintf(why, sizeof why, "no UART answers at %s", what);
        console_pass(&ch, ch.c[i].source, why);
    }
    if (i + 1 == ch.n)
        use(&ch.c[i].u); /* COM1, the last, answering or not */
    hz_snprintf(source, sizeof source, "%s", ch.c[i].source);
    hz_snprintf(passed, sizeof passed, "%s", ch.passed);
    char what[40];
    console_describe(&uart, what, sizeof what);
    kprintf("console: %s (%s)\n", what, source);
    if (passed[0])
        kprintf("console: passed over: %s\n", passed);
}

const char *console_refused(void) { return refused[0] ? refused : NULL; }

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
    console_describe(&uart, what, sizeof(what));
    hz_snprintf(line, sizeof(line),
                "\r\nconsole: %s took no byte for %d bytes in a row: switched to ttyS0\r\n", what,
                GIVE_UP_TIMEOUTS);
    use(&com1);
    for (const char *p = line; *p; p++)
        put(*p);
}

static void copy_stats(void *st) { *(struct uart_stats *)st = uart.stats; }

void console_rec_summary(struct rec *r)
{
    uint64_t n;
    uint32_t sum;
    struct uart_stats st;
    print_stream(&n, &sum);
    print_locked(copy_stats, &st);
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
    console_describe(&uart, what, sizeof(what));
    rec_obj_begin(r, "uart");
    rec_str(r, "port", what);
    rec_str(r, "source", source);
    if (passed[0])
        rec_str(r, "passed", passed);
    rec_str(r, "fifo", uart.fifo);
    rec_u64(r, "fifo_depth", uart.fifo_depth);
    rec_u64(r, "wait_max_ms", UART_WAIT_US / 1000);
    rec_obj_end(r);
}

static void flush(void *arg)
{
    (void)arg;
    uart_flush(&uart);
}

void console_flush(void) { print_locked(flush, 0); }
