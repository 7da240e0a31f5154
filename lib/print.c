/*
 * lib/print.c - the output stream: line lock, human-text escaping, record
 * sequence numbers and the stream's CRC-32.
 */
#include "lib/print.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/spinlock.h"

static const struct print_sink *sink;
static struct spinlock lock;
static volatile int crash_mode;
static uint64_t records;           /* records printed: the next one's seq */
static uint32_t crc = 0xffffffffu; /* CRC-32 register over those lines (print.h) */

void print_set_sink(const struct print_sink *s) { sink = s; }

void print_crash_mode(void) { crash_mode = 1; }

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

static void put(char c)
{
    if (sink && sink->put)
        sink->put(c);
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
    crc = crc32_byte(crc, '\n'); /* the line end counts as one \n (print.h) */
    put_text("\n");
    records++;
    spin_unlock(&lock);
}

void print_stream(uint64_t *n, uint32_t *sum)
{
    take();
    *n = records;
    *sum = ~crc;
    spin_unlock(&lock);
}

void print_locked(void (*fn)(void *arg), void *arg)
{
    take();
    fn(arg);
    spin_unlock(&lock);
}
