/*
 * scenarios/clear/clear.h - the single-thread clear benchmark (`run=clear`):
 * every supported strategy of arch/clear.h at every chunk size, on a target
 * larger than the LLC (cold: CLFLUSHOPT sweep and LLC read pass, checked by
 * a timed probe; measure/evict.h) and one smaller (warm and cold), plus one
 * first clear of frames never touched since boot; each timed clear is
 * preceded by a non-zero dirtying pass (zero-store elimination) and followed
 * by a full zero check. The cells run interleaved in seeded random rounds
 * (scenarios/clear/cells.h). A separate correctness pass runs every strategy
 * over odd sizes and alignments inside guard bytes. Results are `clear`
 * records (median with its 95 % interval, noisy/steal/cache flags), a
 * `clear_run` record, `pass`/`fail`/`skip` records per strategy and a human
 * table sorted by median GB/s naming the fastest strategy per chunk size.
 */
#ifndef HZ_SCENARIOS_CLEAR_CLEAR_H
#define HZ_SCENARIOS_CLEAR_CLEAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"

/*
 * Run strategy s over every contract-legal and -illegal (offset, size) pair
 * of a fixed list inside buf (at least CLEAR_CORRECTNESS_BUF bytes, 4 KiB-aligned, owned by
 * the caller), with 256 guard bytes each side. Legal calls must zero exactly
 * the target; illegal ones must be rejected by clear_checked() with nothing
 * written. Returns true, or false with a reason in why (cap bytes).
 */
#define CLEAR_CORRECTNESS_BUF (1048640 + 4096 + 2 * 256)

bool clear_correctness(const struct clear_strategy *s, uint8_t *buf, char *why, size_t cap);

#endif /* HZ_SCENARIOS_CLEAR_CLEAR_H */
