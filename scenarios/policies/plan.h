/*
 * scenarios/policies/plan.h - run=policies' settings under each run
 * profile (lib/plan.h); priced with plan_policies_ms(). Portable,
 * host-tested by tests/unit/test_plan.c.
 */
#ifndef HZ_SCENARIOS_POLICIES_PLAN_H
#define HZ_SCENARIOS_POLICIES_PLAN_H

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct policies_settings {
    unsigned lead_idle_ms; /* idle before each run's first event (lead_idle=) */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct policies_settings *policies_settings_get(const struct plan_profile *p);

#endif /* HZ_SCENARIOS_POLICIES_PLAN_H */
