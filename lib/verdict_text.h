/*
 * lib/verdict_text.h - every word of the verdict (issue 29): the one
 * renderer that turns a decided item (lib/verdict.h struct vd_item) into
 * its console lines, and the names the items and their records use (cell
 * ids, strategy/call size). Decide functions write no text; this file's
 * template table does, keyed by (item form, reason code or outcome).
 * tools/hzlib/verdict_text.py is the same table in Python: both render
 * tests/vectors/verdict_render.txt to the byte (tests/unit/test_verdict_text.c,
 * tests/tools/test_verdict_text.py). lib/verdict_text.c renders,
 * lib/verdict_templates.c holds the table, lib/verdict_names.c the names. docs/results.md `verdict`
 * has the record's fields and reason codes.
 *
 * Portable C, integer arithmetic, prints nothing.
 */
#ifndef HZ_LIB_VERDICT_TEXT_H
#define HZ_LIB_VERDICT_TEXT_H

#include <stddef.h>

#include "lib/verdict.h"

#define VD_LINE_WIDTH 100 /* columns of one console line */
#define VD_LINES_MAX 256  /* bytes vd_item_lines() needs at most (two lines) */

/* The template of `key` ("faster", "STRADDLES", ...) in family `form`
 * ("clear", "vmstart", "*" for the reason codes every family shares), or
 * NULL (lib/verdict_templates.c; the syntax is lib/verdict_text.c's). */
const char *vd_template(const char *form, const char *key);

/* "avx512_nt/2M": a cell's strategy and call size into buf (cap bytes). */
void vd_name_cell(const struct vd_cell *c, char *buf, size_t cap);

/* "avx512_nt/2T/1G": a cell's strategy, threads and bytes into buf (cap
 * bytes): the id of a kind of cell that times `threads` CPUs on `bytes`
 * (run=smp's, run=vmstart's). */
void vd_name_threads(const struct vd_cell *c, char *buf, size_t cap);

/* "nt<=25%": a background zeroer at a share of its peak, into buf. */
void vd_name_rate(const char *strategy, unsigned rate_pct, char *buf, size_t cap);

/* prefix and n: "T=2", "local node 0", into buf. */
void vd_name_num(const char *prefix, unsigned n, char *buf, size_t cap);

/* The cells item it named, short ids grouped by scenario in first-use
 * order: "run=clear: avx512_nt/2M cold, rep_stosb/4K cold; run=fault: ..."
 * into buf (cap bytes); returns its length (0: no cells). */
size_t vd_item_source(const struct vd_item *it, char *buf, size_t cap);

/* The block's first line, without a newline: "== verdict (run=default;
 * Hodges-Lehmann ratio intervals, tolerance +-5%)". Returns its length. */
size_t vd_header_line(const struct vd_facts *f, char *buf, size_t cap);

/*
 * Item it's console lines into buf (cap bytes, VD_LINES_MAX is enough),
 * each ended by '\n': the label, the answer with its figure and the
 * comparison that decided it, at most VD_LINE_WIDTH columns; an open item
 * (and the trust item with SMIs or TSC gaps) may add one continuation line. f gives the tolerance
 * and, with t, the trust item's facts (t may be NULL for other items). Returns the length.
 */
size_t vd_item_lines(const struct vd_item *it, const struct vd_facts *f, const struct vd_trust *t,
                     char *buf, size_t cap);

#endif /* HZ_LIB_VERDICT_TEXT_H */
