/*
 * measure/clear_record.h - the `clear` record (scenarios/clear/records.md
 * `clear`): one measured
 * (strategy, chunk, cache state) cell of a clear benchmark. Portable: the
 * kernel's `run=clear` and `run=smp` and tools/linux-bench print it, so the
 * kernel's and Linux's figures compare field by field.
 */
#ifndef HZ_MEASURE_CLEAR_RECORD_H
#define HZ_MEASURE_CLEAR_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"
#include "measure/time_lost.h"

/* One measured (strategy, chunk, cache state) cell, for clear_record(). */
struct clear_result {
    const char *strategy; /* table name */
    uint64_t chunk;       /* bytes per call */
    uint64_t bytes;       /* bytes cleared per repeat (all calls, all threads) */
    const char *cache;    /* "warm", "cold" or "first_touch" */
    unsigned threads, repeats;
    struct stats ns;    /* nanoseconds per repeat (stats_compute) */
    uint64_t min_cyc;   /* fewest TSC cycles of any repeat */
    bool verified;      /* every repeat read back all zero */
    const char *source; /* "hugezero" (the kernel) or "linux" (tools/linux-bench) */
    /* Interference (arch/steal.h); NULL steal_method: not measured, members
     * left out. "kvm_steal_time": steal_ns stolen during steal_base_ns of
     * the timed repeats (each from its dirtying pass to its zero check);
     * "tsc_poll_gaps": steal_ns of gaps seen while polling
     * the TSC for steal_base_ns beside the repeats. */
    const char *steal_method;
    uint64_t steal_ns, steal_base_ns;
    /* Cold cells: whether the eviction was seen to work (measure/evict.h);
     * cold_ratio_x100 the median cold / warm probe time x 100; cache_why
     * (CACHE_NOT_COLD) why it was not (clear_cache_check()). */
    enum clear_cache_check { CACHE_UNCHECKED = 0, CACHE_VERIFIED, CACHE_NOT_COLD } cache_check;
    uint64_t cold_ratio_x100;
    /* Every timed repeat's ns in run order (samples_ns, at most
     * CLEAR_RECORD_SAMPLES printed; NULL: none), what hz compare and make
     * bench compare (lib/compare.h); and why the cell stopped taking
     * repeats (lib/interleave.h: "decided", "budget", "cap"; NULL: not
     * raced, member null). */
    const uint64_t *samples;
    size_t nsamples;
    const char *stop;
    const char *cache_why;
    /* SMIs and large TSC gaps during the timed repeats (measure/
     * time_lost.h); NULL: not watched, members left out. */
    const struct time_lost *lost;
};

#define CLEAR_RECORD_SAMPLES 128 /* lib/compare.h CMP_MAX_N */

/*
 * Decide whether a cold cell was cold (scenarios/clear/records.md
 * `clear`, its `cache_verified`):
 * CACHE_VERIFIED when a flush instruction was used (have_flush), the CPU is
 * not emulated (tcg false) and the median cold / warm probe ratio
 * ratio_x100 is at least EVICT_COLD_RATIO_X100 (measure/evict.h); else CACHE_NOT_COLD with
 * *why set to a static reason. Under TCG the ratio is the emulator's (its
 * soft TLB and helper calls), not a cache's, so it proves nothing.
 */
enum clear_cache_check clear_cache_check(bool have_flush, bool tcg, uint64_t ratio_x100,
                                         const char **why);

/* Steal above this share of steal_base_ns (percent x 100) flags a cell. */
#define CLEAR_STEAL_FLAG_X100 100

/* Share of steal_base_ns that was stolen, percent x 100 (0 without a base). */
uint64_t clear_steal_x100(const struct clear_result *r);

/*
 * Format the `clear` record (scenarios/clear/records.md `clear`) into buf (cap bytes, at least
 * 64, HZ_RECORD_MAX is plenty) and return the line (no newline). gbps and
 * gbps_median come from ns.min and ns.median, gbps_lo/gbps_hi from the
 * median's interval (ns.ci_hi, ns.ci_lo), cpb from min_cyc; noisy is
 * stats_noisy(&ns) (information only: no decision reads it); peak_gbps is
 * the best sample (STREAM's best-of, labelled so), outliers the Tukey
 * counts of ns (lib/stats.h) with outlier_hi_x the range of the slow ones
 * over the median, too_few fewer repeats than lib/compare.h CMP_MIN_N.
 * Steal and cache members only when measured; cache_why with
 * cache_verified:false.
 */
const char *clear_record(char *buf, size_t cap, const struct clear_result *r);

#endif /* HZ_MEASURE_CLEAR_RECORD_H */
