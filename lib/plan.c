/*
 * lib/plan.c - the run profiles and the pricing arithmetic (lib/plan.h).
 * What each scenario does per repeat, and so what it costs, is priced in
 * its own scenarios/NAME/plan.c with these parts; a pass is one sweep of
 * the bytes by one CPU.
 */
#include "lib/plan.h"

static const struct plan_profile profiles[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.name = "default", .id = PLAN_DEFAULT},
    [PLAN_FULL] = {.name = "full", .id = PLAN_FULL},
};

/* Fitted to `make run` (run=default) and `run=full` on the development
 * machine, 2026-12-01 (docs/options.md "Run profiles"). */
const struct plan_machine plan_machine_dev = {
    .pass_mbps = 30000,
    .smp_pass_mbps = 45000,
    .fault_us = 400,
    .boot_ms = 11000,
    .cell_us = 3000,
};

const struct plan_profile *plan_profile_get(enum plan_profile_id id)
{
    return (unsigned)id < PLAN_PROFILES ? &profiles[id] : &profiles[PLAN_DEFAULT];
}

/* Microseconds for `passes` passes over `bytes` at `mbps` 10^6 B/s. */
static uint64_t pass_us(uint64_t bytes, unsigned passes, uint64_t mbps)
{
    return mbps ? bytes * passes / mbps : 0;
}

uint64_t plan_kind_us(uint64_t bytes, unsigned passes, uint64_t kind_mbps,
                      const struct plan_machine *m)
{
    return pass_us(bytes, passes, kind_mbps ? kind_mbps : m->pass_mbps);
}

uint64_t plan_pass_us(uint64_t bytes, unsigned passes, const struct plan_machine *m)
{
    return pass_us(bytes, passes, m->pass_mbps);
}

uint64_t plan_rounds_us(uint64_t round_us, const struct plan_rounds *r)
{
    if (!round_us)
        return 0;
    uint64_t extra = (uint64_t)r->budget_s * 1000000 / round_us + 1;
    uint64_t most = r->max > r->min ? r->max - r->min : 0;
    return round_us * (1 + r->min + (extra < most ? extra : most));
}

uint64_t plan_rounds_ms(uint64_t round_us, unsigned min, unsigned max, unsigned budget_s)
{
    struct plan_rounds r = {min, max, budget_s};
    return plan_rounds_us(round_us, &r) / 1000;
}

uint64_t plan_smp_cell_us(uint64_t bytes, unsigned cpus, const struct plan_machine *m)
{
    return pass_us(bytes, 3, cpus > 1 ? m->smp_pass_mbps : m->pass_mbps) + m->cell_us;
}

uint64_t plan_smp_part_ms(const struct plan_rounds *r, unsigned one, unsigned many, unsigned cpus,
                          uint64_t bytes, const struct plan_machine *m)
{
    uint64_t round_us =
        one * plan_smp_cell_us(bytes, 1, m) + many * plan_smp_cell_us(bytes, cpus, m);
    return plan_rounds_us(round_us, r) / 1000;
}

uint64_t plan_fault_ms(unsigned rounds, const struct plan_facts *f, const struct plan_machine *m)
{
    uint64_t dirty = plan_kind_us(f->frame_bytes, 1, m->dirty_mbps, m);
    uint64_t clear = plan_kind_us(f->frame_bytes, 1, m->clear_mbps, m);
    return (f->frames * dirty +
            (uint64_t)rounds * f->frames * 2 * (dirty + clear + m->fault_us + m->cell_us)) /
           1000;
}

uint64_t plan_policies_ms(unsigned runs, unsigned lead_idle_ms, const struct plan_facts *f,
                          const struct plan_machine *m)
{
    if (!f->frames)
        return 0;
    uint64_t one = (uint64_t)lead_idle_ms * 1000 +
                   f->frames * (plan_kind_us(f->frame_bytes, 1, m->dirty_mbps, m) +
                                plan_kind_us(f->frame_bytes, 1, m->clear_mbps, m) + m->fault_us);
    return runs * one / 1000;
}
