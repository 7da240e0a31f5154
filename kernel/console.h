/*
 * kernel/console.h - the serial console: line-oriented output (never screen
 * repaints), one lock so that lines from several CPUs never interleave
 * mid-line. Human text goes through kprintf(); machine records through
 * record_emit() (docs/results.md). Human text never carries the record
 * prefix: "@hz" in it is printed as "@_hz".
 */
#ifndef HZ_KERNEL_CONSOLE_H
#define HZ_KERNEL_CONSOLE_H

#include <stddef.h>

#include "lib/record.h"

/* Bring up the console: COM1 at 115200 unless `console=` was given (the
 * option is applied by console_option_parse through the option table). */
void console_init(void);

/* Print formatted human text (hz_snprintf conversions, up to 1 KiB per call);
 * the whole call is written under the console lock. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Finish a record with rec_end() and print it as one line. */
void record_emit(struct rec *r);

/* Print a finished record line (from rec_end() or clear_record()). */
void record_emit_line(const char *line);

/* Crash path: from now on, a lock held too long (by a CPU that died inside
 * the console) is broken after a bounded wait instead of deadlocking. */
void console_crash_mode(void);

/*
 * Parse a `console=` value: ttyS0..ttyS3[,baud] or mmio32,0xADDR[,baud]
 * (baud: 9600, 19200, 38400, 57600 or 115200; an MMIO UART without a baud
 * keeps the firmware's divisor). Stores the choice for console_init(); after
 * console_init() it has no effect.
 * Returns 0, or -1 with a reason in err.
 */
int console_option_parse(const char *value, char *err, size_t errlen);

#endif /* HZ_KERNEL_CONSOLE_H */
