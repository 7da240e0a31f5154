/*
 * tools/linux-bench/bench.h - the Linux user-space twin of the kernel's clear
 * measurements: the same strategy routines (arch/clear_*), statistics
 * (lib/stats.c) and record writer (lib/record.c), run on a hugetlb
 * region, so that numbers from hugezero and from Linux can be compared line
 * by line. Records: docs/results.md (`header` with "boot":"linux", `linux_fault`,
 * `pass`/`fail`/`skip`, `summary`), scenarios/clear/records.md `clear`.
 *
 *   linux_bench.c  options, header/summary records, main
 *   region.c       map the region (1 GiB hugetlb, 2 MiB hugetlb, THP) and time
 *                  Linux's own fault path (the kernel zeroes the huge page)
 *   measure.c      dirty / clear in chunks / verify, per strategy and chunk
 *   threads.c      the same on N pinned threads at once (--threads N)
 */
#ifndef HZ_TOOLS_LINUX_BENCH_H
#define HZ_TOOLS_LINUX_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/clear.h"
#include "lib/stats.h"
#include "measure/clear_record.h"

#define LB_MAX_CHUNKS 16
#define LB_MAX_REPEATS 1000
#define LB_MAX_STRATEGIES 32
#define LB_MAX_THREADS 64

struct bench_opts {
    uint64_t size;                  /* bytes cleared per repeat */
    uint64_t chunks[LB_MAX_CHUNKS]; /* bytes per call */
    size_t n_chunks;
    const struct clear_strategy *strategies[LB_MAX_STRATEGIES];
    size_t n_strategies;
    unsigned repeats; /* timed repeats (a warm-up comes first) */
    bool quick;
    unsigned threads;              /* --threads N: all-thread cells too when N > 1 */
    unsigned cpus[LB_MAX_THREADS]; /* the CPUs thread 0..N-1 are pinned to */
};

enum backing { BACKING_HUGETLB_1G, BACKING_HUGETLB_2M, BACKING_THP, BACKING_COUNT };

struct region {
    uint8_t *base;
    size_t size;       /* bytes used (opts.size) */
    size_t map_bytes;  /* bytes mapped: size rounded up to page_bytes */
    size_t page_bytes; /* huge page size of the backing */
    enum backing backing;
    /* Linux's fault path: mmap + first write to every page, per repeat. */
    unsigned repeats;
    struct stats fault_ns; /* ns per repeat */
    uint64_t fault_min_cyc;
    uint64_t mmap_ns_median;            /* the mmap() call alone */
    struct stats touch_ns;              /* the first writes alone (no mmap), ns per page fault */
    uint64_t touch_run[LB_MAX_REPEATS]; /* the same per repeat, in run order */
    uint64_t thp_bytes; /* THP backing: AnonHugePages of the process after the touch */
};

/* Pass/fail/skip counters behind the summary record. */
struct tally {
    unsigned pass, fail, skip;
};

/* Monotonic time in ns (CLOCK_MONOTONIC). */
uint64_t lb_now_ns(void);

/* The TSC at the end of a timed region, after its earlier instructions:
 * RDTSCP where CPUID.80000001H:EDX[27] says the CPU has it (some guests
 * report none, and it then raises #UD), else LFENCE; RDTSC; then LFENCE
 * (SDM Vol. 2B "RDTSCP"). Callers MFENCE first to drain stores. output.c. */
uint64_t lb_tsc_end(void);

/* Print a finished record line (stdout, newline added). */
void lb_emit(const char *line);

/* Emit a `pass`, `fail` or `skip` record and count it. reason may be NULL. */
void lb_check(struct tally *t, const char *type, const char *name, const char *reason);

/* "hugetlb_1g", "hugetlb_2m", "thp"; and the header page_size "1G", "2M", "thp". */
const char *backing_name(enum backing b);
const char *backing_page_size(enum backing b);

/*
 * Map opts->size bytes: 1 GiB hugetlb, else 2 MiB hugetlb, else an
 * madvise(MADV_HUGEPAGE) region, saying on stdout why each failed and what
 * to do. Times mmap + first touch `repeats` times after one warm-up,
 * keeping the last mapping. 0 on success, -1 when nothing could be mapped.
 */
int region_map(struct region *r, uint64_t size, unsigned repeats);
void region_unmap(struct region *r);

/* The `linux_fault` record and a human line for r. */
void region_report(const struct region *r);

/* Measure every strategy x chunk of opts on r: `clear` records, a human
 * table, and one pass/fail/skip `clear.verify.<name>` check per strategy. */
void measure_all(const struct bench_opts *opts, const struct region *r, struct tally *t);

/* The all-thread cells of opts->threads (> 1) pinned threads, every
 * supported strategy and chunk (no larger than a thread's slice), warm and
 * cold, with a pass/fail per strategy (tools/linux-bench/threads.c). */
void measure_threads(const struct bench_opts *opts, const struct region *r, struct tally *t);

/* The first opts->threads CPUs of this process's affinity mask into
 * opts->cpus (call before pinning to one); prints why and exits 2 when
 * there are fewer (threads.c). */
void lb_pick_cpus(struct bench_opts *opts);

/* One row of the human table (measure.c). */
void lb_print_row(const struct clear_result *c);

#endif /* HZ_TOOLS_LINUX_BENCH_H */
