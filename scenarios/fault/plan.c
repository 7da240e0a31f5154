/*
 * scenarios/fault/plan.c - run=fault's profile settings
 * (scenarios/fault/plan.h), portable, and its `.plan` hook
 * (scenarios/fault/fault.h), kernel only.
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

#ifndef HZ_HOSTED
#include "arch/cpu.h"
#include "scenarios/fault/fault.h"

unsigned fault_rounds_of(const struct plan_profile *p)
{
    return fault_opts.rounds ? (unsigned)fault_opts.rounds
           : cpu_is_tcg()    ? 2
                             : fault_settings_get(p)->rounds;
}

void fault_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out)
{
    struct plan_facts f = {0};
    size_t n = fault_pool_plan(fault_opts.pages ? fault_opts.pages : FAULT_POOL_MAX, &f.frame_bytes,
                               fault_zero_node());
    f.frames = (unsigned)(fault_opts.pages && fault_opts.pages < n ? fault_opts.pages : n);
    out->ms = plan_fault_ms(fault_rounds_of(p), &f, m);
}
#endif /* !HZ_HOSTED */
