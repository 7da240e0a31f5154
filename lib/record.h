/*
 * lib/record.h - the machine-readable result records (docs/results.md).
 *
 * A record is one line: "@hz " followed by one JSON object whose first two
 * members are "t" (record type) and "v" (schema version, HZ_RECORD_VERSION).
 * The writer is portable C that formats into a caller's buffer; the kernel
 * prints finished lines with record_emit() (lib/print.h), the host tools
 * (tools/linux-bench) with fputs. Numbers are integers or fixed-point
 * decimals: no floating point is used.
 */
#ifndef HZ_LIB_RECORD_H
#define HZ_LIB_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HZ_RECORD_PREFIX "@hz "
#define HZ_RECORD_VERSION 1
#define HZ_RECORD_MAX 4096 /* bytes per record line, NUL included */
#define HZ_RECORD_DEPTH 8  /* nesting of objects/arrays */

struct rec {
    char *buf;
    size_t cap;
    size_t len;
    bool overflow; /* something did not fit: see rec_end */
    int depth;     /* open containers beyond the record */
    int dropped;   /* containers dropped for lack of room */
    bool need_comma[HZ_RECORD_DEPTH + 1];
    bool in_array[HZ_RECORD_DEPTH + 1];
};

/*
 * Start a record of type `type` in buf (cap bytes, at least 64). Writes
 * `@hz {"t":"<type>","v":1`. The buffer belongs to the caller until rec_end.
 */
void rec_begin(struct rec *r, char *buf, size_t cap, const char *type);

/*
 * Add a member. Inside an array pass key = NULL to add an element; a key in
 * an array or a NULL key in an object is dropped and sets overflow. Strings
 * are JSON-escaped (", \, control bytes as \u00XX; bytes >= 0x80 are passed
 * through). A NULL string value is written as JSON null.
 */
void rec_str(struct rec *r, const char *key, const char *val);
void rec_u64(struct rec *r, const char *key, uint64_t val);
void rec_i64(struct rec *r, const char *key, int64_t val);
void rec_bool(struct rec *r, const char *key, bool val);
/* val when known, else JSON null (a figure there were too few samples for). */
void rec_u64_opt(struct rec *r, const char *key, bool known, uint64_t val);
/* A hexadecimal string "0x..." (JSON has no hex numbers). */
void rec_hex(struct rec *r, const char *key, uint64_t val);
/* The decimal number val / 10^digits, digits 0..9: (12345, 3) -> 12.345. */
void rec_fixed(struct rec *r, const char *key, uint64_t val, unsigned digits);
/* The same for a signed val: (-1250, 2) -> -12.50. */
void rec_sfixed(struct rec *r, const char *key, int64_t val, unsigned digits);

/* Open/close a nested object or array (at most HZ_RECORD_DEPTH deep;
 * deeper opens set overflow and are dropped with their contents). */
void rec_obj_begin(struct rec *r, const char *key);
void rec_obj_end(struct rec *r);
void rec_arr_begin(struct rec *r, const char *key);
void rec_arr_end(struct rec *r);

/*
 * Close every open container and the record, and return the NUL-terminated
 * line (no newline). If anything overflowed, the members that did not fit
 * are dropped, the line stays valid JSON, and it ends with "trunc":true.
 */
const char *rec_end(struct rec *r);

#endif /* HZ_LIB_RECORD_H */
