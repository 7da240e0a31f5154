/*
 * scenarios/interference/plan.c - run=interference's profile settings and
 * its `.plan` hook (scenarios/interference/priv.h): the runs the scenario
 * makes, priced from the same cache sizes, cells and rounds the run uses.
 */
#include "scenarios/interference/priv.h"

#include "arch/cpu.h"
#include "kernel/smp.h"

/* The same rounds under both profiles, as before profiles had rows: the
 * scenario is not in run=default, and a run= list is run=full. */
static const struct interference_settings settings[PLAN_PROFILES] = {
    [PLAN_DEFAULT] = {.rounds = 10},
    [PLAN_FULL] = {.rounds = 10},
};

const struct interference_settings *interference_settings_get(const struct plan_profile *p)
{
    return &settings[plan_profile_get(p->id)->id];
}

unsigned if_rounds_of(const struct plan_profile *p)
{
    return if_opts.rounds ? (unsigned)if_opts.rounds
           : cpu_is_tcg() ? 2
                          : interference_settings_get(p)->rounds;
}

/* A model: the chases' latency is not calibrated, it is the one the chase
 * sizing assumes (if_sizes(): 600 ns a load under nested paging). */
#define IF_PLAN_LOAD_NS 600
void interference_plan(const struct plan_profile *p, const struct plan_machine *m,
                       struct plan_part *out)
{
    static struct if_state q; /* sizes only */
    if (smp_online() < 2)
        return;
    unsigned zeroers = if_zeroers_supported();
    uint64_t loads = if_sizes(&q, if_opts.l2, if_opts.llc),
             load_us = loads * IF_PLAN_LOAD_NS / 1000;
    uint64_t read_mbps = m->check_mbps ? m->check_mbps : m->pass_mbps;
    uint64_t share = (if_opts.share ? if_opts.share : cpu_is_tcg() ? 16ull << 20 : 1ull << 30);
    uint64_t dirty_us = share / (m->dirty_mbps ? m->dirty_mbps : m->pass_mbps);
    uint64_t victims_us = (6 + 6) * load_us + 5 * load_us / 4 +
                          (5 * 4 * q.llc + 6 * 2 * q.llc) / read_mbps + m->cell_us;
    uint64_t refs_us = 12 * load_us + (6 * 2 * q.l2 + 6 * 2 * q.llc / 8) / read_mbps;
    unsigned cells = 2 + zeroers * IF_RATES; /* the victims alone, the spin control */
    unsigned nr = if_rounds_of(p);
    uint64_t hold_us = cpu_is_tcg() ? 20000 : 200000;
    out->ms = (IF_RES_ROUNDS * (victims_us + refs_us) + 2 * IF_HOST_ROUNDS * victims_us +
               IF_PEAK_ROUNDS * (uint64_t)(zeroers + 1) * (hold_us + dirty_us) +
               (uint64_t)nr * cells * (victims_us + dirty_us)) /
              1000;
    out->cells = cells;
}
