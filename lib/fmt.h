/*
 * lib/fmt.h - a small snprintf for the freestanding kernel (no floating
 * point: the kernel is built with -mgeneral-regs-only). Portable C; the host
 * unit tests build it too.
 */
#ifndef HZ_LIB_FMT_H
#define HZ_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Format into buf (cap bytes, always NUL-terminated when cap > 0). Supports
 * %% %c %s %d %i %u %x %X %p with flags '-' and '0', a width, a precision
 * (including ".*") for %s (most bytes) and for %d %i %u %x %X (least digits,
 * up to 20, as C11 7.21.6.1: "%.0d" of 0 writes nothing, and a precision
 * turns the '0' flag off), and the length modifiers l, ll and z. Returns the
 * length the full output would have had (as C's vsnprintf). An unknown
 * conversion is copied through literally, never read as an argument.
 */
int hz_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int hz_snprintf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Write `value / 10^digits` as a decimal with exactly `digits` fraction
 * digits (digits 0..9) into buf; "123.045" for (123045, 3). Returns the
 * length written (excluding NUL), or 0 when cap is too small.
 */
size_t fmt_fixed(char *buf, size_t cap, uint64_t value, unsigned digits);

/*
 * A byte count in the largest binary unit that divides it exactly:
 * "4K", "2M", "1G", "64M", "6K", "1T"; "100" (no unit) when 1024 does not
 * divide it, "0" for 0. Writes at most cap bytes (cut, NUL-terminated);
 * returns buf.
 */
const char *fmt_size(char *buf, size_t cap, uint64_t bytes);

/*
 * A duration for people, the one rounding rule the console and the host
 * tools share (tools/hzlib/fmtns.py fmt_ns, vectors in
 * tests/vectors/format_ns.txt): three significant digits rounded half up
 * (integer arithmetic), in the largest of ns, us, ms, s that keeps the
 * rounded value >= 1 ("850 ns", "12.3 us", "1.00 s", "25.1 s" for
 * 25.08 s); ns whole; from 1000 s up whole seconds rounded half up
 * ("4821 s"). Writes at most cap bytes; returns buf.
 */
const char *fmt_ns(char *buf, size_t cap, uint64_t ns);

/*
 * The label of a median's distribution-free interval, from its coverage
 * (percent x 100, as lib/stats.h stats_median_ci95() gives it for n
 * samples): "95% interval" when it reaches 95 % (n >= 6), else the
 * interval stats_median_ci95() falls back to, the whole range, with what it
 * covers, 1 - 2^(1 - n), trailing zeros dropped: "min..max, 50%" (n = 2),
 * "min..max, 87.5%" (n = 4), "min..max, 0%" (n = 1). One rule with
 * tools/hzlib/compare_stat.py median_ci_label(), both checked against
 * tests/vectors/ci_label.txt. Writes at most cap bytes; returns buf.
 */
const char *fmt_ci_label(char *buf, size_t cap, unsigned cover_x100);

#endif /* HZ_LIB_FMT_H */
