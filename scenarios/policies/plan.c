/*
 * scenarios/policies/plan.c - run=policies' `.plan` hook
 * (scenarios/policies/policies.h): one run of the requested workload per
 * policy (measure/prezero_run.h pz_plan_ms).
 */
#include "scenarios/policies/policies.h"

#include "measure/prezero_run.h"

void policies_plan(const struct plan_profile *p, const struct plan_machine *m,
                   struct plan_part *out)
{
    out->ms = pz_plan_ms(p, m, PZ_NPOLICIES + (pz_req_options(p).zero_cpus > 0));
}
