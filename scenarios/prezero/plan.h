/*
 * scenarios/prezero/plan.h - run=prezero's and run=policies' settings under
 * each run profile (lib/plan.h); priced with plan_policies_ms(). Portable,
 * host-tested by tests/unit/test_plan.c.
 */
#ifndef HZ_SCENARIOS_PREZERO_PLAN_H
#define HZ_SCENARIOS_PREZERO_PLAN_H

#include "lib/plan.h"

/* What a profile runs, where no option overrides it. */
struct prezero_settings {
    unsigned lead_idle_ms; /* idle before each policy's workload (`lead_idle=`) */
};

/* Profile p's settings (the default's for an unknown profile). */
const struct prezero_settings *prezero_settings_get(const struct plan_profile *p);

#endif /* HZ_SCENARIOS_PREZERO_PLAN_H */
