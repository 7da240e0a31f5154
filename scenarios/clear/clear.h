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
#include "scenarios/clear/plan.h"

/*
 * Run strategy s over every contract-legal and -illegal (offset, size) pair
 * of a fixed list inside buf (at least CLEAR_CORRECTNESS_BUF bytes, 4 KiB-aligned, owned by
 * the caller), with 256 guard bytes each side. Legal calls must zero exactly
 * the target; illegal ones must be rejected by clear_checked() with nothing
 * written. Returns true, or false with a reason in why (cap bytes).
 */
#define CLEAR_CORRECTNESS_BUF (1048640 + 4096 + 2 * 256)

bool clear_correctness(const struct clear_strategy *s, uint8_t *buf, char *why, size_t cap);

/* Whether strategy s is in the sweep under settings p: strategies=, else
 * the reduced set (arch/clear.h clear_quick_set()) unless p runs them all. */
bool clear_selected(const struct clear_strategy *s, const struct clear_settings *p);

/* Profile p's values for the options not given: the run's and plan's rule.
 * Returns the chunk list (*nch sizes) and the rounds *min, *max and
 * *budget (seconds). */
const uint64_t *clear_option_settings(const struct clear_settings *p, size_t *nch, uint64_t *min,
                                      uint64_t *max, uint64_t *budget);

/* The large and the small target in an arena of arena_bytes, bytes (the
 * small one half the LLC, at most a quarter of the large one; clear_bytes=
 * or 64 MiB under TCG caps the large one). */
void clear_targets(uint64_t arena_bytes, uint64_t *large, uint64_t *small);

/* The `.plan` hook (kernel/scenario.h): the cells of the run's arena (1
 * GiB, else 2 MiB), strategies and chunks (lib/plan.h); under TCG no race
 * (max = min). Boot CPU, after start-up. */
void clear_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out);

#endif /* HZ_SCENARIOS_CLEAR_CLEAR_H */
