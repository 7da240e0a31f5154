/*
 * prezero/prezero.c - the scenarios `prezero` (the configured policy) and
 * `policies` (every policy, same workload and seed, one boot), docs/prezero.md.
 * Each builds its requests from the options (measure/prezero_run.h
 * pz_req_options) and runs them with pz_run_one(); the runner, its options
 * and its checks are measure/'s, shared with run=vmstart.
 */
#include "kernel/scenario.h"
#include "lib/plan.h"
#include "measure/fault_pool.h"
#include "measure/prezero_run.h"
#include "mm/demand.h"

/* What `runs` runs of the workload take under profile p (lib/plan.h
 * policies_ms): the pool pz_run_one() sets up, the lead idle. */
static void plan_runs(const struct plan_profile *p, const struct plan_machine *m, unsigned runs,
                      struct plan_part *out)
{
    struct pz_req r = pz_req_options(p);
    struct plan_profile q = *p;
    struct plan_facts f = {0};
    f.frames = (unsigned)fault_pool_plan(r.pages ? r.pages : DEMAND_MAX_PAGES, &f.frame_bytes,
                                         fault_zero_node());
    q.policies = runs;
    q.lead_idle_ms = (unsigned)(r.lead_idle_ns / 1000000);
    out->ms = plan_policies_ms(&q, &f, m);
}

static void prezero_plan(const struct plan_profile *p, const struct plan_machine *m,
                         struct plan_part *out)
{
    plan_runs(p, m, 1, out);
}

/* Every policy, and idle once more with its zeroers off (zero_cpus > 0). */
static void policies_plan(const struct plan_profile *p, const struct plan_machine *m,
                          struct plan_part *out)
{
    plan_runs(p, m, PZ_NPOLICIES + (pz_req_options(p).zero_cpus > 0), out);
}

static void scenario_prezero_run(void)
{
    static struct pz_result r;
    struct pz_req q = pz_req_options(scenario_profile());
    pz_check_cpus(q.fault_cpus, q.zero_cpus);
    pz_run_one(&q, &r);
}

static void scenario_policies_run(void)
{
    static struct pz_result r[PZ_NPOLICIES], off;
    size_t n = 0;
    struct pz_req base = pz_req_options(scenario_profile());
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

HZ_SCENARIO(scenario_prezero, .name = "prezero", .run = scenario_prezero_run, .plan = prezero_plan,
            .order = 30, .help = "one workload under the prezero= policy (docs/prezero.md)");
HZ_SCENARIO(scenario_policies, .name = "policies", .run = scenario_policies_run,
            .plan = policies_plan, .order = 31, .in_default = true,
            .help = "the workload under every pre-zeroing policy, side by side");
