/*
 * scenarios/prezero/plan.c - run=prezero's profile settings and its `.plan`
 * hook (scenarios/prezero/prezero.h): the pool and lead idle of the
 * request the options ask for (measure/prezero_run.h pz_plan_ms).
 */
#include "scenarios/prezero/prezero.h"

#include "measure/prezero_run.h"

/* run=prezero is in no profile's default list: a run= list runs it under
 * run=full's row. */
static const struct prezero_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.lead_idle_ms = 250},
    [PLAN_FULL] = {.lead_idle_ms = 1000},
};

const struct prezero_settings *prezero_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

void prezero_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out)
{
    out->ms = pz_plan_ms(prezero_settings_get(p)->lead_idle_ms, m, 1);
}
