/*
 * lib/vmmodel.h - the arithmetic of the VM-start model (issue 24 Q2,
 * docs/prezero.md "The VM-start model"): T threads touch S bytes, each
 * touch a fault that clears its frame, so
 *
 *     time = S / min(T x r1, B)
 *
 * with r1 the measured rate of one faulting thread and B the machine's
 * memory-bandwidth ceiling. B is "measured" only when the run reached a
 * plateau (its largest thread count was not faster than the one below it,
 * lib/compare.h at the tolerance); else it is the `bw_ceiling=` option,
 * named as such; else it is unknown and the model gives only a lower bound,
 * S / (T x r1), never an upper bound. Used by run=vmstart
 * (scenarios/vmstart/report.c) and the verdict's VM start item
 * (scenarios/vmstart/verdict.c).
 *
 * Rates are GB/s x 1000 (10^9 B/s, three decimals, as lib/stats.h
 * stats_gbps_x1000()); times ns. Portable C, integer only.
 */
#ifndef HZ_LIB_VMMODEL_H
#define HZ_LIB_VMMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/compare.h"

/* The seed thread's claim: "over 40 s for 2 TB" with QEMU's 16
 * preallocation threads (MAX_MEM_PREALLOC_THREAD_COUNT, QEMU
 * util/oslib-posix.c). 2 TB is 2 x 10^12 B. */
#define VM_CLAIM_BYTES 2000000000000ull
#define VM_CLAIM_TEXT "2TB"
#define VM_CLAIM_NS 40000000000ull
#define VM_QEMU_THREADS 16

/* Where B came from. */
enum vm_bsrc {
    VM_B_UNKNOWN,  /* no plateau and no bw_ceiling=: lower bound only */
    VM_B_MEASURED, /* the run's plateau: the best median rate of the curve */
    VM_B_OPTION,   /* the bw_ceiling= option (GB/s), given by the user */
};

/* "unknown", "measured plateau", "bw_ceiling= option": as records print it
 * (record member `ceiling_source`: "unknown", "measured", "option"). */
const char *vm_bsrc_text(enum vm_bsrc s);
const char *vm_bsrc_key(enum vm_bsrc s);

/*
 * Pick B: the plateau outcome is lib/compare.h's outcome of the largest
 * thread count's times (B side) against the next smaller count's (A side):
 * CMP_TIE or CMP_SLOWER (adding a thread did not help) is a plateau and B
 * is peak_x1000 (the best median rate of the curve; 0 is not a plateau);
 * anything else (faster, undecided, too few, or -1 for "no comparison":
 * one thread count) is none, and B is option_x1000 when non-zero
 * (VM_B_OPTION), else 0 (VM_B_UNKNOWN). *b_x1000 gets B.
 */
enum vm_bsrc vm_ceiling(int plateau_outcome, uint64_t peak_x1000, uint64_t option_x1000,
                        uint64_t *b_x1000);

/* One evaluation of the model. */
struct vm_model {
    uint64_t bytes;    /* S, bytes (> 0) */
    unsigned threads;  /* T (> 0) */
    uint64_t r1_x1000; /* measured rate of one thread, GB/s x 1000 */
    uint64_t b_x1000;  /* B, GB/s x 1000; 0 with VM_B_UNKNOWN */
    enum vm_bsrc src;
    /* results of vm_model_eval() */
    uint64_t rate_x1000; /* min(T x r1, B), or T x r1 with B unknown (saturating) */
    uint64_t ns;         /* S / rate rounded to nearest; UINT64_MAX: no rate or overflow */
    bool lower_bound;    /* B unknown: ns is a lower bound (the time is at least ns) */
    bool capped;         /* B known and below T x r1: the ceiling sets the time */
};

/* Fill m's results from its inputs. r1 0 gives ns UINT64_MAX. */
void vm_model_eval(struct vm_model *m);

/*
 * Parse a VM size in the claim's units: decimal digits then "TB", "GB"
 * (10^12, 10^9) or "TiB", "GiB" (2^40, 2^30), e.g. "2TB", "1536GiB".
 * Returns 0 with *bytes and *decimal (true for TB/GB), or -1 with a reason
 * in err (n bytes) for anything else (no unit, 0, a fraction, overflow).
 */
int vm_size_parse(const char *v, uint64_t *bytes, bool *decimal, char *err, size_t n);

/*
 * S for people in its own kind of unit: decimal sizes in TB or GB
 * ("2 TB", "1.5 TB", "500 GB"), binary ones in TiB or GiB ("2 TiB"), with
 * up to three decimals (trailing zeros dropped), rounded half up.
 */
void vm_size_text(char *buf, size_t cap, uint64_t bytes, bool decimal);

/*
 * A GB/s x 1000 value as text: `bw_ceiling=` parses "GB/s" with up to
 * three decimals ("204.8", "100"), 1..10^7 GB/s. Returns 0 and *x1000, or
 * -1 with a reason in err.
 */
int vm_gbps_parse(const char *v, uint64_t *x1000, char *err, size_t n);

#endif /* HZ_LIB_VMMODEL_H */
