/*
 * bench/clear_record.h - the `clear` record (docs/results.md): one measured
 * (strategy, chunk, cache state) cell of a clear benchmark. Portable: the
 * kernel's `run=clear` and `run=smp` and tools/linux-bench print it, so the
 * kernel's and Linux's figures compare field by field.
 */
#ifndef HZ_BENCH_CLEAR_RECORD_H
#define HZ_BENCH_CLEAR_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

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
};

/*
 * Format the `clear` record (docs/results.md) into buf (cap bytes, at least
 * 64, HZ_RECORD_MAX is plenty) and return the line (no newline). gbps and
 * gbps_median come from ns.min and ns.median, cpb from min_cyc.
 */
const char *clear_record(char *buf, size_t cap, const struct clear_result *r);

#endif /* HZ_BENCH_CLEAR_RECORD_H */
