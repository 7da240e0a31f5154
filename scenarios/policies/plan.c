/*
 * scenarios/policies/plan.c - run=policies' profile settings
 * (scenarios/policies/plan.h), portable, and its `.plan` hook
 * (scenarios/policies/policies.h), kernel only: one run of the requested
 * workload per policy (measure/prezero_run.h pz_plan_ms).
 */
#include "scenarios/policies/plan.h"

static const struct policies_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.lead_idle_ms = 250},
    [PLAN_FULL] = {.lead_idle_ms = 1000},
};

const struct policies_settings *policies_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

#ifndef HZ_HOSTED
#include "measure/prezero_run.h"
#include "scenarios/policies/policies.h"

void policies_plan(const struct plan_profile *p, const struct plan_machine *m,
                   struct plan_part *out)
{
    unsigned idle_ms = policies_settings_get(p)->lead_idle_ms;
    out->ms = pz_plan_ms(idle_ms, m, PZ_NPOLICIES + (pz_req_options(idle_ms).zero_cpus > 0));
}
#endif /* !HZ_HOSTED */
