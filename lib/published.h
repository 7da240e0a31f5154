/*
 * lib/published.h - the clear_pages() series' published 1 GiB hugetlb
 * demand-fault figures, per preemption model (docs/validation.md "The
 * published figures": "[PATCH v8 6/7] mm, folio_zero_user: support
 * clearing page ranges", 2025-10-27, AMD EPYC 7J13 (Milan), `perf bench
 * mem map -f demand`, page at a time before the series and with it).
 * Under preempt=full/lazy the series clears the whole folio in one extent;
 * under preempt=none/voluntary it clears in batches, 8 MiB in v8 (the
 * merged batch is 32 MiB). run=faultclear prints them beside its
 * predicted gains (bench/fault_clear_report.c), the verdict's fault item
 * beside its clear_pages() gain (lib/verdict_items.c).
 *
 * Portable C, static data.
 */
#ifndef HZ_LIB_PUBLISHED_H
#define HZ_LIB_PUBLISHED_H

#include <stdint.h>

#define PUB_FAULT_BYTES (1ull << 30) /* the published faults' page: 1 GiB hugetlb */

/* One published fault figure: GB/s x 10 before the series and with it. */
struct pub_fault {
    const char *preempt;            /* "none/voluntary" or "full/lazy" */
    const char *version;            /* the series version it is from: "v8" */
    uint64_t before_x10, after_x10; /* GB/s x 10 */
    uint64_t batch;                 /* bytes per clear_pages() batch; 0: one extent */
};

/*
 * The published CPU that stands for a CPU (CPUID vendor string, family and
 * model, as arch/cpu.h reads them): "milan" for AMD family 0x19 model 0x01
 * (the same CPU), "milan_family" for another AMD family 0x19 model (the
 * nearest anchor, not the same CPU), NULL for anything else (the series
 * published no figure per preemption model for it). vendor NULL: NULL.
 */
const char *pub_fault_cpu(const char *vendor, unsigned family, unsigned model);

/* The published figure under preemption model `preempt` ("none/voluntary",
 * "full/lazy") for the CPU pub_fault_cpu() names, or NULL (no CPU, another
 * preempt such as "any", or NULL). */
const struct pub_fault *pub_fault_find(const char *cpu, const char *preempt);

/* Its gain, after / before, x 1000 (rounded down). */
uint64_t pub_fault_gain_x1000(const struct pub_fault *p);

#endif /* HZ_LIB_PUBLISHED_H */
