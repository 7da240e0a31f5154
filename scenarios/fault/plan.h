/*
 * scenarios/fault/plan.h - run=fault's settings under each run profile
 * (lib/plan.h); priced with plan_fault_ms(). Portable, host-tested by
 * tests/unit/test_plan.c.
 */
#ifndef HZ_SCENARIOS_FAULT_PLAN_H
#define HZ_SCENARIOS_FAULT_PLAN_H

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct fault_settings {
    unsigned rounds; /* rounds of the fault test: each faults every page twice (>= 10) */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct fault_settings *fault_settings_get(const struct plan_profile *p);

#endif /* HZ_SCENARIOS_FAULT_PLAN_H */
