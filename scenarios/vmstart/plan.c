/*
 * scenarios/vmstart/plan.c - run=vmstart's profile settings (which rows it
 * measures, the lead idle of its workload runs) and its `.plan` hook
 * (scenarios/vmstart/vmstart.h): the pool size_run() sets up and its
 * cells, priced as lib/plan.h prices run=policies.
 */
#include "scenarios/vmstart/vmstart.h"

#include "kernel/smp.h"
#include "measure/fault_pool.h"
#include "mm/demand.h"

/* run=default: only the qemu rows, the verdict's VM start item. */
static const struct vmstart_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.all_rows = false, .lead_idle_ms = 250},
    [PLAN_FULL] = {.all_rows = true, .lead_idle_ms = 1000},
};

const struct vmstart_settings *vmstart_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

enum vs_kind vs_first_kind(const struct plan_profile *p)
{
    bool all = vs_opts.rows ? vs_opts.rows == 1 : vmstart_settings_get(p)->all_rows;
    return all ? VS_NONE : VS_Q4K;
}

void vmstart_plan(const struct plan_profile *p, const struct plan_machine *m, struct plan_part *out)
{
    uint64_t fb = 0;
    size_t frames = fault_pool_plan(DEMAND_MAX_PAGES, &fb, fault_zero_node());
    uint64_t want = fb ? vs_frames_wanted(fb) : 0;
    frames = want < frames ? (size_t)want : frames;
    unsigned cells = (VS_KINDS - vs_first_kind(p)) * vs_tmax_of(smp_online());
    uint64_t repeat_us = pz_lead_idle_ns(vmstart_settings_get(p)->lead_idle_ms) / 1000 +
                         plan_pass_us(frames * fb, 2, m) + frames * m->fault_us + m->cell_us;
    out->cells = cells;
    out->ms =
        plan_pass_us(frames * fb, 1, m) / 1000 + /* size_run()'s dirtying pool */
        plan_rounds_ms(cells * repeat_us, (unsigned)vs_opts.rounds, (unsigned)vs_opts.rounds, 0);
}
