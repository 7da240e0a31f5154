/*
 * scenarios/prezero/plan.c - run=prezero's and run=policies' profile
 * settings (scenarios/prezero/plan.h).
 */
#include "scenarios/prezero/plan.h"

static const struct prezero_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.lead_idle_ms = 250},
    [PLAN_FULL] = {.lead_idle_ms = 1000},
};

const struct prezero_settings *prezero_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}
