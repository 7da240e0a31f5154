/*
 * bench/interference.h - the memory work of the `interference` scenario
 * (bench/interference.c): victims that one CPU runs, and the background
 * zeroer the other CPUs run meanwhile (bench/interference_work.c).
 *
 * Victims:
 *   chase   a dependent pointer chase: one node per 64-byte line, the nodes
 *           linked in one random cycle (Sattolo's algorithm, a uniformly
 *           random cyclic permutation: Knuth TAOCP Vol. 2 §3.4.2 exercise
 *           14), so each load's address comes from the previous load and
 *           hardware prefetchers cannot guess the next line. Time per load
 *           is the load-to-use latency of the level the set lives in.
 *   read    a sequential read of every 8-byte word, `passes` times: the
 *           streaming victim (a set of 4 x LLC, read once) and the "tenant"
 *           (a set of LLC size, warmed, then re-read).
 * Zeroer: clears its share of frames with an arch/clear.h strategy through
 * measure/memop.h, in calls of at most `chunk` bytes, round and round until
 * told to stop; rate-limited runs clear `per_period` bytes per TSC period
 * of `period_cyc` cycles and spin (PAUSE) for the rest of the period
 * (HawkEye-style pacing, Panwar et al., ASPLOS 2019: N bytes per period).
 * A zeroer without a strategy only spins (PAUSE) until told to stop: the
 * control that keeps the other CPU busy without touching memory, so that
 * on an overcommitted host the CPU contention alone can be told apart.
 *
 * Portable: memory accesses, the TSC and fences only (no printing, nothing
 * privileged, no GS), so everything here runs at CPL 3 under arch/user.h
 * and builds for the host unit tests. Memory is given as measure/split.h
 * extents (physical = virtual in the kernel's identity map).
 */
#ifndef HZ_BENCH_INTERFERENCE_H
#define HZ_BENCH_INTERFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"
#include "measure/split.h"

#define INTERF_LINE 64u /* bytes per chase node: one cache line */

/*
 * Link the first `bytes` of ext[0..next) (target space, measure/split.h;
 * bytes a multiple of INTERF_LINE, at least 2 lines, inside the extents)
 * into one pointer cycle: the first 8 bytes of each line hold the address
 * of the next line of the cycle, drawn by Sattolo's algorithm from a
 * SplitMix64 stream seeded with `seed` (lib/interleave.h). Writes only the
 * first word of each line. Returns the address of line 0 (the start), or 0
 * for bad input (nothing written).
 */
uint64_t interf_chase_build(const struct split_extent *ext, size_t next, uint64_t bytes,
                            uint64_t seed);

/* Follow `loads` links from `start` (a cycle of interf_chase_build) and
 * return the address reached (use it, so the loads cannot be dropped). */
uint64_t interf_chase(uint64_t start, uint64_t loads);

/* Read every 8-byte word of the first `bytes` of ext[0..next) (a multiple
 * of 8) `passes` times; returns their sum (use it, likewise). */
uint64_t interf_read(const struct split_extent *ext, size_t next, uint64_t bytes, unsigned passes);

/* One zeroer CPU's work: the argument of interf_zeroer_run(). */
struct interf_zeroer {
    const struct clear_strategy *s; /* NULL: spin only, clear nothing */
    const struct split_extent *ext; /* the share: [off, off + bytes) of target space */
    size_t next;
    uint64_t off, bytes;           /* multiples of 4096, bytes > 0 */
    uint64_t chunk;                /* bytes per call of s->fn at most (a multiple of 4096) */
    uint64_t period_cyc;           /* rate limit: TSC cycles per period (0: unthrottled) ... */
    uint64_t per_period;           /* ... and bytes cleared in each (a multiple of 4096) */
    uint64_t seed;                 /* clear_dirty() pattern written before the start */
    const volatile uint32_t *stop; /* set by the victim: leave after this call */
    /* results */
    uint64_t cleared; /* bytes cleared, all passes */
    uint64_t cyc;     /* TSC cycles from the start to the stop */
    bool zero;        /* every byte cleared so far reads back zero */
    uint64_t bad;     /* !zero: target-space offset of the first non-zero byte */
};

/* Dirty the share (every byte non-zero, clear_dirty with z->seed): call
 * before interf_zeroer_run, outside any timed region. */
void interf_zeroer_dirty(struct interf_zeroer *z);

/*
 * Clear the share from its start in calls of at most z->chunk bytes,
 * wrapping round at its end, until *z->stop is set (checked between calls
 * and while pacing), then check that every byte cleared so far reads back
 * zero (all of the share once a pass completed). Throttled (period_cyc >
 * 0): per_period bytes, then PAUSE until the period ends; a period that
 * overran by more than one period is not made up. Fills the results.
 */
void interf_zeroer_run(struct interf_zeroer *z);

#endif /* HZ_BENCH_INTERFERENCE_H */
