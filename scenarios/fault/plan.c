/*
 * scenarios/fault/plan.c - run=fault's profile settings
 * (scenarios/fault/plan.h).
 */
#include "scenarios/fault/plan.h"

static const struct fault_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.rounds = 10},
    [PLAN_FULL] = {.rounds = 10},
};

const struct fault_settings *fault_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}
