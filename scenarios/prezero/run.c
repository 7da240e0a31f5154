/*
 * scenarios/prezero/run.c - `run=prezero`: one workload under the
 * configured policy (prezero=), docs/prezero.md. It builds its request from
 * the options (measure/prezero_run.h pz_req_options) and runs it with
 * pz_run_one(); the runner, its options and its checks are measure/'s,
 * shared with run=policies and run=vmstart.
 */
#include "kernel/scenario.h"
#include "measure/prezero_run.h"
#include "scenarios/prezero/prezero.h"

static void scenario_prezero_run(void)
{
    static struct pz_result r;
    struct pz_req q = pz_req_options(prezero_settings_get(scenario_profile())->lead_idle_ms);
    pz_check_cpus(q.fault_cpus, q.zero_cpus);
    pz_run_one(&q, &r);
}

HZ_SCENARIO(scenario_prezero, .name = "prezero", .run = scenario_prezero_run, .plan = prezero_plan,
            .order = 30, .help = "one workload under the prezero= policy (docs/prezero.md)");
