/*
 * lib/print.h - the output stream: human text (kprintf) and machine records
 * (record_emit, docs/results.md) as lines, under one lock so that lines from
 * several CPUs never interleave mid-line. The bytes go to a sink that the
 * console (arch/console.h) sets; before that, and without one, they are
 * dropped but records are still counted. Human text never carries the record
 * prefix: "@hz" in it is printed as "@_hz". Every line ends in CR LF on the
 * sink. Portable: the host unit tests give it a sink of their own.
 */
#ifndef HZ_LIB_PRINT_H
#define HZ_LIB_PRINT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/record.h"

/* Where the bytes go: put() is called for each byte under the stream's
 * lock (never concurrently). NULL: bytes are dropped. */
struct print_sink {
    void (*put)(char c);
};

/* Use `sink` (kept, not copied) from now on; NULL drops the bytes. */
void print_set_sink(const struct print_sink *sink);

/* Print formatted human text (hz_snprintf conversions, up to 1 KiB per call);
 * the whole call is written under the lock. Control bytes other than newline
 * are written as \xNN. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Finish a record with rec_end() and print it as one line. */
void record_emit(struct rec *r);

/*
 * Print a finished record line (from rec_end() or clear_record()), with
 * `,"seq":N` put after its "v" member: N counts the records of this boot
 * from 0, in the order they are printed (under the lock). A line not in
 * rec_begin()'s form is printed as it is, and still counted.
 */
void record_emit_line(const char *line);

/*
 * The stream so far, read under the lock: the number of records printed
 * (so the next one's seq) and the CRC-32 (zlib's) of those lines as sent,
 * each from "@hz " to its last "}" and followed by one "\n" (the CR of the
 * CR LF is not counted). docs/results.md "summary".
 */
void print_stream(uint64_t *records, uint32_t *crc32);

/* Run fn(arg) under the lock: no byte goes to the sink meanwhile. */
void print_locked(void (*fn)(void *arg), void *arg);

/* Crash path: from now on, a lock held too long (by a CPU that died inside
 * the stream) is broken after a bounded wait instead of deadlocking. */
void print_crash_mode(void);

#endif /* HZ_LIB_PRINT_H */
