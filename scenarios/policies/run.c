/*
 * scenarios/policies/run.c - `run=policies`: the workload under every
 * pre-zeroing policy, same workload and seed, one boot, side by side
 * (docs/prezero.md). It builds its requests from the options
 * (measure/prezero_run.h pz_req_options) and runs each with pz_run_one();
 * the runner, its options and its checks are measure/'s.
 */
#include "kernel/scenario.h"
#include "measure/prezero_run.h"
#include "scenarios/policies/plan.h"
#include "scenarios/policies/policies.h"

static void scenario_policies_run(void)
{
    static struct pz_result r[PZ_NPOLICIES], off;
    size_t n = 0;
    struct pz_req base = pz_req_options(policies_settings_get(scenario_profile())->lead_idle_ms);
    pz_check_cpus(base.fault_cpus, base.zero_cpus);
    for (unsigned k = 0; k < PZ_NPOLICIES; k++) {
        /* batch: batch=N's N, else every page (pz_run_one) */
        struct pz_req q = base;
        q.policy = (struct pz_policy_cfg){(enum pz_policy)k, k == PZ_BATCH ? base.zero_request : 0};
        /* Interference: idle with its zeroers off (the idle loop on the
         * faulting CPU) first, then with them; compared by fault kind. */
        struct pz_req q_off = q;
        q_off.zeroers_off = true;
        bool has_off = k == PZ_IDLE && q.zero_cpus > 0 && pz_run_one(&q_off, &off) == 0;
        if (has_off) {
            r[n].has_off = true; /* pz_run_one keeps these; the record carries both */
            r[n].off_hit = off.lat.hit;
            r[n].off_miss = off.lat.miss;
        }
        if (pz_run_one(&q, &r[n]) < 0)
            break; /* no frames: every other policy would stop the same way */
        n++;
    }
    if (n)
        pz_report_table(r, n);
}

HZ_SCENARIO(scenario_policies, .name = "policies", .run = scenario_policies_run,
            .plan = policies_plan, .order = 31, .in_default = true,
            .help = "the workload under every pre-zeroing policy, side by side");
