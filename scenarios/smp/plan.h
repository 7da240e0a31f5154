/*
 * scenarios/smp/plan.h - run=smp's settings under each run profile
 * (lib/plan.h), its thread counts and the price of its cells: portable,
 * host-tested by tests/unit/test_plan.c. scenarios/smp/run.c's `.plan`
 * hook takes the run's own selection and prices it here.
 */
#ifndef HZ_SCENARIOS_SMP_PLAN_H
#define HZ_SCENARIOS_SMP_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct smp_settings {
    bool all_counts;           /* 1, 2, 4, 8, 16 and all CPUs; false: 1 and all */
    bool all_strategies;       /* false: rep_stosb and the non-temporal pick */
    bool fill;                 /* the QEMU-like fill of every free frame */
    struct plan_rounds rounds; /* timed rounds of a cell (>= 10), most, budget per part */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct smp_settings *smp_settings_get(const struct plan_profile *p);

/* Most thread counts of run=smp (smp_plan_counts()). */
#define SMP_COUNTS_MAX 6

/* The thread counts run=smp measures with `online` CPUs, ascending into
 * out[0..SMP_COUNTS_MAX): 1, 2, 4, 8, 16 below online (only 1 unless
 * all_counts), then online. Returns how many; 0 for no CPU. */
unsigned smp_plan_counts(bool all_counts, unsigned online, unsigned *out);

/* Strategies settings s measure of f->strategies supported: all, or 2. */
unsigned smp_plan_strategies(const struct smp_settings *s, const struct plan_facts *f);

/*
 * Milliseconds of run=smp on facts f: interleaved rounds r (after
 * measure/smp_rounds.h smp_rounds_apply()) of `strategies` x the thread
 * counts of settings s, each repeat a dirty, clear and check of
 * f->smp_bytes; with s->fill, rounds of a fill of f->frames x
 * f->frame_bytes (dirty and clear) per thread count, fill_repeats at least.
 * No CPUs plan 0.
 */
uint64_t smp_plan_ms(const struct smp_settings *s, const struct plan_rounds *r, unsigned strategies,
                     unsigned fill_repeats, const struct plan_facts *f,
                     const struct plan_machine *m);

#endif /* HZ_SCENARIOS_SMP_PLAN_H */
