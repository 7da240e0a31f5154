/*
 * measure/memop.h - the memory work every benchmark does at the measurement
 * CPL: dirty a target, clear it through a strategy of arch/clear.h in
 * chunks, and check it reads back zero (every byte, or sampled). One path
 * for run=clear, run=smp, the fault scenarios (scenarios/fault/run.c) and
 * tools/linux-bench, so they measure and check the same way.
 *
 * Portable: memory accesses, the TSC and fences only (no printing, no
 * privileged instruction, no GS), so it runs at CPL 3 under arch/user.h and
 * builds for host user space.
 */
#ifndef HZ_MEASURE_MEMOP_H
#define HZ_MEASURE_MEMOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"

/*
 * Clear [dst, dst + bytes) with back-to-back calls of s->fn of `chunk`
 * bytes each, the last call getting the remainder; chunk 0 means one call.
 * No contract check: dst, chunk and bytes must meet s's alignment and
 * multiple (clear_contract_ok()), and s must be supported on this CPU.
 */
void memop_clear(const struct clear_strategy *s, void *dst, uint64_t bytes, uint64_t chunk);

enum memop_check {
    MEMOP_EXACT,   /* every byte */
    MEMOP_SAMPLED, /* first and last 4 KiB and 62 pseudo-random 64-byte lines */
};

/* "full" / "sampled", the names records and options use. */
const char *memop_check_name(enum memop_check how);

/*
 * True when [p, p + bytes) reads back zero under `how` (any alignment; bytes
 * 0 is true). MEMOP_SAMPLED reads 8-byte words: p must be 8-byte aligned, and
 * targets under 16 KiB are checked exactly. On false, *first (may be NULL)
 * is the offset of the first non-zero byte found (the lowest one for
 * MEMOP_EXACT; for MEMOP_SAMPLED the lowest in the samples).
 */
bool memop_verify_zero(const volatile void *p, uint64_t bytes, enum memop_check how,
                       uint64_t *first);

/* One piece of memory work: the argument of memop_run(). */
struct memop {
    enum memop_op {
        MEMOP_DIRTY,        /* clear_dirty_fast(): string stores, may bypass the cache */
        MEMOP_DIRTY_CACHED, /* clear_dirty(): plain stores, the lines end in the cache */
        MEMOP_CLEAR,
        MEMOP_VERIFY,
        MEMOP_VERIFY_DIRTY
    } op;
    void *p;
    uint64_t bytes;
    const struct clear_strategy *s; /* MEMOP_CLEAR: the strategy ... */
    uint64_t chunk;                 /* ... and bytes per call (0: one call) */
    uint64_t seed;                  /* MEMOP_DIRTY*, MEMOP_VERIFY_DIRTY: the pattern's seed */
    enum memop_check check;         /* MEMOP_VERIFY: how (MEMOP_VERIFY_DIRTY: every byte) */
    unsigned delay_pct;             /* MEMOP_CLEAR: the A/B control (docs/validation.md): after the
                                       clear, spin on the TSC for delay_pct % of its own cycles inside
                                       the timed interval (0: none) */
    /* results */
    uint64_t cycles;       /* MEMOP_CLEAR: TSC cycles, tsc_start() to tsc_stop() (arch/tsc.h) */
    uint64_t clear_cycles; /* MEMOP_CLEAR: of them the clear's own, before any delay */
    bool zero;             /* MEMOP_VERIFY(_DIRTY): read back zero */
    uint64_t first;        /* MEMOP_VERIFY(_DIRTY), !zero: offset of the non-zero byte found */
};

/*
 * Do the work of `arg` (a struct memop) on the calling CPU at the current
 * CPL: the shape of arch/user.h's user_run() callback. MEMOP_CLEAR is timed
 * with tsc_start()/tsc_stop() (MFENCE; LFENCE; RDTSC; LFENCE), so
 * non-temporal stores are drained inside the interval; a delay_pct spin
 * starts after that drain, so cycles >= clear_cycles (100 + delay_pct) / 100.
 * MEMOP_VERIFY_DIRTY is the exact check and then the dirtying for the next
 * clear in one pass (arch/clear.h clear_verify_dirty()).
 */
void memop_run(void *arg);

#endif /* HZ_MEASURE_MEMOP_H */
