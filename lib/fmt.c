/*
 * lib/fmt.c - hz_vsnprintf and fixed-point formatting (integer only).
 */
#include "lib/fmt.h"

struct out {
    char *buf;
    size_t cap;
    size_t len;
};

static void put(struct out *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width, int left, char pad)
{
    int fill = width > (int)n ? width - (int)n : 0;
    if (!left)
        while (fill-- > 0)
            put(o, pad);
    for (size_t i = 0; i < n; i++)
        put(o, s[i]);
    if (left)
        while (fill-- > 0)
            put(o, ' ');
}

/* The digits of v in tmp, at least prec of them (prec < 0: 1), as C's
 * precision for d/u/x (C11 7.21.6.1p8: precision 0 and value 0 give no
 * digit). prec is capped at 20 (tmp holds 24). */
static size_t utoa(char *tmp, unsigned long long v, unsigned base, int upper, int prec)
{
    const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char rev[24];
    size_t n = 0;
    size_t least = prec < 0 ? 1 : prec > 20 ? 20 : (size_t)prec;
    while (v) {
        rev[n++] = dig[v % base];
        v /= base;
    }
    while (n < least)
        rev[n++] = '0';
    for (size_t i = 0; i < n; i++)
        tmp[i] = rev[n - 1 - i];
    return n;
}

int hz_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
    struct out o = {buf, cap, 0};
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            put(&o, *p);
            continue;
        }
        const char *start = p++;
        int left = 0, zero = 0, width = 0, prec = -1, lng = 0;
        for (;; p++) {
            if (*p == '-')
                left = 1;
            else if (*p == '0')
                zero = 1;
            else
                break;
        }
        while (*p >= '0' && *p <= '9')
            width = width * 10 + (*p++ - '0');
        if (*p == '.') {
            p++;
            prec = 0;
            if (*p == '*') {
                prec = va_arg(ap, int);
                p++;
            } else {
                while (*p >= '0' && *p <= '9')
                    prec = prec * 10 + (*p++ - '0');
            }
        }
        while (*p == 'l' || *p == 'z') {
            lng = *p == 'z' ? 2 : lng + 1;
            p++;
        }
        char tmp[24];
        size_t n;
        unsigned long long u;
        switch (*p) {
        case '%':
            put(&o, '%');
            break;
        case 'c':
            tmp[0] = (char)va_arg(ap, int);
            put_padded(&o, tmp, 1, width, left, ' ');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            n = 0;
            while (s[n] && (prec < 0 || n < (size_t)prec))
                n++;
            put_padded(&o, s, n, width, left, ' ');
            break;
        }
        case 'd':
        case 'i': {
            long long v = lng >= 2   ? va_arg(ap, long long)
                          : lng == 1 ? va_arg(ap, long)
                                     : va_arg(ap, int);
            u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            n = 0;
            if (prec >= 0) /* C: a precision turns the '0' flag off */
                zero = 0;
            if (v < 0 && zero && !left) { /* as C: the sign goes before the zeros */
                put(&o, '-');
                width = width > 0 ? width - 1 : 0;
            } else if (v < 0) {
                tmp[n++] = '-';
            }
            n += utoa(tmp + n, u, 10, 0, prec);
            put_padded(&o, tmp, n, width, left, zero ? '0' : ' ');
            break;
        }
        case 'u':
        case 'x':
        case 'X':
            u = lng >= 2   ? va_arg(ap, unsigned long long)
                : lng == 1 ? va_arg(ap, unsigned long)
                           : va_arg(ap, unsigned int);
            n = utoa(tmp, u, *p == 'u' ? 10 : 16, *p == 'X', prec);
            put_padded(&o, tmp, n, width, left, zero && prec < 0 ? '0' : ' ');
            break;
        case 'p':
            u = (unsigned long long)(uintptr_t)va_arg(ap, void *);
            tmp[0] = '0';
            tmp[1] = 'x';
            n = 2 + utoa(tmp + 2, u, 16, 0, -1);
            put_padded(&o, tmp, n, width, left, ' ');
            break;
        default: /* unknown or truncated conversion: copy it literally */
            for (const char *q = start; q <= p && *q; q++)
                put(&o, *q);
            if (!*p)
                p--;
            break;
        }
    }
    if (cap)
        buf[o.len < cap ? o.len : cap - 1] = 0;
    return (int)o.len;
}

int hz_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = hz_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

size_t fmt_fixed(char *buf, size_t cap, uint64_t value, unsigned digits)
{
    uint64_t scale = 1;
    char frac[10];
    if (digits > 9)
        return 0;
    for (unsigned i = 0; i < digits; i++)
        scale *= 10;
    uint64_t f = value % scale;
    for (unsigned i = digits; i-- > 0; f /= 10)
        frac[i] = (char)('0' + f % 10);
    int n = digits ? hz_snprintf(buf, cap, "%llu.%.*s", (unsigned long long)(value / scale),
                                 (int)digits, frac)
                   : hz_snprintf(buf, cap, "%llu", (unsigned long long)value);
    return (n > 0 && (size_t)n < cap) ? (size_t)n : 0;
}

const char *fmt_size(char *buf, size_t cap, uint64_t bytes)
{
    static const char units[] = "KMGT";
    int u = -1;
    uint64_t v = bytes;
    while (v >= 1024 && v % 1024 == 0 && u < 3) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        hz_snprintf(buf, cap, "%llu", (unsigned long long)bytes);
    else
        hz_snprintf(buf, cap, "%llu%c", (unsigned long long)v, units[u]);
    return buf;
}

/* ns / q rounded half up (q > 0), without overflow. */
static uint64_t div_round(uint64_t ns, uint64_t q) { return ns / q + (q > 1 && ns % q >= q / 2); }

const char *fmt_ns(char *buf, size_t cap, uint64_t ns)
{
    static const char *const unit[] = {"ns", "us", "ms", "s"};
    unsigned u = 0;
    uint64_t scale = 1;
    /* the largest unit whose whole value, rounded, is below 1000 (seconds
     * have no larger unit): 999.6 us is 1.00 ms */
    while (u < 3 && div_round(ns, scale) >= 1000)
        scale *= 1000, u++;
    char num[32];
    if (u == 0)
        return hz_snprintf(buf, cap, "%llu ns", (unsigned long long)ns), buf;
    /* three significant digits: 1.23, 12.3 or 123 (and whole seconds) */
    unsigned d = 2;
    while (d && div_round(ns, scale / (d == 2 ? 100 : 10)) >= 1000)
        d--;
    fmt_fixed(num, sizeof(num), div_round(ns, scale / (d == 2 ? 100 : d == 1 ? 10 : 1)), d);
    return hz_snprintf(buf, cap, "%s %s", num, unit[u]), buf;
}

const char *fmt_ci_label(char *buf, size_t cap, unsigned cover_x100)
{
    char pct[24];
    size_t n = fmt_fixed(pct, sizeof(pct), cover_x100, 2);
    while (n > 0 && pct[n - 1] == '0') /* "87.50" -> "87.5", "50.00" -> "50." */
        pct[--n] = 0;
    if (n > 0 && pct[n - 1] == '.')
        pct[--n] = 0;
    if (cover_x100 >= 9500)
        hz_snprintf(buf, cap, "95%% interval");
    else
        hz_snprintf(buf, cap, "min..max, %s%%", pct);
    return buf;
}
