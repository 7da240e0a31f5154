/*
 * measure/time_lost.h - time the machine took away from a timed cell, which
 * no steal-time MSR counts (scenarios/clear/records.md `clear`: its `smi` and `gaps` members;
 * docs/results.md `time_lost`):
 *
 * - System Management Interrupts. Intel counts them in MSR_SMI_COUNT
 *   (MSR 34H, bits 31:0, read-only: SDM Vol. 4, the MSR tables of the
 *   Nehalem and later families); it is read around each timed repeat where the CPU
 *   is Intel with MSRs (CPUID.01H:EDX[5]) and a guarded RDMSR of it
 *   succeeds (arch/msr.h). AMD has no such counter: smi_known stays false.
 * - Large TSC gaps. A repeat (its dirtying pass, eviction, timed clear and
 *   zero check) whose TSC span is more than twice the fastest span of the
 *   cell so far and longer than it by more than TL_GAP_NS lost that excess
 *   to something else: a paused VM (a SIGSTOP'd QEMU: the TSC runs on),
 *   host preemption, long SMIs. The steal poll (arch/steal.h) samples 5 us
 *   gaps in a window beside the repeat; no poll can look inside the timed
 *   clear, so the repeat's span is what sees a gap there. A slow phase of a
 *   shared host (1.3-1.8 x, the guide's figures) stays below the 2 x rule.
 */
#ifndef HZ_MEASURE_TIME_LOST_H
#define HZ_MEASURE_TIME_LOST_H

#include <stdbool.h>
#include <stdint.h>

#define TL_GAP_NS 10000000ull /* 10 ms: shorter excesses are not called gaps */
#define TL_NAMES 8            /* cells named per list in the `time_lost` record */

/* One cell's account. Zero-initialise. */
struct time_lost {
    bool smi_known;        /* MSR_SMI_COUNT was read around every timed repeat */
    uint64_t smi;          /* SMIs counted during them */
    unsigned gaps;         /* timed repeats with a gap */
    uint64_t gap_total_ns; /* their excesses, summed */
    uint64_t gap_max_ns;   /* the longest */
    uint64_t fastest_ns;   /* the fastest repeat span so far (0: none yet) */
};

/*
 * Account one repeat of span_ns (its TSC span in ns) to t by the rule
 * above; an untimed repeat (timed false: the warm-up) only sets the
 * fastest span. Returns the gap counted, 0 when none. Pure.
 */
uint64_t tl_repeat(struct time_lost *t, uint64_t span_ns, bool timed);

struct rec;
/* The members `smi` (the count, or null when !t->smi_known) and `gaps`
 * (an object: count, total_ns, max_ns) into record r (scenarios/clear/records.md
 * `clear`). Portable. */
void tl_rec_members(struct rec *r, const struct time_lost *t);

/* Kernel only, CPL 0, boot CPU (after idt_init): MSR_SMI_COUNT into *v;
 * false where it cannot be read (not Intel, no MSRs, the RDMSR faulted:
 * probed once, the answer kept). */
bool tl_smi_read(uint64_t *v);

/* Kernel only: add cell `id` (its verdict id, e.g. clear/rep_stosb/2M/warm/
 * 1G; smp_fill/4T for a fill cell) to the run's summary. */
void tl_run_add(const char *id, const struct time_lost *t);

/* Kernel only: emit the `time_lost` record of run=`scenario` from the
 * cells added since the last call, and start a new summary. */
void tl_run_record(const char *scenario);

#endif /* HZ_MEASURE_TIME_LOST_H */
