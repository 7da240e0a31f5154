/*
 * scenarios/policies/policies.h - what run=policies' files share
 * (scenarios/policies/run.c: the HZ_SCENARIO row and the run;
 * scenarios/policies/plan.c: its profile settings, scenarios/policies/plan.h,
 * and `.plan` hook). Not a public interface.
 */
#ifndef HZ_SCENARIOS_POLICIES_POLICIES_H
#define HZ_SCENARIOS_POLICIES_POLICIES_H

#include "lib/plan.h"

/* The `.plan` hook (kernel/scenario.h): every policy, and idle once more
 * with its zeroers off (zero_cpus > 0), under profile p, priced with m.
 * Boot CPU, after start-up. */
void policies_plan(const struct plan_profile *p, const struct plan_machine *m,
                   struct plan_part *out);

#endif /* HZ_SCENARIOS_POLICIES_POLICIES_H */
