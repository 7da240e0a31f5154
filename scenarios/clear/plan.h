/*
 * scenarios/clear/plan.h - run=clear's settings under each run profile
 * (lib/plan.h) and the price of its sweep: portable, host-tested by
 * tests/unit/test_plan.c. scenarios/clear/run.c's `.plan` hook counts the
 * cells the run will take and prices them here.
 */
#ifndef HZ_SCENARIOS_CLEAR_PLAN_H
#define HZ_SCENARIOS_CLEAR_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct clear_settings {
    bool all_strategies;       /* false: the reduced set (clear_quick_set(), arch/clear.h) */
    bool small_target;         /* warm and cold cells on the half-LLC target too */
    unsigned chunks;           /* chunk sizes of the sweep: 3 = 4K,2M,1G; 4 adds 32M */
    struct plan_rounds rounds; /* timed rounds (>= 10), most, budget seconds of the race */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct clear_settings *clear_settings_get(const struct plan_profile *p);

/* Cells of the sweep settings s plan on facts f (strategies x chunks on
 * the large target, warm and cold 4K and 2M on the small one). */
unsigned clear_plan_cells(const struct clear_settings *s, const struct plan_facts *f);

/*
 * Milliseconds of `big` cold cells on f->big_bytes and `small` cells on
 * f->small_bytes in rounds r (scenarios/clear/cells.c: per repeat of a
 * large-target cell the clear and the zero check fused with the next
 * repeat's dirtying, the eviction sweep in the fixed part; a small-target
 * cell also dirties its target first), priced as if every cell stayed in
 * the race (scenarios/clear/race.h): an upper bound.
 */
uint64_t clear_plan_cells_ms(const struct plan_rounds *r, unsigned big, unsigned small,
                             const struct plan_facts *f, const struct plan_machine *m);

/* Milliseconds of the whole sweep settings s plan on facts f. */
uint64_t clear_plan_ms(const struct clear_settings *s, const struct plan_facts *f,
                       const struct plan_machine *m);

#endif /* HZ_SCENARIOS_CLEAR_PLAN_H */
