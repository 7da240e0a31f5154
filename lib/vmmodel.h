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
 * a figure the user gave, so the time is "model (B given)" and never
 * decides; else it is unknown and the model gives only a lower bound,
 * S / (T x r1), never an upper bound. How each added thread paid (the same
 * comparison, T against T - 1) is vm_scaling(): when it paid less than
 * linearly, Amdahl's law fitted to the measured curve (vm_amdahl_fit())
 * gives a second figure beside the linear lower bound. Used by run=vmstart
 * (prezero/vmstart_report.c) and the verdict's VM start item
 * (lib/verdict_vm.c).
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

/* How the curve scaled from T - 1 to T threads: lib/compare.h's comparison
 * of T's times (B side) against T - 1's (A side) at the tolerance. */
enum vm_scale {
    VM_SCALE_OPEN,      /* undecided, too few samples, or no comparison */
    VM_SCALE_PLATEAU,   /* tie or slower: the T-th thread did not pay (B is reached) */
    VM_SCALE_SUBLINEAR, /* faster, but the speed-up's whole interval is below T / (T - 1) */
    VM_SCALE_LINEAR,    /* faster, and its interval reaches T / (T - 1) */
};

/* "open", "plateau", "sublinear", "linear": as records print it (the
 * `vmstart_knee` record's `scaling`, the verdict's arg `scaling`). */
const char *vm_scale_key(enum vm_scale s);

/*
 * Classify comparison c of T threads (B) against T - 1 (A), t >= 2: its
 * outcome, and for CMP_FASTER whether the speed-up's upper end (1 / the
 * time ratio's lower end, c->lo_x1e6) is below linear scaling's T / (T - 1).
 * NULL c or t < 2: VM_SCALE_OPEN.
 */
enum vm_scale vm_scaling(const struct cmp *c, unsigned t);

/*
 * The knee of a curve measured at T = 1..n: steps[i] is the comparison of
 * T = i + 2 against T = i + 1 (n - 1 of them). Returns the first T whose
 * step vm_scaling() calls a plateau or sub-linear (adding that CPU paid less
 * than linearly, or nothing), or 0 when none is (every step linear or
 * open; also for n < 2).
 */
unsigned vm_knee(const struct cmp *steps, unsigned n);

/*
 * Fit Amdahl's law, speed-up S(T) = 1 / (s + (1 - s) / T) with serial
 * fraction s, to a curve: gbps_x1000[i] is the rate with i + 1 threads,
 * i < n, S(T) = rate(T) / rate(1). Least squares of 1 - 1/S(T) on
 * 1 - 1/T through the origin (the slope is 1 - s), over every T >= 2 with a
 * rate; s clamped to 0..1. Returns s x 10^6, or -1 when there is no rate at
 * T = 1 or no T >= 2 with one (n < 2).
 */
int64_t vm_amdahl_fit(const uint64_t *gbps_x1000, unsigned n);

/* The rate Amdahl's law with serial fraction serial_x1e6 (0..10^6) gives
 * `threads` (>= 1) from one thread's r1_x1000: r1 x S(threads), GB/s x 1000
 * (rounded to nearest; r1 below 10^10, i.e. 10^7 GB/s). */
uint64_t vm_amdahl_rate(uint64_t r1_x1000, uint64_t serial_x1e6, unsigned threads);

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
